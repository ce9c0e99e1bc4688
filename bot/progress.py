"""A status message in a thread that shows where the work is, then gives way to the result.

`start` posts "working on it" at once; `stage` edits it as the engine reports researching, writing,
auditing, scoring (at most about once a second, Slack's pace for edits); `finish` posts the result as a
new message, so the thread notifies its followers, and deletes the status message.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from bot.blocks import Message, context, progress_message

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

    def stage(self, stage: str) -> None:
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
            self._delete()

    def _post(self, message: Message) -> Any:
        return self._client.chat_postMessage(channel=self.channel, thread_ts=self.thread_ts, **message, **POST_OPTIONS)

    def _delete(self) -> None:
        if self.ts is None:
            return
        ts, self.ts = self.ts, None
        try:
            self._client.chat_delete(channel=self.channel, ts=ts)
        except SlackApiError:
            log.warning("could not delete the progress message %s", ts, exc_info=True)
