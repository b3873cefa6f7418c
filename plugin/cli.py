"""The ``lorebook`` command line. The only module that raises ``click.ClickException``."""
from __future__ import annotations

import json
import sys

import click

from . import __version__
from .errors import LorebookError, StoreError
from .store import NOTE_KINDS, NOTE_STATUSES


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

    def format_commands(self, ctx, formatter):
        """Each command's first sentence in full (click cuts summaries at 45 characters with "...")."""
        rows = [(name, command.get_short_help_str(limit=1000)) for name, command in
                ((name, self.get_command(ctx, name)) for name in self.list_commands(ctx))
                if command is not None and not command.hidden]
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except LorebookError as ex:
            raise click.ClickException(str(ex))


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="lorebook")
def cli():
    """lorebook: a memory for coding agents that they can trust.

    \b
    First steps:
      lorebook install      register with Claude Code (hooks and MCP server)
      lorebook demo         play a sample session; see what the next one gets
      lorebook doctor       check the install; it says what to fix

    Claude Code runs `lorebook hook EVENT`; people use the other commands.

    \b
      lorebook path         the data dir (database, logs, config)
      lorebook stats        what is stored
    """
    ctx = click.get_current_context()
    if ctx.invoked_subcommand not in (None, "hook", "mcp"):
        from .config import config_problems

        for problem in config_problems():
            click.echo(f"Warning: {problem}", err=True)


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
@click.option("--log", "what", flag_value="log",
              help="Print the hook log file instead of the directory (says so on stderr when there is none yet).")
def path_command(what):
    """Print lorebook's data directory (LOREBOOK_HOME overrides it).

    \b
    lorebook path
    llm similar lorebook-notes -d "$(lorebook path --db)" -c "flaky test"
    """
    from .config import db_path, log_path, user_dir

    try:
        path = {"db": db_path, "log": log_path}.get(what, user_dir)()
    except LorebookError as ex:
        raise click.ClickException(str(ex))
    click.echo(str(path))
    if what and not path.exists():
        kind = "database" if what == "db" else "hook log"
        when = "the first session creates it" if what == "db" else "a hook writes it when it has something to report"
        click.echo(f"(no {kind} there yet: {when})", err=True)


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
@click.option("--json", "as_json", is_flag=True,
              help="Output as JSON. This command always prints JSON; the flag is accepted like elsewhere.")
def plugins_command(as_json):
    """List the registered plugins and the hooks each implements (as JSON).

    \b
    lorebook plugins
    """
    from .plugins import get_plugins

    _echo_json(get_plugins())


@cli.command(name="doctor")
@click.option("--json", "as_json", is_flag=True, help="Output every check as JSON.")
def doctor_command(as_json):
    """Check the install and say what needs doing: one screen to read when something seems off.

    Shows the version, the data dir and the database (integrity, size, notes
    waiting for vectors), the embedding model, which routes register lorebook
    with Claude Code (user settings, project settings, --plugin-dir, the
    marketplace plugin) and whether more than one does, the MCP server,
    background processes and how to stop them, and the hook log's last
    errors. Exits 1 when something needs action, with what to do.

    \b
    lorebook doctor
    lorebook doctor --json | jq '.checks[] | select(.status == "action")'
    """
    from .doctor import needs_action, run_checks

    checks = run_checks()
    failing = needs_action(checks)
    if as_json:
        _echo_json({"needs_action": failing, "checks": [c.as_dict() for c in checks]})
    else:
        mark = {"ok": "ok", "info": "--", "action": "!!"}
        for check in checks:
            click.echo(f"{mark[check.status]} {check.name}: {check.summary}")
            if check.fix:
                click.echo(f"   fix: {check.fix}")
        click.echo("\nSomething needs action: see the fix lines above." if failing else "\nAll good.")
    if failing:
        sys.exit(1)


# --- lorebook mcp -------------------------------------------------------------------------

@cli.command(name="mcp")
@click.option("--list-tools", is_flag=True, help="Print the tools (name, description, JSON schema) as JSON and exit.")
@click.option("--stop-warm", is_flag=True, help="Stop the warm parent process (it keeps later servers quick to start), if one runs, and exit.")
@click.option("--allow-cross-project", is_flag=True,
              help="Let writers store lessons in other projects, other sessions or global scope (off: a writer "
                   "writes only into the project of the session the server serves).")
def mcp_command(list_tools, stop_warm, allow_cross_project):
    """Run lorebook's MCP server on stdio (for Claude Code and other MCP clients).

    Claude Code starts it as the `lorebook` server (the plugin's .mcp.json, or
    `lorebook install`); its tools then appear as mcp__lorebook__recall_for_task,
    search_knowledge, get_note, list_notes, get_relations, validate_task_memory,
    write_task_memory and the corpus tools. It reads JSON-RPC on stdin and
    writes only protocol messages on stdout; errors go to the tool result and
    to `lorebook path`/logs/mcp.log.

    The first run leaves a warm parent process behind (it exits after 15
    idle minutes, LOREBOOK_MCP_IDLE seconds) so that later runs are ready at
    once instead of importing the MCP SDK again; LOREBOOK_MCP_WARM=0 turns
    that off.

    Provenance is lorebook's: a lesson written over MCP is recorded as
    written by the client that started the server, in the project of the
    session it serves; the writer's own source_agent is kept as a claim.

    \b
    claude mcp add lorebook -- lorebook mcp
    lorebook mcp --list-tools | jq '.[].name'
    """
    if list_tools:
        from .mcp_tools import TOOLS

        _echo_json([{"name": name, "description": spec["description"], "inputSchema": spec["schema"]}
                    for name, spec in TOOLS.items()])
        return
    from . import mcp_warm

    if stop_warm:
        click.echo("Stopped the warm parent." if mcp_warm.stop() else "No warm parent was running.")
        return
    if allow_cross_project:
        import os

        os.environ["LOREBOOK_MCP_ALLOW_CROSS_PROJECT"] = "1"  # the warm parent's child gets this environment
    code = mcp_warm.serve_through_warm_parent()
    if code is not None:
        sys.exit(code)
    from .mcp_server import serve

    serve(on_started=mcp_warm.start_warm_parent)


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
              help="Register for this repository only (.claude/settings.json and .mcp.json at its root; "
                   "portable: they run `lorebook` from PATH, so teammates can commit them).")
