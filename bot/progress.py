"""Where the work is, shown in the thread until the result replaces it.

`AnswerStatus` (questions and replies) uses the thread's native status line, falling back to a status
message where Slack refuses it. `StatusMessage` (the fallback, and uploads) posts "working on it" at once;
`stage` edits it as the engine reports researching, writing, auditing, scoring (at most about once a
second, Slack's pace for edits); `finish` posts the result as a new message, so the thread notifies its
followers, and deletes the status message.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from bot.blocks import Message, context, escape, progress_message, truncate

log = logging.getLogger(__name__)

POST_OPTIONS: dict[str, Any] = {"unfurl_links": False, "unfurl_media": False}


class StatusMessage:
    def __init__(
        self,
        client: WebClient,
        channel: str,
        thread_ts: str | None,
        *,
        min_interval: float = 1.0,
    ) -> None:
        self._client = client
        self.channel = channel
        self.thread_ts = thread_ts
        self._min_interval = min_interval
        self._lock = threading.Lock()
        self.ts: str | None = None  # the status message while it is shown
        self.posted_ts: str | None = None  # when it was posted (kept after it is removed)
        self._shown: tuple[str | None, int] | None = None
        self._last_edit = 0.0
        self._attempt = 0

    def start(self, message: Message | None = None) -> StatusMessage:
        message = message or progress_message()
        resp = self._client.chat_postMessage(
            channel=self.channel, thread_ts=self.thread_ts, **message, **POST_OPTIONS
        )
        self.ts = self.posted_ts = resp["ts"]
        self.channel = resp.get("channel") or self.channel
        self._last_edit = time.monotonic()
        return self

    def stage(self, stage: str, detail: str | None = None) -> None:
        """The engine's progress callback: never raises, never floods Slack."""
        try:
            with self._lock:
                if stage == "researching":
                    self._attempt += 1
                shown = (stage, max(1, self._attempt))
                if self.ts is None or shown == self._shown:
                    return
                now = time.monotonic()
                if now - self._last_edit < self._min_interval:
                    return
                self._shown, self._last_edit = shown, now
            self._client.chat_update(channel=self.channel, ts=self.ts, **progress_message(*shown))
        except Exception:  # a progress edit is never worth failing the answer for
            log.warning("could not update the progress message", exc_info=True)

    def ingest_progress(self, *args: Any) -> None:
        """The ingest callback: (done, total, name) from the engine, or a plain text."""
        if len(args) == 3:
            done, total, name = args
            text = f":hourglass_flowing_sand: Indexed {done} of {total} file{'s' if total != 1 else ''}…"
            key = f"{done}/{total}:{name}"
        else:
            text = ":hourglass_flowing_sand: Indexing…"
            key = " ".join(str(a) for a in args)
        try:
            with self._lock:
                now = time.monotonic()
                if self.ts is None or now - self._last_edit < self._min_interval:
                    return
                self._shown, self._last_edit = (key, 0), now
            self._client.chat_update(channel=self.channel, ts=self.ts, text=text, blocks=[context(text)])
        except Exception:
            log.warning("could not update the progress message", exc_info=True)

    def parse_waiting(self, name: str, place: int) -> None:
        """The ingest's waiting callback: `name` waits for a free file reader, `place` in line (1: next).

        Shown at once, not held back like progress: it comes at most once per place per file, and it is
        what explains an upload that seems stuck."""
        ahead = "next in line" if place <= 1 else f"{place - 1} file{'s' if place > 2 else ''} ahead"
        text = (f":hourglass_flowing_sand: Waiting for a free file reader to read `{escape(truncate(name, 80))}` "
                f"({ahead})…")
        try:
            with self._lock:
                if self.ts is None:
                    return
                self._shown, self._last_edit = (f"waiting:{name}:{place}", 0), time.monotonic()
            self._client.chat_update(channel=self.channel, ts=self.ts, text=text, blocks=[context(text)])
        except Exception:
            log.warning("could not update the progress message", exc_info=True)

    def finish(self, message: Message, fallback: Message | None = None) -> str:
        """Post the result in the thread, or `fallback` (short, plain) when Slack refuses it, and remove the
        status message whatever happens; returns the ts of what was posted."""
        try:
            try:
                resp = self._post(message)
            except Exception as exc:
                if fallback is None:
                    raise
                error = exc.response.get("error") if isinstance(exc, SlackApiError) else type(exc).__name__
                log.warning("Slack refused a message in %s (%s); posting a short version", self.channel, error)
                resp = self._post(fallback)
            return str(resp["ts"])
        finally:
            self.remove()

    def _post(self, message: Message) -> Any:
        return self._client.chat_postMessage(channel=self.channel, thread_ts=self.thread_ts, **message, **POST_OPTIONS)

    def remove(self) -> None:
        """Delete the status message, if it is still there."""
        if self.ts is None:
            return
        ts, self.ts = self.ts, None
        try:
            self._client.chat_delete(channel=self.channel, ts=ts)
        except SlackApiError:
            log.warning("could not delete the progress message %s", ts, exc_info=True)


