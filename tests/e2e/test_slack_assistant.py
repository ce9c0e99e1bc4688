"""The assistant split view over HTTP: a DM thread beside a channel answers from that channel's documents
only when the user is a member of it (a tenancy boundary), with suggested prompts built from them."""

from __future__ import annotations

import time
from typing import Any

from tests.e2e.conftest import MAIN_CHANNEL, BotServer
from tests.e2e.helpers import is_answer, is_clarification, thread_posts, wait_post
from tests.e2e.slack_driver import USER, SlackDriver
from tests.e2e.slack_emulator import TEAM_ID, SlackEmulator

QUESTION = "What is our AI investment strategy?"


def thread_event(kind: str, user: str, dm: str, thread_ts: str, channel: str | None) -> dict[str, Any]:
    context = {"channel_id": channel, "team_id": TEAM_ID, "enterprise_id": None} if channel else {}
    return {"type": kind, "event_ts": f"{time.time():.6f}",
            "assistant_thread": {"user_id": user, "context": context, "channel_id": dm, "thread_ts": thread_ts}}


def open_split_view(slack: SlackDriver, emu: SlackEmulator, user: str, dm: str, channel: str | None) -> str:
    thread_ts = emu.next_ts()
    assert slack.event(thread_event("assistant_thread_started", user, dm, thread_ts, channel)).status == 200
    wait_post(emu, dm, thread_ts, lambda c: True, what="the greeting")
    return thread_ts


def test_a_member_gets_prompts_from_the_channels_documents_and_answers_from_them(
        slack: SlackDriver, emulator: SlackEmulator) -> None:
    emulator.members[MAIN_CHANNEL] = ["USOMEONE", USER]
    dm = "DSPLIT0001"
    thread_ts = open_split_view(slack, emulator, USER, dm, MAIN_CHANNEL)
    [prompts] = emulator.calls_to("assistant.threads.setSuggestedPrompts", thread_ts=thread_ts)
    messages = [p["message"] for p in prompts.params["prompts"]]
    assert 1 <= len(messages) <= 4 and all(".md" in m or ".pdf" in m or ".txt" in m or ".docx" in m
                                            or ".csv" in m or ".html" in m for m in messages)
    [greeting] = thread_posts(emulator, dm, thread_ts)
    assert f"<#{MAIN_CHANNEL}>" in greeting.blocks_text() and "6 documents" in greeting.blocks_text()

    slack.reply(dm, thread_ts, QUESTION)
    [answer] = wait_post(emulator, dm, thread_ts, is_answer, what="an answer from the channel's documents")
    assert "strategy_memo.pdf" in answer.blocks_text()
    [title] = emulator.calls_to("assistant.threads.setTitle", thread_ts=thread_ts)
    assert title.params["title"] == QUESTION
    assert emulator.calls_to("assistant.threads.setStatus", thread_ts=thread_ts)  # the status line there too


def test_a_non_member_never_gets_the_channels_documents(slack: SlackDriver, emulator: SlackEmulator) -> None:
    emulator.members[MAIN_CHANNEL] = ["USOMEONE", USER]
    outsider, dm = "UOUTSIDER1", "DSPLIT0002"
    thread_ts = open_split_view(slack, emulator, outsider, dm, MAIN_CHANNEL)
    assert not emulator.calls_to("assistant.threads.setSuggestedPrompts", thread_ts=thread_ts)
    [greeting] = thread_posts(emulator, dm, thread_ts)
    assert "not a member" in greeting.blocks_text()

    slack.reply(dm, thread_ts, QUESTION, user=outsider)
    [reply] = wait_post(emulator, dm, thread_ts, lambda c: is_answer(c) or is_clarification(c), what="a reply")
    posts = thread_posts(emulator, dm, thread_ts)
    assert any("not a member" in c.blocks_text() for c in posts[1:])  # told why, with the question
    assert is_clarification(reply) and "upload" in reply.blocks_text().lower()  # the DM's own, empty workspace
    assert not [c for c in posts if "strategy_memo" in c.blocks_text() or "Kestrel" in c.blocks_text()]


def test_the_context_follows_the_channel_the_user_opens(bot: BotServer, slack: SlackDriver,
                                                        emulator: SlackEmulator) -> None:
    emulator.members[MAIN_CHANNEL] = ["USOMEONE", USER, "UMOVER001"]
    user, dm = "UMOVER001", "DSPLIT0003"
    thread_ts = open_split_view(slack, emulator, user, dm, None)  # opened from no channel
    [greeting] = thread_posts(emulator, dm, thread_ts)
    assert "Open me from a channel" in greeting.blocks_text()
    changed = thread_event("assistant_thread_context_changed", user, dm, thread_ts, MAIN_CHANNEL)
    assert slack.event(changed).status == 200
    emulator.wait_for(lambda _: bot.deps.ledger.context(TEAM_ID, user) == MAIN_CHANNEL,
                      what="the context to be stored")
    slack.reply(dm, thread_ts, QUESTION, user=user)
    [answer] = wait_post(emulator, dm, thread_ts, is_answer, what="an answer from the channel now open")
    assert "strategy_memo.pdf" in answer.blocks_text()


def test_refused_prompts_and_title_change_nothing_else(slack: SlackDriver, emulator: SlackEmulator) -> None:
    emulator.members[MAIN_CHANNEL] = ["USOMEONE", USER, "UREFUSED1"]
    user, dm = "UREFUSED1", "DSPLIT0004"
    thread_ts = emulator.next_ts()
    for method in ("assistant.threads.setSuggestedPrompts", "assistant.threads.setTitle"):
        emulator.fail(method, status=200, error="not_allowed", when=lambda p: p.get("thread_ts") == thread_ts)
    slack.event(thread_event("assistant_thread_started", user, dm, thread_ts, MAIN_CHANNEL))
    [greeting] = wait_post(emulator, dm, thread_ts, lambda c: True, what="the greeting")
    assert f"<#{MAIN_CHANNEL}>" in greeting.blocks_text()
    slack.reply(dm, thread_ts, QUESTION, user=user)
    [answer] = wait_post(emulator, dm, thread_ts, is_answer, what="the answer")
    assert "strategy_memo.pdf" in answer.blocks_text()
    refused = {c.method for c in emulator.refused("assistant.threads.setSuggestedPrompts")
               + emulator.refused("assistant.threads.setTitle") if c.params.get("thread_ts") == thread_ts}
    assert refused == {"assistant.threads.setSuggestedPrompts", "assistant.threads.setTitle"}
