"""A user removed from a channel loses its documents on the very next turn of a split-view DM thread that
answers from it: a new question, a reply to a pending clarification, or a clarification button is refused
with the reason, runs nothing, and leaves the pending question as it was (over HTTP, the Slack emulator)."""

from __future__ import annotations

import json

import pytest

from bot.assistant import not_a_member
from tests.e2e.conftest import MAIN_CHANNEL, BotServer
from tests.e2e.helpers import as_message, is_answer, is_clarification, thread_posts, wait_post
from tests.e2e.slack_driver import USER, SlackDriver, buttons
from tests.e2e.slack_emulator import TEAM_ID, Call, SlackEmulator
from tests.e2e.test_slack_assistant import open_split_view

CONFLICT_QUESTION = "What was Q3 2026 revenue?"  # two sources disagree: a clarification with buttons
NOTHING_MATCHES = "What is the cafeteria menu?"  # a zero-results clarification
KESTREL = "Sorry, I meant: how many customers did Kestrel Labs end the quarter with?"
REFUSED = not_a_member(MAIN_CHANNEL)


def is_refusal(call: Call) -> bool:
    return REFUSED in call.blocks_text()


def since(emu: SlackEmulator, thread_ts: str, mark: int, method: str = "chat.postMessage") -> list[Call]:
    """The calls of `method` in the thread since call number `mark`."""
    return [c for c in list(emu.calls)[mark:] if c.method == method and thread_ts in
            (c.params.get("thread_ts"), c.params.get("ts"))]


def leaks(calls: list[Call]) -> list[Call]:
    """Posts that show anything of the channel's documents."""
    return [c for c in calls if is_answer(c) or is_clarification(c)
            or any(w in c.blocks_text() for w in ("412", "12.4", "q3_report", "dropped that question"))]


def busy_statuses(emu: SlackEmulator, thread_ts: str, mark: int) -> list[Call]:
    """Status lines shown in the thread since call number `mark` (a refused turn shows none)."""
    return [c for c in since(emu, thread_ts, mark, "assistant.threads.setStatus") if c.params.get("status")]


def clarified_thread(slack: SlackDriver, emu: SlackEmulator, user: str, dm: str,
                     question: str = CONFLICT_QUESTION) -> tuple[str, Call]:
    """A split-view thread of a channel member whose question ended in a clarification."""
    emu.set_members(MAIN_CHANNEL, ["USOMEONE", USER, user])
    thread_ts = open_split_view(slack, emu, user, dm, MAIN_CHANNEL)
    slack.reply(dm, thread_ts, question, user=user)
    [clarification] = wait_post(emu, dm, thread_ts, is_clarification, what="a clarification")
    return thread_ts, clarification


def test_a_reply_after_removal_is_refused_and_the_question_stays_pending(
        bot: BotServer, slack: SlackDriver, emulator: SlackEmulator) -> None:
    user, dm = "UREMOVED1", "DREMOVE001"
    thread_ts, clarification = clarified_thread(slack, emulator, user, dm)
    thread_id = f"{TEAM_ID}:{dm}:{thread_ts}"
    pending = bot.engine.pending(thread_id)
    assert pending is not None and pending.kind == "conflict"

    emulator.remove_member(MAIN_CHANNEL, user)
    mark = len(emulator.calls)
    slack.reply(dm, thread_ts, "according to the Q3 report", user=user)
    wait_post(emulator, dm, thread_ts, is_refusal, what="the refusal")
    assert not leaks(since(emulator, thread_ts, mark))
    assert bot.engine.pending(thread_id) == pending  # the same question, same round
    assert not since(emulator, clarification.response["ts"], mark, "chat.update")  # its buttons stay
    assert not busy_statuses(emulator, thread_ts, mark)  # not even "Searching 6 documents…"

    emulator.set_members(MAIN_CHANNEL, ["USOMEONE", USER, user])  # back in the channel: the reply is taken
    slack.reply(dm, thread_ts, "according to the Q3 report", user=user)
    [answer] = wait_post(emulator, dm, thread_ts, is_answer, what="the answer once a member again")
    assert "12.4" in answer.blocks_text()


def test_a_reply_to_nothing_matched_cannot_ask_a_new_question_after_removal(
        bot: BotServer, slack: SlackDriver, emulator: SlackEmulator) -> None:
    user, dm = "UREMOVED2", "DREMOVE002"
    thread_ts, clarification = clarified_thread(slack, emulator, user, dm, NOTHING_MATCHES)
    assert "rephrase" in clarification.blocks_text()

    thread_id = f"{TEAM_ID}:{dm}:{thread_ts}"
    pending = bot.engine.pending(thread_id)
    emulator.remove_member(MAIN_CHANNEL, user)
    mark = len(emulator.calls)
    slack.reply(dm, thread_ts, KESTREL, user=user)  # a reply to "rephrase" replaces the question
    wait_post(emulator, dm, thread_ts, is_refusal, what="the refusal")
    assert not leaks(since(emulator, thread_ts, mark))
    assert bot.engine.pending(thread_id) == pending


@pytest.mark.parametrize(("n", "choice"), list(enumerate(["accept", "cancel", "source:q3_report.md"])))
def test_a_clarification_button_after_removal_is_refused(
        bot: BotServer, slack: SlackDriver, emulator: SlackEmulator, n: int, choice: str) -> None:
    user, dm = f"UBUTTON{n:02d}", f"DBUTTON{n:03d}"
    thread_ts, clarification = clarified_thread(slack, emulator, user, dm)
    thread_id = f"{TEAM_ID}:{dm}:{thread_ts}"
    pending = bot.engine.pending(thread_id)
    action = next(a for a, e in buttons(clarification.blocks()).items()
                  if json.loads(e.get("value") or "{}").get("choice") == choice)

    emulator.remove_member(MAIN_CHANNEL, user)
    mark = len(emulator.calls)
    assert slack.click(as_message(clarification), dm, action, user=user).status == 200
    [note] = emulator.wait_for(
        lambda _: [c for c in emulator.calls_to("chat.postEphemeral", thread_ts=thread_ts) if is_refusal(c)],
        what="the refusal")
    assert note.params["user"] == user
    assert not leaks(since(emulator, thread_ts, mark))
    assert bot.engine.pending(thread_id) == pending
    assert not since(emulator, clarification.response["ts"], mark, "chat.update")
    assert not busy_statuses(emulator, thread_ts, mark)


def test_a_new_question_after_removal_is_refused_plainly(
        bot: BotServer, slack: SlackDriver, emulator: SlackEmulator) -> None:
    user, dm = "UREMOVED3", "DREMOVE003"
    emulator.set_members(MAIN_CHANNEL, ["USOMEONE", USER, user])
    thread_ts = open_split_view(slack, emulator, user, dm, MAIN_CHANNEL)
    slack.reply(dm, thread_ts, "What is our AI investment strategy?", user=user)
    wait_post(emulator, dm, thread_ts, is_answer, what="the first answer")

    emulator.remove_member(MAIN_CHANNEL, user)
    mark = len(emulator.calls)
    slack.reply(dm, thread_ts, "How many customers did Kestrel Labs end the quarter with?", user=user)
    [refusal] = wait_post(emulator, dm, thread_ts, is_refusal, what="the refusal")
    posts = thread_posts(emulator, dm, thread_ts)
    assert posts[-1] is refusal and len([c for c in posts if is_answer(c)]) == 1  # nothing after it
    assert "another workspace" not in refusal.blocks_text()
    assert not busy_statuses(emulator, thread_ts, mark)
