"""Hostile files before and after: parse time and how long the GIL was held, /healthz during an upload, the
memory of six concurrent HTML tag floods, and `masis ingest` of a 2 GiB file.

    .venv/bin/python bench/bench_hostile_files.py [--vs REV] [--timeout 30] [--quick] [--no-memory[-anchor]]

"Before" is the code at REV (default: where this branch left main), exported with `git archive` and run
with PYTHONPATH pointing at it; "after" is this tree. Each parse (load and chunk, in one process, as the server
did for every .md, .txt and .csv before) runs in a process of its own beside a thread that calls a trivial
function every millisecond: the longest gap between two calls is how long the parse held the GIL (a few ms
is the interpreter's switch interval). A parse still running after `--timeout` seconds is stopped and shown
as "> T". The /healthz figures come from the real server (`python -m bot`, API only, which now parses files
over 256 KiB in a child) while the file is uploaded through `POST /masis/workspaces/{id}/documents`, beside
its /healthz over two idle seconds just before.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import psutil

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
sys.path.insert(0, str(BENCH))

from bench_cli_startup import _env, export  # noqa: E402
from report import print_report  # noqa: E402

KB, MB = 1024, 1024 * 1024
API_TOKEN = "bench-hostile-token"


def _run(unit: str, size: int, prefix: str = "") -> str:
    return prefix + (unit * (size // len(unit) + 1))[: size - len(prefix)]


def _far_cells(rows: int) -> bytes:
    """An XLSX whose rows each hold one cell in the last column Excel has (XFD), under a header."""
    import io

    from openpyxl import Workbook

    workbook = Workbook()
    sheet = workbook.active
    sheet.append(["Name", "Value"])
    for row in range(2, rows + 2):
        sheet.cell(row=row, column=16384, value=row)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def _claimed_rows() -> bytes:
    """An XLSX of two rows whose stored size claims A1:XFD1048576 (a cell sits in the sheet's last one)."""
    import io

    from openpyxl import Workbook

    workbook = Workbook()
    workbook.active.append(["Name", "Value"])
    workbook.active.append(["a", 1])
    workbook.active["XFD1048576"] = "far away"
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def _nested_groups(depth: int) -> bytes:
    """A PPTX slide whose text box sits inside `depth` nested groups (written into the slide's XML: python-pptx
    itself recurses through the groups when it adds a shape)."""
    import io
    import re
    import zipfile

    from pptx import Presentation
    from pptx.util import Inches

    deck = Presentation()
    group = deck.slides.add_slide(deck.slide_layouts[6]).shapes.add_group_shape()
    group.shapes.add_textbox(Inches(1), Inches(1), Inches(3), Inches(1)).text_frame.text = "deep text"
    buffer = io.BytesIO()
    deck.save(buffer)
    out = io.BytesIO()
    with zipfile.ZipFile(buffer) as source, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for item in source.infolist():
            content = source.read(item.filename)
            if item.filename == "ppt/slides/slide1.xml":
                found = re.search(rb"<p:grpSp>.*?</p:grpSpPr>", content)
                assert found is not None
                opening = found.group()
                content = content.replace(opening, opening * (depth + 1)).replace(
                    b"</p:grpSp>", b"</p:grpSp>" * (depth + 1))
            target.writestr(item, content)
    return out.getvalue()


# name -> (file name, content); built in the worker from the name, so nothing large crosses a pipe
CASES: dict[str, Callable[[], tuple[str, str | bytes]]] = {
    "md 1 MiB of '**x '": lambda: ("stars.md", _run("**x ", MB)),
    "md 4 KB heading of spaces": lambda: ("heading.md", "# x" + " " * (4 * KB - 4) + "y"),
    **{f"md 64 KB of {unit!r}": (lambda unit=unit: ("run.md", _run(unit, 64 * KB) + "x"))
       for unit in (" ", "#", "|", "-", "*", "_", "`", "[", "<", "![", "**x ", "John M. ")},
    "md 1 MiB of directive fences": lambda: ("fences.md", _run("```{tab} x\n", MB)),
    "txt 64 KB of 'John M. '": lambda: ("names.txt", _run("John M. ", 64 * KB)),
    "txt 19 MiB, one word": lambda: ("word.txt", "x" * (19 * MB)),
    "txt 19 MiB, ordinary sentences": lambda: ("plain.txt", _run("The quick brown fox jumps over a dog. ", 19 * MB)),
    "html <div> nested 100,000 deep": lambda: ("deep.html", "<div>" * 100_000 + "deep text"),
    "html <table><tr><td> nested 30,000 deep": lambda: ("tables.html", "<table><tr><td>" * 30_000 + "deep text"),
    "html 64 KB of '<!--'": lambda: ("comments.html", _run("<!--", 64 * KB)),
    "rst 1 MiB of ':a:`x <'": lambda: ("roles.rst", _run(":a:`x <", MB)),
    "rst 1 MiB of '**x '": lambda: ("stars.rst", _run("**x ", MB)),
    "rst 1 MiB of one-letter titles": lambda: ("titles.rst", _run("x\n=\n", MB)),
    "rst 1 MiB of directive lines": lambda: ("directives.rst", _run(".. x::\n", MB)),
    "xlsx 20,000 rows with a cell in column XFD": lambda: ("far.xlsx", _far_cells(20_000)),
    "xlsx 2 rows claiming A1:XFD1048576": lambda: ("claimed.xlsx", _claimed_rows()),
    "pptx a text box in 200 nested groups": lambda: ("groups.pptx", _nested_groups(200)),
    "pptx a text box in 1,000 nested groups": lambda: ("groups.pptx", _nested_groups(1000)),
}
QUICK_CASES = ["md 4 KB heading of spaces", "md 64 KB of '**x '", "html <div> nested 100,000 deep"]
HEALTHZ_CASES = ["md 1 MiB of '**x '", "md 4 KB heading of spaces", "md 64 KB of '**x '", "txt 19 MiB, one word",
                 "txt 19 MiB, ordinary sentences", "html <div> nested 100,000 deep", "rst 1 MiB of ':a:`x <'"]


# --- one parse, in a worker process ---------------------------------------------------------------------


class _Poller(threading.Thread):
    """Calls a trivial function every millisecond and keeps the longest gap between two calls."""

    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.stop = threading.Event()
        self.longest = 0.0

    def run(self) -> None:
        last = time.perf_counter()
        while not self.stop.is_set():
            time.sleep(0.001)
            now = time.perf_counter()
            self.longest = max(self.longest, now - last)
            last = now


def worker(case: str) -> None:
    """Parse one case as the server process does (load, then chunk) and print the figures as JSON."""
    from masis.errors import IngestError
    from masis.ingest.chunking import chunk_sections
    from masis.ingest.loaders import load_document

    name, text = CASES[case]()
    data = text if isinstance(text, bytes) else text.encode()
    load_document("warm-up.html", b"<p>warm up</p>")  # imports the parser outside the timing
    with contextlib.suppress(IngestError):
        load_document(f"warm-up{Path(name).suffix}", b"x")
    poller = _Poller()
    poller.start()
    time.sleep(0.01)
    started = time.perf_counter()
    try:
        outcome = f"{len(chunk_sections(name, load_document(name, data), 900, 150))} chunks"
    except IngestError as exc:
        outcome = f"refused: {exc}"
    seconds = time.perf_counter() - started
    poller.stop.set()
    poller.join()
    print(json.dumps({"seconds": round(seconds, 3), "gil_held_ms": round(poller.longest * 1000, 1),
                      "outcome": outcome[:60]}))


def parse_figures(source: Path, case: str, timeout: float) -> dict[str, Any]:
    env = _env(source, Path(tempfile.gettempdir()) / "unused")
    try:
        done = subprocess.run([sys.executable, __file__, "--worker", case], env=env, capture_output=True, text=True,
                              timeout=timeout + 15)
    except subprocess.TimeoutExpired:
        return {"seconds": f"> {timeout:g}", "gil_held_ms": f"> {timeout * 1000:g}", "outcome": "stopped"}
    if done.returncode != 0:
        return {"seconds": None, "gil_held_ms": None, "outcome": f"worker failed: {done.stderr.strip()[-80:]}"}
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


# --- /healthz while the real server ingests an upload --------------------------------------------------------


class Server:
    """`python -m bot` from `source`, API only, on a free loopback port."""

    def __init__(self, source: Path, work: Path) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"
        env = _env(source, work / "data")
        env.update(MASIS_API_TOKEN=API_TOKEN, PORT=str(port), HOST="127.0.0.1", LOG_LEVEL="warning")
        work.mkdir(parents=True, exist_ok=True)
        self.process = subprocess.Popen([sys.executable, "-m", "bot"], env=env, cwd=work,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{self.url}/healthz", timeout=1, trust_env=False).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        raise SystemExit("bench_hostile_files: the server did not start")

    def stop(self) -> None:
        self.process.send_signal(signal.SIGKILL)  # a frozen server ignores SIGTERM; nothing here needs a clean exit
        self.process.wait()


def _poll_healthz(url: str, until: Callable[[], bool], timeout: float) -> dict[str, Any]:
    """/healthz every 10 ms over one kept-alive connection until `until()`: the slowest and the median answer."""
    latencies: list[float] = []
    with httpx.Client(trust_env=False, timeout=timeout) as client:
        while not until():
            started = time.perf_counter()
            with contextlib.suppress(httpx.TimeoutException):
                client.get(f"{url}/healthz")
            latencies.append(time.perf_counter() - started)
            time.sleep(0.01)
    latencies.sort()
    return {"healthz_max_ms": round(latencies[-1] * 1000, 1),
            "healthz_p50_ms": round(latencies[len(latencies) // 2] * 1000, 1), "healthz_requests": len(latencies)}


def healthz_during_upload(source: Path, work: Path, case: str, timeout: float) -> dict[str, Any]:
    """The server's /healthz while it ingests one upload, and, first, for two seconds with nothing to do."""
    name, text = CASES[case]()
    server = Server(source, work)
    upload: dict[str, Any] = {}

    def send() -> None:
        started = time.perf_counter()
        try:
            response = httpx.post(f"{server.url}/masis/workspaces/bench/documents", trust_env=False,
                                  headers={"Authorization": f"Bearer {API_TOKEN}"},
                                  files={"file": (name, text if isinstance(text, bytes) else text.encode())},
                                  timeout=timeout)
            upload["status"] = response.status_code
        except httpx.TimeoutException:
            upload["status"] = "timed out"
        upload["seconds"] = time.perf_counter() - started

    try:
        idle_until = time.perf_counter() + 2
        idle = _poll_healthz(server.url, lambda: time.perf_counter() > idle_until, timeout)
        sender = threading.Thread(target=send, daemon=True)
        sender.start()
        busy = _poll_healthz(server.url, lambda: not sender.is_alive(), timeout)
    finally:
        server.stop()
    return {
        "upload_s": round(upload["seconds"], 2) if upload["status"] != "timed out" else f"> {timeout:g}",
        "upload_status": upload["status"],
        **busy,
        "idle_healthz_max_ms": idle["healthz_max_ms"],
    }


# --- memory of six concurrent HTML tag floods --------------------------------------------------------------


def flood_memory(concurrency: int, files: int, size: int) -> dict[str, Any]:
    """Peak RSS of this process and its parse children while `files` uploads of a `<p>` flood are ingested at
    once (one thread each, as the bot's jobs and the API's handlers do)."""
    from masis.config import Settings
    from masis.engine import Engine
    from masis.ingest.budget import parse_concurrency

    data = ("<p>" * (size // 3)).encode()
    settings = Settings(_env_file=None, data_dir=Path(tempfile.mkdtemp(prefix="masis-flood-")) / "data",
                        llm="extractive", qdrant_url=None, openai_api_key=None, parse_concurrency=concurrency)
    peak, stop = [0], threading.Event()

    def sample() -> None:
        me = psutil.Process()
        while not stop.is_set():
            try:
                tree = [me, *me.children(recursive=True)]
                peak[0] = max(peak[0], sum(p.memory_info().rss for p in tree))
            except psutil.Error:
                continue
            time.sleep(0.02)

    sampler = threading.Thread(target=sample, daemon=True)
    with Engine(settings) as engine:
        sampler.start()
        started = time.perf_counter()
        results: list[Any] = []
        threads = [threading.Thread(target=lambda i=i: results.append(
            engine.ingest(f"team:flood{i}", [(f"flood{i}.html", data)]).results[0])) for i in range(files)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        seconds = time.perf_counter() - started
        stop.set()
        sampler.join()
    return {
        "parses_at_once": parse_concurrency(settings),
        "seconds": round(seconds, 1),
        "peak_rss_gb": round(peak[0] / 1e9, 2),
        "outcome": sorted({f"{r.status}: {(r.reason or '')[:48]}" for r in results}),
    }


# --- masis ingest of a sparse 2 GiB file ---------------------------------------------------------------------

# runs a command and prints its exit code, its peak RSS (wait4's ru_maxrss, KiB) and its output, as JSON
_PEAK = ("import json, resource, subprocess, sys\n"
         "p = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
         "peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss\n"
         "print(json.dumps([p.returncode, peak, p.stdout + p.stderr]))")


def ingest_2gib(source: Path, work: Path) -> dict[str, Any]:
    big = work / "big.txt"
    if not big.exists():
        with big.open("wb") as file:
            file.truncate(2 * 1024**3)
    env = _env(source, work / f"data-{source.name}")
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", _PEAK, sys.executable, "-m", "masis.cli", "ingest", "--workspace",
                           "w", str(big)], env=env, capture_output=True, text=True, cwd=work)  # not this tree's masis
    code, peak_kb, output = json.loads(done.stdout)
    return {"seconds": round(time.perf_counter() - started, 2), "exit": code, "peak_rss_mb": round(peak_kb / 1024, 1),
            "says": output.strip()[:70]}


# --- the report ------------------------------------------------------------------------------------------


def branch_point() -> str:
    """Where this branch left main: its first first-parent ancestor that is on main's first-parent line (a
    merge-base would be this branch itself once main has merged it)."""

    def first_parents(ref: str) -> list[str]:
        listed = subprocess.run(["git", "-C", str(REPO), "rev-list", "--first-parent", ref], capture_output=True,
                                text=True)
        return listed.stdout.split()

    on_main = set(first_parents("main"))
    return next((commit for commit in first_parents("HEAD") if commit in on_main), "HEAD")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vs", default=None, help="the revision 'before' runs (default: where this branch left main)")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds before a parse or upload is stopped")
    parser.add_argument("--quick", action="store_true", help="three parse cases, no server, no memory")
    parser.add_argument("--no-memory", action="store_true", help="skip the six HTML tag floods")
    parser.add_argument("--no-memory-anchor", action="store_true",
                        help="skip the six-at-once anchor of the flood memory (it takes ~7 GB)")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.worker)
        return
    before_rev = args.vs or branch_point()
    with tempfile.TemporaryDirectory(prefix="masis-hostile-") as tmp:
        work = Path(tmp)
        (work / "before").mkdir()
        before = export(before_rev, work / "before")
        figures: dict[str, Any] = {"before": before_rev, "timeout_s": args.timeout,
                                   "load_average_at_start": [round(x, 2) for x in os.getloadavg()]}
        rows = []
        for case in (QUICK_CASES if args.quick else CASES):
            old, new = parse_figures(before, case, args.timeout), parse_figures(REPO, case, args.timeout)
            rows.append({"input": case, "before_s": old["seconds"], "before_gil_held_ms": old["gil_held_ms"],
                         "after_s": new["seconds"], "after_gil_held_ms": new["gil_held_ms"],
                         "after_outcome": new["outcome"]})
            print(f"parsed: {rows[-1]}", file=sys.stderr, flush=True)
        if not args.quick:
            figures["healthz"] = {
                case: {"before": healthz_during_upload(before, work / f"old-{i}", case, args.timeout),
                       "after": healthz_during_upload(REPO, work / f"new-{i}", case, args.timeout)}
                for i, case in enumerate(HEALTHZ_CASES)
            }
            print(f"healthz: {figures['healthz']}", file=sys.stderr, flush=True)
            figures["ingest_2gib"] = {"before": ingest_2gib(before, work), "after": ingest_2gib(REPO, work)}
            print(f"2 GiB: {figures['ingest_2gib']}", file=sys.stderr, flush=True)
        if not args.quick and not args.no_memory:
            figures["six_html_floods_19mb"] = {"budget": flood_memory(0, 6, 19 * MB)}
            if not args.no_memory_anchor:
                figures["six_html_floods_19mb"]["anchor_six_at_once"] = flood_memory(6, 6, 19 * MB)
    print_report(figures, rows)


if __name__ == "__main__":
    main()