@click.option("--dry-run", is_flag=True, help="Show what would change; write nothing.")
@click.option("--json", "as_json", is_flag=True, help="Output the changes as JSON.")
def install_command(project, dry_run, as_json):
    """Register lorebook's hooks and MCP server with Claude Code.

    Merges the hooks into ~/.claude/settings.json and the MCP server into
    ~/.claude.json, leaving everything else in those files as it was; files
    it creates are private (0600). Running it twice is the same as running
    it once. The first time it changes a file it keeps a copy in `lorebook
    path`/install-backups/ (named in the output), so that `lorebook
    uninstall` can give the exact bytes back; a file that is not valid JSON
    is never overwritten. The hooks run this lorebook executable by its
    absolute path.

    With --project: .claude/settings.json and .mcp.json at the repository's
    root (also from a subdirectory), running `lorebook` from PATH so that
    the files work on a teammate's machine once they are committed.

    Installed as a plugin (claude --plugin-dir, or the marketplace) instead?
    Then do not also run this: lorebook would run from one route and warn
    about the other. `lorebook doctor` lists the active routes.

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
    import shutil

    from .install import enabled_lorebook_plugins, installed_in

    other = "user" if project else "project"
    try:
        also = installed_in(other)
    except LorebookError:
        also = {}
    if not dry_run and (also.get("hooks") or also.get("mcp")):
        undo = "lorebook uninstall" if other == "user" else "lorebook uninstall --project"
        click.echo(f"Warning: lorebook is also registered in the {other} settings, so every hook fires twice here "
                   f"(lorebook runs once and says so in the session). Keep one route: `{undo}` removes the "
                   f"{other} one.", err=True)
    if project and not shutil.which("lorebook"):
        click.echo("Note: the project's hooks run `lorebook` from PATH, and it is not on yours: add the directory "
                   "holding lorebook to PATH (install.sh links it into ~/.local/bin).", err=True)
    for plugin in enabled_lorebook_plugins():
        click.echo(f"Warning: lorebook is also enabled as the Claude Code plugin {plugin}, so every hook would run "
                   f"twice. Keep one route: `claude plugin uninstall {plugin}`, or `lorebook uninstall`.", err=True)


@cli.command(name="uninstall")
@click.option("--project", "project", is_flag=True, help="Undo `lorebook install --project` for the current project.")
@click.option("--dry-run", is_flag=True, help="Show what would change; write nothing.")
@click.option("--json", "as_json", is_flag=True, help="Output the changes as JSON.")
def uninstall_command(project, dry_run, as_json):
    """Remove exactly what `lorebook install` added to Claude Code's settings, and stop lorebook's processes.

    A file nothing else changed since install gets its old bytes back; in
    one that changed, only lorebook's entries go (indentation, key order and
    escapes stay). Other hooks, MCP servers and settings stay. The file as it
    was before is kept in `lorebook path`/install-backups/ (named in the
    output). The warm MCP parent and the embedding server are stopped. Your
    lorebook data stays (delete `lorebook path` yourself to remove it).

    \b
    lorebook uninstall
    lorebook uninstall --project
    """
    from .install import uninstall
    from .processes import stop_background_processes

    changes = uninstall("project" if project else "user", dry_run=dry_run)
    stopped = [] if dry_run else stop_background_processes()
    if as_json:
        _echo_json({"dry_run": dry_run, "changes": [c.as_dict() for c in changes], "stopped": stopped})
        return
    _print_changes(changes, dry_run)
    if not dry_run and all(c.action == "unchanged" for c in changes):
        click.echo("lorebook was not registered there: nothing to do.")
    for process in stopped:
        click.echo(f"stopped: the {process}")


@cli.command(name="demo")
@click.option("--keep", is_flag=True,
              help="Play into your real memory (lorebook path) and keep the sample note there, instead of a "
                   "temporary data dir; it says which note it added and how to forget it.")
def demo_command(keep):
    """Play a bundled sample session through the real hook path, then show what the next session gets.

    The sample is a Claude Code session in which a test fails, a config change
    fixes it and the agent explains why. Each event runs as its own
    `lorebook hook EVENT` process, as Claude Code runs it. By default
    everything goes into a temporary data dir that is removed afterwards;
    with --keep the sample project's note stays in your real memory.

    \b
    lorebook demo
    lorebook demo --keep && lorebook stats
    """
    import shutil
    import tempfile
    from pathlib import Path

    from .config import user_dir
    from .demo import database_counts, play

    temp = None
    before: dict = {}
    if keep:
        home = user_dir()
        project_dir = home / "demo" / "weather-app"
        before = database_counts(home / "lorebook.db")
        where = f"your real memory in {home}: the sample note stays there"
    else:
        temp = Path(tempfile.mkdtemp(prefix="lorebook-demo-"))
        home = temp / "lorebook-home"
        project_dir = temp / "weather-app"
        where = f"a temporary data dir, removed afterwards (--keep uses {user_dir(create=False)})"
    click.echo(f"Playing a sample Claude Code session through `lorebook hook`, into {where}.\n")
    click.echo(f"Session 1 in {project_dir.name}: a test fails, a config change fixes it")

    def on_step(step):
        click.echo(f"  {step.event:<19} exit {step.exit_code}  {step.label}")

    try:
        run = play(project_dir, home, on_step=on_step)
    finally:
        if temp is not None:
            shutil.rmtree(temp, ignore_errors=True)
    added = {key: run.stats.get(key, 0) - before.get(key, 0) for key in ("observations", "notes")}
    click.echo(f"\nThis demo stored: {added['observations']} observations, {added['notes']} "
               f"note{'s' if added['notes'] != 1 else ''}" + (" (the rest was there from an earlier demo --keep)."
                                                          if keep and not added["notes"] else "."))
    if not run.context:
        raise click.ClickException(f"The next session would get no context: see {home / 'logs' / 'hooks.log'}")
    click.echo("\nSession 2 starts in the same project. Claude Code receives this context:\n")
    rule = "-" * 72
    click.echo(rule)
    click.echo(run.context)
    click.echo(rule)
    ids = ", ".join(str(n["id"]) for n in run.notes)
    if keep:
        click.echo(f"\nKept in your memory ({home}): the sample project's note{'s' if len(run.notes) != 1 else ''} "
                   f"{ids}. Read one with `lorebook show {run.notes[0]['id'] if run.notes else 'ID'}`; "
                   f"remove {'them' if len(run.notes) != 1 else 'it'} with `lorebook forget ID`. "
                   "Your memory as a whole: lorebook stats")
    else:
        click.echo("\nThe temporary data dir is gone, so `lorebook show ID` will not find these notes: "
                   "`lorebook demo --keep` keeps the sample in your memory to explore.")


# --- corpus: a focused body of memory a model reads once and answers from ----------------

@cli.group(name="corpus", cls=_Group)
def corpus_group():
    """Knowledge corpora: a filtered snapshot of memory that a model reads once, then answers from.

    \b
    lorebook corpus build hooks --description "What we learned about hook timing" --query "hook timeout"
    lorebook corpus prime hooks -m gpt-4o-mini
    lorebook corpus query hooks "Why did SessionStart time out?"
    llm -f corpus:hooks "Summarise the pitfalls"
    """


def _resolve_project(value: str | None, store) -> str | None:
    import os

    from .project import identify

    if value is None:
        return None
    if value == "." or os.path.isdir(value):
        project = identify(os.path.abspath(value))
        if project is None:
            raise click.BadParameter(f"{value!r} is not a directory lorebook can identify.", param_hint="--project")
        return store.canonical_project(project.key)
    return value


def _corpus_line(summary: dict) -> str:
    if summary.get("error"):
        return f"{summary['name']}: unreadable ({summary['error']})"
    if not summary["primed"]:
        state = "not primed"
    elif summary["snapshot_newer_than_conversation"]:
        state = f"primed, STALE: snapshot newer than conversation ({summary['stale_reason'] or 'rebuilt since'})"
    else:
        state = f"primed with {summary['model']} (cid {summary['conversation_id']})"
    kinds = ", ".join(f"{n} {k}" for k, n in summary["kinds"].items()) or "empty"
    return (f"{summary['name']}: {summary['count']} items ({kinds}), ~{summary['tokens']:,} tokens; {state}\n"
            f"    {summary['description']}\n    filter: {summary['filter']}")


def _stream_echo(chunk: str) -> None:
    click.echo(chunk, nl=False)


def _status(message: str) -> None:
    click.echo(message, err=True)


@corpus_group.command(name="build")
@click.argument("name")
@click.option("-d", "--description", required=True, help="What the corpus is for; the model reads it first.")
@click.option("--project", is_flag=False, flag_value=".", default=None,
              help="Only this project's notes: a project key or directory (alone: the current directory).")
@click.option("--kind", "kinds", multiple=True,
              help="fix, pitfall, pattern, decision, gotcha, how-it-works, or observation (repeatable).")
@click.option("--tag", "tags", multiple=True, help="Notes with this tag (repeatable: any of them).")
@click.option("--file", "files", multiple=True, help="Items touching this file or glob (repeatable: any of them).")
@click.option("-q", "--query", help="Items relevant to this text (lorebook's search), best first.")
@click.option("--since", help="Items recorded on or after this ISO date.")
@click.option("--until", help="Items recorded before this ISO date.")
@click.option("-n", "--limit", type=int, help="At most this many items.")
@click.option("--replace", is_flag=True, help="Redefine an existing corpus of this name.")
@click.option("--json", "as_json", is_flag=True, help="Output the corpus summary as JSON.")
def corpus_build(name, description, project, kinds, tags, files, query, since, until, limit, replace, as_json):
    """Build corpus NAME from a filter; the filter is its whole definition (no implicit date window).

    Writes corpora/NAME.corpus.json in the user dir with full snapshots of the items.

    \b
    lorebook corpus build hooks -d "Hook timing lessons" --project --kind pitfall --query "hook timeout"
    lorebook corpus build auth -d "Auth decisions" --tag auth --since 2026-01-01
    """
    from . import corpora

    store = _store()
    try:
        flt = corpora.make_filter(_resolve_project(project, store), kinds, tags, files, query, since, until, limit)
        corpus, warnings = corpora.build_corpus(store, name, description, flt, replace=replace)
    finally:
        store.close()
    for warning in warnings:
        click.echo(f"Warning: {warning}", err=True)
    summary = corpora.summary(dict(corpus, path=str(corpora.corpus_path(name))))
    if as_json:
        _echo_json(summary)
        return
    click.echo(f"Built {summary['path']}\n" + _corpus_line(summary))


@corpus_group.command(name="list")
@click.option("--json", "as_json", is_flag=True, help="Output as JSON.")
def corpus_list(as_json):
    """List corpora: item count, token estimate, whether primed, and whether the snapshot is newer than the conversation.

    \b
    lorebook corpus list
    """
    from . import corpora

    summaries = [corpora.summary(c) for c in corpora.list_corpora()]
    if as_json:
        _echo_json(summaries)
        return
    if not summaries:
        click.echo("No corpora yet. Build one: lorebook corpus build NAME -d \"…\" --query \"…\"")
    for summary in summaries:
        click.echo(_corpus_line(summary))


@corpus_group.command(name="show")
@click.argument("name")
@click.option("--render", is_flag=True, help="Print the text the model reads instead of the summary.")
@click.option("--json", "as_json", is_flag=True, help="Output the whole corpus file.")
def corpus_show(name, render, as_json):
    """Show a corpus: its summary, the text a model reads (--render), or the whole file (--json).

    \b
    lorebook corpus show hooks --render | less
    """
    from . import corpora

    corpus = corpora.load_corpus(name)
    if as_json:
        _echo_json(corpus)
    elif render:
        click.echo(corpus["system_prompt"] + "\n\n" + corpora.prime_prompt(corpus))
    else:
        click.echo(_corpus_line(corpora.summary(dict(corpus, path=str(corpora.corpus_path(name))))))
        for item in corpus["items"]:
            label = f"obs:{item['id']}" if item.get("type") == "observation" else f"#{item['id']}"
            click.echo(f"  {label} [{item.get('kind') or item.get('tool')}] {item.get('title') or item.get('summary')}")


@corpus_group.command(name="prime")
@click.argument("name")
@click.option("-m", "--model", "model_id", help="An llm model id or alias (default: LOREBOOK_MODEL, else llm's default).")
def corpus_prime(name, model_id):
    """Have a model read corpus NAME once and summarise what it can answer; the conversation is kept.

    The conversation is logged by llm; continue it with `lorebook corpus query`
    or `llm -c --cid ID`. A corpus over the model's token budget is refused
    (config.json "corpus_budgets": {"MODEL": N}, or LOREBOOK_CORPUS_BUDGET).

    \b
    lorebook corpus prime hooks -m gpt-4o-mini
    """
    from . import corpora

    corpora.prime_corpus(name, model_id, echo=_stream_echo, status=_status)


@corpus_group.command(name="query")
@click.argument("name")
@click.argument("question")
@click.option("--json", "as_json", is_flag=True, help="Print the answer, conversation id and model as JSON (no streaming).")
def corpus_query(name, question, as_json):
    """Ask corpus NAME's primed conversation a question; follow-ups remember earlier answers.

    If the conversation cannot be resumed (never primed, deleted from llm's
    logs, model gone, or it read a since-forgotten note), the corpus is primed
    again first, and you are told.

    \b
    lorebook corpus query hooks "Which hook timed out, and what fixed it?"
    lorebook corpus query hooks "And on which Claude Code version?"
    """
    from . import corpora

    if as_json:
        result = corpora.query_corpus(name, question, echo=None, status=_status)
        _echo_json({"corpus": name, "answer": result["text"], "conversation_id": result["conversation_id"],
                    "model": result["model"], "reprimed": result["reprimed"]})
        return
    corpora.query_corpus(name, question, echo=_stream_echo, status=_status)
    click.echo()


@corpus_group.command(name="rebuild")
@click.argument("name")
@click.option("--force", is_flag=True, help="Accept a rebuild that keeps half or less of the items.")
def corpus_rebuild(name, force):
    """Re-run corpus NAME's stored filter and refresh its snapshot.

    A rebuild that would keep half or less of a corpus of 4 or more items is
    refused and the old file kept, unless --force.

    \b
    lorebook corpus rebuild hooks
    """
    from . import corpora

    store = _store()
    try:
        corpus, report = corpora.rebuild_corpus(store, name, force=force)
    finally:
        store.close()
    for warning in report["warnings"]:
        click.echo(f"Warning: {warning}", err=True)
    click.echo(f"Rebuilt {name}: {report['before']} → {report['after']} items "
               f"(+{report['added']} −{report['removed']}), ~{corpus['stats']['tokens']:,} tokens.")
    if report["changed"] and corpus.get("conversation_id"):
        click.echo(f"The primed conversation predates this snapshot: run 'lorebook corpus reprime {name}'.", err=True)


@corpus_group.command(name="reprime")
@click.argument("name")
@click.option("-m", "--model", "model_id", help="An llm model id or alias (default: the model it was primed with).")
def corpus_reprime(name, model_id):
    """Drop corpus NAME's conversation and prime a new one from the current snapshot.

    \b
    lorebook corpus reprime hooks
    """
    from . import corpora

    corpora.reprime_corpus(name, model_id, echo=_stream_echo, status=_status)


@corpus_group.command(name="delete")
@click.argument("name")
def corpus_delete(name):
    """Delete corpus NAME's file (its llm conversation stays in llm's logs).

    \b
    lorebook corpus delete hooks
    """
    from . import corpora

    corpora.delete_corpus(name)
    click.echo(f"Deleted corpus {name}.")


@cli.command(name="import")
@click.argument("paths", nargs=-1, type=click.Path(exists=True, dir_okay=True, file_okay=True))
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@click.option("--learn/--no-learn", default=True, show_default=True,
              help="Derive lessons from the imported sessions, as each session's Stop would have.")
def import_command(paths, as_json, quiet, learn):
    """Backfill observations and prompts from existing Claude Code transcripts, and learn from them.

    PATHS are transcript files (.jsonl) or directories searched for them; the
    default is ~/.claude/projects (or $CLAUDE_CONFIG_DIR/projects). Each
    tool call is replayed through the same capture path as the live hooks:
    redacted, exclusions applied. Importing again adds nothing; a malformed
    line is skipped and counted.

    With --learn (the default) each imported session then goes through the same
    deterministic writeback as a live Stop: a failure that a change resolved
    becomes a lesson, preflighted, merged with what is already known, or
    skipped with its reason. It is on by default because a new user's history
    is the memory they would otherwise start without, and the writeback only
    keeps lessons whose failing check passed again; --no-learn only backfills.

    \b
    lorebook import
    lorebook import ~/.claude/projects/-home-me-widget --json
    lorebook import --no-learn
    """
    import os

    from .plugins import load_plugins

    pm = load_plugins()
    found = pm.hook.find_transcripts(paths=tuple(paths)) or {"files": [], "what": "transcripts", "where": ""}
    files = found["files"]
    if not files:
        raise click.ClickException(f"No {found['what']} found in {found['where']}.")
    store = _store()
    total = sum(os.stat(f).st_size for f in files)
    if quiet or as_json:
        summary = pm.hook.import_transcripts(files=files, store=store, progress=None)
    else:
        with click.progressbar(length=total, label=f"Importing {len(files)} transcript(s)", file=sys.stderr,
                               show_pos=False, show_percent=True) as bar:
            summary = pm.hook.import_transcripts(files=files, store=store, progress=bar.update)
    session_ids = summary.pop("session_ids", [])
    if learn:
        from .writeback import learn_from_sessions

        if quiet or as_json or not session_ids:
            learned = learn_from_sessions(store, session_ids)
        else:
            with click.progressbar(length=len(session_ids), label=f"Learning from {len(session_ids)} session(s)",
                                   file=sys.stderr) as bar:
                learned = learn_from_sessions(store, session_ids, progress=bar.update)
        if learned["created"] or learned["merged"]:
            from .vectors import start_index_detached

            start_index_detached()
        summary["learned"] = learned
    if as_json:
        _echo_json(summary)
        return
    click.echo(f"Read {summary['files']} transcript(s), {summary['sessions']} session(s), {summary['lines']} lines.")
    click.echo(f"Added {summary['observations_added']} observation(s) and {summary['prompts_added']} prompt(s); "
               f"{summary['already_stored']} already stored, {summary['not_stored']} excluded or vetoed.")
    if summary["malformed_lines"]:
        click.echo(f"Skipped {summary['malformed_lines']} malformed line(s).")
    if summary["unpaired_tool_calls"]:
        click.echo(f"{summary['unpaired_tool_calls']} tool call(s) had no result (an interrupted session).")
    for problem in summary["unreadable_files"]:
        click.echo(f"Could not read {problem}", err=True)
    if learn:
        learned = summary["learned"]
        click.echo(f"Learned from {learned['sessions']} session(s): {learned['created']} lesson(s) created, "
                   f"{learned['merged']} merged into existing notes, {learned['skipped']} skipped"
                   + (f", {learned['already_decided']} decided by an earlier run" if learned["already_decided"]
                      else "") + ".")
        if learned["note_ids"]:
            click.echo("New lessons: " + ", ".join(f"#{i}" for i in learned["note_ids"][:20])
                       + (" …" if len(learned["note_ids"]) > 20 else "") + " (lorebook show ID)")


# --- writeback: validate, write, supersede, stale, forget ------------------------------------------

def _read_memory(memory_arg, file):
    """A memory from the argument, a file or stdin: a JSON object, or plain text (title + summary)."""
    if memory_arg is not None and file is not None:
        raise click.UsageError("Give the memory as an argument or with --file, not both.")
    if file is not None:
        text = file.read()
    elif memory_arg is not None and memory_arg != "-":
        text = memory_arg
    elif not sys.stdin.isatty() or memory_arg == "-":
        text = sys.stdin.read()
    else:
        raise click.UsageError("Give the memory as an argument, with --file, or on stdin.")
    stripped = text.strip()
    if stripped.startswith("{"):
        try:
            return json.loads(stripped)
        except ValueError as ex:
            raise click.BadParameter(f"it starts like JSON but does not parse: {ex}", param_hint="MEMORY")
    return stripped


def _memory_options(f):
    f = click.option("--json", "as_json", is_flag=True, help="Output as JSON.")(f)
    f = click.option("--session", "session_id", help="The session it came from (for self-corroboration checks).")(f)
    f = click.option("--scope", type=click.Choice(["project", "global"]), help="Override the memory's scope.")(f)
    f = click.option("--mode", type=click.Choice(["manual", "auto"]), default="manual", show_default=True,
                     help="manual accepts with warnings what auto (the Stop hook's mode) skips.")(f)
    f = click.option("--file", "-f", type=click.File("r"), help="Read the memory (JSON or text) from a file.")(f)
    return click.argument("memory_arg", metavar="[MEMORY]", required=False)(f)


def _echo_findings(result) -> None:
    for reason in result.get("reasons") or []:
        mark = "·" if reason.get("severity") == "info" else "✗"
        click.echo(f"  {mark} {reason['code']}: {reason['message']}")
    for warning in result.get("warnings") or []:
        click.echo(f"  ! {warning['code']}: {warning['message']}")


@cli.command(name="validate")
@_memory_options
def validate_command(memory_arg, file, mode, scope, session_id, as_json):
    """Preflight a lesson without storing it: accepted or not, the decision, reason codes and warnings.

    MEMORY is a JSON object (title, summary, kind, trigger, evidence, change,
    validation, scope, conditions, files, error_signatures, tags) or plain
    text; give it as an argument, with --file, or on stdin. Exits 1 when the
    lesson would not be stored.

    \b
    lorebook validate "Fixed it, tests pass now."
    lorebook validate --file lesson.json --json
    """
    from .decision import validate_memory

    memory = _read_memory(memory_arg, file)
    result = validate_memory(_store(), memory, mode, scope=scope, session_id=session_id, local_vectors=False)
    if as_json:
        _echo_json(result)
    else:
        if result["accepted"]:
            target = f" into #{result['merged_into']}" if result.get("merged_into") else ""
            click.echo(f"Accepted ({mode} mode): it would be {result['decision']}{target}"
                       + (", quarantined: stored flagged, never injected." if result.get("quarantined") else "."))
        else:
            click.echo(f"Rejected ({mode} mode): " + ", ".join(result["reason_codes"]))
        _echo_findings(result)
    if not result["accepted"]:
        sys.exit(1)


@cli.command(name="write")
@_memory_options
@click.option("--run-key", help="Idempotency key: a retry with the same key returns the first decision. "
                                "Default: a hash of the memory.")
@click.option("--agent", "source_agent", default="cli", show_default=True, help="Who is writing (source_agent).")
def write_command(memory_arg, file, mode, scope, session_id, as_json, run_key, source_agent):
    """Store a lesson: created, merged into a true duplicate, or skipped, with the reasons.

    MEMORY is plain text (the first line or sentence becomes the title; the
    sentences that say what fails and what changed become the trigger and the
    change) or a JSON object, as for `lorebook validate`. In manual mode (the
    default) a person's lesson is stored unless it is empty, a secret or an
    injection attempt; what it lacks comes back as warnings. It merges only
    into a note with the same problem and the same fix; a note it contradicts
    is named in a warning. Prints the note id; exits 1 when nothing was stored.

    \b
    lorebook write "pytest fails with ModuleNotFoundError yaml: add pyyaml to requirements-dev.txt"
    lorebook write --file lesson.json
    echo '{"title": "...", "trigger": "...", "change": "..."}' | lorebook write --json
    """
    from .store import content_hash
    from .decision import write_memory

    memory = _read_memory(memory_arg, file)
    key = run_key or "cli:" + content_hash(memory)[:16]
    # the warm embedding server where it runs; loading the model here would cost more than the whole write
    result = write_memory(_store(), memory, mode=mode, source_agent=source_agent, source_run_key=key,
                          scope=scope, session_id=session_id, local_vectors=False)
    result["run_key"] = key
    if as_json:
        _echo_json(result)
    else:
        if result["decision"] == "created" and result.get("quarantined"):
            click.echo(f"Quarantined note #{result['note_id']}: it is stored and shown flagged, never injected "
                       f"into a session (see the warnings; `lorebook show {result['note_id']}`).")
        elif result["decision"] == "created":
            click.echo(f"Created note #{result['note_id']} (index: {result['index_status']}).")
        elif result["decision"] == "merged":
            click.echo(f"Merged into note #{result['merged_into']} (index: {result['index_status']}).")
        else:
            click.echo("Skipped: " + ", ".join(result["reason_codes"]), err=True)
        if result.get("replayed"):
            click.echo(f"(already written with run key {key}: this is the first decision)")
        _echo_findings(result)
    if result["decision"] == "skipped" or result.get("quarantined"):
        sys.exit(1)  # nothing usable was stored: a script must be able to tell


@cli.command(name="verify")
@click.argument("note_id", type=int)
@click.option("--check", "check", help="The check you ran and its result, kept in the note's validation.")
@click.option("--json", "as_json", is_flag=True, help="Output the note's provenance as JSON.")
def verify_command(note_id, check, as_json):
    """Mark note NOTE_ID as verified by you: a person checked that the lesson holds.

    Recorded as verified by a person, with a revision (the note's previous state
    is kept). A note is otherwise verified only when a check that passed after
    the change is on record; an agent's bare "verified" is shown as claimed.

    \b
    lorebook verify 12
    lorebook verify 12 --check "make test: 214 passed on main"
    """
    from .decision import verify_note
    from .provenance import provenance

    note = verify_note(_store(), note_id, check)
    if as_json:
        _echo_json(provenance(note))
        return
    click.echo(f"Note #{note_id} is verified by a person.")


@cli.command(name="supersede")
@click.argument("old_id", type=int)
@click.argument("new_id", type=int)
def supersede_command(old_id, new_id):
    """Mark note OLD_ID as replaced by NEW_ID: OLD is kept, linked, and never injected again.

    \b
    lorebook supersede 12 31
    """
    from .relations import supersede

    try:
        supersede(_store(), old_id, new_id)
    except ValueError as ex:
        raise click.ClickException(str(ex))
    click.echo(f"Note #{old_id} is superseded by #{new_id}.")


@cli.command(name="stale")
@click.argument("note_id", type=int)
@click.option("--reason", default="marked stale", show_default=True, help="Why it no longer holds (kept in history).")
def stale_command(note_id, reason):
    """Mark a note stale (the code moved on): kept for the record, never injected.

    \b
    lorebook stale 12 --reason "the retry wrapper was removed in v2"
    """
    from .relations import mark_stale

    try:
        mark_stale(_store(), note_id, reason)
    except ValueError as ex:
        raise click.ClickException(str(ex))
    click.echo(f"Note #{note_id} is stale.")


@cli.command(name="forget")
@click.argument("note_id", type=int)
@click.option("--yes", "-y", is_flag=True, help="Do not ask for confirmation.")
def forget_command(note_id, yes):
    """Erase a note everywhere: its text, search index, vectors, history and corpus snapshots.

    \b
    lorebook forget 12 --yes
    """
    from .relations import forget

    store = _store()
    note = store.get_note(note_id)
    if not yes:
        click.confirm(f"Forget note #{note_id} ({note['title'][:60]})? This cannot be undone", abort=True)
    forget(store, note_id)
    click.echo(f"Note #{note_id} is forgotten.")


@cli.command(name="refine", hidden=True)
@click.argument("session_id")
def refine_command(session_id):
    """Ask LOREBOOK_MODEL to improve a session's lesson (the Stop hook runs this detached)."""
    from .refine import refine_with_model

    _echo_json(refine_with_model(_store(), session_id))


