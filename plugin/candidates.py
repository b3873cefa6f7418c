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

import functools
import os
import re
import shlex

from .events import EDIT_TOOLS
from .quality import LazyRegex
from .record import lesson_title, scaffolding
from .store import Store
from .text import one_line

# a command that changes the project or its environment counts as a change between a failure and a success
_MUTATING = LazyRegex(
    r"(?x)\b(?:pip3?\s+install|uv\s+(?:add|sync|pip\s+install|lock)|poetry\s+(?:add|install|lock)|"
    r"npm\s+(?:install|i|ci)\b|yarn(?:\s+(?:add|install))?\s*$|yarn\s+(?:add|install)|pnpm\s+(?:add|install|i)\b|"
    r"bundle\s+(?:install|update)|cargo\s+(?:add|update)|go\s+(?:get|mod\s+(?:tidy|download))|mix\s+deps\.get|"
    r"composer\s+(?:install|require)|db:migrate|db:setup|(?<![-/.\w])migrate\b(?![-.])|docker\s+compose\s+up|docker-compose\s+up|"
    r"brew\s+install|apt(?:-get)?\s+install|sed\s+-i|git\s+(?:checkout|revert|apply|restore)|patch\b|"
    # (a redirect to /dev/null or of one stream into another writes nothing: ``cat .env 2>/dev/null``)
    r"mv\s|cp\s|ln\s|chmod\s|mkdir\s|touch\s|\b(?:echo|cat|printf)\b[^|]*?(?:\s|\d)>>?\s*(?!/dev/null|&)[\w./~$\"'-]|tee\s|"
    # other package managers' add/remove/sync, and R's and Julia's from inside their code
    r"(?:rye|pdm|pixi|hatch|bun|deno|gleam|conda|mamba|micromamba|dotnet|swift\s+package|dart|flutter)\s+"
    r"(?:add|remove|install|sync|lock|pub\s+(?:get|add)|restore|resolve|update)\b|"
    r"renv::(?:record|install|snapshot|update|remove)|install\.packages\(|pak::pkg_install|remotes::install_|"
    r"Pkg\.(?:add|rm|update|pin|develop|resolve)\b)")
_SELF_INFLICTED = LazyRegex(r"(?i)\b(?:SyntaxError|syntax error|IndentationError|TabError|unexpected (?:token|indent|EOF)|"
                             r"unterminated|ParseError|parse error)\b")
_CAUSE = LazyRegex(
    r"(?i)\b(?:because|since|caused by|root cause|the cause|due to|(?:still )?expect(?:ed|s)|turn(?:s|ed) out|the (?:problem|issue|bug) (?:was|is)|"
    r"was missing|were missing|is missing|happens when|only when|whenever|so that|which (?:made|caused|broke)|"
    r"(?:is|was|are|were) not (?:installed|set|declared|defined)|has no|had no|lacks?|lacked|removed|"
    r"no longer|not on PATH|cannot|can't|could not|couldn't|refuse[sd]?|reject(?:s|ed)?|needs?|must|has to|have to|never|"
    r"(?:did not|didn't|does not|doesn't) know|(?:is|was|are|were)(?: not|n't) (?:imported|registered|exported|"
    r"referenced|configured|enabled|loaded|mounted|exposed|in))\b"
    r"|^(?:the )?(?:root )?cause\s*:"  # ("**Cause:** the AppRole method deletes …", a label as the sentence's start)
    r"|原因|因为|由于|導致|导致|ため")
_USER_CAUSE = LazyRegex(r"(?i)\b(?:i think|i suspect|probably|seems? to be|it'?s the|maybe|because|caused by|"
                         r"the cause|due to)\b|^(?:think|suspect|guess|believe)\b")  # (_sentences drops the "I")
_DECISION = LazyRegex(r"(?i)\b(?:decided|decision|chose|chosen|opted|went with|going with|prefer(?:red)?|"
                       r"instead of|rather than|trade-?off)\b|决定|選択|选择")
# the why of a choice ("because", "so that", "to avoid")
_REASON = LazyRegex(r"(?i)\b(?:because|since|so that|due to|given that|as (?:it|they|this|that)|to (?:avoid|keep|"
                    r"prevent|allow|support|match)|for (?:its|their) |which (?:is|has|lets|keeps|avoids))\b")
_FIX = LazyRegex(r"(?i)\b(?:fix(?:ed|es)? (?:it |this )?by|the fix|fixed|fixes|pinn?(?:ed|ing)?|sett?(?:ing)?|"
                  r"add(?:ed|ing)|remov(?:ed|ing)|chang(?:ed|ing)|replac(?:ed|ing)|bump(?:ed|ing)?|upgrad(?:ed|ing)|"
                  r"downgrad(?:ed|ing)|renam(?:ed|ing)|mov(?:ed|ing)|configur(?:ed|ing)|now (?:uses|reads|sets|maps|"
                  r"declares|imports|opens|initialises|initializes)|switch(?:ed|ing)|us(?:e|ed|ing)|run(?:ning)?|"
                  r"works?)\b|修复|改为|添加|設定")
_DID_NOT_HELP = LazyRegex(r"(?i)\b(?:did(?: not|n't) (?:help|work|fix)|does(?: not|n't) (?:help|work)|"
                           r"no effect|not the (?:cause|fix)|still fail(?:ed|s)?|(?:was|is) not enough|"
                           r"made no difference|(?:did not|didn't) make (?:a|any) difference|changed nothing|"
                           r"(?:was|is)n't enough|not sufficient|got past (?:the|that|this|one) (?:first |initial )?"
                           r"(?:error|failure)|(?:alone|by itself) (?:was|is|did)(?: not|n't))\b")
# the agent's word that a failure was chance, not a defect (it passed on a rerun) ...
_RERUN = (r"(?:second|another|next|later) (?:run|try|attempt|build)\b[^.;]{0,40}?"
          r"\b(?:passed|built|worked|succeeded|went through|was fine|ran fine)\b")
_UNCHANGED = r"\b(?:same command|nothing (?:was )?changed|with no changes?|without (?:any )?changes?|unchanged)\b"
_FLAKY = LazyRegex(r"(?i)\b(?:flak(?:y|iness|es)|intermittent(?:ly)?|transient(?:ly)?|sporadic(?:ally)?|"
                   r"passe[sd] (?:on|after|when) (?:a |the )?(?:re-?run|re-?try|retry|(?:second|next) (?:run|try|attempt))|"
                   r"network (?:blip|hiccup|glitch|timeout|error)|(?:download|request|connection) timed out|"
                   r"(?:read|connect(?:ion)?) timeout (?:fetching|downloading|pulling|resolving)|"
                   r"the (?:retry|rerun|second (?:run|try|attempt)) (?:installed|downloaded|fetched|pulled)|"
                   r"dns (?:timeout|failure|error|hiccup|blip)|timed out while (?:downloading|fetching|resolving)|"
                   r"(?:a |an )?(?:http )?50[234]\b[^.;]{0,60}?\b(?:is |was )?(?:fine|ok|gone|resolved) now|"
                   # ("nothing wrong in the code: Postgres wasn't running" names a cause; nothing to change does not)
                   r"nothing to change in the (?:project|code|repo(?:sitory)?))\b|"
                   # "the second run of the same command built fine", "with nothing changed, the next run passed"
                   rf"{_RERUN}(?=.*?{_UNCHANGED})|{_UNCHANGED}.*?{_RERUN}|"
                   r"(?:re-?runs?|re-?tries|retries|re-?ran)\s+(?:it\s+)?(?:with nothing changed|without (?:any )?changes?|"
                   r"with no changes?)|"
                   r"(?:second|another|next) (?:run|try|attempt) of the same command[^.;]{0,30}?"
                   r"\b(?:passed|built|worked|succeeded|went through|was fine|ran fine)\b")
# ... unless the same sentence says what made it so, or what was changed about it
_FLAKY_EXPLAINED = LazyRegex(r"(?i)\b(?:because|caused|due to|root cause|race|deterministic|fix(?:ed|es)?|"
                             r"made|by (?:sorting|seeding|mocking|waiting|awaiting|freezing|pinning))\b")
# the agent's word that an edit was incidental to the problem
_INCIDENTAL = LazyRegex(r"(?i)\b(?:while I was (?:there|at it)|unrelated|incidental(?:ly)?|drive-by|on the side|"
                        r"not (?:part of|related to|needed for) the fix|(?:is|was|that's|it's) (?:purely |just )?"
                        r"cosmetic|not related|has nothing to do with|as (?:you )?(?:asked|requested)|"
                        r"while you(?:'re| are) (?:there|at it)|while (?:I was )?(?:reading|in) (?:the|that) file|"
                        r"for consistency(?: with)?|wasn't the fix|was not the fix|harmless)\b")
# a user's request for another change beside the problem ("Also fix the typo in …", "And please enable X")
_WHILE_THERE = LazyRegex(r"(?i)\bwhile you(?:'re| are) (?:in )?(?:there|at it)\b")
# ("Please fix build.zig." after the problem is the request itself, not another one)
_ANOTHER_REQUEST = LazyRegex(r"(?i)^\W*(?:also|and also|and please|please also|separately|(?:can|could) you also)\b")
# a suggestion for later ("Worth adding that to the CI image."): no account of what was done
_SUGGESTION = LazyRegex(r"(?i)^(?:(?:it(?:'s| is|'d be| would be|) )?(?:probably |also )?worth (?:adding|doing|"
                        r"considering|putting|making)|you (?:may|might|could|should) (?:want to|consider)|"
                        r"consider (?:adding|pinning|putting|making|moving)|it would be (?:good|nice|wise) to|"
                        r"if you (?:want|'d like|would like|prefer)|(?:optionally|alternatively),|you can also|"
                        # what another environment will need ("Staging needs `migrate` on the next deploy")
                        r".{0,80}?\b(?:on|before|at|with|after) (?:the |your )?next (?:deploy|deployment|release|"
                        r"rollout))\b")
_CHATTER = LazyRegex(r"(?i)^(?:sure|okay|ok|great|done|let me|i'll|i will|now i|here(?:'s| is)|all set|"
                      r"let's|next,? i)\b")
_STATUS_MARK = LazyRegex(r"^(?:[✅✔✓☑]|\[x\])")
_FIRST_PERSON = LazyRegex(r"^(?:I|We)\s+(?:have\s+|had\s+|then\s+|also\s+)?(?=\w)")

# test files, and the edits that make a failing test pass without fixing anything
_TEST_PATH = LazyRegex(r"(?:^|/)(?:tests?|spec|__tests__|e2e|Tests?)/|(?:^|/)test_[^/]*$|_test\.\w+$|\.(?:test|spec)\.\w+$"
                        r"|(?:^|/)tests?\.(?:js|mjs|cjs|ts|py|rb|sh|lua|jl|R)$"
                        r"|_spec\.rb$|_test\.exs$|\wTests?\.(?:swift|java|kt|cs|fs|scala|groovy)$")
_SKIP_ADDED = LazyRegex(r"(?x)@pytest\.mark\.(?:skip|xfail)|pytest\.(?:skip|xfail)\(|@unittest\.skip|@(?:module)?tag\s+:skip|"
                        r"@(?:Disabled|Ignore)\b|\b(?:it|test|describe)\.(?:skip|todo)\(|\bx(?:it|test|describe|context|specify)\s*[(\"']|"
                        r"\bt\.Skip\(|\#\[ignore\]|\bskip\s*[(\"']|\bpending\b|markTestSkipped")
# a test run told to leave tests out: pytest --deselect/--ignore/-k "not …"/-m "not …", cargo -- --skip,
# go test -skip, jest --testPathIgnorePatterns, rspec --tag ~x
# (an ignored path counts only when it is a test path: ``--ignore=vendor`` keeps foreign code out of collection)
_DESELECTS = LazyRegex(r"""(?x)(?:^|\s)(?:--deselect|--?skip|--testPathIgnorePatterns)(?:[=\s]|$)|
                       (?:^|\s)--(?:ignore(?:-glob)?|exclude)[=\s]+["']?(?:\S*/)?(?:tests?|spec|__tests__|e2e)(?:/|\b)|
                       (?:^|\s)--(?:ignore(?:-glob)?|exclude)[=\s]+["']?\S*(?:test_\w*|_test|\.test|\.spec|_spec)\b|
                       (?:^|\s)-[km]\s*=?\s*["']?not\b|(?:^|\s)--tag[=\s]+["']?~""")
_LOOSENED = LazyRegex(r"(?x)approx\(|\babs\s*=|\brel\s*=|toBeCloseTo|assert_in_delta|assertAlmostEqual|"
                      # jest's asymmetric matchers: any array holding these, any object with these keys, any value
                      r"expect\.(?:arrayContaining|objectContaining|stringContaining|stringMatching|any|anything)\(|"
                      r"WithDelta\(|InDelta\(|\bbe_within\b|\bisclose\(|allclose\(|almost_equal\(|closeTo\(|"
                      r"\bdelta\s*=|>=|<=|toBeGreaterThan|toBeLessThan|\bin\s+\(|\.\*|toContain|assertIn|"
                      r"\s[<>]\s|:[gl]te?\b|\bcompare\(|[Gg]reater_?[Tt]han|[Ll]ess_?[Tt]han|\bbetween\b|\bin_range\b|"
                      # only that it is something: its type, not nil, truthy
                      r"\bisA<|[Ii]s_?[Ii]nstance_?[Oo]f|toBeInstanceOf|\bbe_an?\b|\bkind_of\b|\bis_a\?|"
                      r"[Ii]s_?[Nn]ot_?(?:[Nn]one|[Nn]ull|[Nn]il)|toBeDefined|toBeTruthy|\bis not None\b|assert_not_nil|"
                      # only that it has a shape: a pattern or a regex instead of the value
                      r"assertMatch\b|assert_?[Rr]egexp?\w*|assert_match\b|toMatch\(|toMatchObject\(|=~|\bmatches\(|"
                      # only a part of it: its start, its end, a piece (``.hasPrefix("Mar 4, 2025 at 9:30")``)
                      r"\.(?:hasPrefix|hasSuffix|startsWith|endsWith|starts_with|ends_with|startswith|endswith|"
                      r"contains|includes)\(|\bstart_with\b|\bend_with\b|\binclude\(|toStartWith|toEndWith")
# (a shell test's ``[ "$status" -eq 0 ]`` in bats is an assertion too)
# (and XCTest's ``XCTAssertEqual``, rackunit's ``(check-equal? …)``)
_ASSERTION = LazyRegex(r"\b(?:assert\w*|expect\w*|should\w*|refute\w*|XCTAssert\w*)\b|\(check-[\w?-]+|"
                       r"^\s*\[\[?\s.*\s\]\]?\s*$")
# a call made to succeed whatever it does: ``|| true``, ``|| :``, ``set +e``
_SWALLOWED = LazyRegex(r"\|\|\s*(?:true|:|exit 0)\b|^\s*set \+e\b|\bcontinue-on-error:\s*true|"
                       r"\bexhaustivity\s*=\s*\.(?:off|partial)")  # (TCA's TestStore told not to check every change)
# the agent saying the test checks less now ("so the test no longer asserts the intermediate `isLoading` state")
_SAID_WEAKENED = LazyRegex(r"(?i)\b(?:test|spec|assertion|check|it)s?\b[^.;]{0,60}\b(?:no longer|stops?|stopped) "
                           r"(?:assert|check|verif|expect|compar)\w*|"
                           r"\b(?:relax|loosen|weaken)(?:ed|s|ing)?\b[^.;]{0,30}\b(?:assert|test|check|expectation|match)")
# the value a failing check reports its code returned: rspec/minitest/go "got", jest "Received:", JUnit "but was",
# ExUnit "left:", pytest's "assert <left> == <right>" (either side)
_ACTUAL = LazyRegex(r"(?im)(?:^\s*(?:E\s+)?|:\s+|>\s+)(?:got|received|actual|but was|left)\b\s*:?\s*(.+?)\s*$|"
                    r"\bassert\s+(.+?)\s+==\s+(.+?)\s*$")
_LITERAL = LazyRegex(r"([\"'])((?:(?!\1).){1,80})\1|(?<![\w.])(-?\d+(?:\.\d+)?)(?![\w.])")
_TEST_NAME = LazyRegex(r"^\s*(?:def\s+(test_\w+)|(?:test|it|describe)\s*\(?\s*[\"']([^\"']+)|"
                       r"fn\s+(test_\w+)|func\s+(Test\w+))")
