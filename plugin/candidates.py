"""Candidate lessons from a session (deterministic, no model needed).

A session teaches something when a check that failed passed again after a
change that plausibly addresses it: an edit (the net diff, attempts that did not
help kept apart as evidence), a changed invocation (an environment variable, a
flag, a runner such as ``uv run``, a working directory, an install or pin step
before it), or a different command that does the same job (the project's way to
run its tests). Several independent problems give one candidate each. The
causes come from the agent's final message and the user's prompt, matched to
the problem they talk about.

Precision first: a change is linked to a failure only when it plausibly
addresses it (a documentation edit is not a fix; neither is a command that is
not the failing check); a non-edit step that addresses it (an install of what
its error names, a service start, a pull of other people's changes) takes
precedence over an edit to a file it does not name, and a pull is no lesson;
routine plumbing (git, a cd typo, a formatter run) and a
test made to pass by weakening it give no lesson, only a reason code; a flaky
retry with nothing changed teaches nothing. "Verified" means the failing check
itself passed after the change.
"""
from __future__ import annotations

import difflib
import functools
import itertools
import os
import re

from .account import (_ANOTHER_REQUEST, _DID_NOT_HELP, _FLAKY, _FLAKY_EXPLAINED, _INCIDENTAL, _KEY_FIX, _MOVED_IT_ON,
                      _NOT_ENOUGH, _PAST, _REASON, _STOP, _USER_CAUSE, _WHILE_THERE, _code_spans, _convention_stated,
                      _plain_words, _problem_statement, _prose, _relevance, _sentences, _stated_fix_clause, _tokens,
                      _users_diagnosis, fix_words_of, split_shared, stated, undated)
from .chains import (_ERROR_OUTPUT, _USAGE_ERROR, _among, _detail, _echoed, _led_in, _put_back_paths,
                     _raw_error_line, _recipe_line, _same_program, _written_later, find_chains)
from .commands import (_MUTATING, _TEST_PATH, _and_steps, _before_pipe, _inline_code, _probed, _program_name,
                       _routine, _same_target, _segments, command_family, command_job, command_key, container_run,
                       invocation_change, is_autofix, is_static_check, moved_paths, other_subcommand, package_name,
                       parse_command, removed_paths, removed_with, shown_command, without_env)
from .edits import (_CONFIG_PATH, _ENVIRONMENT_FAILURE, _LOCKFILE, _MANIFEST_PATH, _TOOL_CONFIG, _added_lines,
                    _addresses_by_name, _changed_text, _diff_text, _edit_sides, _imports_only, _named_in, _rel, _relevant_edits,
                    _short_diff, net_changes, shown_hunks, without_told_aside)
from .events import EDIT_TOOLS
from .quality import LazyRegex
from .record import LOG_STAMP, imports, lesson_title
from .sanitize import steering_reasons
from .signatures import normalise
from .steps import (_LEFT_OVER, _LOG_FILE, _STOPPED_BY_ITSELF, _absent_from_listing, _addresses, _all_skipped,
                    _asserted_after, _clears_local_state, _doing_part, _empty_answers, _is_change, _is_check, _is_mcp,
                    _logged_failure, _mcp_outcome, _named_invocation, _names_run, _packages, _plans_destroying,
                    _quoted_in, _starts_service, _status_failed, _through_pipe, _uninstalled, _upstream_sync,
                    _value_not_taken_up, _warnings_gone, _way_sentences)
from .steps import _named_by_error as _step_named_by_error
from .store import Store
from .text import elided_heads, one_line
from .weakening import (_CHECK_FAILED, _DESELECTS, _SAID_WEAKENED, _answers_as_expected, _expected_from_the_subject,
                        _expects_fewer, _hunk_lines, _is_weakening, _made_to_agree, _rewrites_only_tests, _silences,
                        _subject_dropped, _tests_run, _words_of, deletes_test_rows, does_what_the_code_dropped,
                        fewer_in_a_testset, fuzz_seed_pinned, load_targets_dropped, moves_test_data,
                        moves_test_out_of_the_suite, nudged_off_the_boundary, property_narrowed, rng_swapped,
                        shrinks_the_model, tests_only)

# a sentence that sets other failures aside ("… were just my environment, not part of the problem"; "Things that
# turned out not to matter: pinning `@Config(sdk = [34])` (tried, …), …"): no account of this one
_SET_ASIDE = LazyRegex(r"(?i)\bnot (?:part of|related to|the cause of) (?:the|this) (?:problem|issue|failure|bug)\b|"
                       r"\b(?:just|only) (?:my|the) (?:environment|setup|sandbox|machine)\b|"
                       r"^\W*(?:things|what|everything else) (?:that )?(?:(?:was|were)(?:n't| not) the (?:problem|issue|"
                       r"cause)|(?:turned out|proved) not to matter|didn't matter|did not matter)\b")
# an attempt the agent says did nothing for the failure, or only traded it for another (not "was not enough": a step
# that got past one error is part of the fix)
# "**Root cause:** …": the agent's own label on its account of the cause
_CAUSE_LABEL = LazyRegex(r"(?i)^(?:the )?(?:root )?cause\s*:")
_NO_HELP = LazyRegex(r"(?i)\b(?:did(?: not|n't) (?:help|work|fix)|does(?: not|n't) (?:help|work)|no effect|"
                     r"made no difference|changed nothing|(?:just|only) (?:swapped|traded)|"
                     + _MOVED_IT_ON + "|"
                     r"only (?:produced|gave|caused|led to|moved)|"
                     r"so (?:I|we) (?:reverted|undid|rolled back|backed out)|(?:that |which )?I tried first)\b")
# an attempt kept for a reason of its own, not as part of the fix ("but it's correct metadata so I kept it")
_KEPT_ANYWAY = LazyRegex(r"(?i)\bbut\b[^.;]{0,60}\bso (?:I|we) (?:kept|left) (?:it|that|them)\b|"
                         r"\b(?:kept|left) (?:it|that|them) (?:anyway|in anyway)\b")
# a flag that makes a check stricter: run without it, the check looks away (``-race``, ``-Werror``, ``--strict``)
_CHECKING_MODE = LazyRegex(r"-race|-Werror|-W\s*error|--strict[\w-]*|-D\s*warnings|--deny-warnings|-Xfatal-warnings|"
                           r"--max-warnings(?:[=\s]0)?")
_SELF_INFLICTED = LazyRegex(r"(?i)\b(?:SyntaxError|syntax error|IndentationError|TabError|unexpected (?:token|indent|EOF)|"
                             r"unterminated|ParseError|parse error)\b")


def _as_said(command: str, account: str) -> str:
    """``command`` as the account quotes it, where it only leaves out the run's verbosity or quiet: `mage test:unit`
    for ``mage -v test:unit``, `mvn -f target-platform/pom.xml clean install` for ``mvn -q -f … clean install``."""
    plain = " ".join(w for w in command.split() if w not in ("-v", "-vv", "--verbose", "-q", "--quiet"))
    return plain if plain != command and plain in {" ".join(span.split()) for span in _code_spans(account)} \
        else command


# a compiler's word for a name it does not know (``Unresolved reference: settings_quiet_hours``, ``cannot find
# symbol … variable quietHours``, ``Cannot find name 'Foo'``, go's ``undefined: Foo``)
_UNKNOWN_NAME = LazyRegex(r"Unresolved reference:? '?(\w+)|cannot find symbol\b.*?\bsymbol:\s+\w+\s+(\w+)|"
                          r"Cannot find name '(\w+)'|\bundefined: (\w+)|cannot find (?:value|type|function) `(\w+)`")


def _defines_what_it_used(chain: dict, earlier: list[dict], earlier_edits: set[str]) -> bool:
    """Whether the files a fix changed that the session had not edited before only add names that the failure says
    are unknown and that the session's own earlier edits had used: its new code finished, not a problem solved."""
    names = {n for m in _UNKNOWN_NAME.finditer(chain["failure"].get("error_text") or "") for n in m.groups() if n}
    used = " ".join("\n".join(_added_lines(o)) for o in earlier)
    names = {n for n in names if re.search(rf"\b{re.escape(n)}\b", used)}
    new = [c for c in chain["all_changes"] if c["tool"] in EDIT_TOOLS
           and not set(c.get("files") or []) <= earlier_edits]
    # (defines it: ``<string name="settings_quiet_hours">``, ``val quietHours``; not a library named for it in a
    # dependency manifest, ``kotlinx-serialization = "1.7.3"`` for ``Unresolved reference 'serialization'``)
    return bool(names) and bool(new) and all(any(re.search(
        rf"""\bname\s*=\s*["']{re.escape(n)}["']|\b(?:val|var|fun|class|object|interface|def|function|const|let|type|"""
        rf"""enum|struct|func|fn)\s+{re.escape(n)}\b|^\s*{re.escape(n)}\s*[:=]""", "\n".join(_added_lines(c)), re.M)
        for n in names) for c in new)


# --- building a candidate --------------------------------------------------------------------------

def _problem_words(chain: dict) -> set[str]:
    """The words of a chain's problem: its command and its error line."""
    failure = chain["failure"]
    return _tokens(command_key(failure["target"]) + " " + (_raw_error_line(failure) or ""))


def _mistyped(invocation: list[str], error: str, failed: str = "") -> bool:
    """Whether an invocation change only corrects a mistyped value the error says does not exist (``--specific=
    02_user.js`` → ``02_users.js`` after 'the specific seed "02_user.js" does not exist')."""
    passed = [p[len("pass `"):-1] for p in invocation if p.startswith("pass `")]
    dropped = [p[len("without `"):-1] for p in invocation if p.startswith("without `")]
    missing = [line for line in error.splitlines() if _NOT_THERE_WORDS.search(line)]
    if len(invocation) == 1 and len(passed) == 1 and re.match(r"-[\w.-]+[ =]", passed[0]):
        # (an option's value put right: ``-f chart/values.staging.yaml`` → ``values-staging.yaml`` after "open
        # chart/values.staging.yaml: no such file or directory"; ``--specific=02_users.js`` for ``…=02_user.js``)
        flag, joint, new = re.split(r"([ =])", passed[0], maxsplit=1)
        # (the value the failing run gave that option, not any word of the error: "Could not find profile named
        # 'warehouse'" is no typo of ``--profiles-dir ./profiles``)
        given = parse_command(failed)["argv"]
        old = (given[given.index(flag) + 1] if flag in given[:-1] else None) if joint == " " else \
            next((w.split("=", 1)[1] for w in given if w.startswith(flag + "=")), None)
        return bool(old) and old != new and difflib.SequenceMatcher(None, old, new).ratio() >= 0.8 \
            and any(old in line for line in missing)
    if len(passed) != 1 or len(dropped) != 1 or len(invocation) != 2:
        return False
    (new_key, _, new), (old_key, _, old) = passed[0].rpartition("="), dropped[0].rpartition("=")
    # (the line that names the old value says it does not exist: not a header missing for the target it names)
    return new_key == old_key and len(old) >= 5 and difflib.SequenceMatcher(None, old, new).ratio() >= 0.8 and any(
        old in line for line in missing)


_NOT_THERE_WORDS = LazyRegex(r"(?i)does not exist|doesn't exist|not found|no such|unknown|cannot find|could not find|"
                             r"did you mean")


def _asked_for(edit: dict, prompt: str, error: str) -> bool:
    """Whether every line an edit adds sets what the prompt names, to any value it names, which the error does not
    mention (``polling_interval: 0.5`` for "set the worker polling_interval to 0.5", ``- errorlint`` for "enable the
    errorlint linter")."""
    added = [l.strip() for l in _added_lines(edit) if l.strip()]
    # (nor an edit of a file the error names: ``reporting/daily.py:41: FeatureNotSupported``, its join given the
    # ``tenant_id`` the prompt distributes by)
    # (or names as what it ran: "Applying: 20240611093000_add_invoice_billing_month.sql\nError: pq: generation
    # expression is not immutable", the migration the prompt asked for)
    if not added or any(re.search(rf"(?<![\w.-]){re.escape(os.path.basename(f))}:\d", error)
                        or len(os.path.basename(f)) >= 16 and re.search(
                            rf"(?<![\w.-]){re.escape(os.path.basename(f))}(?![\w.-])", error)
                        for f in edit.get("files") or []):
        return False
    prompt_words = set(re.findall(r"[\w.-]+", prompt))
    for line in added:
        # (a setting, not code that uses what the prompt names: ``from app.models.invoice import Invoice`` for "I
        # added an Invoice model …, generate the migration", ``__all__ = [… "Invoice" …]``)
        key = re.match(r"\s*-?\s*([\w.-]+)\s*[:=]", line)
        if imports(line) or key and key.group(1) not in prompt_words:
            return False
        names = {w for w in re.findall(r"[A-Za-z_][\w.-]{3,}", line) if "_" in w or len(w) >= 6}
        values = set(re.findall(r"(?<![\w.])\d+(?:\.\d+)*(?![\w.])", line))
        if not (names & prompt_words and values <= set(
                re.findall(r"(?<![\w.])\d+(?:\.\d+)*(?![\w.])", prompt))) or any(n in error for n in names):
            return False
    return True


def _asked_while_there(sentence: str) -> str:
    """The clause of a sentence that asks for the change made "while you're there": what follows the words ("…
    failing and while you're there bump scalafmt"), or the clause they close ("…, and bump CI to go 1.22 while you're
    at it")."""
    marker = _WHILE_THERE.search(sentence)
    if not marker:
        return sentence
    if len(sentence[marker.end():].split()) >= 2:
        return sentence[marker.start():]
    return re.split(r",\s+(?:and\s+)?|\s+and\s+", sentence[:marker.start()])[-1].strip() + " " + marker.group(0)


def _unlabelled(sentence: str) -> str:
    """A sentence without its "Cause:" or "Fix:" label, a word after it capitalised ("Fix: activate …" → "Activate …"),
    and without the brackets around it whole ("(A bare `dotnet test` … has to be named.)")."""
    if re.fullmatch(r"\([^()]*(?:\([^()]*\)[^()]*)*\)", sentence):
        sentence = sentence[1:-1].strip()
    # (or a lead-in that only announces it: "One thing about this repo: dashboards/generated/*.json is build output")
    label = re.match(r"(?i)(?:(?:the )?(?:root )?cause|(?:the )?fix|solution|one thing (?:about|to know about) "
                     r"(?:this|the) (?:repo|repository|project|codebase)|heads[- ]up|fyi|note)\s*:\s+(?=\S)", sentence)
    if not label:
        return sentence
    rest = sentence[label.end():]
    return rest[:1].upper() + rest[1:] if re.match(r"[a-z]+ ", rest) else rest


# a package manager's own settings (``.npmrc``, ``.yarnrc.yml``, ``pnpm-workspace.yaml``, ``bunfig.toml``, ``pip.conf``,
# ``uv.toml``, ``poetry.toml``, ``.cargo/config.toml``, ``.bundle/config``)
_INSTALLER_SETTINGS = LazyRegex(r"(?:^|/)(?:\.npmrc|\.yarnrc(?:\.yml)?|pnpm-workspace\.yaml|\.pnpmfile\.cjs|bunfig\.toml|"
                                r"pip\.conf|pip\.ini|uv\.toml|poetry\.toml|\.cargo/config(?:\.toml)?|\.bundle/config|"
                                r"\.gemrc)$")
# a test's own verdict that it failed (not an error on the way to it)
_ASSERTION_FAILED = LazyRegex(r"(?i)\bAssertionError\b|\bassert(?:ion)? failed\b|\bexpected\b.{0,80}\b(?:actual|but was|"
                              r"got|received|to (?:be|equal))\b|Expected:.*\n.*(?:Received|Actual|but was):")


# a day said relative to the session, as what a change was (``Yesterday's cleanup``, ``last week's upgrade``)
_RELATIVE_DAY = LazyRegex(r"\b(?:[Yy]esterday|[Tt]oday|[Tt]his (?:morning|afternoon|week)|[Ll]ast (?:week|night)|"
                          r"[Tt]he other day)'s\b")


def _moved(command: str) -> list[str] | None:
    """The source and the destination of a line that only moves one file (``git mv a.js a.mjs``, ``mv a b``)."""
    m = re.fullmatch(r"(?:git\s+)?mv\s+(?:-\w+\s+)*(\S+)\s+(\S+)", " ".join(command.split()))
    return [m.group(1).removeprefix("./"), m.group(2).removeprefix("./")] if m else None


def _restored_paths(command: str) -> list[str]:
    """The files a line puts back as git has them (``git checkout -- a.json``, ``git restore a.json``), every step
    of it one such; none otherwise."""
    paths = []
    segments = _segments(command)
    # (an install after it reinstalls what the manifests put back say: ``git checkout package.json package-lock.json
    # && npm install --silent``)
    while len(segments) > 1 and command_job(segments[-1]) == "install" and not _packages(segments[-1]):
        segments = segments[:-1]
    for segment in segments:
        m = re.match(r"^git\s+(?:checkout(?:\s+HEAD)?|restore)((?:\s+\S+)+)$", segment.strip())
        named = [w for w in m.group(1).split() if not w.startswith("-")] if m else []
        if not named or not all("/" in w or "." in w for w in named):
            return []  # (``git checkout main`` switches a branch)
        paths += named
    return paths


# a user's guess that only counts the problems ("I think there are two different failures"): no cause
_COUNTS_PROBLEMS = LazyRegex(r"(?i)\bthere(?: are|'re| is|'s| might be| may be| could be) (?:two|three|several|"
                             r"multiple|a few|a couple of|\d+) (?:\w+ )?(?:failures|problems|issues|errors|bugs|things)\b")
# the session's first try named as such ("so the first change didn't help")
_FIRST_TRY = LazyRegex(r"(?i)\b(?:the|my|our) first (?:change|attempt|edit|fix|try|bump|guess)\b")
# a daemon of the host started (``sudo systemctl start docker``, ``brew services start postgresql@16``, ``colima
# start``)
_HOST_SERVICE = LazyRegex(r"^(?:sudo\s+)?(?:systemctl\s+(?:start|restart)|service\s+\S+\s+(?:start|restart)|"
                          r"brew\s+services\s+(?:start|restart)|colima\s+start|open\s+-a\s+docker)\b", re.I)
# "I also made …", "Also added …": another change, told after the fix (not "I also had to …": part of it)
# (or "Separately, I bumped max_line_length to 120 in .editorconfig")
_ALSO_DID = LazyRegex(r"(?i)^\W*(?:(?:I(?:'ve)? )?also|separately,?(?: I(?:'ve)?)?(?: also)?) "
                      r"(?!had to|needed|need|have to|has to|must)(?:\w+ed|made|set|put|wrote|ran|gave|took|kept)\b|"
                      # ("Separately, `.rubocop.yml` now targets Ruby 3.3 to match `.ruby-version`."; "(Separately
                      # bumped warehouse_sim to 0.4.2 in package.xml for the release.)")
                      r"^\W*separately,\s+(?:the\s+)?`[^`]+`\s+(?:now|is now|also)\b")


def _also_did(said: dict) -> list[str]:
    """The account's sentences, as written, that tell of another change done beside ("I also made …"): split as
    written, since _sentences drops the "also"; a sentence may follow one in brackets, "(… left as is.) Also fixed the
    "Sumbit" typo in messages.en.yaml."."""
    return [s for s in re.split(r"(?<=[.!?])\)?\s+|\n+", said.get("text") or "") if _ALSO_DID.match(s)]


def _brings(edit: dict, span: str) -> bool:
    """Whether ``edit`` brought ``span`` in: in a line it added, in none of the lines it replaced."""
    return any(span in line for line in _added_lines(edit)) and not any(span in old for old, _ in _edit_sides(edit))


# a snapshot test's reference image (swift-snapshot-testing's ``__Snapshots__/…/testX.1.png``, a golden)
_REFERENCE_IMAGE = LazyRegex(r"(?i)(?:^|/)(?:__snapshots__|snapshots?|goldens?|screenshots?)/.*\.(?:png|jpe?g|webp)$")


# a resource of a terraform configuration, as an error names it (``with module.network.aws_nat_gateway.this``,
# ``in resource "aws_eip" "nat"``)
_RESOURCE_NAMED = LazyRegex(r"\bwith (?:module\.[\w-]+(?:\[[^\]]*\])?\.)*[a-z][a-z0-9]*_\w+\.[\w-]+|"
                            r"\bin resource \"[a-z][a-z0-9]*_\w+\"")


# a step told in words, a verb and what it was done to: "restarting the scheduler alone", "wiping DerivedData"
_TOLD_STEP = LazyRegex(r"(?i)\b(restart|rebuild|reinstall|reset|rerun|re-run|recreat|clear|wip|prun|delet|remov|"
                       r"upgrad|downgrad|redeploy|reload)(?:ing|ed|e|s)?\s+(?:the\s+|a\s+|its\s+)?"
                       r"([A-Za-z][\w.-]{3,})")


def _said_as_done(command: str, sentence: str) -> bool:
    """Whether ``sentence`` tells ``command`` in words: its verb a word of the command, what it was done to named in
    it ("restarting the scheduler alone obviously didn't help" for ``docker compose restart airflow-scheduler``)."""
    words = [w.lower() for w in re.findall(r"[\w.-]+", command)]
    return any(any(w.startswith(m.group(1).lower().replace("-", "")) for w in words)
               and any(m.group(2).lower().rstrip("s") in w for w in words) for m in _TOLD_STEP.finditer(sentence))


# a sentence that says a thing is not at fault: "Nothing is broken in Get-ConfigPath", "Your change is fine", "the
# cache wasn't the problem"
_DENIED = LazyRegex(r"(?i)\bnothing(?: is|'s)? (?:broken|wrong)\b|"
                    r"\b(?:is|was|are|were)(?: fine| not (?:broken|the (?:problem|cause|culprit)))\b|"
                    r"\b(?:is|was|are|were)n't (?:broken|the (?:problem|cause|culprit))\b")


def _moved_on(first: dict, last: dict, passed: dict) -> list[str]:
    """What the last failing run changed of the first that the passing run keeps, where the failure it met was
    another: a step of the way, not an attempt (``julia --project=. test/runtests.jl`` met "… is required but does
    not seem to be installed" where ``julia test/runtests.jl`` met "Package CSV not found")."""
    if last is first or first["tool"] != "Bash" or last["tool"] != "Bash" \
            or not first.get("error_signature") or first.get("error_signature") == last.get("error_signature"):
        return []
    kept = invocation_change(first["target"], passed["target"])
    return [part for part in invocation_change(first["target"], last["target"]) if part in kept]


