"""Contrast: a quote that says the opposite of a word of the question, or its neighbour in a closed set, answers
another question.

"What is the minimum heap size?" is not answered by "The maximum heap size is 4 GB", nor "Which formats are
supported?" by "Unsupported formats: …", nor "What did the second release add?" by "The first release added …":
every other word matches, so the words cannot tell; the contrast can. SQuAD 2.0's adversarial questions are made
this way too ("The smallest party sits in the middle of what?" over "The largest party sits in the middle of the
semicircle", "What was the unimportance of the congress?" over "An early important political response …").

A question word contradicts a quote when the quote does not hold the word (or a synonym of its class) but holds
a word that excludes it: another class of the same closed set (ordinals, extremes, sides, periods, directions of
a change, attitudes and permissions, the usual and its exception, qualities), or the word with a negating prefix
taken off or put on ("unfocused" / "focus", "civilized" /
"uncivilized", "non-imperialism" / "imperialism").
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache

from masis.judge.answer_type import GIVEN
from masis.judge.terms import terms

# Closed sets of words that exclude each other: each set lists its classes, a class its interchangeable forms.
_SETS: tuple[tuple[tuple[str, ...], ...], ...] = (
    (("first", "1st"), ("second", "2nd"), ("third", "3rd"), ("fourth", "4th"), ("fifth", "5th"),
     ("last", "final")),
    (("largest", "biggest"), ("smallest",)),
    (("larger", "bigger", "greater"), ("smaller", "lesser")),
    (("highest",), ("lowest",)),
    (("higher",), ("lower",)),
    (("most",), ("least", "fewest")),
    (("more",), ("less", "fewer")),
    (("maximum", "max", "maximal"), ("minimum", "minimal"), ("recommended", "suggested")),
    (("earliest",), ("latest",)),
    (("oldest",), ("newest", "youngest")),
    (("older",), ("newer", "younger")),
    (("public",), ("private",)),
    (("internal",), ("external",)),
    (("inside", "inner"), ("outside", "outer")),
    (("inbound", "incoming"), ("outbound", "outgoing")),
    (("input", "inputs"), ("output", "outputs")),
    (("upper",), ("lower",)),
    (("north", "northern"), ("south", "southern")),
    (("east", "eastern"), ("west", "western")),
    (("daily",), ("weekly",), ("monthly",), ("quarterly",), ("yearly", "annual", "annually")),
    (("nanosecond", "nanoseconds"), ("microsecond", "microseconds"), ("millisecond", "milliseconds")),
    (("enable", "enables", "enabled"), ("disable", "disables", "disabled")),
    (("include", "includes", "included"), ("exclude", "excludes", "excluded")),
    (("accept", "accepts", "accepted"), ("reject", "rejects", "rejected")),
    (("upload", "uploads", "uploaded"), ("download", "downloads", "downloaded")),
    (("import", "imports", "imported"), ("export", "exports", "exported")),
    (("success", "successful", "succeeded"), ("failure", "unsuccessful", "failed")),
    (("increase", "increased", "increases", "rose", "grew"), ("decrease", "decreased", "decreases", "fell",
                                                                "declined", "dropped")),
    (("required", "mandatory"), ("optional",)),
    (("synchronous", "sync"), ("asynchronous", "async")),
    (("strong", "stronger", "strongest"), ("weak", "weaker", "weakest")),
    (("before",), ("after",)),
    (("start", "starts", "started", "begin", "begins", "began", "begun"),
     ("end", "ends", "ended", "stop", "stops", "stopped", "finish", "finishes", "finished")),
    (("win", "wins", "won"), ("lose", "loses", "lost")),
    (("buy", "buys", "bought"), ("sell", "sells", "sold")),
    (("gave",), ("took",)),  # not "give"/"take": "how long does it take" frames a question
    # attitudes and permissions: "What did the Chinese like?" / "Chinese physicians opposed Western medicine"
    (("like", "liked", "likes", "favored", "favoured"), ("dislike", "disliked", "dislikes", "opposed", "hated")),
    (("support", "supported", "supports"), ("oppose", "opposed", "opposes")),
    (("allow", "allows", "allowed", "permit", "permits", "permitted"),
     ("forbid", "forbids", "forbidden", "prohibit", "prohibits", "prohibited", "prevent", "prevents", "prevented")),
    # and a thing's life in a project: "In which OpenSSL version was the ENGINE API removed?" is not answered by "it is
    # deprecated in OpenSSL version 3.0" (coredocs cr-025)
    (("add", "adds", "added", "introduce", "introduces", "introduced"),
     ("deprecate", "deprecates", "deprecated"),
     ("remove", "removes", "removed", "delete", "deletes", "deleted")),
    # the usual and its exception: "How are packets irregularly forwarded?" / "Packets are normally forwarded …"
    (("regular", "regularly", "normal", "normally", "usual", "usually"),
     ("irregular", "irregularly", "abnormal", "abnormally", "unusual", "unusually")),
    # qualities and kinds
    (("high",), ("low",)),
    (("large", "big", "huge"), ("small", "tiny")),
    (("fast", "faster", "fastest"), ("slow", "slower", "slowest")),
    (("positive",), ("negative",)),
    (("true",), ("false",)),
    (("major",), ("minor",)),
    (("male", "men", "man"), ("female", "women", "woman")),
    (("domestic",), ("foreign",)),
    (("local", "locally"), ("remote", "remotely")),
    (("online",), ("offline",)),
    (("urban",), ("rural",)),
    (("modern",), ("ancient",)),
    # what a thing does now is not what it did before a change: "Previously, without min-port …, dnsmasq would default
    # to …" does not answer "what source port range does dnsmasq pick from now"
    # (not "formerly": "Where it was once the case …" answers "What were pharmacy technicians formerly limited to?")
    (("now", "currently", "nowadays"), ("previously",)),
    (("ally", "allies", "allied"), ("enemy", "enemies")),
    (("open", "opened", "opens"), ("closed", "shut")),
    (("strength", "strengths"), ("weakness", "weaknesses")),
    (("rich", "wealthy"), ("poor",)),
)

_WORD = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
# Negating prefixes, each with the letters its base may start with ("im" before b/m/p, "ir" before r, …).
_PREFIXES = (("non", ""), ("un", ""), ("im", "bmp"), ("ir", "r"), ("il", "l"), ("in", ""))
# "in-" negates adjectives and their nouns; other "in-" words ("inform", "install", "income") do not negate
_ADJECTIVE_ENDINGS = ("able", "ible", "ant", "ent", "al", "ive", "ect", "ete", "ate", "ity", "ance", "ence", "ous",
                      "id", "ar", "ly")
# a prefix and a base that only look like a negation
_NOT_NEGATIONS = frozenset({"immigrant", "immigrants", "incorporate", "incorporated", "invaluable", "inflammable"})
_MIN_BASE = 5
# "non-" written with its hyphen negates whatever follows: "non-cone mode" is not the cone mode (holdoutdocs hd-023),
# "a non-last filter" is not the last one (conversation cv-408#3), where "unit", "uncle" or "none" only look negated
_MIN_HYPHENED_BASE = 3


_IN_SETS = frozenset(word for closed in _SETS for kind in closed for word in kind)


def in_closed_set(word: str) -> bool:
    """Whether `word` is one of the closed sets' words ("lowest", "maximum", "first", "recommended"): a qualifier
    whose opposite this module reads, not a thing a quote must name."""
    return word.lower() in _IN_SETS


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


@lru_cache(maxsize=4096)
def _stem(word: str) -> frozenset[int]:
    return terms(word)


def _negated_base(word: str) -> str | None:
    """The word a negating prefix was put on: "unfocused" -> "focused", "non-imperialism" -> "imperialism"."""
    if word in _NOT_NEGATIONS:
        return None
    shortest = _MIN_HYPHENED_BASE if word.startswith("non-") else _MIN_BASE
    for prefix, starts in _PREFIXES:
        base = word[len(prefix) :].lstrip("-")
        if not word.startswith(prefix) or len(base) < shortest or (starts and base[0] not in starts):
            continue
        if prefix in ("in", "im", "ir", "il") and not base.endswith(_ADJECTIVE_ENDINGS):
            continue
        return base
    return None


# "un-" and "non-" words that negate nothing
_NOT_NEGATING = re.compile(r"^(?:univers|under|unanim|unif|union|unison|nonetheless)")


# an identifier, whose parts negate nothing of the sentence: "TRANS_NONBLOCKING", "O_NONBLOCK", "UNSET_VAR"
_IDENTIFIER = re.compile(r"[\w$]*_[\w$]*|\b[A-Z][A-Z0-9]{2,}\b")


def negating_prefix(text: str) -> bool:
    """Whether `text` holds an "un-" or "non-" word that negates ("unsupported", "non-binding", "noninvolvement"),
    not as part of an identifier ("TRANS_NONBLOCKING"). "in-" words are left out: without a dictionary "influence"
    and "internal" look like negations."""
    return any(
        word.startswith(("un", "non")) and _negated_base(word) and not _NOT_NEGATING.match(word)
        for word in _words(_IDENTIFIER.sub(" ", text))
    )


def _stems(words: Iterable[str]) -> set[frozenset[int]]:
    """The stems of `words`, less those of a word "non-" negates: the terms of "non-cone" are "cone"'s."""
    return {_stem(word) for word in words if not (word.startswith("non-") and _negated_base(word))}


