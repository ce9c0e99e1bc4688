"""Whether a small learned head over the shipped sentence encoder reads "does this sentence answer the question?"
better than the encoder's cosine: a check for a reader built from weights MASIS already has.

No PyPI or npm package ships an answer-checking model's weights (a SQuAD 2.0 reader, an MS MARCO cross-encoder):
the ones that name such models download them at run time. This builds the nearest thing from what is here: a
logistic regression over all-MiniLM-L6-v2's pair features [u·v, |u−v|, cosine], trained QNLI-style (the sentence
holding the answer against up to three other sentences of its paragraph) on SQuAD v1.1 dev questions from the
articles outside the SQuAD 2.0 subset that `masis eval squad2` asks about. It reports the head's AUC on held-out
articles beside the plain cosine's (the anchor), then, on `masis eval ... --records` files, the AUC of right against
wrong answers for the answer's confidence (the anchor), the cosine and the head.

    .venv/bin/python bench/bench_frozen_reader_head.py SQUAD11_DEV.json SQUAD2_SUBSET.json RECORDS.jsonl... \
        [--questions 1500] [--seed 0]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_reader_separation import shown_answer  # noqa: E402
from bench.report import print_report  # noqa: E402
from masis.eval import separation as s  # noqa: E402
from masis.eval.runner import ANSWER_SENTENCES, cited_claims  # noqa: E402
from masis.judge import semantic  # noqa: E402

SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"'(])")
NEGATIVES = 3
RIDGE = (1.0, 10.0, 100.0, 1000.0)


def qnli_pairs(squad11: Path, exclude: Path, questions: int, seed: int) -> list[dict[str, Any]]:
    """(question, answer sentence, other sentences) from SQuAD v1.1 dev, skipping the articles of `exclude` and
    answers that cross a sentence end; `questions` of them, drawn with `seed`."""
    held = {article["title"] for article in json.loads(exclude.read_text())["data"]}
    rng = random.Random(seed)
    pairs = []
    for article in json.loads(squad11.read_text())["data"]:
        if article["title"] in held:
            continue
        for paragraph in article["paragraphs"]:
            context, spans, start = paragraph["context"], [], 0
            for sentence in SENTENCE_END.split(context):
                begin = context.index(sentence, start)
                spans.append((begin, begin + len(sentence), sentence))
                start = begin + len(sentence)
            if len(spans) < 2:
                continue
            for qa in paragraph["qas"]:
                answer = qa["answers"][0]
                gold = next((i for i, (b, e, _) in enumerate(spans) if b <= answer["answer_start"] < e), None)
                if gold is None or answer["text"] not in spans[gold][2]:
                    continue
                others = [i for i in range(len(spans)) if i != gold]
                negatives = rng.sample(others, min(NEGATIVES, len(others)))
                pairs.append(
                    {
                        "article": article["title"],
                        "question": qa["question"],
                        "answer": spans[gold][2],
                        "others": [spans[i][2] for i in negatives],
                    }
                )
    rng.shuffle(pairs)
    return pairs[:questions]


def vectors(encoder: semantic.SentenceEncoder, texts: Sequence[str]) -> dict[str, np.ndarray]:
    """One unit vector per text, encoded 32 at a time in order of length (less padding)."""
    ordered = sorted(set(texts), key=len)
    found: dict[str, np.ndarray] = {}
    for i in range(0, len(ordered), 32):
        batch = ordered[i : i + 32]
        found.update(zip(batch, encoder.encode(batch), strict=True))
    return found


def features(u: np.ndarray, v: np.ndarray) -> np.ndarray:
    return np.concatenate([u * v, np.abs(u - v), [float(u @ v)]])


def fit(x: np.ndarray, y: np.ndarray, ridge: float) -> np.ndarray:
    """Logistic regression with an L2 penalty, by Newton's method (the last column of x is the bias)."""
    w = np.zeros(x.shape[1])
    for _ in range(25):
        p = 1 / (1 + np.exp(-x @ w))
        hessian = x.T @ (x * (p * (1 - p))[:, None]) + ridge * np.eye(x.shape[1])
        w -= np.linalg.solve(hessian, x.T @ (p - y) + ridge * w)
    return w


