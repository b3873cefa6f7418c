"""``lorebook ui``: a local web viewer to see and curate what the agent remembers.

A small server on the standard library (``http.server``): no extra package to
install, nothing imported on the hook path, and every change goes through
lorebook's own code (``relations.forget``/``supersede``/``mark_stale``,
``Store.update_note``), so that forgetting reaches the search index, the
vectors and every corpus. Safe by default: it binds to loopback and answers
only to a loopback ``Host`` (no DNS rebinding); a non-loopback bind needs a
token; every change is a POST carrying the server's CSRF token; stored text
is escaped everywhere and a Content-Security-Policy forbids inline scripts,
so a note holding ``<script>`` stays text. There is no SQL console.
"""
from __future__ import annotations

import json
import secrets
from http import HTTPStatus
from http.cookies import SimpleCookie
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Callable
from urllib.parse import parse_qs, urlencode, urlsplit

from .errors import LorebookError, NoteNotFound
from .store import NOTE_KINDS, NOTE_STATUSES, Store
from .ui_html import Safe, esc, field, html_list, join, options, template, tpl

LOOPBACK = ("127.0.0.1", "localhost", "::1")
GIT_TIMEOUT_S = 1.0  # the preview may wait longer for `git status` than the hook (0.08 s): nobody is blocked
PAGE_SIZE = 50
TOKEN_COOKIE = "lorebook_ui_token"
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
       "form-action 'self'; frame-ancestors 'none'; base-uri 'none'")


class Forbidden(LorebookError):
    "The request is not allowed (read-only, a bad CSRF token, an unknown host)"


def page(title: str, body: Safe, app: "UI") -> Safe:
    nav = join(tpl('<a href="{href}">{label}</a>', href=href, label=label) for href, label in (
        ("/", "Notes"), ("/sessions", "Sessions"), ("/next", "Next session"), ("/projects", "Projects"),
        ("/corpora", "Corpora"), ("/stats", "Stats")))
    mode = Safe(' <span class="badge">read-only</span>') if app.read_only else Safe("")
    return tpl(template("page.html"), title=title, nav=nav, mode=mode, body=body)


# --- the application ---------------------------------------------------------------------------

