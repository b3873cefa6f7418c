"""Reading what the agent and the user said: the sentences of a final message or a prompt, by kind.

Causes, fixes, decisions and attempts that did not help, split where one sentence talks about two problems, and
matched to a problem by the words they share. Text is data here: it is classified, never followed.
"""
from __future__ import annotations

import os
import re

from .commands import invocation_change, parse_command
from .events import EDIT_TOOLS
from .quality import LazyRegex
from .text import held_out, one_line

# a tool doing what it does until told not to: "`CursorPagination` orders by `-created` unless told otherwise"
_OTHERWISE = r"\bunless (?:told|configured|set|given|asked) otherwise"
_CAUSE = LazyRegex(
    r"(?i)\b(?:because|since|caused by|root cause|the cause|due to|(?:still )?expect(?:ed|s)|turn(?:s|ed) out|the (?:problem|issue|bug) (?:was|is)|"
    r"was missing|were missing|is missing|happens when|only when|whenever|so that|which (?:made|caused|broke)|"
    r"(?:(?:is|was|are|were) not|isn't|wasn't|aren't|weren't) (?:installed|set|declared|defined)|"
    r"has no|had no|lacks?|lacked|removed|"
    r"no longer|not on PATH|cannot|can't|could not|couldn't|refuse[sd]?|reject(?:s|ed)?|defaults(?:\s+\S+)?\s+to|needs?|must|has to|have to|never|"
    # ("the flake hardcoded x86_64-linux, so there was simply no devShell"; "the workflow has neither")
    r"may not|there(?:'s| (?:was|is|were|are)) (?:simply |just )?no|hard-?coded|ha(?:s|d|ve) (?:neither|none)\b|"
    # ("… after the repository call has returned, so the Hibernate session is already closed")
    r"(?:is|was|are|were|had) (?:already|been) (?:closed|gone|committed|released|shut down|disposed|consumed|"
    r"detached)\b|"
    # ("change streams only work on a replica set")
    r"only (?:works?|runs?|exists?|applies|is (?:supported|available)|are (?:supported|available)) (?:on|with|in|"
    r"against|inside)\b|"
    # ("Mplus only reads the first 90 characters of each input line")
    r"only (?:reads|takes|sees|keeps|accepts|parses|looks at) the first\b|"
    # ("so the JSONDecoder handed to `responseDecodable` found no `orderId` key")
    r"(?:found|finds|saw|sees|got|gets) no (?:\w+ )?(?:key|field|column|property|attribute|member|module|file|entry|"
    r"binding|handler|route|table|match)(?:e?s)?\b|"
    # ("reaching for `project` at execution time is exactly what the configuration cache forbids")
    r"forbids|forbidden|(?:is|are)(?:n't| not) allowed|do(?:es)?(?:n't| not) allow|"
    # ("Symfony ignores `X-Forwarded-*` headers unless the request comes from a trusted proxy"; a default, "`Cursor
    # Pagination` orders by `-created` unless told otherwise")
    rf"ignores?\b[^.]{{0,60}}\bunless|{_OTHERWISE}|"
    # (where a tool looks for what it lacked: "Bundler reads them from the `BUNDLE_GEMS__…` environment variable")
    r"(?:reads?|takes?|picks? up) (?:them|it|its \w+|their \w+|the \w+)(?: \w+)? from|"
    r"(?:did not|didn't|does not|doesn't) (?:know|publish|expose|declare|define|include|export|mount|have)\b|"
    r"(?:is|was|are|were)(?: not|n't) (?:imported|registered|exported|"
    r"referenced|configured|enabled|loaded|mounted|exposed|in))\b"
    r"|^(?:the )?(?:root )?cause\s*:"  # ("**Cause:** the AppRole method deletes …", a label as the sentence's start)
    r"|原因|因为|由于|導致|导致|ため")
_USER_CAUSE = LazyRegex(r"(?i)\b(?:i think|i suspect|probably|seems? to be|it'?s the|maybe|because|caused by|"
                         r"the cause|due to|(?:pretty|fairly|quite) sure|still (?:pins|points|uses|targets|references))\b|"
                         r"^(?:think|suspect|guess|believe)\b|"  # (_sentences drops the "I")
                         # (what the user changed that it started with: "Since we turned on dynamic partitioning …,
                         # new objects land under …")
                         r"^since (?:we|the|our|then|switching|moving|upgrading|turning|enabling|bumping|migrating)\b|"
                         # (or someone: "Since Priya started building the ingest Lambda image on her new M3 MacBook")
                         r"^since [\w.-]+ (?:started|began|switched|moved|upgraded|changed|enabled|turned|bumped|"
                         r"migrated|came up|came online|went live)\b|"
                         # (or what follows from it: "Both clusters run external-dns … with the same owner id, so they
                         # keep overwriting each other's records"; "The background isolate doesn't share anything with
                         # the main isolate, so the adapters registered in main() don't exist there")
                         r"\w, so (?:they|it|each|both|the)\b")
_DECISION = LazyRegex(r"(?i)\b(?:decided|decision|chose|chosen|opted|went with|going with|prefer(?:red)?|"
                       r"instead of|rather than|trade-?off)\b|决定|選択|选择")
# the why of a choice ("because", "so that", "to avoid")
_REASON = LazyRegex(r"(?i)\b(?:because|since|so that|due to|given that|as (?:it|they|this|that)|to (?:avoid|keep|"
                    r"prevent|allow|support|match)|for (?:its|their) |which (?:is|has|lets|keeps|avoids))\b")
