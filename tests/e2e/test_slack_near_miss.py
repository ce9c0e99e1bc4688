"""A near miss in Slack: the documents cover the topic but not the fact asked for, so the bot asks back, saying
what the nearest passage holds, and a reply in the thread resumes it (signed HTTP events, the Web API emulator)."""

from __future__ import annotations

from tests.e2e.conftest import MAIN_CHANNEL
from tests.e2e.helpers import is_answer, is_clarification, wait_post
from tests.e2e.slack_driver import SlackDriver
from tests.e2e.slack_emulator import SlackEmulator


def test_a_near_miss_is_asked_back_and_a_reply_gets_the_answer(slack: SlackDriver, emulator: SlackEmulator) -> None:
    ts, sent = slack.mention(MAIN_CHANNEL, "How much did we spend on marketing in Q3?")
    assert sent.status == 200
    [clarification] = wait_post(emulator, MAIN_CHANNEL, ts, is_clarification, what="the near-miss question")
    text = clarification.blocks_text()
    assert "do not mention" in text and "Q3" in text and "closest passage" in text
    assert not [c for c in emulator.calls_to("chat.postMessage", thread_ts=ts) if is_answer(c)]

    slack.reply(MAIN_CHANNEL, ts, "I meant the FY2026 marketing budget")
    [answer] = wait_post(emulator, MAIN_CHANNEL, ts, is_answer, what="the answer to the reply")
    text = answer.blocks_text()
    assert "$5.6 million" in text and "[1]" in text and "budget_fy2026.docx" in text
