"""The steps of a session's timeline: what changed the project or its environment, and what was a check.

An install of what an error names, a service start, a generate or migrate step, a pull of other people's changes,
a command the agent names as the project's way; and the checks, MCP calls included, with their outcome.
"""
from __future__ import annotations

import functools
import os
import re

from .account import _code_spans, _prose, _sentences
from .commands import (_MUTATING, _PACKAGE_RUNNERS, _POWERSHELL, _PROBE, _REMOTE, _and_steps, _asks_version,
                       _inline_code, _interpreter_code, _program_name, _segments, _words, command_family, command_job,
                       command_key, counting_search, invocation_change, is_autofix, package_name, parse_command)
from .events import EDIT_TOOLS
from .quality import LazyRegex
from .text import elided_heads, one_line

# a step that generates or migrates what a check needs (``prisma generate``, ``alembic upgrade head``)
_PREREQUISITE = LazyRegex(r"(?x)(?:^|[\s:])(?:generate|codegen|migrate|db:(?:migrate|setup|prepare|seed)|seed|"
                          r"bootstrap|login)\b|alembic\s+(?:upgrade|merge|revision)|"
                          # (or an organization's credentials stored: ``rebar3 hex organization auth acme --key …``,
                          # ``mix hex.organization auth acme``)
                          r"\borganization\s+auth\b|"
                          r"prisma\s+(?:generate|migrate|db\s+push)|"
                          r"protoc\b|buf\s+generate|sqlc\s+generate|go\s+generate|composer\s+dump-?autoload\b|"
                          # autotools' generated ``configure``: ``./autogen.sh``, ``autoreconf -fi``
                          r"(?:^|[\s:/])(?:autogen(?:\.sh)?|autoreconf)\b|"
                          # native modules built again for the runtime that loads them: ``npx @electron/rebuild -f -w
                          # better-sqlite3``, ``node-gyp rebuild``
                          r"(?:^|[\s/])(?:electron-rebuild|@electron/rebuild|node-gyp\s+rebuild)\b")
# a step that starts a service a check talks to (``make search-up``, ``memcached -d``, ``docker run -d …``)
_STARTS_SERVICE = LazyRegex(r"(?x)(?:^|[\s:-])(?:up|start|restart|serve)\b|--daemoni[sz]e|\bdaemon\b|"
                            r"\b(?:docker|podman)\s+run\b.*\s-d\b|\bservices?\s+start\b|\bsystemctl\s+start\b")
# a failure that says a service was not there to answer
_UNREACHABLE = LazyRegex(r"(?i)ECONNREFUSED|connection refused|(?:could not|couldn't|can't|cannot|failed to|unable to) "
                         r"connect|is (?:the server |it )?(?:not )?running|not running|no such host|unreachable|"
                         r"could not translate host|getaddrinfo|Connection reset|valid Docker environment|"
                         r"docker daemon|\.sock\b")
# "run `bundle install`", "Did you run 'make codegen'?", "To fix this, run:\n  ./scripts/setup"
# (or asked, unquoted: packer's "Did you run packer init for this project ?")
_NAMED_STEP = LazyRegex(r"(?i)\b(?:run|try|execute)\b\s*:?\s*(?:[`'\"]([^`'\"\n]{3,100})[`'\"]|\n\s*([^\n]{3,100}))|"
                        r"\bdid you (?:forget to )?run ([\w.:/-]+(?: [\w.:/-]+){0,2}?)(?= for\b| first\b| before\b|\s*\?)")


# a subcommand that only reads: ``vault token lookup``, ``helm get values``, ``npm view``, ``cargo tree``
_READ_VERBS = frozenset(("lookup", "show", "status", "list", "ls", "describe", "inspect", "info", "view", "whoami",
                         "version", "diff", "log", "logs", "history", "search", "explain", "tree",
                         # (what a build graph holds: ``bazel query @protobuf//:protoc``)
                         "query", "cquery", "aquery",
                         # (what is attached or installed: ``adb devices``, ``flutter doctor``, ``board details``)
                         "devices", "doctor", "details",
                         # (how a service is doing: ``rpk cluster health``, ``redis-cli ping``)
                         "health", "ping"))


# a subcommand that changes a tool's settings or state (``config:set``, ``module:enable``, ``indexer:reindex``)
_WRITE_VERBS = frozenset(("set", "unset", "enable", "disable", "create", "apply", "put", "delete", "import",
                          "reset", "clear", "flush", "rebuild", "reindex", "compile", "scale", "patch", "rollout",
                          "upgrade", "rollback"))


# a statement given to a database client that changes the server's settings, roles or extensions (not a session's
# own ``SET search_path``: it ends with the client)
_SETTING_WRITTEN = LazyRegex(r"(?i)^\s*(?:SET\s+(?:CLUSTER\s+SETTING|GLOBAL|PERSIST)\b|"
                             r"ALTER\s+(?:SYSTEM|DATABASE|ROLE|USER)\b|CREATE\s+(?:EXTENSION|ROLE|USER)\b|"
                             r"GRANT\b|REVOKE\b)")


# servers whose ``-t`` only tests their configuration (haproxy's ``-c``)
_CONFIG_TESTING_SERVERS = frozenset(("lighttpd", "nginx", "apachectl", "apache2ctl", "httpd", "sshd", "haproxy",
                                     "postfix", "squid", "varnishd"))


def _tests_config_only(command: str) -> bool:
    """Whether the line's check is a server told only to test its configuration (``lighttpd -t -f
    conf/lighttpd.conf``, ``nginx -t``, ``haproxy -c -f …``): it starts nothing and changes nothing."""
    argv = parse_command(command)["argv"]
    name = _program_name(argv[0]) if argv else ""
    return name in _CONFIG_TESTING_SERVERS and bool(
        {"-t", "-tt", "configtest"} & set(argv[1:]) or name == "haproxy" and "-c" in argv[1:])


def _is_change(observation: dict, failure: dict | None = None, account: str = "") -> bool:
    """Whether an observation changed the project or its environment: an edit, a command that installs,
    writes, generates, migrates or starts a service, or a command the failure's own message told to run or the
    agent's final account quotes as what it ran."""
    if observation["outcome"] != "ok":
        return False
    if observation["tool"] in EDIT_TOOLS:
        return True
    if _is_mcp(observation):  # a call that changes the failing MCP server's state (``activate_project``)
        server = observation["tool"].split("__")[1] if observation["tool"].count("__") >= 2 else None
        return bool(failure is not None and server and failure["tool"].startswith(f"mcp__{server}__")
                    and _MCP_STATEFUL.search(observation["tool"].split("__", 2)[-1]))
    if observation["tool"] != "Bash":
        return False
    command = observation.get("target") or ""
    if _installed_nothing(observation):
        return False  # ``sudo apt-get install -y libsdl2-2.0-0``: "already the newest version", 0 newly installed
    # (a ``touch`` that could not touch wrote nothing: ``sh -c 'pwd; id; touch probe; ls -ld /app /tmp'`` printing
    # "touch: cannot touch 'probe': Read-only file system" asked whether the place is writable)
    if re.search(r"(?m)^touch: cannot touch\b", observation.get("body") or ""):
        command = re.sub(r"\btouch\s+[^;&|'\"]*", "", command)
    parsed = parse_command(command)
    # (not a tool asked its version, quoted as what it said: "`ghc --version` here is 9.8.2")
    if any((_quoted_in(step, account) or _named_as_the_way(step, account)) and not _asks_version(step)
           for step in parsed["prep"]):
        return True  # ``bin/rails stimulus:manifest:update && head -8 …``: the step the account quotes changed it
    check = parsed["check"]
    # (not the namespace it names: ``kubectl -n falco rollout status ds/falco`` asks a status)
    argv = [w for n, w in enumerate(parsed["argv"]) if not (n and parsed["argv"][n - 1] in ("-n", "--namespace",
                                                                                          "--context"))]
    verbs = [w for w in argv[1:4] if not w.startswith("-")][:2]
    # (a read verb that names what a write verb after it changes is no look: ``mc version enable dr/events-dr``;
    # ``kubectl rollout status`` is)
    reads = any(w in _READ_VERBS and not set(verbs[n + 1:]) & _WRITE_VERBS for n, w in enumerate(verbs))
    # (a word of what it looks for is no write: ``grep -n -A3 '^migrate' Makefile``)
    # (or looks one after another: ``which protoc || echo missing``)
    if (_LOOKING.match(parsed["family"] or check) or reads) \
            and not _MUTATING.search(re.sub(r"'[^']*'|\"[^\"]*\"", "", command)) \
            and (len(parsed["segments"]) == 1 or all(_LOOKING.match(parse_command(segment)["family"] or segment)
                                                      for segment in parsed["segments"])) \
            and not any(re.search(r"[|>]", re.sub(r"'[^']*'|\"[^\"]*\"", "", segment))
                        for segment in parsed["segments"]):
        # a look (``grep -rn "bootstrap" src``, ``vault token lookup``) changes nothing, whatever words it holds (but
        # a pipe into another program is no look: ``echo "$TOKEN" | helm registry login …`` is the login; a quoted
        # pattern's ``\|`` is no pipe: ``grep -rn 'prisma generate\|postinstall' package.json``)
        return False
    if _tests_config_only(command):
        return False  # ``lighttpd -t -f conf/lighttpd.conf``: the configuration read, nothing started or written
    if re.fullmatch(r"\S+(?:\s+(?:-l|--list|-T|--tasks|-h|--help))+", command.strip()):
        return False  # ``mage -l``, ``rake -T``: what there is to run, listed, whatever the account says of the tool
    if re.search(r"\|\s*(?:\w+=\S+\s+)*(?:terraform|tofu)\s+console\b", command) and not _MUTATING.search(command):
        return False  # ``echo 'keys(var.private_subnets)' | tofu console``: an expression evaluated, nothing written
    if len(parsed["segments"]) == 1 and _asks_version(parsed["segments"][0]) and not _MUTATING.search(command):
        return False  # ``ansible --version | head -3``: a tool asked what it is (its config file, its version)
    if _VERIFIES_ONLY.match(check) and not _MUTATING.search(command):
        # ``codesign --verify --deep --strict build/App.app``, ``spctl -a -vvv -t exec …``: a signature checked, not
        # made, whatever the account says of it ("`codesign --verify` looked fine all along")
        return False
    if _GIT_CONFIG_SET.search(command):
        return True  # ``git config --global url."https://…".insteadOf "ssh://git@github.com/"``: a setting written
    # (a tool's own ``config`` given a key and its value: ``composer config --auth gitlab-token.gitlab.acme.io …``,
    # ``poetry config virtualenvs.in-project true``; not one asked for a key, ``npm config get registry``)
    given = [w for w in parsed["argv"][2:] if not w.startswith("-")] if parsed["argv"][1:2] == ["config"] else []
    if len(given) >= 2 and given[0] not in ("get", "list", "ls", "show", "edit"):
        return True
    if _GIT_FETCHES_FILES.search(command):
        return True  # ``git submodule update --init --recursive``: the files a fresh clone lacked, fetched
    # (a file the failure could not find, staged: a Nix flake sees only what git tracks, "path '/nix/store/…-source/
    # nix/overlay.nix' does not exist" until ``git add nix/overlay.nix``)
    staged = [w for w in parsed["argv"][2:] if not w.startswith("-")] if parsed["argv"][:2] == ["git", "add"] else []
    if failure is not None and any(re.search(rf"/{re.escape(w.strip('./'))}' does not exist|/{re.escape(w.strip('./'))}"
                                             rf"\b[^\n]*(?:not found|does not exist|no such file)",
                                             failure.get("error_text") or "") for w in staged):
        return True
    if _throwaway_container(command):
        return False  # ``docker create --name gw-tmp … && docker cp gw-tmp:/bin/x /tmp/x && docker rm gw-tmp && file …``
    # (a program's own code, in a heredoc or after ``-c``, is no shell word: ``for seed in (0, 7, 42)`` seeds nothing)
    code = _interpreter_code(parsed["argv"])
    shell = re.sub(r"<<.*$", "", check.replace(code, "") if code else check, flags=re.S)
    if _MUTATING.search(command) or _PREREQUISITE.search(shell) or command_job(command) == "install" \
            or is_autofix(command):  # (a formatter or a linter's --fix rewrites the code)
        return True
    # a tool told to change its settings or state: ``bin/magento config:set …``, ``gcloud config set``; or by a verb
    # of its own that says so: ``gcloud iam service-accounts add-iam-policy-binding …``, ``aws iam attach-role-policy
    # …``, ``aws s3api put-bucket-policy …``
    # (asked last: a line with no program has neither)
    # (an update that sets something, ``zenml artifact-store update s3_staging --authentication_secret=…``; not one
    # that sends the same sources again, ``fission package update --name … --src pkg.zip``)
    if ({v.rsplit(":", 1)[-1] for v in verbs} & _WRITE_VERBS
            or "update" in verbs and any(w.startswith("--") and "=" in w for w in argv)
            or any(re.fullmatch(r"(?:add|set|put|remove|grant|revoke|create|update|delete|enable|disable|attach|"
                                r"detach|assign|register)-[a-z]+(?:-[a-z]+)*", w) for w in argv[1:5])) \
            and _program_name(parsed["argv"][0]) not in ("git", "gh"):
        return True
    statement = (_inline_code(command) or "").strip().rstrip(";").strip()
    if _SETTING_WRITTEN.search(statement) and any(" ".join(span.split()).rstrip(";") == " ".join(statement.split())
                                                   for span in _code_spans(account)):
        # ``cockroach sql -e "SET CLUSTER SETTING kv.rangefeed.enabled = true;"``: the server's settings, the
        # statement quoted as what was needed (not an ``ALTER SYSTEM`` tried on the way and never told)
        return True
    if _starts_service(command) and failure is not None and _UNREACHABLE.search(failure.get("error_text") or ""):
        return True  # a service started after a failure that says it could not reach one
    if failure is not None and _wrote_the_missing_file(observation, failure):
        return True  # ``ci_post_clone.sh`` printing "File written: Harbor/Generated/Strings+Generated.swift"
    if _FILE_WRITTEN.search(observation.get("body") or "") \
            and _program_name((parsed["argv"] or [""])[0]) not in ("git", "gh"):
        return True  # a generator saying what it wrote: ``Rcpp::compileAttributes()``'s "…/RcppExports.cpp updated."
    if _upstream_sync(observation):
        return True  # other people's changes pulled in: the code changed, though not by this session
    return failure is not None and _named_by_error(command, failure) or _quoted_in(command, account) \
        or _named_as_the_way(command, account)


# a package manager saying it installed nothing: apt's tally, dnf's "Nothing to do.", Homebrew's "already installed
# and up-to-date", pip's "Requirement already satisfied" (with nothing after it installed)
_NOTHING_INSTALLED = LazyRegex(r"(?m)^0 upgraded, 0 newly installed\b|^Nothing to do\.$|"
                               r"is already installed and up-to-date\b|^Requirement already satisfied\b")
