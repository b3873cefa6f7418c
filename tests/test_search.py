"""Hybrid search and recall on a real SQLite store: raw text, bag-of-words, scope, filters, degraded mode."""
import json

import pytest
from click.testing import CliRunner

from lorebook.recall import recall_for_task
from lorebook.search import fts_match, identifier_phrases, query_terms, search

A = "github.com/acme/widget"
B = "github.com/acme/gadget"


def note(store, title, scope="project", project_key=A, **fields):
    return store.add_note(dict({"title": title, "scope": scope, "project_key": project_key if scope == "project"
                                else None, "source_agent": "test", "session_id": fields.pop("session_id", "s-" + title[:6])},
                               **fields))


@pytest.fixture
def seeded(store):
    ids = {
        "backoff": note(store, "HTTP client retries with exponential backoff",
                        summary="Wrap requests in tenacity with jitter", files=["src/client.py"], tags=["http"]),
        "yaml": note(store, "pytest fails with ModuleNotFoundError: No module named 'yaml'",
                     change="add pyyaml to requirements.txt", kind="fix", tags=["deps"], verified=1),
        "b_backoff": note(store, "Queue consumer retries with backoff in gadget", project_key=B),
        "global": note(store, "Retry storms: always add jitter to exponential backoff", scope="global",
                       kind="pitfall"),
        "old": note(store, "Retry backoff used a fixed 1 s sleep", status="superseded"),
        "stale": note(store, "Retry backoff lived in utils/retry.py", status="stale"),
    }
    return ids


def hit_ids(result):
    return [h["note"]["id"] for h in result["hits"]]


def test_a_query_is_a_bag_of_words_with_stemming(store, seeded):
    result = search(store, "retry backoff", project_key=A, semantic=False)
    assert seeded["backoff"] in hit_ids(result)
    top = result["hits"][0]
    assert top["note"]["id"] in (seeded["backoff"], seeded["global"])
    assert any(w.startswith("words:") for w in top["why"])


@pytest.mark.parametrize("raw", [
    '"unbalanced quote', "NEAR(retry backoff, 2)", "retry*", "* ^ - + : ( ) { }", "AND OR NOT",
    "col:retry", "ü日本語 ñ", "'; DROP TABLE notes; --", "\x00\x01", "", "   ", "retry\nbackoff\t\"x\"",
    "a" * 5000, "🙂 emoji retry",
])
def test_raw_text_never_crashes(store, seeded, raw):
    result = search(store, raw, project_key=A, semantic=False)
    assert isinstance(result["hits"], list)
    assert result["mode"] == "lexical"


def test_operators_are_plain_words(store, seeded):
    assert seeded["backoff"] in hit_ids(search(store, "NEAR(retries exponential)", project_key=A, semantic=False))
    assert fts_match(query_terms('say "NEAR" OR *')) == '"say" OR "near"'


def test_unicode_words_are_found(store):
    nid = note(store, "Fichier résumé.csv: l'encodage échoue sous Windows")
    assert hit_ids(search(store, "encodage échoue", project_key=A, semantic=False)) == [nid]


def test_other_projects_notes_are_never_offered(store, seeded):
    result = search(store, "retries backoff", project_key=A, semantic=False, limit=50)
    assert seeded["b_backoff"] not in hit_ids(result)
    result = search(store, "retries backoff", project_key=B, semantic=False, limit=50)
    assert seeded["b_backoff"] in hit_ids(result) and seeded["backoff"] not in hit_ids(result)
    assert seeded["global"] in hit_ids(result)


def test_without_a_project_only_global_notes(store, seeded):
    assert set(hit_ids(search(store, "retries backoff", semantic=False))) == {seeded["global"]}


def test_superseded_and_stale_only_when_asked(store, seeded):
    default = hit_ids(search(store, "retry backoff", project_key=A, semantic=False, limit=50))
    assert seeded["old"] not in default and seeded["stale"] not in default
    every = hit_ids(search(store, "retry backoff", project_key=A, semantic=False, limit=50,
                           statuses=("active", "superseded", "stale")))
    assert seeded["old"] in every and seeded["stale"] in every


def test_filters(store, seeded):
    assert hit_ids(search(store, "retry", project_key=A, kind="pitfall", semantic=False)) == [seeded["global"]]
    assert hit_ids(search(store, "retries", project_key=A, tags=["HTTP"], semantic=False)) == [seeded["backoff"]]
    assert hit_ids(search(store, "retries", project_key=A, files=["client.py"], semantic=False)) == [seeded["backoff"]]
    assert hit_ids(search(store, "retries", project_key=A, since="2999-01-01", semantic=False)) == []


