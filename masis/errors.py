"""Errors that reach a user: each one says what happened and what to do about it."""

from __future__ import annotations


class MasisError(Exception):
    """Base of every error MASIS raises on purpose; its message is safe to show a user."""


class StoreInUseError(MasisError):
    def __init__(self, path: str) -> None:
        super().__init__(
            f"The document store at {path} is in use by another running MASIS process; "
            "stop it, or point QDRANT_URL at a Qdrant server so several processes can share one store."
        )


class InvalidWorkspaceError(MasisError):
    pass


class IngestError(MasisError):
    """One file could not be indexed; the message is the reason, shown next to the file's name
    (so it does not repeat the name)."""


class UnsupportedFileError(IngestError):
    pass


class NothingPendingError(MasisError):
    def __init__(self, thread_id: str) -> None:
        super().__init__(f"Thread {thread_id} has no question waiting for a reply; ask a new question instead.")


class UnknownDocumentError(MasisError):
    pass


class StaleReplyError(MasisError):
    def __init__(self, thread_id: str, answered: int, pending: int) -> None:
        super().__init__(
            f"This reply answers clarification round {answered} of thread {thread_id}, but round {pending} is "
            "pending now (another reply got there first); read the new question and reply to it."
        )


class ThreadOwnershipError(MasisError):
    def __init__(self, thread_id: str) -> None:
        super().__init__(f"Thread {thread_id} belongs to another workspace; use a new thread id.")


class UnknownThreadError(MasisError):
    """No such thread, or no such answer in it."""


class NotAnAnswerError(MasisError):
    """A vote on a run that did not end in an answer (a clarifying question and its unverified draft, a
    cancelled question, or one still being answered): there is nothing to rate yet."""


class UpstreamError(MasisError):
    """A model MASIS depends on could not be reached, or answered with an error or nothing usable: the
    server's side failed, not the caller's request (the HTTP API answers 502, or 503 when `unavailable`)."""

    def __init__(self, message: str, *, unavailable: bool = False, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.unavailable = unavailable  # unreachable or overloaded: worth trying again later
        self.retry_after = retry_after  # seconds, when the model said how long


class DocumentBusyError(MasisError):
    """Another upload or removal is writing the document right now (raised only to callers that asked not to
    wait for it)."""

    def __init__(self, name: str) -> None:
        super().__init__(f"{name} is being uploaded or removed right now; try again when that has finished.")


class DatabaseUnavailableError(MasisError):
    """The database (PostgreSQL, `MASIS_DATABASE_URL`) could not be reached: it is restarting, failing over or
    down. Nothing was lost; the same request works once it is back (the HTTP API answers 503)."""