_SOMETHING_INSTALLED = LazyRegex(r"(?m)^Successfully installed\b|^Setting up\b|^Installed:$|^==> Pouring\b")


def _installed_nothing(observation: dict) -> bool:
    """Whether the line only installs, and its package manager said nothing was installed: it changed nothing."""
    body = observation.get("body") or ""
    if not _NOTHING_INSTALLED.search(body) or _SOMETHING_INSTALLED.search(body):
        return False  # (read first: most lines say neither, and their jobs need not be worked out)
    segments = parse_command(observation.get("target") or "")["segments"]
    return bool(segments) and all(command_job(segment) == "install" for segment in segments)


# a signing tool asked to check or show a signature, not to sign (no ``-s``/``--sign``)
_VERIFIES_ONLY = LazyRegex(r"^(?:codesign\s+(?:(?:-[a-z]*[vd][a-z]*|--verify|--display|--deep|--strict|"
                           r"--verbose(?:=\d)?|-R\S*)\s+)+(?!.*\s(?:-[a-z]*s[a-z]*|--sign)\b)|spctl\s+(?:-a|--assess)\b)")


# git told to write a setting: a key and its value (not ``--get``, ``--list``, a key alone)
_GIT_CONFIG_SET = LazyRegex(r"(?:^|[;&|]\s*)git\s+config\s+(?:--(?:global|system|local|add|replace-all)\s+)*"
                            r"(?!-)(?:\S+|\"[^\"]*\")\s+(?:\S+|\"[^\"]*\")")


# git told to fetch the project's files a clone leaves out: its submodules, its LFS objects
_GIT_FETCHES_FILES = LazyRegex(r"(?:^|[;&|]\s*)git\s+(?:submodule\s+(?:update|init|sync)|lfs\s+(?:pull|checkout|"
                               r"fetch))\b")


def _throwaway_container(command: str) -> bool:
    """Whether a line makes a container only to look inside it and removes it again (``docker create --name gw-tmp
    img && docker cp gw-tmp:/ingest-gateway /tmp/gw && docker rm gw-tmp && file /tmp/gw``): it leaves nothing."""
    made = re.search(r"\b(?:docker|podman)\s+(?:container\s+)?(?:create|run)\b[^|;&]*?--name[= ](\S+)", command)
    return bool(made) and re.search(rf"\b(?:docker|podman)\s+(?:container\s+)?rm\s+(?:-\w+\s+)*{re.escape(made.group(1))}\b",
                                    command) is not None


# a step that brings in other people's changes: a pull, a merge or rebase onto another branch, a switch of branch
_UPSTREAM = LazyRegex(r"(?x)^git\s+(?:pull\b|merge\s+(?!--abort)|rebase\s+(?!--abort|--continue|--skip|-i\b)|"
                      r"reset\s+--hard\s+\S*(?:origin|upstream)/|switch\s+(?!-c\b)\S|checkout\s+(?!-b\b|--\s|\.)\S)")
_UPSTREAM_OUTPUT = LazyRegex(r"(?i)Fast-forward|Updating [0-9a-f]+\.\.[0-9a-f]+|\d+ files? changed|Merge made by|"
                             r"Successfully rebased|Switched to (?:a new )?branch|HEAD is now at")
# a package install and the packages it names (``apt-get install -y libssl-dev``, ``pip install requests==2.31``)
_INSTALL = LazyRegex(r"(?x)(?:^|\s)(?:apt(?:-get)?|brew|dnf|yum|apk|pacman|zypper|port|choco|winget|pip3?|uv\s+pip|"
                     r"uv|poetry|npm|yarn|pnpm|bun|gem|cargo|go|composer|conda|mamba)\s+(?:install|add|get|-S)\b(.*)$")


# a step of a line that only waits or looks (``sleep 3``, ``docker compose ps``, ``ls``): no part of what to do
_LOOKING = LazyRegex(r"^(?:sleep|ls|cat|echo|printf|head|tail|grep|rg|wc|true|pwd|which|env|date|tree|"
                     r"\S+(?: compose)? (?:ps|status|logs|version|list|ls|info|show|inspect)|(?:kubectl|oc|helm) "
                     r"(?:get|describe))$")


_MISSING_FILE = LazyRegex(r"(?i)(?:cannot be found|not found|no such file|does not exist|missing)[^\n]{0,40}?"
                          r"['\"`]?([^\s'\"`]*/)?([\w.+-]{6,}\.\w{1,8})['\"`]?|['\"`]([^'\"`\s]*/)?([\w.+-]{6,}\.\w{1,8})"
                          r"['\"`]?[^\n]{0,20}?(?:cannot be found|not found|does not exist|is missing)")


# a line of a run's output that says it wrote a file, by the file's name: "/home/dev/rdist/src/RcppExports.cpp
# updated.", "Wrote src/gen/api.ts", "File written: Harbor/Generated/Strings+Generated.swift"
_FILE_WRITTEN = LazyRegex(r"(?im)^\s*(?:\S*/)?[\w.+-]+\.\w{1,8} (?:updated|written|regenerated|generated)\.?\s*$|"
                          r"^\s*(?:Wrote|Writing|Generated|Regenerated|Updated|File written:)\s+"
                          r"['\"]?\S+\.\w{1,8}['\"]?\s*$")


def _wrote_the_missing_file(observation: dict, failure: dict) -> bool:
    """Whether a passing command says it wrote a file the failure could not find (swiftgen's "File written:
    Harbor/Generated/Strings+Generated.swift" for xcodebuild's "Build input file cannot be found: '…/Harbor/
    Generated/Strings+Generated.swift'"): it generated what was missing."""
    names = {m.group(2) or m.group(4) for m in _MISSING_FILE.finditer(failure.get("error_text") or "")}
    body = observation.get("body") or ""
    return any(re.search(rf"(?im)^.*\b(?:written|wrote|generated|created|saved)\b.*(?<![\w.+-]){re.escape(name)}\b",
                         body) for name in names if name)


def _doing_part(command: str) -> str:
    """``command`` without the steps that only wait or look: ``docker compose --profile db up -d db && sleep 3 &&
    docker compose ps db`` is ``docker compose --profile db up -d db``."""
    segments = _and_steps(command)
    if not segments:
        return command
    doing = [s for s in segments if not _LOOKING.match(parse_command(s)["family"] or s)
             or _MUTATING.search(s) or command_job(s) == "install"]
    return " && ".join(doing) if doing and len(doing) < len(segments) else command


def _packages(command: str) -> set[str]:
    """The packages a line adds or installs, by name without their versions (``rye add --dev "httpx<0.28"`` →
    ``{"httpx"}``)."""
    match = re.search(r"\b(?:add|install|get|require)\b(.*)$", parse_command(command)["check"])
    words = _words(match.group(1)) if match else []
    # (not a file installed by its path: ``adb install -r app/build/outputs/apk/…/app-kiosk-release.apk``)
    # (a scoped one too: ``npm i -D @vitest/coverage-v8``)
    return {package_name(w) for w in words if not w.startswith("-") and re.match(r"[\"']?@?[A-Za-z]", w)
            and not ("/" in w and re.search(r"\.[A-Za-z]{2,5}[\"']?$", w))}


_UNINSTALL = LazyRegex(r"^(?:sudo\s+)?(?:pip3?|python3?\s+-m\s+pip|uv\s+pip|npm|yarn|pnpm|bun|gem|cargo|apt(?:-get)?|"
                       r"brew|conda|mamba)\s+(?:uninstall|remove|rm|purge)\b(.*)$")


def _uninstalled(command: str) -> set[str]:
    """The packages a line takes out (``pip uninstall -y serial && pip install -r …`` → ``{"serial"}``)."""
    return {package_name(w) for segment in parse_command(command)["segments"]
            if (m := _UNINSTALL.match(" ".join(segment.split()))) for w in m.group(1).split() if not w.startswith("-")}


def _adds_with_another_tool(failure: dict, later: dict, packages: set[str]) -> bool:
    """Whether ``later`` is another program given every package the failing line added (``yarn add chart.js`` →
    ``bin/importmap pin chart.js``), and not a look at them (``npm view left-pad``)."""
    before, after = parse_command(failure["target"]), parse_command(later["target"])
    if not after["argv"] or _program_name(after["argv"][0]) == _program_name(before["argv"][0]) \
            or _LOOKING.match(after["family"]):
        return False
    return packages <= {package_name(w) for w in after["argv"][1:] if not w.startswith("-")}


def _starts_service(command: str) -> bool:
    """Whether a step of the line starts a service (``docker compose --profile db up -d db && sleep 3 && …``), here
    or on the machine it runs on over ssh (``ssh nas-gw.lan 'cd /opt/nas-gateway && docker compose up -d ganesha'``)."""
    remote = _REMOTE.match(command.strip())
    if remote:
        return _starts_service(remote.group(3))
    return any(_STARTS_SERVICE.search(parse_command(segment)["check"]) for segment in _segments(command))


# a step that takes away what was left running on this machine: a container, a process holding a port
_CLEARS_LOCAL = LazyRegex(r"(?x)^(?:sudo\s+)?(?:(?:docker|podman)(?:\s+container)?\s+(?:rm|kill|stop)\b|"
                          r"(?:docker|podman)[\s-]compose\s+(?:rm|kill|stop|down)\b|kill\b|pkill\b|killall\b|"
                          r"fuser\s+-k\b|adb\s+kill-server\b|"
                          # (simulators and emulators left booted: ``xcrun simctl shutdown all``, ``adb emu kill``)
                          r"(?:xcrun\s+)?simctl\s+(?:shutdown|erase)\b|adb(?:\s+-s\s+\S+)?\s+emu\s+kill\b|"
                          # (an emulator started again with its data wiped: ``emulator -avd Pixel_6_API_33 -wipe-data``)
                          r"emulator\b.*\s-wipe-data\b|"
                          # (Windows': ``taskkill //PID 11284 //F``, ``Stop-Process -Name AcmeSetup``)
                          r"taskkill(?:\.exe)?\b|Stop-Process\b|"
                          # (a stuck operation or a job left from it: ``argocd app terminate-op payments-api``,
                          # ``kubectl -n payments delete job payments-db-migrate``)
                          r"argocd\s+app\s+terminate-op\b|kubectl\b.*\sdelete\s+(?:jobs?|pods?|job\.batch)(?:/|\s)|"
                          # (another project's local stack: ``npx supabase stop --project-id invoice-tool``)
                          r"(?:npx\s+|bunx\s+|pnpm\s+(?:exec\s+|dlx\s+)?)?supabase\s+stop\b|"
                          # (a network interface left up: ``sudo wg-quick down wg0 && sudo wg-quick up wg0``)
                          r"wg-quick\s+down\b|ip\s+link\s+(?:delete|del)\b|"
                          # (a system container or VM that lost its lease at boot, restarted: ``lxc restart web01``)
                          r"(?:lxc|incus)\s+(?:restart|stop)\b|virsh\s+(?:reboot|reset|destroy)\b|"
                          # (a database's own: ``psql … -c "select pg_terminate_backend(48213)"``)
                          r"(?:psql|mysql)\b.*\b(?:pg_terminate_backend|pg_cancel_backend|KILL)\b)")
# the account says the thing in the way was left over on this machine, not part of the project
_LEFT_OVER = LazyRegex(r"(?i)\b(?:old|stale|leftover|left (?:over|running|behind)|stray|orphan(?:ed)?|zombie|lingering|"
                       r"you had running|still (?:running|listening|bound|alive|booted|up) (?:from|on|to|and)\b|"
                       # ("`invoicing-pgbouncer-1` from your other project was still up on port 6432")
                       r"from (?:your|an|the) other (?:project|checkout|repo|worktree|stack)|"
                       r"from another (?:project|checkout|repo|worktree|stack)|"
                       r"(?:was|were) (?:still )?(?:holding|squatting on|occupying|hogging)|(?:was|were) still held|"
                       # ("The 46mm watch simulator was stuck in 'Shutting Down'")
                       r"(?:was|were|got) stuck (?:in|at|on)|"
                       # ("the simulator was wedged: two clone devices from an earlier parallel run were still booted")
                       r"(?:was|were|got) wedged|from an? (?:earlier|previous|prior) (?:[\w-]+ )?(?:run|session|build)|"
                       # ("The simulator was in a bad state — SpringBoard kept refusing to launch the test runner")
                       r"(?:was|were|got) (?:left )?in an? (?:bad|broken|weird|wedged|stuck|corrupt(?:ed)?) state|"
                       # ("The emulator's /data partition was 99% full")
                       r"(?:was|were) (?:\d+% |almost |nearly )?full)\b")


# the account says a service the project uses had stopped by itself and was only started again
_STOPPED_BY_ITSELF = LazyRegex(r"(?i)\bhad (?:simply |just |merely )?(?:been )?(?:stopped|exited|crashed|died|gone down|"
                               r"killed|OOM-?killed|dropped|hung|stalled|wedged)\b|"
                               r"\bafter (?:a|the) (?:host |machine |server )?reboot\b|"
                               # ("Traefik's watch on the API server had dropped (laptop sleep, …)")
                               r"\b(?:laptop|machine) (?:sleep|suspend|slept|went to sleep)\b|"
                               r"\b(?:started|brought) (?:it|them) (?:up )?(?:again|back)\b|\bbrought it back\b|"
                               # (or had worn into a state a restart clears: "RabbitMQ had been up for three days and
                               # had tripped its memory alarm")
                               r"\bhad been (?:up|running) for (?:\w+ )?(?:days|hours|weeks)\b|"
                               # ("The provider-aws-s3 pod had been crash-looping for a while")
                               r"\bhad been crash-?looping\b|"
                               # ("The CARLA server had lost its GPU device (VK_ERROR_DEVICE_LOST after 6 days up)")
                               r"\bhad lost its (?:\w+ )?(?:device|connection|session|lease)\b|"
                               r"\bafter \d+ (?:days|hours|weeks) (?:up|of uptime)\b|"
                               r"\b(?:had )?(?:tripped|hit|raised) its (?:memory|disk)(?: \w+)? (?:alarm|watermark)\b|"
                               # ("k3s on rock5a had given up at boot … after the power blip and systemd stopped
                               # retrying")
                               r"\bhad given up\b|\bstopped retrying\b|"
                               r"\bgave up on its (?:\w+ )?(?:lease|connection)\b|"
                               r"\bafter (?:a|the) power (?:blip|cut|outage|failure|loss)\b")


def _clears_local_state(command: str) -> bool:
    """Whether a step of the line stops or removes a container or process (``docker rm -f minio-old && …``)."""
    return any(_CLEARS_LOCAL.search(parse_command(segment)["check"]) for segment in _segments(command))