def test_files_being_touched_boost(store):
    plain = note(store, "Retry backoff notes for the worker", files=["src/worker.py"])
    touched = note(store, "Retry backoff notes for the client", files=["src/client.py"])
    result = search(store, "retry backoff notes", project_key=A, touching=["/repo/src/client.py"], semantic=False)
    assert hit_ids(result)[0] == touched
    assert any(w.startswith("files:") for w in result["hits"][0]["why"])
    assert plain in hit_ids(result)


def test_recency_is_a_boost_not_a_cutoff(store):
    old = note(store, "Old lesson about flaky sockets", created_at="2019-01-01T00:00:00+00:00",
               updated_at="2019-01-01T00:00:00+00:00")
    new = note(store, "New lesson about flaky sockets")
    assert hit_ids(search(store, "flaky sockets", project_key=A, semantic=False)) == [new, old]


def test_project_aliases_follow_moved_repos(store, seeded):
    store.add_project_alias("github.com/acme/widget-renamed", A)
    result = search(store, "retries backoff", project_key="github.com/acme/widget-renamed", semantic=False)
    assert seeded["backoff"] in hit_ids(result)


def test_an_alias_resolves_to_its_project_and_any_other_key_to_itself(store, seeded):
    store.add_project_alias("github.com/acme/widget-renamed", A)
    assert store.canonical_project(A) == "github.com/acme/widget-renamed"
    assert store.canonical_project("github.com/acme/widget-renamed") == "github.com/acme/widget-renamed"
    assert store.canonical_project("path:/never/seen") == "path:/never/seen"


def test_broken_model_answers_lexically_and_says_so(store, seeded, monkeypatch):
    monkeypatch.setenv("LOREBOOK_EMBED_MODEL", "nonexistent")
    result = search(store, "retry backoff", project_key=A)
    assert seeded["backoff"] in hit_ids(result)
    assert result["mode"] == "lexical" and result["degraded"]
    assert any("Semantic search unavailable" in w for w in result["warnings"])
    recalled = recall_for_task(store, "retry backoff", project_key=A)
    assert recalled["reason"] == "retrieval-degraded"
    assert recalled["project_memories"]


def test_nothing_relevant_is_not_a_failure(store):
    result = recall_for_task(store, "make the CSV export handle unicode filenames", project_key=A)
    assert result["reason"] == "no-matches" and result["warnings"] == []


def test_recall_splits_project_and_global(store, seeded):
    result = recall_for_task(store, "add retries with backoff to the HTTP client", project_key=A, semantic=False)
    assert result["reason"] == "ok"
    assert [m["id"] for m in result["project_memories"]][0] == seeded["backoff"]
    assert [m["id"] for m in result["global_memories"]] == [seeded["global"]]
    assert all(m["id"] != seeded["b_backoff"] for m in result["project_memories"] + result["global_memories"])
    memory = result["project_memories"][0]
    assert set(memory) >= {"id", "title", "summary", "kind", "score", "why", "provenance"}
    assert memory["provenance"]["source_agent"] == "test"


def test_recall_without_identity_is_global_only(store, seeded):
    result = recall_for_task(store, "retry backoff", semantic=False)
    assert result["reason"] == "no-project-identity"
    assert result["project_memories"] == []
    assert [m["id"] for m in result["global_memories"]] == [seeded["global"]]
    assert "only global" in result["warnings"][0]


def test_recall_from_a_directory(store, seeded, git_project):
    result = recall_for_task(store, "retry backoff", cwd=str(git_project), semantic=False)
    assert result["project_key"] == A
    assert seeded["backoff"] in [m["id"] for m in result["project_memories"]]


def test_recall_with_error_and_relations(store, seeded):
    store.add_relation(seeded["yaml"], seeded["backoff"], "similar_to")
    result = recall_for_task(store, "tests are failing", error_signatures=["ModuleNotFoundError: No module named 'yaml'"],
                             project_key=A, include_relations=True, semantic=False)
    top = result["project_memories"][0]
    assert top["id"] == seeded["yaml"]
    assert top["relations"][0]["kind"] == "similar_to"


# --- CLI --------------------------------------------------------------------------------------


def run(*args):
    from lorebook.cli import cli

    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    return result


