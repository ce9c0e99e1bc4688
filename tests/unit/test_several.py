"""A question about two named things at once is searched for once for each (masis.judge.several)."""

from __future__ import annotations

import pytest

from masis.judge.several import parts


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("How much do the Falcon X2 and the Heron S1 weigh?",
         ["How much do the Falcon X2 weigh?", "How much do the Heron S1 weigh?"]),
        ("How many people work in Engineering and in Sales?",
         ["How many people work in Engineering?", "How many people work in Sales?"]),
        ("When were Debian 11 and Debian 12 released?",
         ["When were Debian 11 released?", "When were Debian 12 released?"]),
        ("Which works at lower temperatures, the Falcon X2 or the Heron S1?",
         ["Which works at lower temperatures, the Falcon X2?", "Which works at lower temperatures, the Heron S1?"]),
        ("What did Kestrel Labs and the University of Leeds agree?",
         ["What did Kestrel Labs agree?", "What did the University of Leeds agree?"]),
    ],
)
def test_two_named_things_joined_by_and_or_or_make_two_questions(question: str, expected: list[str]) -> None:
    assert parts(question) == expected


@pytest.mark.parametrize(
    "question",
    [
        "What is the price of the Falcon X2?",
        "What are the first and third risks named in the AI strategy memo?",
        "Which gas version is needed for AVX-512 when building Node.js?",  # two names, not joined
        "What are the risks and the costs?",  # no named thing
    ],
)
def test_a_question_about_one_named_thing_is_not_split(question: str) -> None:
    assert parts(question) == []
