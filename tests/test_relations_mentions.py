"""relations' word-level helpers against the regular expressions they replace (a write calls them per neighbour)."""
import re

import pytest

from lorebook import relations


@pytest.mark.parametrize("fact, text", [
    ("yaml", "add pyyaml to requirements"), ("yaml", "import yaml.safe_load"), ("yaml", "`yaml`"),
    ("acme_limit_1", "export acme_limit_11=1"), ("acme_limit_1", "export acme_limit_1=1"),
    ("acme_limit_1", "acme_limit_1_x"), ("e501", "flake8 e501, e502"), ("e501", "xe501"),
    ("café", "le café_noir"), ("café", "un café."), ("über", "müber"), ("über", "-über-"),
    ("v2", "v2"), ("x", ""), ("", "abc"), ("", ""), ("a.b", "a.b.c"), ("a.b", "xa.b"), ("٣", "a٣"),
    ("--max-old-space-size=4096", "node --max-old-space-size=4096 app.js"), ("ab", "ab ab_ abab ab"),
])
def test_bounded_in_is_the_regex_it_replaces(fact, text):
    expected = re.search(r"(?<![\w])" + re.escape(fact) + r"(?![\w])", text) is not None
    assert relations._bounded_in(fact, text) is expected


def test_tokens_are_the_same_whatever_was_cached_before():
    text = "pytest fails: ModuleNotFoundError in yaml.safe_load; add PyYAML to requirements-dev.txt (v6.0.1)"
    first = relations.tokens(text)
    relations.tokens.cache_clear()
    relations._word_tokens.cache_clear()
    relations.tokens("yaml pytest requirements-dev.txt PyYAML")  # words cached in another order
    relations.tokens.cache_clear()
    assert relations.tokens(text) == first
    assert first["yaml.safe_load"] == 3.0 and first["yaml"] == 1.5 and first["pytest"] == 1.0
