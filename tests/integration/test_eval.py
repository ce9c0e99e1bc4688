"""`masis eval` end to end through the real engine: the sample set, and tiny fixtures in each dataset's own
format (written here, so the tests never depend on the size of the shared collections)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from masis.cli import main
from masis.errors import MasisError
from masis.eval.datasets import load
from masis.eval.runner import ingest_figures

from ..conftest import REPO

ABSTRACTS = {
    "101": ("Zebra stripes and biting flies", "Striped hides deter horseflies from landing. Flies avoid stripes."),
    "102": ("Coral bleaching under heat stress", "Warm water expels algae from coral tissue, bleaching reefs."),
    "103": ("Glacier retreat in the Alps", "Alpine glaciers lost mass each decade since records began."),
    "104": ("Sleep and memory consolidation", "Deep sleep replays the day and consolidates memory in mice."),
}


def write_scifact(root: Path) -> Path:
    (root / "qrels").mkdir(parents=True)
    rows = [{"_id": i, "title": title, "text": text} for i, (title, text) in ABSTRACTS.items()]
    (root / "corpus.jsonl").write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    queries = [
        {"_id": "1", "text": "Stripes keep biting flies away.", "metadata": {}},
        {"_id": "2", "text": "Heat makes coral bleach.", "metadata": {}},
        {"_id": "3", "text": "Unjudged claim about glaciers.", "metadata": {}},
    ]
    (root / "queries.jsonl").write_text("\n".join(json.dumps(q) for q in queries) + "\n")
    (root / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\n1\t101\t1\n2\t102\t1\n")
    return root


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["eval", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_scifact_loader_and_a_limited_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = write_scifact(tmp_path / "scifact")
    labelled = load("scifact", root)
    assert [q.id for q in labelled.queries] == ["1", "2"]  # only judged queries
    assert labelled.documents[0].text.startswith("Zebra stripes and biting flies\n\n")

    code, out, _ = run_cli(capsys, "scifact", str(root), "--limit", "1", "--seed", "3", "--json")
    results = json.loads(out)
    assert code == 0
    assert results["queries"] == 1 and results["documents"] == 4 and results["documents_failed"] == 0
    assert results["notes"] == ["1 of 2 queries, drawn with seed 3"]
    # each query shares its rare words with exactly one abstract: both systems put it first
    assert results["retrieval"]["masis"]["ndcg@10"] == 1.0
    assert results["retrieval"]["bm25s"]["ndcg@10"] == 1.0
    assert results["retrieval"]["ratio"]["ndcg@10"] == 1.0
    assert results["answers"]["masis"]["questions"] == 1
    assert {t["target"] for t in results["targets"]} == {"nDCG@10 ≥ 0.68", "nDCG@10 ≥ 0.99 × bm25s"}


def test_vaswani_and_squad_loaders_read_their_formats(tmp_path: Path) -> None:
    vaswani = tmp_path / "vaswani"
    (vaswani / "corpus").mkdir(parents=True)
    (vaswani / "corpus" / "doc-text.trec").write_text(
        "<DOC>\n<DOCNO>1</DOCNO>\ncompact memories have\nflexible capacities\n</DOC>\n"
        "<DOC>\n<DOCNO>2</DOCNO>\nan analogue computer\n</DOC>\n"
    )
    (vaswani / "query-text.trec").write_text("<top>\n<num>1</num><title>\nCOMPACT MEMORIES\n</title>\n</top>\n")
    (vaswani / "qrels").write_text("1 0 1 1\n")
    labelled = load("vaswani", vaswani)
    assert [(d.id, d.text) for d in labelled.documents] == [
        ("1", "compact memories have flexible capacities"),
        ("2", "an analogue computer"),
    ]
    assert [(q.id, q.text, q.judgements) for q in labelled.queries] == [("1", "COMPACT MEMORIES", {"1": 1})]

    squad = tmp_path / "dev-v1.1.json"
    context = "Denver won Super Bowl 50. The game was played in Santa Clara."
    qas = [{"id": "x1", "question": "Who won? ", "answers": [{"text": "Denver", "answer_start": 0}] * 2}]
    squad.write_text(json.dumps({"data": [{"title": "Super_Bowl", "paragraphs": [{"context": context, "qas": qas}]}]}))
    labelled = load("squad", squad)
    assert [d.id for d in labelled.documents] == ["Super_Bowl-000"]
    assert [(q.text, q.judgements, q.answers) for q in labelled.queries] == [
        ("Who won?", {"Super_Bowl-000": 1}, ("Denver",))
    ]


def test_eval_on_the_sample_set(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "sample", str(REPO / "data"), "--json")
    results = json.loads(out)
    assert code == 0
    assert results["documents"] == 6 and results["queries"] == 12 and results["documents_failed"] == 0
    masis, naive = results["answers"]["masis"], results["answers"]["naive"]
    assert results["retrieval"]["masis"]["hit@5"] == 1.0  # every question's document is in the top five
    assert masis["questions"] == naive["questions"] == 12
    assert masis["answered_rate"] + masis["clarification_rate"] == pytest.approx(1.0)
    assert masis["faithfulness"] == 1.0  # the extractive engine only quotes what it cites
    assert masis["containment"] >= 0.75
    assert masis["latency_p50_ms"] > 0 and masis["llm_calls_mean"] >= 3


def test_eval_markdown_and_clear_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = write_scifact(tmp_path / "scifact")
    code, out, _ = run_cli(capsys, "scifact", str(root), "--limit", "1", "--no-answers")
    assert code == 0
    assert "| retrieval | masis | bm25s | ratio |" in out and "| ndcg@10 | 1 | 1 | 1 |" in out
    assert "| answers |" not in out

    code, out, err = run_cli(capsys, "scifact", str(tmp_path / "missing"))
    assert code == 1 and out == "" and "no such file or directory" in err and "Traceback" not in err
    code, _, err = run_cli(capsys, "scifact", str(root), "--split", "dev")
    assert code == 1 and "qrels/dev.tsv: not found" in err
    code, _, err = run_cli(capsys, "scifact", str(root), "--limit", "0")
    assert code == 1 and "--limit must be at least 1" in err


ARTICLES = {  # title: (its one paragraph, a question it answers, the answer)
    "Glaciers": (
        "Alpine glaciers lost a third of their ice mass between 1980 and 2020.",
        "How much ice did glaciers lose?",
        "a third",
    ),
    "Coral": (
        "Warm water expels algae from coral tissue, which bleaches the reef white.",
        "What does warm water expel from coral?",
        "algae",
    ),
    "Falcons": (
        "Peregrine falcons dive at more than 300 kilometres per hour.",
        "How fast do peregrine falcons dive?",
        "300",
    ),
    "Saffron": (
        "Saffron is the dried stigma of the crocus flower, harvested by hand.",
        "What part of the crocus is saffron?",
        "stigma",
    ),
}


def write_articles(path: Path) -> Path:
    data = [
        {"title": title, "paragraphs": [{"context": context, "qas": [
            {"id": title, "question": question, "answers": [{"text": answer, "answer_start": context.find(answer)}]}
        ]}]}
        for title, (context, question, answer) in ARTICLES.items()
    ]
    path.write_text(json.dumps({"data": data}))
    return path


def test_the_open_book_split_withholds_whole_articles(tmp_path: Path) -> None:
    labelled = load("squad", write_articles(tmp_path / "dev-v1.1.json"))
    answerable, unanswerable = labelled.open_book(2, seed=4, limit=None)
    indexed = {d.group for d in answerable.documents}
    withheld = {q.id for q in unanswerable}  # a question's id is its article's title here
    assert len(indexed) == 2 and len(withheld) == 2 and not indexed & withheld
    assert indexed | withheld == set(ARTICLES)
    assert {q.id for q in answerable.queries} == indexed
    assert all(not q.answerable and q.kind == "unanswerable" for q in unanswerable)  # answered at all = wrong
    assert answerable.name == "squad-open-book"
    assert labelled.open_book(2, seed=4, limit=None)[0].documents == answerable.documents  # seeded
    with pytest.raises(MasisError, match="--open-book needs 1 to 2"):
        labelled.open_book(3, seed=4, limit=None)


def test_the_answer_or_refuse_track_answers_the_indexed_half_and_refuses_the_rest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    squad = write_articles(tmp_path / "dev-v1.1.json")
    code, out, _ = run_cli(capsys, "squad", str(squad), "--open-book", "2", "--seed", "4", "--json")
    results = json.loads(out)
    assert code == 0 and results["dataset"] == "squad-open-book" and results["documents"] == 2
    figures = results["open_book"]["masis"]
    assert figures["answerable_questions"] == figures["unanswerable_questions"] == 2
    assert figures["answered"] == 1.0 and figures["containment"] == 1.0  # each article answers its question
    assert figures["refused"] == 1.0  # nothing indexed speaks of the other two
    assert figures["combined"] == 1.0
    assert results["verdicts"]["unanswerable"] == {"questions": 2, "right": 0.0, "wrong": 0.0, "asked_back": 1.0}
    assert results["verdicts"]["answerable"]["right"] == 1.0
    assert {t["target"] for t in results["targets"]} >= {"unanswerable: refused ≥ 95 %"}

    code, out, _ = run_cli(capsys, "squad", str(squad), "--open-book", "2", "--seed", "4")
    assert "| answer or refuse | masis |" in out and "| refused | 1 |" in out


def test_the_ingest_rate_is_reported_beside_bm25s_indexing_rate() -> None:
    figures = ingest_figures(documents=5000, chunks=12000, seconds=2.0, peer_seconds=1.0)
    assert figures["masis_chunks_per_s"] == 6000 and figures["masis_documents_per_s"] == 2500
    assert figures["bm25s_documents_per_s"] == 5000 and figures["documents_per_s_ratio"] == 0.5
    assert figures["target_met"]
    slow = ingest_figures(documents=5000, chunks=9000, seconds=2.0, peer_seconds=0.5)
    assert slow["masis_chunks_per_s"] == 4500 and slow["documents_per_s_ratio"] == 0.25 and not slow["target_met"]
