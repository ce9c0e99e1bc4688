"""Two `python -m bot` replicas on a real PostgreSQL that is restarted (`pg_ctl restart`) or stopped under them:
no question is lost, none is told it was lost, and nobody restarts a replica. A mention during an outage gets
a message that says so; the same question works once the database is back.

The module has a PostgreSQL of its own (it restarts it). Each replica has its own embedded store holding the
same documents, as in test_slack_replicas.py."""

from __future__ import annotations

import shutil
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

from bot.restart import ASK_AGAIN
from masis.pause import ENV as PAUSE_ENV
from tests.conftest import own_postgres
from tests.e2e.conftest import MAIN_CHANNEL, BotProcess, bot_settings, seed
from tests.e2e.helpers import is_answer, is_clarification, is_error, wait_post
from tests.e2e.slack_driver import SlackDriver
from tests.e2e.slack_emulator import SlackEmulator
from tests.postgres import PostgresServer

BOUND = 60.0  # seconds a polled condition may take (each poll returns as soon as it holds)
HEARTBEAT = "2"  # seconds: a replica silent for three beats is dead; sweeps every two beats


@pytest.fixture(scope="module")
def server() -> Iterator[PostgresServer]:
    """A PostgreSQL of this module's own, restarted and stopped by its tests."""
    with own_postgres() as pg:
        yield pg


@pytest.fixture(scope="module")
def emulator() -> Iterator[SlackEmulator]:
    with SlackEmulator() as emu:
        yield emu


@pytest.fixture
def pair(emulator: SlackEmulator, server: PostgresServer,
         tmp_path: Path) -> Iterator[tuple[BotProcess, BotProcess, Path]]:
    """Replicas A and B; A pauses at the writing stage of its first question until `<paused>.resume` exists."""
    url = server.create_database()
    first = bot_settings(tmp_path / "a", emulator, database_url=url)
    seed(first)
    shutil.copytree(first.edge_store_path, tmp_path / "b" / first.edge_store_path.name)
    paused = tmp_path / "a-paused"
    env = {"MASIS_REPLICA_HEARTBEAT_SECONDS": HEARTBEAT, "MASIS_DATABASE_WAIT_SECONDS": "5"}
    a = BotProcess(tmp_path / "a", emulator, database_url=url, workdir=tmp_path / "run-a",
                   env={**env, PAUSE_ENV: f"ask:writing={paused}"})
    b = BotProcess(tmp_path / "b", emulator, database_url=url, workdir=tmp_path / "run-b", env=env)
    try:
        yield a.start(), b.start(), paused
    finally:
        server.ensure_running()
        for bot in (a, b):
            assert bot.stop() == 0, bot.output()


def eventually(condition: Callable[[], object], what: str, bound: float = BOUND) -> object:
    deadline = time.monotonic() + bound
    while not (value := condition()):
        assert time.monotonic() < deadline, f"{what}: not within {bound} s"
        threading.Event().wait(0.05)
    return value


def health(bot: BotProcess) -> dict[str, object]:
    return dict(httpx.get(f"{bot.url}/healthz", trust_env=False, timeout=5).json())


def sweeps_after(bots: tuple[BotProcess, ...], count: int) -> None:
    """Until each replica has judged the others `count` more times (its lost-work sweep, on /healthz)."""
    start = {bot.url: int(health(bot)["replica_sweeps"]) for bot in bots}  # type: ignore[call-overload]
    for bot in bots:
        eventually(lambda bot=bot: int(health(bot)["replica_sweeps"]) >= start[bot.url] + count,  # type: ignore[misc,call-overload]
                   f"{bot.url} sweeping")


def test_two_replicas_survive_a_database_restart_with_no_question_lost(
    pair: tuple[BotProcess, BotProcess, Path], server: PostgresServer, emulator: SlackEmulator
) -> None:
    a, b, paused = pair
    drive_a, drive_b = SlackDriver(a.url, emulator), SlackDriver(b.url, emulator)
    pids = (a.process.pid, b.process.pid)
    before, _ = drive_b.mention(MAIN_CHANNEL, "What is the remote work policy?")
    wait_post(emulator, MAIN_CHANNEL, before, is_answer, what="an answer before the restart")
    pending, _ = drive_b.mention(MAIN_CHANNEL, "What was Q3 2026 revenue?")
    wait_post(emulator, MAIN_CHANNEL, pending, is_clarification, what="a clarification before the restart")

    in_flight, _ = drive_a.mention(MAIN_CHANNEL, "What is our AI investment strategy?")
    eventually(paused.exists, "replica A mid-answer")
    server.restart()  # every connection of both replicas is cut, mid-answer for A
    paused.with_name(paused.name + ".resume").touch()
    wait_post(emulator, MAIN_CHANNEL, in_flight, is_answer, what="the answer that was in flight")

    after_a, _ = drive_a.mention(MAIN_CHANNEL, "What is the remote work policy?")
    after_b, _ = drive_b.mention(MAIN_CHANNEL, "What is the remote work policy?")
    drive_a.reply(MAIN_CHANNEL, pending, "according to the Q3 report")  # raised by B before, answered by A after
    for ts in (after_a, after_b, pending):
        wait_post(emulator, MAIN_CHANNEL, ts, is_answer, what="an answer after the restart")
    sweeps_after((a, b), 2)  # both judged each other since: neither took the other's work for lost
    for ts in (before, pending, in_flight, after_a, after_b):
        posts = emulator.posts(MAIN_CHANNEL, ts)
        assert len([c for c in posts if is_answer(c)]) == 1, ts
        assert not [c for c in posts if is_error(c) or ASK_AGAIN in c.blocks_text()], \
            [c.blocks_text() for c in posts]
    assert (a.process.pid, b.process.pid) == pids and a.process.poll() is None and b.process.poll() is None
    for bot in (a, b):
        assert httpx.get(f"{bot.url}/readyz", trust_env=False, timeout=30).status_code == 200
        assert health(bot)["ok"] is True


def test_a_mention_during_an_outage_is_told_so_and_answered_once_the_database_is_back(
    pair: tuple[BotProcess, BotProcess, Path], server: PostgresServer, emulator: SlackEmulator
) -> None:
    a, _, paused = pair
    paused.with_name(paused.name + ".resume").touch()  # this test does not hold A anywhere
    driver = SlackDriver(a.url, emulator)
    server.halt()
    ts, sent = driver.mention(MAIN_CHANNEL, "What is the remote work policy?")
    assert sent.status == 200  # acked at once, database or not
    [told] = wait_post(emulator, MAIN_CHANNEL, ts, is_error, what="the outage notice", timeout=BOUND)
    assert "database" in told.blocks_text() and "try again" in told.blocks_text()
    assert health(a)["ok"] is True  # a database that is down is not the replica's fault
    server.resume()
    eventually(lambda: httpx.get(f"{a.url}/readyz", trust_env=False, timeout=30).status_code == 200,
               "replica A ready again")
    driver.mention(MAIN_CHANNEL, "What is the remote work policy?", thread_ts=ts)
    wait_post(emulator, MAIN_CHANNEL, ts, is_answer, what="the answer once the database is back")
