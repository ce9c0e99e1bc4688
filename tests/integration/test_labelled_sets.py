"""The labelled question sets pass their own validator (`data/realdocs/check.py`): every evidence in its file and
every gold in its evidence."""

from __future__ import annotations

import subprocess
import sys

from ..conftest import REPO

CHECK = REPO / "data" / "realdocs" / "check.py"


def test_every_labelled_set_passes_its_validator() -> None:
    done = subprocess.run([sys.executable, str(CHECK)], cwd=REPO, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert done.stdout.rstrip().endswith("OK") and "ERROR" not in done.stdout
