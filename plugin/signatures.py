"""Error signatures: one line that names a failure the same way on every machine.

``error_signature(text)`` picks the line of a tool's output that names the
error (the last raised Python exception, a compiler's ``error:``, git's
``fatal:``, npm's ``ERR!``, a pytest ``FAILED`` line …) and masks what varies
between machines and runs while keeping what tells failures apart:

masked: absolute paths (``<path>``), temp dirs (``<tmp>``), line and column
numbers, counts and durations (``<n>``), memory addresses (``<addr>``),
UUIDs, hex ids and hashes (``<id>``), timestamps (``<time>``), URLs past
their host, ports, pids, and the module named in an import failure
(``No module named '<mod>'``: one lesson covers every missing module);

kept: the exception type, the message's words, identifiers, relative paths,
error codes (``TS2307``, ``E0425``, ``Errno 2``, ``exit code 127``, HTTP statuses).

Cheap to import: only ``re``, patterns compiled on first use.
"""
from __future__ import annotations

import re

MAX_LENGTH = 200

_state: dict = {}

# R CMD check's finding: ``❯ checking top-level files ... NOTE``
CHECK_FINDING = r"\bchecking .+ \.\.\. (?:ERROR|WARNING|NOTE)\s*$"

_ERROR_RULES = (
    # (score, pattern): the highest score wins; among equals, the last line
    # (and .NET's test runners' ``System.InvalidOperationException : The calling thread must be STA``)
    # (with node's code in brackets: ``TypeError [ERR_UNKNOWN_FILE_EXTENSION]: Unknown file extension ".ts"``)
    # (and PHP's, by its namespace: ``Symfony\Component\Messenger\Exception\NoHandlerForMessageException: No …``)
    (6, r"^(?:E\s+)?(?:[A-Za-z_][\w]*(?:\.|::|\\))*[A-Z]\w*(?:Error|Exception|Exit|Interrupt|Fault|Failure)\b"
        r"(?: \[[A-Z][A-Z0-9_]+\])?(?: ?:|$)"),
    (6, r"^Exception in thread \"[^\"]*\" [\w.$]+"),
    (6, r"^Caused by: (?:[\w$]+\.)*[A-Z]\w*(?:Error|Exception)\b"),  # the JVM's root cause under a wrapper
    # an exception by its module path, whatever its name ends in: a traceback's last line,
    # ``jupyter_client.kernelspec.NoSuchKernel: No such kernel named churn-dev``
    (5, r"^(?:[a-z_]\w*\.)+[A-Z]\w*: \S"),
    (5, r"^e: (?:file://)?\S+:\d+:\d+ "),  # kotlinc: "e: file:///…/RoutesTest.kt:5:24 Unresolved reference: x"
    (5, r"^(?:error(?:\[E\d+\])?|fatal|panic|FATAL|ERROR|Error)(?: TS\d+)?\s*:"),
    (5, r"^npm ERR! (?:code|errno|404|missing|notarget|ERESOLVE)"),
    # CocoaPods': ``[!] CocoaPods could not find compatible versions for pod "FirebaseFirestore":``, and the reason
    # it gives below it, when it gives one: ``Specs satisfying the `…` dependency were found, but they required a
    # higher minimum deployment target.``
    (5, r"^\[!\] \S|^Specs satisfying the .* dependency were found, but they required\b"),
    (5, r"^ERROR! \S"),  # ansible's: "ERROR! couldn't resolve module/action 'community.postgresql.postgresql_db'"
    # molecule's, above its "WARNING  An error occurred during the test sequence action": ``CRITICAL Idempotence test
    # failed because of the following tasks:``
    (5, r"^CRITICAL\s+\S"),
    (5, r"^[\w.+-]+: (?:error|fatal|ERROR|FATAL)\s*:"),  # a program's own: "pg_dump: error: aborting because of …"
    (5, r"^\S+:\d+(?::\d+)?:\s*(?:fatal )?(?:error|Error)\b"),  # (dart's: "lib/a.dart:6:6: Error: …")
    # MSBuild's: "src/Api/Api.csproj : error NU1008: …", "Program.cs(12,5): error CS0103: …"
    # (its SDK's path may hold a space: ``C:\Program Files\dotnet\sdk\…\Microsoft.Common.CurrentVersion.targets(4869,5):
    # error MSB3027: …``, under a ``warning MSB3026`` about the same copy)
    (5, r"^(?:[A-Za-z]:\\[^:\n]*?|\S+)(?:\(\d+(?:,\d+)*\))?\s*:\s*(?:fatal )?error [A-Z]+\d+:"),
    # UnrealHeaderTool's: ``/home/dev/Skyreach/Source/Skyreach/Player/SkyPawn.h(9): Error: #include found after …``
    (5, r"^\S+\(\d+(?:,\d+)*\)\s*:\s*(?:fatal )?(?:error|Error)\b"),
    (4, r"\b(?:error TS\d+|SyntaxError|TypeError|ReferenceError):"),
    # yargs' under a command's usage: ``Missing required argument: dataSource``, ``Unknown arguments: dry-run``
    (4, r"^(?:Missing required arguments?|Not enough non-option arguments|Unknown arguments?|Invalid values?):\s*\S"),
    (4, r"^\S+:\d+:\d+: [CWEF]: "),  # rubocop's offense: "app/x.rb:1:1: C: Sorbet/StrictSigil: …"
    (4, r"^(?:E\s+)?(?:AssertionError|assert )"),
    (4, r"^#\s+Failed test\b"),  # TAP's (Perl's Test::More, node-tap): "#   Failed test 'total with 19% VAT'"
    # testthat's, above its "Error: Test failures": ``Failure (test-api.R:18:3): /health returns a scalar status``
    (4, r"^(?:Failure|Error) \([\w./-]+:\d+(?::\d+)?\): \S"),
    # go test's message from ``t.Errorf`` at its place: ``handlers_test.go:48: Content-Type = "text/plain…", want …``
    (4, r"^[\w.-]+_test\.go:\d+: \S"),
    # a program that could not start another: GHC's ``ghc-9.6.6: could not execute: hspec-discover`` under cabal's
    # "Failed to build"
    (4, r"^[\w.+-]+: could not (?:execute|exec|run|find)\b"),
    # a program refusing how it was called ("grep: unrecognized option: P" under a test's "… failed")
    (4, r"(?i)^[\w.-]+: (?:unrecognized|unknown|invalid|illegal) (?:option|argument|flag)\b"),
    # ``docker compose up --wait``'s verdict names the container that failed: ``container app-grafana-1 exited (1)``,
    # ``dependency failed to start: container app-db-1 is unhealthy``
    (4, r"\bcontainer [\w.-]+ (?:exited \(\d+\)|is unhealthy)"),
    # the LDAP tools', a result and its code: ``ldap_modify: Insufficient access (50)``, ``ldap_add: Invalid syntax
    # (21)``
    (4, r"^ldap_\w+: [A-Z][\w ]+ \(\d+\)"),
    (3, r"^FAILED \S+"),
    # a tool's own failure mark: electron-builder's ``⨯ wine is required, please see …`` above its "Above command
    # failed, retrying 2 more times"
    (3, r"^[⨯✖✗✘]\s+\S"),
    # a size over its limit: U-Boot's ``u-boot.bin exceeds file size limit:``, a bundle's "exceeds the size limit"
    (3, r"\bexceeds (?:the |its )?(?:file |maximum |max )?size limit\b"),
    (3, CHECK_FINDING),  # R CMD check's finding, not its verdict under them
    (3, r"^Invalid \w+"),  # the AWS CLI's: ``Invalid base64: "{"order_id":42,"status":"paid"}"``
    (3, r"(?i)\b(?:command not found|no such file or directory|permission denied|segmentation fault|"
        r"killed|out of memory|connection refused|timed? ?out|could not resolve|not found|does(?: not|n't) exist|"
        r"already exists|"
        r"no such tool|not available|unable to|no tests? (?:were |was )?(?:ran|run|collected)|"
        r"no (?:[\w-]+ ){1,3}(?:was |were )?found|"  # ("No test configuration file found!")
        # ("Authentication is required for gems.contribsys.com.")
        r"(?:authentication|authori[sz]ation|credentials?) (?:is |are )?required|access denied|unauthori[sz]ed|"
        # a shell's own ("./scripts/backup.sh: line 9: $2: unbound variable" under a bats test's "… failed")
        r"unbound variable|bad substitution|parameter null or not set|integer expression expected|"
        r"too many arguments|readonly variable)\b"),
    (2, r"(?i)\b(?:error|failed|failure|cannot|can't|couldn't|unable to|fatal)\b"),
)

