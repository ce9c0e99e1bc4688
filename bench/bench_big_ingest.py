"""Ingest one large PDF through `masis ingest` (a real process) and report pages, chunks, seconds and peak
memory: of the ingest process itself (VmHWM, polled) and including its parse child (wait4's ru_maxrss).

Run: .venv/bin/python bench/bench_big_ingest.py --pages 300
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.bigdoc import make_big_pdf  # noqa: E402


def _hwm_kb(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pages", type=int, default=300)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="masis-big-"))
    pdf = work / "archive.pdf"
    pdf.write_bytes(make_big_pdf(args.pages))
    env = {**os.environ, "MASIS_DATA_DIR": str(work / "data"), "MASIS_LLM": "extractive", "PYTHONPATH": str(REPO)}
    env.pop("QDRANT_URL", None)
    started = time.monotonic()
    proc = subprocess.Popen([sys.executable, "-m", "masis.cli", "ingest", "--workspace", "bench", str(pdf)],
                            env=env, stdout=subprocess.DEVNULL)
    parent_peak_kb = 0
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        parent_peak_kb = max(parent_peak_kb, _hwm_kb(proc.pid) or 0)
        time.sleep(0.05)
    seconds = time.monotonic() - started
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"masis ingest failed with {os.waitstatus_to_exitcode(status)}")
    with sqlite3.connect(work / "data" / "masis.db") as conn:
        pages, chunks = conn.execute("SELECT pages, chunks FROM documents WHERE name = 'archive.pdf'").fetchone()
    result = {
        "file_mb": round(pdf.stat().st_size / 1e6, 2),
        "pages": pages,
        "chunks": chunks,
        "seconds_incl_process_start": round(seconds, 1),
        "ingest_process_peak_rss_mb": round(parent_peak_kb / 1024, 1),
        "peak_rss_incl_parse_child_mb": round(usage.ru_maxrss / 1024, 1),
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