# files whose edit is never the fix for a failing check (unless the error names them)
_DOC_PATH = LazyRegex(r"(?i)(?:^|/)(?:docs?/|README|CONTRIBUTING|CHANGELOG|CHANGES|HISTORY|LICENSE|AUTHORS|NOTICE)"
                       r"|\.(?:md|rst|adoc)$")
# a comment line (not a Rust attribute, a shebang or a C preprocessor line)
_COMMENT_LINE = LazyRegex(r"^\s*(?://|/\*|\*(?:\s|/|$)|#(?![\[!]|include|define|if|pragma|undef|else|endif)|"
                          r"--\s|<!--)")
_CONFIG_PATH = LazyRegex(r"(?i)(?:^|/)(?:package\.json|pyproject\.toml|requirements[\w.-]*\.txt|constraints\.txt|"
                          r"setup\.(?:py|cfg)|Cargo\.toml|go\.mod|Gemfile|mix\.exs|tsconfig[\w.]*\.json|"
                          r"Makefile|Dockerfile|docker-compose[\w.-]*\.ya?ml|compose\.ya?ml|\.env[\w.]*|"
                          r"[\w.-]+\.(?:cfg|ini|toml|ya?ml|conf))$")

# programs whose first argument names the job (``npm test``, ``cargo build``)
_TWO_WORD = ("npm", "yarn", "pnpm", "bun", "cargo", "go", "make", "bundle", "mvn", "gradle", "./gradlew", "gradlew",
             "dotnet", "mix", "git", "bin/rails", "rails", "rake", "uv", "poetry", "pip", "pip3", "docker",
             "docker-compose", "kubectl", "helm", "terraform", "deno", "swift", "flutter", "composer", "php")
_RUNNERS = (("uv", "run"), ("poetry", "run"), ("pipenv", "run"), ("pdm", "run"), ("hatch", "run"), ("npx",),
            ("pnpm", "exec"), ("pnpm", "dlx"), ("yarn", "exec"), ("bunx",), ("bundle", "exec"), ("env",), ("time",),
            ("sudo",), ("nohup",), ("exec",), ("command",))
# a failing command of one of these is not a lesson: version control, shell navigation, exploration, formatters
_ROUTINE = LazyRegex(r"(?x)^(?:git(?:\s|$)|gh\s|cd$|ls$|cat$|grep$|rg$|find$|echo$|which$|head$|tail$|pwd$|"
                     r"mkdir$|rm$|cp$|mv$|sleep$|kill$|ps$|open$|"
                     r"ruff\s+format|black$|isort$|prettier$|gofmt$|cargo\s+fmt|mix\s+format|rustfmt$|"
                     r"npm\s+format|yarn\s+format|pnpm\s+format)")
# options of package managers and build tools that take a value (``--filter @shop/web``, ``-C client``)
_VALUE_OPTIONS = frozenset(("--filter", "-F", "--workspace", "-w", "--prefix", "-C", "--dir", "--cwd", "--project",
                            "-p", "--package", "--manifest-path", "--file", "-f", "--env-file", "--profile"))
# a linter's own repair: with one of these flags the tool rewrites what it reported (``ruff check --fix``)
_AUTOFIX_FLAGS = frozenset(("--fix", "--fix-only", "--unsafe-fixes", "--write", "-w", "--autocorrect",
                            "--autocorrect-all", "-a", "-A", "--apply"))
_FORMATTER = LazyRegex(r"^(?:black|isort|autopep8|yapf|autoflake|prettier|gofmt|goimports|rustfmt|ruff\s+format|"
                       r"cargo\s+fmt|mix\s+format|dotnet\s+format|biome\s+format|(?:npm|yarn|pnpm|bun)\s+(?:format|fmt)|"
                       r"clang-format|swift-format|shfmt|stylua|elm-format|ormolu|fourmolu|ocamlformat|nimpretty|"
                       r"php-cs-fixer|phpcbf|pint|csharpier|ktfmt|google-java-format|scalafmt|rufo|djlint|"
                       # any tool's own formatter: ``zig fmt``, ``terraform fmt``, ``deno fmt``, ``dart format``
                       r"[\w.-]+\s+(?:fmt|format)(?![\w-]))\b")
# checks that read the code without running it: their complaints about code the session just wrote are its own mess
_TYPECHECKERS = ("mypy", "pyright", "tsc", "vue-tsc", "flow", "dialyzer", "srb", "steep", "psalm", "phpstan")
# what a command is for, by its program (a whole word: ``pytest-cov`` is a package, not ``pytest``)
_SUBCOMMAND_JOBS = {"test": "test", "tests": "test", "spec": "test", "build": "build", "compile": "build",
                    "install": "install", "sync": "install", "restore": "install", "lint": "lint"}
_JOBS = (
    ("test", r"(?:^|\s)(?:pytest|py\.test|jest|vitest|mocha|ava|tap|rspec|phpunit|tox|nox|ctest|unittest|"
             r"(?:npm|yarn|pnpm|bun|cargo|go|mix|dotnet|deno|swift|flutter|make|rake|rails|bin/rails|"
             r"\./gradlew|gradlew|gradle|mvn)\s+(?:test|check))(?![\w-])"),
    ("install", r"(?:^|\s)(?:(?:npm|pnpm|yarn|bun|bundle|poetry|composer)\s+(?:install|i|ci)|uv\s+sync|"
                r"pip3?\s+install|mix\s+deps\.get|go\s+mod\s+download|"
                # a tool's own plugin: ``helm plugin install …``, ``vagrant plugin install``, ``asdf plugin add``
                r"[\w.-]+\s+plugins?\s+(?:install|add))(?![\w-])|^yarn$"),
    ("build", r"(?:^|\s)(?:(?:npm|yarn|pnpm|bun|cargo|go|make|\./gradlew|gradle|mvn|dotnet)\s+(?:build|package)|"
              r"tsc|webpack|vite\s+build)(?![\w-])"),
    ("lint", r"(?:^|\s)(?:(?:npm|yarn|pnpm)\s+(?:run\s+)?lint|ruff(?:\s+check)?|flake8|eslint|pylint|mypy|pyright|"
             r"golangci-lint|cargo\s+clippy|go\s+vet|rubocop|credo|standardrb|biome\s+(?:lint|check))(?![\w-])"),
)


_SHELL_TOKEN = LazyRegex(r"'[^']*'?|\"(?:[^\"\\]|\\.)*\"?|&&|\|\||;|[^'\"&|;]+|[&|]")


def _segments(command: str) -> list[str]:
    """A shell line split at ``&&``/``;``/``||`` (quotes respected loosely), output plumbing dropped."""
    cmd = " ".join((command or "").split())
    cmd = re.sub(r"\s*2>&1", "", cmd)
    cmd = re.sub(r"\s*\|\s*(?:tail|head|grep|less|cat|tee|sed|awk|sort|wc)\b(?:'[^']*'|\"[^\"]*\"|[^&;|'\"])*"
                 r"(?=$|&&|\|\||;|\|)", "", cmd)  # (each stage, quoted arguments and all: ``| grep -E 'a|b' | head``)
    # split at && || ; outside quotes (``julia -e 'using Pkg; Pkg.test()'`` is one command)
    parts = [""]
    for token in _SHELL_TOKEN.findall(cmd):
        if token in ("&&", "||", ";"):
            parts.append("")
        else:
            parts[-1] += token
    return [p.strip() for p in parts if p.strip()]


def _words(segment: str) -> list[str]:
    try:
        return shlex.split(segment)
    except ValueError:
        return segment.split()


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
    cwd = None
    prep: list[str] = []
    check = ""
    for segment in segments:
        words = _words(segment)
        if not words:
            continue
        if words[0] == "cd":
            cwd = words[1] if len(words) > 1 else "~"
            continue
        if words[0] in ("export", "set", "source", ".") or (words[0] == "unset"):
            env += [w for w in words[1:] if "=" in w]
            unset += [w for w in words[1:] if words[0] == "unset" and re.fullmatch(r"[A-Za-z_]\w*", w)]
            continue
        if check:
            prep.append(check)
        check = segment
    words = _words(check)
    while words and re.match(r"^[A-Za-z_]\w*=", words[0]):
        env.append(words.pop(0))
    runner: list[str] = []
    changed = True
    while words and changed:
        changed = False
        if len(words) > 3 and words[1] in ("exec", "run") and words[2] == "--":  # ``carton exec -- prove``
            runner += words[:3]
            words = words[3:]
            changed = True
            continue
        for pattern in _RUNNERS:
            if tuple(words[:len(pattern)]) == pattern:
                runner += list(pattern)
                words = words[len(pattern):]
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
    if runner[-2:] == ["hatch", "run"] and words and re.match(r"^[\w.-]+:[^:\s]+$", words[0]):
        env_name, _, program = words[0].partition(":")  # ``hatch run test:pytest``: pytest, in hatch's env "test"
        runner[-1] = f"run {env_name}:"
        words = [program, *words[1:]]
    profile = None  # a build tool's profile chosen by words, not a flag: ``rebar3 as prod release``
    if len(words) > 3 and (_program_name(words[0]), words[1]) in (("rebar3", "as"), ("lein", "with-profile")):
        profile = " ".join(words[:3])
        words = [words[0], *words[3:]]
    flags = [w for w in words[1:] if w.startswith("-") or re.match(r"^[A-Z_][A-Z0-9_]*=", w)]
    path = words[0] if words and _program_name(words[0]) != words[0] else None
    return {"check": " ".join(words), "family": _family(words), "env": env, "unset": unset,
            "runner": " ".join(runner), "cwd": cwd, "flags": flags, "prep": prep, "segments": segments, "path": path,
            "profile": profile, "argv": words}


def _program_name(word: str) -> str:
    """A program run by its path is the same program (``.venv/bin/pytest`` is ``pytest``); ``./gradlew`` and
    ``bin/rails`` keep their spelling, as the project's own wrappers."""
    if "/" not in word or word in _TWO_WORD:
        return word
    return os.path.basename(word.rstrip("/")) or word


_INTERPRETER = LazyRegex(r"^(?:Rscript|R|python[\d.]*|node|ruby|perl|php|julia|elixir|lua|deno|pwsh|powershell)$")


def _interpreter_code(words: list[str]) -> str | None:
    """The code an interpreter runs from the command line (``Rscript -e 'testthat::test_dir()'``), or None."""
    if not words or not _INTERPRETER.match(_program_name(words[0])):
        return None
    for i, w in enumerate(words[1:-1], 1):
        if w in ("-e", "-c", "--eval", "-r", "-Command", "-command"):
            return words[i + 1]
    return None


def _family(words: list[str]) -> str:
    words = [w for w in words if not re.match(r"^[A-Z_][A-Z0-9_]*=", w)]
    if not words:
        return ""
    program = _program_name(words[0])
    code = _interpreter_code(words)
    if code is not None:  # the code is the command: ``Rscript -e 'devtools::test()'`` is devtools::test
        call = re.search(r"[A-Za-z_][\w.:]*(?=\s*\()", code) or re.search(r"[A-Za-z_][\w.:]*", code)
        return f"{program} -e {call.group(0) if call else code[:40]}"
    if re.fullmatch(r"python[\d.]*|node|ruby|bash|sh|perl|php|deno|julia|Rscript|lua(?:jit)?|elixir|raku|pwsh|tsx|"
                    r"ts-node", program) and len(words) > 1:  # the script it runs (``pwsh -NoProfile -File x.ps1``)
        return next((w for w in words[1:] if not w.startswith("-")), words[1])
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
        if rest[0] == "run" and len(rest) > 1 and program in ("npm", "yarn", "pnpm", "bun"):
            return f"{program} {rest[1]}"
        return f"{program} {rest[0]}"
    return program


def command_key(command: str) -> str:
    """One spelling per command: output plumbing (``2>&1 | tail``) and ``cd X &&`` removed."""
    cmd = " ".join((command or "").split())
    cmd = re.sub(r"^(?:cd\s+\S+\s*&&\s*)+", "", cmd)
    cmd = re.sub(r"\s*2>&1", "", cmd)
    cmd = re.sub(r"\s*\|\s*(?:tail|head|grep|less|cat|tee)\b.*$", "", cmd)
    return cmd.strip()


def shown_command(command: str, root: str | None = None) -> str:
    """A command as a reader would type it again: output plumbing removed, ``cd X &&`` kept, with X relative to
    the project ``root`` (``cd /home/me/app/api`` reads ``cd api``; a ``cd`` to the root itself is dropped)."""
    segments = _segments(command)
    if root:
        base = root.rstrip("/")
        relative = []
        for segment in segments:
            words = segment.split(maxsplit=1)
            if words[0] == "cd" and len(words) == 2 and words[1].rstrip("/") in (base, base + "/."):
                continue
            if words[0] == "cd" and len(words) == 2 and words[1].startswith(base + "/"):
                segment = "cd " + words[1][len(base) + 1:]
            relative.append(segment)
        segments = relative or segments
    return " && ".join(segments)


def command_family(command: str) -> str:
    """The program a command runs (``pytest``, ``npm test``, ``cargo test``), for "same check" chains."""
    return parse_command(command)["family"]


def command_job(command: str) -> str | None:
    """What a command is for (test, install, build, lint), so ``pytest`` and ``make test`` do the same job."""
    parsed = parse_command(command)
    for job, pattern in _JOBS:
        if re.search(pattern, parsed["check"]) or re.search(pattern, parsed["family"]):
            return job
    if _TEST_PATH.search(parsed["family"]) and not parsed["family"].startswith("-"):
        return "test"  # ``julia test/runtests.jl``, ``python tests/test_api.py``: a test script run by its interpreter
    if re.search(r"(?:^|\s)(?:-r|--run|run)(?:\s|$)", parsed["check"]) and any(
            _TEST_PATH.search(w) for w in parsed["argv"][1:] if not w.startswith("-")):
        return "test"  # ``nim c -r tests/test_duration.nim``: a test file compiled and run
    # a tool not in the table names its job by its subcommand: ``stack test``, ``deno task test``, ``opam install``
    words = [w for w in parsed["argv"][1:] if not w.startswith("-")]
    if words[:1] in (["task"], ["run"], ["exec"], ["x"], ["make"]):  # (``cargo make test-host``)
        words = words[1:]
    if not words:  # ``clojure -X:test``: the alias names the job
        aliases = [f.split(":", 1)[1] for f in parsed["argv"][1:2] if re.match(r"^-[A-Za-z]:\w", f)]
        return _SUBCOMMAND_JOBS.get(aliases[0]) if aliases else None
    task = words[0].rsplit(":", 1)[-1]  # gradle's ``:app:testDebugUnitTest``
    if task != words[0] and (job := next((j for prefix, j in _SUBCOMMAND_JOBS.items() if task.startswith(prefix)),
                                         None)):
        return job
    if ":" in words[0].strip(":") and (job := _SUBCOMMAND_JOBS.get(words[0].split(":")[0])):
        return job  # a task runner's ``test:cljs`` (bb, npm scripts): its first part
    code = _interpreter_code(parsed["argv"])  # ``Rscript -e 'devtools::test()'``: what it calls
    if code is not None:
        return "test" if re.search(r"(?i)(?:^|[\W_])test", code) else None
    job = _SUBCOMMAND_JOBS.get(words[0])
    if job is None and re.fullmatch(r"[a-z]+(build|test)", words[0]):
        return "build" if words[0].endswith("build") else "test"  # ``cargo zigbuild``, ``cargo nextest``
    # a task named for its job: ``test-host``, ``unit_test``, ``build-docker``
    named = re.fullmatch(r"(test|build|lint)s?[-_][\w-]+|[\w-]+[-_](test|build|lint)s?", words[0])
    if job is None and named:
        return named.group(1) or named.group(2)
    return job


def is_static_check(command: str) -> bool:
    """Whether a command checks code without running it: a linter, a type checker or a formatter's check."""
    parsed = parse_command(command)
    return command_job(command) == "lint" or parsed["family"].split(" ")[0] in _TYPECHECKERS \
        or bool(_FORMATTER.match(parsed["family"]) or _FORMATTER.match(parsed["check"]))


def is_autofix(command: str) -> bool:
    """Whether a command lets a linter or formatter rewrite the code itself (``eslint --fix``, ``black .``)."""
    parsed = parse_command(command)
    if _FORMATTER.match(parsed["family"]) or _FORMATTER.match(parsed["check"]):
        return not ({"--check", "--diff", "-l", "--list-different", "--dry-run"} & set(parsed["flags"]))
    if re.search(r"(?:^|[\s:])(?:spotlessApply|spotless:apply|ktlintFormat|formatKotlin|scalafmtAll|"
                 r"googleJavaFormat|fmt:format|checkstyle:fix)\b", parsed["check"]):
        return True  # a build tool's formatter task: ``./gradlew :http-client:spotlessApply``
    return is_static_check(command) and bool(_AUTOFIX_FLAGS & set(parsed["flags"]))


