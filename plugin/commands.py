"""Reading a shell command line (deterministic): its parts, program, job and invocation.

What a Bash step ran, as the lessons need it: the argv without runners and environment, the command's family and
job (``pytest`` and ``npm test`` both test), whether it is a static check or a linter's own repair, and what
changed between a failing and a passing run of the same check (an environment variable, a flag, a runner).
"""
from __future__ import annotations

import fnmatch
import os
import posixpath
import re
import shlex

from .quality import LazyRegex
from .text import held_out

# a command that changes the project or its environment counts as a change between a failure and a success
_MUTATING = LazyRegex(
    r"(?x)\b(?:pip3?\s+install|uv\s+(?:add|sync|pip\s+install|lock)|poetry\s+(?:add|install|lock)|"
    r"npm\s+(?:install|i|ci)\b|yarn(?:\s+(?:add|install))?\s*$|yarn\s+(?:add|install)|pnpm\s+(?:add|install|i)\b|"
    r"bundle\s+(?:install|update)|cargo\s+(?:add|update)|go\s+(?:get|mod\s+(?:tidy|download))|mix\s+deps\.get|"
    r"composer\s+(?:install|require|update|remove)|db:migrate|db:setup|(?<![-/.\w])migrate\b(?![-.])|"
    r"docker\s+compose\s+up|docker-compose\s+up|"
    r"brew\s+install|apt(?:-get)?\s+install|sed\s+-i|git\s+(?:checkout|revert|apply|restore)|"
    r"(?<![-/.\w])patch\b(?![-.])|"
    # (a redirect to /dev/null or of one stream into another writes nothing: ``cat .env 2>/dev/null``)
    # (a program, not an option's letters: ``grep -ln …`` links nothing)
    r"(?<![-/.])(?:mv|cp|ln|chmod|mkdir|touch)\s|"
    r"\b(?:echo|cat|printf)\b[^|]*?(?:\s|\d)>>?\s*(?!/dev/null|&)[\w./~$\"'-]|tee\s|"
    # (or lines a text tool picked, written into a file of settings: ``grep -E '^STRIPE_…' .env >> .env.testing``)
    r"\b(?:grep|sed|awk|sort|cut|head|tail|envsubst)\b(?:'[^']*'|\"[^\"]*\"|[^|'\"])*?\s>>?\s*(?:\./)?\.env[\w.-]*"
    r"(?:\s|$)|"
    # other package managers' add/remove/sync, and R's and Julia's from inside their code
    r"(?:rye|pdm|pixi|hatch|bun|deno|gleam|conda|mamba|micromamba|dotnet|swift\s+package|dart|flutter)\s+"
    r"(?:add|remove|install|sync|lock|pub\s+(?:get|add)|restore|resolve|update)\b|"
    r"renv::(?:record|install|snapshot|update|remove)|install\.packages\(|pak::pkg_install|remotes::install_|"
    r"Pkg\.(?:add|rm|update|pin|develop|resolve)\b|"
    # (importmap-rails' pins, vendored: ``bin/importmap pin chart.js``)
    r"importmap\s+(?:pin|unpin)\b|"
    # (a plan that writes the configuration it lacked: ``terraform plan -generate-config-out=generated_imports.tf``)
    r"plan\b[^|;&]*?\s-generate-config-out\b)")

# test files, and the edits that make a failing test pass without fixing anything
# (Windows' separator too: ``tests\conftest.py``)
# (and Perl's and Common Lisp's ``t/``: ``t/suite.lisp``)
_TEST_PATH = LazyRegex(r"(?:^|[/\\])(?:tests?|spec|__tests__|e2e|Tests?|\.maestro|t)[/\\]|"
                        r"(?:^|[/\\])test_[^/\\]*$|_test\.\w+$|"
                        r"\.(?:test|spec)\.\w+$"
                        # (and Logtalk's ``tests.lgt``, SWI-Prolog's ``tests.plt``)
                        r"|(?:^|[/\\])(?:run[-_]?)?tests?\.(?:js|mjs|cjs|ts|py|rb|sh|lua|jl|R|ps1|lgt|plt)$"
                        r"|_spec\.rb$|_test\.exs$|\wTests?\.(?:swift|java|kt|cs|fs|scala|groovy)$"
                        # (an Xcode or .NET test target's folder: ``BasketfulUITests/Pages/CheckoutPage.swift``,
                        # ``Billing.Tests/InvoiceFixtures.cs``)
                        r"|(?:^|[/\\])[A-Za-z][\w.-]*Tests[/\\]"
                        # (prove's and pgTAP's ``t/``: ``t/partitions.sql``, ``t/01-basic.t``)
                        r"|(?:^|[/\\])t[/\\][^/\\]+\.(?:t|sql|pl)$"
                        # (a hardware design's testbench: cocotb's ``tb/crc_model.py``, ``rtl/uart_tb.sv``)
                        r"|(?:^|[/\\])(?:tb|testbench)[/\\]|_tb\.(?:s?v|vhdl?)$"
                        # (the tests' own helpers: Go's ``internal/testutil/connect.go``)
                        r"|(?:^|[/\\])test[-_]?(?:utils?|helpers?|support)[/\\]")

# programs whose first argument names the job (``npm test``, ``cargo build``)
# the package managers that run a package's scripts (``npm run build``)
_PACKAGE_RUNNERS = ("npm", "pnpm", "yarn", "bun")
_TWO_WORD = ("npm", "yarn", "pnpm", "bun", "cargo", "go", "make", "bundle", "mvn", "mvnw", "gradle", "./gradlew", "gradlew",
             "dotnet", "mix", "git", "bin/rails", "rails", "rake", "uv", "poetry", "pip", "pip3", "docker",
             "docker-compose", "kubectl", "helm", "terraform", "deno", "swift", "flutter", "composer", "php")
_RUNNERS = (("uv", "run"), ("poetry", "run"), ("pipenv", "run"), ("pdm", "run"), ("hatch", "run"), ("npx",),
            ("pnpm", "exec"), ("pnpm", "dlx"), ("yarn", "exec"), ("bunx",), ("bundle", "exec"), ("env",), ("time",),
            ("sudo",), ("nohup",), ("exec",), ("command",), ("xcrun",),
            # (a virtual display for a program that needs one: ``xvfb-run -a Unity -batchmode …``)
            ("xvfb-run", "-a"), ("xvfb-run", "--auto-servernum"), ("xvfb-run",),
            # (a Dart package's executable: ``dart pub global run melos run test:unit``)
            ("dart", "pub", "global", "run"), ("dart", "pub", "run"), ("flutter", "pub", "run"),
            # (a build tool's environment for the packages it built: ``lake env lean scratch/Bounds.lean``, ``cabal
            # exec -- ghc …``, ``opam exec -- dune build``)
            ("lake", "env"), ("cabal", "exec", "--"), ("cabal", "exec"), ("stack", "exec", "--"), ("stack", "exec"),
            ("opam", "exec", "--"), ("mise", "exec", "--"),
            # (a folder's .envrc loaded for one run: ``direnv exec . forge test``; a flake's dev shell: ``nix develop
            # -c meson setup build``)
            ("direnv", "exec", "."), ("nix", "develop", "-c"), ("nix", "develop", "--command"),
            # (the dependencies a project vendored, put on the path: perl's ``carton exec prove -lr t``; pixi's and
            # rye's environments: ``pixi run pytest``, ``rye run pytest``)
            ("carton", "exec", "--"), ("carton", "exec"), ("pixi", "run"), ("rye", "run"),
            # (Windows' shell handed one line to run: ``cmd /c scripts\build.cmd win-release``; from Git Bash, its
            # slash doubled, ``cmd //c``)
            *((shell, switch) for shell in ("cmd", "cmd.exe") for switch in ("/c", "/C", "//c", "//C")),
            # (PowerShell's call operator before a quoted program: ``& "C:\ti\ccs1250\ccs\eclipse\eclipsec.exe" …``)
            ("&",))
# ``uv run``'s options that take a value (``--env-file .env``, ``--extra ml``, ``--with pytest-xdist``)
_UV_RUN_VALUED = frozenset(("--env-file", "--extra", "--group", "--package", "--python", "-p", "--with",
                            "--with-editable", "--with-requirements", "--directory", "--project", "--index",
                            "--default-index", "--only-group", "--no-group", "--no-extra"))
# programs that run a command with secrets put in its environment (the command after ``--``, or quoted whole last)
_SECRET_RUNNERS = frozenset(("sops", "op", "doppler", "aws-vault", "dotenv", "dotenvx", "chamber", "infisical",
                             "envchain", "teller", "summon", "berglas", "varlock"))
# a failing command of one of these is not a lesson: version control, shell navigation, exploration, formatters
# (and the other version controls: ``hg push``, ``jj git push``, ``fossil sync``, ``svn update``, ``pijul push``)
_ROUTINE = LazyRegex(r"(?x)^(?:git(?:\s|$)|gh\s|hg(?:\s|$)|jj\s|fossil\s|svn\s|pijul\s|"
                     r"cd$|ls$|cat$|grep$|rg$|find$|echo$|which$|head$|tail$|pwd$|"
                     r"mkdir$|rm$|cp$|mv$|sleep$|kill$|ps$|open$|"
                     r"ruff\s+format|black$|isort$|prettier$|gofmt$|cargo\s+fmt|mix\s+format|rustfmt$|"
                     r"npm\s+format|yarn\s+format|pnpm\s+format)")
# options of package managers and build tools that take a value (``--filter @shop/web``, ``-C client``)
_VALUE_OPTIONS = frozenset(("--filter", "-F", "--workspace", "-w", "--prefix", "-C", "--dir", "--cwd", "--project",
                            "-p", "--package", "--manifest-path", "--file", "-f", "--env-file", "--profile",
                            "--preset", "--bin", "--example", "-pl", "--projects",
                            # (java's class path: ``-cp ../lib/NetRexxF.jar:../lib/commons-csv-1.10.0.jar``)
                            "-cp", "-classpath", "--class-path",
                            # xcodebuild's (``-destination 'platform=iOS Simulator,name=iPhone 15,OS=17.5'``)
                            "-destination", "-scheme", "-sdk", "-configuration", "-workspace", "-project",
                            "-testPlan", "-xcconfig",
                            # (and how an archive is exported: ``-exportOptionsPlist ci/ExportOptions-AppStore.plist``)
                            "-exportOptionsPlist",
                            # where a tool connects (golang-migrate's ``-database "postgres://…?sslmode=require"``)
                            "-database", "--database-url", "--db-url", "--dsn", "-url",
                            # the board a sketch is built for, with its options (``--fqbn esp32:esp32:esp32:
                            # PartitionScheme=min_spiffs``)
                            "--fqbn"))
# a linter's own repair: with one of these flags the tool rewrites what it reported (``ruff check --fix``)
_AUTOFIX_FLAGS = frozenset(("--fix", "--fix-only", "--unsafe-fixes", "--write", "-w", "--autocorrect",
                            "--autocorrect-all", "-a", "-A", "--apply"))
_FORMATTER = LazyRegex(r"^(?:black|isort|autopep8|yapf|autoflake|prettier|gofmt|goimports|rustfmt|ruff\s+format|"
                       r"cargo\s+fmt|mix\s+format|dotnet\s+format|biome\s+format|(?:npm|yarn|pnpm|bun)\s+(?:format|fmt)|"
                       r"clang-format|swift-format|shfmt|stylua|elm-format|ormolu|fourmolu|ocamlformat|nimpretty|"
                       r"php-cs-fixer|phpcbf|pint|csharpier|ktfmt|google-java-format|scalafmt|rufo|djlint|"
                       # any tool's own formatter: ``zig fmt``, ``terraform fmt``, ``deno fmt``, ``dart format``,
                       # ``crystal tool format``
                       r"[\w.-]+\s+(?:tool\s+)?(?:fmt|format)(?![\w-]))\b")
# checks that read the code without running it: their complaints about code the session just wrote are its own mess
_TYPECHECKERS = ("mypy", "pyright", "basedpyright", "pyrefly", "pyre", "pytype", "tsc", "tsgo", "vue-tsc",
                "flow", "dialyzer", "srb", "steep", "psalm", "phpstan")
# a compiler's or SDK's own type check, by its subcommand: ``gleam check``, ``deno check main.ts``, ``dart analyze``
_TYPECHECK_SUBCOMMAND = LazyRegex(r"^(?:(?:gleam|roc|nim|deno)\s+check|(?:dart|flutter)\s+analyze)(?![\w-])")
# what a command is for, by its program (a whole word: ``pytest-cov`` is a package, not ``pytest``)
_SUBCOMMAND_JOBS = {"test": "test", "tests": "test", "spec": "test", "build": "build", "compile": "build",
                    "assemble": "build",  # (gradle's ``:app:assembleStagingRelease``)
                    "install": "install", "sync": "install", "restore": "install", "lint": "lint",
                    # (a run that starts the app and checks it: ``npm run smoke``, ``npm run e2e``)
                    "smoke": "test", "e2e": "test",
                    # (Erlang's Common Test and EUnit: a compose service named for them, ``docker compose run --rm ct``)
                    "ct": "test", "eunit": "test",
                    # (a workspace's type check, the job ``tsc`` does: ``turbo run typecheck --filter=web``)
                    "typecheck": "build", "type-check": "build", "check-types": "build"}
_JOBS = (
    ("test", r"(?:^|\s)(?:pytest|py\.test|jest|vitest|mocha|ava|tap|rspec|phpunit|pest|paratest|tox|nox|ctest|unittest|"
             # (perl's: ``prove -lr t/``)
             r"prove|"
             # (Zephyr's: ``west twister -T tests/lib/ringbuf -p native_sim``)
             r"twister|"
             # (Airbyte's: ``airbyte-ci connectors --name=source-zendesk-chat test``)
             r"airbyte-ci\s+connectors\s+(?:--?\S+\s+)*test|"
             # (Qt's for QML: ``qmltestrunner -input tests/qml/tst_gauge.qml``; julia's, in its code: ``Pkg.test()``)
             r"qmltestrunner|Pkg\.test\(|"
             r"(?:npm|yarn|pnpm|bun|cargo|go|mix|dotnet|deno|swift|flutter|make|rake|rails|bin/rails|"
             r"\./gradlew|gradlew|gradle|mvn)\s+(?:test|check)|(?:mvn|\./mvnw|mvnw)\s+(?:\S+\s+)*?(?:verify|test)|"
             # Laravel's: ``php artisan test``, and through Sail, ``./vendor/bin/sail test``
             r"artisan\s+test|(?:\S*/)?sail\s+(?:artisan\s+)?test|"
             # Erlang's common tests and unit tests, by rebar3 or the project's Makefile
             r"(?:rebar3|make)\s+(?:ct|eunit)|"
             # the Unity editor's test runner: ``Unity -batchmode -projectPath . -runTests -testPlatform EditMode``,
             # and Godot's GUT: ``godot --headless -s addons/gut/gut_cmdln.gd -gdir=res://tests``
             r"-runTests|\S*gut_cmdln\.gd|"
             # a project's own script for its tests: ``bin/test-system test/system/x.rb``, ``./scripts/run-tests.sh``
             # (a runner's name, not its settings file's: ``git diff HEAD~1 -- jest.config.js`` runs no jest)
             r"(?:\./)?(?:bin|scripts?)/(?:run[-_])?tests?(?:[-_][a-z]+)*(?:\.sh)?)(?![\w-]|\.\w)"),
    ("install", r"(?:^|\s)(?:(?:npm|pnpm|yarn|bun|bundle|poetry|composer)\s+(?:install|i|ci)|uv\s+sync|"
                r"pip3?\s+install|mix\s+deps\.get|go\s+mod\s+download|"
                # (perl's: ``cpanm Acme::Widget``, ``carton install --cached``)
                r"cpanm|carton\s+install|"
                # a tool's own plugin: ``helm plugin install …``, ``vagrant plugin install``, ``asdf plugin add``
                r"[\w.-]+\s+plugins?\s+(?:install|add))(?![\w-])|^yarn$|"
                # (or an interpreter's package manager, called in its code: julia's ``Pkg.instantiate()``, R's
                # ``install.packages("x")``, ``renv::restore()``)
                r"\bPkg\.(?:add|instantiate|resolve|develop|build)\(|\binstall\.packages\(|"
                r"\b(?:renv|pak|remotes|devtools|BiocManager)::(?:restore|install\w*|pkg_install)\("),
    ("build", r"(?:^|\s)(?:(?:npm|yarn|pnpm|bun|cargo|go|make|\./gradlew|gradlew|gradle|mvn|\./mvnw|mvnw|dotnet)"
              r"\s+(?:build|package)|tsc|webpack|vite\s+build|sphinx-build|(?:mkdocs|jekyll|mdbook|zola)\s+build|"
              # (PlatformIO's build, not its targets that clean or only watch: ``pio run -e esp32dev``)
              r"(?:pio|platformio)\s+run(?![^|;&]*\s(?:-t|--target)\s+(?:clean\w*|erase|monitor|menuconfig)\b))"
              r"(?![\w-])"),
    ("lint", r"(?:^|\s)(?:(?:npm|yarn|pnpm)\s+(?:run\s+)?lint|ruff(?:\s+check)?|flake8|eslint|pylint|mypy|pyright|"
             r"golangci-lint|cargo\s+clippy|go\s+vet|rubocop|credo|standardrb|biome\s+(?:lint|check)|"
             # (an HDL simulator asked only to lint: ``verilator --lint-only -Wall rtl/sync_fifo.sv``)
             r"verilator\s+(?:\S+\s+)*?--lint-only)(?![\w-])"),
)