def _upstream_sync(observation: dict) -> bool:
    """Whether a passing command brought other people's changes into the working tree (a pull that updated it)."""
    if observation["tool"] != "Bash" or observation["outcome"] != "ok":
        return False
    check = parse_command(observation.get("target") or "")["check"]
    return bool(_UPSTREAM.search(check)) and bool(_UPSTREAM_OUTPUT.search(observation.get("body") or ""))


def _addresses(step: dict, failures: list[dict]) -> bool:
    """Whether a non-edit step plausibly addresses a failure: an install of a package its error names, the step its
    message says to run, a service started after it could not reach one, or other people's changes pulled in."""
    if step["tool"] != "Bash" or step["outcome"] != "ok":
        return False
    if _upstream_sync(step):
        return True
    command = step.get("target") or ""
    check = parse_command(command)["check"]
    for failure in failures:
        text = (failure.get("error_text") or "").lower()
        if _named_by_error(command, failure) or (_starts_service(command) and _UNREACHABLE.search(text)):
            return True
        match = _INSTALL.search(check)
        packages = [re.split(r"[=<>@~\[]", w)[0].lower() for w in _words(match.group(1))
                    if not w.startswith("-")] if match else []
        if any(len(p) >= 3 and re.search(rf"(?<![\w-]){re.escape(p)}(?![\w-])", text) for p in packages):
            return True
        # ``bundle install``, ``ansible-galaxy install -r requirements.yml``: what the project declares, installed
        # after an error that something was not there
        if command_job(command) == "install" and _MISSING_DEPENDENCY.search(text) and all(
                _MANIFEST_ARG.search(p) for p in packages):
            return True
    return False


_MISSING_DEPENDENCY = LazyRegex(
    r"(?i)\bwas not found\b|\bnot installed\b|No module named|Cannot find module|cannot find package|"
    r"could(?: not|n't) (?:find|locate|load) (?:module|package|gem|crate|library|role|collection|plugin|dependency)|"
    r"missing (?:module|package|gem|dependency|dependencies|role|library|plugin)|\bunresolved import\b")
_MANIFEST_ARG = LazyRegex(r"(?i)\.(?:txt|ya?ml|json|toml|lock)$|^\.$")


def _named_invocation(failure: dict, passed: dict) -> bool:
    """Whether the passing run added a flag or variable the failure's own message names (``--allow-read``,
    ``CGO_ENABLED``)."""
    text = failure.get("error_text") or ""
    before, after = parse_command(failure["target"]), parse_command(passed["target"])
    argv = after["argv"]
    added = [f.split("=")[0] for f in set(after["flags"]) - set(before["flags"])]
    added += [e.split("=")[0] for e in set(after["env"]) - set(before["env"])]

    def value(name: str) -> str | None:  # the word a long option takes (``--summary all``), not a path it runs on
        at = argv.index(name) + 1 if name in argv else 0
        word = argv[at] if 0 < at < len(argv) else ""
        return word if name.startswith("--") and re.fullmatch(r"[\w-]+", word) else None

    # (named with another value, "disable with --summary none", it is not what the failure asked to pass)
    return any(len(name.strip("-")) > 3 and any(
        not value(name) or not m.group(1) or m.group(1) == value(name)
        for m in re.finditer(rf"(?<![\w-]){re.escape(name)}(?![\w-])(?:[ =]([\w-]+))?", text)) for name in added)


def _quoted_in(command: str, account: str) -> bool:
    """Whether the agent's account quotes ``command`` (in backticks) as something it ran."""
    if "`" not in (account or ""):
        return False
    key = command_key(command)
    words = set(_words(command))
    words |= {os.path.basename(w) for w in words if "/" in w and not w.startswith("-")}  # (``bin/pulsar-admin``)
    words |= {w.strip("()") for w in words}  # (in a subshell: ``(cd android && ./gradlew … -Ptarget=…)``)
    # (the code it gave its interpreter or client: ``psql "…" -c "SELECT pg_create_logical_replication_slot(…);"``)
    code = " ".join((_inline_code(command) or "").split()).rstrip(";").strip()
    for span in _code_spans(account):
        if command_key(span) == key:  # the command as quoted
            return True
        if _asks_version(span):
            continue  # (nor a tool asked its version: "`ghc --version` here is 9.8.2")
        if len(code) >= 12 and " ".join(span.split()).rstrip(";").strip() == code:
            return True
        # (its start, where the account elides the rest: "ran `rs.initiate(...)` once inside it")
        if code and any(code.startswith(head) for head in elided_heads([span])):
            return True
        # its own settings quoted, placeholders aside ("Rebuilt with `CC=musl-gcc CGO_ENABLED=1`", "`zig fetch
        # --save=zap <url>`")
        # (its quoted words as the shell gives them: `sdkmanager --install "cmake;3.22.1"`)
        told = [w for w in _words(span) if not re.fullmatch(r"<[^<>]+>|\.\.\.|…|\[[A-Z_]+\]", w)]
        # (and its program by the variable a script names it by: `"$GODOT" --headless --path . --import`)
        told = told[1:] if told and re.fullmatch(r"\$\{?[A-Za-z_]\w*\}?", told[0]) else told
        if len(told) >= 2 and set(told) <= words and any("=" in w or w.startswith("-") for w in told):
            return True
        # (or one long option of its own, alone: "Building with `--no-web-resources-cdn` makes …")
        # (or a define of a build's, ``-Dtarget=x86_64-linux-musl``)
        if re.fullmatch(r"--[a-z][\w-]{7,}(?:=\S+)?|-D[A-Za-z][\w.-]*=\S+", span) and span in words:
            return True
        # or one setting it passed inside its code: `GET_SOURCE_PUBLIC_KEY=1` in ``mysql -e "CHANGE REPLICATION …"``
        # (not a variable the line sets for its program: `NODE_ENV=test` of "Jest runs Babel with `NODE_ENV=test`" is
        # no ``NODE_ENV=test npx babel …`` run to look at Babel's config)
        if re.fullmatch(r"[\w.-]+=[^\s=]+", span) and re.search(rf"(?<![\w.-]){re.escape(span)}(?![\w.-])", code):
            return True
    return False


def _named_by_error(command: str, failure: dict) -> bool:
    """Whether the failure's message names ``command`` as the step to run ("Run `bundle install` to …")."""
    text = failure.get("error_text") or failure.get("body") or ""
    key = command_key(command)
    for match in _NAMED_STEP.finditer(text):
        named = command_key((match.group(1) or match.group(2) or match.group(3) or "").strip().rstrip(".:"))
        # (run through its runner, with options after: ``bundle exec pod update hermes-engine --no-repo-update`` for
        # "You should run `pod update hermes-engine`")
        check, told = parse_command(key)["check"] or "", parse_command(named)["check"] or ""
        if len(named) >= 3 and (key == named or key.startswith(named + " ") or check == told
                                or told and check.startswith(told + " -")):
            return True
    return False


# a check's own summary of its failures (pytest, jest, mix, rspec, cargo, go, tsc, mypy, eslint)
_REPORTS_FAILURE = LazyRegex(
    # (a count, not a status in a test's name: rspec's "returns 403 error page for a stranger's project")
    # (one, or many: "421 error" is a status's code in a test's name, "retries after a transient 421 error")
    r"(?m)\b(?:1 (?:failed|failures?|errors?|problems?)|[1-9]\d* (?:failed|failures|errors|problems))\b"
    r"(?! (?:page|response|status|code|handler|message|for|when|if)\b)|\b[1-9]\d* (?:failure|error)\(s\)|"
    r"\bFAILED\b|^(?:FAIL|ERROR)\b|^--- FAIL\b|"
    # (after the tool's tag: ``[appimage/linuxdeploy] ERROR: Strip call failed: …``)
    r"^\[[^\]\n]+\]\s+(?:ERROR|FAIL)\b|"
    # (sbt's verdict: ``[error] Failed tests:``, ``[error] (Test / test) sbt.TestsFailedException: …``)
    r"^\[error\] (?:Failed tests:|\(.*\) sbt\.TestsFailedException\b)|"
    r"test result: FAILED|Traceback \(most recent call last\)|^npm ERR!|^error(?:\[E\d+\])?:|\berror TS\d+:|"
    r"^E\s+[\w.]*(?:Error|Exception)\b|Import(?:Error)? while (?:loading|importing)|"
    r"^(?:ModuleNotFoundError|ImportError|SyntaxError|NameError):|\b[Cc]ommand not found\b|"
    # rspec's and minitest's failure lines, a class of error named on its own line (``RedisClient::CannotConnectError:``)
    r"\bFailure/Error:|^\s*(?:[A-Z]\w*::)*[A-Z]\w*(?:Error|Exception):\s*$|"
    # a warning made an error (sphinx ``-W``), a build tool's verdict
    r"\btreated as (?:an )?errors?\b|^No module named\b|\bBUILD FAILURE\b|^Build failed\b|"
    # a Rust test that panicked, a Go panic (``41:thread 'creates_key' panicked at tests/api_keys.rs:21:10:``)
    r"\bthread '[^'\n]*' panicked at\b|^(?:\d+:)?panic: |"
    # Next.js's and webpack's verdicts: ``Linting and checking validity of types  ..Failed to compile.``, ``Type
    # error: Page "app/dashboard/page.tsx" does not match …``
    r"\bFailed to compile\b|^Type error: |"
    # (and its prerender's: ``Error occurred prerendering page "/search"``, ``> Export encountered errors on …``)
    r"^Error occurred prerendering page\b|^> Export encountered errors\b")
# a test that passed, by its name (``✓ returns 400 error when password is missing``): no failure, whatever it says
# (a passing test by its name, whatever words it holds: ``✓ returns 400 error …``, gradle's ``UploadQueueTest > marks
# item FAILED when the server returns 500 PASSED``)
# (a test's name may say "error": hspec's ``returns 404 error for an unknown id [✔]``, its mark after it)
_PASSED_TEST = LazyRegex(r"(?m)^\s*[✓✔√]\s.*$|^\s*\S+ > .* PASSED\s*$|^.*\s\[[✓✔]\]\s*$")
_GREPPED = LazyRegex(r"\|\s*grep\b")
# what a test run that passed says ("BUILD SUCCESS", "14 passed", "Tests run: 5, Failures: 0, Errors: 0", "OK (9 tests",
# "Exiting with code 0")
_REPORTS_PASS = LazyRegex(r"(?i)\bBUILD SUCCESS|\b\d+ (?:passed|passing|examples?, 0 failures)\b|"
                          r"Tests run: \d+, Failures: 0|\bOK \(\d+ tests?|All tests passed|test result: ok|"
                          r"\b0 failures\b|Tests:\s+\d+ passed|"
                          # molecule's ``Verifier completed successfully.``, an ansible recap of no failure
                          r"\b(?:Verifier|Idempotence|Build|Test run) completed successfully\b|"
                          r"(?m:^\S+\s+: ok=\d+\s+changed=\d+\s+unreachable=0\s+failed=0\b)|"
                          # dotnet test's ``Passed!  - Failed:     0, Passed:    12, …``
                          r"\bPassed!\s+-\s+Failed:\s+0\b|"
                          # Unity's ``Test run completed. Exiting with code 0 (Ok).``
                          r"\bExit(?:ing|ed)? with (?:exit )?(?:code|status) 0\b|"
                          # go test's ``--- PASS: TestX (0.01s)`` and ``ok  	github.com/acme/notifier/…	2.318s``
                          r"(?m:^--- PASS: \w|^ok\s+\S+\s+(?:\(cached\)|[\d.]+s))|"
                          # plenary-busted's ``Success: \t3\t`` ``Failed : \t0\t`` ``Errors : \t0\t``
                          r"(?m:^Failed : \s*0\s*$)")
# (and Pester's, which ``powershell -Command "Invoke-Pester …"`` exits 0 after: ``Passed: 0 Failed: 2 Skipped: 0``,
# Pester 5's ``Tests Passed: 6, Failed: 1, Skipped: 0``)
# (and plenary-busted's, one suite's ``Failed : \t1\t`` among others' ``Failed : \t0\t``)
_FAILED_TALLY = LazyRegex(r"(?m)\bTESTS=\d+ PASS=\d+ FAIL=[1-9]\d*\b|^\s*(?:Tests )?Passed: \d+,? Failed: [1-9]\d*\b|"
                          r"^(?:Failed|Errors) : \s*[1-9]\d*\s*$|"
                          # (kaocha's: ``3 tests, 9 assertions, 1 errors, 0 failures.``, whatever ran it)
                          r"^\d+ tests?, \d+ assertions?, (?:[1-9]\d* errors?, \d+|(?:\d+ errors?, )?[1-9]\d*) "
                          r"failures?\.?\s*$")
_PIPED = LazyRegex(r"\|\s*(?:tail|head|grep|less|cat|tee|sed|awk|sort|wc|cut|uniq)\b")


# the address a request asks, with its query: ``'localhost:3200/api/search?tags=service.name%3Dcheckout&limit=5'``
_REQUEST_URL = LazyRegex(r"(?:https?://)?(?:localhost|127\.0\.0\.1|[\w-]+(?:\.[\w-]+)+|[\w-]+):\d+/"
                         r"(?:[^\s'\"|;&]|&(?![&\s]))*")
# an answer with nothing in it: ``{"traces":[],"metrics":{…}}``, ``[]``, ``0``, ``null``, nothing at all
# (behind the envelope an API wraps every answer in, too: Prometheus' ``{"status":"success","data":[]}``,
# ``{"status":"success","data":{"resultType":"vector","result":[]}}``)
_EMPTY_ANSWER = LazyRegex(r'\A\s*(?:\{\s*(?:"status"\s*:\s*"success"\s*,\s*"data"\s*:\s*\{\s*'
                          r'"resultType"\s*:\s*"\w+"\s*,\s*)?(?:"status"\s*:\s*"success"\s*,\s*)?'
                          r'"[\w.-]+"\s*:\s*(?:\[\s*\]|null|0)\s*[,}]|'
                          r'(?:\[\s*\]|0|null|\{\s*\})?\s*\Z)')


_FIELD_ASKED = LazyRegex(r"^(?:kubectl|oc)\s+(?:-n\s+\S+\s+|--namespace[=\s]\S+\s+)?get\s+[^|;&]*-o\s*[= ]?"
                         r"(?:jsonpath|go-template)=[^|;&]*$")


# a warning a run printed and passed with (``WARNING:  database "orders" has a collation version mismatch``)
_WARNING_PRINTED = LazyRegex(r"(?m)^\s*(?:WARNING|Warning|warning)\b:?\s+\S.*$")


# a plan that takes something down: ``# aws_s3_bucket.app_logs will be destroyed``, ``must be replaced``, ``Plan: 1 to
# add, 0 to change, 1 to destroy.``
_PLAN_DESTROYS = LazyRegex(r"(?m)^\s*# \S.* (?:will be destroyed|must be replaced)\s*$|"
                           r"\bPlan: \d+ to add, \d+ to change, [1-9]\d* to destroy\b")