ORDINALS = ("First", "Second", "Third", "Fourth", "Fifth", "Sixth")
MAX_LOADING_MESSAGE = 150
WORKING = "is working on your question…"


def loading_messages(stage: str | None, attempt: int, documents: int, detail: str | None = None) -> list[str]:
    """What the thread's status line says at each stage of the engine's work (`assistant.threads.setStatus`
    rotates through these)."""
    docs = f"{documents} document{'s' if documents != 1 else ''}"
    if stage == "waiting":  # for a worker: `detail` is how many requests wait in this conversation's line
        ahead = f"{detail} requests are" if detail and detail != "1" else "your request is"
        messages = [f"Waiting for a free worker: {ahead} in line here…",
                    "Other channels' questions are taking turns with this one's…"]
    elif stage is None or (stage == "researching" and attempt <= 1):
        messages = [f"Searching {docs}…"]
    elif stage == "researching":
        ordinal = ORDINALS[min(attempt, len(ORDINALS)) - 1]
        why = f": the last draft had {detail}" if detail else ""
        messages = [f"{ordinal} attempt{why}…", f"Searching {docs} again, more widely…"]
    else:
        messages = {"writing": ["Writing a cited draft…"], "auditing": ["Checking citations…",
                    "Auditing every claim against its source…"], "scoring": ["Scoring the answer…"]}.get(
                        stage, [f"{stage.capitalize()}…"])
    # plain text Slack shows as written; nothing here comes from a document, but keep it inert anyway
    return [truncate(m.replace("<", "‹").replace(">", "›"), MAX_LOADING_MESSAGE) for m in messages]


class AnswerStatus:
    """Progress while a question is answered: the thread's native status line (`assistant.threads.setStatus`
    with rotating `loading_messages`), or, where Slack refuses that call, a posted message that is edited
    and then removed (`StatusMessage`). `finish` posts the result and clears the status either way."""

    def __init__(self, client: WebClient, channel: str, thread_ts: str, *, documents: int,
                 min_interval: float = 1.0) -> None:
        self._client = client
        self.channel = channel
        self.thread_ts = thread_ts
        self._documents = documents
        self._min_interval = min_interval
        self._lock = threading.Lock()
        self._fallback: StatusMessage | None = None
        self._attempt = 0
        self._shown: tuple[str | None, int] | None = None
        self._last = 0.0
        self._started_at: str | None = None
        self._waiting = False  # the status says "waiting for a worker"

    @property
    def ts(self) -> str | None:
        """The posted progress message's ts (fallback only): what a restart must remove."""
        return self._fallback.ts if self._fallback else None

    @property
    def started_ts(self) -> str | None:
        """When the work started, as a Slack timestamp: the progress message's, or the clock's."""
        return self._fallback.posted_ts if self._fallback else self._started_at

    def start(self, *, in_line: int = 0) -> AnswerStatus:
        """Show the status: "waiting" when `in_line` requests (this one among them) wait for a worker."""
        self._started_at = f"{time.time():.6f}"
        try:
            if in_line:
                self._set(WORKING, loading_messages("waiting", 1, self._documents, str(in_line)))
                self._waiting = True
            else:
                self._set(WORKING, loading_messages(None, 1, self._documents))
            self._last = time.monotonic()
        except SlackApiError as exc:
            log.info("no thread status in %s (%s): showing progress as a message", self.channel,
                     exc.response.get("error"))
            self._fallback = StatusMessage(self._client, self.channel, self.thread_ts,
                                           min_interval=self._min_interval).start()
            self.channel = self._fallback.channel
        return self

    def stage(self, stage: str, detail: str | None = None) -> None:
        """The engine's progress callback: never raises, never floods Slack."""
        if self._fallback is not None:
            self._fallback.stage(stage)
            return
        try:
            with self._lock:
                if stage == "researching":
                    self._attempt += 1
                shown = (stage, max(1, self._attempt))
                now = time.monotonic()
                # the first stage after waiting always shows: "waiting" must not outlive the wait
                if shown == self._shown or (now - self._last < self._min_interval and not self._waiting):
                    return
                self._shown, self._last, self._waiting = shown, now, False
            self._set(WORKING, loading_messages(stage, shown[1], self._documents, detail))
        except Exception:  # a status update is never worth failing the answer for
            log.warning("could not update the thread status", exc_info=True)

    def finish(self, message: Message, fallback: Message | None = None) -> str:
        if self._fallback is not None:
            return self._fallback.finish(message, fallback)
        poster = StatusMessage(self._client, self.channel, self.thread_ts)  # posts only: nothing to remove
        try:
            return poster.finish(message, fallback)
        finally:
            self.clear()  # Slack clears it when the app replies; say so explicitly all the same

    def clear(self) -> None:
        """Take the status away (also when the work it announced did not happen)."""
        if self._fallback is not None:
            self._fallback.remove()
            return
        try:
            self._set("")
        except SlackApiError:
            log.info("could not clear the thread status in %s", self.channel)

    def _set(self, status: str, messages: list[str] | None = None) -> None:
        self._client.assistant_threads_setStatus(
            channel_id=self.channel, thread_ts=self.thread_ts, status=status, loading_messages=messages
        )