# programs that only show what is there
_READERS = frozenset({"cat", "less", "more", "head", "tail", "grep", "rg", "ag", "ls", "find", "fd", "wc", "file", "stat",
                      "echo", "printf", "which", "type", "tree", "bat", "diff", "readlink", "realpath"})

# a wait before a command (``sleep 3;``): no part of it
_WAIT = r"sleep\s+\d+(?:\.\d+)?[smh]?"
# what moves files about: ``rm -rf build`` names the build's directory, it does not build
_FILE_OPERATIONS = frozenset({"rm", "rmdir", "mkdir", "touch", "mv", "cp", "ln", "chmod", "chown", "install"})
# the programs that make, drop, dump and load a database, given its name
_DATABASE_ADMIN = frozenset({"createdb", "dropdb", "createuser", "dropuser", "pg_dump", "pg_restore", "pg_dumpall",
                             "mysqladmin", "mysqldump"})

_SHELL_TOKEN = LazyRegex(r"'[^']*'?|\"(?:[^\"\\]|\\.)*\"?|&&|\|\||;|[^'\"&|;]+|[&|]")


# output thrown away, no part of the command: ``kubectl kustomize overlays/prod > /dev/null``, ``2>/dev/null``
_DISCARDED = LazyRegex(r"\s*(?<![<>&\w])(?:\d|&)?>>?\s*/dev/null\b")


# what a line does when its run fails, to show why and fail still: ``Unity -batchmode … || (grep -n 'error CS'
# build/unity-android.log; exit 1)``: no command of its own
_ON_FAILURE = LazyRegex(r"\s*\|\|\s*[({]\s*[^(){}]*;\s*exit(?:\s+\d+)?\s*;?\s*[)}]\s*$")


def split_outside_quotes(command: str, operators: tuple[str, ...] = ("&&", "||", ";")) -> list[str]:
    """``command`` split at each of the shell's ``operators`` that no quote holds (``julia -e 'using Pkg;
    Pkg.test()'`` is one command; a quote left open, as a line cut short leaves one, holds the rest)."""
    parts = [""]
    for token in _SHELL_TOKEN.findall(command):
        if token in operators:
            parts.append("")
        else:
            parts[-1] += token
    return parts


def _segments(command: str) -> list[str]:
    """A shell line split at ``&&``/``;``/``||`` (quotes respected loosely), output plumbing dropped."""
    return _split_line(command)[0]


def _split_line(command: str) -> tuple[list[str], list[str] | None]:
    """:func:`_segments`, and the operators between them as the line wrote them (``;`` or ``&&``), or None where the
    steps are not the line's as written (a loop's body)."""
    # a command substitution is one word of its line, pipes and all (``--build-arg VERSION=$(git describe | sed …)``)
    cmd, restore = held_out(_SUBSTITUTION, " ".join((command or "").split()))
    cmd = re.sub(r"\s*2>&1", "", cmd)
    cmd = _ON_FAILURE.sub("", _DISCARDED.sub("", cmd))
    cmd = re.sub(r"\s*\|\s*(?:tail|head|grep|less|cat|tee|sed|awk|sort|wc)\b(?:'[^']*'|\"[^\"]*\"|[^&;|'\"])*"
                 r"(?=$|&&|\|\||;|\|)", "", cmd)  # (each stage, quoted arguments and all: ``| grep -E 'a|b' | head``)
    # (an answer fed to a prompt is no step of its own: ``yes | npx elm install NoRedInk/…`` installs)
    parts = [re.sub(r"^\s*(?:yes(?:\s+[yY])?|echo\s+['\"]?[yY](?:es)?['\"]?)\s*\|\s*(?=\S)", "", p)
             for p in split_outside_quotes(cmd)]
    # (a subshell's brackets group the steps, they are no part of them: ``(timeout 8 npm run worker; echo $?)``)
    # (or one step bracketed whole: ``(uv run celery … worker --detach …) && sleep 6``; not one put in the
    # background, ``(uv run litestar … &)``, which passes whatever it does)
    parts = [re.sub(r"^\(\s*(?=[^()]*$)|(?<=[^()])\s*\)$", "", p.strip())
             if p.strip().count("(") != p.strip().count(")") else p.strip()[1:-1].strip()
             if re.fullmatch(r"\([^()]*[^()&\s]\s*\)", p.strip()) else p.strip() for p in parts]
    # (a loop's body is its steps: ``for i in 1 2 3; do uv run pytest tests/api -q | tail -1; done`` runs pytest)
    operators = [token for token in _SHELL_TOKEN.findall(cmd) if token in ("&&", "||", ";")]
    if len(parts) > 2 and re.match(r"(?:for\s+\w+\s+in\b|while\b|until\b)", parts[0]) and parts[-1] == "done" \
            and parts[1].startswith("do "):
        parts, operators = [parts[1][3:].strip(), *parts[2:-1]], None
    if operators is not None and (len(operators) != len(parts) - 1 or not all(parts)):
        operators = None
    return [restore(p) for p in parts if p], operators


def counting_search(command: str) -> bool:
    """Whether a line's check is a search asked only for a count or a yes/no (``grep -c "add_column" …``, ``rg -q
    …``): one whose failure says the text was not found, a check of what an earlier step made."""
    argv = parse_command(command)["argv"]
    return bool(argv) and _program_name(argv[0]) in ("grep", "rg") and any(
        re.fullmatch(r"-[A-Za-z]*[cq][A-Za-z]*|--count|--quiet", w) for w in argv[1:])


def removed_paths(command: str) -> list[str]:
    """The files a line removes (``git rm -q a.kt``, ``rm -f tests/x_test.py``), as it names them."""
    return [w for segment in _segments(command) for m in [re.match(r"^(?:git\s+rm|rm)\b((?:\s+\S+)+)", segment)] if m
            for w in m.group(1).split() if not w.startswith("-")]


def removed_with(path: str, removed: list[str]) -> bool:
    """Whether ``path`` went with one of the ``removed`` paths: the file itself, by its name or its path from another
    folder (``rm ../../modules/acm-cert/providers.tf``), or a folder it is in (``rm -r inventories/staging/host_vars``
    of ``inventories/staging/host_vars/web.yml``)."""
    where = "/" + path.replace("\\", "/").lstrip("/")
    for gone in removed:
        gone = re.sub(r"^(?:\.\.?/)+", "", gone.replace("\\", "/")).rstrip("/")
        if gone and (os.path.basename(where) == gone or where.endswith("/" + gone) or f"/{gone}/" in where):
            return True
    return False


def moved_paths(command: str) -> list[str]:
    """The files a line moves away or renames (``git mv suite.yaml suite.yaml.pending``), as it names them."""
    return [w for segment in _segments(command) for m in [re.match(r"^(?:git\s+mv|mv)\b((?:\s+\S+){2,})", segment)]
            if m for w in [w for w in m.group(1).split() if not w.startswith("-")][:-1]]


# a file of variables read in before a line's steps: ``set -a; . ./.env.staging; set +a; ``
LOADS_VARIABLES = LazyRegex(r"\s*set -a\s*[;&]+\s*(?:\.|source)\s+\S+\s*[;&]+\s*set \+a\s*(?:;|&&)\s*")


def _and_steps(command: str) -> list[str]:
    """The steps of an ``&&`` line, each of which passed when the line did; none for one step or a line with
    ``||`` or ``;``."""
    # (variables loaded first, ``set -a; . ./.env.staging; set +a; …``: the steps after it are the line's)
    loaded = LOADS_VARIABLES.match(command or "")
    rest = command[loaded.end():] if loaded else command
    segments = _segments(command)
    return segments if len(segments) > 1 and "||" not in rest and ";" not in rest else []


# a command substitution (``$(git describe | sed 's/^v//')``), held out of a split as one word
_SUBSTITUTION = r"\$\([^()]*\)"


def _words(segment: str) -> list[str]:
    segment, restore = held_out(_SUBSTITUTION, segment)  # (a command substitution is one word)
    # (a Windows path keeps its separators, which a POSIX shell would take for escapes: ``.\scripts\Test-Artifact.ps1``)
    if "\\" in segment:
        segment = _WINDOWS_PATH.sub(lambda m: m.group(0).replace("\\", "\\\\"), segment)
    try:
        words = shlex.split(segment)
    except ValueError:
        words = segment.split()
    return [restore(w) for w in words]


# a word shaped like a Windows path, outside quotes: ``.\bin\velociraptor.exe``, ``C:\src\app``, ``tests\Unit``
_WINDOWS_PATH = LazyRegex(r"(?<![^\s=])(?:[A-Za-z]:|\.{1,2}|[\w.$-]+)?(?:\\[\w.$-]+)+\\?(?=[\s;|&)]|$)")


# programs that take ``/switch`` options (by their names on PATH; any ``….exe`` does too)
_WINDOWS_TOOLS = frozenset(("signtool", "msbuild", "robocopy", "certutil", "dism", "icacls", "cl", "link", "lib",
                            "mt", "makeappx", "msiexec", "wevtutil", "sc", "schtasks", "xcopy"))


def _before_pipe(words: list[str]) -> list[str]:
    """A line's words up to a pipe: those after it are another program's (``… --compact | jq -r '.x'``)."""
    return words[:words.index("|")] if "|" in words else words


def parse_command(command: str) -> dict:
    """The parts of a shell line that matter for a lesson.

    ``{check, family, env, runner, cwd, flags, prep}``: the check is the last
    command that is not a ``cd``/``export``; ``prep`` the commands run before
    it in the same line; ``env`` the ``VAR=value`` assignments; ``runner`` the
    wrapper (``uv run``, ``npx`` …); ``flags`` its options and ``NAME=value``
    arguments.
    """
    segments = _segments(command)
    env: list[str] = []
    unset: list[str] = []  # variables taken away (``env -u CLOUDFLARE_API_KEY …``, ``unset X; …``)
    sourced: list[str] = []
    cwd = None
    prep: list[str] = []
    check = ""
    saved = False
    for segment in segments:
        words = _words(segment)
        if not words:
            continue
        if words[0] == "cd":
            cwd = words[1] if len(words) > 1 else "~"
            continue
        if words[0] == "eval" and re.fullmatch(r"eval\s+([\"']?)\$\([^()]+\)\1", segment.strip()):
            sourced.append(segment.strip())  # (what a tool prints to set, read in: ``eval "$(luarocks path)"``)
            continue
        if words[0] in ("export", "set", "source", ".") or (words[0] == "unset"):
            env += [w for w in words[1:] if "=" in w]
            # (a file of variables read in first: ``set -a && . ./.env.local && set +a && bundle install``)
            sourced += [w for w in words[1:2] if words[0] in ("source", ".") and "=" not in w]
            unset += [w for w in words[1:] if words[0] == "unset" and re.fullmatch(r"[A-Za-z_]\w*", w)]
            continue
        if check and words[0] == "exit":  # ``docker build … | tail -30; exit ${PIPESTATUS[0]}``: the status passed on
            continue
        if check and re.fullmatch(r"[A-Za-z_]\w*=\$\?", segment.strip()):
            saved = True  # (``vfp9.exe … sync_orders.prg; rc=$?; tail -3 logs/sync.log; exit $rc``: the run's status
            continue  # kept, a look at its log after it, the status passed on)
        if saved and words[0] in _READERS:
            continue
        if check and words in (["true"], [":"]):  # (``timeout 15 celery -A config beat -l info || true``: a status
            continue  # made to pass, the run judged by what it printed)
        if check and words[0] in ("echo", "printf", "sleep") and not re.search(r"\||\$\?", segment):
            # (what is said or waited after it, ``curl -sf localhost:13133/ && echo``, checks nothing; but after
            # ``; echo exit=$?`` the line passes whatever the run did, and is judged by what it printed)
            continue
        if check and words[0] == "ls" and command_job(check):
            continue  # (nor a listing of what a job made: ``mvn -q -pl functions/enricher package && ls …/*.nar``)
        if check and not re.fullmatch(_WAIT, check):  # (a wait before it is no step: ``sleep 15 && ./put.sh …``)
            prep.append(check)
        check = segment
    words = _words(check)
    while words and re.match(r"^[A-Za-z_]\w*=", words[0]):
        env.append(words.pop(0))
    runner: list[str] = []
    changed = True
    while words and changed:
        changed = False
        # (not a build tool's run of the project's own program, whose arguments follow: ``cargo run -- sync``)
        # (its own options before the ``--``: ``opam exec --switch=. -- dune test``)
        if len(words) > 3 and words[1] in ("exec", "run") and "--" in words[2:-1] \
                and all(w.startswith("-") for w in words[2:words.index("--", 2)]) \
                and _program_name(words[0]) not in ("cargo", "dotnet", "swift", "go"):  # ``carton exec -- prove``
            at = words.index("--", 2)
            runner += words[:at + 1]
            words = words[at + 1:]
            changed = True
            continue
        if words and _program_name(words[0]) in _SECRET_RUNNERS:  # a run with secrets put in its environment
            if "--" in words[2:-1]:  # ``op run --env-file=.env -- pytest``, ``aws-vault exec prod -- terraform plan``
                at = words.index("--", 2)
                runner += words[:at + 1]
                words = words[at + 1:]
                changed = True
                continue
            if len(words) > 2 and " " in words[-1].strip():  # ``sops exec-env secrets.enc.env 'terraform plan'``
                runner += words[:-1]
                words = _words(words[-1])
                changed = True
                continue
        for pattern in _RUNNERS:
            # (a flake's other dev shell too: ``nix develop .#docs --command make -C docs html``)
            if pattern[:2] == ("nix", "develop") and words[:2] == ["nix", "develop"] and len(words) > 4 \
                    and not words[2].startswith("-") and words[3] == pattern[2]:
                pattern = (*words[:3], pattern[2])
            if tuple(words[:len(pattern)]) == pattern:
                runner += list(pattern)
                words = words[len(pattern):]
                # (and the runner's own options: ``uv run --env-file .env --extra ml mlflow models list`` runs mlflow)
                while pattern == ("uv", "run") and words and words[0].startswith("-"):
                    taken = 2 if words[0] in _UV_RUN_VALUED and len(words) > 1 else 1
                    runner += words[:taken]
                    words = words[taken:]
                # (and xvfb-run's: ``xvfb-run --auto-servernum --server-args="-screen 0 1280x1024x24" bash …``)
                while pattern[0] == "xvfb-run" and words and words[0].startswith("-"):
                    taken = 2 if words[0] in ("-s", "-n", "-f", "-e", "-p", "-w", "--server-num", "--auth-file",
                                              "--error-file", "--xauth-protocol", "--wait") else 1
                    runner += words[:taken]
                    words = words[taken:]
                # (and sudo's: ``sudo -u postgres pg_dump …`` runs pg_dump, as postgres)
                while pattern == ("sudo",) and words and words[0].startswith("-"):
                    taken = 2 if words[0] in ("-u", "--user", "-g", "--group", "-C", "-D", "--chdir") else 1
                    runner += words[:taken]
                    words = words[taken:]
                # (and the variables it sets for it: ``sudo BPFTRACE_KERNEL_SOURCE=/host/usr/src/… bpftrace …``; and
                # those set for a run bash times, ``time CML_HEAP_SIZE=6144 ./wordfreq.cake …``)
                while pattern in (("sudo",), ("time",)) and words and re.match(r"[A-Za-z_]\w*=", words[0]):
                    env.append(words.pop(0))
                while pattern == ("env",) and words and ("=" in words[0] or words[0] in ("-u", "--unset")):
                    if words[0].startswith("--unset="):
                        unset.append(words.pop(0).split("=", 1)[1])
                    elif words[0] in ("-u", "--unset"):
                        unset += words[1:2]
                        del words[:2]
                    else:
                        env.append(words.pop(0))
                changed = True
                break
        if words and words[0] == "timeout":  # ``timeout -s INT 15 php artisan horizon``: its options and duration
            at = 1
            while at < len(words) and words[at].startswith("-"):
                at += 2 if words[at] in ("-s", "--signal", "-k", "--kill-after") else 1
            if at + 1 < len(words):
                runner += words[:at + 1]
                words = words[at + 1:]
                changed = True
        if len(words) > 2 and re.fullmatch(r"python[\d.]*", _program_name(words[0])) and words[1] == "-m":
            runner += words[:2]
            words = words[2:]
            changed = True
    if runner[-1:] in (["npx"], ["bunx"], ["dlx"]) and words and re.fullmatch(r"[a-z][\w.]*-cli(?:@\S+)?", words[0]):
        # (a package run by its name is the program it installs: ``npx eas-cli update`` is ``eas update``)
        words = [words[0].split("@")[0].removesuffix("-cli"), *words[1:]]
    if runner[-2:] == ["hatch", "run"] and words and re.match(r"^[\w.-]+:[^:\s]+$", words[0]):
        env_name, _, program = words[0].partition(":")  # ``hatch run test:pytest``: pytest, in hatch's env "test"
        runner[-1] = f"run {env_name}:"
        words = [program, *words[1:]]
    profile = None  # a build tool's profile chosen by words, not a flag: ``rebar3 as prod release``
    if len(words) > 3 and (_program_name(words[0]), words[1]) in (("rebar3", "as"), ("lein", "with-profile")):
        profile = " ".join(words[:3])
        words = [words[0], *words[3:]]
    elif len(words) > 2 and _program_name(words[0]) in ("cargo", "rustc", "rustdoc") and words[1].startswith("+"):
        profile = words[1]  # a rustup toolchain: ``cargo +nightly udeps``
        words = [words[0], *words[2:]]
    # (and a Windows tool's switches: ``signtool.exe sign /sha1 … /fd SHA256``)
    windows = bool(words) and bool(re.search(r"(?i)\.exe$", words[0])
                                   or _program_name(words[0]).lower() in _WINDOWS_TOOLS)
    # (its own, not those of a program it pipes into: ``… --compact | jq -r …``)
    flags = [w for w in _before_pipe(words)[1:]
             if w.startswith("-") and w != "--" or re.match(r"^[A-Z_][A-Z0-9_]*=", w)
             or windows and re.fullmatch(r"/[A-Za-z][\w:=.-]{0,30}", w)
             # (any tool's, where it sets a value: ISCC's ``/DBuildDir=..\build-win`` given in its image)
             or re.fullmatch(r"/[A-Za-z]\w*[:=]\S+", w)]
    path = words[0] if words and _program_name(words[0]) != words[0] else None
    return {"check": " ".join(words), "family": _family(words), "env": env, "unset": unset, "sourced": sourced,
            "runner": " ".join(runner), "cwd": cwd, "flags": flags, "prep": prep, "segments": segments, "path": path,
            "profile": profile, "argv": words}


