"""One busy channel cannot starve another (signed HTTP events, the Web API emulator, the real engine).

Questions in the busy channel are held at the `ask:writing` pause point, so the channel's workers stay
busy for as long as the test wants; a question in a channel without documents never gets that far (no
evidence: nothing to write), so it passes the hook. With one FIFO queue, the quiet channel's question
waited behind every busy one.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from masis.pause import hooked
from tests.e2e.conftest import MAIN_CHANNEL, BotServer
from tests.e2e.helpers import is_answer, is_clarification, thread_posts, wait_post
from tests.e2e.slack_driver import SlackDriver
from tests.e2e.slack_emulator import TEAM_ID, SlackEmulator
from tests.gates import STUCK

QUIET_CHANNEL = "CQUIET001"
BUSY = f"{TEAM_ID}:{MAIN_CHANNEL}"
QUESTION = "What is our AI investment strategy?"


class Holder:
    """A pause-point hook that holds every thread reaching it until `release`, counting them."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self._cond = threading.Condition()
        self.held = 0

    def __call__(self) -> None:
        with self._cond:
            self.held += 1
            self._cond.notify_all()
        assert self.release.wait(STUCK), "the held questions were never released"

    def wait_held(self, count: int) -> None:
        with self._cond:
            assert self._cond.wait_for(lambda: self.held >= count, STUCK), f"{self.held} of {count} held"


@pytest.fixture(scope="module")
def bot_overrides() -> dict[str, Any]:
    return {"workers": 8, "workspace_concurrency": 4, "workspace_backlog": 5, "user_backlog": 3}


@contextlib.contextmanager
def released(holder: Holder) -> Iterator[None]:
    """Let the held questions go at the end, also when the test fails (no thread is left waiting)."""
    try:
        yield
    finally:
        holder.release.set()


def until(condition: Callable[[], bool], what: str, timeout: float = 30.0) -> None:
    """Wait for `condition` (checked as the bot's pool changes; fails after `timeout`)."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        threading.Event().wait(0.01)


def waiting(bot: BotServer, workspace: str = BUSY) -> int:
    return bot.engine.pool.snapshot().get(workspace, (0, 0))[0]


def test_a_busy_channel_does_not_starve_a_quiet_one_and_full_lines_are_told(
        bot: BotServer, slack: SlackDriver, emulator: SlackEmulator) -> None:
    holder = Holder()
    with hooked("ask:writing", holder), released(holder):
        running = [slack.mention(MAIN_CHANNEL, QUESTION, user=f"UBUSY{i:04d}")[0] for i in range(4)]
        holder.wait_held(4)  # the busy channel's share of the workers, all held
        queued = [slack.mention(MAIN_CHANNEL, QUESTION, user=user)[0]
                  for user in ["UHEAVY01"] * 3 + ["UBUSY0005", "UBUSY0006"]]

        quiet, _ = slack.mention(QUIET_CHANNEL, QUESTION, user="UQUIET01")
        [served] = wait_post(emulator, QUIET_CHANNEL, quiet, lambda c: is_clarification(c) or is_answer(c),
                             what="the quiet channel's answer while the busy channel's workers are held")
        assert "no documents" in served.blocks_text().lower() or "upload" in served.blocks_text().lower()
        until(lambda: waiting(bot) == 5, "the busy channel's 5 waiting questions")
        for ts in queued:  # a waiting question's status line says it is waiting, not searching
            emulator.wait_for(lambda calls, ts=ts: [c for c in calls if c.method == "assistant.threads.setStatus"
                                                    and c.params.get("thread_ts") == ts
                                                    and "Waiting for a free worker" in str(c.params)],
                              what="a waiting question's status line")

        # one person past their share of the line, then the channel past its share: told, nothing queued
        mine, _ = slack.mention(MAIN_CHANNEL, QUESTION, user="UHEAVY01")
        [told] = wait_post(emulator, MAIN_CHANNEL, mine, lambda c: ":hourglass:" in c.blocks_text(),
                           what="the per-person notice")
        assert "You already have 3 requests waiting" in told.blocks_text()
        full, _ = slack.mention(MAIN_CHANNEL, QUESTION, user="UBUSY0007")
        [told] = wait_post(emulator, MAIN_CHANNEL, full, lambda c: ":hourglass:" in c.blocks_text(),
                           what="the per-channel notice")
        assert "This channel already has 5 requests waiting" in told.blocks_text()
        assert holder.held == 4 and bot.engine.pool.snapshot()[BUSY] == (5, 4)
        holder.release.set()

    for ts in running + queued:
        wait_post(emulator, MAIN_CHANNEL, ts, is_answer, what="a busy channel's answer")
    for ts in (mine, full):  # refused: the notice and nothing else, not even a status line
        assert [c for c in thread_posts(emulator, MAIN_CHANNEL, ts) if is_answer(c) or is_clarification(c)] == []
        assert emulator.calls_to("assistant.threads.setStatus", thread_ts=ts) == []
