"""Secrets in a real Claude Code session never reach lorebook's data dir (db, -wal, logs, anything)."""
import json

from cc_harness import say, scenario, tool_use

AWS_KEY = "AKIA" + "W7Q2ZK4M9XRT5PLB"
AWS_SECRET = "kZ3v9Qm2Lx7Rt4Wp8Ny6Bd1Hf5Jc0Gs" + "Ae2UoTi9"
GITHUB = "ghp_" + "Q4w8E2r6T1y5U9i3O7p0A4s8D2f6G1h5J9k3"
STRIPE = "sk_live_" + "51Mz8Qx3Wv7Rt2Yp9Ln4Kb6Hd"
DB_PASSWORD = "Sup3r-s3cret-DB-pw"
# .env values that look like nothing in particular: only the .env rule can know they are secret
ENV_PLAIN = "tangerine-orbit-lantern"
ENV_PIN = "80417723"

SECRETS = [AWS_KEY, AWS_SECRET, GITHUB, STRIPE, DB_PASSWORD, ENV_PLAIN, ENV_PIN]

DOTENV = f"""# local settings
MAIL_PASSWORD={DB_PASSWORD}
APP_UNLOCK_PHRASE={ENV_PLAIN}
SUPPORT_PIN={ENV_PIN}
STRIPE_SECRET_KEY={STRIPE}
"""


def test_secrets_echoed_by_bash_and_read_from_dotenv_never_reach_the_data_dir(lorebook_sandbox):
    sb = lorebook_sandbox("plugin-dir")
    sb.write(".env", DOTENV)
    project = str(sb.project)
    script = scenario(
        [say("Checking the credentials."),
         tool_use("Bash", command=f"echo AWS_ACCESS_KEY_ID={AWS_KEY} AWS_SECRET_ACCESS_KEY={AWS_SECRET}",
                  description="Show the AWS settings")],
        [tool_use("Bash", command="cat .env", description="Show the local settings")],
        [tool_use("Read", file_path=f"{project}/.env")],
        [tool_use("Bash", command=f"echo 'remote: https://{GITHUB}@github.com/acme/widget.git'; "
                                  f"echo 'psql: password={DB_PASSWORD} rejected' >&2; exit 2",
                  description="Fail with secrets in the output")],
        [tool_use("Bash", command="echo deployed", description="Finish")],
        say(f"The .env file holds STRIPE_SECRET_KEY={STRIPE}; the AWS key {AWS_KEY} is set. Done."),
    )
    result = sb.run(f"Check the deploy credentials; my token is {GITHUB}", script)
    assert result.returncode == 0, result.describe()

    # the session was captured (this test would pass vacuously if nothing had been recorded)
    observations = json.loads(sb.lorebook("stats", "--json").stdout)["observations"]
    assert observations >= 4, (observations, sb.hook_log)
    from lorebook.store import Store

    store = Store(sb.lorebook_home / "lorebook.db")
    try:
        rows = [dict(r) for r in store.conn.execute("SELECT tool, target, summary, body, error_text FROM observations")]
        prompts = [r[0] for r in store.conn.execute("SELECT text FROM prompts")]
    finally:
        store.close()
    assert any(r["target"] == "cat .env" and "output not stored" in (r["body"] or "") for r in rows), rows
    assert not any(r["tool"] == "Read" and ".env" in (r["target"] or "") for r in rows), rows
    assert any("[REDACTED:" in (r["target"] or "") + (r["body"] or "") for r in rows), rows
    assert prompts and "[REDACTED:github-token]" in prompts[0]

    files = [p for p in sb.lorebook_home.rglob("*") if p.is_file()]
    assert {p.name for p in files} >= {"lorebook.db"}
    for path in files:
        data = path.read_bytes()
        for secret in SECRETS:
            assert secret.encode() not in data, f"{secret} reached {path}"