def _program_name(word: str) -> str:
    """A program run by its path is the same program (``.venv/bin/pytest`` is ``pytest``); ``./gradlew`` and
    ``bin/rails`` keep their spelling, as the project's own wrappers."""
    # (and by a Windows path: ``.\bin\velociraptor.exe`` is ``velociraptor.exe``)
    name = word if "/" not in word and "\\" not in word or word in _TWO_WORD \
        else os.path.basename(word.replace("\\", "/").rstrip("/")) or word
    # (a program pinned to a version where it is fetched and run: ``go run github.com/bufbuild/buf/cmd/buf@v1.47.2``,
    # ``npx prettier@3.3.2`` are ``buf`` and ``prettier``)
    name = re.sub(r"(?<=\w)@(?:v?\d[\w.+-]*|latest)$", "", name)
    # (an AppImage by its program's name: ``./linuxdeploy-x86_64.AppImage`` is ``linuxdeploy``)
    return re.sub(r"(?:[-_](?:x86[-_]64|amd64|aarch64|arm64|i686|armhf))?\.AppImage$", "", name)


# (Windows' by its ``.exe`` too: ``powershell.exe -NoProfile -Command "Invoke-Pester …"``)
_INTERPRETER = LazyRegex(r"^(?:Rscript|R|python[\d.]*|node|ruby|perl|php|julia|elixir|lua|deno|pwsh|powershell)"
                         r"(?:\.exe)?$")
_POWERSHELL = LazyRegex(r"(?:pwsh|powershell)(?:\.exe)?")


def _interpreter_code(words: list[str]) -> str | None:
    """The code an interpreter runs from the command line (``Rscript -e 'testthat::test_dir()'``), or None."""
    if not words or not _INTERPRETER.match(_program_name(words[0])):
        return None
    for i, w in enumerate(words[1:-1], 1):
        # (php's ``-r`` runs code; node's and ruby's load a module: ``node -r dotenv/config server.js``)
        if w in ("-e", "-c", "--eval", "-Command", "-command") or w == "-r" and _program_name(words[0]) == "php":
            return words[i + 1]
    return None


_SCRIPT = LazyRegex(r"\.(?:py|sh|bash|rb|js|mjs|cjs|ts|pl|php|R|jl|lua|ps1|exs)$")


# an interpreter's options that load a module before the script (``node --import tsx``, ``-r ts-node/register``)
_PRELOAD_OPTIONS = frozenset(("--loader", "--experimental-loader", "--import", "--require", "-r"))


# a statement that only sets up a PowerShell session, before the command it runs
_PWSH_SETUP = LazyRegex(r"\s*((?:(?:Import-Module|Set-StrictMode|Set-Location|cd)\b|\$\w+\s*=)[^;]*);")


def _family(words: list[str]) -> str:
    words = [w for w in words if not re.match(r"^[A-Z_][A-Z0-9_]*=", w)]
    if not words:
        return ""
    program = _program_name(words[0])
    code = _interpreter_code(words)
    # (PowerShell's script, given as a file or as the command: ``powershell -ExecutionPolicy Bypass -File
    # .\build.ps1 -Task Test`` runs the ``-Command ".\build.ps1 -Task Test"`` that the policy refused)
    if _POWERSHELL.fullmatch(program):
        # (past what only sets up its session: ``Import-Module Pester -MinimumVersion 5.5; Invoke-Pester …``)
        code = re.sub(rf"^(?:{_PWSH_SETUP.pattern})+\s*", "", code) if code else code
        given = next((words[n + 1] for n, w in enumerate(words[:-1]) if w.lower() == "-file"), None) \
            or ((code.split() or [""])[0] if code is not None else None)
        if given and re.search(r"(?i)\.ps1$", given):
            return re.sub(r"^\.[\\/]", "", given)
    if code is not None:  # the code is the command: ``Rscript -e 'devtools::test()'`` is devtools::test
        call = re.search(r"[A-Za-z_][\w.:]*(?=\s*\()", code) or re.search(r"[A-Za-z_][\w.:]*", code)
        # (whichever build of the interpreter runs it: ``pwsh -Command "Invoke-Pester …"`` for ``powershell …``)
        return f"{_interpreter_build(program) or program} -e {call.group(0) if call else code[:40]}"
    if program in ("node", "tsx") and "--test" in words:  # (its test runner, over the files named: no script)
        return f"{program} --test"
    if re.fullmatch(r"python[\d.]*|node|ruby|bash|sh|perl|php|deno|julia|Rscript|lua(?:jit)?|elixir|raku|pwsh|tsx|"
                    r"ts-node", program) and len(words) > 1:  # the script it runs (``pwsh -NoProfile -File x.ps1``)
        # (not a module it requires first: ``ts-node -r tsconfig-paths/register scripts/seed.ts`` runs scripts/seed.ts;
        # a loader, ``node --loader ts-node/esm …``, is the way it runs, see _by_its_loader)
        script = (w for n, w in enumerate(words[1:], 1)
                  if not w.startswith("-") and words[n - 1] not in ("-r", "--require"))
        return re.sub(r"^\./", "", next(script, words[1]))
    if "/" in words[0] and _SCRIPT.search(words[0]):  # (run as itself: ``uv run scripts/seed.py`` is ``python
        return re.sub(r"^\./", "", words[0])         # scripts/seed.py``)
    rest, skip = [], False
    for w in words[1:]:
        if skip:
            skip = False
        elif w.startswith("-"):
            # ``pnpm --filter @shop/web test``, ``kubectl -n edge wait …``: the job is test, wait
            skip = program in _TWO_WORD and (w in _VALUE_OPTIONS or program in ("kubectl", "helm")
                                              and w in ("-n", "--namespace", "--context", "--kube-context"))
        else:
            rest.append(w)
    if program in ("docker", "docker-compose") and rest[:1] == ["compose"]:
        return " ".join(["docker compose", *rest[1:2]])
    # (and any control tool's: ``systemctl status`` is not ``systemctl cat``, ``rabbitmqctl list_queues``)
    if (program in _TWO_WORD or program.endswith("ctl") and program != "journalctl") and rest:
        if rest[0] == "run" and len(rest) > 1 and program in _PACKAGE_RUNNERS:
            # (but bun's own ``bun test`` and ``bun build`` are not the package's scripts of those names)
            return f"{program} run {rest[1]}" if program == "bun" and rest[1] in ("test", "build") else \
                f"{program} {rest[1]}"
        return f"{program} {rest[0]}"
    return program


# (a value a command computes is one word: ``NODE_AUTH_TOKEN=$(gh auth token) npm ci``)
_ENV_PREFIX = LazyRegex(r"^(?:[A-Za-z_]\w*=(?:'[^']*'|\"[^\"]*\"|\$\([^()]*\)|\S*)\s+)+(?=\S)")


def without_env(command: str) -> str:
    """``command`` without the variables set before it (``DATABASE_URL='postgresql://…' npx prisma migrate
    deploy`` reads ``npx prisma migrate deploy``)."""
    return _ENV_PREFIX.sub("", command)


def command_key(command: str) -> str:
    """One spelling per command: output plumbing (``2>&1 | tail``) removed, and what only prepares the shell before
    it: ``cd X &&``, a wait (``sleep 3;``), the shell's error options (``set -o pipefail;``, ``set -eu;``). (Not a
    file of variables read in, ``set -a && . ./.env && set +a &&``: that changes the run.)"""
    cmd = " ".join((command or "").split())
    cmd = re.sub(rf"^(?:(?:cd\s+\S+|{_WAIT}|set\s+-[euxo]+(?:\s+pipefail)?)\s*(?:&&|;)\s*)+", "", cmd)
    cmd = re.sub(r"\s*2>&1", "", cmd)
    cmd = _ON_FAILURE.sub("", _DISCARDED.sub("", cmd))
    cmd = re.sub(r"\s*\|\s*(?:tail|head|grep|less|cat|tee)\b.*$", "", cmd)
    return cmd.strip()


def shown_command(command: str, root: str | None = None) -> str:
    """A command as a reader would type it again: output plumbing removed, ``cd X &&`` kept, with X relative to
    the project ``root`` (``cd /home/me/app/api`` reads ``cd api``; a ``cd`` to the root itself is dropped)."""
    segments, operators = _split_line(command)
    # (each joined to the one before as the line wrote it: ``set -a; . ./.env; set +a; dbt run``, not ``&&``)
    joins = [""] + [f" {op} " if op != ";" else "; " for op in operators or ["&&"] * (len(segments) - 1)]
    steps = list(zip(joins, segments))
    while len(steps) > 1 and re.fullmatch(_WAIT, steps[0][1]):
        steps = steps[1:]  # (a wait before it: ``sleep 3; curl …``)
    while len(steps) > 1 and steps[-1][1].split()[0] == "exit":
        steps = steps[:-1]  # (the status passed on after it: ``npm run build | tail -14; exit ${PIPESTATUS[0]}``)
    if root:
        base = root.rstrip("/")
        relative = []
        for join, segment in steps:
            words = segment.split(maxsplit=1)
            if words[0] == "cd" and len(words) == 2 and words[1].rstrip("/") in (base, base + "/."):
                continue
            if words[0] == "cd" and len(words) == 2 and words[1].startswith(base + "/"):
                segment = "cd " + words[1][len(base) + 1:]
            relative.append((join, segment))
        steps = relative or steps
    return "".join((join if n else "") + segment for n, (join, segment) in enumerate(steps))


def _first_word(argv: list[str]) -> str | None:
    """A command's first word past its program that is no option (``test`` of ``sbt -batch test``)."""
    return next((w for w in argv[1:] if not w.startswith("-")), None)


def other_subcommand(a: str, b: str) -> bool:
    """Whether two runs of one program run different subcommands (``dagster definitions validate`` and ``dagster
    asset materialize``): not the same command run another way."""
    parsed = [parse_command(c) for c in (a, b)]
    # (of a script run by its interpreter, the word after it: ``php artisan key:generate`` is no ``php artisan test``)
    firsts = [_first_word(p["argv"][1:] if p["argv"][1:2] == [p["family"]] else p["argv"]) or "" for p in parsed]
    # (a subcommand with a colon too: expo's ``run:android`` and ``install``; or underscores, django's
    # ``generate_secret_key``)
    return all(re.fullmatch(r"[a-z][a-z_-]*(?::[a-z][\w-]*)?", w) for w in firsts) and firsts[0] != firsts[1]


def command_family(command: str) -> str:
    """The program a command runs (``pytest``, ``npm test``, ``cargo test``), for "same check" chains; a script by
    its path from where the line started (``cd pipelines && python github_pipeline.py`` runs
    ``pipelines/github_pipeline.py``)."""
    parsed = parse_command(command)
    family, cwd = parsed["family"], parsed["cwd"]
    if cwd and _SCRIPT.search(family) and " " not in family and not family.startswith(("/", "~")) \
            and not cwd.startswith(("/", "~", "$", "-")):
        return posixpath.normpath(f"{cwd}/{family}")
    return family