_MASKS = (
    (r"\x1b\[[0-9;?]*[A-Za-z]", ""),  # ANSI colours
    (r"\b\d{4}-\d\d-\d\d[T ]\d\d:\d\d(?::\d\d(?:[.,]\d+)?)?(?:Z|[+-]\d\d:?\d\d)?", "<time>"),
    (r"\b\d\d:\d\d:\d\d(?:[.,]\d+)?\b", "<time>"),
    (r"\b\d{4}-\d\d-\d\d\b", "<time>"),
    (r"\b((?:https?|wss?|ftp)://[^/\s'\"]+)(?:/[^\s'\"]*)?", r"\1/<path>"),
    (r"(?:/tmp|/var/folders|/private/var|/var/tmp|[A-Za-z]:\\Users\\[^\\\s]+\\AppData\\Local\\Temp)"
     r"(?:[/\\][^\s'\":,)]*)?", "<tmp>"),
    (r"\b\d{1,3}(?:\.\d{1,3}){3}\b", "<ip>"),
    (r"(?<![\w.:/<])(?:[A-Za-z]:\\|~/|/)(?:[^\s'\":,()\[\]]+[/\\])*[^\s'\":,()\[\]]*", "<path>"),
    (r"\b0x[0-9a-fA-F]+\b", "<addr>"),
    (r"\b[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}\b", "<id>"),
    (r"\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,}\b", "<id>"),
    # toolu_…, req_…, msg_…; and with parts of its own, BigQuery's ``bqjob_r4c1e0a77b3f9d2e1_0000018fe2a1c4b0_1``
    (r"\b[a-z]+_[A-Za-z0-9]{16,}(?:_[A-Za-z0-9]+)*\b", "<id>"),
    (r"\b(line|lines|col|column|pid|port|thread|attempt)\s+\d+", r"\1 <n>"),
    # (and a decimal after a colon, a JSON log's ``"ts":1714641923.4410942``)
    (r":\d+(?:\.\d+|:\d+)?\b", ":<n>"),
    # numbers, except error codes: Errno 2, exit code 127, status 404, HTTP 500, signal 9
    (r"(?<![\w.<])(?<!Errno )(?<!code )(?<!status )(?<!HTTP )(?<!signal )(?<!exit )\d+(?:\.\d+)?(?:ms|s|m|h|KiB|MiB|GiB|kB|MB|GB|%)?(?![\w>])"
     r"(?! (?:Not|Bad|Internal|Service|Forbidden|Unauthorized|Gateway|Too|Conflict|Unprocessable|Payment|Method))", "<n>"),
    # MSBuild's project after its message, present or not by how the output was cut: ``… [/src/App/App.csproj]``
    (r"\s+\[<path>\]$", ""),
)

