"""Edits of a session: the net change per file, its diff as a card shows it, and which edits address a failure.

An edit is linked to a failing check only when it plausibly addresses it: a documentation edit or a comment is not
a fix; a file the error names, a manifest for a missing package, or a few unnamed source files are.
"""
from __future__ import annotations

import difflib
import os
import re
from collections import Counter

from .account import _STOP, _code_spans, _plain_words, _sentences, _tokens
from .commands import _TEST_PATH, command_job
from .events import EDIT_TOOLS
from .quality import LazyRegex
from .record import imports, scaffolding
from .text import common_ends, one_line

# files whose edit is never the fix for a failing check (unless the error names them)
# (a document by its file's name, with a document's extension or none: ``lib/changelog.sh`` is code that reads one,
# ``db/changelog/changes/0042-….yaml`` a migration)
_DOC_PATH = LazyRegex(r"(?i)(?:^|/)(?:docs?/|(?:README|CONTRIBUTING|CHANGELOG|CHANGES|HISTORY|LICENSE|AUTHORS|NOTICE)"
                      r"(?![\w.-]*\.(?:sh|bash|py|js|mjs|ts|rb|go|rs|pl|php|lua)$)(?:[._-][\w.-]*)?$)"
                       r"|\.(?:md|rst|adoc)$"
                       # (and git's own files: no build or test reads ``.gitignore``; but ``.gitattributes`` sets how
                       # files are checked out, ``tests/fixtures/** text eol=lf``)
                       r"|(?:^|/)(?:\.gitignore|\.mailmap|CODEOWNERS|\.git-blame-ignore-revs)$")
# a comment line (not a Rust attribute, a shebang or a C preprocessor line)
# (a directive a tool reads is no comment: ``//go:generate … --feature sql/upsert ./schema``, ``// +build``)
# (not a comment a tool reads: ``//go:build``, ``// @ts-expect-error``, ``# type: ignore``, ``-- migrate:up
# transaction:false``, ``-- +goose Up``, ``-- name: GetUser :one``, ``/* eslint-disable */``)
# (not a code generator's marker: ``// +kubebuilder:subresource:status``, ``// +genclient``, ``// +build``)
# (not a directive written as one: TypeScript's ``/// <reference types="vite/client" />``, go's ``//go:embed``)
# (not an ``.npmrc`` line for a registry's host: ``//npm.pkg.github.com/:_authToken=${NPM_TOKEN}``)
_COMMENT_LINE = LazyRegex(r"^\s*(?://(?!go:|/\s*<(?:reference|amd-module)\b|\s*\+[a-z][\w.-]*(?=[:=\s]|$)|\s*@ts-|"
                          r"[\w-]+(?:\.[\w-]+)+(?::\d+)?/(?:[\w./-]*/)?:|"
                          r"\s*eslint-|"
                          r"\s*@(?:vitest|jest)-environment|\s*(?:prettier|biome)-ignore|\s*nolint|\s*swiftlint:)|"
                          r"/\*(?!\s*(?:eslint|webpackChunkName|@jsx|istanbul|c8\b))|\*(?:\s|/|$)|"
                          # (Kconfig's ``# CONFIG_EFI_LOADER is not set`` is a setting, not a comment; a tuple or
                          # vector of Gleam's, Clojure's or Racket's, ``#("é", "e")``, is code)
                          r"#(?![\[!(]|include|define|if|pragma|undef|else|endif|\s*CONFIG_\w+ is not set\b|"
                          r"\s*(?:type:|noqa|pylint:|mypy:|fmt:|"
                          r"frozen_string_literal|shellcheck|rubocop:|-\*-))|"
                          # (sqlx's ``-- no-transaction`` runs the migration outside a transaction: a directive)
                          r"--\s(?!\s*(?:migrate:|\+goose|\+migrate|name:\s|no-transaction\b))|<!--|"
                          # (Erlang's, Prolog's, MATLAB's and TeX's: ``%% Top-level supervisor: …``, ``% Note: …``)
                          r"%%|%\s+[A-Za-z])")
# a comment a tool may read: a word and a colon, a word alone, a docblock's tag (``# typed: strict``, ``// @flow``,
# `` * @jest-environment node``, ``#!/bin/sh``)
# (not a note to a person: ``// TODO: persist window size and position between launches``)
_DIRECTIVE_SHAPE = LazyRegex(r"^\s*(?:#|//|--|/\*+|\*)\s*(?!(?:TODO|FIXME|XXX|HACK|NOTE|BUG)\b)"
                             r"(?:[@!]|[\w./-]+(?::|\s*(?:\*/)?\s*$))")
_CONFIG_PATH = LazyRegex(r"(?i)(?:^|/)(?:package\.json|pyproject\.toml|requirements[\w.-]*\.txt|constraints\.txt|"
                          r"setup\.(?:py|cfg)|Cargo\.toml|go\.mod|Gemfile|mix\.exs|tsconfig[\w.]*\.json|"
                          r"Makefile|Dockerfile|docker-compose[\w.-]*\.ya?ml|compose\.ya?ml|\.env[\w.]*|"
                          r"[\w.-]+\.(?:cfg|ini|toml|ya?ml|conf))$")


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


def _overlap(before: str, after: str) -> str:
    """The longest run of whole lines that ends ``before`` and starts ``after``, each holding more than it: an edit
    whose old text begins with the last line an earlier edit wrote (``packageVersion = "1.9.0"``) and goes on to the
    line below it."""
    lines = before.split("\n")
    for n in range(1, len(lines)):
        part = "\n".join(lines[n:])
        if part.strip() and after.startswith(part + "\n"):
            return part
    return ""


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
                if not old and edit["tool"] == "Write" and hunks and not any(h["old"] for h in hunks):
                    # (a file the session created, written whole again: the second version replaces the first,
                    # ``moved.tf`` mapping to ``module.logging.aws_s3_bucket.this`` for the ``….logs`` tried first)
                    hunks[:] = [{"old": "", "new": new, "ids": [i for h in hunks for i in h["ids"]] + [edit["id"]]}]
                    continue
                for hunk in hunks:
                    if old and old == hunk["new"]:
                        hunk["new"] = new
                        hunk["ids"].append(edit["id"])
                        break
                    if old and old in hunk["new"]:
                        hunk["new"] = hunk["new"].replace(old, new, 1)
                        hunk["ids"].append(edit["id"])
                        break
                    if hunk["new"].strip() and hunk["new"] in old:  # (an edit over that change and the lines by it)
                        hunk["old"], hunk["new"] = old.replace(hunk["new"], hunk["old"], 1), new
                        hunk["ids"].append(edit["id"])
                        break
                    overlap = _overlap(hunk["new"], old)
                    if overlap:  # (an edit over that change's last lines and the lines after it)
                        hunk["old"], hunk["new"] = hunk["old"] + old[len(overlap):], \
                            hunk["new"][:len(hunk["new"]) - len(overlap)] + new
                        hunk["ids"].append(edit["id"])
                        break
                    overlap = _overlap(old, hunk["new"])
                    if overlap:  # (or over the lines before it and its first lines)
                        hunk["old"], hunk["new"] = old[:len(old) - len(overlap)] + hunk["old"], \
                            new + hunk["new"][len(overlap):]
                        hunk["ids"].append(edit["id"])
                        break
                else:
                    hunks.append({"old": old, "new": new, "ids": [edit["id"]]})
    return {path: [h for h in hunks if h["old"] != h["new"]] for path, hunks in files.items()}


def _kept_head_elided(line: str, removed) -> str:
    """A line too long to show whole, that a removed line began the same way, its kept head elided after its first
    word (``attribute_condition = … (assertion.ref == 'refs/heads/main' || assertion.ref.startsWith('refs/tags/v'))"``
    for the condition that ended ``&& assertion.ref == 'refs/heads/main'"``): what changed, not what stayed."""
    text = line.strip()
    first = re.match(r"\S+(?:\s*[:=])?", text)
    for old in removed if len(text) > 120 and first else ():
        cut = os.path.commonprefix([old.strip(), text]).rfind(" ")
        if cut - first.end() >= 20:
            return f"{first.group(0)} … {text[cut + 1:]}"
    return line


def _diff_text(path: str, hunk: dict, limit: int = 720) -> str:
    """A hunk as its changed lines (a card shows the added ones it has room for, `lorebook show` all of them)."""
    old = [l for l in hunk["old"].splitlines() if l.strip()]
    new = [l for l in hunk["new"].splitlines() if l.strip()]
    # (the same line changed in several places, two profiles given one image, is shown once, with its count)
    removed = Counter(l for l in old if l not in new)
    # (code first: a line inside a block comment, ``Selector labels (never change these …)`` between ``{{/*`` and
    # ``*/}}``, says less of what changed than the code beside it)
    commented = _in_block_comment(hunk["new"])
    # (a block added beside one like it, another adapter rule with the same ``resources:`` and ``name:`` lines: the
    # copies are added lines too, not the old ones moved)
    # (each copy once, where it was added: a ``plugins: [...]`` beside one like it is one line added, not two)
    left, copies, added_lines = Counter(old), [], []
    for l in new:
        if left[l] > 0:
            left[l] -= 1
        else:
            added_lines.append(l)
            if l in old:
                copies.append(l)
    # (and a comment line of its own after the code it speaks of: ``# Gson TypeToken (R8 full mode …)`` above the
    # ``-keep … class * extends com.google.gson.reflect.TypeToken`` a short card has room for)
    added = Counter(sorted(added_lines, key=lambda l: l in commented or bool(_COMMENT_LINE.match(l))))
    lines = [f"-{one_line(l, 120)}{f' (×{n})' if n > 1 else ''}" for l, n in list(removed.items())[:4]] + \
        [f"+{one_line(_kept_head_elided(l, removed), 120)}{f' (×{n})' if n > 1 else ''}"
         for l, n in list(added.items())[:10]]
    # the same line in another place (a migration registered before the one it needs, a label moved out of the
    # selector's block into the labels'): what moved, and where to
    lines += [f"+{one_line(line, 120)} ({_moved_to(old, new, line, after)})" for line, after in _moved(old, new)
              if line in old and line not in copies][:4]
    while len("\n".join(lines)) > limit and len(lines) > 1:  # whole lines, never one cut in the middle
        lines.pop()
    # (which item of a list lines were inserted into: the ``- name: log-shipper`` of a pod's containers)
    first = " ".join(next(iter(added)).split()) if not removed and added else None
    item = first and (_list_item_of(hunk["new"], first) or _plist_key_of(hunk["new"], first)
                      or _field_of(hunk["new"], first))
    if item:
        lines.insert(0, f"(under `{item}`)")
    text = "\n".join(lines)
    return f"{path}:\n{text[:limit]}" if text else f"{path}: rewritten"


