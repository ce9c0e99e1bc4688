"""CPU milliseconds of whole in-process `ask`s, first with every passage new to the encoder, then the same
questions again with the encoder's memory emptied (its passages kept on disk, where the revision keeps them).

    .venv/bin/python bench/bench_ask_cpu.py [--corpus synthetic|sample] [--chunks 1000] [--asks 12] [--read-ahead]

`synthetic`: bench_scaling's corpus and questions (one workspace of --chunks chunks); `sample`: data/sample and
its questions. CPU seconds move far less than wall time on a busy machine; to compare two revisions, run this
script against each (PYTHONPATH=<tree>) in turn, and `MASIS_SEMANTIC=false` for the words-only anchor.
`texts_read`: what the sentence encoder read in the pass (questions, passages, sentences; bench_scaling.Readings).
`--read-ahead`: the engine reads the stored passages ahead (as the bot does at start, `masis.read_ahead`) before
the first pass, which then meets them kept; the reading's own CPU seconds and texts are reported.
Prints JSON and a table.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

from bench_scaling import WORKSPACE, Corpus, Readings, add_chunks, forget_recent_texts
from report import print_report

from masis.config import Settings
from masis.engine import Engine

SAMPLE = Path(__file__).resolve().parent.parent / "data"


def timed_asks(engine: Engine, workspace: str, questions: list[str]) -> dict[str, float]:
    cpu, answered, read = [], 0, Readings.texts
    for question in questions:
        started = time.process_time()
        answered += engine.ask(workspace, question).status == "answered"
        cpu.append((time.process_time() - started) * 1000)
    return {"cpu_p50_ms": round(statistics.median(cpu), 1), "cpu_total_ms": round(sum(cpu)), "answered": answered,
            "texts_read": Readings.texts - read}


def read_ahead(engine: Engine) -> dict[str, float]:
    started = time.process_time()
    reader = engine.read_ahead()
    if reader is None:
        raise SystemExit("bench_ask_cpu: this revision or configuration does not read ahead")
    reader.wait_idle()
    return {"cpu_s": round(time.process_time() - started, 1), "texts": reader.texts_read}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", choices=["synthetic", "sample"], default="synthetic")
    parser.add_argument("--chunks", type=int, default=1000)
    parser.add_argument("--asks", type=int, default=12)
    parser.add_argument("--read-ahead", action="store_true", help="read the stored passages ahead first")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="masis-bench-") as tmp:
        settings = Settings(_env_file=None, data_dir=Path(tmp), llm="extractive", qdrant_url=None, openai_api_key=None)
        with Engine(settings) as engine:
            if args.corpus == "sample":
                workspace = "demo"
                engine.ingest_paths(workspace, [SAMPLE / "sample"])
                asked = json.loads((SAMPLE / "sample_questions.json").read_text())
                questions = [q["question"] if isinstance(q, dict) else q for q in asked][: args.asks]
            else:
                workspace, corpus = WORKSPACE, Corpus(7)
                questions = [corpus.query() for _ in range(args.asks)]
                add_chunks(engine, corpus, workspace, args.chunks, 0)
            ahead = read_ahead(engine) if args.read_ahead else None
            engine.ask(workspace, "warm up")
            Readings.start()
            rows = []
            for name in ("new", "kept"):
                forget_recent_texts()
                rows.append({"pass": name, **timed_asks(engine, workspace, questions)})
    figures = {"corpus": args.corpus, "chunks": args.chunks if args.corpus == "synthetic" else None,
               "asks": len(questions), "read_ahead": ahead, "passes": rows}
    print_report(figures, rows=rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
