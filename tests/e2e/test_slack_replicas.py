"""Two `python -m bot` replicas on one PostgreSQL (`MASIS_DATABASE_URL`) behind one Slack app: whichever
replica Slack delivers to, a thread is answered once and a clarification raised by one is answered by the
other.

Each replica has its own embedded store holding the same documents (a copy of one store directory): no
Qdrant server can be installed here; in production the replicas share one (see docker-compose.yml)."""

from __future__ import annotations

import shutil
import signal
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from bot import blocks as b_
from bot.restart import ASK_AGAIN
from tests.e2e.conftest import MAIN_CHANNEL, BotProcess, bot_settings, seed
from tests.e2e.helpers import is_answer, is_clarification, is_error, wait_post
from tests.e2e.slack_driver import SlackDriver
from tests.e2e.slack_emulator import BOT_USER_ID, SlackEmulator


@pytest.fixture(scope="module")
def emulator() -> Iterator[SlackEmulator]:
    with SlackEmulator() as emu:
        yield emu


@pytest.fixture(scope="module")
def pair(emulator: SlackEmulator, postgres_server: object,
         tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[BotProcess, BotProcess]]:
    url = postgres_server.create_database()  # type: ignore[attr-defined]
    root = tmp_path_factory.mktemp("replicas")
    first = bot_settings(root / "a", emulator, database_url=url)
    seed(first)
    shutil.copytree(first.edge_store_path, root / "b" / first.edge_store_path.name)
    bots = [BotProcess(root / name, emulator, database_url=url, workdir=root / f"run-{name}") for name in "ab"]
    try:
        yield bots[0].start(), bots[1].start()
    finally:
        for bot in bots:
            assert bot.stop() == 0, bot.output()
    assert not (root / "a" / "slack.db").exists() and not (root / "a" / "masis.db").exists()


def _idle(*bots: BotProcess) -> None:
    """Until no replica has background work (each reports its jobs in flight on /healthz)."""
    for bot in bots:
        for _ in range(600):
            if httpx.get(f"{bot.url}/healthz", trust_env=False).json()["jobs_in_flight"] == 0:
                break
            threading.Event().wait(0.05)
        else:
            raise AssertionError(f"{bot.url} is still busy")


def test_a_clarification_raised_on_one_replica_is_answered_on_the_other(
    pair: tuple[BotProcess, BotProcess], emulator: SlackEmulator
) -> None:
    a, b = (SlackDriver(bot.url, emulator) for bot in pair)
    ts, _ = a.mention(MAIN_CHANNEL, "What was Q3 2026 revenue?")
    wait_post(emulator, MAIN_CHANNEL, ts, is_clarification, what="a clarification from replica A")
    b.reply(MAIN_CHANNEL, ts, "according to the Q3 report")
    [answer] = wait_post(emulator, MAIN_CHANNEL, ts, is_answer, what="the answer from replica B")
    assert "12.4" in answer.blocks_text()


