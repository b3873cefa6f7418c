"""A test made to pass by weakening it: skipped, deselected, loosened, renamed or deleted, or a check silenced.

Such a pass is not a fix, so it gives no lesson, only a reason code.
"""
from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Iterator

from .commands import _TEST_PATH, _segments, _words
from .edits import _CODE_FILE, _COMMENT_LINE
from .quality import LazyRegex
from .text import common_ends

_SKIP_ADDED = LazyRegex(r"(?x)@pytest\.mark\.(?:skip|xfail)|pytest\.(?:skip|xfail)\(|@unittest\.skip|@(?:module)?tag\s+:skip|"
                        # (and Android's ``@SdkSuppress(maxSdkVersion = 33)``, not run on the API 34 device it failed)
                        r"@(?:Disabled|Ignore|SdkSuppress)\b|\b(?:it|test|describe)\.(?:skip|todo)\(|"
                        r"\bx(?:it|test|describe|context|specify)\s*[(\"']|"
                        r"\bt\.Skip\(|\#\[ignore\]|\bskip\s*[(\"']|\bpending\b|markTestSkipped|"
                        # a failure declared expected: ``XCTExpectFailure(…)``, ``XCTSkip``, jest's ``it.failing``,
                        # vitest's ``test.fails``, ``@unittest.expectedFailure``, ``[Fact(Skip = …)]``, ``[Ignore]``
                        r"\bXCTExpectFailure\b|\bXCTSkip\b|\b(?:it|test)\.(?:failing|fails)\b|expectedFailure\b|"
                        # (Playwright's ``test.fail(true, …)`` and ``test.fixme()``, inside the test or around it)
                        r"\btest\.(?:fail|fixme)\(|"
                        r"\bSkip\s*=\s*\"|\[Ignore(?:\(|\])|"
                        # (GoogleTest's ``DISABLED_`` prefix: ``INSTANTIATE_TEST_SUITE_P(DISABLED_Fractional, …)``, and a
                        # death test made to expect its abort in debug builds only, ``EXPECT_DEBUG_DEATH``)
                        r"\bDISABLED_\w|\b(?:EXPECT|ASSERT)_DEBUG_DEATH\b|"
                        # (an ArchUnit rule's violations frozen as a baseline: ``FreezingArchRule.freeze(noClasses()…``;
                        # Spring Modulith's model told to leave classes out: ``ApplicationModules.of(ShopApplication.class,
                        # JavaClass.Predicates.resideInAPackage("…inventory.internal.."))``)
                        r"\bFreezingArchRule\.freeze\(|\bApplicationModules\.of\(\s*\w+\.class\s*,|"
                        # (Pest's arch expectation told to look past a class: ``->ignoring('App\Http\…Controller')``; a
                        # Maestro step made optional, so its failure is no failure: ``optional: true``)
                        r"->ignoring\(|^\s*optional:\s*true\b|"
                        # (a twister scenario made to build only, never run: ``build_only: true`` in testcase.yaml)
                        r"^\s*build_only:\s*true\b|"
                        # (Julia's assertion marked broken, ``@test_broken length(downsample(x, 3)) == 34``, or
                        # skipped; a blocTest told to pass over the states it emits first, ``skip: 1,``)
                        r"@test_(?:broken|skip)\b|^\s*skip:\s*[1-9]\d*,?\s*$|"
                        # (a semgrep rule test's line marked a known miss: ``# ruleid:`` made ``# todoruleid:``)
                        r"\btodo(?:ruleid|ok):|"
                        # (a Pester test skipped, or tagged into a group the default run leaves out: ``It 'excludes
                        # disabled accounts' -Tag 'Integration' {``)
                        r"^\s*It\s+(?:'[^']*'|\"[^\"]*\")\s+(?:-\w+\s+\S+\s+)*-(?:Tag|Skip)\b|"
                        # the failing inputs discarded, or the test skipped when they come: Hypothesis's ``assume(…)``,
                        # proptest's ``prop_assume!``, fast-check's ``fc.pre(…)``, JUnit's ``assumeTrue(…)``, NUnit's
                        # ``Assume.That(…)`` and ``Assert.Inconclusive(…)``/``Assert.Ignore(…)``, xUnit's ``Skip.If(…)``
                        r"\bassume(?:True|False|That)?\s*\(|\bprop_assume!|\bfc\.pre\(|\bAssume\.That\s*\(|"
                        r"\bAssert\.(?:Inconclusive|Ignore)\s*\(|\bSkip\.If(?:Not)?\s*\(|"
                        # (Rust's ``#[should_panic(expected = "missing field")]`` put on a test that failed; a SmartPy
                        # scenario's call told its failure is expected, ``_valid=False, _exception="…"``)
                        r"\#\[should_panic\b|\b_valid\s*=\s*False\b|"
                        # a build constraint that leaves the test out of the failing build (``//go:build !race``)
                        r"//go:build\s+!|//\s*\+build\s+!|\#\[cfg\(not\(")
# code run off the test's own process or thread, unjoined: Elixir's ``spawn(fn ->``, a thread, a goroutine, a timer;
# or in a call that keeps its failure
_DETACHED = LazyRegex(r"\bspawn\s*\(\s*fn\b|\bTask\.start\(|\bthreading\.Thread\(|\bThread\(\s*target=|"
                      r"\bnew Thread\(|\bgo func\s*\(|\bset(?:Timeout|Immediate)\(|\bprocess\.nextTick\(|\bThread\.new\b|"
                      r"\b(?:thread|tokio)::spawn\(|\bGlobalScope\.launch\b|\bDispatchQueue\.\w+(?:\(\))?\.async\b|"
                      # (or into a protected call that keeps its failure: Lua's ``local ok = pcall(function() …
                      # end)``, Python's ``with contextlib.suppress(AssertionError):``)
                      r"\bx?pcall\s*\(\s*function\b|\bsuppress\(\s*AssertionError\b")
# a property test's generator (ScalaCheck's ``Gen.choose``, Hypothesis's ``st.integers``, fast-check's ``fc.integer``,
# proptest's ``any::<i8>()``), and the value a property test was falsified by
# (and PropEr's ``?FORALL({Id, Ttl}, {integer(), non_neg_integer()}, …)``)
# (and test.check's ``gen/large-integer``)
# (and Hedgehog's, its argument after a space: ``Gen.integral (Range.linear 0 1000000)``)
_GENERATOR = LazyRegex(r"\b(?:Gen|Arbitrary|Arb|st|strategies|fc)\.\w+\(|\bGen\.\w+\s+\(|\bany::<|\bprop::\w+|"
                       r"\bFuzz\.\w+|\?FORALL\b|\bQCheck\.\(?[a-z]\w*|"
                       r"\bgen/[a-z][\w*-]*")
# (elm-test's ``Given 0`` above the failed expectation; PropEr's shrunk value under ``Shrinking ..(2 time(s))``)
# (indented too, as elm-test prints it under the failing test's name)
# (and QuickCheck's under hspec, on the line after its verdict: "Falsified (after 6 tests and 4 shrinks):" then
# ``[""]``)
# (QuickCheck's "Falsifiable (after 6 tests and 3 shrinks):" too)
_FALSIFIED_LINE = LazyRegex(r"Falsifi(?:ed|able) \([^)]*\):?[ \t]*\n[ \t]*(\S.*)")
# (and the value under hspec's "(after 1 test)", with or without a verdict before it, an exception's too: ``[]``)
_AFTER_TESTS = LazyRegex(r"\(after \d+ tests?[^)]*\):?[ \t]*\n[ \t]*(\S.*)")
# (and kotest's ``Arg 0: -1 (shrunk from -482910)``)
# (and Hedgehog's, under the line that drew it: ``┃   │ -5``)
_FALSIFIED_BY = LazyRegex(r"(?m)^(?:.*?(?:\bARG_\d+(?:_ORIG)?:|Falsifying example:|Counterexample:|minimal failing "
                          r"input:)|[ \t]*Given\s|Shrinking \.*\(\d+ time\(s\)\)\n|[ \t]*Arg \d+:|"
                          r"[ \t]*┃[ \t]+│[ \t])(.*)$")


# a JVM integer type's bounds, as a generator may name them (``Gen.choose(0, Int.MaxValue)``)
_TYPE_BOUNDS = {"Byte": (-128, 127), "Short": (-32768, 32767), "Int": (-2147483648, 2147483647),
                "Long": (-9223372036854775808, 9223372036854775807)}
_HUGE = "9" * 40  # (a bound past any type's: Haskell's ``maxBound``)
_TYPE_BOUND = LazyRegex(r"\b(Byte|Short|Int|Long)\.(MinValue|MaxValue)\b")
# a character past ASCII in a counterexample, as printed or escaped by its code (Haskell's ``"\1234"``)
_PAST_ASCII = r"\\(?:12[89]|1[3-9]\d|[2-9]\d\d|\d{4,})|[^\x00-\x7f]"


def _narrowed_to_pass(removed: list[str], added: list[str], failure_text: str) -> bool:
    """Whether a property test's generator lost the negative values it had, after a negative value falsified it
    (``Gen.choose(Byte.MinValue, Byte.MaxValue)`` → ``Gen.choose(0.toByte, Byte.MaxValue)`` after ``ARG_0:
    List("-128")``): the input that broke the code is no longer drawn."""
    # (elm-test's fuzzers exposed unqualified, read as Fuzz's own: ``fuzz int`` made ``fuzz (intRange 0 100000)``)
    removed, added = ([re.sub(r"\b(fuzz\d?\s+\(?)(?=(?:int|intRange|float|floatRange|string|list)\b)", r"\1Fuzz.", l)
                       for l in side] for side in (removed, added))
    falsified = " ".join(m.group(1) for m in _FALSIFIED_BY.finditer(failure_text))
    # (and ScalaTest's, over lines of their own: ``Occurred when passed generated values (⏎ cents = -10, ⏎ parts = 3
    # ⏎ )``)
    falsified += " ".join(m.group(1) for m in re.finditer(r"Occurred when passed generated values \(([^)]*)\)",
                                                          failure_text))
    # (and test.check's shrunk value: ``:smallest [-1]``)
    falsified += " " + " ".join(re.findall(r":smallest \[([^\]]*)\]", failure_text))
    # (and QCheck's, under its verdict after a blank line: "Test varint roundtrip failed (14 shrink steps):" then
    # ``-1``)
    falsified += " " + " ".join(re.findall(r"Test .+ failed \(\d+ shrink steps?\):[ \t]*\n\s*?\n?[ \t]*(\S.*)",
                                           failure_text))
    # (and FsCheck's under Expecto, its arguments on the line under "Shrunk 14 times to:", ``46341 46341``)
    falsified += " " + " ".join(re.findall(r"\bShrunk \d+ times? to:[ \t]*\n[ \t]*(\S.*)", failure_text))
    # (or its range's bound moved past the value that falsified it: ``Fuzz.intRange 0 50`` → ``Fuzz.intRange 1 50``
    # after "Given 0")
    # (a literal's type suffix too: Scala's ``1000000000L``)
    # (and a range's, its digits grouped: kotest's ``Arb.long(0L..31_536_000L)``)
    number = re.compile(r"(?:(?<![\w.])|(?<=\.\.))(-?\d[\d_]*(?:\.\d+)?)[LlFfDd]?(?![\w]|\.(?!\.))")
    # (and QuickCheck's, on the line under its verdict: "Falsified (after 7 tests and 3 shrinks):" then ``[0]``)
    under_verdict = " ".join(_FALSIFIED_LINE.findall(failure_text))
    shown = falsified + " " + under_verdict
    found = [float(v.replace("_", "")) for v in number.findall(shown)]
    # (each generator's own, of a line of several: ``forAll(Gen.choose(0, Int.MaxValue), Gen.choose(1, 12))``,
    # ``fuzz2 (Fuzz.intRange 0 100000) (Fuzz.intRange 0 20)``; a type's bound by its value: ``Int.MaxValue`` made
    # ``1000000`` after ``ARG_0: 2147483647``; ScalaCheck's ``Arbitrary.arbitrary[Long]`` is the type's whole range)
    # (QuickCheck's ``choose (1, 255)`` too)
    drawn = re.compile(r"(?=\b(?:Gen|Arbitrary|Arb|st|strategies|fc)\.\w+\(|\bFuzz\.\w+|\b(?<!\.)arbitrary\[|"
                       r"\bArbitrary\.arbitrary\[|\bchoose\s*\()")
    pieces = [[piece.strip() for line in side for piece in drawn.split(line)
               if _GENERATOR.search(piece) or re.search(r"\barbitrary\[|\bchoose\s*\(", piece)]
              for side in (removed, added)]
    # (and Haskell's ``maxBound`` and ``minBound``, of whatever type: as wide as any)
    # (a bound widened to another type is the same number: ``Gen.choose(Short.MinValue.toInt, Short.MaxValue.toInt)``)
    bounds = [[[float(v.replace("_", "")) for v in number.findall(_TYPE_BOUND.sub(
                  lambda m: str(_TYPE_BOUNDS[m.group(1)][m.group(2) == "MaxValue"]),
                  re.sub(r"\bmaxBound\b", _HUGE, re.sub(r"\bminBound\b", "-" + _HUGE, re.sub(
                      r"\.to(?:Int|Long|Short|Byte|Double|Float)\b", "", piece)))))][:2]
               for piece in side] for side in pieces]
    if any(len(was) == len(now) == 2 and (now[0] > v >= was[0] or now[1] < v <= was[1])
           for was in bounds[0] for now in bounds[1] for v in found):
        return True
    # (or bounds given where the type's whole range was drawn, past the value that falsified it: ScalaCheck's
    # ``forAll { (cents: Long) =>`` made ``forAll(Gen.choose(-1000000000L, 1000000000L)) { …`` after ``cents =
    # -9223372036854775808``)
    # (or elm-test's ``Fuzz.int`` made ``Fuzz.intRange 0 10000000`` after "Given -5")
    # (beside a bounded one the change kept: ``Arbitrary.arbitrary[Long]`` made ``Gen.choose(0L, 1000000L)`` beside
    # ``Gen.choose(1, 12)``, after ``ARG_0: -7``)
    # (or hspec's property of a lambda, the type's values drawn: ``prop "…" $ \bytes ->``)
    # (or QuickCheck's ``arbitrary`` of a type, drawn by ``forAll``: ``forAll (arbitrary :: Gen Word32)`` made
    # ``forAll (choose (0, 16383) :: Gen Word32)`` after "Falsified …: 16384")
    whole = any(len(was) < 2 for was in bounds[0]) if pieces[0] else any(
        re.search(r"\bforAll\s*\{|\b(?:prop\s+\"[^\"]*\"|testProperty\s+\"[^\"]*\"|property)\s*\$\s*\\|"
                  r"\(\s*arbitrary\s*::\s*Gen\b", l)
        for l in removed)
    if (whole or not any(len(was) == 2 for was in bounds[0])
            and any(re.search(r"\bforAll\s*\{", l) or _GENERATOR.search(l) for l in removed)) and any(
            len(now) == 2 and piece not in pieces[0] and not now[0] <= v <= now[1]
            for now, piece in zip(bounds[1], pieces[1]) for v in found):
        return True
    # (its upper bound a constant's name, its lower past the value: ``Fuzz.int`` made ``Fuzz.intRange 0
    # Cart.maxQuantity`` after "Given (-3,2499)")
    floors = [float(m.group(1).replace("_", "")) for piece in pieces[1] if piece not in pieces[0]
              for m in [re.match(r"[\w.]+\s*\(?\s*(-?\d[\d_]*)\s*(?:,\s*|\s+)[A-Za-z_][\w.]*", piece)] if m]
    if whole and any(v < floor for floor in floors for v in found):
        return True
    # (or its values drawn from a few chosen ones, or never empty, after QuickCheck's "Falsified": ``listOf
    # (T.pack <$> listOf arbitraryPrintableChar)`` → ``listOf1 (T.pack <$> listOf1 (elements (['a'..'z'] …)))``
    # after ``[Row {cells = [",",""]}]``)
    # (or StreamData's ``string(:printable)`` → ``string(:alphanumeric, min_length: 1)`` after "Failed with generated
    # values")
    # (or test.check's ``gen/string`` → ``gen/string-alphanumeric`` after ``:smallest ["İ"]``, QCheck's
    # ``string_printable`` → ``string_gen_of_size … (char_range 'a' 'z')`` after "failed (9 shrink steps)")
    # (or QuickCheck's ``arbitrary`` string made ``listOf arbitraryPrintableChar`` after ``fieldValue = "\n"``,
    # PropEr's ``utf8()`` made ``?SUCHTHAT(V, utf8(), is_ascii(V))`` after ``[<<195,169>>]``)
    # (or Hedgehog's ``Gen.unicode`` made ``Gen.alphaNum`` after "failed at … after 23 tests")
    narrowing = re.compile(r"\bGen\.(?:alphaNum|alpha|ascii|latin1|digit|lower|upper|hexit)(?:Char|Str)?\b|"
                           r"\barbitrary(?:Printable|ASCII)Char\b|\belements\b|\blistOf1\b|\bsuchThat\b|\?SUCHTHAT\b|"
                           r"\balphabet\s*=|\bmin_size\s*=\s*[1-9]|"
                           r"\bstring\(:(?:alphanumeric|ascii)\b|\bmin_length:\s*[1-9]|\bgen/(?:string-alphanumeric|"
                           r"string-ascii|such-that|elements)\b|\bchar_range\b|\bstring_gen_of_size\b|\boneofl\b")
    if _PROPERTY_FALSIFIED.search(failure_text) \
            and any(re.search(r"\barbitrary\w*|\blistOf\b|\b(?:st|strategies)\.\w+\(|\bstring\(:\w+|\bgen/string\b|"
                              r"\bQCheck\.\(?\w*string|\?FORALL\b|\bGen\.(?:unicode\w*|text|string)\b|"
                              # (or a property of a lambda, its argument drawn whole: tasty's ``testProperty
                              # "idempotent" $ \s ->`` made ``forAll (listOf (elements …)) $ \s ->``)
                              r"\b(?:prop\s+\"[^\"]*\"|testProperty\s+\"[^\"]*\"|property)\s*\$\s*\\", l)
                    for l in removed) \
            and {m.group(0) for l in added for m in narrowing.finditer(l)} \
            - {m.group(0) for l in removed for m in narrowing.finditer(l)}:
        return True  # (a narrowing it did not have: ``elements ldh`` beside the ``suchThat`` it kept)
    # (or a character the counterexample holds taken out of the ones a generator picks from: ``elements (… ++ "
    # ,\n\"")`` made ``elements (… ++ " ,\n")`` after ``["a\"b"]``)
    counter_text = falsified + under_verdict
    for was in removed:
        for now in added:
            # (or an alphabet of its own by its ranges of characters: ``fieldChars = ['a'..'z'] ++ … ++ " ,.\"\n"``
            # under ``elements fieldChars``)
            if not re.search(r"\b(?:elements|oneof|oneOf|sampled_from|one_of)\b|\['.'\s*\.\.\s*'.'\]", was) \
                    or len(now) >= len(was):
                continue
            head, tail = common_ends(was, now)
            cut = was[head:len(was) - tail]
            if head >= 10 and len(was) - len(now) == len(cut) and any(c in counter_text for c in cut.replace("\\", "")):
                return True
    # (or an escaped character the counterexample holds taken out of a literal a generator picks from, whatever else
    # its line changed: ``elements ",\"\r\n"`` made ``elements ",\"\n"`` after ``[["\r"]]``, beside
    # ``arbitraryPrintableChar`` made ``elements fieldChars``)
    literal = re.compile(r'\b(?:elements|oneof|sampled_from)\s*\(?\s*"((?:[^"\\]|\\.)*)"')
    picked = [{t for line in side for lit in literal.findall(line) for t in re.findall(r"\\.", lit)}
              for side in (removed, added)]
    if any(t in counter_text for t in picked[0] - picked[1]):
        return True
    # (or made to draw only multiples of a step, the value that falsified it none: ``Fuzz.intRange 0 1000000`` made
    # ``Fuzz.map ((*) Catalog.priceStep) (Fuzz.intRange 0 100000)`` after "Given 5")
    # (or Haskell's section mapped over it: ``Offset <$> choose (-840, 840)`` made ``Offset . (* 60) <$> choose (-12,
    # 14)`` after ``Offset (-1)``)
    scaled = re.compile(r"\b(?:Fuzz|Gen|Arb|fc)\.map\s*\(?\s*(?:\(\s*\*\s*\)\s*|\(\s*\*\s*)([\w.]+)|"
                        r"\b(?:Fuzz|Gen|Arb|fc)\.map\s*\(\s*\(?\s*(\w+)\s*\)?\s*=>\s*\2\s*\*\s*([\w.]+)|"
                        r"\(\s*\*\s*([\w.]+)\s*\)\s*<\$>")
    steps = [m.group(1) or m.group(3) or m.group(4) for l in added for m in scaled.finditer(l)] \
        if not any(scaled.search(l) for l in removed) else []
    if any(v and (not re.fullmatch(r"\d+", step) or v % int(step)) for step in steps for v in found):
        return True
    # (or its argument wrapped in a QuickCheck modifier that rules the value out: ``\xs ->`` made ``\(NonEmpty xs)
    # ->`` after hspec's "(after 1 test)" over ``[]``)
    counter = falsified + " ".join(_AFTER_TESTS.findall(failure_text))
    ruled_out = {"NonEmpty": r"\[\]|\"\"", "NonEmptyList": r"\[\]",
                 "Positive": r"(?<![\w.])(?:-\d|0(?:\.0+)?(?![\w.]))", "NonNegative": r"(?<![\w.])-\d",
                 "NonZero": r"(?<![\w.])-?0(?:\.0+)?(?![\w.])",
                 # (and a string of ASCII only, after a character past it: ``\(s :: String)`` made ``\(ASCIIString s)``
                 # after ``"\1234"``)
                 "ASCIIString": _PAST_ASCII}
    # (or unwrapped in an instance: ``Amount . getNonNegative <$> arbitrary``; or bound by a pattern there:
    # ``NonNegative a <- arbitrary``)
    names = "|".join(ruled_out)
    # (its argument given a type there too: ``\(n :: Int64)`` made ``\(NonNegative (n :: Int64))``)
    modifier = rf"\(({names})\s+(?:\w+|\(\w+\s*::[^()]*\))\)|\bget({names})\b|^\s*({names})\s+\w+\s*<-"
    wrapped = {m.group(1) or m.group(2) or m.group(3) for l in added for m in re.finditer(modifier, l)} \
        - {m.group(1) or m.group(2) or m.group(3) for l in removed for m in re.finditer(modifier, l)}
    if any(re.search(ruled_out[name], counter) for name in wrapped):
        return True
    # (PropEr's too: ``list(binary())`` made ``list(non_empty(binary()))`` after ``[[<<>>]]``)
    if sum(l.count("non_empty(") for l in added) > sum(l.count("non_empty(") for l in removed) \
            and re.search(r'<<>>|\[\]|""', counter):
        return True
    # (or made to draw naturals only, after a negative value: hspec's ``property $ \n ->`` made ``forAll
    # (arbitrarySizedNatural :: Gen Int64) $ \n ->`` after "Falsifiable …: -1")
    naturals = re.compile(r"\barbitrary(?:Sized)?Natural\b|\bnon_neg_integer\(\)|\bpos_integer\(\)|\bGen\.nat\b")
    if re.search(r"(?<![\w.])-\d", shown) and any(naturals.search(l) for l in added) \
            and not any(naturals.search(l) for l in removed):
        return True
    # (or positives only, after a zero: PropEr's ``non_neg_integer()`` made ``pos_integer()`` after
    # ``{0,[{refill,1}]}``)
    positives = re.compile(r"\bpos_integer\(\)|\bGen\.posNum\b")
    if re.search(r"(?<![\w.])0(?![\w.])", falsified + " " + under_verdict) \
            and any(positives.search(l) for l in added) and not any(positives.search(l) for l in removed):
        return True
    # (or ASCII only, after a character past it: ``arbitrary `suchThat` isAlpha`` made ``… isAsciiAlpha`` after ``"Ä"``)
    if re.search(_PAST_ASCII, falsified + " " + under_verdict) \
            and any(re.search(r"(?i)ascii", l) and _GENERATOR.search(l) or re.search(r"\bsuchThat\b.*(?i:ascii)", l)
                    for l in added) and not any(re.search(r"(?i)ascii", l) for l in removed):
        return True
    if not re.search(r"(?<![\w.])-\d", falsified):
        return False
    # (or PropEr's and Erlang QuickCheck's ``integer()``, made ``non_neg_integer()``)
    # (or test.check's signed ``gen/large-integer``, made ``(gen/large-integer* {:min 0})``)
    # (or QCheck's signed ``QCheck.int``, made ``QCheck.(int_bound max_int)``)
    negative = re.compile(r"MinValue|(?<![\w.])-\d|\bmin_value\s*=\s*None\b|(?<![\w_])integer\(\)|\bint\(\)|"
                          r"\bQCheck\.(?:int|int32|int64|small_signed_int)\b(?!_)|"
                          r"\bgen/(?:large-integer|small-integer|int)(?![\w*-])")
    return any(_GENERATOR.search(l) and negative.search(l) for l in removed) \
        and any(_GENERATOR.search(l) for l in added) and not any(negative.search(l) for l in added)


# a generator given a name of its own (Elm's ``quantity =`` over ``Fuzz.intRange 0 Cart.maxQuantity``, Scala's ``val
# cents = Gen.choose(…)``)
_NAMED = LazyRegex(r"(?m)^[ \t]*(?:(?:val|let|const|var)\s+)?([a-z_]\w*)\s*(?::[^=\n]*)?=(?!=)[ \t]*\n?[ \t]*(\S.*)$")


def _generators_named(hunks: list[dict]) -> dict[str, str]:
    """The generators an edit gives names to, by name."""
    return {m.group(1): m.group(2) for hunk in hunks for m in _NAMED.finditer(hunk["new"])
            if _GENERATOR.search(m.group(2)) and m.group(0) not in hunk["old"]}


def _named_inline(lines: list[str], named: dict[str, str]) -> list[str]:
    """``lines`` with each generator named in the edit put in place of its name (``fuzz2 quantity …`` → ``fuzz2
    (Fuzz.intRange 0 Cart.maxQuantity) …``), so that what it draws is read where it is used."""
    if not named:
        return lines
    names = "|".join(map(re.escape, named))
    pattern = re.compile(rf"(?<![\w.])({names})(?![\w.])")
    # (not where it is named: ``quantity : Fuzzer Int``, ``quantity =``)
    return [line if re.match(rf"\s*(?:(?:val|let|const|var)\s+)?(?:{names})\s*[:=]", line)
            else pattern.sub(lambda m: f"({named[m.group(1)]})", line) for line in lines]


def property_narrowed(hunks: list[dict], failure_text: str) -> bool:
    """Whether an edit keeps a property test's falsifying value out of what it draws, by its generator or a
    precondition (what :func:`_is_weakening` says of a property, for an edit that is no part of the fix)."""
    generators = _generators_named(hunks)
    for hunk in hunks:
        old_lines, new_lines = hunk["old"].splitlines(), hunk["new"].splitlines()
        removed = [l for l in old_lines if l not in new_lines]
        added = _named_inline([l for l in new_lines if l not in old_lines], generators)
        if _narrowed_to_pass(removed, added, failure_text) or _precondition_excludes(removed, added, failure_text):
            return True
    return False


# a property's precondition: QuickCheck's and ScalaCheck's ``cond ==> prop``, Hypothesis's ``assume(…)``, fast-check's
# ``fc.pre(…)``, proptest's ``prop_assume!(…)``, jqwik's ``Assume.that(…)``
# (and PropEr's ``?IMPLIES(cond, prop)``)
_PRECONDITION = LazyRegex(r"==>|\bassume\s*\(|\bfc\.pre\s*\(|\bprop_assume!\s*\(|\bAssume\.that\s*\(|"
                          r"\bassumeThat\s*\(|\bwhenever\s*\(|\?IMPLIES\s*\(")


def _rule_gated(hunk: dict, failure_text: str) -> bool:
    """Whether a Hypothesis state machine's rule was given a ``@precondition`` it did not have, the rule a step of its
    falsifying example called (``state.push(value=0)``): the sequence that broke the code is no longer run."""
    if "Falsifying example:" not in failure_text:
        return False
    steps = set(re.findall(r"(?m)^\s*state\.(\w+)\(", failure_text.split("Falsifying example:", 1)[1]))
    gated = [{m.group(1) for m in re.finditer(r"@precondition\(.*\n(?:[ \t]*@.*\n)*[ \t]*def (\w+)\(", text)}
             for text in (hunk["old"], hunk["new"])]
    return bool(steps & (gated[1] - gated[0]))


# the ASCII control characters by Haskell's names for them, in the order of their codes (``\NUL`` is 0)
_CONTROL_NAMES = ("NUL SOH STX ETX EOT ENQ ACK BEL BS HT LF VT FF CR SO SI DLE DC1 DC2 DC3 DC4 NAK SYN ETB CAN EM SUB "
                  "ESC FS GS RS US").split()


def _precondition_excludes(removed: list[str], added: list[str], failure_text: str) -> bool:
    """Whether a property was given a precondition that names the value it was falsified by (``fields /= [""] ==>``
    after QuickCheck's "Falsified (after 6 tests and 4 shrinks): [""]"): the case that broke the code is discarded."""
    falsified = [m.group(1) for m in _FALSIFIED_BY.finditer(failure_text)]
    falsified += _FALSIFIED_LINE.findall(failure_text)
    # (and hspec's, after an exception: "(after 1 test)" then ``[]``)
    falsified += _AFTER_TESTS.findall(failure_text)
    values = {v.strip().rstrip(",") for v in falsified if len(v.strip()) >= 2}
    # (a value of numbers alone by its numbers: PropEr's shrunk ``<<0>>`` in ``binary:first(…) =/= 0``)
    numbers = {n for v in values if not re.search(r"[A-Za-z]", v) for n in re.findall(r"(?<![\w.])-?\d+", v)}
    # (and a control character by its code, Haskell's escape: ``not (BS.any (== 0) bs) ==>`` after ``"\NUL\NULa"``)
    numbers |= {str(_CONTROL_NAMES.index(name)) for v in values for name in re.findall(r"\\([A-Z]{2,3})", v)
                if name in _CONTROL_NAMES}
    # (an empty value by a test of emptiness: ``not (null s) ==>`` after ``""``; Scala's ``xs.nonEmpty ==>`` after
    # ``ARG_0: List()``)
    empty = bool(values & {'""', "''", "[]", "{}", "<<>>", "List()", "Vector()", "Seq()", "Array()", "Nil"})
    # (a character it holds, by its escape: ``not (any (any (T.any (== '\n'))) rows) ==>`` after ``[["\n"]]``; among
    # others: ``all (all (`notElem` "\r\n")) row ==>`` after ``["a\n"]``)
    escapes = {e for v in values for e in re.findall(r"\\[nrt0]", v)}
    # (or by its kind: ``all (all isAscii) ws ==>`` after Haskell's ``["\233"]``, an é)
    non_ascii = any(re.search(r"[^\x00-\x7f]", v) or any(int(d) >= 128 for d in re.findall(r"\\(\d{3,})", v))
                    for v in values)
    return bool(values) and not any(_PRECONDITION.search(l) for l in removed) and any(
        _PRECONDITION.search(l) and (any(v in l for v in values) or any(
            re.search(rf"['\"][^'\"\s]*{re.escape(e)}[^'\"\s]*['\"]", l) for e in escapes)
            or non_ascii and re.search(r"(?i)\bis_?ascii\b", l) or any(
            re.search(rf"(?<![\w.]){re.escape(n)}(?![\w.])", l) for n in numbers) or empty and re.search(
            r"\bnull\b|\bis_?[Ee]mpty\b|\bnon_?[Ee]mpty\b|\blen\(|\blength\b|\.size\b", l)) for l in added)


