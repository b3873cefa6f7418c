"""Redaction benchmark: recall on realistic secrets, survival of look-alikes.

    python bench/redaction.py            # a line per miss, JSON figures on the last line
    python bench/redaction.py --verbose  # also show every redacted sample

The corpus is built here: secrets in the surroundings they are really met in
(logs, env dumps, config files, URLs, shell commands, stack traces), and
look-alikes that must come out unchanged (git SHAs, UUIDs, lock-file hashes,
base64 of ordinary data, long identifiers, public keys, placeholders). Values
are generated from a fixed seed in each vendor's real format. Targets: 100%
recall, >= 95% look-alikes kept.
"""
from __future__ import annotations

import argparse
import base64
import json
import random
import statistics
import string
import time

from lorebook.redact import redact

RNG = random.Random(20261130)
B62 = string.ascii_letters + string.digits
HEX = "0123456789abcdef"


def rand(n: int, alphabet: str = B62) -> str:
    return "".join(RNG.choice(alphabet) for _ in range(n))


def b64(nbytes: int) -> str:
    return base64.b64encode(bytes(RNG.randrange(256) for _ in range(nbytes))).decode()


def pem(label: str, lines: int = 6) -> tuple[str, list[str]]:
    body = [b64(48) for _ in range(lines)]
    block = f"-----BEGIN {label}-----\n" + "\n".join(body) + f"\n-----END {label}-----"
    return block, body