_MODULE_MESSAGES = (
    (r"(No module named )['\"]?[\w.]+['\"]?", r"\1'<mod>'"),
    (r"(cannot import name )['\"]?\w+['\"]? (from )['\"]?[\w.]+['\"]?(?: \(<path>\)| \([^)]*\))?", r"\1'<name>' \2'<mod>'"),
    (r"(Cannot find module )['\"][^'\"]+['\"]", r"\1'<mod>'"),
    (r"(Cannot find package )['\"][^'\"]+['\"]", r"\1'<mod>'"),
    (r"(Module not found: Error: Can't resolve )['\"][^'\"]+['\"]", r"\1'<mod>'"),
)


# a runner's line about the command it ran, the same whatever failed inside it (pnpm's ELIFECYCLE, yarn's "error
# Command failed", make's "*** [target] Error 2", npm ERR! lines): the error only when nothing else names one
_WRAPPER = (r"^(?:\S*\s*ELIFECYCLE\b|error Command failed with exit code \d+|g?make(?:\[\d+\])?: \*\*\* |"
            # SCons's (PlatformIO's) ``*** [upload] Error 2``, and a verdict that points at the error above it:
            # ``Uploading stage has failed, see errors above. Use `--without-uploading` option …``
            r"\*\*\* \[[^\]]+\] Error \d+|.*\bsee (?:the )?errors? above\b|"
            r"npm ERR! (?:code ELIFECYCLE|errno \d|Test failed|Failed at the|\S+@\S+ \S+: `)|"
            r"error: script \S+ exited with code|"
            # testthat's verdict under the failures it listed, and R CMD check's under its findings
            r"Error: Test failures\s*$|Error: R CMD check found (?:ERROR|WARNING|NOTE)s\s*$|"
            # cargo's and rustc's count of the errors above: ``error: could not compile `x` (bin "x") due to 6
            # previous errors``
            r"error: (?:could not compile `[^`]+`.*|aborting) due to (?:\d+ )?previous errors?|"
            # cargo's when a build script failed, its reason under "Caused by:" (``resource path
            # `binaries/ffmpeg-x86_64-unknown-linux-gnu` doesn't exist``)
            r"error: failed to run custom build command for\b|"
            # zig's report of its own compiler run: ``error: the following build command failed with exit code 1:``
            r"error: the following (?:build )?command (?:failed|exited|terminated)\b|"
            # SwiftPM's, after the compiler's errors above: ``error: fatalError``
            r"error: fatalError\s*$|"
            # gradle's and maven's verdicts: the same after every failing build
            r"BUILD FAILED\b|FAILURE: Build failed with an exception|\[ERROR\] BUILD FAILURE|"
            r"\[ERROR\] Failed to execute goal|Execution failed for task|"
            # Unreal's UnrealBuildTool's: ``Result: Failed (OtherCompilationError)``
            r"Result: Failed \(\w+\)\s*$|"
            # cabal's, under GHC's error or its missing preprocessor: ``Error: [Cabal-7125]`` ("Failed to build …")
            # (the older cabal's, after GHC's: ``Error: cabal: Failed to build ledgerline-0.2.0.``)
            r"Error: \[Cabal-\d+\]\s*$|"
            r"(?:Error: cabal: )?Failed to build \S+(?: from \S+)?(?: \(which is required by [^)]*\))?\.\s*$|"
            # flutter's, after gradle's: ``Error: Gradle task assembleDebug failed with exit code 1``
            r"Error: Gradle task \S+ failed with exit code \d+|"
            # automake's test-suite summary: ``# TOTAL: 5``, ``# FAIL: 1``, ``# ERROR: 0``
            r"#\s+(?:TOTAL|PASS|SKIP|XFAIL|FAIL|XPASS|ERROR):\s+\d+\s*$|"
            # a tally, the same words after every run: ``pass: 3, fail: 3, warn: 0, error: 0, skip: 0``
            r"\W*(?:[A-Za-z]+:\s*\d+,\s*){2,}|"
            # prove's summary: ``Failed test:  6``, ``Failed 1/8 subtests``
            # (and its reason for a file that died before its plan, whatever killed it: ``Parse errors: No plan found in
            # TAP output`` under ``Can't locate Test/Deep.pm in @INC``)
            r"Failed tests?:\s+[\d, -]+$|Failed \d+/\d+ subtests|Parse errors: No plan found in TAP output|"
            r"\S+\s+\(Wstat: \d+ |"
            # (and perl's own, under the error that stopped a file's compiling)
            r"BEGIN failed--compilation aborted\b|"
            # rspec's after a file failed to load: ``No examples found.``
            r"No examples found\.?$|"
            # node's test runner under a file that failed to load: ``✖ test/slugify.test.ts (41.2ms)`` then
            # ``'test failed'``
            r"'test failed'\s*$|"
            # dbt's summary after the errors it listed: ``Completed with 1 error and 0 warnings:``, ``Done. PASS=0
            # WARN=0 ERROR=1 SKIP=2 TOTAL=3`` (a timestamp before each)
            r"(?:[\d:.]+\s+)?(?:Completed with \d+ errors? and \d+ warnings?:|Done\. PASS=\d+ WARN=\d+ ERROR=\d+)|"
            # docker build's, after a RUN failed: ``ERROR: failed to solve: process "/bin/sh -c cargo build …" did not
            # complete successfully: exit code: 101``
            r"ERROR: (?:failed to solve: )?process \"[^\n]*\" did not complete successfully\b|"
            # git's after a hook or the remote turned a push down: ``error: failed to push some refs to '…'``
            r"error: failed to push some refs to\b|"
            # a CI runner's verdict on the job, after the step's error: GitLab's ``ERROR: Job failed: exit code 1``,
            # GitHub's ``##[error]Process completed with exit code 1.``
            r"ERROR: Job failed\b|(?:##\[error\])?Process completed with exit code \d+|"
            # tox's, after the command it ran failed: ``molecule: FAIL code 1 (24.11=setup[…]+cmd[1.84] seconds)``,
            # ``evaluation failed :( (24.20 seconds)``, ``molecule: exit 1 (1.84 seconds) /home/… pid=50213``
            r"[\w.-]+: FAIL code \d+ \(|evaluation failed :\(|[\w.-]+: exit \d+ \([\d.]+ seconds\) |"
            # Julia's Pkg.test, after the error above it: ``ERROR: Package TimeWindows errored during testing``,
            # ``ERROR: LoadError: Some tests did not pass: 21 passed, 0 failed, 1 errored, 0 broken.``
            r"ERROR: Package \S+ errored during testing|ERROR: LoadError: Some tests did not pass\b|"
            # snakemake's, around the error its job printed: ``RuleException:``, ``CalledProcessError in file
            # Snakefile, line 21:``, ``Error in rule summarise:``
            r"RuleException:\s*$|CalledProcessError in file .*, line \d+:\s*$|Error in rule [\w-]+:\s*$|"
            r"Exiting because a job execution failed\b|"
            # helm lint's: ``Error: 1 chart(s) linted, 1 chart(s) failed``
            r"Error: \d+ chart\(s\) linted, \d+ chart\(s\) failed|"
            # ``Tests:       1 failed, 1 passed, 2 total``, ``3 examples, 1 failure``
            r"\W*(?:[A-Za-z ]+:\s*)?\d+ (?:failed|passed|failures?|errors?|skipped|pending|failing|passing|"
            r"examples?|tests?)\b(?:,\s*\d+ \w+)+)")