_VERSION = LazyRegex(r"\d+(?:\.\d+)+")
# a line that sets a key to a value (``monitor_speed = 115200``, ``timeout: 30``)
_SETTING = LazyRegex(r"\s*([A-Za-z_][\w.-]*)\s*[:=]\s*(\S.*)")


def without_told_aside(hunk: dict, asides: list[str]) -> dict:
    """``hunk`` less a line an aside tells of by its new version and a word of it ("While in that block I also bumped
    anyhow to 1.0.89" of ``anyhow = "1.0.89"``, beside the ``features = ["v4_10"]`` that fixed the build), or by its
    key and value ("While in there I set `monitor_speed` to 115200" of ``monitor_speed = 115200``, beside the
    ``lib_deps`` entry that fixed it), and the line it replaced."""
    told = [(set(_VERSION.findall(s)), {w for w in _plain_words(s) if len(w) >= 4}) for s in asides]
    told = [(versions, words) for versions, words in told if versions and words]
    keys = [(span, s) for s in asides for span in _code_spans(s) if re.fullmatch(r"[A-Za-z_][\w.-]{3,}", span)]
    if not told and not keys:
        return hunk

    def of_aside(line: str) -> bool:
        setting = _SETTING.match(line)
        return (any(versions & set(_VERSION.findall(line)) and words & _plain_words(line) for versions, words in told)
                or bool(setting) and any(key == setting[1] and any(re.search(rf"(?<![\w.]){re.escape(v)}(?![\w.])", s)
                                                                    for v in re.findall(r"[\w.]{2,}", setting[2]))
                                         for key, s in keys))

    old, new = hunk["old"].splitlines(), hunk["new"].splitlines()
    out = [l for l in new if l not in old and of_aside(l)]
    if not out or len(out) == len([l for l in new if l not in old]):
        return hunk  # (nothing told of, or all of it: the aside is then the edit's whole, for _relevant_edits)
    masked = {_VERSION.sub("#", l) for l in out}
    keys_out = {m[1] for l in out if (m := _SETTING.match(l))}
    return dict(hunk, old="\n".join(l for l in old if l in new or _VERSION.sub("#", l) not in masked
                                     and not ((m := _SETTING.match(l)) and m[1] in keys_out)),
                new="\n".join(l for l in new if l not in out))


_LITERALS = frozenset(("true", "false", "none", "null", "nil", "yes", "off"))


def shown_hunks(hunks: list[dict], n: int = 2) -> list[dict]:
    """The ``n`` hunks of a file a note shows, in their order: those that only add imports after the others (the
    ``runtime.Caller(0)`` of a new function, not the ``"runtime"`` it imports); the same lines changed in two places
    once (``environment { config = ApplicationConfig("application-test.yaml") }`` added to two tests), and so the
    same words respelled in two places (``plot_width=600, plot_height=300`` and ``plot_width=380, plot_height=300``,
    both made ``width=…, height=…``)."""
    def change(hunk: dict) -> tuple:
        old, new = ([l.strip() for l in hunk[side].splitlines()] for side in ("old", "new"))
        old, new = tuple(l for l in old if l not in new), tuple(l for l in new if l not in old)
        respelled = _changed_words("\n".join(old), "\n".join(new))
        # (names respelled, not values set: ``retries=3`` and ``workers=3`` both made 5 are two changes)
        renamed = respelled and all(re.fullmatch(r"[A-Za-z_]\w{2,}", w) and w.lower() not in _LITERALS
                                    for pair in respelled for w in pair)
        return (frozenset(respelled),) if renamed else (old, new)

    distinct, seen = [], set()
    for i, hunk in enumerate(hunks):
        if change(hunk) not in seen:
            seen.add(change(hunk))
            distinct.append(i)
    order = sorted(distinct, key=lambda i: _imports_only(hunks[i]))[:n]
    return [hunks[i] for i in sorted(order)]


def _imports_only(hunk: dict) -> bool:
    """Whether a hunk only adds imports (``import os``, or a path in Go's ``import (`` block)."""
    old = {l.strip() for l in hunk["old"].splitlines()}
    added = [l for l in hunk["new"].splitlines() if l.strip() and l.strip() not in old]
    block = re.match(r"\s*import\s*\(", hunk["new"])
    return bool(added) and all(imports(l) or block and re.fullmatch(r'\s*(?:[\w.]+\s+)?"[^"\s]+"\s*', l)
                               for l in added)


# (a docstring on one line is matched whole first, so that its closing quotes open nothing)
_BLOCK_COMMENT = LazyRegex(r'(?s)/\*.*?\*/|<!--.*?-->|"""[^\n]*?"""|\'\'\'[^\n]*?\'\'\'|""".*?"""|\'\'\'.*?\'\'\''
                           r'|^=begin\b.*?^=end\b', re.M)


def _in_block_comment(text: str) -> set[str]:
    """The lines of ``text`` that hold only a block comment or a docstring, or a part of one."""
    text = text or ""
    out = set()
    for match in _BLOCK_COMMENT.finditer(text):
        start, end = text.rfind("\n", 0, match.start()) + 1, text.find("\n", match.end())
        before, after = text[start:match.start()], text[match.end():end if end >= 0 else len(text)]
        if not before.strip(" \t{-") and not after.strip(" \t}-"):  # (``{{/*`` … ``*/}}``, not ``x = 1  /* … */``)
            out.update(line for line in text[start:end if end >= 0 else len(text)].splitlines() if line.strip())
    return out


def _moved(old: list[str], new: list[str]) -> list[tuple[str, str | None]]:
    """The lines a reordering moved, each with the line it now comes before (``[A, B]`` → ``[B, A]``: B before A), or
    None where it comes last (``[A, B, C]`` → ``[B, C, A]``: A after C)."""
    matcher = difflib.SequenceMatcher(a=old, b=new, autojunk=False)
    return [(new[j], new[j + 1] if j + 1 < len(new) else None) for tag, _, _, j1, j2 in matcher.get_opcodes()
            if tag in ("insert", "replace") for j in range(j1, j2) if j + 1 < len(new) or j > 0]


def _token_span(text: str) -> str:
    """A changed span as a reader quotes it: no trailing separators, no bracket closed that it did not open."""
    text = text.strip(" ,;")
    for quote in "\"'`":  # (a quote closed that it did not open: ``3}"`` of ``"{'replication_factor': 3}"``)
        if text.endswith(quote) and text.count(quote) % 2:
            text = text[:-1].rstrip(" ,;")
        # (nor one opened that it does not close: ``"-Xmx1g`` of ``value: "-Xmx1g -XX:+UseG1GC"``)
        if text.startswith(quote) and text.count(quote) % 2:
            text = text[1:].lstrip(" ,;")
    for opening, closing in ("()", "[]", "{}"):
        while text.endswith(closing) and text.count(closing) > text.count(opening):
            text = text[:-1].rstrip(" ,;")
        # (nor one opened that it does not close: ``[logging,`` of ``exporters: [logging, otlphttp/loki]``)
        while text.startswith(opening) and text.count(opening) > text.count(closing):
            text = text[1:].lstrip(" ,;")
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
    # (a bare value is said with its key: ``'replication_factor': 3`` → ``'replication_factor': 1``, not ``3}"`` →
    # ``1}"``)
    if p and not re.search(r"[A-Za-z]", a[p:len(a) - q] + b[p:len(b) - q]) and a[:p].rstrip().endswith((":", "=")):
        p = len(a[:p].rstrip())
        while p > 0 and not a[p - 1].isspace():
            p -= 1
    return _token_span(a[p:len(a) - q]), _token_span(b[p:len(b) - q])


def _inserted(a: str, b: str) -> str | None:
    """The words line ``b`` inserted into line ``a`` between two of its tokens, when that is all it changed."""
    p, q = common_ends(a, b)
    if p + q != len(a) or len(b) <= len(a):
        return None
    while p > 0 and not a[p - 1].isspace() and b[p - 1] == b[len(b) - q - 1]:  # (back to where a token starts)
        p, q = p - 1, q + 1
    raw = b[p:len(b) - q]
    return raw.strip() if (p == 0 or b[p - 1].isspace() or raw[:1].isspace()) and len(raw.strip()) >= 3 else None