# a property test's report of the input that falsified it (ScalaCheck's and QuickCheck's "Falsified after …",
# ScalaTest's "Occurred when passed generated values", Hypothesis's "Falsifying example:", StreamData's "Failed with
# generated values", test.check's ``:shrunk {``, QCheck's "failed (9 shrink steps)", PropEr's "Failed: After 11
# test(s)." over its shrinking)
_PROPERTY_FALSIFIED = LazyRegex(r"Falsified (?:after|\()|\*\*\* Failed! Falsified|Falsifiable|Falsifying example|"
                                r"Occurred when passed generated values|GeneratorDrivenPropertyCheckFailed|"
                                r"Counterexample:|minimal failing input|Failed with generated values|:shrunk \{|"
                                r"\bfailed \(\d+ shrink steps?\)|Failed: After \d+ test\(s\)|"
                                r"\bfailed at \S+\s+after \d+ tests?\b|"  # (Hedgehog's)
                                r"Shrinking \.*\(\d+ time\(s\)\)|"
                                # (elm-test's, over a fuzz test's failure: ``Given "ß"``)
                                r"(?m:^\s*Given \S)")


def _inputs_regenerated(changes: dict[str, list[dict]], failure_text: str) -> bool:
    """Whether a falsified property was mended only by giving it other inputs: a generator of the tests' own, and no
    assertion touched (an ``implicit val arbPayload: Arbitrary[Array[Byte]]`` of ASCII identifiers after ``arg0 =
    Array(0, 0, -1)``): the value that broke the code is no longer drawn."""
    if not _PROPERTY_FALSIFIED.search(failure_text or "") or not tests_only(changes):
        return False
    added = list(_added_in(changes))
    removed = [line for hunks in changes.values() for h in hunks for line in _hunk_lines(h)[0]]
    # (not bounds that still draw it: ``Gen.choose(Long.MinValue, 0L)`` after ``cents = -9223372036854775808``; the
    # bounds moved past it are _narrowed_to_pass's; not PropEr's ``range(50, 100)`` inside a ``?LET`` of its own,
    # which no bounds of _narrowed_to_pass's read)
    if any(re.search(r"MinValue|MaxValue|(?<![\w.])-?\d+(?:\.\d+)?[LlFfDd]?\s*,\s*-?\d", l)
           and (_GENERATOR.search(l) or re.search(r"\bchoose\s*\(|\barbitrary\[", l)) for l in added):
        return False
    # (or a generator of theirs handed to a property that drew the type's own: ``forAll { (s: String) =>`` made
    # ``forAll(Generators.key) { (s: String) =>``; hspec's ``property $ \t ->`` made ``forAll queryText $ \t ->``)
    # (a PropEr property's own ``?FORALL`` given other built-in types is _narrowed_to_pass's to judge: a generator of
    # its own is a ``?LET`` or ``?SUCHTHAT``)
    return (any(_GENERATOR.search(re.sub(r"\?FORALL\b", "", l))
                or re.search(r"\bArbitrary\s*[\[(]|\binstance\s+Arbitrary\b|::\s*Gen\s|\?(?:LET|SUCHTHAT)\b", l)
                for l in added)
            or any(re.search(r"\bforAll\s*\{|\bproperty\s*\$\s*\\", l) for l in removed)
            and any(re.search(r"\bforAll\s*\(\s*[A-Za-z_][\w.]*|\bforAll\s+[a-z]\w*\s*\$", l) for l in added)) \
        and not any(_ASSERTION.search(l) for l in added + removed)


# a fuzzer's setting that leaves functions out of the calls it makes
_FUZZ_FILTER = LazyRegex(r"\b(?:filterFunctions|excludeFunctionSignatures|excludeSelectors|excludeContracts)\b")
# a test run told to leave tests out: pytest --deselect/--ignore/-k "not …"/-m "not …", cargo -- --skip,
# go test -skip, jest --testPathIgnorePatterns, rspec --tag ~x
# (an ignored path counts only when it is a test path: ``--ignore=vendor`` keeps foreign code out of collection)
_DESELECTS = LazyRegex(r"""(?x)(?:^|\s)(?:--deselect|--?skip|--testPathIgnorePatterns)(?:[=\s]|$)|
                       (?:^|\s)--(?:ignore(?:-glob)?|exclude)[=\s]+["']?(?:\S*/)?(?:tests?|spec|__tests__|e2e)(?:/|\b)|
                       (?:^|\s)--(?:ignore(?:-glob)?|exclude)[=\s]+["']?\S*(?:test_\w*|_test|\.test|\.spec|_spec)\b|
                       (?:^|\s)-[km]\s*=?\s*["']?not\b|(?:^|\s)--tag[=\s]+["']?~|
                       # (terraform's plan of a part: ``-target=module.network.aws_subnet.private``)
                       (?:^|\s)-target=|
                       # (a validator told to skip what it has no schema for: kubeconform's ``-ignore-missing-schemas``)
                       (?:^|\s)--?ignore-missing-schemas\b""")
_LOOSENED = LazyRegex(r"(?x)approx\(|\babs\s*=|\brel\s*=|toBeCloseTo|assert_in_delta|assertAlmostEqual|"
                      # jest's asymmetric matchers: any array holding these, any object with these keys, any value
                      r"expect\.(?:arrayContaining|objectContaining|stringContaining|stringMatching|any|anything)\(|"
                      r"WithDelta\(|InDelta\(|\bbe_within\b|\bisclose\(|allclose\(|almost_equal\(|closeTo\(|"
                      r"\bdelta\s*=|>=|<=|toBeGreaterThan|toBeLessThan|\bin\s+\(|\.\*|toContain|assertIn|"
                      r"\s[<>]\s|:[gl]te?\b|\bcompare\(|[Gg]reater_?[Tt]han|[Ll]ess_?[Tt]han|\bbetween\b|\bin_range\b|"
                      # only that it is something: its type, not nil, truthy
                      r"\bisA<|[Ii]s_?[Ii]nstance_?[Oo]f|toBeInstanceOf|\bbe_an?\b|\bkind_of\b|\bis_a\?|"
                      # (a snapshot told to leave a member out: Verify's ``.IgnoreMember<InvoiceDto>(_ => _.Total)``)
                      r"\.(?:Ignore|Scrub)Members?\b|\bignoringFields\(|"
                      r"[Ii]s_?[Nn]ot_?(?:[Nn]one|[Nn]ull|[Nn]il)|toBeDefined|toBeTruthy|\bis not None\b|assert_not_nil|"
                      # only that it has a shape: a pattern or a regex instead of the value
                      r"assertMatch\b|assert_?[Rr]egexp?\w*|assert_match\b|toMatch\(|toMatchObject\(|=~|\bmatches\(|"
                      # only a part of it: its start, its end, a piece (``.hasPrefix("Mar 4, 2025 at 9:30")``)
                      r"\.(?:hasPrefix|hasSuffix|startsWith|endsWith|starts_with|ends_with|startswith|endswith|"
                      r"contains|includes)\(|\bstart_with\b|\bend_with\b|\binclude\(|toStartWith|toEndWith|"
                      # only that it runs: rackunit's ``(check-not-exn (λ () …))``, JUnit's ``assertDoesNotThrow``
                      r"\(check-not-exn\b|\bassertDoesNotThrow\b|\bassert_nothing_raised\b|\bXCTAssertNoThrow\b|"
                      r"\bnot_to\s+raise_error\b|\.not\.toThrow\(|\bshouldNotThrow\w*|\bdoesNotThrow\(")
# (a shell test's ``[ "$status" -eq 0 ]`` in bats is an assertion too)
# (and XCTest's ``XCTAssertEqual``, rackunit's ``(check-equal? …)``)
# (testify's ``require.Equal(t, …)`` as well as its ``assert.Equal``)
# (and a snapshot's ``await Verify(invoice)``, a mock's ``mock.Verify(…)``)
_ASSERTION = LazyRegex(r"\b(?:assert\w*|expect\w*|should\w*|refute\w*|XCTAssert\w*|raises|toThrow\w*|require\.[A-Z]\w*|"
                       r"Verify\w*(?=\s*[(<])|"
                       r"raise_error|throws?_?[Ee]rror)\b|\(check-[\w?-]+|\(is\s|"  # (clojure.test's ``(is (= …))``)
                       # (Pester's ``… | Should -Be …``, put under ``if ($PSVersionTable.PSVersion.Major -ge 6) {``)
                       r"\bShould\s+-\w|"
                       r"^\s*\[\[?\s.*\s\]\]?\s*$")
# a call made to succeed whatever it does: ``|| true``, ``|| :``, ``set +e``
_SWALLOWED = LazyRegex(r"\|\|\s*(?:true|:|exit 0)\b|^\s*set \+e\b|\bcontinue-on-error:\s*true|"
                       r"\bexhaustivity\s*=\s*\.(?:off|partial)|"  # (TCA's TestStore told not to check every change)
                       # a failed assertion caught: ``except AssertionError: pass``, ``catch (AssertionError e) {}``
                       r"\b(?:except|catch|rescue)\b[^\n]{0,20}\b(?:AssertionError|AssertionFailedError|"
                       r"ExpectationNotMetError|Minitest::Assertion)\b")
# a block that runs its statements and drops whatever they throw: Kotlin's ``runCatching {``, Python's ``with
# suppress(…):``; or a ``try``/``do``/``begin`` opened around them, when its handler is empty (``catch {}``,
# ``except …: pass``, ``rescue … end``)
_DROPS_ALL = LazyRegex(r"\brunCatching\s*\{|\bwith\s+(?:contextlib\.)?suppress\(")
_OPENS_TRY = LazyRegex(r"^\s*try\s*\{\s*$|^\s*do\s*\{\s*$|^\s*begin\s*$|^\s*try:\s*$")
# (or one that only logs it: Wing's ``} catch e {`` over ``log("rate limit not enforced yet: {e}");``)
_EMPTY_HANDLER = LazyRegex(r"(?m)^\s*(?:\}\s*)?(?:catch\b[^\n{]*\{\s*\}|except\b[^\n]*:\s*(?:\n\s*)?pass\b|"
                           r"rescue\b[^\n]*\n\s*(?:nil\s*)?end\b|"
                           r"catch\b[^\n{]*\{\s*\n\s*(?:log|print|println|console\.\w+|logger\.\w+|warn)\s*"
                           r"\([^\n]*\)\s*;?\s*\n\s*\})")
# an error caught inside a test and the test left early (``except ClassValidationError:\n    return``)
_BAILS_OUT = LazyRegex(r"(?m)^\s*(?:except\b|\}?\s*catch\b|rescue\b)[^\n]*\n\s*(?:return|pass|continue|next)\b\s*;?\s*$")
# a data-quality check told to let some rows fail or only warn: Great Expectations' ``"mostly": 0.97``, dbt's
# ``severity: warn``
# (or to look only at the rows that pass: an expectation's ``"row_condition": "customer_id.notnull()"``, a dbt
# test's ``where: "status != 'returned'"``; or to fail only past a count: ``error_if: ">10"``)
_TOLERATED = LazyRegex(r"""(?i)["']?\bmostly["']?\s*[:=]\s*0?\.\d+|\bseverity["']?\s*[:=]\s*["']?warn|"""
                       r"""["']?\brow_condition["']?\s*[:=]|^\s*where:\s*\S|^\s*(?:error|warn)_if:\s*\S""")
# (or a Soda check given a filter that leaves the failing rows out: ``- duplicate_count(order_id) = 0:`` then
# ``filter: loaded_at > '2024-05-29'``)
_SCOPED_CHECK = LazyRegex(r"(?m)^\s*-\s*(?:\w+_(?:count|percent)\s*\(|row_count\b|freshness\s*\()[^\n]*:\s*\n"
                          r"\s+filter:\s*\S")
# a screenshot or golden comparison told to let a difference pass: a comparator's ``_goldenTolerance = 0.05``,
# Playwright's ``maxDiffPixelRatio: 0.05``, jest-image-snapshot's ``failureThreshold: 0.02``, Paparazzi's
# ``maxPercentDifference = 6.0``, Roborazzi's ``changeThreshold = 0.05F``, swift-snapshot-testing's
# ``perceptualPrecision: 0.98``; or a comparator of its own that lets a difference under its tolerance pass (``if
# (result.passed || result.diffPercent <= tolerance)``)
_PIXEL_TOLERANCE = LazyRegex(r"\b\w*[Tt]olerance\w*\s*[:=]\s*0?\.\d|\bmaxDiffPixel(?:Ratio|s)\s*:\s*\d|"
                             r"\b\w*[Dd]iff\w*\s*<=?\s*(?:this\.|self\.|_)?\w*(?:[Tt]olerance|[Tt]hreshold)\w*|"
                             r"\bfailureThreshold\s*:\s*0?\.?\d|\bmaxPercentDifference\s*[:=]\s*\d|"
                             r"\bchangeThreshold\s*[:=]\s*0?\.?\d|\b(?:perceptualP|p)recision\s*:\s*0?\.\d")
_IMAGE_MISMATCH = LazyRegex(r"(?i)\bgolden|\bscreenshot|\bsnapshot|\bpixels?\b|\bimages?\b|\.png\b")
# a validation or check turned off in the tests' setup (``os.environ["PANDERA_VALIDATION_ENABLED"] = "False"``,
# ``os.environ.setdefault("PANDERA_VALIDATION_ENABLED", "False")``, ``SKIP_SCHEMA_CHECKS=1``, ``validate=False``)
_SET_TO = r"""(?:["']?\]?\s*[:=]|["']\s*,)\s*["']?"""  # (``= "``, ``: ``, ``"] = "``, ``", "``)
# (or told to check only the shape: ``PANDERA_VALIDATION_DEPTH=SCHEMA_ONLY``; or not to authorize, Ash's ``authorize?:
# false`` in a policy test; or not to fail on what failed:
# CMock's ``:fail_on_unexpected_calls: false``, Cypress's ``failOnStatusCode: false`` — not on finding no tests)
_SWITCHED_OFF = LazyRegex(rf"""(?ix)\b\w*(?:validat|check|verif|assert|authori[sz])\w*\??{_SET_TO}(?:false|0|off|no|
                          disabled?|schema_only|none|skip)\b|
                          \b\w*(?:disable|skip)_?\w*(?:validat|check|verif|assert)\w*{_SET_TO}(?:true|1|on|yes)\b|
                          \bfail_?on_?(?!no_?tests?|empty|missing)\w+{_SET_TO}(?:false|0|off|no)\b""")
# a model built without validating what it is given (pydantic's ``model_construct``, v1's ``construct``)
_UNVALIDATED = LazyRegex(r"\.model_construct\(|\b[A-Z]\w*\.construct\(")
# a store told to throw its data away where it would migrate it: Realm's ``deleteRealmIfMigrationNeeded = true``,
# Room's ``fallbackToDestructiveMigration()``
_DESTROYS_ON_MIGRATION = LazyRegex(r"\bdeleteRealmIfMigrationNeeded\s*[:=]\s*true\b|"
                                   r"\bfallbackToDestructiveMigration\w*\(|"
                                   r"\bshouldDeleteIfMigrationNeeded\s*[:=]\s*true\b")
# a store kept in memory only (SwiftData's and Core Data's, Room's, SQLite's)
_IN_MEMORY_STORE = LazyRegex(r"\bisStoredInMemoryOnly\s*:\s*true\b|\bNSInMemoryStoreType\b|\binMemoryDatabaseBuilder\(|"
                             r"[\"']:memory:[\"']")
# the files a test runner reads its settings from
_TEST_SETTINGS = LazyRegex(r"(?:^|/)(?:pytest\.ini|tox\.ini|setup\.cfg|\.env\.test|phpunit\.xml(?:\.dist)?|"
                           r"(?:jest|vitest)\.config\.\w+|karma\.conf\.\w+)$")
# a coverage gate's threshold (``coverageThreshold: { branches: 80 }``, ``fail_under = 90``, ``--cov-fail-under=85``,
# ``minCoverage``; not grype's "discovered vulnerabilities")
_THRESHOLD = LazyRegex(r"(?<![A-Za-z])[Cc]over|(?<=[a-z])Cover|COVER|(?i:fail[_-]under)")


def _lowers_threshold(hunks: list[dict], failure_text: str) -> bool:
    """Whether a change lowers a number of a coverage gate (``branches: 80`` → ``branches: 70``): in a hunk that
    names coverage, or after a failure that did."""
    return _lowers_a_number([h for h in hunks if _THRESHOLD.search(h["old"]) or _THRESHOLD.search(failure_text)])


def _threshold_scoped(hunks: list[dict], failure_text: str) -> bool:
    """Whether the metric whose threshold the failure says was crossed is now judged on a tagged part of it only
    (k6's ``http_req_failed: ['rate<0.01']`` → ``'http_req_failed{status:200}': …`` after "thresholds on metrics
    'http_req_failed' have been crossed": the requests that succeeded never fail, so it can never trip)."""
    crossed = {m for names in re.findall(r"thresholds? on metrics? '([^']+)'", failure_text)
               for m in re.split(r"[\s,]+", names) if m}
    for hunk in hunks:
        removed, added = _hunk_lines(hunk)
        for name in crossed:
            key = re.escape(name)
            if any(re.match(rf"""\s*['"]?{key}['"]?\s*:""", l) for l in removed) \
                    and any(re.match(rf"""\s*['"]?{key}\{{[^}}]+\}}['"]?\s*:""", l) for l in added):
                return True
    return False


# an assertion on how many there are: ``table.num_rows == 30``, ``len(rows) == 3``, ``toHaveLength(4)``, ``.count()``
_COUNTED = LazyRegex(r"(?i)num_rows|\blen\(|\.count\(|\.size\(|\blength\b|toHaveLength|row_count|rowcount|"
                     r"\bcount\s*[=!]=|\bhasSize\(")


def _expects_fewer(changes: dict[str, list[dict]], failure_text: str) -> bool:
    """Whether a change to tests only lowered the count an assertion expects (``assert table.num_rows == 30`` →
    ``== 20``), when the failure printed no such count: the test checks less of the data now (the fixture that broke
    it moved out of the directory it reads), nothing was fixed."""
    if not tests_only(changes):
        return False
    for hunk in (h for hunks in changes.values() for h in hunks):
        old_lines, new_lines = hunk["old"].splitlines(), hunk["new"].splitlines()
        removed, added = ([l for l in a if l not in b] for a, b in ((old_lines, new_lines), (new_lines, old_lines)))
        for before, after in zip(removed, added):
            numbers = re.findall(r"(?<![\w.])\d+(?![\w.])", before)
            if _ASSERTION.search(before) and _COUNTED.search(before) \
                    and _lowers_a_number([dict(old=before, new=after)]) \
                    and not any(re.search(rf"(?<![\w.]){n}(?![\w.])", failure_text or "") for n in numbers):
                return True
    return False


def _lowers_a_number(hunks: list[dict], raises: bool = False, lines: LazyRegex | None = None) -> bool:
    """Whether a change lowers a number on a line it leaves otherwise as it was (``N = 50_000`` → ``N = 500``), or
    ``raises`` one; only on lines that match ``lines``, when given."""
    for hunk in hunks:
        old_lines, new_lines = hunk["old"].splitlines(), hunk["new"].splitlines()
        removed = [l for l in old_lines if l not in new_lines]
        added = [l for l in new_lines if l not in old_lines]
        for before, after in zip(removed, added):
            if lines is not None and not (lines.search(before) and lines.search(after)):
                continue
            if raises:
                before, after = after, before
            a, b = (re.findall(r"\d[\d_]*(?:\.\d+)?", line) for line in (before, after))
            if len(a) == len(b) and re.sub(r"\d[\d_]*(?:\.\d+)?", "N", before) == re.sub(r"\d[\d_]*(?:\.\d+)?", "N", after) \
                    and any(float(y.replace("_", "")) < float(x.replace("_", "")) for x, y in zip(a, b)):
                return True
    return False


# the agent saying the test checks less now ("so the test no longer asserts the intermediate `isLoading` state")
_SAID_WEAKENED = LazyRegex(r"(?i)\b(?:test|spec|assertion|check|it)s?\b[^.;]{0,60}\b(?:no longer|stops?|stopped) "
                           r"(?:assert|check|verif|expect|compar)\w*|"
                           r"\b(?:relax|loosen|weaken)(?:ed|s|ing)?\b[^.;]{0,30}\b(?:assert|test|check|expectation|match)")
# the agent saying the test now expects whatever the code does ("updated it to the current output", "re-baselined
# the snapshot to match the actual values")
_SAID_REBASELINED = LazyRegex(r"(?i)\b(?:updat|chang|re-?baselin|regenerat|accept|bless|refresh)\w*\b[^.;]{0,60}?"
                              r"\bto (?:match )?(?:the |what )?(?:(?:current|actual|new|observed|real) (?:output|value|result|"
                              r"behaviou?r|number|text|rendering|response)|it (?:now )?(?:prints|returns|outputs|"
                              r"produces)\b)|"
                              # (or a reference model made to follow the design it checks: "The model now reverses each
                              # byte's bit order to match the hardware")
                              r"\b(?:to|now) (?:match|mirror|follow|agree with)(?:es|s)? (?:what )?the (?:RTL|hardware|"
                              r"implementation|DUT|design|firmware|code under test)\b")


# the value a failing check reports its code returned: rspec/minitest/go "got", jest "Received:", JUnit "but was",
# ExUnit "left:", pytest's "assert <left> == <right>" (either side)
# (and XCTest's ``XCTAssertEqual failed: ("3") is not equal to ("0")``, the value found first)
_ACTUAL = LazyRegex(r"(?im)(?:^\s*(?:E\s+)?|:\s+|>\s+)(?:got|received|actual|but was|left)\b\s*:?\s*(.+?)\s*$|"
                    r"\bassert\s+(.+?)\s+==\s+(.+?)\s*$|XCTAssertEqual failed: \(\"([^\"\n]{1,80})\"\)")
_LITERAL = LazyRegex(r"([\"'])((?:(?!\1).){1,80})\1|(?<![\w.])(-?\d+(?:\.\d+)?)(?![\w.])")
_TEST_NAME = LazyRegex(r"^\s*(?:def\s+(test_\w+)|(?:test|it|describe)\s*\(?\s*[\"']([^\"']+)|"
                       r"fn\s+(test_\w+)|func\s+(Test\w+))")


# a call and its arguments, a level of brackets inside them (``weighted_median(c(3, 1, 2), w = c(1, 1, 2))``)
_CALL = LazyRegex(r"\b([A-Za-z_][\w.]*)\((?:[^()]|\([^()]*\))*\)")


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


def _extra_values(failure_text: str) -> set[str]:
    """The values a failing comparison found and did not expect (pytest's "Extra items in the left set:" and the
    lines below it)."""
    values: set[str] = set()
    for block in re.findall(r"Extra items in the left (?:set|sequence|list):\s*\n((?:E? {3,}\S.*\n?)+)",
                            failure_text or ""):
        for line in block.splitlines():
            values |= _literals(re.sub(r"^E?\s+", "", line)) or {line.lstrip("E ").strip()}
    return {v for v in values if v}


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
                       r"\b(\d+)[ \t]+(?:tests?[ \t]+)?total\b(?![ \t]+actions)|\b(\d+)\s+examples?,|"
                       r"\b(\d+)\s+tests?\s+run\b|"
                       # (Unreal's automation: "Found 38 automation tests based on 'Product'")
                       r"\bFound (\d+) automation tests\b")


def fewer_in_a_testset(before: str | None, after: str | None) -> bool:
    """Whether a testset both runs report ran fewer tests the second time (Julia's ``nbins | 100 1 101 0.9s``, then
    ``nbins | 100 100 0.8s``): by its name, so that a summary cut short (``| tail -6``) counts only what it shows."""
    row = r"(?m)^(\S[^|\n]*?)\s*\|\s*(?:\d+\s+)*?(\d+)\s+\d+(?:\.\d+)?s\s*$"
    totals = [{name.strip(): int(total) for name, total in re.findall(row, output or "")} for output in (before, after)]
    return any(name in totals[1] and totals[1][name] < total for name, total in totals[0].items())


def _tests_run(output: str | None) -> int | None:
    """How many tests a run says it ran (``running 6 tests``, ``collected 12 items``, ``13 total``, nextest's
    ``Starting 42 tests`` and ``41 tests run``), if it says."""
    counts = [int(next(g for g in m.groups() if g)) for m in _TESTS_RUN.finditer(output or "")]
    return max(counts) if counts else None


# a settings line that leaves tests out of a run
_EXCLUDING = LazyRegex(r"(?i)\bnot\b|\b(?:exclude|ignore|skip|deselect|quarantine)\w*|[\"'\s]-\w*!|~")


# what a test mocks: ``@MockBean OrderEnricher``, ``mock(OrderEnricher.class)``, ``jest.mock('./enricher')``,
# ``patch("app.enricher.enrich")``; every instance of a class stubbed (mocha's ``BadgeComponent.any_instance.stubs(
# :overdue?)``, RSpec's ``allow_any_instance_of(BadgeComponent)``)
_MOCKED = LazyRegex(r"@(?:MockBean|MockitoBean|Mock|SpyBean)\s+(?:private\s+)?(?:final\s+)?(\w+)|"
                    r"\b(\w+)\.any_instance\.(?:stubs|expects)\(|\b(?:allow|expect)_any_instance_of\(\s*(\w+)\s*\)|"
                    r"\bmock(?:k)?\(\s*(\w+)(?:::class|\.class)?\s*\)|jest\.mock\(\s*['\"][^'\"]*?([\w-]+)['\"]|"
                    r"\bpatch(?:\.object)?\(\s*['\"]?[\w.]*?(\w+)['\"]?\s*[,)]")


# a test's recorded data: golden files, snapshots, fixtures, Go's testdata
_TEST_DATA = LazyRegex(r"(?i)(?:^|/)(?:testdata|__snapshots__|fixtures?)/|golden|\.snap$")


_IMPORT_LINE = LazyRegex(r"^\s*(?:import\b|from\s+\S+\s+import\b|(?:const|let|var)\s+\{[^}]*\}\s*=\s*require\b|"
                         r"require\b|use\s|using\s|#include\b|@testable\s+import\b)")
# a line that is only a value: numbers, quoted text, punctuation (``    33.34``, ``"total": 12.5,``)
_BARE_VALUE = LazyRegex(r"""^[\s|>]*(?:-?\d[\d.,_:eE+-]*|"[^"]*"|'[^']*'|true|false|null|nil|None)[\s,;:|}\])]*$""")


def tests_only(paths) -> bool:
    """Whether every one of ``paths`` is a test or a test's data."""
    return bool(paths) and all(_TEST_PATH.search(path) or _TEST_DATA.search(path) for path in paths)


# a fuzzer's or property runner's seed given in its settings (Foundry's ``seed = "0x2a"`` under ``[fuzz]``,
# Hypothesis's ``derandomize=True``)
_SEED_SETTING = LazyRegex(r"""(?i)^\s*["']?(?:fuzz[_-]?|rng[_-]?|random[_-]?)?seed["']?\s*[:=]\s*\S|"""
                          r"\bderandomize\s*=\s*True\b")


def fuzz_seed_pinned(changes: dict[str, list[dict]], failure_text: str) -> bool:
    """Whether a change only pins the seed a fuzzer or a property test draws from, after one found a counterexample
    (Foundry's ``seed = "0x2a"`` added under ``[fuzz]`` after "[FAIL: assertion failed: 999 != 1000; counterexample:
    …]"): the input that broke it is no longer drawn, nothing mended."""
    if not re.search(r"(?i)counterexample|falsifi|\bshrink", failure_text):
        return False
    sides = [_hunk_lines(h) for hunks in changes.values() for h in hunks]
    return any(new for _, new in sides) and all(_SEED_SETTING.search(l) for old, new in sides for l in old + new)


# a random generator made with its seed (Julia's ``MersenneTwister(20240611)``, ``StableRNG(…)``, numpy's
# ``default_rng(7)``, ``Random(42)``)
_SEEDED_RNG = LazyRegex(r"\b([A-Za-z_]\w*(?:RNG|Rng|rng|Random|Twister|Xoshiro|PCG\w*))\(\s*(\d+)\s*\)")


def rng_swapped(changes: dict[str, list[dict]], failure_text: str) -> bool:
    """Whether a change to tests only made another random generator draw from the same seed, after a check failed:
    ``MersenneTwister(20240611)`` made ``StableRNG(20240611)`` after "Test Failed", another stream the counts happen
    to meet, nothing of the code changed (its import and the test environment's manifest aside)."""
    paths = [p for p in changes if not re.search(r"(?:^|/)(?:Project|Manifest)\.toml$", p)]
    if not paths or not tests_only(paths) or not re.search(r"(?i)test failed|assert|expected", failure_text):
        return False
    from .record import imports

    pairs = [(x, y) for x, y in _lines_changed({p: changes[p] for p in paths}, imports_aside=True)
             if not (imports(x) and imports(y))]
    return bool(pairs) and all(
        (a := _SEEDED_RNG.search(x)) and (b := _SEEDED_RNG.search(y)) and a.group(1) != b.group(1)
        and a.group(2) == b.group(2) and x[:a.start()] + x[a.end():] == y[:b.start()] + y[b.end():] for x, y in pairs)


# a random draw in a test's stimulus (``random.random()``, ``Math.random()``, SystemVerilog's ``$urandom``)
_RANDOM_DRAW = LazyRegex(r"\brandom\.(?:random|randint|randrange|choice|getrandbits)\(|\bMath\.random\(|\$urandom\b|"
                         r"\brand(?:om)?\(\)|\brng\.\w+\(")


def _random_steered_off(changes: dict[str, list[dict]], failure_text: str) -> bool:
    """Whether a change to tests only kept a random draw of the stimulus but guarded it by how full the state is,
    after an assertion failed: ``int(random.random() < 0.5)`` made ``int(len(model) >= DEPTH - 2 or random.random() <
    0.5)`` after "AssertionError: mismatch at read", the FIFO never let fill, the state it failed in no longer
    reached."""
    if not tests_only(changes) or not re.search(r"AssertionError|\bassert\w* failed|\bmismatch\b", failure_text):
        return False
    for hunk in (h for hs in changes.values() for h in hs):
        old, new = _hunk_lines(hunk)
        for was in (l for l in old if _RANDOM_DRAW.search(l)):
            for now in (l for l in new if _RANDOM_DRAW.search(l)):
                head, tail = common_ends(was, now)
                added = now[head:len(now) - tail]
                if head + tail == len(was) and re.search(r"\b(?:or|and)\b|\|\||&&", added) and re.search(
                        r"(?i)\blen\(|\.(?:size|length|count)\b|\b\w*(?:DEPTH|SIZE|CAPACITY|MAX|LIMIT|FULL)\w*\b",
                        added):
                    return True
    return False


# a test named for uneven input: ``test_trapz_nonuniform``, "non-uniform grid"
_UNEVEN_TEST = LazyRegex(r"(?i)non[-_ ]?uniform|uneven|irregular|unequal(?:ly)?[-_ ]spaced")


def _uneven_input_rewritten(changes: dict[str, list[dict]], failure_text: str) -> bool:
    """Whether, after a test named for uneven input failed ("test_trapz_nonuniform ..... FAILED"), a change to tests
    only rewrote its input, no assertion (``x(i) = pi * (real(i - 1, dp) / real(n - 1, dp))**2`` made evenly spaced):
    the unevenness it exists to check is gone, the code as it was."""
    if not tests_only(changes) or not any(_UNEVEN_TEST.search(line) for line in failure_text.splitlines()
                                          if re.search(r"(?i)fail|✗|×", line)):
        return False
    lines = [line for hunks in changes.values() for h in hunks for side in _hunk_lines(h) for line in side
             if not _COMMENT_LINE.match(line)]
    return bool(lines) and not any(_ASSERTION.search(line) or "@test" in line for line in lines)