def command_job(command: str) -> str | None:
    """What a command is for (test, install, build, lint), so ``pytest`` and ``make test`` do the same job."""
    parsed = parse_command(command)
    if parsed["argv"][:1] and parsed["argv"][0] in _READERS | _FILE_OPERATIONS:
        # ``cat jest.preset.js`` reads a file a job uses, ``rm -rf build`` clears one: neither does the job
        return None
    if parsed["argv"][:1] in (["sed"], ["awk"], ["gawk"]) and not any(
            w.startswith("-i") or w.startswith("--in-place") for w in parsed["argv"][1:]):
        return None  # (nor does ``sed -n 1,24p tox.ini``, which prints it)
    for job, pattern in _JOBS:
        if re.search(pattern, parsed["check"]) or re.search(pattern, parsed["family"]):
            return job
    if _TEST_PATH.search(parsed["family"]) and not parsed["family"].startswith("-"):
        return "test"  # ``julia test/runtests.jl``, ``python tests/test_api.py``: a test script run by its interpreter
    if (re.search(r"(?:^|\s)(?:-r|--run|run|--script)(?:\s|$)", parsed["check"])
            or parsed["argv"][:1] and _program_name(parsed["argv"][0]) == "godot" and "-s" in parsed["argv"]) and any(
            _TEST_PATH.search(w) for w in parsed["argv"][1:] if not w.startswith("-")):
        # ``nim c -r tests/test_duration.nim``: a test file compiled and run (``godot --headless --script
        # test/unit/test_inventory.gd``: run as the main script)
        return "test"
    if parsed["runner"] and parsed["argv"][:1] and parsed["argv"][0] in _SUBCOMMAND_JOBS:
        return _SUBCOMMAND_JOBS[parsed["argv"][0]]  # a script run by a runner: ``hatch run test -n auto``
    environment = re.search(r"(\w+):$", parsed["runner"])
    if environment and environment.group(1) in _SUBCOMMAND_JOBS:
        return _SUBCOMMAND_JOBS[environment.group(1)]  # an environment's script: ``hatch run test:cov``
    # a tool not in the table names its job by its subcommand: ``stack test``, ``deno task test``, ``opam install``
    words = [w for w in parsed["argv"][1:] if not w.startswith("-")]
    if words[:1] in (["turbo"], ["nx"], ["lerna"]):  # a monorepo's task runner, run by the package manager:
        words = words[1:]  # ``pnpm turbo run test --filter=@lumen/ui`` runs the test task
    if words[:1] in (["task"], ["run"], ["exec"], ["x"], ["make"]):  # (``cargo make test-host``)
        words = words[1:]
    if words[:2] in (["compose", "run"], ["compose", "exec"]) and _program_name(parsed["argv"][0]) in ("docker",
                                                                                                      "podman"):
        words = words[2:]  # a compose service named for its job: ``docker compose run --rm airflow-tests``
        # (but given a command, the command's job: ``docker compose exec db-test psql …`` runs no test)
        argv = parsed["argv"]
        at = next((n for n, w in enumerate(argv) if words and w == words[0] and n > 2), None)
        if at is not None and argv[at + 1:]:
            return command_job(shlex.join(argv[at + 1:]))
    if parsed["argv"][:1] and _program_name(parsed["argv"][0]) == "xcodebuild":
        # (xcodebuild's action ends its line, after the options and their values: ``xcodebuild -workspace
        # Pulse.xcworkspace -scheme Pulse -destination '…' test``)
        actions = [w for w in parsed["argv"][1:] if w in ("test", "test-without-building", "build", "build-for-testing",
                                                          "archive", "analyze")]
        return ("test" if actions[-1].startswith("test") else _SUBCOMMAND_JOBS.get(actions[-1].split("-")[0])) \
            if actions else None
    if words[:1] in (["ios"], ["android"], ["mac"]) and _program_name(parsed["argv"][0]) == "fastlane":
        words = words[1:]  # a lane of a platform: ``fastlane ios tests``
    if words and re.fullmatch(r"python[\d.]*|php|node|ruby", _program_name(parsed["argv"][0])) \
            and _SCRIPT.search(words[0]):  # a project script's subcommand: ``python manage.py test billing``
        words = words[1:]
    if not words:  # ``clojure -X:test``: the alias names the job
        aliases = [f.split(":", 1)[1] for f in parsed["argv"][1:2] if re.match(r"^-[A-Za-z]:\w", f)]
        return _SUBCOMMAND_JOBS.get(aliases[0]) if aliases else None
    if _program_name(parsed["argv"][0]) == "sbt" and _SBT_TEST_TASK.fullmatch(words[0].split()[0]):
        return "test"  # ``sbt 'testOnly controllers.ReportSpec'``, ``sbt it:test``
    task = words[0].rsplit(":", 1)[-1]  # gradle's ``:app:testDebugUnitTest``
    if task != words[0] and (job := next((j for prefix, j in _SUBCOMMAND_JOBS.items() if task.startswith(prefix)),
                                         None)):
        return job
    if ":" in words[0].strip(":") and (job := _SUBCOMMAND_JOBS.get(words[0].split(":")[0])):
        return job  # a task runner's ``test:cljs`` (bb, npm scripts): its first part
    code = _interpreter_code(parsed["argv"])  # ``Rscript -e 'devtools::test()'``: what it calls
    if code is not None:
        # (a test call, ``devtools::test()``, ``Pkg.test()``: not a library it loads, ``require "rack/test"``)
        return "test" if re.search(r"(?i)(?:^|[\W_])test\w*\s*\(|\b(?:unit|py)test\b", code) else None
    job = _SUBCOMMAND_JOBS.get(words[0])
    if job is None and (re.fullmatch(r"[a-z][a-zA-Z]*(?:build|test|Build|Tests?)|[a-z][a-zA-Z0-9]*(?:Build|Tests?)",
                                     words[0]) or task != words[0]
                        and "/" not in words[0] and re.fullmatch(r"[a-z][a-zA-Z0-9]*(?:Build|Tests?)", task)):
        # ``cargo zigbuild``, ``cargo nextest``, gradle's ``integrationTest`` and ``:billing:unitTest`` (not an
        # image's tag, ``acme/web:latest``), and a managed device's, ``:app:pixel6Api34DebugAndroidTest`` (or bare)
        return "build" if task.lower().endswith("build") else "test"
    # a task named for its job: ``test-host``, ``unit_test``, ``build-docker``
    named = re.fullmatch(r"(test|build|lint)s?[-_][\w-]+|[\w-]+[-_](test|build|lint)s?", words[0])
    # (not a database by its name: ``dropdb app_test`` runs no test)
    if job is None and named and _program_name(parsed["argv"][0]) not in _DATABASE_ADMIN:
        return named.group(1) or named.group(2)
    return job


def is_static_check(command: str) -> bool:
    """Whether a command checks code without running it: a linter, a type checker or a formatter's check."""
    parsed = parse_command(command)
    # (or a workspace's type-check task: ``turbo run typecheck --filter=web``, ``pnpm type-check``)
    return command_job(command) == "lint" or parsed["family"].split(" ")[0] in _TYPECHECKERS \
        or bool(_FORMATTER.match(parsed["family"]) or _FORMATTER.match(parsed["check"])) \
        or bool(re.search(r"(?:^|\s)(?:typecheck|type-check|check-types)(?:\s|$)", parsed["check"])) \
        or bool(_TYPECHECK_SUBCOMMAND.match(parsed["check"]))


def is_autofix(command: str) -> bool:
    """Whether a command lets a linter or formatter rewrite the code itself (``eslint --fix``, ``black .``)."""
    parsed = parse_command(command)
    if _FORMATTER.match(parsed["family"]) or _FORMATTER.match(parsed["check"]):
        # (a project's script that checks: ``npm run format:check``, ``yarn fmt-check``)
        return not ({"--check", "--diff", "-l", "--list-different", "--dry-run"} & set(parsed["flags"])) \
            and not re.search(r"(?:^|\s)(?:npm|yarn|pnpm|bun)\s+(?:format|fmt)[:_-](?:check|verify|ci)\b",
                              parsed["family"])
    if re.search(r"(?:^|[\s:])(?:spotlessApply|spotless:apply|ktlintFormat|formatKotlin|scalafmtAll|"
                 r"googleJavaFormat|fmt:format|checkstyle:fix)\b", parsed["check"]):
        return True  # a build tool's formatter task: ``./gradlew :http-client:spotlessApply``
    return is_static_check(command) and bool(_AUTOFIX_FLAGS & set(parsed["flags"]))


# a setting given as an argument: make's ``ENV=staging``, hydra's ``trainer.max_epochs=2``, ``+experiment=smoke``
_SETTING = LazyRegex(r"^\+{0,2}~?[A-Za-z_][\w.-]*=")


_OUTPUT_FORMATS = frozenset(("json", "jsonc", "table", "none", "tsv", "yaml", "yamlc", "text", "wide", "name"))
_REPORT_OPTIONS = frozenset(("--summary", "--reporter", "--reporters", "--format"))


def _targets(command: str) -> list[str]:
    """What a check runs on (``tests/test_a.py``, ``./internal/...``): its positional arguments past the job."""
    parsed = parse_command(command)
    checked = list(parsed["argv"])  # (its words as split: a quoted value with a space in it is one)
    # (up to a pipe, less where it writes: ``… --path build/Test.xcresult > /tmp/result.json``, ``… | jq -r …``)
    checked = _before_pipe(checked)
    checked = [w for i, w in enumerate(checked) if not re.fullmatch(r"\d?>>?|&>", w)
               and not (i and re.fullmatch(r"\d?>>?|&>", checked[i - 1]))]
    # (an option's value, ``--project api``, is the package it picks: _picked_package compares those; an
    # environment or a URL, ``--env local``, ``--to ent://ent/schema``, is where it runs, not what it checks)
    # (a configure or build preset is how it is configured; a test run's preset, which tests run: a target)
    valued = (_VALUE_OPTIONS if "--preset" not in checked or command_job(command) != "test"
              else _VALUE_OPTIONS - {"--preset"}) | _PLACE_OPTIONS | _SETUP_OPTIONS | _CREDENTIAL_OPTIONS
    if checked[:1] and _program_name(checked[0]) in ("nix", "nix-shell", "devbox"):
        # (``nix develop --command node --version`` enters the shell ``nix develop --command true`` failed to: what
        # runs inside it is no target of the shell's)
        cut = next((i for i, w in enumerate(checked) if w in ("--command", "-c", "--run")), len(checked))
        checked = checked[:cut]
    kube = checked[:1] and _program_name(checked[0]) in ("kubectl", "oc")
    valued = valued | _run_options(checked)
    if kube:  # (how it lists, ``-o wide``, and which, ``-l app=falco``: the kind it lists is its target)
        valued = valued | {"-o", "--output", "-l", "--selector", "-c", "--container", "--sort-by", "--context"}
    if "pytest" in map(_program_name, checked[:3]):  # (a warning turned into an error, ``-W error::pandas.errors.
        # ChainedAssignmentError``, is how it runs, not what)
        valued = valued | {"-W", "--pythonwarnings"}
    if checked[:1] and _program_name(checked[0]) == "cmake":  # (``cmake --build build``, ``-B build``: directories)
        valued = valued | {"--build", "-B", "-S"}
    if checked[:1] and _program_name(checked[0]) == "sbt":  # (a task and its argument in one word: ``'testOnly
        # controllers.ReportSpec'`` runs that spec; the test task itself, ``sbt test``, runs everything)
        checked = checked[:1] + _sbt_words(checked[1:])
    # (a setting, not a target: make's ``ENV=staging``, hydra's ``trainer.max_epochs=2``, ``+experiment=smoke``)
    if checked[:1] and re.fullmatch(r"node|deno|tsx|ts-node", _program_name(checked[0])):
        valued = valued | _PRELOAD_OPTIONS
    words = [w for i, w in enumerate(checked) if not w.startswith("-") and not _SETTING.match(w)
             and not (i and checked[i - 1] in valued and checked[i - 1] != "-w")
             and not (i and checked[i - 1] in ("-u", "--user") and "@" in w)
             # (how the answer is printed is no target: the Azure CLI's ``-o none`` then ``-o table``)
             and not (i and checked[i - 1] in ("-o", "--output") and w in _OUTPUT_FORMATS)
             # (nor how much of it: zig's ``--summary failures`` then ``--summary all``, mocha's ``--reporter dot``)
             and not (i and checked[i - 1] in _REPORT_OPTIONS)
             # (a project's file by Godot's scheme is one: ``res://test/test_inventory.gd``)
             and not re.match(r"^(?!res://|user://)[a-z][\w+.-]*://", w)]
    family = parsed["family"].split()
    skip = 1 + (len(family) - 1 if words[:1] == family[:1] else 0)
    if words and re.fullmatch(r"python[\d.]*|node|ruby|bash|sh|perl|php|deno", _program_name(words[0])):
        skip = 1 if "--test" in checked else 2  # (node's test runner is given test files, not a script)
    targets = [re.sub(r"^\./|/?\.\.\.$|::.*$", "", w) for w in words[skip:] if not w.startswith("run")]
    # (a test file given as a setting, rails' and rake's ``TEST=test/system/checkouts_test.rb``)
    targets += [w.split("=", 1)[1] for w in checked[1:] if re.fullmatch(r"TESTS?=\S*/\S+", w)]
    if kube:  # (a kind by either number: ``get pod`` lists the ``pods`` that ``get pods`` did)
        targets = [re.sub(r"^(pod|deployment|service|node|job|event)s?$", r"\1s", t) for t in targets]
    if parsed["family"] in ("docker run", "podman run"):  # (the image by its name: the fix is often a new tag of it,
        # ``acme/pg-backup:dev`` rebuilt for the ``acme/pg-backup:latest`` that failed)
        targets = [re.sub(r"^([\w.-]+(?:/[\w.-]+)*):[\w][\w.-]*$", r"\1", t) for t in targets]
    return targets


# maven's lifecycle phases by what they do (the last one asked for runs those before it)
_MAVEN_PHASES = {"validate": "build", "compile": "build", "test-compile": "build", "test": "test", "package": "build",
                 "integration-test": "test", "verify": "test", "install": "build", "deploy": "build"}
_MAVEN_SELECTION = LazyRegex(r"(?:^|\s)-D(?:it\.)?test=([^\s'\"]+)")
_SBT_TEST_TASK = LazyRegex(r"(?:[\w-]+[:/])*test(Only|Quick)?")
# (the project an sbt test task is scoped to: ``billingCore/testOnly …``, ``api/it:test``)
_SBT_PROJECT = LazyRegex(r"([\w-]+)/(?:[\w-]+:)?test(?:Only|Quick)?")


def _maven_phase(argv: list[str]) -> str | None:
    """The lifecycle phase a maven line runs to (its last), when it is maven's."""
    if not argv or _program_name(argv[0]) not in ("mvn", "mvnw"):
        return None
    return next((w for w in reversed(argv[1:]) if w in _MAVEN_PHASES), None)


def runs_the_phase_of(failed: str, later: str) -> bool:
    """Whether maven's ``later`` runs the tests of the phase that ``failed``: a later phase runs the earlier ones
    (``mvn -pl functions/enricher package`` runs the ``test`` that failed), unless told to skip them."""
    # (by the same program, picking the same tests the same way: not ``./mvnw`` for ``mvn``, nor failsafe's
    # ``-Dit.test=OrderRepositoryIT`` for surefire's ``-Dtest=…``, each another way to run them)
    argvs = [parse_command(c)["argv"] for c in (failed, later)]
    phases = [_maven_phase(argv) for argv in argvs]
    order = list(_MAVEN_PHASES)  # (in the lifecycle's order)
    return None not in phases and _MAVEN_PHASES[phases[0]] == "test" \
        and order.index(phases[1]) > order.index(phases[0]) and argvs[0][0] == argvs[1][0] \
        and sorted(re.findall(r"-D(?:it\.)?test=\S+", failed)) == sorted(re.findall(r"-D(?:it\.)?test=\S+", later)) \
        and not re.search(r"-D(?:skipTests|maven\.test\.skip)\b", later)


def _sbt_projects(command: str) -> set[str]:
    """The projects a line's sbt test tasks are scoped to (none for the aggregate's own ``sbt test``)."""
    argv = parse_command(command)["argv"]
    if not argv or _program_name(argv[0]) != "sbt":
        return set()
    return {task.group(1) for quoted in argv[1:] for w in quoted.split() if (task := _SBT_PROJECT.fullmatch(w))}


def _sbt_words(words: list[str]) -> list[str]:
    """sbt's arguments as targets: the whole test task (``test``, ``it:test``) is everything (``.``); a selecting one
    (``testOnly``, ``testQuick``) gives way to what it selects."""
    out = []
    for word in (w for quoted in words for w in quoted.split()):
        task = _SBT_TEST_TASK.fullmatch(word)
        if not task or not task.group(1):
            out.append("." if task else word)
    return out
# the runners whose ``-e`` picks the environment a job runs in (``pio test -e native``, ``tox -e py312``), and
# detox's ``-c`` the configuration it builds and tests (``-c ios.sim.release`` embeds the bundle ``ios.sim.debug``
# loads from Metro)
_RUN_OPTIONS = {**dict.fromkeys(("pio", "platformio", "tox", "nox"), frozenset(("-e", "--environment"))),
                "detox": frozenset(("-c", "--configuration")),
                # (molecule's scenario: ``molecule test -s podman`` where the role has no ``default``)
                "molecule": frozenset(("-s", "--scenario-name"))}


def _run_options(argv: list[str]) -> frozenset[str]:
    """The options that pick how ``argv``'s program runs its job, beside _VALUE_OPTIONS (:data:`_RUN_OPTIONS`)."""
    return _RUN_OPTIONS.get(_program_name(argv[0]), frozenset()) if argv else frozenset()


