"""How long a user waits for the CLI: `masis --help`, `masis docs` and one `masis ask`, end to end.

    .venv/bin/python bench/bench_cli_startup.py [--runs 5] [--against REF]

Each command is a fresh process (what a user or a script runs), timed from spawn to exit; the figure is the
median of `--runs` runs after one untimed warm-up run (which also writes the `.pyc` files an installed MASIS
has: `PYTHONDONTWRITEBYTECODE` is not passed on). The anchors are measured in the same run: `python -c pass`
(the interpreter alone) and `python -c "import masis.cli"`; and, for `ask`, the CPU seconds it used (user +
system, less sensitive to a busy machine than the wall time) beside those of importing LangGraph alone
(`import langgraph.graph, langgraph.checkpoint.sqlite`, the collector off as in `masis ask`), the part of an
`ask` that MASIS does not control. `ask` is one sample question ("What is our AI investment strategy?") on the
embedded default store (offline extractive engine) after `data/sample/` was ingested into a fresh data
directory (not timed). The load average is printed with the figures.

`--against REF` also measures the code of a git revision (e.g. `main`), exported with `git archive` into a
temporary directory and run with this virtualenv, its runs alternating with this tree's, so before and after
come from the same run under the same load. Prints JSON and a table.
"""

from __future__ import annotations

import argparse
import os
import resource
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
# What importing LangGraph costs a `masis ask`, which keeps the cyclic collector off meanwhile (masis.cli.StartUp)
_LANGGRAPH_ALONE = "import gc; gc.disable(); import langgraph.graph, langgraph.checkpoint.sqlite; gc.freeze()"


def _env(source: Path, data_dir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "QDRANT_", "SLACK_", "MASIS_"))}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # a user's MASIS has its .pyc files (pip writes them at install)
    env.update(PYTHONPATH=str(source), MASIS_DATA_DIR=str(data_dir), MASIS_LLM="extractive")
    return env


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _seconds(argv: Sequence[str], env: Mapping[str, str], cwd: Path) -> tuple[float, float]:
    """Wall and CPU seconds of one run."""
    cpu = _children_cpu()
    started = time.perf_counter()
    proc = subprocess.run(argv, env=env, cwd=cwd, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - started
    if proc.returncode != 0:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-3:]
        raise SystemExit(f"bench_cli_startup: {' '.join(argv[2:])} exited {proc.returncode}: {' / '.join(tail)}")
    return elapsed, _children_cpu() - cpu


def median_seconds_and_cpu(argv: Sequence[str], env: Mapping[str, str], cwd: Path, runs: int) -> tuple[float, float]:
    _seconds(argv, env, cwd)  # warm-up: the page cache, .pyc files
    timed = [_seconds(argv, env, cwd) for _ in range(runs)]
    return (round(statistics.median(w for w, _ in timed), 3), round(statistics.median(c for _, c in timed), 3))


def median_seconds(argv: Sequence[str], env: Mapping[str, str], cwd: Path, runs: int) -> float:
    return median_seconds_and_cpu(argv, env, cwd, runs)[0]


# figure -> the interpreter's arguments
COMMANDS: dict[str, list[str]] = {
    "import_masis_cli_s": ["-c", "import masis.cli"],
    "help_s": ["-c", _ENTRY, "--help"],
    "docs_empty_workspace_s": ["-c", _ENTRY, "docs", "--workspace", "empty"],
    "ask_s": ["-c", _ENTRY, "ask", "--workspace", "bench", "--json", QUESTION],
}


def measure(trees: Mapping[str, tuple[Path, Path]], runs: int) -> dict[str, dict[str, float]]:
    """Medians of the CLI commands for each source tree (label -> (source, work directory)), each with
    `data/sample/` ingested into its own data directory. The trees' runs alternate, so a change in the
    machine's load falls on each alike."""
    envs: dict[str, tuple[dict[str, str], Path]] = {}
    for label, (source, work) in trees.items():
        envs[label] = (_env(source, work / "data"), work)
        _seconds([sys.executable, "-c", _ENTRY, "ingest", "--workspace", "bench", str(SAMPLE)], *envs[label])
    figures: dict[str, dict[str, float]] = {label: {} for label in trees}
    for key, args in COMMANDS.items():
        timed: dict[str, list[tuple[float, float]]] = {label: [] for label in trees}
        for run in range(runs + 1):  # run 0 is the warm-up: the page cache, .pyc files
            for label, (env, work) in envs.items():
                seconds = _seconds([sys.executable, *args], env, work)
                if run:
                    timed[label].append(seconds)
        for label, pairs in timed.items():
            figures[label][key] = round(statistics.median(w for w, _ in pairs), 3)
            if key == "ask_s":
                figures[label]["ask_cpu_s"] = round(statistics.median(c for _, c in pairs), 3)
    return figures


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
        load_before = [round(x, 2) for x in os.getloadavg()]
        anchor = median_seconds([sys.executable, "-c", "pass"], _env(REPO, work / "none"), work, runs)
        langgraph_s, langgraph_cpu_s = median_seconds_and_cpu(
            [sys.executable, "-c", _LANGGRAPH_ALONE], _env(REPO, work / "none"), work, runs
        )
        trees = {"now": (REPO, work / "now")}
        if against:
            (work / "src").mkdir()
            trees["against"] = (export(against, work / "src"), work / "ref")
        for _, tree_work in trees.values():
            tree_work.mkdir()
        measured = measure(trees, runs)
        now = measured["now"]
        figures: dict[str, Any] = {
            "runs": runs,
            "anchor_python_pass_s": anchor,
            "anchor_import_langgraph": {"s": langgraph_s, "cpu_s": langgraph_cpu_s},
            "now": now,
        }
        if against:
            figures["against"] = {"ref": against, **measured["against"]}
    figures["now_over_python_pass"] = {k: round(v / anchor, 1) for k, v in now.items() if k != "ask_cpu_s"}
    figures["ask_cpu_beyond_langgraph_import_s"] = round(now["ask_cpu_s"] - langgraph_cpu_s, 3)
    figures["load_average"] = {"before": load_before, "after": [round(x, 2) for x in os.getloadavg()]}
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
