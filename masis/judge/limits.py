"""A limit asked for is answered by a quote that says a limit.

"What is the maximum value allowed for OPENAPI_SPEC_VALIDATOR_RESOLVED_CACHE_MAXSIZE?" is not answered by the
example "OPENAPI_SPEC_VALIDATOR_RESOLVED_CACHE_MAXSIZE=2048", nor "What is the maximum value allowed for numprocs?" by
"Default: 1": a value is the limit asked for only when a quote says it bounds something. A quote says so in many
words — "maximum", "up to 72 characters", "at least", "3.10 or later", "10.8+", ">=1.26", "capped to 128M",
"requires", "between 1 and 65535" — and any of them is enough: the rule asks back only when none is said, outside
the question's own names ("…_MAXSIZE", "--max-count" name a setting, they bound nothing).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from masis.judge import anchors

# "maximum", "min" as words of the question, not parts of a name ("--max-count", "MAX_DATA", "min-port")
_ASKS_LIMIT = re.compile(
    r"(?<![\w./=-])(?:maximum|minimum|max|min)(?![\w./=-])|\bat\s+(?:most|least)\b|\bup\s+to\s+how\b", re.IGNORECASE)
_SAYS_LIMIT = re.compile(
    # "min" as a word or a name's part ("minPort", "MIN_SIZE", "min-port"), not inside "Programming"
    r"max|(?<![a-z])min(?:imum|imal|imally|s)?(?![a-z])|(?-i:(?<![a-z])(?:min|MIN)(?=[_A-Z\d-]))|\blimit|\bcap(?:s|ped)?\b"
    r"|\bat\s+(?:most|least)\b|\bup\s+to\b|\bexceed"
    r"|\bno\s+(?:more|less|fewer|larger|greater|higher|lower|smaller|older|earlier)\b"
    r"|\b(?:greater|larger|smaller|less|more|higher|lower|fewer|bigger|longer|shorter)\s+than\b"
    r"|\bor\s+(?:later|newer|higher|above|greater|more|earlier|older|lower|below|less|fewer|up|over|better)\b"
    r"|\band\s+(?:later|newer|above|up|higher|over)\b|\bonwards?\b|\bupwards?\b"
    r"|\d\+|[<>]=?\s*\d|[≥≤]|\bbetween\b|\brange\b|\bceiling\b|\bbound|\bclamp|\bunlimited\b|\binfinit"
    # "Required: No" is a reference entry's label, and "require('cssesc')" or Ruby's "require 'ruby-cssesc'" code, not a
    # requirement (kitdocs tune kt-054, "What minimum Node.js version does cssesc require?")
    r"|\brequir(?:es|ed|ing|e)\b(?!\s*[:('\"])|\bneeds?\b"
    r"|\b(?:highest|lowest|largest|smallest|oldest|newest|earliest|latest)\b"
    r"|\bas\s+(?:many|much|long|large|high|few|little)\s+as\s+\d",
    re.IGNORECASE,
)


def asked_limit(question: str) -> str | None:
    """The word by which the question asks for a limit ("maximum", "at least"), or None."""
    found = _ASKS_LIMIT.search(question)
    return found.group(0).lower() if found else None


def unstated_limit(question: str, claims: Sequence[str]) -> str | None:
    """The limit the question asks for ("maximum") when none of the answer's quoted `claims` says a limit, read
    without the question's own names; None when one does, when no limit is asked, or when nothing is quoted."""
    asked = asked_limit(question)
    if asked is None or not claims:
        return None
    names = sorted(anchors.anchors(question), key=len, reverse=True)
    for claim in claims:
        for name in names:
            claim = re.sub(re.escape(name), " ", claim, flags=re.IGNORECASE)
        if _SAYS_LIMIT.search(claim):
            return None
    return asked