_FIX = LazyRegex(r"(?i)\b(?:fix(?:ed|es)? (?:it |this )?by|the fix|fixed|fixes|pinn?(?:ed|ing)?|sett?(?:ing)?|"
                  r"add(?:ed|ing)|remov(?:ed|ing)|chang(?:ed|ing)|replac(?:ed|ing)|bump(?:ed|ing)?|upgrad(?:ed|ing)|"
                  r"downgrad(?:ed|ing)|renam(?:ed|ing)|mov(?:ed|ing)|configur(?:ed|ing)|now (?:uses|reads|sets|maps|"
                  r"declares|imports|opens|initialises|initializes)|"
                  # ("The service now injects `PLATFORM_ID` and returns early unless …"; not what a run now does:
                  # "it now fails with …", "the suite now passes")
                  r"now (?!(?:fails|passes|errors|crashes|succeeds|shows|prints|looks|says|gives)\b)[a-z]{3,}s\b|"
                  r"switch(?:ed|ing)|us(?:e|ed|ing)|run(?:ning)?|"
                  r"works?|activat(?:e|ed|ing)|(?:ap|pre)pend(?:ed|ing)|insert(?:ed|ing)|(?:re)?install(?:ed|ing)|"
                  r"(?:en|dis)abl(?:ed|ing)|declar(?:ed|ing)|register(?:ed|ing)|export(?:ed|ing)|wrapp(?:ed|ing)|"
                  r"regenerat(?:ed|ing)|revert(?:ed|ing)|increas(?:ed|ing)|rais(?:ed|ing)|lower(?:ed|ing)|"
                  r"escap(?:ed|ing)|quot(?:ed|ing)|re-?parent(?:ed|ing))\b|^(?:the )?fix:|修复|改为|添加|設定")
# an attempt that only moved the error on or failed too ("Annotating the class with @available just pushed the error
# out to every view"; "Just renaming to `churn-classifier/Production` also fails (no stage-tagged versions)")
# (a word may qualify what it moved: "casting with `.as(String)` … just moved the nil failure to runtime")
_MOVED_IT_ON = (r"(?:just|only|merely) (?:pushed|moved|shifted|spread|passed) the (?:[\w-]+ )?(?:error|errors|failure|"
                r"problem)\b|"
                r"\b(?:just|simply|only) \w+ing\b[^.;]*?\balso fail(?:s|ed)")
_DID_NOT_HELP = LazyRegex(r"(?i)\b(?:did(?: not|n't) (?:help|work|fix)|does(?: not|n't) (?:help|work)|"
                           r"no effect|not the (?:cause|fix)|still fail(?:ed|s)?|(?:was|is) not enough|"
                           r"made no difference|(?:did not|didn't) (?:make (?:a|any) difference|change anything)|"
                           r"changed nothing|(?:was|were)(?:n't| not) it\b|"
                           # ("My first try, `@Transactional(readOnly = true)` on the private `loadOrder`, did nothing")
                           r"(?:did|does|achieved) nothing\b(?! (?:wrong|else))|"
                           # ("The release profile, `-fcheck=all` and FPE traps showed nothing — expected for this kind
                           # of bug": the probes tried on the way)
                           r"(?:showed|turned up|caught|revealed) nothing\b(?! (?:wrong|else|new))|"
                           r"(?:was|is)n't enough|not sufficient|got past (?:the|that|this|one) (?:first |initial )?"
                           r"(?:error|failure)|(?:alone|by itself) (?:was|is|did)(?: not|n't)|"
                           # "an empty limits map just swapped the nil pointer for an invalid quantity"
                           r"(?:just|only) (?:swapped|traded) (?:the|one|that|this|it)\b|"
                           + _MOVED_IT_ON + "|"
                           # "switching it back to function only produced ScopeMismatch errors, so I reverted that"
                           # (not what something is made by: "the outputs are only produced by `ci_post_clone.sh`")
                           r"only (?:produced|gave|caused|led to|moved)\b(?! by\b)|"
                           # "running under `TZ=America/New_York` only masked the bug"
                           # ("Setting TUNE_DISABLE_STRICT_METRIC_CHECKING=1 only silenced Tune's check")
                           r"(?:only|just|merely) (?:masked|masks|hid|hides|silenced|silences|suppressed|muted|"
                           r"papered over|worked around)\b|"
                           # "Switching to IVFFlat hit the same limit (reverted)"
                           r"(?:hit|ran into|got|gave|threw|raised|failed with) the (?:very )?same (?:limit|error|"
                           r"failure|wall|problem|exception|message)\b|"
                           r"so (?:I|we) (?:reverted|undid|rolled back|backed out) (?:that|it|this|the change)\b|"
                           # ("…, but then broke the React Native build …, so I removed it again")
                           r"so (?:I|we) (?:removed|dropped|took out) (?:that|it|this|the change) again\b|"
                           # ("Bumping `gpu_memory_utilization` only bought ~20k more tokens, so I put it back to 0.90")
                           r"so (?:I|we) put (?:it|that|this) back\b|"
                           # ("My first try, `.{ .src_path = … }`, doesn't type-check …, so I threw it away")
                           r"so (?:I|we) (?:threw|tossed) (?:it|that|this) (?:away|out)\b|"
                           r"so (?:I|we) (?:discarded|scrapped|abandoned) (?:it|that|this)\b|"
                           r"\bmy first (?:try|attempt|guess|replacement|fix|change|edit|idea)\b[^;]{0,80}?"
                           r"\b(?:does(?:n't| not)|did(?:n't| not)|fail(?:s|ed)?|broke|(?:was|is) wrong)\b|"
                           r"only (?:bought|gained|won|freed) (?:~|about |roughly )?[\d,.]+\w* (?:more|extra)\b|"
                           # "the plain connector jar I tried first doesn't bundle the Kafka client classes"
                           r"(?:that |which )?I tried first\b|"
                           # "Dead ends on the way: re-applying the PyPI packages (no change to apply) and …"
                           r"dead[- ]ends?\b)\b")
