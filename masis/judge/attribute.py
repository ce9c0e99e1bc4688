"""The attribute asked for: "How much is the add-on of the Heron S1?" asks for the add-on's price, and "What is the
status of dpkg's Protected field specification?" for its status. A quote that never speaks of that attribute, under
its heading or in its document's name, answers another question about the same subject ("The Heron S1 costs $649",
"The proposal would be to add support for a new Protected field …"), however many of the question's other words it
holds: the subject's name usually outweighs the attribute in the words' weights, so the coverage cannot tell.

Only the plain copular form is read ("what/which/how much is the X of/for/in …"). The attribute's generic nouns
("name", "value", "number") say nothing a quote must hold, nor do its qualifiers ("lowest", "maximum", "default"):
the answer's kind and `masis.judge.contrast` read those. The answer's quotes speak of it together: "maxKeys
{number} …" then "Default: 1000" do.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from masis.judge import anchors, matching
from masis.judge.contrast import in_closed_set
from masis.state import EvidenceChunk

_COPULAR = re.compile(
    r"^\W*(?:how\s+(?:much|many|long|big|large|old)|what|which)\s+(?:is|are|was|were)\s+(?:the|an?|its|their)\s+"
    r"((?:[\w-]+\s+){0,2}?[\w-]+?)"
    r"(?=\s+(?:of|for|in|on|at|with|by|from|to|that|when|if|between|per|under|after|before)\b|\s*[?'’,]|\s*$)",
    re.IGNORECASE,
)
_GENERIC = frozenset({
    "name", "names", "value", "values", "number", "numbers", "amount", "kind", "type", "sort", "one", "ones",
    "thing", "things", "way", "ways", "main", "new", "current", "other", "same",
    "default", "defaults", "typical", "standard",
})


# a measure is spoken of by a figure in its unit, an address by an address: "operates from -10 °C to 50 °C" gives the
# operating temperature, "a 9,800 mAh battery" the battery's capacity, "costs $89" the price
_UNITS = {
    "temperature": r"°\s*[CF]\b|\bdegrees\b",
    "capacity": r"\d\s*(?:mAh|Wh|kWh|[KMGT]i?B|litres?|liters?)\b",
    "weight": r"\d\s*(?:kg|g|lbs?|pounds|grams|kilograms)\b",
    "price": r"[$€£¥]\s*\d",
    "cost": r"[$€£¥]\s*\d",
    "fee": r"[$€£¥]\s*\d",
    # an address is spoken of by one: "Email our developer support team: support@slack.com"
    "address": r"[\w.+-]+@[\w-]+\.\w|https?://|\b\d{1,3}(?:\.\d{1,3}){3}\b",
    "email": r"[\w.+-]+@[\w-]+\.\w",
    "url": r"https?://",
    "link": r"https?://",
}


def _measured(asked: str, text: str) -> str:
    """`asked` less the measures `text` gives a figure of in their unit."""
    return " ".join(word for word in asked.split()
                    if not ((unit := _UNITS.get(word.lower())) and re.search(unit, text, re.IGNORECASE)))


def attribute(question: str) -> str | None:
    """The attribute a copular question asks for, or None: "How much is the add-on of Heron S1?" -> "add-on"."""
    match = _COPULAR.match(question)
    if match is None:
        return None
    words = [word for word in match.group(1).split()
             if word.lower() not in _GENERIC and not in_closed_set(word)]
    return " ".join(words) or None


def unspoken(question: str, quotes: Sequence[tuple[str, EvidenceChunk]]) -> str | None:
    """The attribute the question asks for when the quotes do not speak of it (in their words, section headings,
    documents' titles or names), or None."""
    asked = attribute(question)
    if asked is None or not quotes:
        return None
    around = "\n".join(f"{sentence}\n{anchors.read_under(chunk)}" for sentence, chunk in quotes)
    wanted = matching.question(_measured(asked, around))
    if not wanted.terms:
        return None
    return None if wanted.credits_in(around).keys() >= wanted.terms else asked
