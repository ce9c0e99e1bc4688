"""What the sentence encoder reads while a `masis` command runs, by the stage that asked: the researcher's passages,
the synthesizer's sentences, the critic's quoted claims (a question is counted where it is first read).

    PYTHONHASHSEED=0 .venv/bin/python bench/bench_encoder_reads.py eval realdocs data/realdocs --split tune --json

The command runs in this process (`masis.cli.main`) with the revision's `SentenceEncoder._read` wrapped; to compare
two revisions, run it under each in turn (`PYTHONPATH=<tree>`). After the command's own output, prints on stderr one
JSON line: per stage, the texts read, their tokens and the CPU seconds of the readings.
"""

from __future__ import annotations

import json
import sys
import time
import traceback
from collections.abc import Sequence

import numpy as np

from masis.judge import semantic

STAGES = {"_read_closely": "researcher", "synthesize": "synthesizer", "critique": "critic"}


def _stage() -> str:
    for frame in reversed(traceback.extract_stack()):
        if frame.name in STAGES:
            return STAGES[frame.name]
    return "other"


def main(argv: Sequence[str]) -> int:
    from masis.cli import main as masis

    figures: dict[str, dict[str, float]] = {}
    real = semantic.SentenceEncoder._read

    def counting(encoder: semantic.SentenceEncoder, texts: Sequence[str]) -> np.ndarray:
        started = time.process_time()
        vectors = real(encoder, texts)
        seconds = time.process_time() - started
        tokens = sum(len(e.ids) for e in encoder._tokenizer.encode_batch(list(texts))) if texts else 0
        stage = figures.setdefault(_stage(), {"texts": 0, "tokens": 0, "cpu_s": 0.0})
        stage["texts"] += len(texts)
        stage["tokens"] += tokens
        stage["cpu_s"] = round(stage["cpu_s"] + seconds, 3)
        return vectors

    semantic.SentenceEncoder._read = counting  # type: ignore[method-assign]
    try:
        code = masis(list(argv))
    finally:
        total = {key: round(sum(stage[key] for stage in figures.values()), 3) for key in ("texts", "tokens", "cpu_s")}
        print(json.dumps({**figures, "total": total}), file=sys.stderr)
    return code


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