_PLANS = LazyRegex(r"^(?:terraform|tofu|terragrunt)(?:\s+-chdir=\S+)?\s+plan\b")


def _plans_destroying(observations: list[dict]) -> list[dict]:
    """The observations, with a plan that would destroy or replace a resource (``# aws_s3_bucket.app_logs will be
    destroyed``) read as a failure when, after an edit, the same plan destroys nothing: where the user asks that a
    resource be kept ("make the plan a no-op"), each plan that still takes it down is the failure."""
    out = list(observations)
    plans = [n for n, o in enumerate(observations) if o["tool"] == "Bash" and o["outcome"] == "ok"
             and _PLANS.match(parse_command(o.get("target") or "")["check"] or "")]
    for n in plans:
        key = command_key(observations[n]["target"])
        if not _PLAN_DESTROYS.search(observations[n].get("body") or ""):
            continue
        kept = next((k for k in plans if k > n and command_key(observations[k]["target"]) == key
                     and not _PLAN_DESTROYS.search(observations[k].get("body") or "")), None)
        if kept is None or not any(o["tool"] in EDIT_TOOLS and o["outcome"] == "ok" for o in observations[n + 1:kept]):
            continue
        text = "\n".join(m.group(0).strip() for m in _PLAN_DESTROYS.finditer(observations[n].get("body") or ""))
        from .signatures import error_signature

        out[n] = dict(observations[n], outcome="error", error_text=text,
                      error_signature=error_signature(text, observations[n]["target"]))
    return out


# a build's or a job's status as a platform reports it (``Status:      failed`` of ``fission package info``), and the
# same read later reporting it done
_REPORTED_FAILED = LazyRegex(r"(?im)^\s*(?:Build\s+)?Status:\s+(?:failed|failure|error(?:ed)?)\s*$")
_REPORTED_DONE = LazyRegex(r"(?im)^\s*(?:Build\s+)?Status:\s+(?:succeeded|success(?:ful)?|completed?|ready|ok)\s*$")


def _status_failed(observations: list[dict]) -> list[dict]:
    """The observations, with a read whose answer reports a failed status (``fission package info --name
    invoice-pdf-pkg`` → ``Status: failed``) read as a failure where, after a change, the same read reports it done:
    the read passed, the build it reports on had failed."""
    out = list(observations)
    for n, o in enumerate(observations):
        body = o.get("body") or ""
        failed = o["tool"] == "Bash" and o["outcome"] == "ok" and _REPORTED_FAILED.search(body)
        if not failed:
            continue
        check = parse_command(o.get("target") or "")["check"] or ""
        done = next((k for k, later in enumerate(observations[n + 1:], start=n + 1) if later["tool"] == "Bash"
                     and later["outcome"] == "ok" and _REPORTED_DONE.search(later.get("body") or "")
                     and parse_command(later.get("target") or "")["check"] == check), None)
        if done is None or not any(_is_change(c) for c in observations[n + 1:done]):
            continue
        from .signatures import error_line, error_signature

        text = "\n".join(line for line in (failed.group(0).strip(), error_line(body)) if line)
        out[n] = dict(o, outcome="error", error_text=f"{text}\n{body}",
                      error_signature=error_signature(text, o["target"]))
    return out


def _asserted_after(observations: list[dict]) -> list[dict]:
    """The observations, with a run that passed but made what a count or quiet search of its output then did not find
    (``npx vite build``, then ``grep -c 'api.staging.acme.io' dist/assets/*.js`` → 0) read as the failure that search
    shows, when the same run made otherwise (``npx vite build --mode staging``) is followed by the same search
    passing: the run was the check, its way the lesson. The failed search itself is left out."""
    from .signatures import error_signature

    def searching(o: dict) -> bool:
        return o["tool"] == "Bash" and counting_search(o.get("target") or "")

    def run_before(k: int) -> int | None:  # (the last command before it, reads aside)
        return next((j for j in range(k - 1, -1, -1) if observations[j]["tool"] == "Bash"), None)

    out: list[dict | None] = list(observations)
    for n, o in enumerate(observations):
        if o["outcome"] != "error" or not searching(o) or (p := run_before(n)) is None:
            continue
        before = observations[p]
        if before["outcome"] != "ok" or searching(before) or not command_job(before["target"]):
            continue
        line = " ".join(o["target"].split())
        again = next((k for k in range(n + 1, len(observations)) if observations[k]["tool"] == "Bash"
                      and " ".join(observations[k]["target"].split()) == line and observations[k]["outcome"] == "ok"),
                     None)
        q = run_before(again) if again is not None else None
        if q is None or q <= n or command_family(observations[q]["target"]) != command_family(before["target"]) \
                or not invocation_change(before["target"], observations[q]["target"]) \
                or any(e["tool"] in EDIT_TOOLS for e in observations[n + 1:again]):
            continue
        text = f"`{one_line(line, 100)}` found nothing after it"
        out[p] = dict(before, outcome="error", error_text=text, error_signature=error_signature(text, line))
        out[n] = None
    return [o for o in out if o is not None]


def _warnings_gone(observations: list[dict]) -> list[dict]:
    """The observations, with a run that passed printing a warning (``psql … -c "select 1"`` →
    ``WARNING:  database "orders" has a collation version mismatch``) read as a failure when, after a change, the
    same run passes without it: the warning the user reported, mended. Only where a prompt reports a warning."""
    out = list(observations)
    for n, o in enumerate(observations):
        if o["tool"] != "Bash" or o["outcome"] != "ok" or out[n] is not o:
            continue
        warned = [m.group(0).strip() for m in _WARNING_PRINTED.finditer(o.get("body") or "")]
        line = " ".join((o.get("target") or "").split())
        if not warned or not line:
            continue
        changed = False
        for k in range(n + 1, len(observations)):
            later = observations[k]
            if later["tool"] == "Bash" and " ".join((later.get("target") or "").split()) == line:
                if changed and later["outcome"] == "ok" and not _WARNING_PRINTED.search(later.get("body") or ""):
                    text = "\n".join(warned[:5])
                    from .signatures import error_signature

                    out[n] = dict(o, outcome="error", error_text=text, error_signature=error_signature(text, line))
                break
            changed = changed or _is_change(later)
    return out


def _empty_answers(observations: list[dict]) -> list[dict]:
    """The observations, with a request that answered with nothing (``curl -s '…/api/search?tags=…'`` →
    ``{"traces":[]…}``) read as a failure when, after an edit, the same request answers with something (``… | jq
    '.traces | length'`` → ``5``): a silent failure that the session mended. An empty answer no later one contradicts
    is left as it was: nothing may be the right answer."""
    def request(o: dict) -> str | None:  # (the step that asks: ``curl -s '…'`` of ``sleep 5; curl -s '…' | jq …``)
        if o["tool"] != "Bash" or o["outcome"] != "ok":
            return None
        # (or a resource's field asked of the cluster, the line whole: ``kubectl -n checkout get pods -l app=checkout
        # -o jsonpath='{.items[*].spec.initContainers[*].name}'``)
        if _FIELD_ASKED.match(" ".join((o.get("target") or "").split())):
            return " ".join(o["target"].split())
        return next((step.strip() for step in re.split(r"&&|;|\|", o.get("target") or "")
                     if _PROBE.match(step.strip()) and _REQUEST_URL.search(step)), None)

    def asked(o: dict) -> str | None:
        step = request(o)
        if step and _FIELD_ASKED.match(step):
            return step
        return _REQUEST_URL.search(step).group(0).removeprefix("http://").removeprefix("https://") if step else None

    urls = [asked(o) for o in observations]
    out = list(observations)
    for n, (o, url) in enumerate(zip(observations, urls)):
        if not url or not _EMPTY_ANSWER.match(o.get("body") or ""):
            continue
        edited = next((k for k in range(n + 1, len(observations)) if observations[k]["tool"] in EDIT_TOOLS
                       and observations[k]["outcome"] == "ok"), None)
        at = next((k for k in range(edited + 1, len(observations)) if urls[k] == url
                   and not _EMPTY_ANSWER.match(observations[k].get("body") or "")), None) if edited is not None else None
        if at is not None:
            # (each as the request it made: how its answer was read, ``| jq '.traces | length'``, is no change)
            text = f"{url} answered with nothing: {one_line(o.get('body') or '(no output)', 120)}"
            out[n] = dict(o, target=request(o), outcome="error", error_text=text, empty_answer=True,
                          error_signature=f"empty answer from {url.split('?')[0]}")
            out[at] = dict(out[at], target=request(observations[at]))
    return out


# the user's report that a named thing is not where a command lists it: "The plugin's `s3` command doesn't show up in
# `acmectl --help`"
_NOT_LISTED = LazyRegex(r"(?i)\b(?:(?:doesn't|does not|don't|do not|isn't|is not|aren't|are not|never|no longer|"
                        r"stopped) (?:show(?:ing|s)?(?: up)?|appear\w*|(?:get(?:ting|s)? |being )?listed)|"
                        r"missing from|not listed)\b")


def _absent_from_listing(observations: list[dict], prompt: str) -> list[dict]:
    """The observations, with a run of a command the prompt quotes read as a failure where its output lacks what the
    prompt says is missing from it, when, after a change, the same command lists it (blind440 PY10: "The
    acmectl-s3 plugin's `s3` command doesn't show up in `acmectl --help`", the entry-point group renamed, then
    ``uv run acmectl --help`` listing ``s3``): a silent failure that the session mended."""
    from .signatures import error_signature

    spans = [" ".join(span.split()) for sentence in _sentences(prompt) if _NOT_LISTED.search(sentence)
             for span in re.findall(r"`([^`\n]{1,80})`", sentence)]
    things = [span for span in spans if re.fullmatch(r"[\w.:@/-]{2,40}", span)]
    out = list(observations)
    for command in [span for span in spans if " " in span]:
        runs = [n for n, o in enumerate(observations) if o["tool"] == "Bash" and o["outcome"] == "ok"
                and command in " ".join((o.get("target") or "").split())]
        for thing in things:
            listed = [bool(re.search(rf"(?<![\w-]){re.escape(thing)}(?![\w-])", observations[n].get("body") or ""))
                      for n in runs]
            at = next((i for i in range(len(runs) - 1) if not listed[i] and listed[i + 1]
                       and any(_is_change(o) for o in observations[runs[i] + 1:runs[i + 1]])), None)
            if at is not None:
                text = f"`{thing}` is missing from what `{command}` lists"
                out[runs[at]] = dict(observations[runs[at]], outcome="error", error_text=text,
                                     error_signature=error_signature(text, command))
    return out


def _given(observation: dict, value: str) -> str:
    """The step of a line that sets ``value``, without the brackets, redirects and ``&`` that put it aside."""
    step = next(s for s in _segments(observation["target"]) if value in s)
    step = re.sub(r"\s*\d?>>?\s*\S+|\s*2>&1", "", step)
    return re.sub(r"^\(\s*|\s*&?\s*\)$|\s*&$", "", step.strip())


def _value_not_taken_up(observations: list[dict]) -> list[dict]:
    """The observations, with a run that set a value (``API_BASE=https://api.staging.example.com node
    .output/server/index.mjs … | grep -o 'apiBase:"[^"]*"'``) read as a failure where what it printed lacks that
    value, when, after an edit, a run of the same program given the same value prints it (blind350 MM20: the value
    set under ``NUXT_PUBLIC_API_BASE``): the setting was not taken up, and the session mended that."""
    from .signatures import error_signature

    def values(o: dict) -> set[str]:
        return {m.group(1).strip("'\"") for step in _segments(o.get("target") or "")
                for m in re.finditer(r"(?:^|\s)[A-Z][A-Z0-9_]*=(\S{8,})", step)}

    out = list(observations)
    for n, o in enumerate(observations):
        body = o.get("body") or ""
        if o["tool"] != "Bash" or o["outcome"] != "ok" or not body.strip() or len(body) > 2000:
            continue
        for value in sorted(v for v in values(o) if v not in body):
            later = next((k for k in range(n + 1, len(observations)) if observations[k]["tool"] == "Bash"
                          and observations[k]["outcome"] == "ok" and value in values(observations[k])
                          and value in (observations[k].get("body") or "")
                          and command_family(observations[k]["target"]) == command_family(o["target"])), None)
            if later is not None and any(e["tool"] in EDIT_TOOLS and e["outcome"] == "ok"
                                         for e in observations[n + 1:later]):
                # (each as the step that was given the value: ``PORT=3210 API_BASE=… node .output/server/index.mjs``
                # of ``npm run build && (… &) && sleep 2 && curl …``)
                step, again = (_given(observations[j], value) for j in (n, later))
                text = f"`{value}` was set, and not taken up: {one_line(body, 120)}"
                out[n] = dict(o, target=step, outcome="error", error_text=text,
                              error_signature=error_signature(text, step))
                out[later] = dict(out[later], target=again)
                break
    return out


def _through_pipe(observation: dict) -> dict:
    """The observation as it really ended: a check piped into ``tail``/``grep`` exits with the filter's status
    (0), so it passed only when its output reports no failure; otherwise it is read as the failure it printed."""
    observation = _printed_pass(_changes_pending(observation))
    command = observation.get("target") or ""
    if observation["tool"] != "Bash" or observation["outcome"] != "ok":
        return observation
    # (a runner that exits 0 whatever its tests did, piped or not: cocotb's ``make``, whose summary says ``TESTS=2
    # PASS=1 FAIL=1``)
    body = observation.get("body") or ""
    if _FAILED_TALLY.search(body):
        from .signatures import error_signature

        return dict(observation, outcome="error", error_text=body, error_signature=error_signature(body, command))
    if not _PIPED.search(command) or "pipefail" in command:
        return observation
    job = command_job(command)
    # (or a script's build or test by its words: ``npm run tauri build -- --verbose 2>&1 | grep -i strip``)
    argv = parse_command((_segments(command) or [command])[0])["argv"]
    job = job or next((w for w in argv[1:5] if w in ("test", "build")), None)
    if job not in ("test", "build", "lint"):
        return observation
    if not _REPORTS_FAILURE.search(_PASSED_TEST.sub("", body)):
        # (a test run filtered for other lines, ``… | grep -i liquibase``, shows neither its failure nor its pass:
        # a look at its log, no verdict)
        # (but one that searched for its failures too, and was shown none, ``… | grep -E 'ftl.tex|total|failed'``,
        # reported none)
        if job == "test" and _GREPPED.search(command) and not _REPORTS_PASS.search(body) \
                and not re.search(r"(?i)\|\s*grep\b[^;&]*\b(?:fail(?:ed|ures?)?|errors?)\b", command):
            return dict(observation, outcome="unknown")
        return observation
    from .signatures import error_signature

    return dict(observation, outcome="error", error_text=body, error_signature=error_signature(body, command))


