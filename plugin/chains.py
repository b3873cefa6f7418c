"""Chains: a failing check, the changes after it, and the later run that passed again (``find_chains``).

One failure may hold several problems (split by error line or by the file each edit names); a server that stayed up,
a check run another way, or a retry with nothing changed each decide whether the chain resolved it.
"""
from __future__ import annotations

import fnmatch
import os
import re
import urllib.parse

from .account import _NOT_ENOUGH, _STOP, _code_spans, _prose, _sentences, _tokens
from .commands import (_MUTATING, _NOT_A_FIX_FLAG, _PACKAGE_RUNNERS, _PRELOAD_OPTIONS, _PROBE, _READERS, _ROUTINE,
                       _SAYS_MORE, _SELECTS_TESTS, _SHELL_TOKEN, _SUBCOMMAND_JOBS, _TEST_PATH, _TIMEOUT, _VALUE_OPTIONS,
                       _and_steps, _asks_version, _before_pipe, _exec_split, _first_word, _inline_code,
                       _interpreter_code, _picked_package, _program_name, _routine, _same_target, _segments, _targets,
                       _words, is_static_check, checks_generated_output, command_family, command_job, command_key,
                       container_run, container_words, config_variant, counting_search, goals_put_before,
                       invocation_change, is_autofix, other_subcommand, parse_command, program_variant, quoted_again,
                       removed_paths, removed_with, runs_the_phase_of, statements_put_before, subcommand_variant)
from .edits import _CI_CONFIG, _RUNS_PIPELINE, _added_lines, _changed_lines, _changed_text, _edit_sides, net_changes
from .events import EDIT_TOOLS
from .quality import LazyRegex
from .record import _failed_step
from .steps import (_INSTALL, _LOGGED_ERROR, _THE_WAY, _UNREACHABLE, _adds_with_another_tool, _ci_again,
                    _clears_local_state, _is_change, _is_check, _named_as_the_way, _named_by_error, _names_run,
                    _packages, _tests_config_only, status_read_again)
from .signatures import CHECK_FINDING, error_line, error_signature, is_wrapper_line
from .text import common_ends, one_line
from .weakening import _DESELECTS


# --- the session's timeline ----------------------------------------------------------------------

# the flag that makes a tool run its tests, left out (``Unity -batchmode … -runTests`` → ``… -quit``)
_RUNS_TESTS_FLAG = LazyRegex(r"(?i)(?:^|\s)-{1,2}run-?tests?(?=\s|$)")
_RUNS_TESTS = LazyRegex(r"(?i)without `-{1,2}run-?tests?`")


def _cd_failure(observation: dict) -> bool:
    return bool(re.search(r"\bcd: [^:]+: No such file or directory", observation.get("error_text") or ""))


_NOT_FOUND = LazyRegex(r"(?m)(?:^|: )([\w.+-]+): (?:command )?not found\s*$|command not found: ([\w.+-]+)")


def _missing_program(failure: dict) -> str | None:
    """The program a failing shell line could not find (``jq: command not found``): in a pipeline, the stage
    that failed, which need not be the first."""
    match = _NOT_FOUND.search(failure.get("error_text") or "")
    return (match.group(1) or match.group(2)) if match else None


def _detail(details: dict | None, code: str, failure: dict) -> None:
    """Record which failure a reason code is about, for the receipt ("`git push` (fatal: no upstream…)")."""
    if details is not None:
        error = _raw_error_line(failure) or "failed"
        details.setdefault(code, []).append(f"`{one_line(command_key(failure['target']), 80)}` "
                                            f"({one_line(error, 80)})")


# a lockfile behind its manifest: pnpm, npm ci, yarn --immutable, poetry, uv --locked, cargo --locked, bundler
_STALE_LOCKFILE = LazyRegex(r"(?i)ERR_PNPM_OUTDATED_LOCKFILE|lockfile (?:is not up to date|needs to be updated|would "
                            r"have been modified)|package\.json and package-lock\.json (?:or npm-shrinkwrap\.json )?are "
                            r"not in sync|poetry\.lock (?:is not consistent|was last generated)|lock file (?:is not up "
                            r"to date|needs to be updated)|uv\.lock needs to be updated|Cargo\.lock needs to be updated|"
                            r"frozen mode|gemfile\.lock .{0,40}(?:changed|out of date)")
_MANIFEST = LazyRegex(r"(?:^|/)(?:package\.json|pyproject\.toml|Cargo\.toml|Gemfile|composer\.json|go\.mod|mix\.exs|"
                      r"pubspec\.yaml|Package\.swift|[\w.-]+\.gemspec)$")


def _own_stale_lockfile(failure: dict, before: list[dict]) -> bool:
    """A lockfile behind a manifest this session had just edited: regenerating it is routine, not a lesson."""
    return bool(_STALE_LOCKFILE.search(failure.get("error_text") or "")) and any(
        o["tool"] in EDIT_TOOLS and any(_MANIFEST.search(f) for f in o.get("files") or []) for o in before)


def _leaves_out_until(failure: dict, run: dict, rest: list[dict], family: str, account: str = "") -> bool:
    """Whether ``run`` passed by leaving tests out (``--deselect``, ``-k "not …"``) that ``failure`` ran, and the
    same check passes later, whole, or the way the account names on the same target (``./scripts/validate.sh
    clusters/eu-west/ingest-workers`` after ``… | kubeconform -ignore-missing-schemas``): the run that left them out
    saw the rest pass, not the failure mended."""
    # (or the failing step left out by a flag named for it: ``--no-notarize`` after "Notarization failed")
    skipped = [w for w in re.findall(r"(?:^|\s)--(?:no|skip|without)-([a-z]{5,})\b", run["target"])
               if w not in failure["target"] and w[:6].lower() in (failure.get("error_text") or "").lower()]
    if not (_DESELECTS.search(run["target"]) or skipped) or _DESELECTS.search(failure["target"]):
        return False
    paths = {w for segment in _segments(failure["target"]) for w in parse_command(segment)["argv"][1:] if "/" in w}
    return any(o["outcome"] == "ok" and _is_check(o) and not _DESELECTS.search(o["target"]) and (
        command_family(o["target"]) == family and _same_target(failure["target"], o["target"])
        or _named_as_the_way(o["target"], account) and paths & set(parse_command(o["target"])["argv"][1:]))
        for o in rest)


def _left_out_then_kept(failure: dict, run: dict, rest: list[dict], family: str) -> bool:
    """Whether ``run`` passed only by leaving out what ``failure`` ran with (``--direct_running_mode
    multi_processing``) and a later passing run of the same check keeps all of it (``… multi_processing
    --direct_num_workers 4 --save_main_session``): the run without it showed where the failure lies; the later one
    mends it."""
    if run["tool"] != "Bash" or command_family(run["target"]) != family \
            or other_subcommand(failure["target"], run["target"]) or not _same_target(failure["target"], run["target"]):
        return False  # (``arduino-cli lib install …`` is a step, not ``arduino-cli compile …`` left short)
    dropped = invocation_change(failure["target"], run["target"])
    if not dropped or not all(part.startswith("without") for part in dropped):
        return False
    return any(o["outcome"] == "ok" and o["tool"] == "Bash" and _is_check(o) and command_family(o["target"]) == family
               and _same_target(failure["target"], o["target"])
               and not any(part.startswith("without") for part in invocation_change(failure["target"], o["target"]))
               for o in rest)


def _picked_then_passed_whole(failure: dict, run: dict, rest: list[dict]) -> bool:
    """Whether ``run`` passed on test files it picked, the failing run having picked others, and the failing run
    itself passes later, after an edit (``pytest tests/test_shifter.py tests/test_alu.py -q`` in that order, then the
    conftest fixture that made ``pytest tests/ -q`` pass): the picked files were a look at which test leaks."""
    picked = [t for t in _targets(run["target"]) if _TEST_PATH.search(t)] if run["tool"] == "Bash" else []
    return bool(picked) and set(picked) != set(_targets(failure["target"])) and _passes_after_an_edit(failure, rest)


def _probed_before_an_edit(failure: dict, run: dict, rest: list[dict]) -> bool:
    """Whether ``run`` passed only run another way (``TZ=America/New_York bundle exec rspec …``) and, after an edit
    that stays, the very command that failed passes as it was: the other way showed where the failure lies (the
    machine's zone); the edit mends it."""
    tried = set(invocation_change(failure["target"], run["target"]))
    # (or only told to say more, its output cut: ``python3 scripts/asc_builds.py --app … --debug 2>&1 | head -6``)
    tried |= {f"say more with `{w}`" for w in set(parse_command(run["target"])["argv"])
              - set(parse_command(failure["target"])["argv"]) if re.fullmatch(r"--?(?:debug|verbose|trace|v+)", w)}
    family = command_family(failure["target"])
    if run["tool"] != "Bash" or not tried or command_family(run["target"]) != family \
            or other_subcommand(failure["target"], run["target"]):
        return False  # (``packer init .`` is a step before ``packer build``, no probe of it)
    edited = next((n for n, o in enumerate(rest) if o["tool"] in EDIT_TOOLS and o["outcome"] == "ok"), None)
    # (an edit for another run's failure on the way mends that one: ``dapr run --app-id order-processor …`` failing
    # after ``--resources-path ../components`` made the checkout's run pass)
    if edited is not None and any(o["tool"] == "Bash" and o["outcome"] == "error"
                                  and not _same_target(failure["target"], o["target"]) for o in rest[:edited]):
        return False
    # (as it was, or run another way that leaves the probe's own change out: ``bundle exec rspec …`` for ``rspec …``)
    return edited is not None and any(
        o["outcome"] == "ok" and o["tool"] == "Bash" and command_family(o["target"]) == family
        and _same_target(failure["target"], o["target"])
        and tried - set(invocation_change(failure["target"], o["target"])) for o in rest[edited + 1:])


# a push or commit turned down by the checks that run on it: a deploy's build on the remote (Heroku's "Push rejected,
# failed to compile Python app", "! [remote rejected] main -> main (pre-receive hook declined)") or a hook here
# (husky's "pre-push hook exited with code 1" after the catalog validator failed): a check that failed, not git
# plumbing
_REFUSED_BY_CHECKS = LazyRegex(r"(?m)^remote:.*\b(?:Push rejected|Build failed|failed to compile)\b|"
                               r"\[remote rejected\][^\n]*\(pre-receive hook declined\)|"
                               r"\bhusky - [\w-]+ hook exited with code [1-9]")
# a formatter that could not run as set up (prettier 3's ``No parser could be inferred for file "…/+page.svelte"``,
# its plugin no longer loaded by itself): its configuration's problem, not code to reformat
_FORMATTER_UNSET = LazyRegex(r"No parser could be inferred|Couldn't resolve parser|Cannot find (?:package|module) |"
                             r"Failed to load plugin|Invalid configuration|[Uu]nknown (?:option|configuration)")


# a run on the tree with the work in progress stashed away (``git stash && nimble build; git stash pop``)
_STASHED_RUN = LazyRegex(r"\bgit stash(?: (?:push|save)\b[^;&|]*)?\s*(?:&&|;)\s*\S")


def find_chains(observations: list[dict], account: str = "",
                details: dict | None = None) -> tuple[list[dict], list[str]]:
    """Problems resolved in the session, and reason codes for failures that taught nothing.

    A chain starts at a failing check and ends at the first later success of
    the same check (same program) or, with nothing edited in between, of
    another command that does the same job (``pytest`` → ``make test``). A
    failure with another error on the way splits the chain: each error is its
    own problem with its own fix.
    """
    chains: list[dict] = []
    notes: list[str] = []
    consumed: set[int] = set()
    for i, failure in enumerate(observations):
        if failure["id"] in consumed or failure["outcome"] != "error" or not _is_check(failure):
            continue
        missing = _missing_program(failure)
        if missing and not re.search(rf"(?:^|[|&;]\s*){re.escape(missing)}(?:\s|$)", failure["target"]):
            missing = None  # a program the check itself runs (``npm run build`` → vite): the check is the problem
        # (a log read back is routine as a command, not as what it shows: ``gh run view 938 --log-failed``)
        if (_ROUTINE.match(missing) if missing else _routine(failure["target"]) and not failure.get("logged")
                and not checks_generated_output(failure["target"])
                and not _FORMATTER_UNSET.search(failure.get("error_text") or "")
                and not _REFUSED_BY_CHECKS.search(failure.get("error_text") or "")
                and not _asserting_search(failure, observations[i + 1:])
                and not _listed_after_redoing(failure, observations[i + 1:])
                and not _pushed_for_review(failure, observations[i + 1:])) \
                or _cd_failure(failure) or _selected_nothing(failure) or _listing_searched_empty(failure) \
                or _own_stale_lockfile(failure, observations[:i]):
            notes.append("routine_plumbing")
            _detail(details, "routine_plumbing", failure)
            consumed.add(failure["id"])
            continue
        family = command_family(failure["target"])
        if missing and missing not in family.split():
            family = missing  # ``head f | jq .``: the stage that failed is jq
        job = command_job(failure["target"])
        adding = _packages(failure["target"])  # ``yarn add chart.js``: another tool adding chart.js is the way
        signature = failure.get("error_signature")
        events: list[dict] = [failure]
        success = None
        kind = None
        consumer = _pipe_consumer(failure["target"])
        runs_tests = bool(_RUNS_TESTS_FLAG.search(failure["target"]))  # (``Unity … -runTests``)
        for k, later in enumerate(observations[i + 1:], start=i + 1):
            if consumer and later["outcome"] == "ok" and later["tool"] == "Bash" \
                    and family.split()[0] in (words := [_program_name(w) for w in later["target"].split()]) \
                    and consumer not in words:
                # ``kustomize build overlays/prod > /dev/null`` is not the ``… | kubeconform -`` that failed (but it
                # may change what the check meets: ``xcodebuild -downloadPlatform iOS -buildVersion 17.5`` before
                # the ``xcodebuild test … | xcpretty`` that found no iOS 17.5 simulator)
                if _is_change(later, failure, account):
                    events.append(later)
                continue
            # (not where the failing run is a step before the look: ``./scripts/check-changelog.sh && git diff
            # --stat``)
            if later["outcome"] == "ok" and later["tool"] == "Bash" and _GIT_LOOK.match(
                    parse_command(later["target"])["check"] or "") and not family.startswith("git") \
                    and not any(_is_change(dict(later, target=step), failure, account)
                                for step in parse_command(later["target"])["prep"]) \
                    and _the_step(failure["target"], later["target"]) is None:
                continue  # ``git diff HEAD~5 -- test/app.e2e-spec.ts`` looked at history; it ran no ``npx jest``
                # (not a step before it that wrote the tree: ``go run ./cmd/api openapi > api/openapi.yaml && git
                # diff --stat``)
            if later["outcome"] == "ok" and later["tool"] == "Bash" and _STASHED_RUN.search(later["target"]):
                continue  # ``git stash && nimble build; git stash pop`` built the tree without the work in progress: a
                # look at whether that work broke it, not the check passing
            if later["outcome"] == "ok" and later["tool"] == "Bash" and _asked_instead(failure["target"],
                                                                                      later["target"]):
                continue  # ``ksql … -e 'SHOW TABLES;'`` asks what is there; the ``… -f V000008__….sql`` that failed
                # ran a file
            if later["outcome"] == "ok" and later["tool"] == "Bash" and _SHELL_ENTRYPOINT.search(later["target"]) \
                    and not _SHELL_ENTRYPOINT.search(failure["target"]):
                continue  # ``docker compose run --rm --entrypoint sh beat -c 'id; pwd; ls -ld /app'`` looks inside
                # the service's container; it does not run the ``beat`` that failed
            if later["outcome"] == "ok" and later["tool"] == "Bash" \
                    and _other_query(_query(failure["target"]), _query(later["target"])):
                continue  # ``… | jq -r '.tasks[0].trace'`` asks another question than the ``… | jq -e '.tasks[0]
                # .state == "RUNNING"'`` that failed
            if runs_tests and later["outcome"] == "ok" and later["tool"] == "Bash" \
                    and command_job(later["target"]) != "test" and _same_program(failure["target"], later["target"]) \
                    and any(
                    _RUNS_TESTS.fullmatch(part) for part in invocation_change(failure["target"], later["target"])):
                continue  # ``Unity -batchmode -quit`` compiled the project; the ``-runTests`` that failed never ran
            if later["outcome"] == "ok" and (_leaves_out_until(failure, later, observations[k + 1:], family, account)
                                             or _left_out_then_kept(failure, later, observations[k + 1:], family)
                                             or _probed_before_an_edit(failure, later, observations[k + 1:])
                                             or _picked_then_passed_whole(failure, later, observations[k + 1:])):
                continue  # ``pytest -q --deselect tests/test_checkout.py::test_checkout_flow``, then the fix
            if later["outcome"] == "ok" and _wrote_nothing(later, observations[k + 1:k + 2]):
                continue  # ``Unity … -quit -runTests -testResults results.xml`` "passed", and results.xml is not there
            step = later["outcome"] == "ok" and _is_check(later) and _changed_step_within(failure["target"],
                                                                                         later["target"])
            if step:  # ``VAULT_NAMESPACE=… vault write … > out.json && jq … out.json``: that step passed
                success, kind = dict(later, target=step), "same_check"
                break
            # (not one that picks other tests by name: ``make SIM=verilator TESTCASE=test_fifo_reset`` after
            # test_fifo_full_flag failed)
            if _is_check(later) and later["outcome"] == "ok" and _passed_within(failure["target"], later["target"]) \
                    and _covers_failed_tests(failure, later["target"]) and not _other_tests(failure, later["target"]):
                success, kind = later, "same_check"  # ``go build ./... && go test ./...``, ``sail artisan test``
                step = _the_step(failure["target"], later["target"])
                # (or the same check run otherwise after it: ``… bash scripts/ci/version-tag.sh && GITHUB_HEAD_REF=
                # feat/login … bash scripts/ci/version-tag.sh`` ran the failing line first, as it was)
                if step and (parse_command(step)["check"] != parse_command(later["target"])["check"]
                             or " ".join(step.split()) != " ".join((_and_steps(later["target"]) or [""])[-1].split())):
                    # (a step before the last: ``./configure --quiet && echo configured`` ran the configure; the
                    # line up to it, ``autoreconf -fi && ./configure …``, what led to it)
                    steps = _and_steps(later["target"])
                    success = dict(later, target=" && ".join(steps[:steps.index(step) + 1]))
                if not invocation_change(failure["target"], later["target"]) and step is None:
                    kind = "same_job"  # ``cross build …`` for a failed ``cargo build …``: the way is the lesson
                break
            if later["outcome"] == "ok" and _is_check(later) and (
                    _built_by_its_tests(failure["target"], later["target"])
                    or _ran_its_tasks(failure["target"], later) or _built_and_ran(failure["target"], later["target"])
                    or goals_put_before(failure["target"], later["target"])):
                success, kind = later, "same_check"  # ``swift build`` failed; ``swift test`` built it, and passed
                break
            after = observations[k + 1] if k + 1 < len(observations) else None
            served = later["outcome"] == "ok" and _served_within(failure["target"], later, after)
            if served:  # ``… ledger daemon && sleep 2 && curl -s localhost:8088/health``: it started, and answered
                success, kind = dict(later, target=served), "same_check"
                break
            stayed = _stayed_up(failure["target"], later)
            if stayed:  # ``timeout 8 celery -A config beat; echo exit=$?`` → ``exit=124``: it started, and stayed up
                success, kind = dict(later, target=stayed, outcome="ok"), "same_check"
                break
            again = _ci_again(failure, later, events)
            if again == "passed":  # ``gh run view 938 --log-failed`` → edit → ``gh pr checks 412 --watch``
                success, kind = dict(later, ci=True), "same_check"
                break
            if again == "look":
                continue
            if again:  # the next run failed too: the change before it was an attempt, or it moved the error on
                events.append(dict(later, logged=True, **({"error_signature": signature} if again == "same" else {})))
                continue
            if later["outcome"] == "ok" and _is_check(later) and any(e["tool"] in EDIT_TOOLS for e in events) \
                    and _runs_failed_ci_step(failure, later["target"]):
                success, kind = later, "same_check"  # CI's ``Run actionlint`` step failed; ``actionlint`` passes here
                break
            if later["outcome"] == "ok" and any(e["tool"] in EDIT_TOOLS for e in events) \
                    and _started_and_logged(failure, later):
                success, kind = later, "same_check"  # ``compose run --rm mailer`` died; ``up -d mailer && logs mailer``
                break
            if later["outcome"] == "ok" and _is_check(later) and (
                    quoted_again(failure["target"], later["target"])
                    or statements_put_before(failure["target"], later["target"])):
                # ``… 'aws_s3_bucket.logs["app"]'``: the shell keeps its quotes; ``ksql … -e "SET
                # 'auto.offset.reset'='earliest'; SELECT …"``: the same query, a setting before it
                success, kind = later, "same_check"
                break
            renumbered = later["outcome"] == "ok" and _is_check(later) \
                and _renumbered(failure["target"], later["target"])
            if renumbered:  # ``kubectl wait … job/pg-backup-manual-2`` for the ``…-1`` that timed out
                success, kind = dict(later, target=renumbered), "same_check"
                break
            if later["outcome"] == "ok" and _is_check(later) and _to_another_host(failure["target"], later["target"]):
                success, kind = later, "same_check"  # the push to ``api.sandbox.push.apple.com`` that the device's
                break  # token is for, after ``api.push.apple.com`` answered BadDeviceToken
            if later["outcome"] == "ok" and _is_check(later) and _lane_ran_the_action(failure["target"], later):
                success, kind = later, "same_job"  # ``fastlane ios sync_certs`` ran the ``match`` that failed alone
                break
            if later["outcome"] == "ok" and _is_check(later) and _runs_the_missing_program(failure, later["target"]):
                # (``go generate``: exec: "wire" not found → ``go run …/wire@v0.6.0``)
                success, kind = later, "same_job"
                break
            if _waited_ready(failure, later, events):  # ``kubectl get ksvc x``: Ready False → edit → ``kubectl wait
                success, kind = later, "same_check"  # ksvc/x --for=condition=Ready``: condition met
                break
            if status_read_again(failure, later):  # ``aws deploy get-deployment …`` → "Failed" → edit, deploy →
                # ``aws deploy wait deployment-successful … && … get-deployment``; the very read asked again, with the
                # failure gone from its answer, is the check passing (``az rest --method get --uri …`` → ``[]``)
                same = command_key(later["target"]) == command_key(failure["target"])
                success, kind = later, "same_check" if same else "other_check"
                break
            if _seen_up(failure, later, events) and not _asks_another_request(failure, later):
                # (``docker compose logs api``: refused → edit → ``… compose ps``: Up; not another request than the
                # one the log says failed)
                success, kind = later, "other_check"
                break
            sequenced = _ran_in_sequence(failure, later)
            if sequenced:  # ``go run ./cmd/server & sleep 2; go run ./cmd/export …; kill %1``, no error in its output
                success, kind = dict(later, target=sequenced), "same_check"
                break
            # (a run on from a change that failed otherwise, a test the failure named passing in it: that problem
            # mended, the next one its own; ``carton exec prove -lr t/`` reporting t/fetch.t ok where ``prove -lr t/``
            # could not locate Mojo/UserAgent.pm, t/parse.t failing in both)
            if later["outcome"] == "error" and _is_check(later) and _same_program(failure["target"], later["target"]) \
                    and (any(e["tool"] in EDIT_TOOLS for e in events)
                         or invocation_change(failure["target"], later["target"])) \
                    and _passes_what_failed(failure, later):
                # (its error is what that run no longer printed: "Can't locate Mojo/UserAgent.pm", not t/parse.t's)
                still = set((later.get("error_text") or "").splitlines())
                gone = "\n".join(line for line in (failure.get("error_text") or "").splitlines() if line not in still)
                failure = events[0] = dict(failure, error_text=gone, error_signature=error_signature(
                    gone, failure["target"]))
                signature = failure["error_signature"]
                success, kind = dict(later, outcome="ok"), "same_check"
                break
            # (or another runner of the same job: ``npx jest --clearCache && npx jest …`` after ``npm test``)
            if later["outcome"] == "error" and signature and later.get("error_signature") == signature \
                    and _is_check(later) and (_same_program(failure["target"], later["target"])
                                              or job and command_job(later["target"]) == job):
                # the same error from another run of the same tool (``go clean -modcache && go mod download`` after
                # ``go build ./...``): an attempt at the same problem, not a problem of its own
                events.append(later)
                continue
            # (a server that was not up read no query: another it answers through the same program is the same
            # check, ``… trino --execute 'SHOW TABLES FROM lake.analytics'`` after the ``… --execute 'SHOW CATALOGS'``
            # that met "service "trino" is not running")
            # (or turned away before it ran, whatever it asked: trino's "Too many queued queries for
            # \"global.adhoc\"", then the same user's query landing in ``global.etl``)
            if later["outcome"] == "ok" and _is_check(later) and command_family(later["target"]) == family \
                    and (_UNREACHABLE.search(failure.get("error_text") or "")
                         or _TURNED_AWAY.search(failure.get("error_text") or "")) \
                    and _inline_code(failure["target"]) and _inline_code(later["target"]) \
                    and _without_code(failure["target"]) == _without_code(later["target"]):
                success, kind = dict(later, asked_otherwise=True), "same_check"
                break
            # (or maven's later phase, which runs the tests of the one that failed: ``mvn … package`` after ``mvn …
            # test``)
            if _is_check(later) and (command_family(later["target"]) == family
                                     or runs_the_phase_of(failure["target"], later["target"])) \
                    and (_same_target(failure["target"], later["target"]) or _lists_again(failure, later["target"])
                         or _settings_variant_given(failure["target"], later["target"])
                         or _made_since(failure["target"], later["target"], observations[i + 1:k])
                         or _as_edited(failure["target"], later["target"], observations[i + 1:k])
                         or _named_in_an_edit(failure["target"], later["target"], observations[i + 1:k])
                         or _listed_in(failure["target"], later["target"], observations[i + 1:k])) \
                    and (not _asks_version(later["target"], later.get("body") or "")
                         or _asks_version(failure["target"])) \
                    and not _other_tests(failure, later["target"]) and not _told_to_look(failure, later["target"]) \
                    and not _looked_closer(failure, later) and not _searched_no_more(failure, later["target"]) \
                    and not _left_out_what_failed(failure, later["target"]) and not _skipped_without(failure, later) \
                    and not _compared_elsewhere(failure, later["target"], observations[k + 1:]) \
                    and not _excludes_failed_tags(failure, later["target"], observations[:k]) \
                    and not _config_dropped(failure["target"], later["target"]) \
                    and not _other_config_given(failure["target"], later["target"]) \
                    and not _debug_for_release(failure["target"], later["target"]) \
                    and not _race_detector_dropped(failure, later["target"]) \
                    and not _workers_dropped(failure, later["target"]) \
                    and not _only_parses(failure["target"], later["target"]) \
                    and not _built_after_run_failed(failure, later["target"]) \
                    and not _another_program_inside(failure["target"], later["target"]) \
                    and not (command_job(failure["target"]) == "test" and is_static_check(later["target"])):
                # (a program's formatter check is none of its test runs: ``crystal tool format --check src spec``
                # after ``crystal spec`` failed)
                if later["outcome"] == "error":
                    if not _selected_nothing(later):  # (``pytest … -k tz`` selecting no test was a look)
                        events.append(later)
                    continue
                # (nor another subcommand of it, when the failing one passes later: ``packer init .`` before
                # ``packer validate … .``)
                # (every test file a run of it failed in since, too: ``mix test test/blog/notifier_test.exs`` is no
                # pass of the ``mix test`` that failed in comments_test.exs after the database was started)
                if later["outcome"] == "ok" and all(_covers_failed_tests(f, later["target"]) for f in events
                                                    if f["outcome"] == "error") \
                        and not _tried_until_fixed(failure, later, observations[k + 1:]) \
                        and not (other_subcommand(failure["target"], later["target"]) and any(
                            o["outcome"] == "ok" and o["tool"] == "Bash"
                            and not other_subcommand(failure["target"], step)
                            and command_family(step) == family and _same_target(failure["target"], step)
                            for o in observations[k + 1:] for step in _segments(o["target"]))):
                    success, kind = later, "same_check"
                    break
            if later["outcome"] == "ok" and _is_check(later) and _run_through(failure["target"], later["target"]):
                success, kind = dict(later, entered=True), "same_check"  # ``nix develop -c ngrok version``: the dev
                break  # shell that would not evaluate, entered (and no way of running it: the command run there)
            if later["outcome"] == "ok" and _is_check(later) and any(
                    program_variant(e["target"], later["target"]) for e in events if e["tool"] == "Bash"):
                success, kind = later, "same_check"  # ``npx typeorm-ts-node-commonjs migration:run -d …`` for
                break  # the ``npx typeorm migration:run -d src/data-source.ts`` that could not load TypeScript
            if later["outcome"] == "ok" and _is_check(later) and not any(e["tool"] in EDIT_TOOLS for e in events) \
                    and subcommand_variant(failure["target"], later["target"]):
                success, kind = later, "same_job"  # ``adb install-multiple -r base-master.apk …`` for the ``adb
                break  # install -r base-master.apk`` missing its splits
            if later["outcome"] == "ok" and _is_check(later) and command_family(later["target"]) == family \
                    and _runs_failed_step(failure, later["target"]):
                success, kind = later, "same_check"  # ``fastlane beta`` failed in its ``match`` step: ``fastlane match``
                break
            # (of all that failed: one test passing, ``pytest tests/a.py::test_b``, is no ``make test`` done another way)
            # (an edit put back since changed nothing: ``extensionsToTreatAsEsm`` added, rejected, removed)
            # (the step that does it, where what follows only reads what it wrote: ``./gradlew
            # :app:pixel6Api34DebugAndroidTest && grep -ho 'testcase name=…' app/build/outputs/…/TEST-*.xml``)
            ran = _job_step(later["target"], job) if job else later["target"]
            if job and later["outcome"] == "ok" and _is_check(later) and command_job(ran) == job \
                    and command_family(ran) != family and not any(net_changes(
                        [e for e in events if e["tool"] in EDIT_TOOLS], None).values()) \
                    and (_targets(failure["target"]) or not any(_TEST_PATH.search(t) for t in _targets(ran))) \
                    and not _asks_version(ran) and not _other_tests(failure, ran) \
                    and (job == "install" or not _MUTATING.search(ran)) \
                    and not _passes_after_an_edit(failure, observations[k + 1:]) \
                    and not _run_again(failure, observations[k + 1:]) \
                    and not (is_static_check(failure["target"]) and not is_static_check(ran)):
                # (not a build that checks nothing the type checker did: ``npx vite build`` after ``npx tsc --noEmit``)
                success, kind = dict(later, target=ran) if ran != later["target"] else later, "same_job"
                break
            if later["outcome"] == "ok" and _is_check(later) and not any(net_changes(
                    [e for e in events if e["tool"] in EDIT_TOOLS], None).values()) \
                    and (_recipe_runs(later["target"], failure["target"], observations[:k])
                         or _package_script_runs(later["target"], failure["target"], observations[:k])
                         or _run_inside(later["target"], failure["target"])
                         or _sbt_alias_runs(later["target"], failure["target"], observations[:k])
                         or missing and (_echoed_recipe_runs(later, failure["target"])
                                         or _provides_the_missing_run(failure, later))
                         or (_named_as_the_way(later["target"], account) or _not_to_run_bare(failure, account))
                         and _echoed_recipe_runs(later, failure["target"], subcommand=True)
                         or _echoed_recipe_step(later, failure["target"])
                         or _built_its_crate(failure, later)
                         or _script_echoes_the_run(later, failure["target"])
                         or _echoed_script_run_directly(failure, later["target"])
                         or _composer_script_runs(later, failure["target"])
                         or _sets_what_was_missing(later, [e for e in events if e["outcome"] == "error"])):
                # ``make dashboards``, whose recipe runs the ``jsonnet`` that failed (or the target the account gives
                # as the way beside it; or one put in the background, by itself: ``make run-local``)
                started = _backgrounded_recipe(later["target"])
                success = _as_quoted(dict(later, target=started) if started else later, observations[k + 1:], account)
                kind = "same_job"
                break
            if later["outcome"] == "ok" and _is_check(later) and _echoed_recipe_step(later, failure["target"]):
                # (after an edit: the deployment declared in deploy/prefect.yaml, then ``make deploy NAME=…``,
                # whose recipe echoed the ``prefect --no-prompt deploy`` that had failed on its own)
                success, kind = dict(later, recipe=True), "same_check"
                break
            if later["outcome"] == "ok" and _is_check(later) and _edited_script_runs(later["target"], failure["target"],
                                                                                     events):
                success, kind = dict(later, recipe=True), "same_check"  # the edited render_reports.sh runs nbconvert
                break
            if later["outcome"] == "ok" and _is_check(later) and _passed_as_a_test(failure, later):
                success, kind = later, "same_job"  # ``./_build/src/tests/test-recipe-window`` → ``meson test -C _build``
                break
            if later["outcome"] == "ok" and _is_check(later) and _on_the_image_built(failure["target"], later["target"],
                                                                                     observations[i + 1:k]):
                success, kind = later, "same_check"  # ``docker run … registry…/tflint:0.50.3-aws0.31.0``, built
                break  # ``FROM ghcr.io/terraform-linters/tflint:v0.50.3`` whose ``--init`` could not download
            if later["outcome"] == "ok" and _is_check(later) and _by_its_script(failure["target"], later["target"]):
                success, kind = later, "same_check"  # ``ELECTRON_RUN_AS_NODE=1 npx electron node_modules/jest/bin/
                break  # jest.js src/main/db`` for ``npx jest src/main/db``: jest, run on another node
            if later["outcome"] == "ok" and _is_check(later) and (
                    _by_its_loader(failure["target"], later["target"])
                    or _under_a_wrapper(failure["target"], later["target"])
                    or _handed_to_a_shell(failure["target"], later["target"])
                    or _by_another_interpreter(failure["target"], later["target"])
                    or _by_another_launcher(failure["target"], later["target"])):
                success, kind = later, "same_job"  # ``node --loader ts-node/esm scripts/seed.ts`` for ``npx ts-node
                break  # scripts/seed.ts``; ``meson devenv -C _build ./src/quill`` for ``./_build/src/quill``
            if later["outcome"] == "ok" and _is_check(later) and (
                    _in_a_container(failure["target"], later["target"])
                    or _in_the_dev_shell(failure["target"], later["target"])) \
                    and not any(net_changes([e for e in events if e["tool"] in EDIT_TOOLS], None).values()):
                success, kind = later, "same_job"  # ``docker compose exec airflow-scheduler airflow dags backfill …``
                break  # for the ``airflow dags backfill …`` the host could not run, nothing edited on the way
            if later["outcome"] == "ok" and _is_check(later) and _runs_failed_script(failure, later["target"]):
                # (``php bin/console cache:clear``: composer's script that failed, no other way to run the install)
                success, kind = dict(later, recipe=True), "same_check"
                break
            if later["outcome"] == "ok" and _is_check(later) and _script_is(failure["target"], later):
                success, kind = dict(later, recipe=True), "same_check"  # ``npm run check:deps``: ``> expo-doctor``
                if (_script_prepares(later) or _script_adds_options(failure["target"], later)) \
                        and not any(e["tool"] in EDIT_TOOLS for e in events):
                    # (``npm run e2e``: ``> electron-vite build --mode e2e && playwright test``, nothing edited:
                    # the script's way, its build first, is the lesson; or its options: ``yarn android``'s
                    # ``$ react-native run-android --mode=devDebug --appIdSuffix=dev``)
                    success, kind = later, "same_job"
                break
            if later["outcome"] == "ok" and _is_check(later) and (_runs_the_same_tests(failure, later["target"])
                                                                 or _reports_the_same_tests(failure, later)) \
                    and not any(net_changes([e for e in events if e["tool"] in EDIT_TOOLS], None).values()) \
                    and not _passes_after_an_edit(failure, observations[k + 1:]):
                success, kind = later, "same_job"  # ``bin/test spec/models/x_spec.rb`` for ``bundle exec rspec …``
                break
            if adding and later["outcome"] == "ok" and _is_check(later) and not any(
                    e["tool"] in EDIT_TOOLS for e in events) and _adds_with_another_tool(failure, later, adding):
                success, kind = later, "same_job"  # ``yarn add chart.js`` → ``bin/importmap pin chart.js``
                break
            if later["outcome"] == "ok" and _is_check(later) and _recipe_line(failure, later["target"]):
                # ``make dev`` failed in the ``cd backend && uv run alembic upgrade head`` line it echoed: that line
                # passing is the failure resolved
                success, kind = dict(later, recipe=True), "same_check"
                break
            # (an edit put back before the check passed again; not one put back after it had done its work)
            # (a CI run changes with what is pushed, never with what ran here: ``docker compose up -d postgres``)
            # (nor is the failing run again, made to say more, a change: ``OPENSC_DEBUG=3 pkcs15-tool … | grep …``)
            if _is_change(later, failure, account) and not (failure.get("ci") and later["tool"] not in EDIT_TOOLS) \
                    and not _looked_closer(failure, later) \
                    and not _put_back(
                    later, observations[k + 1:_next_pass(observations, k, family)], observations[:k]):
                events.append(later)
                continue
        if success is None:  # "plans have to be run with `terragrunt plan` from live/…": the agent named the way
            success = _stated_way(failure, observations[i + 1:], account) or _read_way(failure, observations[i + 1:])
            kind = "same_job" if success is not None else None
            # (but the way run, passing, before an edit whose code the account quotes, and again after it, is a step
            # of the fix, the edit the rest: ``packer init .`` had "nothing to install" until the
            # ``required_plugins`` block was written)
            quoted = [span for span in _code_spans(account) if len(span) >= 8]
            if success is not None and any(
                    o["tool"] in EDIT_TOOLS and o["outcome"] == "ok" and o["id"] < success["id"]
                    and any(span in line for line in _added_lines(o) for span in quoted)
                    and any(r["tool"] == "Bash" and r["outcome"] == "ok" and r["id"] < o["id"]
                            and r["target"] == success["target"] for r in observations[i + 1:])
                    for o in observations[i + 1:]):
                kind = "same_check"
            if success is not None:  # (the same tool failing otherwise on the way, ``terraform init -reconfigure``
                # after ``terraform plan``, was an attempt at the same job, not a problem of its own; and, where the
                # edit is the fix, the changes on the way are its)
                events += [o for o in observations[i + 1:] if o["id"] < success["id"] and o not in events and (
                    o["outcome"] == "error" and _is_check(o)
                    and command_family(o["target"]).split()[:1] == family.split()[:1]
                    or kind == "same_check" and _is_change(o, failure, account))]
                events.sort(key=lambda o: o["id"])
        if success is None:  # (the run the error itself says to make instead, of the same program, passed: ``pod
            # update RNReanimated --no-repo-update`` for a ``pod install`` that "You should run" it; that is the job)
            # (or of any program, where the error says to use it: "Screenshot baselines are only recorded inside the
            # pinned renderer image … Use: ./scripts/screenshots.sh record")
            success = next((o for o in observations[i + 1:] if o["tool"] == "Bash" and o["outcome"] == "ok"
                            and (_same_program(failure["target"], o["target"])
                                 and (_named_by_error(o["target"], failure) or _suggested(o["target"], failure))
                                 or _use_instead(o["target"], failure))),
                           None)
            kind = "same_job" if success is not None else None
        if success is None and failure.get("listed"):  # the steps it listed failing, listed passing by a later run
            success = _listed_passing(failure, observations[i + 1:])
            kind = "same_check" if success is not None else None
        if success is None:  # a server that would not start, never started again: checked another way, unverified
            success = _checked_otherwise(failure, observations[i + 1:], account) or _named_thing_found(
                failure, observations[i + 1:]) or _queried_again(failure, observations[i + 1:], account) \
                or _answered_after(failure, observations[i + 1:], account)
            kind = "other_check" if success is not None else None
        if kind == "same_check" and invocation_change(failure["target"], success["target"]):
            success = _passed_as_it_was(observations, failure, success, account) or \
                _the_quoted_way(observations, failure, success, account) or success
            carried = _carried_into_a_file(observations, failure, success, account)
            if carried:  # the changed run was the probe; the file that now says it, run, is the fix
                events.append(carried[0])
                success = dict(carried[1], recipe=True)
        elif kind == "same_check" and all(e["outcome"] == "error" for e in events) \
                and (quoted := _the_quoted_way(observations, failure, success, account)):
            success = quoted  # (run again unchanged, or wider: ``pytest -q`` collects the .hy file through conftest.py;
            # the file named alone passes the way the account quotes, ``pytest --assert=plain tests/test_rules.hy``)
        if kind == "same_job" and (quoted := _the_quoted_way(observations, failure, success, account)):
            # another tool's run was a look around; the failing command, changed, is what the agent gives as the way
            success, kind = quoted, "same_check"
        came_back = success is not None and signature and any(
            o.get("error_signature") == signature and command_family(o.get("target") or "") == family
            and _same_target(failure["target"], o.get("target") or "")
            for o in observations if o["id"] > success["id"] and o["outcome"] == "error")
        if success is None or came_back:  # never passed again, or the same error came back: not resolved
            notes.append("unresolved_failure")
            _detail(details, "unresolved_failure", failure)
            consumed.update(e["id"] for e in events if e["outcome"] == "error")
            continue
        consumed.update(e["id"] for e in events if e["outcome"] == "error")
        # (what cleared the machine's state on the way: ``docker rm -f tsdb-scratch`` after "port is already
        # allocated", the next run failing otherwise)
        # (and, the passing line too, what each part's ``cleared`` is taken from below)
        clearing = [o for o in observations if failure["id"] < o["id"] <= success["id"] and o["tool"] == "Bash"
                    and o["outcome"] == "ok" and _clears_local_state(o["target"])]
        cleared = {o["id"] for o in clearing}
        removals = [o for o in observations if failure["id"] < o["id"] < success["id"] and o["tool"] == "Bash"
                    and o["outcome"] == "ok" and removed_paths(o["target"])]
        told = _told_after(events, observations, success)
        for part in (part for chain in _split_at_partial_pass(_split_by_error(events, success, kind, account, cleared,
                                                                              removals, told), observations)
                     for part in _split_one_output(chain, account, observations)):
            # what was stopped or removed on the way (``kill 48211``, ``docker rm -f minio-old``): no change to the
            # project, but the account may say it was what stood in the way
            start, end = part["failures"][-1]["id"], part["resolved_by"]["id"]
            # (or as a step of the passing line: ``kill 53124 && docker compose up -d``)
            part["cleared"] = [o for o in clearing if start < o["id"] <= end]
            chains.append(part)
    return chains, notes


