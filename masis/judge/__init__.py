"""Judging evidence and answers: relevance, support, citations, conflicts and scores, model-free and pure."""
