"""Assign the tune/check split of a labelled JSONL set: about 40 % check, seeded, stratified by one field.

    python data/realdocs/split.py data/realdocs/questions.jsonl kind
    python data/realdocs/split.py data/conversations/conversations.jsonl corpus

Rows are shuffled per stratum (strata and rows in file order) with random.Random(SEED); the first
round(0.4 * n) of each stratum go to "check". Re-running gives the same split for the same file.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

SEED = 20260521
CHECK_SHARE = 0.4


def assign(rows: list[dict], key: str, seed: int = SEED) -> None:
    """Set row["split"] in place, stratified by row[key]."""
    rng = random.Random(seed)
    strata: dict[str, list[dict]] = {}
    for row in rows:
        strata.setdefault(str(row[key]), []).append(row)
    for members in strata.values():
        order = list(range(len(members)))
        rng.shuffle(order)
        n_check = round(CHECK_SHARE * len(members))
        for rank, index in enumerate(order):
            members[index]["split"] = "check" if rank < n_check else "tune"


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print("usage: split.py FILE.jsonl STRATIFY_FIELD", file=sys.stderr)
        return 2
    path = Path(argv[1])
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    assign(rows, argv[2])
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
