"""The bot as Slack drives it over HTTP: signed events, commands and interactivity in, Web API calls out.

Each test uses its own channel or thread, so the module shares one bot (and one data directory with the
sample corpus in MAIN_CHANNEL). Background work is awaited by polling the emulator, never by sleeping.
"""

from __future__ import annotations

import json
import logging
import re
import threading
import time
from typing import Any

import pytest

from bot import blocks as b
from tests.e2e.conftest import MAIN_CHANNEL, BotServer
from tests.e2e.helpers import as_message, is_answer, is_clarification, is_error, thread_posts, wait_post
from tests.e2e.slack_driver import USER, SlackDriver, buttons
from tests.e2e.slack_emulator import BOT_TOKEN, TEAM_ID, Call, SlackEmulator

CITATION_ID = re.compile(r"\[([A-Za-z0-9._-]+#\d+)\]")
CONFLICT_QUESTION = "What was Q3 2026 revenue?"


@pytest.fixture(scope="module")
def bot_overrides() -> dict[str, Any]:
    """The module's bot runs the design's loop with two retries (a model's default; the offline engine's is none),
    so a retry and its progress line are seen in Slack."""
    return {"max_retries": 2}


def ask_until_clarified(slack: SlackDriver, emu: SlackEmulator, question: str = CONFLICT_QUESTION):
    ts, sent = slack.mention(MAIN_CHANNEL, question)
    assert sent.status == 200
    [clarification] = wait_post(emu, MAIN_CHANNEL, ts, is_clarification, what="a clarification")
    return ts, clarification


# --- mentions ----------------------------------------------------------------------------------------------


def statuses(emu: SlackEmulator, ts: str) -> list[Call]:
    return emu.calls_to("assistant.threads.setStatus", thread_ts=ts)


def refuse_status(emu: SlackEmulator, ts: str) -> None:
    """This thread's status call is refused (an older workspace, a missing scope): the fallback is used."""
    emu.fail("assistant.threads.setStatus", status=200, error="not_allowed", when=lambda p: p.get("thread_ts") == ts)


def test_mention_gets_a_status_then_a_cited_answer_in_its_thread(slack: SlackDriver, emulator: SlackEmulator) -> None:
    started = time.monotonic()  # the emulator's clock: calls are stamped with time.monotonic() too
    ts, sent = slack.mention(MAIN_CHANNEL, "What is our AI investment strategy?")
    assert sent.status == 200
    assert sent.elapsed_ms < 3000  # Slack's own limit; a tighter bound here would be timing luck on a busy machine

    [answer] = wait_post(emulator, MAIN_CHANNEL, ts, is_answer, what="an answer")
    assert thread_posts(emulator, MAIN_CHANNEL, ts) == [answer]  # no progress message: the status line instead
    shown = emulator.wait_for(lambda _: [c for c in statuses(emulator, ts) if not c.params["status"]],
                              what="the status to be cleared")
    calls = statuses(emulator, ts)
    assert calls[0].at - started < 1.0, "the status shows within a second of the mention"
    assert calls[0].params["channel_id"] == MAIN_CHANNEL and calls[0].params["status"]
    rotating = [m for c in calls for m in c.params.get("loading_messages") or []]
    assert rotating[0] == "Searching 6 documents…"  # the sample corpus
    assert "Writing a cited draft…" in rotating and "Checking citations…" in rotating
    assert shown[-1] is calls[-1] and calls[-1].at >= answer.at  # cleared once the answer is posted

    text = answer.blocks_text()
    assert "[1]" in text and "Sources" in text and "strategy_memo.pdf" in text
    assert answer.blocks()[0]["type"] == "markdown"  # the answer in standard Markdown
    assert not CITATION_ID.search(answer.blocks()[0]["text"]), "raw chunk ids must become [n]"
    assert "Confidence" in text and "Faithfulness" in text and "Reasoning" in text
    assert {b.ACTION_FEEDBACK, b.ACTION_WHY} <= set(buttons(answer.blocks()))
    assert answer.blocks()[-1]["type"] == "context_actions"  # native feedback buttons end the answer
    assert answer.params.get("unfurl_links") is False
    assert len(answer.blocks()) <= b.MAX_MESSAGE_BLOCKS

    # 👍 is stored, and the clicker is thanked privately
    assert slack.vote(as_message(answer), MAIN_CHANNEL, up=True).status == 200
    emulator.wait_for(lambda _: emulator.calls_to("chat.postEphemeral", user=USER, thread_ts=ts),
                      what="a thank-you")
    # "Why this answer?" opens the audit trail
    assert slack.click(as_message(answer), MAIN_CHANNEL, b.ACTION_WHY).status == 200
    [why] = emulator.wait_for(
        lambda _: [c for c in emulator.calls_to("views.open") if "Why this answer?" in c.blocks_text()],
        what="the audit trail modal",
    )
    assert "Steps" in why.blocks_text() and "retried" in why.blocks_text()


