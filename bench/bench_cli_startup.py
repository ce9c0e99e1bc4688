"""How long a user waits for the CLI: `masis --help`, `masis docs` and one `masis ask`, end to end.

    .venv/bin/python bench/bench_cli_startup.py [--runs 5] [--against REF]

Each command is a fresh process (what a user or a script runs), timed from spawn to exit; the figure is
the median of `--runs` runs after one untimed warm-up run. The anchors are measured in the same run:
`python -c pass` (the interpreter alone) and `python -c "import masis.cli"`. `ask` is one sample
question ("What is our AI investment strategy?") on the embedded default store (offline extractive
engine) after `data/sample/` was ingested into a fresh data directory (not timed).

`--against REF` also measures the code of a git revision (e.g. `main`), exported with `git archive` into a
temporary directory and run with this virtualenv, so before and after come from the same run. Prints
JSON and a table.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from report import print_report

REPO = Path(__file__).resolve().parents[1]
SAMPLE = REPO / "data" / "sample"
QUESTION = "What is our AI investment strategy?"
HELP_TARGET_S = 0.3
ASK_TARGET_S = 0.8
# Exactly what the `masis` console script does, so a source tree other than the installed one can run it.
_ENTRY = "import sys; from masis.cli import main; sys.exit(main())"


def _env(source: Path, data_dir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "QDRANT_", "SLACK_", "MASIS_"))}
    env.update(PYTHONPATH=str(source), MASIS_DATA_DIR=str(data_dir), MASIS_LLM="extractive")
    return env


def _seconds(argv: Sequence[str], env: Mapping[str, str], cwd: Path) -> float:
    started = time.perf_counter()
    proc = subprocess.run(argv, env=env, cwd=cwd, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - started
    if proc.returncode != 0:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-3:]
        raise SystemExit(f"bench_cli_startup: {' '.join(argv[2:])} exited {proc.returncode}: {' / '.join(tail)}")
    return elapsed


def median_seconds(argv: Sequence[str], env: Mapping[str, str], cwd: Path, runs: int) -> float:
    _seconds(argv, env, cwd)  # warm-up: the page cache, .pyc files
    return round(statistics.median(_seconds(argv, env, cwd) for _ in range(runs)), 3)


def measure(source: Path, runs: int, work: Path) -> dict[str, float]:
    """Medians of the CLI commands run from the source tree `source`, in a data directory under `work`."""
    data_dir = work / "data"
    env = _env(source, data_dir)
    masis = [sys.executable, "-c", _ENTRY]
    _seconds([*masis, "ingest", "--workspace", "bench", str(SAMPLE)], env, work)
    return {
        "import_masis_cli_s": median_seconds([sys.executable, "-c", "import masis.cli"], env, work, runs),
        "help_s": median_seconds([*masis, "--help"], env, work, runs),
        "docs_empty_workspace_s": median_seconds([*masis, "docs", "--workspace", "empty"], env, work, runs),
        "ask_s": median_seconds([*masis, "ask", "--workspace", "bench", "--json", QUESTION], env, work, runs),
    }


def export(ref: str, into: Path) -> Path:
    """The `masis` and `bot` packages of git revision `ref`, unpacked under `into`."""
    archive = subprocess.run(
        ["git", "-C", str(REPO), "archive", "--format=tar", ref, "masis", "bot"], capture_output=True, check=False
    )
    if archive.returncode != 0:
        raise SystemExit(f"bench_cli_startup: cannot export {ref}: {archive.stderr.decode().strip()}")
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    return into


def run(runs: int, against: str | None) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="masis-cli-bench-") as tmp:
        work = Path(tmp)
        anchor = median_seconds([sys.executable, "-c", "pass"], _env(REPO, work / "none"), work, runs)
        (work / "now").mkdir()
        now = measure(REPO, runs, work / "now")
        figures: dict[str, Any] = {"runs": runs, "anchor_python_pass_s": anchor, "now": now}
        if against:
            (work / "ref").mkdir()
            (work / "src").mkdir()
            figures["against"] = {"ref": against, **measure(export(against, work / "src"), runs, work / "ref")}
    figures["now_over_python_pass"] = {k: round(v / anchor, 1) for k, v in now.items()}
    figures["targets"] = {
        f"help <= {HELP_TARGET_S} s": now["help_s"] <= HELP_TARGET_S,
        f"ask <= {ASK_TARGET_S} s": now["ask_s"] <= ASK_TARGET_S,
    }
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--against", metavar="REF", help="also measure this git revision (e.g. main)")
    args = parser.parse_args()
    if args.runs < 1:
        print("bench_cli_startup: --runs must be positive", file=sys.stderr)
        return 2
    print_report(run(args.runs, args.against))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