def test_cli_search_json_and_text(store, seeded):
    out = json.loads(run("search", "retry backoff", "--project", A, "--lexical", "--json").output)
    assert out["mode"] == "lexical" and out["hits"][0]["why"]
    text = run("search", "retry backoff", "--project", A, "--lexical").output
    assert f"#{seeded['backoff']}" in text and "lexical search" in text


def test_cli_search_degraded_warns(store, seeded, monkeypatch):
    monkeypatch.setenv("LOREBOOK_EMBED_MODEL", "nonexistent")
    result = run("search", "retry backoff", "--project", A)
    assert "Semantic search unavailable" in result.output  # click >= 8.2 mixes stderr into output
    assert f"#{seeded['backoff']}" in result.output


def test_cli_recall_show_relations(store, seeded):
    out = json.loads(run("recall", "--task", "retries with backoff", "--project", A, "--json").output)
    assert set(out) >= {"project_key", "reason", "warnings", "project_memories", "global_memories"}
    shown = run("show", str(seeded["yaml"])).output
    assert "pyyaml" in shown and "not instructions" not in shown
    assert json.loads(run("show", str(seeded["yaml"]), "--json").output)["id"] == seeded["yaml"]
    store.add_relation(seeded["old"], seeded["backoff"], "supersedes")
    rel = json.loads(run("relations", str(seeded["backoff"]), "--json").output)
    assert rel["relations"][0]["direction"] == "incoming" and rel["relations"][0]["other_id"] == seeded["old"]
    missing = CliRunner().invoke(__import__("lorebook.cli").cli.cli, ["show", "9999"])
    assert missing.exit_code == 1 and "No note has id 9999" in missing.output


def test_cli_list_text_filter_is_literal(store):
    percent = note(store, "Coverage must stay at 100% for core")
    underscore = note(store, "Set MAX_RETRIES in settings")
    note(store, "MAXXRETRIES is a different word")
    out = json.loads(run("list", "--text", "100%", "--json").output)
    assert [n["id"] for n in out["notes"]] == [percent]
    out = json.loads(run("list", "--text", "MAX_RETRIES", "--json").output)
    assert [n["id"] for n in out["notes"]] == [underscore]
    assert json.loads(run("list", "--text", "%", "--json").output)["total"] == 1


def test_cli_list_pages_and_filters(store, seeded):
    out = json.loads(run("list", "--per-page", "2", "--page", "2", "--status", "any", "--json").output)
    assert out["total"] == 6 and out["pages"] == 3 and len(out["notes"]) == 2
    out = json.loads(run("list", "--kind", "pitfall", "--json").output)
    assert [n["id"] for n in out["notes"]] == [seeded["global"]]
    assert "neither a date" in CliRunner().invoke(__import__("lorebook.cli").cli.cli, ["list", "--since", "soon"]).output


def test_cli_project_alias(store, seeded, git_project, monkeypatch):
    monkeypatch.chdir(git_project)
    out = run("project", "alias", "path:/old/widget")
    assert "is now an alias of github.com/acme/widget" in out.output
    assert json.loads(run("project", "show", "--json").output)["aliases"] == ["path:/old/widget"]
    assert "no longer" in run("project", "alias", "path:/old/widget", "--remove").output


@pytest.mark.parametrize("command", ["search", "recall", "show", "list", "relations", "project"])
def test_help_has_an_example(command):
    out = run(command, "--help").output
    assert "lorebook " + command in out


# --- with the real embedding model ----------------------------------------------------------------


@pytest.fixture
def indexed(store, seeded):
    from lorebook.vectors import index_notes

    extra = note(store, "Transient 503 errors from the payments API are absorbed by a retry decorator")
    index_notes(store)
    return dict(seeded, payments=extra)


def test_hybrid_finds_by_meaning(store, indexed):
    result = search(store, "server unavailable responses from billing service", project_key=A)
    assert result["mode"] == "hybrid" and not result["degraded"], result["warnings"]
    assert hit_ids(result)[0] == indexed["payments"]
    assert any(w.startswith("meaning:") for w in result["hits"][0]["why"])


def test_broken_model_with_indexed_notes_degrades_loudly(store, indexed, monkeypatch):
    monkeypatch.setenv("LOREBOOK_EMBED_MODEL", "nonexistent")
    result = search(store, "retry backoff", project_key=A)
    assert result["degraded"] and result["mode"] == "lexical"
    assert indexed["backoff"] in hit_ids(result)
    assert "Semantic search unavailable" in result["warnings"][0]