def _holds(words: set[str], stems: set[frozenset[int]], word: str) -> bool:
    """Whether the text of `words` (and their `stems`) holds `word`, a form of its stem or of its class."""
    stem = _stem(word) if "-" not in word else None  # "non-binding" is not its stem "bind"
    if word in words or (stem and stem in stems):
        return True
    return any(form in words for classes in _SETS for c in classes if word in c for form in c)


def contrasts(question: str, quote: str) -> list[tuple[str, str]]:
    """(question word, quote word) pairs where the quote lacks the question's word and says what excludes it."""
    return list(_contrasts(question, quote))


# "How long does sshd wait … before disconnecting?" is answered by "The server disconnects after this time": a wait
# before something is the time after which it happens
_ASKS_WAIT = re.compile(r"\bhow\s+long\b|\bwait(?:s|ed|ing)?\b", re.IGNORECASE)
_WAIT_WORDS = frozenset({"before", "after"})


@lru_cache(maxsize=4096)  # each round's audit reads again the quotes of the drafts before it
def _contrasts(question: str, quote: str) -> tuple[tuple[str, str], ...]:
    asked, said = _words(question), _words(quote)
    if _ASKS_WAIT.search(question):
        asked = [word for word in asked if word not in _WAIT_WORDS]
    said_set, asked_set = set(said), set(asked)
    said_stems, asked_stems = _stems(said), _stems(asked)
    found: list[tuple[str, str]] = []
    for word in dict.fromkeys(asked):
        if _holds(said_set, said_stems, word):
            continue
        for classes in _SETS:
            own = next((c for c in classes if word in c), None)
            if own is None:
                continue
            other = next((form for c in classes if c is not own for form in c if form in said_set), None)
            if other:
                found.append((word, other))
        base = _negated_base(word)
        if base and _holds(said_set, said_stems, base):
            found.append((word, base))
    for word in dict.fromkeys(said):  # the quote negates a word of the question: "uncivilized" for "civilized"
        base = _negated_base(word)
        if base and not _holds(asked_set, asked_stems, word) and _holds(asked_set, asked_stems, base):
            found.append((base, word))
    return tuple(found)