def _compiled() -> dict:
    if not _state:
        _state["rules"] = [(score, re.compile(p)) for score, p in _ERROR_RULES]
        _state["masks"] = [(re.compile(p), r) for p, r in _MASKS]
        _state["modules"] = [(re.compile(p), r) for p, r in _MODULE_MESSAGES]
        _state["exit"] = re.compile(r"^Exit code (\d+)\s*$", re.M)
        _state["wrapper"] = re.compile(_WRAPPER)
        _state["spaces"] = re.compile(r"\s+")
        _state["gradle_heading"] = re.compile(r"A problem occurred (?:configuring|evaluating)|Could not resolve all")
        _state["frame"] = re.compile(r"^>?\s*\d+\s*\|")
        _state["buildkit"] = re.compile(r"^#\d+ (?:\d+\.\d+ +)?")
        # logcat's time, process, thread, level and tag before a message (``05-14 11:02:41.118  8812  8840 E
        # WM-WorkerFactory: java.lang.NoSuchMethodException: …``; ``E/AndroidRuntime( 8812): …``)
        _state["logcat"] = re.compile(r"^\d\d-\d\d \d\d:\d\d:\d\d\.\d+\s+\d+\s+\d+\s+[VDIWEF]\s+[^:]+:\s+|"
                                      r"^[VDIWEF]/[^(:]+\(\s*\d+\):\s+")
        # a heading that only names a kind of error, timestamps before it (``09:41:12    ERROR: Runtime Error``)
        _state["bare"] = re.compile(r"^(?:[\d:.\s]+)?(?:ERROR:?\s*)?[A-Z][a-z]+ Error(?: in \w+ [\w.]+)?\s*:?\s*$")
    return _state


