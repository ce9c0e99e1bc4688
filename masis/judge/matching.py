"""How much of a question a text covers, term by term.

A question term is matched in full by the same stem ("revenues" ~ "revenue"). The stemmer keeps apart
words a reader takes for one ("acquiring" ~ "acquisition", "publish" ~ "publication") and cannot see
through a typo ("charecterized" ~ "characterized"), so a word of the text that is *related* to the
question's word matches it in part (`RELATED_CREDIT`):

- a derived form: once a derivational ending is taken off each ("acquir|ing", "acquis|ition"), the roots
  share their first `MIN_PREFIX` letters, and all but at most one letter of the shorter root
  ("committ|ee" and "commission|er" share too little: they are different words);
- a misspelling: words of `MIN_TYPO_LENGTH` letters or more, one edit apart (two for long words), with
  the same first letter.

Another form of an irregular verb matches in full ("begun" for "began", "written" for "wrote":
`masis.judge.irregular`), as a stem does, and so does the one word documents use for a question's phrasal verb
("disable" for the "turn" of "turn it off": `masis.judge.terms.alternatives`).

A question term the passage lacks but its document holds elsewhere (the company's name in the minutes'
first line, the report's period in its title) matches in part too (`DOCUMENT_CREDIT`): a passage is read
in its document.

Partial credit keeps a question whose every word has only a look-alike in the text below a question
whose words are there.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from functools import lru_cache

from masis.judge.irregular import other_forms
from masis.judge.sentences import KEPT_TEXT_MAX
from masis.judge.terms import alternatives, question_terms, terms

RELATED_CREDIT = 0.6
DOCUMENT_CREDIT = 0.7
MIN_PREFIX = 5
MIN_TYPO_LENGTH = 6
LONG_WORD = 9  # from this length on, two edits still make a misspelling

_LETTERS = re.compile(r"[^\W\d_]+")
_LONG_WORD = re.compile(rf"[^\W\d_]{{{MIN_PREFIX},}}")
# the same words in ASCII text (there, a letter is a-z once lower-cased), matched in half the time
_LONG_ASCII_WORD = re.compile(rf"[a-z]{{{MIN_PREFIX},}}")


@dataclass(frozen=True, eq=False)  # compared and hashed as itself: `question` makes one per text, `_credits` keys on it
class Question:
    """The terms a question is about, each with the words the user wrote it as."""

    terms: frozenset[int]
    surface: Mapping[int, tuple[str, ...]]
    # a term a text matches in full by another word: "turn" of "turn it off" by "disable" (`terms.alternatives`)
    alternatives: Mapping[int, frozenset[int]] = field(default_factory=dict)

    def credits(
        self, text_terms: frozenset[int], text_words: frozenset[str], document_terms: AbstractSet[int] = frozenset()
    ) -> dict[int, float]:
        """Each question term the text matches, with its credit: 1.0 for the same stem, `RELATED_CREDIT`
        for a related word, `DOCUMENT_CREDIT` for a term only the text's document holds. Terms the text
        does not match are left out."""
        return dict(_credits(self, text_terms, text_words, frozenset(document_terms)))

    def credits_in(self, text: str, document_terms: AbstractSet[int] = frozenset()) -> dict[int, float]:
        return self.credits(terms(text), words(text), document_terms)


@lru_cache(maxsize=4096)  # an ask scores each passage, sentence and claim against its question again and again
def _credits(
    asked: Question, text_terms: frozenset[int], text_words: frozenset[str], document_terms: frozenset[int]
) -> tuple[tuple[int, float], ...]:
    found: dict[int, float] = {}
    for term in asked.terms:
        if term in text_terms:
            found[term] = 1.0
            continue
        surface = asked.surface.get(term, ())
        if asked.alternatives.get(term, frozenset()) & text_terms:
            found[term] = 1.0  # "turn ... off" said "disable"
            continue
        if any(_verb_form_terms(word) & text_terms for word in surface):
            found[term] = 1.0  # another form of an irregular verb: "begun" for "began"
            continue
        # `related` asks for the same first letter: the others cannot be
        if any(related(word, other) for word in surface for other in _by_first_letter(text_words).get(word[0], ())):
            found[term] = RELATED_CREDIT
        elif any(_in_code(word, text_words) for word in surface):
            found[term] = 1.0
        elif term in document_terms:
            found[term] = DOCUMENT_CREDIT
    return tuple(found.items())


@lru_cache(maxsize=1024)
def _verb_form_terms(word: str) -> frozenset[int]:
    """The terms of the other forms of the irregular verb `word` is a form of (`masis.judge.irregular`)."""
    return frozenset().union(*map(terms, other_forms(word)))


@lru_cache(maxsize=4096)  # as `_credits`: a text's words are matched against each question term the text lacks
def _by_first_letter(text_words: frozenset[str]) -> dict[str, tuple[str, ...]]:
    """The words grouped by their first letter."""
    grouped: dict[str, list[str]] = {}
    for word in text_words:
        grouped.setdefault(word[0], []).append(word)
    return {letter: tuple(words) for letter, words in grouped.items()}


@lru_cache(maxsize=512)
def question(text: str) -> Question:
    wanted = question_terms(text)
    surface: dict[int, list[str]] = {}
    for word in _LETTERS.findall(text.lower()):
        for term in terms(word) & wanted:
            surface.setdefault(term, []).append(word)
    other = {term: words for term, words in alternatives(text).items() if term in wanted}
    return Question(wanted, {term: tuple(dict.fromkeys(found)) for term, found in surface.items()}, other)


def words(text: str) -> frozenset[str]:
    """The distinct lower-case words of `text` long enough to be related to another word, and its short codes of
    letters and figures ("ip67", "usb3"), which hold their letters' word (`_in_code`)."""
    return _kept_words(text) if len(text) <= KEPT_TEXT_MAX else _read_words(text)


