"""Every track's verdicts side by side: `python scripts/eval_compare.py BEFORE_DIR AFTER_DIR`.

Reads the JSON files that scripts/eval_all_tracks.sh writes and prints, per track found in both folders,
right / wrong / asked back (all questions, and each part), answered and containment for the open-book track,
the answers at confidence >= 0.9 with the share right, and SciFact's nDCG@10.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any


def _pct(value: float | None) -> str:
    return "—" if value is None else f"{100 * value:.1f}"


def _verdicts(report: dict[str, Any]) -> list[tuple[str, str]]:
    rows = []
    for part, figures in (report.get("verdicts") or {}).items():
        rows.append((f"{part} ({figures['questions']})",
                     f"{_pct(figures['right'])} / {_pct(figures['wrong'])} / {_pct(figures['asked_back'])}"))
    for bucket in report.get("calibration") or []:
        rows.append((f"conf {bucket['confidence']}", f"{bucket['answered']} at {_pct(bucket['right'])} % right"))
    book = (report.get("open_book") or {}).get("masis") or {}
    if book:
        rows.append(("answered / containment / refused",
                     f"{_pct(book.get('answered'))} / {_pct(book.get('containment'))} / {_pct(book.get('refused'))}"))
    retrieval = report.get("retrieval") or {}
    ndcg = (retrieval.get("masis") or {}).get("ndcg@10")
    if ndcg is not None:
        ratio = (retrieval.get("ratio") or {}).get("ndcg@10")
        rows.append(("nDCG@10 (× bm25s)", f"{ndcg:.4f} ({ratio} ×)"))
    return rows


def _load(path: Path) -> dict[str, Any] | None:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


def main(before_dir: str, after_dir: str) -> None:
    before_root, after_root = Path(before_dir), Path(after_dir)
    for path in sorted(after_root.glob("*.json")):
        before, after = _load(before_root / path.name), _load(path)
        if before is None or after is None:
            continue
        print(f"\n## {path.stem}   (right / wrong / asked back, %)")
        old = dict(_verdicts(before))
        for label, value in _verdicts(after):
            print(f"  {label:<48} {old.get(label, '—'):>26}  →  {value}")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: python scripts/eval_compare.py BEFORE_DIR AFTER_DIR")
    main(sys.argv[1], sys.argv[2])