def candidate_from_chain(session: dict, chain: dict, said: dict, prompts: list[dict]) -> dict | None:
    """The lesson one resolved problem teaches, or None when it teaches nothing (with ``_skip`` set on the chain)."""
    cwd = session.get("cwd")
    failure, success, resolved_by = chain["failure"], chain["success"], chain["resolved_by"]
    last_failure = chain["failures"][-1]
    error = " ".join(f.get("error_text") or "" for f in chain["failures"])  # what the failing runs printed
    failing_key = command_key(failure["target"])
    # (less an option the account says changed nothing: "`--runInBand` changed nothing" of ``npm run test:e2e --
    # --runInBand``, the problem's command with an attempt in it)
    no_help = {span for s in said["did_not_help"] for span in _code_spans(s)}
    # (an install of what the account lists among what did not work, "`vtk-osmesa` isn't on PyPI", failed as an
    # attempt on the way: not the problem the fix solved)
    if command_job(failure["target"]) == "install" and any(
            re.search(rf"(?<![\w.-]){re.escape(span)}(?![\w.-])", failure["target"]) for span in no_help
            if len(span) >= 4 and span not in (resolved_by.get("target") or "")):
        chain["_skip"] = "attempt"
        return None
    command = one_line(_without_options(failing_key, no_help), 120)
    shown = _raw_error_line(failure)
    if re.fullmatch(r"(?i)(?:[\w.-]+: )?exit (?:code|status) \d+", (shown or "").strip()):
        # (a request that failed with its exit code alone, ``curl -sf`` → 22, made again showing why: the why)
        shown = next((told for f in chain["failures"][1:] if f.get("logged")
                      and (told := _raw_error_line(f)) and not re.search(r"(?i)exit (?:code|status) \d+$", told)),
                     shown)
    prompt_text = " ".join(p["text"] for p in prompts)
    # (an aside in brackets is the aside, not the sentence around it: "I added `identifier: payment_events` to that
    # source table (and a description while I was there).")
    # (so is the clause a "while there" opens after what was done: "Switched the client to `location="EU"` in
    # run_query.py and, while there, fully qualified the table in sql/daily_revenue.sql"; not a verdict on the clause
    # before it: "I also turned on `declarationMap` …; unrelated to the tests")
    # (or, of one that ends the sentence, the clause it ends: "I pinned `dbt_expectations` to `version: 0.9.0` and
    # fixed dbt_utils at 1.1.1 while I was there"; code in it too, "… and tightened `require-dbt-version` in
    # dbt_project.yml while I was there")
    incidental = [next((b.group(0) for b in re.finditer(r"\([^()]*\)", s) if b.start() < m.start() < b.end()),
                       s[c.start():] if m.group(0).lower().startswith("while") and (
                           c := re.search(r"(?:,?\s+and,?|;|\s+[—–])\s+(?:I\s+)?(?:also\s+)?$", s[:m.start()])
                           or not s[m.end():].strip(" .!)") and re.search(
                               r"(?:,?\s+and,?|;|\s+[—–])\s+(?:I\s+)?(?:also\s+)?(?:[^,;—–`]|`[^`]*`){3,80}$",
                               s[:m.start()]))
                       and c.start() >= 20 else s)
                  for s in said["all"] if (m := _INCIDENTAL.search(s))]
    account = " ".join(s for s in said["all"] if s not in incidental)
    # after the problem, the prompt's other requests ("Also fix the typo in …", "And please enable X")
    # (split as written: _sentences drops the "Also" that marks a request)
    requests = [_asked_while_there(s) for p in prompts
                for i, s in enumerate(re.split(r"(?<=[.!?])\s+|;\s+|\n+|,\s+(?=also\b)", p["text"]))
                if (i and _ANOTHER_REQUEST.search(s)) or _WHILE_THERE.search(s)]
    edits, unrelated = _relevant_edits(chain, cwd, account + " " + prompt_text, incidental + requests)
    # what the agent says it also did ("I also made the 400 return a small JSON error body") is by the by, beside
    # an edit that stays the fix (never all of it: "Also forced spdlog to build against the external fmt")
    also = _also_did(said)
    # (or all of it beside a stale process stopped, what stood in the way: "I killed it … I also added a comment
    # to `.env.example` describing PORT")
    steps = [c for c in chain["changes"] if c["tool"] == "Bash"]
    cleared = bool(chain.get("cleared")) and all(_clears_local_state(c["target"]) for c in steps)
    # (or beside a command that stays the fix: "Fixed with `arduino-cli lib install …`. I also labelled the relay row
    # in the README")
    # (or beside the failing command run another way: "Passing `--controller-name sealed-secrets` fetched the cert …
    # I also bumped the kubeseal version mentioned in secrets/README.md")
    rerun = [" ".join(o["target"].split()) for o in (chain["failures"][-1], chain["resolved_by"]) if o["tool"] == "Bash"]
    other_way = len(rerun) == 2 and rerun[0] != rerun[1] and bool(invocation_change(*rerun))
    if also and (len(edits) > 1 or (cleared or steps or other_way) and edits):
        fewer, set_aside = _relevant_edits(chain, cwd, account + " " + prompt_text, incidental + requests, also)
        if fewer or cleared or steps or other_way:
            edits, unrelated = fewer, set_aside
    # the change the prompt asks for, word and value ("set the polling_interval to 0.5"), when the prompt reports
    # no problem and the error does not name it, is the task, done while the failure had another cause
    if not any(_REPORTED.search(s) or _USER_CAUSE.search(s) for p in prompts for s in _sentences(p["text"])):
        asked = [e for e in edits if _asked_for(e, prompt_text, error)]
        unrelated = sorted(set(unrelated) | {_rel(p, cwd) for e in asked for p in e.get("files") or []})
        edits = [e for e in edits if e not in asked]
    if chain["kind"] == "same_job" and edits:  # the way the job is done is the lesson; the edits were the task's
        unrelated = sorted(set(unrelated) | {_rel(p, cwd) for e in edits for p in e.get("files") or []})
        edits = []
    # an edit put back after the check passed (the temporary ``org.flywaydb: DEBUG`` logging) was a look, not the fix,
    # beside what else changed
    later = chain.get("_later_edits") or []
    gone = {path for path, hunks in net_changes(edits + [e for e in later if set(e.get("files") or []) & {
        f for d in edits for f in d.get("files") or []}], cwd).items() if not hunks} if later else set()
    looks = [e for e in edits if {_rel(f, cwd) for f in e.get("files") or []} <= gone]
    if looks and (len(looks) < len(edits) or any(c["tool"] == "Bash" for c in chain["changes"])):
        unrelated = sorted(set(unrelated) | {_rel(f, cwd) for e in looks for f in e.get("files") or []})
        edits = [e for e in edits if e not in looks]
    if incidental:  # "I also set colors=true; that's cosmetic and not related": no cause, no fix, no title
        said = {key: [s for s in value if s not in incidental] if isinstance(value, list) else value
                for key, value in said.items()}
    error_words = _tokens(" ".join((f.get("error_text") or "") + " " + (f.get("target") or "")
                                   for f in chain["failures"]))
    # (not what it says of an attempt put back since: "the `,string` tag doesn't help" beside the wrapper type that
    # stayed and moved the error on to its one caller)
    chain_net = net_changes([e for e in chain["all_changes"] if e["tool"] in EDIT_TOOLS], cwd)
    kept_edits = " ".join(h["new"] for hunks in chain_net.values() for h in hunks)
    # (and how the run was changed, ``CELERY_BROKER_URL=memory://``, and the commands on the way)
    kept = " ".join([kept_edits, chain["resolved_by"].get("target") or ""]
                    + [e.get("target") or "" for e in chain["all_changes"] if e["tool"] == "Bash"])
    # a run changed only in how it was invoked, that moved the error on, and whose change the run that passed in the
    # end no longer makes (``PKG_CONFIG_ALLOW_CROSS=1 cargo build …``, then an edit, then ``cargo build …``): an
    # attempt, given up
    if chain["kind"] == "error_changed" and not chain["all_changes"] and chain.get("success"):
        tried = set(invocation_change(failure["target"], chain["resolved_by"]["target"]))
        if tried and not tried & set(invocation_change(failure["target"], chain["success"]["target"])) \
                and not _written_later(sorted(tried), chain.get("_later_edits") or []):
            chain["_skip"] = "attempt"
            return None
    # (or that the session put back whole afterwards: the FileIO switched back, ``uv remove s3fs`` after ``uv add
    # s3fs``; what moved the error on is no part of what the project keeps)
    # (or, its lines written over by a later fix, that the account says did not help, in their words: "CocoaPods'
    # own suggestion, `use_modular_headers!`, got `pod install` through but then broke the React Native build …, so I
    # removed it again")
    said_undone = any(span.strip() in line for s in said["did_not_help"] for span in _code_spans(s)
                      if len(span.strip()) >= 8
                      for e in chain["all_changes"] if e["tool"] in EDIT_TOOLS for line in _added_lines(e))
    # (or, written over by a later fix, that its own check passed again after: ``target: 99.5%`` got kubeconform
    # through, pyrra then refused it, and kubeconform passed ``target: "99.5"`` too)
    if _put_back(chain, cwd) or (chain["kind"] == "error_changed" or said_undone or _checked_again(chain)) \
            and _rewritten_later(chain, cwd):
        chain["_skip"] = "attempt"
        return None
    # (the run that moved the error on is the attempt's own: "setting `CELERY_BROKER_URL=memory://` did not help")
    moved_on = _tokens(chain["resolved_by"].get("target") or "") if chain["kind"] == "error_changed" else set()
    moved_to = _tokens(chain["resolved_by"].get("error_text") or "")  # (the error it moved on to)
    # (or that names it as the session's first change, when nothing was changed before it: "so the first change
    # didn't help")
    first = not chain.get("_earlier_files") and not (chain.get("_earlier_text") or "").strip()
    chain_words = fix_words_of(chain, cwd) if chain["kind"] == "error_changed" else set()
    # (named by the error it moved on, or by two words of its own: "registering modules on the private mapper — it
    # serialized, but as an array", under "What didn't work:")
    if chain["kind"] == "error_changed" and any(
            _NO_HELP.search(s) and ((_names(s, error_words | moved_on) or len(_tokens(s) & chain_words) >= 2)
                                    and _names(s, chain_words) or first and _FIRST_TRY.search(s))
            # (its code, not the error it quotes, by the error's words: "(it only turned the error into a missing
            # `to_json(JSON::Builder)` overload)" of "no overload matches 'Invoice#to_json' with type JSON::Builder")
            and not (kept_edits.strip() and (spans := [span for span in _code_spans(s)
                                                       if not _tokens(span) <= error_words | moved_to])
                     and not any(span in kept for span in spans))
            for s in said["did_not_help"]):
        chain["_skip"] = "attempt"  # "an empty limits map just swapped the nil pointer for …": it moved the error on
        return None
    # (a run with no edit that the account says was not it, "downgrading pyarrow (`pyarrow<13` …)": the way it was
    # run in the end, ``uv pip install`` for ``uv run pip install``, is part of an attempt, no lesson of its own)
    # (in the clause that says so: "The export works with `NODE_OPTIONS=…`; clearing the cache with `--clear` made
    # no difference" quotes the way that worked too)
    # (not what it says the attempt lacked: "a host in `ApiUser`, but without `http://` every request failed")
    edited_paths = {p for e in chain["all_changes"] if e["tool"] in EDIT_TOOLS for f in e.get("files") or []
                    for p in (_rel(f, cwd), os.path.basename(f))}
    if not kept_edits.strip() and resolved_by["outcome"] == "ok" and any(
            # (a URL's scheme is no use of it: `postgres` in ``AIRFLOW_CONN_WAREHOUSE_PG='postgres://…'``)
            len(span) >= 6 and re.search(rf"(?<![\w-]){re.escape(span)}(?![\w-]|://)", resolved_by.get("target") or "")
            and not re.search(rf"(?i)\b(?:without|lacking|missing|no)\s+`{re.escape(span)}`", clause)
            # (nor the program both runs are: "The `uses-sdk` value … isn't read by `gomobile bind`, so changing it
            # did nothing")
            and not command_key(failure.get("target") or "").startswith(span.strip())
            # (nor a file an edit on the way changed: "Turning off the incidence-angle bands in `graphs/s1_grd_tc.xml`
            # made no difference" of the edit put back, beside ``_JAVA_OPTIONS=-Xmx12G gpt graphs/s1_grd_tc.xml …``)
            and span.strip() not in edited_paths
            # (nor the way said after it, past a dash or a "so": "plain `pulumi preview` doesn't work - state lives
            # in an S3 backend, so it has to go through `just preview dev`")
            for s in said["did_not_help"] for clause in re.split(r";\s+|\s+[—–-]\s+|,\s+(?:but|and|so)\s+", s)
            # (not what it says was part of the way, not all of it: "`-f net8.0-android` alone isn't enough because
            # restore still evaluates every framework", beside the ``-p:TargetFrameworks=…`` the passing run added)
            if _DID_NOT_HELP.search(clause) and not _NOT_ENOUGH.search(clause)
            for span in _code_spans(_bracketed_verdict(clause))):
        chain["_skip"] = "attempt"
        return None
    # (what the sentence says after the chance, "flaky because of a race; fixed by …", explains it away; "errored
    # because Chrome crashed; it started fine on the next run" does not)
    # (in its words, not its code: "a `transient` field created in `open()`" is Java)
    # (nor the user's own word for the problem echoed, "**Flaky `TestConcurrentTransfers`**: CockroachDB … tells the
    # client to retry" when the prompt said the test is flaky, with an edit that stays: it names what was fixed)
    chance = [s for s in said["all"] if (flaky := _FLAKY.search(prose := _prose(s)))
              and not _FLAKY_EXPLAINED.search(prose[flaky.start():])
              # (nor nothing to change in the repo after the step credited with the fix: "`ansible-galaxy collection
              # install -r requirements.yml` fixed it — nothing to change in the repo")
              and not (flaky.group(0).lower().startswith("nothing to change")
                       and re.search(r"(?i)\b(?:fixed|solved|resolved) it\b|\bwas (?:all it took|enough)\b|"
                                     r"\bdid the trick\b", prose[:flaky.start()]))
              # (nor a retry the passing run logged, called harmless: "zero failed (one transient footer read retry
              # in the log, harmless)")
              and not re.match(r"[^.;()]*\b(?:harmless|benign|ignorable)\b", prose[flaky.start():], re.I)
              and (not chain.get("_rivals") or _relevance(s, error_words) > 0)
              and not (kept_edits.strip() and all(m.group(0).lower() in prompt_text.lower()
                                                  for m in _FLAKY.finditer(prose)))]
    if chance and not invocation_change(chain["failures"][-1]["target"], resolved_by["target"]):
        chain["_skip"] = "flaky_failure"  # the agent says it passed by chance: what changed meanwhile is no fix
        return None
    # a non-edit step that plausibly addresses the failure (an install of what it names, a service start, a pull)
    # takes precedence over an edit to a file the failure does not name
    # (or a daemon of the host the passing line started first: ``sudo systemctl start docker && docker info`` for
    # "Cannot connect to the Docker daemon"; not the project's own service rebuilt to take up an edit)
    addressing = [c for c in chain["changes"] + [dict(resolved_by, target=p)
                                                 for p in parse_command(resolved_by["target"])["prep"]
                                                 if _HOST_SERVICE.match(p)]
                  if _addresses(c, chain["failures"])]
    if addressing and edits:
        # beside an install of what was missing, a settings file is no fix unless the error names it
        installs = any(command_job(c.get("target") or "") == "install" for c in addressing)
        # (nor the check's own tool configuration, changed as the account quotes: "set `environment: 'jsdom'` in
        # vitest.config.ts"; not the task's edit it reports, `nginx_worker_connections` in group_vars)
        quoted = [span for span in _code_spans(account) if len(span) >= 6]
        # (nor, beside an install, the package manager's own settings it installs by: ``node-linker=hoisted`` in
        # ``.npmrc`` before ``pnpm install``)
        # (nor the service's own code the account names, when the service was only rebuilt to take it up: ``docker
        # compose up -d --build flight`` after gateway/server.py bound ``grpc://0.0.0.0:8815``)
        rebuilt = all(re.search(r"(?:^|\s)(?:--build|build)(?:\s|$)", c.get("target") or "") for c in addressing)
        # (or only started again to take up its configuration, the account quoting what the edit added: ``docker
        # compose up -d trino`` after ``fs.native-s3.enabled=true`` in trino/etc/catalog/iceberg.properties)
        restarted = all(_starts_service(c.get("target") or "") for c in addressing)
        bystanders = [e for e in edits if not _addresses_by_name(e, chain, cwd, manifests_only=installs)
                      and not (any(_named_in(_rel(p, cwd), account) for p in e.get("files") or []) and (
                          rebuilt or restarted and any(len(span) >= 8 and span in line for line in _added_lines(e)
                                                       for span in quoted)))
                      and not (any(_TOOL_CONFIG.search(_rel(p, cwd)) for p in e.get("files") or [])
                               and any(span in _changed_text(e) for span in quoted))
                      and not (installs and any(_INSTALLER_SETTINGS.search(_rel(p, cwd)) for p in e.get("files") or []))]
        unrelated = sorted(set(unrelated) | {_rel(p, cwd) for e in bystanders for p in e.get("files") or []})
        edits = [e for e in edits if e not in bystanders]
    if edits and _named_invocation(last_failure, resolved_by):
        # the error said what to pass ("run again with the --allow-read flag") and the passing run passed it
        named = [e for e in edits if any(_CONFIG_PATH.search(_rel(p, cwd)) or _TOOL_CONFIG.search(_rel(p, cwd))
                                         for p in e.get("files") or [])]
        unrelated = sorted(set(unrelated) | {_rel(p, cwd) for e in edits if e not in named for p in e.get("files") or []})
        edits = named
    # an edit that a sentence of what did not help speaks of, by the words of its lines and of its file, more than of
    # any other edit ("Pinning the Route53 zone ID on the issuer changed nothing": ``hostedZoneID: …`` in
    # cluster-issuer.yaml): an attempt, though no run failed after it
    # (made before the last: what a later edit took out again, ``BEGIN;``, is not what it added; nor one whose code a
    # sentence of the fix quotes)
    # (or by the code it quotes that only this edit brought in: "Adding a `collation` parameter didn't change
    # anything", ``&collation=utf8mb4_unicode_ci`` added to the DSN a later edit fixed)
    def left_in(edit: dict, span: str) -> bool:  # (brought in by it, and no later edit took it out again)
        return _brings(edit, span) and not any(
            f["id"] > edit["id"] and f["tool"] in EDIT_TOOLS and any(span in old and span not in new
                                                                   for old, new in _edit_sides(f))
            for f in [*chain["all_changes"], *(chain.get("_later_edits") or ())])

    def spoken(edit: dict, sentence: str) -> int:
        brought = [span for span in _code_spans(sentence) if len(span) >= 4 and left_in(edit, span)
                   and not any(_brings(f, span) for f in edits if f is not edit)]
        return len(_edit_words(edit, cwd) & _plain_words(_prose(sentence))) + 2 * len(brought)

    fix_code = [span for s in said["all"] if s not in said["did_not_help"] for span in _code_spans(s) if len(span) >= 6]
    tried_code = [span for s in said["did_not_help"] for span in _code_spans(s) if len(span) >= 4]

    def holds_fix_code(edit: dict) -> bool:
        # (code of the fix it brought in, where what did not help is left in it too: not `charset=utf8`, the value
        # the DSN held before the ``&collation=…`` it added)
        if any(left_in(edit, span) for span in tried_code):
            return any(_brings(edit, span) for span in fix_code)
        return any(span in line for line in _added_lines(edit) for span in fix_code)

    helpless_edits = [e for e in edits if len(edits) > 1 and e["id"] < max(f["id"] for f in edits)
                      and not holds_fix_code(e) and any(
        spoken(e, s) >= 2 and all(spoken(f, s) < spoken(e, s) for f in edits if f is not e)
        for s in said["did_not_help"])]
    # (or, the only edit, one to the file such a sentence names by its path: "Editing `0/omega` directly didn't help"
    # of ``cases/nacelle/0/omega``, which Allrun restores from ``0.orig/``)
    helpless_edits += [e for e in edits if e not in helpless_edits and not holds_fix_code(e) and any(
        _rel(p, cwd) == span or _rel(p, cwd).endswith("/" + span) for p in e.get("files") or []
        for s in said["did_not_help"] for span in _code_spans(s) if "/" in span)]
    # (and the edit that put one of those back as it was: "Adding a server address to the Makefile target changed
    # nothing, so I reverted it" is no change of the Makefile's)
    helpless_edits += [f for f in edits if f not in helpless_edits and any(
        e["id"] < f["id"] and not any(net_changes([e, f], cwd).values()) for e in helpless_edits)]
    edits = [e for e in edits if e not in helpless_edits]
    if any(_upstream_sync(c) for c in addressing) and not edits:
        chain["_skip"] = "upstream_change"  # it passed once other people's fix was pulled in: nothing to reuse
        return None
    final_ids = {c["id"] for c in chain["changes"]}
    # (and an edit before the last failure that the agent says was not enough on its own: part of the fix)
    # (not one kept for another reason: "Adding yojson to the `depends` in dune-project did not help on its own (that
    # only feeds the generated tally.opam), but it's correct metadata so I kept it")
    partial = [s for s in said["all"] if _NOT_ENOUGH.search(_prose(s)) and not _KEPT_ANYWAY.search(_prose(s))]
    # (or one that defines what the last change uses: the catalog's ``compose-compiler = { id = "org.jetbrains.kotlin.
    # plugin.compose", … }`` that ``alias(libs.plugins.compose.compiler)`` applies, the same error until both were in)
    final_edits = [c for c in chain["changes"] if c["tool"] in EDIT_TOOLS]
    # (a file named as the program the check runs is named by its path: "dune only links what the stanza lists" is
    # of the program, not of bin/dune)
    programs = {command_family(o.get("target") or "").split(" ")[0] for o in [*chain["failures"], resolved_by]}
    not_enough = [a for a in chain["attempts"] if a["tool"] in EDIT_TOOLS and a in edits and (any(
        _named_as_file(f, s, cwd, programs) for f in a.get("files") or [] for s in partial)
        or _defines_for(a, final_edits))]
    # (or one whose added code the account quotes as what the fix is, in no sentence of what did not help: "now
    # passes `-e POSTGRES_INITDB_ARGS=…`", the same error after it only while a stale data directory stood in the way)
    # (not a name the failure printed, the problem's subject: "adding `discount_amount` stopped the run", beside the
    # column's doc added to _marts.yml, after "Source columns not in target: [{'name': 'discount_amount', …}]"; as
    # the first run printed it, before any edit: deno's ``Task test deno test … --allow-net=localhost:5432 tests/``
    # echoes the task an edit wrote)
    error_printed = chain["failures"][0].get("error_text") or ""
    told_fix = [span for s in said["all"] if s not in said["did_not_help"] and not _DID_NOT_HELP.search(s)
                # (or shorter, where it is code, not a word: "changed `/files/*` to `/files/*key`")
                for span in _code_spans(s) if (len(span) >= 12 or len(span) >= 8 and re.search(r"[^\w\s.]", span))
                and span not in error_printed]
    # (code it added, not a name the line held before: "`follow_player` itself" is no ``.after(…)`` added to it)
    # (not one in a file a sentence of what did not help names: "Adding retries to defaults.cfg did not help", beside
    # the `retries = 3` then added to app.cfg)
    not_enough += [a for a in chain["attempts"] if a["tool"] in EDIT_TOOLS and a in edits and a not in not_enough
                   and any(span in line and not any(span in old for old, _ in _edit_sides(a))
                           for line in map(_spaced, _added_lines(a)) for span in map(_spaced, told_fix))
                   and not any(_named_as_file(f, s, cwd, programs) for f in a.get("files") or []
                               for s in said["did_not_help"])]
    final_ids |= {a["id"] for a in not_enough}
    # (an earlier problem's attempt that this fix takes out again, "moving the imports into `parse_event` only moved
    # the NameError, so I reverted that": the two cancel out, no line of this fix)
    # (a line the fix's edit kept, quoted on both of its sides, it did not take out: ``receiver: slack-dataeng`` above
    # the ``continue: true`` it added)
    def sides(e: dict, sign: str) -> set[str]:
        return {l[1:].strip() for l in (e.get("body") or "").splitlines() if l.startswith(sign)}
    removed = {line for e in edits for line in sides(e, "-") - sides(e, "+")}
    # (or rewrites: ``inject-python: "true"`` → ``"observability/python"`` in the annotations block the attempt
    # added, shown as the block added with its value, not as a change of a value the project never had)
    # (and the session's own lines from before the failure that the fix rewrote whole, in place of lines the project
    # had: a migration's first version, ``ADD COLUMN pinned INTEGER DEFAULT 0``, is no state of the project the fix
    # changed, the ``TODO`` it replaced is; not a file the session wrote new, whose fix is the clause it added)
    taken_back = [o for o in [*(chain.get("_earlier") or ()), *chain["attempts"]]
                  if o["tool"] in EDIT_TOOLS and o["outcome"] == "ok" and o not in edits and _added_lines(o)
                  and ({l.strip() for l in _added_lines(o)} <= removed
                       or {l.strip() for l in _added_lines(o)} & removed)]
    # (or lines it inserted there, into what the project had, that the fix took out again: ``consecutiveErrorLimit:
    # 10`` added before the rollout's status was watched, and removed with the fix to its query)
    taken_back += [o for o in chain.get("_before") or () if o not in taken_back and o not in edits
                   and o["outcome"] == "ok" and _added_lines(o) and {l.strip() for l in _added_lines(o)} <= removed
                   and any(old.strip() for old, _ in _edit_sides(o))]
    taken_back.sort(key=lambda o: o["id"])
    # (a file the session wrote new before the failure, that the fix then edited: the fix is what the edit changed,
    # ``ordering = "-created_at"`` added to the ``EventCursorPagination`` the task wrote, not the whole file)
    fixed_files = {f for e in edits if e["id"] in final_ids for f in e.get("files") or []}
    written = [e for e in taken_back + edits if e["tool"] == "Write" and e["id"] < chain["failure"]["id"]
               and e["id"] not in final_ids and set(e.get("files") or []) and set(e.get("files") or []) <= fixed_files]
    net = net_changes([e for e in taken_back + edits if e not in written], cwd)
    # (a file the session wrote and then removed again, ``rm ../../modules/acm-cert/providers.tf``, is no change)
    # (or a folder it was in, ``rm -r inventories/staging/host_vars``)
    gone = [p for o in chain.get("_between") or () if o["tool"] == "Bash" and o["outcome"] == "ok"
            for p in removed_paths(o["target"])]
    net = {path: hunks for path, hunks in net.items()
           if not (removed_with(path, gone) and all(not h["old"] for h in hunks))}
    fix_hunks = {path: [h for h in hunks if set(h["ids"]) & final_ids] for path, hunks in net.items()}
    fix_hunks = {path: hunks for path, hunks in fix_hunks.items() if hunks}
    # (an attempt's lines folded into the fix's hunk, its edit next to the fix's: ``type="number"`` above the
    # ``register('quantity', { valueAsNumber: true })`` that fixed it, the same failure after it; the fix is what its
    # own edits changed, as an attempt elsewhere in the file is no part of it)
    # (not where the fix edited the attempt's own lines: ``127.0.0.1`` tried, then the line rewritten whole, is the
    # net change's old side; ``- column: "users.id"`` made ``- db_type: "uuid"`` in the overrides block the attempt
    # added keeps the block)
    tried = [a for a in chain["attempts"] if a["id"] not in final_ids and a["tool"] in EDIT_TOOLS]
    written_over = {l.strip() for e in edits if e["id"] in final_ids for old, _ in _edit_sides(e)
                    for l in old.splitlines()} & {l.strip() for a in tried for l in _added_lines(a)} - {""}
    mixed = [] if written_over else [path for path, hunks in fix_hunks.items() if any(
        a["id"] in h["ids"] and any(l.strip() and l in h["new"].splitlines() for l in _added_lines(a))
        for h in hunks for a in tried)]
    own = net_changes([e for e in edits if e["id"] in final_ids and e not in written], cwd) if mixed else {}
    fix_hunks.update({path: own[path] for path in mixed if own.get(path)})
    commands = [c for c in chain["changes"] if (c["tool"] == "Bash" and not _upstream_sync(c)) or _is_mcp(c)]
    # "`swift package reset` + `swift package update` did not help": a step the agent says did not help is an attempt
    # (quoted up to the words that say so: in "editing X isn't enough — it has to be regenerated with `composer
    # dump-autoload`", the step after them is what it took)
    # (from the clause that says so: in "Regenerating it with `dart run build_runner build …` fixed the test; no code
    # change was needed (the extra flush() I tried in the test changed nothing …)", the flush)
    # (or the list its words head: "Not the cause: the board name (…) and a full `west flash --erase`.")
    tried_parts = [s if s[m.end():].lstrip().startswith(":") else
                   s[max(max(s.rfind(b, 0, m.start()) for b in ("; ", "(", " — ", " – ")), -1) + 1:m.end()]
                   for s in said["did_not_help"] if (m := _DID_NOT_HELP.search(s))]
    # (the step whole: a later ``cd ios && pod install`` is not the "`pod install --repo-update` on its own")
    helpless_steps = [c for c in commands if c["tool"] == "Bash" and any(
        _quoted_in(c["target"], s) or command_key(c["target"]) in s and all(
            word in c["target"] for span in _code_spans(s) if command_key(c["target"]) in span for word in span.split())
        # (told in words only before the fix's last edit: a restart after it took the fix up)
        or _said_as_done(c["target"], s)
        and any(e["tool"] in EDIT_TOOLS and e["id"] > c["id"] for e in chain["changes"])
        # (or a rename told by where it went: "Renaming it to `.mjs` didn't work" of ``git mv a.js a.mjs``)
        or (moved := _moved(c["target"])) and (f"`{os.path.basename(moved[1])}`" in s or re.search(
            rf"(?i)\brenam\w* (?:it |the file |them )?to `{re.escape(os.path.splitext(moved[1])[1])}`", s))
        for s in tried_parts)]
    # (and a step that applied such an edit's file: ``kubectl apply -f deploy/cert-manager/cluster-issuer.yaml``)
    # (or a file the session put back as it was: ``aws s3 cp jobs/daily_agg.py s3://…`` after the ``addPyFile``
    # attempt was taken out of it again)
    put_back = [path for path, hunks in chain_net.items() if not hunks]
    # (not a run the account quotes as what fixed it, that only reads the file:
    # ``OBJC_DISABLE_INITIALIZE_FORK_SAFETY=YES bundle exec puma -C config/puma.rb`` after a ``before_fork`` tried
    # there and taken out again)
    helpless_steps += [c for c in commands if c["tool"] == "Bash" and c not in helpless_steps and any(
        _rel(p, cwd) in parse_command(step)["argv"] for step in _segments(c["target"])
        for p in [f for e in helpless_edits for f in e.get("files") or []] + put_back)
        and not (parse_command(c["target"])["env"] and _quoted_in(c["target"], said.get("text") or ""))]
    # (or a file the session had edited before, checked out again: ``git checkout dashboards/generated/checkout.json``
    # after a hand edit of generated output failed the check; the session's own mistake undone, no step of the fix)
    edited_before = {_rel(f, cwd) for o in [*(chain.get("_before") or ()), *(chain.get("_earlier") or ()),
                                            *chain["attempts"]]
                     if o["tool"] in EDIT_TOOLS for f in o.get("files") or []}
    # (or what an install on the way wrote, checked out again: ``git checkout package.json package-lock.json && npm
    # install`` after ``npx expo install --check`` bumped a package and changed nothing)
    installed = any(command_job(r) == "install"
                    for r in [*(chain.get("_ran_before") or ()), *(chain.get("_ran_between") or ())])
    # (or a file the session had moved, moved back: ``git mv plugins/x.mjs plugins/x.js`` after the rename to ``.mjs``
    # did not help)
    commands = [c for c in commands if not (c["tool"] == "Bash" and (m := _moved(c["target"]))
                                            and (m[1], m[0]) in chain.get("_moved_before", ()))]
    commands = [c for c in commands if c not in helpless_steps and not (c["tool"] == "Bash" and (
        restored := _restored_paths(c["target"])) and all(
        any(p.lstrip("./") == e or e.endswith("/" + p.lstrip("./")) for e in edited_before)
        or installed and (_MANIFEST_PATH.search(p) or _LOCKFILE.search(p)) for p in restored))]
    # putting back the package an attempt changed ("so I put sanic-testing back to 23.12.0") undoes the attempt: beside
    # another step it is no part of the fix
    tried_packages = {p for a in [*chain["attempts"], *helpless_steps] if a["tool"] == "Bash"
                      for p in _packages(a["target"])}
    undoing = [c for c in commands if c["tool"] == "Bash" and _packages(c["target"])
               and _packages(c["target"]) <= tried_packages]
    # (so does taking away what an attempt wrote or applied: ``kubectl delete -f k8s/rbac-pods-patch.yaml && rm
    # k8s/rbac-pods-patch.yaml`` after that Role was applied and the run still failed)
    # (beside an edit, whatever else: the edit is the fix)
    taken_away = [c for c in commands if c["tool"] == "Bash" and c not in undoing
                  and _takes_away(c["target"], chain["attempts"], cwd, chain.get("_ran_before") or ())]
    if undoing and len(undoing) < len(commands) or taken_away and fix_hunks:
        commands = [c for c in commands if c not in undoing and (c not in taken_away or not fix_hunks)]
    # (nor an install the session took out again later: ``pip install serial``, then ``pip uninstall -y serial && pip
    # install -r tools/requirements.txt`` once ``pyserial`` was found to be the package)
    uninstalled = {p for o in chain.get("_after") or () for p in _uninstalled(o["target"])}
    commands = [c for c in commands if not (c["tool"] == "Bash" and (installed := _packages(c["target"]))
                                            and installed <= uninstalled)]
    # beside an edit, an install the account never names (``pip install -q -r requirements/dev.txt`` while looking
    # around, the fix a migration's dependency) is how the environment was checked, no step of the fix
    commands = [c for c in commands if not (fix_hunks and _unnamed_install(c, said.get("text", "") + " " + prompt_text,
                                                                           fix_hunks))]
    # beside an edit, committing and pushing it (``git checkout -b fix/x && git commit -qam … && git push -u origin
    # fix/x``) only delivers it to where the check reads it (Argo CD syncing a branch): no step of the lesson, nor is
    # the branch the check was then given (``--revision fix/x``)
    published = [c for c in commands if fix_hunks and _publishes(c)]
    branches = {m.group(1) for c in published
                for m in re.finditer(r"\b(?:checkout\s+-[bB]|switch\s+-[cC]|push\s+(?:-\S+\s+)*\S+)\s+([\w./-]+)",
                                     c["target"])}
    commands = [c for c in commands if c not in published]
    # a step another failure on the way named (``aws sts get-caller-identity``: "To refresh this SSO session run aws
    # sso login") answers that failure, not this one, which never asked for it
    others = [o for o in chain.get("_between") or () if o["outcome"] != "ok" and o["tool"] == "Bash"
              and o not in chain["failures"]]
    commands = [c for c in commands if c["tool"] != "Bash" or any(
        _asked_by(c["target"], f) for f in chain["failures"]) or not any(
        o["id"] < c["id"] and _asked_by(c["target"], o) for o in others)]
    # (a recipe line that passed is the failing step itself, not the task run another way)
    # (a log read again is the same log, however many lines were asked for: ``tail -2 logs/dev.log``)
    # (against the last failing run of the subcommand that passed: ``dagster definitions validate`` failing on the
    # way is no ``dagster asset materialize`` run without ``--select``)
    compared = chain["failures"][0] if chain.get("_joined") else next(
        (f for f in reversed(chain["failures"]) if not other_subcommand(f["target"], resolved_by["target"])),
        last_failure)
    # (nor how a status read back was asked again: ``jq -c '.tasks[] | {id, state}'`` after a bare ``jq``)
    # (nor a CI log's reader for the run here of what its step ran: ``rebar3 proper -m prop_codec`` is no ``gh run
    # view … --log-failed`` passed ``-m``)
    invocation = [] if resolved_by.get("recipe") or resolved_by.get("ci") or resolved_by.get("entered") \
        or chain["kind"] == "other_check" or compared.get("ci") and not _same_program(compared["target"],
                                                                                      resolved_by["target"]) \
        or last_failure.get("log_of") or last_failure.get("logged") and not last_failure.get("ci") \
        else invocation_change(compared["target"], resolved_by["target"])
    invocation = _named_by_error(invocation, compared.get("error_text") or "", resolved_by["target"])
    # (and what a run on the way changed, that moved the failure on and that the passing line keeps: ``julia
    # --project=.`` turned "Package CSV not found" into "… does not seem to be installed", then ``Pkg.instantiate()``)
    moved_on = _moved_on(chain["failures"][0], compared, resolved_by) if invocation or commands else []
    invocation = [*moved_on, *(part for part in invocation if part not in moved_on)]
    # (nor the other query a server that was not up answers once it is: ``--execute 'SHOW TABLES FROM …'``)
    if resolved_by.get("asked_otherwise"):
        code = _inline_code(resolved_by["target"]) or ""
        invocation = [part for part in invocation if not (part.startswith("pass `") and code and code in part)]
    # dropping what an attempt had added (``-Dquarkus.devservices.timeout=300s``) undoes the attempt: no part of the fix
    invocation = [part for part in invocation if not part.startswith("without `")
                  or part[len("without `"):-1] in chain["failures"][0]["target"]]
    invocation = [part for part in invocation if not any(
        re.search(rf"(?<![\w/.-]){re.escape(branch)}(?![\w/.-])", part) for branch in branches)]
    # (nor what the account says changed nothing: "`--runInBand` changed nothing", beside the fix in the specs)
    invocation = [part for part in invocation if not (part.startswith(("without `", "pass `"))
                                                      and part.split("`")[1] in no_help)]
    # beside an edit, a flag nobody mentions (``--port 8788``) is how it was run, not a fix; so beside a stale process
    # killed (``kill 48213`` and ``bin/rails server -p 3000 -d``)
    if (fix_hunks or chain.get("cleared") and all(_clears_local_state(c["target"]) for c in commands)) and invocation:
        # (nor a variable set only for that run, ``MAILER_SMTP_HOST=localhost`` beside the pydantic-settings move)
        # (a flag's value says it too: ``HF_HUB_OFFLINE`` for ``-e HF_HUB_OFFLINE=1``)
        # (nor a filter left out, the run widened to the whole suite: ``-only-testing:RingoTests/PushHandlerCancel
        # Tests`` of the failing ``xcodebuild test``)
        invocation = [part for part in invocation if not part.startswith(("pass `", "set `", "without `"))
                      # (a word of it, not a part of one: jq's ``-r`` is not in ``acme-root-ca.pem``)
                      or any(re.search(rf"(?<![\w-]){re.escape(word.split('=')[0])}(?![\w-])",
                                       said.get("text", "") + " " + prompt_text)
                             for n, word in enumerate(part.split("`")[1].split()[:2])
                             if n == 0 or len(word.split("=")[0]) >= 4 and not word.startswith("-"))]
    # (not a server started again with a flag the account quotes: ``kill 31877; supabase functions serve
    # stripe-webhook --no-verify-jwt``, "The function has to be served with `--no-verify-jwt`")
    quoted_flags = {span for span in _code_spans(account) if re.fullmatch(r"--?[\w-]+(?:[ =]\S+)?", span)}
    # (or quoted in the run the account quotes, a flag of words its prose says: "The staging instance only has a
    # private IP … Starting it with `cloud-sql-proxy … --port 5433 --private-ip` fixed it")
    prose = _words_of(re.sub(r"`[^`]*`", " ", account))
    quoted_flags |= {flag for span in _code_spans(account) if any(span in c["target"] for c in commands)
                     for flag in re.findall(r"(?<!\S)--[a-z]+(?:-[a-z]+)+(?![\w=-])", span)
                     if set(flag[2:].split("-")) <= prose}
    # (nor is how a request that answered 2xx said it: ``curl -s -o /dev/null -w '%{http_code}\n' …`` → ``200``
    # after ``curl -sS --fail …`` met the 500)
    answered = _program_name((parse_command(resolved_by["target"])["argv"] or [""])[0]) == "curl" \
        and re.fullmatch(r"\s*2\d\d\s*", resolved_by.get("body") or "")
    ways = [p for p in invocation if not (answered and re.fullmatch(r"without `(?:-[sSf]+|--fail|--silent|"
                                                                   r"--show-error)`", p))]
    # (a probe refused on the way changed nothing: ``redis-cli -n 2 set probe 1`` → "(error) MISCONF …")
    # (nor the options left out of the run again once the service was back: ``-o vers=4.1`` for ``-o vers=4.1,
    # timeo=50,retrans=2``)
    if not fix_hunks and not [p for p in ways if not p.startswith("without `")] and all(
            _clears_local_state(c["target"]) or _starts_service(c["target"])
            or re.match(r"\s*(?:\(error\)|ERR\b|ERROR\b)", c.get("body") or "") for c in commands) and not any(
            flag in c["target"] for c in commands for flag in quoted_flags) and (
            chain.get("cleared") and (_LEFT_OVER.search(account) or any(_kills_a_pid(c["target"])
                                                                       for c in chain["cleared"])
                                      # (or worn into a state its removal clears: "The prometheus pod had been
                                      # running for 9 days without a linkerd-proxy …; deleting it let the ReplicaSet
                                      # create a fresh, injected one")
                                      or _STOPPED_BY_ITSELF.search(account))
            # (started as a step of the line that passed: ``docker compose start tikv && sleep 10 && docker compose
            # ps tikv``)
            or (commands or any(_starts_service(p) for p in parse_command(resolved_by["target"])["prep"]))
            and not chain.get("cleared") and _STOPPED_BY_ITSELF.search(account)):
        # "an old `minio-old` container was holding the port": removed; "the Postgres container had simply stopped
        # (probably after a reboot)": started again; a one-off either way
        chain["_skip"] = "local_state"
        return None
    # (or a stop of what was wedged, forced: ``incus stop --force web01 && incus start web01`` after ``incus stop
    # web01`` timed out; clearing this machine's state, whatever it took)
    if not fix_hunks and _clears_local_state(failure["target"]) and ways and all(
            re.fullmatch(r"pass `(?:--force|-f|-9|-KILL|--kill|-s KILL|--signal[= ]KILL)`", p) for p in ways):
        chain["_skip"] = "local_state"
        return None
    # (or the same request without curl's ``-f``, which made an HTTP error fail it: ``curl -sf …/ready`` → ``curl -s
    # …/ready``; not another request, ``POST …/snapshots/upload`` for a ``PUT …/snapshots/recover`` refused)
    curl = _program_name((parse_command(failure["target"])["argv"] or [""])[0]) == "curl" \
        and _probed(failure["target"]) == _probed(resolved_by["target"])
    # (not one the passing recipe's echoed line keeps: ``make lint`` printing ``mint run swiftlint lint --strict``)
    echoed = [line for line in (resolved_by.get("body") or "").splitlines()[:5]
              if command_key(failure["target"]).split()[0] in line.split()]
    # (nor one the passing task's definition, as the session saw it, keeps: mix's alias ``lint: ["format
    # --check-formatted", "credo --strict --config-name ci"]`` for a bare ``mix credo --strict``)
    task, failed_sub = command_key(resolved_by["target"]).split()[-1], (parse_command(failure["target"])["argv"]
                                                                         or [""])[1:2]
    if not fix_hunks and not commands and invocation and failed_sub:  # (only where a flag left out is judged)
        echoed += [line for o in chain.get("_between") or () if o["tool"] in ("Bash", "Read")
                   for line in (o.get("body") or "").splitlines()
                   if re.search(rf"(?<![\w:-]){re.escape(task)}\s*[:=]", line)
                   and re.search(rf"(?<![\w-]){re.escape(failed_sub[0])}(?![\w-])", line)]
    if not fix_hunks and not commands and invocation and any(
            (_CHECKING_MODE.fullmatch(flag)
             or curl and re.fullmatch(r"-[a-zA-Z]*f[a-zA-Z]*|--fail(?:-with-body)?", flag))
            and not any(flag in line.split() for line in echoed)
            for flag in (p[len("without `"):-1] for p in invocation if p.startswith("without `"))):
        chain["_skip"] = "weakened_test"  # ``go test`` without the ``-race`` that failed checks less, it fixes nothing
        return None
    if not fix_hunks and not commands and _mistyped(invocation, error, compared["target"]) \
            or _refused_flag_left_out(chain):
        # ``--specific=02_user.js`` for ``02_users.js``: a typo put right; ``--skip-archive``, which the script does
        # not know, left out again
        chain["_skip"] = "self_inflicted"
        return None
    if not fix_hunks and not commands and invocation and all(p.startswith("without `") for p in invocation) and all(
            _ENVIRONMENT_FAILURE.search(f.get("error_text") or "") for f in chain["failures"]) \
            and not (chain["kind"] == "same_job" and not _same_program(compared["target"], resolved_by["target"])):
        # a host that was unreachable, a network that dropped: leaving a flag out is no answer to it; it came back
        # (not another program doing the job, the project's way: ``make realm-export`` for the ``kc.sh export`` in
        # the live container, whose second server found the management port taken)
        chain["_skip"] = "flaky_failure"
        return None
    if not fix_hunks and not commands and invocation and all(_LOCK_HELD.search(f.get("error_text") or "")
                                                             for f in chain["failures"]) and all(
            re.match(r"pass `-[\w-]*(?:lock-timeout|wait|timeout)\b", p) for p in invocation):
        # a lock another run held, waited for: ``terraform plan -lock-timeout=5m`` after "Error acquiring the state
        # lock" while the main branch's apply ran; nothing of the project's changed, the other run finished
        chain["_skip"] = "flaky_failure"
        return None
    if fix_hunks and invocation and _quoted_in(resolved_by["target"], said.get("text", "")):
        # the agent quotes the changed run as what worked: an edit of a file neither the error names nor a tool
        # reads, that shares no word with the error (``src/styles/sidebar.css``, asked for beside the build), is the
        # task's, not the fix
        # (nor the edit whose line it quotes too: "`local_files_only=True` in score.py")
        error_words = {w for w in _plain_words(error) if len(w) >= 4}
        spans = [span for span in _code_spans(said.get("text", "")) if len(span) >= 6]
        aside = [path for path in fix_hunks if not _named_in(path, error)
                 and not _CONFIG_PATH.search(path) and not _TOOL_CONFIG.search(path)
                 and not error_words & _plain_words(" ".join(_diff_text(path, h) for h in fix_hunks[path]))
                 # (however the lines align their values: ``allow_subdomains   = true`` for `allow_subdomains = true`)
                 and not any(" ".join(span.split()) in " ".join(h["new"].split())
                             and " ".join(span.split()) not in " ".join(h["old"].split())
                             for h in fix_hunks[path] for span in spans)]
        unrelated = sorted(set(unrelated) | set(aside))
        fix_hunks = {path: hunks for path, hunks in fix_hunks.items() if path not in aside}
    failed_check = parse_command(last_failure["target"])["check"]
    # ``go build ./... && go test ./...`` after ``go build ./...`` failed: the build is the check, not a step first
    # (nor the check's target run whole: ``go test ./internal/http/...`` after ``… -run TestUsers`` failed)
    # (a CI run read green has no steps before it here: ``sleep 20; gh run watch …`` waits for the run)
    # (nor a step already taken before it failed: ``rm -rf packages/*/dist`` after ``rm -rf packages/*/dist
    # apps/*/.next``)
    ran_before = [set(parse_command(segment)["argv"]) for target in chain.get("_ran_before") or ()
                  for segment in parse_command(target)["segments"]]
    prep = [] if resolved_by.get("ci") or chain["kind"] == "other_check" else [
        p for p in parse_command(resolved_by["target"])["prep"] if parse_command(p)["check"] != failed_check
        and not (command_family(p) == command_family(last_failure["target"])
                 and _same_target(last_failure["target"], p))
        and not any(set(parse_command(p)["argv"]) <= argv for argv in ran_before)
        # (nor one the failing run took too: ``npx expo prebuild --clean … && PlistBuddy -c 'Print …'`` failed and
        # passed whole, around an edit to app.json)
        and p not in parse_command(last_failure["target"])["prep"]
        # (a service started again to take up an edit to its configuration is how the change was applied:
        # ``docker compose up -d --wait && …`` after a healthcheck was added)
        and not (fix_hunks and _starts_service(p))]
    same_job = chain["kind"] == "same_job"
    # (and a test file's edit set aside as a bystander that kept the property's falsifying value out all the same:
    # ``genValue = listOf arbitraryPrintableChar`` in test/Gen.hs, no file the error names, beside ``withMaxSuccess
    # 10000`` in the spec)
    if any(path in unrelated and _TEST_PATH.search(path) and property_narrowed(hunks, error)
           for path, hunks in net_changes([e for e in chain["changes"] if e["tool"] in EDIT_TOOLS
                                           and e not in edits], cwd).items()):
        chain["_skip"] = "weakened_test"
        return None
    for path, hunks in fix_hunks.items():
        if _is_weakening(path, hunks, error) or (
                is_static_check(failure["target"]) and _silences(hunks)):
            chain["_skip"] = "weakened_test"  # (a linter or type checker told to look away is weakened the same way)
            return None
    # (or its expected value now taken from the code under test: ``provider.refreshDates(after: now)``, the session
    # having read ``TideTimelineProvider.swift``)
    # (or no longer runs that code: ``readings_hourly`` queried no more, where ``migrations/0007_readings_hourly.sql``
    # was found by a grep)
    looked_at = [o["target"] for o in chain.get("_between") or () if o["tool"] in ("Read", *EDIT_TOOLS) and o["target"]]
    looked_at += [m.group(1) for o in chain.get("_between") or () if o["tool"] == "Bash"
                  for m in re.finditer(r"(?m)^([\w./-]+\.\w+):\d+:", o.get("body") or "")]
    # (or its mock's data turned away from the API's contract the session read: ``results`` → ``items`` in an MSW
    # handler, where openapi.yaml says ``results``)
    contract = " ".join(o.get("body") or "" for o in chain.get("_between") or () if o["tool"] == "Bash"
                        and _CONTRACT_FILE.search(o["target"] or ""))
    # (or the API's schema a search showed: ``shop/api/schemas.py:27:    contact: ContactOut``)
    contract += " ".join(m.group(2) for o in chain.get("_between") or () if o["tool"] == "Bash"
                         for m in re.finditer(r"(?m)^([\w./-]+):\d+:(.*)$", o.get("body") or "")
                         if _SCHEMA_PATH.search(m.group(1)) and not _TEST_PATH.search(m.group(1)))
    # (or its data turned from the value a search on the way found the project's configuration gives: ``"version":
    # "2.0"`` → ``"1.0"`` in test/events/get-order.json, where template.yaml says ``PayloadFormatVersion: "2.0"``)
    configured = [line for o in chain.get("_between") or () if o["tool"] == "Bash" and o["outcome"] == "ok"
                  and (argv := parse_command(o["target"])["argv"])[:1] in (["grep"], ["rg"])
                  and not any(_TEST_PATH.search(w) for w in argv[1:])
                  for line in (o.get("body") or "").splitlines()]
    # (or its data rewritten where the code failed on it, as a log on the way quoted it: ``input=[1007,"Nguyen,
    # Anh",…]`` in a "Parsing error" the skip listener logged, the row's quotes and comma taken out)
    failed_on = [line for o in [failure, *(chain.get("_between") or ())] if o["tool"] == "Bash"
                 for line in ((o.get("error_text") or "") + "\n" + (o.get("body") or "")).splitlines()
                 if _FAILED_ON.search(line)]
    # (or a test double made to answer what the failing test expected, as a report read on the way said it)
    told = error + " ".join(o.get("body") or "" for o in chain.get("_between") or () if o["tool"] == "Bash")
    # (or made, in the test, a call a change to the code under test took out of it, as a diff on the way showed)
    diffs = [o.get("body") or "" for o in [*(chain.get("_before") or ()), *(chain.get("_between") or ())]
             if o["tool"] == "Bash" and "diff --git" in (o.get("body") or "")]
    if fix_hunks and (_expected_from_the_subject(fix_hunks, looked_at) or _subject_dropped(fix_hunks, looked_at)
                      or does_what_the_code_dropped(fix_hunks, diffs) or nudged_off_the_boundary(fix_hunks, error)
                      or shrinks_the_model(fix_hunks, error) or load_targets_dropped(fix_hunks, error)
                      or fuzz_seed_pinned(fix_hunks, error) or rng_swapped(fix_hunks, error)
                      or _answers_as_expected(fix_hunks, told)
                      or contract and _mock_against_the_contract(fix_hunks, contract)
                      or configured and _turned_from_the_configured(fix_hunks, configured)
                      or failed_on and _data_failed_on_rewritten(fix_hunks, failed_on)):
        chain["_skip"] = "weakened_test"
        return None
    # (a run that only left a selection out, ``-k forward_matches``, is no other way of running it)
    # (not where the user asked for the tests to run without what they needed: "Make the agent tests run without
    # Kafka", its harness rewritten to Faust's ``test_context()``)
    if fix_hunks and not commands and all(p.startswith("without `") for p in invocation) \
            and not _TESTS_WITHOUT.search(prompt_text) \
            and _made_to_agree(fix_hunks, error, [_prose(s) for s in said["all"]]):
        chain["_skip"] = "weakened_test"  # the code stayed as it was: the failing test was made to agree with it
        return None
    # (or with the data that broke it moved out of what the test reads, and the count it expects lowered to match)
    if fix_hunks and commands and all(c["tool"] == "Bash" and moves_test_data(c["target"]) for c in commands) \
            and _expects_fewer(fix_hunks, error):
        chain["_skip"] = "weakened_test"
        return None
    # (in the run that passed, not a step before it: ``terraform destroy -target=… && terraform apply …`` applied
    # the whole configuration)
    # (terraform's ``-target=module.network`` leaves out only the resources a failure in them named: not a backend
    # that was never set up)
    left_out = _DESELECTS.search(parse_command(resolved_by["target"])["check"] or resolved_by["target"])
    if left_out and not _DESELECTS.search(last_failure["target"]) and not (
            left_out.group(0).strip().startswith("-target=") and not _RESOURCE_NAMED.search(error)):
        chain["_skip"] = "weakened_test"  # it passed by leaving the failing tests out (--deselect, -k "not …")
        return None
    # (or the failing cases a property-test runner saved, to replay them: ``rm proptest-regressions/slug.txt``,
    # Hypothesis's ``.hypothesis/examples``)
    if any(re.search(r"(?:^|/)(?:proptest-regressions|\.hypothesis)(?:/|$)", path)
           for o in chain.get("_between") or () if o["tool"] == "Bash" and o["outcome"] == "ok"
           for path in removed_paths(o["target"])):
        chain["_skip"] = "weakened_test"
        return None
    if (not fix_hunks or tests_only(fix_hunks)) and any(deletes_test_rows(c["target"]) for c in commands
                                                           if c["tool"] == "Bash"):
        chain["_skip"] = "weakened_test"  # the rows that failed were deleted from the test's data
        return None
    if any(moves_test_out_of_the_suite(o["target"], error) for o in [*(chain.get("_between") or ()), resolved_by]
           if o["tool"] == "Bash" and o["outcome"] == "ok"):
        chain["_skip"] = "weakened_test"  # the failing test's file renamed to one its runner does not collect
        return None
    ran_before, ran_after = _tests_run(last_failure.get("error_text")), _tests_run(resolved_by.get("body"))
    if (ran_before and ran_after and ran_after < ran_before
            or fewer_in_a_testset(last_failure.get("error_text"), resolved_by.get("body"))) and fix_hunks \
            and command_key(resolved_by["target"]) == command_key(last_failure["target"]):
        chain["_skip"] = "weakened_test"  # the same run ran fewer tests: the failing one was taken out of it
        return None
    # (or the reference image it was compared with, named whole: ``git rm …/__Snapshots__/…/testHeader….png``)
    if any(os.path.splitext(os.path.basename(path))[0] in error and (
            _ASSERTION_FAILED.search(error) or _REFERENCE_IMAGE.search(path) and os.path.basename(path) in error)
           for path in chain.get("_removed_tests") or []):
        # the failing test's file removed (``git rm …/commonTest/…/DurationFormatterTest.kt``), wherever a copy went
        # (``androidUnitTest``, where the failing iOS target never runs it): the check no longer checks it
        chain["_skip"] = "weakened_test"
        return None
    # (or moved out of the runner's sight: ``git mv policies/required-labels/suite.yaml …/suite.yaml.pending`` after
    # ``FAIL	policies/required-labels/suite.yaml``; ``git mv test/goldens/price_card_golden_test.dart …`` after
    # flutter's ``00:03 +6 -1: /home/dev/shopfront/test/goldens/price_card_golden_test.dart: … [E]``)
    failed_files = {w.removeprefix("./") for line in error.splitlines() if re.search(r"\bFAIL|✗|✘|×|\[E\]$", line)
                    for w in re.findall(r"[\w./-]+\.\w+", line)}
    if any(f == path or f.endswith("/" + path) for f in failed_files for path in chain.get("_moved_away") or ()):
        chain["_skip"] = "weakened_test"
        return None
    if any(_TEST_PATH.search(path) for path in fix_hunks) and any(_SAID_WEAKENED.search(_prose(s)) for s in said["all"]):
        chain["_skip"] = "weakened_test"  # the agent says the test it changed checks less now
        return None
    # (and dotnet format's verdict: "error WHITESPACE: Fix whitespace formatting", as a pre-commit hook printed it)
    format_failure = re.search(r"(?i)spotless\w*Check|ktlint\w*Check|would reformat|formatting (?:violations|issues)|"
                               r"Code style issues found|not formatted|\berror (?:WHITESPACE|FINALNEWLINE|IMPORTS)\b",
                               failure.get("error_text") or "")
    if (is_static_check(failure["target"]) or format_failure) and (is_autofix(resolved_by["target"]) or
                                               any(is_autofix(c["target"]) for c in commands)):
        chain["_skip"] = "routine_plumbing"  # the linter repaired what it reported: nothing for a person to learn
        return None
    if not fix_hunks and not commands and not invocation:
        invocation = _narrowed_to_take_the_flag(compared, resolved_by) or _narrowed_as_said(compared, resolved_by,
                                                                                            account) \
            or _argument_given(compared, resolved_by) or _appended_as_said(compared, resolved_by, account)
    # a change to an excluded file (``.env.test``) is on record without its content: the fact of it is the step
    withheld = [e for e in edits if (e.get("meta") or {}).get("content_withheld") and e["id"] in final_ids]
    # (and so is an empty file written, a marker whose being there is the fix: ``src/ratpack/.ratpack``)
    withheld += [e for e in edits if e["tool"] == "Write" and e["id"] in final_ids and e not in withheld
                 and not any(new.strip() for _, new in _edit_sides(e))]
    # (not the putting back of what an attempt changed there, where the account says it did not help and was
    # reverted: "Adding `?prepared_statement_cache_size=0` to the URL in .env.test didn't help … so I reverted it";
    # "My first guess — pointing `DB_PORT` at 5432 — made no difference, so I put `.env` back the way it was")
    tried_there = {os.path.basename(f) for a in chain["attempts"] if (a.get("meta") or {}).get("content_withheld")
                   for f in a.get("files") or []}
    # (as written: the sentence read as what did not help has lost its "so I reverted it")
    as_written = re.split(r"(?<=[.!?])\s+|\n+", said.get("text") or "")
    withheld = [e for e in withheld if not any(
        name in tried_there and any(re.search(rf"(?<![\w.-]){re.escape(name)}(?![\w-])", w) and _REVERTED.search(w)
                                    and s.rstrip(" .—–-") in w for s in said["did_not_help"] for w in as_written)
        for name in {os.path.basename(f) for f in e.get("files") or []})]
    if not fix_hunks and not commands and not invocation and not prep and not same_job and not withheld:
        chain["_skip"] = "retry_without_change" if not chain["all_changes"] else "unrelated_change"
        return None
    # (and the run that printed a value the fix wrote, a checksum or an id: ``swift package compute-checksum …``
    # before the ``checksum: "e83f0a…"`` set in Package.swift)
    # (one it wrote new: not one the line had before, ``application_name=standby1`` in the ``grep -n
    # primary_conninfo conf/standby.conf`` that showed the line the edit then extended)
    written = [(e["id"], "\n".join(_added_lines(e)), "\n".join(old for old, _ in _edit_sides(e)))
               for e in edits if e["id"] in final_ids]
    # (a value, not a name of words: ``sentence-transformers/all-MiniLM-L6-v2`` in a grep's line is no id printed)
    def printed_values(o: dict) -> set[str]:
        return {value for at, text, was in written for value in _PRINTED_VALUE.findall(o.get("body") or "")
                if o["id"] < at and value in text and value not in was and not _NAMED_IN_WORDS.fullmatch(value)}

    sources = [o for o in chain.get("_between") or () if o["tool"] == "Bash" and o["outcome"] == "ok"
               and o not in commands and printed_values(o)]
    # (the first run that printed it: the vendor's ``.sha256`` fetched after ``swift package compute-checksum``
    # only agreed; and of its line, the step that printed it, not the download before it)
    # (nor the cleaning up after it: ``… && swift package compute-checksum x.zip && rm x.zip``)
    def printing_step(command: str) -> str:
        steps = _and_steps(command) or [command]
        return ([s for s in steps if not re.match(r"(?:rm|mv|cp|ls|cat|echo|mkdir|cd|touch|true|sleep)\b",
                                                  parse_command(s)["check"] or s)] or steps)[-1]

    sources = [dict(o, target=printing_step(o["target"])) for n, o in enumerate(sources)
               if not printed_values(o) <= {v for earlier in sources[:n] for v in printed_values(earlier)}]
    commands = sorted(commands + sources, key=lambda c: c["id"])
    # (a step taken twice, ``packer init .`` before the edit and again after it, is one step, where it last ran)
    commands = [c for n, c in enumerate(commands) if c["tool"] != "Bash" or not any(
        d["tool"] == "Bash" and d["target"] == c["target"] for d in commands[n + 1:])]
    # the fix, in the order a reader applies it (the session's order)
    steps: list[tuple[int, str | None, list[str]]] = []
    for c in commands:
        if _is_mcp(c):  # "MCP serena · activate_project(project=…)": the call and its arguments
            call = re.sub(r"^MCP (\S+) · ", r"\1.", c.get("summary") or c["target"])
            steps.append((c["id"], f"call `{one_line(call, 80)}` first",
                          [f"Call `{one_line(call, 160)}` before `{command}`."]))
            continue
        step = _doing_part(shown_command(c["target"], cwd))
        # (before a check; a log read back is no check to run after it)
        # (named short: the title has it whole, and the room on a card is the step's)
        before = "" if failure.get("logged") else f" before `{one_line(command, 40)}`"
        # (what it does before the variables it exports first, which a card cut to its budget would keep instead:
        # ``airflow db migrate && airflow variables import …`` with ``AIRFLOW_HOME=$PWD/.airflow`` set)
        # (a run made before, run again with what changed: ``talosctl gen config … --talos-version v1.11``, whose
        # long line a card would cut before the flag that matters)
        added = next((added for r in reversed(chain.get("_ran_before") or []) if len(step) > 80
                      and r != c["target"] and command_family(r) == command_family(c["target"])
                      and not other_subcommand(r, c["target"]) and (added := invocation_change(r, c["target"]))
                      and all(part.startswith("pass `") for part in added)), None)
        if added:
            flags = ", ".join(part.removeprefix("pass ") for part in added)
            # (``talosctl gen config``, ``java -jar bundletool-all-1.17.2.jar build-apks``: the title's room is the
            # flag's)
            argv = parse_command(step)["argv"]
            short = " ".join(os.path.basename(w) for w in argv[:4 if argv[1:2] == ["-jar"] else 3])
            steps.append((c["id"], f"rerun `{one_line(short, 40)} …` with {flags} first",
                          [f"Rerun `{one_line(step, 60)}` with {flags}{before}."]))
            continue
        parts = _and_steps(step)
        # (less a look after it: ``go run ./cmd/api openapi > api/openapi.yaml && git diff --stat`` is the generate)
        while len(parts) > 1 and re.match(r"git\s+(?:diff|log|show|status)\b|(?:ls|cat|head|tail|wc|tree|file)\b",
                                          parse_command(parts[-1])["check"] or ""):
            parts = parts[:-1]
            step = " && ".join(parts)
        exports = list(itertools.takewhile(lambda p: re.fullmatch(r"export\s+(?:\w+=\S+\s*)+", p), parts))
        if exports and len(exports) < len(parts):
            step = " && ".join(parts[len(exports):])
            setting = " ".join(e.removeprefix("export").strip() for e in exports)
            steps.append((c["id"], f"run `{one_line(step, 80)}` first",
                          [f"Run `{one_line(step, 160)}` with `{one_line(setting, 100)}` set{before}."]))
            continue
        code = _inline_code(step) if len(step) > 80 else None
        if code and len(code) <= 100 and _SETTING_STATEMENT.match(code):
            # (the statement a long line hands its client, which a card cut to its budget would lose after the
            # address: ``docker compose exec db psql -U app -d ragdocs -c "ALTER EXTENSION vector UPDATE;" …``)
            through = re.split(r"\s-(?:c|e|-command|-execute|-query)\b", step, maxsplit=1)[0]
            steps.append((c["id"], f"run `{one_line(code, 80)}` first",
                          [f"Run `{code}` (through `{one_line(through, 60)}`){before}."]))
            continue
        added_to = _manifest_lines(c, chain.get("_between") or ())
        if added_to:  # (what an install wrote into the manifest, as a ``git diff`` after it showed: the change that
            # stays, where "before the test" would read as a step to take every time)
            path, line = added_to
            steps.append((c["id"], f"run `{one_line(step, 80)}` first",
                          [f"Run `{one_line(step, 100)}`, which adds `{one_line(line, 100)}` to {path}."]))
            continue
        if len(step) > 80:  # (a server's address with its login is no part of the step's point: ``psql
            # "postgresql://…" -c 'ALTER ROLE …'``; a file's, ``zig fetch --save=zap https://…/v0.8.0.tar.gz``, is)
            step = re.sub(r"\b([a-z][a-z0-9+.-]*)://[^\s\"'/@]*@[^\s\"']+", r"\1://…", step)
            # (nor a secret's value, redacted: ``zenml secret create s3_staging_creds --aws_access_key_id=…``, where
            # the marker would take the room of the step after it)
            step = re.sub(r"\[REDACTED:[\w-]+\]", "…", step)
        # (once, where it was taken twice with another look after it: ``make manifests && git status --short``, then
        # ``make manifests && git diff --stat``)
        step = _as_said(step, said.get("text") or "")
        steps = [s for s in steps if s[1] != f"run `{one_line(step, 80)}` first"]
        steps.append((c["id"], f"run `{one_line(step, 80)}` first", [f"Run `{one_line(step, 160)}`{before}."]))
    # (of the clause that says it: not the fix quoted before a dash, "Changed it to `memory = "512Mi"` — I also wrote
    # cpu as `500m` while I was in there")
    aside_code = tuple(span for s in incidental
                       for clause in [c for c in re.split(r"\s[—–]\s|;\s", s) if _INCIDENTAL.search(c)] or [s]
                       for span in _code_spans(clause) if len(span) >= 4)
    # (and the code it quotes as the fix: "a parser with `{ parseAs: 'buffer' }` that keeps the raw body",
    # `astral-sh/setup-uv@v5`; code, not a name, `build-tools`, `stripe.webhooks.constructEvent`, nor a file's,
    # `src/routes/stripe.js`; but an option is code, `--dns01-recursive-nameservers-only`)
    told_code = tuple(span for s in said["all"] if s not in incidental for span in _code_spans(s)
                      if len(span) >= 8 and not re.fullmatch(r"(?!-)[\w.-]+|[\w./-]+\.[A-Za-z]{1,5}", span.strip()))
    told_code += elided_heads(told_code)
    # (where it quotes them as the fix: not in a sentence of what did not help, "swapping `Enum.with_index` for
    # `Enum.zip` still walks `@streams.songs`")
    told_text = " ".join(s for s in said["all"] if s not in incidental and s not in said["did_not_help"])
    # (and the keys it says a line went under: "moved the label to `spec.template.metadata.labels`")
    told_places = tuple(span for s in said["all"] if s not in incidental for span in _code_spans(s)
                        if re.fullmatch(r"[A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*){2,}", span))
    # a line a failed attempt added and the fix left in place ("The Host header I added first made no difference")
    # is shown as it stands, no part of the change
    final_lines = {l.strip() for c in chain["changes"] if c["tool"] in EDIT_TOOLS for l in _added_lines(c)}
    # (or, of the one attempt there was, every line, where the account says it left the attempt as it was: "Moving
    # it into a heredoc first made no difference; I left the heredoc since it reads better")
    tried_edits = [a for a in chain["attempts"] if a["tool"] in EDIT_TOOLS]
    left_as_tried = len(tried_edits) == 1 and any(
        _LEFT_AS_IT_WAS.search(w) for s in said["did_not_help"]
        for w in re.split(r"(?<=[.!?])\)?\s+|\n+", said.get("text") or "") if s.rstrip(" .") in w)
    helpless_lines = [l for a in tried_edits for l in _added_lines(a)
                      if l.strip() and l.strip() not in final_lines
                      and (left_as_tried or any(_relevance(s, _tokens(l)) for s in said["did_not_help"]))]
    # (and of a file a failed attempt wrote new and the fix wrote again, the lines the fix kept: ``from =
    # aws_s3_bucket.logs`` in both ``moved.tf``s, the fix the ``to = module.logging.aws_s3_bucket.this`` it changed)
    rewritten = {f for c in chain["changes"] if c["tool"] == "Write" for f in c.get("files") or []}
    rewritten_kept = [l for a in chain["attempts"] if a["tool"] == "Write" and (a.get("meta") or {}).get("type")
                      == "create" and set(a.get("files") or []) & rewritten for l in _added_lines(a)
                      if l.strip() and l.strip() not in final_lines and l.strip() not in removed]
    helpless_lines += [l for l in rewritten_kept if l not in helpless_lines]
    edit_steps = []
    for path, hunks in fix_hunks.items():
        hunks = [without_told_aside(h, incidental) for h in hunks]
        hunks = [dict(h, old=h["old"] + "\n" + "\n".join(l for l in helpless_lines if l in h["new"]))
                 if any(l in h["new"] for l in helpless_lines) else h for h in hunks]
        # (of a file's hunks, the one holding the code the account quotes names the step: the healthcheck added
        # first is no `condition: service_healthy`)
        # (a span over several lines of it, as one: "`@Binds @Singleton abstract fun bindNotesRepository(…)`"; where
        # the account quotes it first, an elided one by its head: "`export const chartColors = [...]`")
        held = [[span for span in told_code if " ".join(span.split()) in " ".join(h["new"].split())] for h in hunks]
        told_at = [min((at for span in spans if (at := told_text.find(span)) >= 0), default=len(told_text))
                   if spans else len(told_text) + 1 for spans in held]
        named = next((h for h, spans in zip(hunks, held) if spans), None)
        # (else the code before the imports it needs: ``GlanceModifier.fillMaxSize()``, not ``add `Glance```)
        code = next((h for h in hunks if not _imports_only(h)), hunks[0])
        # (and the code before a test of it: the service's ``isPlatformBrowser(this.platformId)`` guard titles the
        # lesson, not the spec's ``TestBed.overrideProvider(PLATFORM_ID, …)`` added to cover it)
        # (of files the account quotes, the one it quotes first: the binding it added before the constructor that
        # let Hilt build what it binds, edited first)
        # (and a long file written whole after the edit that puts it to use, which a card cut to its budget would
        # lose behind it: ``.AddEndpointFilter<ValidationFilter<CreateCustomerRequest>>()`` before ValidationFilter.cs)
        written_long = not any(h["old"].strip() for h in hunks) and sum(len(h["new"].splitlines()) for h in hunks) > 8
        edit_steps.append((named is None or bool(_TEST_PATH.search(path)), written_long, min(told_at),
                           min(h["ids"][-1] for h in hunks),
                           f"{_short_diff(named or code, aside_code, told_code, told_places)} in {path}",
                           [_diff_text(path, h) for h in shown_hunks(hunks)]))
    # (the file whose line the account quotes first, in the places the edits had among the other steps: "`definitions
    # .py`: resources back to `"warehouse": DuckDBResource(…)`" before the parameter renamed to match it)
    steps += [(at, part, lines) for at, (*_, part, lines) in zip(sorted(e[3] for e in edit_steps),
                                                                 sorted(edit_steps, key=lambda e: e[:4]))]
    told_in_change: list[str] = []
    told_paths: set[str] = set()
    sentences = _sentences(said.get("text") or "") if withheld else []
    led = _led_in(sentences)
    for e in withheld:
        path = _rel((e.get("files") or [e.get("target") or ""])[0], cwd)
        if path in told_paths:
            continue  # (edited twice, said once: "Changed `.env` …" for the file, not each edit)
        told_paths.add(path)
        if not (e.get("meta") or {}).get("content_withheld"):  # (an empty file written: the file is the step)
            steps.append((e["id"], f"create the empty {path}", [f"Created the empty file `{path}`."]))
            continue
        name = os.path.basename(path)
        # (what the agent says it changed there, quoted: "Appended `?sslmode=require` to `DATABASE_URL` in `.env`")
        # (or the line of the account that names the file beside what it quotes: "- `.env`: `TRUSTED_PROXIES=…` (…)")
        # (or a list's item under the line that names it: "Changes (all in `.env`):" then "- `DATABASE_ADAPTER=
        # postgresql` and …"; not its cause, under its label: "Cause: `.env` still had `DATABASE_ADAPTER=mysql2`")
        items = [item for whole in led for lead in sentences if lead.rstrip().endswith(":")
                 and whole.startswith(lead + " ") and (item := whole[len(lead) + 1:])
                 and re.search(rf"(?<![\w.-]){re.escape(name)}(?![\w-])", lead)]
        naming = [s for s in said["fix"] + [s for s in said["all"] if s not in said["fix"]]
                  if (s in items or re.search(rf"(?<![\w.-]){re.escape(name)}(?![\w-])", s))
                  and not re.match(r"\W*(?:root )?cause\b[^:]{0,20}:", s, re.I)
                  and any(span.strip() not in (path, name) for span in _code_spans(s))]
        told = re.split(r";\s+", naming[0])[0].rstrip(".") if naming else None
        # (not one another file's change holds: "pointed the datasource at it with `shadowDatabaseUrl = env(…)` in
        # `prisma/schema.prisma`", beside the `.env` it set)
        value = next((span for span in _code_spans(told or "") if "=" in span and len(span) <= 80
                      and span.strip() not in (path, name)
                      and not any(span.strip() in h["new"] for hunks in fix_hunks.values() for h in hunks)), None)
        # (or, named nowhere with the file, the setting the account quotes that a run on the way set the same way:
        # `SNOWFLAKE_ACCOUNT=xy12345.eu-central-1`, tried as ``SNOWFLAKE_ACCOUNT=xy12345.eu-central-1 uv run …``)
        ran = chain.get("_ran_between") or []
        value = value or (None if naming else next(
            (span for span in _code_spans(said.get("text") or "")
             if re.fullmatch(r"[A-Z][A-Z0-9_]*=[^\s`]{1,80}", span)
             and any(re.search(rf"(?:^|\s){re.escape(span)}(?:\s|$)", run) for run in ran)), None))
        # (from what was done, not who did it: "…, so I appended `?ssl_cert_reqs=…`" → "Appended `?ssl_cert_reqs=…`";
        # "…, so I set `SHADOW_DATABASE_URL` in `.env`" → "Set …")
        told = re.sub(r"^(?:.*?,?\s+(?:so|and|then)\s+)?I\s+(?=[a-z]+ed\b|(?:set|put|made|wrote|ran|kept|let)\b)", "",
                      told) if told else None
        # (without the file's name as its label, or why, in brackets: the card has room for what was set)
        # (by its path too: "- `fastlane/.env.local`: added `ASC_KEY_IS_BASE64=true`.")
        told = re.sub(rf"^`?(?:{re.escape(path)}|{re.escape(name)})`?:\s*|\s*\([^()]*\)$", "", told) if told else None
        told = told[:1].upper() + told[1:] if told else None
        told_in_change += [told] if told else []
        # (said briefly: a card has room for what the agent says was set; the setting first where that is all it
        # says, "added `ASC_KEY_IS_BASE64=true`")
        line = f"Changed `{path}` (excluded: not stored)" + (f"; the agent says: {told}." if told else ".")
        # (or, after its label, that the file now sets it: "Fix: `.env.defaults` now sets `…` (the same value …")
        if value and told and re.fullmatch(rf"(?i)(?:(?:Fix|Change)\s*:\s*)?(?:`?{re.escape(path)}`?\s+)?(?:now\s+)?"
                                           rf"(?:added|set|sets|put|wrote)\s+`{re.escape(value)}`"
                                           rf"(?:\s+\([^()]*\)?)?\.?", told.strip()):
            line = f"Set `{value}` in `{path}`, as the agent says (excluded: not stored)."
        steps.append((e["id"], f"set `{value}` in {path}" if value else f"change {path}", [line]))
    last = resolved_by["id"]
    for step in prep if not (same_job or invocation) else []:  # else the passing line, shown whole, holds them
        steps.append((last, f"run `{one_line(step, 80)}` first", []))
    # (or the way that got past the error, to fail otherwise: ``pod update …`` for ``pod install``)
    passing = one_line(shown_command(resolved_by["target"], cwd), 140) if resolved_by["outcome"] == "ok" or \
        chain["kind"] in ("error_changed", "same_job") else command
    if same_job:
        # (less the clearing away of what the failing way left behind: ``rm -rf linuxdeploy-x86_64.AppImage AppDir &&
        # ./scripts/build-appimage.sh`` is the script)
        way = _and_steps(resolved_by["target"])
        ran = (*(chain.get("_ran_before") or ()), *(chain.get("_ran_between") or ()))
        while len(way) > 1 and _takes_away(way[0], [], cwd, ran):
            way = way[1:]
        if len(way) < len(_and_steps(resolved_by["target"])):
            passing = one_line(shown_command(" && ".join(way), cwd), 140)
        passing = _as_said(passing, said.get("text") or "")
        # and the run the account names after it, in one breath ("`rush install` at the root, then `rush build --to
        # @acme/web`"): the rest of the way
        passing_argv = parse_command(resolved_by["target"])["argv"]
        then = next((shown_command(o["target"], cwd) for o in chain.get("_after") or () for s in said["all"]
                     if _names_run(passing_argv, s) and _names_run(parse_command(o["target"])["argv"], s)
                     and command_key(o["target"]) != command_key(resolved_by["target"])), None)
        then = f"; then `{one_line(then, 100)}`" if then else ""
        # (what its recipe runs first with the failing program, as make echoed it: ``godot --headless --import``
        # before the GUT run that could not resolve a class)
        failed_argv = parse_command(failure["target"])["argv"]
        first = next(iter(_echoed(resolved_by)), "") if os.path.basename(
            (resolved_by["target"].split() or [""])[0]) in ("make", "just") else ""
        first_argv = parse_command(first)["argv"] if first else []
        recipe = f"; its recipe runs `{one_line(first, 80)}` first" if first_argv and failed_argv and _program_name(
            first_argv[0]) == _program_name(failed_argv[0]) and first_argv != failed_argv else ""
        # (and a run an error on the way said to make first: "Run `tuist install` before you continue" of the ``tuist
        # test`` that then passed)
        between = chain.get("_between") or []
        failed = chain["failures"] + [o for o in between if o["tool"] == "Bash" and o["outcome"] == "error"]
        told_first = list(dict.fromkeys(
            one_line(shown_command(o["target"], cwd), 80) for o in between
            if o["tool"] == "Bash" and o["outcome"] == "ok" and o["id"] < resolved_by["id"]
            and any(f["id"] < o["id"] and _step_named_by_error(o["target"], f) for f in failed)))
        # (an image it runs in named first, which a long line of mounts would cut: ``electronuserland/builder:wine``)
        image = (container_run(resolved_by["target"]) or [None, None])[1]
        rest = f"(this project's way to do it{recipe}), not `{command}`{then}."
        if told_first:
            steps.append((last, f"use `{passing}` instead",
                          [f"Run `{'`, `'.join(told_first)}` first, then `{passing}` {rest}"]))
        elif image and image not in failure["target"]:
            steps.append((last, f"run it in `{image}`", [f"Run it in the `{image}` image: `{passing}` {rest}"]))
        else:
            steps.append((last, f"use `{passing}` instead", [f"Run `{passing}` {rest}"]))
    elif invocation:  # the title says what changed ("set PYTHONPATH=src"); the change shows the whole line
        # what changed first, so a card cut to its budget still shows it: "Pass `-DCMAKE_TOOLCHAIN_FILE=…`: `cmake …`"
        # (and a step the passing line took before it, named too: ``airflow db migrate`` in ``export
        # AIRFLOW_HOME=… && airflow db migrate && pytest tests/dags``, where a card cut to its budget loses the line)
        changed_run = "; ".join(_passed_together(invocation, resolved_by["target"])
                                + [f"run `{one_line(step, 80)}` first" for step in prep])
        # (and the file of settings a read on the way found the variables it sets in, its output shown or, an
        # environment file withheld by the capture hook, named by the account: ``cat .env.android.local`` before
        # ``GODOT_ANDROID_KEYSTORE_RELEASE_PASSWORD=… godot --export-release …``)
        named = [m.group(1) for p in invocation if (m := re.match(r"set `([A-Za-z_]\w*)=", p))]
        kept_in = next((argv[-1] for o in chain.get("_between") or () if named and o["tool"] == "Bash"
                        and o["outcome"] == "ok" and (argv := parse_command(o["target"])["argv"])
                        and argv[0] in ("cat", "head", "grep", "less", "bat") and "." in os.path.basename(argv[-1])
                        and (all(re.search(rf"(?m)^\s*(?:export\s+)?{name}=", o.get("body") or "") for name in named)
                             or (o.get("body") or "").startswith("[output not stored")
                             and re.search(r"(?:^|\.)env(?:$|\.)", os.path.basename(argv[-1]))
                             and os.path.basename(argv[-1]) in (said.get("text") or ""))),
                       None)
        kept_in = f" (the values are in `{kept_in}`)" if kept_in else ""
        steps.append((last, changed_run, [f"{changed_run[:1].upper()}{changed_run[1:]}{kept_in}: `{passing}`."]))
    elif prep:
        steps.append((last, None, [f"$ {one_line(resolved_by['target'], 160)}"]))
    steps.sort(key=lambda step: step[0])
    # (the part holding the code the account quotes as the fix before a step that only made way for it, on the card
    # as in the title: ``ENV SQLX_OFFLINE=true`` in the Dockerfile, not the ``cargo install sqlx-cli …`` before it;
    # nor a file whose content is not stored: ``shadowDatabaseUrl = env(…)`` in schema.prisma before "change .env")
    # (of steps run, the one the account quotes whole before one it never quotes: ``go env -w GOPRIVATE='…'`` in
    # the passing line, before the ``git config … insteadOf`` it ran first)
    def quoted_run(step: tuple) -> bool:
        ran = step[1][len("run `"):-len("` first")] if step[1] else " ".join(step[2]).removeprefix("$ ")
        return any(ran.startswith(span.strip()) or f"&& {span.strip()}" in ran for span in told_code if len(span) >= 12)

    if not same_job and steps and (steps[0][1] or "").startswith(("run `", "change ")):
        # (or its start, where the part cut it: "add `azure.workload.identity/…` under
        # `spec.template.metadata.labels`")
        steps.sort(key=lambda step: not (step[1] and not step[1].startswith(("run `", "change ")) and any(
            span[:24] in step[1] or any(span.startswith(cut) for cut in re.findall(r"`([^`]{16,})…`", step[1]))
            for span in told_code)))
        if (steps[0][1] or "").startswith("run `") and not quoted_run(steps[0]) \
                and all((part or "").startswith("run `") or not part and lines[0].startswith("$ ")
                        for _, part, lines in steps):
            steps.sort(key=lambda step: not quoted_run(step))
    # (what the fix wrote titles it before the run that printed it)
    printed = {o["id"] for o in sources}
    fix_parts = [part for _, part, _ in sorted(steps, key=lambda step: step[0] in printed) if part]
    change_lines = [line for _, _, lines in steps for line in lines]
    # attempts that did not help: one evidence line each, never part of the change
    tried: list[str] = []
    # (an edit put back since is an attempt when the agent says what it added did not help: "`session.flush()`
    # before leaving the block — didn't help … reverted")
    said_tried = [span for s in said["did_not_help"] for span in _code_spans(s) if len(span) >= 4]
    for attempt in chain["attempts"]:
        if attempt not in edits and not (attempt["tool"] in EDIT_TOOLS and any(
                span in line for line in _added_lines(attempt) for span in said_tried)) \
                or attempt in not_enough or _got_further(attempt, chain["failures"], net, cwd):
            continue
        tried += _tried_edit(attempt, cwd, "still failed", kept=rewritten_kept)
    for attempt in helpless_edits:
        tried += _tried_edit(attempt, cwd, "made no difference")
    for a in [*chain["attempts"], *helpless_steps]:
        if a["tool"] == "Bash":
            tried.append(f"tried `{one_line(command_key(a['target']), 80)}`: still failed")
    for f in chain["failures"][1:]:
        if command_key(f["target"]) != command_key(failure["target"]) and not f.get("logged"):  # (a log read again)
            # (the same command run another way is named by what was different: "tried to pass `--force` (`helm
            # upgrade`", not a long command a card cuts before its difference)
            other = invocation_change(failure["target"], f["target"])
            if other and all(part in moved_on for part in other):
                continue  # (a step of the fix, not an attempt: the passing line keeps it)
            if other and resolved_by["outcome"] == "ok" and all(
                    p.startswith("set `") and "=" in p and all(
                        len(word) >= 3 and word in resolved_by["target"]
                        for word in p[len("set `"):-1].replace("'", "").replace('"', "").split("=", 1))
                    for p in other):
                continue  # (what it set is in the line that passed: ``go env -w GOPRIVATE='…' && go build``)
            family = command_family(f["target"])
            verb = "it" if other and other[0].startswith("without ") else "to"  # ("tried it without `--select`")
            tried.append(f"tried {verb} {'; '.join(other)} (`{family}`): still failed"
                         if other and family and family == command_family(failure["target"])
                         and not other_subcommand(failure["target"], f["target"]) and len("; ".join(other)) <= 60
                         else f"tried `{one_line(shown_command(f['target'], cwd), 100)}`: still failed")
    error_after = one_line(_raw_error_line(last_failure) or "", 70)
    tried = [f"{t} with {error_after}" if error_after and t.endswith("still failed") else t
             for t in dict.fromkeys(tried)]
    # what the agent and the user said about this problem
    fix_words = fix_words_of(chain, cwd, edits)
    problem_words = _tokens(" ".join([command, shown or ""]))
    # (and the names inside a dotted or dashed one: "no Testcontainers on its classpath" is about
    # ``org.testcontainers.containers``)
    problem_words |= {part for w in problem_words for part in re.split(r"[/.@:_-]", w) if len(part) >= 6} - _STOP
    rivals = chain.get("_rivals") or []

    def score(sentence: str) -> int:
        return 3 * _relevance(sentence, fix_words) + _relevance(sentence, problem_words)

    def mine(sentence: str) -> bool:
        own = _relevance(sentence, fix_words)
        return score(sentence) > 0 and not any(_relevance(sentence, other) > own for other in rivals)

    def off_topic(sentence: str) -> bool:
        """Whether ``sentence`` sets other failures aside ("… just my environment, not part of the problem"), or,
        where the session solved other problems too, shares only a word of the command with this one ("Subnet IDs
        don't exist until apply, so OpenTofu can't know the instance keys at plan time" is the for_each problem's,
        not the one of ``tofu plan`` without credentials)."""
        return bool(_SET_ASIDE.search(sentence)) or bool(rivals) \
            and not _relevance(sentence, fix_words - problem_words) and _relevance(sentence, problem_words) < 2

    # a sentence about an edit that is not part of the fix ("Renamed MB to MEGABYTE.") is no account of it
    # (nor an edit put back since: "`session.flush()` … didn't help; reverted" was an attempt at this problem)
    undone = {path for path, hunks in chain_net.items() if not hunks}
    aside = [e for e in chain["all_changes"] if e["tool"] in EDIT_TOOLS and e not in edits
             and not {_rel(f, cwd) for f in e.get("files") or []} <= undone]
    aside_words = _tokens(" ".join([_changed_text(e) for e in aside] +
                                   [os.path.basename(f) for e in aside for f in e.get("files") or []]))
    known = fix_words | problem_words
    aside_words -= known | {part for w in known for part in re.split(r"[/.@:_-]", w) if len(part) >= 3}
    # (or that names its file and no file of the fix: "Also fixed a spelling mistake in the Billing::Customer POD.")
    aside_paths = [_rel(f, cwd) for e in aside for f in e.get("files") or []]
    fix_paths = [_rel(f, cwd) for e in edits for f in e.get("files") or []]
    if aside_words:
        said = {key: [s for s in value if (not _relevance(s, aside_words)
                                           or _relevance(s, aside_words) < _relevance(s, fix_words))
                      and not (any(_named_in(p, s) for p in aside_paths) and not any(_named_in(p, s) for p in fix_paths))]
                if isinstance(value, list) else value for key, value in said.items()}
    # (the outcome announced, quoting no code but the runs, is no account of the problem or its fix: "Fixed —
    # `docker build -t ledger-api .` now succeeds with no database anywhere in sight")
    checks = (failure["target"], resolved_by.get("target") or "")
    said = {key: [s for s in value if not (_ANNOUNCED.match(s) and all(any(span in run for run in checks)
                                                                       for span in _code_spans(s)))]
            if isinstance(value, list) else value for key, value in said.items()}
    # (not one that sets other failures aside: "The offline run … that failed along the way were just my environment
    # …, not part of the problem.")
    causes = [s for s in said["cause"] if mine(s) and not off_topic(s)]
    # a sentence about what the task wrote before the failure ("Added `tests/test-honeypot.php`; it passes.") is no
    # account of the fix
    task_words = _tokens(" ".join(f"{os.path.basename(f)} {_rel(f, cwd)}" for f in chain.get("_earlier_files") or ())
                         + " " + chain.get("_earlier_text", ""))  # (and what it wrote: "`req.parameters.get`")
    own_fix_words = fix_words - problem_words  # (the test file a check runs is the check's, not the fix's)
    task_words -= own_fix_words
    said_fixes = [s for s in said["fix"] if not _relevance(s, task_words) > _relevance(s, own_fix_words)
                  and not _problem_statement(s) and not _announces_the_task(s, chain, cwd)]
    fixes = [s for s in said_fixes if mine(s) and s not in causes and not off_topic(s)]
    # (the user asked for more after this problem was solved, or the work went on to other files: the final message
    # speaks of that, not of this one; a real session's "I've added the future test improvements to TODO.md" was a
    # pytest fix's account)
    asked_since = bool(resolved_by.get("created_at")) and any(
        (p.get("created_at") or "") > resolved_by["created_at"] for p in prompts)
    later_files = {os.path.basename(f) for e in chain.get("_later_edits") or () for f in e.get("files") or ()}

    def of_later_work(sentence: str) -> bool:
        return any(re.search(rf"(?<![\w.-]){re.escape(name)}(?![\w-])", sentence) for name in later_files)

    if not causes and not fixes and not rivals and len(said["cause"] + said["fix"]) <= 2 and not asked_since \
            and not any(mine(s) for s in said["all"] if s not in said["did_not_help"] and not _INCIDENTAL.search(s)):
        # one problem, one account: it is about this one (unless another sentence speaks of its words: "Debezium 2.x
        # dropped `database.server.name` in favour of `topic.prefix`", not "Connector and its task are RUNNING.")
        causes, fixes = ([s for s in said["cause"] if not of_later_work(s)],
                         [s for s in said_fixes if not of_later_work(s)])
    if not fixes and resolved_by is not failure:
        # the sentence that quotes the passing run is the account of the fix, cue word or not
        passing = parse_command(resolved_by["target"])["argv"]
        fixes = [s for s in said["all"] if s not in causes and s not in said["did_not_help"]
                 and _relevance(s, fix_words) >= 2 and _names_run(passing, s)][:1]
    # the user's suspicion, when it is about this problem (the only one, or one it names)
    # (not one that only counts the problems: "I think there are two different failures")
    # (nor one the agent's account denies: "I think something's broken in Get-ConfigPath" beside "Nothing is broken
    # in Get-ConfigPath")
    denials = [_tokens(t) for t in _sentences(said.get("text") or "") if _DENIED.search(t)]
    user_causes = [s for p in prompts for s in _sentences(p["text"])
                   if _USER_CAUSE.search(s) and (not rivals or mine(s)) and not _COUNTS_PROBLEMS.search(s)
                   and not any({w for w in _tokens(s) if len(w) >= 5} & denied for denied in denials)]
    if not causes and not fixes:  # no cue words: the agent's sentence about this problem still says it best
        best = sorted((s for s in said["all"] if mine(s) and s not in said["did_not_help"]
                       and not _INCIDENTAL.search(s) and not _FLAKY.search(s) and not off_topic(s)),
                      key=lambda s: -score(s))[:1]
        # (as what was done, when the user said why: "read_header now memcpy's the length field" after "it's the
        # unaligned uint32_t read")
        causes, fixes = ([], best) if user_causes else (best, fixes)
    # (where the session solved several problems and what was picked names nothing of this fix but the failing run's
    # words, or more of another fix, while a sentence names its own code and nothing of the others': that one is its
    # account — "It's now `from datadog_checks.base import AgentCheck`", not "Run it as the agent user: `sudo -u
    # dd-agent -- …`" of the run the other fix changed)
    exclusive = fix_words - problem_words

    def leans_away(sentence: str) -> bool:  # (it says more of another fix than of what only this one changed)
        return any(_relevance(sentence, other) > _relevance(sentence, exclusive) for other in rivals)

    if rivals and exclusive and all(leans_away(s) or not _relevance(s, exclusive) for s in causes + fixes):
        own = sorted((s for s in said["all"] if s not in said["did_not_help"] and _relevance(s, exclusive)
                      and not leans_away(s) and not any(_relevance(s, other - fix_words) for other in rivals)),
                     key=lambda s: -score(s))
        causes, fixes = ([], own[:1]) if own else (causes, fixes)
    # the cause the agent labels as such ("**Cause:** `jest.config.ts` sets `testEnvironment: 'jsdom'` …"), when the
    # session solved one problem, is this one's, whatever words it shares with the change
    labelled = [s for s in said["cause"] if not rivals and _CAUSE_LABEL.match(s)]
    causes = labelled + [s for s in causes if s not in labelled] if len(labelled) == 1 else causes
    # (a sentence in brackets whole is by the by: "(The old code worked because …)" after the cause itself)
    # (and one told right after an attempt that did not help says why that attempt failed: "My first try,
    # `@Transactional(readOnly = true)` on the private `loadOrder`, did nothing: Spring's proxy never intercepts …")
    def after_attempt(s: str) -> bool:
        at = said["all"].index(s) if s in said["all"] else 0
        return at > 0 and said["all"][at - 1] in said["did_not_help"]

    causes.sort(key=lambda s: (s not in labelled, bool(re.fullmatch(r"\(.*\)\W*", s)), after_attempt(s), -score(s)))
    # (one that points back, "That's why Gradle couldn't find `cordova.variables.gradle`.", by the sentence it points
    # to: "The Gradle project depends on files Capacitor generates: … are gitignored, so a fresh clone has nothing")
    at = said["all"].index(causes[0]) if causes and causes[0] in said["all"] else 0
    if at and re.match(r"(?i)(?:that|this)(?:'s| is| was) (?:why|the reason)\b", causes[0]) \
            and said["all"][at - 1] not in said["did_not_help"] + said["decision"]:
        causes[0] = said["all"][at - 1]
    fixes.sort(key=lambda s: (not _KEY_FIX.search(s), -score(s)))  # (the step the agent marks as what mattered first)
    if fixes and not causes:  # "- The producer sends plain JSON, but the converter expected X. Set `…` in …": the
        # cause the agent gave just before its account of this fix, about no other problem
        at = said["all"].index(fixes[0]) if fixes[0] in said["all"] else 0
        before = said["all"][at - 1] if at else ""
        # (or one with no cue word, about this fix's code: "`react-native-mmkv` ships untranspiled ES modules, and
        # `transformIgnorePatterns` … only let `react-native` … through Babel", before "I added it to that pattern")
        if (before in said["cause"] or before and before not in said["fix"] + said["did_not_help"] + said["decision"]
                and _relevance(before, fix_words) >= 2 and "`" in before) \
                and not any(_relevance(before, other) for other in rivals):
            causes = [before]
    # the agent naming a step of the fix as the project's way ("changes are created with `sqitch add …`") says it best
    ran = [parse_command(c["target"])["argv"] for c in commands if c["tool"] == "Bash"]
    if same_job:
        ran.append(parse_command(resolved_by["target"])["argv"])
    way = [s for s in _way_sentences(said.get("text") or "") if s not in causes and any(
        len(argv) > 1 and _names_run(argv, s) for argv in ran)]
    fixes = way[:1] + [s for s in fixes if s not in way[:1]]
    if same_job:  # the way the job is done is the lesson: not a sentence quoting the task's own code
        passing_argv = parse_command(resolved_by["target"])["argv"]
        fixes = [s for s in fixes if _names_run(passing_argv, s) or "`" not in s]
    if withheld:  # the change's content is not stored: the agent's line about that file is the only account of it
        names = {os.path.basename(_rel((e.get("files") or [""])[0], cwd)) for e in withheld}
        told = [re.sub(r"^\s*(?:[-*>]|\d+\.)\s*", "", line).replace("**", "").strip()
                for line in (said.get("text") or "").splitlines()
                if any(n and n in line for n in names) and len(line.split()) >= 4]
        # (of a paragraph, from the sentence that names it: "Inside the api container … I changed the host in
        # `.env` …")
        told = [" ".join(_from_first(_sentences(t), lambda s: any(n and n in s for n in names))) or t for t in told]
        # (less the cause it holds, already said: "Tests had no DSN: … Added `X=…` to `.env.test`.")
        told = [functools.reduce(lambda t, c: t.replace(c, ""), causes, t).strip() for t in told[:1]]
        # (not when the change already gives it as the agent's account: once is enough on a card)
        told = [t for t in told if not (_code_spans(t) and all(any(span in c for c in told_in_change)
                                                               for span in _code_spans(t) if span not in names))]
        fixes = [t for t in told if t] + [f for f in fixes if not any(f in t for t in told)]
    words = fix_words | problem_words
    attempt_words = _tokens(" ".join(tried)) | set(re.findall(r"\d+(?:\.\d+)+", " ".join(tried)))
    # (of this lesson, not another's: "The test `setUp` now calls `SharedPreferences.setMockInitialValues({});`
    # (`flutter clean` didn't change anything)" beside the APK's minSdkVersion)
    helpless = [s for s in said["did_not_help"]
                if (_relevance(s, words | attempt_words) or set(re.findall(r"\d+(?:\.\d+)+", s)) & attempt_words)
                and not any(_relevance(s, other) > _relevance(s, words | attempt_words) for other in rivals)]
    if not causes and user_causes:  # the agent only said what it did: the user's report says why
        # (why, before what it started with: "…, so the adapters registered in main() don't exist there" before
        # "Since we moved sync into a WorkManager background task it crashes")
        user_causes.sort(key=lambda s: bool(re.match(r"(?i)since\b", s)))
        causes = [_users_diagnosis(user_causes[0])]
    # (a sentence that reads as an order to a later session, "From now on register with `prefect deploy`", would have
    # the lesson quarantined: the others say it, and the change shows the way)
    causes, fixes = ([s for s in said_now if not steering_reasons(s)] for said_now in (causes, fixes))
    # (less a cause's clause about what was tried, which the card's line of what did not help says: "Your global GHC
    # is 9.8.2, which ledger-sync's `base <4.19` bound rejects; forcing it with `--allow-newer=base` only gets as far
    # as postgresql-libpq")
    tried_code = {span for t in tried for span in _code_spans(t) if re.search(r"[-=/.:]", span)}
    tried_code |= {span.split("=", 1)[0] for span in tried_code if re.match(r"[A-Z_][A-Z0-9_]*=", span)}
    causes = [_before_clause_naming(s, tried_code) for s in causes]
    summary_parts = (causes[:1] + fixes[:1]) if causes else fixes[:2]
    if withheld and causes and fixes:  # the change shows no content: the agent's line about it goes first
        summary_parts.reverse()
    # (its "Cause:" and "Fix:" labels are the card's own: "Cause and fix: Cause: …" says it twice)
    summary_parts = [_unlabelled(p).rstrip(" :") for p in summary_parts]  # (a sentence that led into a list ends)
    # (said impersonally, as a lesson reads: "Added `#[pyo3(signature = …)]` so …", not "I added …")
    summary_parts = [re.sub(r"^(?:I|We) (?:then |also |just )?([a-z]+ed|made|put|set|took|ran|wrote|gave|built)\b",
                            lambda m: m.group(1)[:1].upper() + m.group(1)[1:], p) for p in summary_parts]
    # (and after the cause it follows, as what to do: "`elm install` needs an interactive yes, so I added `…` to the
    # direct dependencies" → "…, so add `…`")
    summary_parts = [re.sub(r"(,\s+(?:so|and)\s+)(?:I|we)\s+(?:then\s+|just\s+)?([a-z]+ed|set)\b",
                            lambda m: m.group(1) + _PAST[m.group(2)] if m.group(2) in _PAST else m.group(0), p)
                     for p in summary_parts]
    # (and without a day that is only the session's: "Yesterday's cleanup moved the `.env` files" is "The recent
    # cleanup …" when the lesson is read a month later)
    summary_parts = [_RELATIVE_DAY.sub(lambda m: ("The" if m.group(0)[0].isupper() else "the") + " recent", p)
                     for p in summary_parts]
    # (a clause of the other part, once: "… so a plain `pod install` refused" in "…refused; `pod update` … is the
    # right command")
    summary_parts = [p for p in summary_parts if not any(len(q) > len(p) and p.rstrip(". ") in q
                                                         for q in summary_parts)]
    if helpless and summary_parts and helpless[0] not in summary_parts:  # what did not help is part of the lesson:
        # the next session skips it (less how the session undid it: "Bumping … only bought ~20k more tokens, so I put
        # it back to 0.90"; not of a sentence that is the session's story throughout, "I tried that, it changed
        # nothing, and I reverted it")
        summary_parts.append(helpless[0] if re.match(r"(?:I|We)\b", helpless[0]) else re.sub(
            r",?\s+(?:so|and)\s+(?:I|we)\s+(?:put|reverted|undid|backed|rolled|took|set)\b[^`]*$", ".", helpless[0]))
    # (a part that ends in code or a bracket, a list item's "`dbname=postgres` added to `primary_conninfo` (the sync
    # worker needs …)", ends its sentence too)
    summary = " ".join(p if re.search(r"(?:[.!?。！？'\"]|[.!?]\))$", p) else p + "." for p in summary_parts) \
        if summary_parts else (
        f"`{command}` failed" + (f" with {shown}" if shown else "") + "; " + "; ".join(fix_parts[:2]) + ".")
    readable = re.sub(r"^FAILED \S+ - |\s*\((?:/|[A-Z]:\\)[^)]*\)|^Caused by:\s+|^e:\s+(?:file://)?\S+:\d+:\d+\s+|^\S+:\d+:\d+: [CWEF]: ", "",
                      LOG_STAMP.sub("", shown or ""))
    # (a CI run read back is named by its job, not by the command that read it: ``gh run view 938 --log-failed``)
    # (too long to show whole, without the variables set before it: ``DATABASE_URL='postgresql://…' npx prisma …``)
    named = command if len(failing_key) <= 120 else one_line(without_env(failing_key), 120)
    failing = (f"CI job `{failure['ci_job']}`" if failure.get("ci_job") else "The CI run") if failure.get("ci") \
        else f"`{named}`"
    problem = f"{failing} fails" + (f" with {one_line(readable, 200)}" if readable else "")
    if failure.get("empty_answer"):  # (a request answered with nothing, later with something: what it asked)
        problem = f"{failing} answers with nothing"
    if failure.get("log_of") and readable:  # (a log read back is named by what it is the log of: `api`, `logs/dev.log`)
        log = failure["log_of"]
        problem = f"`{log}` {'shows' if _LOG_FILE.search(log) else 'logs'} {one_line(readable, 200)}"
    # (the project's way titles a lesson before a step taken on the way to it: ``docker compose up -d kafka``; the
    # code the account quotes before a step that made way for it, as ordered above: the ``"build:preload": "esbuild
    # src/preload.js --bundle …`` script, not the ``npm i -D esbuild`` before it)
    fix_title = _fix_title(sorted(fix_parts, key=lambda part: not part.startswith("use `")) if same_job else fix_parts)
    said_fix = _stated_fix_clause(fixes, fix_words)
    # (so for a step that fixed it with no edit: "Added `AvatarList` using `expo-image`" is the task, the fix
    # ``npx expo install expo-image``)
    runs = [resolved_by["target"]] + [c["target"] for c in commands if c["tool"] == "Bash" and not fix_hunks]
    if (same_job or commands and not fix_hunks) and said_fix \
            and not any(_names_run(parse_command(run)["argv"], said_fix) for run in runs):
        said_fix = None  # "Added `empty-cart-total-is-zero`": the task's edit, not the way that passed
    title = lesson_title(problem, said_fix or fix_title)
    change = "\n".join(change_lines)
    evidence = [{"quote": shown or one_line(failure.get("summary"), 160),
                 "source": f"observation {failure['id']}",
                 "observation_id": failure["id"]}]
    attempt_sources = [a["id"] for a in chain["attempts"]] or [f["id"] for f in chain["failures"][1:]]
    for line in tried[:3]:
        entry = {"quote": line, "source": "an attempt in this session"}
        if attempt_sources:
            entry["observation_id"] = attempt_sources[0]
        evidence.append(entry)
    for sentence in helpless[:0 if tried else 1]:
        evidence.append({"quote": sentence, "source": "the agent's final message"})
    # (not the user's report of the failing run itself: "`npx serverless offline` doesn't work")
    for sentence in [s for p in prompts for s in _sentences(p["text"])
                     if _DID_NOT_HELP.search(s) and (not rivals or mine(s)) and not (_code_spans(s) and all(
                         " ".join(span.split()) in " ".join(f["target"].split()) for span in _code_spans(s)
                         for f in chain["failures"][:1]))][:1]:
        evidence.append({"quote": sentence, "source": "the user's prompt (tried before this session)"})
    verified = resolved_by is success and success["outcome"] == "ok" and chain["kind"] != "other_check"
    passed_line = one_line((success.get("body") or "").strip().splitlines()[-1] if (success.get("body") or "").strip()
                           else "exit code 0", 100)
    evidence.append({"quote": f"then passed: {passed_line}", "source": f"observation {success['id']}",
                     "observation_id": success["id"]})
    passed = [f"`{one_line(shown_command(success['target'], cwd), 120)}` passed after the change "
              f"(observation {success['id']})"]
    not_performed = []
    if chain["kind"] == "other_check":
        not_performed.append(f"`{command}` not rerun; `{one_line(shown_command(success['target'], cwd), 120)}` "
                             f"passed after the change")
        passed = []
    if chain["kind"] == "error_changed" or same_job and resolved_by["outcome"] == "error":
        ran = command if chain["kind"] == "error_changed" else one_line(shown_command(resolved_by["target"], cwd), 120)
        not_performed.append(f"`{ran}` then failed on another error, fixed separately before it passed.")
    if unrelated:
        not_performed.append(f"Not part of the fix: {', '.join(unrelated[:3])} (also edited in the session).")
    family = command_family(failure["target"])
    shown_failing = _without_options(shown_command(failure["target"], cwd), no_help)
    trigger = (f"{failing} failing, read with `{shown_failing}`" if failure.get("ci") else
               f"{'Calling' if _is_mcp(failure) else 'Running'} `{shown_failing}` in this project") + (
        f" (it failed with {one_line(readable, 80)})" if readable else "")
    return {
        # the project's own way to do a job is a convention (pattern); everything else here fixed a failure
        "title": one_line(title, 160), "summary": one_line(summary, 400), "kind": "pattern" if same_job else "fix",
        "trigger": trigger,
        "evidence": evidence, "change": change.strip(),
        "validation": {"passed": passed, "not_performed": not_performed},
        "scope": "project", "conditions": "", "files": sorted(fix_hunks),
        "error_signatures": [failure["error_signature"]] if failure.get("error_signature") else [],
        "tags": [family] if family else [],
        "observation_ids": sorted({o["id"] for o in [*chain["failures"], *edits, *commands, success]}),
        "verified": 1 if verified else 0,
        "_run_key": f"chain:{failure['id']}" + (f".{failure['_part']}" if failure.get("_part") else ""),
        "_reason": f"resolved_failure:{chain['kind']}",
    }


