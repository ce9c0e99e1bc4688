"""`make run`'s demo leaves its documents where `masis ask` looks: the demo runs as the Makefile runs it,
then the CLI asks over the same working directory, both with the default data directory."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from masis.demo import QUESTION, WORKSPACE
from tests.conftest import REPO

BIN = Path(sys.executable).parent


def demo_command() -> str:
    """The command `make run` runs the demo with (its install step left out), with this venv's tools."""
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    dry_run = subprocess.run(
        ["make", "--dry-run", "--no-print-directory", "-C", str(REPO), "run", f"BIN={BIN}"],
        capture_output=True, text=True, check=True, timeout=60,
    )
    lines = [line for line in dry_run.stdout.splitlines() if "masis.demo" in line]
    assert len(lines) == 1, dry_run.stdout
    return lines[0]


def user_env() -> dict[str, str]:
    """A user's environment with no data directory, server or key of its own: every default applies."""
    env = {**os.environ, "MASIS_LLM": "extractive"}
    for name in ("MASIS_DATA_DIR", "QDRANT_URL", "OPENAI_API_KEY", "MASIS_DATABASE_URL"):
        env.pop(name, None)
    return env


def test_after_make_run_masis_ask_answers_from_the_demo_workspace(tmp_path: Path) -> None:
    command = demo_command()
    for run in ("first", "again"):
        demo = subprocess.run(command, shell=True, cwd=tmp_path, env=user_env(), capture_output=True, text=True,
                              timeout=300)
        assert demo.returncode == 0, f"{run} run: {demo.stderr}"
    assert re.search(r"strategy_memo\.pdf: \d+ chunks \(unchanged\)", demo.stdout), demo.stdout  # re-used

    asked = subprocess.run(
        [str(BIN / "masis"), "ask", "--workspace", WORKSPACE, "--json", QUESTION],
        cwd=tmp_path, env=user_env(), capture_output=True, text=True, timeout=120,
    )
    assert asked.returncode == 0, asked.stderr
    outcome = json.loads(asked.stdout)
    assert outcome["status"] == "answered", outcome.get("clarification")
    assert "strategy_memo.pdf" in {citation["doc_name"] for citation in outcome["citations"]}
