"""Evaluation metrics on a toy set small enough to check by hand (the figures in comments)."""

from __future__ import annotations

import math

import pytest

from masis.eval import metrics as m
from masis.eval.datasets import Query
from masis.eval.runner import answer_record, check_targets, cited_claims, ranking_figures, ratio
from masis.outcome import Citation, Outcome

RANKING = ["d3", "d1", "d2"]
JUDGED = {"d1": 2, "d2": 1, "d9": 0}


def test_ndcg_uses_linear_gains_and_the_ideal_order() -> None:
    dcg = 2 / math.log2(3) + 1 / math.log2(4)  # d1 (grade 2) at rank 2, d2 (grade 1) at rank 3
    ideal = 2 / math.log2(2) + 1 / math.log2(3)
    assert m.ndcg_at_k(RANKING, JUDGED, 10) == pytest.approx(dcg / ideal)  # 0.6697
    assert m.ndcg_at_k(["d1", "d2"], JUDGED, 10) == pytest.approx(1.0)
    assert m.ndcg_at_k(RANKING, JUDGED, 1) == 0.0
    assert m.ndcg_at_k(RANKING, {"d9": 0}, 10) == 0.0  # nothing relevant: 0, not a division by zero


def test_recall_hit_and_average_precision() -> None:
    assert m.recall_at_k(RANKING, JUDGED, 2) == 0.5  # d1 of {d1, d2}; d9 (grade 0) is not relevant
    assert m.recall_at_k(RANKING, JUDGED, 3) == 1.0
    assert m.hit_at_k(RANKING, JUDGED, 1) == 0.0
    assert m.hit_at_k(RANKING, JUDGED, 2) == 1.0
    assert m.average_precision(RANKING, JUDGED) == pytest.approx((1 / 2 + 2 / 3) / 2)
    assert m.average_precision(["d1"], {"d1": 1, "d2": 1}) == 0.5  # an unretrieved relevant doc counts 0


def test_ranking_figures_average_over_queries_and_ratio_divides() -> None:
    queries = [Query("q1", "x", {"a": 1}), Query("q2", "y", {"b": 1})]
    figures = ranking_figures([["a", "c"], ["c", "b"]], queries)
    assert figures["hit@1"] == 0.5
    assert figures["map"] == pytest.approx((1 + 0.5) / 2)
    assert ratio({"map": 0.3, "x": 1.0}, {"map": 0.6, "x": 0.0}) == {"map": 0.5, "x": None}


def test_squad_normalisation_exact_match_and_f1() -> None:
    assert m.normalize_answer("The  Denver Broncos!") == "denver broncos"
    assert m.exact_match("the Denver Broncos.", ["Broncos", "Denver Broncos"]) == 1.0
    # "denver broncos won" against "denver broncos": precision 2/3, recall 1 -> F1 0.8
    assert m.f1_score("Denver Broncos won", ["the Denver Broncos", "Carolina"]) == pytest.approx(0.8)
    assert m.f1_score("nothing shared", ["Denver"]) == 0.0


def test_containment_is_word_aligned_after_normalisation() -> None:
    assert m.contains_answer("It will cost $4.2 million in FY2026.", ["$4.2 million"])
    assert m.contains_answer("The University of Leeds is the partner.", ["university of Leeds"])
    assert not m.contains_answer("He made 118 tackles.", ["11"])
    assert not m.contains_answer("anything", [""])
    # a dash between words parts them (SQuAD 2.0 dev, Normans: was scored wrong)
    assert m.contains_answer("Dyrrachium—one of the naval bases of the Adriatic—fell again", ["Adriatic"])
    assert m.contains_answer("All tools: $SYSTEMD_OFFLINE=[0|1] — if set to 1", ["$SYSTEMD_OFFLINE"])
    assert not m.contains_answer("$SYSTEMD_OFFLINE_MODE=1", ["$SYSTEMD_OFFLINE"])
    # so does a colon: "boolean (default:True)" holds "True" (opsdocs od-001), "Sekulić:The" holds "Sekulić"
    assert m.contains_answer("Unattended-Upgrade::MinimalSteps - boolean (default:True)", ["True"])
    assert m.contains_answer('string (default:"root")', ["root"])
    assert not m.contains_answer("default:Trueish", ["True"])
    # typographic quotes go as ASCII ones do (servicedocs sv-101 was scored wrong)
    assert m.contains_answer("“1m” is taken to mean “31d” [borgbackup-prune.html#5].", ["31d"])
    assert m.contains_answer("The default for both daemons is ”20”.", ["20"])
    assert m.contains_answer("it doesn’t expire", ["doesn't expire"])
    assert not m.contains_answer("“31d”", ["31"])
    # so do trademark signs (mldocs tune ml-057 was scored wrong), and a double quote or a call's bracket parts words
    # (ml-066, apidocs check ad-009)
    assert m.contains_answer("developed by Preferred Networks™ (PFN™)", ["Preferred Networks"])
    assert m.contains_answer('mlflow.set_tracking_uri("http://localhost:5000")', ["http://localhost:5000"])
    assert m.contains_answer("With load_dotenv(override=False), the first value wins", ["override=False"])
    # ... but a man page's section is no figure of the text
    assert not m.contains_answer("The -P option to xargs(1) sets the number of processes", ["1"])
    # a type's bracket too (jiter's signature, libdocs lb-046), not an index's figure
    assert m.contains_answer("float_mode: Literal['float', 'decimal', 'lossless-float'] = 'float'",
                             ["'float', 'decimal', 'lossless-float'"])
    assert not m.contains_answer("the first item, args[0], is the name", ["0"])
    # a man page's acute-accent quote too (gcloud config set, extradocs xd-005)
    assert m.contains_answer("• ´if_fast_else_fail' - (default) Only integrity check if …", ["if_fast_else_fail"])
    # a link's path parts its segments for an answer that is no link (teamdocs check td-073, webdocs wd-016)
    advisory = "Resolve https://github.com/advisories/GHSA-vqfr-h8mv-ghfj with h11"
    assert m.contains_answer(advisory, ["GHSA-vqfr-h8mv-ghfj"])
    assert not m.contains_answer("See https://example.org/docs/v2/setup", ["https://example.org/docs"])
    # and so do its anchor and AsciiDoc's link text (platformdocs tune pf-017)
    renamed = "Renamed *secondary_storage* to https://ccache.dev/manual/4.7.html#config_remote_storage[*remote_storage*]"
    assert m.contains_answer(renamed, ["remote_storage"])
    assert not m.contains_answer(renamed, ["config"])
    assert not m.contains_answer("Paths like /usr/etc/masis.conf are read", ["etc"])


