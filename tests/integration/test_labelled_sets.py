"""The labelled question sets pass their own validator (`data/realdocs/check.py`): every evidence in its file, every
gold in its evidence, and every gold something the eval can find once it normalises answers."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from types import ModuleType

from ..conftest import REPO

CHECK = REPO / "data" / "realdocs" / "check.py"


def _check_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("labelled_sets_check", CHECK)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_gold_of_punctuation_alone_is_one_the_eval_could_never_find() -> None:
    # conversations cv-127 turn 2 had only "'*'" as its gold, which the eval reads as nothing
    assert _check_module()._scored_forms(["'*'", "use '*' to trust anything"]) == ["", "use to trust anything"]


def test_every_labelled_set_passes_its_validator() -> None:
    done = subprocess.run([sys.executable, str(CHECK)], cwd=REPO, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert done.stdout.rstrip().endswith("OK") and "ERROR" not in done.stdout