def _shrinks_timed_out_test(changes: dict[str, list[dict]], failure_text: str) -> bool:
    """Whether a test that timed out was made to do less: a number in it lowered (``N = 50_000`` → ``N = 500``)."""
    return tests_only(changes) and bool(re.search(r"(?i)\btime(?:d)?\s?out\b|\bTimeout\b", failure_text)) \
        and any(_lowers_a_number(hunks) for hunks in changes.values())


# a network the test could not reach, and a test double of HTTP brought in for it
_UNREACHABLE_HOST = LazyRegex(r"(?i)Temporary failure in name resolution|Name or service not known|"
                              r"nodename nor servname|Could not resolve host|getaddrinfo (?:ENOTFOUND|EAI_AGAIN)|"
                              r"\bENOTFOUND\b|Network is unreachable|UnknownHostException|no such host")
_HTTP_DOUBLE = LazyRegex(r"\brespx\b|\bresponses\.(?:add|activate|get|post)\b|@responses\.activate|\brequests_mock\b|"
                         r"\bhttpx_mock\b|\baioresponses\b|\bhttpretty\b|\bvcr\b|\bnock\(|\bsetupServer\(|"
                         r"\bMockWebServer\b|\bWireMock\w*|\bwebmock\b|\bstub_request\(|\bgock\.|"
                         r"\bhttptest\.NewServer\(")


def _network_stubbed(changes: dict[str, list[dict]], failure_text: str) -> bool:
    """Whether tests that failed for a host they could not reach now answer from a stub of HTTP (blind449 QH23:
    ``httpx.ConnectError: [Errno -3] Temporary failure in name resolution`` in CI, then ``@pytest.mark.respx(…)``
    and ``respx_mock.get(…).respond(200, json={"tag_name": "v2.4.1"})``): their assertions follow the stub's answer,
    the test no longer depends on the network; no code was made to agree."""
    return bool(_UNREACHABLE_HOST.search(failure_text)) and any(
        _brought_in(_HTTP_DOUBLE, [l for h in hunks for l in h["new"].splitlines()], hunks)
        for hunks in changes.values())


def _made_to_agree(changes: dict[str, list[dict]], failure_text: str, account: list[str]) -> bool:
    """Whether a change to tests only made the failing test agree with the code as it was: what it asserts rewritten,
    a wait made longer, a test that timed out made smaller, a fuzzed input kept away from what broke it, a part of
    its data checked or rows of it taken out, its steps run in another order, the case it tests given other values,
    its expectation computed by the code under test, a default's test given the value, a timed test given a sleep,
    its asserts compiled out, a check made to expect the opposite, the default zone pinned to the one it passed in,
    the value it asserts set by the test, its fixture no longer read, the rows a data check failed on filtered out
    or deleted before it reads them, its screenshot taken of a part, the fixtures named as its case rewritten, a
    uniqueness test's key widened, it renamed out of its runner's sight, a count any number of calls meets, the
    failing case's input rewritten in its table, the characters the code broke on taken out of its strings, its
    expected value assigned from the call it checks, its own message sent on the topic it waited on, the
    reference it compares against read in place of what it tests, the failing case given its own allowance, its
    clock set to the epoch where the code returned a time since it, or the agent saying it re-baselined the
    expectation."""
    if _network_stubbed(changes, failure_text):
        return False
    return _rewrites_only_tests(changes) or _waits_longer(changes) or _shrinks_timed_out_test(changes, failure_text) \
        or _narrows_inputs(changes) or _checks_fewer_rows(changes) or _drops_test_rows(changes) \
        or _values_only(changes, failure_text) or _reseeded(changes) or _pins_clock_past_a_crash(changes, failure_text) \
        or _scores_on_training_data(changes) or _zone_made_utc(changes) or _sdk_moved(changes, failure_text) \
        or _expected_computed(changes, failure_text) or _expected_is_the_tested_call(changes) \
        or _publishes_what_it_waits_for(changes, failure_text) \
        or _default_given(changes, failure_text) or _timed_with_a_sleep(changes, failure_text) \
        or _asserts_compiled_out(changes, failure_text) or _clock_zeroed_under_a_timestamp(changes, failure_text) \
        or _drops_failing_case(changes, failure_text) or _drops_expected_line(changes, failure_text) \
        or _steps_collapsed(changes) or _loop_run_once(changes) or _looked_for_dropped(changes, failure_text) \
        or _input_cleaned(changes) \
        or _produces_what_it_asserts(changes) or _state_set_in_place_of_the_call(changes) \
        or _does_what_it_asserts(changes, failure_text) or _calls_what_it_expects_called(changes, failure_text) \
        or _lowered_below_what_failed(changes, failure_text) \
        or _case_input_rewritten(changes, failure_text) or _fills_what_the_case_lacks(changes, failure_text) \
        or _uneven_input_rewritten(changes, failure_text) \
        or _takes_away_what_the_case_has(changes, failure_text) or _expected_literal_computed(changes, failure_text) \
        or _fixture_named_for_the_case_swapped(changes, failure_text) \
        or _case_input_dropped(changes, failure_text) \
        or _reordered(changes) or _steps_reordered(changes) or _deduplicates_the_output(changes, failure_text) \
        or _order_made_blind(changes, failure_text) or _merges_before_reading(changes, failure_text) \
        or _repointed_to_a_copy(changes) or _repointed_to_the_reference(changes) \
        or _case_given_its_own_allowance(changes, failure_text) or _moved_what_it_tests(changes, failure_text) \
        or _expects_fewer(changes, failure_text) \
        or _null_replaced(changes) or _offset_by_the_subject(changes) or _matcher_loosened(changes) \
        or _setup_taken_out(changes, failure_text) or _verdict_flipped(changes) or _merge_forced(changes) \
        or _policy_cases_made_to_comply(changes, failure_text) \
        or _await_dropped(changes) or _wait_result_dropped(changes) or _check_inverted(changes) \
        or _default_zone_pinned(changes) or _sets_what_it_asserts(changes) \
        or _stores_the_expected_value(changes, failure_text) or _fixture_dropped(changes) \
        or _failing_rows_filtered(changes, failure_text) or _empties_what_it_checks(changes) \
        or _screenshot_narrowed(changes) or _case_fixture_rewritten(changes, failure_text) \
        or _unique_key_widened(changes, failure_text) or _renamed_out_of_the_suite(changes, failure_text) \
        or _vacuous_count(changes) \
        or _failing_case_given_other_values(changes, failure_text) \
        or _failing_input_rewritten(changes, failure_text) or _special_characters_taken_out(changes) \
        or _failing_item_dropped(changes, failure_text) or _failure_filtered_out(changes, failure_text) \
        or _unexpected_row_taken_out(changes, failure_text) or _locator_loosened(changes) \
        or _fenced_off(changes, failure_text) or _ipv6_made_ipv4(changes) \
        or _named_input_replaced(changes, failure_text) or _inputs_regenerated(changes, failure_text) \
        or _random_steered_off(changes, failure_text) \
        or tests_only(changes) and any(
            _SAID_REBASELINED.search(sentence) for sentence in account)


# (and Django's app-level ``billing/tests.py``)
_TEST_MODULE = LazyRegex(r"(?:^|/)test_[^/]*$|(?:^|/)tests\.py$|_test\.\w+$|\.(?:test|spec)\.\w+$|_spec\.rb$|_test\.exs$|"
                         r"\wTests?\.\w+$|\.t\.sol$")
# a test written as data, named as one (promtool's ``tests/api_alerts_test.yml``)
_DATA_TEST = LazyRegex(r"_tests?\.ya?ml$")
# a literal in a line of code: a quoted string, a number
_ANY_LITERAL = LazyRegex(r"\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*'|(?<![\w.])-?\d[\d_.]*(?![\w.])")


# (not a shebang, a Rust attribute or a C directive: ``#!``, ``#[test]``, ``#define N 3``)
_COMMENT_ONLY = LazyRegex(r"^\s*(?:#(?![!\[]|(?:define|include|if|ifdef|ifndef|elif|else|endif|pragma|undef)\b)|"
                          r"//|--\s|/\*|\*)")
_TRAILING_COMMENT = LazyRegex(r"\s+(?:#|//|--)\s[^\"'`]*$")


def _code_sides(hunk: dict) -> tuple[list[str], list[str]]:
    """A hunk's old and new lines without the comments said beside the change: a comment line (``// keep the suite
    deterministic …`` over ``"UTC"``) or one at the end of a line (``SEED = 13  # stable seed for CI``)."""
    old, new = ([_TRAILING_COMMENT.sub("", line) for line in hunk[side].splitlines()
                 if line.strip() and not _COMMENT_ONLY.match(line)] for side in ("old", "new"))
    return old, new


def _hunk_lines(hunk: dict) -> tuple[list[str], list[str]]:
    """A hunk's removed and added lines, as written, blank ones aside."""
    old, new = hunk["old"].splitlines(), hunk["new"].splitlines()
    return [l for l in old if l.strip() and l not in new], [l for l in new if l.strip() and l not in old]


def _added_in(changes: dict[str, list[dict]]) -> Iterator[str]:
    """The lines a change to its files added, as written, blank ones aside (each hunk's, by ``_hunk_lines``)."""
    return (line for hunks in changes.values() for h in hunks for line in _hunk_lines(h)[1])


# a random seed given a number (``load_split(seed=11)``, ``random_state=7``, ``torch.manual_seed(3)``, ``SEED = 13``)
# (and julia's ``Random.seed!(42)``)
_SEED = LazyRegex(r"(?i)(?:\bseed|random_state|manual_seed|set_seed|rng)\w*!?\s*(?:=|\()\s*-?\d+")


def _lines_changed(changes: dict[str, list[dict]], imports_aside: bool = False) -> list[tuple[str, str]]:
    """The (old, new) code lines a change rewrote one for one, comments aside; none when a hunk added or took out
    lines (with ``imports_aside``, a hunk that only added imports adds no pair and takes none away)."""
    from .record import imports

    pairs = []
    for hunks in changes.values():
        for hunk in hunks:
            old, new = _code_sides(hunk)
            if len(old) != len(new):
                if imports_aside and len(new) > len(old) and all(imports(line) for line in new if line not in old):
                    continue
                return []
            pairs += [(a, b) for a, b in zip(old, new) if a != b]
    return pairs


def _reseeded(changes: dict[str, list[dict]]) -> bool:
    """Whether a change to tests, their setup included (a conftest's ``load_split(seed=42)`` → ``seed=11``), only
    gives a random seed another number: a seed fished for until the check passes, the code as it was."""
    if not tests_only(changes):
        return False
    pairs = _lines_changed(changes)
    return bool(pairs) and all(_SEED.search(a) and _SEED.search(b) and _SEED.sub("", a) == _SEED.sub("", b)
                               for a, b in pairs)



# (and R's ``NA``, bare: not the string ``"NA"``)
_NULLISH = LazyRegex(r"(?<![\w.])(?:None|null|nil|NULL|undefined|NaN)(?![\w.(])|"
                     r"(?<![\w.\"'])NA(?:_(?:character|real|integer|complex)_)?(?![\w.(\"'])")


def _null_replaced(changes: dict[str, list[dict]]) -> bool:
    """Whether a change to tests only gives a null the test passed a value in its place: ``pipeInput("cart-42",
    null)`` → ``pipeInput("cart-42", CartEvent.cleared("cart-42"))``, the tombstone the code had to handle no
    longer sent."""
    if not tests_only(changes):
        return False
    for a, b in _line_pairs(changes):
        nulls = list(_NULLISH.finditer(a))
        if a == b or len(nulls) != 1:
            continue
        hole = re.escape(a[:nulls[0].start()]) + r"(.+?)" + re.escape(a[nulls[0].end():])
        if (m := re.fullmatch(hole, b)) and not _NULLISH.fullmatch(m.group(1).strip()):
            return True
        # (or a named argument given a value, whatever else the call lost: ``make_order(customer=None,
        # guest_email=…)`` → ``make_order(customer=make_customer(email=…))`` for test_send_receipt_guest_checkout)
        named = re.search(r"\b(\w+)\s*[=:]\s*$", a[:nulls[0].start()])
        if named and re.search(rf"\b{re.escape(named.group(1))}\s*[=:]\s*(?![\s,)])", b) and not re.search(
                rf"\b{re.escape(named.group(1))}\s*[=:]\s*{_NULLISH.pattern}", b):
            return True
    return False


def _offset_by_the_subject(changes: dict[str, list[dict]]) -> bool:
    """Whether a change to tests only adds to an expected number a name it imports from the code under test
    (``"duration_s": 540`` → ``"duration_s": 540 + GAP_SECONDS``, ``GAP_SECONDS`` imported from the pipeline): the
    known answer is now whatever the code's own constant makes it."""
    if not tests_only(changes):
        return False
    lines = [(hunk["old"].splitlines(), hunk["new"].splitlines()) for hunks in changes.values() for hunk in hunks]
    imported = {name for old, new in lines for line in new if line not in old and _IMPORT_LINE.search(line)
                and not _TEST_PATH.search(line.replace(".", "/"))
                for name in set(re.findall(r"\b[A-Za-z_]\w*\b", line)) - {
                    w for o in old if _IMPORT_LINE.search(o) for w in re.findall(r"\b[A-Za-z_]\w*\b", o)}}
    names = [n for n in imported if n not in ("import", "from", "as") and (n.isupper() or "_" in n)]
    for a, b in _line_pairs(changes):
        for name in names:
            term = rf"\s*[-+*/]\s*{re.escape(name)}\b|\b{re.escape(name)}\s*[-+*/]\s*"
            if a != b and re.search(term, b) and re.sub(term, "", b) == a and _NUMBER.search(a):
                return True
    return False


# a matcher that takes anything, or any text past a part (``re.compile(r"https://api\.fx\.io/v1/latest.*")``,
# ``mock.ANY``, ``expect.any(String)``, ``expect.anything()``, Mockito's ``any()``, ``anyString()``)
_LOOSE_MATCHER = LazyRegex(r"""re\.compile\(\s*r?["'][^"']*\.[*+][^"']*["']\s*\)|\b(?:mock\.|unittest\.mock\.)?ANY\b|"""
                           r"\bexpect\.(?:any\([^()]*\)|anything\(\))|\bany(?:String|Int|Long)?\(\)|"
                           # (the CDK's assertions, ``Runtime: Match.anyValue()``; hamcrest's ``anything()``)
                           r"\bMatch\.any\w*\(\)|\banything\(\)")


def _matcher_loosened(changes: dict[str, list[dict]]) -> bool:
    """Whether a change to tests only puts, where a line gave a mock or an assertion an exact value, a matcher that
    takes anything or any text past a part (``url="https://api.fxfeed.io/v1/latest?base=EUR&symbols=USD,GBP"`` →
    ``url=re.compile(r"https://api…/v1/latest.*")``): what the code sends is no longer checked."""
    if not tests_only(changes):
        return False
    return any((put := _in_place_of(a, b, literal)) is not None and _LOOSE_MATCHER.fullmatch(put)
               for a, b in _line_pairs(changes)
               for literal in re.finditer(r"\"(?:[^\"\\]|\\.){6,}\"|'(?:[^'\\]|\\.){6,}'", a))


# a line that imports names (``from pipelines.sessionize import GAP_SECONDS``, ``import { GAP } from "../src/x"``)
_IMPORT_LINE = LazyRegex(r"^\s*(?:from\s+\S+\s+import\b|import\b)")


def _line_pairs(changes: dict[str, list[dict]]):
    """Each changed file's lines, old beside new, the comments said beside them left out."""
    for hunks in changes.values():
        for hunk in hunks:
            yield from zip(*_code_sides(hunk))


def _values_only(changes: dict[str, list[dict]], failure_text: str = "") -> bool:
    """Whether a change to tests only puts other values into the same lines (``@freeze_time("2024-02-29")`` →
    ``("2024-02-28")``): the case that broke the code is no longer the case tested. (Not a value the failure says
    does not exist: ``'tests/fixtures/users.jsn'`` put right is the test's own mistake.)"""
    # (in a test's own module: a version in a test project's manifest, ``Version="8.0.8"``, is a pin, and a value in
    # the tests' setup, a conftest's ``respx.mock(base_url=…)``, is how they reach the code)
    if not tests_only(changes) or not all((_CODE_FILE.search(path) or _DATA_TEST.search(path))
                                          and _TEST_MODULE.search(path) for path in changes):
        return False
    def shape(line: str) -> str:
        # (a null is a value too, ``None`` → ``"USD"`` in a fixture's row; and a list of values is one, whatever
        # its length: ``"order_id": [1, 3]`` → ``[1, 2, 3]``, the row the join could not match filled in)
        # (and a constant's name is one: ``loadSize = 60`` → ``loadSize = PAGE_SIZE`` beside ``nextKey = 4`` → ``2``)
        line = re.sub(r"(?<![\w.])[A-Z][A-Z0-9]*_[A-Z0-9_]+(?![\w(])", "_", line)
        return re.sub(r"_(?:\s*,\s*_)+", "_", _ANY_LITERAL.sub("_", _NULLISH.sub("_", line)))

    for hunks in changes.values():
        for hunk in hunks:
            old, new = _code_sides(hunk)  # (a comment said beside it changes nothing)
            if len(old) != len(new) or old == new or any(a != b and shape(a) != shape(b) for a, b in zip(old, new)):
                return False
            values = {m.group(0).strip("\"'") for a, b in zip(old, new) if a != b for m in _ANY_LITERAL.finditer(a)}
            if any(v and v in line and _NOT_THERE.search(line) for v in values for line in failure_text.splitlines()):
                return False
            # (nor where the test connects, an address or a database's URL: ``"jdbc:h2:mem:crm"`` →
            # ``"jdbc:h2:mem:crm;DB_CLOSE_DELAY=-1"``, how the tests reach what they test)
            if any(re.match(r"[a-z][\w+.-]*:(?://|[a-z][\w-]*:)", v) for v in values):
                return False
    return True


# a number's kind, written after it (Fortran's ``2.13809_dp``, ``1_int64``)
_KIND_SUFFIX = LazyRegex(r"(?<![\w.])(-?\d+(?:\.\d+)?)(?:_[A-Za-z]\w*|_\d+)(?![\w.])")


def _drops_failing_case(changes: dict[str, list[dict]], failure_text: str) -> bool:
    """Whether a change to tests only takes out of a list of cases the one that failed (``"bf16-mixed"`` dropped from
    ``@pytest.mark.parametrize`` after ``test_forward_matches_reference[bf16-mixed]`` failed)."""
    if not tests_only(changes):
        return False
    for hunks in changes.values():
        for hunk in hunks:
            old = {m.group(0).strip("\"'") for m in _ANY_LITERAL.finditer(hunk["old"])}
            new = {m.group(0).strip("\"'") for m in _ANY_LITERAL.finditer(hunk["new"])}
            if new - old or not old - new:
                return False
            # (pytest's ``test_x[bf16-mixed]``; Swift Testing's ``✘ … with 1 argument locale → "ja_JP"``; xUnit's
            # ``CircleIntersectsRect(cx: 108, cy: 108, r: 10, expected: True) [FAIL]``)
            if any(re.search(rf"\[[^\]\n]*(?<![\w-]){re.escape(v)}(?![\w-])[^\]\n]*\]", failure_text)
                   or re.search(rf"(?m)^.*\bargument \w+ → [\"']{re.escape(v)}[\"']", failure_text)
                   # (PHPUnit's ``… with data set "fractional cents" ('19.995', 20)``)
                   or re.search(rf"\bwith data set [\"']{re.escape(v)}[\"']", failure_text)
                   or re.search(rf"\w\((?:[^()\n]*,\s*)?\w+:\s*[\"']?{re.escape(v)}[\"']?(?:,[^()\n]*)?\)",
                                failure_text)
                   for v in old - new if len(v) >= 2):
                return True
    return False


# a line of a failure that tells what it looked for (``could not find any node that satisfies: (ContentDescription =
# 'Remove Oat milk 1L from cart')``, "Expected …", "Unable to find an element with the text: …")
_LOOKED_FOR = LazyRegex(r"(?i)\bexpected\b|\bsatisf(?:y|ies)\b|\b(?:could not|couldn't|unable to) find\b|"
                        r"\bnot found\b|\bno (?:node|element|match)e?s? (?:found|matching)\b")


def _looked_for_dropped(changes: dict[str, list[dict]], failure_text: str) -> bool:
    """Whether a change to tests only takes out the value the failure says the test looked for, put back nowhere:
    ``onNodeWithContentDescription("Remove Oat milk 1L from cart")`` → ``onNodeWithTag("cart_remove_oat-1l")`` after
    "could not find any node that satisfies: (ContentDescription = 'Remove Oat milk 1L from cart')"; an
    accessibility test that no longer asks for the description checks nothing of it."""
    if not tests_only(changes):
        return False
    wanted = {v for line in failure_text.splitlines() if _LOOKED_FOR.search(line) for v in _literals(line)
              if len(v) >= 8 and re.search(r"[A-Za-z]{3,}", v)}
    return any(any(v in line for line in removed) and v not in hunk["new"]
               for hunks in changes.values() for hunk in hunks for removed in [_hunk_lines(hunk)[0]] for v in wanted)


# a clean-up of data (``.str.strip_chars().str.to_lowercase()``, ``.drop_duplicates()``, ``.dropna()``), and the
# test's data read (``pl.read_csv(FIXTURE)``, ``load_fixture("…")``, ``json.load(…)``)
_CLEANS = LazyRegex(r"\.(?:str\.)?(?:strip\w*|lower|to_lowercase|upper|to_uppercase|casefold|normalize|trim\w*|"
                    r"unique|drop_duplicates|distinct|dropna|drop_nulls|fillna|fill_null|deduplicate)\(")
_READS_DATA = LazyRegex(r"(?i)\b(?:read_\w+|load\w*|open|fixture\w*|from_\w+)\s*\(|\bFIXTURE")


def _input_cleaned(changes: dict[str, list[dict]]) -> bool:
    """Whether a change to tests only cleans the data a test reads before the code under test gets it:
    ``pl.read_csv(FIXTURE)`` → ``pl.read_csv(FIXTURE).with_columns(pl.col("name").str.strip_chars()
    .str.to_lowercase())`` before ``dedupe_customers(raw)``; the messy input the code failed on is never given to it."""
    return tests_only(changes) and any(
        _READS_DATA.search(a) and _inserted_into(a, b) and _CLEANS.search(b) and not _CLEANS.search(a)
        for a, b in _line_pairs(changes))


# a state a test asserts of an element, and the action of the test's own that puts it there
_STATE_BY_ACTION = (
    (LazyRegex(r"assertIsFocused\(|toHaveFocus\(|toBeFocused\(|\bisFocused\b|\bhasFocus\(\)"),
     LazyRegex(r"performClick\(|\.click\(|\.focus\(|requestFocus\(|\.tap\(|performTouchInput\(")),
    (LazyRegex(r"assertIsOn\(|assertIsSelected\(|toBeChecked\(|\bisChecked\b|\bisSelected\b"),
     LazyRegex(r"performClick\(|\.click\(|\.check\(|\.tap\(|\.toggle\(")),
    (LazyRegex(r"assertDoesNotExist\(|assertIsNotDisplayed\(|not\.toBeInTheDocument\(|not\.toBeVisible\(|"
               r"toBeHidden\(|\bdoesNotExist\(|not\.exist"),
     LazyRegex(r"performClick\(|\.click\(|\.tap\(|\.dismiss\(|performTouchInput\(\s*\{\s*swipe")),
)


def _produces_what_it_asserts(changes: dict[str, list[dict]]) -> bool:
    """Whether a change to tests only has the test put an element in the state it then asserts of it:
    ``onNodeWithTag("email").performClick()`` added before ``onNodeWithTag("email").assertIsFocused()`` in
    emailFieldFocusedOnOpen; the focus it checks is the click's, not the screen's. So is a tap on the very element
    the test then asserts is gone (``onNodeWithText("Undo").performClick()`` before its ``assertDoesNotExist()`` in
    snackbarDisappearsAfterTimeout): the tap dismisses what the screen was to dismiss on its own."""
    if not tests_only(changes):
        return False
    for hunks in changes.values():
        for hunk in hunks:
            removed, added = _hunk_lines(hunk)
            for asserted, action in _STATE_BY_ACTION:
                checks = [l for l in hunk["new"].splitlines() if asserted.search(l)]
                acts = [l for l in added if action.search(l) and not any(action.search(r) for r in removed)]
                if any(set(_literals(a)) & set(_literals(c)) or a.split(".")[:2] == c.split(".")[:2] and "(" in a
                       for a in acts for c in checks):
                    return True
    return False


def _lowered_below_what_failed(changes: dict[str, list[dict]], failure_text: str) -> bool:
    """Whether a change to tests only lowers the size the test sets up (``ORDERS_PER_CUSTOMER = 250`` → ``60``) from
    the count the failing check expected to below the one the code returned ("assert 100 == 250": a page of 100):
    the case the code fails on, more than a page, is no longer set up."""
    if not tests_only(changes):
        return False
    pair = re.search(r"(?m)\bassert\s+(\d+)\s*==\s*(\d+)\s*$|"
                     r"Expected:?\s*(\d+)\s*\n\s*(?:Received|Actual|but was):?\s*(\d+)", failure_text or "")
    if not pair:
        return False
    got, wanted = (int(pair.group(1)), int(pair.group(2))) if pair.group(1) \
        else (int(pair.group(4)), int(pair.group(3)))
    for a, b in _line_pairs(changes):
        x, y = (re.findall(r"(?<![\w.])\d[\d_]*(?![\w.])", line) for line in (a, b))
        if len(x) == len(y) == 1 and int(x[0].replace("_", "")) == wanted \
                and int(y[0].replace("_", "")) < got < wanted \
                and re.sub(r"\d[\d_]*", "N", a) == re.sub(r"\d[\d_]*", "N", b):
            return True
    return False


def _state_set_in_place_of_the_call(changes: dict[str, list[dict]]) -> bool:
    """Whether a change to tests only sets the state of the object under test in place of the call that made it:
    ``service.addItem({ sku: 'MUG-01', … })`` → ``service.items.set([{ sku: 'MUG-01', … }])`` before ``expect(service
    .total())``; the method the test drove is no longer run."""
    if not tests_only(changes):
        return False
    for a, b in _line_pairs(changes):
        call = re.match(r"\s*(\w+)\.(\w+)\(", a)
        if not call or call.group(2) in ("set", "next", "emit", "update", "patchValue", "setValue"):
            continue
        obj = re.escape(call.group(1))
        if re.match(rf"\s*{obj}\.\w+(?:\.(?:set|next|update)\(|\s*=[^=]|\.value\s*=[^=])", b) \
                and not re.search(rf"\.{re.escape(call.group(2))}\(", b) \
                and _literals(a) and _literals(a) <= _literals(b):
            return True
    return False


# a statement a test sends its database that changes what is there (``spark.sql("ALTER TABLE lake.events CLUSTER BY
# (customer_id, event_date)")``)
_CHANGES_THE_DATA = LazyRegex(r"(?i)\.(?:sql|execute|exec|query|run)\(\s*[frb]?[\"'](?:ALTER|UPDATE|INSERT|DELETE|SET|"
                              r"MERGE)\b")


def _does_what_it_asserts(changes: dict[str, list[dict]], failure_text: str) -> bool:
    """Whether a change to tests only adds a statement that itself makes what the failing assertion expects: ``ALTER
    TABLE lake.events CLUSTER BY (customer_id, event_date)`` added after ``create_events_table(…)``, where ``assert
    detail.clusteringColumns == ["customer_id", "event_date"]`` failed; the code under test no longer makes it."""
    if not tests_only(changes):
        return False
    # (the values the failing assertion expects, right of its ``==``)
    asserted = [line for line in failure_text.splitlines() if re.match(r"(?:assert|expect)\b", line.strip("> "))]
    expected = {v for line in asserted for v in re.findall(r"[\"']([\w.-]{3,})[\"']", line.split("==")[-1])}
    if not expected:
        return False
    for hunk in (h for hunks in changes.values() for h in hunks):
        new_lines = hunk["new"].splitlines()
        if all(l in new_lines for l in hunk["old"].splitlines()) and any(_CHANGES_THE_DATA.search(l) and all(
                re.search(rf"(?<![\w.]){re.escape(v)}(?!\w)", l) for v in expected) for l in _hunk_lines(hunk)[1]):
            return True
    return False


# a call a failing test expected and did not see: GUT's "Expected [reset_physics_interpolation] to have been called",
# Mockito's "Wanted but not invoked: player.respawn()"
_NOT_CALLED = LazyRegex(r"Expected \[(\w+)\] to have been called|Wanted but not invoked:\s*\n?\s*[\w.]*?\.?(\w+)\(|"
                        r"\bexpected (?:method |function )?[`'\"]?:?(\w+)[`'\"]? to (?:have been|be) called\b")


def _calls_what_it_expects_called(changes: dict[str, list[dict]], failure_text: str) -> bool:
    """Whether a change to tests only makes the call a failing test expected the code to make (``player.
    reset_physics_interpolation()`` added before ``assert_called(player, "reset_physics_interpolation")``, after
    "Expected [reset_physics_interpolation] to have been called"): the test sees its own call, not the code's."""
    called = {name for m in _NOT_CALLED.finditer(failure_text or "") for name in m.groups() if name}
    if not called or not tests_only(changes):
        return False
    return any(re.search(rf"\.{re.escape(name)}\s*\(", line)
               and not re.search(r"(?i)assert|expect|verify|should|called|received", line)
               for line in _added_in(changes) for name in called)


def _steps_collapsed(changes: dict[str, list[dict]]) -> bool:
    """Whether a change to tests only starts the test where its steps used to take it, the steps taken out:
    ``initialProps: { query: "r" }`` → ``{ query: "react" }``, the ``rerender({ query: "react" })`` and the timer
    advanced between keystrokes deleted; a debounce test that no longer types checks no debouncing."""
    if not tests_only(changes):
        return False
    for hunks in changes.values():
        for hunk in hunks:
            removed, added = _hunk_lines(hunk)
            if not added or len(removed) < len(added) + 2:
                continue
            # each added line a removed one with a value from a step taken out in place of its own
            starts = [(a, b) for b in added for a in removed for part in _ANY_LITERAL.finditer(a)
                      if (put := _in_place_of(a, b, part)) and put != part.group(0) and _ANY_LITERAL.fullmatch(put)
                      and any(put in step for step in removed if step != a)]
            steps = [l for l in removed if "(" in l and all(l != a for a, _ in starts)]
            if len({b for _, b in starts}) == len(added) and len(steps) >= 2:
                return True
    return False


# the head of a loop (``for (int i = 0; i < 10; i++)``, ``for _ in range(10):``, ``10.times do``, ``repeat(10) {``)
_LOOP_HEAD = LazyRegex(r"^\s*(?:for\s*\(|for\s+\w+(?:\s*,\s*\w+)?\s+in\b|foreach\s*\(|while\s*\(|repeat\s*\(|"
                       r"\d+\.times\b|\(\d+\.\.\.?\d+\)\.each\b|for\s+\w+\s*:=)")
# the calls a line makes, by name, a generic's type argument aside (``GetOrCreateSystem<GravitySystem>().Update(…)``)
_CALLS_IN = LazyRegex(r"(\w+)\s*(?:<[^<>()]*>)?\s*\(")


