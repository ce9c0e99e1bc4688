"""Several things asked about at once: "How much do the Falcon X2 and the Heron S1 weigh?" is a question about each
named thing, and a search for the whole question may find the passages of only one of them (one name's words can
outweigh the other's). Each part is searched for as well; the answer is still written for the whole question."""

from __future__ import annotations

import re
from itertools import pairwise

from masis.judge.anchors import anchor_spans

# what stands between two named things asked about together: "and", "or", "and in", "or the", ", and"
_JOINED = re.compile(r"^\s*,?\s*(?:and|or)\s+(?P<article>the\s+)?(?:(?:in|for|of|on|at|to|with)\s+)?$", re.IGNORECASE)


_WITHIN_NAME = {"", "of", "de"}  # "University of Leeds" is one name


def _names(question: str) -> list[tuple[int, int]]:
    """Runs of anchors that stand together ("Falcon X2", "Debian 11", "University of Leeds"): one named thing each."""
    runs: list[tuple[int, int]] = []
    for start, end in anchor_spans(question):
        if runs and question[runs[-1][1] : start].strip().lower() in _WITHIN_NAME:
            runs[-1] = (runs[-1][0], end)
        else:
            runs.append((start, end))
    return runs


def parts(question: str) -> list[str]:
    """The question once for each of two named things it joins with "and" / "or" ("When were Debian 11 and Debian
    12 released?" → "When were Debian 11 released?", "When were Debian 12 released?"); [] when it joins none."""
    names = _names(question)
    for (first_start, first_end), (second_start, second_end) in pairwise(names):
        if joined := _JOINED.match(question[first_end:second_start]):
            before_first = question[:first_start]
            if joined.group("article") and not before_first.rstrip().lower().endswith("the"):
                before_first += "the "  # "Kestrel Labs and the University of Leeds": "the University of Leeds"
            return [
                " ".join(f"{question[:first_end]}{question[second_end:]}".split()),
                " ".join(f"{before_first}{question[second_start:]}".split()),
            ]
    return []