# an account's opening that announces the outcome: "Fixed — …", "Done: …"
# (or the run said to pass: "`tofu plan` works again: 9 to add, nothing changed or destroyed.")
_ANNOUNCED = LazyRegex(r"\W*(?:(?:Fixed|Done|Solved|Resolved|Sorted)\b\s*[—–:-]|`[^`]+`\s+(?:now\s+)?(?:works|passes|"
                       r"runs|succeeds|builds|is green)(?:\s+(?:again|now|cleanly))?\b|"
                       # (a run's result, listed: "`make test`: all packages green, controller coverage 71.8%")
                       r"`[^`]+`\s*:\s*(?:all\s+(?:\w+\s+)?)?(?:green|passed|passes|pass|ok|succeeded|\d+\s+passed)\b)")


# a key a line defines, of two words or more (``compose-compiler = { id = …``, ``api_base_url: …``)
_DEFINED_KEY = LazyRegex(r"^\s*([A-Za-z][A-Za-z0-9]*(?:[-_][A-Za-z0-9]+)+)\s*[=:]")


def _defines_for(attempt: dict, final_edits: list[dict]) -> bool:
    """Whether ``attempt`` added a key that a line of the final change uses by a dotted name (``compose-compiler`` in
    the version catalog, ``libs.plugins.compose.compiler`` in the module): the attempt is part of the fix."""
    keys = {m.group(1) for line in _added_lines(attempt) if (m := _DEFINED_KEY.match(line))}
    used = [line for e in final_edits for line in _added_lines(e) if not _DEFINED_KEY.match(line)]
    return any(re.search(rf"\.{re.escape(re.sub(r'[-_]', '.', key))}(?![\w-])", line)
               for key in keys for line in used)


