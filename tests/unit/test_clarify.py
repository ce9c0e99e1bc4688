"""Reading a reply to a clarification: choices, plain text, a source named in plain text, and a new question typed
while one waits."""

from __future__ import annotations

import pytest

from masis.agents.clarify import escalate, named_source, parse_resume, typed_choice
from masis.config import Settings
from masis.outcome import Clarification

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


def test_a_low_confidence_question_says_why_in_the_users_terms_not_the_supervisors() -> None:
    state = {"confidence": 0.62, "attempt": 2, "critique": {"unsupported_claims": ["staff: 12"]}, "citation_audit": {}}
    internal = "confidence 0.62; confidence 0.62 below 0.65; a retry would repeat the last one (the same evidence)"
    asked = escalate(state, Settings(low_confidence_threshold=0.65), "low_confidence", internal)  # type: ignore[arg-type]
    question = asked["clarification"]["question"]
    assert "after 2 attempts: the best draft's confidence is 0.62, below the 0.65 I answer at" in question
    assert "1 of the draft's statements could not be matched to a passage" in question
    assert "retry would repeat" not in question and "0.62;" not in question
    assert asked["clarification"]["reason"] == internal  # the supervisor's words stay in the trace


def test_a_low_confidence_question_names_the_score_of_the_draft_it_offers() -> None:
    # "And its capacity?": the first attempt's draft (0.63) is offered; the last attempt scored 0.54
    state = {"confidence": 0.54, "attempt": 2, "critique": {}, "citation_audit": {},
             "best_draft": {"answer": "The Falcon X2 costs $1,249 [falcon_x2_datasheet.md#2].", "confidence": 0.6271,
                            "evaluation": None, "evidence": []}}
    asked = escalate(state, Settings(low_confidence_threshold=0.65), "low_confidence", "")  # type: ignore[arg-type]
    clarification = asked["clarification"]
    assert "the best draft's confidence is 0.63, below the 0.65 I answer at" in clarification["question"]
    assert clarification["draft_confidence"] == 0.6271


# a message typed in a thread while a clarification waits: the reply to it, or a new question
WHILE_WAITING = [
    ("low_confidence", "How much is the add-on?", False),
    ("near_miss", "does the Heron S1 support PoE", False),  # no "?", opens with an auxiliary
    ("zero_results", "Sorry, I meant: how many customers did Kestrel Labs end the quarter with?", False),
    ("zero_results", "and if they ignore that", False),  # nothing matched: a rephrasing, read with the thread (cv-186)
    ("zero_results", "never mind", True),  # what the Cancel button says
    ("conflict", "according to the Q3 report", True),
    ("near_miss", "I meant the FY2026 marketing budget", True),
    ("low_confidence", "the Heron S1", True),  # a fragment: it answers what waits
    ("low_confidence", "And the Heron S1?", False),  # an ellipsis asks anew, read with the thread's questions
    ("conflict", "cancel", True),
    ("low_confidence", "and where does fai-setup write its log", False),  # a leading "and" (conversations cv-349)
    ("low_confidence", "whats the default connect timeout for ccache's redis backend", False),  # "whats" (cv-351)
    ("unclear_reference", "What about sqlite?", False),  # read with the thread, not alone (cv-296)
    ("unclear_reference", "the Heron S1 one", True),
    # a pick, then a question of its own about it (conversations tune cv-236, cv-252): the question is what is asked
    ("unclear_reference", "the limit one. with a few workers running does each get the whole limit", False),
    ("low_confidence", "the stabs one. what do ports emit instead", False),
    ("unclear_reference", "the bq one. since which", True),  # too short to be a question: the pick answers
    # the thread's question asked of another thing, however short (conversations tune cv-247, cv-506, cv-222)
    ("low_confidence", "and 7?", False),
    ("low_confidence", "and its default?", False),
    ("low_confidence", "and for ntbtls?", False),
    ("low_confidence", "maxinterval?", True),  # no "and": it may narrow what waits
    # a question in full after words that set it up (tune cv-171, cv-136, cv-227)
    ("near_miss", "for the automated way what do i need installed", False),
    ("low_confidence", "with -k what does it send once the grace period is up", False),
    ("low_confidence", "if i make a controller first and import numpy after, does it see numpy's blas", False),
    ("low_confidence", "if i set both which one wins", True),  # "which one wins" may be the narrowing
    ("near_miss", "the Q3 report, which has the newer figures", True),  # a relative clause, not a question
    ("low_confidence", "in the table where the row says 40", True),
]


@pytest.mark.parametrize(("kind", "text", "answers"), WHILE_WAITING)
def test_a_question_in_full_typed_while_a_clarification_waits_is_a_new_question(kind: str, text: str,
                                                                                answers: bool) -> None:
    waiting = Clarification(kind=kind, question="Could you rephrase the question?")
    assert waiting.answered_by(text) is answers
