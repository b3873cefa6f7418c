"""Where lorebook keeps its files, and the settings a user can change.

Everything here is cheap to import: the hook hot path uses it.
"""
from __future__ import annotations

import json
import os
import sys
from typing import TYPE_CHECKING

from .errors import UserDirError

if TYPE_CHECKING:  # pathlib costs a hook process ~6 ms of imports: the hook path uses the *_file() strings
    from pathlib import Path

DEFAULT_CONTEXT_BUDGET = 1500
DEFAULT_PROMPT_BUDGET = 600

# Defaults for the config file (config.json in the user dir); env vars win.
DEFAULTS: dict = {
    "context_budget": DEFAULT_CONTEXT_BUDGET,
    "prompt_budget": DEFAULT_PROMPT_BUDGET,
    "exclude_projects": [],
    "exclude_paths": ["**/.env*", "**/secrets/**", "**/*.pem", "**/id_rsa*"],
    "exclude_tools": [],
}


def _platform_data_dir() -> str:
    home = os.path.expanduser("~")
    if sys.platform == "darwin":
        return os.path.join(home, "Library", "Application Support", "lorebook")
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or os.path.join(home, "AppData", "Local")
        return os.path.join(base, "lorebook")
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(home, ".local", "share")
    return os.path.join(base, "lorebook")


def user_dir(create: bool = True) -> Path:
    """The directory holding lorebook's database, logs, config and corpora.

    ``LOREBOOK_HOME`` overrides the platform's data dir.
    """
    from pathlib import Path

    return Path(user_dir_str(create))


def user_dir_str(create: bool = True) -> str:
    """:func:`user_dir` as a string, without importing pathlib (the hook path)."""
    path = os.path.expanduser(os.environ.get("LOREBOOK_HOME") or _platform_data_dir())
    if create:
        try:
            if not os.path.isdir(path):
                os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
                os.makedirs(path, mode=0o700, exist_ok=True)  # it holds prompts and tool output: private
        except OSError as ex:
            raise UserDirError(
                f"Cannot create lorebook's data dir {path}: {ex.strerror or ex}. "
                "Remove whatever stands in its place or set LOREBOOK_HOME to another directory."
            ) from ex
        if not os.path.isdir(path):
            raise UserDirError(
                f"lorebook's data dir {path} is not a directory. "
                "Move that file away or set LOREBOOK_HOME to another directory."
            )
    return path


def print_key() -> bytes:
    """This install's key for the fingerprints of the secrets a session redacted (``redact.fingerprints``): random,
    made on first use, readable by its owner only, kept out of the database so that a copy of it gives nothing."""
    path = os.path.join(user_dir_str(), "secret-prints.key")
    try:
        with open(path, "rb") as f:
            key = f.read()
        if len(key) >= 32:
            return key
    except FileNotFoundError:
        pass
    # written whole under another name, then linked into place: two hooks making it at once agree on one key
    tmp = f"{path}.{os.getpid()}.{os.urandom(4).hex()}"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(os.urandom(32))
        try:
            os.link(tmp, path)
        except FileExistsError:
            pass
        except OSError:  # (a file system without hard links)
            if not os.path.exists(path):
                os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    with open(path, "rb") as f:
        return f.read()


def db_path() -> Path:
    return user_dir() / "lorebook.db"


def db_file() -> str:
    return os.path.join(user_dir_str(), "lorebook.db")


def log_path() -> Path:
    return user_dir() / "logs" / "hooks.log"


def log_file() -> str:
    return os.path.join(user_dir_str(), "logs", "hooks.log")


def config_path() -> Path:
    return user_dir(create=False) / "config.json"


def config_file() -> str:
    return os.path.join(user_dir_str(create=False), "config.json")


# what each setting must be; a value of the wrong shape is reported and its default used instead
_SETTING_TYPES = {
    "context_budget": "a whole number of tokens above 0",
    "prompt_budget": "a whole number of tokens above 0",
    "exclude_projects": "a list of strings",
    "exclude_paths": "a list of strings",
    "exclude_tools": "a list of strings",
}
_problems: list[str] = []