# the agent's word that a change was part of the fix, not all of it ("editing composer.json isn't enough — the
# autoloader has to be regenerated")
# ("… didn't change anything on its own": it did not help alone, it is part of the way)
_NOT_ENOUGH = LazyRegex(r"(?i)\b(?:(?:is|was)(?:n't| not) enough|not enough on its own|(?:alone|by itself|on its own) "
                        r"(?:is|was)(?:n't| not)\b|(?:did(?:n't| not)|does(?:n't| not)) (?:help|change anything|fix it|"
                        r"do anything|make a difference) (?:on its own|by itself|alone)\b)")
# the agent's word that a failure was chance, not a defect (it passed on a rerun) ...
_RERUN = (r"(?:second|another|next|later) (?:run|try|attempt|build)\b[^.;]{0,40}?"
          r"\b(?:passed|built|worked|succeeded|went through|was fine|ran fine)\b")
_UNCHANGED = r"\b(?:same command|nothing (?:was )?changed|with no changes?|without (?:any )?changes?|unchanged)\b"
# (not said to be none: "a rerun of the job failed identically, so it isn't flaky")
_FLAKY = LazyRegex(r"(?i)\b(?<!isn't )(?<!not )(?<!wasn't )(?<!never )(?<!no )"
                   # (not Nix's: "Flakes only copy git-tracked files into the store")
                   r"(?:flak(?:y|iness)|(?<![Nn]ix )flakes\b(?!\s+(?:only|copy|copies|see|sees|need|needs|use|uses|"
                   r"read|reads|evaluate|evaluates|require|requires)\b)|"
                   # (not a kind of storage or of a service's life: Solidity's "transient storage", a "transient"
                   # registration in a DI container)
                   r"intermittent(?:ly)?|transient(?:ly)?(?!\s+(?:storage|state|fields?|variables?|keyword|attributes?|"
                   r"services?|registrations?|lifetimes?|scope|dependenc(?:y|ies)))|sporadic(?:ally)?|"
                   r"passe[sd] (?:on|after|when) (?:a |the )?(?:re-?run|re-?try|retry|(?:second|next) (?:run|try|attempt))|"
                   r"(?:started|ran|worked|came up|went through) (?:fine |ok |cleanly )?on the (?:next|second|following) "
                   r"(?:run|try|attempt)|"
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
# ("rejects any update — even an unrelated one like the timeout change": another thing the error hits, no side edit)
_INCIDENTAL = LazyRegex(r"(?i)\b(?:while (?:I was )?(?:in )?(?:there|at it)(?!\s+(?:is|are|was|were)\b)|(?<!even )(?<!even an )(?<!even a )unrelated|"
                        r"incidental(?:ly)?|drive-by|on the side|"
                        r"not (?:part of|related to|needed for) the (?:fix|problem|issue)|(?:is|was|that's|it's) (?:purely |just )?"
                        r"cosmetic|not related|ha[sd] nothing to do with|as (?:you )?(?:asked|requested)|"
                        r"while you(?:'re| are) (?:there|at it)|while (?:I was )?(?:reading|in) (?:the|that) file|"
                        # "While reading variables.tf I also fixed …", "Also fixed the "enviroment" typo in …"
                        # (or a component by its name: "While I was in PostCard I also gave the `fill` image …")
                        # ("While looking around I also fixed a doubled "the the" in …")
                        r"while (?:I was )?looking around\b|"
                        r"while (?:I was )?(?:reading|editing|in|looking at) "
                        r"(?:[\w./-]+\.\w+|[A-Z][a-z]+[A-Z]\w*|it|them|there)\b|"
                        r"also (?:fixed|corrected) (?:a|an|the|two|some) [^.;]{0,40}\b(?:typos?|misspell\w*|spelling (?:mistakes?|errors?))|"
                        r"for consistency(?: with)?|wasn't the fix|was not the fix|harmless|"
                        # ("I also defaulted the destructor … — it isn't what fixed it")
                        r"(?:is|was)(?:n't| not) what fixed it|"
                        # ("Side note: I switched `.editorconfig` to 2-space indentation …")
                        r"side[- ]note|as an aside|by the way|btw|"
                        # ("I also lower-cased the SQL keywords in models/daily_active.sql to match the other models")
                        r"to match the (?:other|rest)|to be consistent with)\b")
# a user's request for another change beside the problem ("Also fix the typo in …", "And please enable X")
_WHILE_THERE = LazyRegex(r"(?i)\bwhile you(?:'re| are) (?:in )?(?:there|at it)\b|"
                         r"\b(?:if|when) you (?:get|have) (?:a )?(?:chance|moment|minute|time)\b")
# ("Please fix build.zig." after the problem is the request itself, not another one)
_ANOTHER_REQUEST = LazyRegex(r"(?i)^\W*(?:also|and also|and please|please also|separately|(?:can|could) you also)\b")
# a suggestion for later ("Worth adding that to the CI image."): no account of what was done
_SUGGESTION = LazyRegex(r"(?i)^(?:(?:it(?:'s| is|'d be| would be|) )?(?:probably |also )?worth (?:adding|doing|"
                        r"considering|putting|making)|you (?:may|might|could|should) (?:want to|consider)|"
                        r"consider (?:adding|pinning|putting|making|moving)|it would be (?:good|nice|wise) to|"
                        r"if you (?:want|'d like|would like|prefer)|(?:optionally|alternatively),|you can also|"
                        # what another environment will need ("Staging needs `migrate` on the next deploy")
                        r".{0,80}?\b(?:on|before|at|with|after) (?:the |your )?next (?:deploy|deployment|release|"
                        r"rollout)|"
                        # ("Set `TRUSTED_PROXIES` in the ECS task definition too, since `.env` isn't used in prod")
                        r".{0,80}?\btoo,? (?:since|as|because)\b|"
                        # what is left for the user ("The proxy is still running … on port 5433 if you need it.")
                        r".{0,160}?\b(?:if|in case) you (?:still )?(?:need|want) (?:it|them|that|this|one)(?=\W*$))\b")
# a word on the credentials seen in the session ("since it was pasted into chat, consider rotating it"): hygiene,
# no account of the problem
_CREDENTIAL_CARE = LazyRegex(r"(?i)\b(?:rotat(?:e|ing)|revok(?:e|ing))\b[^.]{0,40}?\b(?:it|them|the (?:password|"
                             r"token|key|secret|credentials?))\b|\b(?:password|token|secret|credentials?)\b[^.]{0,60}?"
                             r"\b(?:(?:pasted|leaked|exposed) (?:in|into|to)|in plain ?text)\b")
_CHATTER = LazyRegex(r"(?i)^(?:sure|okay|ok|great|done|let me|i'll|i will|now i|here(?:'s| is)|all set|"
                      r"let's|next,? i)\b|^(?:fixed|found it|sorted|solved)(?: it)?\W*$")
# (a check mark that opens or closes the line: "✅ `ruff check`", "`./gradlew :app:desktopTest` ✅ 11 passed")
_STATUS_MARK = LazyRegex(r"^(?:[✅✔✓☑]|\[x\])|^.*[✅✔✓☑](?:\s+\S+){0,3}\s*$")
_FIRST_PERSON = LazyRegex(r"^(?:I|We)\s+(?:have\s+|had\s+|then\s+|also\s+)?(?=\w)")


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


# a list's heading that says its items did not help ("What didn't work:", "Dead ends:")
# (with an aside before its colon: "Things that didn't help, for the record:")
# (and where: "Things that didn't help along the way:")
_HELPLESS_LIST = LazyRegex(r"(?i)^(?:what |things that |the (?:things|attempts) that )?(?:didn't|did not|doesn't) "
                           r"(?:work|help)(?: either| along the way| on the way)?"
                           r"(?:,? (?:for the record|for reference|fwiw))?\s*:$|"
                           r"^(?:dead ends|tried (?:first|and reverted)|(?:failed|abandoned) attempts)"
                           r"(?:,? (?:for the record|for reference|fwiw))?\s*:$")


# a list's heading that says its items are the fix ("**Fix** (docker-compose.yml):", "The fix:")
_FIX_LIST = LazyRegex(r"(?i)^(?:the )?fix(?:es)?(?: \([^()]{1,80}\))?\s*:$")


def _sentences(text: str) -> list[str]:
    # a fenced block is code, line by line, never split inside (``eval $(opam env --switch=. --set-switch)``); after
    # a colon it is what the sentence introduces
    # (and after a sentence left unfinished: "the generator now has" + the block)
    text = re.sub(r"(?m)^([^\n]*?)[ \t]*\n(?:[ \t]*\n)?```[\w-]*\n((?:[^\n`]*\n)+?)```",
                  lambda m: m.group(1).rstrip(":") + (
                      ": " if re.search(r"[:\w`)]$", m.group(1)) and not m.group(1).lstrip().startswith("#")
                      else "\n") + "; ".join(
                      f"`{line.strip()}`" for line in m.group(2).splitlines() if line.strip()), text or "")
    # (then an indented line after a colon, outside a fence: what the sentence introduces)
    text = re.sub(r":[ \t]*\n(?:[ \t]*\n)?(?: {4}|\t)[ \t]*([^\n`]+?)[ \t]*(?=\n|$)", r": `\1`", text)
    # (or after a sentence left unfinished, a line of code alone: "the loop now signs each tool with" + ``codesign
    # --force --options runtime …``; not a list item's indented rest)
    text = re.sub(r"(?m)^((?![ \t]*(?:[-*•]|\d+[.)])\s)[^\n]*\w)[ \t]*\n(?:[ \t]*\n)?(?: {4}|\t)[ \t]*"
                  r"([^\n`]*[-=/(){}$\"'][^\n`]*?)[ \t]*(?=\n[ \t]*\n|\n?$)", r"\1 `\2`", text)
    # (or a line that is one code span: "Plans go through the Makefile, which …:" + "`make plan ENV=staging`")
    text = re.sub(r":[ \t]*\n(?:[ \t]*\n)?[ \t]*(`[^`\n]+`)[ \t]*(?=\n|$)", r": \1", text)
    # a sentence never ends inside a code span (`julia --project=. -e '…'`)
    held, restore = held_out(r"`[^`\n]+`", _drop_proposals(text))
    out = []
    helpless_list = False  # under "What didn't work:", each item of the list is an attempt that did not help
    fix_list = False  # (and under "**Fix** (docker-compose.yml):", a step of the fix, told or reported)
    # (and after "(… up.)"; not after "i.e." or "e.g.")
    for part in re.split(r"(?<=[.!?。！？])(?<!\bi\.e\.)(?<!\be\.g\.)\s+|(?<=[.!?]\))\s+|\n+|(?<=[。！？])",
                         held):
        item = bool(re.match(r"\s*(?:[-*•]|\d+[.)])\s", part))
        part = part.strip(" -*•\t")
        if _HELPLESS_LIST.match(restore(part).replace("**", "")):
            helpless_list, fix_list = True, False
        elif _FIX_LIST.match(restore(part).replace("**", "")):  # (the heading alone states nothing)
            helpless_list, fix_list = False, True
            continue
        elif helpless_list and item and not _DID_NOT_HELP.search(part):
            part = "Didn't help: " + part
        elif fix_list and item and not re.match(r"(?i)fix", part):
            part = "Fix: " + part
        elif not item:
            helpless_list = fix_list = False
        # markdown emphasis is layout, not words: "**e2e**: UsersModule never imported X" reads "e2e: UsersModule …"
        # (outside code: ``**/*IT.java`` keeps its stars)
        # (``__`` only around words, not inside a name: ``app/models/__init__.py`` keeps its underscores)
        part = re.sub(r"(?<![\w/.])__(?=\S)(.+?)(?<=\S)__(?![\w.])", r"\1", part)
        part = restore(re.sub(r"\*\*(?=\S)(.+?)(?<=\S)\*\*", r"\1", part).replace("**", ""))
        label = re.match(r"(?i)^(?:notes?|nb|fyi|tip|heads[- ]up)(?: for (?:next time|the next session|"
                         r"(?:this|the) (?:repo|project|codebase)))?:\s+", part)
        if label:  # "Heads-up for next time: don't call …" reads "Don't call …" (an identifier keeps its case)
            rest = part[label.end():]
            part = rest[:1].upper() + rest[1:] if re.match(r"[a-z]+\b(?![_.(])", rest) else rest
        if _STATUS_MARK.match(part):  # "✅ `ruff check`, `mypy`": a checklist of what passed, no account of the fix
            continue
        if re.match(r"\|.*\|$", part):  # a table's row (``| `services/x.py` | Select approach … |``): no sentence
            continue
        joined = re.sub(r"(?i)^(?:(?:two|three|four|a few|several) (?:separate |different |distinct )?"
                        r"(?:things|problems|issues|bugs|fixes|causes):\s*|(?:and|also|separately|then|so),?\s+)", "",
                        part)
        # ("So the way to run tests here is `earthly +test`." reads "The way …"; an identifier keeps its case)
        part = joined[:1].upper() + joined[1:] if joined != part and re.match(r"[a-z]+\b(?![_.(])", joined) \
            else joined
        # "Done: the broker image now includes the plugin …": the word says it is over; what follows is the account
        # (or "Done, via the repo's `just materialize …` recipe.")
        done = re.match(r"(?i)^(?:done|all set|ok(?:ay)?|great)\s*(?::|—|–| - |,)\s*(?=(?:\S+\s+){3}\S)", part)
        if done:  # (an identifier keeps its case: "read_header now memcpy's …")
            rest = part[done.end():]
            part = rest[:1].upper() + rest[1:] if re.match(r"[a-z]+\b(?![_.(])", rest) else rest
        if len(part) < 4 or _CHATTER.match(part) or _SUGGESTION.match(part) or _CREDENTIAL_CARE.search(part):
            continue
        stripped = _FIRST_PERSON.sub("", part)
        if stripped != part:  # "I added X" reads "Added X"; a sentence that starts with an identifier keeps its case
            part = stripped[:1].upper() + stripped[1:]
        helpless = _DID_NOT_HELP.search(part)
        # "Init has to be run as `terraform init -backend-config=…` — `-reconfigure` alone doesn't help": the way,
        # then what did not help, two statements
        # (not a verdict right after the dash: "`session.flush()` before leaving the block — didn't help" is one)
        dash = re.search(r"\s+[—–]\s+", part[:helpless.start()]) if helpless else None
        if dash and len(part[:dash.start()].split()) >= 4 and dash.end() < helpless.start():
            out += [part[:dash.start()].rstrip(" .") + ".", part[dash.end():]]
            continue
        if helpless:  # "X made no difference, so I put Y back": the revert is the session's story, not the lesson
            # (but what was done instead is the fix: "…, so I put it back to 6g and instead gave the pods
            # `spark.executor.memoryOverhead=4g`")
            so = re.match(r"(?i)^([^,;:]*?),?\s+so (?:I|we) (.*)$", part[helpless.end():])
            instead = so and re.search(r"(?i)\b(?:and|but)\s+(?:then\s+)?instead\s+(?:I\s+|we\s+)?(\w.*)$", so.group(2))
            # (or after the revert: "…, so I reverted that and added `bblanchon/ArduinoJson@^6.21.5` to `lib_deps`")
            instead = instead or so and re.match(r"(?i)(?:reverted|undid|rolled back|backed out|dropped) "
                                                 r"(?:that|it|this|the change)(?: again)?,?\s+and\s+"
                                                 r"(?:then\s+)?(\w.*)$", so.group(2))
            if instead and len(instead.group(1).split()) >= 3:
                out += [(part[:helpless.end()] + so.group(1)).rstrip(" —–-") + ".",
                         instead.group(1)[:1].upper() + instead.group(1)[1:]]
                continue
            # (nor the dash it was set off by: "… didn't help — same "wine is required" — so I put `nsis` back")
            part = part[:helpless.end()] + re.sub(r"(?i)^([^,;:]*?),?\s+so (?:I|we) .*$",
                                                  lambda m: m.group(1).rstrip(" —–-") + ".", part[helpless.end():])
            # (and the brackets it was said in closed: "(setting it there changed nothing, so I reverted it)")
            if part.count("(") > part.count(")") and part.endswith("."):
                part = part[:-1] + ")" * (part.count("(") - part.count(")")) + "."
        # (never inside quoted code: ``"type": "module"``)
        masked = re.sub(r"`[^`]*`", lambda m: "_" * len(m.group(0)), part)
        split = re.search(r"[:;]\s+|,\s+(?:because|since|as)\s+", masked[helpless.end():]) if helpless else None
        if split and split.group(0).startswith(":") and (len(part[:helpless.end()].split()) <= 3 or re.match(
                r"(?i)(?:what|things|the (?:things|attempts)|attempts)(?: that)? (?:(?:was|were)(?:n't| not) it|"
                r"did(?:n't| not) (?:help|work))$", part[:helpless.end()].strip())):
            split = None  # "**Didn't work:** polyfilling with `whatwg-fetch` …": a label, then what did not help
            # (or "Things that were not it: downgrading pyarrow (`pyarrow<13` …)", "Things that didn't help along
            # the way: `makeCacheWritable = true` (…) and `nix flake update nixpkgs` (…)")
        if split:  # "X did not help: the cause was Y" is two statements, an attempt and a cause
            head = part[:helpless.end() + split.start()].rstrip(" :;,") + "."
            tail = part[helpless.end() + split.end():]
            if len(tail.split()) < 3:  # ("…; reverted.": the session's story, no statement of its own)
                out.append(head)
                continue
            out += [head, tail[:1].upper() + tail[1:] if re.match(r"[a-z]+\b(?![_.(])", tail) else tail]
            continue
        # "I set `asyncio_mode = "auto"` (and added `--strict-markers` while I was there)", "I added `dependsOn`, and
        # included `.next/**` in the outputs while I was there": the aside is by the by, the rest is the account
        # (never a bracket or a semicolon inside quoted code: ``#[serde(rename_all = "camelCase")]``)
        blanked = re.sub(r"`[^`]*`", lambda m: "`" + "_" * (len(m.group(0)) - 2) + "`", part)
        found = re.search(r"\s*\(((?:[^()]|\([^()]*\))*)\)", blanked) or re.search(r"(?:,\s+and|;|\s+[—–]\s+and)\s+(.*)$",
                                                                             blanked)
        start, end = (found.start(), found.end()) if found else (0, 0)
        aside = part[found.start(1):found.end(1)] if found else ""
        # (a clause that did something, quoted: not one that only says so of the rest, "I set colors="true"; that's
        # cosmetic", "… in `tsconfig.lib.json`; unrelated to the tests")
        # (or one that did something unquoted after a fix that is: "… — `events_utc.sort(…)` — and renamed the
        # intermediate frame while I was there")
        if aside and _INCIDENTAL.search(aside) and not _INCIDENTAL.search(part[:start] + part[end:]) \
                and ("`" in aside or "`" in part[:start] and re.match(r"\s+[—–]\s+and\s+[a-z]+ed\b", blanked[start:])) \
                and not re.match(r"(?i)(?:and\s+)?(?:that|it|this|which|these|those|both|the (?:change|edit))\b",
                                 aside.strip()):
            rest = re.sub(r"^(?:and|also)\s+", "", aside.strip()).rstrip(".")
            out += [(part[:start] + part[end:]).rstrip(" .") + ".", rest[:1].upper() + rest[1:] + "."]
            continue
        colon = part.find(": ")
        # "The build error was unrelated to that: X lacked Y" (not a label: "Unrelated: `npm run typecheck` fails")
        if colon > 0 and _INCIDENTAL.search(part[:colon]) and not _INCIDENTAL.search(part[colon + 2:]) \
                and len(part[colon + 2:].split()) >= 6 and len(part[:colon].split()) >= 3:
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
    sentences, of_causes = [], []
    for sentence in said["all"]:
        if sum(1 for words in chain_words if _relevance(sentence, words)) >= 2:
            clauses = [c.strip(" ,;").rstrip(".") for c in _CLAUSE.split(sentence) if c.strip(" ,;.")]
            if len(clauses) > 1:
                clauses = [(c[:1].upper() + c[1:] if re.match(r"[a-z]+\b(?![_.(])", c) else c) + "." for c in clauses]
                sentences += clauses
                if sentence in said["cause"]:
                    of_causes += clauses[1:]
                continue
        sentences.append(sentence)
    out = dict(_classified(sentences), text=said.get("text", ""))
    # (a clause keeps the label its sentence opened with: "Root cause: change streams need a replica set, and the
    # `mongo` service ran a standalone mongod" gives two causes, whatever cue word the second has)
    out["cause"] += [c for c in of_causes if not any(c in out[key] for key in ("cause", "fix", "did_not_help"))]
    return out


def _code_spans(text: str) -> list[str]:
    """What ``text`` quotes as code, in backticks, one line each (```uv run pytest```), and the lines of its fenced
    blocks (```` ```sql ```` then ``SELECT pg_create_logical_replication_slot('datastream_slot', 'pgoutput');``)."""
    # (pairs first, then the length: a short span, `dq`, must not pair its closing backtick with the next one)
    blocks = re.findall(r"(?ms)^[ \t]*```[\w+-]*[ \t]*\n(.*?)^[ \t]*```", text or "")
    # (less a comment after the code: ``gh auth refresh -h github.com -s read:packages   # once``)
    fenced = [" ".join(re.sub(r"\s+#\s.*$", "", line).split()) for block in blocks for line in block.splitlines()]
    return [span for span in re.findall(r"`([^`\n]*)`", text or "") + fenced if 3 <= len(span) <= 200]


def _prose(sentence: str) -> str:
    """A sentence without its quoted code and the messages it quotes: a cue word inside `uv run uvicorn …` or
    "Can't reach database server" is not the agent's account."""
    return " ".join(re.sub(r"`[^`]*`|\"[^\"]*\s[^\"]*\"|“[^”]*\s[^”]*”", " ", sentence).split())


# what the agent could not check ("I couldn't build it here (no aarch64 builder)"): a limit of the session, no cause
_UNCHECKED = LazyRegex(r"(?i)^(?:I )?(?:could not|couldn't|can't|cannot|was unable to|wasn't able to) (?:run|build|"
                       r"test|check|reproduce|try|verify|exercise)\b.{0,60}?\b(?:here|locally|on this machine|in this "
                       r"(?:sandbox|environment|container))\b")
# what the agent checked, under its label ("Checked: the framework had an `__LLVM` segment before, none after"): the
# validation, no cause
_CHECKED_LABEL = LazyRegex(r"(?i)^\W*(?:checked|verified|tested|verification|validation|validated)\W*:")


# what the agent says it undid, alone ("Reverted it."): the session's story, no fix
_PUT_BACK = LazyRegex(r"(?i)^(?:and |so |then )?(?:reverted|undid|backed out|rolled back|put back|removed)"
                      r"(?: (?:it|that|this|them|those|the change|that change|the edit|that edit))?(?: again)?\.?$")


# what the agent says it left undone ("I didn't run the `bundle config set --global` the error suggests"): no fix
_NOT_DONE = LazyRegex(r"(?i)^(?:I )?(?:didn't|did not|haven't|have not|never|deliberately didn't) (?:run|use|apply|"
                      r"change|touch|add|set|follow|take)\b")


# a caveat for later, not the cause ("When duckdb gets bumped, the vendored extension has to be rebuilt too")
_LATER = LazyRegex(r"(?i)^(?:when|if|whenever|once|next time|in (?:the )?future,?)\b[^,]{0,80}?\b(?:gets?|is|are|get) "
                   r"(?:bumped|upgraded|updated|changed|renamed|moved|added|released|rotated|regenerated)\b|"
                   # ("…, so you only need the `rs.initiate` again after a `docker compose down -v`")
                   r"\byou(?:'ll| will)? (?:only )?(?:need|have) (?:to (?:\w+ )?)?(?:\S+ ){1,6}?again "
                   r"(?:after|if|when)\b")


# a verdict alone, no account of what was done: "Restore drill works.", "Works now.", "Everything passes again."
_VERDICT = LazyRegex(r"(?i)^(?:[\w'-]+ ){0,3}(?:works|worked|is working|passes|passed)(?: now| again| fine)?[.!]?$")


# the step the agent marks as the one that mattered: "`sync_replication_slots = on` — this is what actually starts
# the slot sync worker", "the actual fix was …", "what really fixed it"
_KEY_FIX = LazyRegex(r"(?i)\b(?:this|that|which) (?:is|was) what (?:actually|really) \w+|\bthe (?:actual|real) fix\b|"
                     r"\bwhat (?:actually|really) (?:fixed|mattered|did it)\b")


def _classified(sentences: list[str]) -> dict:
    said = [s for s in sentences if not s.startswith("#")]  # (a heading, "## Root cause", states nothing itself)
    return {
        "cause": [s for s in said if _CAUSE.search(_prose(s)) and not _DID_NOT_HELP.search(s)
                  and not _UNCHECKED.search(s) and not _CHECKED_LABEL.match(s) and not _LATER.search(_prose(s))],
        "fix": [s for s in said if (_FIX.search(_prose(s)) and not _CAUSE.search(_prose(s)) or _KEY_FIX.search(s))
                and not _DID_NOT_HELP.search(s) and not _NOT_DONE.search(s) and not _PUT_BACK.match(s)
                and not _VERDICT.match(s)],
        "decision": [s for s in said if _DECISION.search(s)],
        # (and the attempt such a verdict points back to: "… so I added `accept(ContentType.Application.Json)` to the
        # request." before "That didn't help — …")
        "did_not_help": [s for n, s in enumerate(said) if _DID_NOT_HELP.search(s) or n + 1 < len(said)
                         and re.match(r"(?i)(?:that|this|it)\s+(?:didn't|did not|doesn't|does not|made no|changed "
                                      r"nothing)\b", said[n + 1]) and _DID_NOT_HELP.search(said[n + 1])
                         and "`" in s],
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


# what a step does, told after it ("… drops the extra keys", "… keeps them out"): a verb in -s before an object
# (or a name: "Adding `--save_main_session` makes Beam pickle the main session")
_WHAT_IT_DOES = LazyRegex(r"\s+(?!is\b|was\b|has\b|does\b)[a-z]+s\s+(?:(?:the|it|them|this|that|every|all|any|each|"
                          r"its|those|these)\b|[A-Z][\w.-]*\b)")


def _stated_fix_clause(fixes: list[str], fix_words: set[str]) -> str | None:
    """The agent's own words for the fix ("Added `x = 1` under [http]"), in the imperative, when they name it."""
    for sentence in fixes:
        clause = re.split(r";\s+|\.\s*$", sentence)[0].strip()
        clause = re.sub(r"\s+(?:fixe[sd]|solve[sd]|resolve[sd]) (?:it|this|the \w+(?: \w+)?)$", "", clause)
        clause = re.sub(r"\s+(?:makes?|made|gets?|got|lets?) (?:the |it |them )?[\w -]{0,30}?(?:pass|work|succeed|"
                        r"green)\w*$", "", clause)  # "Running X first makes the sdk build pass"
        clause = re.sub(r"\s+(?:gives|gave|yields|shows) [\w/ -]{0,30}?(?:pass\w*|green|ok)$", "", clause)
        # ("Running `X` gives 14/14 passing")
        first, _, rest = clause.partition(" ")
        verb = _PAST.get(first.lower())
        if first.lower().endswith("ing"):  # "Setting `X` on the sink drops the extra keys": the step, not what it does
            rest = next((rest[:m.start()] for m in _WHAT_IT_DOES.finditer(rest) if not rest[:m.start()].count("`") % 2),
                        rest)
        if re.match(r"(?i)(?:it|them|this|that|one)\b", rest):
            continue  # "Added it before `add_subdirectory(tests)`": what "it" is, the change says, not the clause
        if re.search(r"(?i)\bto (?:list|check|see|inspect|look|find|confirm|verify|debug|diagnose|print|show)\b", rest):
            continue  # "I used a short-lived impersonated access token to list the policies": a look, not the fix
        if verb and len(clause) <= 90 and ("`" in clause or _tokens(clause) & fix_words) \
                and not re.search(r"(?i)\bfail(?:s|ed)?\b|\berrors? (?:with|out)\b", _prose(clause)):
            return f"{verb} {rest}"
    return None


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
            # (and the names of the files it names: "Renamed it to `V2__create_orders.sql`" after ``mv …/V2_create_orders.sql
            # …/V2__create_orders.sql``)
            target = change.get("target") or ""
            parts += [target] + [os.path.basename(w.rstrip("/")) for w in target.split() if "/" in w.rstrip("/")]
    resolved = chain["resolved_by"]["target"]
    parts += invocation_change(chain["failures"][-1]["target"], resolved) + parse_command(resolved)["prep"]
    if chain["kind"] == "same_job":
        parts.append(resolved)
    return _tokens(" ".join(parts))


def _plain_words(text: str) -> set[str]:
    """The words of ``text`` split at every non-alphanumeric (``eas-cli`` → ``eas``, ``cli``), lowercased."""
    return {w for w in re.split(r"[^a-z0-9]+", text.lower()) if len(w) >= 3}


def undated(text: str) -> str:
    """``text`` less when something began, a day that is past once a note is read ("bumped Mathlib … this morning and
    since then CI times out")."""
    return re.sub(r"(?i)\s+\b(?:this (?:morning|afternoon|evening|week)|today|yesterday|last (?:night|week))\b", "",
                  text)


def _users_diagnosis(sentence: str) -> str:
    """"The user's diagnosis: Firefox wants background.scripts …" from "I think Firefox wants …"."""
    start = re.search(r"(?i)\b(?:i|we)\s+(?:think|suspect|guess|believe)\b", sentence)  # (after a closing quote)
    said = undated(re.sub(r"(?i)^(?:(?:i|we)\s+)?(?:think|suspect|guess|believe)\s+(?:that\s+)?", "",
                          sentence[start.start():] if start else sentence))
    return f"The user's diagnosis: {one_line(said[:1].upper() + said[1:], 200)}"


# "This repo requires `# typed: strict` on every file under app/": a rule of the project, stated as one
_CONVENTION = LazyRegex(r"(?i)\b(?:this|the|our) (?:(?:mono)?repo(?:sitory)?|project|codebase|team|workspace)(?:'s \w+)? "
                        r"(?:requires?|needs|expects|enforces|wants|insists on|uses)\b|"
                        r"\bin this (?:(?:mono)?repo(?:sitory)?|project|codebase|workspace)\b")


# a tool's default the fix had to override: "`CursorPagination` orders by `-created` unless told otherwise"
_DEFAULT_STATED = LazyRegex(rf"(?i){_OTHERWISE}\b|\bby default\b|\bdefaults? to\b")


def _convention_stated(chain: dict, said: dict, cwd: str | None) -> bool:
    """Whether the agent states the fix of a failure in its own new code as a rule of the project, or as a tool's
    default it had to override: then the session's clean-up taught something a next session needs ("every file
    under app/ must be `# typed: strict`"; "`CursorPagination` orders by `-created` unless told otherwise, and `Event`
    has `created_at`")."""
    words = fix_words_of(chain, cwd)
    rules = [re.split(r",\s*(?:so|which|and|but)\b|;\s|\s[—–]\s", s)[0] for s in said["all"] if _CONVENTION.search(s)]
    defaults = [s for s in said["all"] if _DEFAULT_STATED.search(s) and "`" in s]
    return any(_CONVENTION.search(rule) and _relevance(rule, words) for rule in rules) \
        or any(_relevance(s, words) >= 2 for s in defaults)  # the rule's own words
