"""Where lorebook keeps its files, and the settings a user can change.

Everything here is cheap to import: the hook hot path uses it.
"""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from .errors import ConfigError, UserDirError

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


def _platform_data_dir() -> Path:
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / "lorebook"
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or str(Path.home() / "AppData" / "Local")
        return Path(base) / "lorebook"
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "lorebook"


def user_dir(create: bool = True) -> Path:
    """The directory holding lorebook's database, logs, config and corpora.

    ``LOREBOOK_HOME`` overrides the platform's data dir.
    """
    path = Path(os.environ.get("LOREBOOK_HOME") or _platform_data_dir()).expanduser()
    if create:
        try:
            if not path.is_dir():
                path.parent.mkdir(parents=True, exist_ok=True)
                path.mkdir(mode=0o700, exist_ok=True)  # it holds prompts and tool output: private
        except OSError as ex:
            raise UserDirError(
                f"Cannot create lorebook's data dir {path}: {ex.strerror or ex}. "
                "Remove whatever stands in its place or set LOREBOOK_HOME to another directory."
            ) from ex
        if not path.is_dir():
            raise UserDirError(
                f"lorebook's data dir {path} is not a directory. "
                "Move that file away or set LOREBOOK_HOME to another directory."
            )
    return path


def db_path() -> Path:
    return user_dir() / "lorebook.db"


def log_path() -> Path:
    return user_dir() / "logs" / "hooks.log"


def config_path() -> Path:
    return user_dir(create=False) / "config.json"


def load_config() -> dict:
    """The merged settings: defaults, then config.json, then environment variables."""
    config = dict(DEFAULTS)
    path = config_path()
    if path.exists():
        try:
            loaded = json.loads(path.read_text("utf-8"))
        except (OSError, ValueError) as ex:
            raise ConfigError(f"Cannot read {path}: {ex}. Fix the JSON or delete the file.") from ex
        if not isinstance(loaded, dict):
            raise ConfigError(f"{path} must hold a JSON object, not {type(loaded).__name__}.")
        config.update(loaded)
    for key, env in (("context_budget", "LOREBOOK_CONTEXT_BUDGET"), ("prompt_budget", "LOREBOOK_PROMPT_BUDGET")):
        value = os.environ.get(env)
        if value:
            try:
                config[key] = int(value)
            except ValueError as ex:
                raise ConfigError(f"{env} must be a whole number of tokens, not {value!r}.") from ex
    return config


def log(event: str, message: str, exc: BaseException | None = None) -> None:
    """Append a line (and a redacted traceback) to the hook log; never raises."""
    try:
        import time
        import traceback

        from .redact import redact

        path = log_path()
        path.parent.mkdir(parents=True, exist_ok=True)
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
