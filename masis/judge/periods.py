"""Periods: a "when" question about a moment is not answered by a span of years that is not said to be that moment.

"When did Otto von Bismarck die?" is not answered by "its long-time Chancellor, Otto von Bismarck (1862–90)", nor
"When did the Ottoman Empire rise?" by "an imperial state that lasted from 1299 to 1923", nor "When was the
legacy console retired?" by "The legacy console ran in production from 2009 to 2021": the span is of something
(a term of office, a lifetime, a service) whose relation to the asked moment the quote does not say. When every
year the quotes give stands in a span and the quotes lack a word of the question (the event: "die", "rise",
"retired"), the span answers another question; a quote that says the event ("the war, begun in 1754, lasted until
1763"; "retired in 2021 after running since 2009") is left to the words.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from masis.judge.answer_type import expected_type
from masis.judge.terms import question_terms, terms

# "1862–90", "1299 to 1923", "2009-2021"; not an ISO date ("2021-08-14")
_SPAN = re.compile(r"(?<![\d-])(?:1\d{3}|20\d\d)\s*(?:–|—|-|to|until)\s*\d{2,4}\b(?!-\d)")
_YEAR = re.compile(r"(?<!\d)(?:1\d{3}|20\d\d)(?!\d)")


def span_for_moment(question: str, quotes: Sequence[str]) -> str | None:
    """The first span of years the quotes give for a "when" question whose every quoted year is inside a span and
    some of whose words the quotes do not hold; None otherwise."""
    if expected_type(question) != "date" or not quotes:
        return None
    joined = " ".join(quotes)
    spans = list(_SPAN.finditer(joined))
    if not spans or any(not any(s.start() <= y.start() < s.end() for s in spans) for y in _YEAR.finditer(joined)):
        return None
    if not question_terms(question) - terms(joined):
        return None
    return spans[0].group(0)
