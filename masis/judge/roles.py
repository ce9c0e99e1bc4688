"""Roles: a quote that puts the question's names on the other sides of its verb answers the question turned round.

"Who did King Charles III swear fealty to?" asks whom the king swore to; "Rollo … agreed to swear fealty to King
Charles III" says who swore to the king. "What Frank led Norman forces?" is not answered by "A Norman named Oursel
led a force of Franks", nor "Which service does Envoy forward requests to?" by "the load balancer forwards requests
to Envoy". Every word of the question is in such a quote, so the words cannot tell; where the names stand can:

- a "wh- did/does NAME VERB …?" question names the doer before its verb; a quote that names it only after that verb,
  and not as the doer of a passive ("… sworn by King Charles III"), has it as the one the verb is done to;
- a question with a name on each side of its verb ("Frank led Norman") reads them as doer and done-to; a quote with
  the second before the verb and the first after it (not after "by") has them the other way round;
- a passive question ("NSF was engineered and operated by who?") names the one done to before its verb; a quote
  that names it only after the verb and after a "by" ("… was engineered and operated by MCI … with the NSF") does
  not say it was; a "Who VERBed NAME?" question names the one done to after its verb, and a quote that names it
  only after a "by" ("The conquest of Cyprus by the Anglo-Norman forces") has it as the doer.
"""

from __future__ import annotations

from collections.abc import Sequence

from masis.judge.mentions import AUXILIARIES, DO_MODALS, WH_WORDS
from masis.judge.support import answering
from masis.judge.swaps import is_name, stem, tokens

_SUBJECT_PRONOUNS = frozenset({"he", "she", "they", "it", "we"})
_REACH = 5  # how many words after its verb the name may stand to be the one the verb is done to ("swear fealty to")


def _name_end(words: list[str], start: int) -> int:
    """The index after the run of capitalised words (a name: "King Charles III") that starts at `start`."""
    end = start
    while end < len(words) and (is_name(words[end]) or (words[end].isupper() and len(words[end]) <= 4)):
        end += 1
    return end


def _is_verb_like(word: str) -> bool:
    """A lower-case word of content: what can be a question's verb ("swear", "led"), not "2.39" or "Envoy"."""
    return word.isalpha() and word.islower() and bool(stem(word)) and word not in AUXILIARIES


def _doer_and_verb(words: list[str]) -> tuple[list[str], str] | None:
    """The name a "wh- did/does NAME VERB …?" question gives as the doer, and its verb; None for other questions."""
    aux = next((i for i in (1, 2) if words[i].lower() in DO_MODALS), None)
    if aux is None:
        return None
    end = _name_end(words, aux + 1)
    if end == aux + 1 or end >= len(words) or not _is_verb_like(words[end]):
        return None
    return words[aux + 1 : end], words[end]


_DETERMINERS = frozenset({"the", "a", "an"})


def _names_around_verb(words: list[str]) -> tuple[str, str, str] | None:
    """(doer, verb, done-to) of a question whose first verb stands between two names ("What Frank led Norman
    forces?", a determiner allowed before the second); None for other questions ("Which Debian release ships Python
    3.11?": "release" is followed by no name)."""
    index = next((i for i, word in enumerate(words[1:], start=1) if not word[:1].isupper()), None)
    if index is None or index + 1 >= len(words) or not _is_verb_like(words[index]) or not is_name(words[index - 1]):
        return None
    after = index + 1 + (words[index + 1].lower() in _DETERMINERS)
    if after >= len(words) or not is_name(words[after]):
        return None
    return words[index - 1], words[index], words[after]


def _at(words: list[str], name: list[str]) -> list[int]:
    wanted = [word.lower() for word in name]
    lowered = [word.lower() for word in words]
    return [i for i in range(len(words) - len(name) + 1) if lowered[i : i + len(name)] == wanted]


def _by_between(words: list[str], start: int, end: int) -> bool:
    return "by" in {word.lower() for word in words[start:end]}


def _done_to(words: list[str], name: list[str], verb_stem: frozenset[int]) -> bool:
    """Whether `words` name `name` only after the verb, within reach and not after "by": the one it is done to. A
    sentence whose subject is a pronoun and that names `name` after its verb ("He called it packet switching, a more
    accessible name than Baran's") has someone else as that pronoun, however far the name stands."""
    names = _at(words, name)
    verbs = [i for i, word in enumerate(words) if stem(word) == verb_stem]
    if not names or not verbs or any(n < v for n in names for v in verbs):
        return False
    reach = len(words) if words[0].lower() in _SUBJECT_PRONOUNS else _REACH
    return any(0 < n - v <= reach and not _by_between(words, v, n) for n in names for v in verbs)


