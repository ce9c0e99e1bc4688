"""Which words a hedge may name: what the question is about, never its verbs or its asides (issue 22, "honest
hedges"). Examples from the realdocs, freshdocs and nextdocs tune splits, whose answers carried such hedges."""

from __future__ import annotations

import pytest

from masis.judge.phrases import content_words
from masis.llm.extractive import ExtractiveProvider
from masis.state import EvidenceChunk


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


def _chunk(doc: str, text: str) -> EvidenceChunk:
    return {"chunk_id": f"{doc}#1", "doc_name": doc, "text": text, "page": None, "section": None,
            "relevance": 1.0, "score": 1.0}


def test_a_hedge_does_not_name_the_document_the_question_read() -> None:
    # tooldocs' cv-397#2 and datadocs' dd-075 ended "The documents do not say anything about README." above the
    # wheel's METADATA, which is that README
    metadata = _chunk("pyarrow-METADATA.md", "Install the latest version from conda-forge: conda install pyarrow "
                                             "-c conda-forge")
    answer = ExtractiveProvider().synthesize("Which conda channel does the pyarrow README install pyarrow from?",
                                             [metadata])
    assert "conda-forge" in answer
    assert "README" not in answer


def test_a_hedge_does_not_name_the_kind_of_answer_given() -> None:
    # servicedocs sd-051 and sv-102 ended "… about version." under the version they gave
    news = _chunk("gunicorn-news.rst", "Since 19.6.0 the PID file during a binary upgrade ends in .pid.2 instead "
                                       "of .2.pid.")
    answer = ExtractiveProvider().synthesize(
        "Since which Gunicorn version do PID files during a binary upgrade end in .pid.2?", [news])
    assert "19.6.0" in answer
    assert "anything about version" not in answer
