"""Attribution: each sentence of an answer cited to the evidence passage that states its figures, names and words.

A small model often writes the right sentence and cites nothing, or cites a passage beside the one that holds
the fact. MASIS attaches the citation itself, by rules that need no model:

- a passage may support a sentence only when one sentence of it (read under its heading) states every figure
  and name of the sentence (`grounding.unstated`, the floor every cited sentence must pass, read sentence by
  sentence) and holds at least `MIN_SHARE` of the sentence's own words (those the question does not already
  give, and not its framing: "According to the evidence, …") and at least `SUBJECT_SHARE` of the question's
  words that the sentence repeats; a figure the question itself gives ("Q3 2026") may sit elsewhere in the
  passage (the anchor floor checks it there). One sentence, not the whole passage: "The legacy dispatch console
  will be retired in October 2026" takes "retired" from one sentence of the roadmap and "October 2026" from
  another, and is not cited;
- among the passages that may, the one holding most of the sentence's words wins; a tie goes to the passage
  the model cited, then to the first in evidence order (the most relevant);
- a sentence no passage supports whose leading clause one passage does support, the rest joined on by a
  connective that adds rather than qualifies ("… by 15% by the end of 2027 by building …", "…, because …",
  "…, which …", "…, and …", "…; …"), is cut to that clause and cited; the joined tail is dropped, not cited
  (`trimmed`). A small model often joins two sentences of a passage so; the clause alone is what the passage
  states. A condition ("if", "unless", "but only …") is never a cut: it would drop what limits the clause;
- a sentence that only restates the question (no figure, no word of its own), a hedge ("the documents do not
  say …") and a sentence no passage supports are left as they are: uncited, or with the model's citation, for
  the citation audit and the grounding floors to judge. Nothing is made to look supported that is not.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from masis.judge import anchors, grounding, support
from masis.judge.citations import CITATION, answer_sentences, is_hedge, strip_citations
from masis.judge.figures import figure_key, numbers
from masis.judge.sentences import split_sentences
from masis.judge.terms import question_terms, terms
from masis.state import EvidenceChunk

MIN_SHARE = support.SUPPORT_THRESHOLD  # share of a sentence's own words its passage must hold
SUBJECT_SHARE = 0.5  # share of the question's words the sentence repeats that the passage's sentence must hold
# How a model opens a sentence about its sources ("According to the evidence, …", "The passages state that …"):
# words about the evidence, not from it, so they are not counted among the sentence's own words.
_SOURCES = r"(?:the\s+)?(?:evidence|documents?|passages?|sources?|text|information(?:\s+provided)?)"
FRAMING = re.compile(
    rf"^\s*(?:(?:according\s+to|based\s+on|as\s+(?:stated|noted|mentioned|described)\s+in|per)\s+{_SOURCES}\s*,?"
    rf"|{_SOURCES}\s+(?:says?|states?|shows?|indicates?|mentions?)(?:\s+that)?)\s*",
    re.IGNORECASE,
)
# Where a sentence may be cut to its leading clause: a connective that joins a further statement on, never one
# that limits the clause before it.
JOINED_ON = re.compile(
    r"\s+(?:by|through|thereby)\s+\w+ing\b|,?\s+because\b|,\s+(?:which|and)\s|\s*;\s", re.IGNORECASE
)


@dataclass(frozen=True)
class Attribution:
    answer: str
    attached: list[str] = field(default_factory=list)  # sentences that had no valid citation and got one
    moved: list[str] = field(default_factory=list)  # sentences whose cited passage did not state them, re-cited
    unsupported: list[str] = field(default_factory=list)  # claims no passage supports, left as they were
    trimmed: list[str] = field(default_factory=list)  # tails joined onto a supported clause, dropped

    def as_dict(self) -> dict[str, int]:
        return {
            "attached": len(self.attached),
            "moved": len(self.moved),
            "unsupported": len(self.unsupported),
            "trimmed": len(self.trimmed),
        }


def supporting_passage(
    claim: str, evidence: Sequence[EvidenceChunk], question: str, preferred: Sequence[str] = ()
) -> str | None:
    """The id of the passage that supports `claim` (the module's rules), or None."""
    claim = strip_citations(claim)
    if not claim or is_hedge(claim):
        return None
    said = terms(FRAMING.sub("", claim))
    # the question's subject as the sentence repeats it; its anchors ("Q3 2026") may sit elsewhere in the passage
    # (its heading, an earlier line), where the anchor floor reads them
    asked = said & question_terms(question) - terms(" ".join(anchors.anchors(question)))
    own = said - terms(question)  # what the sentence adds to the question
    if not own and not numbers(claim):
        return None  # it only says the question back
    given = {figure_key(n) for n in numbers(question)}
    best: tuple[float, bool, int] | None = None
    chosen: str | None = None
    for rank, chunk in enumerate(evidence):
        for sentence in split_sentences(chunk["text"]):
            one: EvidenceChunk = {**chunk, "text": sentence}
            if [fact for fact in grounding.unstated(claim, [one], question) if figure_key(fact) not in given]:
                continue  # a figure or name this sentence does not state (the question's own figures aside)
            held = terms(support.source_text(one))
            share = len(own & held) / len(own) if own else 1.0
            if share < MIN_SHARE or (asked and len(asked & held) / len(asked) < SUBJECT_SHARE):
                continue
            key = (share, chunk["chunk_id"] in preferred, -rank)
            if best is None or key > best:
                best, chosen = key, chunk["chunk_id"]
    return chosen


def leading_clause(
    claim: str, evidence: Sequence[EvidenceChunk], question: str, preferred: Sequence[str] = ()
) -> tuple[str, str, str] | None:
    """The longest leading clause of `claim` (cut where `JOINED_ON` joins more on) that a passage supports, with
    that passage's id and the tail it drops; None when no such clause."""
    claim = strip_citations(claim).rstrip()
    for cut in sorted((m.start() for m in JOINED_ON.finditer(claim)), reverse=True):
        clause = claim[:cut].rstrip(" ,;")
        passage = supporting_passage(clause, evidence, question, preferred)
        if passage is not None:
            return clause, passage, claim[cut:].strip(" ,;")
    return None


def attribute(answer: str, evidence: Sequence[EvidenceChunk], question: str) -> Attribution:
    """`answer` with each sentence cited to the passage that supports it. A sentence whose valid citations
    already state it is kept as written; the answer is returned unchanged when no sentence changed."""
    by_id = {chunk["chunk_id"]: chunk for chunk in evidence}
    sentences: list[str] = []
    attached: list[str] = []
    moved: list[str] = []
    unsupported: list[str] = []
    trimmed: list[str] = []
    for sentence in answer_sentences(answer):
        cited = CITATION.findall(sentence)
        valid = [c for c in cited if c in by_id]
        claim = strip_citations(sentence)
        if valid and not grounding.unstated(claim, [by_id[c] for c in valid], question):
            sentences.append(sentence)
            continue
        if cited and not valid:
            sentences.append(sentence)  # an id not in the evidence: the audit's hallucination, never papered over
            continue
        passage = supporting_passage(claim, evidence, question, preferred=valid)
        if passage is None and (clause := leading_clause(claim, evidence, question, preferred=valid)):
            claim, passage, tail = clause
            trimmed.append(tail)
        if passage is None:
            if claim and not is_hedge(claim) and (valid or numbers(claim)):
                unsupported.append(claim)
            sentences.append(sentence)
            continue
        (moved if valid else attached).append(claim)
        sentences.append(cite(claim, passage))
    if not attached and not moved:
        return Attribution(answer, unsupported=unsupported)
    return Attribution(" ".join(sentences), attached, moved, unsupported, trimmed)


def cite(claim: str, chunk_id: str) -> str:
    """`claim` with `[chunk_id]` before its closing punctuation: "… $4.2 million." -> "… $4.2 million [a#1].\""""
    body = claim.rstrip()
    end = ""
    while body and body[-1] in ".!?":
        end = body[-1] + end
        body = body[:-1].rstrip()
    return f"{body} [{chunk_id}]{end or '.'}"