class UI:
    """The viewer's pages (each returns its HTML) and its curation actions; ``Handler`` routes requests here."""

    def __init__(self, db_path=None, *, read_only: bool = False, token: str | None = None):
        self.db_path = db_path
        self.read_only = read_only
        self.token = token  # required on every request when set (a non-loopback bind)
        self.csrf = secrets.token_urlsafe(32)
        self.allowed_hosts: set[str] = set()

    def store(self) -> Store:
        return Store(self.db_path)

    def csrf_field(self) -> Safe:
        return tpl('<input type="hidden" name="csrf" value="{t}">', t=self.csrf)

    def action(self, url: str, label: str, extra: Safe = Safe(""), cls: str = "") -> Safe:
        if self.read_only:
            return Safe("")
        return tpl('<form method="post" action="{url}" class="inline {cls}">{csrf}{extra}'
                   '<button type="submit">{label}</button></form>', url=url, cls=cls, csrf=self.csrf_field(),
                   extra=extra, label=label)

    # --- pages ---------------------------------------------------------------------------------

    def notes_page(self, q: dict) -> Safe:
        store = self.store()
        try:
            project = q.get("project") or None
            kind = q.get("kind") if q.get("kind") in NOTE_KINDS else None
            scope = q.get("scope") if q.get("scope") in ("project", "global") else None
            status = q.get("status", "active")
            status = status if status in NOTE_STATUSES else None
            verified = {"yes": True, "no": False}.get(q.get("verified", ""))
            text = (q.get("q") or "").strip()
            offset = max(int(q.get("offset") or 0), 0) if str(q.get("offset") or "0").isdigit() else 0
            warnings: list[str] = []
            if text:
                from .search import search

                result = search(store, text, limit=PAGE_SIZE, project_key=project, all_projects=project is None,
                                kind=kind, statuses=(status,) if status else NOTE_STATUSES)
                warnings = result["warnings"]
                hits = [h for h in result["hits"] if (scope is None or h["note"]["scope"] == scope)
                        and (verified is None or bool(h["note"]["verified"]) == verified)]
                notes = [h["note"] for h in hits]
                why = {h["note"]["id"]: h["why"] for h in hits}
                total = len(notes)
                heading = tpl('{n} {notes} match “{q}” ({mode} search)', n=total, notes="note" if total == 1 else "notes",
                              q=text, mode=result["mode"])
            else:
                notes, total = store.browse_notes(project_key=project, kind=kind, scope=scope, status=status,
                                                  verified=verified, limit=PAGE_SIZE, offset=offset)
                why = {}
                heading = tpl("{n} {notes}", n=total, notes="note" if total == 1 else "notes")
            projects = [p["key"] for p in store.list_projects()]
        finally:
            store.close()
        form = tpl(template("notes_filter.html"), q=text,
                   projects=options(projects, project), kinds=options(NOTE_KINDS, kind),
                   scopes=options(("project", "global"), scope),
                   statuses=options(NOTE_STATUSES, status, blank="every status"),
                   verified=options((("yes", "verified"), ("no", "not verified")), q.get("verified")))
        cards = join(self.note_summary(n, why.get(n["id"])) for n in notes)
        more = Safe("")
        if not text and offset + PAGE_SIZE < total:
            more = tpl('<p><a href="/?{qs}">Next {n} →</a></p>', n=PAGE_SIZE,
                       qs=urlencode(dict(q, offset=offset + PAGE_SIZE)))
        warn = join(tpl('<p class="warning">{w}</p>', w=w) for w in warnings)
        body = tpl('{form}{warn}<h2 id="count">{heading}</h2><div id="notes">{cards}</div>{more}',
                   form=form, warn=warn, heading=heading, cards=cards or Safe("<p>No notes.</p>"), more=more)
        return page("Notes", body, self)

    def note_summary(self, note: dict, why: list[str] | None) -> Safe:
        return tpl('<article class="card note-row" data-note="{id}"><h3><a href="/note/{id}">#{id} {title}</a></h3>'
                   '<p class="meta">{kind} · {scope} · {status}{verified} · {project}</p><p>{summary}</p>{why}'
                   '</article>', id=note["id"], title=note["title"], kind=note["kind"], scope=note["scope"],
                   status=note["status"], verified=" · verified" if note["verified"] else "",
                   project=note.get("project_key") or "no project", summary=note.get("summary") or "",
                   why=tpl('<p class="why">why: {w}</p>', w="; ".join(why)) if why else Safe(""))

    def note_page(self, note_id: int) -> Safe:
        from .provenance import provenance, provenance_labels
        from .render import validation_text

        store = self.store()
        try:
            note = store.get_note(note_id)
            revisions = store.note_revisions(note_id)
            relations = store.note_relations(note_id)
            related = store.get_notes({r["from_note"] for r in relations} | {r["to_note"] for r in relations})
        finally:
            store.close()
        evidence = []
        for item in note.get("evidence") or []:
            if isinstance(item, dict):
                link = Safe("")
                if item.get("observation_id") and note.get("session_id"):
                    link = tpl(' <a href="/session/{s}#obs-{o}">observation {o}</a>', s=note["session_id"],
                               o=item["observation_id"])
                evidence.append(tpl("{quote} <span class=\"meta\">{source}</span>{link}", quote=item.get("quote"),
                                    source=item.get("source") or "", link=link))
            else:
                evidence.append(item)
        prov = provenance(note)
        labels = provenance_labels(prov)
        session_link = (tpl('<a href="/session/{s}">{label}</a>', s=prov["session_id"], label=labels["source"])
                        if prov["session_id"] else esc(labels["source"]))
        rels = []
        for r in relations:
            other = r["to_note"] if r["from_note"] == note_id else r["from_note"]
            verb = r["kind"] if r["from_note"] == note_id else f"{r['kind']} (by)"
            rels.append(tpl('{verb} <a href="/note/{o}">#{o} {t}</a>', verb=verb, o=other,
                            t=(related.get(other) or {}).get("title", "")))
        revs = [tpl("revision {n} · {when} · {reason}: “{title}” — {summary}", n=r["revision"], when=r["created_at"],
                    reason=r["reason"], title=(r.get("snapshot") or {}).get("title", ""),
                    summary=(r.get("snapshot") or {}).get("summary", "")) for r in revisions]
        body = tpl(
            '<article class="card note" id="note-{id}"><h2>#{id} {title}</h2>'
            '<p class="meta">{kind} · {scope} · {status} · {verified} · {project} · updated {updated}</p>'
            '{flags}{summary}{trigger}{change}{conditions}{evidence}{validation}{files}{sigs}'
            '<div class="field"><h3>Provenance</h3><div class="text">{agent_session} · {obs} observation(s) · '
            'created {created}</div></div>{relations}{revisions}</article>{curation}',
            id=note_id, title=note["title"], kind=note["kind"], scope=note["scope"], status=note["status"],
            verified=labels["verified"], project=note.get("project_key") or "no project", updated=note["updated_at"],
            flags=field("Quarantined: never injected; its text tries to steer an agent",
                        html_list([f.get("message", "") for f in note.get("flags") or []]))
            if note["status"] == "quarantined" else Safe(""),
            summary=field("Summary", note.get("summary")), trigger=field("Trigger", note.get("trigger")),
            change=field("Cause and fix", note.get("change")), conditions=field("When", note.get("conditions")),
            evidence=field("Evidence", html_list(evidence)),
            validation=field("Validation", validation_text(note.get("validation"))),
            files=field("Files", ", ".join(map(str, note.get("files") or []))),
            sigs=field("Error signatures", html_list(note.get("error_signatures") or [])),
            agent_session=session_link, obs=len(prov["observation_ids"]), created=prov["created_at"],
            relations=field("Relations", html_list(rels)), revisions=field("Revisions", html_list(revs)),
            curation=self.curation(note))
        return page(f"#{note_id} {note['title']}", body, self)

    def curation(self, note: dict) -> Safe:
        if self.read_only or note["status"] == "forgotten":
            return Safe("")
        nid = note["id"]
        edit = tpl(template("note_edit.html"), url=f"/note/{nid}/edit", csrf=self.csrf_field(),
                   title=note["title"], summary=note.get("summary") or "",
                   scopes=options(("project", "global"), note["scope"], blank="scope"))
        supersede = tpl('<label>by note # <input name="new_id" size="6" required></label>')
        return tpl('<section class="card curation"><h2>Curate</h2>{verify}{stale}{supersede}'
                   '<a class="danger" href="/note/{id}/forget">Forget…</a>{edit}</section>',
                   verify=Safe("") if note["verified"] else self.action(f"/note/{nid}/verify", "Mark verified"),
                   stale=self.action(f"/note/{nid}/stale", "Mark stale") if note["status"] == "active" else Safe(""),
                   supersede=self.action(f"/note/{nid}/supersede", "Supersede", supersede), id=nid, edit=edit)

    def forget_confirm_page(self, note_id: int) -> Safe:
        store = self.store()
        try:
            note = store.get_note(note_id)
        finally:
            store.close()
        body = tpl('<article class="card"><h2>Forget #{id} {title}?</h2><p>Its content, revisions, search entry, '
                   'vectors and its copies in corpora are erased. This cannot be undone.</p>{button}'
                   ' <a href="/note/{id}">Cancel</a></article>', id=note_id, title=note["title"],
                   button=self.action(f"/note/{note_id}/forget", "Forget it for good", cls="danger"))
        return page("Forget a note", body, self)

    def sessions_page(self, q: dict) -> Safe:
        store = self.store()
        try:
            sessions = store.list_sessions(q.get("project") or None, limit=100)
        finally:
            store.close()
        rows = join(tpl('<tr><td><a href="/session/{id}">{short}</a></td><td>{project}</td><td>{started}</td>'
                        '<td>{status}</td><td>{p}</td><td>{o}</td></tr>', id=s["id"], short=s["id"][:12],
                        project=s.get("project_key") or "", started=s["started_at"], status=s["status"],
                        p=s["prompt_count"], o=s["observation_count"]) for s in sessions)
        body = tpl('<h2>Sessions</h2><table><tr><th>session</th><th>project</th><th>started</th><th>status</th>'
                   '<th>prompts</th><th>observations</th></tr>{rows}</table>', rows=rows)
        return page("Sessions", body, self)

    def session_page(self, session_id: str) -> Safe:
        store = self.store()
        try:
            session = store.get_session(session_id)
            if session is None:
                raise NoteNotFound(f"No session {session_id}")
            prompts = store.session_prompts(session_id)
            observations = store.observations_after(session_id, 0, limit=5000)
            recalls = store.session_recalls(session_id)
            receipts = store.session_receipts(session_id)
        finally:
            store.close()
        events = [(p["created_at"], 0, tpl('<li class="prompt"><span class="meta">{t}</span> <b>prompt</b> {text}'
                                           '</li>', t=p["created_at"], text=p["text"])) for p in prompts]
        events += [(o["created_at"], 1, observation_row(o)) for o in observations]
        events += [(r["created_at"], 2, tpl('<li class="recall"><span class="meta">{t}</span> <b>injected</b> '
                                            '({event}) <a href="/note/{id}">#{id} {title}</a></li>',
                                            t=r["created_at"], event=r["event"], id=r["note_id"],
                                            title=r.get("note_title") or "")) for r in recalls]
        events.sort(key=lambda e: (e[0] or "", e[1]))
        decisions = []
        for r in receipts:
            reasons = html_list(tpl("{code}: {message}", code=x.get("code", ""), message=x.get("message", ""))
                            if isinstance(x, dict) else x for x in r.get("reasons") or [])
            note = r.get("note_id") or r.get("merged_into")
            decisions.append(tpl('<article class="card receipt"><h3>{decision}{note}</h3><p class="meta">{key} · '
                                 '{when}</p>{reasons}{warnings}</article>', decision=r["decision"],
                                 note=tpl(' <a href="/note/{n}">#{n}</a>', n=note) if note else Safe(""),
                                 key=r["run_key"], when=r["created_at"], reasons=reasons,
                                 warnings=html_list(r.get("warnings") or [])))
        last = observations[-1]["id"] if observations else 0
        body = tpl('<h2>Session {id}</h2><p class="meta">{project} · {cwd} · started {started} · {status}'
                   '{ended}</p><h2>Stop decision</h2>{decisions}<h2>Timeline</h2>'
                   '<ol id="timeline" data-session="{id}" data-last="{last}">{events}</ol>',
                   id=session_id, project=session.get("project_key") or "no project", cwd=session.get("cwd") or "",
                   started=session["started_at"], status=session["status"],
                   ended=f" · ended {session['ended_at']} ({session.get('end_reason') or ''})"
                   if session.get("ended_at") else "",
                   decisions=join(decisions) or Safe("<p>No Stop decision recorded yet.</p>"),
                   last=last, events=join(e[2] for e in events))
        return page(f"Session {session_id[:12]}", body, self)

    def observations_json(self, session_id: str, after: int) -> dict:
        store = self.store()
        try:
            rows = store.observations_after(session_id, after, limit=200)
        finally:
            store.close()
        return {"observations": [{k: o.get(k) for k in ("id", "created_at", "tool", "target", "outcome",
                                                          "error_signature", "summary")} for o in rows]}

    def next_page(self, q: dict) -> Safe:
        store = self.store()
        try:
            projects = [p["key"] for p in store.list_projects()]
            project = (q.get("project") or None) if "project" in q else (projects[0] if projects else None)
            prompt = (q.get("prompt") or "").strip()
            preview = next_session_preview(store, project, prompt or None)
        finally:
            store.close()
        blocks = []
        for part in preview["parts"]:
            blocks.append(tpl('<section class="card preview"><h3>{label}: {tokens} of {budget} tokens</h3>'
                              '<pre class="context">{text}</pre></section>', label=part["label"],
                              tokens=part["tokens"], budget=part["budget"],
                              text=part["text"] or "(nothing would be injected)"))
        body = tpl(template("next_form.html"), projects=options(projects, project, blank="no project"),
                   prompt=prompt, blocks=join(blocks))
        return page("Next session", body, self)

    def projects_page(self) -> Safe:
        store = self.store()
        try:
            projects = store.list_projects()
        finally:
            store.close()
        rows = join(tpl('<tr><td>{key}</td><td>{name}</td><td>{root}</td><td><a href="/?{qs}">{n}</a></td>'
                        '<td>{aliases}</td><td><a href="/next?{qs}">preview</a> · <a href="/sessions?{qs}">'
                        'sessions</a></td></tr>', key=p["key"], name=p["name"], root=p.get("root") or "",
                        n=p["active_notes"], aliases=", ".join(p.get("aliases") or []),
                        qs=urlencode({"project": p["key"]})) for p in projects)
        body = tpl('<h2>Projects</h2><table><tr><th>key</th><th>name</th><th>root</th><th>active notes</th>'
                   '<th>aliases</th><th></th></tr>{rows}</table>', rows=rows)
        return page("Projects", body, self)

    def corpora_page(self) -> Safe:
        from .corpora import list_corpora, summary

        rows = []
        for corpus in list_corpora():
            s = summary(corpus)
            rows.append(tpl('<tr><td>{name}</td><td>{description}</td><td>{filter}</td><td>{count}</td>'
                            '<td>{tokens}</td><td>{primed}</td></tr>', name=s["name"],
                            description=s.get("description") or s.get("error") or "", filter=s.get("filter") or "",
                            count=s.get("count", ""), tokens=s.get("tokens", ""),
                            primed=("primed" + (" (snapshot newer)" if s.get("snapshot_newer_than_conversation")
                                                else "")) if s.get("primed") else "not primed"))
        body = tpl('<h2>Corpora</h2><table><tr><th>name</th><th>description</th><th>filter</th><th>items</th>'
                   '<th>tokens (est.)</th><th>primed</th></tr>{rows}</table>', rows=join(rows))
        return page("Corpora", body, self)

    def stats_page(self) -> Safe:
        store = self.store()
        try:
            stats = store.stats()
            index = store.index_counts()
        finally:
            store.close()
        rows = [(k, v) for k, v in stats.items() if not isinstance(v, dict) and k != "db_bytes"]
        rows.append(("database size", f"{stats['db_bytes'] / 1e6:.1f} MB ({stats['db_bytes']:,} bytes)"))
        rows += [(f"notes {k}", v) for k, v in stats["notes_by_status"].items()]
        rows += [("notes waiting for vectors", index["pending"]), ("notes that failed to embed", index["failed"]),
                 ("notes with vectors", index["indexed"])]
        body = tpl("<h2>Stats</h2><table>{rows}</table>",
                   rows=join(tpl("<tr><th>{k}</th><td>{v}</td></tr>", k=k, v=v) for k, v in rows))
        return page("Stats", body, self)

    # --- actions -------------------------------------------------------------------------------

    def act(self, note_id: int, action: str, form: dict) -> str:
        """Apply one curation action through lorebook's own code; returns where to go next."""
        from . import relations

        if self.read_only:
            raise Forbidden("The viewer runs read-only (--read-only).")
        store = self.store()
        try:
            if action == "forget":
                relations.forget(store, note_id)
                return "/?" + urlencode({"status": "forgotten"})
            if action == "stale":
                relations.mark_stale(store, note_id, "marked stale in the viewer")
            elif action == "supersede":
                new_id = form.get("new_id", "").strip().lstrip("#")
                if not new_id.isdigit():
                    raise ValueError("Supersede needs the number of the note that replaces this one.")
                relations.supersede(store, note_id, int(new_id))
            elif action == "verify":  # the same as `lorebook verify`: verified by a person, with a revision
                from .decision import verify_note

                verify_note(store, note_id)
            elif action == "edit":
                note = store.get_note(note_id)
                fields = {}
                for name in ("title", "summary"):
                    value = form.get(name, "").strip()
                    if value and value != note.get(name):
                        fields[name] = value
                if form.get("scope") in ("project", "global") and form["scope"] != note["scope"]:
                    fields["scope"] = form["scope"]
                if not fields.get("title", note["title"]).strip():
                    raise ValueError("A note needs a title.")
                if fields:
                    store.update_note(note_id, fields, "edited in the viewer")
            else:
                raise NoteNotFound(f"No action {action!r}")
        finally:
            store.close()
        return f"/note/{note_id}"


