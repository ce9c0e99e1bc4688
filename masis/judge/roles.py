"""Roles: a quote that says the question's name where the question's answer goes answers the question turned round.

"Who did King Charles III swear fealty to?" asks whom the king swore to; "Rollo … agreed to swear fealty to King
Charles III" says who swore to the king. "Which service does Envoy forward requests to?" is not answered by "the load
balancer forwards requests to Envoy". Every word of the question is in such a quote, so the words cannot tell; where
the name stands can. The question names the doer before its verb ("did King Charles III swear", "does Envoy
forward"); a quote that names it only after that verb, and not as the doer of a passive ("… sworn by King Charles
III"), has it as the one the verb is done to.
"""

from __future__ import annotations

from collections.abc import Sequence

from masis.judge.mentions import DO_MODALS, WH_WORDS
from masis.judge.support import answering
from masis.judge.swaps import is_name, stem, tokens

_REACH = 5  # how many words after its verb the name may stand to be the one the verb is done to ("swear fealty to")


def _name_end(words: list[str], start: int) -> int:
    """The index after the run of capitalised words (a name: "King Charles III") that starts at `start`."""
    end = start
    while end < len(words) and (is_name(words[end]) or (words[end].isupper() and len(words[end]) <= 4)):
        end += 1
    return end


def _doer_and_verb(question: str) -> tuple[list[str], str] | None:
    """The name a "wh- did/does NAME VERB …?" question gives as the doer, and its verb; None for other questions."""
    words = tokens(question)
    if len(words) < 4 or words[0].lower() not in WH_WORDS:
        return None
    # "Who did …", or "What service does …" (a wh-word and its noun)
    aux = next((i for i in (1, 2) if words[i].lower() in DO_MODALS), None)
    if aux is None:
        return None
    end = _name_end(words, aux + 1)
    if end == aux + 1 or end >= len(words) or not stem(words[end]):
        return None
    return words[aux + 1 : end], words[end]


def _at(words: list[str], name: list[str]) -> list[int]:
    wanted = [word.lower() for word in name]
    lowered = [word.lower() for word in words]
    return [i for i in range(len(words) - len(name) + 1) if lowered[i : i + len(name)] == wanted]


def reversed_role(question: str, quotes: Sequence[str]) -> tuple[str, str] | None:
    """(the question's doer, its verb) when an answering quote (`support.answering`) says that verb and names the
    doer only after it, as the one it is done to; None otherwise."""
    asked = _doer_and_verb(question)
    if asked is None or not quotes:
        return None
    name, verb = asked
    verb_stem = stem(verb)
    for quote in answering(question, list(quotes)):
        words = tokens(quote)
        names = _at(words, name)
        verbs = [i for i, word in enumerate(words) if stem(word) == verb_stem]
        if not names or not verbs or any(n < v for n in names for v in verbs):
            continue
        if any(0 < n - v <= _REACH and "by" not in {w.lower() for w in words[v:n]} for n in names for v in verbs):
            return " ".join(name), verb
    return None
