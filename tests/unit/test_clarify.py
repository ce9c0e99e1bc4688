"""Reading a reply to a clarification: choices, plain text, and a source named in plain text."""

from __future__ import annotations

import pytest

from masis.agents.clarify import named_source, parse_resume, typed_choice

OPTIONS = ["product_roadmap.txt", "q3_report.md"]


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ({"choice": "accept"}, ("accept", "")),
        ({"choice": "cancel"}, ("cancel", "")),
        ({"choice": "source:q3_report.md"}, ("source", "q3_report.md")),
        ({"text": "  the Q3 report  "}, ("refine", "the Q3 report")),
        ("accept", ("accept", "")),
        ("something else", ("refine", "something else")),
    ],
)
def test_parse_resume(value: object, expected: tuple[str, str]) -> None:
    assert parse_resume(value) == expected


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("Trust the Q3 report figure", "q3_report.md"),
        ("go with the roadmap", "product_roadmap.txt"),
        ("PRODUCT_ROADMAP.TXT please", "product_roadmap.txt"),
        ("the report, not the roadmap", None),  # names both: ambiguous, so it stays a refinement
        ("whichever is more recent", None),
        ("the txt one", None),  # an extension is not a name
    ],
)
def test_named_source(reply: str, expected: str | None) -> None:
    assert named_source(reply, OPTIONS) == expected


def test_a_word_both_names_share_names_neither() -> None:
    assert named_source("the report", ["q3_report.md", "q4_report.md"]) is None
    assert named_source("the q4 report", ["q3_report.md", "q4_report.md"]) == "q4_report.md"


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("cancel", ("cancel", "")),
        ("Cancel.", ("cancel", "")),
        ("never mind", ("cancel", "")),
        ("accept", ("accept", "")),
        ("Use this draft", ("accept", "")),
        ("use the draft!", ("accept", "")),
        ("q3_report.md", ("source", "q3_report.md")),
        ("Trust q3_report.md", ("source", "q3_report.md")),
        ("cancel the Q3 figure and give me Q4", None),
        ("I accept that the Q3 report is older", None),
        ("the Q3 report", None),
    ],
)
def test_a_typed_choice_acts_like_its_button(reply: str, expected: tuple[str, str] | None) -> None:
    assert typed_choice(reply, OPTIONS) == expected
