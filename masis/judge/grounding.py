"""Deterministic grounding floors under any critic (DESIGN §4's numbers stay; these sit beneath them).

A model critic can be generous: a real 0.5B model passed "Revenue grew 12% [q3_report.md#2]." (the
prompt's own example, with a real chunk id) at 0.9. These checks need no model and cannot be talked
out of a finding:

- a cited sentence with a figure, or a name, that appears in none of the chunks it cites is unsupported;
- a sentence that copies the prompt's example is a hallucination, whatever it cites;
- figures that documents in the evidence state differently about the question's subject are a conflict
  (`masis.judge.conflicts`), whether or not the draft cites them;
- an answer with no valid citation is never answered (the supervisor reads `no_valid_citation`);
- an exact constraint of the question (a version, a code, a figure, a flag, a name: `masis.judge.anchors`) that
  none of the answer's quotes holds makes the answer a near miss: retried, then asked back, never answered;
- a question about what did *not* happen whose quotes all state the positive (`masis.judge.negation`) answers the
  question turned around: its confidence stays under the threshold, so it is retried and then asked back;
- a quote that lacks a word of the question and says what excludes it (`masis.judge.contrast`: "largest" for
  "smallest", "private" for "public", "second" for "third", "focus" for "unfocused") answers another question:
  retried, then asked back;
- a quote that says the question's words about another name (`masis.judge.swaps`: "Ana Ruiz runs the Oslo office"
  for "Who runs the Santiago office?") or another code ("… upgrade the backbone to OC-48c" for "When was OC-12c
  upgraded?") answers another question: retried, then asked back;
- a "how many / how much" answer whose quotes that give a number do not themselves hold the question's anchors
  (`masis.judge.subjects`: "one million Protestants in modern France" for "… in the Cévennes?") gives another
  subject's figure: retried, then asked back;
- a quote that puts the question's names on the other sides of its verb (`masis.judge.roles`: "… swear fealty to
  King Charles III" for "Who did King Charles III swear fealty to?", "A Norman … led a force of Franks" for "What
  Frank led Norman forces?") answers the question turned round: retried, then asked back;
- a "when" question about a moment whose quotes give only spans of years and not the event asked about
  (`masis.judge.periods`: "Otto von Bismarck (1862–90)" for "When did Otto von Bismarck die?") is answered by
  another period: retried, then asked back;
- a question asking when or how many/much (`masis.judge.answer_type`) whose cited sentences give no date or number
  is not answered by them ("When will the console be retired?" / "The legacy dispatch console is retired."), nor one
  asking a default by sentences that say no default value ("… than the default value of MAXAGE (in upsd.conf)
  allows"): retried, then asked back, never answered; nor is a date or number quoted only beside another release
  than the one asked about (`masis.judge.swaps.typed_of_other_release`);
- an answer whose quotes hold the question's constraints only between documents, none of them all
  (`masis.judge.stitched`: pyenv's "adapted from the Contributor Covenant, version 1.4" beside a sentence of
  Node.js's code of conduct for "Which version … is the Node.js Code of Conduct based on?") gives another document's
  fact: retried, then asked back;
- a question asking for a limit ("What is the maximum value allowed for numprocs?") whose quotes say no limit
  (`masis.judge.limits`: "Default: 1", an example's "…_MAXSIZE=2048") gives a value, not the limit asked for:
  retried, then asked back;
- a copular question whose quotes never speak of the attribute it asks for (`masis.judge.attribute`: "The Heron S1
  costs $649" for "How much is the add-on of Heron S1?") answers another question about the same subject: retried,
  then asked back.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from functools import lru_cache

from masis.judge import (
    anchors,
    attribute,
    contrast,
    defaults,
    described,
    limits,
    negation,
    periods,
    roles,
    stitched,
    subjects,
    support,
    swaps,
    tables,
    unsettled,
)
from masis.judge.answer_type import expected_type, gives_type
from masis.judge.citations import CITATION, CitationAudit, answer_sentences, leads_with_question, strip_citations
from masis.judge.conflicts import evidence_conflicts
from masis.judge.figures import figure_key, numbers
from masis.judge.findings import Conflict, Critique
from masis.judge.terms import question_terms, worded_terms
from masis.state import EvidenceChunk

# Capitalised words and acronyms: "Leeds", "Kestrel", "AI", "R&D", "FY2026", "O'Neil".
_NAME = re.compile(r"\b[A-Z][A-Za-z0-9&'’-]*[A-Za-z0-9]\b")
_POSSESSIVE = re.compile(r"['’]s?$")
_WORD = re.compile(r"[a-z0-9&]+")
# The example claim the synthesizer's prompt shows (masis.llm.prompts quotes it from here): a draft that copies it
# copied the format's example, not the evidence. A sentence this close to it copied it.
EXAMPLE_CLAIM = "Widget sales rose 7% in May"
EXAMPLE_SIMILARITY = 0.8
NEAR_MISS_CONFIDENCE = 0.3  # the most a draft whose quotes miss an exact constraint of the question may score
UNMET_NEGATION_CONFIDENCE = 0.5  # the most a draft may score whose quotes all state what a negated question denies
CONTRADICTED_CONFIDENCE = 0.5  # the most a draft may score whose quotes say the opposite of a word of the question
NO_VALID_CITATION = "no valid citation"  # the reason a draft citing nothing real is retried (prompts quote it)


@dataclass(frozen=True)
class Floors:
    unsupported: list[str] = field(default_factory=list)
    copied_example: bool = False
    conflicts: list[Conflict] = field(default_factory=list)
    missing_anchors: list[str] = field(default_factory=list)
    unmet_negation: bool = False
    contradicted: list[tuple[str, str]] = field(default_factory=list)  # (question word, the quote's opposite)
    swapped: list[tuple[str, str]] = field(default_factory=list)  # (question's name, the quote's name in its place)
    untyped: str | None = None  # the kind of answer asked for ("date", "number") that no cited sentence gives
    figure_elsewhere: list[str] = field(default_factory=list)  # anchors no quote giving the number asked for holds
    reversed_role: tuple[str, str] | None = None  # (the question's doer, its verb) that a quote names as done to
    span_for_moment: str | None = None  # the span of years quoted for a "when" question whose event no quote says
    unspoken_attribute: str | None = None  # the attribute a copular question asks for that no quote speaks of
    unsettled: str | None = None  # the words ("Not sure", "TBD") by which the quote about the subject leaves it open
    stitched: list[str] = field(default_factory=list)  # anchors only another document's quotes hold (`stitched`)
    default_elsewhere: str | None = None  # what a default is asked of when the quotes say "default" of others only
    undescribed: str | None = None  # the subject of "what does X do?" that the quotes only mention
    unstated_limit: str | None = None  # the limit asked for ("maximum") when no quote says one (`limits`)


def _words(text: str) -> set[str]:
    return set(_WORD.findall(text.lower()))


def _names(sentence: str) -> list[str]:
    """Capitalised words after the first one (a sentence's first word is capitalised anyway)."""
    found = [_POSSESSIVE.sub("", m.group(0)) for m in _NAME.finditer(sentence)]
    first = _NAME.match(sentence.lstrip())
    return found[1:] if first and found else found


def unstated(claim: str, sources: Sequence[EvidenceChunk], question: str) -> list[str]:
    """The figures and names of `claim` that none of `sources` states (nor their documents' names, nor the question)."""
    source_text = " ".join(support.source_text(chunk) for chunk in sources)
    source_figures = {figure_key(n) for n in numbers(source_text)}
    allowed_words = _words(source_text) | _words(" ".join(c["doc_name"] for c in sources)) | _words(question)
    figures = [n for n in numbers(claim) if figure_key(n) not in source_figures]
    names = [n for n in _names(claim) if not _words(n) <= allowed_words]
    return [*figures, *names]


def unsupported_sentences(question: str, answer: str, evidence: Sequence[EvidenceChunk]) -> list[str]:
    """Cited sentences stating a figure or a name that none of their (valid) cited chunks contain."""
    by_id = {chunk["chunk_id"]: chunk for chunk in evidence}
    found: list[str] = []
    for sentence in answer_sentences(answer):
        ids = [c for c in CITATION.findall(sentence) if c in by_id]
        if not ids:
            continue  # uncited and invalid citations have their own penalties
        claim = strip_citations(sentence)
        if unstated(claim, [by_id[c] for c in ids], question):
            found.append(claim)
    return found


def copies_example(answer: str) -> bool:
    """True when a sentence of the answer is (nearly) the prompt's example claim."""
    return any(_is_example(strip_citations(sentence)) for sentence in answer_sentences(answer))


@lru_cache(maxsize=4096)  # each round's draft and audit read again the claims of the drafts before it
def _is_example(claim: str) -> bool:
    words = " ".join(sorted(_words(claim)))
    example = " ".join(sorted(_words(EXAMPLE_CLAIM)))
    return bool(words) and SequenceMatcher(None, words, example).ratio() >= EXAMPLE_SIMILARITY


def missing_anchors(
    question: str,
    answer: str,
    evidence: Sequence[EvidenceChunk],
    wanted: Sequence[str] | None = None,
    names: Sequence[str] = (),
) -> list[str]:
    """The question's anchors (or `wanted`) that none of the answer's validly cited sentences holds, read in their
    passages, a number it names as a code that no quote says itself, the table column it asks about when the quoted
    rows have no cell in it, and then the `names` it writes as plain words (`masis.judge.names`) and the settings it
    names so (`anchors.named_settings`) that no quote holds."""
    wanted = anchors.anchors(question) if wanted is None else wanted
    by_id = {chunk["chunk_id"]: chunk for chunk in evidence}
    quotes = [
        (_quoted(strip_citations(sentence), by_id[chunk_id]), by_id[chunk_id])
        for sentence in answer_sentences(answer)
        for chunk_id in CITATION.findall(sentence)
        if chunk_id in by_id
    ]
    if not quotes:
        return []
    absent = anchors.missing(wanted, quotes)
    # "Debian 11" is held by a quote that says 11 of Debian, not by one with "macOS 11" beside "Debian 10"
    pairs = [pair for pair in anchors.bound(question) if all(part in wanted for part in pair.rsplit(" ", 1))]
    unbound = [pair for pair in pairs if pair.rsplit(" ", 1)[1] not in absent
               and not any(anchors.held_together(pair, sentence, chunk) for sentence, chunk in quotes)]
    # "exit status 1" is not answered by the sentence on status 2, whatever other figures its passage holds; a model's
    # paraphrase (no quote of its own) is read in its passage, as above
    uncoded = [number for number in anchors.coded_numbers(question) if number in wanted and number not in absent
               and not any(_says_code(sentence, chunk, number) for sentence, chunk in quotes)]
    # "releases after 2.8.2" is not answered by the row for "2.4.1-2.8.2", nor "bq before 2.0.99" by "2.0.99 and later"
    said = [sentence or chunk["text"] for sentence, chunk in quotes]
    reversed_scope = [release for release, after in anchors.relative_releases(question)
                      if release in wanted and release not in absent
                      and anchors.held_only_on_other_side(said, release, after)]
    empty_cells = tables.missing_columns(question_terms(question), quotes, worded_terms(question))
    found = [*absent, *unbound, *uncoded, *reversed_scope, *empty_cells]
    # a setting the question names in a plain word ("CAKE's pppoa-llc keyword") is as exact as a flag
    settings = [setting for setting in anchors.named_settings(question) if setting not in wanted]
    return [*found, *(name for name in anchors.missing([*names, *settings], quotes) if name not in found)]


def _says_code(sentence: str, chunk: EvidenceChunk, number: str) -> bool:
    """Whether a quote says the code `number`: itself, or as the entry it sits in, which opens with the code or has it
    on the line above (tar(1)'s "1 Some files differ. … If tar was given one of the --create … options, this exit code
    means …"). A model's paraphrase (no quote of its own) is read in its passage."""
    text = sentence or chunk["text"]
    if anchors.holds(text, number) and not _only_in_ranges(text, number):
        return True
    said = " ".join(sentence.split())[:60]
    lines = [line.split() for line in chunk["text"].splitlines()]
    return any(said in " ".join(words) and (words[:1] == [number] or (at and lines[at - 1] == [number]))
               for at, words in enumerate(lines))


_DASHES = "-–—"


def _only_in_ranges(text: str, number: str) -> bool:
    """Whether every time `text` writes the code `number` it ends a range of codes ("unzip values 2, 9-11 and 80-82"):
    a sentence about a range says something of all its codes, not what the one asked means (shelfdocs tune sf-066,
    unzip(1)'s VMS mapping over "82 no files were found due to bad decryption password(s)" at 1.0)."""
    found = list(re.finditer(rf"(?<![\w.]){re.escape(number)}(?![\w])", text))
    return bool(found) and all(_ends_range(text, match) for match in found)


def _ends_range(text: str, match: re.Match[str]) -> bool:
    before, after = text[: match.start()].rstrip(), text[match.end() :].lstrip()
    return (before[-1:] in _DASHES and before[:-1].rstrip()[-1:].isdigit()) or (
        after[:1] in _DASHES and after[1:].lstrip()[:1].isdigit())


def quotes_passage(claim: str, chunk: EvidenceChunk) -> bool:
    """True when the claim is the passage's own words (led by its heading or not)."""
    return bool(_quoted(claim, chunk))


def _quoted(claim: str, chunk: EvidenceChunk) -> str:
    """The claim when it is the passage's own words (led by its heading or not); "" for a model's paraphrase, whose
    words hold nothing the passage does not ("The gross margin in Q2 2026 was 61%" cited to the Q3 report must not
    hold "Q2" by echoing the question): then only the passage, its heading and its document's name are read."""
    said = " ".join(anchors.parts(claim))
    text = f" {' '.join(anchors.parts(chunk['text']))} "
    heading = " ".join(anchors.parts(chunk.get("section") or ""))
    if heading and said.startswith(f"{heading} "):
        said = said[len(heading) + 1 :]
    return claim if f" {said} " in text else ""


# the kinds a sentence plainly gives or not; a name or a place is read less surely
_TYPED_FLOOR = ("date", "number", "returned", "default", "alias", "range")


def untyped_answer(question: str, claims: Sequence[str]) -> str | None:
    """The kind of answer the question asks for (a date, a number) when the answer's validly cited sentences
    (`claims`) give none; None when they do, when the question asks for no such kind, or when nothing is validly
    cited (the citation floor's case)."""
    kind = expected_type(question)
    if kind not in _TYPED_FLOOR or not claims or any(gives_type(claim, kind, question) for claim in claims):
        return None
    return kind


def restates_question(question: str, answer: str) -> bool:
    """Whether the answer opens with a question (`citations.leads_with_question`: a FAQ's entry quoted by its own
    question) and what follows gives no answer of the kind asked for: "23 Why doesn't upsmon shut down my system? I
    pulled the plug and nothing happened." restates "upsmon did nothing?? is that a bug" (opsdocs tune od-107), where
    "What happened to the commandkey and generatecommandkey directives? They were removed in version 2.2." answers
    "In which chrony version were they removed?" (od-051). A question that asks for no such kind has nothing after
    the question that could say so."""
    if not leads_with_question(answer):
        return False
    kind = expected_type(question)
    rest = [strip_citations(sentence) for sentence in answer_sentences(answer)[1:]]
    return kind is None or not any(gives_type(claim, kind, question) for claim in rest)


def check(
    question: str,
    answer: str,
    evidence: Sequence[EvidenceChunk],
    wanted_anchors: Sequence[str] | None = None,
    names: Sequence[str] = (),
) -> Floors:
    """The floors' findings on a draft; `wanted_anchors` are the question's exact constraints when the caller
    knows them better than the joined question text does (`anchors.latest_anchors` of a refined question), and
    `names` the tools and packages it names in plain words, which only the caller's workspace can tell
    (`masis.judge.names`)."""
    quotes = _cited_quotes(answer, evidence)
    claims = [claim for claim, _ in quotes]
    missing = missing_anchors(question, answer, evidence, wanted_anchors, names)
    # a release no quote names is the anchor floor's finding; naming the other releases quoted would send their
    # numbers into the retry's query
    other_releases = [pair for pair in swaps.swapped_versions(question, quotes, wanted_anchors)
                      if pair[0].rsplit(" ", 1)[1] not in missing]
    return Floors(
        unsupported=unsupported_sentences(question, answer, evidence),
        copied_example=copies_example(answer),
        conflicts=evidence_conflicts(question, evidence),
        missing_anchors=missing,
        unmet_negation=negation.unmet(question, claims),
        contradicted=contrast.contradicted(question, claims),
        swapped=[*swaps.swapped(question, claims), *swaps.swapped_codes(question, quotes), *other_releases,
                 *swaps.typed_of_other_release(question, quotes),
                 *swaps.swapped_modifiers(question, claims)],
        untyped=untyped_answer(question, claims),
        figure_elsewhere=subjects.figure_elsewhere(question, quotes, wanted_anchors),
        reversed_role=roles.reversed_role(question, claims),
        span_for_moment=periods.span_for_moment(question, claims),
        unspoken_attribute=attribute.unspoken(question, quotes),
        unsettled=unsettled.unsettled(question, claims),
        stitched=stitched.stitched(question, quotes, wanted_anchors, names),
        default_elsewhere=defaults.default_elsewhere(question, quotes),
        undescribed=described.undescribed(question, quotes),
        unstated_limit=limits.unstated_limit(question, claims),
    )


def _cited_quotes(answer: str, evidence: Sequence[EvidenceChunk]) -> list[tuple[str, EvidenceChunk]]:
    """The answer's sentences that cite a retrieved chunk, without their citations, each with its first such chunk."""
    by_id = {chunk["chunk_id"]: chunk for chunk in evidence}
    found: list[tuple[str, EvidenceChunk]] = []
    for sentence in answer_sentences(answer):
        cited = [by_id[chunk_id] for chunk_id in CITATION.findall(sentence) if chunk_id in by_id]
        if cited:
            found.append((strip_citations(sentence), cited[0]))
    return found


def apply(critique: Critique, floors: Floors, audit: CitationAudit) -> Critique:
    """The critique with the floors' findings added; a model's finding is never removed."""
    update = critique.model_copy(deep=True)
    known = {" ".join(claim.lower().split()) for claim in update.unsupported_claims}
    for claim in floors.unsupported:
        if " ".join(claim.lower().split()) not in known:
            update.unsupported_claims.append(claim)
    reasons: list[str] = []
    if floors.unsupported:
        reasons.append(f"{len(floors.unsupported)} sentence(s) state a figure or name their sources do not")
    if floors.copied_example:
        update.hallucination_detected = True
        reasons.append("the answer copies the prompt's example")
    seen = {frozenset(c.documents) for c in update.conflicts}
    for conflict in floors.conflicts:
        if frozenset(conflict.documents) not in seen:
            update.conflicts.append(conflict)
            seen.add(frozenset(conflict.documents))
            reasons.append(f"sources disagree on {conflict.topic}")
    def gap(text: str, reason: str) -> None:
        if text not in update.logical_gaps:
            update.logical_gaps.append(text)
        reasons.append(reason)

    if floors.missing_anchors:
        named = ", ".join(f"'{anchor}'" for anchor in floors.missing_anchors)
        gap(f"The quoted passages do not mention {named}.", f"the quoted passages do not mention {named}")
    if floors.unmet_negation:
        gap("The question asks what is not the case; every quote states what is.",
            "the quotes do not say what the question denies")
    if floors.contradicted:
        said = ", ".join(f"'{quoted}' where the question says '{asked}'" for asked, quoted in floors.contradicted)
        gap(f"The quotes say {said}.", f"the quotes say {said}")
    if floors.swapped:
        said = ", ".join(f"'{quoted}' where the question names '{asked}'" for asked, quoted in floors.swapped)
        gap(f"The quotes say {said}.", f"the quotes say {said}")
    if floors.figure_elsewhere:
        named = ", ".join(f"'{anchor}'" for anchor in floors.figure_elsewhere)
        gap(f"The quoted figures are not said about {named}.", f"no quoted figure is said about {named}")
    if floors.reversed_role:
        doer, verb = floors.reversed_role
        gap(f"The quotes name '{doer}' as the one '{verb}' is done to, not the doer.",
            f"the quotes have '{doer}' on the other side of '{verb}'")
    if floors.span_for_moment:
        gap(f"The quotes give the span {floors.span_for_moment}, not the moment asked about.",
            f"the quotes give the span {floors.span_for_moment}, not the moment asked about")
    if floors.unspoken_attribute:
        gap(f"No quote speaks of the {floors.unspoken_attribute} asked about.",
            f"no quote speaks of the {floors.unspoken_attribute}")
    if floors.unsettled:
        gap(f"The quoted passage leaves it open ('{floors.unsettled}').",
            f"the quoted passage leaves it open ('{floors.unsettled}')")
    if floors.stitched:
        named = ", ".join(f"'{anchor}'" for anchor in floors.stitched)
        gap(f"Only another document's quotes mention {named}.", f"only another document's quotes mention {named}")
    if floors.default_elsewhere:
        gap(f"The quoted default is not said of the {floors.default_elsewhere} asked about.",
            f"the quoted default is another's than the {floors.default_elsewhere}'s")
    if floors.undescribed:
        gap(f"The quotes mention {floors.undescribed} but none is about it.",
            f"the quotes mention {floors.undescribed} but none is about it")
    if floors.unstated_limit:
        gap(f"The question asks for a {floors.unstated_limit}; no quote says a limit.",
            f"no quote says the {floors.unstated_limit} asked for")
    if floors.untyped:
        gap(f"The question asks for a {floors.untyped}; no cited sentence gives one.",
            f"no cited sentence gives the {floors.untyped} asked for")
    if no_valid_citation(audit):
        reasons.append(NO_VALID_CITATION)
    if reasons:
        update.needs_retry = True
        update.reasoning = "; ".join([update.reasoning, *reasons] if update.reasoning else reasons)
    return update


def no_valid_citation(audit: CitationAudit) -> bool:
    return audit.sentences > 0 and not audit.valid_ids