_PLACE_OPTIONS = frozenset(("--env", "--environment", "--to", "--from", "--url", "--dev-url"))
# a file loaded before or around what is checked (``bun test --preload ./test/happydom.ts``): how it runs, no target
_SETUP_OPTIONS = frozenset(("--preload", "--require", "--import", "--loader", "--setupFiles", "--setup-files",
                            "--setupFilesAfterEnv", "--config", "--tsconfig", "--rootDir"))
# who it signs in as (``xcrun altool … --username releases@acme.io``, ``--apiKey "$ASC_KEY_ID"``): how it runs, no
# target (``-u`` too, given an address: journalctl's and systemctl's ``-u vault-agent`` is the unit they read)
_CREDENTIAL_OPTIONS = frozenset(("--username", "--password", "--apiKey", "--apiIssuer", "--api-key", "--api-issuer",
                                 "--token", "--key-id", "--issuer-id", "--keychain-profile"))
_PACKAGE_OPTIONS = ("--filter", "-F", "--workspace", "-w", "-p", "--package", "--project", "--manifest-path", "-C",
                    "--dir", "--prefix", "-pl", "--projects")


def _picked_package(command: str) -> str | None:
    """The workspace package or directory a line runs in (``pnpm --filter @acme/sdk build``, ``cargo test -p api``)."""
    argv = parse_command(command)["argv"]
    if not argv or _program_name(argv[0]) not in (*_TWO_WORD, "nx", "turbo", "lerna", "rush"):
        return None  # (another program's ``-w``, ``-F`` or ``-p`` is no package: ``curl -w '%{http_code}'``)
    for i, word in enumerate(argv[:-1]):
        if word in _PACKAGE_OPTIONS:
            return argv[i + 1]
        if word.startswith(("--filter=", "--workspace=", "--package=", "--project=", "--manifest-path=")):
            return word.split("=", 1)[1]
    return None


def _inline_code(command: str) -> str | None:
    """The code or query a line hands its program (``psql … -c "SELECT 1"``, ``mysql -e …``, ``clickhouse client
    --query …``), if any."""
    argv = parse_command(command)["argv"]
    if argv and _program_name(argv[0]) in ("nix", "nix-shell", "devbox"):
        return None  # (a shell entered to run a command in: the shell is what is checked, see _targets)
    for i, word in enumerate(argv[1:-1], 1):
        # (not a flag after it: ``jupyter nbconvert --execute --ExecutePreprocessor.kernel_name=python3 …``)
        # (nor a variable's setting: ``maestro test -e APP_ID=com.acme.wallet.debug``, ``docker run -e TZ=UTC``)
        # (or ending a cluster of short flags: psql's ``-Atc "SHOW statement_timeout"``; not curl's ``-sSe``, a
        # referer)
        if (word in ("-c", "-e", "--command", "--execute", "--eval", "--query") and word not in _run_options(argv)
                or _INLINE_CLUSTER.fullmatch(word) and _program_name(argv[0]) in _CODE_TAKERS) \
                and not argv[i + 1].startswith("-") \
                and not (word.endswith("e") and re.fullmatch(r"[A-Za-z_]\w*=\S*", argv[i + 1])) \
                and "install" not in argv[1:i]:  # (nor an installer's: pip's ``-e .`` editable, ``-c`` constraints)
            return " ".join(argv[i + 1].split())
    return None


_INLINE_CLUSTER = LazyRegex(r"-[A-Za-z]{1,3}[ce]")
_CODE_TAKERS = frozenset(("psql", "mysql", "mariadb", "bash", "sh", "zsh", "dash", "perl", "ruby", "python", "python3",
                          "node"))


# a program that sends a request to a service (``curl -fsS localhost:8080/health``, ``nc -z db 5432``)
_PROBE = LazyRegex(r"^(?:curl|wget|http|https|xh|nc|grpcurl|websocat)\b")


def _probed(command: str) -> set[str]:
    """The addresses a request tool asks (``curl -fsS http://localhost:8080/api/v1/health``), the local host named
    one way, and ``http://`` (curl's default) left out."""
    argv = parse_command(command)["argv"]
    if not argv or not _PROBE.fullmatch(_program_name(argv[0])):
        return set()
    return {re.sub(r"^(\w+://)?(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\])(?=[:/]|$)", r"\1localhost",
                   re.sub(r"^http://", "", w))
            for w in argv[1:] if re.match(r"^(?:\w+://)?(?:[\w.-]+|\[::1\]):\d+|^\w+://", w)}


def _rooted_targets(command: str, words: bool = False) -> list[str]:
    """The targets of ``command`` from where it started: ``cd ansible && ansible-playbook playbooks/site.yml`` runs
    ``ansible/playbooks/site.yml`` (a ``cd`` to a relative directory only: another root cannot be told); with
    ``words``, a bare word too, as a directory there (``src`` of ``cd apps/web && npx eslint src``)."""
    cwd = parse_command(command)["cwd"]
    targets = _targets(command)
    if not cwd or cwd.startswith(("/", "~", "$")) or ".." in cwd.split("/"):
        return targets
    return [t if t.startswith(("/", "~", "$", "-")) or t in ("", ".") or not words and not re.search(r"[/.]", t)
            else posixpath.normpath(f"{cwd}/{t}") for t in targets]


# an option whose value picks which tests run
# (not ``--filter``, a package's name in pnpm and turbo: ``--filter web`` for ``@shop/web``; nor ``--group``, an
# app's testers by their name: ``--group beta-testers`` for ``--group "Beta Testers"``)
_SELECTS_TESTS = LazyRegex(r"(?i)^--?(?:test-?platform|test-?filter|testPathPattern|testNamePattern|grep|suite|"
                           r"testsuite|tests?|only-testing)$")


# an id a service made for what it was given, a path's part of its own (a Flink job's, a UUID)
_GENERATED_ID = LazyRegex(r"(?<=/)(?:[0-9a-f]{16,}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})"
                          r"(?=/|$|\?)")


# inline code that only loads a module (``(require 'billing.invoice)``, ``import app.main``, ``using QuadKit``)
_LOADS_ONLY = LazyRegex(r"\s*\(?\s*(?:require|import|from\s+[\w.]+\s+import|using|load)\b")


# a subcommand by the one that does what it does and more
_DOES_MORE = {("helm dependency", "build"): "update"}


def _same_target(failed: str, later: str) -> bool:
    """Whether ``later`` runs (at least) what failed: the same test file, a parent directory, or everything."""
    # (a later line with no ``cd`` may run where the failing line's ``cd`` left the shell, which Claude Code keeps:
    # ``dart test test/fasthash_test.dart`` after ``cd packages/fasthash && dart test test/fasthash_test.dart``)
    # (on the same machine over ssh: the commands it ran there, ``ssh cp-1 'sudo etcdctl … snapshot save …'``)
    remote = [_REMOTE.match(command.strip()) for command in (failed, later)]
    if all(remote) and remote[0].group(1) == remote[1].group(1):
        return command_family(remote[0].group(3)) == command_family(remote[1].group(3)) \
            and _same_target(remote[0].group(3), remote[1].group(3))
    # (another dev shell of the flake is another environment: ``nix develop .#docs -c true`` for ``.#ci``)
    shells = [re.match(r"nix develop (?:((?!-)\S+) )?", parse_command(c)["runner"] + " ") for c in (failed, later)]
    if all(shells) and shells[0].group(1) != shells[1].group(1):
        return False
    went = parse_command(failed)["cwd"]
    if went and not parse_command(later)["cwd"] and not later.lstrip().startswith("cd ") \
            and _same_target(failed, f"cd {went} && {later}"):
        return True
    # (a package by its path, with extras or without: ``uv pip install -e '.[test]'`` for ``… -e .``)
    a, b = ([re.sub(r"^([\w./-]+)\[[A-Za-z][\w,.-]*\]$", r"\1", t) for t in _rooted_targets(c)]
            for c in (failed, later))
    # (the same directory, named from inside the one above it: ``cd apps/web && npx eslint src`` for ``npx eslint
    # apps/web/src``)
    if a != b and a and a == _rooted_targets(later, words=True) and all("/" in t for t in a):
        return True
    # (a query given whole as one word asks the same with another count: ``bq query '… LIMIT 2'`` for ``… LIMIT 5``)
    if a != b and len(a) == len(b) and all(x == y or " " in x and re.sub(r"\d+", "#", x) == re.sub(r"\d+", "#", y)
                                           for x, y in zip(a, b)):
        return True
    # (or names anew what it creates, for each try: ``gcloud deploy releases create rel-0514b`` for ``… rel-0514a``)
    if a != b and len(a) == len(b) and all(
            x == y or n and a[n - 1] == "create" and len(x) >= 5 and len(os.path.commonprefix([x, y])) >= len(x) - 2
            for n, (x, y) in enumerate(zip(a, b))):
        return True
    urls = [_probed(c) for c in (failed, later)]
    if urls[0] and urls[1]:
        # ``curl …:9000/api/v1/health`` asks the container, not the proxy at ``:8080`` that failed; the same address
        # asked again is the same read, whatever part of the answer it shows (``| jq -r '.tasks[0].state'``)
        # (of a thing made again, by its new id: ``…/jobs/c41d8e2f7a6b4c3d9e0f1a2b3c4d5e6f`` for the job resubmitted)
        return {_GENERATED_ID.sub("<id>", u) for u in urls[0]} == {_GENERATED_ID.sub("<id>", u) for u in urls[1]}
    picked_a, picked_b = _picked_package(failed), _picked_package(later)
    if picked_a and picked_b and picked_a != picked_b and not picked_b.endswith("/" + picked_a):
        # ``pnpm --filter @acme/shared build`` does not build the ``@acme/sdk`` that failed (but ``--project api``
        # and ``--project @acme/api`` name one package)
        return False
    projects_a, projects_b = (_sbt_projects(c) for c in (failed, later))
    if projects_a and projects_b and not projects_a & projects_b:
        return False  # (sbt's ``billingApi/test`` runs another project's tests than ``billingCore/testOnly …``)
    selected_a, selected_b = (set(_MAVEN_SELECTION.findall(c)) for c in (failed, later))
    if selected_a and selected_b and not selected_a <= selected_b:
        return False  # (maven's test selection is a property: ``-Dit.test=InvoiceIT`` does not run ``HistoryIT``)
    # (a subcommand that does what the failing one did, and more: ``helm dependency update`` fetches the charts
    # ``helm dependency build`` failed to, after resolving them again)
    family = command_family(failed)
    if family == command_family(later):
        a = [more if (more := _DOES_MORE.get((family, t))) in b else t for t in a]
    if any(t in _SUBCOMMAND_JOBS and t not in b for t in a):
        return False  # ``zig build`` or ``make`` does not run the ``test`` step that failed
    named_a, named_b = ({t for t in targets if t not in _SUBCOMMAND_JOBS} for targets in (a, b))
    # (or a keyword's: kaocha's ``--focus :unit`` is another suite than the ``--focus :integration`` that failed)
    if named_a and named_b and all(re.fullmatch(r":?[\w-]+", t) for t in named_a | named_b) and not named_a & named_b:
        return False  # ``manage.py test accounts`` runs another app's tests than the ``test billing`` that failed
    argv_a, argv_b = parse_command(failed)["argv"], parse_command(later)["argv"]
    phases = [_maven_phase(argv) for argv in (argv_a, argv_b)]
    # (maven run on another project's pom builds that project: ``mvn -f target-platform/pom.xml clean install`` is no
    # run of the ``mvn -f bundles/pom.xml … verify`` that failed)
    poms = [next((v for o, v in zip(argv, argv[1:]) if o in ("-f", "--file")), None) for argv in (argv_a, argv_b)]
    if None not in phases and None not in poms and os.path.dirname(poms[0]) != os.path.dirname(poms[1]):
        return False
    if None not in phases and _MAVEN_PHASES[phases[0]] != _MAVEN_PHASES[phases[1]] \
            and not runs_the_phase_of(failed, later):
        return False  # (maven's phase is its job: ``mvn -pl payments compile`` runs no ``test`` that failed)
    # (a selection of tests given another value runs other tests: ``-testPlatform EditMode`` for the ``-testPlatform
    # PlayMode`` that failed, ``--grep checkout`` for ``--grep cart``)
    options_a, options_b = (dict(zip(argv, argv[1:])) for argv in (argv_a, argv_b))
    # (an address by another scheme is asked something else: ``--url http://neverssl.com/feed.xml`` is no run of the
    # ``--url https://lobste.rs/rss`` that failed for want of TLS)
    if any(option in _PLACE_OPTIONS and option in options_b and re.match(r"[a-z][\w+.-]*://", value)
           and re.match(r"[a-z][\w+.-]*://", options_b[option])
           and value.split("://")[0] != options_b[option].split("://")[0] for option, value in options_a.items()):
        return False
    # (not a flag followed by another flag, ``node --test --experimental-test-module-mocks test/``: no value there)
    if any(_SELECTS_TESTS.match(option) and option in options_b and options_b[option] != value
           and not value.startswith("-") and not options_b[option].startswith("-")
           and not fnmatch.fnmatchcase(value, options_b[option])
           for option, value in options_a.items()):
        return False
    # (nor is a run without the example it named, or with another: fpm's and cargo's ``--example kepler_orbit``, or a
    # ``fpm test``, runs no ``fpm run --example two_body``)
    if "--example" in options_a and options_b.get("--example") != options_a["--example"]:
        return False
    code_a, code_b = _inline_code(failed), _inline_code(later)
    # (a line that only loads the code runs none of what the failing one ran: ``clojure -M -e "(require
    # 'billing.invoice)"`` after ``clojure -M:test --focus billing.invoice-test``)
    if bool(code_a) != bool(code_b) and _LOADS_ONLY.match(code_a or code_b):
        return False
    # (the same code, then a look after it: ``vagrant ssh staging -c 'sudo …/grow-data.sh 5G && df -h /srv/data'``)
    if code_a and code_b and " ".join(code_a.split()) in [" ".join(step.split()) for step in code_b.split("&&")]:
        code_b = code_a
    if code_a and code_b and code_a != code_b:
        # ``psql … -c 'SHOW wal_level'`` does not run the ``-c "SELECT pg_create_…"`` that failed; ``pwsh -c
        # 'Invoke-Pester -Path ./tests'`` runs the ``… -Path ./tests/Get-InventoryReport.Tests.ps1`` that did
        return _family(_words(code_a)) == _family(_words(code_b)) != "" and _same_target(code_a, code_b)
    if not a or not b or "" in b or "." in b:
        return True

    def within(x: str, y: str) -> bool:  # a path within a directory; a word (``heads``, ``upgrade``) only itself
        if any(fnmatch.fnmatchcase(p, g) for p, g in ((x, y), (y, x)) if re.search(r"[*?\[]", g)):
            return True  # (a pattern that matches it: ``tests/*_test.yml`` runs ``tests/node_test.yml``)
        if _same_generated(x, y):
            return True  # (a Job created again from its CronJob: ``job/ledger-export-manual-m2c6v`` for ``…-r4t8m``)
        if re.fullmatch(rf"(?:\d*\+|@)?{re.escape(x)}(?:\+\d*)?", y):
            return True  # (widened by a graph operator: dbt's ``stg_orders+`` is stg_orders and what builds on it)
        if re.search(r"[/.]", x + y):
            return x.startswith(y.rstrip("/")) or y.startswith(x.rstrip("/"))
        return x == y

    if command_job(failed) is None:  # (no test selection to widen: ``redis-cli … ACL GETUSER cachesvc`` is not the
        # ``redis-cli … GET session:7f3a9c`` that failed; a count or a duration, ``-n 4``, is no target)
        # (a long option pointed at a local path is the same run changed: ``--model models/distilbert-sst2`` for the
        # ``--model distilbert-base-…`` a network-less runner could not download)
        revalued = {old for _, old, _ in _repointed(argv_a, argv_b)}
        # (so are the values of long options the later run left out: ``--apple-id … --password …`` given up for
        # ``--keychain-profile shutterbox-notary``)
        revalued |= {value for option, value in zip(argv_a, argv_a[1:]) if option.startswith("--") and "=" not in option
                     and not value.startswith("-") and option not in argv_b}
        # (or given another value: ``--groups qa-testers`` for the ``--groups "QA Testers"`` that got a 404)
        revalued |= {word for _, old, _ in _given_another_value(argv_a, argv_b) for word in [old, *old.split()]}
        # (and a short option's settings file left out, now read from a config: ``-i inventories/staging/hosts.yml``
        # beside ``ansible.cfg``'s ``inventory =``; not a verbosity flag's neighbour, ``-v playbooks/db.yml``)
        revalued |= {value for option, value in zip(argv_a, argv_a[1:]) if re.fullmatch(r"-[A-Za-z]", option)
                     and not _NOT_A_FIX_FLAG.match(option) and option not in argv_b
                     and re.search(r"\.(?:ya?ml|ini|cfg|toml|json|conf|hcl|tfvars|env)$", value)}
        # (or a file in the home directory, a password or a key, left out with its option: ``-y ~/.ldap_admin_pw``
        # for the ``-Y EXTERNAL -H ldapi:///`` that binds as root)
        revalued |= {value for option, value in zip(argv_a, argv_a[1:]) if re.fullmatch(r"-[A-Za-z]", option)
                     and option not in argv_b and re.match(r"(?:~|\$HOME|\$\{HOME\})/", value)}
        # (the same subcommand with its last words left out runs all of it: ``cargo deny check`` runs the
        # ``cargo deny check licenses`` that failed, and the advisories, bans and sources beside it)
        if len(b) < len(a) and a[:len(b)] == b and all(re.fullmatch(r"[a-z][\w-]*", x) for x in a[len(b):]):
            return True
        return all(any(within(x, y) for y in b) for x in a if not re.fullmatch(r"\d+[a-z]{0,2}", x)
                   and x not in revalued)
    if any(y in ("...", "./...") for y in b):
        return True  # (go's every package)
    # (by what it names, when it names something besides its job: ``kustomize build base`` does not build the
    # ``overlays/prod`` that failed)
    named = [x for x in a if x not in _SUBCOMMAND_JOBS] or a
    if not [y for y in b if y not in _SUBCOMMAND_JOBS]:
        return any(within(x, y) for x in a for y in b)  # (the job whole: ``manage.py test`` for ``test billing``)
    return any(within(x, y) for x in named for y in b)