@cli.command(name="writeback", hidden=True)
@click.argument("session_id")
def writeback_command(session_id):
    """Write back a session whose Stop met a locked database (the hooks run this detached)."""
    from .errors import StoreLocked
    from .spool import attach
    from .writeback import write_back

    store = _store()

    def once():
        attach(store)  # the capture the hooks spooled under the lock comes first
        session = store.get_session(session_id) or {}
        return write_back(store, session_id, session.get("last_assistant_message"))

    try:
        results = _waiting_while_locked(once, "writeback", f"session {session_id}: the database stayed locked; its "
                                                           "writeback waits for the session's next hook or `lorebook "
                                                           "import`")
    except StoreLocked as ex:
        raise click.ClickException(str(ex))
    from .sessions import index_new_notes

    index_new_notes(results)
    _echo_json(results)


# --- embeddings: lorebook index ------------------------------------------------------


@cli.command(name="index")
@click.option("--quiet", is_flag=True, help="No progress bar and no output (how the Stop hook runs it).")
@click.option("--retry-failed", is_flag=True, help="Try again the notes that failed to embed before.")
@click.option("--json", "as_json", is_flag=True, help="Output the counts as JSON.")
def index_command(quiet, retry_failed, as_json):
    """Embed the notes still waiting for their vectors (index_status pending).

    Vectors go into the llm collection lorebook-notes inside lorebook's
    database, made with LOREBOOK_EMBED_MODEL (default: the offline
    lorebook-minilm). Runs one at a time: a second run says so and exits.
    Resumable: a run that is stopped leaves the rest pending. When the model
    changed since the last run, every note is embedded again.

    \b
    lorebook index
    LOREBOOK_EMBED_MODEL=jina-embeddings-v2-small-en lorebook index
    llm similar lorebook-notes -d "$(lorebook path --db)" -c "flaky test"
    """
    from .vectors import IndexBusy, index_notes

    store = _store()
    if retry_failed:
        store.retry_failed_index()
    pending = store.index_counts()["pending"]
    show_bar = not quiet and not as_json and pending > 0
    bar = click.progressbar(length=pending, label="Embedding notes", file=sys.stderr) if show_bar else None
    state = {"shown": 0}

    def progress(done, total):
        if bar is not None:
            bar.length = max(bar.length, total)
            bar.update(done - state["shown"])
            state["shown"] = done

    def announce(message):
        if not quiet:
            click.echo(message, err=True)

    try:
        if bar is not None:
            bar.__enter__()
        # (the Stop hook's background run waits out a busy database rather than leave the lesson without vectors)
        result = _waiting_while_locked(
            lambda: index_notes(store, progress=progress, announce=announce), "index",
            "the database stayed locked; the notes stay pending until the next `lorebook index`") if quiet else \
            index_notes(store, progress=progress, announce=announce)
    except IndexBusy as ex:
        if not quiet:
            click.echo(str(ex), err=True)
        return
    except LorebookError as ex:
        if quiet:
            sys.exit(1)
        if isinstance(ex, StoreError):
            raise  # the group's message: the file, and what to do
        raise click.ClickException(
            f"{ex}\nNotes stay pending; keyword search still finds them. Fix the model, then run 'lorebook index'.")
    finally:
        if bar is not None:
            bar.__exit__(None, None, None)
    if quiet:
        return
    if as_json:
        _echo_json(result)
        return
    click.echo(f"Embedded {result['embedded']} note(s) with {result['model']}; "
               f"{result['notes_indexed']} indexed, {result['notes_pending']} pending, "
               f"{result['notes_failed']} failed.")
    if result["notes_failed"]:
        click.echo("Retry the failed ones with: lorebook index --retry-failed")


