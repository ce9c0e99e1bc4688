"""Text helpers shared by retrieval, the citation engine and the extractive provider.

Terms are the token ids of Qdrant's own BM25 (Snowball English stemmer; Qdrant's English stop words plus
`masis.stopwords`), so "what retrieval matched" and "what the critic checks" are measured with one tokenizer.
Both store backends index the vectors built here, so the embedded store and a Qdrant server hold the same
tokens.
"""

from __future__ import annotations

import re
from functools import lru_cache

from qdrant_edge import Bm25, Bm25Config, Language, StopwordsSet

from masis.answer_type import answer_noun
from masis.stopwords import STOP_WORDS

# A sentence's end: its mark (kept, captured), closing quotes or brackets and the space after it (dropped),
# before what starts a sentence; not after an abbreviation that a name or an example may follow ("e.g.
# Warsaw", "Dr. Smith"), nor after a middle initial (`_INITIAL`). Starting the pattern with the mark rather
# than a look-behind lets the regex engine skip to the next mark: twice as fast.
_ABBREVIATIONS = ("e.g.", "i.e.", "vs.", "Mr.", "Mrs.", "Ms.", "Dr.", "St.", "Mt.", "No.", "cf.")
_SENTENCE_END = re.compile(
    r"([.!?])" + "".join(rf"(?<!\b{re.escape(a)})" for a in _ABBREVIATIONS) + r"[\"')\]]*\s+(?=[\"'(\[]?[A-Z0-9])"
)
_INITIAL = re.compile(r"\b[A-Z][a-z]+ [A-Z]\.$")  # "John M." goes on ("Grunsfeld"); "fleet D." ends
NUMBER = re.compile(r"(?<![\w.])[$€£]?\d[\d,]*(?:\.\d+)?\s*(?:%|percent|million|billion|thousand|[kKmMbB]\b)?")


# BM25 normalises a chunk's term frequencies by its length against this average (Qdrant's default, 256
# tokens, suits whole documents). MASIS indexes ~900-character chunks: 55-70 tokens once stop words are
# out (SQuAD 55, SciFact 67), and the wrong average over-rewards short chunks. k and b stay at Qdrant's
# (and Robertson's) 1.2 and 0.75.
AVERAGE_CHUNK_TOKENS = 70.0


@lru_cache(maxsize=1)
def _bm25() -> Bm25:
    stop_words = StopwordsSet(languages={Language.English}, custom=set(STOP_WORDS))
    return Bm25(Bm25Config(language="english", stopwords=stop_words, avg_len=AVERAGE_CHUNK_TOKENS))


def terms(text: str) -> frozenset[int]:
    """The distinct stemmed, stop-word-free term ids of `text`."""
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
    return terms(_QUESTION_WORDS)


# Phrases that frame a question rather than say what it is about: a chat opener ("hey, quick one: ..."); the
# measure asked for ("how fast", "how good"), which the answer gives as a figure or a grade; and a period
# named relative to today ("last quarter", "this year"), which documents name ("Q3 2026", "FY2026"), so
# its words would only count against the passage that answers.
_FRAMING_PHRASES = re.compile(
    r"\b(?:(?:quick|short|small)\s+one"
    r"|how\s+(?:good|well|bad|badly|old|far|big|large|small|high|tall|fast|deep|wide|heavy|soon|long|often)"
    r"|(?:last|this|next|previous|past|current|coming)\s+(?:fiscal\s+)?(?:quarter|year|month|week|fy))\b",
    re.I,
)


def question_terms(question: str) -> frozenset[int]:
    """The terms a question is about: its terms less question-framing words and phrases, and less the noun a
    "what/which" question names its answer by ("what city", "which year") when other terms remain."""
    wanted = terms(_FRAMING_PHRASES.sub(" ", question)) - _question_word_terms()
    noun = answer_noun(question)
    narrowed = wanted - terms(noun) if noun else wanted
    return narrowed or wanted


def query_vector(text: str) -> tuple[list[int], list[float]]:
    vec = _bm25().embed_query(text)
    return list(vec.indices), list(vec.values)


def document_vector(text: str) -> tuple[list[int], list[float]]:
    vec = _bm25().embed_document(text)
    return vec.indices, vec.values  # each read makes a new list


_HEADING_LINE_MAX = 60


def split_sentences(text: str) -> list[str]:
    """Sentences of `text`, whitespace collapsed; abbreviations like "e.g. the" stay joined.

    A short line without closing punctuation followed by a capitalised line is a heading or a
    label ("To: All staff"), not the start of a sentence that wrapped, so it stands alone.
    """
    sentences: list[str] = []
    for block in _blocks(text):
        parts = _SENTENCE_END.split(" ".join(block.split()))  # text, mark, text, mark, ..., text
        pieces = [parts[i] + parts[i + 1] for i in range(0, len(parts) - 1, 2)]
        pieces.append(parts[-1])
        sentence: list[str] = []  # the pieces of the sentence being read; a middle initial joins the next one
        for piece in (p.strip() for p in pieces):
            if not piece:
                continue
            if sentence and not _INITIAL.search(_last_two_words(sentence)):
                sentences.append(" ".join(sentence))
                sentence = []
            sentence.append(piece)
        if sentence:
            sentences.append(" ".join(sentence))
    return sentences


def _last_two_words(pieces: list[str]) -> str:
    """The end of the pieces joined by spaces, as far back as `_INITIAL` can match (it holds one space).

    Only the end is read, so a block of thousands of "John M." pieces costs what its length costs."""
    tail = " ".join(pieces[-2:])
    last_space = tail.rfind(" ")
    return tail[tail.rfind(" ", 0, last_space) + 1 :] if last_space > 0 else tail


def _blocks(text: str) -> list[str]:
    blocks: list[str] = []
    current: list[str] = []
    lines = [line.strip() for line in text.splitlines()]
    for index, line in enumerate(lines):
        if not line:
            if current:
                blocks.append(" ".join(current))
                current = []
            continue
        current.append(line)
        following = lines[index + 1] if index + 1 < len(lines) else ""
        if len(line) <= _HEADING_LINE_MAX and line[-1] not in ".!?,;" and following[:1].isupper():
            blocks.append(" ".join(current))
            current = []
    if current:
        blocks.append(" ".join(current))
    return blocks


_HEADING_WORDS_MAX = 8
_YEARISH = re.compile(r"^(?:FY|Q[1-4]|H[12])?[-']?(?:19|20)?\d\d$|^(?:FY|Q[1-4]|H[12])$", re.I)


def is_heading(sentence: str) -> bool:
    """A heading or label ("AI Investment Strategy FY2026", "Board update"): short, no closing punctuation,
    and no figure beyond a year or period. Context for retrieval, not a sentence to quote; a table row with
    figures ("Engineering 98 9") is not one."""
    text = sentence.strip()
    words = text.split()
    if not words or len(words) > _HEADING_WORDS_MAX or text[-1] in ".!?;:":
        return False
    return not any(NUMBER.fullmatch(word) and not _YEARISH.match(word) for word in words)


def normalise_number(written: str) -> str:
    """One numeric expression in its comparison form: "$4.2 Million" -> "$4.2million", "38 percent" -> "38%"."""
    return written.strip().lower().replace(",", "").replace(" ", "").replace("percent", "%")


def numbers(text: str) -> list[str]:
    """Numeric expressions ("$4.2 million", "38%", "2026") in their comparison form."""
    return [normalise_number(match.group(0)) for match in NUMBER.finditer(text)]
