"""The ``lorebook`` command line. The only module that raises ``click.ClickException``."""
from __future__ import annotations

import json
import sys

import click

from . import __version__
from .errors import LorebookError


def _store():
    from .store import Store

    try:
        return Store()
    except LorebookError as ex:
        raise click.ClickException(str(ex))


def _echo_json(value) -> None:
    click.echo(json.dumps(value, indent=2, ensure_ascii=False, default=str))


class _Group(click.Group):
    """Turns domain errors into clear messages, and keeps commands in the order they were added."""

    def list_commands(self, ctx):
        return list(self.commands)

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except LorebookError as ex:
            raise click.ClickException(str(ex))


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="lorebook")
def cli():
    """lorebook: a memory for coding agents that they can trust.

    Claude Code runs `lorebook hook EVENT`; people use the other commands.

    \b
    lorebook path              where the database lives
    lorebook stats --json      what is stored
    """


@cli.command(name="hook")
@click.argument("event")
def hook_command(event):
    """Handle one Claude Code hook event: JSON on stdin, one JSON object on stdout.

    EVENT is session-start, user-prompt-submit, post-tool-use,
    post-tool-use-failure, subagent-stop, stop, pre-compact or session-end
    (Claude Code's own spellings work too). Always exits 0: an internal error
    is logged under the user dir, never passed on to Claude Code.

    \b
    echo '{"session_id": "s1", "cwd": "."}' | lorebook hook session-start
    """
    from .dispatch import main_hook

    main_hook([event])


@cli.command(name="path")
@click.option("--db", "what", flag_value="db", help="Print the database file instead of the directory.")
@click.option("--log", "what", flag_value="log", help="Print the hook log file instead of the directory.")
def path_command(what):
    """Print lorebook's data directory (LOREBOOK_HOME overrides it).

    \b
    lorebook path
    llm similar lorebook-notes -d "$(lorebook path --db)" -c "flaky test"
    """
    from .config import db_path, log_path, user_dir

    try:
        click.echo(str({"db": db_path, "log": log_path}.get(what, user_dir)()))
    except LorebookError as ex:
        raise click.ClickException(str(ex))


@cli.command(name="stats")
@click.option("--json", "as_json", is_flag=True, help="Output as JSON.")
def stats_command(as_json):
    """Count what lorebook has stored.

    \b
    lorebook stats
    """
    store = _store()
    stats = store.stats()
    stats["path"] = str(store.path)
    if as_json:
        _echo_json(stats)
        return
    click.echo(f"Database: {stats['path']} ({stats['db_bytes'] / 1024:.0f} KiB)")
    for key in ("projects", "sessions", "prompts", "observations", "notes", "receipts"):
        click.echo(f"{key:>13}: {stats[key]}")
    if stats["notes_by_status"]:
        click.echo("        notes: " + ", ".join(f"{n} {s}" for s, n in sorted(stats["notes_by_status"].items())))


@cli.command(name="plugins")
@click.option("--json", "as_json", is_flag=True, help="Output as JSON (the default here).")
def plugins_command(as_json):
    """List the registered plugins and the hooks each implements.

    \b
    lorebook plugins
    """
    from .plugins import get_plugins

    _echo_json(get_plugins())


# --- lorebook mcp -------------------------------------------------------------------------

@cli.command(name="mcp")
@click.option("--list-tools", is_flag=True, help="Print the tools (name, description, JSON schema) as JSON and exit.")
def mcp_command(list_tools):
    """Run lorebook's MCP server on stdio (for Claude Code and other MCP clients).

    Claude Code starts it as the `lorebook` server (the plugin's .mcp.json, or
    `lorebook install`); its tools then appear as mcp__lorebook__recall_for_task,
    search_knowledge, get_note, list_notes, get_relations, validate_task_memory,
    write_task_memory and the corpus tools. It reads JSON-RPC on stdin and
    writes only protocol messages on stdout; errors go to the tool result and
    to `lorebook path`/logs/mcp.log.

    \b
    claude mcp add lorebook -- lorebook mcp
    lorebook mcp --list-tools | jq '.[].name'
    """
    if list_tools:
        from .mcp_tools import TOOLS

        _echo_json([{"name": name, "description": spec["description"], "inputSchema": spec["schema"]}
                    for name, spec in TOOLS.items()])
        return
    from .mcp_server import serve

    serve()


def _register_plugin_commands() -> None:
    from .plugins import load_plugins

    load_plugins().hook.register_commands(cli=cli)


_register_plugin_commands()
