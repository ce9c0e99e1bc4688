"""Quotes that stand alone: what a quoted sentence whose subject is a pronoun ("It will cost $219") refers to.

Quoted alone, "It will cost $219" or "The product ships in May" misleads even a reader who checks it: which router?
Such a quote is led by what it refers to, taken from its own passage: the section heading when the heading names
something ("Falcon X2"), else the sentence before it when that one does ("The Falcon X2 launches on 14 March
2027."), else the heading as it is. Both are the document's own words, so the quote stays verbatim.
"""

from __future__ import annotations

import re

from masis.judge.evidence import ENTRY_SENTENCE_MAX
from masis.judge.mentions import mentions
from masis.judge.sentences import is_heading, split_sentences, without_numbering

HEADING_LEAD_MAX = 80  # a section heading longer than this is not put before a quote
_SUBJECT_PRONOUN = re.compile(
    r"^(?:it|its|this|these|they|their|that|those|he|she|"
    r"(?:this|the|that)\s+(?:product|device|model|tool|service|release|version|unit))\b",
    re.IGNORECASE,
)


def needs_referent(sentence: str) -> bool:
    """Whether a sentence's subject is a pronoun or "this/the product": quoted alone, it does not say what about."""
    return bool(_SUBJECT_PRONOUN.match(sentence.strip()))


_POSSESSIVE_LEAD = re.compile(r"^(?:his|her)\b", re.IGNORECASE)


def leans_on_before(sentence: str) -> bool:
    """Whether a quote needs the sentence before it to say what it is about: its subject is a pronoun (or "his/her
    …"), or it is as short as an entry's short sentence (`evidence.ENTRY_SENTENCE_MAX`: "Default: 256.")."""
    return needs_referent(sentence) or bool(_POSSESSIVE_LEAD.match(sentence)) or len(sentence) <= ENTRY_SENTENCE_MAX


def document_title(doc_name: str) -> str:
    """A document's name read as words: "ubuntu_releases.csv" -> "ubuntu releases"."""
    stem = doc_name.rsplit(".", 1)[0] if "." in doc_name else doc_name
    return stem.replace("_", " ").replace("-", " ")


def referent(sentence: str, heading: str | None, passage: str) -> str | None:
    """What to lead `sentence` with so that it stands alone: "<heading>:" or the sentence before it in `passage`;
    None when it needs no lead or its passage offers none."""
    if not needs_referent(sentence):
        return None
    heading = without_numbering(heading or "")
    usable = heading if heading and len(heading) <= HEADING_LEAD_MAX and heading.lower() not in sentence.lower() \
        else ""
    if usable and _names_something(usable):
        return f"{usable}:"
    if term := _term_above(passage, sentence):
        return f"{term}:"
    before = sentence_before(passage, sentence)
    if before and _names_something(before):
        return before
    return f"{usable}:" if usable else None


# the term of a definition list's entry, on its own line above its text, as man pages and reference files write it:
# a path, a flag, an identifier or a setting ("/var/spool/anacron", "--log-level LEVEL", "delay_loop <TIMER>")
_TERM = re.compile(r"^(?:/[\w.-]+)+/?$|^--?[A-Za-z][\w-]*(?:[ =]\S+)?$|^[a-z][\w.]*[_.][\w.]+(?: <\w+>)?$")


def is_term_line(line: str) -> bool:
    """Whether `line` is a definition list's term on its own line (`_TERM`), whose entry is the text below it."""
    return _TERM.match(line) is not None


def _term_above(passage: str, sentence: str) -> str | None:
    """The entry's term when the line just above the sentence is one (`_TERM`): "This directory is used by Anacron
    for storing timestamp files." under "/var/spool/anacron" says which directory only with it."""
    lines = [" ".join(line.split()) for line in passage.splitlines()]
    wanted = " ".join(sentence.split())
    for index, line in enumerate(lines):
        if index and line.startswith(wanted) and _TERM.match(lines[index - 1]):
            return lines[index - 1]
    return None


def sentence_before(passage: str, sentence: str) -> str | None:
    """The sentence just before `sentence` in its passage (not a heading), or None."""
    sentences = split_sentences(passage)
    wanted = " ".join(sentence.split())
    for index, text in enumerate(sentences):
        if " ".join(text.split()) == wanted:
            earlier = [s for s in sentences[:index] if not is_heading(s)]
            return earlier[-1] if earlier else None
    return None


def _names_something(text: str) -> bool:
    return any(m.kind in {"name", "version", "identifier", "flag"} for m in mentions(text))
