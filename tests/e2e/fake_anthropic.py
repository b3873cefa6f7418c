"""Fake Anthropic Messages API server for driving the real Claude Code CLI offline.

lorebook's own copy (adapted from the shared harness): tests/e2e must not
depend on anything outside the checkout at run time.

stdlib only.  Listens on 127.0.0.1:<port> and implements:

  POST /v1/messages               streaming (SSE) and non-streaming
  POST /v1/messages/count_tokens  -> {"input_tokens": N}
  GET  /v1/models[/<id>]          -> a small model list
  anything else                   -> logged, answered 200 {} (or 404 with --strict)

Control endpoints for a test harness (same port):

  GET  /_harness/requests         -> JSON list of every logged request
  POST /_harness/reset            -> clears the log (body may hold a new scenario)
  POST /_harness/scenario         -> replace the scenario (JSON body, see below)
  GET  /_harness/health           -> {"ok": true}

Scenario (JSON).  Replies to "main loop" requests (requests that carry `tools`)
are chosen statelessly from the conversation the client resends each time:

  step = number of assistant messages already in `messages`

so the first request of a session gets steps[0], the request after the first
tool_result gets steps[1], and so on.  When steps run out, `final_text` is
answered.  A step is a list of content blocks (or one block):

  {"type": "text", "text": "..."}
  {"type": "tool_use", "name": "Bash", "input": {"command": "echo hello"}}

or a dict {"content": [blocks...], "input_tokens": N} to also fake the
usage.input_tokens of that reply (N near the context window -> auto-compact).

`rules` (optional) are checked first: [{"contains": "substr", "steps": [...]}]
picks a different step list when the *first* user message text of the
conversation contains `substr` (handy to select a script from the prompt).

Requests without `tools` (title generation, summaries, compaction, etc.) get
`side_text` (default "OK").  Compaction requests (/compact, auto-compact: the
last user message asks for a summary, "Respond with TEXT ONLY") get
`compact_text`, whether or not they carry tools.  `input_tokens` (optional)
forces the usage.input_tokens reported back, e.g. to provoke auto-compact.

Every request is appended as one JSON line to the log file (--log), including
headers and the full parsed body (system prompt, messages, tools).
"""
import argparse
import json
import os
import re
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

DEFAULT_SCENARIO = {
    "steps": [
        [
            {"type": "text", "text": "I'll run a command."},
            {"type": "tool_use", "name": "Bash",
             "input": {"command": "echo hello", "description": "Print hello"}},
        ],
        [{"type": "text", "text": "The command printed: hello. Done."}],
    ],
    "rules": [],
    "final_text": "Done.",
    "side_text": "OK",
    "compact_text": "<summary>Summary of the conversation so far: the user asked for a command; it ran.</summary>",
    "model": "claude-sonnet-4-5-20250929",
}

LOCK = threading.Lock()
STATE = {"scenario": dict(DEFAULT_SCENARIO), "requests": [], "log": None, "counter": 0}


def _text_of(content):
    if isinstance(content, str):
        return content
    out = []
    for b in content or []:
        if isinstance(b, dict):
            if b.get("type") == "text":
                out.append(b.get("text", ""))
            elif b.get("type") == "tool_result":
                out.append(_text_of(b.get("content")))
    return "\n".join(out)


def _system_text(body):
    s = body.get("system")
    if isinstance(s, str):
        return s
    if isinstance(s, list):
        return "\n".join(b.get("text", "") for b in s if isinstance(b, dict))
    return ""


def _first_user_text(messages):
    for m in messages:
        if m.get("role") == "user":
            return _text_of(m.get("content"))
    return ""


COMPACT_MARKERS = ("Respond with TEXT ONLY", "create a detailed summary of the conversation")


def _last_user_text(messages):
    """Text of the last text block of the last user message."""
    for m in reversed(messages):
        if m.get("role") == "user":
            c = m.get("content")
            if isinstance(c, str):
                return c
            texts = [b.get("text", "") for b in c or [] if isinstance(b, dict) and b.get("type") == "text"]
            return texts[-1] if texts else ""
    return ""


def classify(body):
    msgs = body.get("messages") or []
    last = _last_user_text(msgs)
    low = last.lower()
    # compaction requests (/compact or auto-compact) still carry `tools` in 2.1.x;
    # the instructions are the last text block of the last *user* message
    # (a role:"system" message may follow it).
    if any(m.lower() in low for m in COMPACT_MARKERS) and "continued from a previous conversation" not in low:
        return "compact"
    if body.get("tools"):
        return "main"
    return "side"


