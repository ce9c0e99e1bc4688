"""Questions as typed in a thread: names in lower case, "its" for "it's" (masis.judge.typed)."""

from __future__ import annotations

import pytest

from masis.judge.typed import it_is, new_subject, recase_names, without_aside


@pytest.mark.parametrize(("typed", "written"), [
    ("what screen does the heron s1 have", "what screen does the Heron S1 have"),
    ("debian 10 codename?", "Debian 10 codename?"),
    ("when did git 2.39 come out", "when did Git 2.39 come out"),
    # figures that count, periods and text with capitals are left as typed
    ("how many days do i have to return 10 units", "how many days do i have to return 10 units"),
    ("how big is the 256 gb model", "how big is the 256 gb model"),
    ("what changed in q3 2026", "what changed in q3 2026"),
    ("the top 10 risks", "the top 10 risks"),
    ("How heavy is the heron s1?", "How heavy is the heron s1?"),
])
def test_names_typed_in_lower_case_are_capitalised(typed: str, written: str) -> None:
    assert recase_names(typed) == written


@pytest.mark.parametrize(("typed", "written"), [
    ("what if its faulty", "what if it's faulty"),
    ("and if its not faulty?", "and if it's not faulty?"),
    ("what if its battery dies", "what if its battery dies"),
    ("what is its weight", "what is its weight"),
])
def test_its_ending_a_condition_is_it_is(typed: str, written: str) -> None:
    assert it_is(typed) == written



@pytest.mark.parametrize(("typed", "asked"), [
    # conversations tune cv-432#3, cv-307#3: the words that start a new subject ask nothing
    ("Unrelated: which lockfileVersion do npm v7 and v8 use?", "which lockfileVersion do npm v7 and v8 use?"),
    ("unrelated but what does h5dump -A print", "what does h5dump -A print"),
    ("btw, does the Heron S1 have PoE?", "does the Heron S1 have PoE?"),
    ("different thing: how long is the warranty?", "how long is the warranty?"),
])
def test_the_words_that_start_a_new_subject_are_no_part_of_the_question(typed: str, asked: str) -> None:
    assert new_subject(typed) == asked
    assert without_aside(typed) == asked


@pytest.mark.parametrize("typed", [
    "Which unrelated packages does pip install?",  # a word of the question, not before it
    "unrelated: why",  # too short to be a question of its own
    "How do I report an unrelated bug?",
])
def test_a_question_that_opens_with_no_new_subject_is_left_as_typed(typed: str) -> None:
    assert new_subject(typed) is None
    assert without_aside(typed) == typed
