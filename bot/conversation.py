"""Questions, clarifications and answers in Slack threads: what the bot does with a message or a button.

The `on_*` methods run on Bolt's listener threads and only decide and enqueue; the work runs in the
background under the thread's lock, so two replies racing in one thread resume it once.

A thread's rules:
- a message that mentions the bot (or any message in a DM) is a question, answered in its thread (a DM
  from the assistant split view may answer from the channel the user has open: see `bot.assistant`);
- while a clarification is pending, a message in the thread written after the clarifying question was posted
  answers it and resumes the question, mention or not, unless it is a new question (`Clarification.answered_by`: a
  question in full, a pick followed by a question of its own, or after "nothing matched" anything but a typed
  choice): then the waiting question is dropped
  and the new one answered in the thread's context;
- in a DM thread that answers from a channel, every turn (question, reply, button) first checks that the
  user is still a member of that channel; a turn refused says why and runs nothing;
- other replies in threads and other channel messages are ignored;
- each channel (and each DM) is a line of the engine's fair worker pool, and each user a line within it: when
  the channel, or the user in it, already has as much work waiting as it may, the thread says so and the
  message is not taken (`bot.friendly.busy_message`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from typing import Any

from slack_sdk.errors import SlackApiError

from bot import blocks
from bot.assistant import AssistantView
from bot.blocks import Message
from bot.dedupe import message_key
from bot.deps import BotDeps
from bot.friendly import busy_message, user_message
from bot.ids import ThreadRef, mentions, parse_thread_id, strip_mention, ts_key
from bot.ledger import WorkInFlight
from bot.progress import POST_OPTIONS, AnswerStatus
from bot.uploads import Uploads
from masis.errors import NothingPendingError
from masis.fairness import QueueFull
from masis.outcome import Outcome

log = logging.getLogger(__name__)

# message subtypes that are a person writing; every other subtype (edits, joins, bots...) is ignored
USER_SUBTYPES = frozenset({None, "file_share", "thread_broadcast"})


class Conversations:
    def __init__(self, deps: BotDeps, uploads: Uploads, assistant: AssistantView) -> None:
        self.deps = deps
        self.uploads = uploads
        self.assistant = assistant

    # --- entry points (listener threads: fast) ------------------------------------------------------
    def on_message(self, event: dict[str, Any], *, team_id: str, bot_user_id: str | None) -> None:
        """An `app_mention` or `message` event; both shapes of one message are handled once."""
        if event.get("bot_id") or event.get("subtype") not in USER_SUBTYPES:
            return
        user, channel, ts = event.get("user"), event.get("channel"), event.get("ts")
        if not user or not channel or not ts or user == bot_user_id:
            return
        text = event.get("text") or ""
        is_dm = event.get("channel_type") == "im" or str(channel).startswith("D")
        addressed = is_dm or event.get("type") == "app_mention" or mentions(text, bot_user_id)
        thread_ts = event.get("thread_ts")
        in_thread = bool(thread_ts) and thread_ts != ts
        if not (addressed or in_thread):
            return  # channel chatter
        if not self.deps.deduper.claim(message_key(channel, ts)):
            return  # the other delivery of this message (app_mention + message) got here first
        ref = ThreadRef(team_id, channel, thread_ts or ts)
        files = list(event.get("files") or [])
        question = strip_mention(text, bot_user_id)
        # a question gets its status line at once, before it waits for a worker or for the thread's lock
        early: Future[AnswerStatus | None] | None = Future() if addressed and question and not files else None

        def work() -> None:
            self._on_message(ref, user, ts, question, files, addressed, in_thread, early)

        job = self._submit(ref, work, user=user)
        if job is not None and early is not None:
            self._show_early(early, ref, user, job)

    def on_choice(self, *, thread_id: str, choice: str, user_id: str, channel_id: str, message_ts: str) -> None:
        """A clarification button: "accept", "cancel", "source:<doc>" or "about:<what a pronoun means>"."""
        ref = parse_thread_id(thread_id)

        def work() -> None:
            post = self.deps.ledger.clarification(ref.thread_id)
            if post is not None and post.message_ts != message_ts:
                self._ephemeral(ref, user_id, "That question has moved on; use the buttons on the latest one.")
                return
            if self.deps.engine.pending(ref.thread_id) is None:
                self._ephemeral(ref, user_id, "That question has already been answered or cancelled.")
                return
            if refusal := self.assistant.refusal(ref, user_id):
                self._ephemeral(ref, user_id, refusal)
                return
            self._resume(ref, user_id, choice=choice, note=_choice_note(user_id, choice))

        self._submit(ref, work, user=user_id)

    def on_feedback(self, *, thread_id: str, run: int | None, user_id: str, value: str) -> None:
        """👍 / 👎 on one answer (`run`; None for buttons that predate runs: the latest answer). Slack's
        feedback buttons show the voter's choice themselves; the voter is also told privately."""
        ref = parse_thread_id(thread_id)

        def work() -> None:
            self.deps.engine.record_feedback(ref.thread_id, user_id, value, run=run)
            chosen, other = (":thumbsup:", ":thumbsdown:") if value == "up" else (":thumbsdown:", ":thumbsup:")
            self._ephemeral(ref, user_id, f"Thanks, I recorded your {chosen} on this answer. "
                                          f"Click {other} to change it.")

        try:
            self.deps.jobs.submit(
                work,
                name="feedback",
                team=ref.team_id,
                workspace=ref.workspace_id,
                user=user_id,
                on_error=lambda exc: self._ephemeral(ref, user_id, user_message(exc, doing="saving your feedback")),
            )
        except QueueFull as exc:
            self.deps.status_pool.submit(self._ephemeral, ref, user_id, busy_message(exc, what="your feedback"))

    # --- background work ------------------------------------------------------------------------------
    def _on_message(
        self,
        ref: ThreadRef,
        user: str,
        ts: str,
        question: str,
        files: Sequence[dict[str, Any]],
        addressed: bool,
        in_thread: bool,
        early: Future[AnswerStatus | None] | None = None,
    ) -> None:
        engine = self.deps.engine
        status = _started(early)
        try:
            if in_thread and (waiting := engine.pending(ref.thread_id)) is not None:
                post = self.deps.ledger.clarification(ref.thread_id)
                written_after = post is None or ts_key(ts) > ts_key(post.message_ts)
                if written_after and question:
                    if refusal := self.assistant.refusal(ref, user):
                        self._post(ref, blocks.notice_message(refusal))
                        return
                    if waiting.answered_by(question):
                        self._resume(ref, user, text=question, note=f"<@{user}> replied in the thread.",
                                     status=status)
                    else:  # a new question typed while this one waits: it is dropped, the new one answered
                        self._close_clarification(ref, f"<@{user}> asked a new question instead.")
                        self._ask(ref, question, user, status)
                    status = None
                return  # a reply written before the current question was asked does not answer it
            if not addressed:
                return
            if files:
                self.uploads.ingest_shared(ref, user, files)
            if question:
                self._ask(ref, question, user, status)
                status = None
            elif not files:
                self._post(ref, blocks.help_message())
        finally:
            if status is not None:  # shown early, for work that did not happen
                status.clear()

    def _early_status(self, ref: ThreadRef, user: str, job: Future[None]) -> AnswerStatus | None:
        """The status of the work to come; none when the turn will be refused (it would count the
        documents of a channel the user is not in). While `job` waits for a worker, it says so."""
        in_line = 0 if job.running() or job.done() else self.deps.jobs.pool.waiting(ref.workspace_id)
        if ref.channel_id.startswith("D"):
            scope = self.assistant.scope(ref, user)
            return None if scope.refused else self._status(ref, scope.workspace, in_line=in_line)
        return self._status(ref, self.deps.engine.workspace_of(ref.thread_id) or ref.workspace_id, in_line=in_line)

    def _ask(self, ref: ThreadRef, question: str, user: str, status: AnswerStatus | None = None) -> None:
        scope = self.assistant.scope(ref, user) if ref.channel_id.startswith("D") else None
        if scope is not None and scope.refused:
            if status is not None:
                status.clear()
            self._post(ref, blocks.notice_message(scope.note or ""))
            return
        workspace = scope.workspace if scope else ref.workspace_id
        status = status or self._status(ref, workspace)
        if scope is not None:
            if scope.note:
                self._post(ref, blocks.notice_message(scope.note))
            self.assistant.set_title(ref, question)
        self._run(status, ref, "ask", lambda progress: self.deps.engine.ask(
            workspace, question, thread_id=ref.thread_id, on_progress=progress))

    def _resume(self, ref: ThreadRef, user: str, *, note: str, text: str | None = None,
                choice: str | None = None, status: AnswerStatus | None = None) -> None:
        self._close_clarification(ref, note)
        status = status or self._status(ref, self.deps.engine.workspace_of(ref.thread_id) or ref.workspace_id)
        self._run(status, ref, "reply", lambda progress: self.deps.engine.reply(
            ref.thread_id, text, choice=choice, on_progress=progress))

    def _status(self, ref: ThreadRef, workspace: str, *, in_line: int = 0) -> AnswerStatus:
        """Shown first thing: the status line (or progress message) of the thread; `in_line`: the requests
        waiting for a worker in this conversation's line, this one among them (0: it has one)."""
        documents = len(self.deps.engine.documents(workspace))
        return self.deps.answer_status(ref.channel_id, ref.thread_ts, documents=documents).start(in_line=in_line)

    def _run(self, status: AnswerStatus, ref: ThreadRef, kind: str,
             call: Callable[[Callable[[str], None]], Outcome]) -> None:
        ledger = self.deps.ledger
        ledger.begin_work(WorkInFlight(ref.thread_id, kind, status.channel, ref.thread_ts, status.ts))
        try:
            self._answer(status, ref, call)
        finally:
            ledger.finish_work(ref.thread_id)

    def _answer(self, status: AnswerStatus, ref: ThreadRef, call: Callable[[Callable[[str], None]], Outcome]) -> None:
        try:
            outcome = call(status.stage)
        except NothingPendingError:
            status.finish(blocks.notice_message("That question has already been answered or cancelled."))
            return
        except Exception as exc:
            log.exception("answering in %s failed", ref.thread_id)
            status.finish(blocks.error_message(user_message(exc)))
            return
        self._deliver(status, ref, outcome)

    def _deliver(self, status: AnswerStatus, ref: ThreadRef, outcome: Outcome) -> None:
        """Post the outcome (a short version if Slack refuses it) and record it, even when nothing could be
        posted: a pending question is then recorded at the moment the work started, so replies written
        since answer it and the buttons of an older question do not."""
        ts: str | None = None
        try:
            ts = status.finish(blocks.outcome_message(outcome), fallback=blocks.fallback_message(outcome))
        finally:
            ledger = self.deps.ledger
            data = outcome.model_dump(mode="json")
            if outcome.status == "needs_clarification":
                ledger.record_clarification(ref.thread_id, status.channel, ts or status.started_ts or ref.thread_ts,
                                            data)
            else:
                ledger.forget_clarification(ref.thread_id)
                if outcome.status == "answered" and ts is not None:
                    ledger.record_answer(status.channel, ts, ref.thread_id, data)

    def _close_clarification(self, ref: ThreadRef, note: str) -> None:
        """Take the buttons off the question being answered, saying who answered it and how."""
        post = self.deps.ledger.clarification(ref.thread_id)
        if post is None:
            return
        try:
            outcome = Outcome.model_validate(post.outcome)
            message = blocks.resolved_clarification_message(outcome, note)
            self.deps.client.chat_update(channel=post.channel_id, ts=post.message_ts, **message)
        except Exception:
            log.warning("could not update the clarification message in %s", ref.thread_id, exc_info=True)

    # --- helpers ----------------------------------------------------------------------------------------
    def _submit(self, ref: ThreadRef, work: Callable[[], None], *, user: str) -> Future[None] | None:
        """Queue `work` in the channel's line and the user's; None (and the thread is told) when full."""
        try:
            return self.deps.jobs.submit(
                work,
                key=ref.thread_id,
                name=f"thread {ref.thread_id}",
                team=ref.team_id,
                workspace=ref.workspace_id,
                user=user,
                on_error=lambda exc: self._post(ref, blocks.error_message(user_message(exc))),
            )
        except QueueFull as exc:
            log.info("%s: not taken, %s", ref.thread_id, exc)
            self.deps.status_pool.submit(self._notice, ref, busy_message(exc))
            return None

    def _show_early(self, early: Future[AnswerStatus | None], ref: ThreadRef, user: str, job: Future[None]) -> None:
        """Show the status line on the status pool (ahead of the answering jobs); `early` gets it."""

        def show() -> None:
            try:
                early.set_result(self._early_status(ref, user, job))
            except BaseException as exc:
                early.set_exception(exc)

        try:
            self.deps.status_pool.submit(show)
        except RuntimeError:  # shutting down
            early.set_result(None)

    def _post(self, ref: ThreadRef, message: Message) -> None:
        self.deps.client.chat_postMessage(
            channel=ref.channel_id, thread_ts=ref.thread_ts, **message, **POST_OPTIONS
        )

    def _notice(self, ref: ThreadRef, text: str) -> None:
        try:
            self._post(ref, blocks.notice_message(text))
        except SlackApiError:
            log.warning("could not post a notice in %s", ref.thread_id, exc_info=True)

    def _ephemeral(self, ref: ThreadRef, user_id: str, text: str) -> None:
        try:
            self.deps.client.chat_postEphemeral(
                channel=ref.channel_id, user=user_id, thread_ts=ref.thread_ts, text=text,
                blocks=blocks.notice_message(text)["blocks"],
            )
        except SlackApiError:
            log.warning("could not send an ephemeral note in %s", ref.thread_id, exc_info=True)


def _started(early: Future[AnswerStatus | None] | None) -> AnswerStatus | None:
    """The status shown early, or None if there is none or it could not be shown (the worker then tries)."""
    if early is None:
        return None
    try:
        return early.result(timeout=60)
    except Exception:
        log.warning("could not show the thread status early", exc_info=True)
        return None


def _choice_note(user_id: str, choice: str) -> str:
    if choice == "accept":
        return f"<@{user_id}> chose to use the draft."
    if choice == "cancel":
        return f"<@{user_id}> cancelled the question."
    if choice.startswith("source:"):
        return f"<@{user_id}> chose to trust `{blocks.escape(choice.removeprefix('source:'))}`."
    if choice.startswith("about:"):
        return f"<@{user_id}> meant {blocks.escape(choice.removeprefix('about:'))}."
    return f"<@{user_id}> answered."