# a condition on a setting: "when --upgrade is given", "if the flag is not set"
_CONDITION = re.compile(
    r"\b(?:when|if|unless)\s+(?P<subject>[^?,;.]{1,40}?)\s+(?:is|are)\s+(?P<not>not\s+)?"
    rf"(?P<verb>{GIVEN}|used|enabled|present)\b",
    re.IGNORECASE,
)


# a mode a thing runs in: "in Batch mode", "when not in batch mode"; "whether or not in Batch mode" is either
_MODE = re.compile(
    r"\b(?P<either>or\s+not\s+)?(?P<not>not\s+)?in\s+(?P<subject>[A-Za-z][\w-]*(?:\s+[A-Za-z][\w-]*)?)\s+mode\b",
    re.IGNORECASE)


def _conditions(text: str) -> list[tuple[set[str], bool, str]]:
    """The text's conditions on a setting: (its subject's words, whether it is negated, the condition's words); and
    the modes it is said in."""
    return [
        (_subject_words(found), bool(found.group("not")),
         " ".join(found.group(0).split()[-2 if not found.group("not") else -3 :]))
        for found in _CONDITION.finditer(text)
    ] + [
        (_subject_words(found), bool(found.group("not")), " ".join(found.group(0).split()))
        for found in _MODE.finditer(text)
        if not found.group("either")
    ]


def _subject_words(found: re.Match[str]) -> set[str]:
    """The words of a condition's subject that name it, less articles and the kind of setting it is."""
    return {w for w in _words(found.group("subject")) if w not in _CONDITION_NOISE}


_CONDITION_NOISE = frozenset({"the", "a", "an", "option", "flag", "argument", "setting", "it", "this", "that"})


def flipped_condition(question: str, quotes: Sequence[str]) -> tuple[str, str] | None:
    """(the question's condition, the quotes' opposite) when the question asks under a condition that a setting is
    given ("Which default does --upgrade-strategy take when --upgrade is given?") and the quotes say it only of the
    setting not given ("… the "default" upgrade strategy when --upgrade is not set"): they answer the other case. A
    mode too: "… top -w allows in batch mode" is not answered by what holds "when not in Batch mode"."""
    asked = [(subject, words) for subject, negated, words in _conditions(question) if subject and not negated]
    said = [condition for quote in quotes for condition in _conditions(quote)]
    for subject, words in asked:
        about = [(negated, quoted) for quoted_subject, negated, quoted in said if subject & quoted_subject]
        if about and all(negated for negated, _ in about):
            return words, about[0][1]
    return None


def contradicted(question: str, quotes: Sequence[str]) -> list[tuple[str, str]]:
    """The contrasts of the answer's quotes with the question, less those whose question word a quote holds; and a
    condition the quotes turn around (`flipped_condition`)."""
    joined = " ".join(quotes)
    words = set(_words(joined))
    stems = _stems(words)
    found = [pair for quote in quotes for pair in contrasts(question, quote) if not _holds(words, stems, pair[0])]
    if (flipped := flipped_condition(question, quotes)) is not None:
        found.append(flipped)
    return list(dict.fromkeys(found))
