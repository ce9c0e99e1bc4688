"""`masis.cli.main` keeps the cyclic garbage collector off while a command starts (see `StartUp`).

As the program (no argv: the console script, `python -m masis.cli`), it leaves the start-up's objects
frozen out of later collections and the collector on; called as a function it freezes nothing and leaves
the collector as the caller had it.
"""

from __future__ import annotations

import contextlib
import gc
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from masis.cli import main

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("MASIS_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("MASIS_LLM", "extractive")
    notes = tmp_path / "notes.md"
    notes.write_text("# Budget\n\nThe AI budget for 2026 is 4 million dollars.\n")
    return notes


def _quiet_main(argv: list[str]) -> int:
    with contextlib.redirect_stdout(io.StringIO()):
        return main(argv)


def test_called_as_a_function_main_freezes_nothing_and_restores_the_collector(workspace: Path) -> None:
    assert _quiet_main(["ingest", "--workspace", "w", str(workspace)]) == 0
    frozen = gc.get_freeze_count()
    assert gc.isenabled()
    assert _quiet_main(["ask", "--workspace", "w", "--json", "What is the AI budget?"]) == 0
    assert gc.isenabled()
    assert gc.get_freeze_count() == frozen
    gc.disable()
    try:  # a caller that turned the collector off keeps it off
        assert _quiet_main(["docs", "--workspace", "w"]) == 0
        assert not gc.isenabled()
    finally:
        gc.enable()


@pytest.mark.timeout(180)
def test_as_the_program_ask_freezes_its_start_up_and_turns_the_collector_back_on(
    workspace: Path, tmp_path: Path
) -> None:
    assert _quiet_main(["ingest", "--workspace", "w", str(workspace)]) == 0
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "QDRANT_", "SLACK_"))}
    env["PYTHONPATH"] = str(REPO)
    code = (
        "import contextlib, gc, io, json, sys\n"
        "from masis.cli import main\n"
        "sys.argv = ['masis', 'ask', '--workspace', 'w', '--json', 'What is the AI budget?']\n"
        "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
        "    rc = main()\n"
        "print(json.dumps({'rc': rc, 'status': json.loads(out.getvalue())['status'], 'enabled': gc.isenabled(),\n"
        "                  'frozen': gc.get_freeze_count(), 'langgraph': 'langgraph.graph.state' in sys.modules}))"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    assert result["rc"] == 0 and result["status"] == "answered"
    assert result["enabled"] and result["langgraph"]
    assert result["frozen"] > 100_000  # LangGraph, langchain-core and pydantic's objects among them