def _waiting_while_locked(action, event: str, giving_up: str):
    """``action()``, tried again while another lorebook process holds the database past a command's busy wait (six
    tries, ~30 s in all): how the detached background runs (a deferred writeback, the Stop hook's index) wait out a
    busy moment. Giving up is logged as ``event`` and raises :class:`StoreLocked`."""
    import time

    from .config import log
    from .errors import StoreLocked

    for attempt in range(5):
        try:
            return action()
        except StoreLocked:
            time.sleep(1 + attempt)
    try:
        return action()
    except StoreLocked as ex:
        log(event, giving_up, ex)
        raise


@cli.command(name="embed-server")
@click.option("--stop", "action", flag_value="stop", help="Ask the running server to exit.")
@click.option("--status", "action", flag_value="status", help="Say whether a server runs, and its pid and model.")
@click.option("--idle", type=float, default=None,
              help="Exit after this many seconds without requests (default: LOREBOOK_EMBED_SERVER_IDLE or 600).")
def embed_server_command(action, idle):
    """Run the warm embedding server that hooks ask for query vectors.

    lorebook starts it on its own when a hook needs a query embedded (hooks
    cannot afford to load the model themselves) and it exits after a while
    without requests. LOREBOOK_EMBED_SERVER=0 stops lorebook from starting it.

    \b
    lorebook embed-server --status
    lorebook embed-server --stop
    """
    from . import embed_server

    if action == "status":
        info = embed_server.ping()
        if info is None:
            click.echo("No embedding server is running.")
        else:
            click.echo(f"Embedding server pid {info.get('pid')} serves {info.get('model')} "
                       f"at {embed_server.socket_path()}.")
        return
    if action == "stop":
        click.echo("Stopped the embedding server." if embed_server.stop_server() else "No embedding server is running.")
        return
    code = embed_server.EmbedServer(idle_timeout=idle).serve()
    if code:
        click.echo("An embedding server already runs for this lorebook dir.", err=True)
        sys.exit(code)


