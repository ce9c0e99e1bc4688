"""The deterministic citation engine: which citations are valid, which sentences are uncited.

Pure functions only. The penalties follow DESIGN §4: an invalid citation is a hallucination (retry,
confidence halved); each uncited sentence costs 3 % (capped at 40 %) and five or more force a retry;
hedged sentences ("the documents do not say …") need no citation.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from masis.chunk_ids import CHUNK_ID_PATTERN
from masis.judge.sentences import split_sentences

# Chunk ids are `<document key>#n` (masis.chunk_ids): letters of any script, digits and `._~-`.
CITATION = re.compile(rf"\[({CHUNK_ID_PATTERN})\]")
# Anything that looks like a citation marker inside document text ("[other_doc#3]"); neutralised before it reaches a
# model or a quote. Other brackets are the document's own words ("[%f/%t]", "[default: 12]", "[1]"): a chunk id has
# a "#", so they cannot be read as a citation, and a quote keeps them as written.
_CITATION_LIKE = re.compile(r"\[([^\[\]\n]{0,80}#[^\[\]\n]{0,80})\]")

UNCITED_PENALTY = 0.03
UNCITED_PENALTY_CAP = 0.40
UNCITED_RETRY_AT = 5
INVALID_CITATION_FACTOR = 0.5

HEDGE_PHRASES = (
    "do not say",
    "does not say",
    "do not mention",
    "does not mention",
    "do not specify",
    "does not specify",
    "not specified",
    "no information",
    "not enough information",
    "insufficient evidence",
    "the evidence does not",
    "the documents do not",
    "could not find",
    "unclear",
    "i cannot",
    "cannot be determined",
    "not covered",
    "disagree",
)


@dataclass(frozen=True)
class CitationAudit:
    cited_ids: list[str] = field(default_factory=list)
    valid_ids: list[str] = field(default_factory=list)
    invalid_ids: list[str] = field(default_factory=list)
    uncited_sentences: list[str] = field(default_factory=list)
    hedged_sentences: int = 0
    sentences: int = 0

    @property
    def hallucination(self) -> bool:
        return bool(self.invalid_ids)

    @property
    def uncited_penalty(self) -> float:
        return min(UNCITED_PENALTY * len(self.uncited_sentences), UNCITED_PENALTY_CAP)

    @property
    def forces_retry(self) -> bool:
        return self.hallucination or len(self.uncited_sentences) >= UNCITED_RETRY_AT

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data.update(
            hallucination=self.hallucination,
            uncited_count=len(self.uncited_sentences),
            uncited_penalty=round(self.uncited_penalty, 4),
            forces_retry=self.forces_retry,
            no_valid_citation=self.sentences > 0 and not self.valid_ids,
        )
        return data


def cited_ids(text: str) -> list[str]:
    """Citation ids in order of first appearance, without repeats."""
    return list(dict.fromkeys(CITATION.findall(text)))


def cited_documents(answer: str, evidence: Iterable[Mapping[str, Any]]) -> list[str]:
    """The documents of the `evidence` chunks the answer cites, in order of first citation, without repeats."""
    by_id = {chunk["chunk_id"]: chunk["doc_name"] for chunk in evidence}
    return list(dict.fromkeys(by_id[chunk_id] for chunk_id in cited_ids(answer) if chunk_id in by_id))


# the space a removed citation leaves before a sentence's stop; not the space before a name that starts with a dot or
# a colon (".deb package files", "the :missing selector"), which it would join to the word before it
_SPACE_BEFORE_PUNCTUATION = re.compile(r"\s+([.,;:!?])(?!\w)")


def renumber(text: str, numbers: Mapping[str, int], unknown: Callable[[str], str] = lambda cid: f"[{cid}]") -> str:
    """Replace each `[chunk_id]` with its reference number `[n]`; ids without a number go through `unknown`."""
    return CITATION.sub(lambda m: f"[{numbers[m.group(1)]}]" if m.group(1) in numbers else unknown(m.group(1)), text)


def strip_citations(text: str) -> str:
    """The text without its citation markers: "… $2 million [a#1]." -> "… $2 million."."""
    return _SPACE_BEFORE_PUNCTUATION.sub(r"\1", " ".join(CITATION.sub("", text).split()))


_CITATIONS_AFTER_STOP = re.compile(rf"([.!?])((?:\s*\[{CHUNK_ID_PATTERN}\])+)")


# a cited sentence's end: the next quote starts a sentence of its own even in lower case ("… --getsz" [a#1]. what:
# sfdisk --Linux …"), as an entry of a reference list often does, or with a closing bracket (a passage cut inside
# a code block: "… 60 minutes [a#24]. ) async def run(): …"), or with an option's or a command's name (a man page's
# entry: "… 80 characters [a#42]. --no-subpages: By default …", "… [a#3]. .nullvalue STRING | …", dig(1)'s
# "+tries=T …"), or with a list's bullet or a quotation mark (a plain-text list's items: "… [a#1]. * "git push" …")
_AFTER_CITED_STOP = re.compile(
    rf"(\[{CHUNK_ID_PATTERN}\][.!?])\s+(?=[a-z)\]}}]|-{{1,2}}\w|\+[a-z]|\.[a-z]|[*•‣◦▪-]\s|[\"'`(])")


def answer_sentences(answer: str) -> list[str]:
    """Sentences of an answer, with citations written after the full stop ("… week. [a#1]")
    moved inside the sentence they belong to ("… week [a#1]."); a cited sentence ends at its citation."""
    moved = _CITATIONS_AFTER_STOP.sub(lambda m: f"{m.group(2)}{m.group(1)}", answer)
    parts = _AFTER_CITED_STOP.sub(lambda m: f"{m.group(1)}\0", moved).split("\0")
    return [sentence for part in parts for sentence in split_sentences(part)]


# whole words: "the sources disagree" hedges, "Montcalm and the Indians disagreed about …" states a fact
_HEDGE = re.compile(r"\b(?:" + "|".join(re.escape(phrase) for phrase in HEDGE_PHRASES) + r")\b")


# "The default value, if not specified, is 16": a condition on the input, not a hedge about the documents
_CONDITIONAL = re.compile(r"\b(?:if|when|where|unless|whenever)\s+(?:\S+\s+){0,3}$")


def is_hedge(sentence: str) -> bool:
    lowered = sentence.lower()
    return any(
        not (match.group(0) == "not specified" and _CONDITIONAL.search(lowered, 0, match.start()))
        for match in _HEDGE.finditer(lowered)
    )


def leads_with_hedge(answer: str) -> bool:
    """Whether the answer's first sentence, its citations aside, hedges ("It is unclear whether the chloroplast
    carries out the last step …"): its answer is that the documents do not know, which no audit can vouch for,
    even when the hedge is a document's own words quoted."""
    return is_hedge(_first_sentence(answer))


