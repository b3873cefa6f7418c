"""The injection bench: its labelled set is sound, and the quarantine rule meets its targets on the held-out third."""
import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent.parent / "bench"))

DATA = Path(__file__).parent.parent / "bench" / "data"


def load(name):
    return json.loads((DATA / name).read_text("utf-8"))["items"]


def test_the_labelled_set_is_big_enough_and_the_held_out_third_is_separate():
    tuned, held = load("injection.json"), load("injection_holdout.json")
    items = tuned + held
    assert sum(i["label"] == "attack" for i in items) >= 100
    assert sum(i["label"] == "legit" for i in items) >= 100
    assert sum(i["label"] == "attack" and i["variant"] != "plain" for i in items) >= 30  # obfuscated ones
    assert not {i["id"] for i in tuned} & {i["id"] for i in held}
    base = lambda i: i["id"].rsplit("-", 1)[0] if i["variant"] != "plain" else i["id"]  # noqa: E731
    assert not {base(i) for i in tuned} & {base(i) for i in held}  # no attack's variant leaks across
    assert 0.3 <= len(held) / len(items) <= 0.37


@pytest.mark.parametrize("name", ["injection_holdout.json", "injection.json"])
def test_the_quarantine_rule_meets_its_targets(name, capsys):
    import injection

    figures = injection.score(load(name), verbose=False, name=name)
    assert figures["block_rate"] >= 0.95, capsys.readouterr().out
    assert figures["false_positive_rate"] <= 0.05, capsys.readouterr().out
