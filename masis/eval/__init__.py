"""`masis eval`: labelled benchmarks through the real engine, with peers in the same run.

The runner and its peers (bm25s, PyStemmer) load on first use, so that `masis eval`'s argument parser,
which every `masis` call builds, costs nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from masis.eval.datasets import LabelledSet, load
    from masis.eval.runner import run_eval, to_markdown

__all__ = ["LabelledSet", "load", "run_eval", "to_markdown"]


def __getattr__(name: str) -> Any:
    if name in {"LabelledSet", "load"}:
        from masis.eval import datasets

        return getattr(datasets, name)
    if name in {"run_eval", "to_markdown"}:
        from masis.eval import runner

        return getattr(runner, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
