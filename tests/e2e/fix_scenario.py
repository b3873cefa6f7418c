"""The scripted session several e2e tests share: a check fails on a missing config key, the agent reads and edits
the config, re-runs the check green, and explains the cause."""
import json

from cc_harness import say, scenario, tool_use

# the check, with the error message it prints as a slot (tests that plant text in tool output fill it)
CHECK_TEMPLATE = """\
import configparser, sys
config = configparser.ConfigParser()
config.read("app.cfg")
if not config.has_option("client", "retries"):
    sys.exit("ConfigError: {message}")
print("check ok: retries =", config.get("client", "retries"))
"""
CHECK_PY = CHECK_TEMPLATE.format(message="[client] retries is not set in app.cfg")
APP_CFG = "[client]\ntimeout = 5\n"
CAUSE = "check.py failed because app.cfg had no retries setting in its [client] section"


def fix_session(project) -> dict:
    """The fake model's script for that session, with file paths inside ``project``."""
    script = scenario(
        [say("Running the check."), tool_use("Bash", command="python3 check.py", description="Run the check")],
        [say("It wants retries in app.cfg."), tool_use("Read", file_path="{project}/app.cfg")],
        [tool_use("Edit", file_path="{project}/app.cfg", old_string="timeout = 5",
                  new_string="timeout = 5\nretries = 3")],
        [tool_use("Bash", command="python3 check.py", description="Re-run the check")],
        say(f"{CAUSE}; adding `retries = 3` under [client] in app.cfg fixed it and the check passes."),
    )
    return json.loads(json.dumps(script).replace("{project}", str(project)))