def observation_row(o: dict) -> Safe:
    cls = "obs error" if o.get("outcome") == "error" else "obs"
    return tpl('<li class="{cls}" id="obs-{id}"><span class="meta">{t}</span> <b>{tool}</b> <code>{target}</code> '
               '<span class="outcome">{outcome}</span>{sig}</li>', cls=cls, id=o["id"], t=o["created_at"],
               tool=o["tool"], target=o.get("target") or "", outcome=o["outcome"],
               sig=tpl(' <span class="signature">{s}</span>', s=o["error_signature"]) if o.get("error_signature")
               else Safe(""))


def next_session_preview(store: Store, project_key: str | None, prompt: str | None) -> dict:
    """What lorebook would inject into the next session of ``project_key`` (and for ``prompt``), with token counts.

    The same calls the hooks make (``hooks/recall.py``): ``rank_session_notes`` (with the
    branch and changed files of the project's directory, when it exists here) and
    ``render_context`` within ``context_budget`` at SessionStart; ``recall_for_task``
    (by keywords, as when the warm embedding server is not up) within ``prompt_budget``
    on a prompt. The preview records nothing.
    """
    from .config import load_config
    from .recall import recall_for_task, session_start_context
    from .render import render_context
    from .text import estimate_tokens

    config = load_config()
    budget = int(config["context_budget"])
    root = ((store.get_project(project_key) if project_key else None) or {}).get("root")
    # the hints SessionStart would read there now
    text, shown, branch, files = session_start_context(store, project_key, root, budget, GIT_TIMEOUT_S)
    parts = [{"label": "At session start", "text": text, "tokens": estimate_tokens(text), "budget": budget,
              "note_ids": shown}]
    if prompt:
        budget = int(config["prompt_budget"])
        result = recall_for_task(store, prompt[:4000], project_key=project_key, project_limit=4, global_limit=2,
                                 exclude_ids=set(shown), semantic=False)
        memories = result["project_memories"] + result["global_memories"]
        by_id = store.get_notes([m["id"] for m in memories])
        ordered = [by_id[m["id"]] for m in memories if m["id"] in by_id]
        heading = ("Notes that match this prompt (by keywords only; notes shown earlier in this session "
                   "are left out).\n")
        ptext, pshown = render_context(ordered, budget, heading=heading,
                                       reasons={m["id"]: m["why"] for m in memories}, full_notes=1)
        parts.append({"label": "On this prompt", "text": ptext, "tokens": estimate_tokens(ptext), "budget": budget,
                      "note_ids": pshown})
    return {"project_key": project_key, "branch": branch, "changed_files": len(files), "parts": parts}


