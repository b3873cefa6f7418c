"""A fake `llm` model for tests: no network, and its answers show what it was actually sent.

It reads the whole message chain llm hands it (system prompt, history, this
turn), so a test can tell a primed conversation from a fresh one:

- asked to acknowledge a corpus, it lists the item ids it read;
- asked anything else, it cites every item id in its context whose text
  shares a word with the question, and quotes the previous question;
- given tools, a prompt "TOOL_NAME: {json}" makes it call that tool, then
  report the tool's output.

Register it with ``llm.plugins.pm.register(llm_fake, name="lorebook-fake")``;
a subprocess can do the same before importing ``llm.cli``.
"""
import json
import re

import llm

MODEL_ID = "lorebook-fake"
STOPWORDS = {"the", "a", "an", "and", "or", "of", "to", "in", "on", "what", "which", "why", "how", "did", "does",
             "is", "was", "it", "that", "this", "with", "for", "we", "about", "from"}


def _texts(message):
    return [getattr(part, "text", "") or "" for part in message.parts]


class FakeModel(llm.Model):
    model_id = MODEL_ID
    can_stream = True
    supports_tools = True

    def execute(self, prompt, stream, response, conversation):
        if prompt.tool_results:  # the second step of a tool chain: report what the tools returned
            yield "TOOL RESULTS: " + " | ".join(f"{r.name} -> {r.output}" for r in prompt.tool_results)
            return
        if prompt.tools:  # "TOOL_NAME: {json arguments}" asks for one tool call
            name, _, arguments = (prompt.prompt or "").partition(":")
            response.add_tool_call(llm.ToolCall(name=name.strip(), arguments=json.loads(arguments or "{}")))
            yield f"calling {name.strip()}"
            return
        messages = prompt.messages
        context = "\n".join(t for m in messages for t in _texts(m))
        user_turns = ["\n".join(_texts(m)) for m in messages if m.role == "user"]
        current = user_turns[-1] if user_turns else ""
        ids = list(dict.fromkeys(re.findall(r'id="(#\d+|obs:\d+)"', context)))
        if "Acknowledge that you have read the corpus" in current:
            yield "ACK. "
            yield f"I read {len(ids)} items: {' '.join(ids)}."
            return
        question = prompt._prompt or current  # this turn's own text, without its fragments
        words = {w for w in re.findall(r"[a-z0-9_]+", question.lower()) if w not in STOPWORDS and len(w) > 2}
        cited = []
        for block in re.split(r"(?=<item |<lorebook-note )", context):
            match = re.match(r'<(?:item|lorebook-note) id="(#\d+|obs:\d+)"', block)
            block = re.split(r"</(?:item|lorebook-note)>", block)[0]
            if match and words & set(re.findall(r"[a-z0-9_]+", block.lower())):
                cited.append(match.group(1))
        previous = user_turns[-2].splitlines()[0][:80] if len(user_turns) > 1 else "none"
        yield f"ANSWER turns={len(user_turns)} "
        yield f"cites={' '.join(dict.fromkeys(cited)) or 'nothing'} "
        yield f"previous={previous!r}"


@llm.hookimpl
def register_models(register):
    register(FakeModel())
