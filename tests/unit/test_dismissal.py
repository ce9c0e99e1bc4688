"""A model critic's findings read against the draft (masis.judge.dismissal), and a conflict without its topic."""

from __future__ import annotations

from masis.judge.citations import audit
from masis.judge.dismissal import dismiss, named_sentences
from masis.judge.findings import Conflict, ConflictClaim, Critique
from masis.state import EvidenceChunk

THRESHOLD = 0.65


def chunk(chunk_id: str, text: str) -> EvidenceChunk:
    doc = chunk_id.split("#")[0]
    return {"chunk_id": chunk_id, "doc_name": doc, "text": text, "page": None, "section": None, "relevance": 1.0,
            "score": 1.0}  # fmt: skip


MEMO = chunk(
    "strategy_memo.pdf#1",
    "AI Investment Strategy FY2026\nKestrel Labs will invest $4.2 million in AI during FY2026. The money is spread "
    "across three pillars.",
)
Q3 = chunk("q3_report.md#2", "Q3 2026 revenue was $12.4 million, up 18% year over year.")
ROADMAP = chunk("product_roadmap.txt#2", "Q3 2026 revenue came in at $11.9 million.")
EVIDENCE = [MEMO, Q3, ROADMAP]
ANSWER = "Kestrel Labs will invest $4.2 million in AI, Dana says [strategy_memo.pdf#1]."


def run(critique: Critique, answer: str = ANSWER) -> tuple[Critique, list[str]]:
    ids = [c["chunk_id"] for c in EVIDENCE]
    kept, dismissed = dismiss(critique, answer, EVIDENCE, audit(answer, ids), THRESHOLD)
    return kept, [d.kind for d in dismissed]


# --- which sentences a finding names -------------------------------------------------------------------------


def test_a_finding_names_the_sentence_it_quotes_with_or_without_its_citation() -> None:
    answer = "Revenue was $12.4 million [q3_report.md#2]. The roadmap says otherwise [product_roadmap.txt#2]."
    assert named_sentences("Revenue was $12.4 million (q3_report.md#2).", answer) == [
        "Revenue was $12.4 million [q3_report.md#2]."
    ]
    assert len(named_sentences("Revenue was $12.4 million. The roadmap says otherwise.", answer)) == 2
    assert named_sentences("$12.4 million", answer) == ["Revenue was $12.4 million [q3_report.md#2]."]


def test_a_finding_names_no_sentence_of_text_the_draft_does_not_hold() -> None:
    assert named_sentences("AI Investment Strategy FY2026", ANSWER) == []
    assert named_sentences("The money is spread across three pillars.", ANSWER) == []
    assert named_sentences("", ANSWER) == []


def test_most_of_a_sentences_words_in_other_order_still_name_it() -> None:
    assert named_sentences("Dana says Kestrel Labs will invest $4.2 million in AI", ANSWER) == [ANSWER]


# --- what is dismissed --------------------------------------------------------------------------------------


def test_an_unsupported_claim_the_draft_does_not_hold_is_dismissed() -> None:
    kept, kinds = run(Critique(unsupported_claims=["AI Investment Strategy FY2026"], confidence=0.9))
    assert kept.unsupported_claims == [] and kinds == ["unsupported_claim"]


def test_an_unsupported_claim_the_draft_holds_stands() -> None:
    kept, kinds = run(Critique(unsupported_claims=["Dana says"], confidence=0.9))
    assert kept.unsupported_claims == ["Dana says"] and kinds == []


def test_a_claim_the_draft_quotes_word_for_word_from_its_cited_passage_is_dismissed() -> None:
    answer = "Kestrel Labs will invest $4.2 million in AI during FY2026 [strategy_memo.pdf#1]."
    claim = "Kestrel Labs will invest $4.2 million in AI during FY2026."
    kept, kinds = run(Critique(unsupported_claims=[claim], confidence=0.9), answer)
    assert kept.unsupported_claims == [] and kinds == ["unsupported_claim"]