# a run's status printed after it: ``hadolint Dockerfile; echo "exit=$?"``, and what that printed, ``exit=0``
_STATUS_LABEL = r"(?:[\w ]*?(?:exit|rc|status|code)\w*\s*[=:]?\s*)?"
_ECHOED_STATUS = LazyRegex(rf"""^(.+?)\s*;\s*echo\s+["']?{_STATUS_LABEL}\$\?["']?\s*$""", re.S | re.I)
_PRINTED_STATUS = LazyRegex(rf"^\s*{_STATUS_LABEL}(\d+)\s*$", re.M | re.I)


# a plan whose status says there are changes to make, not that it failed: nomad's ``job plan`` exits 1 when
# allocations would be created or destroyed; terraform's ``plan -detailed-exitcode`` exits 2 when its plan changes
_PLANNED = ((LazyRegex(r"\bnomad\s+(?:job\s+)?plan\b"), "1", LazyRegex(r"(?m)^Scheduler dry-run:")),
            (LazyRegex(r"\b(?:terraform|tofu|terragrunt)\b.*\bplan\b.*-detailed-exitcode\b"), "2",
             LazyRegex(r"(?m)^Plan: \d+ to add")))
_EXIT_CODE = LazyRegex(r"\AExit code (\d+)\b")


def _changes_pending(observation: dict) -> dict:
    """A plan that exited with its status for "there are changes" is a plan that passed (``nomad job plan
    -var-file=vars/staging.hcl jobs/api.nomad.hcl``: exit 1, "Scheduler dry-run: All tasks successfully allocated")."""
    text = observation.get("error_text") or ""
    status = _EXIT_CODE.match(text.lstrip()) if observation["tool"] == "Bash" and observation["outcome"] == "error" \
        else None
    if status and not re.search(r"(?m)^\s*(?:Error\b|\*\s)", text) and any(
            command.search(observation.get("target") or "") and status.group(1) == code and done.search(text)
            for command, code, done in _PLANNED):
        return dict(observation, outcome="ok", body=observation.get("body") or text)
    return observation


def _printed_pass(observation: dict) -> dict:
    """A run whose status the line echoes after it (``hadolint Dockerfile; echo "exit=$?"``) and that printed 0 is
    that run passing: the check is the run, not the echo."""
    echoed = _ECHOED_STATUS.match(observation.get("target") or "") if observation["tool"] == "Bash" \
        and observation["outcome"] == "ok" else None
    # (a line of steps joined by ``&&`` printed 0 only when each passed: ``colcon build … && source … && timeout -s
    # INT 12 ros2 launch …; echo "exit=$?"``; not a list whose status is its last step's, ``a; b``, ``a || b``, ``a &``)
    # (a redirection is no list: ``dune test 2>&1; echo "exit=$?"``)
    if not echoed or re.search(r";|\|\||(?<![&>])&(?![&>\d])", echoed.group(1)):
        return observation
    printed = _PRINTED_STATUS.findall(observation.get("body") or "")
    return dict(observation, target=echoed.group(1)) if printed and printed[-1] == "0" else observation


# a test run that ran nothing: pytest's ``sssss   [100%]`` or ``5 skipped``, with nothing passed or failed
# (or go's ``?   pkg [no test files]`` for every package)
_ALL_SKIPPED = LazyRegex(r"(?m)^s+\s+\[100%\]$|\b[1-9]\d* skipped\b|\[no test files\]")
# a migration generated from the models (not a check that none is pending: ``--check``, ``--dry-run``)
_GENERATES_MIGRATION = LazyRegex(r"\balembic\s+revision\b.*--autogenerate\b|"
                                 r"\bmakemigrations\b(?!.*\s--(?:check|dry-run)\b)")
_GENERATED_NOTHING = LazyRegex(r"No changes (?:in schema )?detected")
_ASYNC_SKIPPED = LazyRegex(r"async def functions are not natively supported and have been skipped")
# (or a runner's own words for it: Ballerina's and mocha's ``4 passing``)
_RAN_SOME = LazyRegex(r"(?m)\b\d+ (?:passed|failed|errors?)\b|\b[1-9]\d* passing\b|^[.FEx]|^(?:ok|FAIL|---)\s")


# a test run told to pass when no test is found
_NO_TESTS_ALLOWED = LazyRegex(r"-D(?:surefire\.|failsafe\.)?failIfNo(?:Specified)?Tests=false\b|--passWithNoTests\b|"
                              r"--pass-with-no-tests\b")


def _all_skipped(observation: dict) -> dict:
    """A test run that passed by skipping every test is the failure it hides ("async def functions are not natively
    supported and have been skipped"): what makes them run again is the fix. So is a migration generated from the
    models that found none to generate (``alembic revision --autogenerate`` → "No changes in schema detected")."""
    command = observation.get("target") or ""
    body = observation.get("body") or ""
    if observation["tool"] != "Bash" or observation["outcome"] != "ok":
        return observation
    from .signatures import error_signature

    nothing = _GENERATED_NOTHING.search(body) if _GENERATES_MIGRATION.search(command) else None
    if nothing:
        return dict(observation, outcome="error", error_text=nothing.group(0),
                    error_signature=error_signature(nothing.group(0), command))
    # (or that ran none: maven's ``Tests run: 0, Failures: 0, Errors: 0, Skipped: 0`` after ``-Dsurefire
    # .failIfNoSpecifiedTests=false``, where surefire never picks up the ``*IT`` class asked for)
    counts = re.findall(r"(?m)^(?:\[INFO\]\s+)?Tests run: (\d+), Failures: \d+", body)
    # (or, told not to fail where the test asked for is not found, shows no test that ran: ``-Dsurefire
    # .failIfNoSpecifiedTests=false | tail -8``, jest's ``--passWithNoTests``)
    # (not one told to print nothing: ``./mvnw -q … test``)
    ran_none = not any(map(int, counts)) if counts else bool(_NO_TESTS_ALLOWED.search(command)) \
        and not re.search(r"\b[1-9]\d* (?:passed|passing|tests? completed)\b", body) \
        and not re.search(r"(?:^|\s)(?:-q|--quiet)(?=\s|$)", command)
    if command_job(command) == "test" and ran_none:
        text = "no test ran (Tests run: 0)"
        return dict(observation, outcome="error", error_text=text, error_signature=error_signature(text, command))
    # (some tests ran, and pytest says the async ones never did: "s.sss", "async def functions are not natively
    # supported and have been skipped")
    if command_job(command) != "test" or (not _ALL_SKIPPED.search(body) or _RAN_SOME.search(body)) \
            and not _ASYNC_SKIPPED.search(body):
        return observation

    said = [re.sub(r"^\S+:\d+:\s*", "", line.strip()) for line in body.splitlines()  # (not the warning's file:line)
            if re.search(r"(?i)\bskipped\b", line) and not _ALL_SKIPPED.fullmatch(line.strip())]
    text = said[0] if said else "every test was skipped"
    return dict(observation, outcome="error", error_text=text, error_signature=error_signature(text, command))


# a service's log read back (``journalctl -u vault-agent``, ``docker compose logs api``, ``kubectl logs deploy/x``)
_LOG_READ = LazyRegex(r"^(?:journalctl|(?:docker|podman|kubectl|oc)(?: compose)? logs)$")
# or its log file (``tail -4 logs/dev.log``, ``cat var/log/worker.log``)
_LOG_FILE_READ = LazyRegex(r"^(?:tail|cat|head|less)$")
_LOG_FILE = LazyRegex(r"\.log$|(?:^|/)logs?/[^/]+$")
# a CI run's log read back (``gh run view 938 --log-failed``, ``glab ci trace 77``)
_CI_LOG_READ = LazyRegex(r"^(?:gh run view\b.*\s--log(?:-failed)?\b|glab ci trace\b)")
# a CI run's verdict read back: its log, its checks (``gh pr checks 412 --watch``, ``gh run watch 9390 --exit-status``)
_CI_RESULT = LazyRegex(r"^(?:gh (?:run (?:view|watch|list)|pr checks)|glab ci (?:trace|status|view))\b")
_CI_PENDING = LazyRegex(r"(?i)\bstill pending\b|\bin progress\b|\bqueued\b|\b[1-9]\d* pending checks?\b")
_CI_FAILING = LazyRegex(r"(?m)\b[1-9]\d* failing\b|^X\s|##\[error\]")
# a CI log line's job, step and time before what was printed (``integration\tRun migrations\t2024-06-10T09:12:44Z ``)
_CI_LOG_PREFIX = LazyRegex(r"^(?:([^\t\n]*)\t)?(?:[^\t\n]*\t)?\d{4}-\d\d-\d\dT[\d:.]+Z\s+")
# a line of that log reporting an error: ``[ERROR] agent.auth.handler: …``, ``level=error``, ``"level":"error"``
# (and lower case, padded to the width of the others: Fluent Bit's and nginx's ``[error]``, ``[ warn]``)
_LOGGED_ERROR = LazyRegex(r"(?m)\[(?:ERROR|FATAL|CRITICAL)\]|\[\s?(?:error|fatal|crit)\]|\blevel=(?:error|fatal)\b|\"level\":\s*\"(?:error|fatal)\"|"
                          r"\s(?:ERROR|FATAL|CRITICAL)\s|"
                          # (Celery's, with the process: ``[2024-06-10 07:00:00,012: ERROR/MainProcess] Received …``)
                          r"\s(?:ERROR|FATAL|CRITICAL)/\w+\]|"
                          # an exception a process printed as it died: ``api-1  | Error: connect ECONNREFUSED …``
                          # (or under a platform's prefix, ``[Logs]    [10/3/2024, 9:41:07 AM] [ble-scanner]
                          # FileNotFoundError: …``)
                          r"(?:^|\|\s+|\]\s+)(?:Uncaught\s+)?[A-Z]?\w*(?:Error|Exception):\s|"
                          # a CI runner's own mark, and a tool's ``error: dial tcp …`` at the start of its line
                          # (or in capitals, as pip prints it in a CI job: ``ERROR: Cannot install -r …``)
                          r"^##\[error\]|^(?:error|fatal|ERROR|FATAL)(?:\[\w+\])?:\s")
# what a service says as it fails, without a level (``migrate: dial tcp …: connect: connection refused``, ``exit status
# 1``, ``panic: …``, ``⚠️  Webhook signature verification failed.``): the whole line is the error, less its prefix
# (or a client's own report that what it sends gets nowhere: the OTel agent's ``WARN … HttpExporter - Failed to export
# spans. … Failed to connect to otel-collector/172.18.0.4:4318``)
_LOGGED_FAILING = LazyRegex(r"\bconnection refused\b|\bexit status [1-9]|(?:^|\s)panic:\s|\b[Pp]ermission denied\b|"
                            r"(?<!\d )\b[Ff]ailed[.:!](?:\s|$)|"
                            r"\bFailed to (?:export|connect to|send|deliver|publish)\b")
# a log line's prefix: compose's ``api-1  | ``, a date and time, a bracketed source (``[webhook]``), an emoji
_LOG_PREFIX = LazyRegex(r"^(?:[\w.-]+\s+\|\s*)?(?:(?:\[[\w.-]+\]|\[?\d{4}[-/]\d\d[-/]\d\d(?:[T ][\d:.,]+Z?)?\]?|"
                        r"\[?\d\d:\d\d:\d\d(?:[.,]\d+)?\]?)\s*)*[^\w\s\[(\"'`]*\s*")


# a function run locally whose answer is its error (``sam local invoke`` exits 0 with ``{"errorMessage": "Unable to
# import module 'app': …", "errorType": "Runtime.ImportModuleError"}``)
_LOCAL_INVOKE = LazyRegex(r"^(?:sam|sam\.cmd)\s+local\s+invoke\b|^(?:serverless|sls)\s+invoke\s+local\b")
_FUNCTION_ERROR = LazyRegex(r'"errorMessage"\s*:\s*"([^"]{1,300})"\s*,\s*"errorType"\s*:\s*"([^"]+)"')


def _function_failed(observation: dict, parsed: dict) -> dict | None:
    """A local run of a serverless function that printed the error it ended with: the failure it hides."""
    found = _FUNCTION_ERROR.search(observation.get("body") or "") if _LOCAL_INVOKE.match(parsed["check"]) else None
    if not found:
        return None
    from .signatures import error_signature

    text = f"{found.group(2)}: {found.group(1)}"
    return dict(observation, outcome="error", error_text=text,
                error_signature=error_signature(text, observation.get("target") or ""))