def test_token_support_and_percentile() -> None:
    assert m.token_support("Remote work: 3 days.", "Staff may work remotely 3 days; remote work is fine.") == 1.0
    assert m.token_support("Staff earn 5 days", "Staff earn 3 days") == pytest.approx(3 / 4)
    assert m.percentile([5.0, 1.0, 3.0, 2.0, 4.0], 0.5) == 3.0
    assert m.percentile([1.0, 2.0], 0.95) == 2.0


def _outcome(status: str, answer: str, citations: list[Citation]) -> Outcome:
    return Outcome(status=status, thread_id="t", workspace_id="w", answer=answer, citations=citations,
                   metrics={"llm_calls": 3})  # fmt: skip


def test_answer_record_scores_the_first_three_cited_sentences() -> None:
    budget = Citation(number=1, chunk_id="a.txt#1", doc_name="a.txt", text="The AI budget is $4.2 million.")
    other = Citation(number=2, chunk_id="b.txt#1", doc_name="b.txt", text="Offices open at nine.")
    answer = (
        "The AI budget is $4.2 million [a.txt#1]. Offices open at ten [b.txt#1]. "
        "The documents do not say anything about Leeds."
    )
    query = Query("q", "How much for AI?", {"a.txt": 1}, ("$4.2 million",))
    record = answer_record(_outcome("answered", answer, [budget, other]), query, {"a.txt": "a.txt", "b.txt": "b.txt"})
    assert record["contains"] is True
    assert record["sentences"] == 2  # the hedge is not a claim
    assert record["citation_precision"] == 0.5  # b.txt#1 does not hold the answer
    assert record["faithfulness"] == 0.5  # "ten" is not in "Offices open at nine." (3 of 4 words)
    assert record["em"] == 0.0 and 0 < record["f1"] < 1

    late = " ".join(f"Filler sentence number {i} [b.txt#1]." for i in range(3)) + " It is $4.2 million [a.txt#1]."
    assert answer_record(_outcome("answered", late, [budget, other]), query, {})["contains"] is False
    drafted = answer_record(_outcome("needs_clarification", answer, [budget, other]), query, {})
    assert drafted["contains"] is False and drafted["contains_incl_drafts"] is True


def test_claims_split_at_citation_markers_even_without_punctuation() -> None:
    answer = (
        "solar flares raise absorption [a.txt#1] [b.txt#2] radio noise falls at night [c.txt#1]. "
        "The documents do not say anything about x."
    )
    assert cited_claims(answer) == [
        ("solar flares raise absorption", ["a.txt#1", "b.txt#2"]),
        ("radio noise falls at night", ["c.txt#1"]),
    ]
    assert cited_claims("No citations here.") == []
    # a quoted fact that says "disagreed" is no hedge (SQuAD 2.0 dev, French and Indian War: was scored wrong)
    fact = "Montcalm and the Indians disagreed about the disposition of prisoners' personal effects"
    assert cited_claims(f"{fact} [f.txt#1]. The sources disagree on the date [g.txt#2].") == [(fact, ["f.txt#1"])]


def test_retrieval_sets_score_citations_by_the_judged_document() -> None:
    cited = Citation(number=1, chunk_id="d7.txt#2", doc_name="d7.txt", text="Zebra stripes deter flies.")
    query = Query("q", "why stripes", {"7": 1})
    record = answer_record(_outcome("answered", "Zebra stripes deter flies [d7.txt#2].", [cited]), query,
                           {"d7.txt": "7"})  # fmt: skip
    assert record["citation_precision"] == 1.0 and record["faithfulness"] == 1.0 and "contains" not in record


def test_targets_are_checked_against_the_issue_thresholds() -> None:
    results = {
        "dataset": "scifact-test",
        "retrieval": {"masis": {"ndcg@10": 0.681}, "ratio": {"ndcg@10": 0.98}},
    }
    assert [c["met"] for c in check_targets(results)] == [True, False]


def test_a_gold_of_punctuation_alone_is_looked_for_as_written() -> None:
    # mandocs md2-081 (sqlite3's continue prompt) and conversations cv-127 (safe.directory's '*'): SQuAD's
    # normalisation leaves nothing of them, which no answer could ever hold
    assert m.contains_answer('main prompt = "sqlite> " continue prompt = "   ...> "', ['"   ...> "'])
    assert m.contains_answer("or use '*' to declare that you trust anything", ["'*'"])
    assert not m.contains_answer("or use * to declare that you trust anything", ["'*'"])
    assert not m.contains_answer("any answer at all", ["  "])
