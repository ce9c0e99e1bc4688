"""What a thing does is said by a sentence about it: real cases from the follow-up track's tune split."""

from __future__ import annotations

from masis.judge import grounding
from masis.judge.described import undescribed
from masis.state import EvidenceChunk


def _chunk(doc: str, section: str | None = None, text: str = "") -> EvidenceChunk:
    return {"chunk_id": f"{doc}#1", "doc_name": doc, "text": text, "page": None, "section": section,
            "relevance": 1.0, "score": 1.0}


def test_a_quote_that_only_mentions_the_subject_does_not_say_what_it_does() -> None:
    # conversations tune cv-061#2 (answered at 1.0): the roadmap's board note mentions the product
    roadmap = _chunk("product_roadmap.txt")
    question = "What does Route Optimiser 2.0 do?"
    board = "The board asked the product team to keep the Route Optimiser 2.0 launch date fixed."
    assert undescribed(question, [(board, roadmap)]) == "Route Optimiser 2.0"
    about = "Route Optimiser 2.0 plans routes for mixed fleets of vans and trucks."
    assert undescribed(question, [(board, roadmap), (about, roadmap)]) is None
    # a heading that names it makes its sentences about it
    under = _chunk("r.txt", "Route Optimiser 2.0")
    assert undescribed(question, [("It plans routes for mixed fleets.", under)]) is None


def test_the_subject_with_its_article() -> None:
    # conversations tune cv-101#2 (answered at 1.0 with who reviews, for what the council looks at)
    memo = _chunk("strategy_memo.pdf")
    question = "What do the AI Governance Council look at?"
    assert undescribed(question, [("Every production model is reviewed by the AI Governance Council before launch.",
                                   memo)]) == "the AI Governance Council"
    assert undescribed(question, [("The AI Governance Council checks accuracy, privacy and the fallback plan.",
                                   memo)]) is None


def test_a_question_with_other_words_is_left_to_them() -> None:
    sheet = _chunk("heron_s1_datasheet.txt")
    assert undescribed("What does the Heron S1 weigh?", [("It weighs 320 g.", sheet)]) is None
    assert undescribed("What does DEP0140 say to use instead of request.abort()?",
                       [("Use request.destroy() instead of request.abort().", sheet)]) is None


def test_the_floor_is_reported() -> None:
    roadmap = _chunk("product_roadmap.txt", text="The board asked to keep the Route Optimiser 2.0 launch date fixed.")
    answer = "The board asked to keep the Route Optimiser 2.0 launch date fixed [product_roadmap.txt#1]."
    floors = grounding.check("What does Route Optimiser 2.0 do?", answer, [roadmap])
    assert floors.undescribed == "Route Optimiser 2.0"
