"""Bad arguments to the CLI are one clear line and a non-zero exit, never a traceback, and follow the same
rules as the HTTP API."""

from __future__ import annotations

from pathlib import Path

import pytest

from masis.cli import main
from masis.store.base import WORKSPACE_RULE


@pytest.fixture(autouse=True)
def _data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MASIS_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("MASIS_LLM", "extractive")
    monkeypatch.delenv("QDRANT_URL", raising=False)
    monkeypatch.delenv("MASIS_DATABASE_URL", raising=False)


@pytest.mark.parametrize("age", ["nan", "inf", "1e400"])
def test_an_age_that_is_not_a_number_of_days_is_one_clear_line(age: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["gc", f"--older-than={age}"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("masis: --older-than must be")


def test_an_age_beyond_the_calendar_forgets_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["gc", "--older-than", "1e300"]) == 0
    assert "Forgot 0 idle conversations" in capsys.readouterr().out


@pytest.mark.parametrize("command", [["docs"], ["ask", "--json", "What is it?"]])
def test_a_workspace_id_the_api_refuses_is_refused_here_too(command: list[str],
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    assert main([command[0], "--workspace", "a b", *command[1:]]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"masis: {WORKSPACE_RULE}") and err.count("\n") == 1


def test_an_uploader_that_would_not_show_as_itself_is_refused(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    note = tmp_path / "note.md"
    note.write_text("# Note\n\nThe Falcon budget is $2 million.\n", encoding="utf-8")
    assert main(["ingest", "--workspace", "ws", "--by", "\x1b[31mmallory", str(note)]) == 1
    assert "The uploader's name contains the control character U+001B" in capsys.readouterr().err
    assert main(["docs", "--workspace", "ws"]) == 0
    assert "No documents" in capsys.readouterr().out  # nothing was indexed
