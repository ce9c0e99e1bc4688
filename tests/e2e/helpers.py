"""Reading the bot's side of a conversation out of the emulator's recorded calls."""

from __future__ import annotations

from typing import Any

from bot import blocks as b
from tests.e2e.slack_driver import buttons
from tests.e2e.slack_emulator import Call, SlackEmulator

WAIT = 30.0  # seconds: generous for slow CI machines; the polls return as soon as the call is seen


def is_answer(call: Call) -> bool:
    return b.ACTION_FEEDBACK in buttons(call.blocks())


def is_clarification(call: Call) -> bool:
    return b.ACTION_CANCEL in buttons(call.blocks())


def is_error(call: Call) -> bool:
    return ":warning:" in call.blocks_text() and not is_answer(call) and not is_clarification(call)


def thread_posts(emu: SlackEmulator, channel: str, thread_ts: str) -> list[Call]:
    return emu.posts(channel=channel, thread_ts=thread_ts)


def wait_post(emu: SlackEmulator, channel: str, thread_ts: str | None, kind: Any, *, count: int = 1,
              what: str = "a post", timeout: float = WAIT) -> list[Call]:
    """Wait until `count` posts of `kind` (a predicate) are in the thread; returns them."""

    def found(_: list[Call]) -> list[Call] | None:
        posts = emu.posts(channel=channel, thread_ts=thread_ts) if thread_ts else [
            c for c in emu.posts(channel=channel) if not c.params.get("thread_ts")]
        matching = [c for c in posts if kind(c)]
        return matching if len(matching) >= count else None

    return emu.wait_for(found, timeout=timeout, what=f"{what} in {channel}/{thread_ts}")


def as_message(call: Call) -> dict[str, Any]:
    """The message a post created, as a block_actions payload carries it."""
    return {"ts": call.response["ts"], "thread_ts": call.params.get("thread_ts"),
            "text": call.params.get("text", ""), "blocks": call.blocks()}
