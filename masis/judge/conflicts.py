"""Conflicts: figures about one subject that two documents state differently."""

from __future__ import annotations

import re
from collections.abc import Sequence

from masis.judge import anchors, matching
from masis.judge.citations import CITATION, answer_sentences, strip_citations
from masis.judge.evidence import Sentence, evidence_sentences, evidence_weights
from masis.judge.figures import NUMBER, normalise_number, values
from masis.judge.findings import Conflict, ConflictClaim
from masis.judge.quotes import document_title
from masis.judge.relevance import coverage
from masis.judge.terms import WORD, question_terms, terms
from masis.state import EvidenceChunk

SAME_SUBJECT = 0.6  # share of non-numeric terms two sentences need in common to be about one thing
# Weighted share of the question's terms (rarer terms in the evidence weigh more, as in the offline
# engine) an evidence sentence needs to be about the question: at 0.5, "Q3 2026 revenue" answered
# "What was Q4 2026 revenue?" and raised the Q3 conflict for it.
QUESTION_SHARE = 0.75


def _subject(text: str) -> frozenset[int]:
    """What a sentence is about: its terms once the figures are taken out."""
    return terms(NUMBER.sub(" ", text))


def _asked_about(question: str) -> frozenset[int]:
    """The question's terms less its figures and periods: what a conflict must be about to concern it ("How many
    customers at the end of Q3 2026?" is not concerned by two Q3 2026 revenue figures)."""
    words = " ".join(w for w in WORD.findall(question) if not any(ch.isdigit() for ch in w))
    return question_terms(question) & terms(words)


def conflicts(
    answer: str, evidence: Sequence[EvidenceChunk], sentences: Sequence[Sentence], question: str = ""
) -> list[Conflict]:
    """Figures the answer states that another document states differently.

    For each cited sentence with a figure, look for a sentence in another document about the same
    subject (most of its non-numeric terms shared) that gives a different figure of the same kind. With the
    `question`, only sentences that hold one of its words beside its figures and periods count, and both
    sentences must be read under every anchor of the question (its period, version, name) and every word of it that
    names a document of the evidence: "certifi" of `certifi-SECURITY.md`, whose 7 working days do not disagree with
    the 5 of Google's policy quoted beside it for "Within how many working days does certifi respond?".
    """
    by_id = {chunk["chunk_id"]: chunk for chunk in evidence}
    asked = _asked_about(question) if question else frozenset()
    wanted = [*anchors.anchors(question), *_naming_words(question, evidence)] if question else []
    keys = [anchor for anchor in wanted if anchors.is_entry_key(anchor)]
    # a budget for the year's end is no other figure for "the end of Q3 2026", and a reference's next entry no other
    # value for the key asked about
    under_anchors = [s for s in sentences if not (wanted and anchors.missing(wanted, [(s.text, s.chunk)]))
                     # a man page's "tcp_keepalive_intvl (integer; default: 75; …)" shares its passage with
                     # tcp_keepalive_time's line: read alone, with its lead, it is no value of tcp_keepalive_time
                     # (coredocs cr-055)
                     and not (keys and anchors.missing(keys, [(s.text, anchors.alone(s.chunk, s.lead or ""))]))]
    found: list[Conflict] = []
    seen: set[frozenset[str]] = set()
    keys_of: dict[int, frozenset[str]] = {}  # each evidence sentence's entry key, read once
    for sentence in answer_sentences(answer):
        ids = [c for c in CITATION.findall(sentence) if c in by_id]
        claim = strip_citations(sentence)
        claim_values = values(claim)
        if not ids or not claim_values or (asked and not terms(claim) & asked):
            continue
        source = by_id[ids[0]]
        if wanted and anchors.missing(wanted, [(claim, source)]):
            continue  # a figure about another thing than the question's disagrees with nothing it asks about
        subject = _subject(claim)
        claim_keys = _entry_keys(claim, source)
        for other in under_anchors:
            if other.chunk["doc_name"] == source["doc_name"]:
                continue
            if claim_keys:
                if id(other) not in keys_of:
                    keys_of[id(other)] = _entry_keys(other.text, other.chunk)
                if keys_of[id(other)] and keys_of[id(other)] != claim_keys:
                    continue  # tcp_fin_timeout's row and the line of TCP_KEEPINTVL are two entries, not two sources
            other_values = values(other.text)
            kinds = [k for k in claim_values.keys() & other_values.keys() if not claim_values[k] & other_values[k]]
            other_subject = _subject(other.text)
            shared = subject & other_subject
            if not kinds or len(shared) < 2:
                continue
            if len(shared) / min(len(subject), len(other_subject)) < SAME_SUBJECT:
                continue
            docs = frozenset({source["doc_name"], other.chunk["doc_name"]})
            if docs in seen:
                continue
            seen.add(docs)
            kind = kinds[0]
            found.append(
                Conflict(
                    topic=f"the {kind} for '{_shared_words(claim, other.text)}'",
                    claims=[
                        ConflictClaim(
                            chunk_id=source["chunk_id"],
                            doc_name=source["doc_name"],
                            value=_display(claim, claim_values[kind]),
                            sentence=claim,
                        ),
                        ConflictClaim(
                            chunk_id=other.chunk["chunk_id"],
                            doc_name=other.chunk["doc_name"],
                            value=_display(other.text, other_values[kind]),
                            sentence=other.text,
                        ),
                    ],
                )
            )
    return found