def _logged_failure(observation: dict) -> dict:
    """A service's log read back with errors in it is the failure it shows (the command itself passed): "error
    getting path or data from method: error=\"no known secret ID\"" after ``journalctl -u vault-agent``. The same log
    read later without errors is that service working again."""
    if observation["tool"] != "Bash":
        return observation
    parsed = parse_command(observation.get("target") or "")
    if observation["outcome"] == "error":
        # a CI run's verdict read back red (``gh run view 8239 --exit-status``: ``X build in 9s``) is that run's failure
        said = (observation.get("error_text") or "") + "\n" + (observation.get("body") or "")
        if not _CI_RESULT.match(" ".join(parsed["argv"])) or _CI_PENDING.search(said) and not _CI_FAILING.search(said):
            return observation  # (``gh pr checks`` exits 8 while checks are pending: no verdict)
        # (nor a search of its log that found nothing: ``gh run view 153… --log | grep -A 5 "fixtures_path ="``, exit 1
        # and no line, is the grep's answer, not the run's)
        if re.search(r"\|\s*(?:grep|egrep|rg)\b[^|]*$", observation.get("target") or "") \
                and not re.sub(r"^\s*(?:Error: )?Exit code 1\s*", "", said).strip():
            return observation
        job = re.search(r"(?m)^X (\S+) in \d", said)
        return dict(observation, logged=True, ci=True, ci_job=job.group(1) if job else None)
    if observation["outcome"] != "ok":
        return observation
    if parsed["family"].split()[:1] in (["curl"], ["wget"], ["http"], ["https"]):
        return _status_failure(observation)
    if _CLOUD_STATUS_READ.match(" ".join(parsed["argv"])):
        return _cloud_status_failure(observation)
    if "notarytool" in [_program_name(w) for w in parsed["argv"][:2]]:
        # the notary's verdict, printed by a command that exits 0: ``status: Invalid`` after ``submit … --wait``
        verdict = _NOTARY_REJECTED.search(observation.get("body") or "")
        if verdict:
            summary = re.search(r'"statusSummary"\s*:\s*"([^"]+)"', observation.get("body") or "")
            status = verdict.group(1) or verdict.group(2)
            text = f"notarization status: {status}" + (f" ({summary.group(1)})" if summary else "")
            return dict(observation, outcome="error", error_text=text, logged=True,
                        error_signature=f"notarization status {status}")
        return observation
    summary = _ci_summary_failure(observation, " ".join(parsed["argv"])) or _listed_failing(observation, parsed) \
        or _condition_failing(observation) or _function_failed(observation, parsed)
    if summary:
        return summary
    ci = bool(_CI_LOG_READ.match(" ".join(parsed["argv"])))
    # (or a platform's own ``logs``: ``balena logs 7f3e2a1 --service ble-scanner``, ``fly logs -a api``)
    if not ci and not _LOG_READ.match(parsed["family"]) and parsed["argv"][1:2] != ["logs"] and not (
            _LOG_FILE_READ.match(parsed["family"]) and any(_LOG_FILE.search(w) for w in parsed["argv"][1:])):
        return observation
    all_lines = (observation.get("body") or "").splitlines()
    jobs = []  # (the job a CI log line names first: ``integration\tRun migrations\t2024-…Z error: …``)
    if ci:
        prefixes = [_CI_LOG_PREFIX.match(line) for line in all_lines]
        all_lines = [line[m.end():] if m else line for m, line in zip(prefixes, all_lines)]
        jobs = [m.group(1) for m, line in zip(prefixes, all_lines) if m and m.group(1) and _LOGGED_ERROR.search(line)]
    # (each from its level on: a journal's date, host and process before it are no part of the error)
    lines = []
    line_jobs: dict[str, str] = {}  # (a CI log's error line and the job that printed it)
    for n, raw in enumerate(all_lines):
        if (m := _LOGGED_ERROR.search(raw)) or _LOGGED_FAILING.search(raw):
            # (less the end of the prefix the match began at: compose's ``|``, a platform's ``]``)
            line = re.sub(r"^[|\]]\s*", "", raw[m.start():].strip()) if m else _LOG_PREFIX.sub("", raw.strip())
            # (a level closing the bracket of its time, Celery's ``…: ERROR/MainProcess] Received …``: what follows)
            line = raw[m.end():].strip() or line if m and re.fullmatch(r"\s\w+/\w+\]", m.group(0)) else line
            # (a CI step's exit code says only that it failed: what it printed last before that says why)
            line = _said_before(all_lines, n) or line if ci and _CI_EXIT.search(line) else line
            lines.append(line)
            if ci and prefixes[n] and prefixes[n].group(1):
                line_jobs.setdefault(re.sub(r"^##\[error\]", "", line), one_line(prefixes[n].group(1), 60))
    if not lines:
        return observation
    from .signatures import error_signature

    # (the runner's own mark is no part of the error: ``##[error]Error: No pnpm version is specified.``)
    text = "\n".join(list(dict.fromkeys(re.sub(r"^##\[error\]", "", line) for line in lines))[:5])
    return dict(observation, outcome="error", error_text=text, logged=True, ci=ci,
                ci_job=one_line(jobs[0], 60) if jobs else None, log_of=None if ci else _log_of(parsed["argv"]),
                ci_line_jobs=line_jobs if len(set(line_jobs.values())) > 1 else None,
                error_signature=error_signature(text, observation.get("target") or ""))


# a resource listed failing: a pod's status (``CrashLoopBackOff``), a run's (tkn's ``Failed(PipelineRunTimeout)``)
_FAILING_STATUS = LazyRegex(r"^(?:CrashLoopBackOff|ImagePullBackOff|ErrImagePull|CreateContainerConfigError|"
                            r"CreateContainerError|RunContainerError|InvalidImageName|OOMKilled|Error|Evicted|"
                            r"Init:(?:Error|CrashLoopBackOff|ImagePullBackOff)|Failed(?:\(\w+\))?|"
                            # (an operator's resource in error: an ExternalSecret's ``SecretSyncedError``, a
                            # ``ReconcileFailed``, ``ProvisioningFailure``)
                            r"[A-Z][a-z]+(?:[A-Z][a-z]+)*(?:Error|Failed|Failure)|"
                            # (or in capitals: a SparkApplication's ``SUBMISSION_FAILED``, ``FAILED``)
                            r"(?:[A-Z]+_)*(?:FAILED|FAILURE|ERROR))$")
# listings of resources by their state: ``kubectl get pods``, ``kubectl get ksvc x``, ``tkn pipelinerun list``
# (and containers: ``docker compose ps -a worker`` showing ``Exited (2)``, ``docker ps`` a ``Restarting (1)``)
_STATUS_LISTING = LazyRegex(r"^(?:kubectl|oc) (?:\S+ )*?get\b|^tkn (?:pipelinerun|pr|taskrun|tr) (?:list|ls)\b|"
                            r"^(?:docker|podman)(?: compose| container)?(?: -[fp] \S+)* (?:ps|ls)\b|"
                            r"^argo (?:\S+ )*?(?:get|watch|submit)\b")
# a pod's age of minutes, hours or days (``6m12s``, ``11m``, ``3d4h``), not seconds or a minute
_STUCK_AGE = LazyRegex(r"^(?:(?:[2-9]|\d{2,})m(?:\d+s)?|\d+h(?:\d+m)?|\d+d(?:\d+h)?)$")
# (or up, and failing its healthcheck: ``Up 46 seconds (unhealthy)``)
_CONTAINER_DOWN = LazyRegex(r"^(?:Exited \((?!0\))\d+\)|Restarting \(\d+\)|Up [^()\n]*\(unhealthy\))")


# a resource's condition in error, as a jsonpath over ``.status.conditions`` prints it: ``ErrorOccurred=True
# Application.argoproj.io "{{.path.basename}}" is invalid: …``, ``Ready=False …``
# (and Chaos Mesh's ``AllInjected=False``: a fault that reached none of the pods it selected)
_CONDITION_FAILING = LazyRegex(r"(?m)^\s*(?:(?:ErrorOccurred|Degraded|Failed|Stalled|ReconcileError|InvalidSpecError)"
                               r"=True|(?:Ready|Available|Healthy|Synced|AllInjected)=False)\b[^\n]*")
_JSON_CONDITION = LazyRegex(r"""\{[^{}\n]*?(?:"status"\s*:\s*"(?P<status>True|False)"[^{}\n]*?"""
                            r""""type"\s*:\s*"(?P<type>\w+)"|"""
                            r""""type"\s*:\s*"(?P<type2>\w+)"[^{}\n]*?"status"\s*:\s*"(?P<status2>True|False)")""")


def _condition_failing(observation: dict) -> dict | None:
    """A resource's conditions asked of the cluster (``kubectl -n argocd get applicationset platform-apps -o
    jsonpath='{range .status.conditions[*]}…'``) that show one in error: the failure it shows, the command having
    passed. A later read of the namespace that answers without it is the resource working again."""
    # (through ``jq`` too: ``… -o jsonpath='{.status.conditions}' | jq -c '.[]'``)
    asked = re.sub(r"\s*\|\s*jq\b[^|;&]*$", "", " ".join((observation.get("target") or "").split()))
    if not _FIELD_ASKED.match(asked) or "conditions" not in asked:
        return None
    body = observation.get("body") or ""
    # (or as JSON objects, one per line through ``jq -c '.[]'``: ``{"status":"False","type":"AllInjected"}``)
    conditions = [f"{m.group('type') or m.group('type2')}={m.group('status') or m.group('status2')}"
                  for m in _JSON_CONDITION.finditer(body)]
    failing = _CONDITION_FAILING.search(body) or _CONDITION_FAILING.search("\n".join(conditions))
    if failing is None:
        return None
    from .signatures import error_signature

    text = one_line(failing.group(0).strip(), 300)
    return dict(observation, outcome="error", error_text=text, logged=True, status_read=True,
                error_signature=error_signature(text, observation.get("target") or ""))


def _listed_failing(observation: dict, parsed: dict) -> dict | None:
    """A listing of resources that shows one failing, though the command passed: a pod in ``CrashLoopBackOff``
    (``kubectl -n falco get pods``), a Knative service ``READY False`` with its reason (``RevisionMissing``), the last
    PipelineRun ``Failed(PipelineRunTimeout)``. The same listing without it later is the resource working again."""
    argv = " ".join(parsed["argv"])
    if not _STATUS_LISTING.match(argv):
        return None
    lines = [line for line in (observation.get("body") or "").splitlines() if line.strip()]
    if re.search(r"(?:^|\s)(?:-o|--output)(?:=|\s+)(?!wide\b)", argv):
        # (a listing printed in the columns asked for: ``-o jsonpath='{range .items[*]}{.metadata.name}{" "}{….
        # terminated.reason}{"\n"}{end}'`` prints ``ledger-export-manual-r4t8m-2kq9d OOMKilled``)
        rows = [line.split() for line in lines] if re.search(r"(?:=|\s)(?:'|\")?(?:jsonpath|custom-columns)", argv) \
            and not argv.startswith(("docker", "podman")) else []
        failing = [f"{row[0]}: {row[-1]}" for row in rows if 2 <= len(row) <= 4 and _FAILING_STATUS.match(row[-1])]
        return _failing_listed(observation, failing) if failing else None
    if argv.startswith("argo"):
        # (an Argo workflow's steps, a failed one marked ``✖`` with its message: ``└─✖ extract  extract  nightly-…
        # 41s  failed to save outputs: You need to configure artifact storage…``)
        header = next((line for line in lines if re.match(r"\s*STEP\s", line) and "MESSAGE" in line), None)
        column = header.index("MESSAGE") if header else None
        failing = [f"{m.group(1)}: {row[column:].strip() or 'Failed'}" if column and len(row) > column
                   else f"{m.group(1)}: Failed" for row in lines if (m := re.search(r"[✖✗]\s+(\S+)", row))
                   and "─" in row[:m.start()]]  # (a step of the tree, not the workflow's own line above them)
        return _failing_listed(observation, failing) if failing else None
    # (after what a step before it said: ``pod "falco-7x2kq" deleted``)
    lines = lines[next((n for n, line in enumerate(lines) if re.match(r"NAMES?\s", line)), len(lines)):]
    if not lines:
        return None
    header = lines[0]
    status = re.search(r"(?<=\s)STATUS\b", header)
    service = re.search(r"(?<=\s)SERVICE\b", header)  # (compose's: the service a container runs, by its name)
    # (a condition's column: ``False`` there, a Knative service's or a Certificate's, is the resource not ready; a
    # pod's ``0/1`` is no condition)
    ready = re.search(r"(?<=\s)READY\b", header)
    reason = re.search(r"(?<=\s)REASON\b", header)
    rows = lines[1:2] if argv.startswith("tkn") else lines[1:]  # (a run's list: the last run, newest first)
    failing = []
    for row in rows:
        name = row[service.start():].split()[0] if service and len(row) > service.start() and \
            row[service.start()] != " " else row.split()[0]
        value = row[status.start():].split()[0] if status and len(row) > status.start() and \
            row[status.start()] != " " else ""
        down = _CONTAINER_DOWN.match(row[status.start():]) if status and argv.startswith(("docker", "podman")) else None
        if down:
            failing.append(f"{name}: {down.group(0)}")
        elif _FAILING_STATUS.match(value) and not argv.startswith(("docker", "podman")):
            failing.append(f"{name}: {value}")
        elif re.fullmatch(r"Init:\d+/\d+", value) and _STUCK_AGE.search(row.split()[-1]):
            # (a pod still initialising minutes on: ``Init:0/1`` at ``6m12s``, its init container never done)
            failing.append(f"{name}: {value} for {row.split()[-1]}")
        elif ready and row[ready.start():ready.start() + 6].strip() == "False":
            why = row[reason.start():].split()[:1] if reason and len(row) > reason.start() else []
            failing.append(f"{name}: Ready False" + (f" ({why[0]})" if why else ""))
    return _failing_listed(observation, failing) if failing else None


def _failing_listed(observation: dict, failing: list[str]) -> dict:
    """``observation`` as the failure of the resources it listed failing (``name: status`` each)."""
    from .signatures import error_signature

    text = "\n".join(failing[:3])
    return dict(observation, outcome="error", error_text=text, logged=True,
                listed=[f.split(":")[0] for f in failing],
                error_signature=error_signature(re.sub(r"^\S+: ", "", failing[0]), observation.get("target") or ""))


def _ci_summary_failure(observation: dict, argv: str) -> dict | None:
    """A CI run's summary read back red (``gh run view 9201133871``: ``X build-and-upload in 3s`` and its annotations,
    "X This request has been automatically failed because it uses a deprecated version of
    `actions/upload-artifact: v3`"): that run's failure, though the command passed."""
    if not re.match(r"gh run view\b", argv) or re.search(r"\s--log", argv):
        return None
    body = observation.get("body") or ""
    job = re.search(r"(?m)^X (\S+) in \d", body)
    if not job:
        return None
    from .signatures import error_signature

    annotations = body.split("ANNOTATIONS", 1)[1] if "ANNOTATIONS" in body else ""
    said = [line[2:].strip() for line in annotations.splitlines() if line.startswith("X ")]
    text = "\n".join(said[:5]) or job.group(0)
    return dict(observation, outcome="error", error_text=text, logged=True, ci=True, ci_job=job.group(1),
                error_signature=error_signature(text, observation.get("target") or ""))


# a status a service reports failed, in the JSON it answers with (Kafka Connect's ``"state": "FAILED"``, a health
# check's ``"status": "DOWN"``)
_STATUS_FAILED = LazyRegex(r"\"(?:state|status|health)\"\s*:\s*\"(?:FAILED|DOWN|ERROR|UNHEALTHY|CRASHED|"
                           r"failed|down|error|unhealthy)\"")
# an HTTP API's error object (``{"error_code": 400, "message": …}``, ``{"status": 500, "error": "Internal Server
# Error", …}``)
_HTTP_ERROR_BODY = LazyRegex(r'"error_code"\s*:\s*[45]\d\d\b|"(?:status|statusCode)"\s*:\s*[45]\d\d\b(?=[^{}]{0,400}'
                             r'"(?:error|message)"\s*:)|"(?:error|message)"\s*:[^{}]{0,400}?"(?:status|statusCode)"\s*:'
                             r'\s*[45]\d\d\b|'
                             # (or an answer that is only its error: Druid's ``{"error":"Unexpected character ('$' …"}``,
                             # Elasticsearch's ``{"error":{"root_cause":…}}``, GraphQL's ``{"errors":[{…}]}``)
                             r'\A\s*\{\s*"errors?"\s*:\s*(?:"|\{|\[\s*\{)|'
                             # (or whose status is its error: Qdrant's ``{"status":{"error":"Wrong input: …"}}``)
                             r'"status"\s*:\s*\{\s*"error"\s*:\s*"')
_BARE_STATE = LazyRegex(r"FAILED|DOWN|ERROR|UNHEALTHY|CRASHED")
# the error it gives with it, in a trace or a message field: the last one, the root cause
_REPORTED_ERROR = LazyRegex(r"(?:[\w$]+\.)*[A-Z]\w*(?:Exception|Error): (?:[^\\\"\n]|\\[^n])+|"
                            r"\bERROR: (?:[^\\\"\n]|\\[^n])+")


