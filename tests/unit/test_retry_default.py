"""The audit loop's retry budget: the design's 2 with a model, none on the offline engine unless asked for."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from masis.config import Settings


@pytest.fixture(autouse=True)
def _no_environment_choice(monkeypatch: pytest.MonkeyPatch) -> None:
    """The defaults are what is tested: a developer's own MASIS_MAX_RETRIES or MASIS_LLM would decide them instead."""
    monkeypatch.delenv("MASIS_MAX_RETRIES", raising=False)
    monkeypatch.delenv("MASIS_LLM", raising=False)


def _settings(tmp_path: Path, **values: object) -> Settings:
    return Settings(_env_file=None, data_dir=tmp_path, qdrant_url=None, database_url=None, **values)


def test_the_offline_engine_does_not_retry_by_default(tmp_path: Path) -> None:
    assert _settings(tmp_path, llm="extractive", openai_api_key=None).retries == 0


def test_a_model_gets_the_designs_two_retries(tmp_path: Path) -> None:
    assert _settings(tmp_path, openai_api_key="sk-test").retries == 2  # a key alone picks the OpenAI path
    assert _settings(tmp_path, llm="openai", openai_api_key="sk-test").retries == 2


def test_an_explicit_budget_wins_on_either_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MASIS_MAX_RETRIES", "2")
    assert _settings(tmp_path, llm="extractive", openai_api_key=None).retries == 2
    monkeypatch.setenv("MASIS_MAX_RETRIES", "0")  # 0 means no retry, not the default
    assert _settings(tmp_path, llm="openai", openai_api_key="sk-test").retries == 0


def test_a_negative_budget_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValidationError):
        _settings(tmp_path, max_retries=-1)
