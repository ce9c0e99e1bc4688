"""Figures: the numeric expressions of a text ("$4.2 million", "38%", "2026") in a form that compares."""

from __future__ import annotations

import re

NUMBER = re.compile(r"(?<![\w.])[$€£]?\d[\d,]*(?:\.\d+)?\s*(?:%|percent|million|billion|thousand|[kKmMbB]\b)?")


def normalise_number(written: str) -> str:
    """One numeric expression in its comparison form: "$4.2 Million" -> "$4.2million", "38 percent" -> "38%"."""
    return written.strip().lower().replace(",", "").replace(" ", "").replace("percent", "%")


def numbers(text: str) -> list[str]:
    """Numeric expressions ("$4.2 million", "38%", "2026") in their comparison form."""
    return [normalise_number(match.group(0)) for match in NUMBER.finditer(text)]


_YEAR = re.compile(r"^(1\d|20)\d\d$")  # 1000-2099: a bare four-digit figure in that range names a year
_SCALE = (("billion", "b"), ("million", "m"), ("thousand", "k"))


def value_kind(value: str) -> str:
    """What a figure (in comparison form) measures: a percent, an amount of money or scale, or a count."""
    if value.endswith("%"):
        return "percent"
    if value[:1] in "$€£" or value.endswith(("million", "billion", "m", "b", "k", "thousand")):
        return "amount"
    return "count"


# where a figure is an address, not a quantity: a link ("…/pull/322") or an issue's number ("#452")
_REFERENCE = re.compile(r"\b(?:https?://|www\.)\S+|#\d+\b", re.IGNORECASE)


def values(sentence: str) -> dict[str, set[str]]:
    """The sentence's figures by kind, years and the numbers of links and issues left out: a year says *which*
    figure, not *what* it is, and two changelogs' pull requests 322 and 495 are no two counts of one thing."""
    found: dict[str, set[str]] = {}
    for value in numbers(_REFERENCE.sub(" ", sentence)):
        if _YEAR.match(value):
            continue
        found.setdefault(value_kind(value), set()).add(value)
    return found


def figure_key(value: str) -> str:
    """A figure in a form that ignores how it was written: "$4.2 million" == "4.2m" == "$4.2M"."""
    value = value.lstrip("$€£")
    for word, short in _SCALE:
        value = value.replace(word, short)
    return value