def choose_blocks(body):
    sc = STATE["scenario"]
    kind = classify(body)
    msgs = body.get("messages") or []
    if kind == "compact":
        return kind, [{"type": "text", "text": sc.get("compact_text", DEFAULT_SCENARIO["compact_text"])}]
    if kind == "side":
        return kind, [{"type": "text", "text": sc.get("side_text", "OK")}]
    steps = sc.get("steps") or []
    first = _first_user_text(msgs)
    for rule in sc.get("rules") or []:
        if rule.get("contains") and rule["contains"] in first:
            steps = rule.get("steps") or []
            break
    n_assist = sum(1 for m in msgs if m.get("role") == "assistant")
    usage_override = None
    if n_assist < len(steps):
        step = steps[n_assist]
        if isinstance(step, dict) and "content" in step:   # {"content": [...], "input_tokens": N}
            usage_override = step.get("input_tokens")
            step = step["content"]
        blocks = step if isinstance(step, list) else [step]
    else:
        blocks = [{"type": "text", "text": sc.get("final_text", "Done.")}]
    out = []
    for b in blocks:
        b = dict(b)
        if b.get("type") == "tool_use":
            b.setdefault("id", "toolu_" + uuid.uuid4().hex[:24])
            b.setdefault("input", {})
        out.append(b)
    if usage_override:
        out = {"blocks": out, "input_tokens": usage_override}
    return kind + f":step{n_assist}", out


def usage_for(body):
    approx = len(json.dumps(body.get("messages", []))) // 4 + len(_system_text(body)) // 4
    forced = body.get("_forced_input_tokens")  # e.g. 990000 to provoke auto-compact
    return {"input_tokens": int(forced) if forced else max(1, approx), "output_tokens": 10,
            "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "fake-anthropic/1.0"

    def log_message(self, fmt, *args):  # quiet default stderr logging
        if os.environ.get("FAKE_ANTHROPIC_VERBOSE"):
            sys.stderr.write("%s - %s\n" % (self.address_string(), fmt % args))

    # ---------------------------------------------------------------- utils
    def _read_body(self):
        n = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(n) if n else b""
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            raw = self._read_chunked()
        return raw

    def _read_chunked(self):
        data = b""
        while True:
            line = self.rfile.readline().strip()
            size = int(line.split(b";")[0], 16)
            if size == 0:
                self.rfile.readline()
                break
            data += self.rfile.read(size)
            self.rfile.readline()
        return data

    def _record(self, raw, extra=None):
        try:
            body = json.loads(raw) if raw else None
        except Exception:
            body = raw.decode("utf-8", "replace")
        with LOCK:
            STATE["counter"] += 1
            rec = {"n": STATE["counter"], "t": time.time(), "method": self.command, "path": self.path,
                   "headers": {k: v for k, v in self.headers.items()}, "body": body}
            if extra:
                rec.update(extra)
            STATE["requests"].append(rec)
            if STATE["log"]:
                with open(STATE["log"], "a") as f:
                    f.write(json.dumps(rec) + "\n")
        return rec

    def _json(self, code, obj, headers=None):
        data = json.dumps(obj).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("request-id", "req_" + uuid.uuid4().hex[:24])
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)

    # ---------------------------------------------------------------- verbs
    def do_HEAD(self):
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_GET(self):
        path = self.path.split("?")[0]
        if path == "/_harness/health":
            return self._json(200, {"ok": True})
        if path == "/_harness/requests":
            with LOCK:
                return self._json(200, STATE["requests"])
        self._record(b"")
        if path.startswith("/v1/models"):
            model = STATE["scenario"].get("model", DEFAULT_SCENARIO["model"])
            m = {"type": "model", "id": model, "display_name": "Fake Sonnet", "created_at": "2025-01-01T00:00:00Z"}
            if path.rstrip("/") == "/v1/models":
                return self._json(200, {"data": [m], "has_more": False, "first_id": model, "last_id": model})
            return self._json(200, dict(m, id=path.rsplit("/", 1)[-1]))
        if ARGS.strict:
            return self._json(404, {"type": "error", "error": {"type": "not_found_error", "message": "fake: no such endpoint"}})
        return self._json(200, {})

    def do_POST(self):
        path = self.path.split("?")[0]
        raw = self._read_body()
        if path == "/_harness/scenario" or path == "/_harness/reset":
            with LOCK:
                if path == "/_harness/reset":
                    STATE["requests"] = []
                if raw.strip():
                    sc = dict(DEFAULT_SCENARIO)
                    sc.update(json.loads(raw))
                    STATE["scenario"] = sc
            return self._json(200, {"ok": True})
        if path == "/v1/messages/count_tokens":
            rec = self._record(raw, {"kind": "count_tokens"})
            body = rec["body"] if isinstance(rec["body"], dict) else {}
            return self._json(200, {"input_tokens": usage_for(body)["input_tokens"]})
        if path == "/v1/messages":
            try:
                body = json.loads(raw)
            except Exception:
                self._record(raw, {"kind": "bad_json"})
                return self._json(400, {"type": "error", "error": {"type": "invalid_request_error", "message": "bad json"}})
            with LOCK:
                kind, blocks = choose_blocks(body)
            forced = None
            if isinstance(blocks, dict):
                forced, blocks = blocks["input_tokens"], blocks["blocks"]
            elif not kind.startswith("compact"):
                forced = STATE["scenario"].get("input_tokens")
            body["_forced_input_tokens"] = forced
            self._record(raw, {"kind": kind, "reply": blocks, "forced_input_tokens": forced})
            if ARGS.delay:
                time.sleep(ARGS.delay)
            if body.get("stream"):
                return self._stream(body, blocks)
            return self._nonstream(body, blocks)
        self._record(raw)
        if ARGS.strict:
            return self._json(404, {"type": "error", "error": {"type": "not_found_error", "message": "fake: no such endpoint"}})
        return self._json(200, {})

    # ---------------------------------------------------------------- replies
    def _stop_reason(self, blocks):
        return "tool_use" if any(b.get("type") == "tool_use" for b in blocks) else "end_turn"

    def _nonstream(self, body, blocks):
        msg = {"id": "msg_" + uuid.uuid4().hex[:24], "type": "message", "role": "assistant",
               "model": body.get("model") or STATE["scenario"].get("model"),
               "content": blocks, "stop_reason": self._stop_reason(blocks), "stop_sequence": None,
               "usage": usage_for(body)}
        return self._json(200, msg)

    def _stream(self, body, blocks):
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream; charset=utf-8")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        self.send_header("request-id", "req_" + uuid.uuid4().hex[:24])
        self.end_headers()
        self.close_connection = True
        usage = usage_for(body)

        def ev(name, obj):
            self.wfile.write(f"event: {name}\ndata: {json.dumps(obj)}\n\n".encode())
            self.wfile.flush()

        ev("message_start", {"type": "message_start", "message": {
            "id": "msg_" + uuid.uuid4().hex[:24], "type": "message", "role": "assistant",
            "model": body.get("model") or STATE["scenario"].get("model"), "content": [],
            "stop_reason": None, "stop_sequence": None,
            "usage": dict(usage, output_tokens=1)}})
        ev("ping", {"type": "ping"})
        for i, b in enumerate(blocks):
            if b["type"] == "text":
                ev("content_block_start", {"type": "content_block_start", "index": i,
                                           "content_block": {"type": "text", "text": ""}})
                text = b.get("text", "")
                for j in range(0, max(len(text), 1), 40):
                    ev("content_block_delta", {"type": "content_block_delta", "index": i,
                                               "delta": {"type": "text_delta", "text": text[j:j + 40]}})
            elif b["type"] == "tool_use":
                ev("content_block_start", {"type": "content_block_start", "index": i,
                                           "content_block": {"type": "tool_use", "id": b["id"],
                                                             "name": b["name"], "input": {}}})
                ev("content_block_delta", {"type": "content_block_delta", "index": i,
                                           "delta": {"type": "input_json_delta",
                                                     "partial_json": json.dumps(b.get("input", {}))}})
            elif b["type"] == "thinking":
                ev("content_block_start", {"type": "content_block_start", "index": i,
                                           "content_block": {"type": "thinking", "thinking": "", "signature": ""}})
                ev("content_block_delta", {"type": "content_block_delta", "index": i,
                                           "delta": {"type": "thinking_delta", "thinking": b.get("thinking", "")}})
                ev("content_block_delta", {"type": "content_block_delta", "index": i,
                                           "delta": {"type": "signature_delta", "signature": "fake-signature"}})
            ev("content_block_stop", {"type": "content_block_stop", "index": i})
        ev("message_delta", {"type": "message_delta",
                             "delta": {"stop_reason": self._stop_reason(blocks), "stop_sequence": None},
                             "usage": {"output_tokens": usage["output_tokens"]}})
        ev("message_stop", {"type": "message_stop"})


