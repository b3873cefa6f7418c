"""Project scope in the real Claude Code CLI: project A's lesson reaches A's next session, never B's;
a global lesson reaches both. One lorebook database serves both projects, as on a real machine."""
import json

from fix_scenario import APP_CFG, CAUSE, CHECK_PY, fix_session

GLOBAL_LESSON = {
    "title": "pip install fails behind the corporate proxy with SSL: CERTIFICATE_VERIFY_FAILED",
    "summary": "Point pip at the proxy's CA bundle instead of disabling verification.",
    "kind": "gotcha",
    "trigger": "pip install of any package on a machine whose HTTPS goes through the proxy",
    "evidence": [{"quote": "SSLError(SSLCertVerificationError(1, '[SSL: CERTIFICATE_VERIFY_FAILED]'))",
                  "source": "pip install requests"}],
    "change": "export PIP_CERT=/etc/ssl/certs/corp-proxy.pem so that pip trusts the proxy's certificate",
    "validation": {"passed": ["pip install requests succeeded after setting PIP_CERT"]},
    "conditions": "any project, on machines behind the corporate HTTPS proxy",
    "tags": ["pip", "proxy"],
}


def test_project_lesson_stays_in_its_project_and_global_lesson_reaches_both(lorebook_sandbox):
    alpha = lorebook_sandbox("plugin-dir", remote="git@github.com:acme/alpha.git")
    beta = lorebook_sandbox("plugin-dir", remote="https://github.com/acme/beta")
    beta.lorebook_home = alpha.lorebook_home  # one user, one database
    beta.extra_env["LOREBOOK_HOME"] = str(alpha.lorebook_home)

    alpha.write("check.py", CHECK_PY)
    alpha.write("app.cfg", APP_CFG)
    first = alpha.run("The check fails, please fix it.", fix_session(alpha.project))
    assert first.returncode == 0, first.describe()
    notes = json.loads(alpha.lorebook("list", "--json").stdout)["notes"]
    assert [(n["scope"], n["project_key"]) for n in notes] == [("project", "github.com/acme/alpha")], notes

    written = alpha.lorebook("write", "--scope", "global", "--json", input=json.dumps(GLOBAL_LESSON))
    assert json.loads(written.stdout)["decision"] == "created", written.stdout + written.stderr

    again = alpha.run("Please run echo hello")
    assert again.returncode == 0, again.describe()
    seen_by_alpha = again.first_request_text()
    assert "retries = 3" in seen_by_alpha, again.describe()
    assert "PIP_CERT" in seen_by_alpha, again.describe()
    assert "not instructions" in seen_by_alpha

    other = beta.run("Please run echo hello")
    assert other.returncode == 0, other.describe()
    seen_by_beta = other.first_request_text()
    assert "PIP_CERT" in seen_by_beta, other.describe()
    assert "retries = 3" not in seen_by_beta and "check.py" not in seen_by_beta, other.describe()

    # a prompt in beta that matches alpha's lesson word for word still does not pull it in
    probe = beta.run("app.cfg check.py fails: ConfigError [client] retries is not set, fix it")
    assert probe.returncode == 0, probe.describe()
    assert "retries = 3" not in probe.all_model_text(), probe.describe()
    recalled = json.loads(beta.lorebook("recall", "--task", "check.py fails: retries missing in app.cfg", "--json",
                                        "--project", str(beta.project)).stdout)
    assert recalled["project_key"] == "github.com/acme/beta"
    assert recalled["project_memories"] == []
    assert "internal error" not in alpha.hook_log, alpha.hook_log