def _targets(command: str) -> list[str]:
    """What a check runs on (``tests/test_a.py``, ``./internal/...``): its positional arguments past the job."""
    parsed = parse_command(command)
    checked = _words(parsed["check"])
    # (an option's value, ``--project api``, is the package it picks: _picked_package compares those)
    words = [w for i, w in enumerate(checked) if not w.startswith("-") and not re.match(r"^[A-Z_][A-Z0-9_]*=", w)
             and not (i and checked[i - 1] in _VALUE_OPTIONS and checked[i - 1] != "-w")]
    family = parsed["family"].split()
    skip = 1 + (len(family) - 1 if words[:1] == family[:1] else 0)
    if words and re.fullmatch(r"python[\d.]*|node|ruby|bash|sh|perl|php|deno", _program_name(words[0])):
        skip = 2
    return [re.sub(r"^\./|/?\.\.\.$|::.*$", "", w) for w in words[skip:] if not w.startswith("run")]


_PACKAGE_OPTIONS = ("--filter", "-F", "--workspace", "-w", "-p", "--package", "--project", "--manifest-path", "-C",
                    "--dir", "--prefix")


def _picked_package(command: str) -> str | None:
    """The workspace package or directory a line runs in (``pnpm --filter @acme/sdk build``, ``cargo test -p api``)."""
    argv = parse_command(command)["argv"]
    for i, word in enumerate(argv[:-1]):
        if word in _PACKAGE_OPTIONS:
            return argv[i + 1]
        if word.startswith(("--filter=", "--workspace=", "--package=", "--project=", "--manifest-path=")):
            return word.split("=", 1)[1]
    return None


def _inline_code(command: str) -> str | None:
    """The code or query a line hands its program (``psql … -c "SELECT 1"``, ``mysql -e …``), if any."""
    argv = parse_command(command)["argv"]
    for i, word in enumerate(argv[1:-1], 1):
        if word in ("-c", "-e", "--command", "--execute", "--eval"):
            return " ".join(argv[i + 1].split())
    return None


def _same_target(failed: str, later: str) -> bool:
    """Whether ``later`` runs (at least) what failed: the same test file, a parent directory, or everything."""
    a, b = _targets(failed), _targets(later)
    picked_a, picked_b = _picked_package(failed), _picked_package(later)
    if picked_a and picked_b and picked_a != picked_b and not picked_b.endswith("/" + picked_a):
        # ``pnpm --filter @acme/shared build`` does not build the ``@acme/sdk`` that failed (but ``--project api``
        # and ``--project @acme/api`` name one package)
        return False
    if any(t in _SUBCOMMAND_JOBS and t not in b for t in a):
        return False  # ``zig build`` or ``make`` does not run the ``test`` step that failed
    code_a, code_b = _inline_code(failed), _inline_code(later)
    if code_a and code_b and code_a != code_b:
        return False  # ``psql … -c 'SHOW wal_level'`` does not run the ``-c "SELECT pg_create_…"`` that failed
    if not a or not b or "" in b or "." in b:
        return True

    def within(x: str, y: str) -> bool:  # a path within a directory; a word (``heads``, ``upgrade``) only itself
        if re.search(r"[/.]", x + y):
            return x.startswith(y.rstrip("/")) or y.startswith(x.rstrip("/"))
        return x == y

    return any(within(x, y) for x in a for y in b)


# flags that change how much a run says, whether it reruns or which tests it selects, not what it does: never the fix
_NOT_A_FIX_FLAG = LazyRegex(r"^(?:-v+|-q+|-s|-x|--(?:verbose|quiet|info|debug|stacktrace|full-stacktrace|scan|"
                            r"no-header|exitfirst|lf|last-failed|ff|failed-first|rerun|rerun-tasks|rerun-failed|"
                            r"no-daemon|console(?:=\S+)?|color(?:=\S+)?|no-color|tb(?:=\S+)?|maxfail(?:=\S+)?)|"
                            r"-count=1|--?tb=\S+|"
                            # which tests run, not how: a wider or narrower selection is no fix
                            r"--tests(?:=\S+)?|--test-name-pattern(?:=\S+)?|--testNamePattern(?:=\S+)?|-run(?:=\S+)?|"
                            r"--output-on-failure|--show-output|--nocapture|--no-capture|--version|-V|--help)$")


# ``timeout -s INT 15 `` before a command: its options and its duration
_TIMEOUT = LazyRegex(r"^timeout\s+(?:-[-\w]+(?:\s+[A-Z]+)?\s+)*\d+\w*(?:\s+|$)")


def _invocation(parsed: dict) -> set[str]:
    """The parts of an invocation a lesson can be about (not the test selection, not how much it prints)."""
    argv = parsed["argv"]
    parts = {f"env:{e}" for e in parsed["env"]} | {f"unset:{u}" for u in parsed["unset"]} | {
        f"flag:{f}" for f in parsed["flags"] if not _NOT_A_FIX_FLAG.match(f)}
    # an option's value is part of it (``--project api`` → ``--project @acme/api``, ``-f values-staging.yaml``)
    parts |= {f"flag:{w} {argv[i + 1]}" for i, w in enumerate(argv[:-1])
              if w in _VALUE_OPTIONS and w != "-w" and not argv[i + 1].startswith("-")}
    parts -= {f"flag:{w}" for w in argv if w in _VALUE_OPTIONS and any(p.startswith(f"flag:{w} ") for p in parts)}
    # (``env`` only sets or unsets the variables above; ``timeout 15`` only bounds how long a check may take)
    runner = _TIMEOUT.sub("", re.sub(r"^env\b\s*", "", parsed["runner"]))
    if runner:
        parts.add(f"runner:{runner}")
    if parsed["cwd"]:
        parts.add(f"cwd:{parsed['cwd']}")
    if parsed["profile"]:
        parts.add(f"profile:{parsed['profile']}")
    if parsed.get("path"):
        parts.add(f"path:{parsed['path']}")
    return parts


def _with_argument(flag: str, argv: list[str], before: list[str]) -> str:
    """``flag`` with the argument it takes in ``argv``, when that argument is new (``--vault-password-file
    ~/.ansible/vault_pass``, ``-f values-staging.yaml``): the lesson is the value as much as the flag."""
    if "=" in flag or flag not in argv:
        return flag
    at = argv.index(flag)
    value = argv[at + 1] if at + 1 < len(argv) else ""
    if not value or value.startswith("-") or value in before:
        return flag
    if flag.startswith("--") or re.search(r"[/.~:]|^\d+$", value) or flag in _VALUE_OPTIONS \
            or flag in ("-n", "-e"):  # (``kubectl -n billing``, ``helmfile -e staging``: the value is the lesson)
        return f"{flag} {value}"
    return flag


def invocation_change(failed: str, passed: str) -> list[str]:
    """How the passing invocation differs from the failing one (env, flag, runner, cwd), as readable parts."""
    before, after = parse_command(failed), parse_command(passed)
    added = sorted(_invocation(after) - _invocation(before))
    removed = sorted(_invocation(before) - _invocation(after))
    out = []
    for part in added:
        kind, value = part.split(":", 1)
        if kind == "flag":
            value = _with_argument(value, after["argv"], before["argv"])
        out.append({"env": f"set `{value}`", "unset": f"unset `{value}`", "flag": f"pass `{value}`",
                    "runner": f"run it through `{value}`", "profile": f"use `{value}`",
                    "cwd": f"run it from `{value}/`", "path": f"run `{value}`"}[kind])
    for part in removed:
        kind, value = part.split(":", 1)
        # (a program the passing line still runs, inside another launcher, is not done without)
        if kind in ("flag", "runner", "path", "profile") and value not in after["argv"] \
                and not any(a.startswith(f"flag:{value.split()[0]} ") for a in added):  # (a new value says it)
            out.append(f"without `{value}`")
    return out


# --- edits: the net change per file --------------------------------------------------------------

def _edit_sides(observation: dict) -> list[tuple[str, str]]:
    """(old, new) text of an Edit/Write observation, from its stored diff body."""
    body = observation.get("body") or ""
    meta = observation.get("meta") or {}
    if observation["tool"] == "Write" and meta.get("type") == "create":
        return [("", body)]
    old, new = [], []
    for line in body.splitlines():
        if line.startswith("@@"):
            continue
        if line.startswith("-"):
            old.append(line[1:])
        elif line.startswith("+"):
            new.append(line[1:])
        elif line.startswith(" "):
            old.append(line[1:])
            new.append(line[1:])
    return [("\n".join(old), "\n".join(new))]


def net_changes(edits: list[dict], cwd: str | None) -> dict[str, list[dict]]:
    """Per file (relative path), the hunks left once later edits are composed with earlier ones.

    Each hunk is ``{old, new, ids}``: an edit that rewrites what an earlier edit
    wrote is folded into it, so a reverted attempt disappears and a second try
    replaces the first.
    """
    files: dict[str, list[dict]] = {}
    for edit in edits:
        for path in edit.get("files") or [edit.get("target") or "?"]:
            hunks = files.setdefault(_rel(path, cwd), [])
            for old, new in _edit_sides(edit):
                for hunk in hunks:
                    if old and old == hunk["new"]:
                        hunk["new"] = new
                        hunk["ids"].append(edit["id"])
                        break
                    if old and old in hunk["new"]:
                        hunk["new"] = hunk["new"].replace(old, new, 1)
                        hunk["ids"].append(edit["id"])
                        break
                else:
                    hunks.append({"old": old, "new": new, "ids": [edit["id"]]})
    return {path: [h for h in hunks if h["old"] != h["new"]] for path, hunks in files.items()}


def _diff_text(path: str, hunk: dict, limit: int = 720) -> str:
    """A hunk as its changed lines (a card shows the added ones it has room for, `lorebook show` all of them)."""
    old = [l for l in hunk["old"].splitlines() if l.strip()]
    new = [l for l in hunk["new"].splitlines() if l.strip()]
    removed = [l for l in old if l not in new]
    added = [l for l in new if l not in old]
    lines = [f"-{one_line(l, 120)}" for l in removed[:4]] + [f"+{one_line(l, 120)}" for l in added[:10]]
    while len("\n".join(lines)) > limit and len(lines) > 1:  # whole lines, never one cut in the middle
        lines.pop()
    text = "\n".join(lines)
    return f"{path}:\n{text[:limit]}" if text else f"{path}: rewritten"


def _token_span(text: str) -> str:
    """A changed span as a reader quotes it: no trailing separators, no bracket closed that it did not open."""
    text = text.strip(" ,;")
    for opening, closing in ("()", "[]", "{}"):
        while text.endswith(closing) and text.count(closing) > text.count(opening):
            text = text[:-1].rstrip(" ,;")
    return text.rstrip(":")


def _replaced(a: str, b: str) -> tuple[str, str]:
    """The whole tokens of line ``a`` that line ``b`` replaced: ``retries=2`` → ``retries=4``, not ``2`` → ``4``."""
    p = 0
    while p < min(len(a), len(b)) and a[p] == b[p]:
        p += 1
    q = 0
    while q < min(len(a), len(b)) - p and a[-1 - q] == b[-1 - q]:
        q += 1
    while p > 0 and not a[p - 1].isspace():
        p -= 1
    while q > 0 and not a[len(a) - q].isspace():
        q -= 1
    return _token_span(a[p:len(a) - q]), _token_span(b[p:len(b) - q])


def _short_diff(hunk: dict) -> str:
    """One line for a title: what was inserted, or ``a`` → ``b`` for a small replacement, else the new line."""
    old = [l.strip() for l in hunk["old"].splitlines() if l.strip()]
    new = [l.strip() for l in hunk["new"].splitlines() if l.strip()]
    # a line that only gained a separator to make room for the next one (``"supportsTablet": true,``) is no change
    punct = {l.rstrip(",;") for l in old}
    removed = [l for l in old if l not in new and not any(n.rstrip(",;") == l.rstrip(",;") for n in new)]
    added = [l for l in new if l not in old and l.rstrip(",;") not in punct]
    if len(removed) == 1 and len(added) == 1:
        a, b = removed[0], added[0]
        if len(a) + len(b) <= 60:
            return f"`{a}` → `{b}`"
        a_mid, b_mid = _replaced(a, b)
        if not a_mid and b_mid:  # a pure insertion: the new line says it best, when it is short
            return f"`{b}`" if len(b) <= 40 else f"add `{one_line(b_mid, 60)}`"
        if a_mid and not b_mid:
            return f"remove `{one_line(a_mid, 60)}`"
        if len(a_mid) > 40 or len(b_mid) > 40:
            # the same line with its quotes swapped as well (``"… default '0000-00-00'"`` → ``'… default
            # CURRENT_TIMESTAMP'``): the value that changed, not the whole line
            a_mid, b_mid = (m.strip("'\"; ,") for m in _replaced(a.replace('"', "'"), b.replace('"', "'")))
        if a_mid and b_mid and len(a_mid) <= 40 and len(b_mid) <= 40:
            return f"`{a_mid}` → `{b_mid}`"
        return f"`{one_line(b, 70)}`"
    if added:  # what a block holds, not the line that opens it or an import it needs
        return f"add `{one_line(next((l for l in added if not scaffolding(l)), added[0]), 70)}`"
    if removed:
        return f"remove `{one_line(removed[0], 70)}`"
    return "rewrite"


def _literals(text: str) -> set[str]:
    return {m.group(2) if m.group(2) is not None else m.group(3) for m in _LITERAL.finditer(text)}


def _actual_values(failure_text: str) -> set[str]:
    """The values a failing check says its code returned (a literal, or the whole reported value)."""
    values: set[str] = set()
    for match in _ACTUAL.finditer(failure_text or ""):
        for side in match.groups():
            if side:
                values |= _literals(side) or {side.strip()}
    return values


# a check told to look away: a suppression comment, or a file's strictness lowered (``# typed: strict`` → ``false``)
_SUPPRESSION = LazyRegex(r"(?i)#\s*type:\s*ignore|@ts-(?:ignore|nocheck|expect-error)|eslint-disable|#\s*noqa\b|"
                         r"#\s*pylint:\s*disable|rubocop:disable|#\[allow\(|@Suppress(?:Warnings)?\(|//\s*nolint\b|"
                         r"phpstan-ignore|@psalm-suppress|#\s*pyright:\s*ignore|NOLINT\b|@SuppressLint\(")
_STRICTNESS = LazyRegex(r"#\s*typed:\s*(\w+)|[\"']?(?:strict\w*|noImplicitAny|warningsAsErrors|allWarningsAsErrors)[\"']?"
                        r"\s*[:=]\s*(true|false)")
_STRICT_RANK = {"ignore": 0, "false": 1, "true": 2, "strict": 3, "strong": 4}


def _silences(hunks: list[dict]) -> bool:
    """Whether a change makes a linter or type checker stop looking rather than fixing what it reported."""
    for hunk in hunks:
        old_lines, new_lines = hunk["old"].splitlines(), hunk["new"].splitlines()
        added = [l for l in new_lines if l not in old_lines]
        removed = [l for l in old_lines if l not in new_lines]
        if any(_SUPPRESSION.search(l) for l in added) and not any(_SUPPRESSION.search(l) for l in removed):
            return True
        before = [m.group(1) or m.group(2) for l in removed for m in [_STRICTNESS.search(l)] if m]
        after = [m.group(1) or m.group(2) for l in added for m in [_STRICTNESS.search(l)] if m]
        if before and after and _STRICT_RANK.get(after[0].lower(), 9) < _STRICT_RANK.get(before[0].lower(), -1):
            return True
    return False


_TESTS_RUN = LazyRegex(r"(?i)\b(?:running|collected|ran|executed|starting)\s+(\d+)\s+(?:tests?|items?|examples?)\b|"
                       r"\b(\d+)[ \t]+(?:tests?[ \t]+)?total\b|\b(\d+)\s+examples?,|\b(\d+)\s+tests?\s+run\b")


def _tests_run(output: str | None) -> int | None:
    """How many tests a run says it ran (``running 6 tests``, ``collected 12 items``, ``13 total``, nextest's
    ``Starting 42 tests`` and ``41 tests run``), if it says."""
    counts = [int(next(g for g in m.groups() if g)) for m in _TESTS_RUN.finditer(output or "")]
    return max(counts) if counts else None


# a settings line that leaves tests out of a run
_EXCLUDING = LazyRegex(r"(?i)\bnot\b|\b(?:exclude|ignore|skip|deselect|quarantine)\w*|[\"'\s]-\w*!|~")


