"""An llm model's take on a session's record (run detached: ``lorebook refine``)."""
from __future__ import annotations

import json
import os
import re

from .candidates import session_candidates
from .decision import _new_evidence, _union, index_notes, write_memory
from .record import normalize_memory, record_schema_errors, redacted
from .store import Store
from .text import bounded, one_line
from .writeback import SOURCE_AGENT


def parse_model_json(text: str):
    """The JSON object in a model's answer (code fences and chatter around it tolerated)."""
    text = (text or "").strip()
    fenced = re.search(r"```(?:json)?\s*(\{.*\})\s*```", text, re.S)
    if fenced:
        text = fenced.group(1)
    start, end = text.find("{"), text.rfind("}")
    if start == -1 or end <= start:
        raise ValueError("no JSON object in the answer")
    return json.loads(text[start:end + 1])


def refine_prompt(store: Store, session_id: str) -> tuple[str, list[dict], set[int]]:
    """The prompt (templates/writeback_prompt.md) for this session, its candidates, and its observation ids."""
    from .render import template

    session = store.get_session(session_id) or {}
    observations = store.session_observations(session_id)
    prompts = store.session_prompts(session_id)
    message = session.get("last_assistant_message") or ""
    candidates, _ = session_candidates(store, session_id, message)
    lines = []
    for o in observations[-60:]:
        excerpt = one_line(o.get("error_text") or o.get("body") or "", 300)
        lines.append(f"[{o['id']}] {o['tool']} {one_line(o.get('target'), 160)} -> {o['outcome']}: {excerpt}")
    draft = {k: v for k, v in candidates[0].items() if not k.startswith("_")} if candidates else None
    prompt = template("writeback_prompt.md").format(
        task=one_line(prompts[0]["text"], 400) if prompts else "(not recorded)",
        observations="\n".join(lines) or "(none)", final_message=bounded(message, 2000) or "(none)",
        draft=json.dumps(draft, ensure_ascii=False, indent=1) if draft else "(no draft: lorebook found no lesson)")
    return prompt, candidates, {o["id"] for o in observations}


def refine_with_model(store: Store, session_id: str, model=None, *, source_agent: str = SOURCE_AGENT) -> dict:
    """Ask an ``llm`` model (``LOREBOOK_MODEL``) for a better record; on any failure keep the deterministic one.

    A note the Stop hook already created is revised in place (its old text kept
    in note_revisions); otherwise the model's lesson goes through preflight in
    automatic mode under the run key ``<session>:model``.
    """
    from .redact import redact

    try:
        if model is None:
            from .llm_bridge import get_model

            model = get_model(os.environ.get("LOREBOOK_MODEL") or None)
        prompt, candidates, observation_ids = refine_prompt(store, session_id)
        answer = parse_model_json(model.prompt(prompt).text())
        lesson = answer.get("lesson") if isinstance(answer, dict) and "lesson" in answer else answer
        if lesson is None:
            return {"outcome": "kept", "reason": "the model found no lesson; the deterministic decision stands"}
        errors = record_schema_errors(lesson, observation_ids)
        if errors:
            return {"outcome": "fallback", "reason": "; ".join(errors)}
        for item in lesson["evidence"]:
            item["source"] = f"observation {item['observation_id']}"
            item["quote"] = redact(item["quote"])
    except Exception as ex:  # unknown model, network, bad JSON: the deterministic candidate stands
        return {"outcome": "fallback", "reason": f"{type(ex).__name__}: {ex}"}
    model_id = getattr(model, "model_id", "model")
    created = None
    for candidate in candidates:
        receipt = store.get_receipt(source_agent, f"{session_id}:{candidate['_run_key']}")
        if receipt and receipt.get("note_id"):
            created = receipt["note_id"]
            break
    record = normalize_memory(lesson)
    if created is not None:
        from .quality import run_checks, verdict

        accepted, blocking, _ = verdict(run_checks(record), "auto")
        if not accepted:
            return {"outcome": "fallback", "reason": "the model's record failed preflight: "
                    + ", ".join(f.code for f in blocking)}
        note = store.get_note(created)
        fields = {k: v for k, v in redacted(record).items() if k in (
            "title", "summary", "kind", "trigger", "change", "conditions", "scope")}
        fields["evidence"] = [*(note.get("evidence") or []), *_new_evidence(note, record)]
        for field in ("files", "error_signatures", "tags"):
            fields[field] = _union(note.get(field), record.get(field))
        validation = record["validation"]
        fields["validation"] = {"passed": _union((note.get("validation") or {}).get("passed"), validation["passed"]),
                                "not_performed": validation["not_performed"]}
        store.update_note(created, fields, f"refined by {model_id}")
        index_notes(store, [created])  # the edit made its vectors stale: re-embed now, not at the next Stop
        return {"outcome": "refined", "note_id": created}
    result = write_memory(store, record, mode="auto", source_agent=source_agent,
                          source_run_key=f"{session_id}:model", session_id=session_id)
    return {"outcome": result["decision"], **result}