# Apple's notary service turning a submission down (``notarytool submit --wait``, ``notarytool info``/``log``)
_NOTARY_REJECTED = LazyRegex(r'(?m)^\s*(?:Current\s+)?status:\s*(Invalid|Rejected)\b|"status"\s*:\s*"(Invalid|Rejected)"')


def _status_failure(observation: dict) -> dict:
    """A service's status read over HTTP that says it failed (``curl -s localhost:8083/connectors/orders-cdc/status``
    answers ``"state": "FAILED"`` with a trace): the failure it shows, though the request itself passed. The same
    read later without it is that service working again."""
    from .signatures import error_signature

    body = observation.get("body") or ""
    # (the status code alone, as ``-w '%{http_code}'`` prints it: ``404``)
    # (or after the answer, on a line of its own: PostgREST's ``{"code":"PGRST202",…,"message":"Could not find the
    # function api.monthly_revenue(year) in the schema cache"}`` then ``404``)
    code = re.search(r"(?:\A|\n)\s*([45]\d\d)\s*\Z", body) if "http_code" in (observation.get("target") or "") else None
    if code:
        message = re.search(r'"(?:message|error)"\s*:\s*"((?:[^"\\]|\\.){1,200})"', body[:code.start()])
        text = f"HTTP {code.group(1)}" + (f"\n{message.group(1)}" if message else "")
        return dict(observation, outcome="error", error_text=text, logged=True,
                    error_signature=error_signature(text, observation.get("target") or "") or text)
    # (or the status line curl's ``-i`` prints first, the last of them after redirects: ``HTTP/1.1 403 Forbidden``
    # above "Cross-site POST form submissions are forbidden")
    argv = parse_command(observation.get("target") or "")["argv"]
    if any(re.fullmatch(r"-[a-zA-Z]*i[a-zA-Z]*|--include", w) for w in argv[1:]):
        statuses = list(re.finditer(r"(?m)^HTTP/[\d.]+ (\d{3})\b[^\n]*", body))
        if statuses and statuses[-1].group(1)[0] in "45":
            said = [l.strip() for l in body[statuses[-1].end():].split("\n\n", 1)[-1].splitlines() if l.strip()]
            text = statuses[-1].group(0).strip() + (f"\n{said[0][:200]}" if said else "")
            return dict(observation, outcome="error", error_text=text, logged=True,
                        error_signature=error_signature(text, observation.get("target") or "") or text)
    failed = _STATUS_FAILED.search(body)
    refused = None if failed else _HTTP_ERROR_BODY.search(body)
    if refused:
        # (or the request refused in the answer's own words, printed by a ``curl -s`` that exits 0: Kafka Connect's
        # ``{"error_code": 400, "message": "Connector configuration is invalid … The 'topic.prefix' value is invalid:
        # A value is required …"}``)
        message = re.search(r'"(?:message|reason|error)"\s*:\s*"((?:[^"\\]|\\.)*)"', body)
        lines = [line for line in (message.group(1) if message else "").replace("\\n", "\n").splitlines()
                 if line.strip()]
        # (past a line that only announces the list: "… contains the following 1 error(s):")
        lines = lines[1:] if len(lines) > 1 and lines[0].rstrip().endswith(":") else lines
        text = "\n".join(lines[:3]) if lines else refused.group(0)
        return dict(observation, outcome="error", error_text=text, logged=True,
                    error_signature=error_signature(text, observation.get("target") or ""))
    if not failed:
        # (or the field alone, ``jq -r '.tasks[0].state'`` → ``FAILED``, read from a status or health endpoint)
        lines = body.split()
        if lines and all(_BARE_STATE.fullmatch(line) for line in lines) \
                and re.search(r"/(?:status|health\w*)\b|\.(?:state|status|health)\b", observation.get("target") or ""):
            return dict(observation, outcome="error", error_text=body.strip(), logged=True,
                        error_signature=f"state {lines[-1]}")
        # (or the trace a failed task keeps, read alone from its status: ``jq -r '.tasks[0].trace'`` → ``io.debezium
        # .DebeziumException: … Caused by: org.postgresql.util.PSQLException: ERROR: logical decoding requires …``)
        # (its state first, too: ``jq -r '.tasks[0].state, .tasks[0].trace'`` → ``FAILED`` then the trace)
        if not (re.search(r"/status\b.*\.trace\b", observation.get("target") or "")
                and re.match(r"\s*(?:(?:FAILED|FAILURE|ERROR)\s*\n\s*)?(?:[\w$]+\.)*[A-Z]\w*(?:Exception|Error): ",
                             body)):
            return observation
    errors = [m.group(0).strip() for m in _REPORTED_ERROR.finditer(body)]
    text = errors[-1] if errors else failed.group(0)
    return dict(observation, outcome="error", error_text=text, logged=True,
                error_signature=error_signature(text, observation.get("target") or ""))


# one resource's state asked of a cloud's CLI: ``aws deploy get-deployment --deployment-id d-7QX2K9ABC``, ``aws
# cloudformation describe-stacks``, ``gcloud builds describe``, ``az deployment group show`` (not a listing of many)
_CLOUD_STATUS_READ = LazyRegex(r"^(?:aws (?:--?[\w-]+ \S+ )*[\w-]+ (?:get|describe|batch-get)-[\w-]+|"
                               r"gcloud (?:[\w-]+ ){1,3}describe|az (?:[\w-]+ ){1,3}show|"
                               # (or a read of Azure's REST API: ``az rest --method get --uri …/configreferences/…``)
                               r"az rest(?!.*\s--?m(?:ethod)?[ =](?i:put|post|patch|delete)\b))\b")
# the state it answers, failed: ``"status": "Failed"``, a queried field alone (``"Failed",``), ``status: FAILURE``,
# CloudFormation's ``ROLLBACK_COMPLETE``
_CLOUD_FAILED = LazyRegex(r"(?m)^\s*(?:\"?(?:[Ss]tatus|[Ss]tate|\w+Status)\"?\s*:\s*)?\"?(?:Failed|FAILED|FAILURE|Failure|"
                          r"(?:UPDATE_|CREATE_)?ROLLBACK_(?:COMPLETE|FAILED)|(?:CREATE|UPDATE|DELETE)_FAILED)\"?,?\s*$")


# (or an item whose own state is not an answer of success, beside details that say why it failed: App Service's
# ``"details": "Key Vault reference was not able to be resolved because …"``, ``"status": "MSINotEnabled"``)
_CLOUD_DETAILS_FAILED = LazyRegex(r'"(?:details|message|errorMessage|reason|statusReason)"\s*:\s*"((?:[^"\\]|\\.)*?'
                                  r'\b(?:not able to|unable to|could not|cannot|failed|denied|not found|'
                                  r'not authori[sz]ed|forbidden)\b(?:[^"\\]|\\.)*)"')
_CLOUD_OK = LazyRegex(r'"(?:status|state|provisioningState)"\s*:\s*"(?:Resolved|Succeeded|Success|Healthy|Running|OK|'
                      r'Ready|Available|Active|Enabled|Completed?)"', re.I)


def _cloud_failed(body: str) -> str | None:
    """What a cloud CLI's answer says failed (its message where it has one), or None."""
    failed = _CLOUD_FAILED.search(body)
    if failed:
        messages = re.findall(r'"(?:message|errorMessage|StatusReason|statusReason)"\s*:\s*"((?:[^"\\]|\\.)+)"', body)
        return one_line(messages[0], 300) if messages else failed.group(0).strip().rstrip(",")
    details = _CLOUD_DETAILS_FAILED.search(body)
    if details and not _CLOUD_OK.search(body):
        status = re.search(r'"(?:status|state)"\s*:\s*"([^"]+)"', body)
        name = re.search(r'"name"\s*:\s*"([^"]+)"', body)
        # (the item's name after its state: "DB_PASSWORD: MSINotEnabled" would read as a password set)
        return one_line((f"{status.group(1)} " if status else "") + (f"for {name.group(1)} " if name else "")
                        + f"({details.group(1)})", 300)
    return None


def _cloud_status_failure(observation: dict) -> dict:
    """A resource's state read from a cloud's CLI that says it failed (``aws deploy get-deployment`` → ``"Failed"``
    and its ``"message"``): the failure it shows, though the command passed. The same read later, of the next
    deployment, without it (``"Succeeded"``) is that working again."""
    from .signatures import error_signature

    text = _cloud_failed(observation.get("body") or "")
    if not text:
        return observation
    return dict(observation, outcome="error", error_text=text, logged=True, cloud_status=True,
                error_signature=error_signature(text, observation.get("target") or ""))


def status_read_again(failure: dict, later: dict) -> bool:
    """Whether a passing ``later`` line reads again the state a cloud's CLI showed failed, of the same kind of
    resource, and it has not failed (``aws deploy wait deployment-successful --deployment-id d-9RT4M1XYZ && aws deploy
    get-deployment --deployment-id d-9RT4M1XYZ`` → ``"Succeeded"``, after ``aws deploy get-deployment
    --deployment-id d-7QX2K9ABC`` → ``"Failed"``)."""
    if not failure.get("cloud_status") or later["tool"] != "Bash" or later["outcome"] != "ok" \
            or _cloud_failed(later.get("body") or ""):
        return False
    def verb(command: str) -> list[str]:  # (the CLI's words before the resource's name and options)
        return [w for w in parse_command(command)["argv"] if not w.startswith("-")][:3]

    asked = verb(failure["target"])
    return any(verb(step) == asked for step in _and_steps(later["target"]) or [later["target"]])


_LOG_OPTION_VALUE = frozenset({"--tail", "-n", "--since", "--until", "--index", "-c", "--container", "-l", "--selector",
                               "--namespace", "-p", "--priority", "-b", "--boot", "-o", "--output"})


def _log_of(argv: list[str]) -> str | None:
    """What a log read back is the log of: its file (``tail -4 logs/dev.log``), or the one service or unit it names
    (``docker compose logs api --tail 5``, ``journalctl -u vault-agent``, ``kubectl logs deploy/api``)."""
    files = [w for w in argv[1:] if _LOG_FILE.search(w)]
    if files:
        return files[0]
    # (the service a fleet's or a platform's log is filtered to: ``balena logs 7f3e2a1 --service ble-scanner``)
    services = [w.split("=", 1)[1] for w in argv if w.startswith("--service=")] + [
        argv[n + 1] for n, w in enumerate(argv[:-1]) if w == "--service"]
    if len(services) == 1:
        return services[0]
    units = [w.split("=", 1)[1] for w in argv if w.startswith("--unit=")] + [
        argv[n + 1] for n, w in enumerate(argv[:-1]) if w in ("-u", "--unit")]
    # (the subcommand after the program's own options: ``kubectl -n payments logs deploy/payments-worker``)
    verb = next((n for n, w in enumerate(argv[1:5], start=1) if w == "logs" and argv[n - 1] not in _LOG_OPTION_VALUE),
                None)
    if verb:
        after = argv[verb + 1:]
        units += [w for n, w in enumerate(after) if not w.startswith("-") and (n == 0 or after[n - 1] not in
                                                                               _LOG_OPTION_VALUE)]
    return units[0] if len(units) == 1 else None


_CI_EXIT = LazyRegex(r"(?i)^##\[error\](?:Process completed|.{0,40}\bexit(?:ed)?) with (?:exit )?code \d+\.?$")


def _said_before(lines: list[str], n: int) -> str | None:
    """The last line a CI step printed before line ``n`` (not the runner's own ``##[group]`` or ``##[endgroup]``, nor
    a linter's excerpt of the source under its message: ``31 |   python-version: …``, ``|   ^~~~~``)."""
    return next((line.strip() for line in reversed(lines[:n]) if line.strip() and not line.lstrip().startswith("##[")
                 and not _CI_EXIT.search(line.strip()) and not re.match(r"\s*(?:\d+\s*)?\|", line)), None)


def _ci_again(failure: dict, later: dict, events: list[dict]) -> str | None:
    """A CI run read again, when what failed was a CI run's log (``gh run view 938 --log-failed`` showed ``error: dial
    tcp …``): "passed" when it is green after an edit (``gh pr checks 412 --watch``), "same" when it failed again with
    the error seen before, "other" when with another, "look" when it says nothing of the change (no edit yet, checks
    still pending); the run ids differ, the job is the same. None for anything but a CI read."""
    reads = [m.group(0) for segment in _segments(later.get("target") or "")
             if (m := _CI_RESULT.match(" ".join(parse_command(segment)["argv"])))] if later["tool"] == "Bash" else []
    if not failure.get("ci") or not reads:
        return None
    if later["outcome"] == "ok":
        # (``gh run list … --limit 1``: its first row is the newest run, ``completed	success	…``, or in a terminal,
        # under the ``STATUS  TITLE …`` header, ``✓       ci: install pnpm …``)
        first = next((line for line in (later.get("body") or "").splitlines()
                      if line.strip() and not re.match(r"STATUS\s+TITLE\b", line)), "")
        green = reads[0] != "gh run list" or re.search(r"\bsuccess\b|^\s*✓", first)
        # (before any edit, another look at the same or an older run: ``gh run view 118 --log | grep postgres``)
        return "passed" if green and any(e["tool"] in EDIT_TOOLS for e in events) else "look"
    again = (later.get("error_text") or "") + "\n" + (later.get("body") or "")
    if _CI_PENDING.search(again) and not _CI_FAILING.search(again):
        return "look"  # ``gh pr checks 412`` exits 8 while checks are pending: no verdict yet
    # (the failure's lines as _logged_failure kept them, without the runner's marks: found inside ``X Error: …``)
    seen = [line.strip() for line in (failure.get("error_text") or "").splitlines()]
    return "same" if any(len(line) >= 12 and line in again for line in seen) else "other"


def _is_check(observation: dict) -> bool:
    """A shell command, or an MCP tool call (``serena.read_memory``): both can fail and pass again."""
    return observation["tool"] == "Bash" or _is_mcp(observation) if observation.get("target") else False


def _is_mcp(observation: dict) -> bool:
    return observation["tool"].startswith("mcp__")


# an MCP tool that changes its server's state (``activate_project``, ``set_context``, ``login``)
_MCP_STATEFUL = LazyRegex(r"(?:^|_)(?:activate|select|switch|set|open|connect|login|authenticate|init|initiali[sz]e|"
                          r"create|start|enable|configure|register|use|load|mount)(?:_|$)")
# an MCP result that is an error although the call "succeeded": ``{"result":"Error: No active project…"}``
_MCP_ERROR = LazyRegex(r"^\s*(?:\{\s*\"(?:result|text|content)\"\s*:\s*\")?(?:Error|ERROR)\b\s*:|"
                       r"^\s*\{\s*\"error\"\s*:")


def _mcp_outcome(observation: dict) -> dict:
    """An MCP call whose result is an error message is a failure, whatever the tool call's status said."""
    if not _is_mcp(observation) or observation["outcome"] != "ok" or not _MCP_ERROR.search(observation.get("body") or ""):
        return observation
    body = observation.get("body") or ""
    text = re.sub(r'^\s*\{\s*"\w+"\s*:\s*"|"\s*\}\s*$', "", body).replace('\\"', '"')
    from .signatures import error_signature

    return dict(observation, outcome="error", error_text=text, error_signature=error_signature(text))