def _short_diff(hunk: dict, aside: tuple[str, ...] = (), told: tuple[str, ...] = (), places: tuple[str, ...] = ()) \
        -> str:
    """One line for a title: what was inserted, or ``a`` → ``b`` for a small replacement, else the new line; never a
    line holding code the account calls by the by (``aside``) when another line was added, and of added lines the
    one holding code the account quotes (``told``) first; where the account quotes the keys an added line went under
    (``places``: `spec.template.metadata.labels`), those too."""
    # (a line only realigned, ``url      = env(…)`` → ``url       = env(…)``, is no change)
    # (a shell line continued over several is one line: ``kubeconform … 1.29.0 \`` then ``-schema-location …``)
    old, new = ([" ".join(l.split()) for l in re.sub(r"\\[ \t]*\n", " ", hunk[side]).splitlines() if l.strip()]
                for side in ("old", "new"))
    # (a comment reworded beside a change in the code is not the change: ``Selector labels`` → ``Selector labels
    # (never change these …)`` beside the label moved out of them)
    commented = {" ".join(l.split()) for side in ("old", "new") for l in _in_block_comment(hunk[side])}
    code_old, code_new = [l for l in old if l not in commented], [l for l in new if l not in commented]
    if code_old != code_new:
        old, new = code_old, code_new
    # a line that only gained a separator to make room for the next one (``"supportsTablet": true,``) is no change
    # (or a shell line continued: ``kubeconform -strict … 1.29.0 \``)
    punct = {l.rstrip(",;\\ ") for l in old}
    removed = [l for l in old if l not in new and not any(n.rstrip(",;\\ ") == l.rstrip(",;\\ ") for n in new)]
    # (nor one that was part of a removed line, now on its own: ``imports: [A.forFeature([Order])],`` →
    # ``A.forFeature([Order]),``; but a line cut short, when nothing else was added, is a value changed:
    # ``autoscaling/v2beta2`` → ``autoscaling/v2``, where ``listen 443 ssl http2;`` → ``listen 443 ssl;`` beside
    # ``http2 on;`` made room for it)
    def added_beside(prefix_is_part: bool) -> list[str]:
        return [l for l in new if l not in old and l.rstrip(",;\\ ") not in punct
                and not (len(l) >= 12 and any(l.rstrip(",;") in r and len(r) - len(l.rstrip(",;")) > 3
                                              and (prefix_is_part or not r.startswith(l.rstrip(",;")))
                                              for r in removed))]

    added = added_beside(True) or added_beside(False)
    fixing = [l for l in added if not any(span in l for span in aside)]
    if fixing and len(fixing) < len(added):  # ("… and included `.next/**` in the outputs while I was there")
        return f"add `{one_line(next((l for l in fixing if not scaffolding(l)), fixing[0]), 70)}`"
    if len(removed) == 1 and len(added) == 1:
        a, b = removed[0], added[0]
        # (the code, not the comment said beside it: ``version: [">=0.9.0", "<0.10.0"]  # 0.10+ needs dbt>=1.7``)
        code_a, code_b = (_TRAILING_COMMENT.sub("", line).rstrip() for line in (a, b))
        if code_a != code_b:
            a, b = code_a, code_b
        item = _list_item_of(hunk["old"], removed[0])
        if item:  # (a value of one entry in a list of them: "… for `calogica/dbt_expectations`")
            short = _short_diff(dict(hunk, old=a, new=b))
            return short + (f" for `{item}`" if item not in short else "")
        if len(a) + len(b) <= 60:
            return f"`{a}` → `{b}`"
        # text inserted into the line and nothing else changed (``listen({ port })`` → ``listen({ port, host:
        # '0.0.0.0' })``): what was inserted
        p, q = common_ends(a, b)
        n = len(b) - q - p
        # (slid back to where a token starts: ``integers(max_value=…`` → ``integers(min_value=1, max_value=…`` is
        # ``min_value=1, `` inserted, not ``in_value=1, m``)
        # (not one already between two tokens: `` && wget …/flink-sql-connector-kafka-3.1.0-1.18.jar`` after a line
        # ending ``….jar`` is not ``jar && wget …-1.18.`` inserted)
        while p + q == len(a) and n > 0 and p > 0 and b[p - 1] == b[p + n - 1] and not b[p:p + 1].isspace() \
                and (b[p - 1].isalnum() or b[p - 1] == "_"):
            p, q = p - 1, q + 1
        # (and an option inserted before another, to where its dash starts: ``-e POSTGRES_INITDB_ARGS=… `` before
        # ``-v …``, not ``e POSTGRES_INITDB_ARGS=… -``)
        back = p
        while p + q == len(a) and n > 0 and back > 0 and b[back - 1] == b[back + n - 1] and not b[back - 1].isspace():
            back -= 1
        if back < p and (back == 0 or b[back - 1].isspace()):
            p, q = back, q + (p - back)
        raw = b[p:p + n]
        inserted = raw.strip("&,;| ")
        # (between tokens, not inside one: ``cfg.Timeout`` → ``cfg.Timeout.Duration`` is said as the two)
        # (a separator after a token starts one too: ``max_entries: 1`` → ``max_entries: 1, max_file_size: …``)
        between = (p == 0 or not (b[p - 1].isalnum() or b[p - 1] == "_") or raw[:1].isspace()
                   or raw[:1] in ",;") and (raw[:1] in " ,;&|" or raw[-1:] in " ,;&|")
        # (a long one cut: ``-schema-location default -schema-location 'https://raw.githubusercontent.com/…'``)
        if p + q == len(a) and between and 6 <= len(inserted) <= 240 and inserted.count("(") == inserted.count(")"):
            return f"add `{one_line(inserted, 70)}`"
        a_mid, b_mid = _replaced(a, b)
        if not a_mid and b_mid:  # a pure insertion: the new line says it best, when it is short
            return f"`{b}`" if len(b) <= 40 else f"add `{one_line(b_mid, 60)}`"
        if a_mid and not b_mid:
            return f"remove `{one_line(a_mid, 60)}`"
        if len(a_mid) > 40 or len(b_mid) > 40:
            # the same line with its quotes swapped as well (``"… default '0000-00-00'"`` → ``'… default
            # CURRENT_TIMESTAMP'``): the value that changed, not the whole line
            a_mid, b_mid = (m.strip("'\"; ,") for m in _replaced(a.replace('"', "'"), b.replace('"', "'")))
        # (the new line, where the parts would close a bracket they do not open: ``import { useActionState } from
        # 'react';`` for ``import { useFormState } from 'react-dom';``, not ``useFormState } from 'react-dom'``)
        if a_mid and b_mid and any(m.count(o) != m.count(c) for m in (a_mid, b_mid) for o, c in ("()", "[]", "{}")):
            return f"`{one_line(b, 70)}`"
        if a_mid and b_mid and len(a_mid) <= 40 and len(b_mid) <= 40:
            return f"`{a_mid}` → `{b_mid}`"
        # (one long token changed in a longer line, a shell line continued: the token as it is now,
        # ``bound_service_account_namespaces=payments``, not the line from its start)
        if a_mid and re.fullmatch(r"\S{41,70}", b_mid) and len(b) > len(b_mid) + 10:
            return f"`{b_mid}`"
        # text inserted inside one long token (``…foreign_keys(1)&_pragma=journal_mode(WAL)…``): what was inserted;
        # inside a name, the name it was and is (``Modifier`` → ``GlanceModifier``, not ``add `Glance```)
        if p + q == len(a) and 3 <= len(inserted) <= 70:
            start, end = p, p + n
            while re.fullmatch(r"\w+", raw) and start > 0 and (b[start - 1].isalnum() or b[start - 1] == "_"):
                start -= 1
            while re.fullmatch(r"\w+", raw) and end < len(b) and (b[end].isalnum() or b[end] == "_"):
                end += 1
            if (start, end) != (p, p + n):
                return f"`{a[start:end - n]}` → `{b[start:end]}`"
            return f"add `{inserted}`"
        return f"`{one_line(b, 70)}`"
    # (a comment added above a line that moved says why it moved: the move is the change)
    if added and not removed and all(_COMMENT_LINE.match(l) for l in added):
        rest = [l for l in new if l not in added]
        if sorted(rest) == sorted(old) and _moved(old, rest):
            new, added = rest, []
    # (a Maven dependency added whole is said by its coordinates: ``org.checkerframework:checker-qual:3.43.0``)
    coordinates = _coordinates(added) if added else None
    if coordinates:
        return f"add `{coordinates}`"
    if added:  # what a block holds, not the line that opens it or an import it needs
        # (nor the star before a docblock's tag: ``@jest-environment node``)
        # (unless the account quotes the line that opens it: ``addContentTypeParser(…, { parseAs: 'buffer' }, … {``)
        # (code, not a comment that names it; a line that opens a block only when no other holds what it quotes)
        # (or over lines it added one after another, said as one: ``@Binds`` then ``abstract fun bindNoteRepository
        # (…)`` quoted "`@Binds abstract fun bindNoteRepository(…): NoteRepository`")
        across = [span for span in told if len(span) >= 12 and span in " ".join(added)
                  and not any(span in l for l in added)]
        if across:
            return f"add `{one_line(max(across, key=len), 70)}`"
        holding = [l for l in added if any(span in l for span in told) and not _COMMENT_LINE.match(l)]
        # (or a line of a statement quoted whole over several: ``"USING hnsw ((embedding::halfvec(3072)) …) "`` of
        # the quoted ``CREATE INDEX … USING hnsw (…) WITH (…)``, split over string literals)
        holding += [l for l in added if l not in holding and len(l.strip("\"' ,+")) >= 12 and not _COMMENT_LINE.match(l)
                    and any(l.strip("\"' ,+") in span for span in told)]
        if len(holding) > 1:  # (of those, the one with the most words the old text did not have)
            was = set(re.findall(r"\w{3,}", " ".join(old)))
            holding = sorted(holding, key=lambda l: -len(set(re.findall(r"\w{3,}", l)) - was))
        quoted = next((l for l in holding if not scaffolding(l)), holding[0] if holding else None)
        # (a removed line it only inserted into: what it inserted, ``--options runtime --timestamp`` into ``codesign
        # --force -s "$SIGN_ID" "$APP/Contents/Resources/bin/sketch-render"``)
        inserted = next((i for r in removed if (i := _inserted(r, quoted))), None) if quoted else None
        if inserted:
            return f"add `{one_line(inserted, 70)}`"
        if quoted and len(quoted) > 70:  # (too long to show whole: what it quotes of it)
            # (or itself, quoted within a longer span: ``abstract fun bindNotesRepository(…): NotesRepository`` of
            # "`@Binds @Singleton abstract fun bindNotesRepository(…): NotesRepository`")
            # (its start, quoted with the rest elided, cut where the account cut it: "`export const chartColors =
            # [...]`" is ``export const chartColors = […``)
            best = max((span for span in told if span in quoted), key=len, default=quoted)
            best = best.rstrip() + "…" if quoted.startswith(best) and len(best) < len(quoted) else best
            return f"add `{one_line(best, 70)}`"
        # (code before a comment beside it: ``key = "k8s.io/cluster-autoscaler/node-template/label/workload"``, not
        # the ``# scale-from-zero: …`` above its block)
        # (and code before a line that only logs: ``return self._iterator(self.settings.start_position)``, not the
        # ``log.info("shard %s: no checkpoint, …")`` above it)
        code = sorted((l for l in added if not scaffolding(l) and not _COMMENT_LINE.match(l)),
                      key=lambda l: bool(_LOG_LINE.match(l)))
        line = re.sub(r"^\*\s+(?=@)", "", quoted or next(iter(code), next((l for l in added if not scaffolding(l)),
                                                                           added[0])))
        section = _section_of(hunk, line) or _place_of(hunk, line, places)
        # (the line cut shorter: the card's title has room for both)
        return f"add `{one_line(line, max(16, min(26, 52 - len(section))))}` under `{section}`" if section \
            else f"add `{one_line(line, 70)}`"
    if removed:  # (what the block held: ``mavenCentral()``, not the ``repositories {`` around it)
        return f"remove `{one_line(next((l for l in removed if not scaffolding(l)), removed[0]), 70)}`"
    moved = _moved(old, new) if sorted(old) == sorted(new) else []
    if moved:
        # (out of the block it was in, when the hunk shows where it was: ``{{- define "api.selectorLabels" -}}``,
        # ``[tool.poetry.dependencies]``)
        line, after = moved[0]
        return f"move `{one_line(line, 30 if _block_of(old, line) != _block_of(new, line) else 50)}` " \
               + _moved_to(old, new, line, after, 50).removeprefix("moved ")
    return "rewrite"