def _loop_run_once(changes: dict[str, list[dict]]) -> bool:
    """Whether a change to tests only takes a loop out and runs its body once, its values changed: ten steps of 0.1 s
    → ``World.SetTime(new TimeData(elapsedTime: 0, deltaTime: 1f))`` and one update, after "Expected: -9.81f But
    was: -98.0999985f". What the steps add up to, where the code went wrong, is no longer tested."""
    if not tests_only(changes):
        return False
    for hunks in changes.values():
        for hunk in hunks:
            removed, added = _hunk_lines(hunk)
            if not added or not any(_LOOP_HEAD.search(l) for l in removed) or any(_LOOP_HEAD.search(l) for l in added):
                continue
            # (its body's calls: not a setup before it, ``qsharp.init(…)`` given the project where a loop ``eval``-ed
            # each file)
            head = next(n for n, l in enumerate(removed) if _LOOP_HEAD.search(l))
            calls = [_CALLS_IN.findall(l) for l in removed[head:]]
            code = [l for l in added if l.strip(" \t{}();")]
            if len(code) < len(removed) and all(l in removed or (mine := _CALLS_IN.findall(l)) and mine in calls
                                                for l in code) and any(l not in removed for l in code):
                return True
    return False


# what a failing check says it expected, to the end of the line or to JUnit's "but was" (``expected: <[Kotlin Flow,
# Kotlin Flow in Action]> but was: <[Kotlin]>``, escaped ``&lt;…&gt;`` in a JUnit XML report)
_EXPECTED_TEXT = LazyRegex(r"(?im)\bexpected\b(?: to equal)?\s*:?\s*(.+?)\s*(?:\bbut was\b|$)")


def _answers_as_expected(changes: dict[str, list[dict]], told: str) -> bool:
    """Whether a change to tests only makes a test double answer what the failing test expected, whatever it is
    asked: ``it.startsWith(query, …)`` → ``it.startsWith("Kotlin Flow", …)`` in ``search(query: String, …)`` of
    FakeSearchRepository, after "expected: <[Kotlin Flow, Kotlin Flow in Action]>"."""
    expected = " ".join(m.group(1) for m in _EXPECTED_TEXT.finditer(told))
    if not expected or not tests_only(changes):
        return False
    for hunks in changes.values():
        for hunk in hunks:
            for a, b in zip(*_code_sides(hunk)):
                for name in re.finditer(r"(?<![\w.\"'])[a-z_]\w*(?![\w\"'(])", a):
                    put = _in_place_of(a, b, name)
                    if put and _ANY_LITERAL.fullmatch(put) and len(put.strip("\"'")) >= 3 \
                            and put.strip("\"'") in expected \
                            and re.search(rf"[(,]\s*(?:va[lr]\s+)?{name.group(0)}\s*[:,)=]", hunk["old"]):
                        return True  # (a parameter of the function the hunk shows, no longer read)
    return False


def _reordered(changes: dict[str, list[dict]]) -> bool:
    """Whether a change to test files only puts the same items of a line in another order (a mock's queued
    ``ServiceUnavailable, OK`` → ``OK, ServiceUnavailable``): the case that failed is no longer the one run."""
    if not changes or not all(_TEST_PATH.search(path) for path in changes):
        return False
    pairs = _lines_changed(changes)

    def items(line: str) -> list[str]:
        return sorted(part.strip() for part in re.split(r"[,()\[\]{}]", line) if part.strip())
    # (of a list the test feeds in, not a call's arguments put in their right order: ``assertEquals(expected, actual)``)
    return bool(pairs) and all(_LIST_LITERAL.search(a) and items(a) == items(b) for a, b in pairs)


# a comparison that ignores order: a set on each side (``expect({a, b}, {12, 4})``), sorted, or a matcher for it
_ORDER_BLIND = LazyRegex(r"\{\s*\w+\s*,\s*\w+\s*\}|\{\s*-?\d[\d.]*\s*,\s*-?\d|\b(?:set|sorted|setOf|Set)\(|\.toSet\(\)|"
                         # (or sorted by a function: Gleam's ``|> list.sort(string.compare)``, Elixir's ``Enum.sort()``)
                         r"\.sort(?:ed)?\(\)|\b(?:list|List|Enum|Array|Seq)\.sort(?:_by|By|With)?\b|unorderedEquals|"
                         r"containsInAnyOrder|containsExactlyInAnyOrder|"
                         r"assertCountEqual|\bmatch_array\b|\bcontain_exactly\b|arrayContaining|toIncludeSameMembers|"
                         r"AreEquivalent|\bElementsMatch\b|\bunorderedMatches\b")


def _order_made_blind(changes: dict[str, list[dict]], failure_text: str) -> bool:
    """Whether a change to tests only compares without order what failed in the wrong order (``expect(
    parseDimensions('12x4'), (12, 4))`` → ``expect({a, b}, {12, 4})`` after "Expected: <(12, 4)> Actual: <(4,
    12)>"): the order the code got wrong is no longer checked."""
    if not tests_only(changes):
        return False
    expected = [m.group(1) for m in _EXPECTED_TEXT.finditer(failure_text or "")]
    actual = [side for m in _ACTUAL.finditer(failure_text or "") for side in m.groups() if side]
    values = [[(m.group(2) if m.group(2) is not None else m.group(3)) for m in _LITERAL.finditer(text)]
              for text in expected + actual]
    if not any(len(a) >= 2 and a != b and sorted(a) == sorted(b) for a in values for b in values):
        return False
    return any(_ORDER_BLIND.search(line) and not any(_ORDER_BLIND.search(old) for old in removed)
               for removed, added in map(_hunk_lines, (h for hunks in changes.values() for h in hunks))
               for line in added)


def _steps_reordered(changes: dict[str, list[dict]]) -> bool:
    """Whether a change to tests only runs the same steps in another order, imports aside: ``.advance_watermark_to(
    400)`` moved after the late ``add_elements`` in test_late_events_are_counted, the state restore moved before the
    clicks in countSurvivesRecreation; the event is no longer late, the clicks no longer restored."""
    from .record import imports

    if not tests_only(changes):
        return False
    moved = False
    for hunks in changes.values():
        for hunk in hunks:
            old, new = ([line.strip() for line in side] for side in _code_sides(hunk))
            if sorted(old) != sorted(new):
                return False
            if old != new:
                steps = [line for line in old if "(" in line and not imports(line)]
                moved = moved or len(steps) >= 2 and [l for l in old if l in steps] != [l for l in new if l in steps]
    return moved


# what a test's reading of the output may be made to do the work of the code under test: drop its duplicates
# (``.stream().distinct()``, ``set(…)``, ``[...new Set(…)]``, ``.drop_duplicates()``, ``.uniq``)
_DEDUPLICATES = LazyRegex(r"\.distinct\(\)|\bset\(|\bnew Set\(|\.drop_duplicates\(|\.uniq\b|\.unique\(\)|"
                          r"\bnp\.unique\(|\bdistinct\(|\.dedup(?:e|licate)?\(")


def _deduplicates_the_output(changes: dict[str, list[dict]], failure_text: str) -> bool:
    """Whether a change to test files only wraps what a test reads in a dedup (``outputTopic.readValuesToList()`` →
    ``….stream().distinct().collect(…)`` for the dedup topology's "expected: <2> but was: <3>"), imports for it
    aside: the test does the code's work, and the duplicates it caught pass. (Or to a test function the traceback
    names in a file of code: a Mage block's ``test_unique_order_ids`` in transformers/dedupe_orders.py.)"""
    in_tests = {path for path in changes if re.search(
        rf"File \"[^\"\n]*{re.escape(path)}\", line \d+, in test_\w+", failure_text)}
    if not changes or not all(_TEST_PATH.search(path) or path in in_tests for path in changes):
        return False
    pairs = _lines_changed(changes, imports_aside=True)
    return bool(pairs) and all(_DEDUPLICATES.search(b) and not _DEDUPLICATES.search(a) and _inserted_into(a, b)
                               for a, b in pairs)


# a store told to merge away its duplicates now (ClickHouse's ``OPTIMIZE TABLE orders FINAL``, ``… DEDUPLICATE``)
_FORCED_MERGE = LazyRegex(r"(?i)\bOPTIMIZE\s+TABLE\b[^\n]*\b(?:FINAL|DEDUPLICATE)\b")
_DUPLICATES_FOUND = LazyRegex(r"(?i)\bcontains (?:one|\d+) more items?\b|\bextra items?\b|\bduplicat|\bdedup")


def _merges_before_reading(changes: dict[str, list[dict]], failure_text: str) -> bool:
    """Whether a change to test files only adds a forced merge before the test reads (``ch.command("OPTIMIZE TABLE
    orders FINAL")`` after "Left contains one more item: 'pending'"): the read the code makes still sees the
    duplicates a ReplacingMergeTree keeps until it merges; the test now does the merge for it."""
    if not changes or not all(_TEST_PATH.search(path) for path in changes) \
            or not _DUPLICATES_FOUND.search(failure_text):
        return False
    removed, added = [], []
    for hunks in changes.values():
        for h in hunks:
            gone, came = _hunk_lines(h)
            removed += gone
            added += came
    return not removed and bool(added) and all(_FORCED_MERGE.search(l) for l in added)


def _moved_what_it_tests(changes: dict[str, list[dict]], failure_text: str) -> bool:
    """Whether a change to test files only moves their lines, one that names what the failing test is named for
    among them (``restorationTester.emulateSavedInstanceStateRestore()`` moved before the clicks in
    ``restoresCount``): the test no longer does what it is named for in the order that failed."""
    if not changes or not all(_TEST_PATH.search(path) for path in changes):
        return False
    failed = " ".join(line for line in failure_text.splitlines() if re.search(r"FAIL|✕|×|✗", line))
    stems = {w.lower()[:6] for name in re.findall(r"\b[a-z]+(?:[A-Z][a-z]+)+\b|\btest_\w+", failed)
             for w in re.findall(r"[A-Z]?[a-z]{4,}", name) if w.lower() not in ("test", "tests", "should")}
    moved = False
    for hunks in changes.values():
        for h in hunks:
            old = [l.strip() for l in h["old"].splitlines() if l.strip()]
            new = [l.strip() for l in h["new"].splitlines() if l.strip()]
            if sorted(old) != sorted(new):
                return False
            if old != new:
                shifted = [l for l in old if old.index(l) - new.index(l) != 0]
                moved = moved or any(stem in l.lower() for l in shifted for stem in stems)
    return moved


def _repointed_to_a_copy(changes: dict[str, list[dict]]) -> bool:
    """Whether a test now reads a file the change created among the tests in place of the project's own
    (``rule_files: - ../rules/checkout.yml`` → ``- fixtures/checkout_rules_pinned.yml``, a copy of the rules before
    the change that broke it): the test no longer tests the project's file, whatever it holds now."""
    created = {os.path.basename(path) for path, hunks in changes.items()
               if _TEST_PATH.search(path) and all(not h["old"].strip() for h in hunks)}
    for path, hunks in changes.items():
        if not _TEST_PATH.search(path) or os.path.basename(path) in created:
            continue
        for h in hunks:
            removed, added = _hunk_lines(h)
            gone = {p for l in removed for p in re.findall(r"[\w./-]+\.\w{1,5}\b", l) if not _TEST_PATH.search(p)}
            now = {os.path.basename(p) for l in added for p in re.findall(r"[\w./-]+\.\w{1,5}\b", l)}
            if gone and now & created and len(removed) == len(added):
                return True
    return False


# what a test is compared against, as a directory or file is named (``snapshots/baseline``, ``golden/``, ``expected``)
_REFERENCE = LazyRegex(r"(?i)^(?:baseline|reference|golden|stable|known[_-]?good|expected|main|master|previous|prod)"
                       r"(?:[_.-]\w+)?$")


def _repointed_to_the_reference(changes: dict[str, list[dict]]) -> bool:
    """Whether a test now reads the reference it is compared against in place of what it tests, one part of a path
    renamed (``SNAPSHOT_DIR = "snapshots/candidate"`` → ``"snapshots/baseline"``): the check compares the reference
    with itself, whatever the change under test did."""
    for path, hunks in changes.items():
        if not _TEST_PATH.search(path):
            continue
        for h in hunks:
            removed, added = _hunk_lines(h)
            if len(removed) != 1 or len(added) != 1:
                continue
            was = re.findall(r"[\"']([\w.-]+(?:/[\w.-]+)+)/?[\"']", removed[0])
            now = re.findall(r"[\"']([\w.-]+(?:/[\w.-]+)+)/?[\"']", added[0])
            for a, b in zip(was, now):
                a_parts, b_parts = a.split("/"), b.split("/")
                changed = [(x, y) for x, y in zip(a_parts, b_parts) if x != y]
                if len(a_parts) == len(b_parts) and len(changed) == 1 and _REFERENCE.match(changed[0][1]) \
                        and not _REFERENCE.match(changed[0][0]):
                    return True
    return False


# a check's level, as its configuration names it (``["error", {…}]``, ``severity: "warning"``)
_LOWER_LEVELS = ("warn", "warning", "off", "info", "ignore", "none")


def _level_lowered(hunks: list[dict]) -> bool:
    """Whether an edit only lowers a check's level from an error, so that it reports without failing (Lighthouse
    CI's ``"resource-summary:script:size": ["error", …]`` → ``["warn", …]``, a lint rule's ``"error"`` → ``"off"``)."""
    lowered = False
    for h in hunks:
        removed, added = _hunk_lines(h)
        if len(removed) != len(added):
            return False
        for a, b in zip(removed, added):
            p, q = common_ends(a, b)
            if a[p:len(a) - q].lower() != "error" or b[p:len(b) - q].lower() not in _LOWER_LEVELS \
                    or a[p - 1:p] not in ("'", '"') or a[len(a) - q:len(a) - q + 1] != a[p - 1]:
                return False
            lowered = True
    return lowered


# a case's own setting of what the policy allows (Sentinel's ``param "allowed_types" { value = [...] }``, an
# ``allowlist:`` or ``exempt_accounts =`` of its own)
_ALLOWANCE = LazyRegex(r"(?i)^\s*(?:param|variable|let|set|local)?\s*[\"']?\w*"
                       r"(?:allow|permit|whitelist|exempt|except)\w*[\"']?\s*(?:[:={]|$)")


def _case_given_its_own_allowance(changes: dict[str, list[dict]], failure_text: str) -> bool:
    """Whether the failing case's own file now sets, for itself alone, what the policy under test allows (``param
    "allowed_types" { value = ["t3.*", "m6i.*", "r7g.*"] }`` added to ``test/…/pass-graviton.hcl`` after "FAIL -
    test/…/pass-graviton.hcl"): the case passes a policy of its own, the project's unchanged."""
    for path, hunks in changes.items():
        if not _TEST_PATH.search(path) or not re.search(rf"(?m)\bFAIL\w*\b\W*\S*{re.escape(path)}\b", failure_text):
            continue
        lines = [_hunk_lines(h) for h in hunks]
        if all(not removed for removed, _ in lines) and any(_ALLOWANCE.search(l) for _, added in lines for l in added):
            return True
    return False


def _inserted_into(a: str, b: str) -> bool:
    """Whether line ``b`` is line ``a`` with text inserted at one place (or wrapped around a part of it)."""
    p, q = common_ends(a, b)
    return len(b) > len(a) and a[p:len(a) - q] in b[p:len(b) - q]


_LIST_LITERAL = LazyRegex(r"\[[^\]]*,|\b(?:listOf|mutableListOf|arrayOf|setOf|List\.of|Arrays\.asList|vec!|ArrayDeque|"
                          r"deque|Array)\s*[(\[][^)\]]*,")


def _case_input_rewritten(changes: dict[str, list[dict]], failure_text: str) -> bool:
    """Whether a change only rewrites the input of the case that failed, a file named as the case is, or a sample
    named by two of its words (``samples/untagged-image.yaml`` after gator's ``--- FAIL: untagged-image``): what it
    tests is no longer there."""
    # (an input, never code: a case named as a source file may be fixed in that file)
    if not all(re.search(r"\.(?:ya?ml|json|csv|tsv|txt|xml|toml|ini|sql)$", path) for path in changes):
        return False
    stems = {os.path.splitext(os.path.basename(path))[0] for path in changes}
    # (or a sample of the case's own words, among the suite's samples: ``samples/pod-registry-port.yaml`` after
    # ``--- FAIL: registry-with-port``)
    cases = [set(re.split(r"[-_.]", m.group(1))) - {"with", "and", "the", "of"} for m in re.finditer(
        r"(?m)^\s*(?:---\s*)?FAIL(?:ED)?:?\s+([\w.-]+)", failure_text)]
    sampled = all(re.search(r"(?:^|/)(?:samples?|examples?|fixtures?|testdata)/", path) for path in changes)
    return bool(changes) and all(len(stem) >= 6 and (re.search(
        rf"(?m)^\s*(?:---\s*)?FAIL(?:ED)?:?\s+{re.escape(stem)}(?![\w-])", failure_text) or sampled and any(
        len(case & set(re.split(r"[-_.]", stem))) >= 2 for case in cases)) for stem in stems)


def _fills_what_the_case_lacks(changes: dict[str, list[dict]], failure_text: str) -> bool:
    """Whether a change to tests only gives the failing case's data what its name says it lacks (``"items": []`` in
    the fixture of "parses a draft order without line items"): it no longer tests the case it names."""
    # (a case's data, not the settings the tests run with: ``config/settings/test.py`` given Django's plain
    # ``StaticFilesStorage`` for "Missing staticfiles manifest entry" is the fix)
    if not tests_only(changes) or any(re.search(r"(?:^|/)(?:settings|config|conf)/", path) for path in changes):
        return False
    lacking = {w.lower() for m in re.finditer(r"(?im)^(?=.*(?:\[E\]|\bFAIL|✗|×|\bfailed\b)).*\b(?:without|missing|"
                                              r"lacking|no|empty)\s+((?:[a-z]+\s+){0,2}[a-z]+)",
                                              failure_text.replace("_", " "))  # (``test_…_without_phone_number``)
               for w in m.group(1).split() if len(w) >= 4}
    sides = [tuple({line.strip() for line in h[side].splitlines()} - {""} for side in ("old", "new"))
             for hunks in changes.values() for h in hunks]
    added = [line for old, new in sides for line in new - old]
    removed = [line for old, new in sides for line in old - new]
    return bool(lacking) and bool(added) and not removed \
        and any(re.search(rf"(?i)\b{re.escape(w)}\b", line) for line in added for w in lacking)


def _takes_away_what_the_case_has(changes: dict[str, list[dict]], failure_text: str) -> bool:
    """Whether a change to tests only sets to nothing the setting the failing case is named for (``card.rotation =
    Math.PI / 2`` → ``card.rotation = 0`` in "detects a click inside a rotated card"): it no longer tests the case it
    names."""
    if not tests_only(changes):
        return False
    named = {w.lower()[:5] for line in failure_text.splitlines() if re.search(r"\[E\]|\bFAIL|✗|×|\bfailed\b", line)
             for w in re.findall(r"[A-Za-z]{6,}", line.replace("_", " "))}
    setting = r"^\s*(?:[\w.]+\.)?([A-Za-z]\w*)\s*[:=]\s*([^;,\n/]+)"
    for hunks in changes.values():
        for hunk in hunks:
            was = {m.group(1): m.group(2).strip() for line in hunk["old"].splitlines()
                   if (m := re.match(setting, line))}
            for line in hunk["new"].splitlines():
                m = re.match(setting, line)
                if m and m.group(1).lower()[:5] in named and was.get(m.group(1)) not in (None, m.group(2).strip()) \
                        and re.fullmatch(r"0(?:\.0+)?|false|False|null|None|nil|\"\"|''", m.group(2).strip()):
                    return True
    return False


def _fixture_named_for_the_case_swapped(changes: dict[str, list[dict]], failure_text: str) -> bool:
    """Whether a change to tests only points the failing case at another data file than the one named for it
    (``read_fixture("sales_missing_region.csv")`` → ``read_fixture("sales.csv")`` in "summarise_sales keeps rows with
    a missing region"): the data that made the case is no longer given to it."""
    if not tests_only(changes):
        return False
    titled = {w.lower() for line in failure_text.splitlines() if re.search(r"(?i)\bfail|✗|✖|×|\[E\]", line)
              for w in re.findall(r"[A-Za-z]{4,}", line.replace("_", " "))}
    quoted_file = r"[\"']([\w./-]+\.(?:csv|json|ya?ml|xml|txt|parquet|tsv|sql|html|bin|dat))[\"']"
    for hunks in changes.values():
        for hunk in hunks:
            was = set(re.findall(quoted_file, hunk["old"])) - set(re.findall(quoted_file, hunk["new"]))
            now = set(re.findall(quoted_file, hunk["new"])) - set(re.findall(quoted_file, hunk["old"]))
            if now and any(len({w.lower() for w in re.findall(r"[A-Za-z]{4,}", os.path.basename(f).replace("_", " "))}
                               & titled - {w.lower() for n in now for w in re.findall(r"[A-Za-z]{4,}", n)}) >= 2
                           for f in was):
                return True
    return False


def _expected_literal_computed(changes: dict[str, list[dict]], failure_text: str) -> bool:
    """Whether a change to tests only put an expression of the library's calls where the literal the failure showed
    as expected was (dhall's ``≡ "PORT=8080\\nLOG_LEVEL=info\\n"`` → ``≡ Prelude.Text.concatSep "\\n" [ "PORT=8080",
    … ]``, the join the code now uses): the code is compared with itself, the known answer is gone."""
    if not tests_only(changes):
        return False
    shown = {m.group(0) for m in re.finditer(r'"(?:[^"\\\n]|\\.){6,}"', failure_text)}
    for hunks in changes.values():
        for hunk in hunks:
            old, new = hunk["old"].splitlines(), hunk["new"].splitlines()
            gone = [l for l in old if l not in new and any(v in l for v in shown)]
            came = [l for l in new if l not in old]
            if gone and came and len(gone) == len(came) and all(
                    re.match(r"\s*(?:≡|==|===)\s", a) and re.match(r"\s*(?:≡|==|===)\s", b)
                    and re.search(r"\b[A-Z]\w*\.[A-Za-z]\w*\.\w+", b) and not any(v in b for v in shown)
                    for a, b in zip(gone, came)):
                return True
    return False


# the kind of input a failing case names, and the literal that is it (a whitespace-only string, a negative number)
_CASE_INPUTS = ((r"whitespace|blank|spaces", r"([\"'`])[ \t]+\1"), (r"empty", r"([\"'`])\1"),
                (r"negative", r"(?<![\w.)\]])-\d[\d_.]*"), (r"zero", r"(?<![\w.])0(?:\.0+)?(?![\w.])"))


def _case_input_dropped(changes: dict[str, list[dict]], failure_text: str) -> bool:
    """Whether a change to tests only takes out the input the failing case names (``user.type(field, '   ')`` →
    ``user.clear(field)`` in "rejects a whitespace-only display name"): the case is no longer the one tested."""
    if not tests_only(changes):
        return False
    named = " ".join(line for line in failure_text.replace("_", " ").splitlines()
                     if re.search(r"×|✗|✘|\bFAIL|\bfailed\b|^\s*\d+\)\s", line))
    for case, literal in _CASE_INPUTS:
        if not re.search(rf"(?i)\b(?:{case})\b", named):
            continue
        for hunks in changes.values():
            for hunk in hunks:
                old, new = _code_sides(hunk)
                if any(re.search(literal, line) for line in old) and not any(re.search(literal, line) for line in new):
                    return True
    return False


def _drops_expected_line(changes: dict[str, list[dict]], failure_text: str) -> bool:
    """Whether a change to tests only takes out of what a test expects a line the failure printed as expected and not
    got (``"| unknown | 1      |",`` of a table, with the fixture row that made it): the test made to agree."""
    if not tests_only(changes):
        return False
    expected = re.split(r"(?i)\bexpected\b", failure_text, 1)[1] if re.search(r"(?i)\bexpected\b", failure_text) else ""
    got = re.split(r"(?i)\b(?:actual|got|received|but was)\b", expected, 1)

    def bare(line: str) -> str:  # (a line of a table or a list as the test writes it and as the failure prints it)
        return " ".join(re.sub(r"^E\s+", "", line.strip()).rstrip(",;").strip("\"'`").split())  # (pytest's ``E``)

    wanted = {bare(line) for line in got[0].splitlines()} if len(got) > 1 else set()
    had = {bare(line) for line in got[1].splitlines()} if len(got) > 1 else set()
    for hunks in changes.values():
        for hunk in hunks:
            kept = {line.strip() for line in hunk["new"].splitlines()}
            if any(line.strip() not in kept and len(bare(line)) >= 6 and bare(line) in wanted - had
                   for line in hunk["old"].splitlines()):
                return True
    return False


# a test's clock pinned (``@freeze_time("2024-06-15")``, ``travel_to``, ``Timecop.freeze``, ``setSystemTime``)
_CLOCK_PIN = LazyRegex(r"\bfreeze_?time\b|\btravel_to\b|\btime_machine\.travel\b|\bTimecop\.(?:freeze|travel)\b|"
                       r"\buseFakeTimers\b|\bsetSystemTime\b|\bfaketime\b")
# a frame of the traceback in the code, not the test (``subs/models.py:27: in next_renewal``, ``File "subs/models.py",
# line 27``, ``at Renewal.next (src/renewal.ts:12:5)``)
_CODE_FRAME = LazyRegex(r"(?m)^\s*([\w./-]+\.\w+):\d+: in \w+|^\s*File \"([^\"]+)\", line \d+|\(([\w./-]+\.\w+):\d+:\d+\)")
# what a test asserts failing, not the code raising (``AssertionError``, ``expect(…)``)
# (minitest's ``Expected: #<Date: 2025-02-28 …>`` over ``Actual: …`` too)
_ASSERTION_FAILED = LazyRegex(r"(?m)^E?\s*(?:AssertionError|assert\b)|\bexpect(?:ed)?\b|\bAssertion\w*|"
                              r"^\s*Expected:?\s.*\n\s*Actual:?\s")


_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
# a date as a failure or a clock pin writes it: ``2024-03-31``, ``(2024, 1, 15``, ``Sun, 31 Mar 2024``, ``Mar 31, 2024``
_DATE = LazyRegex(r"(?i)\b(\d{4})-(\d\d)-(\d\d)\b|\((\d{4}),\s*(\d{1,2}),\s*(\d{1,2})\b|"
                  r"\b(\d{1,2}) (jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)\w* (\d{4})\b|"
                  r"\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)\w* (\d{1,2}),? (\d{4})\b")


def _dates(text: str) -> set[tuple[int, int, int]]:
    found = set()
    for m in _DATE.finditer(text):
        g = m.groups()
        if g[0]:
            found.add((int(g[0]), int(g[1]), int(g[2])))
        elif g[3]:
            found.add((int(g[3]), int(g[4]), int(g[5])))
        elif g[6]:
            found.add((int(g[8]), _MONTHS.index(g[7].lower()) + 1, int(g[6])))
        else:
            found.add((int(g[11]), _MONTHS.index(g[9].lower()) + 1, int(g[10])))
    return found


# a named time zone, with its daylight-saving rules (``ZoneId.of("America/New_York")``, ``tz="Europe/Berlin"``), and
# UTC, which has none (``ZoneOffset.UTC``, ``timezone.utc``, ``"Etc/UTC"``)
_NAMED_ZONE = LazyRegex(r"[\"'](?:America|Europe|Asia|Africa|Australia|Pacific|Atlantic|Indian)/[A-Za-z_]+[\"']")
_UTC = LazyRegex(r"\bZoneOffset\.UTC\b|\btimezone\.utc\b|\bZoneId\.of\(\s*\"UTC\"|[\"'](?:Etc/)?UTC[\"']|\bUTC\b")


def _zone_made_utc(changes: dict[str, list[dict]]) -> bool:
    """Whether a change to tests only moved the test's clock from a named zone to UTC (``ZoneId.of("America/
    New_York")`` → ``ZoneOffset.UTC``): the daylight-saving case it tested no longer happens, nothing was fixed."""
    removed = [l for hunks in changes.values() for h in hunks for l in h["old"].splitlines()
               if l not in h["new"].splitlines()]
    added = [l for hunks in changes.values() for h in hunks for l in h["new"].splitlines()
             if l not in h["old"].splitlines()]
    return tests_only(changes) and any(_NAMED_ZONE.search(l) for l in removed) \
        and any(_UTC.search(l) and not _NAMED_ZONE.search(l) for l in added) \
        and not any(_NAMED_ZONE.search(l) for l in added)


# the process's default zone set (``TimeZone.setDefault(…)``, ``process.env.TZ = …``, ``os.environ["TZ"] = …``,
# ``t.Setenv("TZ", …)``, ``monkeypatch.setenv("TZ", …)``, ``ENV["TZ"] = …``)
_DEFAULT_ZONE_SET = LazyRegex(r"\bTimeZone\.setDefault\(|\benv(?:iron)?\s*(?:\.TZ|\[\s*[\"']TZ[\"']\s*\])\s*=[^=]|"
                              r"\bENV\[\s*[\"']TZ[\"']\s*\]\s*=[^=]|\bsetenv\(\s*[\"']TZ[\"']|\bSetenv\(\s*\"TZ\"")


def _default_zone_pinned(changes: dict[str, list[dict]]) -> bool:
    """Whether a change to tests only sets the process's default zone to a named one (``TimeZone.setDefault(
    TimeZone.getTimeZone("Europe/Berlin"))`` in NightlyDigestSchedulerTest): the test now runs in the zone of the
    laptop it passed on, and the code that read the machine's zone instead of its own is left as it was. (A zone
    made UTC for every run is the usual way to keep tests deterministic, and stays a lesson.)"""
    return tests_only(changes) and any(_DEFAULT_ZONE_SET.search(line) and _NAMED_ZONE.search(line)
                                       for hunks in changes.values() for hunk in hunks
                                       for line in _hunk_lines(hunk)[1])


# a check and the one that expects the opposite (``.isNotEmpty()`` → ``.isEmpty()``, ``assertTrue`` →
# ``assertFalse``, ``assertIsDisplayed()`` → ``assertIsNotDisplayed()``, ``toBeTruthy()`` → ``toBeFalsy()``)
_OPPOSITE_CHECKS = (("isNotEmpty()", "isEmpty()"), ("assertTrue", "assertFalse"), ("toBeTruthy()", "toBeFalsy()"),
                    ("assertExists()", "assertDoesNotExist()"), ("assertIsDisplayed()", "assertIsNotDisplayed()"),
                    ("is_some()", "is_none()"), ("isPresent()", "isEmpty()"), ("toBe(true)", "toBe(false)"),
                    ("assertIsEnabled()", "assertIsNotEnabled()"))


def _check_inverted(changes: dict[str, list[dict]]) -> bool:
    """Whether a change to tests only makes a check expect the opposite: a wait until "Saved" shows
    (``…fetchSemanticsNodes().isNotEmpty()``) → until no "Save failed" shows (``….isEmpty()``); what the test was
    to see is no longer asked for. (Two made opposite ask the same: ``assertTrue(….isEmpty())`` →
    ``assertFalse(….isNotEmpty())``.)"""
    def flipped(a: str, b: str, x: str, y: str) -> bool:
        return x in a and y in b and y not in a and x not in b or y in a and x in b and x not in a and y not in b

    return tests_only(changes) and any(sum(flipped(a, b, x, y) for x, y in _OPPOSITE_CHECKS) % 2
                                       for a, b in _lines_changed(changes))


# the platform a test is pinned to run on (Robolectric's ``@Config(sdk = [Build.VERSION_CODES.UPSIDE_DOWN_CAKE])``)
# (or the device it renders on: Robolectric's ``qualifiers = RobolectricDeviceQualifiers.SmallPhone``, Paparazzi's
# ``deviceConfig = DeviceConfig.PIXEL_5``)
_SDK_PIN = LazyRegex(r"@Config\([^)]*\b(?:sdk|qualifiers)\s*=\s*(\[[^\]]*\]|[\w.]+|\"[^\"]*\")|"
                     r"\bdeviceConfig\s*=\s*([\w.]+)")


