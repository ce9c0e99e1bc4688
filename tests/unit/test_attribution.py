"""Attribution (masis.judge.attribution): a sentence is cited to the passage that states its figures, names and words,
and a sentence no passage supports is never made to look supported."""

from __future__ import annotations

from masis.judge import grounding
from masis.judge.attribution import attribute, supporting_passage
from masis.judge.citations import audit
from masis.state import EvidenceChunk


def chunk(chunk_id: str, text: str, section: str | None = None) -> EvidenceChunk:
    return {"chunk_id": chunk_id, "doc_name": chunk_id.split("#")[0], "text": text, "page": None,
            "section": section, "relevance": 1.0, "score": 1.0}  # fmt: skip


MEMO = chunk(
    "strategy_memo.pdf#1",
    "This memo sets out how Kestrel Labs will invest in artificial intelligence over the coming fiscal year. "
    "Kestrel Labs will invest $4.2 million in AI during FY2026. The money is spread across three pillars.",
)
BUDGET = chunk(
    "budget_fy2026.docx#3",
    "The R&D budget is $11.5 million. The AI programme budget is $4.2 million, and it sits within the R&D budget.",
    section="Investment areas",
)
Q3 = chunk("q3_report.md#2", "Q3 2026 revenue was $12.4 million, up 18% year over year. Gross margin was 61%.")
POLICY = chunk("remote_work_policy.html#2", "Employees may work remotely up to 3 days a week.", "Working from home")
EVIDENCE = [MEMO, BUDGET, Q3, POLICY]
AI_QUESTION = "How much will Kestrel Labs invest in AI during FY2026?"


def test_an_uncited_sentence_is_cited_to_the_passage_that_states_it() -> None:
    # what Qwen2.5-0.5B wrote for 10 of 12 questions: the right sentence, no citation
    result = attribute("Kestrel Labs will invest $4.2 million in AI during FY2026.", EVIDENCE, AI_QUESTION)

    assert result.answer == "Kestrel Labs will invest $4.2 million in AI during FY2026 [strategy_memo.pdf#1]."
    assert result.attached == ["Kestrel Labs will invest $4.2 million in AI during FY2026."]
    assert audit(result.answer, [c["chunk_id"] for c in EVIDENCE]).valid_ids == ["strategy_memo.pdf#1"]


def test_the_passage_holding_most_of_the_sentences_own_words_wins() -> None:
    remote = "How many days a week may employees work remotely?"
    days = "Employees may work remotely up to 3 days a week."
    assert supporting_passage(days, EVIDENCE, remote) == POLICY["chunk_id"]
    rd = "The R&D budget is $11.5 million."
    assert supporting_passage(rd, EVIDENCE, "What is the R&D budget?") == BUDGET["chunk_id"]


def test_a_figure_no_passage_states_stays_uncited() -> None:
    result = attribute("Kestrel Labs will invest $5 million in AI during FY2026.", EVIDENCE, AI_QUESTION)

    assert result.answer == "Kestrel Labs will invest $5 million in AI during FY2026."
    assert result.unsupported == ["Kestrel Labs will invest $5 million in AI during FY2026."]
    assert audit(result.answer, [c["chunk_id"] for c in EVIDENCE]).valid_ids == []


def test_a_name_no_passage_states_stays_uncited() -> None:
    answer = "Kestrel Labs will invest $4.2 million in AI with Oxford University."
    assert attribute(answer, EVIDENCE, AI_QUESTION).answer == answer


def test_a_sentence_that_only_says_the_question_back_is_not_cited() -> None:
    answer = "Kestrel Labs will invest in AI during FY2026."
    assert attribute(answer, EVIDENCE, AI_QUESTION).answer == answer


def test_a_copy_of_the_feedback_is_not_cited() -> None:
    # what the same model wrote on a retry: the auditor's feedback, as its answer
    answer = "It cites no passage. End every sentence that states a fact with the id of its passage."
    result = attribute(answer, EVIDENCE, AI_QUESTION)
    assert result.answer == answer and not result.attached


def test_a_hedge_is_left_uncited() -> None:
    answer = "The documents do not say how the $4.2 million is split by quarter."
    assert attribute(answer, EVIDENCE, AI_QUESTION).answer == answer


def test_a_sentence_whose_citation_states_it_is_kept_as_written() -> None:
    answer = "The AI programme budget is $4.2 million [budget_fy2026.docx#3]."
    result = attribute(answer, EVIDENCE, AI_QUESTION)
    assert result.answer == answer and not result.moved


def test_a_citation_to_a_passage_that_does_not_state_the_figure_moves_to_one_that_does() -> None:
    answer = "Gross margin was 61% [strategy_memo.pdf#1]."
    result = attribute(answer, EVIDENCE, "What was the gross margin in Q3 2026?")
    assert result.answer == "Gross margin was 61% [q3_report.md#2]."
    assert result.moved == ["Gross margin was 61%."]


