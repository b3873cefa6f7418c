"""Redact secrets before anything is stored or logged.

``redact(text)`` replaces every secret it recognises with ``[REDACTED:<kind>]``
and drops ``<private>…</private>`` blocks. It runs on every hook call, so it
imports only ``re`` and ``math`` and compiles its patterns on first use.

What it recognises:

- vendor tokens by their shape: AWS access key ids, GitHub and GitLab tokens,
  Slack tokens and webhooks, Stripe, OpenAI, Anthropic, Google, npm, PyPI,
  Hugging Face, SendGrid, DigitalOcean, Shopify, Telegram, Firebase, Sentry
  keys; age identities; JWTs; private key blocks; ``Authorization`` headers;
- passwords in URLs (``scheme://user:PASSWORD@host``) and connection strings
  (``Password=…;``), ``--password VALUE`` flags, ``mysql -pVALUE``, and the
  options of the commands that take a password on the command line
  (``sshpass -p``, ``docker login -p``, ``redis-cli -a``, ``sqlcmd -P``,
  ``ldapsearch -w``, ``mongosh -p``, ``smbclient -U user%…``, ``zip -P``,
  ``xcrun altool -p``, ``htpasswd -b``, ``keytool -storepass``), a secret given to SQL after its keyword
  (DuckDB's ``SECRET '…'``, ``IDENTIFIED BY '…'``), and the value a command stores under
  a secret's name (``gh secret set NPM_TOKEN --body …``);
- credential files: ``.pgpass`` lines, ``.netrc`` passwords, the ``_auth``
  of ``.npmrc`` and the ``auth`` of ``.docker/config.json`` (base64 of
  ``user:password``), base64-wrapped private keys (kubeconfig
  ``client-key-data``); ``.git-credentials`` and cloud credential files are
  covered by the URL, vendor and assignment rules;
- assignments (``KEY=value``, ``key: value``, ``"key": "value"``, ``KEY := value``)
  whose key names a secret (password, secret, token, api key, credentials…),
  or whose key is weaker (key, salt, session…) and whose value looks random,
  or whose value is high-entropy whatever the key (hash-like keys such as
  ``integrity`` or ``sha`` excepted);
- with ``env_file=True``, every value of a ``.env`` file; with ``withhold_secret``,
  every line a command that prints a secret's value printed (``reads_a_secret``).

Look-alikes are kept: git SHAs, UUIDs, lock-file hashes, base64 of ordinary
text, long identifiers, numbers, paths, placeholders (``$TOKEN``, ``<key>``).
"""
from __future__ import annotations

import contextlib
import math
import re

PRIVATE_MARK = "[private]"

# (kind, pattern) for secrets recognisable by their own shape, wherever they appear
_TOKEN_PATTERNS = (
    # (kind, literal needles of which one must occur for the pattern to be tried, pattern)
    ("private-key", ("PRIVATE KEY",),
     r"-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY(?: BLOCK)?-----.*?"
     r"(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|\Z)"),
    # the tail of a block whose BEGIN line was cut off by an excerpt
    ("private-key", ("-----END",),
     r"(?m)(?:^[ \t]*[A-Za-z0-9+/=]{16,}[ \t]*\n)+[ \t]*-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----"),
    # (an AWS secret key, 40 characters of base64's alphabet, beside its key id: tried first, while the id still
    # shows: "the keys are AKIA… / 7fKq2/Lm9X…")
    ("aws-secret-key", ("AKIA", "ASIA"),
     r"(?<![A-Za-z0-9/+=])(?=[A-Za-z0-9/+]{0,39}[a-z])(?=[A-Za-z0-9/+]{0,39}[A-Z])(?=[A-Za-z0-9/+]{0,39}[0-9])"
     r"[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])"),
    ("aws-access-key", ("AKIA", "ASIA", "ABIA", "ACCA", "AGPA", "AIDA", "AIPA", "ANPA", "ANVA", "AROA", "APKA", "ASCA"),
     r"\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|AROA|APKA|ASCA)[A-Z0-9]{16}\b"),
    ("github-token", ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
     r"\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})"),
    ("gitlab-token", ("gl", "GR1348941"),
     r"\b(?:gl(?:pat|dt|rt|ptt|ft|imt|oas|cbt|soat)-[A-Za-z0-9_-]{20,}|GR1348941[A-Za-z0-9_-]{20,})"),
    ("slack-webhook", ("hooks.slack.com",), r"https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9/_-]{8,}"),
    ("slack-token", ("xox", "xapp-"), r"\b(?:xox[abposre]-[A-Za-z0-9-]{10,}|xapp-\d-[A-Za-z0-9-]{10,})"),
    ("stripe-key", ("_live_", "_test_", "whsec_"), r"\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}|\bwhsec_[A-Za-z0-9]{20,}"),
    ("anthropic-key", ("sk-ant-",), r"\bsk-ant-[A-Za-z0-9_-]{20,}"),
    # Langfuse's key pair: the public key signs in beside the secret one (``curl -u "pk-lf-…:sk-lf-…"``)
    ("langfuse-key", ("pk-lf-", "sk-lf-"), r"\b[ps]k-lf-[A-Za-z0-9-]{20,}"),
    ("openai-key", ("sk-",), r"\bsk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{20,}"),
    ("google-api-key", ("AIza",), r"\bAIza[0-9A-Za-z_-]{35}"),
    ("google-oauth", ("GOCSPX-", "ya29.", "1//0"),
     # (an access token may hold dots of its own: a service account's ``ya29.c.c0ASRK0GZx8…``)
     r"\bGOCSPX-[A-Za-z0-9_-]{20,}|\bya29\.[0-9A-Za-z_-]+(?:\.[0-9A-Za-z_-]+)*(?<=[0-9A-Za-z_-]{20})|"
     r"\b1//0[A-Za-z0-9_-]{30,}"),
    ("npm-token", ("npm_",), r"\bnpm_[A-Za-z0-9]{36}\b"),
    ("pypi-token", ("pypi-AgE",), r"\bpypi-AgE[A-Za-z0-9_-]{50,}"),
    ("huggingface-token", ("hf_",), r"\bhf_[A-Za-z0-9]{30,}"),
    ("docker-token", ("dckr_pat_",), r"\bdckr_pat_[A-Za-z0-9_-]{20,}"),
    ("sendgrid-key", ("SG.",), r"\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{20,}"),
    ("digitalocean-token", ("_v1_",), r"\bdo[por]_v1_[a-f0-9]{64}\b"),
    ("shopify-token", ("shpat_", "shpca_", "shppa_", "shpss_"), r"\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b"),
    ("telegram-bot-token", (":AA",), r"(?:\b|(?<=bot))\d{8,10}:AA[A-Za-z0-9_-]{33}\b"),
    ("discord-webhook", ("/api/webhooks/",),
     r"https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/\d+/[A-Za-z0-9_-]{20,}"),
    ("jwt", ("eyJ",), r"\beyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}"),
    ("vault-token", ("hvs.", "hvb.", "hvr."), r"\bhv[sbr]\.[A-Za-z0-9_-]{20,}"),
    # a Tailscale auth, API, OAuth client or webhook key (``tskey-auth-kRn4…CNTRL-Xq2h…``)
    ("tailscale-key", ("tskey-",), r"\btskey-(?:auth|api|client|webhook|scim)?-?[A-Za-z0-9]{6,}-[A-Za-z0-9]{16,}"),
    # Firebase Cloud Messaging's legacy server key (``AAAA…:APA91b…``) and a device's registration token
    ("fcm-key", (":APA91b",), r"(?<![\w-])[A-Za-z0-9_-]{11,}:APA91b[A-Za-z0-9_-]{40,}"),
    ("sentry-token", ("sntrys_", "sntryu_"), r"\bsntry[su]_[A-Za-z0-9+/=_-]{30,}"),
    # an age identity, as ``age-keygen`` writes it to keys.txt (SOPS reads it from there)
    ("age-secret-key", ("AGE-SECRET-KEY-",), r"\bAGE-SECRET-KEY-1[0-9A-Z]{50,}"),
    # a password's hash as Postgres keeps it (``pg_authid.rolpassword``, ``pg_shadow``): as good as the password to
    # whoever can speak the protocol
    ("password-hash", ("SCRAM-SHA-",), r"\bSCRAM-SHA-(?:1|256)\$\d+:[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+"),
    ("password-hash", ("md5",), r"\bmd5[0-9a-f]{32}\b"),
)

# scheme://user:PASSWORD@host — the password runs to the last '@' before the host
# (a '/' in it too: ``postgres://loader:Rk4@vT9/qW2!mZ7x@warehouse-db.internal:5432/analytics``)
# (the user may be a secret already redacted: ``awsathena+rest://[REDACTED:aws-access-key]:<secret key>@athena…``)
_URL_PASSWORD = (r"([a-zA-Z][a-zA-Z0-9+.-]*://(?:\[REDACTED:[\w-]+\]|[^\s:/@\"'<>\[\]])*):(?!\[REDACTED)"
                 r"([^\s\"'<>]+)@(?=[\w\[])")
_AUTH_HEADER = (r"(?i)\b((?:proxy-)?authorization\"?\s*[:=]\s*[\"']?\s*(?:bearer|basic|token|digest|apikey|sso-key)?\s*)"
                r"([A-Za-z0-9._~+/=:-]{8,})")
_BEARER = r"\b((?:Bearer|Basic) )([A-Za-z0-9._~+/-]{16,}=*)"
_CLI_FLAG = (r"(?i)((?<![\w-])--?(?:[\w-]+\.)?(?:password|passwd|pass|token|secret|api-?key|access-token|auth-token|"
             r"client-secret|private-key|db-password|storepass|keypass|srcstorepass|deststorepass|srckeypass|"
             # (an enrolment key: ``tailscale up --authkey=…``, ``netbird up --setup-key …``, ``--join-token``)
             r"auth-?key|setup-key|join-token|enroll(?:ment)?-(?:key|token)|"
             r"destkeypass|"
             # (any name that ends in one, Unreal's BuildPatchTool spelling too: ``-ClientSecret=…``,
             # ``--github-token``; and a service's keys by their kind: Memfault's ``--project-key …``)
             r"(?!-|no-)[\w-]*?(?:secret|password|token)|(?:project|license|sdk|app|ingest|deploy|master|write)-?key|"
             # (a bare ``--key`` only given what reads as one: ``rebar3 hex organization auth acme --key 7c1f…``, not
             # ``--key config.json`` or ``--key user:42``)
             r"key(?=(?:=|[ \t]+)[\"']?(?:[0-9a-fA-F]{32,}|(?=[\w+/=-]*\d)(?=[\w+/=-]*[A-Za-z])[\w+/=-]{24,})"
             r"(?:[\s\"']|$))|"
             r"(?:http|ftp|proxy|db|admin|root|registry|store|key)-password)(?:=|[ \t]+))([\"']?)(?!-)([^\s\"']{3,})")
