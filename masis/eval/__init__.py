"""`masis eval`: labelled benchmarks through the real engine, with peers in the same run."""

from masis.eval.datasets import LabelledSet, load
from masis.eval.runner import run_eval, to_markdown

__all__ = ["LabelledSet", "load", "run_eval", "to_markdown"]