def _valid(key: str, value) -> bool:
    if key in ("context_budget", "prompt_budget"):
        return isinstance(value, int) and not isinstance(value, bool) and value > 0
    if key.startswith("exclude_"):
        return isinstance(value, str) or (isinstance(value, list) and all(isinstance(v, str) for v in value))
    return True


def load_config() -> dict:
    """The merged settings: defaults, then config.json, then environment variables.

    Never raises on a bad file or value: lorebook keeps working with the
    defaults, and :func:`config_problems` says what was wrong (the CLI prints
    it, the hooks tell the user once per session).
    """
    config = dict(DEFAULTS)
    problems: list[str] = []
    try:
        path = config_file()
    except UserDirError:
        path = None
    if path is not None and os.path.exists(path):
        loaded = None
        try:
            with open(path, encoding="utf-8") as fp:
                loaded = json.loads(fp.read())
        except (OSError, ValueError) as ex:
            problems.append(f"{path} cannot be read ({ex}); lorebook uses its default settings until the JSON "
                            "is fixed or the file deleted.")
        if loaded is not None and not isinstance(loaded, dict):
            problems.append(f"{path} must hold a JSON object, not {type(loaded).__name__}; lorebook uses its "
                            "default settings.")
        elif isinstance(loaded, dict):
            for key, value in loaded.items():
                if key in _SETTING_TYPES and not _valid(key, value):
                    problems.append(f"{path}: \"{key}\" must be {_SETTING_TYPES[key]}, not {json.dumps(value)[:60]}; "
                                    f"the default ({json.dumps(DEFAULTS[key])}) is used.")
                    continue
                config[key] = value
    for key, env in (("context_budget", "LOREBOOK_CONTEXT_BUDGET"), ("prompt_budget", "LOREBOOK_PROMPT_BUDGET")):
        value = os.environ.get(env)
        if value:
            try:
                number = int(value)
                if number <= 0:
                    raise ValueError(value)
                config[key] = number
            except ValueError:
                problems.append(f"{env} must be a whole number of tokens above 0, not {value!r}; "
                                f"{config[key]} is used.")
    _problems[:] = problems
    return config


def config_problems() -> list[str]:
    """What is wrong with the settings (config.json, environment), one message each; [] when nothing is."""
    load_config()
    return list(_problems)


# the hook log keeps one older file beside it: at most ~2 x LOG_MAX_BYTES on disk
LOG_MAX_BYTES = 1024 * 1024


def rotate_log(path, max_bytes: int = LOG_MAX_BYTES) -> None:
    """Move ``path`` to ``path.1`` (replacing the older one) once it has grown past ``max_bytes``; never raises."""
    try:
        path = os.fspath(path)
        if os.stat(path).st_size > max_bytes:
            os.replace(path, path + ".1")
    except OSError:
        pass


def log(event: str, message: str, exc: BaseException | None = None) -> None:
    """Append a line (and a redacted traceback) to the hook log; never raises."""
    try:
        import time
        import traceback

        from .redact import redact

        path = log_file()
        os.makedirs(os.path.dirname(path), exist_ok=True)
        rotate_log(path)
        text = f"{time.strftime('%Y-%m-%dT%H:%M:%S')} [{event}] {message}\n"
        if exc is not None:
            text += "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
        with open(path, "a", encoding="utf-8") as fp:
            fp.write(redact(text))
    except Exception:
        pass


FLAG_ON = frozenset(("1", "true", "yes", "on"))
FLAG_OFF = frozenset(("0", "false", "no", "off", ""))


def flag(name: str, default: bool) -> bool:
    """An on/off environment setting: 1/true/yes/on or 0/false/no/off/"" (any case); unset gives ``default``.

    Any other value also gives ``default``, and a line in the hook log says so.
    """
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in FLAG_ON:
        return True
    if value in FLAG_OFF:
        return False
    log("config", f"{name}={raw!r} is neither on (1/true/yes/on) nor off (0/false/no/off/empty): "
                  f"using the default, {'on' if default else 'off'}")
    return default


def disabled() -> bool:
    return flag("LOREBOOK_DISABLE", False)