# --- search and recall: search, recall, show, list, relations, project ---------------------------

_KIND_CHOICE = click.Choice(NOTE_KINDS)
_STATUS_CHOICE = click.Choice([*NOTE_STATUSES, "any"])


def _when(value: str | None, option: str) -> str | None:
    """An ISO date or time, or a relative age like 30d / 12h / 2w, as an ISO string (UTC)."""
    if not value:
        return None
    from .dates import parse_when

    try:
        return parse_when(value, ages=True)
    except ValueError:
        raise click.BadParameter(f"{value!r} is neither a date (2026-01-31) nor an age (30d, 12h, 2w).",
                                 param_hint=option)


def _project_for_cli(store, project: str | None) -> str | None:
    """--project as a key or a directory; default: the current directory's project."""
    import os

    from .recall import resolve_project_key

    if project and not os.path.isdir(project):
        return resolve_project_key(store, project_key=project)
    return resolve_project_key(store, cwd=project or os.getcwd())


def _hit_line(hit: dict) -> str:
    from .provenance import provenance, provenance_labels
    from .text import one_line

    note = hit["note"] if "note" in hit else hit
    prov = provenance_labels(hit.get("provenance") or provenance(note))
    scope = note.get("scope") or ""
    line = f"#{note['id']} [{note.get('kind')}, {scope}, {prov['verified']}, {prov['date']}] {one_line(note.get('title'), 100)}"
    if note.get("status") == "quarantined":
        line = "QUARANTINED " + line
    if hit.get("score") is not None:
        line += f"\n    score {hit['score']:.3f}"
        if hit.get("why"):
            line += " · " + "; ".join(hit["why"])
    return line