# where a secret comes from, not the secret: BuildKit's ``--secret id=npmrc,src=$HOME/.npmrc``, ``id=npm,env=NPM_TOKEN``
_SPEC_PART = r"(?:id|type|src|source|env|target|dst|required|mode|uid|gid)=[^,\s]*"
_SECRET_SPEC = re.compile(rf"{_SPEC_PART}(?:,{_SPEC_PART})*")
# commands whose short option carries a password: (prefix up to the value, optional quote, value)
_COMMAND_SECRET = (
    r"(\bsshpass\b[^\n|;&]*?\s-p\s*"
    r"|\b(?:docker|podman|nerdctl|buildah|skopeo|oras|helm(?:\s+registry)?)\s+login\b[^\n|;&]*?\s-p(?:=|\s+)"
    r"|\bredis-cli\b[^\n|;&]*?\s-a\s+"
    r"|\b(?:sqlcmd|bcp|osql|isql)\b[^\n|;&]*?\s-P\s*"
    r"|\bldap\w*\b[^\n|;&]*?\s-w\s+"
    r"|\bmongo(?:sh|dump|restore|import|export|stat|top|files)?\b[^\n|;&]*?\s-p\s+"
    r"|\b(?:zip|unzip|zipcloak|funzip)\b[^\n|;&]*?\s-P\s+"
    r"|\b7za?\b[^\n|;&]*?\s-p"
    r"|\b(?:altool|iTMSTransporter)\b[^\n|;&]*?\s-p\s+"  # (Apple's uploaders: an app-specific password)
    # (macOS keychains: ``security unlock-keychain -p …``, ``security import … -P …``, ``set-key-partition-list -k …``)
    r"|\bsecurity\s+(?:create-keychain|unlock-keychain|set-keychain-password)(?![\w-])[^\n|;&]*?\s-p\s+"
    r"|\bsecurity\s+import\b[^\n|;&]*?\s-P\s+|\bsecurity\s+set-key-partition-list\b[^\n|;&]*?\s-k\s+"
    r"|\bhtpasswd\s+(?:-\w+\s+)*?-\w*b\w*\s+(?:-\w+\s+)*[^\s-]\S*\s+\S+\s+"
    r"|\s-U\s+[\"']?[^\s%\"'/]+%"
    # (Informatica's: ``pmcmd startworkflow … -u etl_svc -p '…'``, ``pmrep connect … -n etl_svc -x '…'``)
    r"|\bpmcmd\b[^\n|;&]*?\s-p\s+|\bpmrep\b[^\n|;&]*?\s-x\s+)"
    r"([\"']?)(?!-|\[REDACTED)([^\s\"']+)"
)
# a value echoed into a file named for a secret: ``printf '%s' <id> | sudo -u vault tee /etc/vault/approle/secret-id``,
# ``echo <token> > ~/.config/gh/token``
_WRITTEN_SECRET = (
    r"(\b(?:printf\s+(?:'[^'\n]*'|\"[^\"\n]*\")|echo(?:\s+-[neE]+)?)\s+)([\"']?)(?!\[REDACTED)([^\s\"'|>;&]{6,})\2"
    r"(?=\s*(?:\|\s*(?:sudo\s+(?:-u\s+\S+\s+)?)?tee\s+(?:-a\s+)?|>>?\s*)[\"']?[^\s\"';&|]*"
    r"(?:secret|token|passw|credential|api[-_]?key|private[-_]?key)[^\s\"';&|]*[\"']?(?:[\s;&|>]|$))"
)
# a .pgpass line: host:port:database:user:password
# (a first field of hex digits is an IPv6 or MAC address, not a host)
# (a database or user holds no ``=`` or ``/``: a grep's ``.env.example:3:AIRFLOW_CONN_X=postgres://etl@localhost:…``
# is a file, a line and a URL)
_PGPASS = (r"(?m)^([ \t]*(?![0-9a-fA-F]{1,4}:)[^:\s#][^:\s]*:(?:\d{1,5}|\*):(?:\*|[^:\s=/]*[A-Za-z_][^:\s=/]*):"
           r"(?:\*|[^:\s=/]*[A-Za-z_][^:\s=/]*):)(?!\[REDACTED)(\S.*?)[ \t]*$")
# base64 of a PEM block ("-----BEGIN"), e.g. a kubeconfig's client-key-data
_BASE64_PEM = r"\bLS0tLS1CRUdJTi[A-Za-z0-9+/]{20,}={0,2}"
# curl -u user:PASSWORD, wget --user=… --password … , httpie -a user:PASSWORD
_USER_FLAG = r"((?:^|\s)(?:-u|--user|-a|--auth)(?:=|\s+)[\"']?[^\s:\"'/\[]+:)([^\s\"']+)"
_MYSQL_P = r"(\bmysql(?:dump|admin)?\b[^\n]*?\s-p)([^\s-][^\s]*)"
# KEY <sep> VALUE, the key optionally quoted, the value quoted or bare; a path's last part is no key
# (``~/.ansible/vault_pass_prod`: `ansible-playbook …``); a value that opens a mapping (``[{name: x}]``) is none
# either: the keys inside it are matched as their own
_ASSIGNMENT = (
    r"(?P<pre>(?<![\w./-])[\"'`]?(?P<key>(?!REDACTED:)[A-Za-z_][A-Za-z0-9_.-]{0,80}?)[\"'`]?[ \t]*(?:\][ \t]*)?"
    r"(?::=|=>|==|=|:|[ \t](?:is|as)[ \t])[ \t]*)"
    r"(?P<value>\"[^\"\n]*\"|'[^'\n]*'|`[^`\n]*`|(?!\[?\{)[^\s\"'`,;&)}\]\\<>]+)"
)
# a quoted key and its quoted value side by side, no sign between: Amanda's ``device-property "S3_SECRET_KEY"
# "h2Vq…"``
_QUOTED_PAIR = (r"(?P<pre>(?<![\w\\])(?P<q>[\"'])(?P<key>[A-Za-z_][A-Za-z0-9_.-]{0,80})(?P=q)[ \t]+)"
                r"(?P<value>\"[^\"\n]*\"|'[^'\n]*')")
_NETRC = r"(?m)^([ \t]*(?:machine[ \t]+\S+[ \t]+)?(?:login[ \t]+\S+[ \t]+)?password[ \t]+)(\S+)"
# a table of keys and values, one per line, in columns (``kubectl get secret -o …``, ``pulumi config``,
# ``vault token lookup``): ``dbPassword       pg-Rz7v…``
# (grep's line number, and file, before it too: ``34-    HTTP_Passwd      Vq93…`` of ``grep -n -A13 …``)
# (and a key of words, as ``sf org display`` prints it: `` Access Token     00D5g0…!AQ0…``)
# (and a key in its namespace, as ``pulumi config --show-secrets`` prints it: ``infra-net:datadogApiKey  3f9a…``)
_COLUMNS = (r"(?m)^(?P<pre>(?:(?:[\w./-]+[:-])?\d+[:-])?[ \t]*"
            r"(?P<key>(?:[A-Za-z_][\w.-]{0,40}:)?[A-Za-z_][A-Za-z0-9_.-]{0,60}"
            r"(?: [A-Za-z][A-Za-z0-9_.-]{0,30}){0,3})[ \t]{2,})(?P<value>[^\s\"'`]+)[ \t]*$")
# a setting's name and its value as two words of a command: ``dvc remote modify --local storage secret_access_key
# 7fKq2/…``, ``aws configure set aws_secret_access_key …``
_SPACED_KEY = (r"(?P<pre>(?<![\w.-])(?P<key>[A-Za-z][A-Za-z0-9]*(?:[_-][A-Za-z0-9]+)+)[ \t]+)"
               r"(?P<value>(?![-\[$<{])[^\s\"'`;&|]{12,})")
# a key whose value is on the next line, indented (salt's and ansible's nested output): ``app_password:⏎    Vq7!…``
_NEXT_LINE = (r"(?m)^(?P<indent>[ \t]*)(?P<pre>(?P<key>[A-Za-z_][A-Za-z0-9_.-]{0,60}):[ \t]*\n(?P<inner>[ \t]+))"
              r"(?P<value>[^\s\"'`#-][^\s]*)[ \t]*$")
# a password said in words: "Creds: svc-orders, password kP9#vT2m!Qx7Lw4z"
# a secret pasted on a line of its own below a line that speaks of one: "The password is in 1Password under 'billing
# staging owner', I pasted it below.⏎Vq7mR2xLp9TzK4wd"
_PASTED_BELOW = (r"(?im)(?P<pre>^[^\n]*\b(?:password|passwd|passphrase|token|secret|api[ _-]?key|credentials?)\b[^\n]*"
                 r"\n(?:[ \t]*\n)?[ \t]*)(?P<value>[^\s\"'`<>]{12,})[ \t]*$")
# a user and a password said in words, a slash or colon between: "The staging creds are deploy / Tq7vX2pLm9wK on
# 10.0.4.12", "login: admin:Pa55-word7"
_SAID_LOGIN = (r"\b(?P<pre>(?:creds|credentials?|logins?)(?:[ \t]+(?:are|is|were|was))?[ \t]*:?[ \t]+"
               # (the user already hidden by a label's rule: "Creds: [REDACTED:secret] / pX7v…")
               r"(?:[\w.@+-]{1,64}|\[REDACTED:[\w-]+\])[ \t]*[/:][ \t]*)(?P<value>[^\s,;'\"`()\[\]/]{6,})")
_SAID_PASSWORD = r"\b(?P<pre>(?:password|passwd|passphrase|pwd)(?:[ \t]+is)?[ \t]+)(?P<value>[^\s,;'\"`()\[\]]{8,})"
# a password said in words and quoted: "I passed the app-specific password `ufxq-kpzr-wmto-bnhe` on the command line"
_QUOTED_PASSWORD = (r"\b(?P<pre>(?:password|passwd|passphrase|pwd)(?:[ \t]+(?:is|was))?[ \t]+)(?P<q>[`'\"])"
                    r"(?P<value>[^\s`'\"]{8,})(?P=q)")
