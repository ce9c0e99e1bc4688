"""The sentence encoder's load: time and memory with the weights read into memory (now) and memory-mapped (before).

    .venv/bin/python bench/bench_encoder_load.py [--vs REV] [--texts 64]

Each tree loads the encoder in a fresh process (PYTHONPATH pointing at it; "before" is REV exported with `git
archive`, by default main) and reads `--texts` passages of ~900 characters, as a question's candidates are read.
The process's RSS and USS (memory no other process shares) are taken after `import numpy, tokenizers` (the
anchor, in the same process), after the load and after the passages. Memory-mapped weights count in RSS only as
pages are touched, and those pages are the page cache's, shared by every process mapping the file; weights read
into memory are the process's own.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
sys.path.insert(0, str(BENCH))

from bench_cli_startup import export  # noqa: E402
from report import print_report  # noqa: E402

_PROBE = """
import json, sys, time
import numpy, tokenizers, psutil
process = psutil.Process()

def memory():
    info = process.memory_full_info()
    return round(info.rss / 2**20, 1), round(info.uss / 2**20, 1)

anchor = memory()
from masis.judge import semantic
started = time.perf_counter()
encoder = semantic.load()
load_s = time.perf_counter() - started
assert encoder is not None, "the encoder did not load"
loaded = memory()
sentence = "The fleet counts {n} trucks, and the depot in district {n} opens at {h} o'clock on weekdays. "
texts = [(sentence * 10).format(n=i, h=i % 12 + 1)[:900] for i in range(int(sys.argv[1]))]
started = time.perf_counter()
encoder.encode(texts)
read_s = time.perf_counter() - started
print(json.dumps({"anchor_rss_mb": anchor[0], "anchor_uss_mb": anchor[1], "load_s": round(load_s, 3),
                  "loaded_rss_mb": loaded[0], "loaded_uss_mb": loaded[1], "read_s": round(read_s, 3),
                  "after_rss_mb": memory()[0], "after_uss_mb": memory()[1]}))
"""


def measure(tree: Path, texts: int, cwd: Path) -> dict[str, Any]:
    # run from elsewhere than a source tree: `masis` is a namespace package, and the current directory's would join it
    env = {**os.environ, "PYTHONPATH": str(tree)}
    probe = _PROBE.replace("from masis.judge import semantic\n",
                           "from masis.judge import semantic\nassert semantic.__file__.startswith(sys.argv[2])\n")
    done = subprocess.run([sys.executable, "-c", probe, str(texts), str(tree)], env=env, capture_output=True,
                          text=True, check=False, timeout=600, cwd=cwd)
    if done.returncode != 0:
        raise SystemExit(f"bench_encoder_load: {tree} exited {done.returncode}: {done.stderr.strip()[-500:]}")
    figures: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    figures["load_rss_mb"] = round(figures["loaded_rss_mb"] - figures["anchor_rss_mb"], 1)
    figures["load_uss_mb"] = round(figures["loaded_uss_mb"] - figures["anchor_uss_mb"], 1)
    figures["question_rss_mb"] = round(figures["after_rss_mb"] - figures["anchor_rss_mb"], 1)
    figures["question_uss_mb"] = round(figures["after_uss_mb"] - figures["anchor_uss_mb"], 1)
    return figures


def run(texts: int, against: str | None) -> dict[str, Any]:
    figures: dict[str, Any] = {"texts": texts, "load_average": [round(x, 2) for x in os.getloadavg()]}
    with tempfile.TemporaryDirectory(prefix="masis-encoder-bench-") as tmp:
        before, cwd = Path(tmp) / "before", Path(tmp) / "run"
        before.mkdir()
        cwd.mkdir()
        if against:
            figures["before"] = measure(export(against, before), texts, cwd)
        figures["now"] = measure(REPO, texts, cwd)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vs", default="main", help="the revision to compare with ('' for none)")
    parser.add_argument("--texts", type=int, default=64)
    args = parser.parse_args()
    print_report(run(args.texts, args.vs or None))


if __name__ == "__main__":
    main()