# --- HTTP ---------------------------------------------------------------------------------------

class Handler(BaseHTTPRequestHandler):
    server_version = "lorebook-ui"
    app: UI

    def log_message(self, format, *args):  # quiet: the terminal shows the URL, not every request
        pass

    def _send(self, status: int, body: bytes, content_type: str, extra: dict | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Content-Security-Policy", CSP)
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        self.send_header("Cache-Control", "no-store")
        for k, v in (extra or {}).items():
            self.send_header(k, v)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _html(self, body: str, status: int = 200, extra: dict | None = None) -> None:
        self._send(status, body.encode("utf-8"), "text/html; charset=utf-8", extra)

    def _error(self, status: int, message: str) -> None:
        self._html(page(HTTPStatus(status).phrase, tpl('<p class="warning">{m}</p>', m=message), self.app), status)

    def _allowed(self, query: dict) -> dict | None:
        """None when the request may go on, else the error to answer; a good ?token= sets the cookie."""
        host = (self.headers.get("Host") or "").rsplit(":", 1)[0].strip("[]").lower()
        if host not in self.app.allowed_hosts:
            return {"status": 403, "message": "Unknown Host header (the viewer answers only to its own address)."}
        if self.app.token:
            cookie = SimpleCookie(self.headers.get("Cookie") or "")
            given = query.get("token") or (cookie[TOKEN_COOKIE].value if TOKEN_COOKIE in cookie else "")
            if not secrets.compare_digest(given, self.app.token):
                return {"status": 403, "message": "This viewer needs its token: open the URL it printed."}
        return None

    def do_GET(self):
        self._dispatch("GET")

    def do_HEAD(self):
        self._dispatch("GET")

    def do_POST(self):
        self._dispatch("POST")

    def _dispatch(self, method: str) -> None:
        url = urlsplit(self.path)
        query = {k: v[-1] for k, v in parse_qs(url.query).items()}
        problem = self._allowed(query)
        if problem:
            return self._error(problem["status"], problem["message"])
        extra = {}
        if self.app.token and query.get("token"):
            extra["Set-Cookie"] = f"{TOKEN_COOKIE}={self.app.token}; HttpOnly; SameSite=Strict; Path=/"
        parts = [p for p in url.path.split("/") if p]
        try:
            if method == "POST":
                return self._post(parts)
            if parts[:1] == ["static"] and len(parts) == 2 and parts[1] in ("ui.js", "ui.css"):
                kind = "text/javascript" if parts[1].endswith(".js") else "text/css"
                return self._send(200, template(parts[1]).encode("utf-8"), f"{kind}; charset=utf-8")
            if parts == ["ping"]:  # the bench's baseline: the same server, no page work
                return self._send(200, b"ok", "text/plain")
            routes: dict[tuple, Callable] = {
                (): lambda: self.app.notes_page(query), ("sessions",): lambda: self.app.sessions_page(query),
                ("next",): lambda: self.app.next_page(query), ("projects",): self.app.projects_page,
                ("corpora",): self.app.corpora_page, ("stats",): self.app.stats_page,
            }
            if tuple(parts) in routes:
                return self._html(routes[tuple(parts)](), extra=extra)
            if len(parts) == 2 and parts[0] == "note" and parts[1].isdigit():
                return self._html(self.app.note_page(int(parts[1])), extra=extra)
            if len(parts) == 3 and parts[0] == "note" and parts[1].isdigit() and parts[2] == "forget":
                return self._html(self.app.forget_confirm_page(int(parts[1])), extra=extra)
            if len(parts) == 2 and parts[0] == "session":
                return self._html(self.app.session_page(parts[1]), extra=extra)
            if len(parts) == 3 and parts[0] == "session" and parts[2] == "observations.json":
                after = int(query["after"]) if query.get("after", "").isdigit() else 0
                body = json.dumps(self.app.observations_json(parts[1], after)).encode("utf-8")
                return self._send(200, body, "application/json")
            return self._error(404, "No such page.")
        except NoteNotFound as ex:
            return self._error(404, str(ex))
        except (LorebookError, ValueError) as ex:
            return self._error(400, str(ex))
        except Exception as ex:  # a bug: say so in the page, keep serving
            return self._error(500, f"Internal error: {type(ex).__name__}: {ex}")

    def _post(self, parts: list[str]) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        if length > 100_000:
            return self._error(413, "Too large.")
        form = {k: v[-1] for k, v in parse_qs(self.rfile.read(length).decode("utf-8", "replace")).items()}
        origin = self.headers.get("Origin")
        if origin and origin != "null" and urlsplit(origin).hostname not in self.app.allowed_hosts:
            return self._error(403, "Cross-origin request refused.")
        if not secrets.compare_digest(form.get("csrf", ""), self.app.csrf):
            return self._error(403, "Missing or stale form token (CSRF): reload the page and try again.")
        if not (len(parts) == 3 and parts[0] == "note" and parts[1].isdigit()):
            return self._error(404, "No such action.")
        try:
            where = self.app.act(int(parts[1]), parts[2], form)
        except Forbidden as ex:
            return self._error(403, str(ex))
        self._send(303, b"", "text/plain", {"Location": where})


def make_server(app: UI, host: str = "127.0.0.1", port: int = 0) -> ThreadingHTTPServer:
    """A server for ``app`` bound to ``host``:``port`` (0: a free port); not started."""
    handler = type("BoundHandler", (Handler,), {"app": app})
    server = ThreadingHTTPServer((host, port), handler)
    server.daemon_threads = True
    app.allowed_hosts = {host.lower(), "127.0.0.1", "localhost", "::1"} if host in LOOPBACK else {host.lower()}
    return server


def server_url(server: ThreadingHTTPServer, app: UI) -> str:
    host, port = server.server_address[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/" + (f"?{urlencode({'token': app.token})}" if app.token else "")