def _coordinates(added: list[str]) -> str | None:
    """The ``group:artifact:version`` of the one Maven dependency (or plugin) ``added`` lines declare whole."""
    tags = {tag: [m.group(1) for l in added if (m := re.fullmatch(rf"<{tag}>\s*([^<\s]+)\s*</{tag}>", l))]
            for tag in ("groupId", "artifactId", "version")}
    if len(tags["groupId"]) != 1 or len(tags["artifactId"]) != 1 or len(tags["version"]) > 1 \
            or not any(re.fullmatch(r"<(?:dependency|plugin)>", l) for l in added):  # (not an ``<exclusion>``)
        return None
    return ":".join([tags["groupId"][0], tags["artifactId"][0], *tags["version"]])


# a TOML or INI section's header, at the start of its line: ``[workspace.dependencies]``, ``[tool.cibuildwheel]``
_SECTION = LazyRegex(r"^\[\[?[\w.\"'-]+\]\]?[ \t]*$")


def _line_at(lines: list[str], line: str) -> int | None:
    """Where ``line``, as ``_short_diff`` spaces it (one space between words), stands among a hunk's ``lines``."""
    return next((i for i, l in enumerate(lines) if " ".join(l.split()) == line), None)


def _section_of(hunk: dict, line: str) -> str | None:
    """The TOML or INI section an added ``line`` went into, when the hunk shows its header, unchanged: a line's place
    is part of the fix (``serde = …`` under ``[workspace.dependencies]``, not under ``[dependencies]``)."""
    new = hunk["new"].splitlines()
    at = _line_at(new, line)
    header = next((l.strip() for l in reversed(new[:at]) if _SECTION.match(l)), None) if at else None
    return header if header and header in (l.strip() for l in hunk["old"].splitlines()) else None


def _place_of(hunk: dict, line: str, places: tuple[str, ...]) -> str | None:
    """The keys a YAML ``line`` went under, as the account quotes them (``places``), when the hunk shows two of them
    and more: the pod template's labels (`spec.template.metadata.labels`), not the Deployment's own."""
    new = hunk["new"].splitlines()
    at = _line_at(new, line)
    if at is None:
        return None
    keys, indent = [], len(new[at]) - len(new[at].lstrip())
    for above in reversed(new[:at]):
        depth = len(above) - len(above.lstrip())
        if above.strip() and depth < indent:
            key = re.fullmatch(r"\s*([\w.-]+):\s*", above)
            if not key:  # (a list's item, a value: the keys above it are not the line's)
                break
            keys.insert(0, key.group(1))
            indent = depth
    path = ".".join(keys)
    return next((p for p in places if len(keys) >= 2 and (p == path or p.endswith("." + path))), None)


# a line that opens a named block: a Helm/Go template's ``{{- define "api.labels" -}}``, a TOML or INI section, a
# function or class
_BLOCK_OPENER = LazyRegex(r"^(?:\{\{-?\s*define\s+\"([^\"]+)\"|\[\[?([\w.\"' -]+)\]\]?\s*$|"
                          r"(?:async\s+)?(?:def|function|func|fn|class|sub|module)\s+([A-Za-z_][\w.:]*))")


def _list_item_of(text: str, line: str) -> str | None:
    """The value that names the YAML list entry ``line`` belongs to (``calogica/dbt_expectations`` of ``- package:
    calogica/dbt_expectations`` above ``version: […]``), when the hunk shows it and ``line`` is not that line."""
    lines = text.splitlines()
    at = next((i for i, l in enumerate(lines) if " ".join(l.split()) == line), None)
    if at is None:
        return None
    indent = len(lines[at]) - len(lines[at].lstrip())
    for before in reversed(lines[:at]):
        head = re.match(r"^(\s*)- [\w.-]+:\s*(\S.{0,60}?)\s*$", before)
        if head and len(head.group(1)) < indent:
            return head.group(2).strip("'\"")
        if before.strip() and len(before) - len(before.lstrip()) < indent:
            return None
    return None


def _field_of(text: str, line: str) -> str | None:
    """The field a short value line was added under, its name alone on a line above it (R's DESCRIPTION:
    ``S4Vectors,`` under ``Imports:``), when the hunk shows it."""
    lines = text.splitlines()
    at = next((i for i, l in enumerate(lines) if " ".join(l.split()) == line), None)
    if at is None or len(line) > 40 or not lines[at][:1].isspace():
        return None
    for before in reversed(lines[:at]):
        if not before[:1].isspace():
            return before.strip() if re.fullmatch(r"[A-Z][\w@.-]*:", before.strip()) else None
    return None


def _plist_key_of(text: str, line: str) -> str | None:
    """The key of the property list array ``line`` is a value in (``BGTaskSchedulerPermittedIdentifiers`` above
    ``<array>`` and the ``<string>com.acme.fieldnotes.sync</string>`` added to it), when the hunk shows it."""
    lines = [" ".join(l.split()) for l in text.splitlines()]
    if line not in lines or not re.fullmatch(r"<(string|integer|real|true|false)\b.*", line):
        return None
    for before in reversed(lines[:lines.index(line)]):
        key = re.fullmatch(r"<key>([^<]{1,80})</key>", before)
        if key:
            return key.group(1)
        if not re.fullmatch(r"<(?:string|integer|real)>[^<]*</(?:string|integer|real)>|<(?:true|false)/>|<array>",
                            before):
            return None
    return None


def _moved_to(old: list[str], new: list[str], line: str, after: str | None, limit: int = 60) -> str:
    """Where a moved line went: out of the block it was in, when the hunk shows that (``{{- define
    "api.selectorLabels" -}}``, ``[tool.poetry.dependencies]``), else before the line it now precedes (``after``), or,
    last now, after the line it follows."""
    was, now = _block_of(old, line), _block_of(new, line)
    if was and was != now:
        return f"moved out of `{was}`" + (f" into `{now}`" if now and len(now) <= 30 else "")
    if after is None:
        return f"moved after `{one_line(new[new.index(line) - 1], limit)}`"
    return f"moved before `{one_line(after, limit)}`"


def _block_of(lines: list[str], line: str) -> str | None:
    """The name of the block ``line`` sits in, by the last line before it that opens one."""
    for before in reversed(lines[:lines.index(line)] if line in lines else []):
        match = _BLOCK_OPENER.match(before)
        if match:
            return next(g for g in match.groups() if g)
    return None


def _rel(path: str, cwd: str | None) -> str:
    if cwd and path.startswith(cwd.rstrip("/") + "/"):
        return path[len(cwd.rstrip("/")) + 1:]
    return path


def _named_in(path: str, text: str) -> bool:
    """Whether ``text`` names the file: by its path, its name, its stem, or the class its stem spells
    (``orders.module.ts`` by ``OrdersModule``, ``user_service.py`` by ``UserService``)."""
    base = os.path.basename(path)
    stem = os.path.splitext(base)[0].lstrip("+_")  # (SvelteKit's ``+layout.svelte`` is "the root layout")
    text = text or ""
    if base in text or path in text or (len(stem) >= 4 and re.search(rf"\b{re.escape(stem)}\b", text) is not None):
        return True
    parts = re.split(r"[._-]", stem)
    return len(parts) >= 2 and all(len(p) >= 3 and p.isalpha() for p in parts) and \
        re.search(rf"\b{''.join(p.capitalize() for p in parts)}\b", text) is not None


MAX_UNNAMED_FILES = 3

# a failure of the run's environment, not of a source line: its resources (memory, disk, a killed process) or a
# network that dropped, timed out or refused for a while (not "connection refused": that is a service not running)
_ENVIRONMENT_FAILURE = LazyRegex(
    r"(?im)^.*(?:out of memory|heap limit|\bOOM\b|Cannot allocate memory|\bENOMEM\b|No space left on device|"
    r"\bENOSPC\b|^Killed$|\bSIGKILL\b|exit code 137\b|\bECONNRESET\b|socket hang up|\bETIMEDOUT\b|\bEAI_AGAIN\b|"
    r"Temporary failure in name resolution|Could not resolve host|Connection reset by peer|TLS handshake timeout|"
    r"i/o timeout|502 Bad Gateway|503 Service Unavailable|504 Gateway Time-?out|429 Too Many Requests|"
    r"network is unreachable|spurious network error|socket error|"
    # a host an ssh-driven tool could not reach (ansible's ``fatal: [web-2]: UNREACHABLE!``)
    r"\bUNREACHABLE!|ssh: connect to host \S+ port \d+: (?:Connection timed out|No route to host)|"
    # a port another process holds: no source edit frees it
    r"Address already in use|\bEADDRINUSE\b|"
    # a download that timed out ("Operation timed out after 30000 milliseconds ... while requesting https://…"), not
    # a test's own ``httpx.ReadTimeout: The read operation timed out``
    # (a link to the docs after it is no download: "Timed out trying to acquire a postgres advisory lock … See
    # https://…")
    r"timed out[^\n]*(?:while (?:requesting|downloading|fetching)|(?<![Ss]ee )https?://)|"
    r"(?:unable|failed) to (?:automatically )?download).*$")