def _sdk_moved(changes: dict[str, list[dict]], failure_text: str) -> bool:
    """Whether a change to tests only moved the platform a failing assertion ran on (``@Config(sdk = [… UPSIDE_DOWN
    _CAKE])`` → ``[… S_V2]``, below the version the code gates on; a screenshot test's ``SmallPhone`` →
    ``MediumTablet``, where the new label was clipped): the case it tested no longer runs."""
    def pins(side: str) -> set[str]:
        return {(m.group(1) or m.group(2)).replace(" ", "") for hunks in changes.values() for h in hunks
                for m in _SDK_PIN.finditer(h[side])}

    old, new = pins("old"), pins("new")
    if tests_only(changes) and not old and new and re.search(r"(?:Exception|Error)\b", failure_text) \
            and not _ENVIRONMENT_REFUSED.search(failure_text):
        # (or pinned where the test ran on the latest: ``@Config(sdk = [30])`` after PendingIntent's flag check
        # threw on S+; not a pin to an SDK the runner can start at all, "Failed to create a Robolectric sandbox")
        return True
    return tests_only(changes) and bool(old and new) and old != new and bool(_ASSERTION_FAILED.search(failure_text))


# the test runner itself unable to run at a platform level: a pin there is the fix
_ENVIRONMENT_REFUSED = LazyRegex(r"(?i)sandbox|requires Java|(?:is )?not supported|unsupported|no such (?:SDK|runtime)|"
                                 r"failed to (?:create|download|find) (?:an? )?(?:SDK|android-all|runtime|emulator)")


# an expected value as a failure reports it (``Expected 0x29B1 Was 0x5A2E``, ``expected: <42> but was: <41>``)
_VALUE = LazyRegex(r"(?<![\w.])(?:0x[0-9a-fA-F]+|-?\d[\d.]*)(?![\w.])|\"[^\"\n]*\"|'[^'\n]*'")
_EXPECTED_VALUE = LazyRegex(r"(?i)\bexpected:?\s*<?(0x[0-9a-f]+|-?\d[\d.]*|\"[^\"\n]*\"|'[^'\n]*')")


_NUMBER = LazyRegex(r"(?<![\w.])-?\d[\d.]*[mMfFdDlL]?(?![\w.])")  # (C#'s ``14.52m``, Kotlin's ``3L``)
_CLASS_CALL = LazyRegex(r"\b([A-Z]\w*)\.\w+\(")
_CALLED = LazyRegex(r"\b([A-Za-z_][\w.]*)\(")


def _expected_computed(changes: dict[str, list[dict]], failure_text: str) -> bool:
    """Whether a change to tests only put a call where the value the failure expected was written
    (``TEST_ASSERT_EQUAL_HEX16(0x29B1, crc16_ccitt(check, 9))`` → ``(crc16_ccitt_update(0xFFFF, check, 9),
    crc16_ccitt(check, 9))``), or a name computed by the class the test exercises (``Assert.Equal(14.52m, credit)``
    → ``var expected = Math.Round(30.00m * Proration.UnusedFraction(start, end), 2)`` and ``Assert.Equal(expected,
    credit)``, under ``var credit = Proration.ForPeriod(…)``): the code is compared with itself, the known answer is
    gone."""
    expected = {m.group(1).lower() for m in _EXPECTED_VALUE.finditer(failure_text or "")}
    if not tests_only(changes) or not expected:
        return False
    for hunks in changes.values():
        for hunk in hunks:
            old, new = _code_sides(hunk)
            added = [n for n in new if n not in old]
            tested = {m.group(1) for line in old if line in new for m in _CLASS_CALL.finditer(line)}
            for line in old:
                held = {m.group(0).lower() for m in _VALUE.finditer(line)} & expected
                suffixed = {v.group(0).rstrip("mMfFdDlL").lower() for v in _NUMBER.finditer(line)} & expected
                call = re.match(r"\s*([\w.:]+)\(", line)
                if not (held or suffixed) or not call:
                    continue
                again = [n for n in added if n.lstrip().startswith(call.group(1) + "(")]
                # (a call where it was: more brackets than before, or a function the line did not call, past a cast
                # that held the literal, ``int64(11803)`` → ``activities.ApplyTax(…)``)
                if held and again and not any(v in n.lower() for v in held for n in again) \
                        and all(n.count("(") > line.count("(") or set(_CALLED.findall(n)) - set(_CALLED.findall(line))
                                for n in again):
                    return True
                if line not in new and any(
                        re.match(rf"\s*(?:[\w<>\[\]?]+\s+)?{name}\s*=[^=]", d)
                        and any(f"{c}." in d.split("=", 1)[1] for c in tested)
                        for n in again for name in set(re.findall(r"\b[A-Za-z_]\w*\b", n)) - set(
                            re.findall(r"\b\w+\b", line)) for d in added):
                    return True
    return False


# a test's expected value named as such, assigned (``let expected = …``, ``want := …``, ``val expectedTotal = …``)
_EXPECTED_ASSIGNED = LazyRegex(r"^\s*(?:(?:let|var|val|const|final|auto)\s+)?(?:[\w<>\[\]?]+\s+)?"
                               r"((?:expected|want(?:ed)?)\w*)\s*(?::\s*[\w<>\[\]?]+\s*)?:?=(?!=)\s*(.+)$")
_RECEIVER = LazyRegex(r"(?<![\w.])([a-z]\w*)\??\.\w+\s*\(")


def _expected_from_the_subject(changes: dict[str, list[dict]], sources: list[str]) -> bool:
    """Whether a change to tests only now takes the expected value from the code the test exercises: ``let expected
    = [0, 1, 2].map { utc.date(byAdding: .hour, value: $0, to: utcMidnight)! }`` → ``let expected =
    Array(provider.refreshDates(after: now).prefix(3))``, with ``TideTimelineProvider.swift`` the source the session
    read (or ``sut``, the subject by name). Whatever the code returns now agrees with itself."""
    stems = [os.path.splitext(os.path.basename(path))[0].lower() for path in sources if not _TEST_PATH.search(path)]
    if not tests_only(changes) or not stems:
        return False
    for hunks in changes.values():
        for hunk in hunks:
            old, new = _code_sides(hunk)
            was = {m.group(1): m.group(2) for line in old if (m := _EXPECTED_ASSIGNED.match(line))}
            for line in new:
                now = _EXPECTED_ASSIGNED.match(line)
                if not now or now.group(1) not in was or line in old:
                    continue
                if _of_the_subject(set(_RECEIVER.findall(now.group(2))) - set(_RECEIVER.findall(was[now.group(1)])),
                                   stems):
                    return True
    # (or the literal it compared with put where a call of it now stands: ``) == 42.0`` → ``) ==
    # collector.to_seconds(42_000)``, lag_exporter/collector.py read)
    if any(_of_the_subject(_RECEIVER.findall(put), stems) for a, b in _line_pairs(changes)
           for literal in _NUMBER.finditer(a) if (put := _in_place_of(a, b, literal))):
        return True
    # (or, Prolog's way, a variable put in its place that a call of the subject binds: ``Slug == 'creme-brulee'`` →
    # ``Slug == Expected`` under ``slug::hyphenate(Base, Expected)``, slug.lgt read)
    added = [line for hunks in changes.values() for hunk in hunks for line in _code_sides(hunk)[1]]
    return any(re.fullmatch(r"[A-Z]\w*", put) and any(
        (m := re.search(rf"\b(\w+)::\w+\([^\n]*\b{put}\s*\)", line)) and _of_the_subject([m.group(1)], stems)
        for line in added)
        for a, b in _line_pairs(changes) for literal in re.finditer(r"'[^'\n]*'|\"[^\"\n]*\"", a)
        if (put := _in_place_of(a, b, literal)))


# an assertion's two sides: elm-test's ``actual |> Expect.equal expected``, ``assertEqual(actual, expected)``,
# ``expect(actual).toBe(expected)``, hspec's ``actual `shouldBe` expected``
_COMPARED = (LazyRegex(r"^\s*(?:\\_\s*->\s*)?(.+?)\s*\|>\s*Expect\.(?:equal|equalLists|equalDicts)\s+(.+?)\s*$"),
             LazyRegex(r"\b(?:assert\w*|XCTAssertEqual|assert_eq!)\s*\(\s*(.+?)\s*,\s*(.+?)\s*\)\s*;?\s*$"),
             LazyRegex(r"\bexpect\s*\(\s*(.+?)\s*\)\.to(?:Be|Equal|StrictEqual)\s*\(\s*(.+?)\s*\)\s*;?\s*$"),
             LazyRegex(r"^\s*(.+?)\s*`shouldBe`\s*(.+?)\s*$"))


def _compared_with_itself(line: str) -> bool:
    """Whether an assertion compares a call with the very same call (``formatPrice 123450 |> Expect.equal
    (formatPrice 123450)``)."""
    for pattern in _COMPARED:
        if m := pattern.search(line):
            a, b = (re.sub(r"^\((.*)\)$", r"\1", " ".join(side.split())) for side in m.groups())
            if a == b and re.search(r"[A-Za-z_][\w.]*(?:\s+[\w\"'(]|\()", a):
                return True
    return False


def _expected_is_the_tested_call(changes: dict[str, list[dict]]) -> bool:
    """Whether a change to tests now assigns the expected value from the very call the test compares with it (``want
    := backoffDelay(attempt)`` beside ``if got := backoffDelay(attempt); got != want``, the table of known delays
    gone), or compares that call with itself (``formatPrice 123450 |> Expect.equal (formatPrice 123450)``): the code
    is compared with itself."""
    if not tests_only(changes):
        return False
    for hunks in changes.values():
        for hunk in hunks:
            old, new = _code_sides(hunk)
            if any(_compared_with_itself(line) for line in new if line not in old):
                return True
            for line in new:
                now = _EXPECTED_ASSIGNED.match(line)
                call = re.match(r"\s*([\w.]+)\(", now.group(2)) if now and line not in old else None
                if call and any(re.search(rf"(?<![\w.]){re.escape(call.group(1))}\(", other)
                                and re.search(rf"\b{re.escape(now.group(1))}\b", other)
                                for other in new if other != line):
                    return True
    return False


# a test that sends on a topic, a queue or a channel (``create_publisher(Imu, '/imu/filtered', 10)``, ``.publish(``)
_SENDS = LazyRegex(r"\b(?:create_publisher|advertise|publish|produce|send|emit|Publisher)\w*\s*\(")


def _publishes_what_it_waits_for(changes: dict[str, list[dict]], failure_text: str) -> bool:
    """Whether a change to tests only has the test send on the topic it waited on (``create_publisher(Imu,
    '/imu/filtered', 10)`` after "no message on /imu/filtered"): what it receives is its own message, not the code's."""
    topics = set(re.findall(r"(?<![\w./-])/[A-Za-z_][\w-]*(?:/[\w-]+)+(?![\w./-])", failure_text))
    return tests_only(changes) and bool(topics) and any(
        _SENDS.search(l) and any(re.search(rf"[\"']{re.escape(t)}[\"']", l) for t in topics)
        for l in _added_in(changes))


def _in_place_of(a: str, b: str, part: re.Match) -> str | None:
    """What line ``b`` puts where line ``a`` had ``part`` (a match in ``a``), the rest of the line kept; None where
    ``b`` is not ``a`` so changed."""
    head, tail = a[:part.start()], a[part.end():]
    return b[len(head):len(b) - len(tail)] if b.startswith(head) and b.endswith(tail) \
        and len(b) >= len(head) + len(tail) else None


def _of_the_subject(receivers, stems: list[str]) -> bool:
    """Whether a call's receiver is the code under test: ``sut``, or named as a source file the session read."""
    return any(r in ("sut", "subject") or len(r) >= 4 and any(stem.endswith(r.lower()) for stem in stems)
               for r in receivers)


def _subject_dropped(changes: dict[str, list[dict]], sources: list[str]) -> bool:
    """Whether a change to tests only takes out of them the name of the code they test, put nowhere back: the
    continuous aggregate ``readings_hourly`` (``migrations/0007_readings_hourly.sql``) queried no more, the hourly
    average computed from the raw ``readings`` instead. The test passes; what it tested is not run."""
    stems = {os.path.splitext(os.path.basename(path))[0].lower() for path in sources if not _TEST_PATH.search(path)}
    if not tests_only(changes) or not stems:
        return False
    for hunks in changes.values():
        for hunk in hunks:
            old, new = _code_sides(hunk)
            now = {w.lower() for line in new for w in re.findall(r"\w+", line)}
            gone = {w.lower() for line in old for w in re.findall(r"[A-Za-z_]\w{5,}", line)
                    if ("_" in w.strip("_") or re.search(r"[a-z][A-Z]", w))} - now
            if any(stem == w or stem.endswith("_" + w) for w in gone for stem in stems):
                return True
    return False


def _call_words(line: str) -> set[frozenset]:
    """The calls a line makes, each by the words of its name (``updateWorldMatrix`` and ``updateMatrixWorld`` alike:
    {update, world, matrix})."""
    return {frozenset(w.lower() for w in re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])", name))
            for name in re.findall(r"\b([A-Za-z_]\w{5,})\s*\(", line)}


# a failing test named for the boundary it checks: ``testWithdrawAtCliff``, ``test_expires_at_midnight``,
# ``returns exactly the limit``
# (or an end of a range by its name: fpm's ``upper endpoint [FAILED]``)
_AT_A_BOUNDARY = LazyRegex(r"[a-z]At[A-Z]|_at_|\bat (?:the )?\w+|[Ee]xactly|[a-z]OnThe[A-Z]|_on_the_|[Bb]oundary|"
                           r"(?i:\b(?:upper|lower)[ _-]?(?:end[ _-]?point|bound|edge)s?\b)")


def nudged_off_the_boundary(changes: dict[str, list[dict]], failure_text: str) -> bool:
    """Whether a change to tests only moved a value one past the boundary the failing test's name says it checks
    (``testWithdrawAtCliff``: ``vm.warp(start + 365 days)`` made ``vm.warp(start + 365 days + 1)``): it checks the
    next value, the boundary no more."""
    if not tests_only(changes) or not any(_AT_A_BOUNDARY.search(line) for line in (failure_text or "").splitlines()
                                          if re.search(r"(?i)\bfail|✗|×", line)):
        return False
    for hunk in (h for hs in changes.values() for h in hs):
        old, new = _hunk_lines(hunk)
        for was in old:
            for now in new:
                head, tail = common_ends(was, now)
                if head + tail == len(was) and re.fullmatch(r"\s*[+-]\s*1\s*", now[head:len(now) - tail]):
                    return True
                # (or the value probed moved inside, with the answer it expects there: ``linear(xs, ys, 10.0_dp),
                # 4.0_dp`` made ``linear(xs, ys, 9.5_dp), 3.85_dp``)
                numbers = [re.findall(_KIND_NUMBER, line) for line in (was, now)]
                if re.sub(_KIND_NUMBER, "#", was) == re.sub(_KIND_NUMBER, "#", now) \
                        and sum(a != b for a, b in zip(*numbers)) >= 2:
                    return True
    return False


# (a number with its kind: Fortran's ``9.5_dp``)
_KIND_NUMBER = r"(?<![\w.])\d+(?:\.\d+)?(?:[eE][+-]?\d+)?(?:_\w+)?(?![\w.])"


# a load test's verdict of a latency or rate over its gate (``SLO FAIL: p99 587.24ms > 300ms``, k6's "thresholds on
# metrics 'http_req_duration' have been crossed")
_GATE_CROSSED = LazyRegex(r"(?i)\bSLO\b.*\bfail|\bfail\w*\b.*\bp(?:9\d|50)\b|\bp(?:9\d|50)\b.*(?:>|over|exceed)|"
                          r"thresholds? (?:on metrics .* )?(?:have been |has been |were |was )?crossed")
# a load test's list of what it attacks, or its script (vegeta's targets, k6's, locust's, artillery's, gatling's)
_LOAD_TEST_FILE = LazyRegex(r"(?i)(?:^|/)(?:load|perf|stress|soak|bench)[-_]?tests?/|(?:^|/)targets\.(?:http|txt)$|"
                            r"(?:^|/)(?:k6|locust|artillery|gatling|vegeta)[\w./-]*$|locustfile\.py$")


def load_targets_dropped(changes: dict[str, list[dict]], failure_text: str) -> bool:
    """Whether, after a load test's latency crossed its gate (``SLO FAIL: p99 587.24ms > 300ms``), a change only took
    requests out of what it attacks (``GET …/search?q=shoes&facets=brand,size,color`` gone from targets.http): the
    slow path is no longer measured, the code as it was."""
    if not changes or not _GATE_CROSSED.search(failure_text or "") \
            or not all(_LOAD_TEST_FILE.search(path) for path in changes):
        return False
    sides = [(h["old"].splitlines(), h["new"].splitlines()) for hunks in changes.values() for h in hunks]
    return all(set(new) <= set(old) for old, new in sides) and any(
        line.strip() for old, new in sides for line in old if line not in new)


# a model checker's verdict of a property broken: TLC's "Invariant NoDoubleCharge is violated", Apalache's, SPIN's
_MODEL_VIOLATED = LazyRegex(r"\bInvariant \w+ is violated|\bTemporal properties were violated|\bDeadlock reached|"
                            r"\bassertion violated\b|\bacceptance cycle\b")


def shrinks_the_model(changes: dict[str, list[dict]], failure_text: str) -> bool:
    """Whether, after a model checker found a property broken, only the model's own bounds were lowered (``MaxRetries
    = 3`` made ``MaxRetries = 1`` in MC_Payments.cfg): the behaviour that broke it is no longer explored."""
    if not _MODEL_VIOLATED.search(failure_text or "") or not changes \
            or not all(path.endswith(".cfg") for path in changes):
        return False
    pairs = [(was, now) for h in (h for hs in changes.values() for h in hs)
             for was, now in zip(*_hunk_lines(h)) if was.strip() != now.strip()]
    numbers = [[re.fullmatch(r"\s*(\w+)\s*=\s*(\d+)\s*", line) for line in pair] for pair in pairs]
    return bool(pairs) and all(a and b and a.group(1) == b.group(1) and int(b.group(2)) < int(a.group(2))
                               for a, b in numbers)


def does_what_the_code_dropped(changes: dict[str, list[dict]], diffs: list[str]) -> bool:
    """Whether a change to tests only makes, in the test, a call that a change to the code under test took out of it,
    as a diff read in the session showed (``object.updateWorldMatrix(true, false)`` gone from bounds.ts in the
    refactor, ``scene.updateMatrixWorld(true)`` added to its test): the test now does the code's job."""
    if not tests_only(changes):
        return False
    dropped: set[frozenset] = set()
    for text in diffs:
        path = None
        for line in text.splitlines():
            if line.startswith(("diff --git", "+++ ")):
                path = line[4:].strip().removeprefix("b/") if line.startswith("+++ ") else None
            elif line.startswith("-") and not line.startswith("--- ") and path and not _TEST_PATH.search(path):
                dropped |= _call_words(line)
    return any(len(words) >= 2 and words in dropped for line in _added_in(changes) for words in _call_words(line))


# a value a failure says it expected, as test runners print it (``Expected to equal:`` then ``512Mi`` below)
_EXPECTED_TOKEN = LazyRegex(r"(?i)\bexpected(?: to equal)?:?\s*<?[\"']?([\w.-]+)")
_DEFAULT_TEST = LazyRegex(r"(?i)\bby default\b|\bdefaults?(?: to| value)?\b")


def _default_given(changes: dict[str, list[dict]], failure_text: str) -> bool:
    """Whether a test of a default (``should set memory limit by default``) was only given the value it expects
    (``set:`` ``api.resources.limits.memory: 512Mi`` in the helm unittest, for ``Expected to equal: 512Mi``): it no
    longer tests the default, which is still missing."""
    if not tests_only(changes) or not _DEFAULT_TEST.search(failure_text or ""):
        return False
    values = {m.group(1) for m in _EXPECTED_TOKEN.finditer(failure_text or "")}
    added = []
    for h in (h for hs in changes.values() for h in hs):
        old, new = h["old"].splitlines(), h["new"].splitlines()
        lines = [line for line in new if line.strip() and line not in old]
        # (or within a line, its old text kept whole on either side: ``{'name': 'Squat', 'weight': 100}`` given
        # ``, 'unit': 'kg'`` for "fills in the default unit … Expected: 'kg'")
        for was in (line for line in old if line not in new):
            grown = next((line for line in lines if sum(common_ends(was, line)) >= len(was)), None)
            if grown is None:
                return False
            head, tail = common_ends(was, grown)
            lines[lines.index(grown)] = grown[head:len(grown) - tail]
        added += lines
    return bool(values and added) and any(re.search(rf"[:=]\s*[\"']?{re.escape(v)}[\"']?\s*(?:$|[,;)}}\]])", line)
                                          for v in values for line in added)


# a sleep for a set time (``await asyncio.sleep(0.1)``, ``Thread.sleep(200)``, ``await Task.Delay(100)``)
_SLEEP = LazyRegex(r"(?:\b(?:asyncio|time|trio|anyio|gevent)\.sleep|\bThread\.sleep|\bTask\.Delay|\bsleep|\bdelay)"
                   r"\s*\(\s*[\d.]+")
# a test that measures the time something took (``assert loop.time() - started >= 0.09``)
_TIMED = LazyRegex(r"\btime\(\)\s*-|\belapsed\b|\bperf_counter\b|\bmonotonic\b|\bStopwatch\b|\bInstant\.now\b|"
                   r"\bDate\.now\(\)|\bperformance\.now\(\)|\bSince\(")


def _timed_with_a_sleep(changes: dict[str, list[dict]], failure_text: str) -> bool:
    """Whether a test that measures how long something took was only given a sleep (``await asyncio.sleep(0.1)``
    before ``assert loop.time() - started >= 0.09``): it measures its own sleep, whatever the code does."""
    if not tests_only(changes) or not _TIMED.search(failure_text or ""):
        return False
    added = [line for hunks in changes.values() for old, new in map(_code_sides, hunks) for line in new
             if line not in old]
    return bool(added) and all(_SLEEP.search(line) for line in added)


# C's ``assert`` failing (``test_collision.c:58: test_…: Assertion `ball.position.x >= …' failed.``), and a build told
# to leave every ``assert`` out (``target_compile_definitions(physics_tests PRIVATE NDEBUG)``, ``-DNDEBUG``)
_C_ASSERTION = LazyRegex(r"Assertion [`'].*[`'] failed")
_NDEBUG = LazyRegex(r"(?<![\w-])(?:-D)?NDEBUG\b")


def _asserts_compiled_out(changes: dict[str, list[dict]], failure_text: str) -> bool:
    """Whether a test whose ``assert`` failed was built with ``NDEBUG`` added: every assertion compiled away, the
    test passes whatever the code does."""
    if not _C_ASSERTION.search(failure_text or ""):
        return False
    return any(_NDEBUG.search(line) for hunks in changes.values() for h in hunks
               for line in h["new"].splitlines() if line not in h["old"].splitlines())


def _pins_clock_past_a_crash(changes: dict[str, list[dict]], failure_text: str) -> bool:
    """Whether a change to tests only pins their clock after the code itself raised (``ValueError: day is out of
    range for month`` from ``subs/models.py`` on the 31st, then ``@freeze_time("2024-06-15")``), or after the test
    compared dates, to a date the failure never showed (``expected: Sun, 31 Mar 2024 / got: Fri, 29 Mar 2024``, then
    ``travel_to Time.zone.local(2024, 1, 15, 12)``): the date that breaks the code is no longer the date tested. (A
    test that expected a value of today's date is another matter: pinning its clock to that date is the fix.)"""
    if not tests_only(changes):
        return False
    added = [line for hunks in changes.values() for h in hunks for line in h["new"].splitlines()
             if line.strip() and line not in h["old"].splitlines()]
    if _ASSERTION_FAILED.search(failure_text or ""):
        pinned = {d for line in added if _CLOCK_PIN.search(line) for d in _dates(line)}
        shown = _dates(failure_text or "")
        return bool(pinned and shown) and not pinned & shown
    frames = [path for match in _CODE_FRAME.finditer(failure_text or "") for path in match.groups() if path]
    return any(_CLOCK_PIN.search(line) for line in added) and any(
        _CODE_FILE.search(path) and not _TEST_PATH.search(path) and "site-packages" not in path
        and "node_modules" not in path for path in frames)


# a clock pinned to the epoch itself (``vi.setSystemTime(0)``, ``freeze_time("1970-01-01")``, ``Date.now = () => 0``)
_CLOCK_ZEROED = LazyRegex(r"\b(?:setSystemTime|freeze_?time|travel_to|useFakeTimers)\(\s*"
                          r"(?:0|new Date\(0\)|[\"']1970-01-01[^\"']*[\"']|\{\s*now:\s*0\s*\})\s*[),]|"
                          r"\bDate\.now\s*=\s*(?:\(\)\s*=>|function\s*\(\)\s*\{\s*return)\s*0\b|"
                          r"\btime\.time\s*=\s*lambda\s*:\s*0\b")
# a time the code returned as the failure shows it: seconds or milliseconds since the epoch, of this century
_EPOCH_TIME = LazyRegex(r"(?<![\w.])1[5-9]\d{8}(?:\d{3})?(?![\w.])")


def _clock_zeroed_under_a_timestamp(changes: dict[str, list[dict]], failure_text: str) -> bool:
    """Whether a change to tests only pins their clock to the epoch after the code returned a time since it where
    the test wanted a span (``expected 1718204812 to be less than or equal to 3600``, then ``vi.setSystemTime(0)``):
    with the clock at zero, the time the code returns is the span, whatever it computes."""
    return tests_only(changes) and bool(_EPOCH_TIME.search(failure_text)) and any(
        _CLOCK_ZEROED.search(l) for l in _added_in(changes))


# a split of a dataset a model is scored on, and the one it was fitted on
_HELD_OUT_SPLIT = LazyRegex(r"(?i)(?<![a-z])(?:holdout|held_?out|test|val|valid|validation|eval|dev)(?![a-z])")
_TRAINING_SPLIT = LazyRegex(r"(?i)(?<![a-z])train(?:ing)?(?![a-z])")


def _scores_on_training_data(changes: dict[str, list[dict]]) -> bool:
    """Whether a change to tests, their setup included, points a held-out split at the training data
    (``load_xy("data/holdout.parquet")`` → ``load_xy("data/train.parquet")``): a model scored on what it was fitted
    on passes any accuracy floor."""
    if not tests_only(changes):
        return False
    for a, b in _line_pairs(changes):
        p, q = common_ends(a, b)
        while p and a[p - 1].isalnum():  # (whole words: "test" → "train" share their "t")
            p -= 1
        while q and a[len(a) - q].isalnum():
            q -= 1
        if a != b and _HELD_OUT_SPLIT.fullmatch(a[p:len(a) - q].strip("_-")) \
                and _TRAINING_SPLIT.fullmatch(b[p:len(b) - q].strip("_-")):
            return True
    return False


_NOT_THERE = LazyRegex(r"(?i)does not exist|doesn't exist|not found|no such|unknown|cannot find|could not find|"
                       r"did you mean|not recogni[sz]ed")


# a property or fuzz test told to skip inputs: ``vm.assume(assets < 1e30)``, ``assume(x != 0)``, ``prop_assume!(…)``,
# ``amount = bound(amount, 1, 1e24)``
_ASSUMPTION = LazyRegex(r"^\s*(?:(?:vm\.|hypothesis\.)?assume\s*\(|prop_assume!\s*\(|[\w.]+\s*=\s*bound\s*\(|"
                        r"(?:\w+\.)?assume(?:That|True|False)\s*\()")


def _narrows_inputs(changes: dict[str, list[dict]]) -> bool:
    """Whether a change to tests only adds assumptions that keep a property or fuzz test away from inputs (the
    counterexample that broke the code): the code was not fixed, the test stopped looking there."""
    added = [line for hunks in changes.values() for h in hunks for line in h["new"].splitlines()
             if line.strip() and line not in h["old"].splitlines()]
    return tests_only(changes) and bool(added) and all(_ASSUMPTION.match(line) for line in added) \
        or _narrows_strategy(changes)


# a part of the data put in place of all of it: ``validate(df, head=500)``, ``rows[:100]``, ``.sample(50)``, the rows
# that fail filtered out (``out.filter(pl.col("kind") != "refund")``, ``.dropna(subset=["amount"])``)
_FEWER_ROWS = LazyRegex(r",\s*(?:head|tail|sample|sample_size|limit|nrows|n_rows|max_rows)\s*=\s*\d+|"
                        r"\.(?:head|sample|limit|take)\(\s*\d+\s*\)|\[\s*:\s*\d+\s*\]|"
                        # (or the rows with a missing value: ``load_fixture("orders_2024q1.csv").dropna(subset=[…])``)
                        r"\.(?:filter|where|query|dropna|drop_nulls|drop_nans)\((?:[^()]|\([^()]*\))*\)")


def _drops_test_rows(changes: dict[str, list[dict]]) -> bool:
    """Whether a change only took rows out of the tests' data (``p_1006,2024-03-02,refund,-42.50,EUR`` deleted from
    ``tests/fixtures/payments_raw.csv``): the input that broke the code is no longer given to it."""
    hunks = [h for hs in changes.values() for h in hs]
    # (or from a test written as data: SQLMesh's ``tests/test_order_totals.yaml``, order 3 taken out of its input and
    # its expected output)
    # (counted: ``u1,1`` three times, then twice, is a row taken out)
    return bool(changes) and all(_TEST_DATA.search(path) or _TEST_PATH.search(path) and _DATA_FILE.search(path)
                                 for path in changes) and _only_takes_out(hunks)


def _setup_taken_out(changes: dict[str, list[dict]], failure_text: str) -> bool:
    """Whether a change to tests only took out lines that made the number the failing check found (``for i in
    0..<3 { folder.notes.append(…) }`` gone after "XCTAssertEqual failed: ("3") is not equal to ("0")"): with
    nothing set up, the check has nothing left to find."""
    found = {v for v in _actual_values(failure_text) if re.fullmatch(r"\d+", v) and int(v) >= 2}
    hunks = [h for hs in changes.values() for h in hs]
    return bool(found) and tests_only(changes) and _only_takes_out(hunks) and any(
        found & _literals(line) for h in hunks
        for line in Counter(h["old"].splitlines()) - Counter(h["new"].splitlines()))


def _sets_what_it_asserts(changes: dict[str, list[dict]]) -> bool:
    """Whether a change to tests only sets, just before an assertion, the very value it asserts of the same thing:
    ``store.total = 90`` added before ``expect(store.total).toBe(90)`` (getters are writable with @pinia/testing); the
    getter under test is no longer what gives the value."""
    if not tests_only(changes):
        return False
    for hunks in changes.values():
        for hunk in hunks:
            new = hunk["new"].splitlines()
            for n, line in enumerate(new):
                set_ = re.match(r"\s*(?:this\.)?(\w+(?:\.\w+)+)\s*=\s*([^=;]+?)\s*;?\s*$", line)
                if not set_ or line in hunk["old"].splitlines() or not _ANY_LITERAL.fullmatch(set_.group(2)):
                    continue
                target, value = re.escape(set_.group(1)), re.escape(set_.group(2))
                if any(_ASSERTION.search(later) and re.search(rf"(?<![\w.]){target}(?![\w(])", later)
                       and re.search(rf"(?<![\w.]){value}(?![\w.])", later) for later in new[n + 1:n + 4]):
                    return True
    return False


