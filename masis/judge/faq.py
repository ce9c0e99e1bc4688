"""A document's own questions: a FAQ's "Why doesn't upsmon shut down my system?" answers nothing; the sentences after
it answer it.

A question quoted from a document repeats the user's question in the document's words, so its words match best and
it was quoted as the answer ("Q: My program never starts and supervisor doesn't indicate any error?"). It is read as
the heading of what follows it instead: each sentence after it in its passage, up to the next question, is read with
the question's words, as a sentence is read under its section's heading ("A: Make sure the x bit is set …"). One
sentence between two questions is a question's second line ("I pulled the plug and nothing happened.") or a table of
contents, unless it says it is the answer ("A: …").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import cast

from masis.judge.evidence import Sentence, evidence_sentences
from masis.state import EvidenceChunk

ANSWER_SENTENCES = 3  # how many sentences after a question are read under it
QUESTION_WORDS = 30  # a longer "…?" is a sentence run into a question ("… 1.55 ms per loop So, is it worth …?")
_ASKED = re.compile(r"^\W*(?:Q|Question)\s*[:.]\s", re.IGNORECASE)
_ANSWERED = re.compile(r"^\W*(?:A|Answer)\s*[:.]\s", re.IGNORECASE)
# how a question opens, after a FAQ's number ("23 Why doesn't …?", "4.4. Is the … documented anywhere?"); not a
# command's optional arguments (".help ?-all? ?PATTERN?")
_OPENS_QUESTION = re.compile(
    r"^\W*(?:[ivxl]+\s+)?(?:\d+(?:\.\d+)*\.?\s+)?(?:what|which|who|whom|whose|when|where|why|how|is|are|was|were|do|"
    r"does|did|can|could|should|would|will|shall|may|must|has|have|had|am|isn't|aren't|doesn't|don't|can't|won't)\b",
    re.IGNORECASE)


def is_question(text: str) -> bool:
    """Whether a document's sentence asks: it opens with "Q:", or it opens as a question does and ends with a question
    mark within `QUESTION_WORDS` words."""
    if _ASKED.match(text):
        return True
    return (text.rstrip().rstrip("\"'”’)").endswith("?") and len(text.split()) <= QUESTION_WORDS
            and bool(_OPENS_QUESTION.match(text)))


def under_questions(sentences: Sequence[Sentence]) -> dict[int, Sentence]:
    """Each sentence (by `id`) that answers a question of its passage, with that question: the sentences after the
    question in the same passage, up to `ANSWER_SENTENCES` and never past the next question."""
    answers: dict[int, Sentence] = {}
    for at, sentence in enumerate(sentences):
        if not is_question(sentence.text):
            continue
        run: list[Sentence] = []
        ended_by_question = False
        for following in sentences[at + 1 :]:
            if following.chunk is not sentence.chunk:
                break
            if is_question(following.text):
                ended_by_question = True
                break
            run.append(following)
            if len(run) == ANSWER_SENTENCES:
                break
        if len(run) == 1 and ended_by_question and not _ANSWERED.match(run[0].text):
            continue  # a question's second line, or a list of questions
        for answer in run:
            answers.setdefault(id(answer), sentence)
    return answers


def question_answered(passage: str, quote: str) -> str | None:
    """The question of `passage` that `quote` (one of its sentences) answers, or None: the critic reads a FAQ's answer
    with its question, as the synthesizer chose it."""
    return _questions_answered(passage).get(_key(quote))


@lru_cache(maxsize=256)
def _questions_answered(passage: str) -> dict[str, str]:
    sentences = evidence_sentences([cast(EvidenceChunk, {"text": passage, "chunk_id": ""})])
    answers = under_questions(sentences)
    return {_key(s.text): posed.text for s in sentences if (posed := answers.get(id(s)))}


def _key(sentence: str) -> str:
    return " ".join(sentence.lower().rstrip(".!?").split())