# a build or test tool's own configuration (vite.config.ts, .babelrc, jest.config.js)
_MANIFEST_PATH = LazyRegex(r"(?i)(?:^|/)(?:package\.json|pyproject\.toml|requirements(?:[\w.-]*|/[\w.-]+)\.(?:txt|ya?ml|in)|"
                           r"constraints\.txt|setup\.(?:py|cfg)|Pipfile|Cargo\.toml|go\.mod|Gemfile|[\w-]+\.gemspec|"
                           r"mix\.exs|composer\.json|pom\.xml|build\.gradle(?:\.kts)?|[\w.-]+\.(?:cs|fs|vb)proj|"
                           # (.NET's central versions and shared build settings, NuGet's sources)
                           r"Directory\.(?:Packages|Build)\.(?:props|targets)|nuget\.config|galaxy\.ya?ml|"
                           r"[\w.-]+\.opam|dune-project|[\w.-]+\.cabal|package\.ya?ml|stack\.ya?ml|deno\.jsonc?|"
                           r"Package\.swift|build\.zig(?:\.zon)?|environment\.ya?ml|"
                           # (a package manager's recipe: Spack's ``packages/h5seis/package.py``, conda's
                           # ``meta.yaml``, Homebrew's formula, Arch's and Alpine's build files, an RPM spec, vcpkg's
                           # and Conan's manifests)
                           r"packages/[\w.-]+/package\.py|meta\.ya?ml|recipe\.ya?ml|Formula/[\w.+@-]+\.rb|PKGBUILD|"
                           r"APKBUILD|[\w.+-]+\.spec|[\w.+-]+\.ebuild|Portfile|vcpkg\.json|conanfile\.(?:py|txt))$")
_LOCKFILE = LazyRegex(r"(?i)(?:^|/)(?:[\w.-]*(?:\.lock|-lock\.ya?ml|-lock\.json|\.lockb)|packages\.lock\.json)$")
_TOOL_CONFIG = LazyRegex(r"(?i)(?:^|/)(?:[\w-]+\.(?:config|workspace)\.[cm]?[jt]s|\.\w+rc(?:\.\w+)?)$")


_CI_CONFIG = LazyRegex(r"(?:^|/)(?:\.github/workflows/[^/]+|\.circleci/config|\.gitlab-ci|azure-pipelines|"
                       r"bitbucket-pipelines|\.buildkite/[^/]+)\.ya?ml$|(?:^|/)Jenkinsfile$")
_RUNS_PIPELINE = LazyRegex(r"(?:^|[\s/;&|])(?:act|actionlint|circleci|gitlab-ci-local|gitlab-runner|check-jsonschema|"
                           r"yamllint)(?:\s|$)")


def _changed_text(edit: dict) -> str:
    """The lines an edit removed or added, without the diff's markers."""
    return "\n".join(l[1:] for l in (edit.get("body") or "").splitlines()
                     if l[:1] in "+-" and not l.startswith(("+++", "---")))


def _touches_environment_error(edit: dict, lines: list[str]) -> bool:
    """Whether an edit changes something an environment failure's own line names (a host, a size, a path)."""
    changed = _changed_text(edit).lower()
    return any(len(t) >= 5 and re.search(rf"(?<![\w.-]){re.escape(t)}(?![\w-])", changed)
               for line in lines for t in _tokens(line))  # (whole words: "listen" is not in "listening")


def _changed_lines(old: str, new: str) -> list[str]:
    """The lines one side of an edit has and the other has not, removed then added."""
    old_lines, new_lines = old.splitlines(), new.splitlines()
    return [l for l in old_lines if l not in new_lines] + [l for l in new_lines if l not in old_lines]


# a comment at the end of a line of code (``dist:   ## make a tarball``, ``retries: 3  # per host``), not a directive
# a tool reads (``# type: ignore``, ``// eslint-disable-line``)
_TRAILING_COMMENT = LazyRegex(r"\s+(?:#+|//)\s(?!\s*(?:type:|noqa|pragma|nolint|eslint|prettier-ignore|@ts-|istanbul|"
                              r"rubocop:|pylint:|fmt:|nosec))(?:[^\"'`]|(?<=\w)'(?=\w))*$")  # (not in a string; "we're" is)


def _code_lines(text: str) -> list[str]:
    commented = _in_block_comment(text)  # (and a docstring's lines: ``"""Send the shipment label email."""``)
    return [_TRAILING_COMMENT.sub("", l).rstrip() for l in text.splitlines()
            if l.strip() and not _COMMENT_LINE.match(l) and l not in commented]


def _trailing_comments_only(edit: dict) -> bool:
    """Whether every line an edit changes is a line of code whose trailing comment changed (never a directive: a
    file's own ``# typed: strict`` is a line of its own)."""
    return all(not _COMMENT_LINE.match(l) for old, new in _edit_sides(edit) for l in _changed_lines(old, new)
               if l.strip())


# files whose lines led by ``*`` are content, not a block comment's
_STARRED_CONTENT = (".ink", ".org", ".adoc", ".asciidoc", ".textile")


def _comments_only(edit: dict) -> bool:
    """Whether an edit changes only comments (a doc comment, a commented line, the comment at the end of a line
    whose code stayed as it was): it cannot fix a failing check."""
    sides = _edit_sides(edit)
    # (a line led by ``*`` is a block comment's only where the language has them: an ink choice, ``* [Follow Mara]
    # -> docks.harbour_meeting``, an org heading, an AsciiDoc list item are the file's own content)
    if any(p.endswith(_STARRED_CONTENT) for p in edit.get("files") or [edit.get("target") or ""]) and any(
            re.match(r"\s*\*", line) for old, new in sides for line in _changed_lines(old, new)):
        return False
    # (a template renders what its expressions give, in a line that reads as a comment too: ``# Generated by Ansible
    # on {{ ansible_date_time.iso8601 }}`` changes the rendered file on every run)
    return bool(sides) and all(_changed_lines(old, new) and _code_lines(old) == _code_lines(new)
                               for old, new in sides) \
        and not any(_CODE_IN_A_COMMENT.search(line) for old, new in sides for line in _changed_lines(old, new))


# what a line in a comment's shape still does as code: a template's expression (``{{ ansible_managed }}``), a
# framework's annotation that routes or serializes (plumber's ``#* @serializer unboxedJSON``), roxygen's tags that
# write an R package's NAMESPACE (``#' @importFrom magrittr %>%``)
_CODE_IN_A_COMMENT = LazyRegex(r"\{\{-?\s*[\w.$|()'\" ]+?\s*-?\}\}|\{%-?\s*\w|<%=|^\s*#\*\s*@[a-z]\w*\b|"
                               r"^\s*#'\s*@(?:importFrom|import|export|exportPattern|useDynLib|S3method|"
                               r"rawNamespace)\b")


# code whose lines may be split or joined anywhere between tokens (not Python, YAML or a Makefile, where the layout
# is the code)
_FREE_FORM = LazyRegex(r"\.(?:jsx?|tsx?|mjs|cjs|java|kts?|swift|go|c|cc|cpp|h|hpp|cs|rs|php|css|scss|json|html|xml|sql|"
                       r"dart|scala|groovy|vue|svelte)$")


def _reformatted_only(edit: dict) -> bool:
    """Whether an edit only lays the same code out otherwise (a long ``<Stack.Screen … />`` split over five lines,
    spaces inside ``{{ }}``), in a language where the layout means nothing: a reformat, no fix."""
    sides = _edit_sides(edit)
    return bool(sides) and bool(edit.get("files")) and all(_FREE_FORM.search(f) for f in edit["files"]) and all(
        old.strip() != new.strip() and old.count("\n") != new.count("\n")
        and re.sub(r"\s+", "", old) == re.sub(r"\s+", "", new) for old, new in sides)


def _recased_only(edit: dict, error: str) -> bool:
    """Whether an edit only changes the case of words (``SELECT … GROUP BY ALL`` → ``select … group by all``) or
    the spaces between them, and the error names none of them as they were or are: a reformat. (``./Components/
    Button`` → ``./components/Button`` for "Cannot find module './Components/Button'" is the fix.)"""
    sides = _edit_sides(edit)
    if not sides:
        return False
    changed = set()
    for old, new in sides:
        if old.split() == new.split() or " ".join(old.split()).lower() != " ".join(new.split()).lower():
            return False
        changed |= {w for a, b in zip(old.split(), new.split()) if a != b for w in (a, b)}
    # (a name in quotes recased is another name: jOOQ's ``inputSchema = "PUBLIC"`` → ``"public"``, as Postgres folded
    # it; a path's case is judged below; in a test, a value made to agree with the code: ``'summer10'`` → ``'SUMMER10'``
    # in e2e/fixtures.ts is no fix)
    if any(re.search(r"[\"'`]", token) and not re.search(r"[/\\]", token) for token in changed) \
            and not all(_TEST_PATH.search(f) for f in edit.get("files") or [""]):
        return False
    if any(re.search(r"%[A-Za-z]", token) for token in changed):
        return False  # (a format's directive by its case: ``"%d/%m/%y"`` → ``"%d/%m/%Y"`` reads a four-digit year)
    words = {w for token in changed for w in re.findall(r"[A-Za-z_]\w*", token)}
    # (as a word, not a directory of a path or namespace the error names: ``App\Tests\Api\BooksTest`` names no
    # ``Api`` of ``title: Bookshop Api``; a path the edit changes is named whole, ``./Components/Button``)
    paths = {t.strip("'\"`;,()") for t in changed if re.search(r"[/\\]", t)}
    # (a path recased where the error says a file is not there: ``resource_path('js/Pages')`` → ``…('js/pages')``
    # for "Inertia page component file [dashboard] does not exist", on a file system that tells case)
    if paths and re.search(r"(?i)does(?: not|n't) exist|not found|no such file|cannot find|could not find", error):
        return False
    return not any(re.search(rf"(?<![/\\])\b{re.escape(w)}\b(?![/\\])", error) for w in words if len(w) >= 2) \
        and not any(p and p in error for p in paths)


