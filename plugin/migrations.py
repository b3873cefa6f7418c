"""Schema migrations. Named m001_…, applied in order, never edited once landed.

Imported only when the database is behind (it pulls in sqlite_utils, too heavy
for a hook's hot path); ``store.SCHEMA_VERSION`` must equal the number of
migrations here (a test checks it).
"""
import sqlite3

from sqlite_utils import Database
from sqlite_utils.migrations import Migrations

migrations = Migrations("lorebook")


def _run(db: Database, script: str) -> None:
    # executescript() would COMMIT the migration's transaction: run one statement at a time
    statement = ""
    for line in script.splitlines(keepends=True):
        statement += line
        if sqlite3.complete_statement(statement):
            db.execute(statement)
            statement = ""
    if statement.strip():
        db.execute(statement)


@migrations()
def m001_initial(db: Database):
    _run(
        db,
        """
CREATE TABLE projects (
    key TEXT PRIMARY KEY,          -- normalised git remote, else git root, else cwd
    name TEXT NOT NULL,
    root TEXT,
    remote TEXT,
    aliases TEXT NOT NULL DEFAULT '[]',   -- JSON list of other keys (moved repos)
    created_at TEXT NOT NULL
);
CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    project_key TEXT REFERENCES projects(key),
    cwd TEXT,
    parent_session_id TEXT,        -- a subagent's parent
    agent_id TEXT,
    source_agent TEXT NOT NULL DEFAULT 'claude-code',
    transcript_path TEXT,
    started_at TEXT NOT NULL,
    last_event_at TEXT,
    ended_at TEXT,
    end_reason TEXT,
    last_assistant_message TEXT,
    status TEXT NOT NULL DEFAULT 'open'   -- open, closed
);
CREATE INDEX sessions_project ON sessions(project_key);
CREATE TABLE prompts (
    id INTEGER PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions(id),
    prompt_id TEXT,
    text TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    created_at TEXT NOT NULL,
    UNIQUE (session_id, content_hash)
);
CREATE TABLE observations (
    id INTEGER PRIMARY KEY,
    session_id TEXT REFERENCES sessions(id),
    project_key TEXT,
    tool_use_id TEXT UNIQUE,
    event TEXT NOT NULL,           -- post_tool_use, post_tool_use_failure, subagent_stop, import
    tool TEXT NOT NULL,
    target TEXT,                   -- the command, file, pattern, url …
    summary TEXT NOT NULL,
    outcome TEXT NOT NULL,         -- ok, error
    exit_code INTEGER,
    error_text TEXT,
    error_signature TEXT,
    files TEXT NOT NULL DEFAULT '[]',
    body TEXT,                     -- redacted, bounded excerpt
    meta TEXT NOT NULL DEFAULT '{}',
    content_hash TEXT NOT NULL,
    source TEXT NOT NULL DEFAULT 'hook',  -- hook, import
    created_at TEXT NOT NULL
);
CREATE INDEX observations_session ON observations(session_id, id);
CREATE INDEX observations_signature ON observations(error_signature);
CREATE UNIQUE INDEX observations_dedupe ON observations(session_id, content_hash);
CREATE TABLE notes (
    id INTEGER PRIMARY KEY,
    title TEXT NOT NULL,
    summary TEXT NOT NULL DEFAULT '',
    kind TEXT NOT NULL DEFAULT 'fix',      -- fix, pitfall, pattern, decision, gotcha, how-it-works
    trigger TEXT NOT NULL DEFAULT '',
    evidence TEXT NOT NULL DEFAULT '[]',   -- JSON list of {"quote", "source", "observation_id"}
    change TEXT NOT NULL DEFAULT '',
    validation TEXT NOT NULL DEFAULT '{}', -- JSON {"passed": [...], "not_performed": [...]}
    scope TEXT NOT NULL DEFAULT 'project', -- project, global
    conditions TEXT NOT NULL DEFAULT '',   -- when the lesson applies
    project_key TEXT,
    files TEXT NOT NULL DEFAULT '[]',
    error_signatures TEXT NOT NULL DEFAULT '[]',
    tags TEXT NOT NULL DEFAULT '[]',
    concepts TEXT NOT NULL DEFAULT '[]',
    source_agent TEXT,
    session_id TEXT,
    run_key TEXT,
    observation_ids TEXT NOT NULL DEFAULT '[]',
    verified INTEGER NOT NULL DEFAULT 0,
    status TEXT NOT NULL DEFAULT 'active', -- active, superseded, stale, forgotten
    superseded_by INTEGER REFERENCES notes(id),
    index_status TEXT NOT NULL DEFAULT 'pending',  -- pending, indexed, failed
    content_hash TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX notes_project_status ON notes(project_key, status);
CREATE INDEX notes_index_status ON notes(index_status);
CREATE TABLE note_revisions (
    id INTEGER PRIMARY KEY,
    note_id INTEGER NOT NULL REFERENCES notes(id),
    revision INTEGER NOT NULL,
    snapshot TEXT NOT NULL,        -- the whole note as JSON, before the change
    reason TEXT NOT NULL,
    created_at TEXT NOT NULL,
    UNIQUE (note_id, revision)
);
CREATE TABLE relations (
    id INTEGER PRIMARY KEY,
    from_note INTEGER NOT NULL REFERENCES notes(id),
    to_note INTEGER NOT NULL REFERENCES notes(id),
    kind TEXT NOT NULL,            -- supersedes, similar_to, contradicts, derived_from, resolved_by
    created_at TEXT NOT NULL,
    UNIQUE (from_note, to_note, kind)
);
CREATE TABLE receipts (
    source_agent TEXT NOT NULL,
    run_key TEXT NOT NULL,
    decision TEXT NOT NULL,        -- created, merged, skipped
    note_id INTEGER,
    merged_into INTEGER,
    reasons TEXT NOT NULL DEFAULT '[]',
    warnings TEXT NOT NULL DEFAULT '[]',
    created_at TEXT NOT NULL,
    PRIMARY KEY (source_agent, run_key)
);
CREATE TABLE recalls (            -- which notes reached which session (no repeats, no self-corroboration)
    session_id TEXT NOT NULL,
    note_id INTEGER NOT NULL,
    event TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (session_id, note_id)
);
CREATE VIRTUAL TABLE notes_fts USING fts5(
    title, summary, trigger, evidence, change, tags, files, error_signatures,
    content='notes', content_rowid='id', tokenize='porter unicode61'
);
CREATE TRIGGER notes_ai AFTER INSERT ON notes BEGIN
    INSERT INTO notes_fts(rowid, title, summary, trigger, evidence, change, tags, files, error_signatures)
    VALUES (new.id, new.title, new.summary, new.trigger, new.evidence, new.change, new.tags, new.files, new.error_signatures);
END;
CREATE TRIGGER notes_ad AFTER DELETE ON notes BEGIN
    INSERT INTO notes_fts(notes_fts, rowid, title, summary, trigger, evidence, change, tags, files, error_signatures)
    VALUES ('delete', old.id, old.title, old.summary, old.trigger, old.evidence, old.change, old.tags, old.files, old.error_signatures);
END;
CREATE TRIGGER notes_au AFTER UPDATE ON notes BEGIN
    INSERT INTO notes_fts(notes_fts, rowid, title, summary, trigger, evidence, change, tags, files, error_signatures)
    VALUES ('delete', old.id, old.title, old.summary, old.trigger, old.evidence, old.change, old.tags, old.files, old.error_signatures);
    INSERT INTO notes_fts(rowid, title, summary, trigger, evidence, change, tags, files, error_signatures)
    VALUES (new.id, new.title, new.summary, new.trigger, new.evidence, new.change, new.tags, new.files, new.error_signatures);
END;
CREATE VIRTUAL TABLE observations_fts USING fts5(
    tool, target, summary, error_text, error_signature,
    content='observations', content_rowid='id', tokenize='porter unicode61'
);
CREATE TRIGGER observations_ai AFTER INSERT ON observations BEGIN
    INSERT INTO observations_fts(rowid, tool, target, summary, error_text, error_signature)
    VALUES (new.id, new.tool, new.target, new.summary, new.error_text, new.error_signature);
END;
CREATE TRIGGER observations_ad AFTER DELETE ON observations BEGIN
    INSERT INTO observations_fts(observations_fts, rowid, tool, target, summary, error_text, error_signature)
    VALUES ('delete', old.id, old.tool, old.target, old.summary, old.error_text, old.error_signature);
END
""",
    )


