"""Language-model providers behind one role-level protocol."""

from __future__ import annotations

import logging

from masis.config import Settings
from masis.llm.base import Conflict, ConflictClaim, Critique, Evaluation, LLMProvider
from masis.llm.extractive import ExtractiveProvider

log = logging.getLogger(__name__)

__all__ = ["Conflict", "ConflictClaim", "Critique", "Evaluation", "ExtractiveProvider", "LLMProvider", "make_provider"]


def make_provider(settings: Settings) -> LLMProvider:
    if settings.llm_provider == "openai":
        # The OpenAI provider lands with its own issue; until then an OpenAI key must not break start-up.
        log.warning("The openai provider is not in this build yet; answering with the offline extractive engine.")
    return ExtractiveProvider()
