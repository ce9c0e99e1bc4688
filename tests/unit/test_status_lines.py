"""What the thread's status line says at each stage (a pure function of the engine's progress)."""

from __future__ import annotations

from bot.progress import MAX_LOADING_MESSAGE, loading_messages


def test_each_stage_says_what_masis_is_doing() -> None:
    assert loading_messages(None, 1, 6) == ["Searching 6 documents…"]
    assert loading_messages("researching", 1, 1) == ["Searching 1 document…"]
    assert loading_messages("writing", 1, 6) == ["Writing a cited draft…"]
    assert loading_messages("auditing", 1, 6)[0] == "Checking citations…"
    assert loading_messages("scoring", 2, 6) == ["Scoring the answer…"]


def test_a_retry_says_which_attempt_and_why() -> None:
    second = loading_messages("researching", 2, 6, "invalid citation; confidence 0.40 below 0.65")
    assert second[0] == "Second attempt: the last draft had invalid citation; confidence 0.40 below 0.65…"
    assert loading_messages("researching", 3, 6)[0] == "Third attempt…"


def test_status_lines_are_short_and_inert() -> None:
    [line, _] = loading_messages("researching", 2, 6, "<!channel> " + "x" * 500)
    assert len(line) <= MAX_LOADING_MESSAGE and "<" not in line and ">" not in line


def test_a_question_waiting_for_a_worker_says_so() -> None:
    assert loading_messages("waiting", 1, 6, "5")[0] == "Waiting for a free worker: 5 requests are in line here…"
    assert loading_messages("waiting", 1, 6, "1")[0] == "Waiting for a free worker: your request is in line here…"