def _is_weakening(path: str, hunks: list[dict], failure_text: str = "") -> str | None:
    """Why an edit to a test file makes the test pass without fixing anything (skip, loosened, deleted, renamed,
    or its expected value replaced by the value the failure said the code returned)."""
    if not _TEST_PATH.search(path):
        # a test runner's settings told to leave the failing test out (``default-filter = "not
        # test(splits_odd_cents_evenly)"``, ``testPathIgnorePatterns``, ``--deselect`` in addopts)
        failing = {w for line in failure_text.splitlines() if re.search(r"FAIL|✗|✘", line)
                   for w in re.findall(r"\w{8,}", line) if "_" in w or not w.isalpha()}
        return "the failing test was filtered out in the test settings" if failing and any(
            _EXCLUDING.search(l) and set(re.findall(r"\w{8,}", l)) & failing
            for hunk in hunks for l in hunk["new"].splitlines() if l not in hunk["old"].splitlines()) else None
    if re.search(r"(?:conftest|setup|helper|fixture|factory|factories)", path):
        return None
    actual = _actual_values(failure_text)
    for hunk in hunks:
        old_lines = hunk["old"].splitlines()
        new_lines = hunk["new"].splitlines()
        added = [l for l in new_lines if l not in old_lines]
        removed = [l for l in old_lines if l not in new_lines]
        if any(_SKIP_ADDED.search(l) for l in added) and not any(_SKIP_ADDED.search(l) for l in removed):
            return "a skip or xfail marker was added to the failing test"
        if any(_SWALLOWED.search(l) for l in added) and not any(_SWALLOWED.search(l) for l in removed):
            return "the failing call was made to succeed whatever it does"
        if any(_ASSERTION.search(l) for l in removed):
            # a commented-out assertion is a deleted one
            if not any(_ASSERTION.search(l) and not _COMMENT_LINE.match(l) for l in added):
                return "an assertion was deleted"
            new_values = {v for l in added if _ASSERTION.search(l) for v in _literals(l)} - \
                {v for l in removed for v in _literals(l)}
            if new_values & actual:
                return "the expected value was changed to what the failing code returned"
            if any(_LOOSENED.search(l) for l in added) and not any(_LOOSENED.search(l) for l in removed):
                return "an assertion was loosened"
            # the case under test swapped for another: the input the failure names and the value expected of it
            # both changed (``parse("29/02/2024") shouldBe …(2024, 2, 29)`` → ``parse("28/02/2024") … 28)``)
            gone = {v for l in removed for v in _literals(l)} - {v for l in added for v in _literals(l)}
            if len(gone) >= 2 and any(len(v) >= 4 and v in failure_text for v in gone) and any(
                    _ASSERTION.search(l) for l in added):
                return "the failing case was replaced by another"
        old_names = {m.group(0).strip() for l in removed if (m := _TEST_NAME.match(l))}
        new_names = {m.group(0).strip() for l in added if (m := _TEST_NAME.match(l))}
        if old_names and new_names and old_names != new_names:
            return "the failing test was renamed"
        if removed and not added and any(_TEST_NAME.match(l) for l in removed):
            return "the failing test was deleted"
    return None


# --- the session's timeline ----------------------------------------------------------------------

# a step that generates or migrates what a check needs (``prisma generate``, ``alembic upgrade head``)
_PREREQUISITE = LazyRegex(r"(?x)(?:^|[\s:])(?:generate|codegen|migrate|db:(?:migrate|setup|prepare|seed)|seed|"
                          r"bootstrap|login)\b|alembic\s+upgrade|prisma\s+(?:generate|migrate|db\s+push)|"
                          r"protoc\b|buf\s+generate|sqlc\s+generate|go\s+generate")
# a step that starts a service a check talks to (``make search-up``, ``memcached -d``, ``docker run -d …``)
_STARTS_SERVICE = LazyRegex(r"(?x)(?:^|[\s:-])(?:up|start|restart|serve)\b|--daemoni[sz]e|\bdaemon\b|"
                            r"\b(?:docker|podman)\s+run\b.*\s-d\b|\bservices?\s+start\b|\bsystemctl\s+start\b")
# a failure that says a service was not there to answer
_UNREACHABLE = LazyRegex(r"(?i)ECONNREFUSED|connection refused|(?:could not|couldn't|can't|cannot|failed to|unable to) "
                         r"connect|is (?:the server |it )?(?:not )?running|not running|no such host|unreachable|"
                         r"could not translate host|getaddrinfo|Connection reset|valid Docker environment|"
                         r"docker daemon|\.sock\b")
# "run `bundle install`", "Did you run 'make codegen'?", "To fix this, run:\n  ./scripts/setup"
_NAMED_STEP = LazyRegex(r"(?i)\b(?:run|try|execute)\b\s*:?\s*(?:[`'\"]([^`'\"\n]{3,100})[`'\"]|\n\s*([^\n]{3,100}))")


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
    parsed = parse_command(command)
    check = parsed["check"]
    if _LOOKING.match(parsed["family"] or check) and not _MUTATING.search(command) and len(parsed["segments"]) == 1 \
            and "|" not in check:  # (``echo "$TOKEN" | helm registry login …`` is the login)
        return False  # a look (``grep -rn "bootstrap" src``) changes nothing, whatever words it searches for
    if _MUTATING.search(command) or _PREREQUISITE.search(check) or command_job(command) == "install" \
            or is_autofix(command):  # (a formatter or a linter's --fix rewrites the code)
        return True
    if _starts_service(command) and failure is not None and _UNREACHABLE.search(failure.get("error_text") or ""):
        return True  # a service started after a failure that says it could not reach one
    if _upstream_sync(observation):
        return True  # other people's changes pulled in: the code changed, though not by this session
    return failure is not None and _named_by_error(command, failure) or _quoted_in(command, account) \
        or _named_as_the_way(command, account)


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


def _doing_part(command: str) -> str:
    """``command`` without the steps that only wait or look: ``docker compose --profile db up -d db && sleep 3 &&
    docker compose ps db`` is ``docker compose --profile db up -d db``."""
    segments = _segments(command)
    if len(segments) < 2 or "||" in command or ";" in command:
        return command
    doing = [s for s in segments if not _LOOKING.match(parse_command(s)["family"] or s)
             or _MUTATING.search(s) or command_job(s) == "install"]
    return " && ".join(doing) if doing and len(doing) < len(segments) else command


def _packages(command: str) -> set[str]:
    """The packages a line adds or installs, by name without their versions (``rye add --dev "httpx<0.28"`` →
    ``{"httpx"}``)."""
    match = re.search(r"\b(?:add|install|get|require)\b(.*)$", parse_command(command)["check"])
    words = _words(match.group(1)) if match else []
    return {_package_name(w) for w in words if not w.startswith("-") and re.match(r"[\"']?[A-Za-z]", w)}


def _package_name(word: str) -> str:
    """A package argument by its name, without its version or extras (``"httpx<0.28"`` → ``httpx``)."""
    return re.split(r"[=<>@~\[ !]", word.strip("\"'"), 1)[0].lower()


def _adds_with_another_tool(failure: dict, later: dict, packages: set[str]) -> bool:
    """Whether ``later`` is another program given every package the failing line added (``yarn add chart.js`` →
    ``bin/importmap pin chart.js``), and not a look at them (``npm view left-pad``)."""
    before, after = parse_command(failure["target"]), parse_command(later["target"])
    if not after["argv"] or _program_name(after["argv"][0]) == _program_name(before["argv"][0]) \
            or _LOOKING.match(after["family"]):
        return False
    return packages <= {_package_name(w) for w in after["argv"][1:] if not w.startswith("-")}


def _starts_service(command: str) -> bool:
    """Whether a step of the line starts a service (``docker compose --profile db up -d db && sleep 3 && …``)."""
    return any(_STARTS_SERVICE.search(parse_command(segment)["check"]) for segment in _segments(command))


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
    added = [f.split("=")[0] for f in set(after["flags"]) - set(before["flags"])]
    added += [e.split("=")[0] for e in set(after["env"]) - set(before["env"])]
    return any(len(name.strip("-")) > 3 and re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text) for name in added)


def _quoted_in(command: str, account: str) -> bool:
    """Whether the agent's account quotes ``command`` (in backticks) as something it ran."""
    if "`" not in (account or ""):
        return False
    key = command_key(command)
    words = set(_words(command))
    # the command as quoted, or its own settings quoted ("Rebuilt with `CC=musl-gcc CGO_ENABLED=1`")
    return any(command_key(span) == key or (len(span.split()) >= 2 and set(span.split()) <= words and any(
        "=" in w or w.startswith("-") for w in span.split())) for span in re.findall(r"`([^`\n]{3,200})`", account))


def _named_by_error(command: str, failure: dict) -> bool:
    """Whether the failure's message names ``command`` as the step to run ("Run `bundle install` to …")."""
    text = failure.get("error_text") or failure.get("body") or ""
    key = command_key(command)
    for match in _NAMED_STEP.finditer(text):
        named = command_key((match.group(1) or match.group(2) or "").strip().rstrip(".:"))
        if len(named) >= 3 and (key == named or key.startswith(named + " ")
                                or parse_command(key)["check"] == parse_command(named)["check"]):
            return True
    return False


# a check's own summary of its failures (pytest, jest, mix, rspec, cargo, go, tsc, mypy, eslint)
_REPORTS_FAILURE = LazyRegex(
    r"(?m)\b[1-9]\d* (?:failed|failures?|errors?|problems?)\b|\bFAILED\b|^(?:FAIL|ERROR)\b|^--- FAIL\b|"
    r"test result: FAILED|Traceback \(most recent call last\)|^npm ERR!|^error(?:\[E\d+\])?:|\berror TS\d+:|"
    r"^E\s+[\w.]*(?:Error|Exception)\b|Import(?:Error)? while (?:loading|importing)|"
    r"^(?:ModuleNotFoundError|ImportError|SyntaxError|NameError):|\b[Cc]ommand not found\b|"
    # rspec's and minitest's failure lines, a class of error named on its own line (``RedisClient::CannotConnectError:``)
    r"\bFailure/Error:|^\s*(?:[A-Z]\w*::)*[A-Z]\w*(?:Error|Exception):\s*$")
_PIPED = LazyRegex(r"\|\s*(?:tail|head|grep|less|cat|tee|sed|awk|sort|wc|cut|uniq)\b")


def _through_pipe(observation: dict) -> dict:
    """The observation as it really ended: a check piped into ``tail``/``grep`` exits with the filter's status
    (0), so it passed only when its output reports no failure; otherwise it is read as the failure it printed."""
    command = observation.get("target") or ""
    if observation["tool"] != "Bash" or observation["outcome"] != "ok" or not _PIPED.search(command) \
            or "pipefail" in command or command_job(command) not in ("test", "build", "lint"):
        return observation
    body = observation.get("body") or ""
    if not _REPORTS_FAILURE.search(body):
        return observation
    from .signatures import error_signature

    return dict(observation, outcome="error", error_text=body, error_signature=error_signature(body, command))


# a service's log read back (``journalctl -u vault-agent``, ``docker compose logs api``, ``kubectl logs deploy/x``)
_LOG_READ = LazyRegex(r"^(?:journalctl|(?:docker|podman|kubectl|oc)(?: compose)? logs)$")
# a line of that log reporting an error: ``[ERROR] agent.auth.handler: …``, ``level=error``, ``"level":"error"``
_LOGGED_ERROR = LazyRegex(r"(?m)\[(?:ERROR|FATAL|CRITICAL)\]|\blevel=(?:error|fatal)\b|\"level\":\s*\"(?:error|fatal)\"|"
                          r"\s(?:ERROR|FATAL|CRITICAL)\s")


def _logged_failure(observation: dict) -> dict:
    """A service's log read back with errors in it is the failure it shows (the command itself passed): "error
    getting path or data from method: error=\"no known secret ID\"" after ``journalctl -u vault-agent``. The same log
    read later without errors is that service working again."""
    if observation["tool"] != "Bash" or observation["outcome"] != "ok":
        return observation
    parsed = parse_command(observation.get("target") or "")
    if not _LOG_READ.match(parsed["family"]):
        return observation
    # (each from its level on: a journal's date, host and process before it are no part of the error)
    lines = [line[m.start():].strip() for line in (observation.get("body") or "").splitlines()
             if (m := _LOGGED_ERROR.search(line))]
    if not lines:
        return observation
    from .signatures import error_signature

    text = "\n".join(list(dict.fromkeys(lines))[:5])
    return dict(observation, outcome="error", error_text=text, logged=True,
                error_signature=error_signature(text, observation.get("target") or ""))


def _asks_version(command: str) -> bool:
    """Whether a line only asks a tool for its version or help (``golangci-lint version``, ``tsc --version``): it
    does none of the tool's job."""
    argv = parse_command(command)["argv"]
    words = [w for w in argv[1:] if not w.startswith("-")]
    return bool(argv) and (words in (["version"], ["help"]) or not words and bool(
        set(argv[1:]) & {"--version", "-V", "--help", "-h", "-version"}))


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


def _routine(command: str) -> bool:
    parsed = parse_command(command)
    if not parsed["check"]:
        return True
    return bool(_ROUTINE.match(parsed["family"]) or _ROUTINE.match(parsed["check"]))


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
        if (_ROUTINE.match(missing) if missing else _routine(failure["target"])) or _cd_failure(failure):
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
        for k, later in enumerate(observations[i + 1:], start=i + 1):
            if _is_check(later) and later["outcome"] == "ok" and _passed_within(failure["target"], later["target"]):
                success, kind = later, "same_check"  # ``go build ./... && go test ./...``, ``sail artisan test``
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
            if _is_check(later) and command_family(later["target"]) == family \
                    and _same_target(failure["target"], later["target"]):
                if later["outcome"] == "error":
                    events.append(later)
                    continue
                if later["outcome"] == "ok":
                    success, kind = later, "same_check"
                    break
            if job and later["outcome"] == "ok" and _is_check(later) and command_job(later["target"]) == job \
                    and command_family(later["target"]) != family and not any(e["tool"] in EDIT_TOOLS for e in events) \
                    and not _asks_version(later["target"]) \
                    and (job == "install" or not _MUTATING.search(later["target"])):
                success, kind = later, "same_job"
                break
            if adding and later["outcome"] == "ok" and _is_check(later) and not any(
                    e["tool"] in EDIT_TOOLS for e in events) and _adds_with_another_tool(failure, later, adding):
                success, kind = later, "same_job"  # ``yarn add chart.js`` → ``bin/importmap pin chart.js``
                break
            if _is_change(later, failure, account):
                events.append(later)
                continue
        if success is None:  # "plans have to be run with `terragrunt plan` from live/…": the agent named the way
            success = _stated_way(failure, observations[i + 1:], account)
            kind = "same_job" if success is not None else None
        if success is None:  # a server that would not start, never started again: checked another way, unverified
            success = _checked_otherwise(failure, observations[i + 1:])
            kind = "other_check" if success is not None else None
        if kind == "same_check" and invocation_change(failure["target"], success["target"]):
            success = _passed_as_it_was(observations, failure, success, account) or \
                _the_quoted_way(observations, failure, success, account) or success
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
        chains.extend(part for chain in _split_by_error(events, success, kind) for part in _split_one_output(chain))
    return chains, notes


# the agent's account names a command as the project's way ("have to be run with `terragrunt plan`")
_THE_WAY = LazyRegex(r"(?i)\b(?:ha(?:ve|s) to|must|needs? to|should|only works?|(?:is|are) (?:meant|supposed) to|"
                     r"(?:is|are) run (?:with|through|from|via)|(?:run|use) (?:it |them )?from|"
                     r"(?:is|are) (?:created|made|generated|added|done|built) (?:with|by|using|via|through)|"
                     r"(?:run|use|invoke)(?: it| them| the \w+)? (?:with|through|via|instead)|^\W*use)\b")


def _names_run(argv: list[str], sentence: str) -> bool:
    """Whether ``sentence`` quotes a run of the program and subcommand ``argv`` starts with (`terragrunt plan`); a
    line that runs an interpreter's code (``pwsh -Command "Invoke-Pester …"``) is named by that code."""
    code = _interpreter_code(argv)
    if code is not None:
        argv = _words(code)
    # the program, and its subcommand when it has one (``terraform plan``, ``nim c``; not a file it runs)
    head = [_program_name(argv[0])] + [w for w in argv[1:2] if re.fullmatch(r"[a-z][\w:-]*", w)] if argv else []
    return bool(head) and any([_program_name(w) for w in parse_command(span)["argv"][:len(head)]] == head
                              for span in re.findall(r"`([^`\n]{3,200})`", sentence))


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