def _takes_away(command: str, attempts: list[dict], cwd: str | None, ran_before: tuple[str, ...] = ()) -> bool:
    """Whether every step of ``command`` deletes files (``rm``, ``git rm``, ``kubectl delete -f``) that an attempt
    wrote or ran, or a command before the failure ran (``ran_before``)."""
    ran = [a["target"] for a in attempts if a["tool"] == "Bash"] + list(ran_before)
    tried = {_rel(path, cwd) for a in attempts for path in a.get("files") or []} | {
        word for target in ran for segment in _segments(target)
        for word in parse_command(segment)["argv"][1:] if not word.startswith("-")}
    for segment in _segments(command):
        argv = parse_command(segment)["argv"]
        paths = [w for w in argv[2:] if not w.startswith("-")] if argv[:2] == ["kubectl", "delete"] \
            else removed_paths(segment)
        if not paths or not all(any(p == t or t.endswith("/" + p) or p.endswith("/" + t) for t in tried)
                                for p in paths):
            return False
    return bool(command.strip())


def _unnamed_install(command: dict, text: str, fix_hunks: dict) -> bool:
    """Whether ``command`` installs (``pip install -q -r requirements/dev.txt``) and ``text`` names neither the
    install, its program nor what it installs, and no file it installs from was edited."""
    installs = [s for s in parse_command(command["target"])["segments"] if command_job(s) == "install"] \
        if command["tool"] == "Bash" else []
    installed = {p for s in installs for p in _packages(s)}
    # (an install that takes up an edited manifest, ``uv sync`` after pyproject.toml, applies the fix)
    if not installs or any(os.path.basename(path) == os.path.basename(p) for p in installed for path in fix_hunks) \
            or any(_MANIFEST_PATH.search(path) for path in fix_hunks):
        return False
    programs = {os.path.basename(s.split()[0]).lower() for s in installs}
    return not (_plain_words(text) & {"install", "installed", "installing", "reinstall", "reinstalled", *programs}
                or any(name in text.lower() for p in installed for name in (p, os.path.basename(p))))


