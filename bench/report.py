"""What every benchmark prints: its figures as JSON, then as a Markdown table."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from masis.eval.metrics import percentile

__all__ = ["percentile", "print_report"]


def _flat(figures: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    flat: dict[str, Any] = {}
    for key, value in figures.items():
        if isinstance(value, Mapping):
            flat.update(_flat(value, f"{prefix}{key}."))
        else:
            flat[f"{prefix}{key}"] = value
    return flat


def print_report(figures: Mapping[str, Any], rows: Sequence[Mapping[str, Any]] = ()) -> None:
    """The figures as JSON, then as a table (nested figures as `outer.inner`); `rows`, when given, as a
    second table with one column per key (e.g. one row per corpus size)."""
    print(json.dumps(figures, indent=2))
    print()
    print("| figure | value |")
    print("|---|---|")
    for key, value in _flat(figures).items():
        if not (rows and isinstance(value, list)):
            print(f"| {key} | {value} |")
    if rows:
        columns = list(rows[0])
        print()
        print("| " + " | ".join(columns) + " |")
        print("|---" * len(columns) + "|")
        for row in rows:
            print("| " + " | ".join(str(row.get(c, "")) for c in columns) + " |")