def _stores_the_expected_value(changes: dict[str, list[dict]], failure_text: str) -> bool:
    """Whether a change to tests only writes into the record under test the value the failing assertion expected
    (``order.update_column(:total_cents, 9_000)`` in a factory's trait, after "expected: 9000 got: 10000"): the
    code that was to compute it no longer does."""
    expected = {m.group(1).replace("_", "") for m in _EXPECTED_VALUE.finditer(failure_text or "")
                if re.fullmatch(r"-?\d[\d.]*", m.group(1)) and len(m.group(1).strip("-.")) >= 3}
    if not expected or not tests_only(changes):
        return False
    for hunks in changes.values():
        for removed, added in map(_hunk_lines, hunks):
            for line in added:
                if _ASSERTION.search(line) \
                        or not re.search(r"\bupdate(?:_columns?|_attribute|!)?\(|\.\w+\s*=[^=]", line):
                    continue
                values = {v.replace("_", "") for v in re.findall(r"(?<![\w.])-?\d[\d_]*(?:\.\d+)?(?![\w.])", line)}
                if values & expected and not any(v in l.replace("_", "") for l in removed for v in values & expected):
                    return True
    return False


def _differing_line_scrubbed(changes: dict[str, list[dict]], failure_text: str) -> bool:
    r"""Whether a change to tests only adds a scrubber for the line a golden comparison found different
    (``{regexp.MustCompile(`Total due:\s+[\d,]+\.\d{2}`), "Total due: <AMOUNT>"}`` after ``- "  Total due:
    1,488.60"`` / ``+ "  Total due:       1,488.59"``): the value that differed is never compared."""
    differing = {" ".join(m.group(1).split()) for m in re.finditer(r"(?m)^\s*[-+]\s+\"?\s*([A-Za-z][A-Za-z ]{3,}:)",
                                                                 failure_text or "")}
    if not differing or not tests_only(changes):
        return False
    return any(re.search(r"MustCompile\(|re\.compile\(|\bRegex\(|new RegExp\(|\bscrub", line)
               and any(label in " ".join(line.split()) for label in differing)
               for line in _added_in(changes))


# what a check of data validates through: a Great Expectations suite, asset or checkpoint, soda checks, a dbt test
_VALIDATION_PATH = LazyRegex(r"(?i)(?:^|/)(?:gx|great_expectations|expectations|soda|data_tests)/|checkpoint|"
                             r"expectation")
# a check of a column's values that failed (``✘ expect_column_values_to_be_between(amount, min_value=0)``)
_COLUMN_CHECK_FAILED = LazyRegex(r"(?m)(?:✘|✖|FAIL\w*|failed)\W*(?:\w+\.)?expect_column_\w+\(\s*['\"]?(\w+)|"
                                 r"\bexpect_column_\w+\(\s*['\"]?(\w+)[^\n]*\b"
                                 r"(?:unexpected_count=[1-9]|FAIL\w*|failed)|"
                                 # (whylogs': ``ReportResult(name='null percentage of email lower than 0.01', passed=0,
                                 # failed=1``)
                                 r"\bname=['\"](?:null|missing|distinct|unique)\s+\w+\s+of\s+(\w+)\b[^\n]*"
                                 r"\bfailed=[1-9]")


def _failing_rows_filtered(changes: dict[str, list[dict]], failure_text: str) -> bool:
    """Whether a change to what a data check validates filters out, by the column the failing check is about, the
    rows it failed on: ``… WHERE order_date = CURRENT_DATE - 1`` → ``… AND amount >= 0`` in gx/assets.py after
    ``expect_column_values_to_be_between(amount, min_value=0)`` found 37 negative amounts; the refunds are still
    there, no longer looked at."""
    columns = {c for m in _COLUMN_CHECK_FAILED.finditer(failure_text or "") for c in m.groups() if c}
    if not columns or not all(_VALIDATION_PATH.search(path) or _TEST_PATH.search(path) for path in changes):
        return False
    names = "|".join(map(re.escape, columns))
    filtered = re.compile(rf"(?i)\b(?:WHERE|AND)\s+(?:\w+\.)?(?:{names})\s*(?:[<>]=?|!=|<>|IS\s+NOT\b)")
    # (or by a data frame's, in a line of its own: ``df.dropna(subset=["email"])``, ``df[df["email"].notna()]``)
    dropped = re.compile(rf"\.dropna\(\s*subset\s*=\s*\[?[^)\]]*[\"'](?:{names})[\"']|"
                         rf"[\"'](?:{names})[\"']\s*\]\s*\.(?:notna|notnull)\(\)|"
                         rf"pl\.col\(\s*[\"'](?:{names})[\"']\s*\)\.is_not_null\(\)")
    if any(dropped.search(line) for line in _added_in(changes)):
        return True
    for a, b in _line_pairs(changes):
        p, q = common_ends(a, b)
        if _inserted_into(a, b) and filtered.search(b[p:len(b) - q]):
            return True
    return False


# a test's data read from a checked-in fixture (``copyFixture("notes-v1.store")``, ``load_fixture("…")``,
# ``Fixtures/…``)
_FIXTURE_READ = LazyRegex(r"(?i)fixture\w*\s*\(|[\"'][^\"']*\bfixtures?/")


def _fixture_dropped(changes: dict[str, list[dict]]) -> bool:
    """Whether a change to tests only stops reading the fixture a test was built on, the fixture named nowhere in what
    replaced it: ``copyFixture("notes-v1.store")`` gone from testV1StoreMigratesToV2, its container now in memory
    and filled by the test; the old store the migration was to open is never opened."""
    if not tests_only(changes):
        return False
    old = "\n".join(h["old"] for hs in changes.values() for h in hs)
    new = "\n".join(h["new"] for hs in changes.values() for h in hs)
    # (a fixture read from another path, ``users.jsn`` → ``users.json``, is still read)
    if any(_FIXTURE_READ.search(line) for line in new.splitlines() if line not in old.splitlines()):
        return False
    return any(_FIXTURE_READ.search(line) and any(len(v) > 6 and v not in new for v in _ANY_LITERAL.findall(line))
               for line in old.splitlines() if line not in new.splitlines() and not _COMMENT_ONLY.match(line))


# rows of a table taken out by a statement (``TRUNCATE events_default;``, ``DELETE FROM events_default``)
_EMPTIES = LazyRegex(r"(?i)\b(?:TRUNCATE(?:\s+TABLE)?(?:\s+ONLY)?|DELETE\s+FROM)\s+([\w.\"]+)")
_PUTS_ROWS = LazyRegex(r"(?i)\bINSERT\b|\bCOPY\b|\.insert|\bcreate\w*\(|\bseed|\bfixture")


def _empties_what_it_checks(changes: dict[str, list[dict]]) -> bool:
    """Whether a change to tests only takes the rows out of a table right before the test reads it, nothing put in
    between: ``TRUNCATE events_default;`` before ``is_empty('SELECT * FROM events_default', …)``; the rows the check
    caught are deleted, not kept out. (A table emptied before the test's own inserts isolates the test.)"""
    if not tests_only(changes):
        return False
    for hunks in changes.values():
        for hunk in hunks:
            old, new = hunk["old"].splitlines(), hunk["new"].splitlines()
            for n, line in enumerate(new):
                emptied = _EMPTIES.search(line)
                if not emptied or line in old:
                    continue
                table = re.escape(emptied.group(1).strip('"').rsplit(".", 1)[-1])
                for later in new[n + 1:]:
                    if _PUTS_ROWS.search(later):
                        break
                    if re.search(rf"(?i)\bFROM\s+(?:[\w\"]+\.)?\"?{table}\b", later):
                        return True
    return False


# a screenshot taken of a part where it was of the whole: Compose's ``onRoot().captureRoboImage()`` →
# ``onNodeWithTag("order_summary_header").captureRoboImage()``, Playwright's ``expect(page).toHaveScreenshot()`` →
# ``expect(page.locator(…)).toHaveScreenshot()``
_SCREENSHOT = LazyRegex(r"captureRoboImage\(|toHaveScreenshot\(|toMatchScreenshot\(|\.screenshot\(|"
                        r"captureToImage\(|assertSnapshot\(|toMatchImageSnapshot\(")


def _screenshot_narrowed(changes: dict[str, list[dict]]) -> bool:
    """Whether a change to tests only takes the failing screenshot of one part of the screen where it took the
    whole: the part that changed (the totals row) is no longer compared."""
    return tests_only(changes) and any(
        _SCREENSHOT.search(a) and _SCREENSHOT.search(b) and (
            "onRoot()" in a and "onRoot()" not in b and re.search(r"\bonNode\w*\(|\bonAllNodes\w*\(", b)
            or re.search(r"\b(?:expect\(\s*)?page\s*\)?\.(?:toHaveScreenshot|screenshot)\(", a)
            and re.search(r"\bpage\.(?:locator|getBy\w+)\(", b))
        for a, b in _line_pairs(changes))


# a test's own data files (``test/__fixtures__/type-only.input.ts``, ``testdata/…``, ``fixtures/…``)
_FIXTURE_FILE = LazyRegex(r"(?i)(?:^|/)(?:__fixtures__|fixtures?|testdata|test-data)/")


def _case_fixture_rewritten(changes: dict[str, list[dict]], failure_text: str) -> bool:
    """Whether a change rewrites only the fixtures of the case that failed, named as the case is: ``type-only.input
    .ts`` and ``type-only.output.ts`` made plain imports after "rename-imports > keeps type-only imports" failed; the
    case it tests is no longer there."""
    # (and the case's own lines in the test beside them: ``"fiji": [177.2, -18.3, 179.99, -16.0]`` after
    # ``test_geo_metadata_bbox[fiji]`` failed and its vertices in tests/fixtures/fiji.geojson moved off the
    # antimeridian)
    fixtures = [path for path in changes if _FIXTURE_FILE.search(path)]
    stems = {os.path.basename(path).split(".", 1)[0] for path in fixtures}
    if not fixtures or not all(
            len(stem) >= 5 and re.search(rf"(?i)(?<![\w-]){re.escape(stem)}(?![\w-])", failure_text or "")
            or len(stem) >= 3 and re.search(rf"\[{re.escape(stem)}\]", failure_text or "") for stem in stems):
        return False
    for path in (path for path in changes if path not in fixtures):
        if not _TEST_PATH.search(path):
            return False
        for hunk in changes[path]:
            old, new = _code_sides(hunk)
            if not all(any(stem.lower() in line.lower() for stem in stems)
                       for line in [*(l for l in old if l not in new), *(l for l in new if l not in old)]):
                return False
    return True


def _unique_key_widened(changes: dict[str, list[dict]], failure_text: str) -> bool:
    """Whether a change makes a failing uniqueness test unique over more columns: dbt's ``- unique`` on
    ``customer_id`` → ``dbt_utils.unique_combination_of_columns`` over ``customer_id`` and ``dbt_scd_id``, after the
    duplicate current rows it caught; every row is unique with its own id beside it, the duplicates stay."""
    if not re.search(r"(?i)\bunique\w*\b", failure_text or ""):
        return False
    unique = re.compile(r"(?m)^\s*-\s*unique\s*:?\s*$")  # (dbt's test on the column, ``- unique:``)
    return any(unique.search(h["old"]) and not unique.search(h["new"])
               and "unique_combination_of_columns" in h["new"] and "unique_combination_of_columns" not in h["old"]
               for hunks in changes.values() for h in hunks)


# a test by its name: Go's ``func (s *Suite) TestX(``/``func TestX(``, Python's ``def test_x(``
_TEST_DEF = LazyRegex(r"\bfunc\s+(?:\([^)]*\)\s*)?(Test\w+)\s*\(|\bdef\s+(test_?\w+)\s*\(")


def _renamed_out_of_the_suite(changes: dict[str, list[dict]], failure_text: str) -> bool:
    """Whether a change to tests only renames the failing test to a name its runner does not collect: testify's
    ``TestApplyDiscount_StackedCoupons`` → ``stackedCouponsCase``, a helper now; the failing case no longer runs."""
    if not tests_only(changes):
        return False
    for a, b in _line_pairs(changes):
        named = _TEST_DEF.search(a)
        name = named and (named.group(1) or named.group(2))
        if name and name in (failure_text or "") and not _TEST_DEF.search(b) \
                and re.search(r"\b(?:func|def)\b", b):
            return True
    return False


# a count any number of calls meets: WireMock's ``moreThanOrExactly(0)``, Mockito's ``atLeast(0)``
_VACUOUS_COUNT = LazyRegex(r"\b(?:moreThanOrExactly|atLeast|greaterThanOrEqualTo)\(\s*0\s*\)")


def _vacuous_count(changes: dict[str, list[dict]]) -> bool:
    """Whether a change to tests only makes a verification count any number of calls: ``verify(postRequestedFor(…)
    .withRequestBody(…))`` → ``verify(moreThanOrExactly(0), postRequestedFor(…))``; it can no longer fail."""
    return tests_only(changes) and any(
        _VACUOUS_COUNT.search(line) for line in _added_in(changes))


# an expected verdict a test states as data turned from failing to passing (kyverno's ``result: fail`` → ``result:
# pass`` for ``bad-init-pod``)
_VERDICT_FAIL = LazyRegex(r"^\s*-?\s*(?:result|expect(?:ed)?(?:_result)?|outcome)\s*:\s*[\"']?"
                          r"(?:fail|error|deny|denied)[\"']?\s*$", re.I)
_VERDICT_PASS = LazyRegex(r"^\s*-?\s*(?:result|expect(?:ed)?(?:_result)?|outcome)\s*:\s*[\"']?(?:pass|allow|allowed|ok)"
                          r"[\"']?\s*$", re.I)


def _verdict_flipped(changes: dict[str, list[dict]]) -> bool:
    """Whether a test file written as data (``kyverno-test.yaml``) now expects a pass where it expected a failure:
    the case that should be refused is accepted by the test."""
    return any(re.search(r"(?i)test", path) and _DATA_FILE.search(path)
               and any(_VERDICT_FAIL.match(line) for line in h["old"].splitlines())
               and any(_VERDICT_PASS.match(line) for line in h["new"].splitlines())
               and not any(_VERDICT_FAIL.match(line) for line in h["new"].splitlines())
               for path, hunks in changes.items() for h in hunks)


def _policy_cases_made_to_comply(changes: dict[str, list[dict]], failure_text: str) -> bool:
    """Whether, a kyverno test having got another verdict than it wants ("Want pass, got fail" for
    ``good-pod-with-init``), only the test's resources were changed (``runAsNonRoot: true`` given to the init
    container of ``.kyverno-test/resources.yaml``): the policy that judged them wrongly is as it was."""
    return bool(re.search(r"\bWant (?:pass|fail|skip), got (?:pass|fail|skip)\b", failure_text or "")) and bool(
        changes) and all(re.search(r"(?:^|/)\.?kyverno-tests?/|(?:^|/)(?:resources|kyverno-test)\.ya?ml$", path)
                         for path in changes)


# a merge the test forces before it reads, which the code under test never gets: ClickHouse's ``OPTIMIZE TABLE …
# FINAL`` collapsing a ReplacingMergeTree's duplicates that the query itself leaves in
# (or a TimescaleDB continuous aggregate refreshed by the test, ``CALL refresh_continuous_aggregate('readings_hourly',
# NULL, NULL)``, where the dashboard's query was to see the latest rows in real time)
_MERGE_FORCED = LazyRegex(r"(?i)\bOPTIMIZE\s+TABLE\s+\S+(?:\s+ON\s+CLUSTER\s+\S+)?(?:\s+PARTITION\s+\S+)?\s+FINAL\b|"
                          r"\brefresh_continuous_aggregate\s*\(")


def _merge_forced(changes: dict[str, list[dict]]) -> bool:
    """Whether a change to tests only makes the storage merge its rows before the check reads them: the test sees
    the rows the code's own query would not have collapsed."""
    return tests_only(changes) and any(
        _brought_in(_MERGE_FORCED, [l for l in h["new"].splitlines() if l not in h["old"].splitlines()], [h])
        for hunks in changes.values() for h in hunks)


# an asynchronous check left unawaited: ``waitFor(() => expect(…))``, ``expect(p).resolves…``, ``screen.findByText(…)``
_ASYNC_CHECK = LazyRegex(r"^\s*(?!await\b|return\b)(?:waitFor\(|expect\([^\n]*\)\.(?:resolves|rejects)\b|"
                         r"(?:screen\.)?findBy\w+\()")
# a promise chain's ``.then`` started and left: ``Project.query().modify('active').then((rows) => {``
_UNAWAITED_THEN = LazyRegex(r"\s*(?!return\b|await\b)[\w.$]+(?:\([^()]*\))?(?:\.\w+(?:\([^()]*\))?)*\.then\(")


def _failing_case_given_other_values(changes: dict[str, list[dict]], failure_text: str) -> bool:
    """Whether a change to tests only gives the parametrized case that failed (pytest's ``test_token_accepted[
    near_expiry]``) other values, on its own line (``"near_expiry": timedelta(seconds=20)`` → ``timedelta(minutes=
    10)``): the case no longer is what its name says."""
    cases = {c for c in re.findall(r"\b\w+\[([A-Za-z_][\w-]{3,})\]", failure_text or "")}
    pairs = _lines_changed(changes)
    return bool(cases) and tests_only(changes) and bool(pairs) and all(
        any(re.search(rf"[\"'(]{re.escape(c)}[\"']", a) and re.search(rf"[\"'(]{re.escape(c)}[\"']", b) for c in cases)
        for a, b in pairs)


def _failing_input_rewritten(changes: dict[str, list[dict]], failure_text: str) -> bool:
    """Whether a change to a table of cases only rewrites the input of the case that failed, as the run printed it
    (``FAIL severity=critical team=payments``), its expected answer kept (``pagerduty-payments``): the case asks
    something else, and what it caught is still there."""
    if not tests_only(changes) or not all(re.search(r"\.(?:tsv|csv|txt|ya?ml|json)$", path) for path in changes):
        return False
    failed = {" ".join(m.group(1).split()) for m in re.finditer(r"(?m)^\s*(?:FAIL(?:ED)?|not ok)\b:?[ \t]+(.{6,}?)\s*$",
                                                               failure_text or "")}
    pairs = _lines_changed(changes)
    return bool(failed and pairs) and all(
        any(case in " ".join(a.split()) and case not in " ".join(b.split()) for case in failed)
        and a.split()[-1] == b.split()[-1] for a, b in pairs)


def _special_characters_taken_out(changes: dict[str, list[dict]]) -> bool:
    """Whether a change to tests only takes out of a string of theirs the characters code stumbles on, an apostrophe
    or an accent (a factory's ``"Dana O'Neil #{n}"`` → ``"Dana Neil #{n}"``, ``"José"`` → ``"Jose"``), or a key's
    escapes and brackets (an S3 event's ``"photos/Summer+Trip+%282%29.jpg"`` → ``"photos/summer-trip-2.jpg"``): the
    input that broke the code is never given to it."""
    def taken_out(a: str, b: str) -> bool:
        head, tail = common_ends(a, b)
        was, now = a[head:len(a) - tail], b[head:len(b) - tail]
        return a[:head].count('"') % 2 == 1 and len(now) <= len(was) and (
            bool(re.search(r"['’]|[^\x00-\x7f]", was)) and now.isascii() and "'" not in now
            or bool(re.search(r"%[0-9A-Fa-f]{2}|[+()]", was)) and bool(re.fullmatch(r"[\w./-]*", now)))

    pairs = _lines_changed(changes)
    return tests_only(changes) and bool(pairs) and all(taken_out(a, b) for a, b in pairs)


def _failing_item_dropped(changes: dict[str, list[dict]], failure_text: str) -> bool:
    """Whether a change to tests only takes out of a list of theirs the item the failure names (``faithfulness``
    dropped from ``METRICS = [faithfulness, answer_relevancy, context_precision]`` after "AssertionError: faithfulness
    0.712 < 0.8"): what failed is no longer checked."""
    if not tests_only(changes):
        return False
    said = {w for line in failure_text.splitlines() if _ASSERTION_FAILED.search(line)
            for w in re.findall(r"[A-Za-z_][\w-]{3,}", line)}

    def items(line: str) -> tuple[str, list[str]] | None:
        m = re.match(r"^(.*?)\[([^\[\]]*)\]\s*,?\s*$", line.strip())
        return (m.group(1), [i.strip().strip("\"'") for i in m.group(2).split(",") if i.strip()]) if m else None

    for hunks in changes.values():
        for hunk in hunks:
            old, new = _code_sides(hunk)
            lists = [[x for x in map(items, side) if x] for side in (old, new)]
            for head, was in lists[0]:
                now = next((n for h, n in lists[1] if h == head), None)
                if now is not None and now and set(now) < set(was) \
                        and any(item in said for item in set(was) - set(now)):
                    return True
    return False


# a UI test's query for what matches a pattern (XCUITest's ``.matching(NSPredicate(format: "label BEGINSWITH '$'"))``,
# Playwright's ``getByText(/\$/)``), and the first of what it finds
_PATTERN_QUERY = LazyRegex(r"\.matching\(|\bNSPredicate\(|\.containing\(|\bgetBy\w*\(\s*/|\blocator\(\s*[\"']text=/")
_FIRST_FOUND = LazyRegex(r"\bfirstMatch\b|\.first\(\)|\.nth\(0\)|\belement\(boundBy:\s*0\)")


def _locator_loosened(changes: dict[str, list[dict]]) -> bool:
    """Whether a change to tests only puts, where a UI test found an element by its identifier, the first element
    whose text matches a pattern (``app.staticTexts["checkout.total"]`` → ``app.staticTexts.matching(NSPredicate(format:
    "label BEGINSWITH '$'")).firstMatch``): the element the app no longer marks is never asked for."""
    return tests_only(changes) and any(
        _PATTERN_QUERY.search(b) and _FIRST_FOUND.search(b) and not _PATTERN_QUERY.search(a)
        and any(m.group(1) not in b for m in re.finditer(r"[\"']([\w.-]{4,})[\"']", a))
        for a, b in _line_pairs(changes))


def _named_input_replaced(changes: dict[str, list[dict]], failure_text: str) -> bool:
    """Whether a change to tests only gives the failing case, whose message names its input (``resample 44100 ->
    48000: expected 4800 frames``), other numbers in its place (``44100`` → ``48000`` in the resampler's config and
    the sine it is fed): the case the message names is no longer tested."""
    named = set(re.findall(r"(?<![\w.])\d{4,}(?![\w.])", " ".join(
        line for line in failure_text.splitlines() if re.search(r"\w\.\w+:\d+:|\bFAIL|\bexpected\b", line))))
    pairs = _lines_changed(changes)
    digits, long_numbers = re.compile(r"\d+(?:\.\d+)?"), re.compile(r"(?<![\w.])\d{4,}(?![\w])")
    return bool(named) and tests_only(changes) and bool(pairs) and all(
        digits.sub("#", a) == digits.sub("#", b) for a, b in pairs) and any(
        named & set(long_numbers.findall(a)) - set(long_numbers.findall(b)) for a, b in pairs)


def _fenced_off(changes: dict[str, list[dict]], failure_text: str) -> bool:
    """Whether a change to tests only puts the failing test under a condition the test build does not meet (``#if
    __WASM__`` … ``#endif`` around ``Formats_relative_tomorrow``): it is no longer compiled."""
    if not tests_only(changes):
        return False
    for hunks in changes.values():
        added = [line for h in hunks for line in _hunk_lines(h)[1]]
        if not (any(re.match(r"\s*#\s*if(?:n?def)?\b", line) for line in added)
                and any(re.match(r"\s*#\s*endif\b", line) for line in added)):
            continue
        fenced = " ".join(h["new"] for h in hunks
                          if any(re.match(r"\s*#\s*if", line) for line in h["new"].splitlines()))
        if any(re.search(rf"(?<![\w]){re.escape(name)}(?!\w)", failure_text)
               for name in re.findall(r"\b(?:void|def|fn|func|fun|test)\s+(\w{6,})\s*\(", fenced)):
            return True
    return False


# (one with ``::`` or a hex letter in it: not a time of day, ``2024:08:12:44``)
_IPV6 = LazyRegex(r"(?<![\w:.])(?=[\w:]*(?:::|[A-Fa-f]))(?:[0-9A-Fa-f]{1,4}:){2,7}:?[0-9A-Fa-f]{0,4}"
                  r"(?::[0-9A-Fa-f]{1,4}){0,6}(?![\w:])")
_IPV4 = LazyRegex(r"(?<![\w.])(?:\d{1,3}\.){3}\d{1,3}(?![\w.])")


def _ipv6_made_ipv4(changes: dict[str, list[dict]]) -> bool:
    """Whether a change to tests only puts an IPv4 address where their input had an IPv6 one (``2001:db8:85a3::8a2e:
    370:7334`` → ``203.0.113.42`` in the access log line a grok pattern failed on): the address the code mishandles
    is never given to it."""
    pairs = _lines_changed(changes)
    return tests_only(changes) and bool(pairs) and all(
        _IPV6.search(a) and not _IPV6.search(b) and _IPV4.search(b)
        and _IPV6.sub("", a).strip() == _IPV4.sub("", b).strip() for a, b in pairs)


# what a failing comparison found and did not expect: Beam's "unexpected elements [(None, 1)]", pytest's "Extra items"
_UNEXPECTED = LazyRegex(r"(?i)\bunexpected elements?\b:?\s*(.*)$|\bextra (?:items?|elements?)\b[^:\n]*:?\s*(.*)$",
                        re.MULTILINE)


def _unexpected_row_taken_out(changes: dict[str, list[dict]], failure_text: str) -> bool:
    """Whether a change to tests only takes out of their data the row that gave what the comparison did not expect
    (``{"user_id": None, …}`` deleted from ``EVENTS`` after "unexpected elements [(None, 1)]"): the input the code
    mishandles is no longer given to it."""
    hunks = [h for hs in changes.values() for h in hs]
    if not tests_only(changes) or not _only_takes_out(hunks):
        return False
    said = " ".join(m.group(1) or m.group(2) or "" for m in _UNEXPECTED.finditer(failure_text))
    values = {v for v in _literals(said) if len(v) >= 2} | set(_NULLISH.findall(said))
    removed = [line for h in hunks for line in Counter(h["old"].splitlines()) - Counter(h["new"].splitlines())]
    return bool(values) and any(re.match(r"\s*[{(\[]", line) and (
        _literals(line) & values or set(_NULLISH.findall(line)) & values) for line in removed)


# a file or a setting that tells a checker what to leave alone (``valgrind.supp``, ``message_id_filter =``)
_FILTERS = LazyRegex(r"(?i)supp(?:ress)?|filter|ignore|exclu|allow|mute|known|baseline")