def error_line(text: str) -> str | None:
    """The line of ``text`` that best names the error, or None; a runner's wrapper line only when no other does."""
    state = _compiled()
    best = {False: (None, 0), True: (None, 0)}  # the best line and its score, apart from and among wrapper lines
    lines = text.splitlines()
    if len(lines) > 400:  # the error is near the end, or in the first lines of a short failure
        lines = lines[:100] + lines[-300:]
    for raw in lines:
        line = raw.strip().lstrip("│┃╷╵ ")  # (terraform's boxed diagnostics: ``│ Error: Unsupported argument``)
        # (gradle's "What went wrong" items: ``> com.android.builder.testing.api.DeviceException: No connected …``)
        line = line[2:] if line.startswith("> ") else line
        # (BuildKit's step and time before a RUN's output: ``#11 44.90 error: set `DATABASE_URL` to use …``)
        line = state["buildkit"].sub("", line) if line.startswith("#") else line
        line = state["logcat"].sub("", line)
        if not line or len(line) > 2000 or line.startswith(("Traceback (most recent call last)", "During handling")):
            continue
        if line.startswith(("✓ ", "✔ ", "√ ")):
            continue  # a test that passed, by its name (``✓ returns 400 error when password is missing``)
        if line.startswith("at ") and re.fullmatch(r"at (?:\S+ \()?[\w./@$<>-]+:\d+(?::\d+)?\)?", line):
            continue  # a frame of a stack (``at console.error (node_modules/jest-fail-on-console/index.js:80:23)``)
        if state["frame"].match(line):
            continue  # a line of the code shown under an error (``> 1 | import { API_URL } from '@env';``, ``4 | …
            # timeout: 10000 })``): the code, whatever words it holds
        if line.startswith("Exit code ") and state["exit"].match(line):
            continue
        if line.startswith(("[error] Total time:", "[ERROR] Total time:", "[ERROR] [Help ", "[ERROR] -> [Help ",
                            "[ERROR] To see the full stack trace", "[ERROR] Re-run Maven", "[ERROR] For more "
                            "information about the errors", "[ERROR] After correcting the problems")) \
                or line in ("[ERROR]", "[error]") \
                or re.match(r"npm (?:error|ERR!) A complete log of this run can be found in", line):
            continue  # sbt's, maven's and npm's footer, the same after every failure
        wrapper = bool(state["wrapper"].match(line))
        best_score = best[wrapper][1]
        for score, pattern in state["rules"]:
            if score < best_score:
                break
            if pattern.search(line):
                if score >= best_score:
                    best[wrapper] = (line, score)
                break
    line = best[False][0] or best[True][0]
    # gradle's "What went wrong:" gives the reason under a heading that only says where (``A problem occurred
    # configuring project ':app'.`` then ``> Starting in Kotlin 2.0, the Compose Compiler Gradle plugin is
    # required``): the reason, where no line names an error better
    weak = max(best[False][1], best[True][1]) < 5  # (no line names an error better than a bare heading)
    if weak and "* What went wrong:" in text:
        said = text.split("* What went wrong:", 1)[1].strip().splitlines()
        heading = said[0].strip() if said else ""
        reason = said[1].strip()[2:].strip() if len(said) > 1 and said[1].strip().startswith("> ") else ""
        if reason and state["gradle_heading"].match(heading):
            return reason
    def below(line: str) -> list[str]:  # (the lines under the last that holds ``line``)
        return lines[next(i for i in range(len(lines) - 1, -1, -1) if line in lines[i]) + 1:]

    def under(line: str) -> str:  # (the first of them with words)
        return next((l.strip() for l in below(line) if l.strip()), "")

    # (jest-fail-on-console's heading and its advice, then what was logged: "ReactDOM.useFormState has been renamed
    # to React.useActionState. …")
    advice = next((l for l in lines if re.match(r"\s*If the \w+ is expected, test for it explicitly", l)), None)
    if advice and line and (line.strip() == advice.strip() or line.startswith("Expected test not to call console.")):
        message = under(advice)
        if len(message.split()) >= 4 and not message.startswith("at "):
            return message
    # (jest's heading over a suite that could not load: ``● Test suite failed to run``, then why,
    # "draft-js-export-html tried to access immutable, but it isn't declared in its dependencies")
    if line and re.fullmatch(r"●\s+Test suite failed to run", line.strip()):
        message = under(line)
        if len(message.split()) >= 4 and not message.startswith(("at ", "Require stack", ">")):
            return message
    # (an API's errors listed under their heading, Vault's ``Code: 400. Errors:`` then ``* common name
    # api.internal.acme.dev not allowed by this role``)
    listed = re.search(r"(?m)^.*\bErrors:\s*\n(?:\s*\n)*\s*\*\s+(\S[^\n]*)", text)
    if listed and (not line or weak):
        return listed.group(1).strip()
    # (a Rust panic, since 1.73, says where on its line and what under it: ``thread 'main' panicked at …/builder.rs:519:
    # 13:`` then ``task tracing requires Tokio to be built with RUSTFLAGS="--cfg tokio_unstable"!``)
    panic = re.search(r"(?m)^thread '[^'\n]*' panicked at [^\n]*:\d+:\d+:\s*\n\s*(\S[^\n]*)", text)
    if panic and (not line or weak):
        return f"panicked: {panic.group(1).strip()}"
    # (an exception raised with no message on its line, Pulumi's ``pulumi.automation.errors.CommandError:`` over
    # `` code: 255`` and `` stderr: error: getting secrets manager: passphrase must be set …``: the error under it)
    if line and re.fullmatch(r"[\w.]+(?:Error|Exception):", line.strip()):
        told = next((m.group(1) for l in below(line)[:6] if (m := re.search(r"\b(error:\s*\S.*)", l.strip()))),
                    None)
        if told:
            return f"{line.strip()} {told}"
    # (curl's ``--fail-with-body`` verdict under the answer that says why: ``{"reason":"BadDeviceToken"}`` then
    # ``curl: (22) The requested URL returned error: 400``)
    refused = re.fullmatch(r"curl: \(22\) The requested URL returned error: (\d{3})", (line or "").strip())
    why = refused and re.search(r'"(?:reason|message|error|error_description|detail)"\s*:\s*"([^"\n]{3,200})"', text)
    if why:
        return f"HTTP {refused.group(1)}: {why.group(1)}"
    # a heading that only names a kind of error (dbt's ``ERROR: Runtime Error``, ``Compilation Error in model x``):
    # the message is the line under it
    if line and state["bare"].search(line):
        message = under(line)
        if len(message.split()) >= 4 and not state["bare"].search(message):
            heading = re.sub(r"^[\d:.]+\s+", "", line).rstrip(" :")  # (less its timestamp)
            return f"{heading}: {message}"
    return line


