"""Everything the listeners share, built once per process: the engine, the Slack client, the bot's
bookkeeping, the background jobs and the file fetcher."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING

from slack_sdk import WebClient
from slack_sdk.http_retry import ConnectionErrorRetryHandler, RateLimitErrorRetryHandler

from bot.db import BotDB
from bot.dedupe import Deduper
from bot.files import SlackFiles
from bot.jobs import Jobs
from bot.ledger import Ledger
from bot.progress import AnswerStatus, StatusMessage
from bot.slack_client import RedactingWebClient
from masis.config import Settings

if TYPE_CHECKING:
    from bot.watch import ReplicaWatch
    from masis.engine import Engine

DB_FILENAME = "slack.db"


def bot_token(settings: Settings) -> str:
    if settings.slack_bot_token is None or not settings.slack_bot_token.get_secret_value():
        raise ValueError("SLACK_BOT_TOKEN is not set: copy the Bot User OAuth Token (xoxb-…) from your Slack app")
    return settings.slack_bot_token.get_secret_value()


def make_web_client(settings: Settings, token: str | None = None) -> WebClient:
    """The Web API client: `SLACK_API_URL`, retries that honour Slack's `Retry-After` on 429, and no secret
    in anything it sends."""
    return RedactingWebClient(
        token=token or bot_token(settings),
        base_url=settings.slack_api_url,
        timeout=30,
        retry_handlers=[
            ConnectionErrorRetryHandler(max_retry_count=2),
            RateLimitErrorRetryHandler(max_retry_count=3),
        ],
    )


@dataclass
class BotDeps:
    settings: Settings
    engine: Engine
    client: WebClient
    db: BotDB
    deduper: Deduper
    ledger: Ledger
    jobs: Jobs
    files: SlackFiles
    status_pool: ThreadPoolExecutor  # shows a question's status line at once, ahead of the answering jobs
    progress_interval: float = 1.0  # seconds between edits of a progress message
    watch: ReplicaWatch | None = None  # on PostgreSQL: other replicas' lost work (bot.watch), once started

    def status(self, channel: str, thread_ts: str | None) -> StatusMessage:
        """A progress message in `channel` (in the thread `thread_ts` when given), not yet posted."""
        return StatusMessage(self.client, channel, thread_ts, min_interval=self.progress_interval)

    def answer_status(self, channel: str, thread_ts: str, *, documents: int) -> AnswerStatus:
        """The thread's status while a question is answered (native, or a progress message), not yet shown."""
        return AnswerStatus(self.client, channel, thread_ts, documents=documents,
                            min_interval=self.progress_interval)

    @classmethod
    def create(
        cls,
        settings: Settings,
        engine: Engine,
        *,
        client: WebClient | None = None,
        progress_interval: float = 1.0,
    ) -> BotDeps:
        client = client or make_web_client(settings)
        db = BotDB(settings.postgres_url or settings.data_dir / DB_FILENAME, wait=settings.database_wait_seconds)
        return cls(
            settings=settings,
            engine=engine,
            client=client,
            db=db,
            deduper=Deduper(db),
            ledger=Ledger(db),
            jobs=Jobs(pool=engine.pool),  # shared with the HTTP API: workspaces take turns
            files=SlackFiles(
                client,
                token=str(client.token),
                api_url=settings.slack_api_url,
                max_bytes=settings.max_file_bytes,
            ),
            status_pool=ThreadPoolExecutor(max_workers=4, thread_name_prefix="masis-status"),
            progress_interval=progress_interval,
        )

    def close(self, *, wait: bool = True) -> None:
        """Finish running jobs (drop queued ones), then close the bot's database. The engine is the
        caller's to close."""
        if self.watch is not None:
            self.watch.stop()
        self.status_pool.shutdown(wait=wait, cancel_futures=True)
        self.jobs.shutdown(wait=wait)
        self.db.close()