@migrations()
def m002_recall_indexes(db: Database):
    # SessionStart lists a project's (and the global) active notes, verified then newest, on every session:
    # without these it reads the whole notes table (~25 ms at 10,000 notes).
    _run(
        db,
        """
CREATE INDEX notes_scope_rank ON notes(scope, status, verified, updated_at);
CREATE INDEX notes_project_rank ON notes(project_key, status, verified, updated_at)
""",
    )


@migrations()
def m003_note_verification(db: Database):
    # how a note came to be verified: "observation" (a check that passed after the change is on record),
    # "check" (a passed check the writer quotes with its source), "person" (`lorebook verify`), or "claimed"
    # (the writer said verified with no check on record: verified stays 0, shown as claimed by the agent)
    _run(db, "ALTER TABLE notes ADD COLUMN verified_by TEXT")


@migrations()
def m004_quarantine_and_claims(db: Database):
    # a lesson that tries to steer a future agent is kept with status 'quarantined' and the findings that put it
    # there (flags); a writer's own name for itself (over MCP) is kept as a claim beside lorebook's source_agent
    _run(
        db,
        """
ALTER TABLE notes ADD COLUMN flags TEXT NOT NULL DEFAULT '[]';
ALTER TABLE notes ADD COLUMN claimed_agent TEXT
""",
    )