# a container's command replaced by a shell (``docker compose run --rm --entrypoint sh beat -c '…'``)
_SHELL_ENTRYPOINT = LazyRegex(r"--entrypoint[=\s]+[\"']?(?:/bin/|/usr/bin/)?(?:sh|bash|ash|zsh)\b")


# ``git checkout -- pom.xml``, ``git restore src/app.ts``, ``git checkout HEAD -- .``: files put back as committed
# (and ``git checkout arm_moveit_config/config/kinematics.yaml``, files named without ``--``: a name with a directory
# and an extension, no branch's)
# (a file at the root too, by its extension: ``git checkout build.zig``)
_PUT_BACK = LazyRegex(r"^git\s+(?:checkout(?:\s+HEAD)?\s+--|restore(?:\s+--(?:worktree|staged|source=\S+))*|"
                      r"checkout(?=(?:\s+(?:[\w.-]+/)*[\w-]+\.[A-Za-z]\w*)+$))\s+(.+)$")


# a line of a CI log as ``gh run view --log`` prints it: the job, the step, the time (``lint	Run actionlint	2024-…Z``)
_CI_STEP = LazyRegex(r"^[^\t\n]+\t(?:Run )?([^\t\n]+)\t\d{4}-\d\d-\d\dT")


def _not_to_run_bare(failure: dict, account: str) -> bool:
    """Whether the account says the failing program is not to be run by itself here ("Molecule isn't meant to be run
    bare in this repo"), so a recipe that ran it is the way."""
    argv = parse_command(failure["target"])["argv"]
    program = _program_name(argv[0]) if argv else ""
    return len(program) >= 3 and bool(re.search(
        rf"(?i)(?<![\w./-]){re.escape(program)}(?![\w/-])[^.;:]{{0,30}}\b(?:is|are)(?:n't| not) (?:meant|supposed|"
        rf"designed) to be (?:run|used|called|invoked) (?:bare|directly|by itself|on its own|by hand)\b", account))


def _runs_failed_ci_step(failure: dict, later: str) -> bool:
    """Whether ``later`` runs here the tool of the CI step whose log lines show the error (``lint	Run actionlint	…
    property "python_version" is not defined``; ``actionlint`` passing after the edit is that step passing)."""
    if not failure.get("ci"):
        return False
    errors = [line.strip() for line in (failure.get("error_text") or "").splitlines() if len(line.strip()) >= 12]
    steps = {m.group(1).split("@")[0].rsplit("/", 1)[-1] for line in (failure.get("body") or "").splitlines()
             if (m := _CI_STEP.match(line)) and any(e in line for e in errors)}
    if len(steps) != 1:
        return False  # (two steps failed, ``Setup Node`` in web and ``Run tests`` in api: one run here is half of it)
    programs = {_program_name(argv[0]) for segment in _segments(later) if (argv := parse_command(segment)["argv"])}
    # (or a step named for its job, ``Install deps``, and a run here that does that job: ``uv lock && uv sync``)
    jobs = {command_job(segment) for segment in _segments(later)} - {None}
    return any(step.split()[0] in programs or any(_SUBCOMMAND_JOBS.get(w.lower()) in jobs for w in step.split())
               for step in steps if step.split())


def _wrote_nothing(run: dict, after: list[dict]) -> bool:
    """Whether the run right ``after`` a passing one looked for a file the passing line names, and found none
    (``… -testResults results.xml`` exits 0; ``ls -l results.xml``: No such file): a pass that did nothing."""
    if not after or after[0]["outcome"] != "error" or after[0]["tool"] != "Bash":
        return False
    look = parse_command(after[0]["target"])["argv"]
    if not look or _program_name(look[0]) not in ("ls", "cat", "stat", "head", "tail", "test", "file", "wc", "jq"):
        return False
    wanted = [w for w in look[1:] if not w.startswith("-") and w in run["target"].split()]
    return bool(wanted) and bool(re.search(r"(?i)no such file|cannot access|not found", after[0].get("error_text") or ""))


# git asked what is there or what changed: a look, never a way to run anything
_GIT_LOOK = LazyRegex(r"git\s+(?:diff|log|show|status|blame|grep|ls-files|shortlog|reflog)\b")


def _written_later(parts: list[str], edits: list[dict]) -> bool:
    """Whether each way a run was changed sets a value by a name that a later edit writes: ``pass `-e
    METAFLOW_USER=ci``` kept as ``METAFLOW_USER: ci`` in the service's environment in docker-compose.yml."""
    return bool(parts) and all((names := re.findall(r"([A-Za-z_][\w.-]{3,})=", part)) and any(
        n in line for n in names for e in edits for line in _added_lines(e)) for part in parts)


def _listed_after_redoing(failure: dict, later: list[dict]) -> bool:
    """Whether a failed ``ls`` of a path that should exist (``ls -l /dev/acme-gps``: "No such file or directory") was a
    check: a later line redoes its steps and ends listing the same path, there now (``sudo install … && sudo udevadm
    trigger … && sleep 1 && ls -l /dev/acme-gps``)."""
    argv = parse_command(failure["target"])["argv"]
    paths = [w for w in argv[1:] if not w.startswith("-")]
    if argv[:1] != ["ls"] or len(paths) != 1 or not re.search(r"(?i)no such file|cannot access",
                                                                failure.get("error_text") or ""):
        return False
    return any(o["tool"] == "Bash" and o["outcome"] == "ok" and len(steps := _and_steps(o["target"])) > 1
               and (last := parse_command(steps[-1])["argv"])[:1] == ["ls"] and paths[0] in last[1:]
               for o in later)


# what lists what is installed or running (``pip list``, ``npm ls``, ``docker ps``, ``kubectl get pods``)
_LISTING = LazyRegex(r"^(?:(?:uv\s+)?pip3?\s+(?:list|freeze|show)|(?:npm|pnpm|yarn)\s+(?:ls|list)|gem\s+list|"
                     r"brew\s+list|conda\s+list|poetry\s+show|dpkg\s+-l|rpm\s+-qa|apt\s+list|env|printenv|"
                     r"docker\s+(?:ps|images)|kubectl\s+get|helm\s+list|systemctl\s+list-\w+|ls)\b")


def _listing_searched_empty(failure: dict) -> bool:
    """Whether a failed line only searched a listing of what is installed or running and found nothing (``pip list
    2>/dev/null | grep -i lightgbm``, exit 1 and no line): an answer, "not there", not a failure to resolve."""
    target = " ".join((failure.get("target") or "").split())
    return bool(re.fullmatch(r"[^|&;]+\|\s*(?:grep|egrep|rg)\b[^|&;]*", target)) \
        and bool(_LISTING.match(_before_pipe(target).strip())) \
        and not re.sub(r"^\s*(?:Error: )?Exit code 1\s*", "", failure.get("error_text") or "").strip()


def _asserting_search(failure: dict, later: list[dict]) -> bool:
    """Whether a failed ``grep -c``/``grep -q`` was a check: the same line passing after an edit (``grep -c
    "bg-emerald-600" web/static/app.css`` → 0, then 1 once tailwind.config.js scanned the components)."""
    if not counting_search(failure["target"]):
        return False
    argv = parse_command(failure["target"])["argv"]
    line = " ".join(failure["target"].split())
    # (or a line running the same steps before a search for the same text: ``uv run alembic revision --autogenerate
    # … && grep -c "add_column" …`` → 0, then ``rm …_add_paid_at.py && uv run alembic revision --autogenerate … | tail
    # -2 && grep -n "add_column" …`` once env.py imported the models)
    steps = _segments(failure["target"])
    pattern = _first_word(argv)

    def same_search(target: str) -> bool:
        later_steps = _segments(target)
        later_argv = parse_command(target)["argv"]
        return len(steps) > 1 and bool(later_argv) and _program_name(later_argv[0]) == _program_name(argv[0]) \
            and _first_word(later_argv) == pattern and all(s in later_steps[:-1] for s in steps[:-1])
    # (or the same search last, from the directory it searched in: ``cd apps/docs && pnpm build … && grep -c
    # "bg-brand-600" dist/assets/*.css`` for ``grep -c "bg-brand-600" apps/docs/dist/assets/*.css``)
    def from_there(target: str) -> bool:
        parsed = parse_command(target)
        return bool(parsed["cwd"]) and parsed["argv"][:-1] == argv[:-1] and len(argv) > 1 \
            and argv[-1] == os.path.join(parsed["cwd"].strip("/"), parsed["argv"][-1])

    again = next((o for o in later if o["tool"] == "Bash" and o["outcome"] == "ok" and (
        " ".join(o["target"].split()) == line or same_search(o["target"]) or from_there(o["target"]))), None)
    return bool(again) and again["outcome"] == "ok" and any(
        o["tool"] in EDIT_TOOLS and o["id"] < again["id"] for o in later)


def _selected_nothing(failure: dict) -> bool:
    """Whether a test run failed only because its selection matched no test (pytest's exit code 5 after ``-k
    staging``: ``4 deselected``, ``no tests ran``): a look for a test, not a problem."""
    text = failure.get("error_text") or ""
    # (a selection it made: not a file run whole that holds no test pytest collects, ``pytest tests/test_fifo.py``
    # of a cocotb testbench, run through its Makefile)
    if not re.search(r"\s-[km]\s+(?!pytest\b)\S|::|--deselect\b|--lf\b|--last-failed\b|\d+ deselected",
                     failure["target"] + "\n" + text):
        return False
    # (not a path it was given that is not there: ``ERROR: file or directory not found: tests``, cibuildwheel's test
    # command run from a temporary directory)
    return bool(re.search(r"(?m)^=*\s*(?:no tests ran|\d+ deselected)(?: in [\d.]+s)?\s*=*$", text)) \
        and not re.search(r"\b\d+ (?:failed|errors?)\b|\w(?:Error|Exception)\b|^E\s|^ERROR: file or directory not "
                          r"found\b", text, re.M)


def _told_to_look(failure: dict, later: str) -> bool:
    """Whether ``later`` is the failing run again with only the flags its own error told to use to see more ("Use
    --debug flag to render out invalid YAML"), its output cut by a filter whose exit status it then has (``helm
    template … --debug 2>&1 | sed -n '36,46p'``): a look at the failure, not the failure gone."""
    if not re.search(r"\|\s*(?:sed|head|tail|grep|awk|less)\b", later):
        return False
    before = set(parse_command(failure["target"])["argv"])
    added = [w for w in parse_command(later)["argv"] if w.startswith("-") and w not in before]
    text = failure.get("error_text") or ""
    # (a flag that shows more, or one the error offers for seeing more; not one it offers as the way past it: "the
    # build can be run with `--delete-conflicting-outputs`")
    return bool(added) and all(re.search(rf"(?i)\b(?:use|run with|re-?run with|try|pass|add)\s+(?:the\s+)?[`'\"]?"
                                         rf"{re.escape(flag)}(?![\w-])", text)
                               and (_LOOK_FLAG.match(flag) or re.search(
                                   rf"(?i){re.escape(flag)}(?![\w-])[^\n.]*\b(?:to (?:see|get|render|show|print|"
                                   rf"display)|for (?:more|details|the full|a full))\b", text))
                               for flag in added)


def _searched_no_more(failure: dict, later: str) -> bool:
    """Whether the failing line ended in a search for what it expected, that found nothing (``adb logcat -d -s
    flutter | grep 'going to /orders/42'``), and ``later`` searches for it no more (``adb logcat -d -s flutter | tail
    -4``): a look at what there was, not the check passing."""
    search = re.search(r"\|\s*grep\s+(?:-(?!v\b|-invert)\w+\s+)*(['\"]?)([^'\"|]+)\1\s*$", failure["target"])
    # (not where the run's own status was passed on past the search: ``… | grep -A2 Unhandled; exit
    # ${PIPESTATUS[0]}`` failed because the run did, whatever the search found)
    return search is not None and search.group(2).strip() not in later and "PIPESTATUS" not in failure["target"]


def _skipped_without(failure: dict, later: dict) -> bool:
    """Whether ``later`` left out a setting the failing run was given, and skipped tests (``forge test`` after ``forge
    test --match-path test/fork/… --fork-url "$MAINNET_RPC_URL"`` failed: "3 skipped"): the tests that needed it did
    not run."""
    before, after = parse_command(failure["target"])["argv"], parse_command(later["target"])["argv"]
    given = {w.split("=", 1)[0] for w in after if w.startswith("--")}
    dropped = [w.split("=", 1)[0] for n, w in enumerate(before) if w.startswith("--")
               and ("=" in w or n + 1 < len(before) and not before[n + 1].startswith("-"))
               and not _SELECTS_TESTS.match(w.split("=", 1)[0]) and not re.match(r"--match", w)]
    return any(option not in given for option in dropped) \
        and bool(re.search(r"\b[1-9]\d* skipped\b", later.get("body") or ""))


def _left_out_what_failed(failure: dict, later: str) -> bool:
    """Whether ``later`` is the failing run told to leave out the files it failed in (markdownlint-cli2's
    ``"#content/api"``, a glob's ``'!content/api/**'``, ``--exclude content/api``): a look at what else fails, not
    the check passing."""
    argv = parse_command(later)["argv"]
    was = set(parse_command(failure["target"])["argv"])
    left_out = [w[1:] for w in argv if w[:1] in "#!" and len(w) > 2 and w not in was]
    left_out += [v for o, v in zip(argv, argv[1:]) if o in ("--exclude", "--ignore", "--ignore-pattern")
                 and v not in was]
    left_out += [w.split("=", 1)[1] for w in argv if w.startswith(("--exclude=", "--ignore=", "--ignore-pattern="))
                 and w not in was]
    heads = [re.split(r"[*?\[{]", p.strip("'\"").lstrip("./"), maxsplit=1)[0].rstrip("/") for p in left_out]
    failed = re.findall(r"(?m)^\.?/?([\w./-]+\.\w+)[:(]", failure.get("error_text") or "")
    return any(h and (f == h or f.startswith(h + "/")) for h in heads for f in failed)


# options that pick the environment a run is made in: dbt's ``--target``, a profile, a stage
_ELSEWHERE_OPTIONS = ("--target", "--profile", "--env", "--environment", "--stage", "--context")


def _excludes_failed_tags(failure: dict, later: str, before: list[dict]) -> bool:
    """Whether ``later`` leaves out by its tag the test that failed: busted's ``--exclude-tags=utf8``, or a run profile
    it names (``--run=quick``) whose ``exclude-tags`` a file read in the session lists, beside the failing test's name
    ``… accented latin letters #utf8``."""
    argv = parse_command(later)["argv"]
    options = dict(zip(argv, argv[1:])) | dict(w.split("=", 1) for w in argv if w.startswith("--") and "=" in w)
    excluded = set(re.split(r"[,\s]+", options.get("--exclude-tags", "")))
    profile = options.get("--run") or options.get("-r")
    if profile:
        read = "\n".join(o.get("body") or "" for o in before if o["outcome"] == "ok")
        for block in re.findall(rf"(?<![\w-]){re.escape(profile)}\s*=\s*\{{([^{{}}]*)\}}", read):
            excluded |= {t for value in re.findall(r"exclude[-_]tags\W*=\s*[\"']([^\"']*)", block)
                         for t in re.split(r"[,\s]+", value)}
    tags = set(re.findall(r"(?<=\s)#([A-Za-z][\w-]*)\b", failure.get("error_text") or ""))
    return bool(tags & (excluded - {""}))


def _compared_elsewhere(failure: dict, later: str, after: list[dict]) -> bool:
    """Whether ``later`` is the failing run made in another environment (``dbt test --select fct_revenue --target
    dev`` after ``… --target ci`` failed) while the session runs it in the failing one again afterwards: a
    comparison ("it passes for me locally"), not the failure gone."""
    def picked(command: str) -> dict:
        argv = parse_command(command)["argv"]
        return {o: argv[n + 1] for n, o in enumerate(argv[:-1]) if o in _ELSEWHERE_OPTIONS} | {
            o: v for o, _, v in (w.partition("=") for w in argv if "=" in w) if o in _ELSEWHERE_OPTIONS}
    was, now = picked(failure["target"]), picked(later)
    moved = {o for o in was if o in now and now[o] != was[o]}
    return bool(moved) and any(o["tool"] == "Bash" and command_family(o.get("target") or "") == command_family(later)
                               and all(picked(o["target"]).get(opt) == was[opt] for opt in moved) for o in after)


def _one_word_swapped(failed: str, later: str) -> tuple[int, str, str] | None:
    """Where ``later`` is ``failed`` with one word in another's place, the rest as it was: that word's place, as it
    was and as it is."""
    before, after = parse_command(failed)["argv"], parse_command(later)["argv"]
    changed = [(n, a, b) for n, (a, b) in enumerate(zip(before, after)) if a != b] if len(before) == len(after) else []
    return changed[0] if len(changed) == 1 else None


def _settings_variant_given(failed: str, later: str) -> bool:
    """Whether ``later`` is the failed run given a variant of the settings file it named, the rest as it was (``npx
    antora local-antora-playbook.yml`` for ``npx antora antora-playbook.yml``): the same job, set up for this use."""
    swapped = _one_word_swapped(failed, later)
    return swapped is not None and swapped[0] > 0 and config_variant(*swapped[1:])


def _run_through(failed: str, later: str) -> bool:
    """Whether ``later`` runs a command through the environment the failing command makes (``nix develop -c ngrok
    version`` for ``nix develop``): it entered what failed to enter."""
    key = command_key(failed)
    runner = parse_command(later)["runner"]
    # (or the failing run was of nothing but the environment: ``nix develop -c true``, then ``nix develop -c node
    # --version``)
    tried = parse_command(failed)
    if tried["runner"] and tried["runner"] == runner and tried["argv"][:1] in (["true"], [":"], ["exit"]):
        return True
    return bool(key) and " " in key and runner.startswith(key + " ") and len(runner.split()) == len(key.split()) + 1


def _looked_closer(failure: dict, later: dict) -> bool:
    """Whether ``later`` is the failing run again with only a variable that makes it say more, its output cut by a
    filter that still shows a failure (``NCCL_DEBUG=INFO deepspeed … 2>&1 | grep -E "NCCL (INFO|WARN)" | head -6``
    printing "NCCL WARN Cuda failure 'peer access is not supported'"): a look at the failure, not the failure gone."""
    if not re.search(r"\|\s*(?:sed|head|tail|grep|awk)\b", later["target"]):
        return False
    before, after = parse_command(failure["target"]), parse_command(later["target"])
    added = [e for e in after["env"] if e not in before["env"]]
    # (or by a filter that picks the lines it traced, which exits with its own status: ``OPENSC_DEBUG=3 pkcs15-tool
    # --dump 2>&1 | grep -E "process_config_file|load_card_drivers"``)
    return bool(added) and all(_SAYS_MORE.match(e) for e in added) \
        and _before_pipe(after["argv"]) == _before_pipe(before["argv"]) \
        and bool(re.search(r"(?i)\b(?:fail(?:ed|ure)?|error|exception|abort(?:ed|ing)?)\b", later.get("body") or "")
                 or re.search(r"\|\s*grep\b", later["target"]))


# a flag that shows more of a run (``--debug``, ``--stacktrace``, ``-vv``, ``--log-level=debug``)
_LOOK_FLAG = LazyRegex(r"^-(?:v+|-(?:debug|verbose|trace|stacktrace|full-stacktrace|info|scan|backtrace|explain|"
                       r"show-\w+|print-\w+|log-level\S*))$")


# test classes picked by name (maven's ``-Dtest=A,B#m``, ``-Dit.test=…``; gradle's ``--tests com.acme.A``), and test
# classes as a JVM runner's report names them (``SearchResourceTest``, ``InvoiceIT``, ``CartSpec``)
# (and swift's ``--filter StringEscapingTests``, a test class by its name: not pnpm's ``--filter web`` package,
# dotnet's ``--filter FullyQualifiedName~…`` expression, nor a test method's ``--filter
# Renders_invoice_with_discount``)
_TEST_SELECTION = LazyRegex(r"(?:^|\s)(?:(?:-D(?:it\.)?test=|--tests[=\s]+)[\"']?|--filter[=\s]+[\"']?(?=[A-Z]"
                            r"\w*(?:Tests?|IT|Spec)(?:[\s\"']|$)))([\w.*#,$]+)")
_TEST_CLASS = LazyRegex(r"\b([A-Z]\w*(?:Tests?|IT|Spec))\b")


def _other_tests(failure: dict, later: str) -> bool:
    """Whether ``later`` picks test files and none of them is one the failure names (``uv run pytest -q`` failed
    collecting tests/test_geo.py; ``uv run pytest -q tests/test_export.py`` runs none of it): another problem's run."""
    # (of the step that runs the check, not a look after it: ``make -C tb check … && cat tb/sim_build/cmds.f``)
    later = _the_step(failure.get("target") or "", later) or later
    # (test files and folders; not a package it names, ``yarn workspace @tally/web test``)
    # (by its file, not the line an example starts at: ``spec/parser_spec.cr:58``)
    picked = [t.lstrip("./").rstrip("/") for t in (re.sub(r":\d+(?::\d+)?$", "", t) for t in _targets(later))
              if (_TEST_PATH.search(t) or t.endswith("/")) and not t.startswith("@")]
    # (or test classes picked by name, none of them one the failure names: ``./mvnw test -Dtest=PriceFormatterTest``
    # after ``SearchResourceTest`` and ``ProductResourceTest`` failed; gradle's ``--tests com.acme.ApiClientTest``)
    # (a pattern by what it holds: ``--tests "*ReminderNotifierTest"``)
    classes = [c.split("#")[0].rsplit(".", 1)[-1].strip("*") for selection in _TEST_SELECTION.findall(later)
               for c in selection.split(",")]
    # (those on the lines that failed, where the log names the ones that passed too: XCTest's "Test Suite
    # 'StringEscapingTests' passed" beside "Test Case 'EncoderTests.testEscapesControlCharacters' failed")
    logged = failure.get("error_text") or ""
    named = set(_TEST_CLASS.findall("\n".join(l for l in logged.splitlines() if re.search(r"(?i)fail|error", l)))) \
        or set(_TEST_CLASS.findall(logged))
    if classes and named and all(classes) and not any(c in n for c in classes for n in named):
        return True
    # (or a test method picked by name, as part of no case that failed: ``swift test --filter
    # DecoderTests/testDecodesArrays`` after "Test Case 'DecoderTests.testDecodesNestedArrays' failed")
    methods = re.findall(r"--filter[=\s]+[\"']?\w+[/.](test\w*)", later)
    failed_cases = re.findall(r"Test Case '(?:-\[)?\w+[. ](\w+)\]?' failed", logged)
    if methods and failed_cases and not any(m in case for m in methods for case in failed_cases):
        return True
    # (or pytest's ``-k`` of words, none in a failing test's name: ``-k "schema or passthrough"`` after
    # ``test_enrich_with_currency`` failed)
    keyword = re.search(r"""(?:^|\s)-k\s*(?:"([^"]+)"|'([^']+)'|(\S+))""", later)
    words = re.split(r"\s+or\s+", next(g for g in keyword.groups() if g).strip()) if keyword else []
    failing = set(re.findall(r"(?m)(?:^_{3,} |^FAILED \S*::|::)(test\w*)", failure.get("error_text") or ""))
    if words and failing and all(re.fullmatch(r"\w+", w) for w in words) \
            and not any(w in name for w in words for name in failing):
        return True
    # (or examples picked by line in the file that failed, none of them one its runner gave for a rerun: ``crystal
    # spec spec/parser_spec.cr:42`` after "crystal spec spec/parser_spec.cr:58 # Tomlish::Parser parses nested arrays")
    rerun = {(m.group(1), m.group(2)) for m in re.finditer(r"(?m)^(?:bundle exec |bin/)?(?:rspec|crystal spec)\s+\.?/?"
                                                           r"(\S+?):(\d+)\b", failure.get("error_text") or "")}
    lines = [(m.group(1), m.group(2)) for t in _targets(later) if (m := re.fullmatch(r"\.?/?(\S+?):(\d+)", t))]
    if rerun and lines and all(f in {g for g, _ in rerun} and (f, n) not in rerun for f, n in lines):
        return True
    # (or rspec's and crystal spec's ``-e`` of a name, in no failing example's: ``crystal spec spec/money_spec.cr -e
    # "splits evenly"`` after "1) Money#split distributes the remainder to the first parts")
    example = re.search(r"""(?:^|\s)(?:-e|--example)[= ]+(?:"([^"]+)"|'([^']+)'|(\S+))""", later)
    spec = re.match(r"(?:bundle exec |bin/)?(?:rspec|crystal spec)\b", parse_command(later)["check"] or "")
    failing_examples = re.findall(r"(?m)^\s*\d+\) (\S.*?)\s*$", logged) if example and spec else []
    if failing_examples and not any(next(g for g in example.groups() if g) in name for name in failing_examples):
        return True
    # (or hspec's ``--match`` of a path, none the one it gave for a rerun: ``cabal test --test-options='--match
    # "/Toml.Lexer/"'`` after "To rerun use: --match "/Toml.Roundtrip/prop_roundtrip/"")
    matched = re.search(r"""--match[= ]+["']?/?([^"'\s]+?)/?["'\s]""", later + " ")
    reruns = re.findall(r"""To rerun use: --match ["']/?([^"'\s]+?)/?["']""", logged)
    if matched and reruns and not any(r.startswith(matched.group(1)) for r in reruns):
        return True
    # (or ScalaTest's ``-z`` substring, or ``-t`` name, in no failing test's: ``testOnly billing.InvoiceCalculatorSpec
    # -- -z "sum line items"`` after "- should apply VAT per line and round half-up *** FAILED ***")
    scalatest = re.search(r"""\s--(?:\s.*?)?\s-[zt]\s+(?:"([^"]+)"|'([^']+)'|(\S+))""", later)
    failing_names = re.findall(r"(?m)^(?:\[info\]\s+)?-\s+(.+?)\s+\*\*\* FAILED \*\*\*", logged)
    if scalatest and failing_names and not any(next(g for g in scalatest.groups() if g) in name
                                               for name in failing_names):
        return True
    # (or tasty's pattern, matching no failing test's path: ``cabal test --test-options="-p '/escapes/'"`` after
    # "Tests.Printer.roundtrip.strings with quotes: FAIL … Use -p '/strings with quotes/' to rerun this test only.")
    tasty = re.search(r"""(?:^|[\s"'=])-p\s+(?:'/?([^'/]+)/?'|"/?([^"/]+)/?"|/?([\w-]+)/?)""", later)
    failing_paths = _tasty_failing_paths(logged) if tasty and "to rerun this test only" in logged else []
    if failing_paths and not any(next(g for g in tasty.groups() if g).lower() in path.lower()
                                 for path in failing_paths):
        return True
    # (or elm-test's modules, by the files that hold them: ``npx elm-test tests/Parser/DateTests.elm`` after "↓
    # Parser.DurationTests" over each failing test)
    # (or not dotted, the first line over the failing test: "↓ DecodeTest" for ``tests/EncodeTest.elm``)
    modules = set(re.findall(r"(?m)^↓ ([A-Z][\w]*(?:\.[A-Z]\w*)*)\s*$", logged))
    picked_modules = {re.sub(r"^.*?\btests/", "", p)[:-4].replace("/", ".") for p in picked if p.endswith(".elm")}
    if modules and picked_modules and not modules & picked_modules:
        return True
    # (or GoogleTest's filter, bazel's ``--test_filter`` or its own ``--gtest_filter``, of patterns none of the
    # failing tests matches: ``--test_filter='DiscountTest.Applies*'`` after "[  FAILED  ] DiscountTest.Stacks…")
    gtest = re.search(r"""--(?:test|gtest)_filter[=\s]+(?:'([^']+)'|"([^"]+)"|(\S+))""", later)
    failing_tests = set(re.findall(r"(?m)^\[  FAILED  \] (\w+(?:/\w+)?\.\w+(?:/\w+)?)", logged))
    if gtest and failing_tests:
        wanted = (next(g for g in gtest.groups() if g).split("-")[0] or "*").split(":")  # (``-Slow*``: all others)
        if not any(fnmatch.fnmatchcase(test, pattern) for test in failing_tests for pattern in wanted if pattern):
            return True
    # (or cocotb's ``TESTCASE=``, none of them a test that failed: ``make SIM=verilator TESTCASE=test_fifo_reset``
    # after "test_fifo_full_flag failed")
    testcase = re.search(r"(?:^|\s)TESTCASE=[\"']?([\w,]+)", later)
    failed_tests = re.findall(r"(?m)\bcocotb\.regression\s+(\w+) failed\b|^\W*\*\*\s+\w+\.(\w+)\s+FAIL\b",
                              logged + "\n" + (failure.get("body") or ""))
    failed_tests = [a or b for a, b in failed_tests]
    if testcase and failed_tests and not set(testcase.group(1).split(",")) & set(failed_tests):
        return True
    # (or another test suite of a Haskell package, by its component: ``stack test mdur:test:mdur-doctest`` after
    # "mdur> test (suite: mdur-test)" failed)
    suites = re.findall(r"(?:^|\s)[\w-]+:test:([\w-]+)", later)
    failed_suites = set(re.findall(r"(?m)\btest \(suite: ([\w-]+)\)", logged)) - set(
        re.findall(r"(?m)Test suite ([\w-]+) passed", logged))
    if suites and failed_suites and not set(suites) & failed_suites:
        return True
    # (or Common Test's ``--case``, none of them a case that failed: ``rebar3 ct --suite=test/rate_limiter_SUITE
    # --case=refill_after_idle`` after "%%% rate_limiter_SUITE ==> burst_up_to_capacity: FAILED")
    cases = re.search(r"--case[=\s]+(\S+)", later)
    failed_cases = re.findall(r"(?m)^%%% \w+ ==> (\w+): FAILED", logged)
    if cases and failed_cases and not set(cases.group(1).strip("'\"").split(",")) & set(failed_cases):
        return True
    # (or Foundry's ``--match-test`` pattern, found in no failing test's name: ``forge test --match-test testDeposit``
    # after "[FAIL: call did not revert as expected] testWithdrawRevertsOnReentrancy()")
    forge = re.search(r"""--(?:match-test|mt)[=\s]+(?:'([^']+)'|"([^"]+)"|(\S+))""", later)
    failing_functions = re.findall(r"(?m)^\[FAIL[^\]\n]*\]\s+(\w+)\(", logged)
    if forge and failing_functions:
        try:
            if not any(re.search(next(g for g in forge.groups() if g), name) for name in failing_functions):
                return True
        except re.error:  # (not a pattern as written: judged by nothing)
            pass
    failed = {m.group(0).lstrip("./") for m in _NAMED_TEST_FILE.finditer(failure.get("error_text") or "")}
    # (or the folder of the dune test stanza that failed: ``File "test/lexer/dune"``, not ``dune test test/parser``)
    failed |= {m.group(1) for m in re.finditer(r'File "([\w.-]+(?:/[\w.-]+)*)/dune"', failure.get("error_text") or "")
               if _TEST_PATH.search(m.group(1) + "/")}
    # (a file named without its folder, go's ``config_test.go:21``, may be in any picked folder)
    # (and a file named by its absolute path, ``/home/dev/calc/tests/test_ops.py``, is under a picked ``tests/``)
    return bool(picked and failed) and all("/" in f for f in failed) and not any(
        f == p or f.startswith(p + "/") or p.endswith("/" + f) or f.endswith("/" + p) or f"/{p}/" in f"/{f}"
        # (``tests/*_test.yml`` picks the failing ``tests/node_test.yml``; ``test/*.test.ts``, the failing
        # ``/home/dev/jobq/test/backoff.test.ts``)
        or any(fnmatch.fnmatchcase(f, glob) or fnmatch.fnmatchcase(f, "*/" + glob)
               # (``**/`` for no folder too: ``test/main/**/*.spec.js`` picks ``test/main/store.spec.js``)
               for glob in {p, p.replace("**/", "")})
        for f in failed for p in picked)