# an API's contract: an OpenAPI or Swagger document, a GraphQL schema, protobuf, Avro
_CONTRACT_FILE = LazyRegex(r"(?i)\b(?:openapi|swagger)[\w.-]*\.(?:ya?ml|json)\b|\.(?:graphqls?|proto|avsc)\b|"
                           r"\bschema\.(?:graphql|json)\b")
_MOCK_PATH = LazyRegex(r"(?:^|/)(?:mocks?|__mocks__|fixtures?|stubs?)/")
# a source file that defines the shapes an API takes and gives
_SCHEMA_PATH = LazyRegex(r"(?i)(?:^|/)(?:schemas?|serializers?|dtos?|contracts?)(?:/|\.\w+$)")


def _mock_against_the_contract(fix_hunks: dict, contract: str) -> bool:
    """Whether the change only renames keys in a mock's data (``{ results: [...] }`` → ``{ items: [...] }``), or
    drops one (``"contact": {"email": …}`` flattened), away from a key the contract has to none it has: the mock now
    agrees with the code, not with the API."""
    if not fix_hunks or not all(_MOCK_PATH.search(path) or _TEST_PATH.search(path) for path in fix_hunks):
        return False
    named = set(re.findall(r"\b(\w+)[\"']?\s*:", contract))
    renamed = False
    for hunks in fix_hunks.values():
        for h in hunks:
            old, new = h["old"].splitlines(), h["new"].splitlines()
            removed, added = [l for l in old if l not in new], [l for l in new if l not in old]
            if len(removed) != len(added):
                return False
            for a, b in zip(removed, added):
                # (a key in quotes too: ``"contact": {…}``)
                was, now = (set(re.findall(r"\b(\w+)[\"']?\s*:", line)) for line in (a, b))
                if not was - now or not (was - now) <= named or (now - was) & named:
                    return False
                renamed = True
    return renamed