def _warm_top_k():
    """Rank through the warm embedding server when it runs (no model load in this process), else None."""
    try:
        from . import embed_server
    except ImportError:
        return None

    def top_k(text, k, candidate_ids):
        return embed_server.query_top_k(text, k, candidate_ids, timeout=2.0, start=False)

    return top_k


@cli.command(name="search")
@click.argument("query")
@click.option("-n", "--limit", default=10, show_default=True, type=click.IntRange(1, 200), help="How many hits.")
@click.option("--project", help="A project key or directory (default: the current directory's project).")
@click.option("--all-projects", is_flag=True, help="Search every project's notes, not just this one's.")
@click.option("--no-global", is_flag=True, help="Leave global notes out.")
@click.option("--kind", "kinds", multiple=True, type=_KIND_CHOICE, help="Only this kind (repeatable).")
@click.option("--tag", "tags", multiple=True, help="Only notes with this tag (repeatable: any of them).")
@click.option("--file", "files", multiple=True, help="Only notes about this file (a path or its tail; repeatable).")
@click.option("--touching", multiple=True, help="Boost notes about this file, without filtering (repeatable).")
@click.option("--since", help="Created on or after: a date (2026-01-31) or an age (30d, 12h, 2w).")
@click.option("--until", help="Created before: a date or an age.")
@click.option("--status", "statuses", multiple=True, type=_STATUS_CHOICE,
              help="Include notes with this status (default: active only; repeatable; 'any' for all).")
@click.option("--lexical", is_flag=True, help="Keywords only: skip semantic search.")
@click.option("--json", "as_json", is_flag=True, help="Output as JSON.")
def search_command(query, limit, project, all_projects, no_global, kinds, tags, files, touching, since, until,
                   statuses, lexical, as_json):
    """Search notes by keywords and meaning (hybrid: FTS5 bm25 fused with vector similarity).

    QUERY is any text: words, an error line, a file name. It is a bag of
    words, not a phrase ("retry backoff" finds "retries with exponential
    backoff"); quotes and operators are just text. By default it searches
    this project's notes plus global ones; superseded, stale and forgotten
    notes only with --status. When semantic search is unavailable the results
    are keyword matches and a warning says so.

    \b
    lorebook search "retry backoff"
    lorebook search "ModuleNotFoundError: No module named 'yaml'" --kind fix
    lorebook search "migration" --since 30d --tag db --json
    lorebook search "flaky test" --all-projects --status any
    """
    from .search import search

    store = _store()
    key = None if all_projects and not project else _project_for_cli(store, project)
    chosen = None if "any" in statuses else (statuses or None)
    if "any" in statuses:
        chosen = NOTE_STATUSES
    result = search(store, query, limit=limit, project_key=key, all_projects=all_projects,
                    include_global=not no_global, kinds=kinds, tags=tags, files=files, touching=touching,
                    since=_when(since, "--since"), until=_when(until, "--until"), statuses=chosen,
                    semantic=not lexical, remote_top_k=_warm_top_k(), local_fallback=True)
    if as_json:
        _echo_json({"query": query, "project_key": key, "mode": result["mode"], "degraded": result["degraded"],
                    "warnings": result["warnings"], "took_ms": result["took_ms"],
                    "hits": [{"id": h["note"]["id"], "title": h["note"]["title"], "summary": h["note"]["summary"],
                              "kind": h["note"]["kind"], "scope": h["note"]["scope"], "status": h["note"]["status"],
                              "project_key": h["note"]["project_key"],
                              "score": h["score"], "why": h["why"], "provenance": h["provenance"]}
                             for h in result["hits"]]})
        return
    for warning in result["warnings"]:
        click.echo(f"warning: {warning}", err=True)
    if not result["hits"]:
        click.echo("No note matched." + (" (Retrieval was degraded: see the warning.)" if result["degraded"] else ""))
        return
    for hit in result["hits"]:
        click.echo(_hit_line(hit))
    click.echo(f"\n{len(result['hits'])} hit(s), {result['mode']} search. Read one with: lorebook show ID")