def _tasty_failing_paths(text: str) -> list[str]:
    """The paths of the tests a tasty tree reports failing, its groups by their indent (``Tests.Printer.roundtrip.
    strings with quotes`` of "strings with quotes: FAIL" under "roundtrip" under "Printer")."""
    groups, paths = [], []
    for line in text.splitlines():
        m = re.match(r"^( *)(\S.*?)(?::\s+(OK|FAIL)\b.*)?$", line)
        if not m:
            continue
        groups = [(indent, name) for indent, name in groups if indent < len(m.group(1))]
        if m.group(3) == "FAIL" and not m.group(2).startswith("Test suite "):  # (cabal's verdict of the suite)
            paths.append(".".join([name for _, name in groups] + [m.group(2)]))
        elif m.group(3) is None:
            groups.append((len(m.group(1)), m.group(2)))
    return paths


def _script_is(failed: str, later: dict) -> bool:
    """Whether ``later`` runs a package script whose command, as the package manager echoed it (``> crewlist@2.4.0
    check:deps`` then ``> expo-doctor``), is the command that failed (``npx expo-doctor``), or runs the package
    script that failed (``npm run tauri build`` echoing ``> quillnote@0.4.0 build`` for a failed ``npm run
    build``): the same check."""
    body = later.get("body") or ""
    failed_words = failed.split()
    if failed_words[:1] and failed_words[0] in _PACKAGE_RUNNERS and len(failed_words) <= 3:
        script = [w for w in failed_words[1:] if not w.startswith("-") and w != "run"]
        if len(script) == 1 and re.search(rf"(?m)^> \S+@\S* {re.escape(script[0])}$", body):
            return True
    words = later["target"].split()
    # (or a ``make`` target that echoed the failing line as a step of its recipe: ``uv run pytest -q tests/`` in
    # ``make check``)
    if words and os.path.basename(words[0]) in ("make", "just") \
            and any(line.strip() == " ".join(failed.split()) for line in body.splitlines()):
        return True
    if not words or words[0] not in _PACKAGE_RUNNERS:
        return False
    script = [w for w in words[1:] if not w.startswith("-") and w != "run"][:1]
    echoed = _echoed_script(body, re.escape(script[0])) if script else None
    return echoed is not None and (parse_command(echoed)["argv"] == parse_command(failed)["argv"]
                                   or _script_adds_options(failed, later))


def _script_adds_options(failed: str, later: dict) -> bool:
    """Whether the package script ``later`` ran, as echoed, is the failing command with options, a wrapper or
    variables added (``$ react-native run-android --mode=devDebug --appIdSuffix=dev`` for a failing ``npx
    react-native run-android``)."""
    echoed = _echoed_script(later.get("body") or "")
    script, failing_run = parse_command(echoed or ""), parse_command(failed)
    argv, failing = script["argv"], failing_run["argv"]
    added = argv[len(failing):]
    # (or run through a wrapper the failing run lacked, or with variables set: ``> dotenv -e .env.local -- drizzle-kit
    # migrate`` of ``npm run db:migrate`` for a bare ``npx drizzle-kit migrate`` that found no DATABASE_URL)
    # (npx and its kind only find the program, as a script does)
    wrapper = script["runner"] and script["runner"] != failing_run["runner"] \
        and script["runner"].split()[0] not in ("npx", "bunx", "pnpm", "yarn", "bun")
    if len(failing) > 1 and argv == failing and (wrapper or set(script["env"]) - set(failing_run["env"])):
        return True
    # (an option's value too: ``--config src-tauri/tauri.linux.conf.json``)
    return len(failing) > 1 and bool(added) and argv[:len(failing)] == failing and all(
        w.startswith("-") or n and added[n - 1].startswith("-") and "=" not in added[n - 1]
        for n, w in enumerate(added))


def _echoed_script(body: str, script: str = r"\S+") -> str | None:
    """The command of a package script as the package manager echoed it (``> crewlist@2.4.0 check:deps`` then ``>
    expo-doctor``; yarn 1's ``yarn run v1.22.22`` then ``$ react-native run-android …``); ``script`` a pattern of its
    name."""
    echoed = re.search(rf"(?m)^> \S+@\S* {script}\n> (.+)$", body) or re.search(r"\Ayarn run v[\d.]+\n\$ (.+)$", body,
                                                                                   re.M)
    return echoed.group(1) if echoed else None


def _echoed_script_run_directly(failure: dict, later: str) -> bool:
    """Whether ``later`` runs the command a failing package script (or cargo's runner) was echoed as, with options
    added: ``npx
    electron-forge make --targets @electron-forge/maker-deb`` for an ``npm run make`` echoed ``> electron-forge
    make`` (the way it could pass, its other makers left out)."""
    words = failure["target"].split()
    # (or the runner cargo said it ran: ``probe-rs run --chip STM32L432KCUx --connect-under-reset target/…/pump-fw``
    # after ``cargo run --release`` printed "Running `probe-rs run --chip STM32L432KCUx target/…/pump-fw`")
    runner = re.findall(r"(?m)^\s*Running `([^`]+)`", failure.get("error_text") or "") if words[:2] == ["cargo", "run"] \
        else []
    if runner:
        argv, ran = parse_command(runner[-1])["argv"], parse_command(later)["argv"]
        return len(argv) > 1 and bool(ran) and ran[0] == argv[0] and set(argv) < set(ran) \
            and all(w.startswith("-") for w in set(ran) - set(argv))
    script = [w for w in words[1:] if not w.startswith("-") and w != "run"]
    if not words or words[0] not in _PACKAGE_RUNNERS or len(script) != 1:
        return False
    echoed = _echoed_script(re.sub(r"^\s*Exit code \d+\s*", "", failure.get("error_text") or ""),
                            re.escape(script[0]))
    argv, ran = parse_command(echoed or "")["argv"], parse_command(later)["argv"]
    return len(argv) > 1 and len(ran) > len(argv) and ran[:len(argv)] == argv and ran[len(argv)].startswith("-")


def _by_its_script(failed: str, later: str) -> bool:
    """Whether ``later`` runs the failing program by its script in node_modules, under another interpreter, on the
    same targets (``ELECTRON_RUN_AS_NODE=1 npx electron node_modules/jest/bin/jest.js src/main/db`` for ``npx jest
    src/main/db``)."""
    before, after = parse_command(failed)["argv"], parse_command(later)["argv"]
    if not before or not after:
        return False
    program = re.escape(_program_name(before[0]))
    script = next((i for i, w in enumerate(after[1:], 1)
                   if re.search(rf"(?:^|/)node_modules/(?:\.bin/{program}|{program}/bin/{program}(?:\.[cm]?js)?)$", w)),
                  None)
    return script is not None and after[script + 1:] == before[1:]


def _on_the_image_built(failed: str, later: str, between: list[dict]) -> bool:
    """Whether ``later`` runs, with the options of the ``docker run`` that failed, an image the session built since
    from the one that failed: ``FROM ghcr.io/terraform-linters/tflint:v0.50.3``, its plugins installed at build time,
    tagged ``registry…/tflint:0.50.3-aws0.31.0`` and run offline where ``… tflint:v0.50.3 --init`` could not
    download them. The same check, on the image made for it, whatever it was asked to do there."""
    runs = [container_run(command) for command in (failed, later)]
    if not all(runs) or runs[0][0] != runs[1][0] or runs[0][1] == runs[1][1]:
        return False
    base, image = runs[0][1], runs[1][1]
    tagged = re.compile(rf"\b(?:build|buildx\s+build)\b.*\s(?:-t|--tag)[=\s]{re.escape(image)}(?:\s|$)")
    return any(o["tool"] == "Bash" and o["outcome"] == "ok" and tagged.search(o["target"]) for o in between) \
        and any(re.search(rf"(?im)^FROM\s+(?:--platform=\S+\s+)?{re.escape(base)}(?:\s|$)", new)
                for o in between if o["tool"] in EDIT_TOOLS for _, new in _edit_sides(o))


def _by_its_loader(failed: str, later: str) -> bool:
    """Whether ``later`` runs the failing program's file under a runtime that loads the program as a hook (``node
    --loader ts-node/esm scripts/seed.ts`` for ``npx ts-node scripts/seed.ts``): the same run, the way that works."""
    before, after = parse_command(failed)["argv"], parse_command(later)["argv"]
    if len(before) < 2 or len(after) < 4:
        return False
    program = _program_name(before[0])
    return any(option in _PRELOAD_OPTIONS and value.split("/")[0] == program and after[n + 2:] == before[1:]
               for n, (option, value) in enumerate(zip(after[1:], after[2:]), 1))


def _by_another_interpreter(failed: str, later: str) -> bool:
    """Whether ``later`` runs the script the failing interpreter ran, with the same arguments, under another program
    that embeds what it imports (``freecadcmd scripts/export_step.py --pass parts out/step`` for ``python3
    scripts/export_step.py parts out/step`` that could not import FreeCAD)."""
    before, after = parse_command(failed)["argv"], parse_command(later)["argv"]
    if len(before) < 2 or len(after) < 2 or _program_name(before[0]) not in _SCRIPT_INTERPRETERS \
            or not re.search(r"\.(?:py|rb|js|mjs|lua|pl|tcl|R)$", before[1]) \
            or _program_name(after[0]) in _SCRIPT_INTERPRETERS or after[0] in _READERS \
            or _program_name(after[0]) == _program_name(before[0]) or before[1] not in after[1:]:
        return False
    rest = [w for w in after[after.index(before[1]) + 1:] if not w.startswith("-")]
    # (a value redaction took for an option's secret stands for the word it was: ``--pass parts``, FreeCAD's way to
    # hand the script its arguments)
    return len(rest) == len(before) - 2 and all(a == b or a.startswith("[REDACTED:") for a, b in zip(rest, before[2:]))


_SCRIPT_INTERPRETERS = frozenset(("python", "python3", "ruby", "node", "lua", "perl", "tclsh", "Rscript"))
# programs that start a training script on several processes or GPUs
_LAUNCHERS = frozenset(("torchrun", "accelerate", "deepspeed", "mpirun", "mpiexec", "srun", "horovodrun", "composer"))


def _by_another_launcher(failed: str, later: str) -> bool:
    """Whether ``later`` starts the script the failing launcher started, with the same arguments, by another launcher
    (``accelerate launch --multi_gpu --num_processes 2 train.py --config c.yaml`` for ``torchrun --nproc_per_node 2
    train.py --config c.yaml``)."""
    before, after = parse_command(failed)["argv"], parse_command(later)["argv"]
    if not before or not after or _program_name(before[0]) not in _LAUNCHERS | _SCRIPT_INTERPRETERS \
            or _program_name(after[0]) not in _LAUNCHERS or _program_name(after[0]) == _program_name(before[0]):
        return False
    script = next((w for w in before[1:] if re.search(r"\.py$", w)), None)
    return script is not None and script in after and \
        after[after.index(script) + 1:] == before[before.index(script) + 1:]


def _under_a_wrapper(failed: str, later: str) -> bool:
    """Whether ``later`` runs the program that failed, by its path, inside another tool that sets up what it needs
    (``meson devenv -C _build ./src/quill --version`` for a failing ``./_build/src/quill``), given no other work to
    do than options."""
    before, after = parse_command(failed)["argv"], parse_command(later)["argv"]
    if not before or "/" not in before[0] or len(after) < 2 or _program_name(after[0]) == _program_name(before[0]) \
            or after[0] in _READERS or after[0] in ("bash", "sh", "zsh", "git", "chmod", "shellcheck"):
        return False  # (``grep -n … scripts/release-mac.sh`` reads the script that failed; it runs nothing)
    path = os.path.normpath(before[0])
    for n, word in enumerate(after[1:], 1):
        # (run by its path: ``./src/quill``, ``/opt/app/bin/quill``)
        if word.startswith(("./", "/")) and os.path.basename(word) == os.path.basename(path) \
                and (path == os.path.normpath(word) or path.endswith("/" + os.path.normpath(word))):
            rest = after[n + 1:]
            return rest == before[1:] or all(w.startswith("-") for w in rest)
    return False


def _handed_to_a_shell(failed: str, later: str) -> bool:
    """Whether ``later`` hands the failing line, as it was, to another shell to run (``pwsh -NoProfile -Command
    "Invoke-Pester -Path .\\tests\\… -Output Detailed"`` for the ``Invoke-Pester …`` that Windows PowerShell 5.1
    could not run)."""
    after = parse_command(later)["argv"]
    code = _interpreter_code(after) if after and _program_name(after[0]) in _SHELLS else None
    return bool(code) and " ".join(code.split()) == " ".join(failed.split())


def _in_the_dev_shell(failed: str, later: str) -> bool:
    """Whether ``later`` runs the failing line whole inside the project's dev shell (``nix develop -c sh -c 'meson
    setup build && meson test -C build'`` for ``meson setup build && meson test -C build``)."""
    for step in _segments(later) or [later]:
        parsed = parse_command(step)
        if not re.match(r"(?:nix develop|devbox run|direnv exec|flox activate)\b", parsed["runner"] or ""):
            continue
        argv = parsed["argv"]
        inner = argv[2] if len(argv) == 3 and _program_name(argv[0]) in _SHELLS and argv[1] in ("-c", "-lc") \
            else " ".join(argv)
        if " ".join(command_key(inner).split()) == " ".join(command_key(failed).split()):
            return True
    return False


def _in_a_container(failed: str, later: str) -> bool:
    """Whether ``later`` runs the program that failed on the host, with the same subcommand, in a container (``docker
    compose exec airflow-scheduler airflow dags backfill …`` for ``airflow dags backfill …``)."""
    into, inside = _exec_split((_segments(later) or [later])[0])
    before = parse_command(failed)["argv"]
    insides = [parse_command(inside)["argv"]]
    # (or an image run on a line of steps that has it: ``docker run … electronuserland/builder:wine /bin/bash -c "npm
    # ci && npm run dist:win"`` for the ``npm run dist:win`` that needs wine)
    run = container_words(parse_command(later)["argv"])
    code = run[1][3] if run and len(run[1]) > 3 and _program_name(run[1][1]) in _SHELLS \
        and run[1][2] in ("-c", "-lc") else None
    if code:
        into, insides = run[1][0], [parse_command(step)["argv"] for step in _and_steps(code) or [code]]
    words = [w for w in before[1:] if not w.startswith("-")][:2]
    # (or the program's own image, which runs it, given the same subcommand: ``docker run --rm -v "$PWD":/local
    # openapitools/openapi-generator-cli:v7.8.0 generate …`` for the ``npx @openapitools/openapi-generator-cli
    # generate …`` a host without java could not run)
    if run and before and words and not code and not _exec_split(failed)[0] \
            and re.sub(r"[:@].*$", "", run[1][0].rsplit("/", 1)[-1]) == _program_name(before[0]).rsplit("/", 1)[-1] \
            and [w for w in run[1][1:] if not w.startswith("-")][:1] == words[:1]:
        return True
    return bool(into and before) and not _exec_split(failed)[0] and any(
        after and _program_name(after[0]) == _program_name(before[0])
        and [w for w in after[1:] if not w.startswith("-")][:2] == words for after in insides)


# composer's script that failed after an install (``Script cache:clear returned with error code 1``)
_FAILED_SCRIPT = LazyRegex(r"(?m)^\s*Script (\S+) returned with error code \d+")


def _runs_failed_script(failure: dict, later: str) -> bool:
    """Whether ``later`` runs by another program the script a package manager's run failed in (``php bin/console
    cache:clear`` for ``composer install``'s ``Script cache:clear returned with error code 1``)."""
    scripts = _FAILED_SCRIPT.findall(failure.get("error_text") or failure.get("body") or "")
    argv = parse_command(later)["argv"]
    failing = parse_command(failure["target"])["argv"]
    return bool(scripts and argv and failing) and _program_name(argv[0]) != _program_name(failing[0]) \
        and scripts[-1] in argv[1:] and ":" in scripts[-1]


def _script_echoes_the_run(later: dict, failed: str) -> bool:
    """Whether ``later`` runs a project's script that said it ran the failing program on what failed (``applying
    014_add_device_index.cql via: docker compose exec -T cassandra cqlsh -k telemetry -f /migrations/014_….cql`` from
    ``./scripts/migrate.sh 014_add_device_index.cql`` for a failing ``cqlsh -k telemetry -f schema/migrations/014_….cql``):
    the script is the project's way to do it."""
    argv, failing = parse_command(later["target"])["argv"], parse_command(failed)["argv"]
    if not argv or len(failing) < 2 or not ("/" in argv[0] or argv[0].endswith(".sh")):
        return False
    program = _program_name(failing[0])
    if program == _program_name(argv[0]):
        return False
    wanted = [os.path.basename(w) for w in failing[1:] if not w.startswith("-")]
    for line in (later.get("body") or "").splitlines()[:30]:
        words = [w.strip("'\"`") for w in line.split()]
        names = [_program_name(w) for w in words]
        if program in names:
            rest = {os.path.basename(w) for w in words[names.index(program) + 1:]}
            if wanted and all(w in rest for w in wanted):
                return True
    return False


# a variable a run found missing: ``KeyError: 'KFP_COMPONENT_IMAGE'`` from ``os.environ[…]``, "SEPOLIA_RPC_URL must
# be set", "environment variable DATABASE_URL not set"
_MISSING_VARIABLE = LazyRegex(r"\bKeyError: '([A-Z][A-Z0-9_]{3,})'|\b([A-Z][A-Z0-9_]{3,}) (?:must be set|is not set|"
                              r"is required|not set)\b|environment variable [`'\"]?([A-Z][A-Z0-9_]{3,})")


def _sets_what_was_missing(later: dict, failures: list[dict]) -> bool:
    """Whether ``later`` is a make target (or a package script) whose echoed line sets the variable the failing runs
    found missing (``make compile PIPELINE=training`` printing ``KFP_COMPONENT_IMAGE=…/ml-components:3f9c2e1 uv run
    python -m pipelines.compile training`` after ``KeyError: 'KFP_COMPONENT_IMAGE'``): the project's way gives it."""
    words = later["target"].split()
    if not words or os.path.basename(words[0]) not in ("make", "just", *_PACKAGE_RUNNERS):
        return False
    missing = {name for f in failures for m in _MISSING_VARIABLE.finditer(f.get("error_text") or "")
               for name in m.groups() if name}
    return any(re.search(rf"(?:^|[\s;&(]){name}=\S", line) for name in missing for line in _echoed(later)[:10])


def _composer_script_runs(later: dict, failed: str) -> bool:
    """Whether ``later`` is a composer script that echoed, as one of its steps, the program that failed on all it
    covers or on what failed (``composer test``: ``> @php bin/console doctrine:database:create …``, then ``> @php
    bin/phpunit``, for a failing ``php bin/phpunit tests/Form/RegistrationFormTypeTest.php``): the script is the way."""
    argv, failing = parse_command(later["target"])["argv"], parse_command(failed)["argv"]
    if not argv or _program_name(argv[0]) != "composer" or not failing or _program_name(failing[0]) == "composer":
        return False
    for line in (later.get("body") or "").splitlines()[:40]:
        if not line.startswith("> "):
            continue
        echoed = parse_command(re.sub(r"^@(php|composer)\b", r"\1", line[2:].strip()))["argv"]
        if echoed and echoed == failing[:len(echoed)] and all(
                _TEST_PATH.search(w) or w.startswith("-") for w in failing[len(echoed):]):
            return True
    return False


def _script_prepares(later: dict) -> bool:
    """Whether the package script ``later`` ran, as the package manager echoed it, takes a step before its last
    command (``> electron-vite build --mode e2e && playwright test``)."""
    echoed = _echoed_script(later.get("body") or "")
    return echoed is not None and bool(parse_command(echoed)["prep"])


def _backgrounded_recipe(command: str) -> str | None:
    """The ``make``/``just`` target a line puts in the background with its output in a log (``(make run-local >
    /tmp/billing.log 2>&1 &) && sleep 25 && grep -E "Started|ERROR" /tmp/billing.log``: ``make run-local``)."""
    return next((m.group(1) for step in _segments(command)
                 if (m := re.match(r"\(\s*((?:make|just)\s+[\w:-]+)\s*(?:>>?\s*\S+\s*)?&\s*\)$", step))), None)


def _recipe_runs(target_run: str, failed: str, seen: list[dict]) -> bool:
    """Whether ``target_run`` is a ``make`` (or ``just``) target whose recipe, as the session saw the Makefile (read,
    or grepped: ``dashboards: vendor`` then ``jsonnet -J vendor -J lib $$f > …``), runs the program that failed; or a
    script of the project whose lines, as the session saw them, run it."""
    # (its output's plumbing aside, ``make screenshots 2>&1 | tail -18``; or put in the background with its log, ``(make
    # run-local > /tmp/billing.log 2>&1 &) && sleep 25 && grep -E "Started|ERROR" /tmp/billing.log``)
    # (its variables' quoted values one word each: ``make run-remote WF=etl_wf ARGS="--run_date 2024-11-17"``)
    words = _words(_backgrounded_recipe(target_run) or command_key(target_run))
    argv = parse_command(failed)["argv"]
    program = _program_name(argv[0]) if argv else ""
    # (or the tool a multiplexer ran, by its own name: ``kubectl kustomize`` is the ``$(KUSTOMIZE) build`` of a recipe)
    tool = argv[1] if len(argv) > 1 and program in ("kubectl", "oc", "docker", "podman") \
        and re.fullmatch(r"[a-z][a-z-]{4,}", argv[1]) else None

    def runs(line: str) -> bool:
        # (by its path too: ``./mvnw -pl schemas -Pregistry-local schema-registry:test-compatibility``)
        # (or as a variable's default the script runs: ``UE_CMD="${UE_CMD:-/c/…/UnrealEditor-Cmd.exe}"``)
        return bool(re.search(rf"(?:^|[\s@;&|(/-]){re.escape(program)}(?:\s|$|}}[\"']?$)", line.strip())) or bool(
            tool and re.search(rf"(?i)(?:^|[\s/$(]){re.escape(tool)}\)?\s+build\b", line.strip()))

    # (a script of the project run by its path, whose lines the session saw run it: ``./scripts/soda-scan.sh orders``
    # and its ``exec soda scan -d warehouse -c soda/configuration.yml …``)
    if words and program and re.fullmatch(r"(?:\./)?[\w.-]+(?:/[\w.-]+)*/[\w.-]+|(?:\./)?[\w.-]+\.sh", words[0]) \
            and _program_name(words[0]) != program:
        script = re.sub(r"^\./", "", words[0])
        return any(runs(line) for o in seen for line in _lines_of(o, script) if not line.lstrip().startswith("#"))
    if not words or os.path.basename(words[0]) not in ("make", "just"):
        return False
    goals = [w for w in words[1:] if not w.startswith("-") and "=" not in w]
    # (just's recipe takes its arguments after its name: ``just sql models/parcels.sql``)
    just = os.path.basename(words[0]) == "just"
    goals = goals[:1] if just else goals
    if len(goals) != 1 or not program or program in ("make", "just"):
        return False

    for o in seen:
        text = o.get("body") or ""
        if not re.search(r"(?:^|[/\s])(?:GNU)?[Mm]akefile\b|(?:^|[/\s])[Jj]ustfile\b", o.get("target") or ""):
            continue  # (the Makefile read, or grepped)
        # (a grep's ``12:dashboards: vendor`` as well as the file's own line; over several files, the Makefile's
        # lines: ``Makefile:22:druid-submit: …``)
        lines = [re.sub(r"^(?:\S*[Mm]akefile:|\S*[Jj]ustfile:)?\d+[:-]", "", line) for line in text.splitlines()
                 if not re.match(r"[\w./-]+:\d+[:-]", line) or re.match(r"\S*(?:[Mm]akefile|[Jj]ustfile):\d", line)]
        # (a justfile's variables, as its recipes use them: ``duck := "duckdb -init sql/init.sql …"``, ``{{duck}} <
        # {{FILE}}``)
        values = dict(re.findall(r"(?m)^(\w+)\s*:=\s*[\"']([^\"'\n]*)[\"']", text)) if just else {}
        params = r"(?:[ \t]+[*+$]?[\w=\"-]+)*" if just else ""  # (``sql FILE:``)
        for i, line in enumerate(lines):
            if re.match(rf"{re.escape(goals[0])}{params}\s*:(?!=)", line):
                recipe = []
                for body in lines[i + 1:i + 12]:
                    if not body.startswith(("\t", "  ")):
                        break
                    recipe.append(re.sub(r"\{\{\s*(\w+)\s*\}\}", lambda m: values.get(m.group(1), m.group(0)), body))
                if any(runs(r) for r in recipe):
                    return True
                # (or runs a script of the project whose lines, as the session saw them, run it:
                # ``./scripts/druid_submit.sh ingestion/$(SPEC).json`` and its ``curl -sS -X POST …``)
                scripts = {w.lstrip("./") for r in recipe for w in r.split()[:1] if "/" in w or w.endswith(".sh")}
                if any(runs(line) for script in scripts for seen_o in seen for line in _lines_of(seen_o, script)):
                    return True
    return False


def _package_script_runs(target_run: str, failed: str, seen: list[dict]) -> bool:
    """Whether ``target_run`` runs a package script whose definition, as the session saw package.json (read back or
    grepped: ``"android:build": "npm run build && npx cap sync android && cd android && ./gradlew assembleDebug"``),
    runs the command that failed (``./gradlew assembleDebug`` in android/): the project's way to run it, with what
    it needs done first."""
    check = parse_command(failed)["check"]
    if not check or len(check) < 6:
        return False
    # (any script the run chains: ``npm run build-storybook && npm run test-storybook:ci``)
    for segment in parse_command(target_run)["segments"]:
        words = command_key(segment).split()
        script = [w for w in words[1:] if not w.startswith("-") and w != "run"][:1]
        if not words or words[0] not in (*_PACKAGE_RUNNERS, "melos") or not script:
            continue
        # (or a melos script as melos.yaml gives it: ``codegen:`` then ``run: melos exec --depends-on="build_runner"
        # -- "dart run build_runner build --delete-conflicting-outputs"``)
        name = re.escape(script[0])
        manifest, definition = ("melos.yaml", re.compile(rf"(?m)^\d*[:-]?\s*{name}:\s*\n\d*[:-]?\s*run:\s*(.+)$")) \
            if words[0] == "melos" else ("package.json", re.compile(rf'"{name}"\s*:\s*"((?:[^"\\]|\\.)*)"'))
        if any(re.search(rf"(?:^|[\s&;|(\"]){re.escape(check)}(?![\w:.-])", m.group(1).replace('\\"', '"'))
               for o in seen if manifest in (o.get("target") or "") for m in definition.finditer(o.get("body") or "")):
            return True
    return False


# programs that only look at, time or trace the command they are given: no other way to run it
_ONLY_WATCHES = frozenset(("echo", "printf", "which", "type", "man", "help", "time", "watch", "strace", "ltrace",
                           "gdb", "lldb", "valgrind", "perf", "nice", "ionice", "timeout", "sudo", "env", "command",
                           "exec", "nohup", "sh", "bash", "zsh", "xargs", "stdbuf", "unbuffer", "script", "tee"))


def _run_inside(target_run: str, failed: str) -> bool:
    """Whether ``target_run`` is the command that failed, whole, run by another program (``libdragon make`` for a
    ``make`` that found no toolchain: the libdragon CLI runs the same Makefile in the container that has it)."""
    words, failed_words = command_key(target_run).split(), command_key(failed).split()
    return bool(failed_words) and words[1:] == failed_words and re.fullmatch(r"[a-z][\w.-]*", words[0]) is not None \
        and words[0] not in _ONLY_WATCHES


def _sbt_alias_runs(target_run: str, failed: str, seen: list[dict]) -> bool:
    """Whether ``target_run`` runs an sbt alias whose definition the session saw in build.sbt
    (``addCommandAlias("unitTest", ";core/test;api/test")``) and that runs the failed task in the build's own
    modules (``sbt test``): the project's way to run it (blind452 QK22)."""
    words, failed_words = command_key(target_run).split(), command_key(failed).split()
    if len(words) != 2 or words[0] != "sbt" or len(failed_words) != 2 or failed_words[0] != "sbt":
        return False
    task = failed_words[1]
    alias = re.compile(rf'addCommandAlias\(\s*"{re.escape(words[1])}"\s*,\s*"([^"]*)"')
    return any(re.search(rf"(?:^|[;\s/]){re.escape(task)}(?:$|[;\s])", m.group(1))
               for o in seen if "build.sbt" in (o.get("target") or "") for m in alias.finditer(o.get("body") or ""))


def _lines_of(observation: dict, path: str) -> list[str]:
    """The lines of the file at ``path`` an observation showed: the file read or printed, or a grep's ``path:19:…``
    lines."""
    if observation["tool"] == "Read" and (observation.get("target") or "").endswith("/" + path):
        return (observation.get("body") or "").splitlines()
    # (the file printed: ``cat scripts/soda-scan.sh``, or its first lines after a listing: ``ls Build/ && head -14
    # Build/localize.sh``)
    if observation["tool"] == "Bash" and any(
            re.fullmatch(rf"(?:cat|head(?:\s+-n)?(?:\s+-?\d+)?)\s+(?:\./)?{re.escape(path)}", segment.strip())
            for segment in _segments(observation.get("target") or "")):
        return (observation.get("body") or "").splitlines()
    return [line.split(":", 2)[2] for line in (observation.get("body") or "").splitlines()
            if observation["tool"] == "Bash" and re.match(rf"(?:\./)?{re.escape(path)}:\d+:", line)]


