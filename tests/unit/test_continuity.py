"""A follow-up answered from a document its thread never used (`masis.judge.continuity`), on real threads."""

from __future__ import annotations

import pytest

from masis.judge.continuity import drifted
from masis.judge.reading import points_back


def test_a_pronoun_answered_from_a_document_the_thread_never_used_has_drifted() -> None:
    # conversations tune cv-206 at its first run: "it" is packrat; the answer came from underscore's docs
    assert drifted(
        "how do i turn it on",
        ["underscore-index.html"],
        ["when should i turn on packrat in pyparsing"],
        ["pyparsing-best_practices.md"],
    ) == ["underscore-index.html"]


def test_a_follow_up_that_names_its_new_document_switches_on_purpose() -> None:
    # cv-112: from certifi's security policy to google-auth's, named in the follow-up
    assert drifted(
        "and google-auth?",
        ["google-auth-SECURITY.md"],
        ["How fast does certifi respond to security reports?"],
        ["certifi-SECURITY.md"],
    ) == []


def test_a_new_word_that_only_repeats_the_earlier_question_names_nothing() -> None:
    # "security" was the first question's word: it does not make certifi's thread about another policy
    assert drifted(
        "and the security one?",
        ["google-auth-SECURITY.md"],
        ["How fast does certifi respond to security reports?"],
        ["certifi-SECURITY.md"],
    ) == ["google-auth-SECURITY.md"]


def test_a_stem_of_the_document_name_names_it() -> None:
    # a self-contained follow-up in the router thread: "return" names returns_policy.html
    assert drifted(
        "How many days do customers have to return a router?",
        ["returns_policy.html"],
        ["When does the Falcon X2 launch?"],
        ["falcon_x2_datasheet.md"],
    ) == []


def test_an_answer_from_a_document_the_thread_used_has_not_drifted() -> None:
    assert drifted(
        "How much will it cost?",
        ["falcon_x2_datasheet.md", "heron_s1_datasheet.txt"],
        ["When does the Falcon X2 launch?"],
        ["falcon_x2_datasheet.md"],
    ) == []


def test_a_thread_that_cited_nothing_yet_cannot_be_drifted_from() -> None:
    assert drifted("how do i turn it on", ["underscore-index.html"], ["when should i turn on packrat"], []) == []


@pytest.mark.parametrize(
    "question",
    ["which one wins if both are there", "do i send bug reports to him", "what generates that file",
     "can i set all of them with one flag", "what else do i need on a mac"],
)
def test_questions_left_as_typed_that_still_point_back(question: str) -> None:
    # follow-ups of unseen threads (tune) that the rules read as typed and that drifted to another document
    assert points_back(question)


@pytest.mark.parametrize(
    "question", ["How long does a warranty repair take?", "what would a hotfix after v10.2.7 be"]
)
def test_self_contained_follow_ups_do_not_point_back(question: str) -> None:
    # a self-contained follow-up may move to a new document: the drift rule leaves it alone
    assert not points_back(question)