def secrets() -> list[tuple[str, str, list[str]]]:
    """(name, text, fragments that must not survive)."""
    out: list[tuple[str, str, list[str]]] = []

    def add(name, text, *fragments):
        out.append((name, text, list(fragments)))

    akia = "AKIA" + rand(16, string.ascii_uppercase + string.digits)
    add("aws access key in env dump", f"HOME=/root\nAWS_ACCESS_KEY_ID={akia}\nAWS_DEFAULT_REGION=eu-west-1", akia)
    aws_secret = rand(30) + "/" + rand(9, B62 + "+")
    add("aws secret in credentials file",
        f"[default]\naws_access_key_id = AKIA{rand(16, string.ascii_uppercase + string.digits)}\n"
        f"aws_secret_access_key = {aws_secret}\nregion = us-east-1", aws_secret)
    sts_secret, sts_token = rand(40, B62 + "/+"), "IQoJb3JpZ2luX2VjE" + rand(180, B62 + "/+") + "=="
    asia = "ASIA" + rand(16, string.ascii_uppercase + string.digits)
    add("aws sts json", json.dumps({"Credentials": {"AccessKeyId": asia, "SecretAccessKey": sts_secret,
                                                    "SessionToken": sts_token, "Expiration": "2026-11-30T03:00:00Z"}},
                                   indent=4), asia, sts_secret, sts_token)
    asia2 = "ASIA" + rand(16, string.ascii_uppercase + string.digits)
    add("aws key in botocore log",
        f"2026-11-30 02:11:09,114 botocore.auth DEBUG Calculating signature using v4 auth. Credential={asia2}/20261130/us-east-1/s3/aws4_request",
        asia2)
    ghp = "ghp_" + rand(36)
    add("github token in remote url", f"$ git remote -v\norigin\thttps://{ghp}@github.com/acme/widget.git (fetch)", ghp)
    pat = "github_pat_" + rand(22) + "_" + rand(59)
    add("github fine-grained pat in gh output",
        f"github.com\n  ✓ Logged in to github.com account octo (keyring)\n  - Token: {pat}\n  - Token scopes: 'repo'", pat)
    gho = "gho_" + rand(36)
    add("github oauth token in hosts.yml", f"github.com:\n    user: octo\n    oauth_token: {gho}\n    git_protocol: https", gho)
    ghs = "ghs_" + rand(36)
    add("github actions token in CI log", f"##[debug]Evaluating: secrets.GITHUB_TOKEN\n##[debug]Result: '{ghs}'", ghs)
    glpat = "glpat-" + rand(20, B62 + "-_")
    add("gitlab token in clone url", f"git clone https://oauth2:{glpat}@gitlab.com/acme/infra.git", glpat)
    runner = "GR1348941" + rand(20, B62 + "-_")
    add("gitlab runner token", f'[[runners]]\n  name = "docker-runner"\n  url = "https://gitlab.com/"\n  token = "{runner}"', runner)
    xoxb = f"xoxb-{rand(12, string.digits)}-{rand(13, string.digits)}-{rand(24)}"
    add("slack bot token in python", f'from slack_sdk import WebClient\nclient = WebClient(token="{xoxb}")', xoxb)
    xoxp = f"xoxp-{rand(11, string.digits)}-{rand(11, string.digits)}-{rand(12, string.digits)}-{rand(32, HEX)}"
    add("slack user token in curl", f"curl -s -H 'Authorization: Bearer {xoxp}' https://slack.com/api/auth.test", xoxp)
    hook = f"https://hooks.slack.com/services/T{rand(8, string.ascii_uppercase + string.digits)}/B{rand(10, string.ascii_uppercase + string.digits)}/{rand(24)}"
    add("slack webhook in curl", f"curl -X POST -H 'Content-type: application/json' --data '{{\"text\":\"deploy ok\"}}' {hook}", hook)
    sk_live = "sk_live_" + rand(24)
    add("stripe live key in python", f'import stripe\nstripe.api_key = "{sk_live}"\nstripe.Charge.create(amount=2000)', sk_live)
    rk = "rk_test_" + rand(24)
    add("stripe restricted key in env", f"STRIPE_RESTRICTED={rk}\nSTRIPE_MODE=test", rk)
    whsec = "whsec_" + rand(32)
    add("stripe webhook secret in dotenv", f"# stripe\nSTRIPE_WEBHOOK_SIGNING={whsec}", whsec)
    sk_proj = "sk-proj-" + rand(48, B62 + "-_") + "T3BlbkFJ" + rand(48, B62 + "-_")
    add("openai key in traceback",
        f"openai.AuthenticationError: Error code: 401 - {{'error': {{'message': 'Incorrect API key provided: {sk_proj}.'}}}}", sk_proj)
    sk_old = "sk-" + rand(20) + "T3BlbkFJ" + rand(20)
    add("openai legacy key export", f"export OPENAI_API_KEY={sk_old}", sk_old)
    ant = "sk-ant-api03-" + rand(93, B62 + "-_") + "AA"
    add("anthropic key in curl header",
        f'curl https://api.anthropic.com/v1/messages -H "x-api-key: {ant}" -H "anthropic-version: 2023-06-01"', ant)
    aiza = "AIza" + rand(35, B62 + "-_")
    add("google api key in url", f"GET https://maps.googleapis.com/maps/api/geocode/json?address=Paris&key={aiza} 200", aiza)
    gocspx = "GOCSPX-" + rand(28, B62 + "-_")
    add("google oauth client secret json",
        json.dumps({"installed": {"client_id": "123-abc.apps.googleusercontent.com", "client_secret": gocspx}}), gocspx)
    ya29 = "ya29.a0" + rand(120, B62 + "-_")
    add("google access token bearer", f"> Authorization: Bearer {ya29}\n< HTTP/2 200", ya29)
    jwt = ("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9." + base64.urlsafe_b64encode(
        json.dumps({"sub": "1234567890", "name": "Jane", "iat": 1795999136}).encode()).decode().rstrip("=") + "." + rand(43, B62 + "-_"))
    add("jwt in request log", f'127.0.0.1 - - [30/Nov/2026:02:11:09] "GET /api/me HTTP/1.1" 200 - auth={jwt}', jwt)
    jwt2 = "eyJhbGciOiJSUzI1NiIsImtpZCI6IjEifQ.eyJ" + rand(60, B62 + "-_") + "." + rand(86, B62 + "-_")
    add("jwt in cookie header", f"Cookie: theme=dark; access_token_cookie={jwt2}; lang=en", jwt2)
    rsa, rsa_body = pem("RSA PRIVATE KEY")
    add("rsa key block from cat", f"$ cat deploy/id_rsa\n{rsa}\n$ ", *rsa_body)
    ossh, ossh_body = pem("OPENSSH PRIVATE KEY", 5)
    add("openssh key block", f"Here is the key:\n{ossh}\n", *ossh_body)
    pk, pk_body = pem("PRIVATE KEY", 4)
    add("service account json private key", json.dumps({"type": "service_account", "private_key": pk + "\n",
                                                        "client_email": "ci@proj.iam.gserviceaccount.com"}),
        *pk_body)
    pgpw = rand(14)
    add("postgres url in env", f"DATABASE_URL=postgres://app:{pgpw}@db.internal:5432/app?sslmode=require", pgpw)
    mpw = rand(16)
    add("mongodb srv url in log", f"[INFO] connecting to mongodb+srv://svc_api:{mpw}@cluster0.x1y2z.mongodb.net/prod", mpw)
    rpw = rand(20)
    add("redis url with empty user", f"REDIS_URL=redis://:{rpw}@cache.internal:6379/0", rpw)
    apw = "rbt" + rand(10) + "@2"
    add("amqp url with @ in password", f"celery -A app worker --broker=amqp://worker:{apw}@rabbit:5672//", apw)
    cpw = rand(12) + "-" + rand(4)
    add("curl basic auth flag", f"$ curl -sf -u deploy:{cpw} https://ci.acme.io/api/json", cpw)
    hpw = rand(14)
    add("wget user flag", f"wget --user=ops:{hpw} https://files.acme.io/backup.tgz", hpw)
    mypw = "Hunter2" + rand(6) + "!"
    add("mysql -p password", f"$ mysql -u root -p{mypw} -h 127.0.0.1 app < schema.sql", mypw)
    adopw = rand(12) + "!9"
    add("ado.net connection string",
        f'"ConnectionStrings": {{"Default": "Server=tcp:acme.database.windows.net,1433;Database=app;User ID=admin;Password={adopw};Encrypt=True;"}}',
        adopw)
    acct = b64(64)
    add("azure storage connection string",
        f"DefaultEndpointsProtocol=https;AccountName=acmeprod;AccountKey={acct};EndpointSuffix=core.windows.net", acct)
    jpw = rand(12)
    add("jdbc url password param", f"spring.datasource.url=jdbc:postgresql://db:5432/app?user=app&password={jpw}", jpw)
    add("compose yaml password", "services:\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_PASSWORD: correct-horse-battery-staple\n",
        "correct-horse-battery-staple")
    add("json password field", '{"username": "admin", "password": "Tr0ub4dor&3", "remember": true}', "Tr0ub4dor&3")
    add("python password constant", 'DB_PASSWORD = "s3cr3t-Value!"\nDB_HOST = "localhost"', "s3cr3t-Value!")
    dj = "django-insecure-" + rand(50, B62 + "!@#%^&*(-_=+)")
    dj = dj.replace("'", "").replace('"', "")
    add("django secret key", f"SECRET_KEY = '{dj}'\nDEBUG = True", dj)
    apikey = rand(32)
    add("export api key", f"export MAPBOX_API_KEY={apikey}", apikey)
    hexkey = rand(32, HEX)
    add("yaml api key hex", f"datadog:\n  api_key: {hexkey}\n  site: datadoghq.eu", hexkey)
    dpw = rand(18)
    add("docker login password flag", f"docker login registry.acme.io --username ci --password {dpw}", dpw)
    tok = rand(40)
    add("token flag with equals", f"vault login -method=token --token={tok}", tok)
    basic = base64.b64encode(b"deploy:" + rand(14).encode()).decode()
    add("basic auth header", f"GET /private HTTP/1.1\nHost: acme.io\nAuthorization: Basic {basic}\n", basic)
    xkey = rand(40)
    add("x-api-key header", f"curl -H 'X-API-Key: {xkey}' https://api.acme.io/v2/orders", xkey)
    csec = rand(40, B62 + "-_")
    add("oauth client secret in query",
        f"POST https://oauth2.acme.io/token?grant_type=client_credentials&client_id=web&client_secret={csec}", csec)
    npm = "npm_" + rand(36)
    add("npm token in npmrc", f"//registry.npmjs.org/:_authToken={npm}\nalways-auth=true", npm)
    pypi = "pypi-AgEIcHlwaS5vcmc" + rand(60, B62 + "-_")
    add("pypi token in pypirc", f"[pypi]\n  username = __token__\n  password = {pypi}", pypi)
    hf = "hf_" + rand(34)
    add("hugging face token", f"HF_TOKEN={hf} python train.py --push-to-hub", hf)
    sg = "SG." + rand(22, B62 + "-_") + "." + rand(43, B62 + "-_")
    add("sendgrid key in settings", f"EMAIL_BACKEND = 'sendgrid_backend.SendgridBackend'\nSENDGRID_API_KEY = '{sg}'", sg)
    twilio = rand(32, HEX)
    add("twilio auth token", f"TWILIO_ACCOUNT_SID=AC{rand(32, HEX)}\nTWILIO_AUTH_TOKEN={twilio}", twilio)
    dop = "dop_v1_" + rand(64, HEX)
    add("digitalocean token", f"doctl auth init --access-token {dop}", dop)
    shp = "shpat_" + rand(32, HEX)
    add("shopify token in header", f'headers = {{"X-Shopify-Access-Token": "{shp}"}}', shp)
    tg = f"{rand(10, string.digits)}:AA{rand(33, B62 + '-_')}"
    add("telegram bot url", f"requests.post('https://api.telegram.org/bot{tg}/sendMessage', data=payload)", tg)
    dwh = f"https://discord.com/api/webhooks/{rand(18, string.digits)}/{rand(68, B62 + '-_')}"
    add("discord webhook", f"WEBHOOK = '{dwh}'", dwh)
    neutral = rand(32, B62 + "+/")
    add("high-entropy value under a neutral key", f'cipher:\n  material: "{neutral}"', neutral)
    neutral2 = rand(44)
    add("high-entropy env value", f"APP_SIGNING_MATERIAL={neutral2}", neutral2)
    dsn_key = rand(32, HEX)
    add("sentry dsn", f"SENTRY_DSN=https://{dsn_key}@o450123.ingest.sentry.io/5512345", dsn_key)
    heroku = "01234567-89ab-4cde-8f01-" + rand(12, HEX)
    add("heroku api key (uuid shape)", f"HEROKU_API_KEY={heroku}", heroku)
    gen = rand(10, B62) + "#" + rand(3)
    add("generated password in tool output", f"Created user 'admin'.\nGenerated password: {gen}\nStore it safely.", gen)
    mg = "key-" + rand(32, HEX)
    add("mailgun key", f"MAILGUN_API_KEY={mg}", mg)
    k8s = base64.b64encode(b"prod-" + rand(16).encode()).decode()
    add("kubernetes secret data", f"apiVersion: v1\nkind: Secret\ndata:\n  password: {k8s}\n  username: YWRtaW4=", k8s)
    dckr = "dckr_pat_" + rand(27, B62 + "-_")
    add("docker pat", f"echo {dckr} | docker login -u acme --password-stdin", dckr)
    netrc = rand(24)
    add("netrc password", f"machine api.heroku.com\n  login ops@acme.io\n  password {netrc}", netrc)
    pgpass = rand(15)
    add("psql env var inline", f"PGPASSWORD={pgpass} psql -h db -U app -c 'select 1'", pgpass)
    add("private block", "run the deploy <private>the vault unseal phrase is tangerine-orbit-97</private> then verify",
        "tangerine-orbit-97")
    encr = rand(44, B62 + "+/")
    add("rails master key in yaml", f"production:\n  secret_key_base: {encr}\n", encr)
    cookie_secret = rand(32, HEX)
    add("session secret in js", f"app.use(session({{ secret: '{cookie_secret}', resave: false }}))", cookie_secret)
    # credentials passed as command-line options
    sp = rand(12) + "!"
    add("sshpass -p quoted", f"$ sshpass -p '{sp}' ssh deploy@10.0.4.12 'systemctl restart web'", sp)
    sp2 = rand(14)
    add("sshpass -p glued", f"sshpass -p{sp2} rsync -az build/ deploy@web1:/srv/app", sp2)
    dl = rand(20)
    add("docker login -u -p", f"$ docker login -u bot -p {dl} registry.acme.io\nLogin Succeeded", dl)
    pl = rand(16)
    add("podman login -p=", f"podman login --username ci -p={pl} quay.io", pl)
    my2 = rand(11) + "#"
    add("mysqldump -p glued", f"mysqldump -h db -u backup -p{my2} --single-transaction app > app.sql", my2)
    pgv = rand(18)
    add("PGPASSWORD export then psql", f"export PGPASSWORD={pgv}\npsql -h db -U app -d app -c '\\dt'", pgv)
    rc = rand(16)
    add("redis-cli -a", f"redis-cli -h cache.internal -p 6379 -a {rc} INFO keyspace", rc)
    sq = rand(12) + "$1"
    add("sqlcmd -P", f"sqlcmd -S tcp:db,1433 -U sa -P '{sq}' -Q 'SELECT 1'", sq)
    lw = rand(14)
    add("ldapsearch -w", f"ldapsearch -x -H ldap://ldap -D cn=admin,dc=acme,dc=io -w {lw} -b dc=acme,dc=io", lw)
    mg2 = rand(15)
    add("mongosh -p", f"mongosh --host db.internal -u admin -p {mg2} --authenticationDatabase admin", mg2)
    sm = rand(13)
    add("smbclient user%password", f"smbclient //files/share -U alice%{sm} -c 'ls'", sm)
    zp = rand(12)
    add("zip -P", f"zip -r -P {zp} backup.zip data/", zp)
    ks = rand(12)
    add("keytool -storepass", f"keytool -list -keystore app.jks -storepass {ks}", ks)
    hp = rand(12)
    add("htpasswd -b", f"htpasswd -bc .htpasswd admin {hp}", hp)
    wp = rand(14)
    add("wget --http-password", f"wget --http-user=ops --http-password={wp} https://files.acme.io/a.tgz", wp)
    # credential files, as a Read of them returns them
    pg1, pg2 = rand(16), rand(14)
    add(".pgpass", f"db.internal:5432:app:app:{pg1}\n*:*:*:postgres:{pg2}\n", pg1, pg2)
    nr = rand(20)
    add(".netrc one line", f"machine github.com login octo password {nr}\n", nr)
    gc = "ghp_" + rand(36)
    add(".git-credentials", f"https://octo:{gc}@github.com\nhttps://bot:{rand(18)}@gitlab.acme.io\n", gc)
    npm_auth = base64.b64encode(f"ci:{rand(14)}".encode()).decode()
    add(".npmrc _auth", f"registry=https://npm.acme.io/\n//npm.acme.io/:_auth={npm_auth}\nalways-auth=true", npm_auth)
    npm_legacy = "6f1d2a3b-" + rand(4, HEX) + "-4" + rand(3, HEX) + "-8" + rand(3, HEX) + "-" + rand(12, HEX)
    add(".npmrc legacy uuid token", f"//registry.npmjs.org/:_authToken={npm_legacy}", npm_legacy)
    dauth = base64.b64encode(f"bot:{rand(20)}".encode()).decode()
    add(".docker/config.json auths", json.dumps({"auths": {"https://index.docker.io/v1/": {"auth": dauth},
                                                           "ghcr.io": {"auth": dauth}}}, indent="\t"), dauth)
    ak, sk, st = "AKIA" + rand(16, string.ascii_uppercase + string.digits), rand(40, B62 + "/+"), rand(300, B62 + "/+")
    add("~/.aws/credentials profiles", f"[default]\naws_access_key_id = {ak}\naws_secret_access_key = {sk}\n\n"
        f"[ci]\naws_access_key_id={ak}\naws_secret_access_key={sk}\naws_session_token={st}\n", ak, sk, st)
    gk, gk_body = pem("PRIVATE KEY", 5)
    add("gcloud service account json key", json.dumps({
        "type": "service_account", "project_id": "acme-prod", "private_key_id": rand(40, HEX),
        "private_key": gk + "\n", "client_email": "deploy@acme-prod.iam.gserviceaccount.com",
        "client_id": rand(21, string.digits), "token_uri": "https://oauth2.googleapis.com/token"}, indent=2),
        *[line[:30] for line in gk_body])
    adc_secret, adc_refresh = "d-" + rand(22, B62 + "-_"), "1//0" + rand(60, B62 + "-_")
    add("gcloud application_default_credentials.json", json.dumps({
        "client_id": "764086051850-6qr4p6gpi6hn506pt8ejuq83di341hur.apps.googleusercontent.com",
        "client_secret": adc_secret, "refresh_token": adc_refresh, "type": "authorized_user"}, indent=2),
        adc_secret, adc_refresh)
    kube_key = base64.b64encode(pem("RSA PRIVATE KEY", 4)[0].encode()).decode()
    add("kubeconfig client-key-data", f"users:\n- name: admin\n  user:\n    client-certificate-data: "
        f"{base64.b64encode(pem('CERTIFICATE', 2)[0].encode()).decode()}\n    client-key-data: {kube_key}\n", kube_key)
    age_key = "AGE-SECRET-KEY-1" + rand(58, "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L")
    add("age identity printed bare", f"$ head -3 ~/.config/sops/age/keys.txt\n# created: 2024-02-19T10:41:07+01:00\n"
        f"# public key: age1{rand(58, 'qpzry9x8gf2tvdw0s3jn54khce6mua7l')}\n{age_key}", age_key)
    sentry = "sntrys_" + rand(120, B62) + "_" + rand(43, B62)
    add("sentry token stored under a secret's name", f"eas secret:create --scope project --name SENTRY_AUTH_TOKEN "
        f"--value {sentry} --type string --non-interactive", sentry)
    urlpw = rand(3, B62) + "@" + rand(3, B62) + "/" + rand(3, B62) + "!" + rand(4, B62)
    add("url password holding @ and /", f".env:7:AIRFLOW_CONN_WAREHOUSE=postgres://loader:{urlpw}"
        f"@warehouse-db.internal:5432/analytics", urlpw, urlpw.split("@", 1)[1])
    akid, secret = "AKIA" + rand(16, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"), rand(40, B62)
    add("aws key pair as a url's user and password", f"DEBUG load_events: engine url awsathena+rest://{akid}:{secret}"
        f"@athena.eu-west-1.amazonaws.com:443/lake?s3_staging_dir=s3://acme-athena-results/", akid, secret)
    ts_auth, ts_api = (f"tskey-{kind}-k{rand(10, B62)}CNTRL-{rand(33, B62)}" for kind in ("auth", "api"))
    add("tailscale auth key as --authkey, api key in the environment", f"sudo tailscale up --authkey={ts_auth} "
        f"--advertise-tags=tag:ci-runner\nTS_API_KEY={ts_api} ./scripts/apply-acl.sh --validate", ts_auth, ts_api)
    appcenter = rand(40, HEX)
    add("a token said in the prompt's words", f"Push the checkout fix to CodePush Staging. Use my App Center token "
        f"{appcenter}.", appcenter)
    pgmd5 = "md5" + rand(32, HEX)
    add("postgres md5 password hash", f' rolname | rolpassword\n "app_rw" "{pgmd5}"', pgmd5)
    scram = f"SCRAM-SHA-256$4096:{b64(16)}${b64(32)}:{b64(32)}"
    add("postgres scram password hash", f"select rolpassword from pg_authid where rolname = 'app_rw';\n{scram}",
        scram)
    # (round 124: a quoted key beside its quoted value, no sign between, as grep printed it)
    amanda = rand(40, B62)
    add("amanda device-property secret key", f'17:    device-property "S3_SECRET_KEY" "{amanda}"', amanda)
    # (round 125: an RPC provider's key as a URL's path after ``/v1/``, in a command)
    rpc = rand(32, HEX)
    add("rpc url key after /v1/", f"cast rpc eth_feeHistory 1 latest '[]' --rpc-url "
        f"https://rpc.devnet.acme-chain.io/v1/{rpc}", rpc)
    # (round 126: a key of words in a table, as ``sf org display`` prints a Salesforce access token)
    sf = "00D5g000004" + rand(4, B62) + "!" + rand(60, B62)
    add("sf org display access token", f" Alias            acme-prod\n Access Token     {sf}\n API Version      60.0", sf)
    # (round 127: a key in its namespace, as ``pulumi config --show-secrets`` prints it)
    dd = rand(32, HEX)
    add("pulumi config namespaced key", f"KEY                      VALUE\naws:region               eu-central-1\n"
        f"infra-net:datadogApiKey  {dd}", dd)
    # (round 128: a key's name run into its service's, and a key in an address's query, as certoraRun prints it)
    certora = rand(40, HEX)
    add("a key named run together", f"export CERTORAKEY={certora} && certoraRun certora/conf/Vault.conf", certora)
    anonymous = rand(40, HEX)
    add("a key in a url's query", f"Follow your job at https://prover.certora.com/output/48213/{rand(32, HEX)}"
        f"?anonymousKey={anonymous}", anonymous)
    # (round 128: an AWS key pair said in a prompt, and a secret key set by its name as two words of a command)
    aws_secret = rand(18, B62) + "/" + rand(21, B62)
    aws_id = "AKIA" + rand(16, string.ascii_uppercase + string.digits)
    add("aws key pair in a prompt", f"The lab MinIO keys are {aws_id} / {aws_secret}, set them up", aws_secret)
    dvc = rand(30, B62) + "/" + rand(9, B62)
    add("a secret key set as a command's two words", f"dvc remote modify --local storage secret_access_key {dvc}", dvc)
    # (round 128's final batch: a password pasted on a line of its own below the sentence that says so)
    pasted = rand(16, B62)
    add("a password pasted below its sentence", "The password is in 1Password under 'billing staging owner', I pasted "
        f"it below.\n{pasted}", pasted)
    # (round 129: a user and password said in words, a slash between; Informatica's command-line passwords)
    said = rand(5, string.ascii_lowercase) + rand(2, string.digits) + rand(5, string.ascii_uppercase)
    add("creds said with a slash", f"The staging creds are deploy / {said} on 10.0.4.12.", said)
    pm = rand(5, string.ascii_letters) + "!" + rand(4, string.digits) + "#" + rand(3, string.ascii_uppercase)
    add("pmcmd's password", f"pmcmd startworkflow -sv IS_ETL_DEV -d Domain_ETL_DEV -u etl_svc -p '{pm}' -f SALES_DM "
        "-wait wf_load_fact_sales", pm)
    add("pmrep's password", f"pmrep connect -r REP_ETL_DEV -d Domain_ETL_DEV -n etl_svc -x '{pm}'", pm)
    # (round 130: an RPC provider's key as a URL's whole path, QuickNode's)
    quick = rand(32, HEX)
    add("rpc url key as the whole path", f"cast chain-id --rpc-url https://acme-testnet.quiknode.pro/{quick}/", quick)
    # (round 131: "Creds: user / password" after a label, and a bare ``--key`` given a hex organization key)
    creds = rand(6, string.ascii_letters) + rand(4, string.digits) + rand(4, string.ascii_letters)
    add("creds label, user / password", f"Run the pending migrations. Creds: orders_app / {creds}, host db.internal.",
        creds)
    org = rand(32, HEX)
    add("bare --key flag", f"rebar3 hex organization auth acme --key {org}", org)
    return out


def lookalikes() -> list[tuple[str, str, list[str]]]:
    """(name, text, fragments that must survive verbatim)."""
    out: list[tuple[str, str, list[str]]] = []

    def add(name, text, *fragments):
        out.append((name, text, list(fragments)))

    sha = rand(40, HEX)
    add("git commit sha", f"commit {sha}\nAuthor: Jane <jane@acme.io>\n\n    Fix flaky test", sha)
    md5 = rand(32, HEX)
    add("a file's md5 checksum", f"$ md5sum dist/app.tar.gz\n{md5}  dist/app.tar.gz", md5)
    token_sha = rand(40, HEX)
    add("a commit after a token's name", f"The refresh token rotation landed in commit {token_sha}; the token "
        f"endpoint answers 401 for revoked ones.", token_sha)
    short = rand(7, HEX)
    add("short sha", f"HEAD is now at {short} Fix the retry loop", short)
    gsha = rand(40, HEX)
    add("GITHUB_SHA env", f"GITHUB_REF=refs/heads/main\nGITHUB_SHA={gsha}", gsha)
    uuid1 = "53a4cf7f-7bfe-4bb9-a9e5-715009b2d07a"
    add("uuid in json", json.dumps({"request_id": uuid1, "status": "ok"}), uuid1)
    uuid2 = "eddba359-7f78-45d7-9648-59c9e8445fce"
    add("uuid in log", f"session {uuid2} started", uuid2)
    integ = "sha512-" + b64(64)
    add("npm integrity", f'"node_modules/lodash": {{\n  "version": "4.17.21",\n  "integrity": "{integ}"\n}}', integ)
    yinteg = "sha512-" + b64(64)
    add("yarn.lock integrity", f'lodash@^4.17.21:\n  version "4.17.21"\n  integrity {yinteg}', yinteg)
    phash = "sha256:" + rand(64, HEX)
    add("poetry.lock hash", f'files = [\n    {{file = "requests-2.31.0-py3-none-any.whl", hash = "{phash}"}},\n]', phash)
    ck = rand(64, HEX)
    add("Cargo.lock checksum", f'[[package]]\nname = "serde"\nversion = "1.0.193"\nchecksum = "{ck}"', ck)
    h1 = "h1:" + b64(32)
    add("go.sum line", f"github.com/stretchr/testify v1.8.4 {h1}", h1)
    pip = rand(64, HEX)
    add("pip --hash", f"requests==2.31.0 \\\n    --hash=sha256:{pip}", pip)
    dig = rand(64, HEX)
    add("docker image digest", f"    image: nginx@sha256:{dig}", dig)
    add("npm resolved url", '"resolved": "https://registry.npmjs.org/lodash/-/lodash-4.17.21.tgz"',
        "https://registry.npmjs.org/lodash/-/lodash-4.17.21.tgz")
    data = base64.b64encode(b"Hello world, this is a test fixture for the parser.").decode()
    add("base64 of text in python", f'payload = "{data}"', data)
    readme = base64.b64encode(b"# Widget\n\nA small library for parsing widgets.\n").decode()
    add("github api content base64", json.dumps({"name": "README.md", "encoding": "base64", "content": readme}), readme)
    add("base64 jwt header only", "echo 'eyJhbGciOiJIUzI1NiJ9' | base64 -d", "eyJhbGciOiJIUzI1NiJ9")
    png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
    add("data uri", f'<img src="data:image/png;base64,{png}" alt="dot">', png)
    add("long identifier", "handler = AuthenticationTokenRefreshHandlerFactory", "AuthenticationTokenRefreshHandlerFactory")
    add("max_tokens", "response = client.messages.create(model=model, max_tokens=4096)", "max_tokens=4096")
    add("token count", "token_count: 1532\nprompt_tokens: 1200", "token_count: 1532")
    add("tokenizer name", "tokenizer: bert-base-uncased", "bert-base-uncased")
    add("password file path", "password_file: /run/secrets/db_password", "/run/secrets/db_password")
    add("PWD in env dump", "PWD=/home/user/project\nOLDPWD=/home/user", "PWD=/home/user/project")
    add("SSH_AUTH_SOCK", "SSH_AUTH_SOCK=/tmp/ssh-XXXXabcd1234/agent.4321", "/tmp/ssh-XXXXabcd1234/agent.4321")
    add("aws secret name", "secret_name: prod/db/credentials", "prod/db/credentials")
    add("pytest json counts", '{"passed": 42, "failed": 0, "skipped": 3}', '"passed": 42')
    add("bypass flag", "bypass_cache=true", "bypass_cache=true")
    add("password from environ", 'password = os.environ["DB_PASSWORD"]', 'os.environ["DB_PASSWORD"]')
    add("token from a call", "token = get_token(session)", "get_token(session)")
    add("placeholder env", "API_KEY=${API_KEY}", "${API_KEY}")
    add("bearer placeholder", 'curl -H "Authorization: Bearer $GITHUB_TOKEN" https://api.github.com/user', "$GITHUB_TOKEN")
    add("angle placeholder", "password: <your-password>", "<your-password>")
    etag = rand(40, HEX)
    add("etag header", f'ETag: "{etag}"', etag)
    add("npm cache path", "npm_config_cache=/home/u/.npm", "/home/u/.npm")
    add("dotted auth backend", 'AUTHENTICATION_BACKENDS = ["django.contrib.auth.backends.ModelBackend"]',
        "django.contrib.auth.backends.ModelBackend")
    add("auth user model", 'AUTH_USER_MODEL = "accounts.User"', "accounts.User")
    add("session engine", 'SESSION_ENGINE = "django.contrib.sessions.backends.db"', "django.contrib.sessions.backends.db")
    add("cache key", "cache_key: user-profile-v2", "user-profile-v2")
    add("primary key", "id = Column(Integer, primary_key=True)", "primary_key=True")
    add("sort key", "sort_key: created_at", "created_at")
    oid = rand(24, HEX)
    add("mongo object id", f"object_id = {oid}", oid)
    trace = rand(32, HEX)
    add("trace id", f"trace_id={trace} span_id={rand(16, HEX)} level=info msg=\"request done\"", trace)
    cid = rand(64, HEX)
    add("container id", f"container_id={cid}", cid)
    add("build id", "build_id: 20261130.3", "20261130.3")
    add("semver", 'version = "1.24.3"', "1.24.3")
    add("github node id", '"node_id": "MDQ6VXNlcjU4MzIzMQ=="', "MDQ6VXNlcjU4MzIzMQ==")
    add("avatar url", '"avatar_url": "https://avatars.githubusercontent.com/u/583231?v=4"',
        "https://avatars.githubusercontent.com/u/583231?v=4")
    add("s3 object key", "key: uploads/2026/11/30/report-final.pdf", "uploads/2026/11/30/report-final.pdf")
    pub = "AAAAC3NzaC1lZDI1NTE5AAAAI" + rand(43, B62 + "+/")
    add("ssh public key", f"ssh-ed25519 {pub} jane@laptop", pub)
    cert, cert_body = pem("CERTIFICATE", 4)
    add("certificate block", f"$ cat ca.crt\n{cert}", *cert_body)
    pubkey, pubkey_body = pem("PUBLIC KEY", 3)
    add("public key block", pubkey, *pubkey_body)
    add("scikit-learn pin", "scikit-learn==1.3.0\nnumpy==1.26.2", "scikit-learn==1.3.0")
    add("task id", "task-id: a98d8c5d7922c198b", "a98d8c5d7922c198b")
    add("tool use id", '"tool_use_id": "toolu_6a82be383378477f864e50ff"', "toolu_6a82be383378477f864e50ff")
    add("message id", '"id": "msg_278123b8c6604f138469bf25"', "msg_278123b8c6604f138469bf25")
    add("request id", '"requestId": "req_83925a2e46f04c1a9d1c6f2e"', "req_83925a2e46f04c1a9d1c6f2e")
    add("long test name", "FAILED tests/test_auth.py::test_authentication_token_refresh_after_expiry_returns_401",
        "test_authentication_token_refresh_after_expiry_returns_401")
    add("csrf cookie name", 'CSRF_COOKIE_NAME = "csrftoken"', "csrftoken")
    add("keywords list", '"keywords": ["memory", "agent", "claude"]', '"memory"')
    add("lockfile version", '"lockfileVersion": 3,', '"lockfileVersion": 3')
    cfg = base64.b64encode(b"app:\n  name: web\n  port: 8080\n").decode()
    add("configmap binary data", f"binaryData:\n  config.yaml: {cfg}", cfg)
    gsha2 = rand(40, HEX)
    add("github api sha", f'"sha": "{gsha2}",', gsha2)
    add("ipfs cid", '"hash": "QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG"', "QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG")
    add("session cookie age", "SESSION_COOKIE_AGE = 1209600", "1209600")
    add("java stack frame", "\tat com.acme.auth.TokenService.refresh(TokenService.java:42)",
        "com.acme.auth.TokenService.refresh(TokenService.java:42)")
    add("git -u flag", "git push -u origin feature/login-form", "git push -u origin feature/login-form")
    add("docker run user", "docker run -u 1000:1000 -v $PWD:/src node:20 npm test", "-u 1000:1000")
    add("PATH export", "export PATH=/usr/local/bin:$PATH", "/usr/local/bin:$PATH")
    add("LS_COLORS", "LS_COLORS=rs=0:di=01;34:ln=01;36:mh=00", "di=01;34")
    add("conda env path", "CONDA_PREFIX=/opt/conda/envs/py311", "/opt/conda/envs/py311")
    add("k8s pod name", "pod: web-7d4b9c8f6-x2k9p", "web-7d4b9c8f6-x2k9p")
    add("python hash seed", "PYTHONHASHSEED=0", "PYTHONHASHSEED=0")
    add("css class names", 'className: "flex items-center justify-between px-4"', "flex items-center justify-between px-4")
    add("webpack chunk hash", "main.3f9a2c1b7e4d5f60.js  245 KiB", "main.3f9a2c1b7e4d5f60.js")
    add("terraform resource id", 'id = "sg-0a1b2c3d4e5f67890"', "sg-0a1b2c3d4e5f67890")
    add("prose about tokens", "The token is expired; refresh it with `gh auth refresh`.", "The token is expired")
    add("env var name only", "Set the OPENAI_API_KEY environment variable before running.", "OPENAI_API_KEY")
    add("secret reference in actions", "token: ${{ secrets.GITHUB_TOKEN }}", "${{ secrets.GITHUB_TOKEN }}")
    # look-alikes of the command-line and credential-file rules
    add("mkdir -p", "mkdir -p build/output/reports && cd build", "mkdir -p build/output/reports")
    add("docker run -p", "docker run -p 8080:80 -p 8443:443 nginx:1.25", "-p 8080:80 -p 8443:443")
    add("ssh -p port", "ssh -p 2222 deploy@bastion.acme.io", "ssh -p 2222 deploy@bastion.acme.io")
    add("pytest -p plugin", "python -m pytest -p no:cacheprovider -q tests/", "-p no:cacheprovider")
    add("git add -p", "git add -p src/app.py", "git add -p src/app.py")
    add("docker login stdin", "echo $CR_PAT | docker login ghcr.io -u octo --password-stdin", "--password-stdin")
    add("psql no-password", "psql --no-password -h db -U app -d app", "psql --no-password -h db -U app -d app")
    add("redis-cli without -a", "redis-cli -h cache -p 6379 PING", "redis-cli -h cache -p 6379 PING")
    add("ldapsearch -W prompt", "ldapsearch -x -W -D cn=admin -b dc=acme", "-W -D cn=admin")
    add("zip -r", "zip -r release.zip dist/ -x '*.map'", "zip -r release.zip dist/")
    add("7z extract", "7z x archive.7z -o/tmp/out", "7z x archive.7z -o/tmp/out")
    add("date format -U", "date -u +%Y-%m-%dT%H:%M:%SZ", "+%Y-%m-%dT%H:%M:%SZ")
    add("ipv6 address line", "fe80:0:0:0:abcd:ef01:2345:6789 dev eth0", "fe80:0:0:0:abcd:ef01:2345:6789")
    add("mac address", "00:1a:2b:3c:4d:5e ether", "00:1a:2b:3c:4d:5e")
    add("passwd line", "root:x:0:0:root:/root:/bin/bash", "root:x:0:0:root:/root:/bin/bash")
    add("timestamp with colons", "12:30:45:123 worker started", "12:30:45:123 worker started")
    add("docker config without auth", json.dumps({"credsStore": "desktop", "currentContext": "default"}), "desktop")
    add("auth mode setting", "auth: oauth2\nauth_required: true", "auth: oauth2")
    add("npmrc registry only", "registry=https://registry.npmjs.org/\nsave-exact=true", "registry=https://registry.npmjs.org/")
    add("kubeconfig certificate data", "client-certificate-data: " + base64.b64encode(
        pem("CERTIFICATE", 2)[0].encode()).decode(), "client-certificate-data: LS0tLS1CRUdJTi")
    add("aws config file", "[profile ci]\nregion = eu-west-1\noutput = json\nrole_arn = arn:aws:iam::123456789012:role/ci",
        "arn:aws:iam::123456789012:role/ci")
    # (round 104: an e2e script's verdict, a version a script printed)
    add("check verdict in a sentence", "PASS: billing-api restarted after billing-api-config changed",
        "PASS: billing-api restarted")
    add("prerelease version", "then passed: 2.8.0-feat-login.4f2a9c1", "2.8.0-feat-login.4f2a9c1")
    # (round 124: a quoted setting beside its value, and Erlang/OTP's application name)
    add("amanda device-property setting", '    device-property "S3_BUCKET_LOCATION" "eu-central-1"', "eu-central-1")
    add("otp_app in a gleam manifest", '{ name = "gleam_stdlib", otp_app = "gleam_stdlib", source = "hex" }',
        'otp_app = "gleam_stdlib"')
    # (round 128: a runner's verdict column on the job it ran, and a query's values that are no keys)
    add("gitlab-ci-local verdict", "bazel-build $ bazel build //...\nbazel-build finished in 56 s\n PASS  bazel-build",
        "PASS  bazel-build")
    query_sha = rand(40, HEX)
    add("a path below a sentence of a password", "The password file is here:\nconfig/secrets/db_password.txt",
        "config/secrets/db_password.txt")
    add("a setting's name in a sentence", "set the secret_access_key correctly in .dvc/config.local",
        "secret_access_key correctly")
    add("a commit in a url's query", f"https://ci.acme.io/builds?branch=main&commit={query_sha}&page=2", query_sha)
    # (round 129's final batch: a compiler's define, read as a generated secret)
    add("a compiler's define", "build_flags = -DCORE_DEBUG_LEVEL=3", "-DCORE_DEBUG_LEVEL=3")
    # (round 130: a content hash as a directory of the path, a file under it)
    asset = rand(32, HEX)
    add("a hashed asset's directory", f"curl -O https://cdn.acme.io/{asset}/app.js", asset)
    # (round 131: ``--key`` given a name, a file, a sort field: no secret)
    add("--key given a file or a field", "kubectl --key /etc/k8s/client.key get pods && sort --key 2,2 users.tsv && "
        "redis-cli --key session:42", "/etc/k8s/client.key", "2,2", "session:42")
    return out


def run(verbose: bool = False) -> dict:
    secret_cases, lookalike_cases = secrets(), lookalikes()
    caught = 0
    for name, text, fragments in secret_cases:
        result = redact(text)
        leaked = [f for f in fragments if f in result]
        if leaked:
            print(f"MISSED secret [{name}]: {leaked[0][:60]!r} in {result[:300]!r}")
        else:
            caught += 1
            if verbose:
                print(f"ok [{name}]: {result[:160]!r}")
    kept = 0
    for name, text, fragments in lookalike_cases:
        result = redact(text)
        lost = [f for f in fragments if f not in result]
        if lost:
            print(f"LOST look-alike [{name}]: {lost[0][:60]!r} -> {result[:300]!r}")
        else:
            kept += 1
    # throughput on the whole corpus, beside a plain str.replace pass over the same text
    corpus = "\n".join(t for _, t, _ in secret_cases + lookalike_cases)
    timings, cpu, baseline = [], [], []
    for _ in range(20):
        start, start_cpu = time.perf_counter(), time.process_time()
        redact(corpus)
        timings.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
        start = time.perf_counter()
        corpus.replace("password", "password")
        baseline.append(time.perf_counter() - start)
    kib = len(corpus.encode()) / 1024
    return {
        "secrets": len(secret_cases),
        "secrets_redacted": caught,
        "recall": round(caught / len(secret_cases), 4),
        "lookalikes": len(lookalike_cases),
        "lookalikes_kept": kept,
        "lookalike_survival": round(kept / len(lookalike_cases), 4),
        "corpus_kib": round(kib, 1),
        "redact_ms_median": round(statistics.median(timings) * 1000, 3),
        "redact_cpu_ms_median": round(statistics.median(cpu) * 1000, 3),
        "baseline_str_replace_ms_median": round(statistics.median(baseline) * 1000, 3),
        "targets": {"recall": 1.0, "lookalike_survival": 0.95},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--verbose", action="store_true", help="Show every redacted secret sample.")
    args = parser.parse_args()
    print(json.dumps(run(args.verbose)))


if __name__ == "__main__":
    main()
