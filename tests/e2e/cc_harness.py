"""Drive the real Claude Code CLI offline, with lorebook registered, against fake_anthropic.py.

The classes here are what tests/e2e/conftest.py's fixtures hand out; import
them directly (``from cc_harness import tool_use, say``) for scenario helpers.
Adapted from the shared harness; lorebook's tests use only this copy.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parent.parent
CLAUDE_CODE_VERSION = "2.1.332"
ROUTES = ("plugin-dir", "install")
ALL_ROUTES = ("plugin-dir", "install", "install-project", "marketplace")
MARKETPLACE_NAME = "lorebook"


# --------------------------------------------------------------------------- locating things

def test_cache_dir() -> Path:
    """Where tests/run keeps its venv and the npm-installed Claude Code (LOREBOOK_TEST_CACHE overrides)."""
    explicit = os.environ.get("LOREBOOK_TEST_CACHE")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "lorebook-tests"


test_cache_dir.__test__ = False  # not a test, whatever its name


def cached_claude() -> Path:
    return test_cache_dir() / f"claude-code-{CLAUDE_CODE_VERSION}" / "node_modules" / ".bin" / "claude"


def find_claude() -> tuple[str | None, str]:
    """(path to the claude binary, or None; the reason when None)."""
    explicit = os.environ.get("LOREBOOK_CLAUDE")
    if explicit:
        if os.access(explicit, os.X_OK):
            return explicit, ""
        return None, f"LOREBOOK_CLAUDE={explicit} is not an executable file"
    cached = cached_claude()
    if os.access(cached, os.X_OK):
        return str(cached), ""
    if shutil.which("npm") is None:
        return None, (f"npm is not on PATH, so @anthropic-ai/claude-code@{CLAUDE_CODE_VERSION} could not be "
                      f"installed into {cached.parent.parent.parent}; install Node/npm and run tests/run, "
                      "or set LOREBOOK_CLAUDE to a claude binary")
    return None, (f"no claude binary at {cached}: run tests/run (it installs "
                  f"@anthropic-ai/claude-code@{CLAUDE_CODE_VERSION} there with npm) or set LOREBOOK_CLAUDE")


def find_lorebook() -> str | None:
    """The `lorebook` console script of the Python running the tests (the venv's), else PATH's."""
    beside = Path(sys.executable).with_name("lorebook")
    if os.access(beside, os.X_OK):
        return str(beside)
    return shutil.which("lorebook")


def offline_env(base_url: str, home: str, extra: dict | None = None) -> dict:
    """The environment that keeps the CLI offline and inside the sandbox."""
    env = {
        "PATH": os.environ.get("PATH", "/usr/local/bin:/usr/bin:/bin"),
        "HOME": home,
        "LANG": "C.UTF-8",
        "TERM": "dumb",
        "ANTHROPIC_BASE_URL": base_url,
        "ANTHROPIC_API_KEY": "dummy",
        "IS_SANDBOX": "1",  # --dangerously-skip-permissions refuses to run as root without it
        "DISABLE_TELEMETRY": "1",
        "DISABLE_ERROR_REPORTING": "1",
        "DISABLE_AUTOUPDATER": "1",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
    }
    env.update(extra or {})
    return env


# --------------------------------------------------------------------------- scenario helpers

def say(text: str) -> dict:
    """A text block the fake model answers with."""
    return {"type": "text", "text": text}


def tool_use(name: str, **tool_input) -> dict:
    """A tool call the fake model makes (real tools run: Bash, Read, Write, Edit...)."""
    return {"type": "tool_use", "name": name, "input": tool_input}


def scenario(*steps, final_text: str = "Done.") -> dict:
    """A scenario from steps; each step is a block or a list of blocks (one model reply)."""
    return {"steps": [list(step) if isinstance(step, (list, tuple)) else [step] for step in steps],
            "final_text": final_text}


# --------------------------------------------------------------------------- the fake API

class FakeAnthropic:
    """fake_anthropic.py as a subprocess on a free port; every request body is logged."""

    def __init__(self, workdir: str | None = None):
        self.dir = workdir or tempfile.mkdtemp(prefix="lb-api-")
        self.log_path = os.path.join(self.dir, "requests.jsonl")
        self.proc: subprocess.Popen | None = None
        self.port: int | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> "FakeAnthropic":
        port_file = os.path.join(self.dir, "port")
        args = [sys.executable, str(HERE / "fake_anthropic.py"), "--port", "0",
                "--port-file", port_file, "--log", self.log_path]
        with open(os.path.join(self.dir, "server.err"), "w") as err:
            self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=err)
        deadline = time.time() + 10
        while time.time() < deadline:
            if os.path.exists(port_file):
                self.port = int(Path(port_file).read_text())
                return self
            if self.proc.poll() is not None:
                break
            time.sleep(0.02)
        raise RuntimeError(f"fake Anthropic server did not start; see {self.dir}/server.err")

    def set_scenario(self, scenario: dict | None) -> None:
        """Replace the script and clear the request log."""
        data = json.dumps(scenario or {}).encode()
        req = urllib.request.Request(self.base_url + "/_harness/reset", data=data, method="POST")
        urllib.request.urlopen(req, timeout=10).read()
        if os.path.exists(self.log_path):
            os.remove(self.log_path)

    def requests(self) -> list[dict]:
        if not os.path.exists(self.log_path):
            return []
        with open(self.log_path) as fp:
            return [json.loads(line) for line in fp if line.strip()]

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()


# --------------------------------------------------------------------------- results

class Result:
    """One `claude -p` run: exit code, output, the API requests it made, the sandbox."""

    def __init__(self, **kw):
        self.__dict__.update(kw)

    @property
    def text(self) -> str | None:
        """The final text of the session (--output-format json's `result`)."""
        return self.result.get("result") if isinstance(self.result, dict) else None

    @property
    def session_id(self) -> str | None:
        return self.result.get("session_id") if isinstance(self.result, dict) else None

    @property
    def model_requests(self) -> list[dict]:
        """Requests to /v1/messages that run the agent loop (they carry tools), in order."""
        return [r for r in self.requests if r["path"].startswith("/v1/messages")
                and not r["path"].startswith("/v1/messages/count_tokens") and str(r.get("kind", "")).startswith("main")]

    def first_request_text(self) -> str:
        """The whole body of the session's FIRST model request, as JSON text (system, messages, tools)."""
        reqs = self.model_requests
        return json.dumps(reqs[0]["body"], ensure_ascii=False) if reqs else ""

    def all_model_text(self) -> str:
        """Everything the model was shown across the session, as JSON text."""
        return "\n".join(json.dumps(r["body"], ensure_ascii=False) for r in self.model_requests)

    def transcript(self) -> list[dict]:
        out = []
        for path in sorted(Path(self.home, ".claude", "projects").glob(f"*/{self.session_id or '*'}.jsonl")):
            out += [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
        return out

    def describe(self) -> str:
        """Enough to debug a failed assertion."""
        return (f"exit {self.returncode} in {self.elapsed:.1f}s\ncmd: {self.cmd}\nstdout: {self.stdout[-2000:]}\n"
                f"stderr: {self.stderr[-2000:]}\nhook log:\n{self.hook_log[-3000:]}")

    __repr__ = describe


# --------------------------------------------------------------------------- the sandbox

class Sandbox:
    """A throwaway HOME, project dir and LOREBOOK_HOME, with lorebook registered by one route.

    route: "plugin-dir" (claude --plugin-dir <checkout>), "install" (`lorebook install`
    into ~/.claude/settings.json), "install-project" (`lorebook install --project`),
    "marketplace" (`claude plugin marketplace add <checkout>` + `claude plugin install`),
    or None (lorebook not registered). git: make the project a git checkout (with
    ``remote`` as origin when given: lorebook keys projects by their remote).
    """

    def __init__(self, api: FakeAnthropic, claude: str, lorebook: str, route: str | None = "plugin-dir",
                 root: str | None = None, git: bool = True, remote: str | None = None):
        if route not in ALL_ROUTES + (None,):
            raise ValueError(f"unknown route {route!r}; one of {ALL_ROUTES}")
        self.api, self.claude, self.lorebook_bin, self.route = api, claude, lorebook, route
        # short paths: claude makes unix sockets under TMPDIR (108-byte limit)
        self.root = Path(root or tempfile.mkdtemp(prefix="lb-e2e-"))
        self.home = self.root / "home"
        self.project = self.root / "project"
        self.tmp = self.root / "tmp"
        self.lorebook_home = self.root / "lorebook-home"
        for path in (self.home, self.project, self.tmp):
            path.mkdir(parents=True, exist_ok=True)
        self.extra_env: dict = {}
        self.claude_args: list[str] = []
        if git:
            self.git("init", "-q")
            if remote:
                self.git("remote", "add", "origin", remote)
        if route:
            self.register(route)

    def env(self, extra: dict | None = None) -> dict:
        """The sandbox's environment: offline claude, LOREBOOK_HOME inside, the venv's lorebook on PATH."""
        path = os.pathsep.join([str(Path(self.lorebook_bin).parent), os.environ.get("PATH", "/usr/bin:/bin")])
        env = offline_env(self.api.base_url, str(self.home), {
            "PATH": path, "TMPDIR": str(self.tmp), "CLAUDE_CODE_TMPDIR": str(self.tmp),
            "LOREBOOK_HOME": str(self.lorebook_home),
            "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
            "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com",
        })
        env.update(self.extra_env)
        env.update(extra or {})
        return {k: v for k, v in env.items() if v is not None}

    # ---- registration
    def register(self, route: str) -> None:
        if route == "plugin-dir":
            self.claude_args = ["--plugin-dir", str(REPO_ROOT)]
        elif route == "install":
            self._check(self.lorebook("install"), "lorebook install")
        elif route == "install-project":
            self._check(self.lorebook("install", "--project"), "lorebook install --project")
        elif route == "marketplace":
            self._check(self.claude_cli("plugin", "marketplace", "add", str(REPO_ROOT)), "claude plugin marketplace add")
            self._check(self.claude_cli("plugin", "install", f"lorebook@{MARKETPLACE_NAME}"), "claude plugin install")

    @staticmethod
    def _check(proc: subprocess.CompletedProcess, what: str) -> None:
        if proc.returncode != 0:
            raise RuntimeError(f"{what} failed (exit {proc.returncode}):\n{proc.stdout}\n{proc.stderr}")

    # ---- running things inside the sandbox
    def lorebook(self, *args: str, input: str | bytes | None = None, extra_env: dict | None = None,
                 cwd: str | None = None) -> subprocess.CompletedProcess:
        """Run the venv's `lorebook` with the sandbox's HOME and LOREBOOK_HOME."""
        return subprocess.run([self.lorebook_bin, *args], cwd=cwd or self.project, env=self.env(extra_env),
                              input=input.encode() if isinstance(input, str) else input,
                              capture_output=True, timeout=120)

    def claude_cli(self, *args: str) -> subprocess.CompletedProcess:
        """Run a non-session claude command (e.g. `plugin install`) in the sandbox."""
        return subprocess.run([self.claude, *args], cwd=self.project, env=self.env(), capture_output=True,
                              text=True, timeout=120)

    def git(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run(["git", *args], cwd=self.project, env=self.env(), capture_output=True, text=True,
                              check=True)

    def write(self, relpath: str, text: str) -> Path:
        """Write a file into the project."""
        path = self.project / relpath
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        return path

    @property
    def hook_log(self) -> str:
        path = self.lorebook_home / "logs" / "hooks.log"
        try:
            return path.read_text(errors="replace")
        except OSError:
            return ""

    def run(self, prompt: str, scenario: dict | None = None, args: list[str] | tuple = (), timeout: float = 120,
            extra_env: dict | None = None) -> Result:
        """One `claude -p PROMPT` session, the fake model following `scenario` (None: its default script)."""
        self.api.set_scenario(scenario)
        cmd = [self.claude, "-p", prompt, "--output-format", "json", "--dangerously-skip-permissions",
               *self.claude_args, *args]
        started = time.time()
        proc = subprocess.run(cmd, cwd=self.project, env=self.env(extra_env), capture_output=True, text=True,
                              timeout=timeout)
        elapsed = time.time() - started
        try:
            result = json.loads(proc.stdout)
        except ValueError:
            result = None
        return Result(cmd=cmd, returncode=proc.returncode, stdout=proc.stdout, stderr=proc.stderr,
                      elapsed=elapsed, result=result, requests=self.api.requests(), home=str(self.home),
                      project=str(self.project), hook_log=self.hook_log)

    def run_turns(self, prompts: list[str], scenario: dict | None = None, args: list[str] | tuple = (),
                  timeout: float = 180, extra_env: dict | None = None) -> Result:
        """Several user turns in ONE claude process (one session), stream-json in and out.

        Each prompt is sent after the previous turn's `result` event, so each turn gets its own
        UserPromptSubmit ... Stop; SessionEnd fires when stdin closes. ``res.results`` holds every
        turn's result event; ``res.result`` the last one.
        """
        import threading

        self.api.set_scenario(scenario)
        cmd = [self.claude, "-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose",
               "--dangerously-skip-permissions", *self.claude_args, *args]
        started = time.time()
        proc = subprocess.Popen(cmd, cwd=self.project, env=self.env(extra_env), stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)
        killer = threading.Timer(timeout, proc.kill)
        killer.start()
        events, results = [], []
        try:
            for prompt in prompts:
                proc.stdin.write(json.dumps({"type": "user", "message": {"role": "user", "content": prompt}}) + "\n")
                proc.stdin.flush()
                for line in proc.stdout:
                    if not line.strip().startswith("{"):
                        continue
                    event = json.loads(line)
                    events.append(event)
                    if event.get("type") == "result":
                        results.append(event)
                        break
            proc.stdin.close()
            events += [json.loads(l) for l in proc.stdout.read().splitlines() if l.strip().startswith("{")]
            proc.wait()
        finally:
            killer.cancel()
        return Result(cmd=cmd, returncode=proc.returncode, stdout=json.dumps(events), stderr=proc.stderr.read(),
                      elapsed=time.time() - started, result=results[-1] if results else None, results=results,
                      events=events, requests=self.api.requests(), home=str(self.home), project=str(self.project),
                      hook_log=self.hook_log)

    def cleanup(self) -> None:
        if not os.environ.get("LOREBOOK_E2E_KEEP"):
            shutil.rmtree(self.root, ignore_errors=True)