def test_with_the_status_refused_progress_is_an_edited_message(slack: SlackDriver,
                                                                emulator: SlackEmulator) -> None:
    ts = emulator.next_ts()
    refuse_status(emulator, ts)
    slack.mention(MAIN_CHANNEL, "What is our AI investment strategy?", ts=ts)
    [answer] = wait_post(emulator, MAIN_CHANNEL, ts, is_answer, what="an answer")
    progress = thread_posts(emulator, MAIN_CHANNEL, ts)[0]
    assert progress is not answer and "Working on it" in progress.blocks_text()  # acknowledged at once
    emulator.wait_for(lambda _: emulator.calls_to("chat.delete", ts=progress.response["ts"]),
                      what="the progress message to be removed")
    stages = [c.params["text"] for c in emulator.calls_to("chat.update", ts=progress.response["ts"])]
    assert [s.split("…")[0].split(" ", 1)[1] for s in stages] == [
        "Searching this channel's documents", "Writing a cited draft", "Auditing every citation",
        "Scoring the answer"]
    assert len(emulator.refused("assistant.threads.setStatus")) >= 1 and not statuses(emulator, ts)


def test_feedback_is_stored_per_answer(bot: BotServer, slack: SlackDriver,
                                                 emulator: SlackEmulator) -> None:
    ts, _ = slack.mention(MAIN_CHANNEL, "When does Route Optimiser 2.0 launch?")
    [first] = wait_post(emulator, MAIN_CHANNEL, ts, is_answer, what="an answer")
    slack.mention(MAIN_CHANNEL, "What is our AI investment strategy?", thread_ts=ts)  # a second answer there
    [_, second] = wait_post(emulator, MAIN_CHANNEL, ts, is_answer, count=2, what="a second answer")
    thread = f"{TEAM_ID}:{MAIN_CHANNEL}:{ts}"

    slack.vote(as_message(first), MAIN_CHANNEL, up=False, user="UFEEDBACK")
    emulator.wait_for(lambda _: emulator.calls_to("chat.postEphemeral", user="UFEEDBACK"), what="a thank-you")
    slack.vote(as_message(second), MAIN_CHANNEL, up=True, user="UFEEDBACK")
    emulator.wait_for(lambda _: len(emulator.calls_to("chat.postEphemeral", user="UFEEDBACK")) == 2,
                      what="a second thank-you")
    # one vote per answer: the vote on the second answer did not overwrite the one on the first
    assert bot.engine.registry.feedback(thread, 1) == {"UFEEDBACK": "down"}
    assert bot.engine.registry.feedback(thread, 2) == {"UFEEDBACK": "up"}
    [thanks, _] = emulator.calls_to("chat.postEphemeral", user="UFEEDBACK")
    assert ":thumbsdown: on this answer" in thanks.params["text"]
    # the native buttons keep the chosen state: the bot never edits a voted answer (that would reset it)
    assert not emulator.calls_to("chat.update", ts=first.response["ts"])
    assert not emulator.calls_to("chat.update", ts=second.response["ts"])
    # a 👍 / 👎 button of an answer posted before native feedback still counts, on the latest answer
    old = {**as_message(second), "blocks": [{"type": "actions", "block_id": "answer_actions", "elements": [
        b.button(":thumbsdown:", b.ACTION_FEEDBACK_DOWN, thread)]}]}
    slack.click(old, MAIN_CHANNEL, b.ACTION_FEEDBACK_DOWN, user="UOLDBUTTON")
    emulator.wait_for(lambda _: emulator.calls_to("chat.postEphemeral", user="UOLDBUTTON"), what="a thank-you")
    assert bot.engine.registry.feedback(thread, 2)["UOLDBUTTON"] == "down"


