"""Mentions: the things a question names (a product, a version, a period, a setting) and the phrase it is about.

A follow-up in a thread refers back to them ("How much will it cost?" after "When does the Falcon X2 launch?"),
so `masis.judge.reading` needs, for an earlier question, what it named and in what shape: "Falcon X2" (a name),
"Q3 2026" (a period), "22.04" (a version), "--depth" (a flag), "fetch-retries" (an identifier). Word-level rules
only: no tagger, no model.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from masis.judge.anchors import anchors

# Edge punctuation of a written word; brackets stay on an identifier ("parse()").
_EDGE = "?!,;:\"“”‘’«»*`"
_POSSESSIVE = re.compile(r"['’]s$")
_PERIOD_WORD = re.compile(r"^(?:Q[1-4]|H[12]|FY\d{2,4}|(?:19|20)\d\d)$", re.IGNORECASE)
VERSION_WORD = re.compile(r"^v?\d+(?:\.\d+)*$", re.IGNORECASE)
_QUANTITY = re.compile(r"^\d+(?:[.,]\d+)?-?(?:day|week|month|year|hour|minute|inch|gb|tb|mb|kg|g)s?$", re.IGNORECASE)
_IDENTIFIER = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+){2,}$|^[a-z]+-[a-z]+s$|[a-z][A-Z]|_|\w\.\w|\(\)$")
_FLAG = re.compile(r"^(?:--?|\+)[A-Za-z][\w-]*(?:=\S*)?$")
def word_set(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Words that start a question or frame it: never the start of what it is about.
WH_WORDS = word_set("what which who whom whose when where why how")
AUXILIARIES = word_set(
    "is are was were be been being am do does did will would can could shall should may might must has have had")
DO_MODALS = word_set("do does did will would can could shall should may might must")
DETERMINERS = word_set("the a an this that these those my our your their its his her")
PREPOSITIONS = word_set(
    "of in on at for to from by with about into onto over under during before after between within without "
    "per via across through since until than as")
CONJUNCTIONS = word_set("and or but nor so if because while whereas although though")
# Words after "how" that ask for a measure ("how much", "how long"): part of the question's frame.
MEASURE_WORDS = word_set(
    "much many long large big small often quickly fast old far high heavy soon well good bad deep wide")
# Units a figure is written with: "256 GB", "5,000 mAh" size a thing, they do not name it.
UNITS = word_set("gb mb tb kb mah kg ghz mhz mm cm nits")
_STOPS = WH_WORDS | AUXILIARIES | PREPOSITIONS | CONJUNCTIONS


@dataclass(frozen=True)
class Token:
    text: str  # the word as written, edge punctuation and a possessive dropped
    start: int  # where the raw word starts in the text
    end: int  # where the raw word ends (after its punctuation)
    possessive: bool = False

    @property
    def lower(self) -> str:
        return self.text.lower()


def tokens(text: str) -> list[Token]:
    """The words of `text`, each as written and where it is."""
    found = []
    for match in re.finditer(r"\S+", text):
        raw = match.group(0)
        core = raw.strip(_EDGE)
        if core.endswith(")") and "(" not in core:
            core = core[:-1]
        if core.startswith("(") and ")" not in core:
            core = core[1:]
        core = core.rstrip(".") if not VERSION_WORD.match(core) else core
        possessive = bool(_POSSESSIVE.search(core))
        core = _POSSESSIVE.sub("", core)
        if core:
            found.append(Token(core, match.start(), match.end(), possessive))
    return found


@dataclass(frozen=True)
class Mention:
    """A run of words naming one thing, and its shape: name, period, version, flag or identifier."""

    text: str
    kind: str
    first: int  # index of its first token
    last: int  # index of its last token
    possessive: bool = False

    def same_shape(self, other: Mention) -> bool:
        return self.kind == other.kind


def kind_of(words: list[str]) -> str:
    """The shape of a mention from its words."""
    if all(_PERIOD_WORD.match(w) for w in words):
        return "period"
    if len(words) == 1:
        word = words[0]
        if _FLAG.match(word):
            return "flag"
        if VERSION_WORD.match(word):
            return "version"
        if _IDENTIFIER.search(word) and not word[:1].isupper():
            return "identifier"
    return "name"


def mentions(text: str) -> list[Mention]:
    """What `text` names: runs of anchor words (masis.judge.anchors), "University of Leeds" joined over its "of",
    and lower-case identifiers such as "fetch-retries"; periods ("Q3 2026") kept whole. First seen first."""
    words = tokens(text)
    marked = set(anchors(text))
    named = [
        (w.text in marked or bool(_IDENTIFIER.search(w.text)) or bool(_FLAG.match(w.text)))
        and not _QUANTITY.match(w.text)
        and w.lower not in _STOPS | UNITS
        and not (i + 1 < len(words) and words[i + 1].lower in UNITS and w.text[:1].isdigit())
        for i, w in enumerate(words)
    ]
    found: list[Mention] = []
    index = 0
    while index < len(words):
        if not named[index]:
            index += 1
            continue
        last = index
        while not words[last].possessive and last + 1 < len(words):
            if named[last + 1] and _joins(words[last], words[last + 1]):
                last += 1
            elif (
                words[last + 1].lower == "of"
                and last + 2 < len(words)
                and named[last + 2]
                and words[last].text[:1].isupper()
                and words[last + 2].text[:1].isupper()
            ):
                last += 2
            else:
                break
        run = [w.text for w in words[index : last + 1]]
        found.append(Mention(" ".join(run), kind_of(run), index, last, words[last].possessive))
        index = last + 1
    return found


def _joins(left: Token, right: Token) -> bool:
    """Whether two adjacent named words are one name: not across punctuation, and a period joins a period only
    ("Q3 2026", but not "FY2026 Falcon")."""
    if left.end != right.start - 1:
        return False
    gap_punctuation = left.text != _POSSESSIVE.sub("", left.text) or left.possessive
    if gap_punctuation:
        return False
    left_period, right_period = bool(_PERIOD_WORD.match(left.text)), bool(_PERIOD_WORD.match(right.text))
    if left_period or right_period:
        return left_period and right_period
    return not (_FLAG.match(left.text) or _FLAG.match(right.text))


def coordinated(text: str) -> list[Mention]:
    """Two or more mentions of one shape joined by "and", "or" or commas ("the Falcon X2 and the Heron S1", "in
    Engineering and in Sales", "Q1 2027 and Q2 2027"): the things a singular "it" after it could mean. Empty
    when the text joins none."""
    words = tokens(text)
    found = mentions(text)
    for index, mention in enumerate(found):
        group = [mention]
        for later in found[index + 1 :]:
            between = [w.lower for w in words[group[-1].last + 1 : later.first]]
            joiners = [w for w in between if w not in DETERMINERS and w not in PREPOSITIONS]
            joined = joiners or _comma_after(text, words[group[-1].last])
            if joiners in (["and"], ["or"], []) and len(between) <= 3 and later.same_shape(group[-1]) and joined:
                group.append(later)
                continue
            break
        if len(group) >= 2:
            return group
    return []


def _comma_after(text: str, word: Token) -> bool:
    return text[word.start : word.end].rstrip().endswith(",")


def phrase(words: list[Token], first: int, last: int, text: str) -> str:
    """The text of words `first`..`last` as written (punctuation inside kept, the edges' dropped)."""
    chunk = text[words[first].start : words[last].end]
    return chunk.rstrip(_EDGE + ".").lstrip(_EDGE)
