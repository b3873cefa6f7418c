"""Domain errors. Library code raises these; only cli.py turns them into messages."""


class LorebookError(Exception):
    "Base class for every error lorebook raises on purpose"


class UserDirError(LorebookError):
    "The user dir cannot be created or used"


class ConfigError(LorebookError):
    "The config file cannot be read"


class NoteNotFound(LorebookError):
    "No note has that id"


class SettingsFileError(LorebookError):
    "A Claude Code settings file cannot be read or written"


class StoreLocked(LorebookError):
    "The database stayed locked past the busy timeout"


class EmbeddingUnavailable(LorebookError):
    "The configured embedding model cannot be loaded or failed"
