"""After a crash: every piece of work the last process left unfinished gets a message in its thread, never
silence, and its status line goes. Runs once at start-up, in the background; on a shared PostgreSQL the live
replicas also run it every few seconds for a replica that died (`bot.watch`).

A question whose answer was lost is asked again by its user (the graph run stopped at an unknown node);
a reply whose resume never began finds its clarification still pending and can simply be sent again.
"""

from __future__ import annotations

import logging

from slack_sdk.errors import SlackApiError

from bot import blocks
from bot.deps import BotDeps
from bot.ledger import WorkInFlight
from bot.progress import POST_OPTIONS

log = logging.getLogger(__name__)

ASK_AGAIN = "I was restarted while answering this, so the answer was lost. Please ask again."
REPLY_AGAIN = "I was restarted before I could use your reply. The question above is still open; please reply again."
UPLOAD_AGAIN = ("I was restarted while indexing documents. Check `/masis-upload list`: "
                "any document not listed there needs to be uploaded again.")


def notify_unfinished_work(deps: BotDeps) -> int:
    """Post one message per unfinished piece of work; returns how many were told."""
    told = 0
    for work in deps.ledger.unfinished_work():
        if not deps.ledger.end_work(work.key):  # another replica claimed it first
            continue
        try:
            _tell(deps, work)
            told += 1
        except SlackApiError:
            log.warning("could not tell %s that its work was lost", work.key, exc_info=True)
    return told


def _tell(deps: BotDeps, work: WorkInFlight) -> None:
    if work.kind == "upload":
        text = UPLOAD_AGAIN
    elif work.kind == "reply" and deps.engine.pending(work.key) is not None:
        text = REPLY_AGAIN
    else:
        text = ASK_AGAIN
    deps.client.chat_postMessage(channel=work.channel_id, thread_ts=work.thread_ts,
                                 **blocks.error_message(text), **POST_OPTIONS)
    if work.status_ts:  # the "working on it" note that will never finish
        try:
            deps.client.chat_delete(channel=work.channel_id, ts=work.status_ts)
        except SlackApiError:
            log.info("the old progress message %s was already gone", work.status_ts)
    elif work.thread_ts and work.kind != "upload":  # the thread's status line ("is working on your question…")
        try:
            deps.client.assistant_threads_setStatus(channel_id=work.channel_id, thread_ts=work.thread_ts, status="")
        except SlackApiError:
            log.info("could not clear the status line of %s", work.key)