def test_every_face_gives_a_note_the_same_provenance(store, seeded):
    from lorebook.mcp_server import card, memory_card
    from lorebook.provenance import provenance, provenance_labels
    from lorebook.render import index_line

    stored = store.get_note(seeded["yaml"])
    expected = {"source_agent": "test", "claimed_agent": None, "session_id": stored["session_id"],
                "run_key": stored.get("run_key"),
                "observation_ids": stored.get("observation_ids") or [], "created_at": stored["created_at"],
                "updated_at": stored["updated_at"], "verified": True, "verified_by": None}
    assert provenance(stored) == expected
    (hit,) = [h for h in search(store, "yaml", project_key=A, semantic=False)["hits"] if h["note"]["id"] == seeded["yaml"]]
    assert hit["provenance"] == expected
    recalled = recall_for_task(store, "pytest fails: No module named 'yaml'", project_key=A, semantic=False)
    (memory,) = [m for m in recalled["project_memories"] if m["id"] == seeded["yaml"]]
    assert memory["provenance"] == expected
    assert card(stored)["provenance"] == expected and memory_card(memory)["provenance"] == expected
    labels = provenance_labels(expected)
    assert labels == {"date": stored["updated_at"][:10], "source": f"test session {stored['session_id'][:8]}",
                      "verified": "verified"}
    assert f"[fix, verified, {labels['date']}, {labels['source']}]" in index_line(stored)
    listed = json.loads(CliRunner().invoke(__import__("lorebook.cli").cli.cli,
                                           ["search", "yaml", "--project", A, "--lexical", "--json"]).output)
    assert [h["provenance"] for h in listed["hits"] if h["id"] == seeded["yaml"]] == [expected]


def test_the_cli_and_the_mcp_tools_offer_the_kinds_and_statuses_the_store_knows():
    from lorebook.cli import search_command
    from lorebook.mcp_tools import TOOLS
    from lorebook.store import NOTE_KINDS, NOTE_STATUSES

    listing = TOOLS["list_notes"]["schema"]["properties"]
    assert listing["kind"]["enum"] == list(NOTE_KINDS)
    assert listing["status"]["enum"] == [*NOTE_STATUSES, "any"]
    options = {p.name: p for p in search_command.params}
    assert list(options["kinds"].type.choices) == list(NOTE_KINDS)
    assert list(options["statuses"].type.choices) == [*NOTE_STATUSES, "any"]


# --- identifiers: the note that holds one exactly comes first ---------------------------------------------


TARGETS = ["lint", "test", "build", "docs", "dist", "wheel", "docker", "migrate", "seed", "types"]


def identifier_note(store, i):
    """Lesson ``i`` of one template: its own make target, error code and variable (ACME_DIST_LIMIT_4 ...)."""
    target = f"{TARGETS[i % len(TARGETS)]}-{i // len(TARGETS)}"
    env = f"ACME_{TARGETS[(i * 3) % len(TARGETS)].upper()}_LIMIT_{i}"
    return note(store, f"`make {target}` fails with E{1000 + i}: set {env}=1 in the Makefile",
                summary=f"The {target} recipe reads {env} and stops with E{1000 + i} when it is unset.",
                change=f"Added `export {env}=1` above the {target} target in the Makefile.",
                files=["Makefile"], session_id=f"s-{i}"), env


def test_an_identifier_finds_the_note_that_holds_it_exactly_first(store):
    # FTS5 splits ACME_DIST_LIMIT_4 into acme, dist, limit, 4; other notes have those words too ("make dist-4",
    # ACME_DIST_LIMIT_14, "=1"): only the identifier as a phrase tells the note that holds it
    written = [identifier_note(store, i) for i in range(60)]
    for note_id, env in written:
        hits = search(store, env, project_key=A, semantic=False)["hits"]
        assert hits[0]["note"]["id"] == note_id, (env, [h["note"]["title"] for h in hits[:3]])


@pytest.mark.parametrize("text, phrases", [
    ("ACME_DIST_LIMIT_1 is unset", ["acme dist limit 1"]),
    ("yaml.safe_load fails on src/app/main.py:12", ["yaml safe load", "src app main py 12"]),
    ("pin requests==2.31.0", ["2 31 0"]),
    ("E1001 and plain words", []),
    ('"quoted" OR NEAR(x, y)', []),
])
def test_identifier_phrases(text, phrases):
    assert identifier_phrases(text) == phrases


def test_identifier_phrases_are_quoted_phrases_in_the_match():
    assert fts_match(["acme", "1"], ["acme dist limit 1"]) == '"acme" OR "1" OR "acme dist limit 1"'