class Head:
    """Standardised pair features and a logistic weight vector; `score` gives P(the sentence answers)."""

    def __init__(self, x: np.ndarray, y: np.ndarray, ridge: float) -> None:
        self.mean, self.scale = x.mean(0), x.std(0) + 1e-6
        self.w = fit(self._design(x), y, ridge)

    def _design(self, x: np.ndarray) -> np.ndarray:
        return np.hstack([(x - self.mean) / self.scale, np.ones((len(x), 1))])

    def score(self, x: np.ndarray) -> np.ndarray:
        return 1 / (1 + np.exp(-self._design(x) @ self.w))


def dataset(pairs: Sequence[dict[str, Any]], vecs: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    rows, labels = [], []
    for pair in pairs:
        u = vecs[pair["question"]]
        for sentence, label in [(pair["answer"], 1.0), *((other, 0.0) for other in pair["others"])]:
            rows.append(features(u, vecs[sentence]))
            labels.append(label)
    return np.array(rows), np.array(labels)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("squad11", type=Path, help="SQuAD v1.1 dev JSON (the training questions)")
    parser.add_argument("squad2", type=Path, help="the SQuAD 2.0 subset that `masis eval squad2` reads (left out)")
    parser.add_argument("records", nargs="+", type=Path, help="JSON lines written by `masis eval ... --records`")
    parser.add_argument("--questions", type=int, default=1500)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    encoder = semantic.load()
    if encoder is None:
        raise SystemExit("the sentence encoder's model package is not installed: run `make install`")
    pairs = qnli_pairs(args.squad11, args.squad2, args.questions, args.seed)
    vecs = vectors(encoder, [t for p in pairs for t in (p["question"], p["answer"], *p["others"])])
    articles = sorted({p["article"] for p in pairs})
    held_out = set(articles[::5])  # every fifth article tests the head trained on the others
    x_train, y_train = dataset([p for p in pairs if p["article"] not in held_out], vecs)
    x_test, y_test = dataset([p for p in pairs if p["article"] in held_out], vecs)
    tried = []
    for ridge in RIDGE:
        head = Head(x_train, y_train, ridge)
        scores = head.score(x_test)
        tried.append((s.auc(list(scores[y_test == 1]), list(scores[y_test == 0])) or 0.0, ridge))
    best_auc, ridge = max(tried)
    figures: dict[str, Any] = {
        "training": {
            "questions": len(pairs),
            "articles": len(articles),
            "held_out_articles": len(held_out),
            "pairs": len(y_train) + len(y_test),
            "ridge": ridge,
        },
        "held_out_pair_auc": {
            "cosine (anchor)": round(s.auc(list(x_test[y_test == 1, -1]), list(x_test[y_test == 0, -1])) or 0, 4),
            "head": round(best_auc, 4),
        },
    }
    head = Head(np.vstack([x_train, x_test]), np.concatenate([y_train, y_test]), ridge)  # all articles
    rows = []
    for path in args.records:
        records = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
        first_claim: dict[str, tuple[float, float]] = {}
        for record in s.judged_answers(records):
            claim = next(iter(cited_claims(record.get("answer") or "")[:ANSWER_SENTENCES]), ("", []))[0]
            u, v, whole = encoder.encode([record["question"], claim, shown_answer(record)])
            first_claim[record["id"]] = (float(u @ whole), float(head.score(features(u, v)[None])[0]))
        scorers = {
            "confidence (anchor)": lambda r: float(r["confidence"] or 0),
            "minilm_cosine": lambda r, c=first_claim: c[r["id"]][0],
            "head (first claim)": lambda r, c=first_claim: c[r["id"]][1],
        }
        figures[path.name] = {name: s.separation(records, score) for name, score in scorers.items()}
        rows += [{"records": path.name, "score": name, **figures[path.name][name]} for name in scorers]
    print_report(figures, rows)


if __name__ == "__main__":
    main()
