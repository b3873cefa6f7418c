"""Dates and times a user or an agent types, as the UTC ISO text the store keeps (one parser for every face)."""
from __future__ import annotations

import re
from datetime import date, datetime, timedelta, timezone

_AGE = re.compile(r"\s*(\d+)\s*([hdw])\s*")
_AGE_UNITS = {"h": "hours", "d": "days", "w": "weeks"}


def parse_when(value: str, end_of_day: bool = False, ages: bool = False) -> str:
    """``2026-01-31``, ``2026-01-31T09:00``, ``…Z`` or ``…+02:00`` (or, with ``ages``, ``30d``/``12h``/``2w`` ago)
    as UTC ISO text that compares with stored timestamps, like ``2026-01-31T00:00:00+00:00``.

    A time without a zone is UTC. With ``end_of_day`` a bare date means the end of that day (the next
    midnight), for an exclusive ``until``. Raises ValueError on anything else.
    """
    if ages:
        match = _AGE.fullmatch(value)
        if match:
            delta = timedelta(**{_AGE_UNITS[match.group(2)]: int(match.group(1))})
            return (datetime.now(timezone.utc) - delta).isoformat(timespec="seconds")
    text = value.strip().replace(" ", "T")
    if len(text) == 10:
        day = date.fromisoformat(text)
        if end_of_day:
            day += timedelta(days=1)
        stamp = datetime(day.year, day.month, day.day)
    else:
        stamp = datetime.fromisoformat(text.replace("Z", "+00:00"))
    if stamp.tzinfo is None:
        stamp = stamp.replace(tzinfo=timezone.utc)
    return stamp.astimezone(timezone.utc).isoformat(timespec="seconds")
