"""`make bench`: run every benchmark, write bench/results/latest.json and the latency plot.

    .venv/bin/python bench/run_all.py [--quick] [--out bench/results] [--only scaling,ingest]

Each benchmark runs as its own process (so one's memory does not count in another's), prints its JSON and
table as usual, and is collected here with the machine it ran on. The SciFact engine benchmark runs when
../shared/datasets/beir_scifact is present and is skipped (and said so) otherwise. `--quick` runs tiny
sizes, for a smoke test. The plot is query (and whole-ask) latency against the chunks in the workspace,
log-log, from bench_scaling.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import psutil

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
SCIFACT = REPO.parent / "shared" / "datasets" / "beir_scifact" / "corpus.jsonl"
PLOT_NAME = "query_latency.png"

FULL: dict[str, list[str]] = {
    "cli_startup": ["bench_cli_startup.py"],
    "ingest": ["bench_ingest.py"],
    "replace": ["bench_replace.py"],
    "scaling": ["bench_scaling.py"],
    "engine_scifact": ["bench_engine.py"],
    "slack_ack": ["bench_slack_ack.py"],
    "fairness": ["bench_fairness.py"],
}
QUICK: dict[str, list[str]] = {
    "cli_startup": ["bench_cli_startup.py", "--runs", "1"],
    "ingest": ["bench_ingest.py", "--documents", "3", "--pages", "2"],
    "replace": ["bench_replace.py", "--paragraphs", "200", "--queries", "20"],
    "scaling": ["bench_scaling.py", "--sizes", "200,400", "--queries", "10", "--asks", "2"],
    "engine_scifact": ["bench_engine.py", "--docs", "200", "--queries", "10", "--asks", "3"],
    "slack_ack": ["bench_slack_ack.py", "--mentions", "10", "--concurrency", "5", "--warmup", "5"],
    "fairness": ["bench_fairness.py", "--heavy", "8", "--heavy-seconds", "0.2"],
}


def machine() -> dict[str, Any]:
    return {
        "cpus": os.cpu_count(),
        "memory_gib": round(psutil.virtual_memory().total / 2**30, 1),
        "load_average_at_start": [round(x, 2) for x in os.getloadavg()],
        "python": platform.python_version(),
        "platform": platform.platform(),
    }


def first_json(stdout: str) -> dict[str, Any]:
    """The JSON object a benchmark prints before its table."""
    return json.JSONDecoder().raw_decode(stdout[stdout.index("{") :])[0]


def run_bench(name: str, argv: Sequence[str]) -> dict[str, Any]:
    if name == "engine_scifact" and not SCIFACT.exists():
        return {"skipped": f"{SCIFACT} not found"}
    started = time.perf_counter()
    print(f"== {name}: {' '.join(argv)}", flush=True)
    proc = subprocess.run(
        [sys.executable, str(BENCH / argv[0]), *argv[1:]], cwd=REPO, capture_output=True, text=True, check=False
    )
    seconds = round(time.perf_counter() - started, 1)
    print(proc.stdout, flush=True)
    if proc.returncode != 0:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-5:]
        print(f"!! {name} failed (exit {proc.returncode}): " + " / ".join(tail), file=sys.stderr, flush=True)
        return {"failed": proc.returncode, "stderr_tail": tail, "seconds": seconds}
    return {"seconds": seconds, "figures": first_json(proc.stdout)}


def plot(scaling: Mapping[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = scaling["sizes"]
    chunks = [r["chunks"] for r in rows]
    fig, ax = plt.subplots(figsize=(7, 4.5), dpi=110)
    exponent = scaling["query_p50_growth_exponent"]
    ax.plot(chunks, [r["query_p50_ms"] for r in rows], "o-", label=f"store query p50 (slope {exponent:.2f})")
    ax.plot(chunks, [r["query_p95_ms"] for r in rows], "o--", label="store query p95")
    if scaling.get("asks"):
        ax.plot(chunks, [r["ask_p50_ms"] for r in rows], "s-", label="whole extractive ask p50")
    linear = [rows[0]["query_p50_ms"] * c / chunks[0] for c in chunks]
    ax.plot(chunks, linear, ":", color="grey", label="linear growth from the first point")
    ax.axhline(20, color="red", linewidth=0.8, linestyle="-.", label="target: query p50 ≤ 20 ms at 100k")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("chunks in the queried workspace (store holds 2×, across 20 workspaces)")
    ax.set_ylabel("latency (ms)")
    ax.set_title("MASIS embedded store (Qdrant Edge): latency vs corpus size")
    ax.grid(True, which="both", linewidth=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="tiny sizes: a smoke test, not figures")
    parser.add_argument("--out", type=Path, default=BENCH / "results")
    parser.add_argument("--only", help="comma-separated subset of: " + ", ".join(FULL))
    args = parser.parse_args()
    plan = QUICK if args.quick else FULL
    if args.only:
        wanted = [n.strip() for n in args.only.split(",") if n.strip()]
        unknown = [n for n in wanted if n not in plan]
        if unknown:
            print(f"run_all: unknown benchmark(s) {', '.join(unknown)}; choose from {', '.join(plan)}", file=sys.stderr)
            return 2
        plan = {n: plan[n] for n in wanted}
    results: dict[str, Any] = {
        "started_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "quick": args.quick,
        "machine": machine(),
        "benches": {},
    }
    started = time.perf_counter()
    for name, argv in plan.items():
        results["benches"][name] = run_bench(name, argv)
    results["total_seconds"] = round(time.perf_counter() - started, 1)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "latest.json").write_text(json.dumps(results, indent=2) + "\n")
    scaling = results["benches"].get("scaling", {}).get("figures")
    if scaling:
        plot(scaling, args.out / PLOT_NAME)
    print(f"run_all: wrote {args.out / 'latest.json'}" + (f" and {args.out / PLOT_NAME}" if scaling else ""))
    failed = [n for n, r in results["benches"].items() if "failed" in r]
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