# a line that only logs or prints (``Rails.logger.info("[reindex] batch=…")``, ``console.log(x)``, ``dbg!(x)``)
_LOG_LINE = LazyRegex(r"""(?x)^\s*(?:(?:\w+\.)*(?:logger|log|LOG|Log|logging|console|slog|zap|Logger|tracing)
                      (?:\.\w+)*\s*[.(!]|(?:print|println|printf|puts|pp|p|eprintln|eprint|dbg)!?[\s(](?!\s*=)|
                      (?:info|debug|warn|trace|error)!\(|fmt\.(?:Print|Fprint)\w*\(|System\.(?:out|err)\.print|
                      IO\.(?:puts|inspect)\b|var_dump\(|error_log\()""")


def _logging_only(edit: dict, error: str) -> bool:
    """Whether an edit only adds or rewrites lines that log or print, none of whose text the error shows:
    instrumentation, which cannot fix a failing check."""
    for old, new in _edit_sides(edit):
        old_lines, new_lines = {l.strip() for l in old.splitlines()}, {l.strip() for l in new.splitlines()}
        added = [l for l in new.splitlines() if l.strip() and l.strip() not in old_lines]
        removed = [l for l in old.splitlines() if l.strip() and l.strip() not in new_lines]
        # (a shell print piped on, ``printf '%s\n' "$1" | grep -oE …``, is the data of the next program, no log)
        if not added or not all(_LOG_LINE.match(l) and not re.search(r"(?<!\|)\|(?!\|)\s*[a-z]", l)
                                for l in added + removed):
            return False
        if any(len(text) >= 4 and text in error for l in added for text in re.findall(r"[\"']([^\"'#{}]+)", l)):
            return False  # (a check that expects the message to be logged)
    return True


# a package's description for people: what it says, who wrote it, where it lives
_METADATA_LINE = LazyRegex(r"""(?ix)^\s*[\"']?(?:description|summary|authors?|maintainers?|homepage|repository|
                           keywords|categories|license|readme|documentation|contributors)[\"']?\s*[:=]""")


# (and the package's own version, no build or test reads it: a package.json's or composer.json's ``"version"``, a
# meson project's ``version : '0.4.2'``, a pyproject's ``version = "0.4.2"``; not a dependency's ``version :
# '>=2.56'``)
_JSON_VERSION = LazyRegex(r'^\s*"version"\s*:\s*"[^"]*",?\s*$')
_MSBUILD_VERSION = LazyRegex(r"^\s*<(?:Version|VersionPrefix|AssemblyVersion|FileVersion|PackageVersion)>"
                             r"\d[\w.+-]*</\w+>\s*$")
_ANDROID_VERSION = LazyRegex(r'^\s*version(?:Code|Name)\s*=?\s*(?:\d+|"\d[\w.+-]*")\s*$')
# a version at the top of a YAML manifest, not indented under a dependency (``version: 1.4.0+12``)
_TOP_VERSION = LazyRegex(r'^version:\s*\d[\w.+-]*\s*$')
_TOML_VERSION = LazyRegex(r'^\s*version\s*=\s*"\d[\w.+-]*"\s*$')
_OWN_VERSION = {"package.json": _JSON_VERSION, "composer.json": _JSON_VERSION,
                "meson.build": LazyRegex(r"^\s*version\s*:\s*'\d[\w.+-]*'\s*,?\s*$"),
                # (a pyproject's ``[project]`` or ``[tool.poetry]`` version: its dependencies pin inline; and a Gleam
                # package's, whose dependencies are ``name = ">= 0.34.0"``)
                "pyproject.toml": _TOML_VERSION, "gleam.toml": _TOML_VERSION,
                # (MSBuild's: a project's or the repo's ``<Version>2.3.1</Version>``, ``<VersionPrefix>``)
                "Directory.Build.props": _MSBUILD_VERSION,
                # (Godot's ``config/version="0.7.2"`` in project.godot)
                "project.godot": LazyRegex(r'^\s*config/version\s*=\s*"\d[\w.+-]*"\s*$'),
                # (a Helm chart's ``version: 0.7.4`` and ``appVersion``, at the top: a dependency's is indented
                # under its name; a Flutter package's ``version: 1.4.0+12``)
                "Chart.yaml": LazyRegex(r'^(?:version|appVersion):\s*["\']?v?\d[\w.+-]*["\']?\s*$'),
                "pubspec.yaml": _TOP_VERSION,
                # (a Racket package's ``(define version "0.4.2")`` in info.rkt; a Crystal shard's ``version: 0.3.1``)
                "info.rkt": LazyRegex(r'^\s*\(define\s+version\s+"\d[\w.+-]*"\)\s*$'), "shard.yml": _TOP_VERSION,
                # (an Android app's, in its module's build file: ``versionCode = 42``, ``versionName = "3.8.1"``)
                "build.gradle.kts": _ANDROID_VERSION, "build.gradle": _ANDROID_VERSION,
                # (a Perl distribution's, in Dist::Zilla's dist.ini: ``version = 0.07``)
                "dist.ini": LazyRegex(r"^\s*version\s*=\s*v?\d[\w.+-]*\s*$"),
                # (an OCaml project's ``(version 0.4.0)`` in dune-project; an Elixir project's ``version: "0.4.0",``
                # in mix.exs, whose dependencies are tuples)
                "dune-project": LazyRegex(r"^\s*\(version\s+v?\d[\w.+-]*\)\s*$"),
                "mix.exs": LazyRegex(r'^\s*version:\s*"\d[\w.+-]*",?\s*$')}
# (an Erlang application's ``{vsn, "0.3.2"},`` in src/<app>.app.src)
_APP_SRC_VERSION = LazyRegex(r'^\s*\{\s*vsn\s*,\s*"\d[\w.+-]*"\s*\}\s*,?\s*$')


_OTHER_MANIFEST = LazyRegex(r"(?i)(?:^|/)(?:DESCRIPTION|[\w.-]+\.nimble)$")  # (R's, nim's)


# a file of program code (not a manifest, a config or data)
_CODE_FILE = LazyRegex(r"\.(?:py|js|mjs|cjs|ts|tsx|jsx|rb|go|rs|java|kt|kts|cs|fs|swift|exs?|php|scala|clj|lua|dart|c|cc|"
                      r"cpp|h|hpp|m|jl|R|ml|hs|zig|nim|cr|pl|t|sol|ps1|odin)$")
# the program's own version as a constant in its code (``const Version = "0.8.4"``, ``__version__ = "2.1.0"``, Odin's
# ``VERSION :: "0.4.2"``)
_VERSION_CONSTANT = LazyRegex(r"""^\s*(?:(?:export\s+)?const\s+|(?:public\s+)?(?:static\s+)?(?:final\s+)?String\s+)?"""
                              r"""(?:__version__|VERSION|Version|version)\s*(?::\s*\w+\s*)?(?:::|[:=])\s*"""
                              r"""["']v?\d+(?:\.\d+)+"""
                              r"""[\w.+-]*["'];?\s*$|"""
                              # (C's: ``#define LOGD_VERSION "0.9.3"``)
                              r"""^\s*#\s*define\s+\w*VERSION\w*\s+["']?v?\d+(?:\.\d+)+[\w.+-]*["']?\s*$|"""
                              # (PHP's ``define( 'ACME_SHIPPING_VERSION', '2.3.1' );``, and a WordPress plugin's
                              # header, `` * Version:           2.3.1``)
                              r"""^\s*define\(\s*["']\w*VERSION["']\s*,\s*["']v?\d+(?:\.\d+)+[\w.+-]*["']\s*\);\s*$|"""
                              r"""^\s*\*?\s*Version:\s+v?\d+(?:\.\d+)+[\w.+-]*\s*$""")


def _metadata_only(edit: dict, error: str = "") -> bool:
    """Whether an edit changes only a package's descriptive fields (``description = "…"``) or its own version (a
    package.json's ``"version"``, a ``const Version = "0.8.4"`` no failure names): no build reads them."""
    changed = [l for old, new in _edit_sides(edit) for l in _changed_lines(old, new) if l.strip()]
    code = bool(edit.get("files")) and all(_CODE_FILE.search(f) for f in edit["files"])  # (a manifest's may be a pin)
    if changed and code and all(_VERSION_CONSTANT.match(l) for l in changed) and not any(
            v in error for v in re.findall(r"\d+(?:\.\d+)+", "\n".join(changed))):
        return True
    # (a Terraform variable's or output's ``description = "…"``: words for people, no plan reads them)
    if changed and edit.get("files") and all(f.endswith(".tf") for f in edit["files"]) \
            and all(re.match(r'^\s*description\s*=\s*".*"\s*$', l) for l in changed):
        return True
    names = {os.path.basename(f) for f in edit.get("files") or []}
    name = names.pop() if len(names) == 1 else ""
    # (a nimble package's ``version       = "0.4.3"`` in csvpq.nimble, whose dependencies are ``requires "…"``)
    own_version = _OWN_VERSION.get(name) or (_MSBUILD_VERSION if name.endswith((".csproj", ".fsproj", ".vbproj"))
                                             else _APP_SRC_VERSION if name.endswith(".app.src")
                                             else _TOML_VERSION if name.endswith(".nimble") else None)
    # (of a package's manifest: an alert rule's ``summary:`` annotation is what a template renders)
    if not own_version and not all(_MANIFEST_PATH.search(f) or _OTHER_MANIFEST.search(f)
                                   for f in edit.get("files") or ["?"]):
        return False
    for old, new in _edit_sides(edit):
        changed = _changed_lines(old, new)
        # (a Helm chart's ``repository:`` is a dependency's, where it is downloaded from: the chart's own metadata
        # has none)
        if not changed or not all((_METADATA_LINE.match(l) or own_version and own_version.match(l))
                                  and not (name == "Chart.yaml" and re.match(r"\s*repository\s*:", l))
                                  for l in changed if l.strip()):
            return False
    return True


_NETWORK_FAILURE = LazyRegex(r"(?i)\bECONNRESET\b|socket hang up|\bETIMEDOUT\b|Connection reset by peer|"
                             r"i/o timeout|Recv failure|Empty reply from server|502 Bad Gateway|503 Service Unavailable|"
                             r"504 Gateway Time-?out|network is unreachable|socket error")


def _names_said(sentence: str) -> set[str]:
    """The names and numbers a sentence says, to match an edit's (a port, ``8081``; a version, ``3.0.7``)."""
    return _tokens(sentence) | set(re.findall(r"\b\d{3,}\b|\d+(?:\.\d+)+", sentence))


