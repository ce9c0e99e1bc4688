"""The sentence reader's cost: every plain-text section of the documentation sets split into sentence blocks.

    .venv/bin/python bench/bench_sentences.py [--rounds 3]
    PYTHONPATH=../other-checkout .venv/bin/python bench/bench_sentences.py   # another revision, for a ratio

`masis.judge.sentences` reads a text into blocks and sentences at ingest (the chunker) and at every question (the
judges, for texts their caches do not hold). This splits the loaded sections of `data/*docs/files` (plain text,
Markdown, reStructuredText and CSV: no parser child) `--rounds` times, uncached, and prints the seconds. Run it for
two revisions in turn, or under `farm-bench --vs`, and quote the ratio.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from report import print_report

from masis.ingest.loaders import load_document
from masis.judge import sentences

DATA = Path(__file__).resolve().parents[1] / "data"
PLAIN = (".txt", ".md", ".rst", ".csv")


def run(rounds: int, files: int | None = None) -> dict[str, object]:
    """Split the sections of the first `files` plain-text files (all by default) `rounds` times; the figures."""
    paths = [path for path in sorted(DATA.glob("*docs/files/*")) if path.suffix.lower() in PLAIN][:files]
    texts = [section.text for path in paths for section in load_document(path.name, path.read_bytes())]
    start = time.perf_counter()
    for _ in range(rounds):
        for text in texts:
            sentences._read_blocks(text)  # uncached: `sentence_blocks` keeps short texts
    return {
        "module": sentences.__file__,
        "files": len(paths),
        "sections": len(texts),
        "megabytes": round(sum(map(len, texts)) / 1e6, 2),
        "rounds": rounds,
        "seconds": round(time.perf_counter() - start, 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    print_report(run(parser.parse_args().rounds))


if __name__ == "__main__":
    main()