def test_one_event_delivered_to_both_replicas_is_answered_once(
    pair: tuple[BotProcess, BotProcess], emulator: SlackEmulator
) -> None:
    a, b = (SlackDriver(bot.url, emulator) for bot in pair)
    event = a.message_event(MAIN_CHANNEL, f"<@{BOT_USER_ID}> What is the remote work policy?", kind="app_mention")
    barrier = threading.Barrier(2)
    statuses: list[int] = []

    def deliver(driver: SlackDriver) -> None:
        barrier.wait()
        statuses.append(driver.event(event, event_id="EvReplicas001").status)

    workers = [threading.Thread(target=deliver, args=(d,)) for d in (a, b)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert statuses == [200, 200]
    wait_post(emulator, MAIN_CHANNEL, event["ts"], is_answer, what="the answer")
    _idle(*pair)
    assert len([c for c in emulator.posts(MAIN_CHANNEL, event["ts"]) if is_answer(c)]) == 1


def test_ten_simultaneous_replies_over_both_replicas_resume_the_thread_once(
    pair: tuple[BotProcess, BotProcess], emulator: SlackEmulator
) -> None:
    drivers = [SlackDriver(bot.url, emulator) for bot in pair]
    ts, _ = drivers[0].mention(MAIN_CHANNEL, "What was Q3 2026 revenue?")
    wait_post(emulator, MAIN_CHANNEL, ts, is_clarification, what="a clarification")
    _idle(*pair)  # the clarification is recorded before the replies come
    barrier = threading.Barrier(10)

    def send(i: int) -> None:
        barrier.wait()
        drivers[i % 2].reply(MAIN_CHANNEL, ts, "according to the Q3 report")

    workers = [threading.Thread(target=send, args=(i,)) for i in range(10)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    wait_post(emulator, MAIN_CHANNEL, ts, is_answer, what="the resumed answer")
    _idle(*pair)
    posts = emulator.posts(MAIN_CHANNEL, ts)
    assert len([c for c in posts if is_answer(c)]) == 1
    assert not [c for c in posts if is_error(c)], [c.blocks_text() for c in posts if is_error(c)]


def _sweeps(bot: BotProcess) -> int:
    return int(httpx.get(f"{bot.url}/healthz", trust_env=False).json()["replica_sweeps"])


def test_a_replica_killed_mid_answer_has_its_lost_work_told_once_by_the_live_one_without_a_restart(
    emulator: SlackEmulator, postgres_server: object, tmp_path: Path
) -> None:
    url = postgres_server.create_database()  # type: ignore[attr-defined]
    first = bot_settings(tmp_path / "a", emulator, database_url=url)
    seed(first)
    shutil.copytree(first.edge_store_path, tmp_path / "b" / first.edge_store_path.name)
    beats = {"MASIS_REPLICA_HEARTBEAT_SECONDS": "1"}  # dead after 3 s of silence, sweeps every 2 s

    def replica(name: str) -> BotProcess:
        return BotProcess(tmp_path / name, emulator, database_url=url, workdir=tmp_path / f"run-{name}",
                          env=beats).start()

    a, b = replica("a"), replica("b")
    restarted: list[BotProcess] = []
    try:
        asked_ts = emulator.next_ts()
        release = emulator.stall("chat.postMessage", lambda p: p.get("thread_ts") == asked_ts
                                 and b_.ACTION_FEEDBACK in str(p.get("blocks")))
        SlackDriver(a.url, emulator).mention(MAIN_CHANNEL, "What is our AI investment strategy?", ts=asked_ts)
        emulator.wait_for(lambda _: emulator.stalled, what="replica A's answer on its way to Slack")
        swept = _sweeps(b)
        emulator.wait_for(lambda _: _sweeps(b) >= swept + 2, what="replica B judging A twice while A lives")
        assert not [c for c in emulator.posts(MAIN_CHANNEL, asked_ts) if ASK_AGAIN in c.blocks_text()], \
            "replica B took live replica A's work for lost"

        a.process.send_signal(signal.SIGKILL)
        a.process.wait(timeout=10)
        release.set()
        # B, live, tells the thread (no replica restarts): within a minute
        wait_post(emulator, MAIN_CHANNEL, asked_ts, lambda c: ASK_AGAIN in c.blocks_text(), what="the notice",
                  timeout=60)
        def status_line(_: object) -> bool:  # A's status line does not stay: the last one set is empty
            statuses = [c.params.get("status") for c in emulator.calls_to("assistant.threads.setStatus")
                        if c.params.get("thread_ts") == asked_ts]
            return bool(statuses) and statuses[-1] == ""

        emulator.wait_for(status_line, what="the status line of A's lost work cleared")
        other_ts, _ = SlackDriver(b.url, emulator).mention(MAIN_CHANNEL, "What is the remote work policy?")
        wait_post(emulator, MAIN_CHANNEL, other_ts, is_answer, what="replica B still answering")

        restarted.append(replica("a"))  # A coming back finds nothing left to tell
        swept = _sweeps(restarted[0])
        emulator.wait_for(lambda _: _sweeps(restarted[0]) >= swept + 1, what="the new A sweeping")
        _idle(b, *restarted)
        assert len([c for c in emulator.posts(MAIN_CHANNEL, asked_ts) if ASK_AGAIN in c.blocks_text()]) == 1
        assert not [c for c in emulator.posts(MAIN_CHANNEL, asked_ts) if is_answer(c)]
    finally:
        for bot in (a, b, *restarted):
            bot.stop()
