"""Turning failures into one short sentence a Slack user can act on; never a traceback or a token."""

from __future__ import annotations

from pydantic import ValidationError
from slack_sdk.errors import SlackApiError

from masis.errors import DatabaseUnavailableError, MasisError
from masis.fairness import QueueFull
from masis.redact import redact

_MAX_CHARS = 500

GENERIC = "Something went wrong on my side. Please try again in a minute; if it keeps happening, tell your admin."
DATABASE_DOWN = ("I can't reach my database right now (it may be restarting), so I couldn't finish this. "
                 "Please try again in a minute.")


def user_message(exc: BaseException, *, doing: str = "answering") -> str:
    """What to tell the user about `exc`. MASIS errors say what to do; anything else stays generic."""
    if isinstance(exc, DatabaseUnavailableError):  # its reason (host, port) is for the operator's log
        text = DATABASE_DOWN
    elif isinstance(exc, MasisError):
        text = str(exc) or GENERIC
    elif isinstance(exc, ValidationError):
        text = "I couldn't read that request: a question must be between 1 and 4000 characters."
    elif isinstance(exc, SlackApiError):
        text = f"Slack refused a request while I was {doing} ({exc.response.get('error', 'unknown error')})."
    elif isinstance(exc, TimeoutError):
        text = f"I ran out of time while {doing}. Please try again."
    else:
        text = f"Something went wrong on my side while {doing}. Please try again in a minute."
    text = redact(" ".join(text.split()))
    return text if len(text) <= _MAX_CHARS else text[: _MAX_CHARS - 1] + "…"


def busy_message(exc: QueueFull, *, what: str = "this one") -> str:
    """What a user is told when their channel (or they) already have as much work waiting as they may."""
    if exc.scope == "user":
        return (f":hourglass: You already have {exc.limit} requests waiting for me here (the most one person may "
                f"have), so I did not take {what}. Send it again once those are answered.")
    return (f":hourglass: This channel already has {exc.limit} requests waiting for me (the most one channel may "
            f"have), so I did not take {what}. Please send it again in a few minutes.")
