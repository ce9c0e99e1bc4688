"""Unsettled values: a quote that says the fact asked for is not known yet does not give it.

"What is the port format of an xtrans address for NETware?" is not answered by the table row "NETware | ipx | name
of a NETware addressable host | Not sure of the specifics yet", nor "When does the Kestrel launch?" by "Launch date:
TBD", nor "What's new in Zip 2.4?" by "Zip 2.4 was never released": the documents cover the topic and say that the
fact is open. That is a near miss, asked back with the document's own words, not an answer at full confidence.

The quote read is the one about what the question names: a quote holding every anchor of the question (a name, a
version, a code) when one does, else those saying most of its words (`support.answering`); and it must share a word
of what is asked beside the anchors ("it is unknown which of them was Shi Tianze's mother" leaves no father open).
Every such quote must leave the fact open: one that states it answers, whatever a quote beside it leaves open.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from masis.judge import anchors
from masis.judge.support import answering
from masis.judge.terms import question_terms, terms

_UNSETTLED = re.compile(
    r"\b(?:not\s+sure|unsure|tbd|tbc|to\s+be\s+(?:decided|determined|confirmed|announced|defined)"
    r"|not\s+(?:yet\s+)?(?:decided|determined|known|settled|finali[sz]ed|confirmed)"
    r"|(?:is|are|remains?|still)\s+(?:unknown|undecided)|never\s+(?:been\s+)?released)\b",
    re.IGNORECASE,
)

# "`root` will be used if `dir` is not known": a condition on the open state states no fact as open
_CONDITION = re.compile(r"\b(?:if|when|whenever|unless|whether|until|once)\b(?:(?![.;:]).)*$", re.IGNORECASE)


def unsettled(question: str, quotes: Sequence[str]) -> str | None:
    """The words by which the quotes about the question's subject say its fact is open ("Not sure", "TBD", "never
    released"), when every one of them does; None otherwise, or when the question asks about the open state itself
    ("Is the launch date still TBD?")."""
    if not quotes or _UNSETTLED.search(question):
        return None
    wanted = anchors.anchors(question)
    about = [quote for quote in quotes if wanted and all(anchors.holds(quote, anchor) for anchor in wanted)]
    # and it speaks of what is asked about them: "it is unknown which of them was Shi Tianze's mother" leaves his
    # mother open, not the father asked for
    asked = question_terms(question) - terms(" ".join(wanted))
    speaking = [quote for quote in about or answering(question, list(quotes)) if asked & terms(quote)]
    # every such quote leaves it open: "Members of the genus Dinophysis have a … chloroplast taken from a
    # cryptophyte" answers where they come from, beside "it is possible (but not confirmed) that …"
    said = [_open_words(quote) for quote in speaking]
    return said[0] if said and all(said) else None


def _open_words(quote: str) -> str | None:
    for found in _UNSETTLED.finditer(quote):
        if not _CONDITION.search(quote[: found.start()]):
            return found.group(0)
    return None
