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


# --- registration with Claude Code, and the demo -------------------------------------------

def _print_changes(changes, dry_run: bool) -> None:
    for change in changes:
        verb = {"created": "would create" if dry_run else "created",
                "updated": "would update" if dry_run else "updated",
                "removed-file": "would remove" if dry_run else "removed",
                "unchanged": "unchanged"}[change.action]
        click.echo(f"{verb}: {change.path}")
        for detail in change.details:
            click.echo(f"    {detail}")
        if change.backup:
            click.echo(f"    backup: {change.backup}")


@cli.command(name="install")
@click.option("--project", "project", is_flag=True,
              help="Register for the current project only (.claude/settings.json and .mcp.json here).")
@click.option("--dry-run", is_flag=True, help="Show what would change; write nothing.")
@click.option("--json", "as_json", is_flag=True, help="Output the changes as JSON.")
def install_command(project, dry_run, as_json):
    """Register lorebook's hooks and MCP server with Claude Code.

    Merges the hooks into ~/.claude/settings.json and the MCP server into
    ~/.claude.json (with --project: ./.claude/settings.json and ./.mcp.json),
    leaving everything else in those files as it was. Running it twice is the
    same as running it once. A changed file is backed up next to itself first
    (NAME.lorebook-backup-TIMESTAMP); a file that is not valid JSON is never
    overwritten. The hooks run this lorebook executable by its absolute path.
    Installed as a plugin (claude --plugin-dir, or the marketplace) instead?
    Then do not also run this: the hooks would fire twice.

    \b
    lorebook install --dry-run
    lorebook install
    lorebook install --project
    """
    from .install import install

    changes = install("project" if project else "user", dry_run=dry_run)
    if as_json:
        _echo_json({"dry_run": dry_run, "changes": [c.as_dict() for c in changes]})
        return
    _print_changes(changes, dry_run)
    if not dry_run and any(c.action != "unchanged" for c in changes):
        click.echo("lorebook is registered: new Claude Code sessions will use it. "
                   f"Undo with: lorebook uninstall{' --project' if project else ''}")
    elif not dry_run:
        click.echo("lorebook was already registered: nothing to do.")


@cli.command(name="uninstall")
@click.option("--project", "project", is_flag=True, help="Undo `lorebook install --project` for the current project.")
@click.option("--dry-run", is_flag=True, help="Show what would change; write nothing.")
@click.option("--json", "as_json", is_flag=True, help="Output the changes as JSON.")
def uninstall_command(project, dry_run, as_json):
    """Remove exactly what `lorebook install` added to Claude Code's settings.

    Other hooks, MCP servers and settings stay; your lorebook data stays too
    (delete `lorebook path` yourself to remove it).

    \b
    lorebook uninstall
    lorebook uninstall --project
    """
    from .install import uninstall

    changes = uninstall("project" if project else "user", dry_run=dry_run)
    if as_json:
        _echo_json({"dry_run": dry_run, "changes": [c.as_dict() for c in changes]})
        return
    _print_changes(changes, dry_run)
    if not dry_run and all(c.action == "unchanged" for c in changes):
        click.echo("lorebook was not registered there: nothing to do.")


@cli.command(name="demo")
@click.option("--keep", is_flag=True,
              help="Play into your real data dir (lorebook path) and keep the sample project, instead of a temporary one.")
def demo_command(keep):
    """Play a bundled sample session through the real hook path, then show what the next session gets.

    The sample is a Claude Code session in which a test fails, a config change
    fixes it and the agent explains why. Each event runs as its own
    `lorebook hook EVENT` process, as Claude Code runs it. By default
    everything goes into a temporary data dir that is removed afterwards.

    \b
    lorebook demo
    lorebook demo --keep && lorebook stats
    """
    import shutil
    import tempfile
    from pathlib import Path

    from .config import user_dir
    from .demo import play

    temp = None
    if keep:
        home = user_dir()
        project_dir = home / "demo" / "weather-app"
    else:
        temp = Path(tempfile.mkdtemp(prefix="lorebook-demo-"))
        home = temp / "lorebook-home"
        project_dir = temp / "weather-app"
    where = f"{home}" if keep else f"a temporary data dir, removed afterwards (--keep uses {user_dir(create=False)})"
    click.echo(f"Playing a sample Claude Code session through `lorebook hook`, into {where}.\n")
    click.echo(f"Session 1 in {project_dir.name}: a test fails, a config change fixes it")

    def on_step(step):
        click.echo(f"  {step.event:<19} exit {step.exit_code}  {step.label}")

    try:
        run = play(project_dir, home, on_step=on_step)
    finally:
        if temp is not None:
            shutil.rmtree(temp, ignore_errors=True)
    stats = run.stats
    click.echo(f"\nStored: {stats.get('observations', 0)} observations, {stats.get('notes', 0)} "
               f"note{'s' if stats.get('notes', 0) != 1 else ''}.")
    if not run.context:
        raise click.ClickException(f"The next session would get no context: see {home / 'logs' / 'hooks.log'}")
    click.echo("\nSession 2 starts in the same project. Claude Code receives this context:\n")
    rule = "-" * 72
    click.echo(rule)
    click.echo(run.context)
    click.echo(rule)
    if keep:
        click.echo("\nKept in your data dir. See it with: lorebook stats")


def _register_plugin_commands() -> None:
    from .plugins import load_plugins

    load_plugins().hook.register_commands(cli=cli)


_register_plugin_commands()