def _same_generated(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` name resources Kubernetes generated from one name (``job/ledger-export-manual-r4t8m``
    and ``job/ledger-export-manual-m2c6v``, two Jobs created from one CronJob)."""
    from .redact import kube_name_base

    (kind_a, _, name_a), (kind_b, _, name_b) = (w.rpartition("/") for w in (a, b))
    base = kube_name_base(name_a) if kind_a == kind_b and name_a != name_b else None
    return base is not None and base == kube_name_base(name_b)


def _repointed(before: list[str], after: list[str]) -> list[tuple[str, str, str]]:
    """The long options ``after`` gives a local path where ``before`` gave them another value, as (option, old, new):
    ``--model models/distilbert-sst2`` for ``--model distilbert-base-uncased``; not another ``--date``, another run's
    target."""
    def values(argv: list[str], option: str) -> set[str]:  # (an option given more than once: ``--resource a --resource b``)
        return {value for given, value in zip(argv, argv[1:]) if given == option}

    return [(option, old, new) for option, old in zip(before, before[1:])
            if option.startswith("--") and "=" not in option and not old.startswith("-")
            and old not in values(after, option)
            for new in values(after, option) - values(before, option) if "/" in new and not new.startswith("-")]


# flags that change how much a run says, whether it reruns or which tests it selects, not what it does: never the fix
_NOT_A_FIX_FLAG = LazyRegex(r"^(?:-v+|-q+|-s|-x|--(?:verbose|quiet|info|debug|stacktrace|full-stacktrace|scan|"
                            r"no-header|exitfirst|lf|last-failed|ff|failed-first|failed|only-failures|rerun|"
                            r"rerun-tasks|rerun-failed|"
                            r"no-daemon|console(?:=\S+)?|color(?:=\S+)?|no-color|tb(?:=\S+)?|maxfail(?:=\S+)?|"
                            # (a test runner's reporter: ``vitest --reporter=verbose``, ``mocha --reporter dot``)
                            r"reporter(?:=\S+)?|"
                            # (what is downloaded again, not from where: gradle's ``--refresh-dependencies``)
                            r"refresh-dependencies|"
                            # (how much of a log is read back: ``kubectl logs … --since=1m``, ``--tail 3``)
                            r"since(?:=\S+)?|until(?:=\S+)?|tail(?:=\S+)?)|"
                            r"-count=1|--?tb=\S+|-no-color|-json|-compact-warnings|"
                            # which tests run, not how: a wider or narrower selection is no fix
                            r"--tests(?:=\S+)?|--test-name-pattern(?:=\S+)?|--testNamePattern(?:=\S+)?|-run(?:=\S+)?|"
                            r"-D(?:it\.)?test=\S+|"  # (maven surefire's and failsafe's: ``-Dtest=OrderRepositoryTest``)
                            r"--output-on-failure|--show-output|--nocapture|--no-capture|--version|-V|--help|"
                            # where a result is saved, not how it is made: ``terraform plan -out=tfplan``
                            r"-out=\S+)$")


# ``timeout -s INT 15 `` before a command: its options and its duration
_TIMEOUT_WORDS = r"timeout\s+(?:-[-\w]+(?:\s+[A-Z]+)?\s+)*\d+\w*(?:\s+|$)"
_TIMEOUT = LazyRegex("^" + _TIMEOUT_WORDS)


# variables that only make a run say more (a backtrace, a log level): never the fix
_SAYS_MORE = LazyRegex(r"^(?:RUST_BACKTRACE|RUST_LIB_BACKTRACE|RUST_LOG|NODE_DEBUG|DEBUG|PYTHONFAULTHANDLER|"
                       r"PYTHONTRACEMALLOC|TF_LOG|TF_LOG_PATH|LOG_LEVEL|VERBOSE|GIT_TRACE|CARGO_TERM_VERBOSE|"
                       # (and a GPU stack's: ``NCCL_DEBUG=INFO``, ``TORCH_DISTRIBUTED_DEBUG=DETAIL``)
                       r"NCCL_DEBUG|NCCL_DEBUG_SUBSYS|TORCH_DISTRIBUTED_DEBUG|TORCH_SHOW_CPP_STACKTRACES|"
                       r"TF_CPP_MIN_LOG_LEVEL|GRPC_VERBOSITY|GRPC_TRACE|GST_DEBUG|SPDLOG_LEVEL|"
                       # (any tool's by its name's end: ``OPENSC_DEBUG=3``, ``LIBUSB_DEBUG=4``,
                       # ``MYAPP_LOG_LEVEL=trace``)
                       r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*_(?:DEBUG|TRACE|VERBOSE|VERBOSITY|LOG_LEVEL|LOGLEVEL))=")


# nix's flags that print more of a build, never the fix (``nix build .#default -L`` after a fetch timed out; not curl's
# ``-L``, which follows a redirect)
_NIX_PROGRAMS = frozenset(("nix", "nix-build", "nix-shell", "nixos-rebuild", "home-manager", "darwin-rebuild"))
_NIX_LOOK_FLAGS = frozenset(("-L", "--print-build-logs", "--show-trace"))


# the kinds of part an invocation is made of, in the order a change names them
_PART_ORDER = ("cwd", "env", "runner", "file", "flag", "path", "profile", "source", "unset")


def _invocation(parsed: dict) -> set[str]:
    """The parts of an invocation a lesson can be about (not the test selection, not how much it prints)."""
    argv = _before_pipe(parsed["argv"])
    parts = {f"env:{e}" for e in parsed["env"] if not _SAYS_MORE.match(e)} | {f"unset:{u}" for u in parsed["unset"]} | {
        f"source:{f}" for f in parsed["sourced"]} | {
        f"flag:{f}" for f in parsed["flags"] if not _NOT_A_FIX_FLAG.match(f)
        and not (argv and _program_name(argv[0]) in _NIX_PROGRAMS and f in _NIX_LOOK_FLAGS)}
    # a URL it is given is where it goes (``-p db_url 'postgresql+psycopg2://…'``), not what it checks
    # (not an option's value: ``--to ent://ent/schema`` is the option's change)
    parts |= {f"flag:{w}" for i, w in enumerate(argv[1:], 1) if re.match(r"^[a-z][\w+.-]*://\S", w)
              and not argv[i - 1].startswith("-")}
    # a setting given as an argument is how it runs (hydra's ``+experiment=smoke``, make's ``ENV=staging``)
    parts |= {f"flag:{w}" for i, w in enumerate(argv[1:], 1) if _SETTING.match(w)
              and not argv[i - 1].startswith("-")}
    # an option's value is part of it (``--project api`` → ``--project @acme/api``, ``-f values-staging.yaml``)
    # (and the environment a test runner builds for: ``pio test -e native``, ``tox -e py312``)
    valued = _VALUE_OPTIONS | _run_options(argv)
    parts |= {f"flag:{w} {argv[i + 1]}" for i, w in enumerate(argv[:-1])
              if w in valued and w != "-w" and not argv[i + 1].startswith("-")}
    parts -= {f"flag:{w}" for w in argv if w in valued and any(p.startswith(f"flag:{w} ") for p in parts)}
    # (and a short option's setting: conan's ``-s compiler.cppstd=17``, ssh's ``-o StrictHostKeyChecking=no``; or a
    # long one's, given again and again: spark-submit's ``--conf spark.dynamicAllocation.shuffleTracking.enabled=true``)
    # (or a place it is pointed at: celery beat's ``-s /tmp/celerybeat-schedule``; or a URL: dbmate's ``--url
    # "postgres://…/inventory_dev?sslmode=disable"``)
    parts |= {f"flag:{w} {argv[i + 1]}" for i, w in enumerate(argv[:-1])
              if re.fullmatch(r"-[A-Za-z]|--[a-z][\w-]*", w) and w not in valued and (
                  _SETTING.match(argv[i + 1]) or len(w) == 2 and re.match(r"(?:/|~/)[\w.-]", argv[i + 1])
                  or re.match(r"[a-z][\w+.-]*://\S", argv[i + 1]))}
    parts -= {f"flag:{w}" for w in argv if re.fullmatch(r"-[A-Za-z]|--[a-z][\w-]*", w)
              and any(p.startswith(f"flag:{w} ") for p in parts)}
    # (``env`` only sets or unsets the variables above; ``timeout 15`` only bounds how long a check may take; ``nohup``
    # and ``time`` before another runner only put it in the background or time it: ``nohup uv run mkdocs serve &``)
    # (wherever it sits: ``sudo timeout 30``)
    runner = re.sub(r"(?:^|(?<=\s))" + _TIMEOUT_WORDS, "", re.sub(r"^env\b\s*", "", parsed["runner"])).strip()
    runner = re.sub(r"^(?:(?:nohup|time)\s+)+(?=\S)", "", runner)
    if runner:
        parts.add(f"runner:{runner}")
    if parsed["cwd"]:
        parts.add(f"cwd:{parsed['cwd']}")
    if parsed["profile"]:
        parts.add(f"profile:{parsed['profile']}")
    if parsed.get("path"):
        parts.add(f"path:{parsed['path']}")
    # the build definition it is pointed at (``dotnet test Billing.sln`` where two solutions sit side by side)
    parts |= {f"file:{w}" for i, w in enumerate(argv[1:], 1) if _BUILD_DEFINITION.search(w)
              and not argv[i - 1].startswith("-")}
    if argv and _PROBE.match(_program_name(argv[0])):
        # (a request's user is who asks, by its name alone: ``-u "1482390:…"`` for ``-u "acme-edge:…"``; what it
        # prints of the answer is no part of it: ``-w '%{http_code}\n'``, ``-o /dev/null``)
        parts -= {f"flag:{f}" for f in ("-w", "--write-out", "-o", "--output", "-u", "--user")}
        parts |= {f"flag:{w} {value.split(':', 1)[0]}" for w, value in zip(argv, argv[1:])
                  if w in ("-u", "--user") and ":" in value}
    return parts


_BUILD_DEFINITION = LazyRegex(r"^[^-=][^=]*\.(?:sln|slnf|slnx|csproj|fsproj|vbproj|xcodeproj|xcworkspace)$")


def _with_argument(flag: str, argv: list[str], before: list[str]) -> str:
    """``flag`` with the argument it takes in ``argv``, when that argument is new (``--vault-password-file
    ~/.ansible/vault_pass``, ``-f values-staging.yaml``): the lesson is the value as much as the flag."""
    if "=" in flag or flag not in argv:
        return flag
    # (a flag given more than once, each time with its value: ``-schema-location default -schema-location
    # 'schemas/crds/{{.ResourceKind}}_{{.ResourceAPIVersion}}.json'``)
    values = [argv[n + 1] for n, w in enumerate(argv[:-1]) if w == flag and not argv[n + 1].startswith("-")]
    if len(values) > 1 and any(v not in before and re.search(r"[/.~:]", v) for v in values):
        return " ".join(f"{flag} {v}" for v in values)
    at = argv.index(flag)
    value = argv[at + 1] if at + 1 < len(argv) else ""
    # (an argument it had before, not the program's name: ``awesome --search awesome -c awesome/rc.lua``)
    if not value or value.startswith("-") or value in before[1:] and not flag.startswith("/") \
            or re.fullmatch(r"\||\d?>>?|&>", value):  # (nor where its output goes: ``--compact | jq …``)
        return flag
    # (``kubectl -n billing``, ``helmfile -e staging``, Go's ``-tags webkit2_41``: the value is the lesson; and a
    # switch turned on or off by its word, xcodebuild's ``-parallel-testing-enabled NO``)
    # (and a PowerShell parameter's: ``-ExecutionPolicy Bypass``)
    if flag.startswith(("--", "/")) or re.search(r"[/.~:]|^\d+$", value) or flag in _VALUE_OPTIONS \
            or flag in ("-n", "-e", "-tags") or value in ("YES", "NO", "true", "false") and len(flag) > 2 \
            or re.fullmatch(r"-[A-Z][a-z]+(?:[A-Z][a-z]+)+", flag) and re.fullmatch(r"[A-Z]\w+", value):
        return f"{flag} {value}"
    # (or a directory the failed run reached into: ``-d src`` after ``-f src/pipelines/definitions.py``)
    if any(w.startswith(f"{value}/") for w in before):
        return f"{flag} {value}"
    return flag


def _same_file(before: dict, after: dict) -> bool:
    """Whether two lines run the same script by its path, each from its own directory (``cd billing && ../mvnw`` and
    ``./mvnw``; not ``./bin/phpunit`` and ``vendor/bin/phpunit``)."""
    def where(parsed: dict) -> str:
        return os.path.normpath(os.path.join(parsed["cwd"] or ".", parsed["path"] or ""))

    return bool(before["path"] and after["path"]) and where(before) == where(after)


# options that pick which part of the work runs (``--limit web-stg-02`` reruns the host that failed): another value
# is another part, no run changed
_SELECTING = frozenset(("--limit", "--tags", "--skip-tags", "--only", "--select", "--filter", "--grep", "--include",
                        "--exclude", "--target", "--targets", "--testNamePattern", "--test-name-pattern", "--match",
                        "--hosts", "--nodes", "--start-at-task", "--since", "--until", "--date"))


def _given_another_value(argv_a: list[str], argv_b: list[str]) -> list[tuple[str, str, str]]:
    """The long options of ``argv_a`` (given once, not a selection) that ``argv_b`` gives another value, as (option,
    old value, new value); and the short ones, given as often in both, whose value is a number or a header given
    another (``-b 921600`` → ``-b 115200``, ``-H "Accept: application/json"`` → ``-H "Accept: application/yang-data+
    json"``), where a short option's next word may be no value of it. (A long one with one dash too, given a number:
    mpirun's ``-np 16`` → ``-np 8``.)"""
    changed = [(option, old, argv_b[argv_b.index(option) + 1]) for option, old in zip(argv_a, argv_a[1:])
               if option.startswith("--") and "=" not in option and not old.startswith("-") and option in argv_b[:-1]
               and argv_a.count(option) == 1 and option not in _SELECTING and argv_b[argv_b.index(option) + 1] != old]
    for option in dict.fromkeys(w for w in argv_a[:-1] if re.fullmatch(r"-[A-Za-z]{1,3}", w)):
        olds, news = ([argv[n + 1] for n, w in enumerate(argv[:-1]) if w == option] for argv in (argv_a, argv_b))
        if len(olds) == len(news):
            changed += [(option, old, new) for old, new in zip(olds, news) if old != new and (
                re.fullmatch(r"\d+", old) and re.fullmatch(r"\d+", new)
                or len(option) == 2 and re.match(r"[\w-]+:\s", old) and new.startswith(old.split(":")[0] + ":"))]
    return changed


# a command run on another machine: ``ssh cp-1 'sudo etcdctl snapshot save …'``
_REMOTE = LazyRegex(r"""^ssh\s+(?:-\w+(?:\s+(?!['"])\S+)?\s+)*([\w.@-]+)\s+(['"])(.+)\2\s*$""", re.S)


def package_name(word: str) -> str:
    """A package argument by its name, without its version or extras (``"httpx<0.28"`` → ``httpx``,
    ``@vitest/coverage-v8@1.6.0`` → ``@vitest/coverage-v8``)."""
    word = word.strip("\"'")
    return word[:1] + re.split(r"[=<>@~\[ !]", word[1:], 1)[0].lower() if word.startswith("@") else \
        re.split(r"[=<>@~\[ !]", word, 1)[0].lower()


def _pinned(before: list[str], after: list[str]) -> list[str]:
    """The packages an install names again at a version (``npm i -D @vitest/coverage-v8@1.6.0`` for ``… -D
    @vitest/coverage-v8``, ``pip install "urllib3<2"`` for ``pip install urllib3``)."""
    named = {package_name(w): w for w in before[1:] if not w.startswith("-")}
    return [w for w in after[1:] if not w.startswith("-") and w not in before and package_name(w) in named
            and package_name(w) != w.strip("\"'").lower()]


# the names one interpreter is installed under, one build or version each
_INTERPRETER_BUILDS = (r"pwsh|powershell(?:\.exe)?", r"python[\d.]*(?:\.exe)?", r"ruby[\d.]*", r"node(?:js)?")


def _interpreter_build(program: str) -> str | None:
    """The interpreter ``program`` is a build of, by its first name (``pwsh`` for ``powershell``, ``python`` for
    ``python3.12``), or None."""
    return next((re.match(r"\w+", names).group(0) for names in _INTERPRETER_BUILDS if re.fullmatch(names, program)),
                None)


def _variant_of(program: str, other: str) -> bool:
    """Whether ``other`` is a variant ``program`` ships under its name and a suffix (``typeorm-ts-node-commonjs`` of
    ``typeorm``, ``ts-node-esm`` of ``ts-node``), or another build of the same interpreter (``pwsh`` of Windows
    PowerShell's ``powershell``, whose modules it does not share; ``python3.12`` of ``python3``)."""
    return re.fullmatch(re.escape(program) + r"[-_][a-z][\w-]*", other) is not None \
        or program != other and _interpreter_build(program) is not None \
        and _interpreter_build(program) == _interpreter_build(other)


def program_variant(failed: str, later: str) -> bool:
    """Whether ``later`` runs, with the same arguments, a variant of the failing program (``npx
    typeorm-ts-node-commonjs migration:run -d src/data-source.ts`` for ``npx typeorm migration:run -d …``)."""
    a, b = (parse_command(c)["argv"] for c in (failed, later))
    return len(a) > 1 and a[1:] == b[1:] and _variant_of(_program_name(a[0]), _program_name(b[0]))


def subcommand_variant(failed: str, later: str) -> bool:
    """Whether ``later`` runs the failing program's subcommand in a variant of its name, on everything the failing run
    was given (``adb install-multiple -r base-master.apk base-arm64_v8a.apk …`` for ``adb install -r
    base-master.apk``)."""
    a, b = (parse_command(c)["argv"] for c in (failed, later))
    return len(a) > 2 and len(b) > 2 and a[0] == b[0] and not a[1].startswith("-") \
        and re.fullmatch(rf"{re.escape(a[1])}[-:_][a-z][\w-]*", b[1]) is not None and set(a[2:]) <= set(b[2:])


# a command run in a container: ``docker compose exec -T worker …``, ``kubectl exec -n jobs deploy/beat -- …``
# (or a compose service's one-off container: ``docker compose run --rm switch make -j8``)
_CONTAINER_EXEC = LazyRegex(r"^(?:(?:docker|podman)(?:(?:[ -]compose)?\s+exec|[ -]compose\s+run)\s+(?:(?:-u|--user|-w|"
                            r"--workdir|-e|--env|--index|--entrypoint|--name|-v|--volume|-p|--publish)[ =]\S+\s+|"
                            r"-{1,2}[\w-]+\s+)*(?!-)\S+\s+|kubectl\s+exec\s+\S.*?\s--\s+)")


def _exec_split(command: str) -> tuple[str, str]:
    """A command run in a container as the way into it and the command it runs there; "" and the command else."""
    command = " ".join(command.split())
    match = _CONTAINER_EXEC.match(command)
    return (match.group(0), command[match.end():]) if match else ("", command)


# ``docker run``'s options that take a value as the next word (``-v "$PWD":/pkg``, ``-w /pkg``)
_RUN_VALUE_OPTIONS = frozenset(("-v", "--volume", "-w", "--workdir", "-e", "--env", "--env-file", "-p", "--publish",
                                "--name", "--network", "--net", "-u", "--user", "--entrypoint", "--mount",
                                "--platform", "-l", "--label", "--add-host", "--tmpfs", "-m", "--memory", "--cpus",
                                "--gpus", "--shm-size", "--pull", "--ulimit", "-h", "--hostname", "--cap-add",
                                "--security-opt", "--device", "--dns"))


def container_words(argv: list[str]) -> tuple[list[str], list[str]] | None:
    """A ``docker run``'s (or podman's) options, and the image with what it runs there: ``docker run --rm -v
    "$PWD":/data tflint:v0.50.3 --init`` → ``(["--rm", "-v", "$PWD:/data"], ["tflint:v0.50.3", "--init"])``; None for
    any other line, or one that names no image."""
    if len(argv) < 3 or _program_name(argv[0]) not in ("docker", "podman", "nerdctl") or argv[1] != "run":
        return None
    n = 2
    while n < len(argv) and argv[n].startswith("-"):
        n += 2 if argv[n] in _RUN_VALUE_OPTIONS else 1
    return (argv[2:n], argv[n:]) if n < len(argv) else None


def container_run(command: str) -> tuple[list[str], str] | None:
    """A ``docker run``'s (or podman's) options and image: ``(["--rm", "-v", "$PWD:/data"], "tflint:v0.50.3")``."""
    words = container_words(parse_command(command)["argv"])
    return (words[0], words[1][0]) if words else None


# build tools that run the goals, phases or tasks they are given in turn, in one run
# (and Defold's bob, run from its jar: ``java -jar tools/bob.jar … resolve build``; make's and just's targets: ``make
# build validate``)
_GOAL_RUNNERS = frozenset(("mvn", "mvnw", "gradle", "gradlew", "sbt", "bob.jar", "make", "just"))
# their options that take the next word as a value
_GOAL_OPTIONS = frozenset(("-pl", "--projects", "-f", "--file", "-s", "--settings", "-gs", "-rf", "--resume-from", "-T",
                           "--threads", "-l", "-P", "-D", "-x", "--exclude-task", "--tests", "-p", "--project-dir",
                           "-b", "--build-file", "-c", "--settings-file", "-I", "--init-script", "--platform",
                           "--variant", "--architectures", "--root", "--output", "--bundle-output", "--bundle-format",
                           "--texture-compression", "--build-server", "--defoldsdk"))
# make's (``make -C infra -j 8 plan``) and just's (``just -f ci.just -d . build``)
_MAKE_GOAL_OPTIONS = frozenset(("-C", "--directory", "-j", "--jobs", "-f", "--file", "--makefile", "-o", "-W",
                                "-d", "--working-directory", "--justfile"))


def goals_put_before(failed: str, passed: str) -> list[str]:
    """The goals a passing run of a build tool asks for before the ones the failing run asked for, the same run
    otherwise (``compile`` of ``./mvnw compile flyway:migrate`` for ``./mvnw flyway:migrate``)."""
    return _goals_added(_goals_asked(failed, passed))


def _goals_added(goals: tuple[list[str], list[str]]) -> list[str]:
    """Of the goals a failing and a passing run ask for, those only the passing one asks for, before the last."""
    # (or among them, before the last: ``compile`` of ``./mvnw clean compile jib:dockerBuild`` for ``./mvnw clean
    # jib:dockerBuild``, which packages what a ``clean`` left of target/classes)
    if not goals[0] or len(goals[1]) <= len(goals[0]) or goals[1][-1] != goals[0][-1]:
        return []
    added, wanted = [], list(goals[0])
    for goal in goals[1]:
        if wanted and goal == wanted[0]:
            wanted.pop(0)
        else:
            added.append(goal)
    return added if not wanted else []


def _goals_asked(failed: str, passed: str) -> tuple[list[str], list[str]]:
    """The goals a failing and a passing run of the same build tool ask for, in order; none for other programs."""
    # (a jar run by java as its program: ``java -jar tools/bob.jar``)
    before, after = (argv[2:] if argv[:2] == ["java", "-jar"] and len(argv) > 2 else argv
                     for argv in (parse_command(command)["argv"] for command in (failed, passed)))
    if not before or not after or _program_name(before[0]) not in _GOAL_RUNNERS \
            or _program_name(after[0]) != _program_name(before[0]):
        return [], []
    # (not an option's value: ``-pl billing``, ``-x lint``; maven's goals are its phases or a plugin's ``prefix:goal``)
    maven = _program_name(before[0]) in ("mvn", "mvnw")
    valued = _MAKE_GOAL_OPTIONS if _program_name(before[0]) in ("make", "just") else _GOAL_OPTIONS
    before, after = ([w for n, w in enumerate(argv[1:], 1) if not w.startswith("-") and argv[n - 1] not in valued
                      and (not maven or w in _MAVEN_PHASES or w == "clean" or ":" in w)] for argv in (before, after))
    return before, after


def statements_put_before(failed: str, passed: str) -> str:
    """The statements ``passed`` hands its program before the very code ``failed`` handed it, all else as it was:
    ``SET 'auto.offset.reset'='earliest';`` before ``SELECT * FROM ENRICHED_PAYMENTS EMIT CHANGES LIMIT 5;``."""
    # (or given in options of their own before the failing run's: sbcl's ``--eval '(push #p"./"
    # asdf:*central-registry*)'`` before its ``--eval '(ql:quickload :invparse/tests)'``)
    before, after = (parse_command(command)["argv"] for command in (failed, passed))
    extra = len(after) - len(before)
    for option in ("--eval", "-e", "--load"):
        first = before.index(option) if option in before else -1
        if first > 0 and extra > 0 and extra % 2 == 0 and after[:first] == before[:first] \
                and after[first + extra:] == before[first:] and all(after[first + n] == option
                                                                     for n in range(0, extra, 2)):
            return " ".join(after[first + 1:first + extra:2])
    code, more = (" ".join((_inline_code(command) or "").split()) for command in (failed, passed))
    if not code or not more.endswith(code) or len(more) <= len(code) or not more[:-len(code)].rstrip().endswith(";"):
        return ""
    rest = [[w for w in parse_command(command)["argv"] if " ".join(w.split()) != code_of]
            for command, code_of in ((failed, code), (passed, more))]
    return more[:-len(code)].strip() if rest[0] == rest[1] else ""


def quoted_again(failed: str, passed: str) -> list[str]:
    """The words ``passed`` quotes whole, characters the shell reads in them kept (``'aws_s3_bucket.logs["app"]'``,
    which reached terraform as ``aws_s3_bucket.logs[app]``), where it is ``failed`` but for its quotes."""
    if re.sub(r"['\"]", "", " ".join(failed.split())) != re.sub(r"['\"]", "", " ".join(passed.split())) \
            or parse_command(failed)["argv"] == parse_command(passed)["argv"]:
        return []
    return [m.group(0) for m in re.finditer(r"'[^'\s]*[\"\[\]*?${}][^'\s]*'", passed)]


def config_variant(was: str, now: str) -> bool:
    """Whether file ``now`` is a variant of settings file ``was``: the same kind, its name within the other's
    (``local-antora-playbook.yml`` of ``antora-playbook.yml``, ``docker-compose.dev.yml`` of ``docker-compose.yml``)."""
    (stem, ext), (other, other_ext) = posixpath.splitext(posixpath.basename(was)), posixpath.splitext(
        posixpath.basename(now))
    return ext == other_ext and ext.lower() in (".yml", ".yaml", ".json", ".toml", ".ini", ".conf", ".cfg", ".hcl") \
        and len(stem) >= 4 and stem != other and stem in other


def _unbundled(added: set[str], removed: set[str]) -> tuple[set[str], set[str]]:
    """The parts added and removed, with short options bundled again read letter by letter: ``prove -lr t/`` for
    ``prove -r t/`` adds ``-l``, it does not take ``-r`` away."""
    for old in sorted(removed):
        new = next((part for part in sorted(added) if re.fullmatch(r"flag:-[A-Za-z]{2,4}", part)
                    and re.fullmatch(r"flag:-[A-Za-z]{1,3}", old) and set(old[6:]) < set(part[6:])), None)
        if new:
            added = added - {new} | {"flag:-" + "".join(c for c in new[6:] if c not in old[6:])}
            removed = removed - {old}
    return added, removed


# pandoc's filters, run in the order they are given (citeproc's too)
_PANDOC_FILTER = LazyRegex(r"(?:--lua-filter|--filter|-[LF])(?:=|(?=\S))\S+|--citeproc$|-C$")


def _powershell_command(command: str) -> tuple[list[str], str] | None:
    """PowerShell's program and options, and the line it is handed after ``-Command``; None for any other line."""
    argv = parse_command(command)["argv"]
    at = next((n for n, w in enumerate(argv) if w.lower() in ("-command", "-c")), None)
    if not argv or not _POWERSHELL.fullmatch(_program_name(argv[0])) or at is None or at + 1 >= len(argv):
        return None
    return argv[:at], " ".join(argv[at + 1:])


def invocation_change(failed: str, passed: str) -> list[str]:
    """How the passing invocation differs from the failing one (env, flag, runner, cwd), as readable parts."""
    # (a program a subshell put in the background is run as itself: ``(./bin/cloud-sql-proxy … --port 5432 &)``)
    failed, passed = (re.sub(r"\(\s*([^()]*?)\s*&\s*\)", r"\1", command) for command in (failed, passed))
    remote = [_REMOTE.match(command.strip()) for command in (failed, passed)]
    if all(remote) and remote[0].group(1) == remote[1].group(1):  # (on the same machine: the commands it ran there)
        return invocation_change(remote[0].group(3), remote[1].group(3))
    inside = [_exec_split(command) for command in (failed, passed)]
    if inside[0][0] and inside[0][0] == inside[1][0]:  # (in the same container: ``docker compose exec worker …``)
        return invocation_change(inside[0][1], inside[1][1])
    # (the line handed to PowerShell, by the same program and options: ``powershell -NoProfile -Command "Set-Location
    # models; execute run12.mod -dir=run12"`` given ``-nm_version=nm751``)
    code = [_powershell_command(command) for command in (failed, passed)]
    if all(code) and code[0][0] == code[1][0] and code[0][1] != code[1][1]:
        return invocation_change(code[0][1], code[1][1])
    if quoted := quoted_again(failed, passed):  # (the same words, kept whole by their quotes)
        return [f"quote it as `{word}`" for word in quoted]
    if before_it := statements_put_before(failed, passed):  # (the same query, a setting sent before it)
        return [f"send `{before_it}` before it"]
    before, after = parse_command(failed), parse_command(passed)
    # (by kind, a runner right after the environment, before the flags: ``nix develop -c meson setup build --wipe``
    # is run through the dev shell first)
    added, removed = _unbundled(_invocation(after) - _invocation(before), _invocation(before) - _invocation(after))
    added = sorted(added, key=lambda part: (_PART_ORDER.index(part.split(":", 1)[0]), part))
    removed = sorted(removed)
    programs = [_program_name(parsed["argv"][0]) if parsed["argv"] else "" for parsed in (before, after)]
    out = [f"run `{programs[1]}` instead of `{programs[0]}`"] if all(programs) and _variant_of(*programs) else []
    images = [words and words[1][0] for words in (container_words(before["argv"]), container_words(after["argv"]))]
    if all(images) and images[0] != images[1]:  # (the image built for it: ``registry…/tflint:0.50.3-aws0.31.0``)
        out.append(f"run it in `{images[1]}`")
    for part in added:
        kind, value = part.split(":", 1)
        # (``terraform -chdir=stacks/billing`` for ``cd stacks/billing && terraform``: the same directory, said
        # another way)
        place = re.match(r"^(?:-chdir|--cwd|--dir|--directory|-C)[=\s](\S+)$", value) if kind == "flag" else None
        if place and before["cwd"] and place.group(1).strip("/") == before["cwd"].strip("/"):
            continue
        # (the same files read from there: ``cd apps/docs && grep -c … dist/assets/*.css`` for ``grep -c …
        # apps/docs/dist/assets/*.css``; not a tool that looks for its settings where it runs, ``cd apps/web && npx
        # eslint src``)
        if kind == "cwd" and after["argv"][:1] and after["argv"][0] in _READERS \
                and len(before["argv"]) == len(after["argv"]) and before["argv"] != after["argv"] and all(
                a == b or a == os.path.join(value.strip("/"), b) for a, b in zip(before["argv"], after["argv"])):
            continue
        if kind == "runner" and value in ("nohup", "time", "exec", "command"):
            continue  # (how it was put in the background or timed: ``nohup mlflow models serve … &``)
        if kind == "path" and (value in before["argv"] or _same_file(before, after)):
            # (the script an interpreter ran, run as itself: ``uv run scripts/seed.py`` for ``python …``; the
            # project's wrapper from another directory: ``./mvnw`` at the root for ``../mvnw`` in ``billing/``)
            continue
        # (an option's value that only grew: ``-database "…/orders?sslmode=require"``)
        if kind == "flag" and " " in value:
            name, new = value.split(" ", 1)
            old = next((r.split(" ", 1)[1] for r in removed if r.startswith(f"flag:{name} ")), None)
            if old and new.startswith(old) and len(new) > len(old):
                out.append(f"append `{new[len(old):]}` to `{name}`")
                continue
            # (or that only lost its tail: ``-o vers=4.1`` for ``-o vers=4.1,timeo=50,retrans=2``)
            if old and old.startswith(new) and len(old) > len(new) + 1 and old[len(new)] in ",;&":
                out.append(f"without `{old[len(new) + 1:]}` in `{name}`")
                continue
        # (a URL it is given that only grew: ``psql "postgres://…/metrics?sslmode=require"``)
        if kind == "flag" and re.match(r"^[a-z][\w+.-]*://\S+$", value):
            old = next((r[len("flag:"):] for r in removed if r.startswith("flag:")
                        and "://" in r and value.startswith(r[len("flag:"):])
                        and value[len(r) - len("flag:")] in "?&#/;"), None)
            if old:
                out.append(f"append `{value[len(old):]}` to the URL")
                continue
        if kind == "flag":
            value = _with_argument(value, after["argv"], before["argv"])
            if any(p.startswith("pass `") and p.endswith(f" {value}`") for p in out):
                continue  # (the value of a flag already passed with it: ``--build-arg VERSION=…``)
        if kind == "env" and " " not in value:
            # (as the line writes it, quotes kept: ``JAVA_TOOL_OPTIONS="-Dio.netty.tryReflectionSetAccessible=true"``)
            name = value.split("=", 1)[0]
            written = re.search(rf"(?:^|\s){re.escape(name)}=(\"[^\"\s]*\"|'[^'\s]*')(?=\s|$)", passed)
            value = f"{name}={written.group(1)}" if written and written.group(1)[1:-1] == value.split("=", 1)[1] \
                else value
        loads = "run" if value.startswith("eval ") else "load"  # (``eval "$(luarocks path)"`` is run, a file loaded)
        out.append({"env": f"set `{value}`", "unset": f"unset `{value}`", "source": f"{loads} `{value}` first",
                    "flag": f"pass `{value}`",
                    "runner": f"run it through `{value}`", "profile": f"use `{value}`",
                    "cwd": f"run it from `{value}/`", "path": f"run `{value}`", "file": f"name `{value}`"}[kind])
    if command_job(failed) is None:  # (a long option pointed at a local path: ``--model models/distilbert-sst2``)
        for option, _, value in _repointed(before["argv"], after["argv"]):
            if not _NOT_A_FIX_FLAG.match(option) and option not in _VALUE_OPTIONS and option not in _PLACE_OPTIONS \
                    and not any(f"`{option} " in p or f"`{option}=" in p for p in out):
                out.append(f"pass `{option} {value}`")
        # (or given another value, not a path: ``--groups qa-testers`` for ``--groups "QA Testers"``)
        for option, _, new in _given_another_value(before["argv"], after["argv"]):
            if new and not new.startswith("-") and (after["argv"].count(option) == 1 or not option.startswith("--")) \
                    and not _NOT_A_FIX_FLAG.match(option) \
                    and option not in _VALUE_OPTIONS and option not in _PLACE_OPTIONS \
                    and not re.search(r"(?i)token|password|secret|key", option) \
                    and not any(f"`{option} " in p or f"`{option}=" in p for p in out):
                out.append(f'pass `{option} "{new}"`' if " " in new else f"pass `{option} {new}`")
    # (an argument the shell computes, where the failing run named it: ``go test $(go list -f '{{.Dir}}/...' -m)`` for
    # ``go test ./...``, which matches no module of a workspace)
    out += [f"pass `{word}`" for word in after["argv"][1:] if re.fullmatch(r"\"?(?:\$\(.+\)|`.+`)\"?", word)
            and word not in before["argv"] and not any(f"`{word}" in p or f" {word}`" in p for p in out)]
    # (a PowerShell session set up first: ``Import-Module Pester -MinimumVersion 5.5; Invoke-Pester …``)
    if all(argv[:1] and _POWERSHELL.fullmatch(_program_name(argv[0])) for argv in (before["argv"], after["argv"])):
        setup = [_PWSH_SETUP.findall(_interpreter_code(parsed["argv"]) or "") for parsed in (before, after)]
        out += [f"run `{statement.strip()}` first" for statement in setup[1] if statement not in setup[0]]
    # (a flake asked for with settings of its own: ``nix build '.?submodules=1#default'`` for ``nix build``)
    if before["argv"][:1] and _program_name(before["argv"][0]) in _NIX_PROGRAMS \
            and after["argv"][:2] == before["argv"][:2]:
        out += [f"build `{word}`" for word in after["argv"][2:] if re.match(r"[\w.:+/-]*\?\w+=", word)
                and word not in before["argv"]]
    if command_job(failed) == "install" and command_job(passed) == "install":
        out += [f"pin `{word}`" for word in _pinned(before["argv"], after["argv"])]
    for part in removed:
        kind, value = part.split(":", 1)
        # (a program the passing line still runs, inside another launcher, is not done without)
        if kind == "path" and _same_file(before, after):
            continue
        if any(p.startswith("append `") and p.endswith("` to the URL") for p in out) and "://" in value:
            continue  # (the URL it grew into says it)
        # (a new value says it: ``--timeout=15m`` for ``--timeout=10m``)
        option = re.split(r"[\s=]", value, maxsplit=1)[0]
        # (a host left out that was this machine, the default: ``clickhouse-client --host localhost …``)
        if kind == "flag" and re.fullmatch(r"--?h(?:ost)?", option):
            given = value.split("=", 1)[1] if "=" in value else next(
                (before["argv"][n + 1] for n, w in enumerate(before["argv"][:-1]) if w == option), "")
            if re.fullmatch(r"localhost|127\.0\.0\.1|::1|0\.0\.0\.0", given):
                continue
        # (nor a runner the passing line runs as another user or with more: ``sudo -u streamer …`` for ``sudo …``)
        if kind in ("flag", "runner", "path", "profile") and value not in after["argv"] \
                and not any(a.startswith((f"flag:{option} ", f"flag:{option}=", f"runner:{value} ")) for a in added):
            out.append(f"without `{value}`")
    # (a build tool's goals run first in the same run: ``./mvnw compile flyway:migrate`` for ``./mvnw
    # flyway:migrate``, which finds the Java migrations only as compiled classes)
    goals = _goals_asked(failed, passed)
    first = _goals_added(goals)
    if first:  # (not an option taken to be given the goal: ``--archive resolve`` of ``bob.jar --archive resolve …``)
        out = [p for p in out if not any(p.startswith("pass `-") and p.endswith(f" {goal}`") for goal in first)]
        asked = goals[1]
        out.append(f"run `{' '.join(first)}` first, in the same run" if asked[:len(first)] == first else
                   f"run `{' '.join(first)}` before `{asked[asked.index(first[-1]) + 1]}`, in the same run")
    # (the same arguments in another order: ``pg_combinebackup backups/full backups/incr1 backups/incr2`` for the
    # incrementals first, which it refuses)
    positional = [[w for n, w in enumerate(parsed["argv"][1:], 1) if not w.startswith("-")
                   and not parsed["argv"][n - 1].startswith("-")] for parsed in (before, after)]
    if not out and before["argv"][:1] == after["argv"][:1] and len(positional[1]) > 1 \
            and positional[0] != positional[1] and sorted(positional[0]) == sorted(positional[1]):
        out.append(f"pass `{' '.join(positional[1])}` in that order")
    # (an option moved before the subcommand it belongs in front of: ``python flows/train_flow.py --environment=pypi
    # run`` for ``… run --environment=pypi``, which the subcommand refused as no option of its own)
    if not out and before["argv"] != after["argv"] and sorted(before["argv"]) == sorted(after["argv"]):
        words = after["argv"]
        moved = [(w, x) for n, w in enumerate(words) if w.startswith("-") for x in words[n + 1:]
                 if not x.startswith("-") and before["argv"].index(x) < before["argv"].index(w)]
        if moved:
            out.append(f"pass `{moved[0][0]}` before `{moved[0][1]}`")
    # (or pandoc's filters put in another order, which is the order they run in: ``--lua-filter=filters/alias.lua
    # --citeproc`` for ``--citeproc --lua-filter=…``, citeproc having read the keys before the filter rewrote them)
    filters = [[w for w in parsed["argv"] if _PANDOC_FILTER.match(w)] for parsed in (before, after)]
    if not out and before["argv"][:1] == after["argv"][:1] == ["pandoc"] and filters[0] != filters[1] \
            and sorted(filters[0]) == sorted(filters[1]):
        out.append(f"pass `{' '.join(filters[1])}` in that order")
    # (the same module's other name for what to run: ``hypercorn "shop.app:create_app()"`` for ``shop.app:app``, the
    # app a factory now makes)
    changed = [(a, b) for a, b in zip(*positional) if a != b] if len(positional[0]) == len(positional[1]) else []
    module = changed[0][0].split(":")[0] if len(changed) == 1 and ":" in changed[0][0] else ""
    if not out and before["argv"][:1] == after["argv"][:1] and re.fullmatch(r"[\w.]+", module) \
            and changed[0][1].startswith(module + ":"):
        out.append(f"pass `{changed[0][1]}`, not `{changed[0][0]}`")
    # (or a variant of the same settings file, the project's for that use: ``npx antora local-antora-playbook.yml`` for
    # ``antora-playbook.yml``, the production playbook that clones what it builds)
    if not out and before["argv"][:1] == after["argv"][:1] and len(changed) == 1 \
            and config_variant(changed[0][0], changed[0][1]):
        out.append(f"pass `{changed[0][1]}`, not `{changed[0][0]}`")
    # (the directory a file named is in, where the tool reads every file of it: ``packer build .`` for ``packer
    # build ubuntu.pkr.hcl``, whose variables live in variables.pkr.hcl beside it; not a test file's run widened to
    # its folder, which runs other tests)
    if not out and before["argv"][:1] == after["argv"][:1] and positional[0] and positional[1] \
            and command_job(failed) != "test" and not _TEST_PATH.search(positional[0][-1]) \
            and positional[0][:-1] == positional[1][:-1] and re.search(r"\.\w+$", positional[0][-1]) \
            and positional[1][-1].rstrip("/") == (posixpath.dirname(positional[0][-1]) or "."):
        out.append(f"pass `{positional[1][-1]}` for the whole directory, not `{positional[0][-1]}`")
    # (what the line started in the background beside the check, given another option: ``cloud-sql-proxy … --port
    # 5433 --private-ip & sleep 3; psql …`` for the same line without ``--private-ip``)
    if not out and before["check"] == after["check"]:
        started = [[step for step in parsed["prep"] if step.rstrip().endswith("&") or " & " in step]
                   for parsed in (before, after)]
        for was, now in zip(*started):
            was, now = (re.split(r"\s+&(?:\s|$)", step)[0] for step in (was, now))
            if _program_name(_words(was)[0]) == _program_name(_words(now)[0]) and was != now:
                out += [f"{part} to `{_program_name(_words(now)[0])}`" if part.startswith("pass `") else part
                        for part in invocation_change(was, now)]
    return out


