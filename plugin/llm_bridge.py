"""The one lorebook module that imports ``llm``: models, embedding models, conversations, llm's migrations.

Everything else in lorebook talks to ``llm`` through the names defined here,
so a change in llm's API lands in one file, and llm's own exceptions become
lorebook's domain errors. ``import llm`` costs ~0.35 s: import this module
inside the functions that need it, never at the top of a module on a hook's path.
It imports nothing from lorebook but its errors.
"""
from __future__ import annotations

import threading
import time
from typing import Callable, Iterable, Sequence

import llm

from .errors import LorebookError

# what lorebook's llm entry point (lorebook.llm_plugin) builds its registrations from
hookimpl = llm.hookimpl
Fragment = llm.Fragment
Toolbox = llm.Toolbox


class UnknownModel(LorebookError):
    "No installed llm model has that id or alias"


class ModelFailed(LorebookError):
    "An llm model failed while answering"

    def __init__(self, model_id: str, reason: str):
        super().__init__(f"{model_id} failed: {reason}")
        self.model_id = model_id
        self.reason = reason


class ConversationNotFound(LorebookError):
    "An llm conversation cannot be loaded from llm's logs"


# --- models ---------------------------------------------------------------------------


def get_model(model_id: str | None = None):
    """The llm model ``model_id`` (an id or alias); llm's default model when None."""
    try:
        return llm.get_model(model_id or llm.get_default_model())
    except llm.UnknownModelError as ex:
        raise UnknownModel(str(ex.args[0] if ex.args else ex)) from None


def resolve_model_id(model_id: str | None) -> str:
    """The id of the model ``model_id`` (an id or alias) names, else of llm's default model."""
    return get_model(model_id).model_id


# --- embedding models -----------------------------------------------------------------


class EmbeddingModel(llm.EmbeddingModel):
    """An llm embedding model backed by a lorebook function from texts to vectors (lorebook-minilm)."""

    batch_size = 64

    def __init__(self, model_id: str, encode: Callable[[list[str]], Iterable[Sequence[float]]]):
        self.model_id = model_id
        self._encode = encode

    def embed_batch(self, items, *, key=None):
        texts = [item if isinstance(item, str) else item.decode("utf-8", "replace") for item in items]
        return (list(map(float, vector)) for vector in self._encode(texts))


def get_embedding_model(model_id: str):
    """llm's embedding model ``model_id``: UnknownModel when no installed plugin offers it."""
    try:
        return llm.get_embedding_model(model_id)
    except llm.UnknownModelError as ex:
        raise UnknownModel(str(ex.args[0] if ex.args else ex)) from None


def register_plugin(module, name: str) -> None:
    """Register ``module`` as llm plugin ``name`` unless llm has it already (from its entry point)."""
    from llm.plugins import load_plugins, pm

    load_plugins()
    if not pm.is_registered(module) and not pm.has_plugin(name):
        pm.register(module, name=name)


def apply_embeddings_migrations(db) -> None:
    """Create or upgrade llm's ``collections`` / ``embeddings`` tables in ``db`` (a sqlite_utils Database)."""
    from llm.embeddings_migrations import embeddings_migrations

    embeddings_migrations.apply(db)


# --- conversations, logged in llm's logs.db ---------------------------------------------


def _logs_db():
    import sqlite_utils
    from llm.cli import logs_db_path
    from llm.migrations import migrate

    db = sqlite_utils.Database(logs_db_path())
    migrate(db)
    return db


def _stream(response, echo, status) -> str:
    """Stream ``response`` to ``echo``; while nothing has arrived, tell ``status`` every few seconds."""
    started = time.monotonic()
    first = threading.Event()

    def tick():
        while not first.wait(5.0):
            status(f"…waiting for {response.model.model_id} ({time.monotonic() - started:.0f} s)")

    ticker = threading.Thread(target=tick, daemon=True) if status else None
    if ticker:
        ticker.start()
    try:
        for chunk in response:
            first.set()
            if echo:
                echo(chunk)
    finally:
        first.set()
    return response.text()


def prime_conversation(model_id: str, system: str, prompt: str, echo=None, status=None) -> dict:
    """Start a conversation (no tools) with ``system`` and ``prompt``, logged in llm's logs.db.

    Raises UnknownModel, or ModelFailed (with ``model_id``) when the model fails.
    """
    model = get_model(model_id)
    conversation = model.conversation()
    started = time.monotonic()
    try:
        response = conversation.prompt(prompt, system=system)
        text = _stream(response, echo, status)
    except llm.ModelError as ex:
        raise ModelFailed(model.model_id, str(ex)) from ex
    response.log_to_db(_logs_db())
    return {"conversation_id": conversation.id, "model": model.model_id, "text": text,
            "seconds": round(time.monotonic() - started, 1)}


def continue_conversation(conversation_id: str, question: str, echo=None) -> dict:
    """Ask ``question`` in a logged conversation.

    Raises ConversationNotFound when it cannot be loaded (deleted, never logged,
    its model uninstalled), ModelFailed when the model fails.
    """
    import click
    from llm.cli import load_conversation

    try:
        conversation = load_conversation(conversation_id)
    except click.ClickException as ex:
        raise ConversationNotFound(ex.format_message()) from None
    except llm.UnknownModelError as ex:
        raise ConversationNotFound(
            f"its model is not installed any more ({ex.args[0] if ex.args else ex})") from None
    if conversation is None or not (conversation.responses or conversation.loaded_messages):
        raise ConversationNotFound(f"no logged responses for conversation {conversation_id}")
    try:
        response = conversation.prompt(question)
        text = _stream(response, echo, None)
    except llm.ModelError as ex:
        raise ModelFailed(conversation.model.model_id, str(ex)) from ex
    response.log_to_db(_logs_db())
    return {"conversation_id": conversation.id, "model": conversation.model.model_id, "text": text}