def is_wrapper_line(line: str) -> bool:
    """Whether ``line`` is a runner's line about the command it ran, the same whatever failed inside it."""
    return bool(_compiled()["wrapper"].match(line))


def normalise(line: str) -> str:
    """``line`` with machine- and run-specific parts masked."""
    state = _compiled()
    for pattern, replacement in state["modules"]:
        line = pattern.sub(replacement, line)
    for pattern, replacement in state["masks"]:
        line = pattern.sub(replacement, line)
    line = state["spaces"].sub(" ", line).strip()
    if line.startswith("E "):
        line = line[2:].lstrip()  # pytest's marker for the raising line
    if len(line) > MAX_LENGTH:
        # (its head and its end: a wrapped error says what failed last, ``ERROR error building site: render: … at
        # <…>: error calling PostCSS: … Cannot find module 'autoprefixer'``, the same head over another cause)
        line = line[: MAX_LENGTH // 2 - 1] + "…" + line[-(MAX_LENGTH // 2):]
    return line


def error_signature(text: str | None, command: str | None = None) -> str | None:
    """A normalised one-line signature of the failure in ``text``, or None when nothing names one.

    With no error line but an ``Exit code N`` (Claude Code's failure text), the
    signature is the program and its exit status: ``pytest: exit code 1``.
    """
    if not text:
        return None
    line = error_line(text)
    if line:
        return normalise(line)
    match = _compiled()["exit"].search(text)
    if match:
        program = _program(command) if command else None
        return f"{program + ': ' if program else ''}exit code {match.group(1)}"
    return None


def _program(command: str) -> str | None:
    """The program a shell command runs: ``cd x && python -m pytest -q`` gives ``python -m pytest``."""
    for part in re.split(r"&&|\|\||;|\|", command):
        words = [w for w in part.strip().split() if "=" not in w or w.startswith("-")]
        while words and words[0] in ("sudo", "env", "time", "exec", "nohup", "command"):
            words = words[1:]
        # (nor a wait: ``sleep 5 && curl … | jq -e …`` is curl's failure)
        if not words or words[0] in ("cd", "export", "source", ".", "set", "echo", "true", "sleep"):
            continue
        program = words[0].rsplit("/", 1)[-1]
        if program.startswith("python") and len(words) > 2 and words[1] == "-m":
            program = f"python -m {words[2]}"
        elif program in ("npm", "yarn", "pnpm", "cargo", "go", "uv", "poetry", "make", "docker", "git") and len(words) > 1:
            program = f"{program} {words[1]}"
        return program
    return None