def _turned_from_the_configured(fix_hunks: dict, configured: list[str]) -> bool:
    """Whether a change to the tests only turns a value away from the one the project's configuration gives the same
    key, as a search showed it (``"version": "2.0"`` → ``"1.0"`` in an event fixture, after ``grep`` found
    ``PayloadFormatVersion: "2.0"`` in template.yaml), or sets it otherwise in the tests' own setup
    (``materialTapTargetSize: MaterialTapTargetSize.padded`` in the app a test pumps, where lib/theme/app_theme.dart
    says ``….shrinkWrap``): the test now feeds the code what it will never get."""
    if not tests_only(fix_hunks):
        return False
    # (a value quoted, or a member of an enumeration: ``MaterialTapTargetSize.shrinkWrap``; not as a test's own file
    # says it, ``tests/Billing.Tests/Billing.Tests.fsproj:22: … Version="6.0.7"``)
    setting = r"[\"']?([A-Za-z_][\w-]*)[\"']?\s*[:=]\s*(?:[\"']([^\"'\s]+)[\"']|([A-Z]\w*\.[a-z]\w*)\b)"
    given = {(m.group(1).lower(), m.group(2) or m.group(3)) for line in configured
             if not ((place := re.match(r"([^\s:]+):\d+:", line)) and _TEST_PATH.search(place.group(1)))
             for m in re.finditer(setting, line)}
    for path, hunks in fix_hunks.items():
        # (a setting the tests' own settings give otherwise is theirs to give: Django's ``config/settings/test.py``)
        overrides = not re.search(r"(?i)settings|config|\.env|\.ini$|\.toml$|\.props$|proj$", path)
        for removed, added in map(_hunk_lines, hunks):
            was = {m.group(1): m.group(2) or m.group(3) for line in removed for m in re.finditer(setting, line)}
            for m in (m for line in added for m in re.finditer(setting, line)):
                key, value = m.group(1), m.group(2) or m.group(3)
                if len(key) >= 4 and was.get(key) != value and any(
                        k.endswith(key.lower()) and v != value and (was.get(key) == v or overrides and key not in was)
                        for k, v in given):
                    return True
    return False


_FAILED_ON = LazyRegex(r"(?i)\b(?:error|exception|failed|invalid|cannot parse|could not parse|skipped)\b")


def _data_failed_on_rewritten(fix_hunks: dict, failed_on: list[str]) -> bool:
    """Whether the change only rewrites lines of the tests' data files that a message of the code failing quoted
    (``Skipped line 7: … Parsing error … input=[1007,"Nguyen, Anh",anh.nguyen@example.com,DE]``): the input the
    code could not take is gone from the test, the code as it was."""
    if not fix_hunks or not all(_TEST_PATH.search(path) and re.search(r"\.(?:csv|tsv|jsonl?|ya?ml|txt|xml)$", path)
                                for path in fix_hunks):
        return False
    removed = [l.strip() for hunks in fix_hunks.values() for h in hunks for l in _hunk_lines(h)[0]]
    return bool(removed) and all(len(l) >= 8 and any(l in line for line in failed_on) for l in removed)


def _publishes(command: dict) -> bool:
    """Whether a line only records and publishes the work with git: a branch made, files added, a commit, a push."""
    segments = _segments(command["target"]) if command["tool"] == "Bash" else []
    return bool(segments) and all(re.match(r"git\s+(?:add|commit|push|checkout\s+-[bB]|switch\s+-[cC])\b",
                                           parse_command(s)["check"] or "") for s in segments)


# a statement that changes a database's objects or settings (not a query of them)
_SETTING_STATEMENT = LazyRegex(r"(?i)\s*(?:ALTER|CREATE|DROP|GRANT|REVOKE|SET|UPDATE|INSERT|DELETE|TRUNCATE|"
                               r"REINDEX|VACUUM|REFRESH|COMMENT|SELECT\s+pg_\w+\()\b")


def _asked_by(command: str, failure: dict) -> bool:
    """Whether the failure's message asks for ``command``, quoted ("Run `bundle install` to …") or by its words
    before its options ("To refresh this SSO session run aws sso login with the corresponding profile")."""
    if _step_named_by_error(command, failure):
        return True
    head = list(itertools.takewhile(lambda w: not w.startswith("-"), command_key(command).split()))[:3]
    return len(head) >= 2 and re.search(rf"(?i)\b(?:run|try|execute)\s+{re.escape(' '.join(head))}(?![\w-])",
                                        failure.get("error_text") or failure.get("body") or "") is not None


def _manifest_lines(command: dict, later: list[dict] | tuple) -> tuple[str, str] | None:
    """The manifest and the line in it that ``command``, an install that saves what it adds (``npm install -D
    @testing-library/dom@^10.4.0``), wrote there, as a ``git diff`` run after it printed it
    (``+    "@testing-library/dom": "^10.4.0",`` in package.json)."""
    if command["tool"] != "Bash":
        return None
    added = {p for s in parse_command(command["target"])["segments"] if command_job(s) == "install"
             for p in _packages(s)}
    for o in later:
        if o["id"] <= command["id"] or o["tool"] != "Bash" or o["outcome"] != "ok" or not added \
                or not re.match(r"git\s+diff\b", parse_command(o["target"])["check"] or ""):
            continue
        path = None
        for line in (o.get("body") or "").splitlines():
            if line.startswith("+++ "):
                path = re.sub(r"^[ab]/", "", line[4:].strip())
            elif line.startswith("+") and path and _MANIFEST_PATH.search(path) and any(
                    re.search(rf"(?<![\w@/.-]){re.escape(name)}(?![\w/-])", line) for name in added):
                return path, line[1:].strip().rstrip(",")
    return None


def _fix_title(fix_parts: list[str]) -> str:
    """The fix half of a title from the first two steps; a long step titled by what it adds ("add `db.execSQL(…)`",
    its file named by the change line), and only when that is long too by its file ("change app/…/Migrations.kt")."""
    return "; ".join(p if len(p) <= 90 else next(
        (short for short in [re.sub(r" in \S+$", "", p)] if len(short) <= 90),
        re.sub(r"^.*? in (\S+)$", r"change \1", p)) for p in fix_parts[:2])


def candidate_from_decision(session: dict, said: dict, observations: list[dict], prompts: list[dict]) -> dict | None:
    # (not a run that had failed, made again: "I waited for that run to finish rather than using `-lock=false` …, and
    # the same apply went through on retry" chose how to wait, and changed nothing)
    failed = {command_key(o["target"]) for o in observations if o["outcome"] == "error" and o["tool"] == "Bash"}
    edits = [o for o in observations if _is_change(o)
             and not (o["tool"] == "Bash" and command_key(o["target"]) in failed)]
    # (nor a change told of as another one done beside: "I also updated README.md to describe the deps.edn alias
    # instead of `lein repl`", beside a stale REPL stopped)
    also = [w.lower() for w in _also_did(said)]
    said = dict(said, decision=[s for s in said["decision"] if not any(s.rstrip(" .").lower() in w for w in also)])
    if not said["decision"] or not edits:
        return None
    cwd = session.get("cwd")
    files = sorted({_rel(f, cwd) for e in edits for f in e.get("files") or []})
    last_edit = edits[-1]
    checks = [o for o in observations if o["id"] > last_edit["id"] and o["tool"] == "Bash" and not _is_change(o)]
    passed = [f"`{one_line(command_key(o['target']), 120)}` passed (observation {o['id']})"
              for o in checks if o["outcome"] == "ok"][:3]
    task = one_line(prompts[0]["text"], 200) if prompts else ""
    decision = said["decision"]
    reasons = [s for s in said["cause"] if s not in decision][:2]
    if not reasons and not any(_REASON.search(_prose(s)) for s in decision):
        return None  # "used X instead of Y" with no why is a report of the work, not a decision a reader can weigh
    return {
        "title": one_line(decision[0].rstrip("."), 150),
        "summary": " ".join((decision[:2] + reasons)),
        "kind": "decision",
        "trigger": (f"Working on: {task}" if task else "Changing " + ", ".join(files)),
        "evidence": [{"quote": one_line(e.get("summary") or "", 200),
                      "source": f"observation {e['id']} ({e['tool']} {os.path.basename(e.get('target') or '')})",
                      "observation_id": e["id"]} for e in edits[-2:]],
        "change": " ".join(decision[:2]) + (f"\nFiles changed: {', '.join(files)}" if files else ""),
        "validation": {"passed": passed, "not_performed": [] if passed else ["No check was run after the change."]},
        "scope": "project", "conditions": "", "files": files, "error_signatures": [], "tags": [],
        "observation_ids": [e["id"] for e in edits] + [o["id"] for o in checks if o["outcome"] == "ok"],
        "verified": 1 if passed else 0,
        "_run_key": f"decision:{last_edit['id']}",
        "_reason": "stated_decision",
    }


# the user reporting a failure ("The EAS iOS preview build started failing after the SDK 51 upgrade")
_REPORTED = LazyRegex(r"(?i)\b(?:fail(?:s|ing|ed)?|broken|breaks|crash(?:es|ing)?|errors? out|no longer (?:builds|"
                      r"compiles|starts|runs)|"
                      # ("Now `npx expo export --platform web` blows up.")
                      r"blows? up|blew up|blowing up|falls? over|fell over|chokes?|bombs? out|"
                      # ("the 06:00 morning_refresh job dies on its first query with '…'"; "`bazel build //...` dies
                      # fetching external repos")
                      r"di(?:es|ed) (?:on|with|at|when|after|immediately|right away|[a-z]{3,}ing)\b|"
                      r"(?:didn't|did not|doesn't|does not|won't|will not) (?:run|start|boot|"
                      r"build|compile|load|work)|isn't working|is not working|"
                      # ("the parent's `v-model:query` stopped updating")
                      r"stopped (?:working|updating|rendering|loading|syncing|firing|responding|saving|sending|"
                      r"showing|emitting|reacting|triggering|refreshing|receiving|connecting|starting|running)\b|"
                      # "… never produces any topics. Can you figure out what's wrong?"
                      r"never (?:produces?|starts?|runs?|works?|shows?|fires?|connects?|returns?|gets?|submits?|"
                      r"saves?|loads?|sends?|completes?|finishes?|renders?|updates?|triggers?|syncs?)|"
                      r"what(?:'s| is) wrong|(?:went|goes) wrong|keeps? (?:coming back|failing|crashing|erroring)|"
                      # ("api.shop.acme.io keeps flipping between the two clusters' load balancers")
                      r"keeps? (?:flipping|flapping|bouncing|toggling|overwriting|restarting|disconnecting|"
                      r"dropping|saying|skipping|reporting)\b|"
                      # ("… is supposed to re-export the web JPEGs …, but it keeps saying nothing was updated")
                      r"\b(?:is|are|was|were) supposed to\b[^.;]{0,160}\bbut\b|"
                      # "the nightly report email goes out twice": what should happen once happens again
                      r"(?:sent|sends|fires?|fired|runs?|ran|goes out|went out|appears?|shows? up|triggers?|triggered|"
                      r"(?:is|are|gets?|got) (?:sent|called|charged|run)|(?:is|are) being (?:sent|called|charged|run)|"
                      # ("Reminder emails … are being sent two or three times.")
                      r"called|charged) (?:twice|two times|(?:two|three|several|multiple) (?:or \w+ )?times)|"
                      r"duplicate (?:\w+ )?(?:rows|e-?mails|messages|events|sends|charges|entries|records|jobs|"
                      r"notifications|deliveries|webhooks|orders|payments)|"
                      # ("The reporting worker can't get a token from our auth server")
                      r"(?:can't|cannot|couldn't|could not) (?:reach|connect|find|start|load|open|get|obtain|fetch|"
                      r"authenticate|log in)|"
                      # an HTTP error it answers with: "web-frontend gets 403s calling the orders service"
                      r"(?:gets?|getting|got|returns?|returning|returned|throws?|sees?|seeing|answers?) (?:an? |back )?"
                      r"(?:HTTP )?[45]\d\d(?:s|'s)?|"
                      # what was there and is not, or comes back empty: "the meta-data I'd added by hand … is gone",
                      # "Athena returns zero rows for those days", "the SDK falls back to the US endpoint"
                      r"(?:is|are|was|were) (?:now )?gone|went missing|falls? back to|fell back to|falling back to|"
                      # "push notifications land in the 'Miscellaneous' channel instead of our 'orders' channel"
                      # (of what is sent, not of where data is kept: "new objects land under `dt=…/` instead of …"
                      # is what changed)
                      r"(?:notifications?|messages?|e-?mails?|alerts?|pushes|requests|traffic|logs?|events?) "
                      r"(?:\w+ ){0,2}(?:land|lands|end up|ends up|show up|shows up|arrive|arrives|go out|goes out)\b"
                      r"[^.]{0,60}\binstead of|"
                      r"(?:returns?|returned|returning|gets?|getting|shows?|showing) (?:zero|0) (?:rows|results|"
                      r"records|events|items|hits|matches)|"
                      # what a store or a queue refuses: "App Store Connect rejects our uploads", "messages … keep
                      # landing in the DLQ"
                      # ("App Store Connect bounced Loom 3.8.0 (412) with ITMS-91053 …")
                      r"(?:rejects|rejected|bounces|bounced) (?:our|my|the|every|all|[A-Z][\w-]*)\b|"
                      r"(?:is|are|was|were|gets?|got) rejected|"
                      # what stopped arriving: "Testers … aren't getting OTA updates anymore"
                      r"(?:aren't|isn't|are not|is not|don't|doesn't) (?:getting|receiving|get|receive)\b[^.]{0,60}"
                      r"\banymore|"
                      # ("Our Go log shipper isn't getting events into the local Splunk", "get `make e2e` passing")
                      r"(?:aren't|isn't|are not|is not) (?:getting|sending|delivering|writing) (?:\w+ ){1,3}"
                      r"(?:into|to|through)\b|get (?:it|them|this|`[^`]+`|(?:the |our )?[\w.:-]+(?: tests?)?) "
                      r"(?:passing|green)\b|"
                      # ("Add one so `fastlane ios validate` passes.")
                      r"so (?:that )?`[^`]+` (?:passes|is green|succeeds)\b|"
                      r"(?:stopped|no longer) (?:getting|receiving|gets?|receives?)\b|"
                      r"(?:keeps?|kept) (?:landing|ending up|going) in (?:the |a )?(?:DLQ|dead[- ]letter))\b")


# the user's report that something is not there: "stopped showing up", "no traces", "is empty"
_GONE_MISSING = LazyRegex(r"(?i)\b(?:(?:stopped|stops|aren't|isn't|are not|is not|not|never|no longer) (?:show(?:ing|s)?"
                          r"(?: up)?|appear(?:ing|s)?|arriv(?:ing|es?)|com(?:ing|es?) (?:in|through)|reach(?:ing|es)?|"
                          r"get(?:ting|s)? (?:there|through|in))|(?:is|are|comes? back|came back|returns?|returned) "
                          r"empty|missing|disappeared|vanished|no (?:data|rows|results|traces|spans|events|metrics|"
                          r"logs|messages|records)|"
                          # ("Nothing shows up yet.")
                          r"nothing (?:show(?:s|ing)?(?: up)?|appears?|arrives?|comes? (?:in|through)))\b")


# what a quoted error message says, when it names no "Error": ``ER_INVALID_DEFAULT: Invalid default value for
# 'published_at'``, ``ENOENT: no such file``, ``permission denied``
_ERROR_MESSAGE = LazyRegex(r"^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*:\s|(?i:\b(?:invalid|cannot|can't|could not|unknown|"
                           r"denied|refused|not (?:found|allowed|permitted|supported|valid)|no such)\b)")


def _bracketed_verdict(clause: str) -> str:
    """Of a clause, the brackets its verdict of no help is in, where it is in brackets: "The Maven plugin doesn't read
    `simulationClass` from gatling.conf (setting it there changed nothing" is of setting it there, not of the
    ``-Dgatling.simulationClass=…`` that then worked."""
    helpless = _DID_NOT_HELP.search(clause)
    opened = clause.rfind("(", 0, helpless.start()) if helpless else -1
    if opened < 0 or ")" in clause[opened:helpless.start()]:
        return clause
    closed = clause.find(")", helpless.end())
    return clause[opened + 1:closed if closed >= 0 else len(clause)]


