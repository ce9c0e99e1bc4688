"""`build_app(settings, engine)`: the Bolt app with every listener, in HTTP or Socket Mode alike."""

from __future__ import annotations

import logging
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from slack_bolt import App

from bot.deps import BotDeps
from bot.listeners import register_all
from bot.middleware import dedupe_events, note_rate_limits, skip_stopped_teams
from bot.restart import notify_unfinished_work
from masis.config import Settings

if TYPE_CHECKING:
    from masis.engine import Engine

log = logging.getLogger(__name__)


def build_app(
    settings: Settings,
    engine: Engine,
    *,
    deps: BotDeps | None = None,
    verify_token: bool = True,
) -> App:
    """The Slack app. With `verify_token` (the default) the token is checked with `auth.test` at once,
    so a wrong token fails at start-up rather than on the first mention.

    Pass `deps` to keep a handle on the background jobs (to drain them at shutdown); otherwise they
    are created here.
    """
    deps = deps or BotDeps.create(settings, engine)
    secret = settings.slack_signing_secret.get_secret_value() if settings.slack_signing_secret else ""
    app = App(
        name="masis",
        client=deps.client,
        signing_secret=secret,
        token_verification_enabled=verify_token,
        process_before_response=False,  # ack first, work after (HTTP mode)
        listener_executor=ThreadPoolExecutor(max_workers=16, thread_name_prefix="bolt-listener"),
    )
    app.use(note_rate_limits)
    app.use(dedupe_events(deps.deduper))
    app.use(skip_stopped_teams(deps.jobs))

    @app.error
    def on_error(error: Exception, body: dict[str, Any]) -> None:
        log.error("unhandled error for a %s request: %r", body.get("type", "?"), error, exc_info=error)

    register_all(app, deps)
    deps.jobs.submit(lambda: log.info("told %d threads their work was lost", notify_unfinished_work(deps)),
                     name="restart notices")
    if engine.postgres is not None and deps.watch is None:
        from bot.watch import ReplicaWatch

        deps.watch = ReplicaWatch(deps).start()
    return app
