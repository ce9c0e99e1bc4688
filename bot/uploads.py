"""Documents from Slack: the /masis-upload modal, files shared with a mention, listing and removing.

Files are fetched with the bot token (see `bot.files`), indexed into the channel's workspace in the
background, and summarised per file: chunks indexed, unchanged, or the reason it failed.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from slack_sdk.errors import SlackApiError

from bot import blocks
from bot.deps import BotDeps
from bot.files import FileRefused
from bot.friendly import busy_message, user_message
from bot.ids import ThreadRef, workspace_id
from bot.ledger import WorkInFlight
from bot.progress import POST_OPTIONS, StatusMessage
from masis.errors import DocumentBusyError, UnknownDocumentError
from masis.fairness import QueueFull

log = logging.getLogger(__name__)

MAX_FILES = 10
_UNSAFE_NAME = re.compile(r"[^A-Za-z0-9._-]+")


@dataclass(frozen=True)
class FailedFile:
    """A file that never reached the engine (it could not be fetched); renders like a FileResult."""

    name: str
    reason: str
    status: str = "failed"
    chunks: int = 0


@dataclass(frozen=True)
class Submission:
    team_id: str
    channel_id: str
    files: list[dict[str, Any]]
    pasted_text: str
    pasted_name: str


def pasted_name(raw: str | None, now: datetime | None = None) -> str:
    """A citation-safe name for pasted text, always .md or .txt."""
    name = _UNSAFE_NAME.sub("_", (raw or "").strip()).strip("._")
    if not name:
        name = f"pasted_text_{(now or datetime.now(UTC)).strftime('%Y%m%d-%H%M%S')}"
    if not name.lower().endswith((".md", ".txt")):
        name += ".md"
    return name


class Uploads:
    def __init__(self, deps: BotDeps) -> None:
        self.deps = deps

    # --- slash command: quick answers in the ack --------------------------------------------------------
    def documents(self, team_id: str, channel_id: str) -> blocks.Message:
        return blocks.documents_message(self.deps.engine.documents(workspace_id(team_id, channel_id)))

    def remove(self, team_id: str, channel_id: str, name: str) -> blocks.Message:
        name = name.strip().strip("`'\"")
        if not name:
            return blocks.notice_message("Say which document to remove: `/masis-upload remove NAME`.")
        try:
            # answered in the slash command's ack (3 s): an upload of this name under way is not waited for
            self.deps.engine.remove_document(workspace_id(team_id, channel_id), name, wait=False)
        except DocumentBusyError:
            return blocks.notice_message(
                f":hourglass_flowing_sand: `{blocks.escape(name)}` is being uploaded or removed right now; "
                "remove it again once that has finished."
            )
        except UnknownDocumentError:
            known = ", ".join(f"`{blocks.escape(d.name)}`" for d in
                              self.deps.engine.documents(workspace_id(team_id, channel_id))[:20])
            hint = f" Documents here: {known}." if known else " This channel has no documents."
            return blocks.notice_message(f"There is no document called `{blocks.escape(name)}` here.{hint}")
        return blocks.notice_message(f":wastebasket: Removed `{blocks.escape(name)}` from this channel's documents.")

    def modal(self, team_id: str, channel_id: str, channel_name: str | None) -> dict[str, Any]:
        metadata = json.dumps({"team": team_id, "channel": channel_id})
        label = f"#{channel_name}" if channel_name and channel_name != "directmessage" else None
        return blocks.upload_modal(metadata, label)

    # --- the modal's submission -------------------------------------------------------------------------
    @staticmethod
    def parse_submission(view: dict[str, Any], fallback_team: str) -> Submission:
        metadata = json.loads(view.get("private_metadata") or "{}")
        values = (view.get("state") or {}).get("values") or {}
        files_value = (values.get(blocks.UPLOAD_FILES_BLOCK) or {}).get(blocks.UPLOAD_FILES_ACTION) or {}
        text_value = (values.get(blocks.UPLOAD_TEXT_BLOCK) or {}).get(blocks.UPLOAD_TEXT_ACTION) or {}
        name_value = (values.get(blocks.UPLOAD_NAME_BLOCK) or {}).get(blocks.UPLOAD_NAME_ACTION) or {}
        return Submission(
            team_id=str(metadata.get("team") or fallback_team),
            channel_id=str(metadata.get("channel") or ""),
            files=list(files_value.get("files") or []),
            pasted_text=(text_value.get("value") or "").strip(),
            pasted_name=(name_value.get("value") or "").strip(),
        )

    @staticmethod
    def validate(sub: Submission) -> dict[str, str] | None:
        """Slack's `response_action: errors` map, or None when the submission can be indexed."""
        if not sub.channel_id:
            return {blocks.UPLOAD_FILES_BLOCK: "I lost track of the channel; run /masis-upload again."}
        if not sub.files and not sub.pasted_text:
            return {blocks.UPLOAD_FILES_BLOCK: "Attach at least one file, or paste some text below."}
        if len(sub.files) > MAX_FILES:
            return {blocks.UPLOAD_FILES_BLOCK: f"At most {MAX_FILES} files at a time."}
        return None

    def submit(self, sub: Submission, user_id: str) -> None:
        """Index a validated submission in the background and post the summary in the channel."""
        workspace = workspace_id(sub.team_id, sub.channel_id)
        pasted = [(pasted_name(sub.pasted_name), sub.pasted_text.encode())] if sub.pasted_text else []

        def work() -> None:
            status = self._start_status(sub.channel_id, user_id, len(sub.files) + len(pasted))
            try:
                results = self._ingest(workspace, user_id, sub.files, pasted, status)
            except Exception as exc:
                log.exception("upload into %s failed", workspace)
                status.finish(blocks.error_message(user_message(exc, doing="indexing your documents")))
                return
            status.finish(blocks.ingest_summary_message(results, uploaded_by=user_id))

        try:
            self.deps.jobs.submit(
                work,
                key=f"ingest:{workspace}",
                name=f"upload into {workspace}",
                team=sub.team_id,
                workspace=workspace,
                user=user_id,
                on_error=lambda exc: self._tell_user(user_id, user_message(exc, doing="indexing your documents")),
            )
        except QueueFull as exc:
            self._tell_user(user_id, busy_message(exc, what=f"your upload into <#{sub.channel_id}>"))

    # --- files shared in a message that mentions the bot (already on a background thread) -------------
    def ingest_shared(self, ref: ThreadRef, user_id: str, files: Sequence[dict[str, Any]]) -> None:
        status = self.deps.status(ref.channel_id, ref.thread_ts).start(
            _indexing_message(len(files))
        )
        try:
            results = self._ingest(ref.workspace_id, user_id, files, [], status)
        except Exception as exc:
            log.exception("ingest of shared files into %s failed", ref.workspace_id)
            status.finish(blocks.error_message(user_message(exc, doing="indexing your documents")))
            return
        status.finish(blocks.ingest_summary_message(results, uploaded_by=user_id))

    # --- shared ------------------------------------------------------------------------------------------
    def _ingest(
        self,
        workspace: str,
        user_id: str,
        files: Sequence[dict[str, Any]],
        pasted: list[tuple[str, bytes]],
        status: StatusMessage,
    ) -> list[Any]:
        key = f"upload:{status.channel}:{status.ts}"
        self.deps.ledger.begin_work(WorkInFlight(key, "upload", status.channel, status.thread_ts, status.ts))
        try:
            return self._fetch_and_index(workspace, user_id, files, pasted, status)
        finally:
            self.deps.ledger.finish_work(key)

    def _fetch_and_index(
        self,
        workspace: str,
        user_id: str,
        files: Sequence[dict[str, Any]],
        pasted: list[tuple[str, bytes]],
        status: StatusMessage,
    ) -> list[Any]:
        downloaded: list[tuple[str, bytes]] = []
        failed: list[FailedFile] = []
        for file in files[:MAX_FILES]:
            label = str(file.get("name") or file.get("title") or file.get("id") or "file")
            try:
                downloaded.append(self.deps.files.download(file))
            except FileRefused as exc:
                failed.append(FailedFile(label, str(exc)))
            except Exception:
                log.exception("downloading %s failed", label)
                failed.append(FailedFile(label, "could not be downloaded from Slack"))
        results: list[Any] = []
        to_index = downloaded + pasted
        if to_index:
            report = self.deps.engine.ingest(
                workspace, to_index, uploaded_by=user_id, on_progress=status.ingest_progress,
                on_wait=status.parse_waiting,
            )
            results.extend(report.results)
        return results + failed

    def _start_status(self, channel_id: str, user_id: str, count: int) -> StatusMessage:
        """The status message in the channel; in a DM with the uploader if the bot is not in it."""
        try:
            return self.deps.status(channel_id, None).start(_indexing_message(count))
        except SlackApiError as exc:
            if exc.response.get("error") not in ("not_in_channel", "channel_not_found", "is_archived"):
                raise
            self._tell_user(
                user_id,
                f"I can't post in <#{channel_id}>; invite me with `/invite @masis`. "
                "Your documents are being indexed for that channel anyway; the summary follows here.",
            )
            return self.deps.status(user_id, None).start(_indexing_message(count))

    def _tell_user(self, user_id: str, text: str) -> None:
        try:
            self.deps.client.chat_postMessage(channel=user_id, **blocks.notice_message(text), **POST_OPTIONS)
        except SlackApiError:
            log.warning("could not message %s", user_id, exc_info=True)


def _indexing_message(count: int) -> blocks.Message:
    text = f":hourglass_flowing_sand: Indexing {count} document{'s' if count != 1 else ''}…"
    return {"text": text, "blocks": [blocks.context(text)]}
