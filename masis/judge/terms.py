"""Terms: the token ids of MASIS's BM25, and the terms a question is about.

Terms are the token ids of Qdrant's own BM25 (Snowball English stemmer; Qdrant's English stop words plus
`masis.judge.stopwords`), so "what retrieval matched" and "what the critic checks" are measured with one
tokenizer. Both store backends index the vectors built here, so the embedded store and a Qdrant server hold
the same tokens.
"""

from __future__ import annotations

import re
from functools import lru_cache

from qdrant_edge import Bm25, Bm25Config, Language, StopwordsSet

from masis.judge.answer_type import answer_noun
from masis.judge.stopwords import CHAT_CONTRACTIONS, CHAT_NEGATIONS, STOP_WORDS

# BM25 normalises a chunk's term frequencies by its length against this average (Qdrant's default, 256
# tokens, suits whole documents). MASIS indexes ~900-character chunks: 55-70 tokens once stop words are
# out (SQuAD 55, SciFact 67), and the wrong average over-rewards short chunks. k and b stay at Qdrant's
# (and Robertson's) 1.2 and 0.75.
AVERAGE_CHUNK_TOKENS = 70.0


@lru_cache(maxsize=1)
def _bm25() -> Bm25:
    stop_words = StopwordsSet(languages={Language.English}, custom=set(STOP_WORDS))
    return Bm25(Bm25Config(language="english", stopwords=stop_words, avg_len=AVERAGE_CHUNK_TOKENS))


# A written word, for naming a question's terms back to the user and for comparing wordings.
WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9&'-]*")


@lru_cache(maxsize=1024)
def terms(text: str) -> frozenset[int]:
    """The distinct stemmed, stop-word-free term ids of `text`. Kept for the texts met recently: an answer's
    passages and sentences are read again by the synthesizer, the critic and every retry."""
    return frozenset(_bm25().embed_query(text).indices)


# Words that shape a question but are not what it is about ("how many", "tell me", "please").
_QUESTION_WORDS = (
    "many much often long tell give show explain describe list please know kind sort type "
    "exactly currently actually say says said mention mentioned "
    # modal and light verbs, hedges and naming words that frame a question rather than say what it is about
    "could would should might may must shall happen happens happened occur occurred upon generally "
    "specifically typically usually commonly name named called term refer refers referred another else "
    "located situated take takes took taken make makes made get gets got go goes went give gives gave given "
    "use uses used come comes came put puts putting "
    # conversational framing: greetings, apologies, asides ("hey, quick one:", "sorry, I meant")
    "hey hi hello hiya thanks thank cheers sorry oops meant quick question wondering wonder curious "
    "okay ok just guys folks anyone someone somebody um uh "
    # adverbs that place or hedge a fact rather than say what it is
    "still sometimes ever always never also already overall really basically roughly approximately "
    "formerly previously originally initially eventually later recently nowadays today likely probably "
    "possibly perhaps according regarding"
)


@lru_cache(maxsize=1)
def _question_word_terms() -> frozenset[int]:
    return terms(_QUESTION_WORDS) | terms(" ".join(CHAT_CONTRACTIONS - CHAT_NEGATIONS))


# Phrases that frame a question rather than say what it is about: a chat opener ("hey, quick one: ..."); "one" standing
# for a thing named elsewhere ("the one after that", "which one"); the
# measure asked for ("how fast", "how good"), which the answer gives as a figure or a grade; and a period
# named relative to today ("last quarter", "this year"), which documents name ("Q3 2026", "FY2026"), so
# its words would only count against the passage that answers; and a degree said in passing ("a bit off").
_FRAMING_PHRASES = re.compile(
    r"\b(?:(?:quick|short|small)\s+one"
    r"|(?:the|which|this|that|other|each|any|every|same|another)\s+ones?"
    r"|how\s+(?:good|well|bad|badly|old|far|big|large|small|high|tall|fast|deep|wide|heavy|soon|long|often)"
    r"|(?:last|this|next|previous|past|current|coming)\s+(?:fiscal\s+)?(?:quarter|year|month|week|fy)"
    # a degree said in passing: "our clock is a bit off", "a little slower" (not a bit of a bitmask)
    r"|a\s+(?:little\s+)?(?:bit|tad)(?=\s+(?:off|out|slow|slower|fast|faster|late|early|more|less|too|much|behind|"
    r"ahead|wrong|different|higher|lower|bigger|smaller|longer|shorter)\b))\b",
    re.I,
)


