"""dates.parse_when: the one parser of dates typed by users (CLI, corpora) and agents (MCP)."""
from datetime import datetime, timedelta, timezone

import pytest

from lorebook.dates import parse_when


@pytest.mark.parametrize("value, expected", [
    ("2026-01-31", "2026-01-31T00:00:00+00:00"),
    (" 2026-01-31 ", "2026-01-31T00:00:00+00:00"),
    ("2026-01-31T09:30", "2026-01-31T09:30:00+00:00"),
    ("2026-01-31 09:30:15", "2026-01-31T09:30:15+00:00"),
    ("2026-01-31T09:30:15.123456", "2026-01-31T09:30:15+00:00"),
    ("2026-01-31T09:30:00Z", "2026-01-31T09:30:00+00:00"),
    ("2026-01-31T09:30:00+02:00", "2026-01-31T07:30:00+00:00"),
    ("2026-01-01T01:00:00+05:00", "2025-12-31T20:00:00+00:00"),
])
def test_dates_and_times_become_utc_text_like_the_stored_timestamps(value, expected):
    assert parse_when(value) == expected
    # the store writes datetime.now(timezone.utc).isoformat(timespec="seconds"): same length, same zone, so text order is time order
    assert len(expected) == len(datetime.now(timezone.utc).isoformat(timespec="seconds"))


@pytest.mark.parametrize("value, expected", [
    ("2026-01-31", "2026-02-01T00:00:00+00:00"),
    ("2026-12-31", "2027-01-01T00:00:00+00:00"),
    ("2026-01-31T09:30", "2026-01-31T09:30:00+00:00"),  # a time is taken as given
])
def test_end_of_day_makes_a_bare_date_an_exclusive_end(value, expected):
    assert parse_when(value, end_of_day=True) == expected


@pytest.mark.parametrize("value, delta", [("30d", timedelta(days=30)), ("12h", timedelta(hours=12)),
                                          ("2w", timedelta(weeks=2)), (" 1 d ", timedelta(days=1))])
def test_ages_count_back_from_now_when_asked_for(value, delta):
    before = datetime.now(timezone.utc).replace(microsecond=0)
    parsed = datetime.fromisoformat(parse_when(value, ages=True))
    after = datetime.now(timezone.utc)
    assert before - delta - timedelta(seconds=1) <= parsed <= after - delta
    with pytest.raises(ValueError):
        parse_when(value)  # only where the face offers ages


@pytest.mark.parametrize("value", ["", "soon", "yesterday", "2026-02-30", "2026-13-01", "31/01/2026", "30x",
                                   "2026-01-31T25:00", "-3d"])
def test_anything_else_is_a_value_error(value):
    with pytest.raises(ValueError):
        parse_when(value, ages=True)