def test_a_mention_in_a_dm_works_the_same(slack: SlackDriver, emulator: SlackEmulator) -> None:
    dm = "DDIRECT01"
    ts, _ = slack.say(dm, "What is our AI investment strategy?")  # no mention in a DM
    [answer] = wait_post(emulator, dm, ts, lambda c: is_answer(c) or is_clarification(c), what="a DM reply")
    # a DM is its own workspace: the channel's corpus is not there
    assert is_clarification(answer) and "upload" in answer.blocks_text().lower()


def test_empty_mention_gets_help(slack: SlackDriver, emulator: SlackEmulator) -> None:
    ts, _ = slack.mention(MAIN_CHANNEL, "")
    [help_post] = wait_post(emulator, MAIN_CHANNEL, ts, lambda c: "/masis-upload" in c.blocks_text(),
                            what="help")
    assert not is_answer(help_post)


def test_a_failure_becomes_a_short_friendly_message(slack: SlackDriver, emulator: SlackEmulator) -> None:
    ts, _ = slack.mention(MAIN_CHANNEL, "why " * 1200)  # longer than the engine accepts
    [error] = wait_post(emulator, MAIN_CHANNEL, ts, is_error, what="an error message")
    text = error.blocks_text()
    assert "Traceback" not in text and BOT_TOKEN not in text and len(error.params["text"]) < 600


# --- clarification -------------------------------------------------------------------------------------------


def test_clarification_then_plain_reply_answers(slack: SlackDriver, emulator: SlackEmulator) -> None:
    ts, clarification = ask_until_clarified(slack, emulator)
    shown = " ".join(m for c in statuses(emulator, ts) for m in c.params.get("loading_messages") or [])
    # the retry and its reason are visible while it runs; a third attempt would repeat the second: not made
    assert "Second attempt: the last draft had conflicting evidence" in shown and "Third attempt" not in shown
    text = clarification.blocks_text()
    assert "unverified" in text and "Reply in this thread" in text
    actions = buttons(clarification.blocks())
    assert b.ACTION_ACCEPT in actions and b.ACTION_CANCEL in actions
    sources = {json.loads(e["value"])["choice"] for a, e in actions.items() if b.ACTION_SOURCE.match(a)}
    assert sources == {"source:q3_report.md", "source:product_roadmap.txt"}

    slack.reply(MAIN_CHANNEL, ts, "according to the Q3 report")  # no mention needed
    [answer] = wait_post(emulator, MAIN_CHANNEL, ts, is_answer, what="the answer after the reply")
    assert "[1]" in answer.blocks_text()
    # the clarification lost its buttons and says who answered it
    [update] = emulator.wait_for(
        lambda _: emulator.calls_to("chat.update", ts=clarification.response["ts"]), what="the resolved question"
    )
    assert "replied in the thread" in update.blocks_text() and not buttons(update.blocks())


def test_use_this_draft_button(slack: SlackDriver, emulator: SlackEmulator) -> None:
    ts, clarification = ask_until_clarified(slack, emulator)
    assert slack.click(as_message(clarification), MAIN_CHANNEL, b.ACTION_ACCEPT).status == 200
    [answer] = wait_post(emulator, MAIN_CHANNEL, ts, is_answer, what="the accepted draft")
    assert ":warning:" in answer.blocks_text()  # an unverified draft stays flagged for review
    # a second click on the old buttons resumes nothing
    slack.click(as_message(clarification), MAIN_CHANNEL, b.ACTION_ACCEPT)
    emulator.wait_for(lambda _: emulator.calls_to("chat.postEphemeral", thread_ts=ts), what="a 'moved on' note")
    assert len([c for c in thread_posts(emulator, MAIN_CHANNEL, ts) if is_answer(c)]) == 1


def test_conflict_source_button(slack: SlackDriver, emulator: SlackEmulator) -> None:
    ts, clarification = ask_until_clarified(slack, emulator)
    source = next(a for a, e in buttons(clarification.blocks()).items()
                  if json.loads(e.get("value") or "{}").get("choice") == "source:q3_report.md")
    slack.click(as_message(clarification), MAIN_CHANNEL, source)
    [answer] = wait_post(emulator, MAIN_CHANNEL, ts, is_answer, what="the answer from the chosen source")
    text = answer.blocks_text()
    assert "q3_report.md" in text and "12.4" in text
    assert "product_roadmap.txt" not in text