def candidate_from_report(session: dict, said: dict, observations: list[dict], prompts: list[dict]) -> dict | None:
    """A failure the user reports with its cause, that never ran in the session ("the preview build fails because
    eas.json still pins node 16"): the edit of what the report names, verified by a later passing run of what it
    says fails (two or more of the command's words in the report: ``eas-cli build --platform ios --profile
    preview``)."""
    # (not a search that found nothing on the way: ``grep -rn "DatabaseScheduler" config/``, exit 1)
    if not prompts or any(o["outcome"] == "error" and _is_check(o) and not _routine(o["target"]) for o in observations):
        return None  # a failure that ran is a chain's to explain
    cwd = session.get("cwd")
    text = " ".join(p["text"] for p in prompts)
    sentences = _sentences(text)
    reports = [s for s in sentences if _REPORTED.search(s)]
    causes = [s for s in sentences if _USER_CAUSE.search(s)]
    # what the report quotes: the error it pasted (which says why, "… is missing a `on.workflow_call` trigger") and
    # the runs it names (`web-ext run`)
    spans = re.findall(r"`([^`]+(?:`[^`]+`[^`]*)*)`", " ".join(reports))
    errors = [span for span in spans if _ERROR_OUTPUT.search(span) or _REPORTED.search(span)
              or _ERROR_MESSAGE.search(span) or len(span) > 60]
    # (or an error quoted in plain quotes after what failed: "dies on its first query with 'server closed the
    # connection unexpectedly'", "rejects our uploads since …: \"Invalid Executable. The executable … contains
    # bitcode.\"", read on past the sentence the quote's own full stops end)
    quoted = " ".join(text[at:at + len(report) + 200] for report in reports if (at := text.find(report)) >= 0)
    errors += [next(g for g in m.groups() if g) for m in re.finditer(
        r"(?i)(?:\b(?:with|says|saying|error)\s*:?|:)\s*"
        r"(?:\"([^\"]{12,300})\"|“([^”]{12,300})”|['‘]([^'’]{12,200})['’])",
        quoted or " ".join(reports))]
    # (or an error by its code, unquoted: "bounced Loom 3.8.0 (412) with ITMS-91053 Missing API declaration")
    errors += re.findall(r"\b(?:with|error|says)\s+([A-Z]{2,}[-_]?\d{3,}\b[^.;]{0,80})", " ".join(reports))
    runs = [span for span in spans if span not in errors and len(span.split()) <= 6]
    if not reports or not (causes or errors):
        return None
    # the edits of what the report names: a file by name, or its added lines by two of the report's own words
    # (``"scripts": ["background.js"]`` for "background.service_worker is disabled. Add background.scripts.")
    words = _plain_words(text) - _STOP
    edits = [o for o in observations if o["tool"] in EDIT_TOOLS and _is_change(o)]
    # (or by the account of the fix: "registered it in app.config.ts as `['./plugins/withTelemetryRegion', …]`")
    # (any sentence of it but what did not help: "Turned on `pool_pre_ping=True` for the shared engine in
    # `src/common/db.py`")
    fixed = " ".join(s for s in said.get("all") or [] if s not in (said.get("did_not_help") or []))
    named = [e for e in edits if any(_named_in(_rel(f, cwd), text) or _named_in(_rel(f, cwd), fixed)
                                     for f in e.get("files") or [])
             or len(_plain_words(" ".join(_added_lines(e))) & words) >= 2
             or any(len(_plain_words(os.path.basename(f)) & words) >= 2 for f in e.get("files") or [])]
    if not named:
        return None
    last_edit = max(e["id"] for e in named)
    # (a word and its plural alike: "Reminder emails …" and ``reminders.settings``)
    def stems(words: set[str]) -> set[str]:
        return {w[:-1] if len(w) > 4 and w.endswith("s") and not w.endswith("ss") else w for w in words}

    report_words = stems(_plain_words(" ".join(reports + errors)))
    # (every step of the line: ``honcho start worker beat & sleep 20; celery -A reports inspect stats``)
    later = [(o, stems(_plain_words(" ".join(word for step in parse_command(o["target"])["segments"]
                                             for word in parse_command(step)["argv"]))) & report_words)
             for o in observations
             if o["id"] > last_edit and o["outcome"] == "ok" and _is_check(o) and not _MUTATING.search(o["target"])]
    checks = [o for o, shared in later if len(shared) >= 2]
    # a run that shares one telling word with the report ("CI's migration job fails" and ``mikro-orm
    # migration:check``) checked the same thing another way: stored, but not as verified
    nearby = [o for o, shared in later if shared - _STOP and max(map(len, shared - _STOP)) >= 5]
    # (or a run of the very file the fix edited: ``bash scripts/ci.sh`` after ``lake exe cache get`` went into it, for
    # "CI times out … compiling all of Mathlib")
    edited = {_rel(f, cwd) for e in named for f in e.get("files") or []}
    nearby += [o for o, _ in later if o not in nearby
               and any(w.removeprefix("./") in edited for w in parse_command(o["target"])["argv"][:3])]
    if not (checks or nearby):
        return None
    # the run the user says fails, when the report quotes it (`web-ext run`), or the first that does its job
    quoted = [c for c in checks if _names_run(parse_command(c["target"])["argv"], " ".join(f"`{r}`" for r in runs))]
    check = (quoted or checks or nearby)[0]
    named_runs = f" ({one_line(', '.join(runs), 100)})" if runs else ""
    unchecked = [] if quoted or (checks and not runs) else [
        (f"The reported failing run{named_runs} was not rerun after the change; " if runs else
         "The reported failure was not reproduced in this session; ")
        + f"`{one_line(shown_command(check['target'], cwd), 100)}` passed."]
    net = net_changes(named, cwd)
    if _rewrites_only_tests(net) or any(_is_weakening(path, hunks) for path, hunks in net.items()):
        return None  # the reported test made to pass by weakening it: never a fix
    hunks = {path: h for path, h in net.items() if h}
    if not hunks:
        return None
    # (its first clause: "CI's migration job fails on MySQL 8 with `…`", not the "— it runs with strict …" after it)
    # (the clause that reports, of a sentence that says what it started with too: "Athena returns zero rows for those
    # days" after "Since we turned on dynamic partitioning …, new objects land under …, and")
    clauses = re.split(r"\s[—–]\s|;\s|,\s+(?:and|so|but)\s+", reports[0])
    report = next((c for c in clauses if _REPORTED.search(c)), clauses[0])
    report = re.sub(r"(?i)^since (?:then|that)\b,?\s*", "", report).rstrip(".")
    report = undated(report)
    report = one_line(report[:1].upper() + report[1:], 200)
    # (the user's diagnosis, else the agent's: "Two schedulers: the `worker` process … was started with `-B`"; of the
    # report's own sentence, the clause that says what it started with, "Since we turned on dynamic partitioning …",
    # not one that only says when: "Since then the meta-data … is gone")
    own = [s for s in causes if s != reports[0]] or [c for c in clauses if c != report and _USER_CAUSE.search(c)
                                                      and not _REPORTED.search(c)]
    diagnosis = _users_diagnosis(own[0]) if own else one_line(said["cause"][0], 200) if said.get("cause") else \
        _users_diagnosis(causes[0]) if causes else f"The reported error: {one_line(errors[0], 200)}"
    fixes = [s for s in said.get("fix") or [] if s not in causes]
    command = one_line(shown_command(check["target"], cwd), 140)
    # (a file written new, many lines long, by its path: its first line is an XML prolog or a header)
    fix_title = _fix_title([f"create {path}" if not any(x["old"] for x in h) and len(h[0]["new"].splitlines()) > 3
                            else f"{_short_diff(h[0])} in {path}" for path, h in hunks.items()])
    passed_line = _raw_error_line(dict(check, error_text=check.get("body") or "")) or ""
    return {
        "title": lesson_title(report, fix_title),
        "summary": " ".join([diagnosis if diagnosis.endswith((".", "!", "?")) else diagnosis + "."] + fixes[:1]),
        "kind": "fix",
        "trigger": f"The user reported: {report}",  # (not "by the user:", which reads as a role label)
        "evidence": [{"quote": f"then passed: {one_line(passed_line, 160)}" if passed_line else f"`{command}` passed",
                      "source": f"observation {check['id']}", "observation_id": check["id"]}],
        "change": "\n".join(_diff_text(path, h) for path, hs in hunks.items() for h in shown_hunks(hs)),
        "validation": {"passed": [] if unchecked else [f"`{command}` passed after the change (observation "
                                                       f"{check['id']})"],
                       "not_performed": unchecked or [
                           "The reported failure itself was not run in this session."]},
        "scope": "project", "conditions": "", "files": sorted(hunks), "error_signatures": [], "tags": [],
        "observation_ids": [e["id"] for e in named] + [check["id"]],
        "verified": 0 if unchecked else 1,
        "_run_key": f"report:{last_edit}",
        "_reason": "reported_failure",
    }


# a compiler's error at a place in a file: ``src/out.zig:71:39: error:``, rustc's ``--> src/main.rs:12:5``,
# ``Foo.cs(12,5): error CS0029``
_COMPILE_ERROR_AT = LazyRegex(r"(?m)^\s*(?:-->\s*)?([\w./-]+\.\w+)(?::\d+(?::\d+)?:?\s*(?:error|fatal error)\b|"
                              r"\(\d+,\d+\):\s*error\b)|^\s*-->\s*([\w./-]+\.\w+):\d+|"
                              # scalac and javac through sbt or maven: ``[error] /w/Routes.scala:11:26: type mismatch``
                              r"^\s*\[(?:error|ERROR)\]\s+([\w./-]+\.(?:scala|java|kt|groovy)):\[?\d+|"
                              # kotlinc through gradle: ``e: file:///…/Screen.kt:41:47 Unresolved reference: x``
                              r"^e:\s+(?:file://)?([\w./-]+\.kts?):\d+:\d+")


def _names(sentence: str, words: set[str]) -> bool:
    """Whether ``sentence`` names one of ``words``, or a long part of one: "the javascriptcoregtk dev package" names
    ``libjavascriptcoregtk-4.1-dev``."""
    return any(w in words or len(w) >= 8 and any(w in word for word in words) for w in _tokens(sentence))


def _got_further(attempt: dict, failures: list[dict], net: dict, cwd: str | None) -> bool:
    """Whether an edit before the last failure was a first step, not an attempt that did not help: the failure after
    it is another error, and what it added is still in the final change (``buildNpmPackage`` written, then its
    ``npmDepsHash`` filled in after the hash mismatch)."""
    before = [f for f in failures if f["id"] < attempt["id"]]
    after = [f for f in failures if f["id"] > attempt["id"]]
    if not before or not after or before[-1].get("error_signature") == after[0].get("error_signature"):
        return False
    kept = "\n".join(h["new"] for hunks in net.values() for h in hunks)
    added = [line.strip() for line in _added_lines(attempt) if line.strip()]
    return bool(added) and sum(line in kept for line in added) * 2 > len(added)  # (most of it: a later edit fills in)


def _from_first(items: list, wanted) -> list:
    """``items`` from the first one ``wanted`` holds for on (none when none does)."""
    return next((items[i:] for i, item in enumerate(items) if wanted(item)), [])


def _compile_error_in(failure: dict, edited: set[str]) -> bool:
    """Whether the failure is a compiler's error in a file this session had already edited: its own new code."""
    text = failure.get("error_text") or ""
    named = {next(g for g in m.groups() if g) for m in _COMPILE_ERROR_AT.finditer(text)}
    def same_file(f: str, n: str) -> bool:  # the same file named from another root: its last parts agree
        fp, np_ = f.split("/"), n.lstrip("./").split("/")
        depth = min(len(np_), 3)
        return fp[-depth:] == np_[-depth:]

    return bool(named) and all(any(same_file(f, n) for f in edited) for n in named)


def _passed_before(failure: dict, observations: list[dict]) -> bool:
    """Whether the failing check had passed earlier in this session: what broke it since is the session's own work
    (a test green after the feature, red after the agent tidied an import, green again once it put it back)."""
    family = command_family(failure["target"])
    passed = min((o["id"] for o in observations if o["id"] < failure["id"] and o["outcome"] == "ok" and _is_check(o)
                  and command_family(o.get("target") or "") == family and _same_target(failure["target"], o["target"])),
                 default=None)
    # (and something was edited since: a whole suite failing right after one file of it passed, nothing changed
    # between, shows a problem the part did not, "the presence test needs a shared sandbox")
    return passed is not None and any(e["tool"] in EDIT_TOOLS and passed < e["id"] < failure["id"]
                                      for e in observations)


def _narrowed_to_take_the_flag(failure: dict, passed: dict) -> list[str]:
    """A run pointed at fewer packages, where some of those the failing run covered refused a flag they do not know
    and the passing run still passes it (``go test ./... -testify.m TestCancelOrder``: "flag provided but not
    defined: -testify.m" from every test binary without testify's suite): the narrower target is the way, as one
    part of the invocation (``run it on `./internal/store`, not `./...```)."""
    error = failure.get("error_text") or ""
    refused = re.search(r"(?i)(?:not defined|unrecognized arguments?|unknown (?:option|flag)|no such option|"
                        r"invalid option)\W+(-[\w.-]+)", error)
    argvs = [parse_command(run["target"])["argv"] for run in (failure, passed)]
    before, after = ([w for n, w in enumerate(argv[1:], 1) if not w.startswith("-") and not argv[n - 1].startswith("-")]
                     for argv in argvs)
    dropped, kept = [w for w in before if w not in after], [w for w in after if w not in before]
    if not refused or not _USAGE_ERROR.search(error) or not dropped or not kept or refused.group(1) not in argvs[1]:
        return []
    return [f"run it on `{' '.join(kept)}`, not `{' '.join(dropped)}`"]


# a program's usage error for an argument it was not given (``simctl push``: "no bundle identifier was given",
# "missing required argument", "requires at least 2 arg(s)")
_ARGUMENT_MISSING = LazyRegex(r"(?i)\bno [\w ]{2,30} (?:was|were) (?:given|provided|specified)\b|"
                              r"\bmissing (?:required )?(?:positional )?arguments?\b|\brequires? (?:at least|exactly) "
                              r"\d+ arg|\bthe following arguments are required\b|\bnot enough arguments\b")


def _argument_given(failure: dict, passed: dict) -> list[str]:
    """The argument a program said it was not given, put in its place in the passing run, all else as it was
    (``xcrun simctl push booted com.acme.courier Tests/Push/order_shipped.apns`` after "no bundle identifier was
    given"): a part of the invocation, ``pass `com.acme.courier```."""
    if not _ARGUMENT_MISSING.search(failure.get("error_text") or ""):
        return []
    before, after = (parse_command(run["target"])["argv"] for run in (failure, passed))
    added = [w for n, w in enumerate(after) if after[:n] + after[n + 1:] == before]
    return [f"pass `{added[0]}`"] if added and not added[0].startswith("-") else []


def _appended_as_said(failure: dict, passed: dict, account: str) -> list[str]:
    """Arguments the passing run appends to the failing one's, all else as it was, where the account quotes that run
    whole and the failure was no test's check (``ml-build tests/tests.cm TestDriver.main tests/run-tests`` after
    "unbound structure: Main in path Main.main", quoted under "The fix is to pass the entry point explicitly"): the
    arguments are the way, ``pass `TestDriver.main tests/run-tests```."""
    before, after = (parse_command(run["target"])["argv"] for run in (failure, passed))
    after = [w for w in _before_pipe(after) if not re.fullmatch(r"\d?>&?\d?|2>&1", w)]
    kept = after[len(before):]
    if not before or after[:len(before)] != before or not kept or any(w.startswith("-") for w in kept) \
            or _CHECK_FAILED.search(failure.get("error_text") or ""):
        return []
    return [f"pass `{' '.join(kept)}`"] if " ".join(after) in " ".join(account.split()) else []


def _narrowed_as_said(failure: dict, passed: dict, account: str) -> list[str]:
    """A run pointed at a part of what the failing one covered, where the account quotes it and says what the plain
    run takes in besides ("plain `bun test` also matches `*.spec.ts`, so it picked up the Playwright specs … `bun
    test ./src` runs just the unit tests"), and the failure was the runner's, no test's check: the narrower target
    is the way (``run it on `./src```). A failing check left out is a weakened test, never this."""
    error = failure.get("error_text") or ""
    before, after = (parse_command(run["target"])["argv"] for run in (failure, passed))
    kept = after[len(before):]
    if not before or after[:len(before)] != before or not kept or any(w.startswith("-") for w in kept) \
            or _CHECK_FAILED.search(error):
        return []
    # (a count of failures is the runner's only where every file it failed in lies outside what the run kept: bun's
    # "2 fail" for the Playwright specs in e2e/ it could not load, none in ./src)
    blocks = re.split(r"(?m)^(?=\S[^\n]*\.(?:test|spec)\.\w+:\s*$)", error)
    failed_in = [block.split(":", 1)[0] for block in blocks if re.match(r"\S[^\n]*\.(?:test|spec)\.\w+:\s*\n", block)
                 and re.search(r"(?m)^\s*(?:✗|✕|×|error:|FAIL)", block)]
    inside = [w.strip("./") + "/" for w in kept]
    if re.search(r"(?m)^\s*(?:✗|✕|×|FAIL(?:ED)?\b)|\b[1-9]\d* fail(?:ed)?\b", error) and (
            not failed_in or any(f.lstrip("./").startswith(tuple(inside)) for f in failed_in)):
        return []
    failing, passing = " ".join(before), " ".join(after)
    spans = [" ".join(span.split()) for span in _code_spans(account)]
    said = any(f"`{failing}`" in s and re.search(r"(?i)\b(?:plain|bare|also|picks? up|picked up|matches|matched|"
                                                 r"collects?|includes?|sweeps? in)\b", s) for s in _sentences(account))
    return [f"run it on `{' '.join(kept)}`"] if passing in spans and said else []


def _refused_flag_left_out(chain: dict) -> bool:
    """Whether the failure is the program refusing a flag the run passed ("build-release.sh: unknown option:
    --skip-archive") and the passing run left that flag out: how it was called put right, whatever was edited on the
    way (the edit is another problem's). Not a refused flag tried on the way to another problem's fix."""
    failure = chain["failure"]
    error = failure.get("error_text") or ""
    parts = invocation_change(failure["target"], chain["resolved_by"]["target"])
    dropped = [part[len("without `"):-1].split()[0] for part in parts
               if part.startswith("without `") and part[len("without `"):-1].split()[0] in error]
    # (not one the passing run replaced with another way the usage it printed offers: ``go vet -vettool=$(which
    # shadow)`` for the ``-shadow`` go vet no longer has, its usage "go vet [build flags] [-vettool prog] …"; a flag
    # respelt, ``--dry-run`` for ``--dry-runn``, is a typo put right)
    added = [part[len("pass `"):-1].split("=")[0].split()[0] for part in parts if part.startswith("pass `")]
    replaced = any(difflib.SequenceMatcher(None, d.lstrip("-"), a.lstrip("-")).ratio() < 0.7
                   and re.search(rf"(?<![\w-]){re.escape(a)}(?![\w-])", error) for d in dropped for a in added)
    return bool(_USAGE_ERROR.search(error)) and bool(dropped) and not replaced


def _join_settings(chains: list[dict]) -> list[dict]:
    """A run given a setting that moved its error on, then given another beside it that passed
    (``TAURI_SIGNING_PRIVATE_KEY=$(cat …) npm run tauri build``: "incorrect updater private key password", then with
    ``TAURI_SIGNING_PRIVATE_KEY_PASSWORD`` too): one problem, and the run needs both; as two lessons the second was
    merged into the first as its near duplicate, and the password's setting was lost."""
    joined = list(chains)
    for a in chains:
        b = next((b for b in joined if b["failure"]["id"] == a["resolved_by"]["id"]), None)
        if a not in joined or b is None or a["kind"] != "error_changed" or a["all_changes"] or b["all_changes"]:
            continue
        first = set(invocation_change(a["failure"]["target"], a["resolved_by"]["target"]))
        both = invocation_change(a["failure"]["target"], b["resolved_by"]["target"])
        # (settings of the environment: flags beside each other are lessons of their own, each one's room on a card
        # its own: ``--certificate-identity-regexp '^https://github.com/…'`` and ``--certificate-oidc-issuer …``)
        if first and first < set(both) and all(part.startswith("set `") for part in both):
            joined[joined.index(b)] = dict(b, failure=a["failure"], failures=a["failures"] + b["failures"],
                                           _joined=True)
            joined.remove(a)
    return joined


def _join_the_ways_step(chains: list[dict]) -> list[dict]:
    """The way a failing run is done here (``./vendor/bin/sail artisan test …`` for ``php artisan test …``), which
    itself failed first for a step it needs (``Sail is not running`` → ``./vendor/bin/sail up -d``): one lesson, the
    way with its step; as two, the step's was merged into the way's as its near duplicate, and the step was lost."""
    joined = list(chains)
    for outer in chains:
        inner = next((b for b in joined if b is not outer and b["resolved_by"]["id"] == outer["resolved_by"]["id"]
                      and b["failure"]["id"] > outer["failure"]["id"]
                      and command_key(b["failure"]["target"]) == command_key(outer["resolved_by"]["target"])), None)
        if outer not in joined or inner is None or outer["all_changes"] or not inner["changes"] \
                or not all(c["tool"] == "Bash" for c in inner["all_changes"]) \
                or not invocation_change(outer["failure"]["target"], outer["resolved_by"]["target"]) \
                and command_family(outer["failure"]["target"]) == command_family(outer["resolved_by"]["target"]):
            continue
        joined[joined.index(outer)] = dict(outer, changes=inner["changes"], all_changes=inner["all_changes"])
        joined.remove(inner)
    return joined


def _before_clause_naming(sentence: str, code: set[str]) -> str:
    """``sentence`` up to its first clause after a semicolon that quotes any of ``code``, when the clauses before it
    quote none and say enough on their own; or, its first clause quoting it, the clauses after it that quote none
    ("Composer doesn't read a `GITLAB_TOKEN` env var; for a GitLab package registry it needs a `gitlab-token`
    entry")."""
    clauses = sentence.split("; ")
    at = next((n for n, clause in enumerate(clauses) if any(f"`{c}`" in clause for c in code)), None)
    head = "; ".join(clauses[:at]) if at else ""
    if at == 0 and len(clauses) > 1 and not any(f"`{c}`" in clause for clause in clauses[1:] for c in code):
        head = "; ".join(clauses[1:])
        head = head[:1].upper() + head[1:]
    return head.rstrip(" ,.") + "." if len(head) >= 30 else sentence


def _give_inner_changes_away(chains: list[dict]) -> None:
    """A change made for another problem that failed and was fixed while this one was still open (``expo-doctor``
    flagged a version, pinned, passed; then the EAS build passed) belongs to that problem, not to both."""
    for outer in chains:
        inner_ids = {c["id"] for inner in chains if inner is not outer
                     and outer["failure"]["id"] < inner["failure"]["id"] and inner["success"]["id"] <= outer["success"]["id"]
                     and inner["kind"] != "error_changed" and outer["kind"] != "error_changed"
                     and not _refused_flag_left_out(inner)  # (its fix is how it was called: the edits are the outer's)
                     # (nor a probe checked only by the outer problem's own passing run: ``node -e "require.resolve(
                     # 'N/record')"``, never run again, passes by the ``npm test`` that failed first)
                     and not (inner["kind"] == "other_check" and inner["success"]["id"] == outer["success"]["id"])
                     # (a formatter's repair owns no edit on its way: ``tofu fmt modules/network/main.tf`` after
                     # the ``for_each`` rewrite that ``tofu plan`` was failing on)
                     for c in ([inner["success"]] if is_autofix(inner["success"]["target"]) else
                               [*inner["changes"], *inner["attempts"], inner["success"]])}
        # (an edit to a file the outer problem's own changes touch stays: it may correct one of them, and the net
        # change must see it: ``fmt/10.2.1`` then ``fmt/10.1.1`` in conanfile.txt)
        own_files = {f for c in outer["all_changes"] if c["id"] not in inner_ids for f in c.get("files") or []}
        inner_ids = {i for i in inner_ids if not any(set(c.get("files") or []) & own_files
                                                    for c in outer["all_changes"] if c["id"] == i)}
        if inner_ids:
            for key in ("changes", "attempts", "all_changes"):
                outer[key] = [c for c in outer[key] if c["id"] not in inner_ids]


# a sentence that announces what was written ("Added `Billing::OverdueBalance` (`app/services/…`) and its spec.")
_WROTE = LazyRegex(r"\W*(?:I\s+)?(?:added|created|wrote|implemented|scaffolded)\b", re.I)


def _announces_the_task(sentence: str, chain: dict, cwd: str | None) -> bool:
    """Whether ``sentence`` announces the work the session wrote before this failure, quoting nothing else: the
    task, though the fix later edited the same file (``# typed: strict`` added to the class it announces)."""
    spans = _code_spans(sentence)
    written = chain.get("_written") or {}
    return bool(spans and _WROTE.match(sentence) and written) and all(
        span in written["text"] or any(span in (path, _rel(path, cwd), os.path.basename(path))
                                       for path in written["files"]) for span in spans)


def _kills_a_pid(command: str) -> bool:
    """Whether a step of the line kills a process by its number (``kill 73122``): a number no later session has."""
    return any(re.fullmatch(r"(?:sudo\s+)?kill\s+(?:-\w+\s+)*\d+(?:\s+\d+)*", parse_command(segment)["check"])
               for segment in parse_command(command)["segments"])


