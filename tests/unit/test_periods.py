"""A "when" question about a moment is not answered by a span of years that is not said to be that moment."""

from __future__ import annotations

from masis.judge import grounding, periods
from masis.state import EvidenceChunk


def test_a_span_of_something_else_does_not_date_the_moment() -> None:
    assert periods.span_for_moment("When did Otto von Bismarck die?",
                                   ["Its long-time Chancellor, Otto von Bismarck (1862–90), long opposed colonial "
                                    "acquisitions."]) == "1862–90"
    assert periods.span_for_moment("When did the Ottoman Empire rise?",
                                   ["The Ottoman Empire was an imperial state that lasted from 1299 to 1923."]) == (
        "1299 to 1923")
    assert periods.span_for_moment("When was the legacy dispatch console retired?",
                                   ["The legacy dispatch console ran in production from 2009 to 2021."])


def test_a_quote_that_says_the_event_or_a_single_date_is_left_to_the_words() -> None:
    # the event is said
    assert not periods.span_for_moment("When was the legacy dispatch console retired?",
                                       ["The legacy dispatch console was retired in 2021 after running from 2009 to "
                                        "2021."])
    assert not periods.span_for_moment("When did the war start?", ["The war (1754–1763) started in the Ohio valley."])
    # a year outside any span is a date of its own
    assert not periods.span_for_moment("When did Bismarck die?", ["Bismarck (1862–90) left office and died in 1898."])
    # ISO dates are no spans; other questions are not read
    assert not periods.span_for_moment("When was Debian 12 released?", ["release: 2023-06-10; eol: 2026-06-10"])
    assert not periods.span_for_moment("Who was chancellor?", ["Otto von Bismarck (1862–90) was chancellor."])


def test_the_grounding_floor_flags_a_span_for_a_moment() -> None:
    chunk: EvidenceChunk = {"chunk_id": "Imperialism-027.txt#1", "doc_name": "Imperialism-027.txt", "page": None,
                            "section": None, "relevance": 1.0, "score": 1.0,
                            "text": "Its long-time Chancellor, Otto von Bismarck (1862–90), long opposed colonial "
                                    "acquisitions."}
    answer = ("Its long-time Chancellor, Otto von Bismarck (1862–90), long opposed colonial acquisitions "
              "[Imperialism-027.txt#1].")
    assert grounding.check("When did Otto von Bismarck die?", answer, [chunk]).span_for_moment == "1862–90"
    assert not grounding.check("When was Otto von Bismarck chancellor?", answer, [chunk]).span_for_moment