def _gives_the_missing_name(edit: dict, error: str) -> bool:
    """Whether an edit declares the name an error quotes as undefined or unknown (``- name: pagerduty-db`` for
    amtool's 'undefined receiver "pagerduty-db" used in route'): the fix, whatever the account calls it by the by."""
    names = re.findall(r"(?i)\b(?:undefined|unknown|undeclared|missing|no such)\b[^\n\"'`]{0,30}"
                       r"[\"'`]([\w.:/-]{4,})[\"'`]", error)
    return any(name in new and name not in old for old, new in _edit_sides(edit) for name in names)


def _relevant_edits(chain: dict, cwd: str | None, context: str,
                    incidental: list[str] = (), also: list[str] = ()) -> tuple[list[dict], list[str]]:
    """The edits of a chain that plausibly address its failure, and the paths set aside as unrelated.

    ``incidental`` holds the agent's sentences that call an edit incidental ("while I was there", "unrelated"):
    an edit whose file they name is not part of the fix. ``also`` holds those that tell of another change ("I also
    made the 400 return a small JSON error body"): an edit they name by its file or by a name or number it
    changed is not.
    """
    error = " ".join((f.get("error_text") or "") + " " + (f.get("target") or "") for f in chain["failures"])
    edits = [c for c in chain["all_changes"] if c["tool"] in EDIT_TOOLS]
    environment = [[m.group(0) for m in _ENVIRONMENT_FAILURE.finditer(f.get("error_text") or "")]
                   for f in chain["failures"]]
    environment = [line for lines in environment for line in lines] if all(environment) else []
    # (a request to this machine that was reset or timed out met the local service, not a network: a server bound to
    # 127.0.0.1 in a container resets ``curl localhost:3000``)
    if re.search(r"(?:^|[\s/@])(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\])(?=[:/\s]|$)", chain["failure"]["target"]):
        environment = [line for line in environment if not _NETWORK_FAILURE.search(line)]
    kept, unrelated = [], []
    # (an install from the manifests; not an app put on a device: ``adb install -r app/…/app-kiosk-release.apk``)
    installing = command_job(chain["failure"]["target"]) == "install" and not re.search(
        r"\S\.(?:apk|aab|ipa|deb|rpm|msi|appx|xpi)\b", chain["failure"]["target"])
    # a docs build's own files are its code (``make -C docs html`` and ``docs/conf.py``)
    # the code the account quotes, beside what it calls by the by (``asyncio_mode = "auto"`` beside "added
    # `--strict-markers` while I was there"), in a line of its own that no such sentence names
    asides = [*incidental, *also]
    # (a sentence of another change that names a file is about that file's edits only: "I also moved
    # `register(dbPlugin)` ahead of the routes in `app.ts`" is not about ``fp(dbPlugin, …)`` in db.ts)
    naming = [sentence for sentence in also if any(_named_in(_rel(p, cwd), sentence)
                                                   for e in edits for p in e.get("files") or [])]
    # (one that names none is about the edit it shares the most words with, two at least: "Separately, I bumped
    # ktlint in the version catalog since the TODO there asked for it" of ``ktlint = "1.3.0"``)
    def words(edit: dict) -> set[str]:
        return {w for w in _plain_words(_changed_text(edit)) - _STOP if len(w) >= 4}
    worded = []
    for sentence in also:
        shared = sorted((len(words(e) & _plain_words(sentence)), i) for i, e in enumerate(edits))
        if sentence not in naming and shared and shared[-1][0] >= 2 \
                and (len(shared) == 1 or shared[-2][0] < shared[-1][0]):
            worded.append(edits[shared[-1][1]])
    quoted = [span for span in _code_spans(context) if len(span) >= 6
              and not any(span in sentence for sentence in asides)]
    # (a line of code, not a word: `local_files_only=True`, not the `recent` a prompt asks for)
    quoted_code = [span for span in quoted if re.search(r"[^\w\s]|_", span)]  # (`sed -n` too)
    building_docs = bool(re.search(r"(?i)(?:^|[\s/=])(?:docs?|sphinx\S*|mkdocs|jsdoc|typedoc|rustdoc|javadoc|"
                                   r"dokka\S*|docusaurus|vitepress)(?:$|[\s/:])", chain["failure"]["target"]))
    # (a typo the account mends by the by names no file where one edit alone only respells: "Side note: fixed a
    # gender agreement typo in the French invoice translation" of ``'Facture envoyé'`` → ``'Facture envoyée'``)
    respelling = [edit for edit in edits if _respells_only(edit)]
    typo_said = any(_TYPO_SAID.search(sentence) for sentence in asides)
    for edit in edits:
        paths = [_rel(p, cwd) for p in edit.get("files") or [edit.get("target") or ""]]
        named = any(_named_in(p, error) for p in paths)
        if installing and not named and not any(_CONFIG_PATH.search(p) or _MANIFEST_PATH.search(p)
                                                or _TOOL_CONFIG.search(p) or _LOCKFILE.search(p) for p in paths):
            unrelated.extend(paths)  # an install reads the manifests, never the source: ``src/server.ts`` is no fix
            continue
        # a CI pipeline's file is read by CI, not by a check run here (``resource_class: large`` in
        # .circleci/config.yml beside a failing local pytest), unless the check runs the pipeline (``act``,
        # ``actionlint``) or its error names the file
        if all(_CI_CONFIG.search(p) for p in paths) and not named \
                and not chain["failure"].get("ci") and not _RUNS_PIPELINE.search(chain["failure"].get("target") or ""):
            unrelated.extend(paths)
            continue
        # (named by the environment's error line itself: a playbook's "TASK [nginx : template nginx.conf]" above an
        # unreachable host is its progress, not the error)
        # (a manifest the failing run installs from is what it downloads: ``torch==2.3.1+cpu`` in the
        # requirements ``pip install -r requirements/train.txt`` read before "No space left on device")
        # (unless the account quotes the line it added: "`local_files_only=True` in evaluate.py" for a runner with no
        # network; not a test's new assertion, ``$transport->getSent()`` beside the broker's DSN set for tests, nor
        # the task's code beside a stale server stopped)
        if environment and not any(_named_in(p, "\n".join(environment)) for p in paths) \
                and not (any(span in line for line in _added_code(edit) for span in quoted_code)
                         # (a script that runs the tests holds no assertion: ``ci/test.sh``'s ``carton install
                         # --cached --deployment``)
                         and not any(_TEST_PATH.search(p) and not re.search(r"\.(?:sh|bash|ps1|cmd|bat)$", p)
                                     for p in paths) and not chain.get("cleared")) \
                and not any(_CONFIG_PATH.search(p) or _TOOL_CONFIG.search(p) for p in paths) \
                and not (named and any(_MANIFEST_PATH.search(p) for p in paths)) \
                and not _touches_environment_error(edit, environment):
            unrelated.extend(paths)  # out of memory, a dropped network: only what the error names can fix it
            continue
        changed = _changed_text(edit)
        changed_names = {t for t in _tokens(changed) if "_" in t or len(t) >= 8}
        changed_names |= set(re.findall(r"\b\d{3,}\b", changed))  # "move the dev server to port 8081"
        changed_names |= set(re.findall(r"\d+(?:\.\d+)+", changed))  # "bump engines.node to >=20.11"
        # (a qualified name by its parts: ``ansible.builtin.include_tasks`` is the "include_tasks" asked for)
        changed_names |= {part for name in changed_names for part in name.split(".") if "_" in part or len(part) >= 8}
        # (a comment in a file the error names by its name may be a directive: ``# typed: strict``; not a sentence,
        # ``# Producer for order events. Delivery is asynchronous: …``)
        directive = any(os.path.basename(p) in (f.get("error_text") or "") for p in paths for f in chain["failures"]) \
            and any(_DIRECTIVE_SHAPE.match(l) for old, new in _edit_sides(edit) for l in _changed_lines(old, new))
        # (or by two of its words: "Also the split_data node has a leftover print, remove it" and ``-print("split
        # sizes", …)``)
        changed_words = words(edit)
        # (a markdown file in a folder the error names is that folder's content, not docs:
        # ``.changeset/brave-pans.md`` for "no changesets were found")
        dir_named = any(re.search(rf"(?i)\b{re.escape(d.lstrip('.'))}s?\b", error)
                        for p in paths for d in p.split("/")[-2:-1] if len(d.lstrip(".")) >= 4)
        # (a document is named by its name, ``jobs.md``: its stem in a path, ``spec/jobs``, names something else)
        doc_named = any(os.path.basename(p) in error or p in error for p in paths)
        # (or in a folder of two levels or more whose files the failing run names: ``docs/diagrams/include/style.iuml``,
        # the include of the ``docs/diagrams/*.puml`` a renderer read)
        doc_named = doc_named or any(f"{'/'.join(p.split('/')[:n])}/" in error
                                     for p in paths for n in range(2, p.count("/") + 1))
        # (an edit that holds such a line is the fix; an edit that is only the aside stays the aside)
        # (or, whatever words it shares with them, one a sentence quotes beside the file's name: "Fix in
        # otel/collector.local.yaml: `exporters: [otlp/tempo, debug]`" beside "Things that weren't the problem: the
        # app's OTLP env, Tempo itself")
        # (however the line aligns its value: ``spark.sql.extensions                org.apache.iceberg…`` for the
        # `spark.sql.extensions org.apache.iceberg…` quoted)
        quoted_fix = any(" ".join(span.split()) in " ".join(line.split()) for line in _added_lines(edit)
                         for span in quoted
                         if not any(len({w for w in _plain_words(line) - _STOP if len(w) >= 4}
                                        & _plain_words(sentence)) >= 2 for sentence in asides)
                         or any(span in sentence and any(_named_in(p, sentence) for p in paths)
                                for sentence in _sentences(context) if sentence not in asides))
        # (a change whose content was not stored, to an excluded ``.env``, shows nothing to judge it by but its file:
        # a sentence that names the file and quotes what it now holds, "`.env` now sets `OTEL_EXPORTER_OTLP_ENDPOINT=
        # https://otlp.eu01.nr-data.net:4317`", beside an aside that names the file too)
        withheld = bool((edit.get("meta") or {}).get("content_withheld"))
        quoted_fix = quoted_fix or withheld and any(
            _named_in(p, sentence) and any(re.search(r"[=:/]", span) for span in _code_spans(sentence))
            for sentence in _sentences(context) if sentence not in asides for p in paths)
        # ("I also fixed a typo in the page title": an edit that only respells a word, ``Dashbaord`` → ``Dashboard``)
        # (or, in a document, one whose words no error names: prose respelled mends a failure only where the failure
        # names the word, a spell checker's ``remote-wirte``; in code ``indent`` → ``nindent`` is another function)
        # (the sentence about a typo is about this edit when it names its file or its words: not ``indent`` →
        # ``nindent`` beside "also fixed a 'remote-wirte' typo in the chart README")
        # (and in a sentence of prose anywhere, a POD or YAML description: "billing adress" → "billing address")
        # (the sentence may tell of it as another change: "I also fixed a typo in a comment in acme.iss.")
        # (a line beside the aside that changes what the error names stays the fix: ``max_delivery_attempts = 5``
        # for "Invalid max_delivery_attempts value: 3", beside "while there I raised `ack_deadline_seconds`")
        # (in a line it changed, a name no such sentence says: not ``transform/redact`` above the ``error_mode:
        # ignore`` set "on transform/redact" while there)
        lines_changed = " ".join(l for old, new in _edit_sides(edit) for l in _changed_lines(old, new))
        fixes_named = bool({t for t in _tokens(lines_changed) if not t.isdigit() and ("_" in t or len(t) >= 8)}
                           & _tokens(error) - {t for sentence in asides for t in _tokens(sentence)})
        # (or a value it replaced that the error quotes: ``memory = "512M"`` for "… a binary quantity (Mi/Gi), got
        # 512M", beside "I also wrote cpu as `500m` while I was in there")
        fixes_named = fixes_named or any(
            re.search(rf"(?<![\w.-]){re.escape(value)}(?![\w.-])", error)
            for old, new in _edit_sides(edit) for line in old.splitlines() if line not in new.splitlines()
            for value in re.findall(r"[=:]\s*[\"']?([\w.-]*\d[\w.-]*[A-Za-z][\w.-]*)[\"']?\s*,?\s*$", line)
            if len(value) >= 3 and not re.search(rf"(?<![\w.-]){re.escape(value)}(?![\w.-])", new))
        respelled = _respelled(edit) if _respells_only(edit) else set()
        typo = bool(respelled) and (any(_TYPO_SAID.search(sentence) and (
            any(_named_in(p, sentence) for p in paths) or any(w in sentence for w in respelled))
            for sentence in [*incidental, *also]) or (all(_DOC_PATH.search(p) for p in paths) or _prose_only(edit)
                                                      or typo_said and respelling == [edit])
            # (the word as it was misspelt: the error may name the right one, "create the application database")
            and not any(x.lower() in error.lower() for old, new in _edit_sides(edit)
                        for x, _ in _changed_words(old, new)))
        if typo or all(_DOC_PATH.search(p) for p in paths) and not doc_named and not dir_named and not building_docs \
                or not withheld and (_comments_only(edit) and (not directive or _trailing_comments_only(edit))
                                     or _logging_only(edit, error) or _metadata_only(edit, error)
                                     or _recased_only(edit, error) or _reformatted_only(edit)) or \
                not quoted_fix and not _gives_the_missing_name(edit, error) and not fixes_named and (
                    any(_named_in(p, sentence) or changed_names & _names_said(sentence) or _folder_named(p, sentence)
                        or _stem_named(p, sentence) for p in paths for sentence in incidental) or
                    any(len(changed_words & _plain_words(sentence)) >= 2 for sentence in incidental) or
                    any(any(_named_in(p, sentence) for p in paths) if sentence in naming else
                        changed_names & _names_said(sentence) for sentence in also) or edit in worded):
            unrelated.extend(paths)
            continue
        kept.append(edit)
    # a code edit nobody named beside edits that were named is a bystander, not the fix (an edit undone since, a
    # reverted attempt at the named test, names nothing)
    # (a change whose content was not stored, to an excluded ``.env``, shows no hunks: nothing shows it undone)
    withheld = {_rel(p, cwd) for e in kept if (e.get("meta") or {}).get("content_withheld")
                for p in e.get("files") or []}
    undone = {path for path, hunks in net_changes(kept, cwd).items() if not hunks} - withheld
    # (an edit whose line the account quotes is named by it: "the beta lane now calls `setup_ci if ENV['CI']`" for
    # the Fastfile, beside the Matchfile it names)
    # (a file is named once: another edit of the file whose quoted line names it is part of it, ``-Xmx2g`` added
    # then taken out again beside the ``-XX:MaxMetaspaceSize=512m`` the account quotes)
    quoting = {_rel(p, cwd) for e in kept if any(span in line for line in _added_lines(e) for span in quoted_code)
               for p in e.get("files") or []}
    named_kept = [e for e in kept if any((_named_in(_rel(p, cwd), error + " " + context)
                                          or _CONFIG_PATH.search(_rel(p, cwd)) or _rel(p, cwd) in quoting)
                                         and _rel(p, cwd) not in undone for p in e.get("files") or [])]
    if named_kept and len(named_kept) < len(kept):
        unrelated.extend(_rel(p, cwd) for e in kept if e not in named_kept for p in e.get("files") or [])
        kept = named_kept
    elif not named_kept and len({f for e in kept for f in e.get("files") or []}) > MAX_UNNAMED_FILES:
        # many files edited, none named by the error, the command or anyone's account: feature work, not a fix
        unrelated.extend(_rel(p, cwd) for e in kept for p in e.get("files") or [])
        kept = []
    return kept, sorted(set(unrelated))