# a flag that makes a tool say what it would do instead of doing it (``clojure -X:test -Spath`` prints the classpath)
_ONLY_TELLS = frozenset(("-Spath", "-Stree", "-Sdescribe", "--collect-only", "--co", "--list-tests",
                         "--listTests", "--print-config", "--show-config", "--showConfig", "--print-classpath",
                         "--list-presets", "--print"))  # (``docker buildx bake --print api``: its resolved config)
# and those that do so for one program only (``bitbake -e sensord`` prints the recipe's variables; it builds nothing)
_ONLY_TELLS_OF = {"bitbake": frozenset(("-e", "--environment", "-g", "--graphviz", "-s", "--show-versions"))}


def _asks_version(command: str, body: str = "") -> bool:
    """Whether a line only asks a tool for its version or help (``golangci-lint version``, ``tsc --version``), or
    what it would do (``clojure -X:test -Spath``, ``pytest --collect-only``): it does none of the tool's job.
    (A bare ``-v`` is a version where the one line it printed is one: ``sclang -v`` → ``sclang 3.13.0 (Built from
    …)``; ``pytest -v`` runs the tests.)"""
    argv = parse_command(command)["argv"]
    if argv[1:] == ["-v"] and body.strip() and "\n" not in body.strip() \
            and re.search(r"(?<![\w.])v?\d+\.\d+(?:\.\d+)?\b", body):
        return True
    words = [w for w in argv[1:] if not w.startswith("-")]
    # (a subcommand's own help too: ``mlflow models serve --help``; not its ``-h``, a host as often as help)
    return bool(argv) and (words in (["version"], ["help"]) or not words and bool(
        set(argv[1:]) & {"--version", "-V", "-vV", "--help", "-h", "-version"}) or "--help" in argv[1:]
        or bool({w.split("=", 1)[0] for w in argv[1:]} & _ONLY_TELLS)  # (``cmake --list-presets=all`` too)
        or bool(set(argv[1:]) & _ONLY_TELLS_OF.get(_program_name(argv[0]), frozenset())))


