"""The bot killed (SIGKILL) while answering: after the restart the thread hears "please ask again" instead of
silence, its stale progress note is removed, and a clarification pending in another thread still resumes."""

from __future__ import annotations

import signal
from pathlib import Path

from bot import blocks as b
from bot.restart import ASK_AGAIN
from tests.e2e.conftest import MAIN_CHANNEL, BotProcess
from tests.e2e.helpers import is_answer, is_clarification, wait_post
from tests.e2e.slack_driver import SlackDriver
from tests.e2e.slack_emulator import SlackEmulator
from tests.e2e.test_slack_process import data_dir, emulator  # noqa: F401  (fixtures)


def test_a_kill_mid_answer_gets_please_ask_again_and_pending_clarifications_survive(
        tmp_path: Path, data_dir: Path, emulator: SlackEmulator) -> None:  # noqa: F811
    first = BotProcess(data_dir, emulator, workdir=tmp_path / "run").start()
    try:
        slack = SlackDriver(first.url, emulator)
        pending_ts, _ = slack.mention(MAIN_CHANNEL, "What was Q3 2026 revenue?")
        wait_post(emulator, MAIN_CHANNEL, pending_ts, is_clarification, what="a clarification")

        asked_ts = emulator.next_ts()
        # a workspace where the thread status is refused: progress is a posted note, which a restart removes
        emulator.fail("assistant.threads.setStatus", status=200, error="not_allowed",
                      when=lambda p: p.get("thread_ts") == asked_ts)
        release = emulator.stall("chat.postMessage", lambda p: p.get("thread_ts") == asked_ts
                                 and b.ACTION_FEEDBACK in str(p.get("blocks")))
        slack.mention(MAIN_CHANNEL, "What is our AI investment strategy?", ts=asked_ts)
        emulator.wait_for(lambda _: emulator.stalled, what="the answer on its way to Slack")
        [progress] = [c for c in emulator.posts(MAIN_CHANNEL, asked_ts)]  # only "working on it" got out
        first.process.send_signal(signal.SIGKILL)
        first.process.wait(timeout=10)
    finally:
        release.set()
        first.stop()

    second = BotProcess(data_dir, emulator, workdir=tmp_path / "run").start()
    try:
        [notice] = wait_post(emulator, MAIN_CHANNEL, asked_ts, lambda c: ASK_AGAIN in c.blocks_text(),
                             what="the please-ask-again notice")
        assert not [c for c in emulator.posts(MAIN_CHANNEL, asked_ts) if is_answer(c)]
        emulator.wait_for(lambda _: emulator.calls_to("chat.delete", ts=progress.response["ts"]),
                          what="the stale progress note removed")
        assert notice.params.get("unfurl_links") in (False, "false", "0", None)

        slack = SlackDriver(second.url, emulator)
        slack.reply(MAIN_CHANNEL, pending_ts, "according to the Q3 report")
        wait_post(emulator, MAIN_CHANNEL, pending_ts, is_answer, what="the resumed answer")
        slack.mention(MAIN_CHANNEL, "What is our AI investment strategy?", thread_ts=asked_ts)
        wait_post(emulator, MAIN_CHANNEL, asked_ts, is_answer, what="the answer when asked again")
    finally:
        assert second.stop() == 0, second.output()
    assert len([c for c in emulator.posts(MAIN_CHANNEL, asked_ts) if ASK_AGAIN in c.blocks_text()]) == 1