@cli.command(name="recall")
@click.option("--task", required=True, help="The task in a sentence.")
@click.option("--error", "errors", multiple=True, help="A key error line you are seeing (repeatable).")
@click.option("--files", "files", multiple=True, help="A file you are touching (repeatable; commas also split).")
@click.option("--project", help="A project key or directory (default: the current directory's project).")
@click.option("--project-limit", default=5, show_default=True, type=click.IntRange(0, 50),
              help="How many project memories at most.")
@click.option("--global-limit", default=3, show_default=True, type=click.IntRange(0, 50),
              help="How many global memories at most.")
@click.option("--relations", "include_relations", is_flag=True, help="Add each memory's relations.")
@click.option("--json", "as_json", is_flag=True, help="Output as JSON.")
def recall_command(task, errors, files, project, project_limit, global_limit, include_relations, as_json):
    """Recall the lessons that apply to a task: this project's first, then global ones.

    The answer has a reason: ok, no-matches (retrieval worked, nothing
    relevant is stored), retrieval-degraded (keywords only: an absence is
    weak evidence) or no-project-identity (only global notes were searched).
    Another project's notes are never offered.

    \b
    lorebook recall --task "make the CSV export handle unicode filenames"
    lorebook recall --task "fix the failing tests" --error "ModuleNotFoundError: No module named 'yaml'"
    lorebook recall --task "speed up the build" --files setup.py,ci.yml --json
    """
    import os

    from .recall import recall_for_task

    store = _store()
    file_list = [f.strip() for item in files for f in item.split(",") if f.strip()]
    if project and not os.path.isdir(project):
        result = recall_for_task(store, task, list(errors), file_list, project_key=project,
                                 project_limit=project_limit, global_limit=global_limit,
                                 include_relations=include_relations)
    else:
        result = recall_for_task(store, task, list(errors), file_list, cwd=project or os.getcwd(),
                                 project_limit=project_limit, global_limit=global_limit,
                                 include_relations=include_relations)
    if as_json:
        _echo_json(result)
        return
    for warning in result["warnings"]:
        click.echo(f"warning: {warning}", err=True)
    click.echo(f"Project: {result['project_key'] or '(none)'} · reason: {result['reason']}")
    for label, memories in (("Project memories", result["project_memories"]),
                            ("Global memories", result["global_memories"])):
        click.echo(f"\n{label}:")
        if not memories:
            click.echo("  (none)")
        for item in memories:
            click.echo("  " + _hit_line(dict(item, note=item)).replace("\n", "\n  "))
    click.echo("\nMemories are evidence from past sessions, not instructions. Read one with: lorebook show ID")


@cli.command(name="show")
@click.argument("note_id", type=int)
@click.option("--evidence", is_flag=True,
              help="Also print the observations the note cites, in full (the logs behind its error lines).")
@click.option("--json", "as_json", is_flag=True, help="Output as JSON.")
def show_command(note_id, evidence, as_json):
    """Show one note in full: the cause and fix first, then when it happens, the change, what did not help,
    the error and the checks, its provenance and relations.

    The evidence is shown as its error lines; --evidence prints the recorded
    observations behind them (the full logs).

    \b
    lorebook show 12
    lorebook show 12 --evidence
    lorebook show 12 --json
    """
    store = _store()
    note = store.get_note(note_id)
    relations = store.note_relations(note_id)
    observations = []
    if evidence:
        observations = [o for o in (store.get_observation(i) for i in note.get("observation_ids") or []) if o]
    if as_json:
        _echo_json(dict(note, relations=relations, **({"observations": observations} if evidence else {})))
        return
    from .render import inert, note_for_reading, observation_for_reading

    if note.get("status") == "quarantined":
        click.echo("QUARANTINED: never injected into a session; its text tries to steer an agent:")
        for flag in note.get("flags") or []:
            click.echo(f"  - {flag.get('message')}")
        click.echo("")
    click.echo(note_for_reading(note))
    click.echo(f"\nscope: {note.get('scope')}" + (f" ({note['project_key']})" if note.get("project_key") else "")
               + f" · status: {note.get('status')}"
               + (f" (superseded by #{note['superseded_by']})" if note.get("superseded_by") else ""))
    for label in ("files", "error_signatures", "tags"):
        if note.get(label):
            click.echo(f"{label}: " + ", ".join(inert(v, 200) for v in note[label]))
    if relations:
        click.echo("relations: " + ", ".join(f"#{r['from_note']} {r['kind']} #{r['to_note']}" for r in relations))
    if evidence:
        click.echo("")
        if not observations:
            click.echo("No recorded observation is left for this note (forgotten, or written by hand).")
        for observation in observations:
            click.echo(observation_for_reading(observation) + "\n")


@cli.command(name="list")
@click.option("--text", "text", help="A literal substring of the note's text (% and _ match themselves).")
@click.option("--tag", help="Only notes with this tag.")
@click.option("--kind", type=_KIND_CHOICE, help="Only notes of this kind.")
@click.option("--status", default="active", show_default=True, type=_STATUS_CHOICE,
              help="Only notes with this status ('any' for all).")
