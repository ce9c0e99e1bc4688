"""What redaction costs: every Slack message the bot sends and every log line pass `masis.redact`.

Anchors, measured in the same run: building the Block Kit message of a real answer (the sample corpus, the
offline engine), and writing a log record through a plain handler. Figures: redacting that message's
arguments (`bot.slack_client.redacted`, as the Slack client does before each call) and writing the record
through the same handler with the redacting filter, with the seven configured secrets learned.

    .venv/bin/python bench/bench_redact.py [--runs 2000]
"""

from __future__ import annotations

import argparse
import io
import logging
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.report import print_report  # noqa: E402
from bot import blocks  # noqa: E402
from bot.slack_client import redacted  # noqa: E402
from masis.engine import Engine  # noqa: E402
from masis.redact import RedactingFilter  # noqa: E402
from tests.conftest import SAMPLE_DIR, make_settings  # noqa: E402

SECRETS = {"openai_api_key": "vllm-key-3c9f1e0a7b", "slack_bot_token": "xoxb-1-2-bench", "slack_app_token":
           "xapp-1-bench-0001", "slack_signing_secret": "signing-bench-0001", "api_token": "api-token-bench-0001",
           "qdrant_api_key": "qdrant-bench-0001", "database_url": "postgresql://masis:pw-bench-0001@db/masis"}


def per_call_us(call: Callable[[], Any], runs: int) -> float:
    call()
    started = time.perf_counter()
    for _ in range(runs):
        call()
    return round((time.perf_counter() - started) / runs * 1e6, 2)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=2000)
    runs = parser.parse_args().runs
    with tempfile.TemporaryDirectory() as tmp:
        make_settings(Path(tmp) / "secrets", **SECRETS)  # constructing a Settings teaches the redactor
        with Engine(make_settings(Path(tmp) / "data")) as engine:
            engine.ingest_paths("bench", [SAMPLE_DIR])
            outcome = engine.ask("bench", "What is our AI investment strategy?")
    message = blocks.outcome_message(outcome)
    chars = len(str(message))

    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    logger = logging.getLogger("bench.redact")
    logger.propagate = False
    logger.addHandler(handler)

    def log_line() -> None:
        logger.warning("answering in %s failed: %s", "T1:C1:1700000000.000100", "the model did not answer")
        stream.seek(0)
        stream.truncate()

    plain_log = per_call_us(log_line, runs)
    handler.addFilter(RedactingFilter())
    filtered_log = per_call_us(log_line, runs)
    figures = {
        "message_chars": chars,
        "anchor_build_answer_message_us": per_call_us(lambda: blocks.outcome_message(outcome), runs),
        "redact_answer_message_us": per_call_us(lambda: redacted(dict(message)), runs),
        "anchor_log_record_plain_handler_us": plain_log,
        "log_record_with_redacting_filter_us": filtered_log,
        "runs": runs,
    }
    print_report(figures)


if __name__ == "__main__":
    main()
