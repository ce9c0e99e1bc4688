"""The server with a missing or damaged sentence encoder, as `python -m bot` runs: the reason is logged once at
start and shown by /readyz, and questions are answered from the words alone, with no traceback per question.

The damaged model is a package of the encoder's name placed first on the server's PYTHONPATH, as a broken
install would be found."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from masis.judge import semantic
from tests.conftest import REPO
from tests.e2e.conftest import API_TOKEN, BotProcess
from tests.unit.test_semantic import model_copy

FLEET = (b"# Fleet\n\nKestrel Labs ended the quarter with 412 customers.\n\n"
         b"The company operates 212 trucks and twelve electric vans.\n")


@pytest.mark.parametrize("damage", ["truncated", "missing"])
def test_a_bad_model_is_said_once_at_start_and_questions_are_still_answered(tmp_path: Path, damage: str) -> None:
    installed = semantic.model_dir()
    assert installed is not None
    package = tmp_path / "site" / semantic.MODEL_PACKAGE
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    if damage == "truncated":
        model_copy(package / "model", (installed / "model.safetensors").read_bytes()[:-4096])
    bot = BotProcess(tmp_path / "data", None, api_token=API_TOKEN, workdir=tmp_path / "run",
                     env={"PYTHONPATH": f"{tmp_path / 'site'}:{REPO}", "LOG_LEVEL": "info"}).start()
    try:
        with httpx.Client(base_url=bot.url, headers={"Authorization": f"Bearer {API_TOKEN}"}, trust_env=False,
                          timeout=60) as http:
            ready = http.get("/readyz")
            assert ready.status_code == 200 and ready.json()["ready"] is True
            expected = "are damaged: the file is" if damage == "truncated" else "is not installed"
            assert expected in ready.json()["encoder"] and "words alone" in ready.json()["encoder"]
            uploaded = http.post("/masis/workspaces/acme/documents", files={"file": ("fleet.md", FLEET)})
            assert uploaded.status_code == 200, uploaded.text
            for question in ("How many clients did Kestrel have at the end of the quarter?",
                             "How many trucks does the company operate?"):
                asked = http.post("/masis/workspaces/acme", json={"query": question})
                assert asked.status_code == 200, asked.text
            assert "212" in (asked.json()["answer"] or "")
    finally:
        assert bot.stop() == 0
    log = bot.output()
    warnings = [line for line in log.splitlines() if "sentence encoder" in line]
    assert len(warnings) == 1 and " WARNING masis.judge.semantic: " in warnings[0], log[-3000:]
    assert expected in warnings[0]
    assert "Traceback" not in log