# a token said in words, a long value after its name: "Use my App Center token 4b7e9c2a1f0d8e6b3a5c7d9e1f2a4b6c8d0e2f4a"
# (and a device's or an app's key, as a provisioning script prints it: "provision: app key BD38D8B6B408B529…")
_SAID_TOKEN = (r"\b(?P<pre>(?:token|api[ \t-]?key|access[ \t]key|secret[ \t]key|app[ \t-]?key|application[ \t]key|"
               # (and a service's keys by their kind: PagerDuty's "the routing key R03E…", "integration key")
               r"(?:nwk|network|master|signing|encryption|private|routing|integration|service|license|project|deploy|"
               r"ingest|write|sdk|client|server|webhook|admin)[ \t]key)(?:[ \t]+(?:is|was))?[ \t]+)"
               r"(?P<value>(?=[A-Za-z_-]*\d)(?=[\d_-]*[A-Za-z])[A-Za-z0-9_-]{24,})(?![\w/-])(?!\.\w)")
# a value a program printed with the variable it came from: "using key sk_hTqWzNvLpYeRkXaBdGmCsJfU (from
# REVENUECAT_API_KEY)"
_FROM_SECRET_VAR = (r"(?<![\w/+=-])(?P<value>[A-Za-z0-9_+/=-]{16,})(?P<post>[ \t]*\((?:from|via|in|env:?)[ \t]+\$?"
                    r"[A-Z][A-Z0-9_]*(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASS|PWD|CREDENTIALS?)[A-Z0-9_]*\))")
# a secret given to SQL as a string after its keyword: DuckDB's ``CREATE SECRET (TYPE s3, KEY_ID '…', SECRET '…')``,
# MySQL's and Oracle's ``IDENTIFIED BY '…'``, an S3 ``SESSION_TOKEN '…'``
_SQL_SECRET = r"\b(?P<pre>(?:SECRET|SESSION_TOKEN|SECRET_ACCESS_KEY|IDENTIFIED[ \t]+BY)[ \t]+)'(?P<value>[^'\s]{8,})'"
# a base64 blob on its own: it is redacted when what it encodes holds a secret (a docker ``auths`` config, ``user:token``)
_BASE64 = r"(?<![A-Za-z0-9+/=_-])[A-Za-z0-9+/]{24,}={0,2}(?![A-Za-z0-9+/=_-])"
_ENV_LINE = r"(?m)^(?P<pre>[ \t]*(?:export[ \t]+)?[A-Za-z_][A-Za-z0-9_.-]*[ \t]*=[ \t]*)(?P<value>.*?)[ \t]*$"

_STRONG_WORDS = ("password", "passwd", "passphrase", "secret", "credential", "apikey", "privatekey",
                 "accesskey", "clientsecret", "authtoken", "accesstoken", "refreshtoken", "sessiontoken",
                 "secretkey", "signingkey", "encryptionkey", "masterkey", "connectionstring")
_STRONG_TOKENS = {"pass", "pwd", "token", "secret", "dsn", "creds", "cred", "bearer", "pat", "pin", "otp",
                  "authorization", "sas", "sig", "accountkey"}
_WEAK_TOKENS = {"key", "auth", "salt", "session", "cookie", "signature", "hmac", "nonce", "license", "seed",
                "cert", "sessid", "jwt", "csrf", "xsrf", "private"}
_HASHY_TOKENS = {"hash", "hashes", "sha", "sha1", "sha256", "sha512", "md5", "integrity", "checksum", "digest",
                 "commit", "rev", "revision", "ref", "sha1sum", "shasum", "id", "uuid", "guid", "etag",
                 "version", "resolved", "fingerprint", "oid", "tree", "parent", "head", "base", "tag", "image",
                 "h1", "sum", "hash256", "crc", "crc32"}
_LITERALS = {"true", "false", "null", "none", "nil", "yes", "no", "on", "off", "undefined", "required",
             "optional", "string", "str", "bytes", "int", "bool", "any", "redacted", "hidden", "secret",
             "password", "token", "env", "environ", "default", "empty", "unset", "set", "present", "missing",
             "ok", "valid", "invalid", "expired", "bearer", "basic", "inherit",  # (GitHub Actions: secrets: inherit)
             "read", "write",  # (and a workflow's permission: ``id-token: write``)
             # (code's own words: ``final token = await _refresh();``, ``const secret = new TextEncoder()``; fetch's
             # ``credentials: 'include'``)
             "await", "new", "yield", "async", "function", "lambda", "return", "this", "self", "include", "omit",
             "same-origin", "try", "try?", "try!"}
# a key's id in capitals and digits (Confluent Cloud's API key, ``QX7RZK3M5WJ2N4PB``)
_KEY_ID = re.compile(r"(?=[A-Z0-9]*\d)(?=[A-Z0-9]*[A-Z])[A-Z0-9]{16,}")
# a path to a file, relative to the project: ``k8s/jobs/db-migrate.yaml``, ``certs/eu-west-1-bundle.pem``
_RELATIVE_FILE = re.compile(r"[\w.-]+(?:/[\w.-]+)+\.[A-Za-z]{1,5}")
_PROSE_WORDS = {"the", "this", "that", "these", "those", "its", "not", "only", "now", "still", "which", "when",
                "then", "there", "here", "and", "but", "was", "were", "are", "has", "had", "have", "been", "from",
                "into", "with", "for", "your", "my", "our", "their", "his", "her"}
_HASH_PREFIXES = ("sha1-", "sha256-", "sha384-", "sha512-", "sha1:", "sha256:", "sha512:", "md5:", "md5-", "h1:",
                  "blake2b:", "git+", "sha224:")


# a command whose output is a secret's value, bare: ``kubectl get secret x -o jsonpath='{.data.password}' | base64 -d``,
# ``vault kv get -field=password …``, ``aws secretsmanager get-secret-value``, ``gcloud secrets versions access``,
# ``op read``, ``op item get … --reveal``, ``pass show``, ``bw get password``, ``security find-generic-password -w``,
# ``doppler secrets get``, ``sops -d``
_SECRET_READ = (r"\b(?:kubectl|oc)\b[^|;&\n]*\bget\s+secrets?\b[^|;&\n]*(?:jsonpath|go-template)|"
                r"\bvault\s+(?:kv\s+get|read)\b[^|;&\n]*\s-field[= ]|\baws\s+secretsmanager\s+get-secret-value\b|"
                r"\bgcloud\s+secrets\s+versions\s+access\b|\bop\s+read\b|\bpass\s+show\b|"
                r"\bop\s+item\s+get\b[^|;&\n]*\s--reveal\b|\bbw\s+get\s+(?:password|notes|totp)\b|"
                r"\bsecurity\s+find-(?:generic|internet)-password\b[^|;&\n]*\s-w\b|\bdoppler\s+secrets\s+get\b|"
                r"\bsops\s+(?:-d|--decrypt)\b|"
                # (and a cloud's short-lived token printed bare: ``gcloud auth print-access-token``, ``az account
                # get-access-token``)
                r"\bgcloud\s+auth\s+(?:application-default\s+)?print-(?:access|identity)-token\b|"
                r"\baz\s+account\s+get-access-token\b|"
                # (or a file that holds one bare, by its name: ``cat ~/.appveyor_token``, ``cat
                # /run/secrets/db_password``, ``Get-Content .\deploy.key``; not a file of settings, ``cat
                # secrets.yaml``, whose keys say what is what)
                r"(?:^|[;&|(]\s*)(?:cat|head|tail|type|more|Get-Content|gc)\s+(?:-\S+\s+)*[\"']?(?:[^\s\"'|;&]*[/\\])?"
                r"[^\s\"'|;&/\\]*(?:token|secret|passw(?:or)?d|api[-_]?key|credential)[\w-]*"
                r"(?:\.(?:txt|key|pem|secret|token))?[\"']?\s*(?:$|[|;&)])")


