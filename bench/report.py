"""What every benchmark prints: its figures as JSON, then as a Markdown table."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from masis.eval.metrics import percentile

__all__ = ["percentile", "print_report"]


def print_report(figures: Mapping[str, Any]) -> None:
    print(json.dumps(figures, indent=2))
    print()
    print("| figure | value |")
    print("|---|---|")
    for key, value in figures.items():
        print(f"| {key} | {value} |")