def _stated_way(failure: dict, later: list[dict], account: str) -> dict | None:
    """The first later passing run of another command that does the same job (``terraform plan`` →
    ``terragrunt plan``), when the agent's account names it as the way, and names the failing one too. Edits on
    the way may be the task's own (a convention learned while doing other work): the account is what links them."""
    if not account:
        return None
    before = parse_command(failure["target"])
    family = before["family"]
    sentences = _sentences(account)
    if not family or not any(_names_run(before["argv"], s) for s in sentences):
        return None
    # "Running `Invoke-Pester` directly fails …": the agent says the failing way fails, whatever the job
    failed_said = any(_names_run(before["argv"], s) and re.search(r"(?i)\bfail", _prose(s)) for s in sentences)
    job = command_job(failure["target"])
    for obs in later:
        if obs["outcome"] != "ok" or not _is_check(obs) or _MUTATING.search(obs["target"]):
            continue
        after = parse_command(obs["target"])
        if after["family"] == family or not after["family"]:
            continue
        same_job = job is not None and job == command_job(obs["target"])
        same_word = before["argv"][1:2] == after["argv"][1:2] and len(after["argv"]) > 1 \
            and not after["argv"][1].startswith("-")
        if (same_job or same_word or failed_said) and any(_names_run(after["argv"], s) and _THE_WAY.search(_prose(s))
                                           for s in sentences):
            return obs
    return None


# a command that starts a server or a long-running process, and a request that shows one answers
_SERVES = LazyRegex(r"^(?:dev|serve|server|start|run|up|foreground|console|daemon|beat|worker|preview|watch|pages|"
                    r"horizon|queue:(?:work|listen)|[\w-]+:(?:start|serve))$")
_PROBE = LazyRegex(r"^(?:curl|wget|http|https|xh|nc|grpcurl|websocat)\b")


def _served_within(failed: str, later: dict, after: dict | None = None) -> str | None:
    """The part of a passing ``later`` line that started again the server whose start failed, when a request then
    got an answer, or the program's own status query said it runs: in the same line (``RELX_REPLACE_OS_VARS=true …
    ledger daemon && sleep 2 && curl …/health``, ``(php artisan horizon > log &) ; sleep 6; php artisan
    horizon:status``) or as the next passing line, ``after`` (``curl -s localhost:8000/orders/1``): a server that
    never exits passes no other way."""
    before = parse_command(failed)
    if len(before["argv"]) < 2 or not any(_SERVES.match(w) for w in before["argv"][1:5]):
        return None
    steps = [s.strip(" ()") for s in re.split(r"&&|;|(?<![&|>])&(?![&>])", later["target"]) if s.strip(" ()")]
    program = _program_name(before["argv"][0])

    def answered(step: str, output: str) -> bool:
        argv = parse_command(step)["argv"]
        return bool(_PROBE.match(step)) or bool(
            argv and _program_name(argv[0]) == program and any(re.search(r"(?:^|:)status$", w) for w in argv[1:4])
            and _RUNNING.search(output) and not _ERROR_OUTPUT.search(output))

    next_line = [after["target"]] if after and after["tool"] == "Bash" and after["outcome"] == "ok" else []
    for n, step in enumerate(steps):
        argv = parse_command(step)["argv"]
        if argv and _program_name(argv[0]) == program and any(_SERVES.match(w) for w in argv[1:5]) and (
                any(answered(s, later.get("body") or "") for s in steps[n + 1:])
                or any(answered(s, after.get("body") or "") for s in next_line)):
            return step
    return None


_RUNNING = LazyRegex(r"(?i)\b(?:is |are )?running\b|\bactive \(running\)|\bonline\b")


# (fewer than _SERVES: ``run``, ``up``, ``watch`` also run things that end, and a wrong guess here stores a lesson)
_STARTS = LazyRegex(r"^(?:dev|serve|server|start|preview|foreground|daemon)$")


def _checked_otherwise(failure: dict, later: list[dict]) -> dict | None:
    """For a server or daemon start that failed and was never run again (``pnpm --filter gateway dev``: "fastify-plugin:
    @fastify/cors - expected '5.x' fastify version"), the first passing test or build of the same package after an
    edit whose added lines name what the error names (``"@fastify/cors": "^9.0.1"``). It shows the change did no
    harm, not that the server starts: the lesson is stored unverified, and says so."""
    before = parse_command(failure["target"])
    argv = before["argv"]
    words = [w for i, w in enumerate(argv[1:], start=1) if not w.startswith("-") and argv[i - 1] not in _VALUE_OPTIONS]
    words = words[1:] if words[:1] in (["run"], ["task"]) else words  # ``npm run start``, ``deno task dev``
    if not words or not _STARTS.match(words[0]) or any(
            command_family(o.get("target") or "") == before["family"] for o in later if o["tool"] == "Bash"):
        return None
    text = failure.get("error_text") or ""
    named = {t for t in re.findall(r"[@\w][\w@/.-]{4,}\w", text) if re.search(r"[@/_.-]", t) and not t.startswith("/")}
    named |= {m.group(0) for t in named if (m := re.match(r"@[\w.-]+/[\w.-]+", t))}  # a path into a scoped package
    edited = next((o for o in later if o["tool"] in EDIT_TOOLS and o["outcome"] == "ok"
                   and any(t in line for line in _added_lines(o) for t in named)), None)
    if edited is None:
        return None
    for o in later:
        if o["id"] > edited["id"] and o["outcome"] == "ok" and _is_check(o) \
                and command_job(o["target"]) in ("test", "build") \
                and _picked_package(o["target"]) == _picked_package(failure["target"]) \
                and parse_command(o["target"])["cwd"] == before["cwd"]:
            return o
    return None


_TIMED_OUT = LazyRegex(r"(?m)^exit=124\s*$|^\s*Exit code 124\b")
_ERROR_OUTPUT = LazyRegex(r"(?i)Traceback|\b\w*(?:Error|Exception)\b|\bfatal\b|\bpanic")


def _stayed_up(failed: str, later: dict) -> str | None:
    """The part of a ``later`` line that ran again, under ``timeout N``, the server or daemon whose start failed, when
    it was still running when the timeout stopped it (``timeout 8 celery -A config beat -l info; echo exit=$?``
    printing ``exit=124``, or the run's own exit code 124) and printed no error: a process that never exits passes
    no other way."""
    before = parse_command(failed)
    serving = [w for w in before["argv"][1:5] if _SERVES.match(w)]
    text = "\n".join([later.get("body") or "", later.get("error_text") or ""])
    if not serving or not _TIMED_OUT.search(text) or _ERROR_OUTPUT.search(text):
        return None
    for step in _segments(later["target"]):
        parsed = parse_command(step)
        argv = parsed["argv"]
        if parsed["runner"].startswith("timeout") and argv and _program_name(argv[0]) == _program_name(
                before["argv"][0]) and serving[0] in argv[1:5]:
            return _TIMEOUT.sub("", step)  # as run, less the timeout
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


def _the_quoted_way(observations: list[dict], failure: dict, success: dict, account: str) -> dict | None:
    """A later passing run of the failing check, in another form that the agent quotes as the way, with nothing
    changed since ``success`` (``hatch run +py=3.12 +pl=1 test:pytest …`` passed, then "The way to run them is
    `hatch run test:pytest …`"): the form a reader should reuse."""
    quoted = {command_key(span) for span in re.findall(r"`([^`\n]{3,200})`", account or "")}
    if command_key(success["target"]) in quoted:
        return None
    for later in observations:
        if later["id"] <= success["id"]:
            continue
        if later["outcome"] == "ok" and _is_check(later) and command_key(later["target"]) in quoted \
                and command_family(later["target"]) == command_family(failure["target"]) \
                and _same_target(failure["target"], later["target"]) \
                and invocation_change(failure["target"], later["target"]):
            return later
        if _is_change(later, failure, account):
            return None
    return None


def _passed_within(failed: str, later: str) -> bool:
    """Whether a passing ``later`` line ran what failed, in another form: as one step of an ``&&`` chain (every step
    of ``go build ./... && go test ./...`` passed), or the same arguments through another launcher
    (``php artisan test --filter=X`` / ``./vendor/bin/sail artisan test --filter=X``)."""
    before, after = parse_command(failed), parse_command(later)
    if len(after["segments"]) > 1 and "||" not in later and ";" not in later:
        for segment in after["segments"]:
            if parse_command(segment)["check"] == before["check"]:
                return True
    argv, rest = after["argv"], before["argv"][1:]
    # (a job's words, not only options: ``cmake --build --preset debug`` does not run ``ctest --preset debug``)
    return len(rest) >= 2 and not rest[0].startswith("-") and len(argv) > len(rest) and argv[-len(rest):] == rest \
        and _program_name(argv[0]) != _program_name(before["argv"][0])


def _persisting(changes: list[dict], later_edits: list[dict]) -> bool:
    """Whether any of ``changes`` is still in effect once ``later_edits`` are applied (not reverted, not rewritten)."""
    if any(c["tool"] == "Bash" or (c.get("meta") or {}).get("content_withheld") for c in changes):
        return True  # a command, or a change whose content was not stored: nothing shows it undone
    ids = {c["id"] for c in changes}
    if not ids:
        return False
    for hunks in net_changes([*changes, *later_edits], None).values():
        if any(h["ids"][-1] in ids for h in hunks):
            return True
    return False


_GENERIC_SIGNATURE = LazyRegex(r"(?i)exit (?:code|status) \d+$")


def _same_error(a: dict, b: dict) -> bool:
    """Whether two failures report the same error: the same signature, and, when the signature says no more than
    the exit code (``go test: exit code 1``), the same error line once its numbers are masked."""
    if a.get("error_signature") != b.get("error_signature"):
        # the same named error seen through another window (``… | grep -A2 Failure/Error`` shows the
        # ``RedisClient::CannotConnectError`` the full log ended on)
        named = [set(re.findall(r"\b(?:[A-Z]\w*::|[A-Z]\w*\.)*[A-Z]\w*(?:Error|Exception)\b", f.get("error_text") or ""))
                 for f in (a, b)]
        return bool(named[0] & named[1]) and not (named[0] ^ named[1])
    if not _GENERIC_SIGNATURE.search(a.get("error_signature") or ""):
        return True
    line_a, line_b = (re.sub(r"\d+(?:\.\d+)*", "N", _raw_error_line(f) or "") for f in (a, b))
    return line_a == line_b


def _split_by_error(events: list[dict], success: dict, kind: str) -> list[dict]:
    """One chain per distinct error: a failure with a new error, after a change that stays, closes the one before."""
    failures = [e for e in events if e["outcome"] == "error"]
    edits = [e for e in events if e["outcome"] == "ok" and e["tool"] in EDIT_TOOLS]
    groups: list[list[dict]] = [[failures[0]]]
    for failure in failures[1:]:
        previous = groups[-1][-1]
        between = [e for e in events if e["outcome"] == "ok" and previous["id"] < e["id"] < failure["id"]]
        later = [e for e in edits if e["id"] > failure["id"]]
        moved_on = bool(invocation_change(previous["target"], failure["target"])) and \
            not invocation_change(failure["target"], success["target"])
        if not _same_error(failure, previous) and (
                _persisting(between, later) or moved_on):
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
            "kind": kind if n + 1 == len(groups) else "error_changed",
        })
    return chains


_ERROR_START = LazyRegex(r"^\W{0,4}(?:E\s+)?(?:(?:fatal )?error\b|[\w.:]*(?:Error|Exception)\b)")


def _split_one_output(chain: dict) -> list[dict]:
    """A failing run whose output holds several errors, each fixed by its own edit ("requires macos 10.15" by a
    platform floor in Package.swift, "No config file found … 'openapi-generator-config.yaml'" by that new file):
    one chain per error, each with its error line and its edit. Only when every edit is named by a different
    error line, by its file's name or by the words it changes."""
    edits = chain["changes"]
    if chain["kind"] != "same_check" or len(chain["failures"]) > 1 or chain["attempts"] or len(edits) < 2 or any(
            e["tool"] not in EDIT_TOOLS for e in edits):
        return [chain]
    # the errors the output holds: each from a line that names one (``error: …``, ``TypeError: …``) to the next,
    # so a traceback's lines before its error are one error's context, not errors of their own
    lines: list[str] = []
    for line in (chain["failure"].get("error_text") or "").splitlines():
        if _ERROR_START.match(line):
            lines.append(line.strip())
        elif lines and line.strip():
            lines[-1] += " " + line.strip(" -•*")
    lines = list(dict.fromkeys(lines))

    def named_by(edit: dict) -> str | None:
        names = {os.path.basename(f) for f in edit.get("files") or []}
        words = _tokens(_changed_text(edit)) - _STOP
        scores = [(3 * any(n in line for n in names) + len(words & _tokens(line)), -i) for i, line in enumerate(lines)]
        best = max(scores, default=(0, 0))
        return lines[-best[1]] if best[0] >= 1 else None

    named = {e["id"]: named_by(e) for e in edits}
    if None in named.values() or len({frozenset(_tokens(line)) for line in named.values()}) < 2:
        return [chain]
    files = {line: {f for e in edits if named[e["id"]] == line for f in e.get("files") or []} for line in named.values()}
    if sum(len(f) for f in files.values()) != len(set().union(*files.values())):
        return [chain]  # one file changed for two errors: one change
    parts = []
    for line in dict.fromkeys(named.values()):
        mine = [e for e in edits if named[e["id"]] == line]
        failure = dict(chain["failure"], error_text=line, _part=len(parts))
        parts.append(dict(chain, failure=failure, failures=[failure], changes=mine, all_changes=mine))
    return parts


# --- what the agent and the user said ------------------------------------------------------------

# where a sentence about two things divides: "A lacked X, and B needed Y"; "A; B"
_CLAUSE = LazyRegex(r",\s+(?:and|but|while|whereas)\s+|;\s+")

# a label that opens a list of things to do later ("**Fix**:", "Next steps:", "Recommendations")
# (a bare "Fix:" or "### Fix" heads an account of what was done as often as a plan: see _FIX_LABEL)
_PROPOSALS = LazyRegex(r"(?i)^\s*(?:[#>*-]+\s*)*\**\s*(?:(?:suggested|proposed|recommended|possible)\s+fix(?:es)?|"
                       r"(?:(?:suggested|proposed|recommended|possible)\s+)?(?:recommendations?|suggestions?|next steps?|"
                       r"to-?dos?|follow-?ups?|action items?|options?|improvements?|open questions?|future work))"
                       r"\s*\**\s*:?\s*\**\s*$")


# a bare fix label, and a step under it told, not reported ("1. Document QUEUE_URL in README.", not "- Pinned …")
_FIX_LABEL = LazyRegex(r"(?i)^\s*(?:[#>*-]+\s*)*\**\s*fix(?:es)?\s*\**\s*:?\s*\**\s*$")
_TOLD_STEP = LazyRegex(r"^\s*(?:[-*•]|\d+[.)])\s+(?:add|set|use|pin|move|run|document|update|remove|change|consider|"
                       r"replace|rename|bump|upgrade|downgrade|install|configure|enable|disable|make|ensure|create|"
                       r"delete|switch|revert|increase|raise|lower|wrap|call|pass|export|define|declare|register)\b",
                       re.I)


def _drop_proposals(text: str) -> str:
    """``text`` without the lists under a proposal label: what someone should do later is no account of the fix
    (under a bare "Fix:", only the steps it tells: "- Pinned `x`" there is what was done)."""
    if not any(_PROPOSALS.match(line) or _FIX_LABEL.match(line) for line in text.splitlines()):
        return text
    kept, skipping, told_only = [], False, False
    for line in text.splitlines():
        if _PROPOSALS.match(line) or _FIX_LABEL.match(line):
            skipping, told_only = True, not _PROPOSALS.match(line)
            continue
        if skipping and (not line.strip() and not told_only or line.lstrip().startswith("#")
                         or re.match(r"^\s{0,1}[-*]\s+\*\*[^*]+\*\*\s*:", line)):
            skipping = False
        if not skipping or told_only and line.strip() and not _TOLD_STEP.match(line):
            kept.append(line)
    return "\n".join(kept)


