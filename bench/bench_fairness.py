"""Fairness: how long a simple question in a quiet channel waits while another channel is flooded.

    .venv/bin/python bench/bench_fairness.py [--heavy 24] [--heavy-seconds 3] [--workers 8]

The Slack bot runs in this process (the real Bolt app, engine and HTTP server, the Web API emulator of
tests/e2e) over the sample corpus in one channel. `--heavy` questions are mentioned in that channel (by six
people), each made to take `--heavy-seconds` at its writing stage (a pause-point hook that sleeps: it stands
for a slow model call, and holds a worker as one would); then one question is mentioned in a channel with no
documents (no evidence, so no writing stage: about 50 ms of work). The figure is that question's time from
mention to reply (the emulator's clock), measured twice in one run:

- `one_line`, the anchor: every job in one first-in-first-out line of `--workers` threads, as before fairness
  (the pool's round robin given a single line and no cap);
- `fair`: MASIS's pool as configured by default (workspaces take turns; one runs at most half the workers);
- `fair_uncapped`: workspaces take turns but one may use every worker (`MASIS_WORKSPACE_CONCURRENCY` =
  `MASIS_WORKERS`): the quiet question waits for the first worker to come free, not for every heavy question.

It also prints when the last heavy answer was posted: the cap's cost to a channel that is alone.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import Any, TypeVar

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from report import print_report  # noqa: E402  (bench/ is on the path when run as a script)

from masis.fairness import FairPool  # noqa: E402
from masis.pause import hooked  # noqa: E402
from tests.e2e.conftest import MAIN_CHANNEL, BotServer, bot_settings, seed  # noqa: E402
from tests.e2e.helpers import is_answer, is_clarification  # noqa: E402
from tests.e2e.slack_driver import SlackDriver  # noqa: E402
from tests.e2e.slack_emulator import SlackEmulator  # noqa: E402

T = TypeVar("T")
QUIET_CHANNEL = "CQUIET001"
HEAVY_QUESTION = "What is our AI investment strategy?"
SIMPLE_QUESTION = "What is the cafeteria menu?"
PEOPLE = 6


class OneLine(FairPool):
    """The anchor: one first-in-first-out line for every workspace, and no cap (what the bot had before)."""

    def submit(self, fn: Callable[[], T], *, workspace: str, user: str | None = None) -> Future[T]:
        return super().submit(fn, workspace="all", user=None)


def replied(call: Any) -> bool:
    return is_answer(call) or is_clarification(call)


def run_case(pool_kind: str, *, heavy: int, heavy_seconds: float, workers: int, data_dir: Path,
             emulator: SlackEmulator) -> dict[str, float]:
    cap = workers if pool_kind == "fair_uncapped" else 0
    settings = bot_settings(data_dir, emulator, workers=workers, user_backlog=max(10, heavy),
                            workspace_backlog=max(50, heavy), workspace_concurrency=cap)
    bot = BotServer(settings)
    if pool_kind == "one_line":
        line = OneLine(workers, per_workspace=workers, workspace_backlog=10_000, user_backlog=10_000)
        bot.deps.jobs.pool = line
    bot.start()
    slack = SlackDriver(bot.url, emulator)
    try:
        warm, _ = slack.mention(MAIN_CHANNEL, HEAVY_QUESTION, user="UWARM001")  # loads the graph and the encoder
        emulator.wait_for(lambda calls: [c for c in calls if c.params.get("thread_ts") == warm and replied(c)]
                          or None, timeout=120, what="the warm-up answer")
        with hooked("ask:writing", lambda: time.sleep(heavy_seconds)):
            started = time.monotonic()
            heavy_ts = [slack.mention(MAIN_CHANNEL, HEAVY_QUESTION, user=f"UPERSON{i % PEOPLE:02d}")[0]
                        for i in range(heavy)]
            sent = time.monotonic()
            simple_ts, _ = slack.mention(QUIET_CHANNEL, SIMPLE_QUESTION, user="UQUIET01")
            timeout = heavy * heavy_seconds + 120
            [simple] = emulator.wait_for(
                lambda calls: [c for c in calls if c.params.get("thread_ts") == simple_ts and replied(c)] or None,
                timeout=timeout, what="the quiet channel's reply")
            last = 0.0
            for ts in heavy_ts:
                [answer] = emulator.wait_for(
                    lambda calls, ts=ts: [c for c in calls if c.params.get("thread_ts") == ts and replied(c)]
                    or None, timeout=timeout, what="a heavy answer")
                last = max(last, answer.at)
        return {"quiet_question_s": round(simple.at - sent, 3), "last_heavy_answer_s": round(last - started, 2)}
    finally:
        slack.close()
        bot.stop()


def run(heavy: int = 24, heavy_seconds: float = 3.0, workers: int = 8) -> dict[str, Any]:
    figures: dict[str, Any] = {"heavy_questions": heavy, "heavy_seconds": heavy_seconds, "workers": workers,
                               "fair_cap_per_workspace": FairPool(workers).per_workspace}
    with tempfile.TemporaryDirectory() as tmp, SlackEmulator() as emulator:
        data_dir = Path(tmp) / "data"
        seed(bot_settings(data_dir, emulator))
        for kind in ("one_line", "fair", "fair_uncapped"):
            figures[kind] = run_case(kind, heavy=heavy, heavy_seconds=heavy_seconds, workers=workers,
                                     data_dir=data_dir, emulator=emulator)
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--heavy", type=int, default=24)
    parser.add_argument("--heavy-seconds", type=float, default=3.0)
    parser.add_argument("--workers", type=int, default=8)
    args = parser.parse_args()
    print_report(run(args.heavy, args.heavy_seconds, args.workers))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