def leads_with_question(answer: str) -> bool:
    """Whether the answer's first sentence, its citations aside, is a question (a FAQ's entry quoted by its own
    question: "23 Why doesn't upsmon shut down my system?"; `grounding.restates_question`). Any "…?" counts, not only
    one that opens as `faq.is_question` requires: "nodemon, is it pronounced: node-mon, no-demon …?" asks too."""
    return _first_sentence(answer).endswith("?")


def _first_sentence(answer: str) -> str:
    """The answer's first sentence with text once its citations are taken out ("" for none)."""
    return next((text for sentence in answer_sentences(answer) if (text := strip_citations(sentence).strip())), "")


def audit(answer: str, retrieved_ids: Iterable[str]) -> CitationAudit:
    """Check every citation against the chunks actually retrieved and find the uncited sentences."""
    allowed = set(retrieved_ids)
    cited = cited_ids(answer)
    uncited: list[str] = []
    hedged = 0
    sentences = [s for s in answer_sentences(answer) if strip_citations(s)]
    for sentence in sentences:
        if CITATION.search(sentence):
            continue
        if is_hedge(sentence):
            hedged += 1
        elif _is_claim(sentence):
            uncited.append(sentence)
    return CitationAudit(
        cited_ids=cited,
        valid_ids=[c for c in cited if c in allowed],
        invalid_ids=[c for c in cited if c not in allowed],
        uncited_sentences=uncited,
        hedged_sentences=hedged,
        sentences=len(sentences),
    )


def penalised_confidence(confidence: float, citation_audit: CitationAudit) -> float:
    """The critic's confidence after the citation penalties, in [0, 1]."""
    value = confidence * (1.0 - citation_audit.uncited_penalty)
    if citation_audit.hallucination:
        value *= INVALID_CITATION_FACTOR
    return max(0.0, min(1.0, value))


def neutralise_markers(text: str) -> str:
    """Turn citation-like brackets in untrusted document text into parentheses.

    A document that contains "[other_doc#3]" must not be able to smuggle a citation into an answer.
    """
    return _CITATION_LIKE.sub(lambda m: f"({m.group(1)})", text)


def _is_claim(sentence: str) -> bool:
    # Headings, list labels and one-word lines are not claims that need a source.
    return len(strip_citations(sentence).split()) >= 4
