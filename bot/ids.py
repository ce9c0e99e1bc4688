"""How Slack's identifiers become the engine's: workspaces, threads, and the bot's mention in a text.

A channel is a workspace (`"<team_id>:<channel_id>"`; a DM's channel is its own workspace) and a Slack
thread is an engine thread (`"<team_id>:<channel_id>:<thread_ts>"`).
"""

from __future__ import annotations

import re
from typing import NamedTuple


class ThreadRef(NamedTuple):
    team_id: str
    channel_id: str
    thread_ts: str

    @property
    def workspace_id(self) -> str:
        return workspace_id(self.team_id, self.channel_id)

    @property
    def thread_id(self) -> str:
        return f"{self.team_id}:{self.channel_id}:{self.thread_ts}"


def workspace_id(team_id: str, channel_id: str) -> str:
    if not team_id or not channel_id:
        raise ValueError("a workspace needs both a team id and a channel id")
    return f"{team_id}:{channel_id}"


def parse_thread_id(thread_id: str) -> ThreadRef:
    """The inverse of `ThreadRef.thread_id`; raises ValueError on anything else."""
    parts = thread_id.split(":")
    if len(parts) != 3 or not all(parts):
        raise ValueError(f"not a Slack thread id: {thread_id!r}")
    return ThreadRef(*parts)


def mention_pattern(bot_user_id: str) -> re.Pattern[str]:
    """`<@U123>` or `<@U123|masis>`, as Slack encodes a mention of the bot."""
    return re.compile(rf"<@{re.escape(bot_user_id)}(?:\|[^>]*)?>")


def mentions(text: str, bot_user_id: str | None) -> bool:
    return bool(bot_user_id) and bool(mention_pattern(bot_user_id).search(text or ""))


def strip_mention(text: str, bot_user_id: str | None) -> str:
    """The text with the bot's mentions removed and whitespace tidied: the question itself."""
    if bot_user_id:
        text = mention_pattern(bot_user_id).sub(" ", text or "")
    return " ".join((text or "").split())


def ts_key(ts: str) -> tuple[int, int]:
    """Slack timestamps ("1712345678.000200") as a sortable pair; they order messages in a channel."""
    seconds, _, micros = ts.partition(".")
    return int(seconds or 0), int((micros or "0").ljust(6, "0")[:6])
