"""Slack ack latency: how long the bot takes to answer Slack's HTTP request for an @mention.

    .venv/bin/python bench/bench_slack_ack.py [--mentions 200] [--concurrency 20]

Starts the local Slack Web API emulator (tests/e2e) and `python -m bot` as a real HTTP server over a data
directory holding the sample corpus, then sends signed `app_mention` events, N at a time, and times each
request from send to the bot's HTTP 200 (the ack). The agents answer in the background meanwhile, as in
production, so the acks are measured under load; the script also waits for every answer to be posted.
Slack's limit is 3000 ms; the target is p99 ≤ 100 ms. From the emulator's clock (the same monotonic clock,
in this process) it also measures, per mention, "mention → status visible" (the thread's first
`assistant.threads.setStatus`) and "mention → answer posted" (the answer or clarification). Prints JSON
and a table.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import queue
import statistics
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from report import percentile, print_report  # noqa: E402  (bench/ is on the path when run as a script)

from tests.e2e.conftest import MAIN_CHANNEL, BotProcess, bot_settings, seed  # noqa: E402
from tests.e2e.helpers import is_answer  # noqa: E402
from tests.e2e.slack_driver import SlackDriver, sign  # noqa: E402
from tests.e2e.slack_emulator import BOT_USER_ID, TEAM_ID, SlackEmulator  # noqa: E402

QUESTIONS = [
    "What is our AI investment strategy?",
    "When does Route Optimiser 2.0 launch?",
    "What is the headcount in engineering?",
    "What was Q3 2026 revenue?",
    "What is the cafeteria menu?",
]



def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mentions", type=int, default=200)
    parser.add_argument("--concurrency", type=int, default=20)
    parser.add_argument("--warmup", type=int, default=20,
                        help="mentions sent first, one per connection, and not counted (at least --concurrency)")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp, SlackEmulator() as emulator:
        data_dir = Path(tmp) / "data"
        seed(bot_settings(data_dir, emulator))
        bot = BotProcess(data_dir, emulator, workdir=Path(tmp) / "run").start()
        builder = SlackDriver(bot.url, emulator)

        def signed_mention(i: int) -> tuple[bytes, dict[str, str], str]:
            """A signed app_mention envelope, built before the clock starts."""
            event = builder.message_event(MAIN_CHANNEL, f"<@{BOT_USER_ID}> {QUESTIONS[i % len(QUESTIONS)]}",
                                          kind="app_mention")
            body = json.dumps({"token": "x", "team_id": TEAM_ID, "api_app_id": "A0001", "event": event,
                               "type": "event_callback", "event_id": f"EvBENCH{i:06d}",
                               "event_time": int(time.time())})
            return body.encode(), {"Content-Type": "application/json", **sign(body)}, event["ts"]

        args.warmup = max(args.warmup, args.concurrency)
        requests = [signed_mention(i) for i in range(args.warmup + args.mentions)]

        # Slack keeps its connections to an app alive; so does this sender: one pool of `concurrency`
        # keep-alive connections, each opened and used once (a warm-up mention) before the clock starts.
        # Plain http.client keeps the sender's own overhead out of the figure.
        connections: queue.Queue[http.client.HTTPConnection] = queue.Queue()
        for _ in range(args.concurrency):
            connections.put(http.client.HTTPConnection("127.0.0.1", bot.port, timeout=10))

        sent_at: dict[str, float] = {}  # thread ts → when its mention was sent (time.monotonic, as the emulator)

        def send(i: int) -> tuple[float, int, str]:
            conn = connections.get()
            try:
                body, headers, ts = requests[i]
                sent_at[ts] = time.monotonic()
                started = time.perf_counter()
                conn.request("POST", "/slack/events", body=body, headers=headers)
                response = conn.getresponse()
                response.read()
                return (time.perf_counter() - started) * 1000, response.status, ts
            finally:
                connections.put(conn)

        try:
            for i in range(args.warmup):
                send(i)
            started = time.perf_counter()
            with ThreadPoolExecutor(max_workers=args.concurrency) as pool:
                results = list(pool.map(send, range(args.warmup, args.warmup + args.mentions)))
            wall_s = time.perf_counter() - started
            threads = {ts for _, _, ts in results} | {r[2] for r in requests[: args.warmup]}
            emulator.wait_for(
                lambda calls: len({c.params.get("thread_ts") for c in calls if c.method == "chat.postMessage"
                                   and c.status == 200 and c.params.get("thread_ts") in threads
                                   and (is_answer(c) or "I need your help" in str(c.params.get("text")))})
                >= len(threads),
                timeout=600, what="every mention to be answered",
            )
            all_answered_s = time.perf_counter() - started
        finally:
            bot.stop()

    measured = {ts for _, _, ts in results}
    status_ms, answer_ms = [], []
    for ts in measured:
        calls = [c for c in emulator.calls if c.params.get("thread_ts") == ts and c.status == 200]
        status = [c.at for c in calls if c.method == "assistant.threads.setStatus" and c.params.get("status")]
        posted = [c.at for c in calls if c.method == "chat.postMessage"
                  and (is_answer(c) or "I need your help" in str(c.params.get("text")))]
        if status:
            status_ms.append((min(status) - sent_at[ts]) * 1000)
        if posted:
            answer_ms.append((min(posted) - sent_at[ts]) * 1000)
    latencies = [ms for ms, _, _ in results]
    if os.environ.get("BENCH_DEBUG"):
        print(" ".join(f"{ms:.0f}" for ms in latencies), file=sys.stderr)
    errors = sum(1 for _, status, _ in results if status != 200)
    figures = {
        "mentions": args.mentions,
        "concurrency": args.concurrency,
        "cpus": os.cpu_count(),
        "non_200": errors,
        "ack_p50_ms": round(statistics.median(latencies), 2),
        "ack_p90_ms": round(percentile(latencies, 0.90), 2),
        "ack_p99_ms": round(percentile(latencies, 0.99), 2),
        "ack_max_ms": round(max(latencies), 2),
        "ack_mean_ms": round(statistics.mean(latencies), 2),
        "status_visible_p50_ms": round(statistics.median(status_ms), 2) if status_ms else None,
        "status_visible_p95_ms": round(percentile(status_ms, 0.95), 2) if status_ms else None,
        "answer_posted_p50_ms": round(statistics.median(answer_ms), 2) if answer_ms else None,
        "answer_posted_p95_ms": round(percentile(answer_ms, 0.95), 2) if answer_ms else None,
        "send_wall_s": round(wall_s, 2),
        "all_answered_s": round(all_answered_s, 2),
        "target_p99_ms": 100,
        "slack_limit_ms": 3000,
    }
    print_report(figures)
    return 0 if errors == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
