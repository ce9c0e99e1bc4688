"""The assistant split view (`features.assistant_view`): a DM thread beside the channel the user has open.

Which documents does such a DM answer from? The user's last channel context (Slack sends it with
`assistant_thread_started` and `assistant_thread_context_changed`) names a channel; its documents are used
only if the user is a member of that channel (`conversations.members`). A DM with no channel context is
its own workspace, as any DM is. With a channel the user is not in, a new thread's first question is
answered from the DM's own (usually empty) workspace, and the user is told why. A thread keeps the
workspace of its first question, so a later change of context never moves it; when that is a channel's,
membership is checked again on every turn (a question, a reply, a clarification button), and a user who
has left the channel is told so and nothing runs.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from slack_sdk.errors import SlackApiError

from bot import blocks
from bot.deps import BotDeps
from bot.ids import ThreadRef, workspace_id
from bot.progress import POST_OPTIONS
from masis.fairness import QueueFull

log = logging.getLogger(__name__)

MAX_PROMPTS = 4  # Slack shows up to four suggested prompts
MAX_TITLE = 255


@dataclass(frozen=True)
class Scope:
    workspace: str
    channel: str | None  # the channel whose documents are used, if any
    note: str | None  # why the channel the user has open is not used
    refused: bool = False  # the thread answers from a channel the user is not in: nothing may run


def not_a_member(channel: str) -> str:
    return (f"You are not a member of <#{channel}>, so I cannot use its documents here. I answer from the "
            "documents of a channel you belong to: open me from one of yours.")


def suggested_prompts(names: list[str]) -> list[dict[str, str]]:
    """Prompts built from the channel's documents (the newest first)."""
    return [{"title": blocks.truncate(f"Ask about {name}", 75), "message": f"What are the key points of {name}?"}
            for name in names[:MAX_PROMPTS]]


class AssistantView:
    def __init__(self, deps: BotDeps) -> None:
        self.deps = deps

    # --- events (listener threads: fast) ----------------------------------------------------------
    def on_context(self, event: dict[str, Any], *, team_id: str, started: bool) -> None:
        thread = event.get("assistant_thread") or {}
        user, dm, thread_ts = thread.get("user_id"), thread.get("channel_id"), thread.get("thread_ts")
        channel = (thread.get("context") or {}).get("channel_id")
        if not user or not dm or not thread_ts:
            return
        if channel and not str(channel).startswith("D"):
            self.deps.ledger.set_context(team_id, user, channel)
        if started:
            ref = ThreadRef(team_id, dm, thread_ts)
            try:
                self.deps.jobs.submit(lambda: self._welcome(ref, user), key=ref.thread_id, team=team_id,
                                      name=f"assistant thread {ref.thread_id}", workspace=ref.workspace_id, user=user)
            except QueueFull:  # the welcome's suggested prompts are a nicety: skipped when the line is full
                log.info("assistant thread %s: no welcome, its line is full", ref.thread_id)

    # --- used by Conversations -----------------------------------------------------------------------
    def scope(self, ref: ThreadRef, user: str) -> Scope:
        """The workspace a DM question of `user` in `ref` is answered from (see the module's rule)."""
        own = workspace_id(ref.team_id, ref.channel_id)
        pinned = self.deps.engine.workspace_of(ref.thread_id)
        if pinned is not None:
            channel = pinned.split(":", 1)[1] if pinned != own else None
            if channel is None or self.is_member(channel, user):
                return Scope(pinned, channel, None)
            return Scope(own, None, not_a_member(channel), refused=True)
        channel = self.deps.ledger.context(ref.team_id, user)
        if not channel:
            return Scope(own, None, None)
        if self.is_member(channel, user):
            return Scope(workspace_id(ref.team_id, channel), channel, None)
        return Scope(own, None, not_a_member(channel))

    def refusal(self, ref: ThreadRef, user: str) -> str | None:
        """Why `user` may not take a turn in the thread `ref` now (a DM thread that answers from a channel
        they are not, or no longer, a member of), or None when they may. A thread outside a DM is its own
        channel's, and one not yet asked in has no channel to check."""
        if not ref.channel_id.startswith("D"):
            return None
        pinned = self.deps.engine.workspace_of(ref.thread_id)
        if pinned is None or pinned == ref.workspace_id:
            return None
        channel = pinned.split(":", 1)[1]
        return None if self.is_member(channel, user) else not_a_member(channel)

    def is_member(self, channel: str, user: str) -> bool:
        cursor = None
        try:
            while True:
                resp = self.deps.client.conversations_members(channel=channel, cursor=cursor, limit=1000)
                if user in (resp.get("members") or []):
                    return True
                cursor = (resp.get("response_metadata") or {}).get("next_cursor")
                if not cursor:
                    return False
        except SlackApiError as exc:  # not_in_channel, channel_not_found, missing_scope: not provably a member
            log.info("cannot list the members of %s (%s): not using its documents", channel,
                     exc.response.get("error"))
            return False

    def set_title(self, ref: ThreadRef, question: str) -> None:
        try:
            self.deps.client.assistant_threads_setTitle(channel_id=ref.channel_id, thread_ts=ref.thread_ts,
                                                        title=blocks.truncate(" ".join(question.split()), MAX_TITLE))
        except SlackApiError as exc:  # a plain DM, not an assistant thread: nothing to title
            log.debug("no title for %s: %s", ref.thread_id, exc.response.get("error"))

    # --- background ---------------------------------------------------------------------------------
    def _welcome(self, ref: ThreadRef, user: str) -> None:
        scope = self.scope(ref, user)
        names = [d.name for d in sorted(self.deps.engine.documents(scope.workspace),
                                        key=lambda d: d.uploaded_at, reverse=True)]
        if scope.channel and names:
            try:
                self.deps.client.assistant_threads_setSuggestedPrompts(
                    channel_id=ref.channel_id, thread_ts=ref.thread_ts, prompts=suggested_prompts(names),
                    title=f"Ask about the documents of #{scope.channel}"[:150])
            except SlackApiError as exc:
                log.info("no suggested prompts in %s: %s", ref.thread_id, exc.response.get("error"))
            text = (f"I answer from the {len(names)} document{'s' if len(names) != 1 else ''} of <#{scope.channel}>, "
                    "with numbered sources. Ask me anything about them.")
        elif scope.note:
            text = scope.note
        else:
            text = ("I answer from a channel's documents, with numbered sources. Open me from a channel you "
                    "belong to, or add documents to this conversation with `/masis-upload`.")
        self.deps.client.chat_postMessage(channel=ref.channel_id, thread_ts=ref.thread_ts,
                                          **blocks.notice_message(text), **POST_OPTIONS)