def main():
    global ARGS
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--port", type=int, default=0, help="0 = pick a free port (printed on stdout)")
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--log", default=None, help="append every request as a JSON line here")
    ap.add_argument("--scenario", default=None, help="scenario JSON file")
    ap.add_argument("--port-file", default=None, help="write the chosen port here once listening")
    ap.add_argument("--strict", action="store_true", help="404 on unknown endpoints instead of 200 {}")
    ap.add_argument("--delay", type=float, default=0.0, help="seconds to sleep before each /v1/messages reply")
    ARGS = ap.parse_args()
    if ARGS.scenario:
        sc = dict(DEFAULT_SCENARIO)
        with open(ARGS.scenario) as f:
            sc.update(json.load(f))
        STATE["scenario"] = sc
    STATE["log"] = ARGS.log
    srv = ThreadingHTTPServer((ARGS.host, ARGS.port), Handler)
    srv.daemon_threads = True
    port = srv.server_address[1]
    if ARGS.port_file:
        tmp = ARGS.port_file + ".tmp"
        with open(tmp, "w") as f:
            f.write(str(port))
        os.replace(tmp, ARGS.port_file)
    print(f"fake-anthropic listening on http://{ARGS.host}:{port}", flush=True)
    try:
        srv.serve_forever()
    except KeyboardInterrupt:
        pass


ARGS = None
if __name__ == "__main__":
    main()
