"""Which words a hedge may name: what the question is about, never its verbs or its asides (issue 22, "honest
hedges"). Examples from the realdocs, freshdocs and nextdocs tune splits, whose answers carried such hedges."""

from __future__ import annotations

import pytest

from masis.judge.phrases import content_words


@pytest.mark.parametrize(
    ("question", "named", "not_named"),
    [
        # realdocs tune rd-108: "The documents do not say anything about sets."
        ("Which asn1Parser option sets the array name?", {"asn1Parser"}, {"sets", "array"}),
        # freshdocs tune fd-038: "… about fall, back, box."
        ("whose ntp servers does timesyncd fall back to out of the box?", set(), {"fall", "back", "box"}),
        # realdocs tune rd-004: "… about q, box."
        ("hey quick q - how long does a node http server keep an idle socket open?", {"node", "http", "server"},
         {"q", "quick", "hey", "keep"}),
        # realdocs tune rd-200: "… about rely, protect, user-supplied, user-supplied."
        ("Can I rely on path.isAbsolute() to protect against path traversal?", {"path.isAbsolute()"}, {"rely"}),
        # a release, a period and the subject's nouns are what a gap is made of
        ("How much did the Falcon X2 cost in Q3 2026?", {"Falcon", "X2", "Q3", "2026"}, {"cost"}),
        ("What is the launch price of the Heron S1?", {"launch", "price", "Heron", "S1"}, {"What", "is"}),
    ],
)
def test_a_hedge_names_what_the_question_is_about(question: str, named: set[str], not_named: set[str]) -> None:
    words = set(content_words(question))
    assert named <= words, words
    assert not (not_named & words), words