# a reference entry's key: an identifier ("tcp_fin_timeout", "TCP_KEEPINTVL") or an option ("--iosched")
_ENTRY_KEY = re.compile(r"(?<![\w-])(?:--?[A-Za-z][\w-]*|[A-Za-z]\w*_\w+)(?![\w-])")


def _entry_keys(sentence: str, chunk: EvidenceChunk) -> frozenset[str]:
    """The key of the reference entry a sentence belongs to: the first key it names, or when it names none, the first
    that its passage's line holding it names (a CSV row's, a man page entry's), as written; empty when neither does.
    Two sentences of two keys are about two entries (coredocs tune cr-070: tcp_fin_timeout's CSV row, "In Linux 2.2,
    the default value was 180", and tcp(7)'s "TCP_KEEPINTVL (since Linux 2.4)" were asked back as a conflict; the
    sysctl tcp_fastopen is not the socket option TCP_FASTOPEN_CONNECT, whose entry names it)."""
    said = " ".join(sentence.split())
    first = _ENTRY_KEY.search(said)
    if first is None:
        line = next((joined for raw in chunk["text"].splitlines() if said in (joined := " ".join(raw.split()))), said)
        first = _ENTRY_KEY.search(line)
    return frozenset([first.group(0)]) if first else frozenset()


def _naming_words(question: str, evidence: Sequence[EvidenceChunk]) -> list[str]:
    """The words of the question that name a document of the evidence, as the user wrote them ("certifi")."""
    asked = matching.question(question)
    titles = set().union(*(terms(document_title(chunk["doc_name"])) for chunk in evidence))
    return [asked.surface[term][0] for term in asked.terms & titles if asked.surface.get(term)]


def evidence_conflicts(question: str, evidence: Sequence[EvidenceChunk]) -> list[Conflict]:
    """Figures about the question's subject that two documents of the evidence state differently.

    `conflicts` compares the figures an answer cites with every other document; here every evidence
    sentence that carries a figure and most of the question's terms stands in for a claim, so a conflict
    is found even when the draft cites only one side, or nothing.
    """
    wanted = question_terms(question)
    if not wanted:
        return []
    sentences = evidence_sentences(evidence)
    weights = evidence_weights(wanted, sentences)
    claims = [
        f"{s.text.rstrip('.!? ')} [{s.chunk['chunk_id']}]."
        for s in sentences
        if values(s.text) and coverage(weights, s.terms & wanted) >= QUESTION_SHARE
    ]
    return conflicts(" ".join(claims), evidence, sentences, question) if claims else []


def _display(sentence: str, figures: set[str]) -> str:
    """The figures as the document wrote them ("$11.9 million"), not their comparison form."""
    written = [m.group(0).strip() for m in NUMBER.finditer(sentence) if normalise_number(m.group(0)) in figures]
    return ", ".join(dict.fromkeys(written)) or ", ".join(sorted(figures))


def _shared_words(first: str, second: str) -> str:
    first, second = NUMBER.sub(" ", first), NUMBER.sub(" ", second)
    other = {w.lower() for w in WORD.findall(second)}
    words = [w for w in WORD.findall(first) if w.lower() in other and terms(w) and not w.isdigit()]
    return " ".join(dict.fromkeys(words)) or "the same subject"