def _routine(command: str) -> bool:
    parsed = parse_command(command)
    if not parsed["check"]:
        return True
    # (a file or text fed by a pipe to a program that is no look is that program's run: ``cat testdata/app.log |
    # promtail -config.file=promtail/config.yaml -stdin -dry-run``)
    argv = parsed["argv"]
    fed = argv[argv.index("|") + 1:] if argv[:1] in (["cat"], ["echo"], ["printf"]) and "|" in argv else []
    if fed and not _ROUTINE.match(_program_name(fed[0])) and _program_name(fed[0]) not in _PIPE_LOOKS:
        return False
    return bool(_ROUTINE.match(parsed["family"]) or _ROUTINE.match(parsed["check"]))


def checks_generated_output(command: str) -> bool:
    """Whether a line runs a generator and then asks git whether its output was committed (``cargo xtask docgen &&
    git diff --exit-code``, a CI job's "Check uncommitted documentation changes" run here): the check is the
    generator's, not git plumbing."""
    steps = _segments(command)
    return len(steps) > 1 and re.fullmatch(r"git\s+(?:diff(?:-files)?\s+(?:\S+\s+)*--(?:exit-code|quiet)|"
                                           r"diff\s+--exit-code)\b.*", steps[-1]) is not None \
        and any(not _routine(step) for step in steps[:-1])


# programs a pipe hands text to only to look at it or reshape it
_PIPE_LOOKS = frozenset(("jq", "yq", "awk", "sed", "sort", "uniq", "wc", "less", "more", "xargs", "tr", "cut", "column",
                         "base64", "xxd", "od", "hexdump", "tee"))