@click.option("--project", help="Only this project's notes (a key or a directory).")
@click.option("--since", help="Created on or after: a date (2026-01-31) or an age (30d, 12h, 2w).")
@click.option("--until", help="Created before: a date or an age.")
@click.option("--page", default=1, show_default=True, type=click.IntRange(1), help="Which page.")
@click.option("--per-page", default=20, show_default=True, type=click.IntRange(1, 500), help="Notes per page.")
@click.option("--json", "as_json", is_flag=True, help="Output as JSON.")
def list_command(text, tag, kind, status, project, since, until, page, per_page, as_json):
    """List notes, newest first, a page at a time.

    --text is a literal substring, not a pattern: "100%" finds "100%", and
    "a_b" does not find "axb".

    \b
    lorebook list
    lorebook list --tag ci --kind fix --since 30d
    lorebook list --text "100%" --status any --page 2 --json
    """
    store = _store()
    key = _project_for_cli(store, project) if project else None
    notes, total = store.list_notes(tag=tag, search=text, kind=kind, status=None if status == "any" else status,
                                    since=_when(since, "--since"), until=_when(until, "--until"),
                                    project_key=key, limit=per_page, offset=(page - 1) * per_page)
    pages = max(1, -(-total // per_page))
    if as_json:
        _echo_json({"page": page, "pages": pages, "total": total, "notes": notes})
        return
    quarantined = store.count_notes_with_status("quarantined") if status == "active" else 0
    hidden = (f"{quarantined} quarantined note(s) not listed (never injected): lorebook list --status quarantined"
              if quarantined else "")
    if not notes:
        click.echo("No note matches." if total == 0 else f"Page {page} is past the last page ({pages}).")
        if hidden:
            click.echo(hidden)
        return
    for note in notes:
        click.echo(_hit_line({"note": note}))
    click.echo(f"\npage {page}/{pages} · {total} note(s)")
    if hidden:
        click.echo(hidden)


@cli.command(name="relations")
@click.argument("note_id", type=int)
@click.option("--json", "as_json", is_flag=True, help="Output as JSON.")
def relations_command(note_id, as_json):
    """Show how a note relates to others (supersedes, similar_to, contradicts, derived_from, resolved_by).

    \b
    lorebook relations 12
    """
    store = _store()
    store.get_note(note_id)
    relations = store.note_relations(note_id)
    others = store.get_notes({r["from_note"] for r in relations} | {r["to_note"] for r in relations})
    out = []
    for rel in relations:
        other = rel["to_note"] if rel["from_note"] == note_id else rel["from_note"]
        out.append(dict(rel, direction="outgoing" if rel["from_note"] == note_id else "incoming",
                        other_id=other, other_title=(others.get(other) or {}).get("title"),
                        other_status=(others.get(other) or {}).get("status")))
    if as_json:
        _echo_json({"note_id": note_id, "relations": out})
        return
    if not out:
        click.echo(f"#{note_id} has no relations.")
    for rel in out:
        arrow = f"#{note_id} {rel['kind']} #{rel['other_id']}" if rel["direction"] == "outgoing" else \
            f"#{rel['other_id']} {rel['kind']} #{note_id}"
        click.echo(f"{arrow}  ({rel['other_status']}) {rel['other_title']}")


@cli.group(name="project", cls=_Group)
def project_group():
    """Project identity: which project a directory is, and aliases for moved repos.

    \b
    lorebook project show
    lorebook project alias path:/old/checkout
    """


@project_group.command(name="show")
@click.argument("directory", required=False)
@click.option("--json", "as_json", is_flag=True, help="Output as JSON.")
def project_show(directory, as_json):
    """Show the project DIRECTORY (default: the current one) belongs to.

    \b
    lorebook project show
    lorebook project show ~/src/widget --json
    """
    import os

    from .project import identify

    store = _store()
    found = identify(directory or os.getcwd())
    if found is None:
        raise click.ClickException(f"{directory} is not a directory: no project identity.")
    key = store.canonical_project(found.key)
    stored = store.get_project(key) or {}
    out = {"key": key, "identified_as": found.key, "name": found.name, "root": found.root, "remote": found.remote,
           "aliases": stored.get("aliases") or [], "notes": store.count_project_notes(key)}
    if as_json:
        _echo_json(out)
        return
    click.echo(f"{out['key']}  ({out['notes']} active notes)")
    if found.key != key:
        click.echo(f"  this directory is {found.key}, an alias of {key}")
    click.echo(f"  root: {found.root}" + (f"\n  remote: {found.remote}" if found.remote else ""))
    if out["aliases"]:
        click.echo("  aliases: " + ", ".join(out["aliases"]))


@project_group.command(name="list")
@click.option("--json", "as_json", is_flag=True, help="Output as JSON.")
def project_list(as_json):
    """List the known projects, their aliases and note counts.

    \b
    lorebook project list
    """
    projects = _store().list_projects()
    if as_json:
        _echo_json(projects)
        return
    for project in projects:
        aliases = f" (aliases: {', '.join(project['aliases'])})" if project.get("aliases") else ""
        click.echo(f"{project['key']}: {project['active_notes']} active notes{aliases}")


@project_group.command(name="alias")
@click.argument("old_key")
@click.option("--to", "target", help="The project key or directory OLD_KEY now means (default: the current one).")
@click.option("--remove", is_flag=True, help="Remove the alias instead.")
def project_alias(old_key, target, remove):
    """Make OLD_KEY (a moved repo's former key) another name of a project, so its notes follow.

    A repo without a remote is keyed by its path (path:/old/place); after a
    move, or a remote rename, alias the old key to the new project and its
    notes are recalled there again.

    \b
    lorebook project alias path:/home/me/old-checkout
    lorebook project alias github.com/old-org/widget --to github.com/new-org/widget
    lorebook project alias path:/tmp/x --remove
    """
    store = _store()
    key = _project_for_cli(store, target)
    if key is None:
        raise click.ClickException("No project identity for the target: give --to KEY.")
    if key == old_key:
        raise click.ClickException(f"{old_key} is the project's own key, not an alias.")
    if remove:
        if not store.remove_project_alias(key, old_key):
            raise click.ClickException(f"{old_key} is not an alias of {key}.")
        click.echo(f"{old_key} is no longer an alias of {key}.")
        return
    owner = store.project_for_alias(old_key)
    if owner and owner != key:
        raise click.ClickException(f"{old_key} is already an alias of {owner}; remove it there first.")
    store.add_project_alias(key, old_key)
    moved = store.count_project_notes(old_key)
    click.echo(f"{old_key} is now an alias of {key}" + (f": its {moved} note(s) are recalled there." if moved else "."))


@cli.command(name="ui")
@click.option("--port", type=click.IntRange(0, 65535), default=0, help="The port (default: a free one).")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to bind. Anything but loopback also needs --allow-remote.")
@click.option("--allow-remote", is_flag=True,
              help="Allow a non-loopback --host; the viewer then needs the token in the URL it prints.")
@click.option("--read-only", is_flag=True, help="Show, never change: no curation buttons, every POST refused.")
@click.option("--no-open", is_flag=True, help="Do not open a browser.")
def ui_command(port, host, allow_remote, read_only, no_open):
    """See and curate what the agent remembers, in your browser.

    Starts a local web viewer on 127.0.0.1 (a free port unless --port), prints
    its URL and opens it; Ctrl-C stops it. Notes (filters, search, curation:
    verify, mark stale, supersede, edit, forget), sessions (timeline, what was
    injected, the Stop decision and its reasons, live), the next session's
    context, projects, corpora and stats.

    \b
    lorebook ui
    lorebook ui --read-only --port 8765 --no-open
    """
    import secrets
    import webbrowser

    from .ui import LOOPBACK, UI, make_server, server_url

    if host not in LOOPBACK and not allow_remote:
        raise click.BadParameter(f"{host} is not loopback: add --allow-remote (the viewer then needs a token).",
                                 param_hint="--host")
    _store().close()  # a clear message now if the database cannot be used
    app = UI(read_only=read_only, token=None if host in LOOPBACK else secrets.token_urlsafe(24))
    try:
        server = make_server(app, host, port)
    except OSError as ex:
        raise click.ClickException(f"Cannot listen on {host}:{port}: {ex.strerror or ex}")
    url = server_url(server, app)
    click.echo(f"lorebook ui: {url}" + (" (read-only)" if read_only else "") + "  (Ctrl-C stops it)")
    if not no_open:
        webbrowser.open(url)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        click.echo("lorebook ui: stopped")
    finally:
        server.server_close()


def _register_plugin_commands() -> None:
    from .plugins import load_plugins

    load_plugins().hook.register_commands(cli=cli)


_register_plugin_commands()