def _without_options(line: str, spans) -> str:
    """``line`` less the options among ``spans`` (what the account says changed nothing): ``npm run test:e2e``
    for ``npm run test:e2e -- --runInBand``."""
    for option in sorted(span for span in spans if span.startswith("-")):
        line = re.sub(rf"\s+{re.escape(option)}(?!\S)", "", line).removesuffix(" --")
    return line


def _named_by_error(parts: list[str], error: str, passing: str) -> list[str]:
    """``parts`` with the options the error names first, each with the value the passing line gives it: ``pass `-g
    rg-payments-prod``` before a ``--query`` added beside it, where az said "the following arguments are required:
    --resource-group/-g"."""
    argv = parse_command(passing)["argv"]
    named, was = [], []
    for part in parts:
        option = part[len("pass `"):-1] if part.startswith("pass `") else ""
        if option.startswith("-") and re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", error):
            at = argv.index(option) if option in argv else -1
            value = argv[at + 1] if 0 <= at < len(argv) - 1 and not argv[at + 1].startswith("-") else ""
            named.append(f"pass `{option} {value}`" if value and re.search(r"(?i)\brequired\b", error) else part)
            was.append(part)
    return named + [part for part in parts if part not in was]


def _passed_together(parts: list[str], passing: str) -> list[str]:
    """``parts`` with the options the passing line gives side by side said as one, in its order (``pass `-m
    pipelines.definitions -d src``` for ``pass `-d src```, ``pass `-m pipelines.definitions```)."""
    line = " " + " ".join(passing.split())
    # (each where the line gives it, its words quoted or not: ``--apiKey "$ASC_KEY_ID"`` for ``pass `--apiKey
    # $ASC_KEY_ID```; said as the line says it)
    spans = {p: m for p in parts if p.startswith("pass `") and (m := re.search(
        r"(?<=\s)" + r"\s+".join(rf"[\"']?{re.escape(w)}[\"']?" for w in p[len("pass `"):-1].split()) + r"(?=\s|$)",
        line))}
    runs: list[list[str]] = []
    for part in sorted(spans, key=lambda p: spans[p].start()):
        if runs and not line[spans[runs[-1][-1]].end():spans[part].start()].strip():
            runs[-1].append(part)
        else:
            runs.append([part])
    merged = {run[0]: f"pass `{line[spans[run[0]].start():spans[run[-1]].end()]}`" for run in runs if len(run) > 1}
    gone = {q for run in runs if len(run) > 1 for q in run[1:]}
    return [merged.get(p, p) for p in parts if p not in gone] if merged else parts


# an attempt kept, as the account says ("I left the heredoc since it reads better")
_LEFT_AS_IT_WAS = LazyRegex(r"(?i)\bI(?:'ve)? (?:left|kept) (?:the|it|that|them|those)\b(?! \w+ out\b)")


_REVERTED = LazyRegex(r"(?i)\b(?:reverted|undid|undone|backed (?:it |that )?out|took (?:it |that )?(?:back )?out|"
                      r"rolled (?:it |that )?back|put (?:it |that |`[^`]+` )?back)\b")


def _seen_again(outer: dict, inner: dict) -> bool:
    """Whether ``inner`` failed, after ``outer`` had, with the message ``outer``'s failure printed (40 characters of it
    at least, however each wraps it: ``[ERROR] Max connect timeout reached while reaching hostgroup 10`` in a log,
    ``OperationalError: (9001, 'Max connect timeout reached while reaching hostgroup 10 …')`` in the check), and
    passed before it did."""
    said = inner["failure"].get("error_signature") or ""
    if not (outer["failure"]["id"] < inner["failure"]["id"] and inner["success"]["id"] <= outer["success"]["id"]
            and "error_changed" not in (outer["kind"], inner["kind"]) and len(said) >= 40
            and said != outer["failure"].get("error_signature")):
        return False
    printed = "\n".join(normalise(line) for line in (outer["failure"].get("error_text") or "").splitlines())
    return difflib.SequenceMatcher(None, said, printed, autojunk=False).find_longest_match(
        0, len(said), 0, len(printed)).size >= 40


# a value a command prints to be copied: a digest or an id, long, of letters and digits mixed
_PRINTED_VALUE = LazyRegex(r"\b[0-9a-f]{32,}\b|"
                           r"(?<![\w+/=-])(?=[\w+/=-]*\d)(?=[\w+/=-]*[A-Za-z])[\w+/=-]{24,}(?![\w+/=-])")


# a name of words and versions, not a printed value: ``sentence-transformers/all-MiniLM-L6-v2``
_NAMED_IN_WORDS = LazyRegex(r"[A-Za-z]+\d*(?:[-_/.][A-Za-z][A-Za-z0-9]*)+")


def _spaced(text: str) -> str:
    """``text`` with its runs of spaces as one: a column lined up, ``currency     char(3)``, is ``currency char(3)``
    as the account quotes it."""
    return " ".join(text.split())


def _named_as_file(path: str, sentence: str, cwd: str | None, programs: set[str]) -> bool:
    """Whether ``sentence`` names the edited file: by its name, or, where that is a program the check runs too (dune's
    build files are ``dune``), by its path."""
    name = os.path.basename(path)
    return (_rel(path, cwd) if name in programs else name) in sentence


def _tried_edit(attempt: dict, cwd: str | None, outcome: str, kept: list[str] = ()) -> list[str]:
    """An edit tried, one line per file: "tried to add `x` in path: still failed", "tried `a` → `b` in path: …";
    by what it added that the fix did not keep (``kept``, shown as standing)."""
    tried = []
    for path, hunks in net_changes([attempt], cwd).items():
        if hunks:
            own = [l for l in hunks[0]["new"].splitlines() if l.strip() and l not in kept]
            short = _short_diff(dict(hunks[0], old=hunks[0]["old"] + "\n" + "\n".join(kept)) if own else hunks[0])
            verb = "to " if re.match(r"(?:add|remove|move|rewrite)\b", short) else ""
            tried.append(f"tried {verb}{short} in {path}: {outcome}")
    return tried


def _edit_words(edit: dict, cwd: str | None) -> set[str]:
    """The words of what ``edit`` added and of its file's name, names split where their case turns
    (``hostedZoneID`` → hosted, zone; ``cluster-issuer.yaml`` → cluster, issuer)."""
    text = " ".join([*_added_lines(edit), *(os.path.basename(_rel(p, cwd)) for p in edit.get("files") or [])])
    return _plain_words(re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", text)) - _STOP


def _edits_and_later(chain: dict) -> tuple[list[dict], list[dict]]:
    """The edits among ``chain``'s changes, and the session's later edits of the same files."""
    edits = [c for c in chain["all_changes"] if c["tool"] in EDIT_TOOLS]
    files = {f for e in edits for f in e.get("files") or []}
    return edits, [o for o in chain.get("_later_edits") or () if set(o.get("files") or []) & files]


def _put_back(chain: dict, cwd: str | None) -> bool:
    """Whether every change of ``chain`` was undone later in the session: each edit folded away by a later one that
    restored the text or its file put back as committed, each package it added removed again (``uv add s3fs`` … ``uv
    remove s3fs``)."""
    edits, later = _edits_and_later(chain)
    steps = [c for c in chain["all_changes"] if c not in edits]
    # (or each file it edited put back as committed afterwards: ``git checkout
    # arm_moveit_config/config/kinematics.yaml`` after the longer solver timeout changed nothing)
    restored = [p for o in chain.get("_after") or () for p in _put_back_paths(o)]
    if edits and not steps and restored and all(
            e.get("files") and all(_among(restored, [f]) for f in e["files"]) for e in edits):
        return True
    if not chain["all_changes"] or not all(c["tool"] == "Bash" and _packages(c["target"]) for c in steps):
        return False
    # (only what a later edit of its file took out; a change whose content is not stored, to an excluded ``.env.test``,
    # shows no hunks to fold)
    if any((e.get("meta") or {}).get("content_withheld") or not set(e.get("files") or []) & {
            f for o in later for f in o.get("files") or []} for e in edits):
        return False
    ids = {e["id"] for e in edits}
    if any(set(h["ids"]) & ids for hunks in net_changes(edits + later, cwd).values() for h in hunks):
        return False
    removed = {package for o in chain.get("_after") or ()
               if re.search(r"\b(?:remove|uninstall|rm)\b", parse_command(o["target"])["check"])
               for package in {package_name(w) for w in parse_command(o["target"])["argv"][2:]
                               if not w.startswith("-")}}
    return all(_packages(c["target"]) <= removed for c in steps)


def _checked_again(chain: dict) -> bool:
    """Whether the check that passed ``chain`` passed again after a later edit of its files."""
    _, later = _edits_and_later(chain)
    checked = command_key(chain["resolved_by"].get("target") or "")
    return bool(later and checked) and any(o["id"] > later[0]["id"] and command_key(o["target"]) == checked
                                           for o in chain.get("_after") or ())


def _rewritten_later(chain: dict, cwd: str | None) -> bool:
    """Whether no line ``chain``'s edits added is left once the later edits of its files are made: the line written
    over by the next fix (``Bundle(for: GameCenterConfig.self)``, which then did not compile, made ``Bundle(for:
    BundleToken.self)``)."""
    edits, later = _edits_and_later(chain)
    added = {line.strip() for e in edits for line in _added_lines(e) if len(line.strip()) >= 8}
    if not added or not later or any((e.get("meta") or {}).get("content_withheld") for e in edits + later):
        return False
    kept = {line.strip() for hunks in net_changes(edits + later, cwd).values() for h in hunks
            for line in h["new"].splitlines()}
    return not added & kept


def _consequence(chain: dict, chains: list[dict]) -> bool:
    """Whether ``chain`` passed after an earlier problem had, on its way, with no change of its own besides that
    problem's: the same problem, seen again through another check."""
    for other in chains:
        if other is chain or other["failure"]["id"] >= chain["failure"]["id"] or other["kind"] == "error_changed" \
                or not chain["failure"]["id"] < other["success"]["id"] <= chain["success"]["id"]:
            continue
        theirs = {c["id"] for c in other["all_changes"]} | {other["success"]["id"]}
        # (and its check run again since, however: ``uv run alembic downgrade -1 && uv run alembic upgrade head``
        # after ``make migrate``, whose recipe runs ``uv run alembic upgrade head``)
        checked = command_key(other["success"]["target"])
        theirs |= {c["id"] for c in chain["all_changes"] if c["id"] > other["success"]["id"] and c["tool"] == "Bash"
                   and c["outcome"] == "ok" and any(command_key(step) == checked or _recipe_line(other["failure"], step)
                                                    for step in _and_steps(c["target"]) or [c["target"]])}
        if chain["all_changes"] and all(c["id"] in theirs for c in chain["all_changes"]):
            return True
    return False


def session_candidates(store: Store, session_id: str, last_message: str | None,
                       details: dict | None = None) -> tuple[list[dict], list[str]]:
    """The lessons a session teaches (deterministic), and reason codes when it teaches none.

    ``details``, when given, is filled with the failures each reason code is about (for the receipt).
    """
    session = store.get_session(session_id)
    if session is None:
        return [], ["unknown_session"]
    observations = [_mcp_outcome(_logged_failure(_all_skipped(_through_pipe(o))))
                    for o in store.session_observations(session_id)]
    prompts = store.session_prompts(session_id)
    observations = _status_failed(_asserted_after(observations))
    # (a request answered with nothing is a failure only where the user reports something missing: "Traces … stopped
    # showing up in Tempo"; an endpoint written in the session answers with nothing before it is written)
    if any(_GONE_MISSING.search(p["text"]) for p in prompts):
        observations = _empty_answers(observations)
    # (and a listing that lacks what the user reports missing from it: "`s3` doesn't show up in `acmectl --help`")
    observations = _absent_from_listing(observations, " ".join(p["text"] for p in prompts))
    # (and a value set that the run did not take up, taken up after an edit: ``API_BASE=…`` printed back as the default)
    observations = _value_not_taken_up(observations)
    # (and a warning a run printed, where the user reports one: "every psql session prints a collation version
    # mismatch warning")
    if any(re.search(r"(?i)\bwarn(?:ing|ings|s)?\b", p["text"]) for p in prompts):
        observations = _warnings_gone(observations)
    # (and a plan that destroys, where the user asks to keep what it would destroy: "now the prod plan wants to
    # destroy and recreate it … make the plan a no-op")
    if any(re.search(r"(?i)\b(?:destroy|destroys|destroying|recreate|replace|replacing|no-op)\b", p["text"])
           for p in prompts):
        observations = _plans_destroying(observations)
    said = stated(last_message)
    said["text"] = last_message or ""
    chains, notes = find_chains(observations, last_message or "", details)
    # a service's log read after its start had failed, seen working by the same run that mended the start, with no
    # change of its own: the same problem seen again, not another (``docker compose logs api`` after ``docker compose
    # up -d --wait`` failed, both resolved by the ``up --wait`` after the healthcheck)
    chains = [b for b in chains if not (b["kind"] == "other_check" and b["failure"].get("log_of") and any(
        a is not b and a["failure"]["id"] < b["failure"]["id"] and a["success"]["id"] == b["success"]["id"]
        and {c["id"] for c in b["changes"]} <= {c["id"] for c in a["all_changes"]} for a in chains))]
    # (and two ways of a job that both failed, then the project's way passed: one lesson, the way, not one per way
    # tried: ``godot --script test/…gd`` and ``godot -s addons/gut/gut_cmdln.gd`` before ``./scripts/run_tests.sh``)
    # (or the failing check itself, run the way that passed: ``cabal test`` → ``nix develop -c cabal test``, beside
    # the ``just test`` that could not run, whose recipe was that way)
    chains = [b for b in chains if not (b["kind"] == "same_job" and any(
        a is not b and a["kind"] in ("same_job", "same_check") and a["failure"]["id"] < b["failure"]["id"]
        and a["success"]["id"] == b["success"]["id"] and a["resolved_by"]["target"] == b["resolved_by"]["target"]
        and {c["id"] for c in b["all_changes"]} <= {c["id"] for c in a["all_changes"]} for a in chains))]
    # the same error seen again through the step the failing check runs, then mended for both: one problem, named by
    # the check that failed first (``cd ios && pod install --repo-update`` failing with the "Specs satisfying …"
    # that ``flutter build ios`` had printed; the retry was an attempt at the build's problem, not a problem of its own)
    chains = [b for b in chains if not any(_seen_again(a, b) for a in chains if a is not b)]
    # (a listing's failure, resolved by another run that had itself failed after some of the changes, is that run's
    # problem: ``kubectl wait --for=condition=Ready certificate/…`` timing out after the zone ID pinned on the issuer,
    # then passing after the resolver flags; what came before its failure were attempts)
    chains = [a for a in chains if not (a["failure"].get("listed") and any(
        b is not a and b["resolved_by"]["id"] == a["resolved_by"]["id"] and b["failure"]["id"] > a["failure"]["id"]
        and command_family(b["failure"]["target"]) == command_family(a["resolved_by"]["target"])
        and _same_target(b["failure"]["target"], a["resolved_by"]["target"]) for b in chains))]
    # a linter's or type checker's pass on the way to a failing test's fix, the test never passing after it: the
    # change reads clean, nothing shows it mends what failed (``verilator --lint-only`` after cocotb's test_full_flag
    # failed, the lint's complaint the edit's only check)
    in_chains = {f["id"] for c in chains for f in c["failures"]}
    left = [o["id"] for o in observations if o["outcome"] == "error" and o["tool"] == "Bash"
            and o["id"] not in in_chains and _is_check(o) and not is_static_check(o["target"])
            and (_CHECK_FAILED.search(o.get("error_text") or "")
                 or re.search(r"\b[1-9]\d* (?:failed|failures?)\b|\bFAIL=[1-9]", o.get("error_text") or ""))]
    chains = [c for c in chains if not (is_static_check(c["failure"]["target"])
                                        and any(at < c["failure"]["id"] for at in left))]
    chains = _join_settings(chains)
    _give_inner_changes_away(chains)
    chains = _join_the_ways_step(chains)
    # a failure mended by another problem's fix, with no change of its own: a consequence of that problem
    # (``spctl`` "Unnotarized Developer ID" after the notary said Invalid, passing once the resubmission was accepted)
    chains = [b for b in chains if not _consequence(b, chains)]
    candidates = []
    cwd = session.get("cwd")
    reported = any(_REPORTED.search(s) for p in prompts for s in _sentences(p["text"]))
    # (and the code of what the account says it took out again: "Adding `cnameStrategy: Follow` to the solver didn't
    # change anything, so I reverted it", each sentence whole, its ", so I reverted it" too)
    reverted_code = [span for sentence in re.split(r"(?<=[.!?])\s+", said["text"]) if _REVERTED.search(sentence)
                     for span in _code_spans(sentence) if len(span) >= 6]
    # (the files the session moved, once: a move back after one of them is no step of a fix)
    moves = [(o["id"], tuple(m)) for o in observations
             if o["tool"] == "Bash" and o["outcome"] == "ok" and (m := _moved(o.get("target") or ""))]
    # (and the files it put back as git has them, once: a file put back since the session's edit is the project's again)
    restorations = [(o["id"], p) for o in observations if o["tool"] == "Bash" and o["outcome"] == "ok"
                    for p in _restored_paths(o.get("target") or "")]
    for chain in chains:
        earlier = [o for o in observations if o["id"] < chain["failure"]["id"] and o["tool"] in EDIT_TOOLS]
        earlier_edits = {f for o in earlier for f in o.get("files") or []}
        changed = {f for c in chain["all_changes"] for f in c.get("files") or []}
        chain["_earlier_files"] = earlier_edits - changed
        # (the edits made after something had failed: attempts a later fix may take out again; not the session's
        # own work before any failure, which a fix may rewrite)
        # (or after the user reported one: "Notarization keeps coming back Invalid", ``--deep`` tried, then replaced)
        reverted = [o for o in earlier if any(span in line for line in _added_lines(o) for span in reverted_code)]
        chain["_before"] = earlier
        chain["_moved_before"] = {move for at, move in moves if at < chain["failure"]["id"]}
        chain["_earlier"] = [o for o in earlier if reported or o in reverted or any(
            f["outcome"] == "error" and f["id"] < o["id"] for f in observations)]
        chain["_earlier_text"] = " ".join(_changed_text(o) for o in earlier
                                          if not set(o.get("files") or []) & changed)
        # (all of it: a created file's whole text, an edit's changed lines)
        chain["_written"] = {"files": earlier_edits, "text": " ".join(
            _edit_sides(o)[0][1] if o["tool"] == "Write" else _changed_text(o) for o in earlier)}
        # (the error text, not only its signature: "syntax error" may sit below the line the signature keeps)
        own_mess = _SELF_INFLICTED.search(chain["failure"].get("error_text") or chain["failure"].get("error_signature")
                                          or "") \
            or is_static_check(chain["failure"]["target"]) \
            or _compile_error_in(chain["failure"], earlier_edits) \
            or _passed_before(chain["failure"], observations)
        # (or a name the session's own new code used before defining it, defined now: ``settings_quiet_hours`` in
        # strings.xml for the screen's ``stringResource(R.string.settings_quiet_hours)``)
        # a typo, or a linter's or type checker's complaint, in a file this session had just written and then
        # corrected in place: the session cleaning up its own work, nothing to reuse
        # (not a file the session put back as git has it since its edit: ``git checkout -- scripts/build_scatter.py``
        # after ``ng.interface.inputs.new`` failed, the fix then made to the project's own line)
        restored = {p for at, p in restorations if at < chain["resolved_by"]["id"]}
        mine = {f for f in earlier_edits if _rel(f, cwd) not in restored and f not in restored}
        chain["_self_inflicted"] = bool(
            own_mess and changed and (changed <= mine or _defines_what_it_used(chain, earlier, mine))
            and not _convention_stated(chain, said, cwd))
    # (the problems a sentence may be about: not the session's own mess, cleaned up on the way to another's fix)
    lessons = [chain for chain in chains if not chain["_self_inflicted"]]
    for chain in chains:
        chain["_rivals"] = [fix_words_of(other, cwd) for other in lessons if other is not chain]
    if len(lessons) > 1:
        said = split_shared(said, [fix_words_of(c, cwd) | _problem_words(c) for c in lessons])
    for chain in chains:
        if chain["_self_inflicted"]:
            notes.append("self_inflicted")
            _detail(details, "self_inflicted", chain["failure"])
            continue
        chain["_removed_tests"] = [path for o in observations
                                   if chain["failure"]["id"] < o["id"] < chain["resolved_by"]["id"]
                                   and o["tool"] == "Bash" and o["outcome"] == "ok"
                                   for path in removed_paths(o["target"])
                                   if _TEST_PATH.search(path) or _REFERENCE_IMAGE.search(path)]
        chain["_moved_away"] = [path.removeprefix("./") for o in observations
                                if chain["failure"]["id"] < o["id"] < chain["resolved_by"]["id"]
                                and o["tool"] == "Bash" and o["outcome"] == "ok" for path in moved_paths(o["target"])]
        chain["_after"] = [o for o in observations if o["id"] > chain["resolved_by"]["id"] and o["tool"] == "Bash"
                           and o["outcome"] == "ok"]
        chain["_later_edits"] = [o for o in observations if o["id"] > chain["resolved_by"]["id"]
                                 and o["tool"] in EDIT_TOOLS]
        chain["_ran_before"] = [o["target"] for o in observations if o["id"] < chain["failure"]["id"]
                                and o["tool"] == "Bash" and o["outcome"] == "ok"]
        # (every run on the way, looks too: ``SNOWFLAKE_ACCOUNT=xy12345.eu-central-1 uv run …`` before the .env edit)
        chain["_ran_between"] = [o["target"] for o in observations if o["tool"] == "Bash"
                                 and chain["failure"]["id"] <= o["id"] < chain["resolved_by"]["id"]]
        chain["_between"] = [o for o in observations if chain["failure"]["id"] < o["id"] < chain["resolved_by"]["id"]]
        candidate = candidate_from_chain(session, chain, said, prompts)
        if candidate is None:
            notes.append(chain.get("_skip") or "no_lesson_stated")
            _detail(details, chain.get("_skip") or "no_lesson_stated", chain["failure"])
            continue
        candidates.append(candidate)
    # a "decision" made while a failure stayed unresolved is an attempt at it, not a choice a reader can reuse (nor the
    # account of a one-off: "since the config pins the port with `strictPort: true`" of the stale vite killed)
    if not candidates and not {"weakened_test", "unresolved_failure", "local_state"} & set(notes):
        # (a failure the user reported, only when none ran: one that ran and taught nothing says why in ``notes``)
        # (a search that found nothing on the way, ``grep -rn … config/`` exit 1, is no failure that ran)
        found = None if set(notes) - {"routine_plumbing"} else candidate_from_report(session, said, observations,
                                                                                   prompts)
        found = found or candidate_from_decision(session, said, observations, prompts)
        if found:
            candidates.append(found)
    if not candidates and not notes:
        if any(_is_change(o) for o in observations):
            notes.append("no_lesson_stated")
        elif observations:
            notes.append("exploration_only")
        else:
            notes.append("no_activity")
    for candidate in candidates:
        candidate["project_key"] = session["project_key"]
    return candidates, sorted(set(notes))


# the user asking for tests that run without a service or tool they needed ("Make the agent tests run without Kafka")
_TESTS_WITHOUT = LazyRegex(r"(?i)\b(?:make|get|let)\s+(?:the\s+|our\s+|these\s+|those\s+)?(?:[\w-]+\s+)?tests?\s+"
                           r"(?:run|work|pass)\s+without\b")


# a lock that another run holds (terraform's state lock, apt's and dpkg's, git's index, SQLite's database)
_LOCK_HELD = LazyRegex(r"Error acquiring the state lock|Could not get lock /|Unable to acquire the dpkg frontend lock|"
                       r"index\.lock'?: File exists|\bdatabase is locked\b|Waiting for cache lock")


# why a session gave no candidate
REASON_TEXT = {
    "retry_without_change": "a command failed, then passed on a retry with no change in between: nothing was learned",
    "unresolved_failure": "a failure was never resolved in this session (the failing check did not pass again): "
                          "no validated lesson",
    "self_inflicted": "the only failures were syntax, lint or type errors in files this session had just written, "
                      "corrected in place: the session cleaning up its own work",
    "no_lesson_stated": "files changed, but no failure was resolved and no decision or cause was stated",
    "exploration_only": "the session only explored (reads, searches, passing commands): nothing changed",
    "no_activity": "the session did nothing lorebook could learn from",
    "unknown_session": "lorebook has no record of this session",
    "routine_plumbing": "the failures were routine plumbing (version control, shell navigation, formatters, a "
                        "linter's own auto-fix): not a lesson",
    "weakened_test": "the failing test was made to pass by weakening it (skipped, loosened, renamed or deleted): "
                     "not a fix, nothing stored",
    "unrelated_change": "the check passed again, but nothing changed in between plausibly addresses its failure",
    "upstream_change": "the check passed once other people's changes were pulled or merged in: their fix, not a "
                       "lesson from this session",
    "local_state": "the check passed once something left on this machine (an old container, a process holding a "
                   "port) was stopped or removed, or a service that had stopped by itself was started again: a "
                   "one-off, not a lesson for the project",
    "attempt": "the agent says the change did not help (it only traded the failure for another): an attempt, not a "
               "lesson",
    "flaky_failure": "the agent called the failure flaky or transient (it passed on a rerun): what changed in "
                     "between is not its fix",
    "instruction_injection": "the final message contains text aimed at steering future agents "
                             "(\"ignore previous instructions\"…): nothing from this session is stored",
}
