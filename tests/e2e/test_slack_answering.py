"""The clarification loop doing its one job in Slack: a question nothing matched, then the chatty reply a
person actually writes, and the bot answers it with citations (signed HTTP events, the Web API emulator)."""

from __future__ import annotations

from tests.e2e.conftest import MAIN_CHANNEL
from tests.e2e.helpers import is_answer, is_clarification, wait_post
from tests.e2e.slack_driver import SlackDriver
from tests.e2e.slack_emulator import SlackEmulator


def test_a_chatty_reply_to_nothing_matched_gets_the_cited_answer(slack: SlackDriver, emulator: SlackEmulator) -> None:
    ts, sent = slack.mention(MAIN_CHANNEL, "What is the cafeteria menu?")
    assert sent.status == 200
    [clarification] = wait_post(emulator, MAIN_CHANNEL, ts, is_clarification, what="the zero-results question")
    assert "rephrase" in clarification.blocks_text()

    slack.reply(MAIN_CHANNEL, ts, "Sorry, I meant: how many customers did Kestrel Labs end the quarter with?")
    [answer] = wait_post(emulator, MAIN_CHANNEL, ts, is_answer, what="the answer to the reply")
    text = answer.blocks_text()
    assert "412 customers" in text and "[1]" in text
    assert "Sources" in text and "q3_report.md" in text
    assert len([c for c in emulator.calls_to("chat.postMessage", thread_ts=ts) if is_clarification(c)]) == 1
