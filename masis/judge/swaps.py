"""Swapped names: a quote that says the question's words about another name answers another question.

"Who runs the Santiago office?" is not answered by "Ana Ruiz runs the Oslo office", even when the staff list
names Santiago two rows down; "What did Toyota rebrand its Forte as?" is not answered by "Mitsubishi rebranded
its Forte as the Dodge D-50", "Minister Robert Dinwiddie" is not "Governor Robert Dinwiddie". The name the
question gives stands beside a word of it ("Santiago office", "Toyota rebrand"); when the quote holds that word
with another name in the name's place, and not the question's name, the quote is about the other one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from masis.judge.anchors import NOT_NAMES, holds
from masis.judge.support import answering
from masis.judge.terms import terms

_TOKEN = re.compile(r"[A-Za-z0-9](?:[\w&.-]*\w)?(?:['’]s)?")
_CONTEXT = 2  # a name's neighbour: the next word of content, after at most one stop word ("TRANSPAC and TYMNET")


@lru_cache(maxsize=4096)
def _stem(word: str) -> frozenset[int]:
    return terms(word)


def _tokens(text: str) -> list[str]:
    return [re.sub(r"['’]s$", "", token) for token in _TOKEN.findall(text)]


def _is_name(token: str) -> bool:
    return token[:1].isupper() and token.lower() not in NOT_NAMES and bool(_stem(token))


def _same(have: str, wanted: str) -> bool:
    if have.lower() == wanted.lower():
        return True
    stem = _stem(wanted)
    return bool(stem) and _stem(have) == stem


def _context(tokens: list[str], index: int, step: int) -> list[str]:
    """The words beside tokens[index] in direction `step`, up to and with the first word of content."""
    found: list[str] = []
    position = index + step
    while 0 <= position < len(tokens) and len(found) < _CONTEXT:
        found.append(tokens[position])
        if _stem(tokens[position]):
            return found
        position += step
    return []


def _in_place(quote: list[str], context: list[str], step: int) -> list[str]:
    """The quote's words that stand where the question's name stands: before (step 1) or after (step -1) the
    question's context words."""
    found: list[str] = []
    for start in range(len(quote)):
        positions = [start + step * offset for offset in range(len(context))]
        if not all(0 <= p < len(quote) and _same(quote[p], word) for p, word in zip(positions, context, strict=True)):
            continue
        slot = start - step
        if 0 <= slot < len(quote):
            found.append(quote[slot])
        # the passive names the doer after the verb: "Telstra started …" / "Started by Telecom Australia"
        after = start + len(context)
        if step == 1 and len(context) == 1 and after + 1 < len(quote) and quote[after].lower() == "by":
            found.append(quote[after + 1 + (quote[after + 1].lower() == "the" and after + 2 < len(quote))])
    return found


def swapped(question: str, quotes: Sequence[str]) -> list[tuple[str, str]]:
    """(question's name, the quote's name in its place) for each name of the question that an answering quote
    (`support.answering`) without it replaces by another name beside the same words, and that no quote holds
    beside them."""
    leading = answering(question, list(quotes)) if quotes else []
    asked = _tokens(question)
    asked_lower = {token.lower() for token in asked}
    said = [(quote, _tokens(quote)) for quote in quotes]
    found: list[tuple[str, str]] = []
    for index, name in enumerate(asked):
        if not _is_name(name) or any(char.isdigit() for char in name):
            continue  # a model or version ("Heron S1") is the anchor floor's: "Heron Care" is not its swap
        for step in (1, -1):
            context = _context(asked, index, step)
            if not context:
                continue
            in_place = [(quote, _in_place(tokens, context, step)) for quote, tokens in said]
            if any(_same(word, name) for _, words in in_place for word in words):
                continue
            for quote, words in in_place:
                if quote not in leading or holds(quote, name):
                    continue
                for other in words:
                    if (_is_name(other) and other.lower() not in asked_lower and not holds(other, name)
                            and (name, other) not in found):
                        found.append((name, other))
    return found