@lru_cache(maxsize=4096)  # an ask matches each passage, sentence and claim again and again (see KEPT_TEXT_MAX)
def _kept_words(text: str) -> frozenset[str]:
    return _read_words(text)


def _read_words(text: str) -> frozenset[str]:
    lower = text.lower()
    return frozenset((_ASCII_WORD_OR_CODE if lower.isascii() else _WORD_OR_CODE).findall(lower))


# "IP67" is an IP rating and "USB3" a USB version: a question's short word is in a code that is that word and a figure
# (BM25 reads the code as one token, unlike the word)
_CODE_LETTERS = 4  # the most letters `_CODE` starts with
_CODE = re.compile(rf"\b[a-z]{{2,{_CODE_LETTERS}}}\d{{1,4}}\b")
# A long word and a code in one pass (a quarter less time than two): they never overlap, since a code is a whole word
# of at most `_CODE_LETTERS` letters and then figures, so one scan finds what each pattern finds alone.
_ASCII_WORD_OR_CODE = re.compile(f"{_LONG_ASCII_WORD.pattern}|{_CODE.pattern}")
_WORD_OR_CODE = re.compile(f"{_LONG_WORD.pattern}|{_CODE.pattern}")




def _in_code(word: str, text_words: frozenset[str]) -> bool:
    """Whether one of `text_words` is `word` and a figure ("ip67" for "ip"); only a short word can be."""
    return len(word) <= _CODE_LETTERS and any(
        other.startswith(word) and other[len(word) :].isdigit() for other in text_words
    )


@lru_cache(maxsize=1 << 16)
def related(word: str, other: str) -> bool:
    """A derived form or a misspelling of `word` (the module's docstring has the rules). Kept for the pairs met
    recently: a passage's words are matched again for its index text, its sentences and the audit."""
    if len(word) < MIN_PREFIX or len(other) < MIN_PREFIX or word[0] != other[0]:
        return False
    root, other_root = _root(word), _root(other)
    shorter_root = min(len(root), len(other_root))
    shared = max(MIN_PREFIX, shorter_root - 1)  # the letters both roots must start with
    if shorter_root >= shared and root[:shared] == other_root[:shared]:
        return True
    shortest = min(len(word), len(other))
    if shortest < MIN_TYPO_LENGTH:
        return False
    allowed = 2 if shortest >= LONG_WORD else 1
    return (abs(len(word) - len(other)) <= allowed and _shares_a_piece(word, other, allowed)
            and _edits(word, other, allowed) <= allowed)


def _shares_a_piece(word: str, other: str, edits: int) -> bool:
    """Whether one of `edits + 1` consecutive pieces of `word` is in `other`, as it must be when `edits` edits or
    fewer turn one into the other (each edit touches at most one piece): a test in C that rules out most pairs
    before `_edits` compares them letter by letter."""
    size, extra = divmod(len(word), edits + 1)
    start = 0
    for index in range(edits + 1):
        end = start + size + (index < extra)
        if word[start:end] in other:
            return True
        start = end
    return False


_DERIVATIONAL_ENDING = re.compile(
    r"(?:isation|ization|ation|ition|ution|sion|tion|ion|ings|ing|ments|ment|ance|ence|ive|ers|er|ors|or|ees|ee"
    r"|ed|es|als|al|ity|ness|ly|able|ible|ure|s|e)$"
)


@lru_cache(maxsize=65536)
def _root(word: str) -> str:
    """`word` less one derivational or inflectional ending, keeping at least `MIN_PREFIX` letters."""
    match = _DERIVATIONAL_ENDING.search(word)
    return word[: match.start()] if match and match.start() >= MIN_PREFIX else word


def _edits(a: str, b: str, limit: int) -> int:
    """Levenshtein distance between `a` and `b`, or `limit + 1` once it is known to exceed `limit`."""
    previous = list(range(len(b) + 1))
    for i, char in enumerate(a, start=1):
        current = [i]
        for j, other in enumerate(b, start=1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (char != other)))
        if min(current) > limit:
            return limit + 1
        previous = current
    return previous[-1]