# "When did Debian 10 come out?" asks when it was released: documents say "release", a table has a `release` column
_CAME_OUT = re.compile(r"\b(?:come|comes|came|coming)\s+out\b(?!\s+of\b)", re.IGNORECASE)
# "when did axios 1.15.0 ship": a release notes' table says "released", not "shipped"
_SHIPPED = re.compile(r"\b(?P<verb>ship|ships|shipped)\s*[?.!]*\s*$", re.IGNORECASE)


# "How many people work in Sales?" asks for Sales' headcount: a headcount table has no "people" nor "work"
_HEADCOUNT = re.compile(
    r"\bhow\s+many\s+(?P<who>people|employees|staff|workers)\s+(?:work|works|are\s+employed|does\s+[\w\s'’]{1,40}?"
    r"\s+(?:have|employ))\b",
    re.IGNORECASE,
)


# A phrasal verb of chat and the one word documents say it with: "how do i turn it off" is answered by a passage that
# says "disable", "can i switch on packrat" by one that says "enable". The verb's term is matched by either.
_PHRASAL_VERB = r"(?P<verb>turn|turns|turned|turning|switch|switches|switched|switching)"
_PHRASAL = (
    (re.compile(rf"\b{_PHRASAL_VERB}(?:\s+[\w.'’-]+){{0,3}}?\s+on\b", re.IGNORECASE), "enable enabled enables"),
    (re.compile(rf"\b{_PHRASAL_VERB}(?:\s+[\w.'’-]+){{0,3}}?\s+off\b", re.IGNORECASE), "disable disabled disables"),
)


def alternatives(question: str) -> dict[int, frozenset[int]]:
    """The question's phrasal verbs' terms, each with the terms of the one word documents use for it ("turn ... off":
    "disable"): a text holding either matches the term."""
    found: dict[int, frozenset[int]] = {}
    for pattern, words in _PHRASAL:
        for match in pattern.finditer(question):
            for term in terms(match.group("verb")):
                found[term] = found.get(term, frozenset()) | terms(words)
    return found


def alternative_words(question: str) -> list[str]:
    """The one words of the question's phrasal verbs ("disable" for "turn it off"), searched for beside its own."""
    return [words.split()[0] for pattern, words in _PHRASAL if pattern.search(question)]


def implied_words(question: str) -> list[str]:
    """The words documents use for what a question says in chat's words ("come out" -> "released", "how many people
    work in …" -> "headcount"): searched for and measured as if the question had them."""
    return [word for word, said in (("released", _CAME_OUT), ("released", _SHIPPED), ("headcount", _HEADCOUNT))
            if said.search(question)]


def _implied_away(question: str) -> frozenset[int]:
    """The terms a question's chat words stand for that its implied word replaces: "people" and "work" in "how many
    people work in …" (a headcount table says neither)."""
    away = terms(shipped.group("verb")) if (shipped := _SHIPPED.search(question)) else frozenset()
    found = _HEADCOUNT.search(question)
    return away | terms(f"{found.group('who')} work works employed have employ") if found else away


def worded_terms(question: str) -> frozenset[int]:
    """A question's terms less its framing phrases ("how long", "which one"), its question words kept."""
    return terms(_FRAMING_PHRASES.sub(" ", question))


def question_terms(question: str) -> frozenset[int]:
    """The terms a question is about: its terms less question-framing words and phrases, and less the noun a
    "what/which" question names its answer by ("what city", "which year") when other terms remain."""
    wanted = worded_terms(question) - _question_word_terms() - _implied_away(question)
    for word in implied_words(question):
        wanted |= terms(word)
    noun = answer_noun(question)
    narrowed = wanted - terms(noun) if noun else wanted
    return narrowed or wanted


def query_vector(text: str) -> tuple[list[int], list[float]]:
    vec = _bm25().embed_query(text)
    return list(vec.indices), list(vec.values)


def document_vector(text: str) -> tuple[list[int], list[float]]:
    vec = _bm25().embed_document(text)
    return vec.indices, vec.values  # each read makes a new list
