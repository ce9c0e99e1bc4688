"""Follow-ups in a Slack thread: a mention, its answer, the bot restarted, and a follow-up with a pronoun in the
same thread answered from the right document, with "Reading this as: …"; "which one do you mean?" settled by a
button. The Bolt app over HTTP against the local Slack Web API emulator, on one data directory."""

from __future__ import annotations

from pathlib import Path

from bot import blocks as b
from tests.e2e.conftest import MAIN_CHANNEL, BotServer, bot_settings, seed
from tests.e2e.helpers import as_message, is_answer, is_clarification, wait_post
from tests.e2e.slack_driver import SlackDriver, buttons
from tests.e2e.slack_emulator import TEAM_ID, SlackEmulator


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


def test_a_new_question_typed_while_a_clarification_waits_is_answered_as_one(
        bot: BotServer, slack: SlackDriver, emulator: SlackEmulator) -> None:
    ts, _ = slack.mention(MAIN_CHANNEL, "How much did we spend on marketing in Q3?")
    [clarification] = wait_post(emulator, MAIN_CHANNEL, ts, is_clarification, what="the near-miss question")

    slack.reply(MAIN_CHANNEL, ts, "How many customers did Kestrel Labs end the quarter with?")  # no mention needed
    [answer] = wait_post(emulator, MAIN_CHANNEL, ts, is_answer, what="the answer to the new question")
    text = answer.blocks_text()
    assert "412 customers" in text and "q3_report.md" in text
    assert "marketing" not in text.lower()  # not read joined to the question it replaced
    thread_id = f"{TEAM_ID}:{MAIN_CHANNEL}:{ts}"
    assert bot.engine.pending(thread_id) is None
    assert bot.engine.registry.conversation(thread_id).runs == 2  # a question of its own, not the first resumed
    [update] = emulator.wait_for(
        lambda _: emulator.calls_to("chat.update", ts=clarification.response["ts"]), what="the dropped question")
    assert "asked a new question instead" in update.blocks_text() and not buttons(update.blocks())

    # the dropped question's buttons resume nothing
    slack.click(as_message(clarification), MAIN_CHANNEL, next(iter(buttons(clarification.blocks()))))
    [note] = emulator.wait_for(lambda _: emulator.calls_to("chat.postEphemeral", thread_ts=ts), what="a note")
    assert "already been answered or cancelled" in note.params["text"]
    assert len([c for c in emulator.calls_to("chat.postMessage", thread_ts=ts) if is_answer(c)]) == 1
