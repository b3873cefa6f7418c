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


class EmbeddingUnavailable(LorebookError):
    "The configured embedding model cannot be loaded or failed"


class StoreError(LorebookError):
    "The database cannot be used; the message names the file and what to do"

    def __init__(self, message: str, path=None):
        super().__init__(message)
        self.path = path


class StoreLocked(StoreError):
    "The database stayed locked past the busy timeout"


class StoreCorrupt(StoreError):
    "The database file is damaged or is not a lorebook database"


class StoreReadOnly(StoreError):
    "The database (or its directory) cannot be written"


class StoreFull(StoreError):
    "The disk (or the database's size limit) is full"


class StoreUnreadable(StoreError):
    "The database file cannot be opened or read"