def test_the_same_words_cited_to_a_passage_that_does_not_hold_them_stand() -> None:
    answer = "Kestrel Labs will invest $4.2 million in AI during FY2026 [q3_report.md#2]."
    kept, _ = run(Critique(unsupported_claims=["Kestrel Labs will invest $4.2 million"], confidence=0.9), answer)
    assert kept.unsupported_claims == ["Kestrel Labs will invest $4.2 million"]


def _side(chunk: EvidenceChunk, value: str) -> ConflictClaim:
    return ConflictClaim(chunk_id=chunk["chunk_id"], doc_name=chunk["doc_name"], value=value, sentence=chunk["text"])


def test_a_conflict_needs_sides_from_two_documents_of_the_evidence() -> None:
    two = Conflict(topic="Q3 revenue", claims=[_side(Q3, "$12.4 million"), _side(ROADMAP, "$11.9 million")])
    one = Conflict(topic="", claims=[_side(Q3, "$12.4 million")])
    invented = ConflictClaim(chunk_id="other.md#1", doc_name="other.md", value="$9 million", sentence="…")
    outside = Conflict(topic="Q3 revenue", claims=[_side(Q3, "$12.4 million"), invented])
    kept, kinds = run(Critique(conflicts=[two, one, outside], confidence=0.9))
    assert kept.conflicts == [two] and kinds == ["conflict", "conflict"]


def test_a_hallucination_flag_naming_nothing_is_dismissed_but_not_with_an_invalid_id() -> None:
    kept, kinds = run(Critique(hallucination_detected=True, confidence=0.9))
    assert not kept.hallucination_detected and kinds == ["hallucination"]
    invalid = "Kestrel Labs will invest $4.2 million in AI [strategy_memo.pdf#9]."
    kept, kinds = run(Critique(hallucination_detected=True, confidence=0.9), invalid)
    assert kept.hallucination_detected and "hallucination" not in kinds


def test_a_hallucination_flag_with_a_claim_the_draft_holds_stands() -> None:
    kept, kinds = run(Critique(hallucination_detected=True, unsupported_claims=["Dana says"], confidence=0.2))
    assert kept.hallucination_detected and kept.confidence == 0.2 and kinds == []


def test_a_low_confidence_or_retry_request_with_no_finding_standing_is_read_as_the_threshold() -> None:
    kept, kinds = run(Critique(confidence=0.0, needs_retry=True))
    assert kept.confidence == THRESHOLD and not kept.needs_retry and kinds == ["needs_retry", "confidence"]
    kept, kinds = run(Critique(unsupported_claims=["AI Investment Strategy FY2026"], confidence=10))  # 10 %
    assert kept.confidence == THRESHOLD and kinds == ["unsupported_claim", "confidence"]


def test_a_gap_keeps_the_verdict() -> None:
    kept, kinds = run(Critique(logical_gaps=["who approved it"], confidence=0.3, needs_retry=True))
    assert kept.confidence == 0.3 and kept.needs_retry and kinds == []


def test_a_high_confidence_is_left_as_it_is() -> None:
    kept, kinds = run(Critique(confidence=0.9))
    assert kept == Critique(confidence=0.9) and kinds == []


# --- a conflict without its topic ---------------------------------------------------------------------------


def test_a_conflict_written_as_one_side_without_its_topic_is_read_as_that_side() -> None:
    side = {"chunk_id": "budget.docx#2", "doc_name": "budget.docx", "value": "$38 million", "sentence": "…"}
    critique = Critique.model_validate({"conflicts": [side]})
    assert critique.conflicts[0].topic == "" and critique.conflicts[0].claims[0].value == "$38 million"
    assert Conflict.model_validate({"claims": [side]}).topic == ""
    assert Conflict.model_validate({"topic": "budget", "claims": []}).topic == "budget"
