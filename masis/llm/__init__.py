"""Language-model providers behind one role-level protocol."""

from __future__ import annotations

from masis.config import Settings
from masis.judge.findings import Conflict, ConflictClaim, Critique, Evaluation
from masis.llm.base import LLMProvider
from masis.llm.extractive import ExtractiveProvider

__all__ = ["Conflict", "ConflictClaim", "Critique", "Evaluation", "ExtractiveProvider", "LLMProvider", "make_provider"]


def make_provider(settings: Settings) -> LLMProvider:
    if settings.llm_provider == "openai":
        from masis.llm.openai_provider import OpenAIProvider  # langchain-openai loads only when used

        return OpenAIProvider(settings)
    return ExtractiveProvider()
