"""What every benchmark prints: its figures as JSON, then as a Markdown table."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any


def percentile(values: list[float], q: float) -> float:
    """The nearest-rank `q` quantile (0..1) of `values`."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def print_report(figures: Mapping[str, Any]) -> None:
    print(json.dumps(figures, indent=2))
    print()
    print("| figure | value |")
    print("|---|---|")
    for key, value in figures.items():
        print(f"| {key} | {value} |")