def test_cancel_button(slack: SlackDriver, emulator: SlackEmulator) -> None:
    ts, clarification = ask_until_clarified(slack, emulator)
    slack.click(as_message(clarification), MAIN_CHANNEL, b.ACTION_CANCEL)
    wait_post(emulator, MAIN_CHANNEL, ts, lambda c: "dropped that question" in c.blocks_text(), what="a cancel")


def test_two_racing_replies_resume_once(slack: SlackDriver, emulator: SlackEmulator) -> None:
    ts, _ = ask_until_clarified(slack, emulator)
    threads = [threading.Thread(target=slack.reply, args=(MAIN_CHANNEL, ts, "according to the Q3 report"))
               for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wait_post(emulator, MAIN_CHANNEL, ts, is_answer, what="the answer")
    # a mention afterwards in the same thread is serialized behind both replies: once it is answered,
    # both replies have been handled
    slack.mention(MAIN_CHANNEL, "What is our AI investment strategy?", thread_ts=ts)
    wait_post(emulator, MAIN_CHANNEL, ts, is_answer, count=2, what="the follow-up answer")
    posts = thread_posts(emulator, MAIN_CHANNEL, ts)
    assert len([c for c in posts if is_answer(c)]) == 2
    assert not [c for c in posts if is_error(c)]


def test_thread_chatter_and_bots_are_ignored(slack: SlackDriver, emulator: SlackEmulator) -> None:
    ts, _ = slack.mention(MAIN_CHANNEL, "What is our AI investment strategy?")
    wait_post(emulator, MAIN_CHANNEL, ts, is_answer, what="the answer")
    slack.reply(MAIN_CHANNEL, ts, "thanks, nice")  # nothing pending, no mention: ignored
    bot_message = slack.message_event(MAIN_CHANNEL, "<@UBOT0001> hello from another bot", thread_ts=ts)
    bot_message.update({"bot_id": "BOTHER01", "subtype": "bot_message"})
    slack.event(bot_message)
    slack.say(MAIN_CHANNEL, "lunch?")  # channel chatter
    slack.mention(MAIN_CHANNEL, "When does Route Optimiser 2.0 launch?", thread_ts=ts)  # a new question there
    wait_post(emulator, MAIN_CHANNEL, ts, is_answer, count=2, what="the second answer")
    posts = thread_posts(emulator, MAIN_CHANNEL, ts)
    assert len([c for c in posts if is_answer(c)]) == 2
    assert len(posts) == 2  # two answers (progress is the status line), nothing for the chatter


def _refuse_in_thread(emu: SlackEmulator, ts: str, action_id: str) -> None:
    """Slack refuses the bot's post carrying `action_id` in the thread `ts` (as it refuses an over-long one)."""
    emu.fail("chat.postMessage", status=200, error="msg_blocks_too_long",
             when=lambda p: p.get("thread_ts") == ts and action_id in json.dumps(p.get("blocks") or []))


def test_a_refused_answer_leaves_no_progress_note_and_posts_a_short_version(
        slack: SlackDriver, emulator: SlackEmulator) -> None:
    ts = emulator.next_ts()
    refuse_status(emulator, ts)  # progress as a posted note, the one that must not be orphaned
    _refuse_in_thread(emulator, ts, b.ACTION_FEEDBACK)
    slack.mention(MAIN_CHANNEL, "What is our AI investment strategy?", ts=ts)
    [short] = wait_post(emulator, MAIN_CHANNEL, ts, lambda c: "short version" in c.blocks_text(),
                        what="the short version of the answer")
    assert [c.params.get("thread_ts") for c in emulator.refused("chat.postMessage")].count(ts) == 1
    assert "strategy_memo.pdf" in short.params["text"] and not buttons(short.blocks())
    progress = thread_posts(emulator, MAIN_CHANNEL, ts)[0]
    assert "Working on it" in progress.blocks_text()
    emulator.wait_for(lambda _: emulator.calls_to("chat.delete", ts=progress.response["ts"]),
                      what="the progress note to be removed")
    assert not [c for c in thread_posts(emulator, MAIN_CHANNEL, ts) if is_error(c)]


def test_a_refused_clarification_is_still_recorded_and_a_reply_resumes_it(
        bot: BotServer, slack: SlackDriver, emulator: SlackEmulator) -> None:
    ts = emulator.next_ts()
    refuse_status(emulator, ts)
    _refuse_in_thread(emulator, ts, b.ACTION_CANCEL)
    slack.mention(MAIN_CHANNEL, CONFLICT_QUESTION, ts=ts)
    [short] = wait_post(emulator, MAIN_CHANNEL, ts, lambda c: "I need your help" in c.blocks_text(),
                        what="the short version of the question")
    assert not buttons(short.blocks())
    progress = thread_posts(emulator, MAIN_CHANNEL, ts)[0]
    emulator.wait_for(lambda _: emulator.calls_to("chat.delete", ts=progress.response["ts"]),
                      what="the progress note to be removed")
    post = emulator.wait_for(lambda _: bot.deps.ledger.clarification(f"{TEAM_ID}:{MAIN_CHANNEL}:{ts}"),
                             what="the question to be recorded")
    assert post.message_ts == short.response["ts"]
    slack.reply(MAIN_CHANNEL, ts, "according to the Q3 report")
    [answer] = wait_post(emulator, MAIN_CHANNEL, ts, is_answer, what="the answer after the reply")
    assert "12.4" in answer.blocks_text()


# --- delivery ------------------------------------------------------------------------------------------------


def test_a_retried_delivery_is_answered_once(slack: SlackDriver, emulator: SlackEmulator) -> None:
    event = slack.message_event(MAIN_CHANNEL, "<@UBOT0001> What is our AI investment strategy?",
                                kind="app_mention")
    assert slack.event(event, event_id="EvRETRY0001").status == 200
    assert slack.event(event, event_id="EvRETRY0001", retry_num=1).status == 200
    assert slack.event(event, event_id="EvRETRY0001", retry_num=2).status == 200
    ts = event["ts"]
    wait_post(emulator, MAIN_CHANNEL, ts, is_answer, what="the answer")
    slack.mention(MAIN_CHANNEL, "When does Route Optimiser 2.0 launch?", thread_ts=ts)  # serialized after them
    wait_post(emulator, MAIN_CHANNEL, ts, is_answer, count=2, what="the sentinel answer")
    assert len([c for c in thread_posts(emulator, MAIN_CHANNEL, ts) if is_answer(c)]) == 2


def test_app_mention_and_message_are_answered_once(slack: SlackDriver, emulator: SlackEmulator) -> None:
    text = "<@UBOT0001> What is our AI investment strategy?"
    mention = slack.message_event(MAIN_CHANNEL, text, kind="app_mention")
    message = {**mention, "type": "message", "channel_type": "channel"}
    sent = [slack.event(message), slack.event(mention)]  # different event ids, one message
    assert [s.status for s in sent] == [200, 200]
    ts = mention["ts"]
    wait_post(emulator, MAIN_CHANNEL, ts, is_answer, what="the answer")
    slack.mention(MAIN_CHANNEL, "When does Route Optimiser 2.0 launch?", thread_ts=ts)
    wait_post(emulator, MAIN_CHANNEL, ts, is_answer, count=2, what="the sentinel answer")
    assert len([c for c in thread_posts(emulator, MAIN_CHANNEL, ts) if is_answer(c)]) == 2


def test_bad_signatures_are_refused(slack: SlackDriver, emulator: SlackEmulator) -> None:
    channel = "CSIGNED01"
    event = slack.message_event(channel, "<@UBOT0001> What is our AI investment strategy?", kind="app_mention")
    assert slack.event(event, secret="not-the-secret").status == 401
    body = json.dumps({"type": "event_callback", "event": event, "event_id": "EvSTALE", "team_id": TEAM_ID})
    from tests.e2e.slack_driver import sign

    stale = sign(body, timestamp=int(time.time()) - 600)  # a replay: signed 10 minutes ago
    resp = slack.http.post(f"{slack.bot_url}/slack/events", content=body,
                           headers={"Content-Type": "application/json", **stale})
    assert resp.status_code == 401
    unsigned = slack.http.post(f"{slack.bot_url}/slack/events", content=body,
                               headers={"Content-Type": "application/json"})
    assert unsigned.status_code == 401
    assert not emulator.posts(channel=channel)


def test_a_429_is_retried_after_retry_after(slack: SlackDriver, emulator: SlackEmulator) -> None:
    channel = "CLIMITED1"
    emulator.fail("chat.postMessage", status=429, retry_after=1)
    ts, _ = slack.mention(channel, "What is our AI investment strategy?")
    wait_post(emulator, channel, ts, lambda c: True, what="the post after the 429")
    attempts = [c for c in emulator.calls if c.method == "chat.postMessage" and c.params.get("channel") == channel]
    assert [c.status for c in attempts[:2]] == [429, 200]
    assert attempts[1].at - attempts[0].at >= 1.0  # Retry-After: 1 was honoured


def test_every_web_api_call_carries_the_bot_token_to_the_api_host(emulator: SlackEmulator) -> None:
    api_calls = [c for c in emulator.calls if not c.method.startswith(("GET ", "POST "))]
    assert api_calls
    assert {c.authorization for c in api_calls} == {f"Bearer {BOT_TOKEN}"}
    assert {c.host for c in api_calls} == {f"127.0.0.1:{emulator.port}"}


# --- request size ----------------------------------------------------------------------------------------------


def _raw_post(bot: BotServer, headers: str, chunks: list[bytes]) -> bytes:
    """Send a request's head and part of its body over a raw socket, never finishing the body; returns
    what the server answers meanwhile (a server that waits for the whole body answers nothing)."""
    import socket

    with socket.create_connection(("127.0.0.1", bot.port), timeout=10) as sock:
        sock.sendall(f"POST /slack/events HTTP/1.1\r\nHost: 127.0.0.1\r\n{headers}\r\n".encode())
        for chunk in chunks:
            try:
                sock.sendall(chunk)
            except OSError:  # the server answered and closed: it stopped reading, as it should
                break
        answer = b""
        try:
            while b"\r\n\r\n" not in answer or len(answer.partition(b"\r\n\r\n")[2]) < _content_length(answer):
                data = sock.recv(4096)
                if not data:
                    break
                answer += data
        except TimeoutError:
            pass
        return answer


def _content_length(answer: bytes) -> int:
    head = answer.partition(b"\r\n\r\n")[0].lower()
    for line in head.split(b"\r\n"):
        if line.startswith(b"content-length:"):
            return int(line.split(b":", 1)[1])
    return 0


def test_an_oversized_declared_body_is_refused_before_it_is_read(bot: BotServer) -> None:
    # 1.5 GB announced, a few bytes sent: the 413 comes from the header alone, unsigned
    head = "Content-Type: application/json\r\nContent-Length: 1500000000\r\n"
    answer = _raw_post(bot, head, [b'{"type": "event_callback", '])
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert b"larger than" in answer


def test_an_oversized_streamed_body_is_cut_while_streaming(bot: BotServer) -> None:
    from bot.server import MAX_BODY_BYTES

    # chunked (no Content-Length): one byte past the limit is sent, the terminating chunk never is
    piece = b"x" * 65536
    chunks = [b"%x\r\n%s\r\n" % (len(piece), piece)] * (MAX_BODY_BYTES // len(piece)) + [b"1\r\nx\r\n"]
    answer = _raw_post(bot, "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n", chunks)
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]


UNSIGNED_GARBAGE = [
    ("application/x-www-form-urlencoded", b"\x00\xff\xfe garbage %%% payload=%7B", {}),
    ("application/x-www-form-urlencoded", b"payload=%7Bnot-json", {}),
    ("application/json", b"\x00\x01 not json", {}),
    ("application/json", b'{"type": "event_callback", "event": {}}',
     {"X-Slack-Request-Timestamp": "nan", "X-Slack-Signature": "v0=00"}),
    ("application/json", b'{"type": "url_verification", "challenge": "x"}',
     {"X-Slack-Request-Timestamp": "1e400", "X-Slack-Signature": "v0=00"}),
    ("application/x-www-form-urlencoded", b"command=/masis&text=hi",
     {"X-Slack-Request-Timestamp": "+1_700_000_000", "X-Slack-Signature": "v0=00"}),  # int() reads it
    ("text/plain", b"hello", {"X-Slack-Request-Timestamp": "9" * 400, "X-Slack-Signature": "v0=00"}),
]


def test_unsigned_garbage_gets_a_quiet_401(slack: SlackDriver, caplog: pytest.LogCaptureFixture) -> None:
    """Refused before anything parses the body: no 500, no traceback in the log, JSON like every refusal."""
    with caplog.at_level(logging.DEBUG):
        for content_type, body, headers in UNSIGNED_GARBAGE:
            resp = slack.http.post(f"{slack.bot_url}/slack/events", content=body,
                                   headers={"Content-Type": content_type, **headers})
            assert resp.status_code == 401, (body, headers, resp.text)
            assert resp.headers["content-type"].startswith("application/json")
            assert "signature" in resp.json()["error"]
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.WARNING], caplog.text