@migrations()
def m005_secret_prints(db: Database):
    # keyed fingerprints (never the values) of the secrets redacted in a session, so that one seen redacted in a
    # tool's output is redacted where it comes back and no rule would know it (the agent's last message)
    _run(
        db,
        """
CREATE TABLE secret_prints (
    session_id TEXT NOT NULL REFERENCES sessions(id),
    print TEXT NOT NULL,
    PRIMARY KEY (session_id, print)
) WITHOUT ROWID
""",
    )


# --- the vector tables' companions -------------------------------------------------------------
#
# llm's ``collections`` / ``embeddings`` tables come from llm's own migrations (run by the llm bridge),
# and only once vectors are first needed: that imports llm, which no hook may do. What lorebook adds
# on top of them has to wait for those tables, so it is a migration set of its own, applied by
# ``Store.ensure_vector_tables`` right after llm's.

vector_migrations = Migrations("lorebook.vectors")


@vector_migrations()
def m001_vector_generation(db: Database):
    # a generation counter kept by triggers: the top-k cache checks it in O(1) (a count is O(n)).
    # IF NOT EXISTS: databases made before this migration have them already (Store.ensure_vector_tables
    # created them), and upgrade in place.
    _run(
        db,
        """
CREATE TABLE IF NOT EXISTS lorebook_vector_generation (
    collection_id INTEGER PRIMARY KEY, generation INTEGER NOT NULL
);
CREATE TRIGGER IF NOT EXISTS lorebook_embeddings_ai AFTER INSERT ON embeddings BEGIN
    INSERT INTO lorebook_vector_generation (collection_id, generation) VALUES (new.collection_id, 1)
    ON CONFLICT (collection_id) DO UPDATE SET generation = generation + 1;
END;
CREATE TRIGGER IF NOT EXISTS lorebook_embeddings_ad AFTER DELETE ON embeddings BEGIN
    INSERT INTO lorebook_vector_generation (collection_id, generation) VALUES (old.collection_id, 1)
    ON CONFLICT (collection_id) DO UPDATE SET generation = generation + 1;
END;
CREATE TRIGGER IF NOT EXISTS lorebook_embeddings_au AFTER UPDATE ON embeddings BEGIN
    INSERT INTO lorebook_vector_generation (collection_id, generation) VALUES (new.collection_id, 1)
    ON CONFLICT (collection_id) DO UPDATE SET generation = generation + 1;
END
""",
    )
