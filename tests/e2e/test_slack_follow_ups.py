"""Follow-ups in a Slack thread: a mention, its answer, the bot restarted, and a follow-up with a pronoun in the
same thread answered from the right document, with "Reading this as: …"; "which one do you mean?" settled by a
button. The Bolt app over HTTP against the local Slack Web API emulator, on one data directory."""

from __future__ import annotations

from pathlib import Path

from bot import blocks as b
from tests.e2e.conftest import MAIN_CHANNEL, BotServer, bot_settings, seed
from tests.e2e.helpers import as_message, is_answer, is_clarification, wait_post
from tests.e2e.slack_driver import SlackDriver
from tests.e2e.slack_emulator import SlackEmulator


def test_a_pronoun_follow_up_after_a_restart_is_answered_from_the_earlier_questions_document(
        tmp_path: Path) -> None:
    with SlackEmulator() as emulator:
        settings = bot_settings(tmp_path / "data", emulator)
        seed(settings)
        first = BotServer(settings).start()
        try:
            slack = SlackDriver(first.url, emulator)
            ts, sent = slack.mention(MAIN_CHANNEL, "How large is the home-office equipment stipend?")
            assert sent.status == 200
            [answer] = wait_post(emulator, MAIN_CHANNEL, ts, is_answer, what="the first answer")
            assert "remote_work_policy.html" in answer.blocks_text()
            assert "Reading this as" not in answer.blocks_text()
        finally:
            first.stop()

        second = BotServer(settings).start()  # a restart: the thread's memory is in the checkpointer
        try:
            slack = SlackDriver(second.url, emulator)
            slack.mention(MAIN_CHANNEL, "Is it paid every year?", thread_ts=ts)
            [_, follow] = wait_post(emulator, MAIN_CHANNEL, ts, is_answer, count=2, what="the follow-up's answer")
            text = follow.blocks_text()
            assert "Reading this as: _Is the home-office equipment stipend paid every year?_" in text
            assert "one-time" in text and "remote_work_policy.html" in text

            asked, _ = slack.mention(MAIN_CHANNEL, "How many open roles do Engineering and Sales have?")
            wait_post(emulator, MAIN_CHANNEL, asked, is_answer, what="the two-department answer")
            slack.mention(MAIN_CHANNEL, "What is its headcount?", thread_ts=asked)
            [which] = wait_post(emulator, MAIN_CHANNEL, asked, is_clarification, what="which one do you mean?")
            assert "Engineering" in which.blocks_text() and "Sales" in which.blocks_text()
            sent = slack.click(as_message(which), MAIN_CHANNEL, f"{b.ACTION_ABOUT_PREFIX}1")
            assert sent.status == 200
            [_, chosen] = wait_post(emulator, MAIN_CHANNEL, asked, is_answer, count=2, what="the answer about Sales")
            assert "Reading this as: _What is Sales' headcount?_" in chosen.blocks_text()
            assert "headcount: 41" in chosen.blocks_text()
        finally:
            second.stop()