def _failure_filtered_out(changes: dict[str, list[dict]], failure_text: str) -> bool:
    """Whether a change to tests only adds, to what tells the checker what to leave alone, the very thing the failure
    reported (``VUID-vkCmdDrawIndexed-None-08114`` appended to the validation layer's ``message_id_filter``; a
    valgrind suppression naming the ``cfg_section_new`` that leaked): the error is still there, no longer counted."""
    if not tests_only(changes):
        return False
    for path, hunks in changes.items():
        for hunk in hunks:
            old, new = _code_sides(hunk)
            for line in (line for line in new if line not in old):
                if not (_FILTERS.search(os.path.basename(path)) or _FILTERS.search(line)):
                    continue
                # (an identifier of the error, not a word of prose: ids with digits, dashes or underscores)
                named = [w for w in re.findall(r"[A-Za-z_][\w.-]{5,}", line) if re.search(r"[\d_-]", w)
                         and not any(w in o for o in old)]
                if any(re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", failure_text) for w in named):
                    return True
    return False


def _wait_result_dropped(changes: dict[str, list[dict]]) -> bool:
    """Whether a change to tests only made a wait that fails the test into one whose verdict it throws away
    (XCTest's ``wait(for: [refreshed], timeout: 2)`` → ``_ = XCTWaiter().wait(for: [refreshed], timeout: 2)``): a
    timeout no longer fails anything."""
    return tests_only(changes) and any(
        re.search(r"\b(?:wait\(for:|waitForExpectations\()", h["old"])
        and any(re.match(r"\s*_\s*=\s*XCTWaiter(?:\(\))?\.wait\(", line)
                for line in h["new"].splitlines() if line not in h["old"].splitlines())
        for hunks in changes.values() for h in hunks)


def _await_dropped(changes: dict[str, list[dict]]) -> bool:
    """Whether a change to tests only took the ``await`` off a check (``expect(await screen.findByText('Profile
    saved'))`` → ``waitFor(() => expect(screen.getByText('Profile saved'))…)`` with nothing awaiting it), or moved an
    awaited result's assertion into a ``.then`` nobody waits for (``const rows = await Project.query()…;
    expect(rows)…`` → ``Project.query()….then((rows) => { expect(rows)… })``, neither awaited nor returned): the test
    ends before the check runs, and passes whatever it would find."""
    if not tests_only(changes):
        return False
    for hunks in changes.values():
        for h in hunks:
            removed, added = _hunk_lines(h)
            if re.search(r"\bawait\b", h["old"]) and _ASSERTION.search(h["old"]) \
                    and any(_ASYNC_CHECK.match(line) and _ASSERTION.search(line) for line in added):
                return True
            if any(re.search(r"\bawait\b", line) for line in removed) and any(_UNAWAITED_THEN.match(line)
                                                                          for line in added) \
                    and any(re.search(r"\bexpect\(|\bassert", line) for line in added):
                return True
    return False


def _only_takes_out(hunks: list[dict]) -> bool:
    """Whether every hunk only takes lines out, adding none."""
    return bool(hunks) and all(not Counter(h["new"].splitlines()) - Counter(h["old"].splitlines())
                               and len(h["new"].splitlines()) < len(h["old"].splitlines()) for h in hunks)


_DATA_FILE = LazyRegex(r"\.(?:ya?ml|json|csv|tsv|jsonl)$")
# a command that deletes lines from a file in place: ``sed -i '/,guest,/d' tests/fixtures/orders_sample.csv``
_DELETES_LINES = LazyRegex(r"""\bsed\s+(?:-\w*i\S*|--in-place\S*)\s+(?:-e\s+)?(['"]?)(?:/[^/]+/|\$|\d+(?:,\d+)?)[dD]\1\s+"""
                           r"""['"]?([^\s'";&|]+)""")


def deletes_test_rows(command: str) -> bool:
    """Whether a command takes lines out of the tests' data (``sed -i '/,guest,/d' tests/fixtures/orders.csv``): the
    rows that broke the code are no longer given to it."""
    return any(_TEST_DATA.search(m.group(2)) or _TEST_PATH.search(m.group(2)) and _DATA_FILE.search(m.group(2))
               for m in _DELETES_LINES.finditer(command))


def moves_test_data(command: str) -> bool:
    """Whether every step of a command only makes a directory for, moves or removes the tests' data
    (``mkdir -p tests/fixtures/orders_legacy && git mv tests/fixtures/orders/part-2024-01.parquet …``)."""
    steps = [_words(step) for step in _segments(command)]
    return bool(steps) and all(
        (words[:2] in (["git", "mv"], ["git", "rm"]) or words[:1] in (["mv"], ["rm"], ["mkdir"]))
        and tests_only([w for w in words[2 if words[0] == "git" else 1:] if not w.startswith("-")])
        for words in steps)


def moves_test_out_of_the_suite(command: str, failure_text: str) -> bool:
    """Whether a line moves the failing test's file to a name or a source set its runner does not collect (``git mv
    test/models/order.test.js test/integration/order.db.js`` after ``FAIL test/models/order.test.js``): the failing
    test no longer runs."""
    for segment in _segments(command):
        m = re.match(r"^(?:git\s+mv|mv)\b((?:\s+\S+){2,})", segment)
        words = [w for w in m.group(1).split() if not w.startswith("-")] if m else []
        # (or into a source set the failing task does not run: ``src/test/…/ReceiptTotalParserTest.kt`` →
        # ``src/androidTest/…``, after ``:scanner:testDebugUnitTest`` failed in it)
        if len(words) == 2 and (_TEST_MODULE.search(words[0]) and not _TEST_MODULE.search(words[1]) or re.search(
                r"(?:^|/)src/test/", words[0]) and re.search(r"(?:^|/)src/(?!test/)\w*[Tt]est/", words[1])) \
                and os.path.basename(words[0]) in failure_text:
            return True
    return False


def _checks_fewer_rows(changes: dict[str, list[dict]]) -> bool:
    """Whether a change to tests only made a line check a part of its data (``OrdersSchema.validate(df)`` →
    ``OrdersSchema.validate(df, head=500)``): the failing rows are no longer looked at, nothing was fixed."""
    pairs = [(old, new) for hunks in changes.values() for h in hunks
             for old, new in zip(h["old"].splitlines(), h["new"].splitlines()) if old != new]
    return tests_only(changes) and bool(pairs) and all(
        _FEWER_ROWS.search(new) and _FEWER_ROWS.sub("", new).strip() == old.strip() for old, new in pairs)


# a property test's strategy over every value of a type (``rate in any::<u32>()``, ``st.integers()``,
# ``fc.integer()``)
_ANY_VALUE = LazyRegex(r"\bany::<[\w:]+>\(\)|\bst\.(?:integers|floats|text|binary|lists)\(\s*\)|"
                       r"\bfc\.(?:integer|nat|float|double|string)\(\s*\)")


def _narrows_strategy(changes: dict[str, list[dict]]) -> bool:
    """Whether a change only narrows the values a property test draws (``rate in any::<u32>()`` → ``rate in
    1u32..=10_000``), wherever the test lives (Rust keeps it beside the code): the counterexample is no longer drawn,
    nothing was fixed."""
    pairs = []
    for hunks in changes.values():
        for h in hunks:
            removed, added = _hunk_lines(h)
            added = [l for l in added if not _IMPORT_LINE.match(l)]  # (``import string``)
            # (nor the values it is narrowed to, named on a line of their own: ``TITLE_CHARS = string.ascii_letters +
            # …`` for ``st.text(alphabet=TITLE_CHARS)``)
            added = [l for l in added if not ((m := re.match(r"\s*([A-Za-z_]\w*)\s*=(?!=)", l)) and any(
                _STRATEGY.search(o) and re.search(rf"(?<![\w.]){m.group(1)}\b", o) for o in added if o is not l))]
            if len(removed) != len(added):
                return False
            pairs += zip(removed, added)
    # (or a range replaced by the values that pass: ``st.integers(min_value=1, max_value=12)`` →
    # ``st.sampled_from([1, 2, 4, 5, 10])``)
    # (by the strategy it calls, in a decorator too: ``@given(st.text(…))`` → ``@given(st.from_regex(…))``)
    def head(line: str) -> str:
        return (m.group(0) if (m := _STRATEGY.search(line)) else line.split("(", 1)[0])
    swapped = [(a, b) for a, b in pairs if head(a) != head(b)]
    if swapped and all(_STRATEGY.search(a) and _PICKED.search(b) for a, b in swapped):
        return True
    return bool(pairs) and all(a.split("(", 1)[0] == b.split("(", 1)[0] and (
        _ANY_VALUE.search(a) and len(_ANY_VALUE.findall(b)) < len(_ANY_VALUE.findall(a))
        # (or given bounds it had not: ``st.text(min_size=1)`` → ``st.text(alphabet=…, min_size=1).filter(…)``)
        # (counted, not as a set: ``page=st.integers(max_value=500)`` given a ``min_value`` beside another strategy's)
        or _STRATEGY.search(a) and Counter(_BOUNDS.findall(b)) - Counter(_BOUNDS.findall(a))) for a, b in pairs)


# assertions collected, to be checked only by an ``assertAll()`` (AssertJ's, Java's and Kotlin's)
_SOFT_ASSERTIONS = LazyRegex(r"\bnew SoftAssertions\(\)|\bSoftAssertions\(\)")
# a stream's items a test passes over unchecked (Turbine's ``skipItems(1)``)
_ITEMS_SKIPPED = LazyRegex(r"\bskipItems\(")
# a string in double quotes, on one line
_STRINGS = LazyRegex(r'"[^"\n]*"')
# how far a property test searches (hypothesis' ``stateful_step_count=4``, ``max_examples=10``; proptest's
# ``cases: 8``; fast-check's ``numRuns: 5``)
_SEARCH_CAPPED = LazyRegex(r"\b(?:stateful_step_count|max_examples|max_steps)\s*=\s*\d|\bcases\s*:\s*\d|"
                           r"\bnumRuns\s*:\s*\d")
# a security policy loaded or set so that it only reports (AppArmor's complain mode, SELinux's permissive one)
_PERMISSIVE = LazyRegex(r"\baa-complain\b|\bapparmor_parser\b[^\n]*\s-\w*C\b|\bsetenforce\s+0\b|"
                        r"\bSELINUX=permissive\b|\bvalidationFailureAction:\s*[Aa]udit\b|"
                        r"\benforcementAction:\s*(?:dryrun|warn)\b")
# a fuzz target: cargo-fuzz's and libFuzzer's, Go's ``func FuzzX(f *testing.F)``, Atheris's ``TestOneInput``
_FUZZ_TARGET = LazyRegex(r"(?:^|/)fuzz(?:_targets)?/|\bfuzz_target!|\bLLVMFuzzerTestOneInput\b|\bfunc Fuzz\w*\(|"
                         r"\bTestOneInput\b")
# what a fuzzer says when an input broke the code
_FUZZ_CRASH = LazyRegex(r"(?i)\bcrash-[0-9a-f]{8,}|\bdeadly signal\b|==\d+==\s*ERROR: (?:libFuzzer|AddressSanitizer)|"
                        r"\bpanicked at\b|\bFailing input written to\b|\bfailing input:")
# Pester's case-sensitive matchers (``Should -BeExactly``, ``-MatchExactly``, ``-ContainExactly``)
_EXACT_MATCHER = LazyRegex(r"\bShould\s+-(?:Be|Match|Contain)Exactly\b")
# a line that returns early, or the guard that does: ``if data.len() < 2 { return; }``, ``return``
_EARLY_RETURN = LazyRegex(r"^\s*(?:if\b[^\n]*\breturn\b|return\s*(?:;|0;|-1;|nil|None)?\s*$|"
                          r"\}?\s*else\s*\{?\s*return\b)")
# an assumption a formal check is given (SystemVerilog's ``assume (…)``/``assume property``, CBMC's, Kani's)
_ASSUMED = LazyRegex(r"(?<![\w.])(?:assume\s*(?:property\s*)?\(|__CPROVER_assume\s*\(|kani::assume\s*\()")
_COUNTEREXAMPLE = LazyRegex(r"(?i)\bfalsifying example\b|\bminimal failing input\b|\bcounterexample\b|"
                            r"\bShrunk \d+ time")


# (QuickCheck's and ScalaCheck's too: ``forAll (oddList arbitrary)`` → ``forAll (sort <$> oddList arbitrary)``)
_STRATEGY = LazyRegex(r"\bst\.\w+\(|\bany::<|\bfc\.\w+\(|\bprop::\w+|\b[Aa]rbitrary\b|\bgen\.\w+\(|\bGen\.\w+|"
                      r"\bforAll\b")
# (or by a pattern they match: ``st.text(min_size=1)`` → ``st.from_regex(r"[A-Za-z0-9][…]{0,79}", fullmatch=True)``)
_PICKED = LazyRegex(r"\b(?:sampled_from|just|constantFrom|constant|elements|from_regex|stringMatching)\(")
_BOUNDS = LazyRegex(r"\b(?:alphabet|min_value|max_value|max_size|max_codepoint|blacklist_categories|"
                    r"whitelist_categories|codec|exclude_characters|allow_nan|allow_infinity)\s*=|\.filter\(|"
                    r"\b(?:min|max):|<\$>|\bfmap\b|\bsuchThat\b|`suchThat`")


def _waits_longer(changes: dict[str, list[dict]]) -> bool:
    """Whether a change to tests only makes a test wait longer (``await sleep(200)`` → ``sleep(2000)``): a race
    given more time, not fixed."""
    return tests_only(changes) and any(_lowers_a_number(hunks, raises=True, lines=_WAIT) for hunks in changes.values())


def _rewrites_only_tests(changes: dict[str, list[dict]]) -> bool:
    """Whether a change touches nothing but tests and their data, and rewrites what one of them asserts: the code
    under test stayed as it was and the test was made to agree with it. (A test-only fix that is a lesson sets the
    test up differently, an import, a fixture, a marker, and leaves its assertions alone.)"""
    if not tests_only(changes):
        return False
    def asserts(line: str) -> bool:  # (an import that names ``expect`` asserts nothing)
        return bool(_ASSERTION.search(line)) and not _COMMENT_LINE.match(line) and not _IMPORT_LINE.match(line)

    for hunks in changes.values():
        for hunk in hunks:
            kept = {line.strip() for line in hunk["new"].splitlines()}  # (an assertion moved into a block is kept)
            was = {line.strip() for line in hunk["old"].splitlines()}
            # (not one that only reads its data in a given encoding: ``expected = case.with_suffix(".out").read_text()``
            # → ``….read_text(encoding="utf-8")``, under ``LC_ALL=C``)
            encoded = {re.sub(r"(?:,\s*)?\b(?:encoding|errors)\s*=\s*[\"'][\w-]+[\"'](?:\s*,\s*(?=\w))?", "",
                              line).strip() for line in hunk["new"].splitlines()}
            removed = [line for line in hunk["old"].splitlines() if line.strip() not in kept and line.strip()
                       and line.strip() not in encoded]
            asserted = [line for line in removed if asserts(line)]
            added = [line for line in hunk["new"].splitlines() if asserts(line) and line.strip() not in was]
            # (an assertion that looks at the result another way and expects the same numbers is kept:
            # ``findAll("a").length).toBe(3)`` → ``findAllComponents(RouterLinkStub).length).toBe(3)``)
            # (the same numbers whatever their type: ``7`` → ``7.0`` in PureScript's `shouldEqual`)
            # (and of a kind: Fortran's ``2.13809`` → ``2.13809_dp``)
            numbers = [[float(n) for n in re.findall(r"(?<![\w.])-?\d+(?:\.\d+)?(?![\w.])",
                                                     _KIND_SUFFIX.sub(r"\1", "\n".join(lines)))]
                       for lines in (asserted, added)]
            # (or that waits for it and expects the same values: ``expect(screen.getByText('Saved'))`` →
            # ``expect(await screen.findByText('Saved'))``)
            # (by the same matchers: ``toBe('a')`` → ``toMatch('a')`` expects less)
            literals = [_ANY_LITERAL.findall("\n".join(lines)) for lines in (asserted, added)]
            matchers = [sorted(re.findall(r"\.(?:to|not\.to)\w*|\bassert\w*|\bexpect\w*", "\n".join(lines)))
                        for lines in (asserted, added)]
            adapted = len(added) >= len(asserted) and (sorted(numbers[0]) == sorted(numbers[1]) and numbers[0]
                                                       or sorted(literals[0]) == sorted(literals[1]) and literals[0]
                                                       and matchers[0] == matchers[1]) \
                and not any(_LOOSENED.search(line) for line in added)
            # (nor one that now counts the results with their duplicates dropped: ``seen[string(m.Data)] = true``
            # then ``require.Len(t, seen, 1)`` for ``require.Equal(t, uint64(1), info.State.Msgs)``)
            deduped = _brought_in(_DEDUPED, [line for line in hunk["new"].splitlines() if line.strip() not in was],
                                  [hunk])
            if asserted and (not adapted or deduped):
                return True
            # a bare value inside an expectation (ppx_expect's ``[%expect {| 33.34 |}]``, a doctest's output line)
            if _ASSERTION.search(hunk["old"]) and any(_BARE_VALUE.match(line) for line in removed):
                return True
    return False


# results gathered with their duplicates dropped: a set, a map of seen keys, ``distinct``/``uniq``
_DEDUPED = LazyRegex(r"\bset\(|\bnew Set\(|\.distinct\(|\.uniq\b|\.unique\(|\bseen\[[^\]]+\]\s*=\s*true\b|"
                     r"map\[\w+\]bool\b|\.toSet\(|\bdrop_duplicates\(")
# a method stubbed to return a value: jest/vitest ``spyOn(obj, 'm').mockReturnValue``, ``patch.object(obj, "m",
# return_value=…)``, rspec ``allow(obj).to receive(:m).and_return``, Mockito ``when(obj.m(…)).thenReturn``
_STUBBED = LazyRegex(r"""spyOn\(\s*(\w+)\s*,\s*['"](\w+)['"]\s*\)\s*\.mock(?:Return|Resolved|Implementation)|"""
                     r"""patch\.object\(\s*(\w+)\s*,\s*['"](\w+)['"]\s*,\s*return_value|"""
                     r"""allow\((\w+)\)\.to\s+receive\(:(\w+)\)\.and_return|when\((\w+)\.(\w+)\(.*\)\)\.thenReturn""")
# a check that failed because nothing was thrown or raised
_DID_NOT_THROW = LazyRegex(r"(?i)resolved instead of rejected|\bDID NOT RAISE\b|\bdid not (?:throw|raise)\b|"
                           r"\bno exception (?:was )?(?:thrown|raised)\b|\bExpected [\w.]+ to be thrown\b|"
                           r"\bExpected exception:? [\w.]+\b.*\bnothing was thrown\b")
# a stub made to throw or reject (jest's ``mockRejectedValue``, a ``mockImplementation`` that throws, unittest's
# ``side_effect=SomeError``, rspec's ``and_raise``, Mockito's ``thenThrow``/``doThrow``)
_STUB_THROWS = LazyRegex(r"\.mockRejectedValue(?:Once)?\(|\.mockImplementation(?:Once)?\(\s*(?:async\s*)?\(\)\s*=>\s*"
                         r"\{?\s*throw\b|\bside_effect\s*=\s*[\w.]*(?:Error|Exception)\b|\.and_raise\(|"
                         r"\.thenThrow\(|\bdoThrow\(|\.willThrow\(")
# a wait in a test (``await sleep(200)``, ``time.sleep(0.5)``, ``setTimeout(r, 100)``, ``Thread.sleep(50)``)
_WAIT = LazyRegex(r"(?i)\b(?:sleep|wait(?:For)?|setTimeout|delay|advanceTimersByTime|timeout)\w*\s*[(=:]")


# an end-to-end step forced past the browser's actionability checks (Cypress and Playwright's ``click({ force: true
# })``, Capybara's ``click(…, visible: false)`` aside): whatever covers the button, the test no longer sees it
_FORCED = LazyRegex(r"\.(?:click|dblclick|rightclick|type|check|uncheck|select|clear|fill|tap|hover|trigger)\("
                    r"[^)]*\bforce\s*:\s*true\b")


# calls a test makes at once (``Future.wait([…])``, ``Promise.all``, ``asyncio.gather``), and a test named for them
_AT_ONCE = LazyRegex(r"\bFuture\.wait\(|\bPromise\.(?:all|allSettled|race)\(|\b(?:asyncio|trio)\.gather\(|"
                     r"\bTask\.WhenAll\(|\bawaitAll\(|\bwith(?:Throwing)?TaskGroup\b|\bDispatchGroup\(|"
                     r"\bCompletableFuture\.allOf\(|\bThreadPoolExecutor\(|\berrgroup\.|\bgo func\(|\bthread::scope\(")
_NAMED_FOR_CONCURRENCY = LazyRegex(r"(?i)\bconcurrent\w*|\bparallel\w*|\bsimultaneous\w*|\bat the same time\b|"
                                   r"\bin[- ]flight\b|\brac(?:e|es|ing)\b")


# what a test calls to say its asynchronous work is done (XCTest's ``exp.fulfill()``, mocha's ``done()``, a latch)
_DONE_SIGNAL = LazyRegex(r"\b\w+\.fulfill\(\)|(?<![\w.])done\(\)|\.countDown\(\)|\bcompleter\.complete\(")


def _signal_moved_out(hunk: dict) -> bool:
    """Whether a test's signal that its asynchronous work is done moved out of the callback it was in, to run right
    after the call (blind451 QJ17: ``exp.fulfill()`` out of ``loadProfile``'s completion handler): the wait now passes
    whether the callback runs or not."""
    def indent(line: str) -> int:
        return len(line) - len(line.lstrip())

    old, new = hunk["old"].splitlines(), hunk["new"].splitlines()
    return any(_DONE_SIGNAL.search(l) and l not in new and any(
        n.strip() == l.strip() and indent(n) < indent(l) and n not in old for n in new) for l in old)


def _made_sequential(hunk: dict, failure_text: str) -> bool:
    """Whether a test the failure names for concurrency no longer makes its calls at once (blind439 PX09: ``await
    Future.wait([dio.get('/orders'), dio.get('/profile')])`` made two awaits in turn, after "refreshes once for
    concurrent 401s" failed): the race it was written to catch never happens."""
    return bool(_NAMED_FOR_CONCURRENCY.search(failure_text) and _AT_ONCE.search(hunk["old"])) \
        and not _AT_ONCE.search(hunk["new"])


def _alternative_accepted(hunk: dict) -> bool:
    """Whether a check now passes on something else as well: the condition it had, now one side of an ``||`` or
    ``or`` whose other side is new (blind442 QA17: ``discountBadge.waitForExistence(timeout: 3)`` →
    ``discountBadge.waitForExistence(timeout: 3) || totalLabel.exists``); not a value given a default, ``port =
    env.PORT || 3000``."""
    old_lines = hunk["old"].splitlines()
    for line in hunk["new"].splitlines():
        if line in old_lines or re.search(r"(?<![=!<>])=(?!=)|\?\?", line):
            continue
        sides = [side.strip(" \t;{}()") for side in re.split(r"\|\||\s+or\s+", re.sub(r"^\s*return\b", "", line))]
        if len(sides) >= 2 and any(len(side) >= 8 and side in hunk["old"] for side in sides) \
                and any(side and side not in hunk["old"] and not _BARE_VALUE.match(side) for side in sides):
            return True
    return False


def _brought_in(pattern: LazyRegex, added_lines: list[str], hunks: list[dict]) -> bool:
    """Whether an added line matches ``pattern`` where no line the edit replaced did."""
    return any(pattern.search(l) for l in added_lines) and not any(
        pattern.search(l) for hunk in hunks for l in hunk["old"].splitlines())


# what a test's comment says it requires ("must page within 5m of the spike (SLO-42)", "at most 200 ms")
_REQUIRES = LazyRegex(r"(?i)\b(?:must|should|within|at\s+most|no\s+(?:more|later|slower)\s+than|required?|"
                      r"SL[OA]s?|budget|deadline)\b")


# a number with its unit, standing alone (``5m``, ``200 ms``, ``0.95``), not part of a name or another number
_MEASURE = LazyRegex(r"(?<![\w.])\d+(?:\.\d+)?\s*(?:ms|s|m|h|d|%|seconds?|minutes?|hours?)?(?![\w.])")


def _against_its_comment(old_lines: list[str], new_lines: list[str], removed: list[str], added: list[str]) -> bool:
    """Whether a value the hunk's unchanged comment states as a requirement (``# must page within 5m …``) was
    changed away from it (``- eval_time: 5m`` → ``- eval_time: 16m``): the test now checks less than it says."""
    comments = [l for l in old_lines if _COMMENT_LINE.match(l) and l in new_lines and _REQUIRES.search(l)]

    def values(lines: list[str]) -> set[str]:
        return {v.replace(" ", "") for l in lines for v in _MEASURE.findall(l)}

    gone = values(removed) - values(added)
    return bool(added) and any(re.search(rf"(?<![\w.]){re.escape(v)}(?![\w.])", c) for v in gone if v.strip("0")
                               for c in comments)


_FLOW_ROW = LazyRegex(r"^\s*-\s*\{(.*)\}\s*$")
# the file dbt says holds the unit test that failed (``Failure in unit_test test_x (models/…/_int_orders.yml)``)
_UNIT_TEST_FILE = LazyRegex(r"\bFailure in unit_test \w+ \(([\w./-]+\.ya?ml)\)")


def _expected_rows_trimmed(hunk: dict) -> bool:
    """Whether a unit test's expected rows (dbt's ``expect: rows:``) lost columns they compared, every value kept
    as it was: ``{order_id: 1001, gross_revenue: 120.00, net_revenue: 95.00}`` → ``{order_id: 1001, gross_revenue:
    120.00}``; dbt compares only the columns listed, so the one that failed is no longer checked."""
    def rows(text: str) -> list[dict]:
        after = text.split("expect:", 1)[1] if re.search(r"(?m)^\s*expect:\s*$", text) else ""
        return [dict(re.split(r"\s*:\s*", pair.strip(), maxsplit=1) for pair in m.group(1).split(",") if ":" in pair)
                for line in after.splitlines() if (m := _FLOW_ROW.match(line))]

    old, new = rows(hunk["old"]), rows(hunk["new"])
    return bool(old) and len(old) == len(new) and all(n.items() <= o.items() for o, n in zip(old, new)) \
        and any(len(n) < len(o) for o, n in zip(old, new))


# a test that takes the callback it calls when its asynchronous part is done (``(done) => {``, ``function (done)``)
_TAKES_DONE = LazyRegex(r"\(\s*done\s*\)\s*=>|\bfunction\s*\w*\s*\(\s*done\s*\)")
# a doctest told to skip its example or match its output loosely (``# doctest: +ELLIPSIS``, ``+SKIP``)
_DOCTEST_LOOSENED = LazyRegex(r"#\s*doctest:\s*[^\n]*\+(?:ELLIPSIS|SKIP)\b")


_STORY = LazyRegex(r"\.stories\.[jt]sx?$|\.stories\.(?:svelte|vue|mdx)$")
_PLAY_TEST = LazyRegex(r"\bplay-test\b|\btest-storybook\b")


# a value left out (``amount: undefined``, ``"owner": None``, ``tag: nil``)
_ABSENT = LazyRegex(r"""(\b\w+["']?\s*[:=]\s*)(?:undefined|null|None|nil)\b""")
_GIVEN_VALUE = LazyRegex(r"""-?\d[\d_.]*|"[^"]*"|'[^']*'|true|false|True|False""")


def _absence_filled(hunks: list[dict]) -> bool:
    """Whether a line's missing value is given one, the rest of the line as it was (``amount: undefined`` →
    ``amount: 99999``)."""
    for hunk in hunks:
        removed, added = _hunk_lines(hunk)
        for line in removed:
            for m in _ABSENT.finditer(line):
                before, after = line[:m.end(1)], line[m.end():]
                if any(l.startswith(before) and l.endswith(after) and len(l) > len(before) + len(after)
                       and _GIVEN_VALUE.fullmatch(l[len(before):len(l) - len(after)].strip()) for l in added):
                    return True
    return False


# an accessibility check told to pass over what it found: Espresso's ``setSuppressingResultMatcher(…)``, axe's
# ``.disableRules([…])``, a rule's ``enabled: false``
_A11Y_SUPPRESSED = LazyRegex(r"""\.setSuppressingResultMatcher\(|\.disableRules\(|["']?\benabled["']?\s*:\s*false\b""")
# a Django signal's receiver called as a function (``create_profile(sender=User, instance=user, created=True)``)
_RECEIVER_CALLED = LazyRegex(r"^\s*(?!\w+\.send\b)[\w.]+\(\s*sender\s*=\s*[\w.]+\s*,\s*instance\s*=")
# a key an assertion found missing from what the code made (aws-cdk's ``!!   Missing key 'BucketEncryption'``)
_MISSING_KEY = LazyRegex(r"!!\s+Missing key '(\w{5,})'")
_LOGGED_ERRORS_IGNORED = LazyRegex(r"\bLogAssert\.ignoreFailingMessages\s*=\s*true\b")
_A11Y_FAILURE = LazyRegex(r"(?i)accessib|\ba11y\b|\baxe\b|screen readers?\b")


def _words_of(text: str) -> set[str]:
    return set(re.findall(r"[a-z0-9]+", text.lower()))


def _input_named_dropped(hunks: list[dict], failure_text: str) -> bool:
    """Whether a failing test named for what it is given (``test_create_order_with_coupon``) no longer gives it:
    ``"coupon": "SPRING10"`` taken out of its request, the rest of the line kept."""
    subjects = {w.lower() for w in re.findall(r"\btest\w*?_with_([a-z]{4,})", failure_text)}
    subjects |= {w.lower() for w in re.findall(r"\b(?:test|should)\w*?With([A-Z][a-z]{3,})", failure_text)}
    for hunk in hunks if subjects else ():
        removed, added = ("\n".join(l for l in side if not _COMMENT_LINE.match(l)) for side in _hunk_lines(hunk))
        if added.strip() and _words_of(added) <= _words_of(removed) and any(
                re.search(rf"(?i)\b{w}\b", removed) and not re.search(rf"(?i)\b{w}\b", added) for w in subjects):
            return True
    return False


def _input_named_swapped(hunks: list[dict], failure_text: str) -> bool:
    """Whether a failing test named for what it is given (``test_contractor_cannot_delete_outside_project``) is now
    given another value in its place: ``"role": "contractor"`` → ``"role": "viewer"``, the rest of the line kept."""
    named = {w for line in failure_text.splitlines() if re.search(r"\b(?:FAIL(?:ED)?|failed)\b", line)
             for name in re.findall(r"\b\w*test\w*\b", line) for w in name.lower().split("_")
             if len(w) >= 4 and w != "test"}
    for hunk in hunks if named else ():
        for a, b in zip(*_code_sides(hunk)):
            for literal in re.finditer(r"\"([^\"\n]+)\"|'([^'\n]+)'", a):
                put = _in_place_of(a, b, literal)
                if put and literal.group(literal.lastindex).lower() in named \
                        and re.fullmatch(r"\"[^\"\n]+\"|'[^'\n]+'", put) and put[1:-1].lower() not in named:
                    return True
    return False


# go-cmp told to look past a part of what it compares (``cmpopts.IgnoreFields(…)``, ``cmpopts.IgnoreUnexported(…)``)
_CMP_IGNORES = LazyRegex(r"\bcmpopts\.Ignore\w*\(")


def _measured(text: str) -> tuple[str, str]:
    """The lines inside a performance test's ``measure { … }`` block, and the lines outside it."""
    inside, outside, depth = [], [], 0
    for line in text.splitlines():
        if depth:
            depth += line.count("{") - line.count("}")
            (inside if depth > 0 else outside).append(line)
        elif re.search(r"\bmeasure(?:Metrics)?\b[^{]*\{\s*$", line):
            depth = 1
        else:
            outside.append(line)
    return "\n".join(inside), "\n".join(outside)


def _expected_line_dropped(path: str, hunks: list[dict], failure_text: str) -> bool:
    """Whether an edit deletes from an expected-output file a line the failure's diff of that file showed missing
    from the output (``--- tests/nested_lock.expected`` … ``-tests/nested_lock.c:21:17: warning: …``): the
    expectation the code stopped meeting is gone, not met."""
    # (an expected output's file, not a file a tool diffs against what it would write: gazelle's ``--- BUILD.bazel``)
    name = os.path.basename(path) if re.search(r"(?i)expected|golden|snapshot|\.out$|\.snap$|(?:^|/)fixtures?/", path) \
        else ""
    diffed = re.search(rf"(?m)^--- (?:a/)?\S*?{re.escape(name)}\b", failure_text) if name else None
    if diffed is None:
        return False
    wanted = {l[1:].strip() for l in failure_text[diffed.end():].splitlines()
              if l.startswith("-") and not l.startswith("---") and len(l.strip()) > 8}
    removed = {l.strip() for h in hunks for l in h["old"].splitlines()} - {l.strip() for h in hunks
                                                                          for l in h["new"].splitlines()}
    return bool(wanted & removed)


# a patch of a module's attribute for a test: ``monkeypatch.setattr(conditions, "to_seconds", …)``,
# ``mocker.patch("app.conditions.to_seconds", …)``, ``patch.object(conditions, "to_seconds", …)``
_PATCHED = LazyRegex(r"\b(?:monkeypatch\.setattr|(?:mocker\.|mock\.)?patch(?:\.object)?)\(\s*[\"']?([\w.]+)")
# the failing test's file, by the module it is named for: ``tests/test_conditions.py``, ``conditions_test.go``
_TESTED_MODULE = LazyRegex(r"\btest_(\w{4,})\.py\b|\b(\w{4,})_test\.(?:py|go)\b")


def _patched_to_expect(added_lines: list[str], failure_text: str) -> bool:
    """Whether a test's edit patches the module the failing test is named for so that it returns the value the test
    expected (``monkeypatch.setattr(conditions, "to_seconds", lambda w: {"5m": 300, …}.get(w, 60))`` in an autouse
    fixture after test_conditions.py's ``assert 5 == 300``): the code under test no longer runs."""
    tested = {name.lower() for m in _TESTED_MODULE.finditer(failure_text) for name in m.groups() if name}
    expected = {v for line in failure_text.splitlines() if (m := re.match(r"E\s+assert .+? == (.+)$", line.strip()))
                for v in _literals(m.group(1)) or {m.group(1).strip()}}
    expected |= {m.group(1).strip("\"'") for m in _EXPECTED_VALUE.finditer(failure_text)}
    return any(set(m.group(1).lower().split(".")) & tested and any(
        re.search(rf"(?<![\w.]){re.escape(value)}(?![\w.])", line) for value in expected if value)
        for line in added_lines for m in _PATCHED.finditer(line))


def _loop_bound_lowered(hunks: list[dict]) -> bool:
    """Whether a loop's upper bound was lowered and nothing else changed but comments (``while (v < 100_000)`` →
    ``while (v < 16_000)``)."""
    bound = r"^\s*(?:while|for)\b.*?<=?\s*([\d_]+)"
    for hunk in hunks:
        removed = [l for l in hunk["old"].splitlines() if l not in hunk["new"].splitlines()]
        added = [l for l in hunk["new"].splitlines() if l not in hunk["old"].splitlines()
                 and not re.match(r"\s*(?://|#)", l)]
        was = [re.match(bound, l) for l in removed]
        now = [re.match(bound, l) for l in added]
        if len(removed) == len(added) == 1 and was[0] and now[0] \
                and int(now[0].group(1).replace("_", "")) < int(was[0].group(1).replace("_", "")):
            return True
    return False


def _setup_named_by_the_test_dropped(hunks: list[dict], failure_text: str) -> bool:
    """Whether a change only takes lines out, one of them a call named by two words of the failing test's name
    (``cmds.joint(shoulder, edit=True, orientJoint="xyz", …)`` out of the ``arm_rig`` fixture after
    ``test_export_preserves_joint_orient`` failed): what the test is about is no longer set up."""
    named = {w for name in re.findall(r"\btest_\w+", failure_text) for w in name.lower().split("_") if len(w) >= 4}
    removed = [l for h in hunks for l in h["old"].splitlines() if l not in h["new"].splitlines()]
    added = [l for h in hunks for l in h["new"].splitlines() if l not in h["old"].splitlines()]
    return bool(named) and bool(removed) and not any(l.strip() for l in added) and any(
        len({w.lower() for w in re.findall(r"[A-Z]?[a-z]{4,}", word)} & named) >= 2
        for l in removed for word in re.findall(r"[A-Za-z]\w{7,}", l))


_ONE_ARGUMENT_EQUALITY = LazyRegex(r"\(is\s+\((?:=|==|not=)\s+[^\s()]+\)")


def _is_weakening(path: str, hunks: list[dict], failure_text: str = "") -> str | None:
    """Why an edit to a test file makes the test pass without fixing anything (skip, loosened, deleted, renamed,
    or its expected value replaced by the value the failure said the code returned)."""
    added_lines = [l for hunk in hunks for l in hunk["new"].splitlines() if l not in hunk["old"].splitlines()]
    # (dbt's failing data tests given a filter that leaves the failing rows out: ``+where: "_fivetran_synced >
    # dateadd(day, -30, current_timestamp)"`` under ``tests:`` in dbt_project.yml, after "FAIL 3 unique_…")
    if re.search(r"\bFAIL \d+\b", failure_text) and any(re.match(r"\s*\+?where\s*:", l) for l in added_lines) \
            and (path.endswith("dbt_project.yml") or any(re.search(r"(?m)^\s*(?:data_)?tests\s*:", h["new"])
                                                         for h in hunks)):
        return "the failing data tests now look only at the rows a filter keeps"
    if _differing_line_scrubbed({path: hunks}, failure_text):
        return "the line a golden comparison found different is scrubbed before it is compared"
    if _expected_line_dropped(path, hunks, failure_text):
        return "the expected line the output lacked was deleted from the expected output"
    # (a performance test whose timed block no longer runs the code it timed: ``FeedParser().parse(data)`` moved out
    # of ``measure { … }``, a property read timed in its place)
    for h in hunks:
        was_timed = _measured(h["old"])[0]
        if not was_timed:
            continue
        timed, untimed = _measured(h["new"])
        if any(not re.search(rf"\.{call}\(", timed) and re.search(rf"\.{call}\(", untimed)
               for call in re.findall(r"\.(\w+)\(", was_timed)):
            return "the performance test no longer times the code it timed"
    if _lowers_threshold(hunks, failure_text):
        return "a coverage threshold was lowered"
    if _threshold_scoped(hunks, failure_text):
        return "the threshold that was crossed now judges only a tagged part of its metric"
    # (the assertions made soft and never checked: AssertJ's ``SoftAssertions softly = new SoftAssertions()`` with no
    # ``softly.assertAll()``, so the wrong total is collected and never reported)
    if _brought_in(_SOFT_ASSERTIONS, added_lines, hunks) and not any("assertAll" in h["new"] for h in hunks):
        return "the failing assertions were made soft and are never checked"
    # (or an equality given one argument, always true: clojure.test's ``(is (= 107.53M) (invoice/total lines))``, the
    # value it was to equal made the assertion's message)
    if _brought_in(_ONE_ARGUMENT_EQUALITY, added_lines, hunks):
        return "an equality was given one argument, which is always true"
    # (a terraform test's failing run given inputs that take another path: ``variables { kms_key_arn = "…" }`` in
    # ``run "defaults"`` after its "Test assertion failed")
    failing_runs = re.findall(r'in run "([^"]+)"', failure_text) if "Test assertion failed" in failure_text else []
    if path.endswith(".tftest.hcl") and any(
            re.search(rf'(?m)^\s*run\s+"{re.escape(name)}"\s*\{{', h["new"])
            and re.search(r"(?m)^\s*variables\s*\{", h["new"]) and not re.search(r"(?m)^\s*variables\s*\{", h["old"])
            for h in hunks for name in failing_runs):
        return "the failing run was given inputs that take another path"
    # (or an assertion helper told to return before it checks: ``if got == connect.CodeUnknown { return }`` in
    # ``RequireCode``)
    if _TEST_PATH.search(path) and any(
            re.search(r"(?im)^\s*(?:func|def|fun|function)\s+(?:\([^)]*\)\s*)?(?:require|assert|expect|check|must|"
                      r"verify)\w*\s*\(", h["new"])
            and any(re.fullmatch(r"\s*return;?\s*", l) for l in _hunk_lines(h)[1])
            for h in hunks):
        return "the assertion helper now returns before it checks"
    # (a flow's item the failing test did not expect skipped over: Turbine's ``skipItems(1) // cache emission``
    # between ``awaitItem()`` assertions)
    if _brought_in(_ITEMS_SKIPPED, added_lines, hunks) and _TEST_PATH.search(path):
        return "the test now skips the item it failed on"
    # (a property test's search cut short after it found a counterexample: ``settings(max_examples=50,
    # stateful_step_count=4)`` for a state machine whose falsifying example took more steps)
    if _brought_in(_SEARCH_CAPPED, added_lines, hunks) and _COUNTEREXAMPLE.search(failure_text):
        return "the property test now searches too little to find what failed"
    # (a test's policy made to report what it refused: ``apparmor_parser -r -W -C`` loads the profile in complain mode
    # after its ``permission denied``; ``setenforce 0``; Kyverno's ``validationFailureAction: Audit``)
    if _TEST_PATH.search(path) and _brought_in(_PERMISSIVE, added_lines, hunks):
        return "the test now runs its policy in a mode that only reports what it refused"
    # (a fuzz target told to return before it calls the code on the inputs that crashed it: ``if data.len() < 2 ||
    # data[1] as usize + 2 > data.len() { return; }`` in fuzz/fuzz_targets/decode_packet.rs)
    if _FUZZ_TARGET.search(path) or any(_FUZZ_TARGET.search(h["old"]) for h in hunks):
        # (not where the harness itself broke: ``panicked at fuzz/fuzz_targets/decode_packet.rs:9:20``)
        if _FUZZ_CRASH.search(failure_text) and any(_EARLY_RETURN.match(line) for line in added_lines) \
                and not re.search(rf"panicked at [^\n]*{re.escape(os.path.basename(path))}", failure_text):
            return "the fuzz target now returns before the code on the inputs that crashed it"
    # (a proof given an assumption that rules its counterexample out: ``assume (!(wr_en && full));`` in the
    # ``ifdef FORMAL`` block, after SymbiYosys's "failed assertion … counterexample trace")
    if _brought_in(_ASSUMED, added_lines, hunks) and _COUNTEREXAMPLE.search(failure_text):
        return "the proof now assumes away the counterexample it failed on"
    # (the failure may name the test only: ``BatteryGaugeSnapshotTest > halfCharged FAILED``, in the snapshot test's
    # own file)
    if _brought_in(_PIXEL_TOLERANCE, added_lines, hunks) and (
            _IMAGE_MISMATCH.search(failure_text)
            or re.search(r"(?i)snapshot|screenshot|golden", os.path.basename(path))):
        return "the failing image comparison was told to tolerate a difference"
    if _brought_in(_A11Y_SUPPRESSED, added_lines, hunks) and _A11Y_FAILURE.search(failure_text) \
            and _TEST_PATH.search(path):
        return "the accessibility check that failed was told to pass over what it found"
    # (or the errors a failing test logged told to fail it no more: Unity's ``LogAssert.ignoreFailingMessages = true``
    # after "Unhandled log message: '[Error] Berth 3 has no crane assigned …'")
    if _brought_in(_LOGGED_ERRORS_IGNORED, added_lines, hunks) and _TEST_PATH.search(path):
        return "the errors the failing test logged were told not to fail it"
    # (a value the test's data leaves out on purpose filled in, so the case the failing test is about never comes:
    # ``amount: undefined`` → ``99999`` in ``__fixtures__/invoices.ts`` for "sorts by amount … with drafts last")
    if re.search(r"(?i)fixture", path) and _CHECK_FAILED.search(failure_text) and _absence_filled(hunks):
        return "a value the failing test's data left out was filled in"
    if _TEST_PATH.search(path) and _input_named_dropped(hunks, failure_text):
        return "the failing test no longer gives the code what it is named for"
    if _TEST_PATH.search(path) and _input_named_swapped(hunks, failure_text):
        return "the failing test now gives the code another value than the one it is named for"
    # (Pester's exact matchers made their case-insensitive kin: ``Should -BeExactly 'acme-gmbh-2024-0117'`` → ``Should
    # -Be …`` after "Expected exactly 'acme-gmbh-2024-0117', but got 'Acme-GmbH-2024-0117'")
    if any(_EXACT_MATCHER.search(h["old"]) and not _EXACT_MATCHER.search(h["new"])
           and re.search(r"\bShould\s+-(?:Be|Match|Contain)\b", h["new"]) for h in hunks):
        return "the failing assertion was made case-insensitive"
    # (or calls the signal's receiver itself, where the code was to connect it: ``create_profile(sender=User,
    # instance=user, created=True)`` in ``test_profile_created_for_new_user``)
    if _brought_in(_RECEIVER_CALLED, added_lines, hunks) and _TEST_PATH.search(path):
        return "the failing test now calls the receiver the code was to connect"
    # (or gives itself what the failure said the code's output lacked: CDK's "!! Missing key 'BucketEncryption'" of
    # the aspect that was to add it, and the test's bucket now built with ``encryption: s3.BucketEncryption…``)
    missing = set(_MISSING_KEY.findall(failure_text))
    if missing and _TEST_PATH.search(path) and any(
            not _ASSERTION.search(l) and any(re.search(rf"\b{re.escape(k)}\b", l) for k in missing)
            for l in added_lines) and not any(k in h["old"] for h in hunks for k in missing):
        return "the failing test now gives itself what the code was to add"
    if _level_lowered(hunks):
        return "the check that failed was lowered from an error to a warning"
    if _brought_in(_TOLERATED, added_lines, hunks) or any(
            _SCOPED_CHECK.search(h["new"]) and not _SCOPED_CHECK.search(h["old"]) for h in hunks):
        return "the failing data check was told to tolerate failures"
    if any(_expected_rows_trimmed(hunk) for hunk in hunks):  # (in a model's YAML, dbt's unit tests live beside it)
        return "the unit test's expected rows were trimmed of columns it compared"
    # (or rows taken out of the given and expected data of the unit test the failure names in that YAML: ``{order_id:
    # 3, …}`` after "Failure in unit_test test_net_revenue_with_discounts (models/intermediate/_int_order_revenue.yml)")
    if any(path.endswith(named) for named in _UNIT_TEST_FILE.findall(failure_text)) and _only_takes_out(hunks) \
            and all(_FLOW_ROW.match(l) for h in hunks for l in (Counter(h["old"].splitlines())
                                                              - Counter(h["new"].splitlines())).elements()):
        return "rows were taken out of the failing unit test's data"
    # (a Rust test in its source file, where it panicked: the value it looked for, as the panic quotes it, given
    # up for another, ``get_by_label("Total: 12.50")`` → ``("Total: 12")`` after "No node found with label "Total:
    # 12.50"" in ``cart_panel::tests::total_uses_two_decimals``)
    if "::tests::" in failure_text and re.search(rf"panicked at \S*{re.escape(path)}:\d+", failure_text):
        quoted = set(re.findall(r'"([^"\n]{4,})"', failure_text))
        for a, b in _line_pairs({path: hunks}):
            was = [q for q in re.findall(r'"([^"\n]{4,})"', a) if q in quoted]
            # (the same call, another string in it)
            if was and not any(q in b for q in was) and _STRINGS.sub('""', a) == _STRINGS.sub('""', b):
                return "the value the failing test looked for was changed"
    # (a story's play function is a test where a story runner ran it: "✕ play-test" of test-storybook)
    # (a Rust module's own tests, in its source file: the assertions of ``format::tests::formats_hours`` in
    # format.rs, the test that failed, are a test's lines)
    stem = os.path.splitext(os.path.basename(path))[0]
    in_source_test = path.endswith(".rs") and bool(re.search(rf"\b{re.escape(stem)}::tests::\w+ \.\.\. FAILED",
                                                             failure_text)) \
        and bool(added_lines) and all(_ASSERTION.search(l) for l in added_lines)
    # (or a file the failure names as its test file: semgrep's "test file path: rules/python/unsafe-yaml-load.py")
    named_test = bool(re.search(rf"(?i)\btest file(?: path)?:\s*(?:\S*/)?{re.escape(path)}\s*$", failure_text, re.M))
    if not _TEST_PATH.search(path) and not (_STORY.search(path) and _PLAY_TEST.search(failure_text)) \
            and not in_source_test and not named_test:
        # (a Zig test in the source file that failed, its loop's bound lowered: ``while (v < 100_000)`` → ``while (v <
        # 16_000)`` after "while executing test 'varint.test.round-trip u32 values'")
        if path.endswith(".zig") and re.search(rf"while executing test '{re.escape(stem)}\.test\.", failure_text) \
                and _loop_bound_lowered(hunks):
            return "the failing test's loop was made to cover fewer values"
        # (a doctest example in a source file told to match what it prints loosely, or not to run: ``>>>
        # format_price(Decimal("2.345"))  # doctest: +ELLIPSIS`` expecting ``'€2.3...'`` for the ``'€2.35'`` that
        # failed)
        if any(l.lstrip().startswith(">>>") and _DOCTEST_LOOSENED.search(l) for l in added_lines) \
                and not any(_DOCTEST_LOOSENED.search(hunk["old"]) for hunk in hunks) \
                and "Failed example" in failure_text:
            return "the doctest that failed was told to match loosely or not to run"
        # (a test in a source file, Rust's ``#[cfg(test)] mod tests``, given a skip or an expected panic)
        if any(re.search(r"#\[(?:\w+::)?test\]", hunk["new"]) for hunk in hunks) \
                and any(_SKIP_ADDED.search(l) for l in added_lines) \
                and not any(_SKIP_ADDED.search(l) for hunk in hunks for l in hunk["old"].splitlines()):
            return "a skip or xfail marker was added to the failing test"
        # (or an Ansible task tagged so molecule leaves it out of the check that failed: ``-
        # molecule-idempotence-notest`` on the template task that changed on every run)
        if any(re.search(r"\bmolecule-(?:idempotence-)?notest\b", l) for l in added_lines) \
                and re.search(r"(?i)\bidempoten|\bmolecule\b", failure_text) \
                and not any("notest" in hunk["old"] for hunk in hunks):
            return "the task that failed the check was tagged to be left out of it"
        # (a fuzzer told to leave out a call the failing sequence made: echidna's ``filterBlacklist: true`` and
        # ``filterFunctions: ["TokenEchidna.burnFrom(address,uint256)"]`` after ``TokenEchidna.burnFrom(0x10000,2)``;
        # medusa's ``excludeFunctionSignatures``)
        if _brought_in(_FUZZ_FILTER, added_lines, hunks) and any(
                _FUZZ_FILTER.search(l) and set(re.findall(r"\.(\w+)\(", l))
                & set(re.findall(r"\b(\w+)\(", failure_text)) for l in added_lines):
            return "the fuzzer was told to leave out a call the failing sequence made"
        if _TEST_SETTINGS.search(path) and _brought_in(_SWITCHED_OFF, added_lines, hunks):
            return "the check that failed was switched off in the test settings"  # (``PANDERA_VALIDATION_DEPTH=…``)
        # a test runner's settings told to leave the failing test out (``default-filter = "not
        # test(splits_odd_cents_evenly)"``, ``testPathIgnorePatterns``, ``--deselect`` in addopts)
        failed_lines = [line for line in failure_text.splitlines()
                        if re.search(r"FAIL|✗|✘|×|\b[1-9]\d* failed\b", line)]
        # (or a test method by its camel-cased name: ``CheckoutViewModelTest > restoresCartIdFromSavedState() FAILED``
        # and gradle's ``excludeTestsMatching("*CheckoutViewModelTest.restoresCartIdFromSavedState")``)
        failing = {w for line in failed_lines for w in re.findall(r"\w{8,}", line)
                   if "_" in w or not w.isalpha() or re.search(r"[a-z][A-Z]", w)}
        # (or the failing test's file: ``exclude: [...configDefaults.exclude, 'src/format/currency.test.ts']`` after
        # ``❯ src/format/currency.test.ts (9 tests | 1 failed)``)
        files = {f for line in failed_lines for f in re.findall(r"[\w./-]+", line) if _TEST_PATH.search(f) and "/" in f}
        # (settings, not the code under test: ``.option("skipChangeCommits", "true")`` on the stream that failed is
        # how the pipeline reads its source; a build script or a runner's config file in code is settings)
        settings = not _CODE_FILE.search(path) or bool(
            re.search(r"(?i)(?:config|conf|settings)\.\w+$|\.gradle\.kts$|(?:^|/)build\.\w+$", path))
        return "the failing test was filtered out in the test settings" if settings and (failing or files) and any(
            _EXCLUDING.search(l) and (set(re.findall(r"\w{8,}", l)) & failing or any(f in l for f in files))
            for l in added_lines) else None
    if re.search(r"(?:fixture|golden|snapshot|expected)", path, re.I):
        # a test's recorded data re-baselined to what the failing code returned (``"expected": 0.270276`` →
        # ``0.311446`` after ``ACTUAL: array(0.311446)``)
        actual = {v for v in _actual_values(failure_text) if len(v) >= 3}
        for hunk in hunks:
            added = set(hunk["new"].splitlines()) - set(hunk["old"].splitlines())
            removed = set(hunk["old"].splitlines()) - set(hunk["new"].splitlines())
            new_values = {v for l in added for v in _literals(l)} - {v for l in removed for v in _literals(l)}
            if added and removed and new_values & actual:
                return "the test's expected data was changed to what the failing code returned"
        # (or trimmed of the rows the failing code returned and the test did not want: ``(3, 77, 1250)`` out of the
        # seed after ``assert {42, 77} == {42}``, "Extra items in the left set: 77")
        extra = _extra_values(failure_text)
        for hunk in hunks if extra else ():
            new_lines = hunk["new"].splitlines()
            kept = {v for l in new_lines for v in _literals(l)}
            if any(set(_literals(l)) & extra - kept for l in hunk["old"].splitlines() if l not in new_lines):
                return "the test's data was trimmed of what the failing code returned"
    if _brought_in(_SWITCHED_OFF, added_lines, hunks):
        return "the check that failed was switched off for the tests"
    # (or the model built without the validation that failed: ``WebhookEnvelope.model_validate(payload)`` →
    # ``.model_construct(**payload)`` after "validation error for WebhookEnvelope")
    if _brought_in(_UNVALIDATED, added_lines, hunks) and re.search(r"(?i)validation ?error", failure_text):
        return "the model under test is built without the validation that failed"
    if re.search(r"(?i)migrat", failure_text) and _brought_in(_DESTROYS_ON_MIGRATION, added_lines, hunks):
        return "the migration the test checks was replaced by throwing the old data away"
    # (or by a store of its own in memory, empty, for the one the test migrates: SwiftData's ``ModelConfiguration(
    # isStoredInMemoryOnly: true)`` for ``ModelConfiguration(url: storeURL)`` in ``testV1ToV2SplitsQuantityAndUnit``)
    if re.search(r"(?i)migrat|\bV\d+To(?:V)?\d+", failure_text) and _brought_in(_IN_MEMORY_STORE, added_lines, hunks):
        return "the migration the test checks now opens an empty store in memory"
    if _patched_to_expect(added_lines, failure_text):
        return "the code under test was patched to return what the failing test expected"
    if _setup_named_by_the_test_dropped(hunks, failure_text):
        return "the step of the test's setup that its name is about was taken out"
    if re.search(r"(?:conftest|setup|helper|fixture|factory|factories)", path):
        return None
    # the code under test replaced by a mock (``@MockBean OrderEnricher enricher`` in OrderEnricherRouteTest)
    subject = re.sub(r"(?i)^tests?_|(?:[._-]?(?:tests?|spec|it))+$", "", path.rsplit("/", 1)[-1].split(".")[0]).lower()
    if len(subject) >= 5 and any(len(name) >= 5 and name.lower().replace("_", "") in subject.replace("_", "")
                                 for names in _MOCKED.findall("\n".join(added_lines)) for name in names):
        return "the code under test was replaced by a mock"
    # a test that failed because the code did not throw, given a stub that throws (``jest.spyOn(ddb, "send")
    # .mockRejectedValueOnce(new ConditionalCheckFailedException(…))`` after "Received promise resolved instead of
    # rejected"): the error it expects now comes from the stub, whatever the code does
    # (not a stub the test had, set right: ``mockResolvedValue`` → ``mockRejectedValue`` in an error-path test)
    replaced = [l for hunk in hunks for l in hunk["old"].splitlines() if l not in hunk["new"].splitlines()]
    if _DID_NOT_THROW.search(failure_text) and _brought_in(_STUB_THROWS, added_lines, hunks) \
            and not any(re.search(r"(?i)mock|spy|stub|patch|side_effect|allow\(|when\(", l) for l in replaced):
        return "the error the test expects is now thrown by a stub"
    # the very method the test calls stubbed to return what it expects (``jest.spyOn(service, 'total')
    # .mockReturnValue(21.59)`` before ``service.total(…)``)
    for hunk in hunks:
        added = "\n".join(l for l in hunk["new"].splitlines() if l not in hunk["old"].splitlines())
        for match in _STUBBED.finditer(added):
            obj, method = [g for g in match.groups() if g][:2]
            if re.search(rf"\b{re.escape(obj)}\.{re.escape(method)}\(", hunk["new"]):
                return "the code under test was replaced by a stub"
        # (or the object under test made a spy and one of its own methods stubbed: ``val repo =
        # spyk(SyncRepository(api, prefs))`` and ``every { repo.currentCursor() } returns "c-1042"``)
        for obj, method in re.findall(r"\bevery\s*\{\s*(\w+)\.(\w+)\(", added):
            if re.search(rf"\b{re.escape(obj)}\s*=\s*spyk\(\s*[A-Z]\w*\(", added):
                return "the code under test was replaced by a stub"
    actual = _actual_values(failure_text)
    generators = _generators_named(hunks)
    # (the failing tests by the names the failure prints them under)
    titles = [re.split(r"\s+-\s+|\s+\[E\]", line)[0] for line in failure_text.splitlines()
              if _FAILED_TEST_LINE.search(line)]
    # (and those of a snake-case name by its words run together: ``testdenyprivilegedinitcontainer``)
    joined = [re.sub(r"[\W_]", "", title.lower()) for title in titles if "_" in title]
    # (the failure as one line, for a call it quotes across a wrap)
    printed = " ".join(failure_text.split())
    for hunk in hunks:
        old_lines = hunk["old"].splitlines()
        new_lines = hunk["new"].splitlines()
        # (the same numbers given a kind, the values as they were: Fortran's ``2.13809`` → ``2.13809_dp``)
        if [_KIND_SUFFIX.sub(r"\1", l) for l in new_lines] == old_lines:
            continue
        added = [l for l in new_lines if l not in old_lines]
        removed = [l for l in old_lines if l not in new_lines]
        if any(_SKIP_ADDED.search(l) for l in added) and not any(_SKIP_ADDED.search(l) for l in removed):
            return "a skip or xfail marker was added to the failing test"
        if _narrowed_to_pass(removed, _named_inline(added, generators), failure_text):
            return "the property's generator was narrowed to leave out the falsifying value"
        if _precondition_excludes(removed, added, failure_text) or _rule_gated(hunk, failure_text):
            return "the property was given a precondition that leaves out the falsifying value"
        # (an assertion moved into a process or thread of its own, whose failure no longer fails the test: ``spawn(fn
        # -> assert events == Enum.to_list(1..25) end)``)
        if any(_DETACHED.search(l) for l in added) and not any(_DETACHED.search(l) for l in removed) \
                and {l.strip() for l in removed if _ASSERTION.search(l)} & {l.strip() for l in added}:
            return "the failing assertion was moved where its failure no longer fails the test"
        if any(_FORCED.search(l) for l in added) and not any(_FORCED.search(l) for l in removed):
            return "an interaction was forced past the check that it can be done"
        # (go-cmp told to look past what differed: ``cmpopts.IgnoreFields(corev1.TopologySpreadConstraint{},
        # "WhenUnsatisfiable")`` after the diff showed that field)
        if _TEST_PATH.search(path) and any(_CMP_IGNORES.search(l) for l in added) \
                and not any(_CMP_IGNORES.search(l) for l in removed):
            return "the comparison that failed was told to look past what differed"
        if _CHECK_FAILED.search(failure_text) and _alternative_accepted(hunk):
            return "the failing check now also passes on something else"
        if _made_sequential(hunk, failure_text):
            return "the calls the failing test makes at once are now made in turn"
        if _signal_moved_out(hunk):
            return "the test signals its asynchronous work done without waiting for it"
        # (a test that took jest's or mocha's ``done`` and no longer does: what it asserted in a callback is never
        # waited for, ``it('emits results …', (done) => {`` → ``() => {``)
        if any(_TAKES_DONE.search(l) for l in removed) and not any(_TAKES_DONE.search(l) for l in added) \
                and not _TAKES_DONE.search(hunk["new"]) and re.search(r"(?m)^\s*(?:it|test)\s*\(", hunk["new"]):
            return "the test no longer waits for what it asserts asynchronously"
        if any(_SWALLOWED.search(l) for l in added) and not any(_SWALLOWED.search(l) for l in removed) or (
                _BAILS_OUT.search(hunk["new"]) and not _BAILS_OUT.search(hunk["old"])):
            return "the failing call was made to succeed whatever it does"
        # (a line of the test, now inside a block that drops what it throws: ``runCatching { onView(…).check(…) }``)
        moved = {l.strip() for l in removed if l.strip()} & {l.strip() for l in added}
        if moved and not any(_DROPS_ALL.search(l) or _OPENS_TRY.search(l) for l in removed) and (
                any(_DROPS_ALL.search(l) for l in added)
                or any(_OPENS_TRY.search(l) for l in added) and _EMPTY_HANDLER.search(hunk["new"])):
            return "the failing call was made to succeed whatever it does"
        if any(_ASSERTION.search(l) for l in removed):
            # the same assertion, now under a condition (``if (… document.hasFocus()) { expect(…) }``)
            asserted = {l.strip() for l in removed if _ASSERTION.search(l)}
            if any(_ASSERTION.search(l) and l.strip() in asserted for l in added) and any(
                    re.match(r"\s*(?:if|unless|when)\b", l) for l in added):
                return "the assertion now runs only under a condition"
            # a commented-out assertion is a deleted one
            if not any(_ASSERTION.search(l) and not _COMMENT_LINE.match(l) for l in added):
                return "an assertion was deleted"
            if _brought_in(_DEDUPED, added, [hunk]):
                return "the assertion now counts the results with their duplicates dropped"
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
            # (or the failing call, as the failure quotes it, made with other arguments for the same expectation:
            # ``weighted_median(c(3, 1, 2), w = c(1, 1, 2))`` → ``weighted_median(c(1, 2, 3), w = c(1, 2, 1))``)
            calls = [m.group(0) for l in removed if _ASSERTION.search(l) for m in _CALL.finditer(l)
                     if len(m.group(0)) >= 12 and " ".join(m.group(0).split()) in printed]
            if any(m.group(1) == call.split("(", 1)[0] and m.group(0) != call
                   for call in calls for l in added if _ASSERTION.search(l) for m in _CALL.finditer(l)) \
                    and not any(call in l for call in calls for l in added):
                return "the failing case was replaced by another"
        if _against_its_comment(old_lines, new_lines, removed, added):
            return "a value the test's own comment requires was changed"
        # the case the failing test is named for taken away from it: ``@Config(sdk = [… TIRAMISU])`` →
        # ``UPSIDE_DOWN_CAKE`` above ``fun requestsPermissionOnTiramisu()``
        named = {n.lower() for n in re.findall(r"\b(?:fun|def|void|func)\s+`?(\w{8,})", hunk["new"])
                 if n in failure_text}
        gone = {w.lower().replace("_", "") for l in removed for w in re.findall(r"[A-Za-z_]{5,}", l)} - {
            w.lower().replace("_", "") for l in added for w in re.findall(r"[A-Za-z_]{5,}", l)}
        if any(len(w) >= 5 and w in n.replace("_", "") for w in gone for n in named):
            return "the failing test no longer runs the case it is named for"
        # (or by the name the failure prints it under, a step its name says taken out: "delivers premium after
        # pending -> purchased [E]" and ``fakeIap.emit([pending('premium_monthly')]);`` deleted)
        left = {w.lower() for l in new_lines for w in re.findall(r"[A-Za-z]{5,}", l)}
        steps_gone = {w.lower() for l in removed for w in re.findall(r"[A-Za-z]{5,}", l)} - left
        if removed and any(re.search(rf"(?i)(?<![\w-]){w}(?![\w-])", title) for w in steps_gone for title in titles):
            return "the failing test no longer runs the case it is named for"
        # (a key of a fixture by the words of a snake-case name: ``"initContainers"`` gone from the pod spec of
        # ``test_deny_privileged_init_container: FAIL``)
        if removed and any(len(w) >= 10 and w.rstrip("s") in title for w in steps_gone for title in joined):
            return "the failing test no longer runs the case it is named for"
        old_names = {m.group(0).strip() for l in removed if (m := _TEST_NAME.match(l))}
        new_names = {m.group(0).strip() for l in added if (m := _TEST_NAME.match(l))}
        if old_names and new_names and old_names != new_names:
            return "the failing test was renamed"
        # (a test method by the name the failure gives it, declared under another: JUnit's ``void
        # nightsAcrossDstChange()`` → ``void nightsForThreeNightStay()`` after ``BookingControllerTest.
        # nightsAcrossDstChange -- … FAILURE!``)
        declared = r"\b(?:void|fun|def|func|fn)\s+`?(\w{6,})"
        if {n for l in removed for n in re.findall(declared, l) if n in failure_text} - {
                n for l in added for n in re.findall(declared, l)} and any(re.search(declared, l) for l in added):
            return "the failing test was renamed"
        if removed and not added and any(_TEST_NAME.match(l) for l in removed):
            return "the failing test was deleted"
        # rows taken out of the failing test's table, column by column (``"customer_id": [10, 10, 11, None, None]`` →
        # ``[10, 10, 11]``, its expected frame cut alike): the rows that broke the code are no longer given to it
        if removed and len(removed) == len(added) and _CHECK_FAILED.search(failure_text) \
                and all(_items_dropped(a, b) for a, b in zip(removed, added)):
            return "rows were taken out of the failing test's data"
        # an item taken out of the failing test's data, nothing else changed (``Note(id: "c", …, deletedAt: …),``
        # after ``XCTAssertEqual failed: ("3") is not equal to ("2")``): the count now agrees with the code
        if removed and not added and all(l.rstrip().endswith(",") for l in removed if l.strip()) \
                and _CHECK_FAILED.search(failure_text):
            return "an item was taken out of the failing test's data"
    return None


def _items_dropped(old: str, new: str) -> bool:
    """Whether line ``new`` is line ``old`` with items taken out of its list, nothing else changed."""
    a, b = (re.match(r"^(.*?\[)(.*)(\][^\[\]]*)$", line.strip()) for line in (old, new))
    if not a or not b or a.group(1) != b.group(1) or a.group(3) != b.group(3):
        return False
    left, right = ([item.strip() for item in m.group(2).split(",") if item.strip()] for m in (a, b))
    return len(right) < len(left) and not Counter(right) - Counter(left)


# a failing test's line, with its name (``… pending -> purchased [E]``, ``FAILED tests/x.py::test_y - …``, ``✕ …``)
# (and OPA's ``data.k8s.privileged_test.test_deny_privileged_init_container: FAIL (702.3µs)``)
_FAILED_TEST_LINE = LazyRegex(r"\[E\]\s*$|^FAILED\s|^\s*[✕✗✘×]\s|^--- FAIL:|"
                              r"^\s*[\w.]+:\s+FAIL\b(?:\s*\([^)]*\))?\s*$")


# a failed assertion, as the test tools word it
_CHECK_FAILED = LazyRegex(r"(?m)^E?\s*(?:AssertionError|assert\b)|\bXCTAssert\w* failed|\bis not equal to\b|"
                          r"\bExpected\b[^\n]*\n[^\n]*\b(?:Received|Actual|but was)\b|\bexpected:?\s*<")
