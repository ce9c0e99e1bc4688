"""Many people at once: 20 questions in 20 threads while an upload is being indexed. Every thread gets its own
answer (never another thread's), nothing fails with "database is locked", and a file Slack says is too
large is refused without being downloaded."""

from __future__ import annotations

import random
import re
from concurrent.futures import ThreadPoolExecutor

from tests.bigdoc import make_big_pdf
from tests.e2e.conftest import MAIN_CHANNEL, BotServer
from tests.e2e.helpers import is_answer, is_error, wait_post
from tests.e2e.slack_driver import SlackDriver
from tests.e2e.slack_emulator import TEAM_ID, SlackEmulator
from tests.e2e.test_slack_uploads import is_summary, open_modal, upload_values

THREADS = 20


def test_twenty_threads_at_once_during_an_upload_each_get_their_own_answer(
        bot: BotServer, slack: SlackDriver, emulator: SlackEmulator) -> None:
    rng = random.Random(6)
    names = ["".join(rng.choice("bcdfghjklmnpqrstvwxz") + rng.choice("aeiou") for _ in range(4)).capitalize()
             for _ in range(THREADS)]
    codes = [f"K{1000 + i * 37}" for i in range(THREADS)]
    report = bot.engine.ingest(f"{TEAM_ID}:{MAIN_CHANNEL}", [
        (f"{name.lower()}.txt", f"The {name} project code is {code}. The {name} project is run by {name} Team."
         .encode()) for name, code in zip(names, codes, strict=True)])
    assert not report.failed

    view = open_modal(slack, emulator, MAIN_CHANNEL)
    big = emulator.add_file("archive.pdf", make_big_pdf(30))
    oversized = emulator.add_file("huge.pdf", b"%PDF-1.7 small body, big claim")
    oversized["size"] = 25 * 1024 * 1024  # what Slack reports; the bot must not download it
    assert slack.submit_view(view, upload_values([big, oversized])).status == 200

    def ask(i: int) -> str:
        ts, sent = slack.mention(MAIN_CHANNEL, f"What is the {names[i]} project code?", user=f"UPERSON{i:02d}")
        assert sent.status == 200
        return ts

    with ThreadPoolExecutor(THREADS) as pool:
        thread_ts = list(pool.map(ask, range(THREADS)))

    for i, ts in enumerate(thread_ts):
        [answer] = wait_post(emulator, MAIN_CHANNEL, ts, is_answer, what=f"thread {i}'s answer", timeout=90)
        found = set(re.findall(r"K\d{4}", answer.blocks_text()))
        assert found == {codes[i]}, (i, found)
        assert not [c for c in emulator.posts(MAIN_CHANNEL, ts) if is_error(c)]
    [summary] = wait_post(emulator, MAIN_CHANNEL, None, is_summary, what="the upload summary", timeout=90)
    text = summary.blocks_text()
    assert "archive.pdf" in text and "huge.pdf" in text and "larger than the 20.0 MiB limit" in text
    assert "locked" not in text
    assert not [c for c in emulator.calls if c.method.startswith("GET /files/") and oversized["id"] in c.method]
    assert [d.pages for d in bot.engine.documents(f"{TEAM_ID}:{MAIN_CHANNEL}") if d.name == "archive.pdf"] == [30]