def _passed_as_a_test(failure: dict, later: dict) -> bool:
    """Whether a test program run by its path that failed (``./_build/src/tests/test-recipe-window``) passed as one
    of the tests of a test runner's run (``meson test -C _build``: ``3/4 recipes:ui / test-recipe-window  OK``;
    ctest's ``Passed``): the runner sets up what the program needs, it is the way to run it."""
    argv = parse_command(failure["target"])["argv"]
    if len(argv) != 1 or "/" not in argv[0] or command_job(later["target"]) != "test":
        return False
    name = argv[0].rsplit("/", 1)[-1]
    if not re.search(r"(?i)(?:^|[_-])tests?(?:$|[_-])", name):
        return False
    lines = [line for line in (later.get("body") or "").splitlines()
             if re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", line)]
    return bool(lines) and all(re.search(r"\b(?:OK|ok|Passed|PASS(?:ED)?|passed)\b", line)
                               and not re.search(r"\b(?:FAIL(?:ED)?|Failed|failed|ERROR)\b", line) for line in lines)


def _edited_script_runs(target_run: str, failed: str, events: list[dict]) -> bool:
    """Whether ``target_run`` runs a project's script (``./scripts/render_reports.sh``) that the session edited since
    the failure so that a line of it runs the program and subcommand that failed (``jupyter nbconvert --to html
    --execute --ExecutePreprocessor.kernel_name=python3 "$nb" …`` for a failing ``jupyter nbconvert …``): the
    script is the failing run, changed."""
    argv = parse_command(target_run)["argv"]
    if not argv or "/" not in argv[0] and not argv[0].endswith(".sh"):
        return False
    script = argv[0].removeprefix("./")
    failing = parse_command(failed)["argv"]
    head = [_program_name(failing[0])] + [w for w in failing[1:2] if not w.startswith("-")] if failing else []
    for edit in events:
        if edit["tool"] not in EDIT_TOOLS or not any(f.endswith("/" + script) or f == script
                                                     for f in edit.get("files") or []):
            continue
        for line in _added_lines(edit):
            words = parse_command(line.strip())["argv"]
            if head and [_program_name(w) for w in words[:len(head)]] == head:
                return True
            # (or an option line of its command continued over lines, the option the failing run gave too:
            # ``  -H "apns-topic: ${BUNDLE_ID}.push-type.liveactivity" \`` for ``curl … -H "apns-topic:
            # com.courierapp.ios" …``)
            option = re.match(r"\s*(-{1,2}[\w-]+)[=\s]+[\"']?([\w.-]+)\s*[:=]", line)
            if option and line.rstrip().endswith("\\") and re.search(
                    rf"(?:^|\s){re.escape(option.group(1))}[=\s]+[\"']?{re.escape(option.group(2))}\s*[:=]", failed):
                return True
    return False


def _echoed_recipe_runs(later: dict, failed: str, subcommand: bool = False) -> bool:
    """Whether ``later`` is a ``make`` (or ``just``) target that echoed, as the first line of its recipe, a line
    running the program that failed (``docker compose run --rm ksqldb-cli ksql-migrations … apply --all`` under
    ``make ksql-migrate``, for a ``ksql-migrations`` the host does not have: asked for a missing program, or for a
    target the account names as the way, where the line runs the subcommand that failed too)."""
    words = later["target"].split()
    argv = parse_command(failed)["argv"]
    # (or a package script, as the package manager echoed it: ``> xcodebuild -scheme CapacitorScreen …`` under ``npm
    # run verify:ios``, named as the way)
    script = _echoed_script(later.get("body") or "") if words[:1] and os.path.basename(words[0]) in _PACKAGE_RUNNERS \
        else None
    if not words or os.path.basename(words[0]) not in ("make", "just") and script is None or not argv \
            or _program_name(argv[0]) in ("make", "just", *_PACKAGE_RUNNERS):
        return False
    program = _program_name(argv[0])
    first = script if script is not None else next(iter(_echoed(later)), "")
    names = [_program_name(w) for w in first.split()]
    if subcommand and program in names and len(argv) > 1 and not argv[1].startswith("-"):
        return argv[1] in first.split()[names.index(program) + 1:]
    return not first.startswith(("make", "just")) and program in names


def _provides_the_missing_run(failure: dict, later: dict) -> bool:
    """Whether a passing ``later`` ran the failing line, whose program this shell did not have, through a tool that
    provides it: given the line as its code (``kas-container shell kas/acme-rpi4.yml -c "bitbake sensord"``), or
    printing the run it made of that program on the same targets (kas's ``… build$ /…/poky/bitbake/bin/bitbake -c
    build acme-gateway-image`` for ``bitbake acme-gateway-image``: command not found)."""
    program = _missing_program(failure)
    argv = parse_command(failure["target"])["argv"]
    if not program or not argv or _program_name(argv[0]) != program:
        return False
    if " ".join((_inline_code(later["target"]) or "").split()) == " ".join(failure["target"].split()):
        return True
    targets = [w for w in argv[1:] if not w.startswith("-")]
    ran = re.finditer(rf"(?m)\$\s+(?:\S*/)?{re.escape(program)}((?:[ \t]+\S+)*)[ \t]*$", later.get("body") or "")
    return bool(targets) and any(all(t in m.group(1).split() for t in targets) for m in ran)


def _built_its_crate(failure: dict, later: dict) -> bool:
    """Whether ``later`` is a ``make`` (or ``just``) target whose run compiled, to the end, the crate a failing
    ``cargo build`` was compiling (``Compiling nrf52840dk v0.2.3-dev`` … ``Finished `release` profile`` under ``make -C
    boards/nordic/nrf52840dk``, for a ``cargo build --release -p nrf52840dk`` that had no target or linker script):
    the target builds it the project's way."""
    argv = parse_command(failure["target"])["argv"]
    words = later["target"].split()
    if argv[:2] not in (["cargo", "build"], ["cargo", "test"]) or not words \
            or os.path.basename(words[0]) not in ("make", "just"):
        return False
    crates = set(re.findall(r"(?m)^\s*Compiling ([\w-]+) v\d", failure.get("error_text") or failure.get("body") or ""))
    body = later.get("body") or ""
    return bool(crates) and bool(re.search(r"(?m)^\s*Finished `\w+` profile", body)) and any(
        re.search(rf"(?m)^\s*Compiling {re.escape(crate)} v\d", body) for crate in crates)


def _echoed(later: dict) -> list[str]:
    """The lines a ``make`` run printed, less its own (``make: Entering directory '/home/dev/infra'``); of an
    ``earthly`` run, the commands its targets ran (``+test | --> RUN go test -race ./...``)."""
    lines = [line.strip() for line in (later.get("body") or "").splitlines()]
    words = (later.get("target") or "").split()
    if words and _program_name(words[0]) == "earthly":
        return [m.group(1) for line in lines if (m := re.match(r"\S*\+[\w-]+\s*\|\s*--> RUN (.+)$", line))]
    return [line for line in lines if line and not re.match(r"g?make(?:\[\d+\])?: ", line)]


def _echoed_recipe_step(later: dict, failed: str) -> bool:
    """Whether ``later`` is a ``make`` (or ``just``) target that echoed a recipe line running the program and
    subcommand that failed (``PULUMI_CONFIG_PASSPHRASE_FILE=… pulumi preview --stack staging`` under ``make -C infra
    preview ENV=staging``, for a bare ``pulumi preview`` that had no backend to log into): the target is the way."""
    words = later["target"].split()
    argv = _as_module(parse_command(failed)["argv"])
    # (or a program the project built, run bare by its path, where the recipe sets what it reads: ``DD_EMPIN=data/
    # PAYROLL.in … ./bin/PAYROLL`` under ``make batch JOB=PAYROLL``, for a ``./bin/PAYROLL`` that found no input)
    if words and os.path.basename(words[0]) in ("make", "just") and len(argv) == 1 and "/" in argv[0]:
        return any(_echoed_argv(line) == argv and line != argv[0] for line in _echoed(later)[:30])
    if not words or os.path.basename(words[0]) not in ("make", "just", "earthly") or len(argv) < 2 \
            or argv[1].startswith("-") and len(argv) < 3 or _program_name(argv[0]) in ("make", "just", "earthly"):
        return False
    # (a program told what to do by its options, by the first two: ``godot --headless --export-release …``)
    size = 3 if argv[1].startswith("-") else 2
    head = [_program_name(argv[0]), *argv[1:size]]
    # (or its subcommand given after the options the recipe sets, each with its value: ``chezmoi --source=… --config=…
    # --destination=… apply --force`` under ``make check``, for a failing ``chezmoi apply --dry-run``)
    def settled(words: list[str]) -> list[str]:
        rest = words[1:]
        while rest and re.match(r"--[\w-]+=\S", rest[0]):
            rest = rest[1:]
        return [_program_name(w) for w in words[:1]] + rest

    # (or, told by its options, given the same files: ``cobc -x -std=ibm -I copybooks -o bin/PAYROLL
    # src/PAYROLL.cbl`` under ``make batch JOB=PAYROLL``, for a bare ``cobc -x -o bin/PAYROLL src/PAYROLL.cbl``)
    files = {w for w in argv[1:] if "/" in w and not w.startswith("-")} if argv[1].startswith("-") else set()
    # (or the same script run as a module in the project's container: ``docker compose run --rm backtest python -m
    # strategies.sma_cross --symbol ES`` under ``make backtest STRAT=sma_cross SYMBOL=ES``, for a bare ``python
    # strategies/sma_cross.py --symbol ES`` that found no feeds)
    lines = _echoed(later)[:30]
    inside = [_as_module(parse_command(split[1])["argv"]) for line in lines if (split := _exec_split(line))[0]]
    return any([_program_name(w) for w in echoed[:1]] + echoed[1:size] == head
               or not argv[1].startswith("-") and settled(echoed)[:2] == head
               or files and _program_name(echoed[0]) == head[0] and files <= set(echoed)
               for echoed in [*(_as_module(_echoed_argv(line)) for line in lines), *inside] if echoed)


def _as_module(argv: list[str]) -> list[str]:
    """A Python script's run as ``python -m`` names it (``python strategies/sma_cross.py --symbol ES`` →
    ``strategies.sma_cross --symbol ES``); any other run as it is."""
    if len(argv) > 1 and re.fullmatch(r"python[\d.]*", _program_name(argv[0])) \
            and re.fullmatch(r"(?:\./)?[A-Za-z_]\w*(?:/[A-Za-z_]\w*)*\.py", argv[1]):
        return [argv[1].removeprefix("./")[:-3].replace("/", "."), *argv[2:]]
    return argv


def _echoed_argv(line: str) -> list[str]:
    """The words of a line a recipe echoed; a package script's, as npm echoed it within, by the package it runs
    (``> node node_modules/@microsoft/azure-data-factory-utilities/lib/index validate …`` is that package's
    ``validate``, the ``npx @microsoft/azure-data-factory-utilities validate`` that could not find it)."""
    argv = parse_command(re.sub(r"^>\s+", "", line))["argv"]
    if len(argv) > 1 and _program_name(argv[0]) == "node" \
            and (package := re.match(r"(?:\./)?node_modules/((?:@[\w.-]+/)?[\w.-]+)/", argv[1])):
        return [package.group(1), *argv[2:]]
    return argv


def _runs_the_same_tests(failure: dict, later: str) -> bool:
    """Whether ``later``, another program (a project's script: ``bin/test``, ``./scripts/test.sh``), runs every test
    file the failing command ran (``bundle exec rspec spec/models/subscription_spec.rb``)."""
    tests = [t for t in _targets(failure["target"]) if _TEST_PATH.search(t)]
    # (not one that reads them: ``head -3 test/unit/test_inventory.gd`` runs nothing)
    argv = parse_command(later)["argv"]
    return bool(tests and argv) and _program_name(argv[0]) not in _READERS \
        and command_family(later) != command_family(failure["target"]) \
        and set(tests) <= set(_targets(later)) and not _asks_version(later)


def _reports_the_same_tests(failure: dict, later: dict) -> bool:
    """Whether ``later``, another program, reports each test file the failing command named passing, as a TAP
    harness does (``docker compose run --rm pgtap`` printing ``test/sql/01-schema.sql ..... ok`` for a failing
    ``pg_prove -d billing_test test/sql/*.sql``)."""
    tests = [t for t in _targets(failure["target"]) if _TEST_PATH.search(t)]
    body = later.get("body") or ""
    passed = re.findall(r"(?m)^(\S+) \.{2,} ok\s*$", body)
    return bool(tests and passed) and command_family(later["target"]) != command_family(failure["target"]) \
        and not re.search(r"(?m)^\S+ \.{2,} (?!ok\s*$)|^not ok\b|^Result: FAIL", body) \
        and all(any(fnmatch.fnmatchcase(p, t) or p == t for p in passed) for t in tests)


def _passes_after_an_edit(failure: dict, later: list[dict]) -> bool:
    """Whether the failing command itself passes later, after an edit: another tool's run of the same job before
    that (``cd apps/web && pnpm vitest run`` for a failing ``pnpm turbo run test``) was a look around, not the way."""
    family, edited = command_family(failure["target"]), False
    for o in later:
        edited = edited or o["tool"] in EDIT_TOOLS and o["outcome"] == "ok"
        # (or a step of its line, a look at what it built after it: ``nix build .#tidyq && ./result/bin/tidyq
        # --version``)
        if edited and o["outcome"] == "ok" and _is_check(o) and any(
                command_family(step) == family and _same_target(failure["target"], step)
                for step in _and_steps(o["target"]) or [o["target"]]):
            return True
    return False


def _run_again(failure: dict, later: list[dict]) -> bool:
    """Whether the failing command itself is run again later: another tool's run of the same job before that
    (``sudo apt-get install -y libsdl2-2.0-0`` for a failing ``bundle install``, then ``bundle install`` again) was a
    step on the way to it, not the way instead."""
    family = command_family(failure["target"])
    return any(o["tool"] == "Bash" and command_family(o["target"]) == family
               and _same_target(failure["target"], o["target"]) for o in later)


# the step a lane or a build failed in, as its output names it: fastlane's ``--- Step: match ---`` (the last before
# the error), gradle's ``> Task :app:compileKotlin FAILED``
_FAILED_STEP = LazyRegex(r"(?m)^(?:\[[\d:]+\]: )?--- Step: ([\w-]+) ---$|^> Task (:[\w:-]+) FAILED$")


def _runs_failed_step(failure: dict, later: str) -> bool:
    """Whether ``later`` runs on its own the step of the failing lane or build that failed (``bundle exec fastlane
    beta`` failed at ``--- Step: match ---``; ``fastlane match appstore --readonly`` passing is that step passing)."""
    steps = [a or b for a, b in _FAILED_STEP.findall(failure.get("error_text") or failure.get("body") or "")]
    words = [[w for w in parse_command(c)["argv"][1:] if not w.startswith("-")] for c in (failure["target"], later)]
    return bool(steps and words[1]) and words[1][0] == steps[-1] and steps[-1] not in words[0]


# the tests a runner reports failing, each with how it reports one passing: nim's unittest (``[FAILED] name`` /
# ``[OK] name``), TAP's prove (``t/x.t .... Dubious`` / ``t/x.t .... ok``), jest's and vitest's files, go's ``-v``,
# cargo's, pytest's ``-v``
_UNIT_VERDICTS = (
    (r"(?m)^\s*\[FAILED\]\s+(\S.*?)\s*$", r"(?m)^\s*\[OK\]\s+{}\s*$"),
    (r"(?m)^(\S+\.t)\s+\.+\s*Dubious\b", r"(?m)^{}\s+\.+\s*ok\b"),
    (r"(?m)^\s*FAIL\s+(\S+\.\w+)(?=\s|$)", r"(?m)^\s*PASS\s+{}(?=\s|$)"),
    (r"(?m)^\s*--- FAIL: (\S+)", r"(?m)^\s*--- PASS: {}\s"),
    (r"(?m)^test (\S+) \.\.\. FAILED\b", r"(?m)^test {} \.\.\. ok\b"),
    (r"(?m)^FAILED (\S+?)(?: - |\s*$)", r"(?m)^{} PASSED\b"),
)


def _passes_what_failed(failure: dict, later: dict) -> bool:
    """Whether a later run that failed too reports passing a test the failure reported failing, by the runner's own
    words (``[FAILED] fetches the sample feed over https``, then ``[OK] fetches the sample feed over https``)."""
    failed_text, later_text = failure.get("error_text") or "", later.get("error_text") or ""
    return any(re.search(passing.format(re.escape(name)), later_text)
               for failing, passing in _UNIT_VERDICTS for name in set(re.findall(failing, failed_text)))


def _covers_failed_tests(failure: dict, later: str) -> bool:
    """Whether a later run of the same check that picks test files (``npx playwright test tests/cart.spec.ts`` after
    ``npx playwright test`` failed in cart.spec.ts and checkout.spec.ts) runs every test file the failure names: one
    of two failing files passing alone is no pass of the run that failed."""
    # (nor of a pattern's files, one of those it flagged: ``shellcheck scripts/deploy.sh`` after ``shellcheck
    # scripts/*.sh`` found problems in deploy.sh and release.sh)
    patterns = [t.lstrip("./") for t in _targets(failure["target"]) if re.search(r"[*?\[]", t)]
    files = [t.lstrip("./") for t in _targets(later) if not re.search(r"[*?\[]", t)]
    # (a step of the line that ran the pattern again runs them all: ``promtool check rules rules/*.yaml && promtool
    # test rules tests/*.yaml``)
    if any(t.lstrip("./") in patterns for step in _segments(later) for t in _targets(step)):
        files = []
    if patterns and files and any(
            fnmatch.fnmatchcase(named, pattern) and named not in files
            for named in {w.lstrip("./") for w in re.findall(r"[\w./-]+\.\w+", failure.get("error_text") or "")}
            for pattern in patterns):
        return False
    # (nor a type checker's or linter's run on some of the files it complained of: ``uv run mypy
    # src/app/services/notify.py`` after ``uv run mypy src/`` found errors in notify.py and api/users.py)
    # (of the step that ran it: ``npx tsc --noEmit && npx tsx src/list-item.ts --dry-run`` ran the type check whole)
    step = _the_step(failure["target"], later) or later
    narrowed = [t.lstrip("./").rstrip("/") for t in _targets(step) if "/" in t or re.search(r"\.\w+$", t)]
    # (or the one project of a type checker's build: ``npx tsc -p packages/shared`` after ``npx tsc -b`` found an
    # error in packages/web)
    if not narrowed and (project := _tsc_project(step)) and project != _tsc_project(failure["target"]):
        narrowed = [project]
    if narrowed and is_static_check(failure["target"]) and any(
            not any(named == p or named.startswith(p + "/") or f"/{p}/" in f"/{named}/" for p in narrowed)
            for named in {m.group(1).lstrip("./") for m in _DIAGNOSED_FILE.finditer(failure.get("error_text") or "")}):
        return False
    if any(_TEST_PATH.search(t) or "/" in t for t in _targets(failure["target"])):
        return True  # (_same_target compares the files each picks)
    picked = [t for t in _targets(step) if _TEST_PATH.search(t) or "/" in t]
    failed = {m.group(0).lstrip("./") for m in _NAMED_TEST_FILE.finditer(failure.get("error_text") or "")}
    # (a file named from where the failing line ran: go's ``./shipment_test.go:18`` after ``cd internal/store && go
    # test ./...`` is in the ``./internal/store/...`` a later run picks)
    cwd = (parse_command(failure["target"])["cwd"] or "").strip("./")
    return not picked or not failed or all(any(
        f.startswith(p.rstrip("/")) or p.endswith(f)
        or cwd and f"{cwd}/{f}".startswith(re.sub(r"^\./|/?\.\.\.$", "", p).rstrip("/") + "/") for p in picked)
        for f in failed)


def _tsc_project(command: str) -> str:
    """The folder of the project a ``tsc`` run checks, by its ``-p``/``--project`` (``packages/shared``, or
    ``packages/shared/tsconfig.json``'s folder); "" for the project where it runs."""
    argv = parse_command(command)["argv"]
    if not any(_program_name(w) in ("tsc", "vue-tsc") for w in argv[:3]):
        return ""
    picked = next((argv[i + 1] for i, w in enumerate(argv[:-1]) if w in ("-p", "--project")),
                  next((w.split("=", 1)[1] for w in argv if w.startswith("--project=")), ""))
    picked = os.path.dirname(picked) if picked.endswith(".json") else picked
    return picked.lstrip("./").rstrip("/")


# the file a type checker's or linter's diagnostic is in (``src/app/api/users.py:41: error: …``, tsc's
# ``src/a.ts(3,7): error TS2322``, ``src/a.ts:3:7 - error``; pyright's indented, by its whole path,
# ``  /home/dev/ledger/src/ledger/posting.py:58:25 - error``)
_DIAGNOSED_FILE = LazyRegex(r"(?m)^[ \t]*(?:\S+ )?([\w./-]+\.\w+)(?::\d+(?::\d+)?:? -? ?|\(\d+,\d+\): )"
                            r"(?:error|warning)\b")
# (a spec by any language's suffix: ruby's ``_spec.rb``, crystal's ``spec/tokenizer_spec.cr``, busted's ``_spec.lua``)
_NAMED_TEST_FILE = LazyRegex(r"(?<![\w./-])(?:\./)?[\w./-]*(?:\.(?:test|spec)\.\w+|_test\.\w+|_spec\.\w+|"
                             r"(?<=/)test_\w+\.py)\b")


_ECHOING_RUNNERS = ("make", "gmake", "just", "task", *_PACKAGE_RUNNERS, "rake")


def _recipe_line(failure: dict, later: str) -> bool:
    """Whether ``later`` is the command line a failing task runner echoed before it failed (make prints each recipe
    line it runs; npm, ``> cmd``; a shell trace, ``+ cmd``)."""
    argv = parse_command(failure["target"])["argv"]
    # (or a project's script run under ``set -x``, whose trace shows each line it ran: ``+ psql … -c "CREATE
    # SUBSCRIPTION …"``)
    traced = bool(argv) and ("/" in argv[0] or argv[0].endswith(".sh")) \
        and bool(re.search(r"(?m)^\+ \S", failure.get("error_text") or ""))
    if not argv or _program_name(argv[0]) not in _ECHOING_RUNNERS and not traced:
        return False
    key = command_key(later)
    lines = [line for line in (failure.get("error_text") or "").splitlines()[:60] if line.strip() and len(line) < 300]
    # (the line it failed in: no traced line after it, ``+ docker compose stop reporting-db`` passed before the ``+
    # docker run … --check`` that failed; of make, which echoes lines bare, no recipe line after it: ``go vet ./...``
    # passed before the ``KUBEBUILDER_ASSETS=… go test …`` that failed)
    return len(key) >= 8 and any(command_key(line.strip().lstrip(">+ ").strip()) == key and not any(
        re.match(r"\s*[+>] \S", after) or _program_name(argv[0]) in ("make", "gmake") and _RECIPE_SHAPE.match(after)
        for after in lines[n + 1:]) for n, line in enumerate(lines))


# a line make echoed as it ran it: variables set before a program, or a tool's run (``KUBEBUILDER_ASSETS="…" go test
# $(go list ./...)``, ``/home/dev/op/bin/controller-gen-v0.14.0 rbac:roleName=…``, ``go vet ./...``)
_RECIPE_SHAPE = LazyRegex(r"^(?:[A-Z_][A-Z0-9_]*=\S+\s+)+\S|^/[\w./-]+/bin/[\w.-]+\s|"
                          r"^(?:go|cargo|npm|npx|pnpm|yarn|uv|poetry|python3?|pytest|node|docker|kubectl|helm|"
                          r"terraform|dotnet|mvn|gradle|\./gradlew|bundle|mix|flutter|swift)\s+[\w$./-]")


def _next_pass(observations: list[dict], k: int, family: str) -> int:
    """The index of the first passing run of ``family`` after ``k`` (the end when there is none)."""
    return next((j for j in range(k + 1, len(observations)) if observations[j]["outcome"] == "ok"
                 and command_family(observations[j].get("target") or "") == family), len(observations))


def _put_back_paths(observation: dict) -> list[str]:
    """The paths a passing line puts back as committed (``git checkout -- pom.xml && git status``: pom.xml)."""
    if observation["tool"] != "Bash" or observation["outcome"] != "ok":
        return []
    return [p for segment in _segments(observation.get("target") or "")
            for match in [_PUT_BACK.match(segment)] if match for p in match.group(1).split()]


def _among(paths: list[str], files: list[str]) -> bool:
    # (a Windows path by its slashes too: ``internal\sound\sfx.go`` is the ``internal/sound/sfx.go`` git put back)
    return any(p in (".", "./") or f.replace("\\", "/").endswith("/" + p.lstrip("./").replace("\\", "/"))
               for p in paths for f in files)


def _put_back(change: dict, later: list[dict], before: list[dict]) -> bool:
    """Whether an edit was put back as committed by a later ``git checkout -- FILE`` or ``git restore FILE`` (an
    experiment undone, no change in effect), or ``change`` is such a line, putting back only what this session had
    edited (``before``): undoing its own experiment changes nothing."""
    if change["tool"] in EDIT_TOOLS:
        return bool(change.get("files")) and any(_among(_put_back_paths(o), change["files"]) for o in later)
    paths = _put_back_paths(change)
    edited = [f for o in before if o["tool"] in EDIT_TOOLS for f in o.get("files") or []]
    return bool(paths) and all(_among([p], edited) for p in paths)


# what an account says of a way that failed, or that is not the way ("fails", "isn't meant to")
_FAILS = LazyRegex(
    r"(?i)\bfail|\babort|\bcrash|\bbreaks\b|\brefus(?:es?|ed)\b|\bcan(?:no|')t\b|\bdie[sd]\b|"
    r"\b(?:doesn't|does not|won't|will not) work\b|"
    r"\berrors (?:on|out)\b|"
    # (or that it misses what it needs: "bare `goose up` doesn't know the driver or DSN here")
    r"\b(?:doesn't|does not|didn't|did not) (?:know|see|find|pick up|load)\b|"
    # ("… directly goes to `acme-shop-prod` under your own account and gets a permission error")
    r"\b(?:gets?|got|gives?|gave|throws?|threw|hits?) (?:a |an )?(?:[\w-]+ )?(?:error|exception)\b|"
    # (or that it waits for nothing: "starting `locust --master` on the host just waits until it gives up")
    r"\b(?:gives?|gave) up\b|\bhangs?\b|\btimes? out\b|"
    # (or that it is not there: "GX 1.x no longer ships the `great_expectations` CLI")
    r"\bno longer (?:ships|includes|bundles|provides|has)\b|\b(?:is|are)(?:n't| not) (?:installed|on (?:the )?PATH)\b|"
    r"\b(?:is|are)(?:n't| not) (?:meant|supposed|designed) to\b|\b(?:is|are)(?:n't| not) run (?:with|through|via|by)\b|"
    # (or that it says what it was given is not there: "`port lint libuhttp` by name just says the port isn't found")
    r"\b(?:says?|said|reports?|complains?)\b[^.;:]{0,40}\b(?:isn't|is not|wasn't|was not|not|can't be|cannot be) "
    r"found\b")


_SHELLS = frozenset(("pwsh", "powershell", "pwsh.exe", "powershell.exe", "bash", "sh", "zsh"))


def _led_in(sentences: list[str]) -> list[str]:
    """The sentences, each of a list's items (those up to one that ends as a sentence does) read with the sentence
    that leads into it by a colon."""
    out, lead = [], None
    for sentence in sentences:
        out.append(f"{lead} {sentence}" if lead else sentence)
        if sentence.rstrip().endswith(":"):
            lead = sentence
        elif re.search(r"[.!?]\W*$", sentence):
            lead = None
    return out


def _stated_way(failure: dict, later: list[dict], account: str) -> dict | None:
    """The first later passing run of another command that does the same job (``terraform plan`` →
    ``terragrunt plan``), when the agent's account names it as the way, and names the failing one too. Edits on
    the way may be the task's own (a convention learned while doing other work): the account is what links them."""
    if not account:
        return None
    endpoint = _other_endpoint(failure, later, account) or _shown_working(failure, later, account)
    if endpoint is not None:
        return endpoint
    # (of a line of steps, the one the error came from: ``qmake fieldnotes.pro CONFIG+=debug`` refused an in-source
    # build, the ``make -j8`` after it never ran)
    before = parse_command(_failed_step(failure["target"], failure.get("error_text") or ""))
    # (the command a shell was handed: ``Invoke-Pester -Path …`` of ``pwsh -NoProfile -Command "Invoke-Pester …"``)
    code = _interpreter_code(before["argv"]) if before["argv"] and _program_name(before["argv"][0]) in _SHELLS else None
    before = parse_command(code) if code and parse_command(code)["argv"] else before
    family = before["family"]
    # (a list's items under the sentence that leads into it: "The project's way to run the tests:" then "then:
    # `./build.ps1 -tasks test` (builds the module, then runs Pester)")
    sentences = _led_in(_sentences(account))
    # (or its program alone: "bare `npx prisma` only reads `.env`")
    program = [_program_name(before["argv"][0])] if before["argv"] else []
    # (or the task it ran, alone: "`test` also runs the Testcontainers ITs" for ``./gradlew :billing:test``)
    task = before["argv"][1].rsplit(":", 1)[-1] if len(before["argv"]) > 1 and ":" in before["argv"][1] else None
    # (or a compose service named for it, run on the same file: ``docker compose run --rm sql-client -f
    # /opt/sql/orders.sql`` for ``$FLINK_HOME/bin/sql-client.sh -f sql/orders.sql``)
    stem = os.path.splitext(program[0])[0] if program and len(os.path.splitext(program[0])[0]) >= 6 else None
    files = {os.path.basename(w) for w in before["argv"][1:] if not w.startswith("-") and "." in os.path.basename(w)}
    consumer = _pipe_consumer(failure["target"])

    # (the failing line, and those that failed after it: ``source …/oe-init-build-env build && bitbake acme-image``
    # after a bare ``bitbake acme-image``)
    failed_lines = [failure["target"]] + [o["target"] for o in later if o["outcome"] == "error" and o.get("target")]

    unversioned = re.sub(r"[\d.]+$", "", program[0]) if program else ""

    def set_apart(s: str) -> bool:
        # (the program named, unquoted, as the bare tool, however short its name: "Migrations … aren't meant for raw
        # psql"; quoted, "bare `pulumi preview`", it is a run the way must be shown to make)
        # (or said not to be there: "There is no ktlint Gradle plugin (and no ktlint CLI) here")
        # (or called on its own: "Calling vsim directly doesn't work in this repo")
        # (or quoted, without its version: "scripts can't be run with plain `python`" of ``python3 -c …``)
        # (or made by hand: "A hand-rolled g++ build can't link")
        if unversioned and re.search(rf"(?i)\b(?:raw|plain|bare|vanilla|hand-rolled)\s+`{re.escape(unversioned)}`", s):
            return True
        return bool(program) and bool(re.search(rf"(?i)\b(?:raw|plain|bare|vanilla|hand-rolled)\s+"
                                                rf"{re.escape(program[0])}(?![\w+])|"
                                                rf"\b(?:calling|running|invoking)\s+{re.escape(program[0])}\s+"
                                                rf"(?:directly|by hand|on its own)\b|"
                                                rf"\bno\s+{re.escape(program[0])}\s+(?:CLI|binary|command|executable|"
                                                rf"install(?:ed)?|plugin)\b|"
                                                # (or the file it reads: "there is no Makefile or CMakeLists")
                                                rf"\bthere(?:'s| is) no\s+(?:\w+\s+(?:or|nor|and)\s+)?"
                                                rf"{re.escape(program[0])}(?:file|lists?)\b", _prose(s))) \
            or any(len(span) >= 4 and any(span in line for line in failed_lines) and re.search(
                # (or a step of the failing line, quoted, said done by hand: "Sourcing `oe-init-build-env` by hand
                # made a default build dir without our layers")
                rf"`{re.escape(span)}`(?:\s+\w+){{0,2}}\s+(?:by hand|yourself|manually)\b", s)
                for span in _code_spans(s))

    # (or its code, as quoted, elided or not: "A plain `ALTER TABLE ... ALGORITHM=INSTANT` was refused" of ``mysql
    # … -e "ALTER TABLE orders ADD INDEX … ALGORITHM=INSTANT"``)
    statement = " ".join((_inline_code(failure["target"]) or "").split())

    def quotes_code(s: str) -> bool:
        return len(statement) >= 12 and any(
            len(parts := [p for p in re.split(r"\s*(?:\.\.\.|…)\s*", " ".join(span.split())) if p]) >= 1
            and sum(map(len, parts)) >= 12 and re.search(".*".join(map(re.escape, parts)), statement)
            for span in _code_spans(s))

    # (by its name, "SwiftLint", or a PowerShell command by its noun, the tool: "… runs Pester" of ``Invoke-Pester``)
    called = program + [program[0].split("-", 1)[1]] if program and re.fullmatch(r"[A-Z][a-z]+-[A-Z]\w{3,}",
                                                                                   program[0]) else program
    # (a Windows program without its ``.exe``: "Running ISCC directly" of ``…/ISCC.exe setup\tally.iss``)
    called = called + [program[0][:-4]] if program and re.search(r"(?i)\w\.exe$", program[0]) else called

    def names_run(s: str) -> bool:
        # (a program of a long name may go unquoted: "piping the file into a plain local clickhouse-client fails"; or
        # of a shorter one, said to fail: "from the host, pytest either can't resolve `trino`")
        # (or the checker the output was piped into, named bare: "Bare `kubeconform` only knows the core schemas")
        return set_apart(s) or _names_run(before["argv"], s) or quotes_code(s) \
            or any([_program_name(w) for w in parse_command(span)["argv"]] == program
                   or stem in parse_command(span)["argv"][1:] or consumer and parse_command(span)["argv"] == [consumer]
                   for span in _code_spans(s)) \
            or bool(program) and (len(program[0]) >= 8 or len(program[0]) >= 5 and bool(_FAILS.search(_prose(s)))) \
            and any(re.search(rf"(?i)(?<![\w./-]){re.escape(name)}(?![\w/-])", _prose(s)) for name in called)

    # (or it by its error: "Running the scratch query file directly against the server fails (the stream already
    # exists)" for ``… ksql … -f /queries/orders_enriched.sql``: Cannot add stream …: A stream with the same name
    # already exists)
    raw_error = _raw_error_line(failure) or ""
    error_words = _tokens(raw_error)

    # (or quotes its error as it was printed: "…, hence "Nothing PROVIDES 'acme-gateway-image'"")
    error_said = re.sub(r"^\W*(?:ERROR|Error|error|FATAL|fatal)\b:?\s*", "", raw_error).strip()

    # (or a piece of its output, quoted: "hence `{error,nxdomain}` in init_per_suite on the host")
    printed = failure.get("error_text") or ""

    def names_failing(s: str) -> bool:
        return names_run(s) or len(error_words & _tokens(_prose(s))) >= 3 and bool(_FAILS.search(_prose(s))) \
            or len(error_said) >= 20 and error_said in s \
            or any(len(span) >= 8 and re.search(r"\W", span) and span in printed for span in _code_spans(s))

    # (or the script that failed deleted since, the way it did its job gone: ``git rm -q
    # scripts/register_deployments.py`` after Prefect 3 removed what it was built on)
    script = family if re.search(r"[\w-]+\.\w{1,4}$", family) and " " not in family else None
    removed = bool(script) and any(
        o["outcome"] == "ok" and o["tool"] == "Bash"
        and re.search(rf"(?:^|[;&|]\s*)(?:git\s+)?rm\b[^;&|]*(?<![\w./-]){re.escape(script)}(?![\w/-])", o["target"])
        for o in later)
    # (or the project said not to do what failed, by a word of it or what it did: "This project doesn't take a raw
    # `-executeMethod` call: builds go through `./ci/build.sh webgl`"; "doesn't run system tests on the host")
    def stems(text: str) -> set[str]:
        return {w.rstrip("s") for w in re.findall(r"[a-z]{4,}", text.lower())}

    # (a wrapper by the tool's name: "doesn't configure the Maven Liquibase plugin" of ``./mvnw liquibase:update``)
    spoken = {"mvn": "maven", "mvnw": "maven", "gradlew": "gradle", "lein": "leiningen"}.get(program[0], "") \
        if program else ""
    failed_stems = stems(" ".join(before["argv"] + [spoken]))

    def disowns(s: str) -> bool:
        # (a glob of it too: "doesn't use … `connected*AndroidTest`" of ``:baselineprofile:connectedBenchmarkRelease
        # AndroidTest``)
        # (or words of it in a row: "doesn't migrate with the `sequel -m` CLI" of ``bundle exec sequel -m …``)
        return bool(_NOT_HERE.search(_prose(s))) and (
            any(span in before["argv"] or "*" in span and any(fnmatch.fnmatchcase(w.rsplit(":", 1)[-1], span)
                                                             for w in before["argv"][1:])
                or len(words := span.split()) >= 2 and any(before["argv"][n:n + len(words)] == words
                                                           for n in range(len(before["argv"])))
                for span in _code_spans(s))
            or len(stems(_prose(s)) & failed_stems) >= 2)

    # (the task by its alias too: "the `:test` alias in deps.edn only adds kaocha" of ``clojure -X:test``)
    if not family or not removed and not any(names_failing(s) or task and {task, f":{task}"} & set(_code_spans(s))
                                             or disowns(s)
                                             for s in sentences):
        return None
    # "Running `Invoke-Pester` directly fails …": the agent says the failing way fails, whatever the job
    # (or that it is not the way: "the envs aren't meant to be run directly with `terraform`")
    # (or set apart from the project's own: "This repo is on OpenTofu, not Terraform")
    failed_said = any(names_failing(s) and (_FAILS.search(_prose(s)) or set_apart(s) or bool(program) and re.search(
        rf"(?i)\bnot (?:plain |bare )?{re.escape(program[0])}\b", _prose(s))) or disowns(s) for s in sentences)
    # "plain `terraform plan` there sees no configuration": the failing way set apart as the bare tool, beside a
    # wrapper that runs the same subcommand (``terragrunt plan``)
    plain_said = any(_names_run(before["argv"], f"`{span}`") and re.search(
        rf"(?i)\b(?:plain|bare|raw|vanilla)\s+`{re.escape(span)}`|`{re.escape(span)}`\s+(?:directly|alone|on its own|"
        rf"by itself)\b", s) for s in sentences for span in _code_spans(s)) or any(
        # (or by the file it was given: "exporting `main.p8` directly fails" of ``pico8 main.p8 -export …``)
        re.search(rf"`{re.escape(span)}`\s+(?:directly|alone|on its own|by itself)\b", s)
        for s in sentences for span in _code_spans(s)
        if span in before["argv"][1:] and re.search(r"\w\.\w{1,4}$", span))
    job = command_job(failure["target"])
    # (a migration's way may migrate: ``pnpm db:migrate``; so may a migration file's: ``flyway migrate`` for ``psql -f
    # db/migration/V14__orders_status_index.sql``)
    mutating = bool(_MUTATING.search(failure["target"]) or re.search(r"(?i)\bmigrations?/", failure["target"]))
    # (or a step of a passing ``&&`` line, before what it then looked at: ``make render ENV=staging && grep -n -A14
    # "^kind: Ingress" /tmp/render-staging.yaml``)
    runs = [run for line in later if line["outcome"] == "ok"
            for run in [line] + [dict(line, target=step) for step in _and_steps(line["target"])[:-1]]]
    # (a run that changes things may be the way where the account quotes it whole as the way: "distributed runs go
    # through compose: `cd loadtest && docker compose up --scale worker=4 …`")
    way_runs = [parse_command(span)["argv"] for s in sentences if _THE_WAY.search(_prose(s)) for span in _code_spans(s)]
    for obs in runs:
        after = parse_command(obs["target"])
        if not _is_check(obs) or _MUTATING.search(obs["target"]) and not mutating and after["argv"] not in way_runs:
            continue
        # (the same program counts when it runs another task: ``sbt unitTests``, an alias, for ``sbt test``)
        # (but another run of it, quoted whole as the way beside the failing one set apart: "a plain `meltano run`
        # can't work from a laptop. The README's way is `meltano --environment=dev run orders-el`")
        if not after["family"] or after["family"] == family and _first_word(after["argv"]) == _first_word(
                before["argv"]) and not ((plain_said or failed_said) and any(
                    " ".join(obs["target"].split()) in _code_spans(s) and _THE_WAY.search(_prose(s))
                    for s in sentences)):
            continue
        same_job = job is not None and job == command_job(obs["target"])
        # (a run that does another job is no way to install: ``prove -lr t/`` installs nothing, whatever the account
        # says of the ``cpanm Acme::Widget`` that could not find the project's own module; a test dir built bare may
        # be the tests' run, ``west twister``)
        if job == "install" and command_job(obs["target"]) not in (None, job):
            continue
        # (or a script named for it: ``pnpm db:migrate`` for ``prisma migrate dev``)
        # (or a recipe named for its program: ``make dbt ARGS="build --select +fct_orders"`` for ``dbt build …``)
        same_word = len(after["argv"]) > 1 and not after["argv"][1].startswith("-") \
            and (before["argv"][1:2] in (after["argv"][1:2], after["argv"][1].rsplit(":", 1)[-1:])
                 or after["argv"][1] == program[0] and _RECIPE_FILES.get(_program_name(after["argv"][0])) is not None)
        same_service = stem in after["argv"][1:] and bool(files & {os.path.basename(w) for w in after["argv"][1:]})
        # (or, beside the failing run set apart as the plain one, what it was done with: "Regenerated with `buf
        # generate`." beside "Plain `protoc` can't find `google/api/annotations.proto`")
        # (unquoted too: "Pushing with plain curl doesn't work"; or what was run instead: "… so plain bitbake couldn't
        # see the recipe. I removed the stray build/conf and ran `kas build kas/qemuarm64.yml …`")
        # (or another program alone, as it was run: "tests go through `bin/kaocha`" of ``bin/kaocha unit``; not the
        # failing one's, "Builds only work through `./scripts/kas-container`" of its ``build`` after its ``shell``)
        alone = bool(program) and _program_name(after["argv"][0]) != program[0]
        way = [s for s in sentences if (_names_run(after["argv"], s) or alone and any(
            parse_command(span)["argv"] == after["argv"][:1] for span in _code_spans(s))) and (
            _THE_WAY.search(_prose(s)) or (plain_said or any(set_apart(t) for t in sentences))
            and re.search(r"(?i)\b(?:with|through|via|using|ran)\s+`", s))]
        # (not a step before the run the same sentence quotes whole with the failing tool in it: ``mint bootstrap``,
        # then ``mint run swiftlint --strict``; asked last, and only of the runs that sentence quotes)
        quoted = {span.strip() for s in way for span in _code_spans(s)}
        # (or another task of the same program, quoted whole as the way: "the entry point is `./gradlew
        # :app:generateBaselineProfile`" for a ``./gradlew :baselineprofile:connected…AndroidTest`` with no device)
        same_program = bool(program) and _program_name(after["argv"][0]) == program[0] \
            and " ".join(obs["target"].split()) in quoted
        # (the failing run set apart as the bare way counts as said to fail: "Calling `databricks bundle` directly
        # leaves `catalog` … unset", beside "Bundle commands in this repo go through `scripts/bundle.sh <target> …`")
        # (or the way said to run the failing program itself: "`npm run build-storybook && npm run test:stories` —
        # the script serves `storybook-static` on 6006 and runs `test-storybook --ci` against it")
        # (or names it, bare, as what the way drives: "This repo drives BitBake through kas — `kas build …`")
        wraps = any(names_run(s) or len(program[0]) >= 5 and re.search(
            rf"(?i)(?<![\w./-]){re.escape(program[0])}(?![\w/-])", _prose(s)) for s in way) if program else False
        linked = same_job or same_word or failed_said or plain_said or same_service or removed or same_program or wraps
        if linked and way and not (
                program and any(r["id"] > obs["id"] and " ".join(r["target"].split()) in quoted
                and program[0] in map(_program_name, parse_command(r["target"])["argv"]) for r in runs)):
            # (of the way's runs, the one given what failed: ``./build.ps1 -Tasks test -PesterPath tests/…/Get-
            # AcmeInventory.Tests.ps1`` after ``./build.ps1 -ResolveDependency -Tasks noop``, the bootstrap)
            paths = {w for w in before["argv"][1:] if "/" in w and not w.startswith("-")}
            given = next((r for r in runs if r["id"] > obs["id"] and _is_check(r) and paths & set(parse_command(
                r["target"])["argv"]) and parse_command(r["target"])["family"] == after["family"]), None) \
                if paths and not paths & set(after["argv"]) else None
            return _as_quoted(given or obs, later, account)
        # (or another subcommand of the same program named as the way, beside the bare one: "the tests have to be run
        # through twister — `west twister -p native_sim -T tests` …. A bare `west build` of a test dir doesn't apply
        # the `extra_configs`")
        if plain_said and (same_word or _first_word(after["argv"]) and after["argv"][0] == before["argv"][0] and any(
                _names_run(after["argv"], s) and _THE_WAY.search(_prose(s)) for s in sentences)) \
                and any(_names_run(after["argv"], s) for s in sentences):
            return _as_quoted(obs, later, account)
        # "Plans in this repo go through the Makefile": a target of the same name (``make plan ENV=staging``), its
        # file named as the way
        recipe_file = _RECIPE_FILES.get(_program_name(after["argv"][0]))
        if same_word and failed_said and recipe_file and any(
                re.search(rf"\b{recipe_file}\b", s) and _THE_WAY.search(_prose(s)) for s in sentences):
            return _as_quoted(obs, later, account)
        # "run `npm run e2e` rather than `npx playwright test`": the way, set against the failing one
        if any(_names_run(after["argv"], s) and _names_run(before["argv"], s)
               and re.search(r"(?i)\b(?:rather than|instead of)\b", _prose(s)) for s in sentences):
            return _as_quoted(obs, later, account)
    return None


_HTTP_CLIENTS = frozenset(("curl", "wget", "http", "https", "xh"))


def _to_another_host(failed: str, later: str) -> bool:
    """Whether ``later`` is the failing request word for word but for its URL's host, the path the same: ``curl …
    https://api.sandbox.push.apple.com/3/device/…`` for the ``… https://api.push.apple.com/3/device/…`` that was
    refused. The request itself was right; where it went was not."""
    before = parse_command(failed)["argv"]
    swapped = _one_word_swapped(failed, later)
    if not before or _program_name(before[0]) not in _HTTP_CLIENTS or swapped is None \
            or not all(re.match(r"https?://", w) for w in swapped[1:]):
        return False
    was, now = (urllib.parse.urlsplit(w) for w in swapped[1:])
    return was.netloc != now.netloc and (was.path, was.query) == (now.path, now.query)


def _other_endpoint(failure: dict, later: list[dict], account: str) -> dict | None:
    """A passing request to another endpoint of the same host, its path quoted as what worked ("Uploading the file
    instead — `POST /collections/support_docs/snapshots/upload?priority=snapshot` … — worked", after the ``PUT
    …/snapshots/recover`` that was refused): the service's way to do the job."""
    def url(command: str) -> tuple[str, str, str] | None:
        argv = parse_command(command)["argv"]
        if not argv or _program_name(argv[0]) not in _HTTP_CLIENTS:
            return None
        found = next((urllib.parse.urlsplit(w.strip("\"'")) for w in argv[1:]
                      if re.match(r"[\"']?https?://", w)), None)
        return (argv[0], found.netloc, found.path + (f"?{found.query}" if found.query else "")) if found else None

    was = url(failure["target"])
    if was is None:
        return None
    said = [span for s in _sentences(account) if _WORKED.search(_prose(s)) for span in _code_spans(s)]
    # (or in the list such a sentence leads into: "The working call is HTTP v1:" then "- `POST https://…/v1/projects
    # /pantry-app-prod/messages:send`")
    said += [span for m in re.finditer(r"(?m)^(.*):\s*\n((?:\s*[-*•]\s.*\n?)+)", account) if _WORKED.search(m.group(1))
             for span in _code_spans(m.group(2))]
    for obs in later:
        now = url(obs["target"]) if obs["tool"] == "Bash" and obs["outcome"] == "ok" else None
        if now and now[:2] == was[:2] and now[2] != was[2] and len(now[2]) >= 8 \
                and any(now[2] in span and was[2] not in span for span in said):
            return obs
    return None


def _shown_working(failure: dict, later: list[dict], account: str) -> dict | None:
    """A passing run of the failing program, given otherwise, that the account shows whole in a block after saying it
    works ("Streaming the file from the client works:" then ``psql … -c "COPY … FROM STDIN …" < data/events.csv``,
    after ``psql … -f sql/load_events.sql`` met a server that could not read the file): the way."""
    argv = parse_command(failure["target"])["argv"]
    if not argv:
        return None
    shown = [" ".join(m.group(2).replace("\\\n", " ").split())
             for m in re.finditer(r"(?s)([^\n]*)\n\s*```[\w-]*\n(.*?)\n\s*```", account)
             if _WORKED.search(m.group(1)) and m.group(2).count("\n") <= 3]
    for obs in later:
        if obs["tool"] == "Bash" and obs["outcome"] == "ok" and " ".join(obs["target"].split()) in shown \
                and (parse_command(obs["target"])["argv"] or [""])[0] == argv[0]:
            return obs
    return None


# what worked, said of a way ("… — worked", "works", "succeeded", "instead")
_WORKED = LazyRegex(r"(?i)\b(?:worked|works|working|succeeded|instead)\b")


# the project said not to do a thing ("This project doesn't run system tests on the host", "This repo doesn't call
# match directly")
_NOT_HERE = LazyRegex(r"(?i)\b(?:this|the|our) (?:project|repo|repository|codebase|app|team) (?:doesn't|does not|"
                      r"don't|never|won't|can't|cannot) \w+|"
                      # ("jobs aren't pushed with `databricks jobs reset`/the UI")
                      r"\b(?:(?:are|is)n't|(?:are|is) not) (?:pushed|deployed|run|applied|released|published) "
                      r"(?:with|by|via|through)\b|"
                      # ("There's no `test` target in this workspace", its code taken out)
                      r"\bthere(?:'s| is) no (?:target|task|script|command|recipe|job|alias|goal)\b|"
                      # ("This repo has no Leiningen")
                      r"\b(?:this|the|our) (?:project|repo|repository|codebase|app) has no\b")


def _pushed_for_review(failure: dict, later: list[dict]) -> bool:
    """Whether a ``git push`` that failed was later made to Gerrit's review ref and passed (``git push origin
    HEAD:refs/for/main``, after ``HEAD:main`` was refused and the commit-msg hook installed): the project's way to
    push, no routine retry."""
    if not re.match(r"git\s+push\b", failure["target"]):
        return False
    passed = next((o for o in later if o["tool"] == "Bash" and o["outcome"] == "ok"
                   and re.match(r"git\s+push\b.*\brefs/for/", o["target"])), None)
    # (not a review push retried after a rebase: the ref learned here, or the hook that Gerrit asks for installed)
    return passed is not None and ("refs/for/" not in failure["target"] or any(
        "hooks/commit-msg" in (o.get("target") or "") for o in later if o["id"] < passed["id"]))


def _read_way(failure: dict, later: list[dict]) -> dict | None:
    """The first later passing run of another program, with nothing edited on the way, after the session read how
    the project does the job (the script it then ran, or a README or doc), given what the failing run was given: its
    file or its folder (``./scripts/cook.sh src/rusted_panel.sbs`` after ``sbscooker --inputs src/rusted_panel.sbs …``
    failed and scripts/cook.sh was read; ``west twister -p native_sim -T tests/lib/sensor_filter`` after the README's
    "Testing" section, for ``cd tests/lib/sensor_filter && cmake …``): the project's way, though the account says
    nothing of it."""
    before = parse_command(failure["target"])
    given = {w.removeprefix("./").rstrip("/") for w in before["argv"][1:] if "/" in w and not w.startswith("-")}
    given |= {before["cwd"].removeprefix("./").rstrip("/")} if before["cwd"] else set()
    if not given:
        return None
    read: set[str] = set()
    for o in later:
        if o["tool"] in EDIT_TOOLS:
            return None
        if o["tool"] == "Read" and o.get("target"):
            read.add(os.path.basename(o["target"]))
            continue
        if o["tool"] != "Bash" or o["outcome"] != "ok":
            continue
        steps = [parse_command(step) for step in _segments(o["target"])]
        looked = [w for step in steps if step["argv"] and step["argv"][0] in ("cat", "sed", "head", "less", "bat")
                  for w in step["argv"][1:] if not w.startswith("-") and "." in w]
        if looked:
            read |= {os.path.basename(w) for w in looked}
            continue
        after = parse_command(o["target"])
        if not after["argv"] or not _is_check(o) or after["family"] == before["family"] \
                or not given & {w.removeprefix("./").rstrip("/") for w in after["argv"][1:]}:
            continue
        script = os.path.basename(after["argv"][0])
        if script in read or any(re.match(r"(?i)(?:README|CONTRIBUTING|HACKING|TESTING|BUILDING)\b", r) for r in read):
            return o
    return None


def _as_quoted(found: dict, later: list[dict], account: str) -> dict:
    """The run of ``found``'s program, from it on, that the account quotes whole: of ``ksql-migrations …
    new-migration add_channel`` and ``ksql-migrations … apply --all``, the one it says it "applied it with"."""
    spans = {" ".join(span.split()) for span in _code_spans(account)}
    # (a recipe quoted only in brackets, beside another of the same runner: "via `make ksql-migrate` (`make
    # ksql-info` shows what's pending)")
    outside = {" ".join(span.split()) for span in _code_spans(re.sub(r"\([^()]*\)", "", account))}
    runner = parse_command(found["target"])["argv"][:1]
    if " ".join(found["target"].split()) in spans - outside and runner in (["make"], ["just"]):
        other = next((o for o in later if o["id"] > found["id"] and o["outcome"] == "ok" and o["tool"] == "Bash"
                      and parse_command(o["target"])["argv"][:1] == runner
                      and " ".join(o["target"].split()) in outside), None)
        if other:
            return other
    if " ".join(found["target"].split()) in spans:
        return found
    family = command_family(found["target"])
    return next((o for o in later if o["id"] > found["id"] and o["outcome"] == "ok" and o["tool"] == "Bash"
                 and command_family(o["target"]) == family and " ".join(o["target"].split()) in spans), found)


def _quoted_code(account: str) -> list[str]:
    """The code the agent's account quotes that is long enough to name a change (``imports: [TypeOrmModule…]``)."""
    # (and a line of a fenced block: ``"postinstall": "electron-builder install-app-deps"`` under "Added a
    # `postinstall` script to package.json:")
    fenced = [line.strip() for block in re.findall(r"(?ms)^[ \t]*```[^\n]*\n(.*?)^[ \t]*```", account or "")
              for line in block.splitlines()]
    return [span.strip() for span in _code_spans(account) if len(span.strip()) >= 12] + \
        [line for line in fenced if len(line) >= 12]


# the file a recipe runner reads, as an account names it ("go through the Makefile")
_RECIPE_FILES = {"make": "(?:GNU)?[Mm]akefile", "gmake": "(?:GNU)?[Mm]akefile", "just": "[Jj]ustfile", "task": "Taskfile"}


# a command that starts a server or a long-running process, and a request that shows one answers
# (and Spring Boot's gradle and maven tasks: ``./gradlew bootRun``, ``mvn spring-boot:run``; ``serverless offline``)
# Python's web servers, given the app to serve (``uvicorn inventory.main:app --port 8001``)
_APP_SERVERS = frozenset(("uvicorn", "gunicorn", "hypercorn", "daphne", "granian"))
_SERVES = LazyRegex(r"^(?:dev|serve|server|start|run|up|foreground|console|daemon|beat|worker|preview|watch|pages|"
                    r"offline|horizon|queue:(?:work|listen)|[\w-]+:(?:start|serve|run)|bootRun|quarkusDev|"
                    # (Django's: ``manage.py runserver``, django-q's ``qcluster``, django-rq's ``rqworker``)
                    r"runserver|qcluster|rqworker|runworker)$")


def _served_within(failed: str, later: dict, after: dict | None = None) -> str | None:
    """The part of a passing ``later`` line that started again the server whose start failed, when a request then
    got an answer, or the program's own status query said it runs: in the same line (``RELX_REPLACE_OS_VARS=true …
    ledger daemon && sleep 2 && curl …/health``, ``(php artisan horizon > log &) ; sleep 6; php artisan
    horizon:status``) or as the next passing line, ``after`` (``curl -s localhost:8000/orders/1``): a server that
    never exits passes no other way."""
    before = parse_command(failed)

    def serves(argv: list[str]) -> bool:  # (or an application's jar run whole: ``java -jar build/libs/app.jar``)
        # (or its entry script run by its interpreter: ``bundle exec ruby app.rb``, ``node server.js``)
        return any(_SERVES.match(w) for w in argv[1:5]) or bool(argv) and _program_name(argv[0]) == "java" \
            and "-jar" in argv[1:3] or len(argv) >= 2 and _program_name(argv[0]) in _INTERPRETERS \
            and bool(_ENTRY_SCRIPT.search(argv[1]))
    if len(before["argv"]) < 2 or not serves(before["argv"]):
        return None
    steps = [s.strip(" ()") for s in re.split(r"&&|;|(?<![&|>])&(?![&>])", later["target"]) if s.strip(" ()")]
    program = _program_name(before["argv"][0])

    def answered(step: str, output: str, names: set[str]) -> bool:
        argv = parse_command(step)["argv"]
        own = bool(argv) and _program_name(argv[0]) == program and not _ERROR_OUTPUT.search(output)
        return bool(_PROBE.match(step)) or own and (
            any(re.search(r"(?:^|:)status$", w) for w in argv[1:4]) and bool(_RUNNING.search(output))
            # (or a release's node asked: relx's ``bin/ingest ping`` → ``pong``)
            or "ping" in argv[1:3] and bool(re.search(r"(?m)^pong\s*$", output))
            # (or its own listing, with a line naming what it started and nothing down: ``dapr list`` → ``orders
            # 43121 … python app.py``)
            or any(w in ("list", "ls", "ps") for w in argv[1:3]) and any(
                names & set(line.split()) and not _DOWN.search(line) for line in output.splitlines()))

    next_line = [after["target"]] if after and after["tool"] == "Bash" and after["outcome"] == "ok" else []
    for n, step in enumerate(steps):
        argv = parse_command(step)["argv"]
        # (the same command, not another run of the program: ``docker run … telemetrygen traces`` is no
        # ``docker compose run … otel-collector``)
        # (the names it was given, ``--app-id orders``, not its flags or its program's)
        names = {w for w in argv[1:] if len(w) >= 3 and re.fullmatch(r"\w[\w.-]*", w) and not w.isdigit()
                 and not _SERVES.match(w) and w not in _INTERPRETERS}
        if argv and _program_name(argv[0]) == program and serves(argv) \
                and command_family(step) == command_family(failed) and (
                any(answered(s, later.get("body") or "", names) for s in steps[n + 1:])
                or any(answered(s, after.get("body") or "", names) for s in next_line)):
            return step
    return None


_RUNNING = LazyRegex(r"(?i)\b(?:is |are )?running\b|\bactive \(running\)|\bonline\b")
# a listing's line for something that is not running (``api  Exited (1) 3 seconds ago``, ``errored``)
_DOWN = LazyRegex(r"(?i)\b(?:exited|restarting|unhealthy|dead|stopped|failed|errored|crash\w*|created)\b")


# (fewer than _SERVES: ``run``, ``up``, ``watch`` also run things that end, and a wrong guess here stores a lesson)
# (and the JVM build tools' own: ``./gradlew bootRun``, ``mvn spring-boot:run``, ``./gradlew quarkusDev``)
_STARTS = LazyRegex(r"^(?:dev|serve|server|start|run|preview|foreground|daemon|bootRun|bootTestRun|quarkusDev|"
                    r"spring-boot:run)$")
_IMPORT_CHECK = LazyRegex(r"^(?:python[\d.]*|node|ruby|php)\s+-[cer]\s+['\"]?\s*(?:import|from|require)\b")


def _another_program_inside(failed: str, later: str) -> bool:
    """Whether two lines run other programs in the same container (``docker compose run --rm php php -l …`` is no
    run of the ``docker compose run --rm php vendor/bin/phpspec run …`` that failed)."""
    (into, inside), (into_later, inside_later) = _exec_split(failed), _exec_split(later)
    programs = [parse_command(line)["argv"][:1] for line in (inside, inside_later)]
    return bool(into and into_later and all(programs)) and not _same_program(inside, inside_later)


def _same_program(failed: str, later: str) -> bool:
    """Whether two lines run the same program (``go``), as their checks."""
    a, b = (parse_command(c)["argv"] for c in (failed, later))
    return bool(a and b) and _program_name(a[0]) == _program_name(b[0])


def _asks_another_request(failure: dict, check: dict) -> bool:
    """Whether a server's log names the request that failed (``"GET /orders/-1 HTTP/1.1" 500``) and ``check`` asks
    the server for another one only (``curl … http://localhost:8000/orders/42``): the failing input never ran again."""
    logged = (failure.get("error_text") or "") + "\n" + (failure.get("body") or "")
    failed = set(re.findall(r"\b(?:GET|POST|PUT|PATCH|DELETE) (/\S*) HTTP/[\d.]+\"? 5\d\d\b", logged))
    asked = {urllib.parse.urlsplit(url).path for url in re.findall(r"https?://[^\s'\"]+", check.get("target") or "")}
    return bool(failed) and bool(asked) and not {urllib.parse.urlsplit(p).path for p in failed} & asked


def _checked_otherwise(failure: dict, later: list[dict], account: str = "") -> dict | None:
    """For a server or daemon start that failed and was never run again (``pnpm --filter gateway dev``: "fastify-plugin:
    @fastify/cors - expected '5.x' fastify version"), the first passing test or build of the same package after an
    edit whose added lines name what the error names (``"@fastify/cors": "^9.0.1"``) or that the agent's account
    quotes ("I added `imports: [TypeOrmModule.forFeature([User])]`"). It shows the change did no harm, not that the
    server starts: the lesson is stored unverified, and says so."""
    if failure.get("ci"):  # (a CI run read from its log, its workflow fixed and linted here: ``actionlint``)
        return _linted_pipeline(failure, later) or _run_here(failure, later)
    before = parse_command(failure["target"])
    argv = before["argv"]
    words = [w for i, w in enumerate(argv[1:], start=1) if not w.startswith("-") and argv[i - 1] not in _VALUE_OPTIONS]
    # ``npm run start``, ``deno task dev``; not the task itself: ``./gradlew run``, ``cargo run``
    words = words[1:] if words[:1] in (["run"], ["task"]) and len(words) > 1 else words
    # (or an import tried inline, ``python -c 'import app.main'``, that only loads what the tests load too)
    importing = bool(_IMPORT_CHECK.match(before["check"]))
    # (a script named for the start: ``npm run start:dev``, ``pnpm dev:api``)
    # (or an app server given the app: ``uv run uvicorn inventory.main:app --port 8001``)
    serving = bool(argv) and _program_name(argv[0]) in _APP_SERVERS
    if not (importing or serving or words and any(_STARTS.match(part) for part in [words[0], *words[0].split(":")])):
        return None
    text = failure.get("error_text") or ""
    named = {t for t in re.findall(r"[@\w][\w@/.-]{4,}\w", text) if re.search(r"[@/_.-]", t) and not t.startswith("/")}
    named |= {m.group(0) for t in named if (m := re.match(r"@[\w.-]+/[\w.-]+", t))}  # a path into a scoped package
    named |= {t.replace("-", "_") for t in named}  # (``pydantic-settings`` is imported as ``pydantic_settings``)
    quoted = _quoted_code(account)
    # (or a step that adds what the error names: ``pnpm add zod@^3.23.8`` for "Could not resolve "zod"")
    edited = next((o for o in later if o["tool"] in EDIT_TOOLS and o["outcome"] == "ok"
                   and any(t in line for line in _added_lines(o) for t in named | set(quoted))
                   or o["tool"] == "Bash" and o["outcome"] == "ok"
                   and _INSTALL.search(parse_command(o["target"])["check"])
                   and any(re.search(rf"[\"'`]{re.escape(p)}[\"'`/]", text) for p in _packages(o["target"]))), None)
    # (not run again since: ``npm rebuild better-sqlite3 && npm start``, failing the same way, was an attempt)
    if edited is None or any(command_family(o.get("target") or "") == before["family"] for o in later
                             if o["tool"] == "Bash" and o["id"] > edited["id"]):
        return None
    for o in later:
        # (the build of ``npm run build && timeout 8 node dist/main.js``, a step of the line)
        if o["id"] > edited["id"] and o["outcome"] == "ok" and _is_check(o) \
                and any(command_job(step) in ("test", "build") for step in _and_steps(o["target"]) or [o["target"]]) \
                and _picked_package(o["target"]) == _picked_package(failure["target"]) \
                and parse_command(o["target"])["cwd"] == before["cwd"]:
            return o
    return None


# a compose service's row in ``docker compose ps``, up: ``inventory-api-1  inventory-api  "/inventory"  api  5 seconds
# ago  Up 1 second``, not ``Exited (1) 11 seconds ago``, ``Restarting (1)`` or ``Up 3 seconds (unhealthy)``
_UP = LazyRegex(r"\bUp\b|\brunning\b")
_NOT_UP = LazyRegex(r"(?i)\bexited\b|\brestarting\b|\bunhealthy\b|\bdead\b|\bcreated\b")


def _started_and_logged(failure: dict, later: dict) -> bool:
    """Whether a passing ``later`` line starts again the compose service whose start failed (``docker compose run
    --rm mailer``) and reads its log, which shows it running and no error (``… up -d mailer && sleep 5 && docker
    compose logs --tail 4 mailer`` → ``worker ready``)."""
    def compose(argv: list[str]) -> list[str] | None:  # (the words after ``docker compose`` and its own options)
        if len(argv) > 1 and argv[0] in ("docker", "podman") and argv[1] == "compose":
            words = argv[2:]
        elif argv and argv[0] in ("docker-compose", "podman-compose"):
            words = argv[1:]
        else:
            return None
        while len(words) > 1 and words[0] in ("-f", "--file", "-p", "--project-name", "--env-file", "--profile",
                                              "--project-directory"):
            words = words[2:]  # (``docker compose -f deploy/compose.yml run --rm app``)
        return words

    failed = compose(parse_command(failure["target"])["argv"])
    if not failed or failed[0] not in ("run", "up", "start") or failure.get("logged"):
        return False
    services = [w for w in failed[1:] if not w.startswith("-")]
    service = services[0] if failed[0] == "run" and services else services[-1] if services else None
    steps = [compose(parse_command(step)["argv"]) or [] for step in _and_steps(later["target"]) or [later["target"]]]
    started = any(words[:1] in (["up"], ["run"], ["start"]) and service in words for words in steps)
    logged = any(words[:1] == ["logs"] and service in words for words in steps)
    # (by its container's name, ``mailer-1  | worker ready``, or the one compose was told to give it: ``zigbee2mqtt
    # | … Zigbee2MQTT started!``, ``listmonk_app  | … http server started``)
    lines = [line for line in (later.get("body") or "").splitlines()
             if line.startswith(f"{service}-")
             or re.match(rf"(?:[\w.-]*[_-])?{re.escape(service or '')}(?:[_-]\d+)?\s+\|", line)]
    return bool(service and started and logged and lines) and all(_no_error(line) for line in lines)


# a program a tool could not run: go generate's ``exec: "wire": executable file not found in $PATH``
_EXEC_NOT_FOUND = LazyRegex(r"exec: \"([\w.+-]+)\": executable file not found")


def _runs_the_missing_program(failure: dict, later: str) -> bool:
    """Whether ``later`` runs, by a runner that fetches it, the program the failure could not find (``go run
    github.com/google/wire/cmd/wire@v0.6.0 ./internal/app`` for ``exec: "wire": executable file not found``; ``npx
    wire``, ``uvx ruff``, ``pipx run black``)."""
    execed = _EXEC_NOT_FOUND.search(failure.get("error_text") or "")
    program = execed.group(1) if execed else _missing_program(failure)
    if not program:
        return False
    parsed = parse_command(later)
    argv, runner = parsed["argv"], parsed["runner"].split()
    if argv[:2] == ["go", "run"]:  # (by its package path, at a version or not)
        return any(re.fullmatch(rf"[\w.-]+(?:/[\w.-]+)*/{re.escape(program)}(?:@\S+)?", w) for w in argv[2:3])
    fetched = argv[:1] == [program] and runner[-1:] in (["npx"], ["bunx"], ["dlx"]) \
        or argv[:2] == ["uvx", program] or argv[:3] == ["pipx", "run", program]
    return fetched and program not in failure["target"].split()


def _kube_get(command: str) -> tuple[str, set[str]] | None:
    """The kind of resource a ``kubectl get`` asks for, said one way (``sparkapplications`` → ``sparkapplication``),
    and the names it gives."""
    argv = parse_command(command)["argv"]
    if argv[:1] not in (["kubectl"], ["oc"]) or "get" not in argv[1:4]:
        return None
    words = [w for n, w in enumerate(argv[argv.index("get") + 1:], start=argv.index("get") + 1)
             if not w.startswith("-") and not argv[n - 1] in ("-n", "--namespace", "-l", "--selector", "-o", "--output",
                                                            "--context")]
    if not words:
        return None
    kind, _, name = words[0].partition("/")
    kind = kind.split(".")[0].lower()
    kind = kind[:-2] if kind.endswith(("sses", "xes")) else kind[:-1] if kind.endswith("s") else kind
    return kind, {n for n in [name, *words[1:]] if n}


def _lists_again(failure: dict, later: str) -> bool:
    """Whether ``later`` gets again a resource a listing showed failing, listed another way: ``kubectl get
    sparkapplication sessionize`` after ``kubectl get sparkapplications`` showed ``sessionize`` ``SUBMISSION_FAILED``."""
    if not failure.get("listed"):
        return False
    before, after = _kube_get(failure["target"]), _kube_get(later)
    return bool(before and after) and before[0] == after[0] and (
        not after[1] or bool(after[1] & set(failure["listed"])))


def _waited_ready(failure: dict, later: dict, events: list[dict]) -> bool:
    """Whether a passing ``later`` line, after a change, waited for a resource that a listing showed failing to become
    ready (``kubectl wait ksvc/invoice-render --for=condition=Ready``, ``kubectl rollout status deploy/api``)."""
    if not failure.get("listed") or later["tool"] != "Bash" or later["outcome"] != "ok" or not any(
            e["tool"] in EDIT_TOOLS or e["outcome"] == "ok" for e in events[1:]):
        return False
    argv = parse_command(later["target"])["argv"]
    if argv[:1] in (["docker"], ["podman"]) and parse_command(failure["target"])["argv"][:1] == argv[:1]:
        return _restarted_clean(failure["listed"], later)
    waits = argv[:1] in (["kubectl"], ["oc"]) and (
        "wait" in argv and any(w.startswith("--for=condition=") for w in argv) or "rollout" in argv and "status" in argv)
    names = {w.split("/", 1)[-1] for w in argv[2:] if not w.startswith("-")}
    return waits and any(name in names or any(name.startswith(n + "-") for n in names) for name in failure["listed"])


def _restarted_clean(services: list[str], later: dict) -> bool:
    """Whether a passing line started again the compose services a listing showed down (``Exited (2)``) and then
    read their log with no error in it (``docker compose up -d worker && sleep 3 && docker compose logs --tail 3
    worker``)."""
    started, read = [], []
    for n, argv in enumerate(parse_command(step)["argv"] for step in _and_steps(later["target"]) or [later["target"]]):
        verb = next((w for w in argv[1:4] if w in ("up", "restart", "start", "logs")), None)
        named = [w for w in argv[argv.index(verb) + 1:] if not w.startswith("-")] if verb else []
        if verb and argv[:1] in (["docker"], ["podman"]) and all(s in named for s in services):
            (read if verb == "logs" else started).append(n)
    return bool(started and read) and max(read) > min(started) and _no_error(later.get("body") or "")


def _seen_up(failure: dict, later: dict, events: list[dict]) -> bool:
    """Whether a passing ``later`` line, after an edit, lists up the compose service whose log showed it failing
    (``docker compose logs api`` → "connect: connection refused"; ``docker compose up -d && docker compose ps`` →
    ``api … Up 1 second``). It runs now; its log was not read again: the lesson is stored unverified."""
    if not failure.get("logged") or failure.get("ci") or later["tool"] != "Bash" or later["outcome"] != "ok" \
            or not any(e["tool"] in EDIT_TOOLS for e in events):
        return False
    argv = parse_command(failure["target"])["argv"]
    service = failure.get("log_of")
    steps = _and_steps(later["target"]) or [later["target"]]
    if service and argv[:1] in (["kubectl"], ["oc"]):
        return _pods_up(service, steps, later)
    if not service or "logs" not in argv[:3] or not re.fullmatch(r"docker|podman|docker-compose|podman-compose", argv[0]):
        return False
    listing = [step for step in steps
               if re.match(r"(?:docker|podman)[ -]compose\b.*\sps\b", " ".join(parse_command(step)["argv"]))]
    # (or started and waited for, every service or this one: ``docker compose up -d --wait`` passes only when each is
    # running, or healthy where it has a healthcheck)
    waited = [argv for step in steps for argv in [parse_command(step)["argv"]]
              if re.match(r"(?:docker|podman)[ -]compose\b.*\sup\b.*\s--wait\b", " ".join(argv))]
    if waited and not listing:
        named = [w for w in waited[-1][waited[-1].index("up") + 1:] if not w.startswith("-")]
        return not named or service in named
    # (or started again, that one, and then asked over HTTP, answering with no error: ``docker compose up -d
    # --force-recreate grafana && sleep 8 && curl -s localhost:3000/api/datasources | jq …``)
    started = next((n for n, step in enumerate(steps) for argv in [parse_command(step)["argv"]]
                    if re.match(r"(?:docker|podman)[ -]compose\b.*\s(?:up|restart|start)\b", " ".join(argv))
                    and service in argv), None)
    if started is not None and not listing:
        return any(_PROBE.match(step.strip()) for step in steps[started + 1:]) and _no_error(later.get("body") or "")
    if not listing:
        return False
    # (by the service's name, or its container's: ``obs-otel-collector-1  Up 10 seconds``; not compose's own
    # progress lines, ``✔ Container obs-otel-collector-1  Started``)
    named = re.compile(rf"(?:[\w.-]+[-_])?{re.escape(service)}(?:[-_]\d+)?")
    rows = [line for line in (later.get("body") or "").splitlines()
            if any(named.fullmatch(word) for word in line.split()) and not re.match(r"\s*(?:✔|✘|\[\+\])", line)]
    return bool(rows) and all(_UP.search(row) and not _NOT_UP.search(row) for row in rows)


# a pod's row in ``kubectl get pods``: its name, READY ``2/2``, STATUS
_POD_ROW = LazyRegex(r"^(\S+)\s+(\d+)/(\d+)\s+(\S+)\s")


def _pods_up(workload: str, steps: list[str], later: dict) -> bool:
    """Whether a line restarted the workload whose log showed it failing (``kubectl logs deploy/payments-worker`` →
    "permission denied"; ``kubectl rollout restart deploy/payments-worker``) and then listed its pods, every one
    Running and ready (``payments-worker-6d8c9b7f4d-2vxqm   2/2   Running``), or waited for its rollout."""
    name = workload.split("/", 1)[-1]
    argvs = [parse_command(step)["argv"] for step in steps]
    restarted = next((n for n, argv in enumerate(argvs) if "rollout" in argv[1:4] and "restart" in argv
                      and any(w.split("/", 1)[-1] == name for w in argv if not w.startswith("-"))), None)
    if restarted is None:
        return False
    if any("rollout" in argv[1:4] and "status" in argv and any(w.split("/", 1)[-1] == name for w in argv)
           for argv in argvs[restarted + 1:]):
        return True
    if not any("get" in argv[1:4] and re.search(r"\bpods?\b|\bpo\b", " ".join(argv)) for argv in argvs[restarted + 1:]):
        return False
    rows = [m for line in (later.get("body") or "").splitlines() if (m := _POD_ROW.match(line))
            and re.fullmatch(rf"{re.escape(name)}(?:-[a-z0-9]+){{1,2}}", m.group(1))]
    return bool(rows) and all(m.group(2) == m.group(3) != "0" and m.group(4) == "Running" for m in rows)


def _linted_pipeline(failure: dict, later: list[dict]) -> dict | None:
    """For a CI run whose log showed the failure and that was not read again (``##[error]Unable to locate executable
    file: pnpm``), the first passing lint of the pipeline (``actionlint .github/workflows/ci.yml``) after an edit to
    it whose added lines name what the error names (``- uses: pnpm/action-setup@v4``): the workflow is valid, not
    shown to pass; the lesson is stored unverified, and says so."""
    def words(text: str) -> set[str]:
        return {w.rstrip(".-").lower() for w in re.findall(r"[A-Za-z][\w.-]{2,}", text)} - _STOP

    named = words(failure.get("error_text") or "")
    edited = next((o for o in later if o["tool"] in EDIT_TOOLS and o["outcome"] == "ok"
                   and any(_CI_CONFIG.search(f) for f in o.get("files") or [])
                   and words("\n".join(_added_lines(o))) & named), None)
    if edited is None:
        return None
    return next((o for o in later if o["id"] > edited["id"] and o["outcome"] == "ok" and _is_check(o)
                 and _RUNS_PIPELINE.search(o.get("target") or "")), None)


def _run_here(failure: dict, later: list[dict]) -> dict | None:
    """For a CI run whose log showed the failure and that was not run again (composer: "symfony/console v7.0.7
    requires php >=8.2 -> your php version (8.1.28) does not satisfy that requirement … Please run composer update"),
    the first passing check here, by the program the log names, after the session's last change (``composer validate
    && vendor/bin/phpunit`` after ``config.platform.php`` and ``composer update …``): the change works here, not
    shown to pass in CI; the lesson is stored unverified, and says so."""
    named = {w.lower() for w in re.findall(r"[A-Za-z][\w-]{2,}", (failure.get("error_text") or "") + "\n"
                                           + (failure.get("body") or ""))}
    named |= {part for word in named for part in word.split("-") if len(part) >= 3}  # ``julia-actions/julia-runtest``
    changed = [o["id"] for o in later if o["tool"] in EDIT_TOOLS and o["outcome"] == "ok"]
    if not changed:
        return None
    changed += [o["id"] for o in later if o["tool"] == "Bash" and o["outcome"] == "ok"
                and (not _is_check(o) or _MUTATING.search(o["target"]))]
    # (a test run, where the log's step ran tests: ``bazel build //ledger/...`` cannot pass the ``$ bazel test
    # //ledger/... --config=ci`` whose posting_test failed)
    echoed = re.findall(r"(?m)^(?:\$|(?:##\[group\])?Run) (\S.*)$", failure.get("body") or "")
    tested = any(command_job(command) == "test" for command in echoed)
    return next((o for o in later if o["id"] > max(changed) and o["tool"] == "Bash" and o["outcome"] == "ok"
                 and _is_check(o) and any(_program_name((parse_command(step)["argv"] or [""])[0]).lower() in named
                                          and (not tested or command_job(step) == "test")
                                          for step in _segments(o["target"]))), None)


# what an error says is not there, quoted: "does not provide attribute 'devShells.aarch64-linux.ci'"
_NOT_THERE = LazyRegex(r"(?i)\b(?:does not provide|doesn't provide|not found|no such|unknown|undefined|missing|"
                       r"does not (?:exist|contain|have)|has no)\b[^'\"`\n]{0,30}['\"`]([\w@][\w@/.:#+-]{4,}\w)['\"`]")


def _listed_passing(failure: dict, later: list[dict]) -> dict | None:
    """For steps a status listing showed failing (``argo get -n etl @latest``: ``✖ extract … failed to save
    outputs``), the first later passing run of the same program that marks each of them passed (``argo submit …
    --watch``: ``✔ extract``)."""
    argv = parse_command(failure["target"])["argv"]
    for o in later:
        words = parse_command(o.get("target") or "")["argv"] if o["tool"] == "Bash" else []
        if o["outcome"] != "ok" or not words or not argv or words[0] != argv[0]:
            continue
        if all(re.search(rf"(?m)[✔✓]\s+{re.escape(name)}(?:\s|$)", o.get("body") or "") for name in failure["listed"]):
            return o
        # (or a wait for each to be ready that ended well: ``kubectl wait --for=condition=Ready
        # certificate/shop-wildcard`` for ``certificate.cert-manager.io/shop-wildcard``; its namespace given first,
        # ``kubectl -n ingress wait …``)
        at = words.index("wait") if "wait" in words[1:4] else 0
        waited = {(kind.split(".")[0].lower(), name) for word in words[at + 1:] if at
                  and not word.startswith("-") for kind, _, name in [word.rpartition("/")]}
        if waited and all((kind.split(".")[0].lower(), name) in waited for kind, _, name in
                          (listed.rpartition("/") for listed in failure["listed"])):
            return o
    return None


def _named_thing_found(failure: dict, later: list[dict]) -> dict | None:
    """For a failure that names what is not there and was never run again (``nix develop .#ci --system
    aarch64-linux``: "does not provide attribute 'devShells.aarch64-linux.ci'"; there is no aarch64 builder here),
    the first passing run of the same program, after an edit that adds a part of that name, whose arguments ask for
    it (``nix eval .#devShells.aarch64-linux.ci.drvPath``). It shows the thing is there now, not that the failing
    command passes: the lesson is stored unverified, and says so."""
    names = _NOT_THERE.findall(failure.get("error_text") or "")
    argv, key = parse_command(failure["target"])["argv"], command_key(failure["target"])
    if not names or not argv or any(command_key(o.get("target") or "") == key for o in later if o["tool"] == "Bash"):
        return None
    program = _program_name(argv[0])
    parts = {p for name in names for p in re.split(r"[./:#]", name) if len(p) >= 4}
    edited = next((o for o in later if o["tool"] in EDIT_TOOLS and o["outcome"] == "ok"
                   and any(p in line for line in _added_lines(o) for p in parts)), None)
    for o in later if edited else ():
        words = parse_command(o["target"])["argv"] if o["tool"] == "Bash" and o["id"] > edited["id"] else []
        if o["outcome"] == "ok" and words and _program_name(words[0]) == program \
                and any(name in word for name in names for word in words[1:]):
            return o
    return None


_TABLE = LazyRegex(r"\b[A-Za-z_]\w*\.[A-Za-z_]\w+\b")  # a table named with its schema: ``logs.nginx_access``


def _queried_again(failure: dict, later: list[dict], account: str = "") -> dict | None:
    """For a query that failed and was never sent again (``clickhouse client --query 'INSERT INTO logs.nginx_access
    …' < fixtures/event.json``: "Unknown field found"), the first passing query of the same program about the same
    table (``… --query 'SELECT count() FROM logs.nginx_access …'``) after an edit that adds code the agent's account
    quotes and that shares a word with the error (``skip_unknown_fields: true``). It shows the data arrives now, not
    that the failing query passes: the lesson is stored unverified, and says so."""
    asked = _inline_code(failure["target"])
    argv, key = parse_command(failure["target"])["argv"], command_key(failure["target"])
    if not asked or any(command_key(o.get("target") or "") == key for o in later if o["tool"] == "Bash"):
        return None
    tables = set(_TABLE.findall(asked))
    edited = _quoted_edit_of(failure, later, account)
    for o in later if edited and tables else ():
        check = parse_command(o["target"])["argv"] if o["tool"] == "Bash" and o["id"] > edited["id"] else []
        if o["outcome"] == "ok" and check and _program_name(check[0]) == _program_name(argv[0]) \
                and tables & set(_TABLE.findall(_inline_code(o["target"]) or "")):
            return o
    return None


def _answered_after(failure: dict, later: list[dict], account: str = "") -> dict | None:
    """For a service's log that showed an error and was never read again (``docker compose logs ksqldb-server``:
    "Failed to deserialize value from topic: orders"), the last passing request to a service after an edit that adds
    code the agent's account quotes and that shares a word with the error (``VALUE_FORMAT='AVRO'`` beside
    ``KAFKA_TOPIC='orders'``), answered with no error: the service does its work now. Its log was not read again:
    the lesson is stored unverified, and says so."""
    key = command_key(failure["target"])
    if not (failure.get("log_of") or failure.get("status_read")) or failure.get("ci") \
            or any(command_key(o.get("target") or "") == key for o in later if o["tool"] == "Bash"):
        return None
    edited = _quoted_edit_of(failure, later, account)
    # (or, for a resource's conditions asked of the cluster, a read of the same namespace: ``kubectl -n argocd get
    # applications -l …`` listing what the ApplicationSet generated, after an edit that quotes code the account gives
    # and that was applied: ``goTemplate: true`` in platform-appset.yaml, then ``kubectl apply -f …``)
    where = _kube_namespace(failure["target"]) if failure.get("status_read") else None
    quoted = _quoted_code(account) if where else []
    edited = edited or next((o for o in later if where and o["tool"] in EDIT_TOOLS and o["outcome"] == "ok"
                             and any(span in line for line in _added_lines(o) for span in quoted)
                             and any(a["tool"] == "Bash" and a["outcome"] == "ok" and a["id"] > o["id"]
                                     and re.search(r"\bapply\b", a["target"])
                                     and any(os.path.basename(f) in a["target"] for f in o.get("files") or [])
                                     for a in later)), None)
    answered = [o for o in later if edited and o["id"] > edited["id"] and o["tool"] == "Bash" and o["outcome"] == "ok"
                and (_PROBE.match(parse_command(o["target"])["check"])
                     or where and _kube_namespace(o["target"]) == where
                     and re.match(r"(?:kubectl|oc)\s.*\bget\b", parse_command(o["target"])["check"]))
                and (o.get("body") or "").strip() and _no_error(o.get("body") or "")]
    # (or, after any edit, the very URL the logged error could not fetch, answering now: "Cannot find latest-mac.yml
    # … (https://updates-staging.acme.dev/ledger/latest-mac.yml): HttpError: 404", then ``curl -sI …/latest-mac.yml``
    # → ``HTTP/2 200``)
    missing = {u.split("?")[0].rstrip(".,:")
               for u in re.findall(r"https?://[^\s\"'()<>]+", failure.get("error_text") or "")}
    edit = next((o for o in later if o["tool"] in EDIT_TOOLS and o["outcome"] == "ok"), None)
    fetched = [o for o in later if missing and edit and o["id"] > edit["id"] and o["tool"] == "Bash"
               and o["outcome"] == "ok" and _PROBE.match(parse_command(o["target"])["check"])
               and re.search(r"(?m)^HTTP/[\d.]+ 2\d\d\b", o.get("body") or "")
               and any(w.strip("\"'").split("?")[0] in missing for w in parse_command(o["target"])["argv"][1:])]
    return (answered or fetched or [None])[-1]


def _kube_namespace(command: str) -> str | None:
    """The namespace a ``kubectl``/``oc`` line names (``-n argocd``, ``--namespace=argocd``), if any."""
    found = re.search(r"(?:^|\s)(?:-n\s+|--namespace[=\s])(\S+)", parse_command(command)["check"] or "")
    return found.group(1) if found else None


def _quoted_edit_of(failure: dict, later: list[dict], account: str) -> dict | None:
    """The first later edit that adds code the agent's account quotes, on a line that shares a word with the
    failure's error (``skip_unknown_fields: true`` for "Unknown field found")."""
    error_words = {w for w in re.split(r"[^a-z]+", (failure.get("error_text") or "").lower()) if len(w) >= 5}
    quoted = _quoted_code(account)
    return next((o for o in later if o["tool"] in EDIT_TOOLS and o["outcome"] == "ok"
                 and any(span in line and error_words & set(re.split(r"[^a-z]+", line.lower()))
                         for line in _added_lines(o) for span in quoted)), None)


def _no_error(text: str) -> bool:
    """Whether ``text`` shows no error, raised or logged (``Traceback``, ``level=error``, ``[ERROR]``)."""
    return not _ERROR_OUTPUT.search(text) and not _LOGGED_ERROR.search(text)


# (``exit=124``, ``exit 124``, ``exit code: 124``, ``rc=124``: what ``echo … $?`` printed, or the run's own exit code)
_INTERPRETERS = frozenset(("node", "bun", "deno", "tsx", "ts-node", "python", "python3", "ruby", "php"))
# (or one of a folder of them: ``node src/workers/billing.js``)
_ENTRY_SCRIPT = LazyRegex(r"(?:^|/)(?:main|index|app|server|worker|serve)\.(?:[cm]?[jt]s|py|rb|php)$|"
                          r"(?:^|/)(?:workers|consumers|daemons)/[\w.-]+\.(?:[cm]?[jt]s|py|rb|php)$")
_TIMED_OUT = LazyRegex(r"(?im)^\s*(?:exit(?: code| status)?|status|rc|code)\s*[=:]?\s*124\s*$|^\s*Exit code 124\b")
_ERROR_OUTPUT = LazyRegex(r"(?i)Traceback|\b\w*(?:Error|Exception)\b|\bfatal\b|\bpanic")


# the run a failing tool says to make instead: "Use: ./scripts/screenshots.sh record   (or: verify)"
_USE = LazyRegex(r"(?im)\buse\s*:\s+[`'\"]?(\S+(?: [\w.:/=@-]+){0,4}?)[`'\"]?(?=\s{2,}|\s*[(;,]|\.?\s*$)")


def _suggested(command: str, failure: dict) -> bool:
    """Whether ``command`` runs, where the failing run had a subcommand its program did not know, the one the error
    suggested (``databricks secrets put``: "unknown command "put" … Did you mean this? put-acl put-secret" →
    ``databricks secrets put-secret …``), or another word the error quotes as what to give."""
    error = failure.get("error_text") or ""
    before, after = parse_command(failure["target"])["argv"], parse_command(command)["argv"]
    # (or, of the same words, one given as the value the error quotes: ``alembic upgrade heads`` for the ``… head``
    # that met "… please specify a specific target revision, … or 'heads' for all heads")
    changed = [(a, b) for a, b in zip(before, after) if a != b] if len(before) == len(after) > 1 else []
    if len(changed) == 1 and not changed[0][0].startswith("-") and re.search(
            rf"(?i)\b(?:specify|use|try|pass|or)\b[^\n]{{0,80}}[\"'`]{re.escape(changed[0][1])}[\"'`]", error):
        return True
    unknown = re.search(r"(?i)unknown (?:sub)?command:?\s+[\"'`]?([\w:-]+)", error)
    offered = re.search(r"(?i)did you mean(?: this| one of these)?\??:?\s*((?:\s*[\w:-]+\n?)+)", error)
    if not unknown or not offered:
        return False
    at = next((n for n, w in enumerate(before[:4]) if w == unknown.group(1)), None)
    # (its run, not its help: ``databricks secrets put-secret --help`` looked at it)
    return at is not None and len(after) > at and after[:at] == before[:at] and after[at] in offered.group(1).split() \
        and not any(w in ("--help", "-h", "help") for w in after[at:])


def _use_instead(command: str, failure: dict) -> bool:
    """Whether the failure's message says to use ``command`` (as run, or the start of it) instead."""
    key = command_key(command)
    return any(key == named or key.startswith(named + " ") for named in (
        command_key(m.group(1)) for m in _USE.finditer(failure.get("error_text") or "")) if len(named) >= 6)


def _stayed_up(failed: str, later: dict) -> str | None:
    """The part of a ``later`` line that ran again, under ``timeout N``, the server or daemon whose start failed, when
    it was still running when the timeout stopped it (``timeout 8 celery -A config beat -l info; echo exit=$?``
    printing ``exit=124``, or the run's own exit code 124) and printed no error: a process that never exits passes
    no other way. In a container, in the same one: ``docker compose exec worker timeout 20 celery … beat …``."""
    inside, failed = _exec_split(failed)
    before = parse_command(failed)
    serving = [w for w in before["argv"][1:5] if _SERVES.match(w)]
    # (or a built app run as itself, ``./release/linux-unpacked/notepath --no-sandbox``: it serves till it is closed)
    app = bool(before["argv"]) and before["argv"][0].startswith(("./", "/")) and not any(
        not w.startswith("-") for w in before["argv"][1:])
    # (or a module run as a worker or server: ``python -m mailer.worker``)
    app = app or bool(before["argv"]) and before["runner"].endswith(" -m") \
        and bool(_SERVES.match(before["argv"][0].rsplit(".", 1)[-1]))
    # (or a Python web server given the app to serve: ``hypercorn shop.app:app --bind 127.0.0.1:5000``)
    app = app or bool(before["argv"]) and _program_name(before["argv"][0]) in _APP_SERVERS | {"waitress-serve"}
    # (or an app's entry script run by its interpreter: ``node dist/main.js``, ``python app.py``)
    app = app or len(before["argv"]) >= 2 and _program_name(before["argv"][0]) in _INTERPRETERS \
        and bool(_ENTRY_SCRIPT.search(before["argv"][-1]))
    text = "\n".join([later.get("body") or "", later.get("error_text") or ""])
    if not (serving or app) or not _TIMED_OUT.search(text) or _ERROR_OUTPUT.search(text):
        return None
    for step in _segments(later["target"]):
        # (or the container's run put under the timeout: ``timeout 40 docker compose run --rm worker celery … beat``)
        timed = _TIMEOUT.match(step.strip())
        into, step = _exec_split(step.strip()[timed.end():] if timed else step)
        step = timed.group(0) + step if timed else step
        parsed = parse_command(step)
        argv = parsed["argv"]
        # (or the entry script run by its framework's launcher: ``timeout 5 pyxel run main.py`` for ``python main.py``)
        if into == inside and parsed["runner"].startswith("timeout") and argv and (_program_name(
                argv[0]) == _program_name(before["argv"][0]) and (
                serving[0] in argv[1:5] if serving else argv[0] == before["argv"][0])
                or app and len(before["argv"]) == 2 and argv[-1] == before["argv"][-1]
                and bool(_ENTRY_SCRIPT.search(argv[-1]))):
            env, rest = re.match(r"((?:[A-Za-z_]\w*=\S*\s+)*)(.*)", step, re.S).groups()
            return into + env + _TIMEOUT.sub("", rest)  # as run, less the timeout (after the variables it set)
    return None


def _passed_as_it_was(observations: list[dict], failure: dict, success: dict, account: str) -> dict | None:
    """The later run of the very command that failed, when it passed with nothing changed since the failure: then
    the other invocation that passed before it (``-run X -count=20``) fixed nothing."""
    if is_autofix(success["target"]) or _MUTATING.search(success["target"]) or _is_change(success, failure, account):
        return None  # the passing run changed something itself (``eslint --fix``)
    key = command_key(failure["target"])
    for later in observations:
        if later["id"] <= success["id"]:
            if failure["id"] < later["id"] and later is not success and _is_change(later, failure, account):
                return None
            continue
        if _is_change(later, failure, account):
            return None
        if later["outcome"] == "ok" and command_key(later.get("target") or "") == key:
            return later
    return None


def _tried_until_fixed(failure: dict, later: dict, rest: list[dict]) -> bool:
    """Whether ``later`` is the failing line run another way (``helm template … -f values-prod.yaml`` or ``… --set
    resources.limits.memory=1Gi`` for the ``helm template … -f values-staging.yaml`` that failed) and the failing line
    itself passed afterwards, after an edit: the other way was a probe, the edit the fix."""
    if parse_command(later["target"])["prep"] or not invocation_change(failure["target"], later["target"]):
        return False  # (a step before it, ``pip install -e . && pytest``, may be what made the later pass)
    key = command_key(failure["target"])
    for n, o in enumerate(rest):
        if o["tool"] == "Bash" and command_key(o["target"]) == key:
            return o["outcome"] == "ok" and any(e["tool"] in EDIT_TOOLS and e["outcome"] == "ok" for e in rest[:n])
    return False


def _carried_into_a_file(observations: list[dict], failure: dict, success: dict,
                         account: str) -> tuple[dict, dict] | None:
    """When a changed run passed (``psql "…/warehouse?sslmode=require" -c 'select 1'``) and the change was then
    written into a project file, in code the agent's account quotes (``export PGSSLMODE=require`` in
    scripts/export_nightly.sh), and that file, run, passed: (the edit, that run). The file is the fix; the run by
    hand was how it was found."""
    failed_words = set(re.findall(r"[a-z][a-z0-9_]{3,}", failure["target"].lower()))
    changed = [part for part in invocation_change(failure["target"], success["target"])
               if not part.startswith("without")]
    # (a number among them too: the user ``1482390`` for ``-u "1482390:…"``)
    new_words = {w for part in changed for w in re.findall(r"[a-z][a-z0-9_]{3,}|(?<![\w.])\d{4,}(?![\w.])",
                                                           part.lower())
                 if w not in failed_words and w != "pass"}
    # (or a path it gave, whole: ``--tmpfs /tmp`` for the chart's ``mountPath: /tmp``)
    paths = {p for part in changed for p in re.findall(r"(?<![\w./-])/[\w.-]+(?:/[\w.-]+)*", part)
             if p not in failure["target"]}

    def carries(span: str) -> bool:
        return any(w in span.lower() for w in new_words) or any(
            re.search(rf"(?<![\w./-]){re.escape(p)}(?![\w/-])", span) for p in paths)

    # (each piece of one cut short, by itself: ``memfault --org-token "$MEMFAULT_ORG_TOKEN" ... upload-mcu-symbols``)
    told = [piece for span in _code_spans(account) for piece in re.split(r"\s*(?:\.\.\.|…)\s*", span)
            if len(piece) >= 8]
    later = [o for o in observations if o["id"] > success["id"]]
    edit = next((o for o in later if o["tool"] in EDIT_TOOLS and o["outcome"] == "ok" and any(
        span in line and carries(span) for line in _added_lines(o) for span in told)), None)
    files = edit.get("files") or [] if edit else []
    for o in later if edit else ():
        parsed = parse_command(o["target"]) if o["tool"] == "Bash" and o["id"] > edit["id"] else None
        argv = parsed["argv"] if parsed else []
        # (the file run, by itself or by its interpreter: ``python scripts/migrate_hypertables.py --dry-run``; or
        # the directory that holds it: ``helm upgrade reports-api charts/reports-api …``)
        run = {argv[0].removeprefix("./"), parsed["family"].removeprefix("./")} if argv else set()
        if argv and o["outcome"] == "ok" and _is_check(o) \
                and any(f in run or any(f.endswith("/" + r) for r in run) or any(
                    "/" in w and not w.startswith("-") and f"/{w.removeprefix('./').rstrip('/')}/" in f
                    for w in argv[1:]) for f in files):
            return edit, o
        # (or put where it is read, and then the service checked: ``sudo cp config.alloy /etc/alloy/config.alloy &&
        # sudo systemctl reload alloy``, then its metrics read)
        if argv and o["outcome"] == "ok" and _is_check(o) and _COPIES.match(parsed["check"]) is None and any(
                c["tool"] == "Bash" and c["outcome"] == "ok" and edit["id"] < c["id"] < o["id"]
                and any(_COPIES.match(step) and os.path.basename(f) in _words(step) for step in _segments(c["target"])
                        for f in files) for c in later):
            return edit, o
    return None


# a file put in place by copying it (``sudo cp config.alloy /etc/alloy/config.alloy``, ``install -m 644 …``)
_COPIES = LazyRegex(r"^(?:sudo\s+)?(?:cp|install|scp|rsync)\s")


def _the_quoted_way(observations: list[dict], failure: dict, success: dict, account: str) -> dict | None:
    """A later passing run of the failing check, in another form that the agent quotes as the way, with nothing
    changed since ``success`` (``hatch run +py=3.12 +pl=1 test:pytest …`` passed, then "The way to run them is
    `hatch run test:pytest …`"): the form a reader should reuse."""
    quoted = {command_key(span) for span in _code_spans(account)}
    if command_key(success["target"]) in quoted:
        return None
    for later in observations:
        if later["id"] <= success["id"]:
            continue
        # (the same run of the same targets: ``cmake --build build`` is another job than the configure that failed)
        # (quoted whole, or up to the options it adds: `hatch run test --dist loadfile` for ``… --dist loadfile -q``;
        # a value the changed options take is no target: ``loadfile``)
        key = command_key(later["target"])
        changed = " ".join(invocation_change(failure["target"], later["target"]))
        if later["outcome"] == "ok" and _is_check(later) and changed \
                and any(key == q or key.startswith(q + " -") for q in quoted) \
                and command_family(later["target"]) == command_family(failure["target"]) \
                and command_job(later["target"]) == command_job(failure["target"]) \
                and [t for t in _targets(later["target"]) if t not in changed] == _targets(failure["target"]):
            return later
        if _is_change(later, failure, account):
            return None
    return None


# what only shows, filters or counts another program's output, as the end of a pipe
_PIPE_PLUMBING = frozenset({"tail", "head", "grep", "egrep", "rg", "tee", "less", "more", "cat", "sort", "uniq", "wc",
                            "cut", "tr", "sed", "awk", "column", "jq", "yq", "nl", "fold", "xxd", "true"})


def _pipe_consumer(command: str) -> str | None:
    """The program at the end of a line's last pipe when it does more than show what it is given: a checker fed the
    output (``kustomize build overlays/prod | kubeconform -strict -``), whose failure is the line's."""
    stages = _stages(command)
    program = _program_name(stages[-1][0]) if len(stages) > 1 and stages[-1] else None
    return program if program and program not in _PIPE_PLUMBING else None


def _stages(command: str) -> list[list[str]]:
    """The words of each program of a line's last pipeline, in order."""
    # (a pipe, not a ``\|`` inside a quoted pattern, ``grep -m3 'APPLICATION FAILED\|FlywayException'``, nor an
    # escaped one)
    tokens = _SHELL_TOKEN.findall(command.split("&&")[-1])
    pipes = [i for i, token in enumerate(tokens) if token == "|" and not (i and tokens[i - 1].endswith("\\"))]
    return [parse_command("".join(tokens[a + 1:b]))["argv"] for a, b in zip([-1] + pipes, pipes + [len(tokens)])]


def _other_query(failed: str | None, later: str | None) -> bool:
    """Whether a ``jq`` path asked later (``.tasks[0].trace``) is another part of the answer than the one that failed
    (``.tasks[0].state == "RUNNING"``); not a part of a whole document read (``jq .``), nor the same part."""
    paths = [re.match(r"\s*(\.[\w.\[\]]*)", q or "") for q in (failed, later)]
    if not paths[0] or not paths[1] or paths[0].group(1) == ".":
        return False
    a, b = paths[0].group(1).rstrip("."), paths[1].group(1).rstrip(".")
    return not (a.startswith(b) or b.startswith(a))


def _without_code(command: str) -> list[str]:
    """The words of a line's check less the code or query it hands its program (:func:`_inline_code`)."""
    code = _inline_code(command)
    return [w for w in parse_command(command)["argv"] if " ".join(w.split()) != code]


# an option that picks the configuration a check runs with (``tsc -p tsconfig.strict.json``, ``--settings``)
_CONFIG_OPTIONS = frozenset(("-p", "--project", "-c", "--config", "--config-file", "--settings", "--ds",
                             "--rcfile", "--configuration"))


def _race_detector_dropped(failure: dict, later: str) -> bool:
    """Whether ``later`` runs without the race detector the run that found a data race had (``go test
    ./internal/metrics/...`` after ``go test -race …`` reported "WARNING: DATA RACE"): it cannot see what failed."""
    return "DATA RACE" in (failure.get("error_text") or "") and "-race" in parse_command(failure["target"])["argv"] \
        and "-race" not in parse_command(later)["argv"]


def _workers_dropped(failure: dict, later: str) -> bool:
    """Whether ``later`` runs without the parallel workers the failing run had, where the failure came from one of
    them (``pytest -p no:xdist tests/test_export.py`` after ``pytest -n auto`` failed on ``[gw3]``): it cannot meet
    what the workers did to each other."""
    def workers(argv: list[str]) -> bool:
        return any(w in ("-n", "--numprocesses") or w.startswith(("-n=", "--numprocesses=")) for w in argv)

    after = parse_command(later)["argv"]
    return bool(re.search(r"\[gw\d+\]", failure.get("error_text") or "")) \
        and workers(parse_command(failure["target"])["argv"]) and ("no:xdist" in after or not workers(after))


# a run told only to parse what it is given (``godot --headless --check-only -s res://scripts/chaser.gd``, ``gcc
# -fsyntax-only``, ``ansible-playbook --syntax-check``)
# (or only to say what it would do: ``npx dredd --dry-run``, every transaction skipped)
_PARSE_ONLY = frozenset(("--check-only", "--syntax-check", "--parse-only", "--syntax-only", "-fsyntax-only",
                         "--dry-run"))


def _built_after_run_failed(failure: dict, later: str) -> bool:
    """Whether ``later`` only builds, with the tool whose run failed at run time (``alr build`` after ``cd tests &&
    alr run`` printed "FAIL Parse_Negative_Amount"): a build cannot see what failed."""
    ran, built = (parse_command(c)["argv"] for c in (failure["target"], later))
    if len(ran) < 2 or len(built) < 2 or _program_name(ran[0]) != _program_name(built[0]) or ran[1] != "run" \
            or built[1] not in ("build", "compile"):
        return False
    # (or a test's verdict at its line's end, and Ada's exception raised at run time: "Decode run of 255 ….. FAIL",
    # "raised CONSTRAINT_ERROR : rle_codec.adb:58 range check failed")
    return bool(re.search(r"(?m)^\s*(?:FAIL(?:ED)?|not ok)\b|panicked at|^Traceback|\bassert\w* failed|"
                          r"\.{3,}\s*FAIL(?:ED)?\s*$|^raised [A-Z][A-Z_.]*_ERROR\b", failure.get("error_text") or ""))


def _only_parses(failed: str, later: str) -> bool:
    """Whether ``later`` only parses what the failing run ran (``godot --headless --check-only -s
    res://scripts/chaser.gd`` after a GUT test run failed): it cannot see what failed, only that the code reads."""
    # (the tool's own options, not its program's after ``--``: ``dotnet run --project … -- --dry-run`` still builds
    # the client that crashed)
    def own(command: str) -> set[str]:
        argv = parse_command(command)["argv"]
        return set(argv[:argv.index("--")] if "--" in argv else argv)
    # (or a server told only to test its configuration: ``lighttpd -t -f conf/lighttpd.conf`` after ``lighttpd -D
    # …`` could not bind its port; ``nginx -t``, ``apachectl -t``, ``sshd -t``, ``haproxy -c``)
    if _tests_config_only(later) and not _tests_config_only(failed):
        return True
    return bool(_PARSE_ONLY & own(later)) and not _PARSE_ONLY & own(failed)


def _other_config_given(failed: str, later: str) -> bool:
    """Whether ``later`` runs the failing check on another of the tool's own configurations, where the failing run
    took its default (``vendor/bin/deptrac analyse --config-file=deptrac.modules.yaml`` after ``vendor/bin/deptrac
    analyse`` read deptrac.yaml): another check, not that one passing."""
    before, after = parse_command(failed)["argv"], parse_command(later)["argv"]
    program = os.path.splitext(_program_name(before[0]))[0] if before else ""
    given = [w.split("=", 1)[1] if "=" in w else after[n + 1] for n, w in enumerate(after[1:], 1)
             if w.split("=", 1)[0] in _CONFIG_OPTIONS and ("=" in w or n + 1 < len(after))]
    return len(program) >= 3 and not any(w.split("=", 1)[0] in _CONFIG_OPTIONS for w in before[1:]) \
        and any(os.path.basename(path).lstrip(".").startswith(program) for path in given)


def _config_dropped(failed: str, later: str) -> bool:
    """Whether ``later`` runs the failing check without the configuration it was given (``npx tsc --noEmit`` after
    ``npx tsc -p tsconfig.strict.json --noEmit`` failed): another check, not that one passing."""
    before, after = parse_command(failed)["argv"], parse_command(later)["argv"]
    # (a short one only with a file of settings: psql's ``-c`` is a query, its ``-p`` a port)
    picked = {w.split("=", 1)[0]: w.split("=", 1)[1] if "=" in w else before[n + 1]
              for n, w in enumerate(before[1:], 1)
              if w.split("=", 1)[0] in _CONFIG_OPTIONS and ("=" in w or n + 1 < len(before)) and (
                  w.startswith("--") or n + 1 < len(before)
                  and re.search(r"\.(?:json|ya?ml|toml|ini|cfg|conf|[cm]?[jt]s)$", before[n + 1]))}
    # (not one found by its usual name where the later run starts: ``cd website && npx textlint …`` for ``npx
    # textlint --config website/.textlintrc.json …``)
    went = parse_command(later)["cwd"]
    found = {option for option, path in picked.items() if went and os.path.dirname(path).strip("./") == went.strip("./")
             and _DEFAULT_CONFIG.match(os.path.basename(path))}
    return bool(set(picked) - found) and not any(w.split("=", 1)[0] in picked for w in after[1:])


# a configuration file's usual name, which its tool finds by itself where it runs
_DEFAULT_CONFIG = LazyRegex(r"\.[\w.-]+rc(?:\.(?:json|ya?ml|js|cjs))?$|(?:tsconfig|jsconfig)\.json$|"
                            r"[\w-]+\.config\.[cm]?[jt]s$|pyproject\.toml$|setup\.cfg$|tox\.ini$")


def _debug_for_release(failed: str, later: str) -> bool:
    """Whether ``later`` is the failing run with its Release build named Debug, the rest as it was (``cbuild
    motor.csolution.yml --context motor.Debug+STM32G474`` after ``… motor.Release+STM32G474`` failed, ``-c Debug``,
    ``-DCMAKE_BUILD_TYPE=Debug``): another build, with other flags, not the one that failed."""
    swapped = _one_word_swapped(failed, later)
    release = r"(?i)(?<![a-z])release(?![a-z])"
    return swapped is not None and re.search(release, swapped[1]) is not None \
        and re.sub(release, "debug", swapped[1]).lower() == swapped[2].lower()


def _asked_instead(failed: str, later: str) -> bool:
    """Whether ``later`` gives the program a statement inline (``-e``, ``-c``, ``--execute``) where ``failed`` gave it
    a file of them to run (``-f``, ``--file``): a question, not the file run again."""
    before, after = parse_command(failed)["argv"], parse_command(later)["argv"]
    ran = {before[n + 1] for n, w in enumerate(before[:-1]) if w in ("-f", "--file")}
    return bool(ran) and not ran & set(after) and _inline_code(later) is not None


def _query(command: str) -> str | None:
    """What a line asks a JSON or YAML answer with ``jq`` or ``yq`` (``.tasks[0].state == "RUNNING"``), if it does."""
    return next((" ".join(w for w in stage[1:] if not w.startswith("-")) for stage in _stages(command)[1:]
                 if stage and _program_name(stage[0]) in ("jq", "yq")), None)


def _changed_step_within(failed: str, later: str) -> str | None:
    """The step of an ``&&`` line that reran what failed in a changed form (an environment variable, a flag), when a
    step after it reads what it wrote; the whole line passed, so that step did."""
    family = command_family(failed)
    for segment in _and_steps(later)[:-1]:
        # (not a step that leaves out the file the failed run was given: ``psql … -c 'DROP TABLE IF EXISTS metrics'``
        # before ``psql … -f sql/001_metrics.sql`` readies the run, it is not it)
        if command_family(segment) == family and not _asks_version(segment) and _same_target(failed, segment) \
                and invocation_change(failed, segment) and not _leaves_out_its_file(failed, segment) \
                and parse_command(segment)["check"] != parse_command(failed)["check"]:
            return segment
    return None


def _job_step(later: str, job: str) -> str:
    """The last step of the ``&&`` line ``later`` that does ``job``, where every step after it only reads (``grep``,
    ``cat``, ``ls`` …); else the line as it is."""
    steps = _and_steps(later)
    at = next((n for n in range(len(steps) - 1, -1, -1) if command_job(steps[n]) == job), None)
    if at is None or at == len(steps) - 1 or not all(
            (parse_command(step)["argv"] or [""])[0] in _READERS for step in steps[at + 1:]):
        return later
    return steps[at]


def _the_step(failed: str, later: str) -> str | None:
    """The step of the ``&&`` line ``later`` that is the very check that failed (``go build ./... && go test ./...``
    after ``go test ./...`` failed), or that check's target run whole (``go test ./internal/http/...`` runs the
    ``-run TestUsers`` that failed)."""
    check, family = parse_command(failed)["check"], command_family(failed)
    # (never a question about the tool: ``dbmate --version && ls db/migrations`` runs no migration)
    steps = [step for step in _and_steps(later) if not _asks_version(step) and (
        parse_command(step)["check"] == check or command_family(step) == family and _same_target(failed, step))]
    # (of those, one that keeps the file the failed run was given: ``psql … -f sql/001_metrics.sql``, not the ``psql
    # … -c 'DROP TABLE IF EXISTS metrics'`` that readied it)
    return next((step for step in steps if not _leaves_out_its_file(failed, step)), steps[0] if steps else None)


def _leaves_out_its_file(failed: str, step: str) -> bool:
    return any(re.match(r"without `-{1,2}\w[\w-]* \S*[/.]\w", part) for part in invocation_change(failed, step))


def _passed_within(failed: str, later: str) -> bool:
    """Whether a passing ``later`` line ran what failed, in another form: as one step of an ``&&`` chain (every step
    of ``go build ./... && go test ./...`` passed), or the same arguments through another launcher
    (``php artisan test --filter=X`` / ``./vendor/bin/sail artisan test --filter=X``)."""
    if _the_step(failed, later) is not None:
        return True
    before, after = parse_command(failed), parse_command(later)
    # (in the same container, by a shell's script: ``docker run … python:3.12-alpine sh -c "pip install …"`` and
    # ``… sh -c "apk add --no-cache gcc musl-dev linux-headers && pip install … && python -m pytest -q"``)
    inner = [_shell_script(parsed["argv"]) for parsed in (before, after)]
    if all(inner) and inner[0][0] == inner[1][0] and inner[0][1] != inner[1][1]:
        return _passed_within(inner[0][1], inner[1][1])
    # (or the command the image ran, as a step of the script the same image runs: ``docker run … ghcr.io/acme/fw-ci
    # sh -c 'cmake --preset ci && cmake --build --preset ci'`` for ``docker run … ghcr.io/acme/fw-ci cmake --preset ci``)
    if inner[1] and not inner[0] and (run := container_words(before["argv"])) and run[1] \
            and inner[1][0][:-2] == before["argv"][:len(before["argv"]) - len(run[1]) + 1]:
        return _the_step(" ".join(run[1][1:]), inner[1][1]) is not None
    argv, rest = after["argv"], before["argv"][1:]
    # (or the very script, run by its interpreter: ``php -d memory_limit=4G bin/magento setup:di:compile`` for
    # ``bin/magento setup:di:compile``)
    if len(argv) > len(before["argv"]) >= 2 and "/" in before["argv"][0] and _program_name(argv[0]) in _INTERPRETERS \
            and argv[-len(before["argv"]):] == before["argv"]:
        return True
    # (a job's words, not only options: ``cmake --build --preset debug`` does not run ``ctest --preset debug``)
    return len(rest) >= 2 and not rest[0].startswith("-") and len(argv) > len(rest) and argv[-len(rest):] == rest \
        and _program_name(argv[0]) != _program_name(before["argv"][0])


# a tool whose test run builds what its build does, and more: ``swift build`` failed, ``swift test`` passed
# (``bazel build //services/ledger/...`` → ``bazel test //services/ledger/...``; ``go build`` → ``go test``)
_TESTS_BUILD = frozenset(("cargo", "swift", "dotnet", "mix", "stack", "cabal", "dune", "sbt", "mvn", "mvnw", "bazel",
                          "bazelisk", "go", "forge", "gleam", "scarb"))


def _built_by_its_tests(failed: str, later: str) -> bool:
    """Whether ``later`` runs the tests of what failed to build, the same way (``swift build`` → ``swift test``, in
    the same container: ``docker run … swift:5.10-jammy swift build`` → ``… swift test``): they build it first."""
    # (however quietly: ``mvn test`` after ``mvn -q compile``)
    before, after = ([w for w in parse_command(command)["argv"] if not _NOT_A_FIX_FLAG.fullmatch(w)]
                     for command in (failed, later))
    at = next((n for n, (a, b) in enumerate(zip(before, after)) if a != b), None)
    if not at or _program_name(before[at - 1]) not in _TESTS_BUILD:
        return False
    # (what the build was given, the tests were too, or nothing narrower: ``cargo build -p api`` → ``cargo test -p
    # api``)
    # (its tests built by the build too, which the test run does anyway: ``swift build --build-tests``)
    return before[at] in ("build", "compile", "check") and after[at] == "test" \
        and set(before[at + 1:]) - {"--build-tests"} <= set(after[at + 1:]) \
        and all(w.startswith("-") for w in after[at + 1:] if w not in before[at + 1:])


def _ran_its_tasks(failed: str, later: dict) -> bool:
    """Whether a passing Gradle build ``later`` ran every task the failed one named, and succeeded: ``./gradlew
    :app:assembleDebug`` printing ``> Task :app:kaptDebugKotlin`` after ``./gradlew :app:kaptDebugKotlin`` failed."""
    before, after = parse_command(failed)["argv"], parse_command(later["target"])["argv"]
    if not before or not after or os.path.basename(before[0]) not in ("gradle", "gradlew") \
            or _program_name(after[0]) != _program_name(before[0]):
        return False
    tasks = [w for w in before[1:] if not w.startswith("-")]
    ran = re.findall(r"(?m)^> Task (\S+)\s*(?:UP-TO-DATE|FROM-CACHE)?\s*$", later.get("body") or "")
    return bool(tasks) and "BUILD SUCCESSFUL" in (later.get("body") or "") and all(
        any(t == task or t.endswith(":" + task.lstrip(":")) for t in ran) for task in tasks)


def _renumbered(failed: str, later: str) -> str | None:
    """The step of ``later`` that asks the same of the next of a numbered thing: ``kubectl wait --for=condition=
    complete job/pg-backup-manual-2 …`` after ``… job/pg-backup-manual-1 …`` timed out, the job made again to run
    the fix (before the ``&& kubectl logs …`` that read what it did)."""
    def numbered(step: str) -> str:  # (however long it waits: ``--timeout=300s`` for ``120s``)
        return re.sub(r"\b([a-z][\w.-]*-)\d{1,3}\b", r"\1#", re.sub(r"\s--timeout[=\s]\S+", "", step))

    check = parse_command(failed)["check"]
    return next((step for step in _and_steps(later) or [later] if parse_command(step)["check"] != check
                 and "#" in numbered(check) and numbered(parse_command(step)["check"]) == numbered(check)), None)


def _made_since(failed: str, later: str, between: list[dict]) -> bool:
    """Whether ``later`` runs what failed on a folder the session made since in place of the one it named:
    ``npx playwright merge-reports --reporter html ./all-blob`` after ``… ./blob-report`` found nothing, the shards'
    blob reports moved into ``all-blob/`` made by ``mkdir all-blob``."""
    before, after = parse_command(failed)["argv"], parse_command(later)["argv"]
    if len(before) != len(after):
        return False
    changed = [(a, b) for a, b in zip(before, after) if a != b]
    made = {w.removeprefix("./").rstrip("/") for o in between if o["tool"] == "Bash" and o["outcome"] == "ok"
            for step in _segments(o["target"]) if (argv := parse_command(step)["argv"])[:1] == ["mkdir"]
            for w in argv[1:] if not w.startswith("-")}
    if len(changed) == 1 and changed[0][1].removeprefix("./").rstrip("/") in made:
        return True
    # (or the id of what a step since created, as it printed it: ``wandb agent acme-ml/vit-small/q7m3x1bd`` after
    # ``wandb sweep sweeps/lr_search.yaml`` printed "Creating sweep with ID: q7m3x1bd", for the sweep that was killed)
    # (how many it runs aside: ``--count 3``, then ``--count 2``)
    named = [(a, b) for n, (a, b) in enumerate(zip(before, after))
             if a != b and not (n and before[n - 1].startswith("-"))]
    new = named[0][1].rsplit("/", 1)[-1] if len(named) == 1 else ""
    created = rf"(?i)\b(?:creat\w*|made|new|generated)\b.*(?<![\w-]){re.escape(new)}(?![\w-])"
    return len(new) >= 6 and any(re.search(created, line) for o in between if o["tool"] == "Bash"
                                 and o["outcome"] == "ok" for line in (o.get("body") or "").splitlines())


def _listed_in(failed: str, later: str, between: list[dict]) -> bool:
    """Whether ``later`` runs, in place of the file that failed, a file of files that an edit since made list it:
    ``beluga src/all.cfg`` after ``progress.bel`` was appended to it, for the failing ``beluga src/progress.bel``."""
    swapped = _one_word_swapped(failed, later)
    if not swapped or not re.search(r"\.\w+$", swapped[1]):
        return False
    name = os.path.basename(swapped[1])
    return any(o["tool"] in EDIT_TOOLS and o["outcome"] == "ok" and any(
        f == swapped[2] or f.endswith("/" + swapped[2].removeprefix("./")) for f in o.get("files") or [])
        and any(re.search(rf"(?<![\w.-]){re.escape(name)}(?![\w-])", line) for line in _added_lines(o))
        for o in between)


def _as_edited(failed: str, later: str, between: list[dict]) -> bool:
    """Whether ``later`` is what failed, changed as an edit since changed a file that holds it: the query of a Loki
    rule tried on its own, ``{namespace=~".*"}`` then ``{namespace=~".+"}``, as the rule in oom.yaml was edited."""
    head, tail = common_ends(failed, later)
    if not head or failed == later:
        return False
    # (the change with a few characters either side, as the file has them too)
    was, now = (command[max(0, head - 12):len(command) - max(0, tail - 12)] for command in (failed, later))
    return len(was) >= 16 and any(was in old and now in new and was not in new for o in between
                                  if o["tool"] in EDIT_TOOLS and o["outcome"] == "ok" for old, new in _edit_sides(o))


def _named_in_an_edit(failed: str, later: str, between: list[dict]) -> bool:
    """Whether ``later`` gives, in place of the address the failing run was given, a name an edit since defined for
    that address (``sqitch deploy staging``, after ``[target "staging"] uri = db:pg://deploy@10.0.4.12:5432/orders
    ?sslmode=require`` was added to sqitch.conf, for the failing ``sqitch deploy 'db:pg://deploy:…@10.0.4.12:5432/
    orders'``)."""
    swapped = _one_word_swapped(failed, later)
    if not swapped or not re.fullmatch(r"[\w.-]+", swapped[2]):
        return False
    # (the address by its host, port and path: its user, password and settings aside)
    address = re.match(r"[\w+.:-]*//(?:[^@/\s]*@)?([\w.-]+(?::\d+)?/[^?\s'\"]*)", swapped[1].strip("'\""))
    return bool(address) and any(
        re.search(rf"(?<![\w-]){re.escape(swapped[2])}(?![\w-])", new) and address.group(1) in re.sub(r"//[^@/\s]*@",
                                                                                                 "//", new)
        for o in between if o["tool"] in EDIT_TOOLS and o["outcome"] == "ok" for old, new in _edit_sides(o)
        if address.group(1) not in re.sub(r"//[^@/\s]*@", "//", old))


def _lane_ran_the_action(failed: str, later: dict) -> bool:
    """Whether a passing fastlane lane ran, as one of its steps, the action that failed when run alone: ``bundle exec
    fastlane ios sync_certs`` printing ``--- Step: match ---`` after ``bundle exec fastlane match development
    --readonly`` looked on the wrong branch (the lane passes the project's branch and bundle ids)."""
    before, after = parse_command(failed)["argv"], parse_command(later["target"])["argv"]
    if not before or not after or _program_name(before[0]) != "fastlane" or _program_name(after[0]) != "fastlane":
        return False
    action = next((w for w in before[1:] if not w.startswith("-")), None)
    lane = [w for w in after[1:] if not w.startswith("-") and ":" not in w]
    return bool(action) and action not in lane and bool(
        re.search(rf"(?m)--- Step: {re.escape(action)} ---", later.get("body") or ""))


def _built_and_ran(failed: str, later: str) -> bool:
    """Whether ``later`` builds what a failed Gradle ``run…`` task runs and then runs it from the build: ``./gradlew
    :desktopApp:createDistributable && desktopApp/build/compose/binaries/main/app/Ledger.app/Contents/MacOS/Ledger``
    for ``./gradlew :desktopApp:runDistributable``."""
    argv = parse_command(failed)["argv"]
    if not argv or os.path.basename(argv[0]) not in ("gradle", "gradlew"):
        return False
    runs = [m for w in argv[1:] if (m := re.fullmatch(r"((?::[\w-]+)*):run(\w+)", w))]
    steps = [parse_command(step)["argv"] for step in _and_steps(later)]
    for run in runs:
        module = run.group(1).strip(":").replace(":", "/")
        built = next((n for n, step in enumerate(steps) if step and os.path.basename(step[0]) in ("gradle", "gradlew")
                      and f"{run.group(1)}:create{run.group(2)}" in step[1:]), None)
        if built is not None and any(step and step[0].removeprefix("./").startswith(f"{module}/build/")
                                     for step in steps[built + 1:]):
            return True
    return False


def _shell_script(argv: list[str]) -> tuple[list[str], str] | None:
    """What runs a shell's script, and the script: ``docker run --rm python:3.12-alpine sh -c "pip install …"`` →
    (``docker run --rm python:3.12-alpine sh -c``, ``pip install …``)."""
    at = next((n for n in range(1, len(argv) - 2) if argv[n] in ("sh", "bash", "ash", "zsh")
               and argv[n + 1] in ("-c", "-lc", "-ec", "-euc", "-xc")), None)
    return (argv[:at + 2], argv[at + 2]) if at is not None and at + 3 == len(argv) else None


def _ran_in_sequence(failure: dict, later: dict) -> str | None:
    """The step of a passing ``;`` or ``&`` line (``(go run ./cmd/server & sleep 2; go run ./cmd/export …; kill
    %1)``) that is the check that failed, when nothing in the line's output reads as an error: such a line's exit
    status is its last step's, so only its output tells whether that step passed."""
    target = later.get("target") or ""
    if later["outcome"] != "ok" or not re.search(r";|(?<![&>|])&(?![&>])", target) or "||" in target \
            or "$?" in target:  # (a status the line prints is read where it shows a daemon stayed up)
        return None
    body = later.get("body") or ""
    shown = _raw_error_line(failure)
    if not body.strip() or error_line(body) or (shown and shown.rstrip("…") in body):
        return None  # (the error it failed with, back in the output, is the same failure)
    check = parse_command(failure["target"])["check"]
    split = r"\s*(?:&&|;|(?<![&>|])&(?![&>]))\s*"
    before = [" ".join(s.split()) for s in re.split(split, re.sub(r"[()]", " ", failure["target"])) if s.strip()]
    # (less its streams joined, ``2>&1``, whose ``&`` starts no step: ``(RUSTFLAGS=… cargo run … > /tmp/x.log 2>&1 &)``)
    target = re.sub(r"\s*\d*>&\d+", "", target)
    for match in re.finditer(rf"[^;&]+?(?={split}|$)", re.sub(r"[()]", " ", target)):
        step = match.group(0).strip()
        # (its output sent to a file is the same run: ``cargo run --features console > /tmp/ingest.log``; so is the
        # same run with options added, where the line reads back what it wrote: ``sudo dtrace -Z -q -s
        # scripts/latency.d -o /tmp/kvd-lat.txt & …; cat /tmp/kvd-lat.txt``)
        ran = parse_command(re.sub(r"\s+\d*>>?\s*\S+", "", step))["check"] if step else ""
        if step and (ran == check or _with_options_added(check, ran) and any(
                re.search(rf"(?:^|[;&|(]\s*)(?:cat|tail|head|less|jq)\b[^;&|]*\s{re.escape(written)}(?=[\s;&|)]|$)",
                          target[match.end():]) for written in re.findall(r"(?:\s-o\s+|>\s*)(\S+)", step))):
            # (with what the line started beside it, when that changed: ``cloud-sql-proxy … --private-ip & sleep 3;
            # psql …`` after the same line without the flag failed)
            started = [" ".join(s.split()) for s in re.split(split, target[:match.start()]) if s.strip()]
            return target[:match.end()].strip() if started and started != before[:len(started)] else step
    return None


def _with_options_added(check: str, step: str) -> bool:
    """Whether ``step`` is ``check`` with options added among its words: all of ``check``'s words in their order, the
    same program first, and each word added an option or the value of an option added before it."""
    words, kept, added_before = check.split(), 0, False
    stepped = step.split()
    if not words or stepped[:1] != words[:1]:
        return False
    for word in stepped:
        if kept < len(words) and word == words[kept]:
            kept, added_before = kept + 1, False
        elif word.startswith("-") or added_before:
            added_before = word.startswith("-")
        else:
            return False
    return kept == len(words)


_REGENERATES = LazyRegex(r"(?:^|\s)(?:generate|codegen|build_runner|gen)(?:\s|$)")


def _persisting(changes: list[dict], later_edits: list[dict]) -> bool:
    """Whether any of ``changes`` is still in effect once ``later_edits`` are applied (not reverted, not rewritten)."""
    # (but code generated again from an edited file is that edit's: ``sqlc generate`` after an override that a later
    # edit rewrote)
    edited = any(c["tool"] in EDIT_TOOLS for c in changes)
    if any(c["tool"] == "Bash" and not (edited and _REGENERATES.search(c.get("target") or ""))
           or (c.get("meta") or {}).get("content_withheld") for c in changes):
        return True  # a command, or a change whose content was not stored: nothing shows it undone
    changes = [c for c in changes if c["tool"] != "Bash"]
    # (a file written that a later line removed again, ``rm ../../modules/acm-cert/providers.tf``, is gone)
    removed = [w for c in later_edits if c["tool"] == "Bash" for w in removed_paths(c["target"])]
    changes = [c for c in changes if not (c["tool"] == "Write" and c.get("files")
                                          and all(removed_with(f, removed) for f in c["files"]))]
    later_edits = [c for c in later_edits if c["tool"] != "Bash"]
    ids = {c["id"] for c in changes}
    if not ids:
        return False
    # (or its lines, kept whole where a later edit wrote beside them: ``receiver: slack-dataeng`` above the
    # ``continue: true`` added under it; not a placeholder it wrote that a later edit filled in, ``npmDepsHash =
    # lib.fakeHash;``)
    added = {l.strip() for c in changes for l in _added_lines(c) if len(l.strip()) >= 4}
    if added & {l.strip() for c in later_edits for old, new in _edit_sides(c) for l in old.splitlines()
                if l not in new.splitlines()}:
        added = set()
    for hunks in net_changes([*changes, *later_edits], None).values():
        if any(h["ids"][-1] in ids or ids & set(h["ids"]) and added & (
                {l.strip() for l in h["new"].splitlines()} - {l.strip() for l in h["old"].splitlines()})
               for h in hunks):
            return True
    return False


_GENERIC_SIGNATURE = LazyRegex(r"(?i)exit (?:code|status) \d+$")


_GENERIC_ERRORS = {"Error", "Exception", "TypeError", "ValueError", "RuntimeError", "AssertionError", "KeyError",
                   "AttributeError", "NameError", "ReferenceError", "SyntaxError", "IndexError", "OSError", "IOError",
                   "ArgumentError", "StandardError", "NoMethodError", "IllegalArgumentException",
                   "IllegalStateException", "NullPointerException", "RangeError"}


# an error's class by its name, with its namespace (``RedisClient::CannotConnectError``, ``psycopg.errors.X``)
_ERROR_CLASS = r"(?:[A-Z]\w*::|[A-Z]\w*\.)*[A-Z]\w*(?:Error|Exception)"


def _cut_from(later: dict, earlier: dict) -> bool:
    """Whether ``later``'s output was cut to its last lines (``| tail -4``), each of them one ``earlier`` printed:
    Julia's stack trace's end, without the "Package CSV not found" above it, is no other error. (Its numbers aside:
    prove's ``Files=3, Tests=1,  0 wallclock secs ( 0.01 usr …`` times each run anew.)"""
    lines = [[re.sub(r"\d+(?:\.\d+)?", "0", line.strip()) for line in (x.get("error_text") or "").splitlines()
              if line.strip() and not line.startswith("Exit code")] for x in (earlier, later)]
    return bool(re.search(r"\|\s*tail\b", later.get("target") or "")) and len(lines[1]) >= 2 \
        and all(line in lines[0] for line in lines[1])


def _same_error(a: dict, b: dict) -> bool:
    """Whether two failures report the same error: the same signature, and, when the signature says no more than
    the exit code (``go test: exit code 1``), the same error line once its numbers are masked."""
    if a.get("error_signature") != b.get("error_signature"):
        # the error line of one printed whole in the other (``OperationalError: Error 111 connecting to
        # localhost:6379. Connection refused.`` under a traceback, then in pytest's ``FAILED … - …`` summary)
        # (a named error with its message, not a runner's line both runs print: ``make: *** [Makefile:9] Error 1``)
        lines = [(_raw_error_line(x) or "").rstrip("…") for x in (a, b)]
        # (or cut short where the other goes on: ``… which is disallowed. [...]`` for ``… which is disallowed. One
        # of the common reasons is …``)
        lines += [re.sub(r"\s*(?:\[(?:\.\.\.|…)\]|\.\.\.)\s*$", "", line) for line in lines]
        if any(len(line) >= 30 and re.search(r"\w(?:Error|Exception): \S", line) and line in (y.get("error_text") or "")
               for line, y in zip(lines, (b, a, b, a))):
            return True
        # (or the same tests failing, by their names, whatever else each run reports: jest's ``✕ back from profile
        # returns to settings (180 ms)`` under ``-t 'back from profile'``, then in the whole file's run, its counts
        # ``1 failed, 2 skipped`` and ``1 failed, 2 passed`` aside)
        failing = [{m.group(1) for m in re.finditer(r"(?m)^\s*[✕×✗]\s+(.+?)(?:\s+\(\d+(?:\.\d+)?\s*m?s\))?\s*$",
                                                   x.get("error_text") or "")} for x in (a, b)]
        if failing[0] and failing[0] == failing[1]:
            return True
        # (or the same library's headers not found, one after the other: ``fatal error: wx/wx.h: No such file or
        # directory``, then, its directory given by hand, ``wx/setup.h``, which lives elsewhere)
        headers = [{os.path.dirname(h) for h in re.findall(r"fatal error: ([\w./+-]+\.h(?:pp|h)?): No such file",
                                                           x.get("error_text") or "")} for x in (a, b)]
        if headers[0] & headers[1] - {""}:
            return True
        # (or pytest's, by their summary lines: ``FAILED tests/test_export.py::test_export_notes_csv - assert 404 ==
        # 200`` under its traceback, then alone in a quieter run of the file)
        failing = [set(re.findall(r"(?m)^FAILED \S+::.+$", x.get("error_text") or "")) for x in (a, b)]
        if failing[0] and failing[0] == failing[1]:
            return True
        # (or the same status endpoint read again, answering only its bare state where it gave the trace before:
        # ``…/connectors/inventory-mysql/status | jq -r '.tasks[0].state'`` → ``FAILED`` after the DebeziumException:
        # the task still failing, not a new error)
        urls = [{u.split("?")[0] for u in re.findall(r"[\w.-]+:\d+/[^\s'\"|;&]*", x.get("target") or "")}
                for x in (a, b)]
        if urls[0] & urls[1] and any(re.fullmatch(r"state [A-Z]+", x.get("error_signature") or "") for x in (a, b)) \
                and all(x.get("logged") for x in (a, b)):
            return True
        # (or an error line of the earlier run still printed by the later, its process ids and counts aside:
        # ``error: Sandbox: swiftlint(41822) deny(1) file-read-data …/.swiftlint.yml …`` again after ``pod install``,
        # beside the rsync denial it met next: the first problem was not mended)
        def masked(text: str) -> str:
            return " ".join(re.sub(r"\d+", "N", text).split())
        if any(len(line) >= 40 and re.match(r"(?i)(?:fatal )?error:\s", line) and not is_wrapper_line(line)
               and len(line.split()) >= 5 and masked(line) in masked(y.get("error_text") or "")
               for line, y in zip(lines, (b, a))):
            return True
        # (or its message, the run's summary printing it without the class: vitest's ``→ expected "spy" to be called
        # 1 times, but got 0 times`` for ``AssertionError: expected "spy" to be called 1 times, …``; or a bare
        # ``Error: Cannot call trigger on an empty DOMWrapper.`` for its ``→ Cannot call trigger …``)
        if any((m := re.search(r"(?:\w(?:Error|Exception)|(?<![\w.])Error): (.{30,})", line))
               and m.group(1) in (y.get("error_text") or "")
               for line, y in zip(lines, (b, a))):
            return True
        # (or every line a run cut to a window of by grep shows, printed in the other whole: ``npm run test:main 2>&1
        # | grep NODE_MODULE_VERSION`` after the full "was compiled against a different Node.js version")
        for cut, other in ((a, b), (b, a)):
            if re.search(r"\|\s*grep\b", cut.get("target") or ""):
                shown = [" ".join(line.split()) for line in (cut.get("error_text") or "").splitlines()
                         if line.strip() and not re.match(r"(?i)\s*exit code \d+\s*$", line)]
                whole = " ".join((other.get("error_text") or "").split())
                if shown and sum(map(len, shown)) >= 30 and all(line in whole for line in shown):
                    return True
        # the same tests failing the same way, whatever part of the report each excerpt shows (pytest's
        # ``..........EEEE.....F  [100%]`` both times)
        # (unless each names another error: ``DagsterInvalidDefinitionError``, then ``DagsterExecutionStepError``)
        progress = [re.findall(r"(?m)^[.EFsxX]*[EF][.EFsxX]*\s+\[\s*\d+%\]\s*$", f.get("error_text") or "")
                    for f in (a, b)]
        errors = [set(re.findall(r"\b[A-Z]\w*(?:Error|Exception)\b", f.get("error_text") or "")) - _GENERIC_ERRORS
                  for f in (a, b)]
        # (nor when pytest's summary gives each test another reason: "Failed: async def functions are not natively
        # supported", then "sqlalchemy.exc.OperationalError: … Connection refused" for the same three tests)
        reasons = [{re.sub(r"\d+", "N", r) for r in re.findall(r"(?m)^(?:FAILED|ERROR) \S+ - (.+)$",
                                                                f.get("error_text") or "")} for f in (a, b)]
        if progress[0] and progress[0] == progress[1] and not (errors[0] and errors[1] and errors[0] != errors[1]) \
                and not (reasons[0] and reasons[1] and not reasons[0] & reasons[1]):
            return True
        # the same named error seen through another window (``… | grep -A2 Failure/Error`` shows the
        # ``RedisClient::CannotConnectError`` the full log ended on)
        # (not in a runner's verdict, the same after any error: UnrealBuildTool's ``Result: Failed
        # (OtherCompilationError)`` under a header tool's error, then under a compiler's)
        named = [set(re.findall(rf"\b{_ERROR_CLASS}\b", "\n".join(
            line for line in (f.get("error_text") or "").splitlines() if not is_wrapper_line(line.strip()))))
                 for f in (a, b)]
        # (a class every runtime raises for anything, ``TypeError``, says nothing of which error it is)
        shared = (named[0] & named[1]) - _GENERIC_ERRORS
        # (nor the same class with another message each time: ioredis' ``ReplyError: MOVED 6918 …``, then
        # ``ReplyError: CROSSSLOT Keys in request …``)
        said: list[dict[str, set[str]]] = [{}, {}]
        for messages, f in zip(said, (a, b)):
            for m in _NAMED_MESSAGE.finditer(f.get("error_text") or ""):
                message = re.sub(r"\d+(?:\.\d+)*", "N", m.group(2))
                messages.setdefault(m.group(1), set()).add(" ".join(message.split()[:2]))
        if any(said[0].get(n) and said[1].get(n) and not said[0][n] & said[1][n] for n in shared):
            return False
        # (nor one raised with its message under it, Pulumi's ``CommandError:`` over ``stderr: error: getting secrets
        # manager: passphrase must be set …``, then over a missing ``aws:region``: the one message the other lacks)
        shown = [(error_line(f.get("error_text") or "") or "").strip() for f in (a, b)]
        if any(len(message := line.partition(": ")[2].strip()) >= 20
               and " ".join(message.split()) not in " ".join((other.get("error_text") or "").split())
               and re.fullmatch(r"[\w.]+(?:Error|Exception):", other_line)
               for line, other, other_line in zip(shown, (b, a), reversed(shown))):
            return False
        return bool(shared) and not (named[0] ^ named[1])
    if not _GENERIC_SIGNATURE.search(a.get("error_signature") or ""):
        return True
    line_a, line_b = (re.sub(r"\d+(?:\.\d+)*", "N", _raw_error_line(f) or "") for f in (a, b))
    return line_a == line_b


# a named error and the message on its line (``ReplyError: MOVED 6918 127.0.0.1:7001``)
_NAMED_MESSAGE = LazyRegex(rf"\b({_ERROR_CLASS}): +(\S.*)")


# a server turning a query away before running it, for its queue or its limits, not for what it asks
_TURNED_AWAY = LazyRegex(r"(?i)\btoo many (?:queued|concurrent|running) (?:queries|requests|statements)\b|"
                         r"\bquery queue (?:is )?full\b|\bqueue (?:is )?full\b|\btoo many (?:connections|clients)\b")


# a program refusing a flag it does not know: argparse's "unrecognized arguments", click's "No such option"
_USAGE_ERROR = LazyRegex(r"(?i)\bunrecognized (?:arguments?|options?)\b|\bunknown (?:option|flag|argument)\b|"
                         r"\bno such option\b|\binvalid option\b|\bflag provided but not defined\b")


# a line of a run's output that reports a problem (``k8s/hpa.yaml - HorizontalPodAutoscaler checkout-api failed
# validation: could not find schema for HorizontalPodAutoscaler``)
# (and R CMD check's findings: ``❯ checking top-level files ... NOTE``)
_PROBLEM_LINE = LazyRegex(r"(?i)\b(?:error|fail(?:ed|ure)?|invalid|could not|cannot|not found|missing)\b|"
                          + CHECK_FINDING)
_CHECK_FINDING = LazyRegex(CHECK_FINDING)
_WARNING_LINE = LazyRegex(r"(?:^|:\s)warning(?: [A-Z]+\d+)?:")
# a runner's numbered failure of one test: ExUnit's ``  1) test uploads a scanned PDF (ShopWeb.InvoiceUploadLiveTest)``
_NUMBERED_FAILURE = LazyRegex(r"^\s*\d+\) test \S")


_CUT = LazyRegex(r"…\[N chars truncated\]…")  # (where an excerpt was cut short, its count made ``N``)
# pytest's count of a run's outcomes, and a line of its short summary of one test
_PYTEST_COUNTS = LazyRegex(r"\d+ (?:failed|passed|errors?|skipped|deselected|warnings?|xfailed|xpassed)"
                           r"(?:, \d+ (?:failed|passed|errors?|skipped|deselected|warnings?|xfailed|xpassed))*"
                           r"(?: in [\d.]+s)?(?: \([\d:]+\))?")


def _failed_count(text: str) -> int | None:
    """How many tests a run's own count line says failed or errored (pytest's ``3 failed, 19 passed, 7 errors in
    1.92s``: 10; ExUnit's ``5 tests, 2 failures``: 2), or None when it printed no such line."""
    for line in reversed(text.splitlines()):
        line = line.strip(" =")
        if _PYTEST_COUNTS.fullmatch(line) or re.fullmatch(r"\d+ tests?, \d+ failures?\b.*", line):
            return sum(int(n) for n in re.findall(r"(\d+) (?:failed|errors?|failures?)\b", line)) or None
    return None


_SUMMARY_LINE = LazyRegex(r"(?:FAILED|ERROR) [\w./-]+::\S+ - \w|E\s+[\w.]*(?:Error|Exception)\b")


# a name qualified by its namespace or owner: ``Tidewake.Net.Inventory``, ``Tidewake.Net.Inventory::slots``
_QUALIFIED = LazyRegex(r"\b[A-Za-z_]\w*(?:(?:\.|::)[A-Za-z_]\w*)+")


def _errors_gone(before: dict, after: dict) -> list[str]:
    """The lines reporting a problem that ``before``'s output had and ``after``'s, a run of the same check, no longer
    has, when every such line of ``after`` was in ``before`` too (its counts aside: ``Errors: 2`` → ``Errors: 1``):
    the problems one change mended, of several the same run reported."""
    if command_family(before.get("target") or "") != command_family(after.get("target") or ""):
        return []

    def problems(f: dict) -> dict[str, str]:
        # (not a warning: MSBuild's ``warning MSB3026: Could not copy …`` retried, printed only on the first run)
        # (nor a run's count of them: ExUnit's ``2 tests, 1 failure`` after ``5 tests, 2 failures``)
        return {re.sub(r"\d+", "N", line.strip()): line.strip() for line in (f.get("error_text") or "").splitlines()
                if (_PROBLEM_LINE.search(line) or _NUMBERED_FAILURE.match(line)) and not re.match(r"(?i)exit code",
                                                                                                   line.strip())
                and not _WARNING_LINE.search(line)
                and not re.match(r"\d+ \w+, \d+ (?:failure|error)s?\b", line.strip())
                # (nor pytest's: ``3 failed, 19 passed, 7 errors in 1.92s``; nor its header over a test's report,
                # ``____ ERROR at setup of test_list_items_empty ____``)
                and not _PYTEST_COUNTS.fullmatch(line.strip(" ="))
                and not re.fullmatch(r"_{3,} .* _{3,}", line.strip())}
    was, now = problems(before), problems(after)
    # (none, when the run's own count of what failed did not drop: ``4 failed, 1 passed`` both times, the later
    # excerpt only cut to fewer lines by ``| tail -3``)
    if (counts := [_failed_count(f.get("error_text") or "") for f in (before, after)])[0] and counts[1] \
            and counts[1] >= counts[0]:
        return []
    # (a line the excerpt cut, ``… got …[N chars truncated]… attribute 'pool'``, is any line it begins)
    cut = [key.split("…[")[0] for key in was if _CUT.search(key)]
    was = {key: line for key, line in was.items() if not _CUT.search(key)}
    if not now or len(was) + len(cut) < 2 or not all(key in was or any(key.startswith(c) for c in cut) for key in now) \
            or not set(was) - set(now):
        return []
    gone = [line for key, line in was.items() if key not in now]
    # (none, when a line gone reports a type that a line still there reports a member of: Mirror's ``Tidewake.Net.
    # Inventory can't be serialized because it has a field of unsupported type`` gone, ``… Dictionary`2 … Tidewake.Net.
    # Inventory::slots`` left, is the one problem told twice, not a problem of its own mended)
    members = {tuple(re.split(r"\.|::", name)) for line in now.values() for name in _QUALIFIED.findall(line)}
    if any(len(m) > len(owner) and m[:len(owner)] == owner for line in gone for name in _QUALIFIED.findall(line)
           if (owner := tuple(re.split(r"\.|::", name)))[-1][:1].isupper() for m in members):
        return []

    def words(line: str) -> set[str]:
        return set(re.findall(r"[A-Za-z]{3,}", line))
    # (each the same kind of report as one still there, "… could not find schema for X" beside "… for Y": not a
    # line of the same report that the later excerpt did not show, ``Error Trace: …/users_test.go:48``)
    # (and naming what none of them names, ``HorizontalPodAutoscaler``: not the error pytest's summary line repeats,
    # ``FAILED tests/test_tasks.py::… - kombu.exceptions.OperationalError: …`` under the excerpt's ``E   …``)
    # (or a numbered failure of a test gone beside one still there: ExUnit's ``1) test uploads a scanned PDF (…)``
    # gone, ``1) test shows the error when the invoice number is taken (…)`` left)
    if any(_NUMBERED_FAILURE.match(g) for g in gone) and any(_NUMBERED_FAILURE.match(n) for n in now.values()):
        return gone
    still = set().union(*(words(n) for n in now.values()))
    # (or a line of pytest's summary of each, or of its report: ``ERROR tests/test_items.py::test_get_item -
    # AttributeError: …`` gone, ``FAILED tests/test_health_async.py::… - TypeError: …`` left)
    alike = all(any(len(words(g) & words(n)) * 2 >= max(len(words(g)), len(words(n)), 1)
                    or _SUMMARY_LINE.match(g) and _SUMMARY_LINE.match(n)
                    or _CHECK_FINDING.search(g) and _CHECK_FINDING.search(n) for n in now.values())
                and words(g) - still for g in gone)
    return gone if alike else []


def _left_behind(changes: list[dict], failure: dict) -> bool:
    """Whether ``failure``'s error quotes a name the edits before it took out and did not put back ("references
    exporter \"logging\" which is not configured" after ``logging:`` → ``debug:``): the rest of the same change,
    not a problem of its own."""
    sides = [side for e in changes if e["tool"] in EDIT_TOOLS for side in _edit_sides(e)]
    gone = {w for old, new in sides for w in re.findall(r"[\w./-]{3,}", old)} - {
        w for old, new in sides for w in re.findall(r"[\w./-]{3,}", new)}
    quoted = re.findall(r"\"([\w./-]{3,})\"|'([\w./-]{3,})'|`([\w./-]{3,})`", failure.get("error_text") or "")
    return any(w in gone for names in quoted for w in names if w)


# a line of a failure's output that reports an error (not the runner's tally of what failed)
_DIAGNOSTIC = LazyRegex(r"(?i)\b(?:error|failed|failure|exception|couldn't|could not|cannot|can't|unable|not found|"
                        r"does not exist|denied|refused)\b")
_TALLY = LazyRegex(r"(?i)\btests? (?:failed|passed)\b|following tests FAILED|Errors while running|\*\*\*Failed|"
                   r"\((?:Failed|SEGFAULT|Timeout)\)\s*$|^\W*FAIL(?:ED|URES?)?\W*$|Exit code \d|"
                   r"\d+ (?:failed|errors?)\b|^FAILURE: Build failed|^BUILD FAILED\b")


def _wholly_new(previous: dict, failure: dict, told: dict[int, str]) -> bool:
    """Whether every line of ``failure``'s output that reports an error is new to ``previous``'s, whatever the
    signatures say (blind442 QA11: ctest's "4 - test_texture_cache (Failed)" both times, first for "SDL_Init(…)
    failed: No available video device", then for "IMG_Load(…) failed: Couldn't open assets/tiles/grass.png"); of two
    outputs alike, of what a look after each printed (``told``: blind447 QF11, "timed out waiting for the condition"
    twice, ``kubectl describe`` saying "could not get SecretStore", then "key db_password does not exist")."""
    # (only where the signatures agree: where they differ, _same_error has the say)
    if failure.get("error_signature") != previous.get("error_signature"):
        return False
    texts = [previous.get("error_text") or "", failure.get("error_text") or ""]
    # (its error lines alike but for their times and counts: snakemake's, the same rule failing, its log to read)
    if len({frozenset(re.sub(r"\d+", "N", line.strip()) for line in text.splitlines() if _DIAGNOSTIC.search(line))
            for text in texts}) == 1 and told.get(previous["id"]) and told.get(failure["id"]):
        texts = [told[previous["id"]], told[failure["id"]]]
    # (by its words, most of them new: "X Error: No pnpm version is specified." under ``gh run watch`` is the
    # ``##[error]Error: No pnpm version is specified.`` of the log read before; pytest's ``FAILED …::test_void_invoice
    # - sqlalchemy.exc.ProgrammingError: …`` the same error as another test's)
    before = set(re.findall(r"[A-Za-z_]\w{2,}", texts[0]))
    now = [words for l in texts[1].splitlines() if _DIAGNOSTIC.search(l)
           and not _TALLY.search(l) and (words := set(re.findall(r"[A-Za-z_]\w{2,}", l)))]
    return bool(now) and all(len(words - before) * 2 > len(words) for words in now)


def _told_after(events: list[dict], observations: list[dict], success: dict) -> dict[int, str]:
    """By each failure's id, the error lines that the looks after it printed, before the next change or run of the
    check, of what it named: ``kubectl -n orders describe externalsecret orders-db`` after ``kubectl -n orders wait
    … externalsecret/orders-db`` timed out."""
    told: dict[int, str] = {}
    for f in (e for e in events if e["outcome"] == "error"):
        names = {w.rpartition("/")[2] for w in re.findall(r"[\w./-]{5,}", f["target"]) if re.search(r"[-_/]", w)}
        names = {n for n in names if len(n) >= 5}
        # (and a log its output points to: snakemake's ``log: logs/deseq.log (check log file(s) for error details)``)
        names |= {w.rpartition("/")[2] for w in re.findall(r"[\w./-]+\.log\b", f.get("error_text") or "")}
        nxt = min([e["id"] for e in events if e["id"] > f["id"]
                   and (e["tool"] in EDIT_TOOLS or e["outcome"] == "error")] + [success["id"]])
        # (a log read that is itself taken for a failure, ``"severity":"ERROR"`` lines, tells of it too)
        lines = [l.strip() for o in observations if f["id"] < o["id"] < nxt and o["tool"] == "Bash"
                 and o["outcome"] in ("ok", "error") and o not in events
                 and any(re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", o["target"]) for n in names)
                 for l in ((o.get("body") or "") + "\n" + (o.get("error_text") or "")).splitlines()
                 if _DIAGNOSTIC.search(l)]
        if lines:
            told[f["id"]] = "\n".join(lines)
    return told


def _timeless(failure: dict) -> str:
    """A failure's error line as printed, whole, without the times and durations it reports (``(0.006 seconds)``,
    ``in 0.42s``, ``10:02:14``)."""
    line = (_raw_error_line(failure) or "").rstrip("…")
    line = next((l.strip() for l in (failure.get("error_text") or "").splitlines() if line and line in l), line)
    return re.sub(r"\d+(?:\.\d+)?\s*(?:ms|s|sec|secs|seconds?)\b|\d\d:\d\d:\d\d(?:[.,]\d+)?", "", line)


def _echoes_its_edit(previous: dict, failure: dict, between: list[dict]) -> bool:
    """Whether ``failure`` is ``previous``'s error quoting the line an edit between them changed, as it now reads
    (blind438 PW09: "No matching distribution found for pyroscope-io>=0.8", the requirement pinned, then "… for
    pyroscope-io==0.8.7"): the edit was an attempt at the same problem, not a fix that moved the error on."""
    before, after = previous.get("error_text") or "", failure.get("error_text") or ""
    for edit in between:
        if edit["tool"] not in EDIT_TOOLS:
            continue
        for old, new in _edit_sides(edit):
            gone = [l.strip() for l in old.splitlines() if l.strip() not in new and len(l.strip()) >= 4]
            came = [l.strip() for l in new.splitlines() if l.strip() not in old and len(l.strip()) >= 4]
            if any(g in before and c in after and error_signature(before.replace(g, "\u2205"), previous["target"])
                   == error_signature(after.replace(c, "\u2205"), failure["target"]) for g in gone for c in came):
                return True
    return False


def _split_by_error(events: list[dict], success: dict, kind: str, account: str = "",
                    cleared: set[int] = frozenset(), removals: list[dict] = (),
                    told: dict[int, str] | None = None) -> list[dict]:
    """One chain per distinct error: a failure with a new error, after a change that stays (or after the machine's
    state was cleared, ``cleared``: the ids of such runs), closes the one before; not when the agent says that change
    was not enough on its own ("editing composer.json isn't enough — the autoloader has to be regenerated"): it and
    what came after are one fix. (``removals``: the lines that removed files on the way, ``rm …/providers.tf``: a file
    written and removed again is no change that stays; ``told``: by a failure's id, what a look at what it named
    printed after it, see _told_after.)"""
    failures = [e for e in events if e["outcome"] == "error"]
    edits = [e for e in events if e["outcome"] == "ok" and e["tool"] in EDIT_TOOLS]
    partial = [s for s in _sentences(account) if _NOT_ENOUGH.search(_prose(s))]
    groups: list[list[dict]] = [[failures[0]]]
    ways: list[int] = []  # the groups that the way found, run, moved on
    for failure in failures[1:]:
        previous = groups[-1][-1]
        between = [e for e in events if e["outcome"] == "ok" and previous["id"] < e["id"] < failure["id"]]
        later = [e for e in edits if e["id"] > failure["id"]] + [e for e in removals if e["id"] > failure["id"]]
        # (not from another program's run of the same job that failed the same way, ``npx next build --debug``
        # between two ``npm run build``: no invocation the next one moved on from)
        ran = next((f for f in reversed(groups[-1]) if f is groups[-1][0] or not (
            f.get("error_signature") == groups[-1][0].get("error_signature")
            and command_family(f["target"]) != command_family(groups[-1][0]["target"]))), previous)
        # (and the way it was run then is the way it passed: not ``JAVA_HOME=…/java-11 uv run pytest …``, an attempt
        # the passing run left out again)
        # (or kept by an edit after it that writes the same setting: ``-e METAFLOW_USER=ci``, then ``METAFLOW_USER:
        # ci`` in the service's environment in docker-compose.yml)
        # (whatever else the passing run adds, to what it set or passed: ``-format=json … | jq -r …`` to read what
        # ``VAULT_CACERT=…`` let through; not a flag left out to see the error, ``curl -sf`` then ``curl -s``)
        tried = invocation_change(ran["target"], failure["target"])
        moved_on = bool(tried) and (
            set(tried) <= set(invocation_change(ran["target"], success["target"])) and (
                not invocation_change(failure["target"], success["target"])
                or all(part.startswith(("set `", "pass `")) for part in tried))
            or _written_later(tried, later))
        # (or the way found, run, failing otherwise: ``pod update FirebaseFirestore`` for ``pod install``, then a
        # deployment target too low for it)
        way = kind == "same_job" and command_key(failure["target"]) == command_key(success["target"]) \
            and command_key(ran["target"]) != command_key(failure["target"])
        moved_on = moved_on or way
        # (an error the masked signatures call the same, printed otherwise by the way found: ``swift test``'s
        # ``unhandled(status: -34018)``, then ``xcodebuild test``'s ``unhandled(status: -25299)`` on the simulator)
        reworded = way and _timeless(failure) != _timeless(previous) or _wholly_new(previous, failure, told or {})
        not_enough = any(os.path.basename(f) in s for e in between if e["tool"] in EDIT_TOOLS
                         for f in e.get("files") or [] for s in partial)
        back = next((n for n, group in enumerate(groups[:-1]) if _same_error(failure, group[0])), None)
        # (a flag the program does not know, tried on the way: ``pytest … --spark-conf …`` "unrecognized
        # arguments" is an attempt at the same problem, not an error of its own)
        misused = bool(_USAGE_ERROR.search(failure.get("error_text") or "")) and all(
            part.startswith("pass `") for part in invocation_change(previous["target"], failure["target"]) or ["-"])
        if back is None and len(groups[-1]) > 1 and _same_error(failure, groups[-1][0]) \
                and not _same_error(failure, previous):
            # (the problem's own first error back, after an attempt that failed otherwise: ``npm run tauri build``'s
            # missing sidecar again after ``… --target x86_64-apple-darwin`` met a target not installed)
            groups[-1].append(failure)
        elif back is not None:  # an earlier error back again: all done since it was tried and undone (a polyfill that
            # got past ``Request is not defined`` to ``Response.json is not a function``, then removed), one problem
            groups[back:] = [[f for group in groups[back:] for f in group] + [failure]]
        elif _cut_from(failure, previous):  # (the same output, its last lines only: nothing gone)
            groups[-1].append(failure)
        elif (gone := _errors_gone(previous, failure)) and not not_enough and _persisting(between, later) \
                and len(groups[-1]) == 1:
            # (two errors the same way, one of them gone after an edit that stays: "could not find schema for
            # HorizontalPodAutoscaler" fixed, "… for ServiceMonitor" left; the first problem is the one that went)
            groups[-1] = [dict(previous, error_text="\n".join(gone), error_signature=error_signature("\n".join(gone)))]
            groups.append([failure])
        elif (not _same_error(failure, previous) or reworded) and not _echoes_its_edit(previous, failure, between) \
                and not not_enough and not misused \
                and not _astray(groups[-1], edits) and (
                _persisting(between, later) or moved_on or any(previous["id"] < c < failure["id"] for c in cleared)) \
                and not _left_behind(between, failure):
            ways += [len(groups) - 1] if way else []
            groups.append([failure])
        else:
            groups[-1].append(failure)
    chains = []
    for n, group in enumerate(groups):
        start = group[0]["id"]
        end = groups[n + 1][0]["id"] if n + 1 < len(groups) else success["id"]
        last_failure = group[-1]
        resolved_by = groups[n + 1][0] if n + 1 < len(groups) else success
        changes = [e for e in events if e["outcome"] == "ok" and start < e["id"] < end]
        chains.append({
            "failure": group[0], "failures": group,
            "attempts": [e for e in changes if e["id"] < last_failure["id"]],
            "changes": [e for e in changes if e["id"] > last_failure["id"]],
            "all_changes": changes, "resolved_by": resolved_by, "success": success,
            # (the way found, failing otherwise before it passed, is its own run's problem: ``pod update …`` for
            # ``pod install``, then a deployment target too low; the failing run's lesson is still the way)
            "kind": "same_job" if n in ways else "error_changed" if n + 1 < len(groups) else "same_check" if ways
            and n == ways[-1] + 1 else kind,
        })
    return chains


def _astray(group: list[dict], edits: list[dict]) -> bool:
    """Whether the problem ``group`` stands for now shows an error that an edit undone later brought (``ARG
    DATABASE_URL`` in the Dockerfile: "set `DATABASE_URL` …" became "Connection refused", and the ARG went again):
    what moves that error on is part of the same attempt, not a problem of its own solved."""
    brought = next((f for f in group[1:] if not _same_error(f, group[0])), None)
    if brought is None:
        return False
    tried = [e for e in edits if group[0]["id"] < e["id"] < brought["id"]]
    return bool(tried) and not _persisting(tried, [e for e in edits if e["id"] > brought["id"]])


_ERROR_START = LazyRegex(r"^\W{0,4}(?:E\s+)?(?:(?:fatal )?error\b|[\w.:]*(?:Error|Exception)\b)|"
                         # go test's failed test: ``--- FAIL: TestWorkersClaimConcurrently (0.37s)``
                         r"^--- FAIL: \w|"
                         # vitest's reason under a failed test: ``× cart store > adds an item``, then ``→ …``
                         r"^\s*→ |"
                         # R CMD check's findings and testthat's failures: ``❯ checking dependencies in R code ...
                         # WARNING``, ``── Failure ('test-parse.R:18:3'): …``
                         r"^❯ checking .* \.\.\. (?:WARNING|ERROR)\b|^── (?:Failure|Error) \(")


def _split_at_partial_pass(parts: list[dict], observations: list[dict]) -> list[dict]:
    """A whole run failing in two test files, one fixed and checked on its own (``npx vitest run src/components``
    passing after ``environment: 'jsdom'``), then the other fixed and the whole run passing: two problems, each with
    the part of the first output about its files. Without this the first edits took the whole run's error line
    (slugify's ``expected 'cr-me-br-l-e'`` for the jsdom environment) and the later edit was lost, or both were one
    fix."""
    from .signatures import error_signature

    last, first = parts[-1], parts[0]["failure"]
    narrowed, success = last["failures"][-1], last["resolved_by"]
    family = command_family(success["target"])
    whole = _targets(first["target"])  # (everything, or a selection: gradle's ``--tests "*Profile*"``)
    if last["kind"] != "same_check" or _targets(success["target"]) != whole \
            or command_family(first["target"]) != family or command_family(narrowed["target"]) != family:
        return parts
    picked = [] if _targets(narrowed["target"]) == whole else _targets(narrowed["target"])
    # (or the runner its recipe echoed: ``uv run pytest -v tests/test_clean.py`` for ``make test``'s ``uv run pytest -q``)
    families = {family} | {command_family(line) for line in (first.get("error_text") or "").splitlines()[:3]
                           if _program_name((first["target"].split() or [""])[0]) in ("make", "just")
                           and command_job(line) == command_job(first["target"]) == "test"}
    passed = next((o for o in observations if narrowed["id"] < o["id"] < success["id"] and o["outcome"] == "ok"
                   and command_family(o["target"]) in families and _targets(o["target"])
                   and _narrower(_targets(o["target"]), whole)
                   and (not picked or set(_targets(o["target"])) == set(picked))), None)
    if passed is None:
        return parts
    before = [e for e in last["changes"] if e["id"] < passed["id"]]
    after = [e for e in last["changes"] if e["id"] > passed["id"]]
    if not before or not after or any(e["tool"] not in EDIT_TOOLS for e in after):
        return parts
    mine, others = _output_by_test_files(first.get("error_text") or "", _targets(passed["target"]))
    if not mine or not others:
        return parts
    # (each keeps the lines about its own files: the error line the card shows is found in them)
    own = dict(first, error_text=mine, error_signature=error_signature(mine, first["target"]))
    parts = [dict(p, failure=own, failures=[own] + p["failures"][1:]) if p["failure"] is first else p for p in parts]
    rest = dict(first, error_text=others, error_signature=error_signature(others, first["target"]), _part=len(parts))
    last = parts[-1]
    if command_family(passed["target"]) != family:
        passed = dict(passed, recipe=True)  # (the recipe's own runner: no other way of running ``make test``)
    return parts[:-1] + [
        dict(last, changes=before, all_changes=[e for e in last["all_changes"] if e["id"] < passed["id"]],
             resolved_by=passed, success=passed),
        {"failure": rest, "failures": [rest], "attempts": [], "changes": after, "all_changes": after,
         "resolved_by": success, "success": success, "kind": "same_check"}]


def _narrower(targets: list[str], whole: list[str]) -> bool:
    """Whether a run of ``targets`` runs part of a run of ``whole``: of everything, or a selection within it
    (``*ProfileRepositoryTest*`` within ``*Profile*``)."""
    return not whole or targets != whole and all(
        any(fnmatch.fnmatchcase(t.strip("*"), w) or t.startswith(w.rstrip("*")) for w in whole) for t in targets)


# a test class heading its results (gradle's ``ProfileViewModelTest > loadEmitsContent FAILED``)
_TEST_CLASS_LINE = LazyRegex(r"^\s*(?:[\w.]+\.)?([A-Z]\w*(?:Tests?|Spec|IT))\s+>\s")


def _output_by_test_files(text: str, picked: list[str]) -> tuple[str, str]:
    """The lines of a test run's output about the test files under ``picked`` (a folder or file a narrower run
    named, or a selection of test classes), and those about the other files: each line belongs to the last test
    file or class named above it."""
    mine, others, owner = [], [], None
    for line in text.splitlines():
        named = [w for w in re.findall(r"[\w./-]+", line) if _TEST_PATH.search(w)]
        if (tested := _TEST_CLASS_LINE.match(line)) and any("*" in p for p in picked):
            owner = any(fnmatch.fnmatchcase(tested.group(1), p) for p in picked)
        elif named:
            owner = any(w.lstrip("./").startswith(p.lstrip("./").rstrip("/")) for w in named for p in picked)
        if owner is True:
            mine.append(line)
        elif owner is False:
            others.append(line)
    return "\n".join(mine), "\n".join(others)


def _split_one_output(chain: dict, account: str = "", observations: list[dict] = ()) -> list[dict]:
    """A failing run whose output holds several errors, each fixed by its own edit ("requires macos 10.15" by a
    platform floor in Package.swift, "No config file found … 'openapi-generator-config.yaml'" by that new file):
    one chain per error, each with its error line and its edit. Only when every edit is named by a different
    error line, by its file's name, by the words it changes, or by the account's sentence that quotes its code and
    that error ("The component test failed with `document is not defined` …; `environment: 'jsdom'` … fixed
    that")."""
    edits = chain["changes"]
    if chain["kind"] != "same_check" or len(chain["failures"]) > 1 or chain["attempts"] or len(edits) < 2 or any(
            e["tool"] not in EDIT_TOOLS for e in edits):
        return [chain]
    # the errors the output holds: each from a line that names one (``error: …``, ``TypeError: …``) to the next,
    # so a traceback's lines before its error are one error's context, not errors of their own
    lines: list[str] = []
    # (a CI log's lines are each a job's: ``web`` could not find pnpm, ``api`` could not spawn pytest)
    jobs = chain["failure"].get("ci_line_jobs") or {}
    for line in (chain["failure"].get("error_text") or "").splitlines():
        if _ERROR_START.match(line) or line in jobs and (not lines or _job_of(lines[-1], jobs) != jobs[line]):
            # (go test's failed test by what it printed under it: ``queue_test.go:88: claim: database is locked``)
            lines.append("" if line.startswith("--- FAIL: ") else re.sub(r"^→\s*", "", line.strip()))
        elif lines and line.strip() and not _TALLY.search(line):  # (line by line: each its own error's, no tally)
            lines[-1] = (lines[-1] + "\n" + line.strip(" -•*")).strip()
    lines = list(dict.fromkeys(line for line in lines if line))
    # (with what a run of the same check, narrowed to the test an error names, printed of it on the way: ``./gradlew
    # :shared:jvmTest --tests '*ProfileCacheTest*' --info | grep -A3 SQLiteException`` → "ON CONFLICT clause does not
    # match any PRIMARY KEY or UNIQUE constraint" for ``ProfileCacheTest > upsertReplacesExistingRow() FAILED``)
    family = command_family(chain["failure"]["target"])
    looks = [o for o in observations if chain["failure"]["id"] < o["id"] < chain["resolved_by"]["id"]
             and o["tool"] == "Bash" and command_family(o["target"]) == family]
    # (the error that names more of what the run asked for: ``SQLiteException`` and ``ProfileCacheTest``, not the
    # error before it whose output ran on to the next test's name)
    told_of = {line: line for line in lines}
    for look in looks:
        asked = [len({name for name in re.findall(r"[A-Za-z_]\w{7,}", line)
                      if name in look["target"] and name not in chain["failure"]["target"]}) for line in lines]
        if asked and max(asked) and asked.count(max(asked)) == 1:
            line = lines[asked.index(max(asked))]
            told_of[line] += " " + (look.get("body") or "") + " " + (look.get("error_text") or "")

    def named_by(edit: dict) -> str | None:
        names = {os.path.basename(f) for f in edit.get("files") or []}
        # (by the lines it changed, not those around them it kept: ``joined TEXT NOT NULL`` above the ``CREATE UNIQUE
        # INDEX`` added is no word of it; a new file's lines all)
        words = _tokens("\n".join(l for old, new in _edit_sides(edit) for l in _changed_lines(old, new))) - _STOP
        if jobs:  # (and the names inside a CI step's: ``pnpm/action-setup@v4`` names pnpm)
            words |= {part for w in words for part in re.split(r"[/@.:_-]", w) if len(part) >= 4} - _STOP
        scores = [(3 * any(n in line for n in names) + len(words & _tokens(told_of[line])), -i)
                  for i, line in enumerate(lines)]
        best = max(scores, default=(0, 0))
        if best[0] >= 1:
            return lines[-best[1]]
        changed = _changed_text(edit)
        # (of the account's sentence that quotes its code, or its numbered item: "1. Concurrent workers got
        # `SQLITE_BUSY` immediately … The DSN in internal/store/sqlite.go now adds `_pragma=busy_timeout(5000)`")
        told = [s for s in sentences + items if any(len(span) >= 6 and span in changed for span in _code_spans(s))]
        quoted = [line for line in lines
                  if any(len(span) >= 8 and span in line for s in told for span in _code_spans(s))]
        return quoted[0] if quoted else None

    sentences = _sentences(account)
    items = [item for item in re.split(r"\n\s*\n|\n(?=\s*(?:\d+[.)]|[-*•])\s)", account) if item.strip()]
    named = {e["id"]: named_by(e) for e in edits}
    if None in named.values() or len({frozenset(_tokens(line)) for line in named.values()}) < 2:
        return [chain]
    files = {line: {f for e in edits if named[e["id"]] == line for f in e.get("files") or []} for line in named.values()}
    by_job = {_job_of(line, jobs) for line in named.values()}
    if sum(len(f) for f in files.values()) != len(set().union(*files.values())) \
            and not (len(by_job) == len(set(named.values())) and None not in by_job):
        return [chain]  # one file changed for two errors: one change (but for two CI jobs, each its own edit)
    parts = []
    for line in dict.fromkeys(named.values()):
        mine = [e for e in edits if named[e["id"]] == line]
        failure = dict(chain["failure"], error_text=line, _part=len(parts),
                       **({"ci_job": _job_of(line, jobs)} if jobs else {}))
        parts.append(dict(chain, failure=failure, failures=[failure], changes=mine, all_changes=mine))
    return parts


def _job_of(line: str, jobs: dict[str, str]) -> str | None:
    """The CI job that printed the error ``line`` begins with."""
    return next((job for printed, job in jobs.items() if line.startswith(printed)), None)


def _raw_error_line(failure: dict) -> str | None:
    """The error line as printed (the stored signature masks names and numbers: good for matching, bad to read)."""
    text = re.sub(r"^\s*(?:Error: )?Exit code \d+\s*", "", failure.get("error_text") or failure.get("body") or "")
    line = error_line(re.sub(r"(?m)^[│┃|╷╵]\s?", "", text))  # terraform's boxed diagnostics
    if not line:
        lines = [l.strip() for l in text.splitlines() if re.search(r"\w", l) and not l.strip().startswith(("at ", "#", "|"))]
        # (not the package runner's echo of the script, ``> marketing-site@0.4.0 check:export``; a line the check
        # marked failed first: ``✗ /pricing -> out/pricing/index.html (missing)``, ``FAIL: session_id is NULL``)
        marked = [l for l in lines if re.match(r"(?:[✗✘×✖]|FAIL(?:ED)?:|ERROR:)\s", l)]
        line = next(iter(marked or [l for l in lines if not l.startswith(">")] or lines), None)
    if not line:
        return failure.get("error_signature")
    if line.rstrip().endswith(":"):  # rspec's "LoadError:" then its message on the next line
        after = text.split(line, 1)[-1].strip().splitlines()
        if after and not after[0].startswith(("#", "at ", "from ")):
            line = f"{line.rstrip()} {after[0].strip()}"
    # (without pytest's "E" or a journal's date, host and process: ``Dec 02 08:12:44 stg-app-1 celery[48211]:``)
    # (or a log line's date and time: ``2026/12/02 06:31:02``, ``2026-12-02T06:31:02.114Z``)
    # (or TAP's "# " before a diagnostic: bats' ``#   ./scripts/backup.sh: line 9: $2: unbound variable``)
    # (or bracketed, with its level: fluent-bit's ``[2024/06/12 09:55:31] [error] ``; a time alone, soda's
    # ``[10:42:17] ``)
    # (or BuildKit's time before a RUN's line, without its step: ``19.41 ERROR Rollup failed to resolve import``)
    line = re.sub(r"^(?:E\s+|#\s+(?=\S)|\d{1,4}\.\d{2,3}\s+(?=\S)|"
                  r"[A-Z][a-z]{2} +\d{1,2} \d\d:\d\d:\d\d \S+ [\w.@/-]+(?:\[\d+\])?:\s+|"
                  r"\d{4}[/-]\d\d[/-]\d\d[ T]\d\d:\d\d:\d\d(?:[.,]\d+)?Z?\s+|"
                  r"\[(?:\d{4}[/-]\d\d[/-]\d\d[ T])?\d\d:\d\d:\d\d(?:[.,]\d+)?Z?\]\s*(?:\[\s*[a-z]+\s*\]\s*)?)", "",
                  line.strip())
    # (a structured log line says its error in a field: JSON's ``"errorMessage":"Failed to deserialize value from
    # topic: orders…"``, logfmt's ``reason="Datasource provisioning error: …"``)
    # (only a line made of fields: a sentence ending in ``error="no known secret ID"`` says more as it is)
    field = _ERROR_FIELD.search(line) if re.search(r'\{"|(?<![\w.-])(?:msg|level)=', line) else None
    return one_line(field.group(1) or field.group(2) if field else line, 160)


_ERROR_FIELD = LazyRegex(r'"(?:errorMessage|error_message|message|error|reason)"\s*:\s*"([^"\\]{12,})"|'
                         r'(?<![\w.-])(?:error|err|reason)="([^"\\]{12,})"')