def _sentences(text: str) -> list[str]:
    # a sentence never ends inside a code span (`julia --project=. -e '…'`)
    spans: list[str] = []

    def hold(match: re.Match) -> str:
        spans.append(match.group(0))
        return f"\x00{len(spans) - 1}\x00"

    text = re.sub(r":[ \t]*\n(?:[ \t]*\n)?(?: {4}|\t)[ \t]*([^\n`]+?)[ \t]*(?=\n|$)", r": `\1`", text or "")
    text = re.sub(r":[ \t]*\n(?:[ \t]*\n)?```[\w-]*\n([^\n`]+)\n```", r": `\1`", text)
    held = re.sub(r"`[^`\n]+`", hold, _drop_proposals(text))
    parts = [re.sub(r"\x00(\d+)\x00", lambda m: spans[int(m.group(1))], part)
             for part in re.split(r"(?<=[.!?。！？])\s+|\n+|(?<=[。！？])", held)]
    out = []
    for part in parts:
        part = part.strip(" -*•\t")
        # markdown emphasis is layout, not words: "**e2e**: UsersModule never imported X" reads "e2e: UsersModule …"
        part = re.sub(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1", r"\2", part).replace("**", "")
        part = re.sub(r"(?i)^(?:note|nb|fyi|tip)(?: for (?:this|the) (?:repo|project|codebase))?:\s+", "", part)
        if _STATUS_MARK.match(part):  # "✅ `ruff check`, `mypy`": a checklist of what passed, no account of the fix
            continue
        part = re.sub(r"(?i)^(?:(?:two|three|four|a few|several) (?:separate |different |distinct )?"
                      r"(?:things|problems|issues|bugs|fixes|causes):\s*|(?:and|also|separately|then|so),?\s+)", "", part)
        if len(part) < 4 or _CHATTER.match(part) or _SUGGESTION.match(part):
            continue
        stripped = _FIRST_PERSON.sub("", part)
        if stripped != part:  # "I added X" reads "Added X"; a sentence that starts with an identifier keeps its case
            part = stripped[:1].upper() + stripped[1:]
        helpless = _DID_NOT_HELP.search(part)
        if helpless:  # "X made no difference, so I put Y back": the revert is the session's story, not the lesson
            part = part[:helpless.end()] + re.sub(r"(?i)^([^,;:]*?),?\s+so (?:I|we) .*$", r"\1.", part[helpless.end():])
        split = re.search(r"[:;]\s+|,\s+(?:because|since|as)\s+", part[helpless.end():]) if helpless else None
        if split:  # "X did not help: the cause was Y" is two statements, an attempt and a cause
            head = part[:helpless.end() + split.start()].rstrip(" :;,") + "."
            tail = part[helpless.end() + split.end():]
            out += [head, tail[:1].upper() + tail[1:] if re.match(r"[a-z]+\b(?![_.(])", tail) else tail]
            continue
        colon = part.find(": ")
        if colon > 0 and _INCIDENTAL.search(part[:colon]) and not _INCIDENTAL.search(part[colon + 2:]) \
                and len(part[colon + 2:].split()) >= 6:  # "The build error was unrelated to that: X lacked Y"
            out += [part[:colon] + ".", part[colon + 2:]]
            continue
        out.append(part)
    return out


def stated(message: str | None) -> dict:
    """Cause, fix, decision and did-not-help sentences from the final assistant message."""
    return _classified(_sentences(message or ""))


def split_shared(said: dict, chain_words: list[set[str]]) -> dict:
    """``said`` with each sentence that speaks of two of the problems ("A lacked X, and B needed Y") cut into its
    clauses, so that every lesson gets the words about its own problem."""
    sentences = []
    for sentence in said["all"]:
        if sum(1 for words in chain_words if _relevance(sentence, words)) >= 2:
            clauses = [c.strip(" ,;").rstrip(".") for c in _CLAUSE.split(sentence) if c.strip(" ,;.")]
            if len(clauses) > 1:
                sentences += [(c[:1].upper() + c[1:] if re.match(r"[a-z]+\b(?![_.(])", c) else c) + "."
                              for c in clauses]
                continue
        sentences.append(sentence)
    return dict(_classified(sentences), text=said.get("text", ""))


def _prose(sentence: str) -> str:
    """A sentence without its quoted code: a cue word inside `uv run uvicorn …` is not the agent's account."""
    return re.sub(r"`[^`]*`", " ", sentence)


def _classified(sentences: list[str]) -> dict:
    return {
        "cause": [s for s in sentences if _CAUSE.search(_prose(s)) and not _DID_NOT_HELP.search(s)],
        "fix": [s for s in sentences if _FIX.search(_prose(s)) and not _CAUSE.search(_prose(s))
                and not _DID_NOT_HELP.search(s)],
        "decision": [s for s in sentences if _DECISION.search(s)],
        "did_not_help": [s for s in sentences if _DID_NOT_HELP.search(s)],
        "all": sentences,
    }


def _tokens(text: str) -> set[str]:
    """The words of ``text`` that can tie a sentence to a problem (identifiers, paths, flags), lowercased."""
    words = (t.rstrip(".:-/").lower() for t in re.findall(r"[A-Za-z_][\w.@/*:-]{2,}", text or ""))
    return {w for w in words if len(w) >= 3} - _STOP


_STOP = {"the", "and", "for", "with", "that", "this", "was", "were", "not", "now", "fixed", "fix", "from", "into",
         "because", "which", "when", "then", "has", "had", "have", "are", "its", "it's", "there", "run", "runs",
         "passes", "pass", "passed", "test", "tests", "file", "files", "error", "failed", "fails", "first", "set",
         "using", "use", "used", "only", "also", "both", "all", "one", "two", "things", "things:", "cause", "so"}


def _relevance(sentence: str, chain_words: set[str]) -> int:
    return len(_tokens(sentence) & chain_words)


# --- building a candidate --------------------------------------------------------------------------

def _raw_error_line(failure: dict) -> str | None:
    """The error line as printed (the stored signature masks names and numbers: good for matching, bad to read)."""
    from .signatures import error_line

    text = re.sub(r"^\s*(?:Error: )?Exit code \d+\s*", "", failure.get("error_text") or failure.get("body") or "")
    line = error_line(re.sub(r"(?m)^[│┃|╷╵]\s?", "", text))  # terraform's boxed diagnostics
    if not line:
        lines = [l.strip() for l in text.splitlines() if re.search(r"\w", l) and not l.strip().startswith(("at ", "#", "|"))]
        line = lines[0] if lines else None
    if not line:
        return failure.get("error_signature")
    if line.rstrip().endswith(":"):  # rspec's "LoadError:" then its message on the next line
        after = text.split(line, 1)[-1].strip().splitlines()
        if after and not after[0].startswith(("#", "at ", "from ")):
            line = f"{line.rstrip()} {after[0].strip()}"
    # (without pytest's "E" or a journal's date, host and process: ``Dec 02 08:12:44 stg-app-1 celery[48211]:``)
    line = re.sub(r"^(?:E\s+|[A-Z][a-z]{2} +\d{1,2} \d\d:\d\d:\d\d \S+ [\w.@/-]+(?:\[\d+\])?:\s+)", "", line.strip())
    return one_line(line, 160)


def _rel(path: str, cwd: str | None) -> str:
    if cwd and path.startswith(cwd.rstrip("/") + "/"):
        return path[len(cwd.rstrip("/")) + 1:]
    return path


def _named_in(path: str, text: str) -> bool:
    base = os.path.basename(path)
    stem = os.path.splitext(base)[0]
    text = text or ""
    return base in text or path in text or (len(stem) >= 4 and re.search(rf"\b{re.escape(stem)}\b", text) is not None)


MAX_UNNAMED_FILES = 3

# a failure of the run's environment, not of a source line: its resources (memory, disk, a killed process) or a
# network that dropped, timed out or refused for a while (not "connection refused": that is a service not running)
_ENVIRONMENT_FAILURE = LazyRegex(
    r"(?im)^.*(?:out of memory|heap limit|\bOOM\b|Cannot allocate memory|\bENOMEM\b|No space left on device|"
    r"\bENOSPC\b|^Killed$|\bSIGKILL\b|exit code 137\b|\bECONNRESET\b|socket hang up|\bETIMEDOUT\b|\bEAI_AGAIN\b|"
    r"Temporary failure in name resolution|Could not resolve host|Connection reset by peer|TLS handshake timeout|"
    r"i/o timeout|502 Bad Gateway|503 Service Unavailable|504 Gateway Time-?out|429 Too Many Requests|"
    r"network is unreachable|spurious network error|socket error|"
    # a port another process holds: no source edit frees it
    r"Address already in use|\bEADDRINUSE\b|"
    # a download that timed out ("Operation timed out after 30000 milliseconds ... while requesting https://…"), not
    # a test's own ``httpx.ReadTimeout: The read operation timed out``
    r"timed out[^\n]*(?:while (?:requesting|downloading|fetching)|https?://)|"
    r"(?:unable|failed) to (?:automatically )?download).*$")


# a build or test tool's own configuration (vite.config.ts, .babelrc, jest.config.js)
_MANIFEST_PATH = LazyRegex(r"(?i)(?:^|/)(?:package\.json|pyproject\.toml|requirements[\w.-]*\.(?:txt|ya?ml|in)|"
                           r"constraints\.txt|setup\.(?:py|cfg)|Pipfile|Cargo\.toml|go\.mod|Gemfile|[\w-]+\.gemspec|"
                           r"mix\.exs|composer\.json|pom\.xml|build\.gradle(?:\.kts)?|[\w.-]+\.csproj|galaxy\.ya?ml|"
                           r"[\w.-]+\.opam|dune-project|[\w.-]+\.cabal|package\.ya?ml|stack\.ya?ml|deno\.jsonc?|"
                           r"Package\.swift|build\.zig(?:\.zon)?|environment\.ya?ml)$")
_LOCKFILE = LazyRegex(r"(?i)(?:^|/)[\w.-]*(?:\.lock|-lock\.ya?ml|-lock\.json|\.lockb)$")
_TOOL_CONFIG = LazyRegex(r"(?i)(?:^|/)(?:[\w-]+\.config\.[cm]?[jt]s|\.\w+rc(?:\.\w+)?)$")


def _changed_text(edit: dict) -> str:
    """The lines an edit removed or added, without the diff's markers."""
    return "\n".join(l[1:] for l in (edit.get("body") or "").splitlines()
                     if l[:1] in "+-" and not l.startswith(("+++", "---")))


def _touches_environment_error(edit: dict, lines: list[str]) -> bool:
    """Whether an edit changes something an environment failure's own line names (a host, a size, a path)."""
    changed = _changed_text(edit).lower()
    return any(len(t) >= 5 and re.search(rf"(?<![\w.-]){re.escape(t)}(?![\w-])", changed)
               for line in lines for t in _tokens(line))  # (whole words: "listen" is not in "listening")


def _comments_only(edit: dict) -> bool:
    """Whether an edit changes only comments (a doc comment, a commented line): it cannot fix a failing check."""
    for old, new in _edit_sides(edit):
        old_lines, new_lines = old.splitlines(), new.splitlines()
        changed = [l for l in old_lines if l not in new_lines] + [l for l in new_lines if l not in old_lines]
        changed = [l for l in changed if l.strip()]
        if not changed or not all(_COMMENT_LINE.match(l) for l in changed):
            return False
    return True


def _relevant_edits(chain: dict, cwd: str | None, context: str,
                    incidental: list[str] = ()) -> tuple[list[dict], list[str]]:
    """The edits of a chain that plausibly address its failure, and the paths set aside as unrelated.

    ``incidental`` holds the agent's sentences that call an edit incidental ("while I was there", "unrelated"):
    an edit whose file they name is not part of the fix.
    """
    error = " ".join((f.get("error_text") or "") + " " + (f.get("target") or "") for f in chain["failures"])
    edits = [c for c in chain["all_changes"] if c["tool"] in EDIT_TOOLS]
    environment = [[m.group(0) for m in _ENVIRONMENT_FAILURE.finditer(f.get("error_text") or "")]
                   for f in chain["failures"]]
    environment = [line for lines in environment for line in lines] if all(environment) else []
    kept, unrelated = [], []
    installing = command_job(chain["failure"]["target"]) == "install"
    # a docs build's own files are its code (``make -C docs html`` and ``docs/conf.py``)
    building_docs = bool(re.search(r"(?i)(?:^|[\s/=])(?:docs?|sphinx\S*|mkdocs|jsdoc|typedoc|rustdoc|javadoc|"
                                   r"dokka\S*|docusaurus|vitepress)(?:$|[\s/:])", chain["failure"]["target"]))
    for edit in edits:
        paths = [_rel(p, cwd) for p in edit.get("files") or [edit.get("target") or ""]]
        named = any(_named_in(p, error) for p in paths)
        if installing and not named and not any(_CONFIG_PATH.search(p) or _TOOL_CONFIG.search(p) or _LOCKFILE.search(p)
                                                for p in paths):
            unrelated.extend(paths)  # an install reads the manifests, never the source: ``src/server.ts`` is no fix
            continue
        if environment and not named and not any(_CONFIG_PATH.search(p) or _TOOL_CONFIG.search(p) for p in paths) \
                and not _touches_environment_error(edit, environment):
            unrelated.extend(paths)  # out of memory, a dropped network: only what the error names can fix it
            continue
        changed_names = {t for t in _tokens(_changed_text(edit)) if "_" in t or len(t) >= 8}
        changed_names |= set(re.findall(r"\b\d{3,}\b", _changed_text(edit)))  # "move the dev server to port 8081"
        changed_names |= set(re.findall(r"\d+(?:\.\d+)+", _changed_text(edit)))  # "bump engines.node to >=20.11"
        # (a qualified name by its parts: ``ansible.builtin.include_tasks`` is the "include_tasks" asked for)
        changed_names |= {part for name in changed_names for part in name.split(".") if "_" in part or len(part) >= 8}
        # (a comment in a file the error names by its name may be a directive: ``# typed: strict``)
        directive = any(os.path.basename(p) in (f.get("error_text") or "") for p in paths for f in chain["failures"])
        # (or by two of its words: "Also the split_data node has a leftover print, remove it" and ``-print("split
        # sizes", …)``)
        changed_words = {w for w in _plain_words(_changed_text(edit)) - _STOP if len(w) >= 4}
        # (a markdown file in a folder the error names is that folder's content, not docs:
        # ``.changeset/brave-pans.md`` for "no changesets were found")
        dir_named = any(re.search(rf"(?i)\b{re.escape(d.lstrip('.'))}s?\b", error)
                        for p in paths for d in p.split("/")[-2:-1] if len(d.lstrip(".")) >= 4)
        if all(_DOC_PATH.search(p) for p in paths) and not named and not dir_named and not building_docs \
                or _comments_only(edit) and not directive or \
                any(_named_in(p, sentence) or changed_names & (_tokens(sentence) | set(re.findall(
                    r"\b\d{3,}\b|\d+(?:\.\d+)+", sentence))) for p in paths for sentence in incidental) or \
                any(len(changed_words & _plain_words(sentence)) >= 2 for sentence in incidental):
            unrelated.extend(paths)
            continue
        kept.append(edit)
    # a code edit nobody named beside edits that were named is a bystander, not the fix (an edit undone since, a
    # reverted attempt at the named test, names nothing)
    undone = {path for path, hunks in net_changes(kept, cwd).items() if not hunks}
    named_kept = [e for e in kept if any((_named_in(_rel(p, cwd), error + " " + context)
                                          or _CONFIG_PATH.search(_rel(p, cwd))) and _rel(p, cwd) not in undone
                                         for p in e.get("files") or [])]
    if named_kept and len(named_kept) < len(kept):
        unrelated.extend(_rel(p, cwd) for e in kept if e not in named_kept for p in e.get("files") or [])
        kept = named_kept
    elif not named_kept and len({f for e in kept for f in e.get("files") or []}) > MAX_UNNAMED_FILES:
        # many files edited, none named by the error, the command or anyone's account: feature work, not a fix
        unrelated.extend(_rel(p, cwd) for e in kept for p in e.get("files") or [])
        kept = []
    return kept, sorted(set(unrelated))


def _test_subject(path: str) -> str:
    """What a test file tests, by name (``test/app/billing_test.exs`` → ``billing``)."""
    stem = os.path.splitext(os.path.basename(path))[0]
    return re.sub(r"(?i)^test_|(?:_test|_spec|\.test|\.spec|Tests?)$", "", stem).lower()


def _addresses_by_name(edit: dict, chain: dict, cwd: str | None, manifests_only: bool = False) -> bool:
    """Whether an edit plausibly addresses a chain's failure by what it touches: a file the error or the failing
    command names (its name, not a part of another one: ``build-script-main`` does not name ``main.rs``), a
    configuration file (``manifests_only``: a dependency manifest or lockfile), or the failing test's subject."""
    text = " ".join((f.get("error_text") or "") + " " + (f.get("target") or "") for f in chain["failures"])
    subjects = {_test_subject(w) for w in re.findall(r"[\w./-]+", text) if _TEST_PATH.search(w)} - {""}
    for path in (_rel(p, cwd) for p in edit.get("files") or [edit.get("target") or ""]):
        base, stem = os.path.basename(path), os.path.splitext(os.path.basename(path))[0]
        configuration = (_MANIFEST_PATH.search(path) or _LOCKFILE.search(path)) if manifests_only else \
            (_CONFIG_PATH.search(path) or _TOOL_CONFIG.search(path))
        if re.search(rf"(?<![\w.-]){re.escape(base)}(?![\w-])", text) or configuration \
                or (len(stem) >= 4 and re.search(rf"(?<![\w./-]){re.escape(stem)}(?![\w-])", text)) \
                or stem.lower() in subjects or _test_subject(path) in subjects:
            return True
    return False


_PAST = {"added": "add", "set": "set", "pinned": "pin", "changed": "change", "installed": "install",
         "replaced": "replace", "removed": "remove", "moved": "move", "switched": "switch", "used": "use",
         "upgraded": "upgrade", "downgraded": "downgrade", "bumped": "bump", "declared": "declare",
         "passed": "pass", "wrapped": "wrap", "initialised": "initialise", "initialized": "initialize",
         "adding": "add", "setting": "set", "pinning": "pin", "changing": "change", "installing": "install",
         "replacing": "replace", "removing": "remove", "moving": "move", "switching": "switch", "using": "use",
         "upgrading": "upgrade", "downgrading": "downgrade", "running": "run", "passing": "pass",
         "declaring": "declare", "bumping": "bump"}


def _problem_statement(sentence: str) -> bool:
    """"Running `terraform plan` inside `modules/vpc` fails with …": what goes wrong, no word of what was done."""
    prose = _prose(sentence)
    return bool(re.search(r"(?i)\b(?:fails|failed|errors out|breaks)\b", prose)) and not any(
        word in _PAST for word in re.findall(r"[a-z]+", prose.lower())
        if word not in ("passed", "used", "set") and not word.endswith("ing"))


def _stated_fix_clause(fixes: list[str], fix_words: set[str]) -> str | None:
    """The agent's own words for the fix ("Added `x = 1` under [http]"), in the imperative, when they name it."""
    for sentence in fixes:
        clause = re.split(r";\s+|\.\s*$", sentence)[0].strip()
        clause = re.sub(r"\s+(?:fixe[sd]|solve[sd]|resolve[sd]) (?:it|this|the \w+(?: \w+)?)$", "", clause)
        clause = re.sub(r"\s+(?:makes?|made|gets?|got|lets?) (?:the |it |them )?[\w -]{0,30}?(?:pass|work|succeed|"
                        r"green)\w*$", "", clause)  # "Running X first makes the sdk build pass"
        first, _, rest = clause.partition(" ")
        verb = _PAST.get(first.lower())
        if re.match(r"(?i)(?:it|them|this|that|one)\b", rest):
            continue  # "Added it before `add_subdirectory(tests)`": what "it" is, the change says, not the clause
        if verb and len(clause) <= 90 and ("`" in clause or _tokens(clause) & fix_words) \
                and not re.search(r"(?i)\bfail(?:s|ed)?\b|\berrors? (?:with|out)\b", _prose(clause)):
            return f"{verb} {rest}"
    return None


def _problem_words(chain: dict) -> set[str]:
    """The words of a chain's problem: its command and its error line."""
    failure = chain["failure"]
    return _tokens(command_key(failure["target"]) + " " + (_raw_error_line(failure) or ""))


def fix_words_of(chain: dict, cwd: str | None, edits: list[dict] | None = None) -> set[str]:
    """The words of a chain's fix (what its changes added, the files, the new invocation), to match sentences to it;
    ``edits``: only these of its edits are part of the fix."""
    parts = []
    for change in chain["all_changes"]:
        if change["tool"] in EDIT_TOOLS and (edits is None or change in edits):
            parts += [l[1:] for l in (change.get("body") or "").splitlines() if l.startswith("+")]
            parts += [os.path.basename(f) + " " + os.path.splitext(os.path.basename(f))[0]
                      for f in change.get("files") or []]
        elif change["tool"] not in EDIT_TOOLS:
            parts.append(change.get("target") or "")
    resolved = chain["resolved_by"]["target"]
    parts += invocation_change(chain["failures"][-1]["target"], resolved) + parse_command(resolved)["prep"]
    if chain["kind"] == "same_job":
        parts.append(resolved)
    return _tokens(" ".join(parts))


def candidate_from_chain(session: dict, chain: dict, said: dict, prompts: list[dict]) -> dict | None:
    """The lesson one resolved problem teaches, or None when it teaches nothing (with ``_skip`` set on the chain)."""
    cwd = session.get("cwd")
    failure, success, resolved_by = chain["failure"], chain["success"], chain["resolved_by"]
    last_failure = chain["failures"][-1]
    command = one_line(command_key(failure["target"]), 120)
    shown = _raw_error_line(failure)
    prompt_text = " ".join(p["text"] for p in prompts)
    incidental = [s for s in said["all"] if _INCIDENTAL.search(s)]
    account = " ".join(s for s in said["all"] if s not in incidental)
    # after the problem, the prompt's other requests ("Also fix the typo in …", "And please enable X")
    # (split as written: _sentences drops the "Also" that marks a request)
    requests = [s for p in prompts for i, s in enumerate(re.split(r"(?<=[.!?])\s+|;\s+|\n+|,\s+(?=also\b)", p["text"]))
                if (i and _ANOTHER_REQUEST.search(s)) or _WHILE_THERE.search(s)]
    edits, unrelated = _relevant_edits(chain, cwd, account + " " + prompt_text, incidental + requests)
    if chain["kind"] == "same_job" and edits:  # the way the job is done is the lesson; the edits were the task's
        unrelated = sorted(set(unrelated) | {_rel(p, cwd) for e in edits for p in e.get("files") or []})
        edits = []
    if incidental:  # "I also set colors=true; that's cosmetic and not related": no cause, no fix, no title
        said = {key: [s for s in value if s not in incidental] if isinstance(value, list) else value
                for key, value in said.items()}
    error_words = _tokens(" ".join((f.get("error_text") or "") + " " + (f.get("target") or "")
                                   for f in chain["failures"]))
    chance = [s for s in said["all"] if _FLAKY.search(s) and not _FLAKY_EXPLAINED.search(s)
              and (not chain.get("_rivals") or _relevance(s, error_words) > 0)]
    if chance and not invocation_change(chain["failures"][-1]["target"], resolved_by["target"]):
        chain["_skip"] = "flaky_failure"  # the agent says it passed by chance: what changed meanwhile is no fix
        return None
    # a non-edit step that plausibly addresses the failure (an install of what it names, a service start, a pull)
    # takes precedence over an edit to a file the failure does not name
    addressing = [c for c in chain["changes"] if _addresses(c, chain["failures"])]
    if addressing and edits:
        # beside an install of what was missing, a settings file is no fix unless the error names it
        installs = any(command_job(c.get("target") or "") == "install" for c in addressing)
        bystanders = [e for e in edits if not _addresses_by_name(e, chain, cwd, manifests_only=installs)]
        unrelated = sorted(set(unrelated) | {_rel(p, cwd) for e in bystanders for p in e.get("files") or []})
        edits = [e for e in edits if e not in bystanders]
    if edits and _named_invocation(last_failure, resolved_by):
        # the error said what to pass ("run again with the --allow-read flag") and the passing run passed it
        named = [e for e in edits if any(_CONFIG_PATH.search(_rel(p, cwd)) or _TOOL_CONFIG.search(_rel(p, cwd))
                                         for p in e.get("files") or [])]
        unrelated = sorted(set(unrelated) | {_rel(p, cwd) for e in edits if e not in named for p in e.get("files") or []})
        edits = named
    if any(_upstream_sync(c) for c in addressing) and not edits:
        chain["_skip"] = "upstream_change"  # it passed once other people's fix was pulled in: nothing to reuse
        return None
    final_ids = {c["id"] for c in chain["changes"]}
    net = net_changes(edits, cwd)
    fix_hunks = {path: [h for h in hunks if set(h["ids"]) & final_ids] for path, hunks in net.items()}
    fix_hunks = {path: hunks for path, hunks in fix_hunks.items() if hunks}
    commands = [c for c in chain["changes"] if (c["tool"] == "Bash" and not _upstream_sync(c)) or _is_mcp(c)]
    # "`swift package reset` + `swift package update` did not help": a step the agent says did not help is an attempt
    helpless_steps = [c for c in commands if c["tool"] == "Bash" and any(_quoted_in(c["target"], s) or
                      command_key(c["target"]) in s for s in said["did_not_help"])]
    commands = [c for c in commands if c not in helpless_steps]
    # putting back the package an attempt changed ("so I put sanic-testing back to 23.12.0") undoes the attempt: beside
    # another step it is no part of the fix
    tried_packages = {p for a in [*chain["attempts"], *helpless_steps] if a["tool"] == "Bash"
                      for p in _packages(a["target"])}
    undoing = [c for c in commands if c["tool"] == "Bash" and _packages(c["target"])
               and _packages(c["target"]) <= tried_packages]
    if undoing and len(undoing) < len(commands):
        commands = [c for c in commands if c not in undoing]
    invocation = invocation_change(last_failure["target"], resolved_by["target"])
    if fix_hunks and invocation:  # beside an edit, a flag nobody mentions (``--port 8788``) is how it was run, not a fix
        invocation = [part for part in invocation if not part.startswith("pass `")
                      or part.split("`")[1].split()[0].split("=")[0] in said.get("text", "") + " " + prompt_text]
    failed_check = parse_command(last_failure["target"])["check"]
    # ``go build ./... && go test ./...`` after ``go build ./...`` failed: the build is the check, not a step first
    prep = [p for p in parse_command(resolved_by["target"])["prep"] if parse_command(p)["check"] != failed_check]
    same_job = chain["kind"] == "same_job"
    for path, hunks in fix_hunks.items():
        if _is_weakening(path, hunks, " ".join(f.get("error_text") or "" for f in chain["failures"])) or (
                is_static_check(failure["target"]) and _silences(hunks)):
            chain["_skip"] = "weakened_test"  # (a linter or type checker told to look away is weakened the same way)
            return None
    if _DESELECTS.search(resolved_by["target"]) and not _DESELECTS.search(last_failure["target"]):
        chain["_skip"] = "weakened_test"  # it passed by leaving the failing tests out (--deselect, -k "not …")
        return None
    ran_before, ran_after = _tests_run(last_failure.get("error_text")), _tests_run(resolved_by.get("body"))
    if ran_before and ran_after and ran_after < ran_before and fix_hunks \
            and command_key(resolved_by["target"]) == command_key(last_failure["target"]):
        chain["_skip"] = "weakened_test"  # the same run ran fewer tests: the failing one was taken out of it
        return None
    if any(_TEST_PATH.search(path) for path in fix_hunks) and any(_SAID_WEAKENED.search(_prose(s)) for s in said["all"]):
        chain["_skip"] = "weakened_test"  # the agent says the test it changed checks less now
        return None
    format_failure = re.search(r"(?i)spotless\w*Check|ktlint\w*Check|would reformat|formatting (?:violations|issues)|"
                               r"Code style issues found|not formatted", failure.get("error_text") or "")
    if (is_static_check(failure["target"]) or format_failure) and (is_autofix(resolved_by["target"]) or
                                               any(is_autofix(c["target"]) for c in commands)):
        chain["_skip"] = "routine_plumbing"  # the linter repaired what it reported: nothing for a person to learn
        return None
    # a change to an excluded file (``.env.test``) is on record without its content: the fact of it is the step
    withheld = [e for e in edits if (e.get("meta") or {}).get("content_withheld") and e["id"] in final_ids]
    if not fix_hunks and not commands and not invocation and not prep and not same_job and not withheld:
        chain["_skip"] = "retry_without_change" if not chain["all_changes"] else "unrelated_change"
        return None
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
        before = "" if failure.get("logged") else f" before `{command}`"
        steps.append((c["id"], f"run `{one_line(step, 80)}` first", [f"Run `{one_line(step, 160)}`{before}."]))
    for path, hunks in fix_hunks.items():
        steps.append((min(h["ids"][-1] for h in hunks), f"{_short_diff(hunks[0])} in {path}",
                      [_diff_text(path, h) for h in hunks[:2]]))
    for e in withheld:
        path = _rel((e.get("files") or [e.get("target") or ""])[0], cwd)
        steps.append((e["id"], f"change {path}", [f"Changed `{path}` (its content is not stored: an excluded path)."]))
    last = resolved_by["id"]
    for step in prep if not (same_job or invocation) else []:  # else the passing line, shown whole, holds them
        steps.append((last, f"run `{one_line(step, 80)}` first", []))
    passing = one_line(shown_command(resolved_by["target"], cwd), 140) if resolved_by["outcome"] == "ok" or \
        chain["kind"] == "error_changed" else command
    if same_job:
        steps.append((last, f"use `{passing}` instead",
                      [f"Run `{passing}` (this project's way to do it), not `{command}`."]))
    elif invocation:  # the title says what changed ("set PYTHONPATH=src"); the change shows the whole line
        # what changed first, so a card cut to its budget still shows it: "Pass `-DCMAKE_TOOLCHAIN_FILE=…`: `cmake …`"
        changed_run = "; ".join(invocation)
        steps.append((last, changed_run, [f"{changed_run[:1].upper()}{changed_run[1:]}: `{passing}`."]))
    elif prep:
        steps.append((last, None, [f"$ {one_line(resolved_by['target'], 160)}"]))
    steps.sort(key=lambda step: step[0])
    fix_parts = [part for _, part, _ in steps if part]
    change_lines = [line for _, _, lines in steps for line in lines]
    # attempts that did not help: one evidence line each, never part of the change
    tried: list[str] = []
    for attempt in chain["attempts"]:
        if attempt not in edits:
            continue
        for path, hunks in net_changes([attempt], cwd).items():
            if hunks:
                tried.append(f"tried {_short_diff(hunks[0])} in {path}: still failed")
    for a in [*chain["attempts"], *helpless_steps]:
        if a["tool"] == "Bash":
            tried.append(f"tried `{one_line(command_key(a['target']), 80)}`: still failed")
    for f in chain["failures"][1:]:
        if command_key(f["target"]) != command_key(failure["target"]):
            tried.append(f"tried `{one_line(shown_command(f['target'], cwd), 100)}`: still failed")
    error_after = one_line(_raw_error_line(last_failure) or "", 70)
    tried = [f"{t} with {error_after}" if error_after and t.endswith("still failed") else t
             for t in dict.fromkeys(tried)]
    # what the agent and the user said about this problem
    fix_words = fix_words_of(chain, cwd, edits)
    problem_words = _tokens(" ".join([command, shown or ""]))
    rivals = chain.get("_rivals") or []

    def score(sentence: str) -> int:
        return 3 * _relevance(sentence, fix_words) + _relevance(sentence, problem_words)

    def mine(sentence: str) -> bool:
        own = _relevance(sentence, fix_words)
        return score(sentence) > 0 and not any(_relevance(sentence, other) > own for other in rivals)

    # a sentence about an edit that is not part of the fix ("Renamed MB to MEGABYTE.") is no account of it
    aside = [e for e in chain["all_changes"] if e["tool"] in EDIT_TOOLS and e not in edits]
    aside_words = _tokens(" ".join([_changed_text(e) for e in aside] +
                                   [os.path.basename(f) for e in aside for f in e.get("files") or []]))
    known = fix_words | problem_words
    aside_words -= known | {part for w in known for part in re.split(r"[/.@:_-]", w) if len(part) >= 3}
    if aside_words:
        said = {key: [s for s in value if not _relevance(s, aside_words)
                      or _relevance(s, aside_words) < _relevance(s, fix_words)]
                if isinstance(value, list) else value for key, value in said.items()}
    causes = [s for s in said["cause"] if mine(s)]
    # a sentence about what the task wrote before the failure ("Added `tests/test-honeypot.php`; it passes.") is no
    # account of the fix
    task_words = _tokens(" ".join(f"{os.path.basename(f)} {_rel(f, cwd)}" for f in chain.get("_earlier_files") or ())
                         + " " + chain.get("_earlier_text", ""))  # (and what it wrote: "`req.parameters.get`")
    own_fix_words = fix_words - problem_words  # (the test file a check runs is the check's, not the fix's)
    task_words -= own_fix_words
    said_fixes = [s for s in said["fix"] if not _relevance(s, task_words) > _relevance(s, own_fix_words)
                  and not _problem_statement(s)]
    fixes = [s for s in said_fixes if mine(s) and s not in causes]
    if not causes and not fixes and not rivals and len(said["cause"] + said["fix"]) <= 2:
        causes, fixes = said["cause"], said_fixes  # one problem, one account: it is about this one
    if causes and not fixes and resolved_by is not failure:
        # the sentence that quotes the passing run is the account of the fix, cue word or not
        passing = parse_command(resolved_by["target"])["argv"]
        fixes = [s for s in said["all"] if s not in causes and s not in said["did_not_help"]
                 and _relevance(s, fix_words) >= 2 and _names_run(passing, s)][:1]
    if not causes and not fixes:  # no cue words: the agent's sentence about this problem still says it best
        causes = sorted((s for s in said["all"] if mine(s) and s not in said["did_not_help"]
                         and not _INCIDENTAL.search(s) and not _FLAKY.search(s)), key=lambda s: -score(s))[:1]
    causes.sort(key=lambda s: -score(s))
    fixes.sort(key=lambda s: -score(s))
    if fixes and not causes:  # "- The producer sends plain JSON, but the converter expected X. Set `…` in …": the
        # cause the agent gave just before its account of this fix, about no other problem
        at = said["all"].index(fixes[0]) if fixes[0] in said["all"] else 0
        before = said["all"][at - 1] if at else ""
        if before in said["cause"] and not any(_relevance(before, other) for other in rivals):
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
        fixes = [t for t in told[:1] if t not in causes] + fixes
    words = fix_words | problem_words
    attempt_words = _tokens(" ".join(tried)) | set(re.findall(r"\d+(?:\.\d+)+", " ".join(tried)))
    helpless = [s for s in said["did_not_help"]
                if _relevance(s, words | attempt_words) or set(re.findall(r"\d+(?:\.\d+)+", s)) & attempt_words]
    # the user's suspicion, when it is about this problem (the only one, or one it names)
    user_causes = [s for p in prompts for s in _sentences(p["text"])
                   if _USER_CAUSE.search(s) and (not rivals or mine(s))]
    if not causes and user_causes:  # the agent only said what it did: the user's report says why
        causes = [_users_diagnosis(user_causes[0])]
    summary_parts = (causes[:1] + fixes[:1]) if causes else fixes[:2]
    if helpless and summary_parts:  # what did not help is part of the lesson: the next session skips it
        summary_parts.append(helpless[0])
    summary = " ".join(p if re.search(r"[.!?。！？)`'\"]$", p) else p + "." for p in summary_parts) if summary_parts else (
        f"`{command}` failed" + (f" with {shown}" if shown else "") + "; " + "; ".join(fix_parts[:2]) + ".")
    readable = re.sub(r"^FAILED \S+ - |\s*\((?:/|[A-Z]:\\)[^)]*\)|^Caused by:\s+|^e:\s+(?:file://)?\S+:\d+:\d+\s+|^\S+:\d+:\d+: [CWEF]: ", "",
                      shown or "")
    problem = f"`{command}` fails" + (f" with {one_line(readable, 200)}" if readable else "")
    fix_title = _fix_title(fix_parts)
    said_fix = _stated_fix_clause(fixes, fix_words)
    if same_job and said_fix and not _names_run(parse_command(resolved_by["target"])["argv"], said_fix):
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
    for sentence in [s for p in prompts for s in _sentences(p["text"])
                     if _DID_NOT_HELP.search(s) and (not rivals or mine(s))][:1]:
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
    if chain["kind"] == "error_changed":
        not_performed.append(f"`{command}` then failed on another error, fixed separately before it passed.")
    if unrelated:
        not_performed.append(f"Not part of the fix: {', '.join(unrelated[:3])} (also edited in the session).")
    family = command_family(failure["target"])
    trigger = f"{'Calling' if _is_mcp(failure) else 'Running'} `{shown_command(failure['target'], cwd)}` in this project" + (
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


def _fix_title(fix_parts: list[str]) -> str:
    """The fix half of a title from the first two steps; a long step titled by what it adds ("add `db.execSQL(…)`",
    its file named by the change line), and only when that is long too by its file ("change app/…/Migrations.kt")."""
    return "; ".join(p if len(p) <= 90 else next(
        (short for short in [re.sub(r" in \S+$", "", p)] if len(short) <= 90),
        re.sub(r"^.*? in (\S+)$", r"change \1", p)) for p in fix_parts[:2])


def candidate_from_decision(session: dict, said: dict, observations: list[dict], prompts: list[dict]) -> dict | None:
    edits = [o for o in observations if _is_change(o)]
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
                      r"compiles|starts|runs)|(?:didn't|did not|doesn't|does not|won't|will not) (?:run|start|boot|"
                      r"build|compile|load|work)|stopped working|isn't working|is not working)\b")


# what a quoted error message says, when it names no "Error": ``ER_INVALID_DEFAULT: Invalid default value for
# 'published_at'``, ``ENOENT: no such file``, ``permission denied``
_ERROR_MESSAGE = LazyRegex(r"^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*:\s|(?i:\b(?:invalid|cannot|can't|could not|unknown|"
                           r"denied|refused|not (?:found|allowed|permitted|supported|valid)|no such)\b)")


def _plain_words(text: str) -> set[str]:
    """The words of ``text`` split at every non-alphanumeric (``eas-cli`` → ``eas``, ``cli``), lowercased."""
    return {w for w in re.split(r"[^a-z0-9]+", text.lower()) if len(w) >= 3}


def _added_lines(edit: dict) -> list[str]:
    return [line for old, new in _edit_sides(edit) for line in new.splitlines() if line not in old.splitlines()]


def _users_diagnosis(sentence: str) -> str:
    """"The user's diagnosis: Firefox wants background.scripts …" from "I think Firefox wants …"."""
    start = re.search(r"(?i)\b(?:i|we)\s+(?:think|suspect|guess|believe)\b", sentence)  # (after a closing quote)
    said = re.sub(r"(?i)^(?:(?:i|we)\s+)?(?:think|suspect|guess|believe)\s+(?:that\s+)?", "",
                  sentence[start.start():] if start else sentence)
    return f"The user's diagnosis: {one_line(said[:1].upper() + said[1:], 200)}"


def candidate_from_report(session: dict, said: dict, observations: list[dict], prompts: list[dict]) -> dict | None:
    """A failure the user reports with its cause, that never ran in the session ("the preview build fails because
    eas.json still pins node 16"): the edit of what the report names, verified by a later passing run of what it
    says fails (two or more of the command's words in the report: ``eas-cli build --platform ios --profile
    preview``)."""
    if not prompts or any(o["outcome"] == "error" and _is_check(o) for o in observations):
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
    runs = [span for span in spans if span not in errors and len(span.split()) <= 6]
    if not reports or not (causes or errors):
        return None
    # the edits of what the report names: a file by name, or its added lines by two of the report's own words
    # (``"scripts": ["background.js"]`` for "background.service_worker is disabled. Add background.scripts.")
    words = _plain_words(text) - _STOP
    edits = [o for o in observations if o["tool"] in EDIT_TOOLS and _is_change(o)]
    named = [e for e in edits if any(_named_in(_rel(f, cwd), text) for f in e.get("files") or [])
             or len(_plain_words(" ".join(_added_lines(e))) & words) >= 2
             or any(len(_plain_words(os.path.basename(f)) & words) >= 2 for f in e.get("files") or [])]
    if not named:
        return None
    last_edit = max(e["id"] for e in named)
    report_words = _plain_words(" ".join(reports))
    later = [(o, _plain_words(" ".join(parse_command(o["target"])["argv"])) & report_words) for o in observations
             if o["id"] > last_edit and o["outcome"] == "ok" and _is_check(o) and not _MUTATING.search(o["target"])]
    checks = [o for o, shared in later if len(shared) >= 2]
    # a run that shares one telling word with the report ("CI's migration job fails" and ``mikro-orm
    # migration:check``) checked the same thing another way: stored, but not as verified
    nearby = [o for o, shared in later if shared - _STOP and max(map(len, shared - _STOP)) >= 5]
    if not (checks or nearby):
        return None
    # the run the user says fails, when the report quotes it (`web-ext run`), or the first that does its job
    quoted = [c for c in checks if _names_run(parse_command(c["target"])["argv"], " ".join(f"`{r}`" for r in runs))]
    check = (quoted or checks or nearby)[0]
    named_runs = f" ({one_line(', '.join(runs), 100)})" if runs else ""
    unchecked = [] if quoted or (checks and not runs) else [
        f"The reported failing run{named_runs} was not rerun after the change; "
        f"`{one_line(shown_command(check['target'], cwd), 100)}` passed."]
    net = net_changes(named, cwd)
    for path, hunks in net.items():
        if _is_weakening(path, hunks):
            return None  # the reported test made to pass by weakening it: never a fix
    hunks = {path: h for path, h in net.items() if h}
    if not hunks:
        return None
    # (its first clause: "CI's migration job fails on MySQL 8 with `…`", not the "— it runs with strict …" after it)
    report = one_line(re.split(r"\s[—–]\s|;\s", reports[0])[0].rstrip("."), 200)
    diagnosis = _users_diagnosis(next((s for s in causes if s != reports[0]), causes[0])) if causes else \
        f"The reported error: {one_line(errors[0], 200)}"
    fixes = [s for s in said.get("fix") or [] if s not in causes]
    command = one_line(shown_command(check["target"], cwd), 140)
    fix_title = _fix_title([f"{_short_diff(h[0])} in {path}" for path, h in hunks.items()])
    passed_line = _raw_error_line(dict(check, error_text=check.get("body") or "")) or ""
    return {
        "title": lesson_title(report, fix_title),
        "summary": " ".join([diagnosis if diagnosis.endswith((".", "!", "?")) else diagnosis + "."] + fixes[:1]),
        "kind": "fix",
        "trigger": f"Reported by the user: {report}",
        "evidence": [{"quote": f"then passed: {one_line(passed_line, 160)}" if passed_line else f"`{command}` passed",
                      "source": f"observation {check['id']}", "observation_id": check["id"]}],
        "change": "\n".join(_diff_text(path, h) for path, hs in hunks.items() for h in hs[:2]),
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
                              r"^\s*\[(?:error|ERROR)\]\s+([\w./-]+\.(?:scala|java|kt|groovy)):\[?\d+")


def _compile_error_in(failure: dict, edited: set[str]) -> bool:
    """Whether the failure is a compiler's error in a file this session had already edited: its own new code."""
    text = failure.get("error_text") or ""
    named = {m.group(1) or m.group(2) or m.group(3) for m in _COMPILE_ERROR_AT.finditer(text)}
    def same_file(f: str, n: str) -> bool:  # the same file named from another root: its last parts agree
        fp, np_ = f.split("/"), n.lstrip("./").split("/")
        depth = min(len(np_), 3)
        return fp[-depth:] == np_[-depth:]

    return bool(named) and all(any(same_file(f, n) for f in edited) for n in named)


def _passed_before(failure: dict, observations: list[dict]) -> bool:
    """Whether the failing check had passed earlier in this session: what broke it since is the session's own work
    (a test green after the feature, red after the agent tidied an import, green again once it put it back)."""
    family = command_family(failure["target"])
    return any(o["id"] < failure["id"] and o["outcome"] == "ok" and _is_check(o)
               and command_family(o.get("target") or "") == family and _same_target(failure["target"], o["target"])
               for o in observations)


# "This repo requires `# typed: strict` on every file under app/": a rule of the project, stated as one
_CONVENTION = LazyRegex(r"(?i)\b(?:this|the|our) (?:(?:mono)?repo(?:sitory)?|project|codebase|team|workspace)(?:'s \w+)? "
                        r"(?:requires?|needs|expects|enforces|wants|insists on|uses)\b|"
                        r"\bin this (?:(?:mono)?repo(?:sitory)?|project|codebase|workspace)\b")


def _convention_stated(chain: dict, said: dict, cwd: str | None) -> bool:
    """Whether the agent states the fix of a failure in its own new code as a rule of the project: then the
    session's clean-up taught something a next session needs ("every file under app/ must be `# typed: strict`")."""
    words = fix_words_of(chain, cwd)
    rules = [re.split(r",\s*(?:so|which|and|but)\b|;\s|\s[—–]\s", s)[0] for s in said["all"] if _CONVENTION.search(s)]
    return any(_CONVENTION.search(rule) and _relevance(rule, words) for rule in rules)  # the rule's own words


def _give_inner_changes_away(chains: list[dict]) -> None:
    """A change made for another problem that failed and was fixed while this one was still open (``expo-doctor``
    flagged a version, pinned, passed; then the EAS build passed) belongs to that problem, not to both."""
    for outer in chains:
        inner_ids = {c["id"] for inner in chains if inner is not outer
                     and outer["failure"]["id"] < inner["failure"]["id"] and inner["success"]["id"] <= outer["success"]["id"]
                     and inner["kind"] != "error_changed" and outer["kind"] != "error_changed"
                     for c in [*inner["changes"], *inner["attempts"], inner["success"]]}
        # (an edit to a file the outer problem's own changes touch stays: it may correct one of them, and the net
        # change must see it: ``fmt/10.2.1`` then ``fmt/10.1.1`` in conanfile.txt)
        own_files = {f for c in outer["all_changes"] if c["id"] not in inner_ids for f in c.get("files") or []}
        inner_ids = {i for i in inner_ids if not any(set(c.get("files") or []) & own_files
                                                    for c in outer["all_changes"] if c["id"] == i)}
        if inner_ids:
            for key in ("changes", "attempts", "all_changes"):
                outer[key] = [c for c in outer[key] if c["id"] not in inner_ids]


def session_candidates(store: Store, session_id: str, last_message: str | None,
                       details: dict | None = None) -> tuple[list[dict], list[str]]:
    """The lessons a session teaches (deterministic), and reason codes when it teaches none.

    ``details``, when given, is filled with the failures each reason code is about (for the receipt).
    """
    session = store.get_session(session_id)
    if session is None:
        return [], ["unknown_session"]
    observations = [_mcp_outcome(_logged_failure(_through_pipe(o))) for o in store.session_observations(session_id)]
    prompts = store.session_prompts(session_id)
    said = stated(last_message)
    said["text"] = last_message or ""
    chains, notes = find_chains(observations, last_message or "", details)
    _give_inner_changes_away(chains)
    candidates = []
    cwd = session.get("cwd")
    for chain in chains:
        chain["_rivals"] = [fix_words_of(other, cwd) for other in chains if other is not chain]
    if len(chains) > 1:
        said = split_shared(said, [fix_words_of(c, cwd) | _problem_words(c) for c in chains])
    for chain in chains:
        earlier = [o for o in observations if o["id"] < chain["failure"]["id"] and o["tool"] in EDIT_TOOLS]
        earlier_edits = {f for o in earlier for f in o.get("files") or []}
        changed = {f for c in chain["all_changes"] for f in c.get("files") or []}
        chain["_earlier_files"] = earlier_edits - changed
        chain["_earlier_text"] = " ".join(_changed_text(o) for o in earlier
                                          if not set(o.get("files") or []) & changed)
        # (the error text, not only its signature: "syntax error" may sit below the line the signature keeps)
        own_mess = _SELF_INFLICTED.search(chain["failure"].get("error_text") or chain["failure"].get("error_signature")
                                          or "") \
            or is_static_check(chain["failure"]["target"]) \
            or _compile_error_in(chain["failure"], earlier_edits) \
            or _passed_before(chain["failure"], observations)
        if own_mess and changed and changed <= earlier_edits and not _convention_stated(chain, said, cwd):
            # a typo, or a linter's or type checker's complaint, in a file this session had just written and then
            # corrected in place: the session cleaning up its own work, nothing to reuse
            notes.append("self_inflicted")
            _detail(details, "self_inflicted", chain["failure"])
            continue
        candidate = candidate_from_chain(session, chain, said, prompts)
        if candidate is None:
            notes.append(chain.get("_skip") or "no_lesson_stated")
            _detail(details, chain.get("_skip") or "no_lesson_stated", chain["failure"])
            continue
        candidates.append(candidate)
    # a "decision" made while a failure stayed unresolved is an attempt at it, not a choice a reader can reuse
    if not candidates and "weakened_test" not in notes and "unresolved_failure" not in notes:
        # (a failure the user reported, only when none ran: one that ran and taught nothing says why in ``notes``)
        found = None if notes else candidate_from_report(session, said, observations, prompts)
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
    "flaky_failure": "the agent called the failure flaky or transient (it passed on a rerun): what changed in "
                     "between is not its fix",
    "instruction_injection": "the final message contains text aimed at steering future agents "
                             "(\"ignore previous instructions\"…): nothing from this session is stored",
}