_SOURCES = {
    "private": (r"<private>.*?(?:</private>|\Z)", re.S | re.I),
    "private_tail": (r"\A.*?</private>", re.S | re.I),
    "url": (_URL_PASSWORD, 0),
    "auth": (_AUTH_HEADER, 0),
    "bearer": (_BEARER, 0),
    "flag": (_CLI_FLAG, 0),
    "mysql": (_MYSQL_P, 0),
    "command": (_COMMAND_SECRET, 0),
    "written": (_WRITTEN_SECRET, re.I),
    "pgpass": (_PGPASS, 0),
    "base64_pem": (_BASE64_PEM, 0),
    "user_flag": (_USER_FLAG, 0),
    "assign": (_ASSIGNMENT, 0),
    "quoted_pair": (_QUOTED_PAIR, 0),
    "colon_key": (r"(?m)^([ \t]*)((?:[A-Za-z_][\w.-]*:)+)([A-Za-z_][\w.-]*[ \t]*=[ \t]*\S[^\n]*)$", 0),
    # (or grep's file and line before it: ``gradle.properties:14:applovin.sdkKey=…``)
    "grep_key": (r"(?m)^([ \t]*)([\w./-]+:\d+[:-])([A-Za-z_][\w.-]*[ \t]*=[ \t]*\S[^\n]*)$", 0),
    "env": (_ENV_LINE, 0),
    "netrc": (_NETRC, 0),
    "columns": (_COLUMNS, 0),
    "spaced_key": (_SPACED_KEY, 0),
    "next_line": (_NEXT_LINE, 0),
    "said": (_SAID_PASSWORD, re.I),
    "said_login": (_SAID_LOGIN, re.I),
    "pasted_below": (_PASTED_BELOW, 0),
    "said_quoted": (_QUOTED_PASSWORD, re.I),
    "said_token": (_SAID_TOKEN, re.I),
    "from_secret_var": (_FROM_SECRET_VAR, 0),
    "sql_secret": (_SQL_SECRET, re.I),
    "base64": (_BASE64, 0),
    "secret_read": (_SECRET_READ, 0),
    # a value a line stores under a name (``eas secret:create --name SENTRY_AUTH_TOKEN --value …``, ``gh secret set
    # NPM_TOKEN --body …``): the line, and the option that carries it
    "named_value": (r"(?m)^[^\n]*?\s--(?:value|body)(?:=|[ \t]+)[^\n]*$", 0),
    "value_option": (r"(\s--(?:value|body)(?:=|[ \t]+))([\"']?)(?!-|\[REDACTED)([^\s\"']+)", 0),
    # an S3 client's keys given in a row, after the alias and the URL: ``mc alias set devminio http://…:9000 <access
    # key> <secret key>`` (and ``mc config host add …``, its older spelling)
    "key_pair": (r"(\bmc\s+(?:alias\s+set|config\s+host\s+add)\s+(?:--?[\w-]+\s+)*\S+\s+\S+\s+)([\"']?)"
                 r"(?!\[REDACTED)([^\s\"']+)\2(\s+)([\"']?)(?!\[REDACTED)([^\s\"']+)\5", 0),
    # a name Kubernetes generated: words, then the suffixes it draws from its alphabet without vowels (a ReplicaSet's
    # hash of 8-10, a pod's 5) or a CronJob's minute count
    "kube_name": (r"(?P<base>[a-z]+\d{0,3}(?:-[a-z]+\d{0,3})*)(?:-(?:\d{6,10}|[bcdfghjklmnpqrstvwxz2-9]{8,10}))?"
                  r"-[bcdfghjklmnpqrstvwxz2-9]{5}", 0),
    "segment": (r"[a-z]+\d{0,3}|[A-Z][a-z]+\d{0,3}|[A-Z]{1,5}\d{0,2}|\d{1,8}|v\d+|"
                # numeronyms (ingress.networking.k8s.io/api-server is a name)
                r"k8s|k3s|i18n|l10n|a11y|o11y|e2e|p2p|b2b|b2c|w3c|"
                r"(?:[a-z]+|[A-Z][a-z]+)(?:[A-Z][a-z]+){1,6}\d{0,3}|"  # WebhookRoutes.scala, getUserById
                r"[A-Z]{2,6}(?:[A-Z][a-z]+){1,6}\d{0,3}", 0),  # an acronym before words: JSONDecoder+Skycast.swift
    "splitter": (r"[-_./:+]", 0),
    # named things that read as random: an AWS resource's id (``ami-0f3a9c2b7d1e4a5b6``, ``sg-0a1b2c3d``), a
    # variable's name in capitals (``X86_64_UNKNOWN_LINUX_GNU_OPENSSL_LIB_DIR``, ``PKG_CONFIG_x86_64-unknown-linux``)
    # and a class by its package (``org.h2.jdbc.JdbcSQLSyntaxErrorException``)
    "not_random": (r"(?:ami|sg|subnet|vpc|vol|snap|eni|igw|rtb|acl|nat|eipalloc|lt|tgw|vpce|pcx|i)-[0-9a-f]{8}"
                   r"(?:[0-9a-f]{9})?|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+(?:_[a-z0-9]+)*(?:-[a-z0-9]+)*|"
                   r"[a-z][a-z0-9]*(?:\.[a-z][a-z0-9]*)*\.[A-Z][A-Za-z0-9]*(?:\$[A-Za-z0-9]+)?|"
                   # (a constant by its class, ``JavaVersion.VERSION_17``; a Go module's pseudo-version)
                   r"[A-Z][A-Za-z0-9]*\.[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|v\d+\.\d+\.\d+-(?:0\.)?\d{14}-[0-9a-f]{12}|"
                   # (a Stripe object's id, ``price_1PqRa2Kx3Lm9TzQvA7bC``, ``cus_Q8…``: no key, which are ``sk_``/``rk_``)
                   r"(?:price|prod|cus|sub|si|pi|pm|seti|in|ii|ch|re|evt|acct|txn|po|cs|plink|promo|coupon|tax)"
                   r"_[A-Za-z0-9]{8,}", 0),
    "words": (r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+", 0),
    # a key as a part of a URL's path (an RPC provider's: ``https://eth-sepolia.g.alchemy.com/v2/Qe7mK2…``,
    # ``https://mainnet.infura.io/v3/<32 hex>``), by the parts of the path
    "url_path": (r"(?i)\b((?:https?|wss?)://[^\s/\"'<>`]+)((?:/[^\s/?#\"'<>`)]*)+)", 0),
    "uuid": (r"[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}", 0),
    "hex": (r"(?:0x)?[0-9a-fA-F]+", 0),
    "secretish": (r"[A-Za-z0-9+/=_.~-]+", 0),
    "code_ref": (r"[A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)+|[A-Za-z_]\w*\[.*|.*\(.*", 0),
}


class _Patterns(dict):
    """Compiled patterns by name, each compiled on first use (a hook process needs only a few)."""

    def __missing__(self, name):
        if name not in _SOURCES:
            raise KeyError(name)
        source, flags = _SOURCES[name]
        compiled = self[name] = re.compile(source, flags)
        return compiled


_state: dict = _Patterns()


def _compiled() -> dict:
    return _state


def _key_tokens(key: str) -> list[str]:
    return [w.lower() for w in _compiled()["words"].findall(key)]


def entropy(value: str) -> float:
    """Shannon entropy of ``value`` in bits per character."""
    if not value:
        return 0.0
    counts: dict[str, int] = {}
    for ch in value:
        counts[ch] = counts.get(ch, 0) + 1
    n = len(value)
    return -sum(c / n * math.log2(c / n) for c in counts.values())


def _class_changes(value: str) -> float:
    """How often the character class (lower, upper, digit, other) changes, per character."""
    def cls(ch: str) -> int:
        return 0 if ch.islower() else 1 if ch.isupper() else 2 if ch.isdigit() else 3

    changes = sum(1 for a, b in zip(value, value[1:]) if cls(a) != cls(b))
    return changes / max(len(value) - 1, 1)


def _is_ordinary_base64(value: str) -> bool:
    """True for base64 that decodes to ordinary text (a data blob, not a key)."""
    if len(value) < 16 or len(value) % 4 or not re.fullmatch(r"[A-Za-z0-9+/]+={0,2}", value):
        return False
    import binascii

    try:
        raw = binascii.a2b_base64(value)
    except (binascii.Error, ValueError):
        return False
    printable = sum(1 for b in raw if 32 <= b < 127 or b in (9, 10, 13))
    return printable >= 0.95 * len(raw)


def kube_name_base(value: str) -> str | None:
    """The words of a name Kubernetes generated, without its suffixes (``ledger-export-manual`` of the Job
    ``ledger-export-manual-r4t8m``, ``orders-api`` of the pod ``orders-api-7c9f8d6b5-x4k2p``), or None."""
    match = _compiled()["kube_name"].fullmatch(value)
    return match.group("base") if match else None


def looks_random(value: str, min_length: int = 20, allow_hex: bool = False) -> bool:
    """True for a value that reads like a generated secret, not a word, hash or identifier."""
    state = _compiled()
    if len(value) < min_length or len(value) > 4096 or not state["secretish"].fullmatch(value):
        return False
    if value.startswith(("/", "./", "../", "~/")):
        return False  # a path
    option = re.fullmatch(r"--?([a-z][a-z0-9]*(?:[_-][a-z0-9]+)*)(?:=(.*))?", value)
    if option and not looks_random(option.group(2) or "", min_length, allow_hex):
        return False  # a program's option: ``XLA_FLAGS=--xla_force_host_platform_device_count=8``
    define = re.fullmatch(r"-D[A-Za-z_]\w*(?:=(.*))?", value)
    if define and not looks_random(define.group(1) or "", min_length, allow_hex):
        return False  # a compiler's define: ``build_flags = -DCORE_DEBUG_LEVEL=3``
    parts = [p for p in state["splitter"].split(value) if p]
    if len(parts) > 1 and all(state["segment"].fullmatch(p) for p in parts):
        return False  # user-profile-v2, uploads/2026/11/report.pdf: words and numbers
    if state["not_random"].fullmatch(value):
        return False  # an AWS resource's id, a variable's name, a class by its package
    kind, _, name = value.rpartition("/")
    if state["kube_name"].fullmatch(name) and all(state["segment"].fullmatch(p) for p in state["splitter"].split(kind)
                                                   if p):
        # a pod's or a Job's generated name, by its kind or not: ledger-export-manual-r4t8m, orders-api-7c9f8d6b5-x4k2p,
        # job.batch/ledger-export-manual-m2c6v
        return False
    lowered = value.lower()
    if lowered.startswith(_HASH_PREFIXES) or state["uuid"].fullmatch(value):
        return False
    if state["hex"].fullmatch(value):
        return allow_hex and len(value) >= 24
    if value.count(".") >= 2 and not any(ch.isdigit() for ch in value.replace(".", "")):
        return False  # a dotted name
    if "." in value and all(_WORDS_AND_A_NUMBER.fullmatch(part.lstrip("_")) for part in value.split(".")):
        return False  # a member by its type, words with a number among them: StatusCodes.Status429TooManyRequests
    digits = sum(ch.isdigit() for ch in value)
    letters = sum(ch.isalpha() for ch in value)
    if not letters:
        return False
    if _is_ordinary_base64(value):
        return False
    changes = _class_changes(value)
    if digits == 0 and (changes < 0.3 or _CAMEL_WORDS.fullmatch(value.lstrip("_"))):
        # CamelCase or snake_case words: TestPoolDrainWaitsForInflight is a test's name; _rootNavigatorKey, a private
        # field's
        return False
    return entropy(value) >= 3.3 and changes >= 0.22


# an identifier made of words, one number among them (``Status429TooManyRequests``, ``Http2Settings``)
_WORDS_AND_A_NUMBER = re.compile(r"(?:[A-Z]?[a-z]{2,})+(?:\d+(?:[A-Z][a-z]{2,})*)?")
# a name made of words: each capital opens a word of 2+ lower-case letters (or an acronym), at least three words
_CAMEL_WORDS = re.compile(r"(?:[a-z]{2,}|[A-Z](?:[a-z]{2,}|[A-Z]{1,4}(?![a-z])))(?:_?(?:[A-Z][a-z]{2,}|[A-Z]{2,5}(?![a-z]))){2,}")


def _trivial_value(value: str, key: str) -> bool:
    """Values that are not secrets whatever the key: literals, numbers, placeholders, paths, code."""
    v = value.strip()
    if len(v) < 3:
        return True
    low = v.lower()
    if low in _LITERALS or v.startswith(("[REDACTED", PRIVATE_MARK, "$", "%", "{{", "<", "${", "#{", "@", "***", "…")):
        return True
    if low.strip("*x.•-_ ") == "" or v.replace(".", "").replace("-", "").replace("_", "").isdigit():
        return True
    if re.fullmatch(r"\d+(?::\d+)*:?", v) and re.search(r"\w\.[A-Za-z]{1,6}$", key):
        return True  # a line and column after a file's name: ``TokenCache.swift:4:16:``
    if v.startswith(("/", "./", "../", "~/")) or (len(v) > 2 and v[1] == ":" and v[2] in "\\/"):
        return True
    if _RELATIVE_FILE.fullmatch(v):  # a relative path to a file: k8s/jobs/db-migrate.yaml
        return True
    # (a package file by its name: ``nvidia_cudnn_cu12-9.1.0.70-py3-none-manylinux2014_x86_64.whl``)
    if re.fullmatch(r"[\w.+-]+\.(?:whl|tar\.gz|tgz|zip|jar|war|gem|nupkg|deb|rpm|egg|crate|apk|dmg|msi)", v):
        return True
    if low in ("your-api-key", "your_api_key", "changeme-not-real") or low.startswith(("your-", "your_", "<your")):
        return True
    if re.fullmatch(r"\[\[?[a-z][\w-]*(?:\.[\w\-\"]+)*\]\]?", v):
        return True  # a TOML or INI table's header: ``[tool.ruff.lint.per-file-ignores]``
    # (a list of names in code, each an identifier made of words: ``secrets: [sendgridKey]``, ``[stripeKey, dbUrl]``)
    names = re.fullmatch(r"\[\s*([A-Za-z_][\w.]*(?:\s*,\s*[A-Za-z_][\w.]*)*)\s*\]?,?", v)
    if names and all(_camel_words(n.split(".")[-1]) or re.fullmatch(r"[a-z]+(?:_[a-z]+)+", n.split(".")[-1])
                     for n in re.split(r"\s*,\s*", names.group(1))):
        return True
    # (a cloud resource's name, collections and ids in turn: ``projects/418203377190/locations/global/
    # workloadIdentityPools/github-pool/providers/github-provider``)
    if re.fullmatch(r"(?:[a-z][A-Za-z]{3,}/[\w.@-]+/)+[a-z][A-Za-z]{3,}/[\w.@-]+", v):
        return True
    # (a secret store's entry by its name and version: ``--update-secrets=STRIPE_API_KEY=stripe-api-key:latest``)
    name, _, version = v.rpartition(":")
    if re.fullmatch(r"latest|\d{1,4}", version) \
            and (_dashed_words(name) or re.fullmatch(r"[a-z]+(?:[-_][a-z]+)+", name)):
        return True
    if re.search(r"\*{4,}$", v):
        return True  # a value shown masked: ``gho_************************************``
    # (a version asked for, ``"jsonwebtoken": "^9.0.2"``; a port and a path after a host, ``localhost:8081/connectors``)
    if re.fullmatch(r"[~^<>=!]*v?\d+(?:\.[\dx*]+)+(?:-(?:alpha|beta|rc|pre|dev|next|canary)[\w.]*)?|[~^]\d+", v) \
            or re.fullmatch(r"\d{2,5}/\S*", v) and _classify_key(key) is None:
        return True
    # (a rate, a throttle's ``"otp": "5/min"``, ``"100/hour"``)
    if re.fullmatch(r"\d+/(?:s|sec|second|m|min|minute|h|hr|hour|d|day|week|month)s?", low):
        return True
    # (a file by its name, ``20240516093000_add_ledger_entry_memo.sql``; a path under a key for one)
    if re.fullmatch(r"[\w.+-]+\.(?:sql|py|js|mjs|ts|tsx|rb|go|rs|java|kt|kts|swift|ya?ml|json|toml|sh|md|txt|csv|xml|"
                    r"html|css|scss|proto|tf|gradle|lock|cfg|ini|conf|parquet)", v):
        return True
    if "/" in v and set(_key_tokens(key)) & {"path", "paths", "file", "dir", "directory", "location", "src", "dest",
                                            "root", "prefix"}:
        return True
    if v == key or low.replace("-", "_") == key.lower().replace("-", "_"):
        return True
    state = _compiled()
    if v.endswith(("[", "(")) or (state["code_ref"].fullmatch(v) and not any(ch.isdigit() for ch in v)):
        return True  # args.password, os.environ["X"], get_token()
    # an address with no credentials in it (``in-memory://``, ``redis://localhost:6379/0``, ``https://x.test/``)
    if re.fullmatch(r"[\"']?(?:file|sqlite3?|postgres(?:ql)?|mysql|mariadb|mongodb(?:\+srv)?|rediss?|amqps?|https?|"
                    r"s3|gs|jdbc:\w+|wss?|mem(?:ory)?):(?://)?[\"']?", v):
        return True  # a scheme alone, the rest put after it in code: ``dsn := "file:" + path``
    if re.match(r"[A-Za-z][\w+.-]*://", v) and "@" not in v and not re.search(r"(?i)(?:pass|token|secret|key|sig)\w*=", v):
        return True
    if low in _PROSE_WORDS:  # "the DSN: the DSN only lives in .env.local" is prose
        return True
    return False


def _region_name(value: str) -> bool:
    """Whether ``value`` is a name with a cloud region as one of its dotted parts, the others short: a Snowflake
    account, ``xy12345.eu-central-1``; a host, ``db.us-west-2.rds``."""
    parts = value.split(".")
    return len(parts) >= 2 and all(re.fullmatch(r"[A-Za-z0-9-]{1,12}", p) for p in parts) and any(
        re.fullmatch(r"[a-z]{2}(?:-gov)?-[a-z]+-\d|[a-z]+-[a-z]+\d", p) for p in parts[1:])


# Bundler's credentials for a gem host, the host's dots as ``__`` (``BUNDLE_GEMS__CONTRIBSYS__COM=user:pass``); not
# its per-host settings (``BUNDLE_MIRROR__…``, ``BUNDLE_BUILD__…``)
_BUNDLER_HOST = re.compile(r"BUNDLE_(?!(?:MIRROR|BUILD|LOCAL|SSL_\w+|TIMEOUT)__)[A-Z0-9_]*?[A-Z0-9]__[A-Z0-9_]+")


def _classify_key(key: str) -> str | None:
    """"strong", "weak", "hashy" or None (an ordinary key)."""
    cache = _state.setdefault("key_cache", {})
    if key not in cache:
        if len(cache) > 4096:
            cache.clear()
        cache[key] = _classify_key_uncached(key)
    return cache[key]


def _classify_key_uncached(key: str) -> str | None:
    if key.lower() in _HASHY_TOKENS:
        return "hashy"
    if _BUNDLER_HOST.fullmatch(key):
        return "strong"
    tokens = _key_tokens(key)
    if not tokens:
        return None
    if tokens[-2:] == ["secret", "id"]:  # (Vault's AppRole ``secret_id`` is the credential; a ``secret_name`` is not)
        return "strong"
    if tokens[:1] == ["otp"] and tokens[-1:] in (["app"], ["release"], ["version"], ["vsn"]):
        return None  # (Erlang/OTP's, no one-time password: gleam's and mix's ``otp_app = "gleam_stdlib"``)
    if tokens[-3:] == ["access", "key", "id"]:
        # (an access key's id, half of the pair: R2's ``R2_ACCESS_KEY_ID=3f9c2a7e…``, 32 hex digits; a random one is
        # withheld, as a weak key's value is)
        return "weak"
    joined = "".join(tokens)
    if set(tokens) & _HASHY_TOKENS and not any(w in joined for w in _STRONG_WORDS):
        if not set(tokens) & (_STRONG_TOKENS | {"key"}):
            return "hashy"
    if any(w in joined for w in _STRONG_WORDS) or set(tokens) & _STRONG_TOKENS:
        if tokens[-1] in ("tokens", "count", "len", "length", "limit", "type", "types", "file", "path", "dir",
                          "url", "name", "names", "id", "ids", "env", "var", "policy", "field", "prompt", "mode", "store",
                          "helper", "helpers",
                          "required", "endpoint", "expiry", "expires", "ttl", "header", "param"):
            return None  # max_tokens, password_file, token_url, secret_name: about a secret, not one
        if any(t.endswith("token") and t != "token" for t in tokens) or any(t in _STRONG_TOKENS for t in tokens):
            return "strong"
        return "strong"
    if any(t.endswith(("pass", "pwd", "token", "password", "secret")) and t not in ("bypass", "compass") for t in tokens):
        return "strong"
    if set(tokens) & _WEAK_TOKENS:
        return "weak"
    # (a key's name run into its service's: ``CERTORAKEY``, as ``APIKEY`` is one; not a word, ``hotkey``, ``turkey``)
    if tokens[-1].endswith("key") and len(tokens[-1]) >= 6 and tokens[-1] not in _KEY_WORDS:
        return "weak"
    return None


_KEY_WORDS = frozenset(("monkey", "donkey", "turkey", "hockey", "jockey", "whiskey", "hotkey", "turnkey", "pubkey",
                        "publickey", "passkey"))


def _basic_auth_blob(key: str, value: str) -> bool:
    """An ``auth``/``_auth`` value that is base64 of ``user:password`` (.npmrc, .docker/config.json)."""
    if key.lower().lstrip("_") not in ("auth", "basicauth", "basic_auth") or len(value) < 8:
        return False
    import binascii

    try:
        decoded = binascii.a2b_base64(value).decode("utf-8")
    except (binascii.Error, ValueError):
        return False
    return ":" in decoded and decoded.isprintable()


def _private_key_base64(match: re.Match) -> str:
    import binascii

    blob = match.group(0)
    try:
        decoded = binascii.a2b_base64(blob + "=" * (-len(blob) % 4)).decode("utf-8", "replace")
    except (binascii.Error, ValueError):
        return blob
    return "[REDACTED:private-key]" if "PRIVATE KEY" in decoded else blob


def _redact_assignment(match: re.Match) -> str:
    key, raw = match.group("key"), match.group("value")
    quote = raw[0] if raw[:1] in "\"'`" and raw[-1:] == raw[:1] and len(raw) >= 2 else ""
    value = raw[1:-1] if quote else raw
    head = value.removesuffix("…")  # (or a mark cut short: ``[REDAC…``)
    if not value or value.startswith("[REDACTED") or head != value and len(head) >= 2 and "[REDACTED:".startswith(head):
        return match.group(0)
    if _basic_auth_blob(key, value):
        return f"{match.group('pre')}{quote}[REDACTED:basic-auth]{quote}"
    if key in ("PASS", "FAIL", "FAILED") and _test_result(match, value) or key.startswith("test") and re.fullmatch(
            r"test(?:[A-Z][a-z0-9]+){3,}", key) and _classify_key(re.sub(r"^.*?([A-Z][a-z0-9]+)$", r"\1", key)) is None:
        # (a test's own name, four words and more, not ending in a secret's: ``testHorizontalPassPreservesEdges] :
        # XCTAssertEqual failed``; not ``testUserPassword``)
        return _redact_inside(match, quote, value)
    if value.startswith(":") or key.endswith(("Error", "Exception", "Warning")) or key in _RESULT_WORDS \
            and len([p for p in re.split(r"[/._-]+", value) if re.fullmatch(r"[A-Za-z]{3,}", p)
                     and re.search(r"[aeiouy]", p, re.I)]) >= 2:
        # (a scope, PHP's ``ResetPassword::class``; an exception's message, ``NoCredentialsError: Unable to locate
        # credentials``; what a runner did or found, ninja's ``FAILED: esp-idf/…/app_check_size``, ``Applying: …``;
        # an assignment in it still judged: ``ValueError: password=…``)
        return _redact_inside(match, quote, value)
    if re.fullmatch(r"[a-z][a-z0-9-]*", key) and re.fullmatch(r"(?:Get|Put|List|Describe|Create|Delete|Update|Batch|"
                                                             r"Rotate|Restore|Tag|Untag)[A-Za-z]*|\*", value) \
            and re.search(r"[\"'\[ ]\w+:$", match.string[max(0, match.start("value") - 80):match.start("value")]):
        return match.group(0)  # an IAM action: ``"secretsmanager:GetSecretValue"``
    if re.search(r"\w:$", match.group("pre")) and re.fullmatch(
            r"(?:create|list|ls|delete|rm|remove|add|set|get|unset|update|show|view|push|pull|rotate|describe|"
            r"import|export|sync|edit|put|read|write)", value):
        return match.group(0)  # a command's subcommand, not a value: ``eas secret:create``, ``heroku config:set``
    kind = _classify_key(key)
    # (a public key is no secret: WireGuard's ``public key: mZ3qfQh0…=`` and the ``peer: S+xmB/…=`` it names, an SSH
    # key's ``PublicKey =``; a private one stays one)
    if re.search(r"(?i)\bpublic[ \t_-]?$", match.string[max(0, match.start("key") - 8):match.start("key")]) \
            or "public" in _key_tokens(key) and "private" not in _key_tokens(key) or key.lower() in ("peer", "pubkey"):
        kind = "hashy"
    # (a value that is itself an assignment, "region only: SNOWFLAKE_ACCOUNT=xy12345.eu-central-1", is judged as one)
    assignment = kind != "strong" and bool(re.match(r"[A-Za-z_][\w.-]*=(?!=)", value))
    # (a user name that is a key's id: Confluent Cloud's ``'sasl.username': 'QX7RZK3M5WJ2N4PB'``, the API key beside
    # its secret)
    if kind is None and "username" in _key_tokens(key) and _KEY_ID.fullmatch(value) \
            and looks_random(value, min_length=12):
        return f"{match.group('pre')}{quote}[REDACTED:access-key]{quote}"
    # (an address's query holds its own: ``https://prover.certora.com/output/…?anonymousKey=5e8d…``, read as the
    # value of ``https:``)
    query = bool(re.search(r"[?&][A-Za-z_][\w.-]*=", value))
    if kind is None and len(value) < 20 or kind == "hashy":
        if (quote or assignment or query) and ("=" in value or ":" in value):
            return _redact_inside(match, quote, value)
        return match.group(0)
    secret = False
    # a key a sentence names ("nothing provided that token: OrdersModule now registers it") is prose, when what
    # follows it is a word, not a random string
    # (an adjective between: "The given credential is rejected by the attribute condition")
    prose = re.search(r"(?i)\b(?:the|that|this|a|an|no|its|each|which|every|your|our|my)\s+(?:[a-z]{3,12}\s+)?$",
                      match.string[max(0, match.start() - 26):match.start("key")])
    if kind == "strong" and prose and value.isalpha() and not looks_random(value, min_length=12, allow_hex=True):
        kind = "weak"
    if kind == "strong":  # (a code span with words in it is a command: "All tests pass: `prove -lr t/`")
        secret = not _trivial_value(value, key) and (bool(quote) or " " not in value) \
            and not (quote == "`" and " " in value.strip())
    elif kind == "weak":  # (a name in words is no secret: gradle's ``:composeApp:iosSimulatorArm64Test``)
        # (nor its parts: ``id:secret`` is one when a part of it is random, ``ALGOLIA_ADMIN_KEY=prod-search:Qz8v…``)
        # (not a hash by its algorithm, ``sha256:9c5b…``)
        parts = value.split(":") if ":" in value and "://" not in value \
            and not value.lower().startswith(_HASH_PREFIXES) else [value]
        # (nor a member named in words, Swift's ``keyDecodingStrategy = .convertFromSnakeCase``)
        secret = not _trivial_value(value, key) and any(
            looks_random(part, min_length=12, allow_hex=True) and not _camel_words(part.removeprefix("."))
            for part in parts)
    elif kind is None:  # (command-line options are words: ``NODE_OPTIONS=--max-old-space-size=4096``)
        # (and a name of dashed words is a name: a target triple, ``thumbv7em-none-eabihf``)
        secret = not assignment and looks_random(value, min_length=20) and not _trivial_value(value, key) \
            and not _camel_words(value) and not _dotted_path(value) and not _file_path(value) \
            and not _dashed_words(value) and not _region_name(value) and not _PINNED.fullmatch(value) \
            and not re.fullmatch(r"v?\d+\.\d+\.\d+[-+][\w.+-]+", value) \
            and not re.fullmatch(
            r"(?:--?[a-z][a-z0-9]*(?:[-.][a-z0-9]+)*(?:=[\w.:/-]*)?\s*)+", value)
    if not secret:
        if (quote or assignment or query) and ("=" in value or ":" in value):
            return _redact_inside(match, quote, value)
        return match.group(0)
    if kind != "strong" and _seen.get("guesses") is not None:
        _seen["guesses"].add(value)  # (redacted for its looks alone: not a value to hunt for in the rest of the session)
    label = "password" if kind == "strong" and "pass" in key.lower() else "secret"
    return f"{match.group('pre')}{quote}[REDACTED:{label}]{quote}"


# what a runner says it did or found before a name: ninja's ``FAILED: esp-idf/…/app_check_size``, ``Applying: …``
_RESULT_WORDS = frozenset(("FAILED", "FAIL", "PASSED", "ERROR", "SKIPPED", "XFAIL", "XPASS", "OK", "Applying",
                           "Applied", "Built", "Creating", "Created"))


def _named_value(match: re.Match) -> str:
    """A line that stores a value under a name, with the value redacted when the name is a secret's (``--name
    SENTRY_AUTH_TOKEN``, ``gh secret set NPM_TOKEN``) or the command stores secrets (``eas secret:create``)."""
    line = match.group(0)
    names = re.findall(r"--name(?:=|[ \t]+)[\"']?([\w.-]+)|\bsecrets?[ \t]+set[ \t]+([\w.-]+)", line)
    if not re.search(r"(?i)\bsecrets?\b", line) and not any(_classify_key(n) in ("strong", "weak")
                                                            for pair in names for n in pair if n):
        return line
    return _compiled()["value_option"].sub(lambda m: m.group(0) if _trivial_value(m.group(3), "secret") else
                                           f"{m.group(1)}{m.group(2)}[REDACTED:secret]", line)


def _test_result(match: re.Match, value: str) -> bool:
    """Whether a ``PASS: value`` (or ``FAIL: value``) is a test runner's result, not a password: go test's ``--- PASS:
    TestOrderStoreSuite (0.41s)``, automake's ``PASS: tests/t1.sh`` (a line's first word, naming a test or a test's
    file)."""
    text = match.string
    head = text[text.rfind("\n", 0, match.start()) + 1:match.start()]
    # (or a check's verdict said in a sentence: ``PASS: billing-api restarted after billing-api-config changed``)
    # (or a runner's column of verdicts, what it ran after two spaces and nothing after it, named in its log before:
    # gitlab-ci-local's ``PASS  bazel-build`` below the ``bazel-build $ bazel build //...`` of its job; not a table of
    # settings, ``PASS  correct-horse-battery`` under ``USER  admin``)
    column = re.search(r"[ \t]{2,}$", text[match.start():match.start("value")]) \
        and not text[match.end():].split("\n", 1)[0].strip() \
        and len([p for p in re.split(r"[/._:-]+", value) if re.fullmatch(r"[A-Za-z]{3,}", p)]) >= 2 \
        and re.search(rf"(?m)^[ \t]*{re.escape(value)}[ \t]+\S", text[:match.start()])
    return bool(re.search(r"(?:^|\s)---[ \t]*$", head) or re.fullmatch(r"[ \t]*", head) and (
        column or re.match(r"(?:Test|test_|tests?/|t/)", value)
        or re.match(r"[ \t]+\(\d+(?:\.\d+)?m?s\)", text[match.end():])
        or re.match(r"[ \t]+(?:was |were |is |has |did )?[a-z]{3,}(?:ed|s)?[ \t]+(?:after|before|with|on|in|to|the|a|"
                    r"an|by|when|and|for|from|at)\b", text[match.end():])))


def _strong_only(match: re.Match) -> str:
    """A key and its value laid out as a table or on two lines: redacted only when the key names a secret."""
    if _classify_key(match.group("key")) != "strong":
        return match.group(0)
    if "inner" in match.groupdict() and len(match.group("inner").expandtabs()) <= len(match.group("indent").expandtabs()):
        return match.group(0)  # (the next key of the same mapping, not its value)
    redacted = _redact_assignment(match)
    return match.group("indent") + redacted if "indent" in match.groupdict() else redacted


def _mixed(value: str) -> bool:
    """A value of letters, digits and signs mixed (``kP9#vT2m!Qx7Lw4z``), not a word: what a password looks like."""
    if value.startswith(("[REDACTED", "$", "%", "<", "{")) or not re.search(r"\d", value) \
            or not re.search(r"[A-Za-z]", value):
        return False
    # (both cases, or a sign a name does not use: not ``reset-flow-2``)
    return bool(re.search(r"[a-z]", value) and re.search(r"[A-Z]", value) or re.search(r"[^\w.-]", value))


_inner: list = []  # (non-empty while a decoded blob is redacted: a blob inside it is not decoded again)


def _encoded_secret(match: re.Match) -> str:
    """A base64 blob whose decoded text holds a secret (``{"auths":{"ghcr.io":{"password":"ghp_…"}}}``) or is
    ``user:password`` (``orbit-ci:ghp_…``), redacted whole."""
    import binascii

    blob = match.group(0)
    try:
        decoded = binascii.a2b_base64(blob + "=" * (-len(blob) % 4)).decode("utf-8")
    except (binascii.Error, ValueError):
        return blob
    if not all(c.isprintable() or c in "\n\r\t" for c in decoded):
        return blob  # (bytes, not text: a hash, an image)
    if re.fullmatch(r"[\w.@+-]{1,64}:[^\s:]{6,}", decoded) and not _trivial_value(decoded.split(":", 1)[1], "password"):
        return "[REDACTED:basic-auth]"
    # (or a key file that says what it is: minisign's and Tauri's updater key, ``untrusted comment: rsign encrypted
    # secret key`` then the key)
    if re.search(r"(?i)\b(?:secret|private)[ _-]key\b", decoded):
        return "[REDACTED:base64-secret]"
    _inner.append(1)
    try:
        return "[REDACTED:base64-secret]" if redact(decoded) != decoded else blob
    finally:
        _inner.pop()


# a package pinned to a version: ``meltanolabs-target-snowflake==0.9.1``, ``pydantic>=2.7``, ``left-pad@1.3.0``
_PINNED = re.compile(r"@?[A-Za-z][\w.-]*(?:/[\w.-]+)?(?:\[[\w,-]+\])?(?:===?|>=|<=|~=|!=|@)v?\d+(?:\.[\w-]+)*")


def _dashed_words(value: str) -> bool:
    """Whether ``value`` is words joined by dashes or underscores, each lowercase with a vowel or short
    (``thumbv7em-none-eabihf``, ``x86_64-unknown-linux-gnu``; a file's name, ``V7__add_waitlist.sql``): a name, not
    a token."""
    stem = re.sub(r"\.[A-Za-z]{1,5}$", "", value)
    parts = re.split(r"[-_]+", stem)
    return len(parts) >= 3 and bool(re.fullmatch(r"[A-Za-z0-9]+(?:[-_]+[A-Za-z0-9]+)+", stem)) and all(
        len(p) <= 4 and (p.islower() or stem != value or p.isdigit()) or p.islower() and re.search(r"[aeiouy]", p)
        for p in parts)


def _camel_words(value: str) -> bool:
    """Whether ``value`` is an identifier made of words (``iosSimulatorArm64Test``, ``generateCommonMainDbInterface``):
    each part a word with a vowel (a few may be two letters, ``Db``), digits only at a part's end."""
    if re.match(r"I[A-Z][a-z]", value):  # (an interface's name, C#'s: ``IDesignTimeDbContextFactory``)
        value = value[1:]
    # (or a framework's prefix before it, Apple's: ``NSMergeByPropertyObjectTrumpMergePolicy``, ``UIApplication``)
    value = re.sub(r"^(?:NS|UI|CG|CK|CL|MK|AV|SK|WK|HK|CA)(?=[A-Z][a-z])", "", value)
    parts = re.findall(r"[A-Z]?[a-z]+\d*|[A-Z]+\d*(?![a-z])", value)
    short = [p for p in parts if len(re.sub(r"\d", "", p)) <= 2]
    # (or a name in capitalised words, ``WhenEmptyOrUnderutilized``: no capitals run together, words of four letters
    # on average, where a random token's capitals come every two or three)
    pascal = value[:1].isupper() and not re.search(r"[A-Z]{2}", value) and len(value) >= 4 * len(parts)
    return "".join(parts) == value and len(parts) >= 2 and (value[:1].islower() or pascal) \
        and len(short) * 3 <= len(parts) and all(re.search(r"[aeiouy]", p, re.I) for p in parts if p not in short)


def _file_path(value: str) -> bool:
    """Whether ``value`` is a file's path in a project, folders of names and a file with a short extension
    (``runbooks/Start-DevVMs.ps1``): base64 has no dot, a token's parts no extension."""
    parts = value.removeprefix("./").split("/")
    return len(parts) > 1 and bool(re.fullmatch(r"[\w-]{1,40}\.[A-Za-z][A-Za-z0-9]{0,4}", parts[-1])) \
        and all(re.fullmatch(r"[\w.-]+", p) and not looks_random(p, min_length=12) for p in parts[:-1])


def _dotted_path(value: str) -> bool:
    """Whether ``value`` is a dotted import path (``xcom.s3_backend.S3XComBackend``, ``app.tasks.send_email``): its
    modules lowercase names that do not look random, its last part a name with a word in it; or a member of a class
    by that path (``s3.BucketEncryption.KMS_MANAGED``: a short module, a class and a constant, each of words)."""
    parts = value.split(".")
    at = next((i for i, p in enumerate(parts[:-1]) if p[:1].isupper()), len(parts) - 1)
    modules, classes, last = parts[:at], parts[at:-1], parts[-1]
    constant = bool(classes) and re.fullmatch(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+", last)
    return bool(modules) and all(re.fullmatch(r"[a-z_][a-z0-9_]*", p) and (re.search(r"[aeiouy]", p) or len(p) <= 3)
                                 and not looks_random(p, min_length=8) for p in modules) \
        and all(re.fullmatch(r"[A-Z]\w*", p) and _mostly_words(p) for p in classes) \
        and bool(re.fullmatch(r"[A-Za-z_]\w*", last)) and _mostly_words(last.lower() if constant else last)


def _mostly_words(name: str) -> bool:
    """Whether most of ``name``'s letters make words of three letters or more with a vowel (``S3XComBackend``:
    ``Com``, ``Backend``), as a random token's do not."""
    words = [w for w in re.findall(r"[A-Z]?[a-z]+", name) if len(w) >= 3 and re.search(r"[aeiou]", w, re.I)]
    return sum(map(len, words)) >= 0.6 * len(name)


def _redact_inside(match: re.Match, quote: str, value: str) -> str:
    """A quoted value that is not itself a secret may hold assignments: ``"Server=…;Password=…"``."""
    inner = _compiled()["assign"].sub(_redact_assignment, value)
    return f"{match.group('pre')}{quote}{inner}{quote}"


def _redact_env_value(match: re.Match) -> str:
    value = match.group("value")
    if not value.strip() or value.strip().startswith("[REDACTED"):
        return match.group(0)
    path, space, rest = value.partition(" ")
    # (or from the home directory: ``SOPS_AGE_KEY_FILE=$HOME/.config/sops/age/keys.txt make decrypt``)
    home = re.match(r"\$(?:\{HOME\}|HOME\b|\{XDG_\w+\}|XDG_\w+)/", path)
    if space and (path.startswith(("/", "./", "~/")) or home or _RELATIVE_FILE.fullmatch(path)) and rest.strip():
        # a command line, not a .env value: ``REQUESTS_CA_BUNDLE=/etc/ssl/certs/root-ca.pem awx …`` and
        # ``DB_SSL_CA=certs/eu-west-1-bundle.pem npx dotenv -e .env.staging -- …`` keep the path they point a
        # variable at, and the rest is redacted as any command is
        return f"{match.group('pre')}{path} {redact(rest)}"
    return f"{match.group('pre')}[REDACTED:env-value]"


def _url_path_key(match: re.Match) -> str:
    """A URL with each part of its path that reads as a generated key redacted: a random word of 24 or more (not a
    content address, IPFS's ``Qm…``/``bafy…``, nor a file's name), or the 32 hex digits of an Infura-style project
    key after a version, ``/v3/`` (or a devnet's ``/v1/``), or the whole path (QuickNode's
    ``https://acme-testnet.quiknode.pro/<32 hex>/``)."""
    parts = match.group(2).split("/")
    for n, part in enumerate(parts):
        key = looks_random(part, min_length=24) and not re.match(r"Qm[1-9A-HJ-NP-Za-km-z]{44}$|bafy|bafk", part) \
            and not re.search(r"\.[A-Za-z][A-Za-z0-9]{0,4}$", part) \
            or n and re.fullmatch(r"v\d", parts[n - 1].lower()) and re.fullmatch(r"[0-9a-f]{32}", part) \
            or n == 1 and parts[2:] in ([], [""]) and re.fullmatch(r"[0-9a-f]{32}|[0-9a-f]{64}", part)
        if key:
            parts[n] = "[REDACTED:url-key]"
    return match.group(1) + "/".join(parts)


def drop_private(text: str) -> str:
    """``text`` without ``<private>…</private>`` blocks (an unclosed one runs to the end)."""
    if not text or ("<private" not in text and "</private" not in text and "<PRIVATE" not in text
                    and "</PRIVATE" not in text):
        return text or ""
    state = _compiled()
    lowered = text.lower()
    close, opening = lowered.find("</private>"), lowered.find("<private>")
    if close != -1 and (opening == -1 or close < opening):
        text = state["private_tail"].sub(PRIVATE_MARK, text, count=1)  # the block began before this excerpt
    return state["private"].sub(PRIVATE_MARK, text)


def _key_pair(match: re.Match) -> str:
    """``mc alias set …``'s access and secret keys, each redacted unless it is a variable's name or a placeholder."""
    access, secret = (match.group(3) if _trivial_value(match.group(3), "secret") else "[REDACTED:access-key]",
                      match.group(6) if _trivial_value(match.group(6), "secret") else "[REDACTED:secret]")
    return f"{match.group(1)}{match.group(2)}{access}{match.group(2)}{match.group(4)}{match.group(5)}{secret}" \
        f"{match.group(5)}"


def redact(text: str | None, env_file: bool = False) -> str:
    """``text`` with secrets replaced by ``[REDACTED:<kind>]`` and <private> blocks dropped.

    ``env_file=True`` also replaces every value of ``KEY=value`` lines (a ``.env`` file's contents).
    Idempotent: redacting twice changes nothing more.
    """
    if not text:
        return text or ""
    if not isinstance(text, str):
        text = str(text)
    state = _compiled()
    text = source = drop_private(text)
    outer_guesses = _seen.get("guesses")
    if outer_guesses is not None:
        _seen["guesses"] = set()  # (this text's own guesses: a value guessed here may be a sure secret elsewhere)
    for index, (kind, needles, pattern) in enumerate(_TOKEN_PATTERNS):
        if any(needle in text for needle in needles):  # most texts hold no needle: compile only when one does
            compiled = state.get(index)
            if compiled is None:
                compiled = state[index] = re.compile(pattern, re.S)
            text = compiled.sub(f"[REDACTED:{kind}]", text)
    if "://" in text:  # (a password already masked, ``amqp://ledger:**@…``, or a variable's, ``${PASS}``, is none)
        text = state["url"].sub(lambda m: m.group(0) if m.group(2).lower().strip("*x•…") == "" or m.group(2).startswith(
            ("$", "%", "{{", "<")) else f"{m.group(1)}:[REDACTED:url-password]@", text)
        text = state["url_path"].sub(_url_path_key, text)
    if env_file:
        text = state["env"].sub(_redact_env_value, text)
    lowered = text.lower()
    if "auth" in lowered:
        text = state["auth"].sub(lambda m: m.group(1) + ("[REDACTED:authorization]" if not _trivial_value(
            m.group(2), "authorization") else m.group(2)), text)
    if "bearer " in lowered or "basic " in lowered:
        text = state["bearer"].sub(lambda m: m.group(1) + "[REDACTED:bearer-token]", text)
    if "-" in text:
        text = state["flag"].sub(lambda m: m.group(0) if _trivial_value(m.group(3), "password")
                                 or _SECRET_SPEC.fullmatch(m.group(3)) else
                                 f"{m.group(1)}{m.group(2)}[REDACTED:password]", text)
    if "password" in lowered:
        text = state["netrc"].sub(lambda m: m.group(0) if _trivial_value(m.group(2), "password") else
                                  f"{m.group(1)}[REDACTED:password]", text)
    if " -u" in text or "--user" in text or " -a" in text or "--auth" in text:
        text = state["user_flag"].sub(lambda m: m.group(0) if _trivial_value(m.group(2), "password") else
                                      f"{m.group(1)}[REDACTED:password]", text)
    if "mysql" in lowered:
        text = state["mysql"].sub(lambda m: f"{m.group(1)}[REDACTED:password]", text)
    if " -" in text:
        text = state["command"].sub(lambda m: m.group(0) if _trivial_value(m.group(3), "password") else
                                    f"{m.group(1)}{m.group(2)}[REDACTED:password]", text)
    if "mc " in text:
        text = state["key_pair"].sub(_key_pair, text)
    if "--value" in text or "--body" in text:
        text = state["named_value"].sub(_named_value, text)
    if "tee " in text or ">" in text:
        text = state["written"].sub(lambda m: m.group(0) if _trivial_value(m.group(3), "secret") else
                                    f"{m.group(1)}{m.group(2)}[REDACTED:secret]{m.group(2)}", text)
    if text.count(":") >= 4:
        text = state["pgpass"].sub(lambda m: f"{m.group(1)}[REDACTED:password]", text)
    if "LS0tLS1CRUdJTi" in text:
        text = state["base64_pem"].sub(_private_key_base64, text)
    if "=" in text and ":" in text:  # (.NET's configuration keys, ``dotnet user-secrets list``: ``Clients:Reporting:Secret
        # = Rk3v…``, judged by their last part; the first ``Clients:`` read as a key of its own hid it)
        for name in ("colon_key", "grep_key"):
            text = state[name].sub(lambda m: m.group(1) + m.group(2) + state["assign"].sub(_redact_assignment,
                                                                                          m.group(3)), text)
    if "=" in text or ":" in text or " is " in text or " as " in text:
        text = state["assign"].sub(_redact_assignment, text)
    if '" "' in text or "' '" in text:
        text = state["quoted_pair"].sub(_redact_assignment, text)
    if "  " in text or "\t" in text:
        text = state["columns"].sub(_strong_only, text)
    if "_" in text or "-" in text:  # (a strong key's random value only: "the secret_access_key field" is prose)
        text = state["spaced_key"].sub(lambda m: f"{m.group('pre')}[REDACTED:secret]" if _classify_key(
            m.group("key")) == "strong" and (looks_random(m.group("value"), min_length=12, allow_hex=True)
                                             or _mixed(m.group("value"))) else m.group(0), text)
    if ":\n" in text or ":\r\n" in text:
        text = state["next_line"].sub(_strong_only, text)
    if "\n" in text and any(w in lowered for w in ("pass", "token", "secret", "key", "credential")):
        text = state["pasted_below"].sub(lambda m: f"{m.group('pre')}[REDACTED:secret]" if _mixed(m.group("value"))
                                         and not _file_path(m.group("value")) else m.group(0), text)
    if "pass" in lowered or "pwd" in lowered:
        text = state["said"].sub(lambda m: m.group("pre") + "[REDACTED:password]" if _mixed(m.group("value"))
                                 else m.group(0), text)
        # (quoted, it is one whatever it looks like; not a variable's name, ``DB_PASSWORD``, nor a flag)
        text = state["said_quoted"].sub(
            lambda m: m.group(0) if _trivial_value(m.group("value"), "password") or m.group("value").startswith("-")
            or re.fullmatch(r"[A-Z][A-Z0-9_]+", m.group("value"))
            else f"{m.group('pre')}{m.group('q')}[REDACTED:password]{m.group('q')}", text)
    if "cred" in lowered or "login" in lowered:
        text = state["said_login"].sub(lambda m: m.group("pre") + "[REDACTED:password]" if _mixed(m.group("value"))
                                       else m.group(0), text)
    if "token" in lowered or "key" in lowered:
        text = state["said_token"].sub(lambda m: f"{m.group('pre')}[REDACTED:secret]", text)
    if "(" in text:
        text = state["from_secret_var"].sub(lambda m: f"[REDACTED:secret]{m.group('post')}", text)
    if "'" in text and ("secret" in lowered or "identified" in lowered or "token" in lowered):
        text = state["sql_secret"].sub(lambda m: f"{m.group('pre')}'[REDACTED:secret]'" if _mixed(m.group("value"))
                                       and not _trivial_value(m.group("value"), "secret") else m.group(0), text)
    if not _inner:
        text = state["base64"].sub(_encoded_secret, text)
    seen = _seen.get("values")
    if seen is not None and text != source:
        seen.update(v for v in _replaced(source, text) if v not in _seen["guesses"])
    if outer_guesses is not None:
        _seen["guesses"] = outer_guesses
    return text


# --- a secret seen once is a secret wherever it comes back ------------------------------------
#
# A value redacted in one place (``.env.local:4:BUNDLE_GEMS__CONTRIBSYS__COM=7d1e…`` in a grep's output) can come
# back where no rule knows it (the agent's "the value (7d1e…) is in your .env.local"). The capture records a
# keyed fingerprint of each value it redacted for the session, never the value; what is stored later in that
# session is matched against them.

_seen: dict = {}
_MARKER = re.compile(r"\[REDACTED:[\w-]+\]")


@contextlib.contextmanager
def collecting():
    """Within the block, every value ``redact`` and ``redact_value`` replace is added to the set it yields (not one
    redacted for its looks alone, under a key that names no secret: a guess is not worth hunting for elsewhere)."""
    outer, outer_guesses = _seen.get("values"), _seen.get("guesses")
    values: set[str] = set()
    _seen["values"], _seen["guesses"] = values, set()
    try:
        yield values
    finally:
        _seen["values"], _seen["guesses"] = outer, outer_guesses
        if outer is not None:
            outer.update(values)


def _replaced(source: str, redacted: str) -> list[str]:
    """The values of ``source`` that ``redacted`` shows as ``[REDACTED:…]`` markers (markers already in ``source``
    stand for themselves)."""
    if _MARKER.search(source):
        return []
    pieces = _MARKER.split(redacted)
    if not source.startswith(pieces[0]) or not source.endswith(pieces[-1]):
        return []
    values, at = [], len(pieces[0])
    for n, piece in enumerate(pieces[1:], start=1):
        end = len(source) - len(piece) if n == len(pieces) - 1 else source.find(piece, at + 1) if piece else at + 1
        if end <= at:
            return values
        values.append(source[at:end])
        at = end + len(piece)
    return values


_PRINT_SIZE = 16  # hex digits of a fingerprint: 64 bits, no collision with the words of a session


def fingerprint(value: str, key: bytes) -> str:
    """The keyed fingerprint of a secret value (HMAC-SHA256, cut): it finds the value again, it cannot give it."""
    import hashlib
    import hmac

    return hmac.new(key, value.encode("utf-8", "surrogatepass"), hashlib.sha256).hexdigest()[:_PRINT_SIZE]


def fingerprints(values, key: bytes) -> set[str]:
    """The fingerprints of the values worth finding again: not a few characters, not a word (a password of
    ``postgres`` or ``changeme`` would take every such word of the session with it)."""
    # (and each as a URL carries it, percent-encoded, printed bare by ``quote(pw, safe='')``: ``Rk4%40vT9%2F…``)
    from urllib.parse import quote

    values = [v.strip() for v in values]
    return {fingerprint(v, key) for v in values + [quote(v, safe="") for v in values] if _worth_finding(v)}


def _worth_finding(value: str) -> bool:
    """Not a word, nor words joined by dashes (``local-dev-password``, ``prod-db-creds``); ``ufxq-kpzr-wmto-bnhe``, an
    app-specific password, is no words: a part of four letters has no vowel."""
    return _could_be_seen(value) and not _trivial_value(value, "password") and not (
        _dashed_words(value) and not re.search(r"(?<![a-z])[b-df-hj-np-tv-xz]{4,}(?![a-z])", value))


def _could_be_seen(value: str) -> bool:
    """What a fingerprint may be of, at a glance: not a few characters, not a word of letters alone."""
    return len(value) >= _SEEN_MIN and not (value.isalpha() and len(value) < 16)


_SEEN_MIN = 6
# where a value ends inside a line: spaces, quotes, brackets, and the separators of ``KEY=value``, ``user:pass@host``
_VALUE_EDGE = re.compile(r"[\s\"'`()\[\]{}<>,;]+")


def redact_seen(text: str | None, prints: set[str], key: bytes) -> str:
    """``text`` with every value whose fingerprint is in ``prints`` replaced by ``[REDACTED:seen-secret]``."""
    if not text or not prints:
        return text or ""
    candidates: set[str] = set()
    for word in set(_VALUE_EDGE.split(text)):
        word = word.strip(".:!?")
        if len(word) < _SEEN_MIN or word.startswith("[REDACTED"):
            continue
        # the word, and what follows each separator in it (``TOKEN=value``, ``https://user:value@host``)
        candidates |= {word} | {word[m.end():].strip(".:") for m in re.finditer(r"[=:@/]", word)} | {
            part for part in re.split(r"[=@/]", word) if part} | {
            part for part in re.split(r"[=:@/]", word) if part}
    # (only what could have a fingerprint: no short part, no word; each hashed once)
    found = {part for part in candidates if _could_be_seen(part) and fingerprint(part, key) in prints}
    for value in sorted(found, key=len, reverse=True):
        text = text.replace(value, "[REDACTED:seen-secret]")
    return text


def reads_a_secret(command: str) -> bool:
    """Whether ``command`` prints a secret's value, bare, where no key says what it is."""
    # (a word of one first, so that most commands never compile the pattern)
    return bool(command) and any(word in command for word in ("secret", "password", "vault", "op ", "pass ", "sops ",
                                                              "bw ", "token", "api_key", "api-key", "apikey",
                                                              "credential")) \
        and bool(_compiled()["secret_read"].search(command))


def withhold_secret(text: str) -> str:
    """The output of a command that printed a secret, every line of it replaced; its values are remembered for the
    session, to be found again where they come back (a password pasted into a later command)."""
    lines = (text or "").splitlines()
    if _seen.get("values") is not None:  # (each field of a line too: ``op item get … --fields a,b`` prints ``a,b``)
        _seen["values"].update(part.strip() for line in lines for part in [line, *re.split(r"[,\t]", line)]
                               if part.strip())
    return "\n".join("[REDACTED:secret]" if line.strip() else line for line in lines)


def redact_value(value, key: str | None = None):
    """Redact every string inside a JSON-like value; a dict key that names a secret hides its value."""
    if isinstance(value, str):
        if key is not None and value and not value.startswith("[REDACTED"):
            if _basic_auth_blob(key, value):
                return "[REDACTED:basic-auth]"
            kind = _classify_key(key)
            if (kind == "strong" and not _trivial_value(value, key)) or (
                    kind == "weak" and looks_random(value, min_length=12, allow_hex=True)) or (
                    kind is None and looks_random(value)):
                if _seen.get("values") is not None and kind == "strong":  # (not a guess by its looks)
                    _seen["values"].add(value)
                return "[REDACTED:secret]"
        return redact(value)
    if isinstance(value, dict):
        return {redact(str(k)): redact_value(v, str(k)) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [redact_value(v, key) for v in value]
    return value
