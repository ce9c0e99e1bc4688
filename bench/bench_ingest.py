"""Ingest throughput through the normal pipeline (load, chunk, index, register) for text and PDF files.

    .venv/bin/python bench/bench_ingest.py [--documents 40] [--pages 10]

Generates the same synthetic documents twice, as `.txt` files and as PDFs (fpdf2, ~2,500 characters of synthetic
prose a page), then times `Engine.ingest` of each set into a fresh embedded store with the offline
engine. Generating the files is not timed. A text "page" is the same 2,500 characters as a PDF page, so the
two pages/s figures compare like with like. Prints JSON and a table.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from bench_scaling import Corpus
from fpdf import FPDF
from report import print_report

from masis.config import Settings
from masis.engine import Engine

PAGE_CHARS = 2500


def documents(count: int, pages: int, seed: int = 11) -> list[list[str]]:
    """`count` documents of `pages` pages, each page ~2,500 characters of Zipf-distributed prose."""
    passages = iter(Corpus(seed).passages(count * pages * 4))
    docs = []
    for _ in range(count):
        doc = []
        for _ in range(pages):
            text = ""
            while len(text) < PAGE_CHARS:
                text = f"{text} {next(passages)}".strip()
            doc.append(text[:PAGE_CHARS].rsplit(". ", 1)[0] + ".")
        docs.append(doc)
    return docs


def as_text(doc: list[str]) -> bytes:
    return "\n\n".join(doc).encode()


def as_pdf(doc: list[str]) -> bytes:
    pdf = FPDF()
    pdf.set_font("Helvetica", size=10)
    for page in doc:
        pdf.add_page()
        pdf.multi_cell(0, 5, page)
    return bytes(pdf.output())


def ingest_rate(files: list[tuple[str, bytes]], pages: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="masis-bench-") as tmp:
        settings = Settings(_env_file=None, data_dir=Path(tmp), llm="extractive", qdrant_url=None, openai_api_key=None)
        with Engine(settings) as engine:
            started = time.perf_counter()
            report = engine.ingest("bench:ingest", files)
            seconds = time.perf_counter() - started
            chunks = engine.store.count("bench:ingest")
    if report.failed:
        raise SystemExit(f"bench_ingest: {len(report.failed)} files failed: {report.failed[0].reason}")
    megabytes = sum(len(data) for _, data in files) / 1e6
    return {
        "files": len(files),
        "pages": pages,
        "chunks": chunks,
        "seconds": round(seconds, 2),
        "files_per_s": round(len(files) / seconds, 1),
        "pages_per_s": round(pages / seconds, 1),
        "chunks_per_s": round(chunks / seconds, 1),
        "mb_per_s": round(megabytes / seconds, 2),
    }


def run(count: int, pages: int) -> dict[str, object]:
    docs = documents(count, pages)
    text_files = [(f"doc-{i:04d}.txt", as_text(doc)) for i, doc in enumerate(docs)]
    pdf_files = [(f"doc-{i:04d}.pdf", as_pdf(doc)) for i, doc in enumerate(docs)]
    total_pages = count * pages
    return {
        "page_chars": PAGE_CHARS,
        "text": ingest_rate(text_files, total_pages),
        "pdf": ingest_rate(pdf_files, total_pages),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--documents", type=int, default=40)
    parser.add_argument("--pages", type=int, default=10, help="pages per document")
    args = parser.parse_args()
    if args.documents < 1 or args.pages < 1:
        print("bench_ingest: --documents and --pages must be positive", file=sys.stderr)
        return 2
    print_report(run(args.documents, args.pages))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