def _turned_round(words: list[str], doer: str, verb_stem: frozenset[int], done_to: str) -> bool:
    """Whether `words` put `done_to` before the verb and `doer` after it (not after "by"), and never the other way."""
    verbs = [i for i, word in enumerate(words) if stem(word) == verb_stem]
    doers = [i for i, word in enumerate(words) if stem(word) == stem(doer)]
    objects = [i for i, word in enumerate(words) if stem(word) == stem(done_to)]
    if not verbs or not doers or not objects:
        return False
    if any(d < v for d in doers for v in verbs) or any(o > v for o in objects for v in verbs):
        return False
    return not any(_by_between(words, v, d) for d in doers for v in verbs)


_PASSIVE_BE = {"is", "are", "was", "were"}
_BY_REACH = 3  # words between "by" and the name it names as the doer ("by the Anglo-Norman forces")


def _asked_done_to(words: list[str]) -> tuple[str, str] | None:
    """The name a "Who VERBed NAME …?" question gives as the one done to, and its verb ("Who defeated Anglo-Norman
    forces …?" -> ("Anglo-Norman", "defeated")); None for other questions."""
    if words[0].lower() not in {"who", "what", "which"} or not words[1].lower().endswith("ed"):
        return None
    name = next((word for word in words[2:5] if is_name(word)), None)
    return (name, words[1]) if name and stem(words[1]) else None


def _named_as_doer(words: list[str], name: str) -> bool:
    """Whether every mention of `name` in `words` follows a "by" (within a few words): the doer."""
    spots = [i for i, word in enumerate(words) if stem(word) == stem(name)]
    return bool(spots) and all(_by_between(words, max(0, i - _BY_REACH), i) for i in spots)


def _passive_subject_and_verb(words: list[str]) -> tuple[list[str], str] | None:
    """The name a passive question gives as the one done to, and its verb: "NSF was engineered and operated by who?"
    -> (["NSF"], "engineered"); None for other questions."""
    if words[-1].lower() not in {"who", "whom", "what", "which"} or len(words) < 5 or words[-2].lower() != "by":
        return None
    end = _name_end(words, 0)
    if end == 0 or end + 1 >= len(words) or words[end].lower() not in _PASSIVE_BE or not stem(words[end + 1]):
        return None
    return words[:end], words[end + 1]


def _passive_doer(words: list[str], name: list[str], verb_stem: frozenset[int]) -> bool:
    """Whether `words` name `name` only after the verb and after a "by" that follows it: the doer, not the one done
    to."""
    names = _at(words, name)
    verbs = [i for i, word in enumerate(words) if stem(word) == verb_stem]
    if not names or not verbs or any(n < v for n in names for v in verbs):
        return False
    return all(_by_between(words, v, n) for n in names for v in verbs if v < n)


def reversed_role(question: str, quotes: Sequence[str]) -> tuple[str, str] | None:
    """(the question's doer, or the one done to in a passive question, and its verb) when an answering quote
    (`support.answering`) has that name on the other side of the verb; None otherwise."""
    words = tokens(question)
    if len(words) < 4 or not quotes:
        return None
    leading = [tokens(quote) for quote in answering(question, list(quotes))]
    if (passive := _passive_subject_and_verb(words)) is not None:
        name, verb = passive
        return (" ".join(name), verb) if any(_passive_doer(said, name, stem(verb)) for said in leading) else None
    if words[0].lower() not in WH_WORDS:
        return None
    if (done_to := _asked_done_to(words)) is not None:
        name, verb = done_to
        return (name, verb) if any(_named_as_doer(said, name) for said in leading) else None
    if (asked := _doer_and_verb(words)) is not None:
        name, verb = asked
        return (" ".join(name), verb) if any(_done_to(said, name, stem(verb)) for said in leading) else None
    if (around := _names_around_verb(words)) is not None:
        doer, verb, done_to = around
        if any(_turned_round(said, doer, stem(verb), done_to) for said in leading):
            return doer, verb
    return None