def test_a_wrong_citation_no_passage_can_replace_stays_for_the_floors() -> None:
    answer = "Revenue grew 12% [q3_report.md#2]."
    result = attribute(answer, EVIDENCE, "What was Q3 revenue?")
    assert result.answer == answer
    assert grounding.unsupported_sentences("What was Q3 revenue?", result.answer, EVIDENCE) == ["Revenue grew 12%."]


def test_an_id_outside_the_evidence_is_never_replaced() -> None:
    answer = "Gross margin was 61% [other.pdf#9]."
    assert attribute(answer, EVIDENCE, "What was the gross margin?").answer == answer


def test_an_attributed_near_miss_still_meets_the_anchor_floor() -> None:
    """Attribution cites the Q3 figure for a Q2 question; the near-miss floor still sees that no quote holds Q2."""
    question = "What was the gross margin in Q2 2026?"
    result = attribute("The gross margin in Q2 2026 was 61%.", EVIDENCE, question)

    assert result.answer == "The gross margin in Q2 2026 was 61% [q3_report.md#2]."
    assert grounding.missing_anchors(question, result.answer, EVIDENCE) != []


def test_an_answer_nothing_changed_in_is_returned_as_written() -> None:
    answer = "Employees may work remotely\nup to 3 days a week [remote_work_policy.html#2]."
    assert attribute(answer, EVIDENCE, "How many days a week may employees work remotely?").answer == answer


def test_a_sentence_framed_by_its_sources_is_cited_by_what_it_states() -> None:
    # recorded from Qwen2.5-Coder-0.5B: "According to the evidence" are words about the passages, not from them
    memo = chunk("strategy_memo.pdf#3", "We plan to hire 12 machine learning engineers in FY2026. New hires will "
                 "join the existing platform teams.")  # fmt: skip
    question = "How many machine learning engineers does Kestrel Labs plan to hire in FY2026?"
    for draft in (
        "According to the evidence, Kestrel Labs plans to hire 12 machine learning engineers in FY2026.",
        "The passages state that Kestrel Labs plans to hire 12 machine learning engineers in FY2026.",
    ):
        assert attribute(draft, [MEMO, memo], question).attached == [draft]
    assert attribute("According to the evidence, it plans to hire 15 engineers.", [memo], question).attached == []


def test_a_sentence_joining_facts_of_two_sentences_is_not_cited() -> None:
    # recorded from Qwen2.5-Coder-0.5B: every word is in the roadmap passage, but not in one sentence of it
    roadmap = chunk("product_roadmap.txt#2", "Q3 2027: the legacy dispatch console is retired. Customers still "
                    "using it will be moved to the new dispatch workspace. Board update. The roadmap was presented "
                    "to the board in October 2026.")  # fmt: skip
    question = "When will the legacy dispatch console be retired?"
    wrong = "The legacy dispatch console will be retired in October 2026."
    assert attribute(wrong, [roadmap], question).answer == wrong
    right = "The legacy dispatch console will be retired in Q3 2027."
    assert attribute(right, [roadmap], question).attached == [right]


TARGETS = chunk(
    "strategy_memo.pdf#2",
    "We will build forecasting and routing models in-house, because they are the core of our product. Our headline "
    "target is to cut fuel costs by 15% by the end of 2027 for customers who use our routing.",
)
FUEL = "By how much does Kestrel Labs aim to cut fuel costs by the end of 2027?"


def test_a_supported_leading_clause_is_cited_and_the_tail_joined_onto_it_dropped() -> None:
    # recorded from Qwen2.5-Coder-0.5B: two sentences of the memo joined by "by building"
    joined = (
        "Kestrel Labs aims to cut fuel costs by 15% by the end of 2027 by building forecasting and routing models "
        "in-house, because they are the core of our product."
    )
    result = attribute(joined, [TARGETS], FUEL)

    assert result.answer == "Kestrel Labs aims to cut fuel costs by 15% by the end of 2027 [strategy_memo.pdf#2]."
    tail = "by building forecasting and routing models in-house, because they are the core of our product."
    assert result.trimmed == [tail]
    assert result.as_dict()["trimmed"] == 1


def test_the_longest_supported_clause_is_kept() -> None:
    joined = "The AI programme budget is $4.2 million, and it sits within the R&D budget, which Dana Whitfield runs."
    result = attribute(joined, [BUDGET], "How large is the AI programme budget?")

    assert result.answer == (
        "The AI programme budget is $4.2 million, and it sits within the R&D budget [budget_fy2026.docx#3]."
    )
    assert result.trimmed == ["which Dana Whitfield runs."]


def test_a_condition_is_never_cut_off_and_an_unsupported_lead_is_never_cited() -> None:
    conditional = "Employees may work remotely up to 3 days a week if their manager approves it."
    assert attribute(conditional, [POLICY], "How many days a week may employees work remotely?").answer == conditional
    # the lead is the unsupported part: nothing is cited, nothing is dropped
    wrong_lead = "Kestrel Labs aims to cut fuel costs by 20% by the end of 2027, because routing is the core."
    result = attribute(wrong_lead, [TARGETS], FUEL)
    assert result.answer == wrong_lead and result.trimmed == [] and result.unsupported == [wrong_lead]