# the agent's account names a command as the project's way ("have to be run with `terragrunt plan`")
# ("so `bitbake` only exists inside kas:" then "- single recipe: `kas shell kas/rpi4.yml -c 'bitbake sensord'`")
_THE_WAY = LazyRegex(r"(?i)\b(?:ha(?:ve|s) to|must|needs? to|only works?|"
                     r"only (?:exists?|runs?|lives?|is available) (?:inside|within|under|through|via)\b|"
                     # (not what should follow: "`liquibase validate` is clean, so the CI step should be green now")
                     r"should(?!\s+(?:now\s+|also\s+)?(?:pass|work|succeed|turn|stay|come|get|go\s+(?:through|green)|"
                     r"be\s+(?:green|fine|ok|"
                     r"okay|good|clean|passing|fixed|resolved|happy|unblocked|gone|back)\b))|"
                     r"(?:is|are) (?:meant|supposed) to|"
                     # (not a run that will succeed: "so the next plan in the workspace should go through.")
                     r"(?:is|are) run (?:with|through|from|via)|(?<!should )(?<!will )(?<!would )(?<!can )"
                     r"(?:it |they |this |that )?go(?:es)? (?:through|via)|"
                     r"(?:run|use) (?:it |them )?from|"
                     # ("Routed it through the project's Makefile target, `make route BOARD=sensor-node`"; "The
                     # project's way to run the tests:")
                     r"\b(?:through|via) the (?:project|repo|repository|team)'s\b|"
                     r"\b(?:project|repo|repository|team|codebase)'s (?:own |usual |supported )?way\b|"
                     # ("Run the tests the way the repo expects: `.\build.ps1 -Task Test`")
                     r"\bthe way (?:the |this |our )?(?:project|repo|repository|team|codebase|CI) (?:expects|wants|"
                     r"does it|runs them)\b|"
                     # ("In this repo the interaction tests run against the static build …: `npm run …`")
                     r"\b(?:in|for) this (?:repo|repository|project|codebase|monorepo)\b[^.]{0,40}\brun\b|"
                     # ("the JSON is regenerated with `make dashboards`")
                     r"(?:is|are|'re) (?:re-?)?(?:created|made|generated|added|done|built|deployed|pushed|applied|"
                     r"published|released|rendered|compiled) (?:with|by|using|via|through)|"
                     r"(?:run|use|invoke)(?: it| them| the \w+)? (?:with|through|via|instead|as)|^\W*use|"
                     # ("The way to run the suite is `.\build.ps1 -Task Test`")
                     r"the (?:right |only )?way to \w+(?: \w+){0,2} (?:it |them )?is|(?:is|are) the (?:\w+ )?way to\b|"
                     # ("so the way in is `make sim TEST=test_uart_rx`")
                     r"\bthe (?:only )?way in is\b|"
                     # "the supported path is `bash tools/build.sh debug`"
                     r"the (?:supported|documented|official|recommended) (?:path|way|route|entry ?point)\b|"
                     # ("The team builds QA IPAs through fastlane instead: `bundle exec fastlane ios adhoc_ipa`")
                     # ("This repo uses Kaocha through `bin/kaocha`")
                     r"\b(?:team|we|project|repo|repository|CI)\s+(?:\w+\s+)?(?:builds?|runs?|deploys?|ships?|"
                     r"releases?|publish(?:es)?|migrates?|signs?|generates?|drives?|uses?)\b"
                     r"[^.;:`]{0,40}?\s(?:through|via)(?=\s)|"
                     # ("The project runs CT with `docker compose run --rm ct` (per CONTRIBUTING.md)", its code
                     # taken out of the prose)
                     r"\b(?:team|project|repo|repository)\s+runs?\b[^.;:`]{0,40}?\swith(?=\s*(?:\(|[,;.]|$))|"
                     # ("CI builds it with `emBuild`", "this repo runs the filter tests inside the `lfv` service")
                     r"\b(?:team|we|project|repo|repository|CI)\s+(?:builds?|runs?|tests?)\b[^.;:`]{0,40}?\s"
                     r"(?:with|inside)\b|"
                     # ("Ran `./build.sh Test` instead": the way, its code taken out)
                     r"^\W*(?:I\s+)?(?:ran|used)\s+instead\b|"
                     # "The README's way is `meltano --environment=dev run orders-el`"
                     r"\b(?:README|docs?|CONTRIBUTING|Makefile|repo|repository|project|team)(?:'s|’s) (?:own )?way\b|"
                     # ("The repo's wrapper `./scripts/cromwell-local.sh <wdl> <inputs>` starts Cromwell with …")
                     r"\b(?:repo|repository|project|team)(?:'s|’s) (?:own )?wrapper\b|"
                     # "docs/RELEASING.md says local QA builds are `./gradlew :app:assembleStagingRelease`" (read
                     # without its code: "… says local QA builds are — R8-minified")
                     r"\bsays?\b[^.]{0,80}\b(?:is|are)(?=\s*(?:[—–,;:.]|$))|"
                     # "AGENTS.md says to use `wmill script preview <path> -d '<json args>'`"
                     r"\bsays? to (?:use|run|go through)\b|"
                     # "this repo wraps the whole thing (build, serve, wait, run) in `npm run test-storybook:ci`"
                     r"\bwraps?\b[^.]{0,80}\bin(?=\s*(?:[—–,;:.]|$))|"
                     # "The Makefile does exactly that — `make pipeline` rebuilt the survey targets"
                     r"\b(?:Makefile|justfile|script|wrapper|alias|target|task) does (?:exactly |just )?(?:that|this)\b|"
                     # "The project's script does it right: `yarn android:dev`"
                     r"(?:repo|repository|project|codebase|team)'s (?:own )?(?:\w+ )?scripts? (?:does|do|gets|handles) "
                     r"(?:it|this|that)\b|"
                     # "the entry point is `./gradlew :app:generateBaselineProfile`"
                     # ("The project's entry point is `make screenshots`"; "… and `make test` is the entry point")
                     # ("The intended entry point is `make molecule SCENARIO=ubuntu2204`")
                     r"(?:the|\w+'s) (?:\w+ )?entry ?point (?:is|for)\b|(?:is|are) the entry ?point\b|"
                     # ("this is an fpm package and `fpm test` sorts that out")
                     r"\bsorts? (?:that|this|it|them) out\b|\btakes? care of (?:that|this|it)\b|"
                     # ("This app uses Solid Queue, whose worker is `bin/jobs`")
                     r"\bwhose (?:worker|runner|entry ?point|launcher|command|CLI) is\b|"
                     # "the repo's `./scripts/build-appimage.sh` is the intended path"
                     r"(?:is|are) the (?:intended|supported|documented|expected|usual|standard) (?:path|way|route|"
                     r"entry ?point)\b|"
                     # "`pod update` on the Firebase pods is the right command after a version bump"
                     r"(?:is|was) the (?:right|correct|proper) (?:command|way|tool|invocation)|"
                     # "build.sbt defines aliases for this — `sbt unitTests` runs core + api only (what I used)"
                     r"what I (?:used|ran)|(?:defines?|provides?|has) (?:\w+ )?(?:aliases?|scripts?|targets?|tasks?) "
                     r"for (?:this|that|it)|"
                     # "The repo's way (CONTRIBUTING.md) is `make molecule ROLE=nginx`"
                     r"(?:repo|repository|project|codebase|team)'s (?:own |usual |documented )?"
                     r"(?:way|recipe|wrapper|rule|convention)\b|"
                     # "So the project's commands are `./gradlew spotlessCheck` to check and `… spotlessApply` to fix"
                     r"(?:repo|repository|project|codebase|team)'s (?:own )?(?:commands?|tasks?|scripts?) "
                     r"(?:is|are|for)\b|"
                     # "This repo submits them with `make druid-submit SPEC=clickstream_kafka`"
                     r"(?:this|the|our) (?:repo|repository|project|codebase|team) \w+s (?:them |it |its \w+ |their \w+ )?"
                     r"(?:with|through|via|using)\b|"
                     # "The staging plan came from `make plan ENV=staging`", "runs its specs through `bin/test`", "this
                     # repo runs SQL jobs with `docker compose run --rm sql-client …`"
                     r"c(?:a|o)mes? from|runs? (?:its |their |the )?(?:\w+ )?\w+ (?:through|via|with)|"
                     # "the repo drives them through fastlane — `bundle exec fastlane ios tests`"
                     # (or inside what it runs them in: "`bin/system-test …` runs them inside the `web` container";
                     # "Run it as `mint run swiftlint --strict`")
                     r"(?:drives?|runs?|executes?) (?:it|them) (?:through|via|with|inside|as)\b|"
                     # "Per docs/runbooks/canary.md I ran `kubectl argo rollouts promote …`": the documented way
                     r"\bper (?:the )?(?:[\w./-]+\.(?:md|rst|txt|adoc)|README|runbook|docs)\b|"
                     r"(?:is|was|are|were) (?:produced|generated) (?:by|with|from|via|through)|"
                     # "`./scripts/tf.sh staging plan` does the `tofu init` … and passes the tfvars for you"
                     r"for you|"
                     # "The Makefile wraps it — `make plan ENV=staging` runs `tofu init …`"
                     r"wraps (?:it|them|this|that)|(?:is|are) wrapped (?:in|by)|"
                     # "From now on register with `prefect --no-prompt deploy --all`"
                     r"from now on,? (?:\w+ )?\w+ (?:with|using|via|through|by))\b")


def _names_run(argv: list[str], sentence: str) -> bool:
    """Whether ``sentence`` quotes a run of the program and subcommand ``argv`` starts with (`terragrunt plan`); a
    line that runs an interpreter's code (``pwsh -Command "Invoke-Pester …"``) is named by that code."""
    code = _interpreter_code(argv)
    if code is not None:
        argv = _words(code)
    # (or a script it runs: ``pwsh -NoProfile -File ./build.ps1 -Tasks test`` is named by `./build.ps1 -Tasks test`;
    # after its policy too, ``powershell -NoProfile -ExecutionPolicy Bypass -File .\deploy\release.ps1 -Env staging``)
    script = next((n for n, w in enumerate(argv[1:7], start=1) if w.lower() == "-file"), None) \
        if argv and _POWERSHELL.fullmatch(_program_name(argv[0])) else None
    if script is not None and len(argv) > script + 1:
        argv = argv[script + 1:]
    # (or a jar it runs: ``java -jar tools/cromwell-86.jar run …`` is named by `cromwell-86.jar run`, or by the way it
    # runs it, "the direct `java -jar` call crashes")
    if argv[:1] == ["java"] and argv[1:2] == ["-jar"] and any(span.split() == ["java", "-jar"]
                                                              for span in _code_spans(sentence)):
        return True
    if argv[:1] == ["java"] and argv[1:2] == ["-jar"] and len(argv) > 2:
        argv = argv[2:]
    # the program, and its subcommand when it has one (``terraform plan``, ``nim c``; not a file it runs)
    # (past where it runs: ``kubectl -n shop get …`` is ``kubectl get``)
    if argv and _program_name(argv[0]) in ("kubectl", "oc", "helm") and argv[1:2] in (["-n"], ["--namespace"],
                                                                                      ["--context"]):
        argv = argv[:1] + argv[3:]
    head = [_program_name(argv[0])] + [w for w in argv[1:2] if re.fullmatch(r"[a-z][\w:-]*", w)] if argv else []
    # (a package script by its name too: `npm run deploy` names no ``npm run build``)
    if head[1:] == ["run"] and head[0] in _PACKAGE_RUNNERS and len(argv) > 2 and not argv[2].startswith("-"):
        head.append(argv[2])

    def matches(words: list[str]) -> bool:  # (a placeholder stands for any word past the program:
        # `./scripts/deploy-job.sh <env> …`; `{shard}` alone names no program)
        return len(words) == len(head) and all(_program_name(w) == h or n and re.fullmatch(r"<[\w-]+>|\{[\w-]+\}", w)
                                               for n, (w, h) in enumerate(zip(words, head)))

    # (a package script is named by its name: `verify:ios` for ``npm run verify:ios``)
    script = argv[2] if len(argv) > 2 and head[:2] == [_program_name(argv[0]), "run"] and head[0] in _PACKAGE_RUNNERS \
        and ":" in argv[2] else None
    # (a recipe by its file: "The Makefile's `test` target is the supported entry point" for ``make test``)
    target = re.escape(head[1]) if len(head) == 2 and head[0] in ("make", "just") else None
    by_file = bool(target) and bool(re.search(rf"(?i)\b(?:make|just)file's `{target}` (?:target|recipe)\b|`{target}` "
                                              rf"(?:target|recipe) (?:in|of) (?:the )?(?:make|just)file\b", sentence))
    # (a project's script by its path alone: "must go through `scripts/osc.sh`" for ``./scripts/osc.sh orders …``)
    path = argv[0].removeprefix("./") if argv and "/" in argv[0] and re.search(r"\.(?:sh|py|rb|ps1|js|ts)$", argv[0]) \
        else None
    # (or the script an interpreter ran: "running `src/invoicer/cli.py` directly" for ``python src/invoicer/cli.py``)
    ran = argv[1] if len(argv) > 1 and _program_name(argv[0]) in ("python", "python3", "node", "ruby", "php", "bun",
                                                                    "deno") else ""
    if not path and "/" in ran and re.search(r"\.(?:py|rb|js|mjs|ts|php)$", ran):
        path = ran.removeprefix("./")
    # (or the file any tool was given, said to be run so: "exporting `main.p8` directly fails" for ``pico8 main.p8
    # -export build/mossgrove.html``)
    given = next((w for w in argv[1:] if not w.startswith("-")), "")
    if re.search(r"\w\.\w{1,4}$", given) and re.search(
            rf"`(?:\./)?{re.escape(given.removeprefix('./'))}`\s+(?:directly|alone|on its own|by itself)\b", sentence):
        return True
    return bool(head) and (by_file or any(matches(parse_command(span)["argv"][:len(head)]) or span == script
                                          or path and span.removeprefix("./") == path
                                          for span in _code_spans(sentence)))


@functools.lru_cache(maxsize=8)
def _way_sentences(account: str) -> tuple[str, ...]:
    return tuple(s for s in _sentences(account) if "`" in s and _THE_WAY.search(_prose(s)))


def _named_as_the_way(command: str, account: str) -> bool:
    """Whether the agent's account names this program and subcommand as the project's way to do something
    ("changes are created with `sqitch add <name> …`"): a step the session took on purpose, not a look around."""
    if not account or "`" not in account:
        return False
    argv = parse_command(command)["argv"]
    return len(argv) > 1 and any(_names_run(argv, s) for s in _way_sentences(account))