def _stem_named(path: str, sentence: str) -> bool:
    """Whether ``sentence`` names the file at ``path`` by its stem, as its tool's name begins: "the golangci-lint
    timeout" for ``.golangci.yml``."""
    stem = os.path.basename(path).lstrip(".").split(".")[0]
    return len(stem) >= 5 and bool(re.search(rf"(?i)(?<![\w.-]){re.escape(stem)}", sentence))


def _folder_named(path: str, sentence: str) -> bool:
    """Whether ``sentence`` names the folder that holds ``path``, one or many: "the 4.12 Play changelog line" for
    ``fastlane/metadata/android/en-US/changelogs/412.txt``; not another file's path through it, "a typo in
    overlays/README.md" for ``overlays/prod/kustomization.yaml``."""
    return any(re.search(rf"(?i)(?<![\w/.-]){re.escape(folder.rstrip('s'))}s?\b(?!/)", sentence)
               for folder in path.split("/")[-3:-1] if len(folder) >= 6 and folder.isalpha())


def _respells_only(edit: dict) -> bool:
    """Whether an edit only respells words (``Dashbaord`` → ``Dashboard``, ``Teh`` → ``The``): each side has the
    same words but for one or two, each a word of letters a letter or two away from the one it replaced."""
    sides = _edit_sides(edit)
    if not sides:
        return False
    for old, new in sides:
        changed = _changed_words(old, new)
        if not changed:
            return False
        # (words of letters: ``nodejs16`` → ``nodejs20`` is a version, not a spelling)
        if len(changed) > 2 or any(len(x) < 3 or not (x.isalpha() and y.isalpha())
                                   or _spelling_distance(x.lower(), y.lower()) > (1 if len(x) < 8 else 2)
                                   for x, y in changed):
            return False
    return True


_TYPO_SAID = LazyRegex(r"(?i)\b(?:typos?|misspell\w*|spelling (?:mistakes?|errors?))\b")


def _prose_only(edit: dict) -> bool:
    """Whether every line an edit changes is a sentence of prose (``Returns the customer's billing address as a
    hashref.``), no line of code: no quotes, brackets, assignments or sigils, four words or more. (A docstring's or a
    comment's marks are no code: a docstring's first line, ``Ingests FAQ chunks into Milvus.``)"""
    lines = [_DOC_MARKS.sub("", l) for old, new in _edit_sides(edit) for l in _changed_lines(old, new) if l.strip()]
    return bool(lines) and all(not re.search(r"[\"`=(){}\[\]<>$@;]", l)
                               and len(re.findall(r"(?<!\S)[A-Za-z][a-z']*[,.:]?(?!\S)", l)) >= 4 for l in lines)


_DOC_MARKS = LazyRegex(r"""^\s*(?:[rRuUbB]?(?:\"\"\"|''')|#+|//+|/\*+|\*|--)\s*|\s*(?:\"\"\"|'''|\*/)\s*$""")


def _changed_words(old: str, new: str) -> list[tuple[str, str]] | None:
    """The words and signs of ``new`` that differ from those of ``old`` in the same place, as pairs; None when the
    two do not have as many."""
    a, b = re.findall(r"\w+|[^\w\s]", old), re.findall(r"\w+|[^\w\s]", new)
    return [(x, y) for x, y in zip(a, b) if x != y] if len(a) == len(b) else None


def _respelled(edit: dict) -> set[str]:
    """The words an edit respelled, as they were and as they are (``remote-wirte`` → ``remote-write``: both)."""
    return {w for old, new in _edit_sides(edit) for x, y in _changed_words(old, new) or [] for w in (x, y)}


def _spelling_distance(a: str, b: str) -> int:
    """Letters added, dropped, changed or swapped with a neighbour to make ``b`` of ``a`` (Damerau-Levenshtein)."""
    d = [[i + j if i * j == 0 else 0 for j in range(len(b) + 1)] for i in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
    return d[len(a)][len(b)]


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


def _added_lines(edit: dict) -> list[str]:
    return [line for old, new in _edit_sides(edit) for line in new.splitlines() if line not in old.splitlines()]


def _added_code(edit: dict) -> list[str]:
    """The added lines, and those continued over several as the one line they make (``-clonedSourcePackagesDirPath
    ci/SourcePackages \\`` then ``-disableAutomaticPackageResolution \\``: what an account quotes as one)."""
    lines = _added_lines(edit)
    continued = [" ".join(l.strip().rstrip("\\").strip() for l in lines)] if any(
        l.rstrip().endswith("\\") for l in lines) else []
    return lines + continued
