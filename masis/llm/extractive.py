"""The offline provider: deterministic, extractive, and honest about what the evidence covers.

- synthesize: picks the evidence sentences that best cover the question (greedy, diminishing returns
  for terms already covered), cites each one, and hedges on the question terms nothing covers;
- critique: checks each cited sentence against the chunk it cites (terms and numbers), lists the
  question terms the answer leaves open, and flags numeric disagreements between documents;
- evaluate: scores the draft from those checks.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from collections.abc import Set as AbstractSet
from typing import cast

from masis.judge import anchors, matching, quotes
from masis.judge.answer_type import (
    answer_noun,
    as_said,
    asked_action,
    expected_type,
    gives_type,
    is_authoring,
    names_author,
    of_the_document_only,
)
from masis.judge.calibration import TOP_BAND, calibrated, close_in_meaning
from masis.judge.citations import CITATION, answer_sentences, cited_ids, is_hedge, strip_citations
from masis.judge.conflicts import conflicts as find_conflicts
from masis.judge.evidence import ENTRY_SENTENCE_MAX, Sentence, evidence_sentences, evidence_weights, in_table
from masis.judge.faq import is_question, question_answered, under_questions
from masis.judge.findings import Critique, Evaluation, Relatedness
from masis.judge.meaning import best_by_meaning
from masis.judge.phrases import content_words
from masis.judge.reading import Earlier, Reading, read
from masis.judge.relevance import coverage
from masis.judge.sentences import (
    is_field,
    is_heading,
    is_keyed_entry,
    is_option_term,
    is_program_text,
    is_release_heading,
    is_release_line,
    is_synopsis,
    sentence_blocks,
    split_sentences,
    table_cells,
    underlined_heading,
)
from masis.judge.subjects import of_another_product, package_header, products
from masis.judge.support import source_text, supports
from masis.judge.terms import WORD, question_terms, terms
from masis.state import EvidenceChunk

MAX_SENTENCES = 5
HEADING_LEAD_MAX = 80  # a section heading longer than this is not put before a quote
MIN_GAIN = 0.15  # a sentence must add at least this share of the question to be worth citing
COVERED_TERM_DISCOUNT = 0.3
TYPE_BONUS = 0.15  # share of the question a sentence giving the kind of answer asked for (a date for "when") adds
ANCHOR_BONUS = 0.1  # share of the question a sentence naming all its anchors itself adds (those no chosen one names)
# A piece of a program holds the question's words as names, imports and comments ("from colorama import … print(
# Style.RESET_ALL) … # and reset to default color"), not as a statement about them. So when a question asks what
# something does ("What does colorama's Style.RESET_ALL reset?", "What does tqdm's update() method return?"), a prose
# sentence that holds nearly as much ("Style.RESET_ALL resets foreground, background, and brightness.") is quoted
# first. Not for a value, a name or a how-to, which a program may well give (the port an example listens on, the
# address Gunicorn binds to, the command that runs the tests): applied to every question, the documentation sets'
# tune splits lost 7 right answers for 2.
PROGRAM_PENALTY = 0.15
_ASKS_WHAT_IT_DOES = re.compile(r"^\W*what\s+(?:does|do|did)\s+\S", re.IGNORECASE)
MEANING_WEIGHT = 0.3  # share of the question a sentence's closeness in meaning (on the relevance scale) adds
# a question that joins two asks ("the budget and the deadline") may take each from another passage
_ASKS_SEVERAL = re.compile(r"\b(?:and|both)\b", re.IGNORECASE)
FOCUS_QUOTES = 3  # how many of the first supported quotes may hold the focused answer (what the reader sees first)
FOCUS_COVERAGE = 0.75  # the share of the question's weighted words a focused quote holds itself
UNFOCUSED_CONFIDENCE = 0.85  # the most an answer may score whose quotes need their passage for an anchor or its type
# the most an unfocused answer may score whose first quote leaves the question's keys and figures to the rest of its
# passage: on the documentation sets' tune splits such answers were right 5 times in 10
UNKEYED_LEAD_CONFIDENCE = 0.55
# An answer that takes four or more quotes gathers what a passage says around the question's words rather than giving
# one that answers it: at 0.9 or more such answers were right 17 times in 22 at the first run of the five newest
# documentation sets' tune splits (1-3 quotes: 79 in 88), and 51 in 56 on the fourteen tune splits now (186 in 191)
GATHERED_QUOTES = 4
GATHERED_CONFIDENCE = 0.85
UNTYPED_ANSWER = 0.5  # share of confidence kept when a "who/when/how many" question gets no name, date or number
# A question that names no kind of answer ("how do i …", "what does X do"; not "what river …?" answered by a quote
# that names a river) is credited with its quotes' closeness in meaning only when their words already answer this
# much of it: on the documentation sets' tune splits (stop 65's
# code), such answers that the words alone left under 0.65 were right 27 times in 45, under the two in three that an
# answer must be; on the check splits 11 in 29. A question that asks for a kind of answer the quotes give is
# credited as before (right 75 times in 89 on the tune splits).
MEANING_WORDS_FLOOR = 0.65


def _term_words(question: str) -> dict[int, str]:
    """Map each question term id back to a word the user wrote, for readable hedges and gaps."""
    words: dict[int, str] = {}
    wanted = question_terms(question)
    for word in WORD.findall(question):
        for term in terms(word) & wanted:
            words.setdefault(term, word)
    return words


def _missing_words(question: str, covered: Collection[int]) -> list[str]:
    return [word for term, word in _term_words(question).items() if term not in covered]


# words by which a question names where it read something, not what it asks: "Which conda channel does the pyarrow
# README install pyarrow from?" is answered from the wheel's METADATA, which is that README
_DOCUMENT_WORDS = frozenset({
    "readme", "page", "pages", "guide", "docs", "documentation", "manual", "manpage", "table", "example", "examples",
    "section", "chapter", "csv", "faq"})


def _hedged_words(question: str, covered: Collection[int], evidence: Sequence[EvidenceChunk]) -> list[str]:
    """The words a hedge names: what the question is about (`phrases.content_words`) that the quotes leave out and
    that the passages read say nowhere (their text, section or document name), in full or written out ("max" for
    "maximum"), and that do not name a document or its part ("README", "table"). "The documents do not say anything
    about Node, js." above the Node.js manual was false, and so is a gap named for a word the quote paraphrased while
    its passage says it."""
    about = terms(" ".join(content_words(question)))
    said_text = " ".join(
        " ".join([chunk["text"], chunk.get("section") or "", quotes.document_title(chunk["doc_name"])])
        for chunk in evidence
    )
    said = terms(said_text)
    written = matching.words(said_text)
    return [
        word
        for word in _missing_words(question, covered)
        if terms(word) & about
        and word.lower() not in _DOCUMENT_WORDS
        and not terms(word) & said
        and not any(other.startswith(word.lower()) for other in written)
    ]


class ExtractiveProvider:
    """Answers by quoting the evidence; never invents a sentence it could not cite."""

    name = "extractive"
    compression_uses_model = False
    reading_uses_model = False
    audit_uses_model = False

    def read_in_context(
        self,
        question: str,
        earlier: Sequence[Earlier],
        antecedent: str | None = None,
        names: Sequence[str] = (),
        tools: AbstractSet[str] = frozenset(),
    ) -> Reading:
        return read(question, earlier, antecedent, names, tools)  # deterministic rules: masis.judge.reading

    def synthesize(
        self,
        question: str,
        evidence: Sequence[EvidenceChunk],
        feedback: Critique | None = None,
        relatedness: Relatedness | None = None,
    ) -> str:
        asked = matching.question(question)
        sentences = evidence_sentences(evidence)
        weights = evidence_weights(asked.terms, sentences)
        avoid = {s.lower() for s in (feedback.unsupported_claims if feedback else [])}
        covered: set[int] = set()
        chosen: list[Sentence] = []
        # a sentence is read under its section's heading: "What changed in 2.4.0?" is answered by the sentences of the
        # section headed "Release 2.4.0", which do not repeat the version (not under its document's name: crediting
        # every sentence of a document with the name's words answered more near misses than it gained answers)
        headings = {chunk["chunk_id"]: asked.credits_in(chunk.get("section") or "") for chunk in evidence}
        own = {id(s): _own_credits(asked, s, question) for s in sentences}
        # a short sentence of an entry is read with the entry's first sentence ("Default: 256." with "maxFreeSockets …")
        leads = {id(s): asked.credits_in(s.lead) if s.lead else {} for s in sentences}
        # a FAQ's answer is read under its question, which answers nothing itself (`masis.judge.faq`)
        faq = {answer: asked.credits_in(posed.text) for answer, posed in under_questions(sentences).items()}
        credits = {
            id(s): {**headings.get(s.chunk["chunk_id"], {}), **faq.get(id(s), {}), **leads[id(s)], **own[id(s)]}
            for s in sentences
        }
        noun = answer_noun(question)
        asked_for = terms(noun) if noun else frozenset()  # the noun the answer is asked by ("the status")
        kind = expected_type(question)
        wanted = anchors.anchors(question)
        candidates = [
            s
            for s in sentences
            if credits[id(s)]
            and s.text.lower() not in avoid
            and not is_question(s.text)
            and (not is_heading(s.text) or _asked_field(s.text, asked, asked_for) or _list_item(s)
                 or _heading_answers(s.text, kind, question, wanted))
        ]
        # a usage line is quoted only when nothing else holds the question's words (`is_synopsis`)
        candidates = [s for s in candidates if not is_synopsis(s.text)] or candidates
        candidates = [s for s in candidates if not _restated_header(s.text, question)]
        candidates = _holding_most_anchors(question, candidates)
        # among the sentences of a passage that holds the question's anchors, the ones that name them themselves (or
        # under their entry, heading or document) lead: "PRIORITY_ABOVE_NORMAL … nice value of -7", not its
        # neighbouring entry "PRIORITY_BELOW_NORMAL …" that shares every other word
        naming = _naming_anchors(wanted, candidates)
        if noun and not kind:
            # "what was the capital of ...": a sentence that names the kind of thing asked for ("the Mongol
            # Empire capital Karakorum") gives it, where its other words only repeat the question
            typed = {id(s) for s in candidates if asked_for & s.terms}
        else:
            if kind == "default":
                candidates = _of_asked_entries(candidates, asked.terms, question)
            typed = {id(s) for s in candidates if gives_type(s.text, kind, question)}
        describes = kind in {None, "returned"} and noun is None and _ASKS_WHAT_IT_DOES.match(question) is not None
        program = {id(s): PROGRAM_PENALTY if describes and is_program_text(s.text) else 0.0 for s in candidates}
        # what each sentence says in other words than the question's: "What river separates Jacksonville?" is
        # answered by "the St. Johns River divides the city", not by the sentence that repeats "Jacksonville"
        meaning: dict[int, float] = {}
        unread: dict[int, str] = {}  # what may be read, when it could change a choice (`meaning.best_by_meaning`)
        if relatedness is not None and candidates:
            # only the sentences that meaning could lift to the top are read
            words = {id(s): self._gain(credits[id(s)], weights, set()) + (TYPE_BONUS if id(s) in typed else 0.0)
                     - program[id(s)] for s in candidates}
            top = max(words.values())
            unread = {id(s): _with_lead(s) for s in candidates if words[id(s)] >= top - MEANING_WEIGHT}
        while candidates and len(chosen) < MAX_SENTENCES:
            # until a chosen sentence gives the kind of answer asked for, one that does gets a bonus
            bonus = 0.0 if any(id(s) in typed for s in chosen) else TYPE_BONUS
            named = set().union(*(naming.get(id(s), set()) for s in chosen))
            # after the first, a sentence from another passage is quoted only for what it adds: a question term
            # not yet covered, or the kind of answer asked for ("Headcount at quarter end was 231" adds nothing
            # to "Kestrel Labs ended the quarter with 412 customers"); the quoted passage's own next sentences
            # may still complete it, but not its other table rows (a row is a record of its own)
            quoted = {s.chunk["chunk_id"] for s in chosen}
            adding = [
                s
                for s in candidates
                if not chosen
                or (s.chunk["chunk_id"] in quoted and not in_table(s))
                or credits[id(s)].keys() - covered
                or (bonus and id(s) in typed)
            ]
            if not adding:
                break
            scored = [
                (
                    s,
                    self._gain(credits[id(s)], weights, covered)
                    + (bonus if id(s) in typed else 0.0)
                    + ANCHOR_BONUS * len(naming.get(id(s), set()) - named) / max(1, len(wanted))
                    - program[id(s)],
                )
                for s in adding
            ]
            if max(gain for _, gain in scored) < MIN_GAIN:
                break  # whichever sentence meaning would choose adds too little
            best, gain = best_by_meaning(
                scored, meaning, unread, relatedness, MEANING_WEIGHT, lambda s: s.chunk["relevance"]
            )
            if gain < MIN_GAIN:
                break
            chosen.append(best)
            covered |= credits[id(best)].keys()
            candidates.remove(best)
        if not chosen:
            return "The documents do not say anything that answers this question."
        if not own[id(chosen[0])] and len(chosen) == 1:
            chosen += _section_continues(chosen[0], sentences, avoid)
        # a short sentence is quoted after its entry's first sentence when that says what it is about
        # and an option's description after the option it describes: "Remove certain constructs (console | debugger)"
        # says what "--drop:..." does, not how to do it
        needs_lead = {id(s) for s in sentences
                      if leads[id(s)].keys() - own[id(s)].keys() or (s.lead and is_option_term(s.lead))}
        chosen = _with_what_follows_colons(
            _with_entry_leads(chosen, sentences, needs_lead), sentences, avoid, asked.terms)
        lines: list[str] = []
        shown: set[str] = set()  # the sentences quoted so far, as themselves or as the referent that leads another
        release_noun = _asked_release(question)
        for sentence in chosen:
            if sentence.text in shown:
                continue
            quoted = _standing_alone(sentence, question, shown)
            if (remark := _remark_after(sentence, sentences)) and remark.text not in shown and remark not in chosen:
                quoted = f"{quoted} {remark.text}"  # "Print the content of the boot block. (This option is not yet …)"
            shown.update(s.text for s in sentences if s.chunk is sentence.chunk and s.text.rstrip(".!?") in quoted)
            lines.append(_cite(quoted, sentence.chunk["chunk_id"]))
            if release_noun and quoted.endswith(f": {sentence.text}"):
                covered |= terms(release_noun)  # the heading put before the quote gives the release asked for
        for chunk in {s.chunk["chunk_id"]: s.chunk for s in chosen}.values():
            covered.update(_context(chunk, asked, question))
        if kind and typed.intersection(map(id, chosen)):
            # "Since which Gunicorn version …?" is answered by "19.6.0", not by the word
            covered |= asked_for | (terms(release_noun) if release_noun else frozenset())
        missing = _hedged_words(question, covered, evidence)
        if missing:
            lines.append(f"The documents do not say anything about {', '.join(missing)}.")
        return " ".join(lines)

    @staticmethod
    def _gain(credits: dict[int, float], weights: dict[int, float], covered: set[int]) -> float:
        total = sum(weights.values()) or 1.0
        gain = sum(
            weight * credits[term] * (COVERED_TERM_DISCOUNT if term in covered else 1.0)
            for term, weight in weights.items()
            if term in credits
        )
        return gain / total

    def compress(self, question: str, evidence: Sequence[EvidenceChunk], max_chars: int) -> list[EvidenceChunk]:
        """Keep, per chunk, only the sentences that share a term with the question, within budget."""
        q_terms = question_terms(question)
        # a short sentence with the noun the answer is asked by stays ("It had uid 37." answers "Which uid did the
        # operator user have?"); a long one is kept for the question's other words or not at all
        named = terms(noun) if (noun := answer_noun(question)) else frozenset()
        budget = max_chars
        compressed: list[EvidenceChunk] = []
        for chunk in sorted(evidence, key=lambda c: c["relevance"], reverse=True):
            # block by block, so that what is left keeps its entries apart (`evidence.Sentence.lead`)
            blocks = [_kept(block, q_terms, named) for block in sentence_blocks(chunk["text"])]
            text = "\n".join(" ".join(block) for block in blocks if block)
            if not text or len(text) > budget:
                continue
            budget -= len(text)
            compressed.append({**chunk, "text": text})
        return compressed

    def critique(
        self,
        question: str,
        answer: str,
        evidence: Sequence[EvidenceChunk],
        term_weights: Mapping[int, float] | None = None,
        relatedness: Relatedness | None = None,
    ) -> Critique:
        by_id = {chunk["chunk_id"]: chunk for chunk in evidence}
        asked = matching.question(question)
        sentences = evidence_sentences(evidence)
        # the workspace's IDF when the critic node gives it: a question word common across the documents ("view",
        # "role") weighs less than the name or subject it is about; else rarity within the evidence
        weights = term_weights if term_weights is not None else evidence_weights(asked.terms, sentences)

        unsupported: list[str] = []
        invalid = [c for c in cited_ids(answer) if c not in by_id]
        # what each quoted passage covers of the question, read on its own: an answer is as good as its best
        # passage, not the union of unrelated sentences that each share a word with the question ("exit code"
        # from one page, "unknown option" from another)
        covered_by: dict[str, dict[int, float]] = {}
        said: dict[str, list[str]] = {}
        uncited: dict[int, float] = {}

        def cover(claim: str, into: dict[int, float]) -> None:
            for term, credit in asked.credits_in(_said(claim, question)).items():
                into[term] = max(credit, into.get(term, 0.0))

        cited_sentences = 0
        supported: list[str] = []
        quoted: list[tuple[str, str]] = []  # (claim, chunk id) of the supported quotes, in order
        kind = expected_type(question)
        release_noun = _asked_release(question) if kind == "version" else None
        keys = [anchor for anchor in anchors.anchors(question) if anchors.is_key(anchor)]
        # a setting the question names in a plain word ("npm ls's include option") is held by the entry that gives
        # its value, whatever else its passage holds: a plain word is no anchor, so no other floor asks for it
        settings = [word for word in anchors.named_settings(question) if word not in keys]
        # "Who approved the AI investment?": when the answer's quotes say the asked action, the name must come with it,
        # not with the investment ("Kestrel Labs will invest $4.2 million in AI") beside another approval. Quotes that
        # word the action otherwise ("given royal assent by Queen Elizabeth" to "Who gave …?") are left to the words.
        verb = asked_action(question)
        action = terms(verb) if verb else set()
        # "Who contributed the hooks?": "Add activate/deactivate hooks by @joshfrench" says it without the verb
        authoring = terms(verb) & weights.keys() if verb and is_authoring(verb) else set()
        action &= set().union(
            *(asked.credits_in(strip_citations(s)).keys() for s in answer_sentences(answer) if CITATION.search(s))
        )
        typed = kind is None
        typed_in: set[str] = set()  # the passages whose quotes give the kind of answer asked for
        # a value asked of one tool is not given by another tool's page quoted beside it
        cited = [c for c in cited_ids(answer) if c in by_id]
        named_products = products(question, [by_id[c]["doc_name"] for c in cited])
        other_tools = {c for c in cited if of_another_product(by_id[c], named_products)}
        for sentence in answer_sentences(answer):
            claim = strip_citations(sentence)
            ids = CITATION.findall(sentence)
            if not ids:
                if is_hedge(claim):
                    continue
                cover(claim, uncited)
                continue
            cited_sentences += 1
            if not any(supports(source_text(by_id[c]), claim) for c in ids if c in by_id):
                unsupported.append(claim)
            else:
                supported.append(claim)
                before = quoted[-1][0] if quoted and quoted[-1][1] in ids else ""
                quoted += [(claim, c) for c in ids[:1] if c in by_id]
                # the value asked for must come from the entry that holds the question's key (a flag, an identifier,
                # a code) when its passage holds that entry: "since: v2.20" of the hwclock entry does not say when
                # `sfdisk --show-size` was deprecated. A passage without the key is the anchor floor's to find.
                says_action = not action or any(
                    action & asked.credits_in(" ".join([before, claim, by_id[c].get("section") or ""])).keys()
                    for c in ids
                    if c in by_id
                )
                gives = says_action and gives_type(as_said(claim, before, kind), kind, question) and not any(
                    anchors.listed_only(claim, key) for key in keys
                ) and any(
                    c not in other_tools and not of_the_document_only(claim, question, by_id[c]["doc_name"])
                    and not anchors.missing(
                        [key for key in keys if anchors.holds(by_id[c]["text"], key)] + settings,
                        [(claim, _entry_of(claim, before, by_id[c]))],
                    )
                    for c in ids
                    if c in by_id
                )
                gives = gives and not any(
                    _row_of_nothing_asked(claim, before, by_id[c], asked, sentences) for c in ids if c in by_id
                )
                typed = typed or gives
                for chunk_id in ids:  # a quote is read under its heading, in its document
                    if chunk_id in by_id:
                        context = _context(by_id[chunk_id], asked, question)
                        passage = covered_by.setdefault(chunk_id, dict.fromkeys(context, 1.0))
                        cover(claim, passage)
                        if posed := question_answered(by_id[chunk_id]["text"], claim):
                            cover(posed, passage)  # a FAQ's answer is read with its question
                        if authoring and names_author(claim):
                            passage.update(dict.fromkeys(authoring, 1.0))
                        said.setdefault(chunk_id, []).append(claim)
                        if gives:
                            typed_in.add(chunk_id)
                            if release_noun and _gives_release(claim, question):
                                # "which wadllib version …?" is answered by a version, not by the word
                                passage.update(dict.fromkeys(terms(release_noun) & weights.keys(), 1.0))
                            if kind == "date" and is_release_heading(claim):
                                # "Version 0.20.2 - April 2020" says when 0.20.2 was released, without the word
                                passage.update(dict.fromkeys(_RELEASE_VERB_TERMS & weights.keys(), 1.0))
        covered: dict[int, float] = dict(uncited)
        for passage in covered_by.values():
            for term, credit in passage.items():
                covered[term] = max(credit, covered.get(term, 0.0))
        gaps = [f"The answer does not address '{word}'." for word in _missing_words(question, covered)]
        if not typed:
            gaps.append(f"The question asks for a {kind}; no supported sentence gives one.")
        conflicts = find_conflicts(answer, evidence, sentences, question)
        support = (cited_sentences - len(unsupported)) / cited_sentences if cited_sentences else 0.0
        def answers(chunk_id: str) -> float:
            """How much of the question one passage's quotes answer: the words they cover, halved when the question
            asks for a kind of answer (a name, a version) that the passage's quotes do not give."""
            given = kind is None or chunk_id in typed_in
            return coverage(weights, {**uncited, **covered_by[chunk_id]}) * (1.0 if given else UNTYPED_ANSWER)

        best = max(covered_by, key=answers, default=None)
        answered = answers(best) if best else coverage(weights, uncited) * (1.0 if typed else UNTYPED_ANSWER)
        if _ASKS_SEVERAL.search(question):
            # "What are the Falcon budget and the Falcon deadline?" may be answered by two passages together
            answered = max(answered, coverage(weights, covered) * (1.0 if typed else UNTYPED_ANSWER))
        by_meaning = False
        # the supported claims may answer in other words than the question's ("What river separates Jacksonville?" /
        # "the St. Johns River divides the city"); not the kind of answer that they don't give. Their closeness is at
        # most 1, so they are read only when that could raise what the words answer.
        share = 1.0 if kind is None or best in typed_in else UNTYPED_ANSWER
        if relatedness is not None and best and answered < share and (
            kind is not None or answered >= MEANING_WORDS_FLOOR or _names_asked_noun(question, said[best])
        ):
            meaning = relatedness([" ".join(said[best])])[0] * share
            by_meaning = meaning > answered
            answered = max(answered, meaning)
        confidence = calibrated(support * answered, by_meaning=by_meaning)
        if not _focused(question, kind, quoted, by_id, lambda text: coverage(weights, asked.credits_in(text))):
            # the top of the scale is for a quote that itself holds the question's exact constraints and gives the
            # kind of answer asked for; one that leans on the rest of its passage for them is right less often
            confidence = min(confidence, UNFOCUSED_CONFIDENCE)
            if quoted and _lead_unkeyed(question, _first_record(quoted), by_id, quoted):
                confidence = min(confidence, UNKEYED_LEAD_CONFIDENCE)
        if cited_sentences >= GATHERED_QUOTES:
            confidence = min(confidence, GATHERED_CONFIDENCE)
        if conflicts:
            confidence = min(confidence, 0.5)
        if relatedness is not None and supported and confidence > TOP_BAND[1]:
            confidence = close_in_meaning(confidence, max(relatedness(supported)))
        reasons = []
        if unsupported:
            reasons.append(f"{len(unsupported)} claim(s) not supported by the cited evidence")
        if gaps:
            reasons.append(f"{len(gaps)} part(s) of the question unanswered")
        if conflicts:
            reasons.append(f"sources disagree on {conflicts[0].topic}")
        return Critique(
            hallucination_detected=bool(invalid),
            unsupported_claims=unsupported,
            logical_gaps=gaps,
            conflicts=conflicts,
            confidence=round(confidence, 4),
            needs_retry=bool(unsupported or conflicts),
            reasoning="; ".join(reasons) or "every cited sentence is supported by its source",
        )

    def evaluate(self, question: str, answer: str, evidence: Sequence[EvidenceChunk], critique: Critique) -> Evaluation:
        claims = [s for s in answer_sentences(answer) if CITATION.search(s)]
        supported = len(claims) - len(critique.unsupported_claims)
        faithfulness = supported / len(claims) if claims else 0.0
        by_id = {chunk["chunk_id"]: chunk for chunk in evidence}
        cited = [by_id[c] for c in cited_ids(answer) if c in by_id]
        relevance = sum(c["relevance"] for c in cited) / len(cited) if cited else 0.0
        q_words = max(1, len(_term_words(question)))
        completeness = max(0.0, 1.0 - len(critique.logical_gaps) / q_words)
        reasoning = 0.6
        if len({c["doc_name"] for c in cited}) >= 2 or len(cited) >= 2:
            reasoning += 0.2
        if not critique.logical_gaps or "do not say" in answer:
            reasoning += 0.2
        if critique.conflicts:
            reasoning -= 0.4
        return Evaluation(
            faithfulness=round(faithfulness, 4),
            relevance=round(relevance, 4),
            completeness=round(completeness, 4),
            reasoning_quality=round(max(0.0, min(1.0, reasoning)), 4),
            reasoning=critique.reasoning,
        )


_VERSION = re.compile(r"(?<![\w-])v?\d+(?:\.\d+)+(?![\w-])|\bv\d+\b", re.IGNORECASE)
_ASKS_VERSION = re.compile(r"\b(?:which|what)\s+(?:[\w.-]+\s+){0,2}?(?:version|release|edition)s?\b", re.IGNORECASE)


# a row of three cells or more is a record among others (a benchmark's "zstd 1.5.1 -1 | 2.887 | 530 MB/s | …");
# two cells are a key and its value ("Weight | 1.1 kg"), named by the key
_RECORD_CELLS = 3


def _row_of_nothing_asked(
    claim: str, before: str, chunk: EvidenceChunk, asked: matching.Question, sentences: Sequence[Sentence]
) -> bool:
    """Whether `claim` is a table's row that names none of the question's own words while the table's header names
    the column asked for: only the header, the heading or the document's name share the question's words
    ("zstd 1.5.1 --fast=4 | 2.148 | …" of zstd's benchmark to "What ratio did xz reach in the zstd benchmark
    table?"). Its cells are another row's values, not the ones asked for."""
    cells = table_cells(claim)
    if cells < _RECORD_CELLS:
        return False
    header = before if table_cells(before) == cells else next(
        (s.lead for s in sentences if s.lead and s.chunk["chunk_id"] == chunk["chunk_id"] and s.text == claim), None)
    if header is None or header == claim:
        return False
    named = _held(asked, header)
    if not named:
        return False  # no column is asked for by name: the question may name the row's attribute in other words
    own = _held(asked, claim)
    return not own - named - terms(chunk["doc_name"]) - terms(chunk.get("section") or "")


def _held(asked: matching.Question, text: str) -> set[int]:
    """The question's terms `text` holds, the same word or a related one."""
    return {term for term, credit in asked.credits_in(text).items() if credit >= matching.RELATED_CREDIT}


def _asked_release(question: str) -> str | None:
    """The noun a "which version/release/edition" question asks by, or None."""
    found = _ASKS_VERSION.search(question)
    return found.group(0).split()[-1] if found else None


_NAMED_VERSION = re.compile(r"([A-Za-z][\w.+-]*)\s+v?\d+(?:\.\d+)*\b")  # "Python 3.2", "Python 3"
_VERSION_RUN = r"v?\d+(?:\.\d+)+(?:(?:\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or|to)\s+)v?\d+(?:\.\d+)+)*"


def _without_named_versions(text: str, question: str) -> str:
    """`text` without the versions of what the question names with a version: "Which wadllib version dropped
    Python 3.2 to 3.4?" asks for wadllib's release, which "Drop support for Python 3.2, 3.3, and 3.4" does not give
    (its 3.3 is Python's too)."""
    names = {match.group(1).lower() for match in _NAMED_VERSION.finditer(question)}
    if not names:
        return text
    pattern = rf"\b(?:{'|'.join(re.escape(name) for name in sorted(names))})\s+{_VERSION_RUN}"
    return re.sub(pattern, " ", text, flags=re.IGNORECASE)


# how a question asks when a release came out ("When was gettext 0.20.2 released?", "… published?", "… come out?")
_RELEASE_VERB_TERMS = frozenset(terms("release released releases publish published ship shipped out come came"))


def _gives_release(text: str, question: str) -> bool:
    """Whether `text` gives a version the question does not name, other than one of a thing the question names
    with a version ("Python 3.3" to "Which wadllib version dropped Python 3.2 to 3.4?")."""
    asked = {found.lower() for found in _VERSION.findall(question)}
    return any(found.lower() not in asked for found in _VERSION.findall(_without_named_versions(text, question)))


def _standing_alone(sentence: Sentence, question: str, shown: Collection[str] = ()) -> str:
    """The quote, led by what it needs to stand alone: what its pronoun subject refers to ("It will cost $219" under
    "Falcon X2", `masis.judge.quotes`), or the section heading when the question asks for what only the heading gives
    ("Which release added CPython 3.12.13?" is answered by an item under "v2.6.25"). A sentence the answer quoted
    just before (`shown`) leads nothing again."""
    heading = (sentence.chunk.get("section") or "").strip()
    text = sentence.text
    if lead := quotes.referent(text, heading, sentence.chunk["text"]):
        if lead in shown:
            return text
        # a heading leads the quote's own sentence; a sentence before it is quoted, and cited, as itself
        return f"{lead} {text}" if lead.endswith(":") else f"{_cite(lead, sentence.chunk['chunk_id'])} {text}"
    if expected_type(question) == "date" and not gives_type(text, "date", question):
        # "When was the q=0 fix released?" is answered by the item's release heading ("0.5.0 / 2014-12-18"), as a
        # release asked for is; a heading without a date adds nothing
        if _can_lead(heading, text) and gives_type(heading, "date", question):
            return f"{heading}: {text}"
        release = _release_line_above(sentence)
        return f"{release}: {text}" if release and gives_type(release, "date", question) else text
    if not _ASKS_VERSION.search(question) or _gives_release(text, question):
        return text
    # the release line the item sits under in its passage is nearer than the section's heading, which for a changelog
    # of plain lines is the file's first release ("1.7 Enhancement Release - Jun 27, 2010" over 1.6's items)
    if release := _release_line_above(sentence):
        return f"{release}: {text}"
    if _can_lead(heading, text):
        return f"{heading}: {text}" if _VERSION.search(heading) else text
    return text


def _can_lead(heading: str, text: str) -> bool:
    """Whether a section heading may be put before a quote: one the quote does not say already, and short."""
    return bool(heading) and heading.lower() not in text.lower() and len(heading) <= HEADING_LEAD_MAX


def _release_line_above(sentence: Sentence) -> str | None:
    """The nearest release heading above the sentence in its passage, when the document's headings reached its text
    underlined ("0.6.3 / 2022-01-22 ====" above 'Revert "Lazy-load modules …"') and it names a version, or a
    release's line of its own (`is_release_line`). The sentence may open its line or sit inside it (wcwidth's "0.5.0
    2026-01-26" over "Drop Support of … tables. Only the latest Unicode version (17.0.0) is now shipped.", kitdocs
    tune kt-037)."""
    lines = sentence.chunk["text"].splitlines()
    said = [" ".join(line.split()) for line in lines]
    text = sentence.text
    start = next((i for i, line in enumerate(said) if line and (text.startswith(line) or text in line)), 0)
    for line in reversed(lines[:start]):
        if (heading := underlined_heading(line)) is not None:
            return heading if _VERSION.search(heading) else None
        if is_release_line(line):
            return line.strip()
    return None


SECTION_SENTENCES = 3  # a section answered by its heading is quoted from its start, this many sentences at most


def _section_continues(first: Sentence, sentences: Sequence[Sentence], avoid: set[str]) -> list[Sentence]:
    """The sentences that follow `first` in its passage: a section chosen for its heading alone is answered by
    its opening sentences, not by one of them."""
    keep = [s for s in _following(first, sentences) if not is_heading(s.text) and s.text.lower() not in avoid]
    return keep[: SECTION_SENTENCES - 1]


def _following(sentence: Sentence, sentences: Sequence[Sentence]) -> list[Sentence]:
    """The sentences after `sentence` in its passage, in order (none when it is not among `sentences`)."""
    same = [s for s in sentences if s.chunk["chunk_id"] == sentence.chunk["chunk_id"]]
    return same[same.index(sentence) + 1 :] if sentence in same else []


# a remark in brackets on the sentence before it: "(This option is not yet implemented.)", "(Only the file part …)"
_REMARK = re.compile(r"^\((?:This|These|It|Note|Only|Not)\b[^()]*\)[.!]?$")


def _remark_after(sentence: Sentence, sentences: Sequence[Sentence]) -> Sentence | None:
    """The bracketed remark that follows `sentence` in its passage, which qualifies what it says (h5dump's "-B or
    --bootblock Print the content of the boot block." is followed by "(This option is not yet implemented.)")."""
    after = _following(sentence, sentences)[:1]
    return after[0] if after and _REMARK.match(after[0].text.strip()) else None


def meaning_readings(passage: str) -> list[str]:
    """What the synthesizer may have the sentence encoder read of a passage: each of its sentences (but headings)
    as `_with_lead` gives it. `masis.read_ahead` reads them before any question does."""
    chunk = cast(EvidenceChunk, {"text": passage})
    return list(dict.fromkeys(_with_lead(s) for s in evidence_sentences([chunk]) if not is_heading(s.text)))


def _with_lead(sentence: Sentence) -> str:
    """A sentence as it is read for its meaning: an entry's short sentence with the entry's first sentence."""
    text = _said(sentence.text)
    return f"{sentence.lead} {text}" if sentence.lead else text


def _with_entry_leads(chosen: list[Sentence], sentences: Sequence[Sentence], needs_lead: set[int]) -> list[Sentence]:
    """`chosen`, each sentence in `needs_lead` preceded by its entry's first sentence unless that is quoted already:
    "Default: 256." alone does not say what it is the default of."""
    completed: list[Sentence] = []
    for sentence in chosen:
        lead = None if id(sentence) not in needs_lead else next(
            (s for s in sentences if s.text == sentence.lead and s.chunk["chunk_id"] == sentence.chunk["chunk_id"]),
            None,
        )
        if lead is not None and lead not in completed:
            completed.append(lead)
        if sentence not in completed:
            completed.append(sentence)
    return completed


# a code comment ending a sentence of a code block, at the comment's own stop ("- id: ruff-check args: [ --fix ] # Run
# the formatter."): it says what the line after it does
_TRAILING_COMMENT = re.compile(r"(?:^|\s)(?:#|//)\s+([^#/]{1,80}?)\.\s*$")


def _with_what_follows_colons(
    chosen: list[Sentence], sentences: Sequence[Sentence], avoid: set[str], asked: frozenset[int]
) -> list[Sentence]:
    """`chosen`, each sentence that ends with a colon followed by what it introduces ("The following binaries are
    provided through Corepack:" and its list): a quote that stops at the colon answers nothing; so does one that stops
    at a code comment the question's words are in, which says what the line after it does. A table it introduces
    is quoted by its first row and the rows whose first cell the question names (`asked`, its terms), when it names
    any: "… for pnpm?" is answered by pnpm's row, not by Yarn's above it."""
    completed: list[Sentence] = []
    for sentence in chosen:
        completed.append(sentence)
        # "- id: ruff-check … # Run the formatter." labels the line after it; a configuration file whose comments are
        # its prose ("# # tls-session-caching no # Change the default number …", redis.conf) is read as prose
        comment = None if sentence.text.lstrip().startswith(("#", "//")) else _TRAILING_COMMENT.search(sentence.text)
        if comment and terms(comment.group(1)) & asked:
            completed += [s for s in _following(sentence, sentences)[:1] if s not in chosen and s not in completed]
        elif sentence.text.rstrip().endswith(":"):
            following = _following(sentence, sentences)
            rows = list(itertools.takewhile(lambda s: table_cells(s.text) >= 2, following))
            named = [row for row in rows[1:] if terms(row.text.split(" | ")[0]) & asked]
            if len(rows) >= 3 and named:
                following = [rows[0], *named[:SECTION_SENTENCES - 1]]
            # short unpunctuated lines included: what a colon introduces is often a list or a table's rows
            completed += [s for s in following if s not in chosen and s.text.lower() not in avoid][:SECTION_SENTENCES]
    return completed


# "… get a 60-day evaluation period instead of the usual return window": what a sentence sets aside is not what it says
# (unless the question sets the same thing aside: "Which flock option makes it fail rather than wait …?")
_SET_ASIDE = re.compile(
    r"\b(?:instead\s+of|rather\s+than|other\s+than|as\s+opposed\s+to|in\s+place\s+of)\s+(\w+)[^.;,:]*", re.IGNORECASE
)


# what a question sets aside, by the first word after the article: "… prefer the askpass program over the TTY …"
_ASIDE_IN_QUESTION = re.compile(
    r"\b(?:instead\s+of|rather\s+than|other\s+than|as\s+opposed\s+to|in\s+place\s+of|over)\s+(?:(?:the|a|an)\s+)?(\w+)",
    re.IGNORECASE,
)
_ARTICLES = frozenset({"the", "a", "an"})


def _said(text: str, question: str = "") -> str:
    """`text` without a clause it sets aside, unless the question sets aside the same thing ("instead of the TTY" to
    "… prefer the askpass program over the TTY …?")."""
    asked = " ".join(question.lower().split())
    set_aside = {match.group(1).lower() for match in _ASIDE_IN_QUESTION.finditer(question)}

    def aside(found: re.Match[str]) -> str:
        opening = " ".join(found.group(0)[: found.end(1) - found.start()].lower().split())
        words = found.group(0)[found.start(1) - found.start() :].split()
        thing = next((word.lower() for word in words if word.lower() not in _ARTICLES), "")
        return found.group(0) if asked and (opening in asked or thing in set_aside) else " "

    return _SET_ASIDE.sub(aside, text)


def _own_credits(asked: matching.Question, sentence: Sentence, question: str) -> dict[int, float]:
    """What a sentence covers of the question by its own words, less the words of a clause it sets aside."""
    said = _said(sentence.text, question)
    return asked.credits(sentence.terms, sentence.words) if said == sentence.text else asked.credits_in(said)


# a parameter's entry in an API reference: "delay {number} The number of milliseconds …", "options {Object} ref
# {boolean} …" (a nested entry: its default is the last key's); a setting's entry in a reference's definition list,
# as the HTML loader writes it: "bonjour ( boolean ): Enables advertising …"
_PARAMETER_ENTRY = re.compile(
    r"^(?:(?:[`'\"]?[\w.$-]+[`'\"]?\s+\{[^{}\s]{1,40}\}\s*)+|[\w.$-]+\s+\(\s*\w[\w ]{0,29}\)\s*:)")
_PARAMETER_KEY = re.compile(r"([\w.$-]+)(?:[`'\"]?\s+\{[^{}\s]{1,40}\}\s*|\s+\(\s*\w[\w ]{0,29}\)\s*:)$")


def _parameter_key(sentence: Sentence) -> str | None:
    """The key of the parameter entry a sentence opens or is read with ("delay" of "delay {number} …", "minfds" of
    "minfds The minimum number of file descriptors …"), or None."""
    for text in (sentence.text, sentence.lead or ""):
        if (entry := _PARAMETER_ENTRY.match(text)) and (key := _PARAMETER_KEY.search(entry.group(0))):
            return key.group(1)
        if is_keyed_entry(text):
            return text.split(maxsplit=1)[0]
    return None


def _of_asked_entries(candidates: list[Sentence], asked: frozenset[int], question: str) -> list[Sentence]:
    """The candidates less the sentences of a parameter's entry that the question does not name, when another entry
    is one it names: "What is the default delay of setInterval?" is not answered by the `ref` entry's "Default:
    true" beside the `delay` entry's "Default: 1". A key the question writes out ("logfile_maxbytes") names its entry
    alone, not the one keyed by a part of it ("logfile")."""
    keys = {id(s): _parameter_key(s) for s in candidates}
    found = {key for key in keys.values() if key}
    named = {key for key in found if re.search(rf"(?<![\w.-]){re.escape(key)}(?![\w-])", question, re.IGNORECASE)}
    named = named or {key for key in found if terms(key) & asked}
    if not named:
        return candidates
    return [s for s in candidates if keys[id(s)] is None or keys[id(s)] in named]


# the loaders of these formats lift a heading out of the text into the chunk's section: a short open line left in
# the text is a list item ("Bower and Component packages no longer supported", 'Revert "Lazy-load modules …"'), not
# a heading
_HEADINGS_LIFTED = (".md", ".markdown", ".rst")


def _list_item(sentence: Sentence) -> bool:
    """Whether a sentence that reads like a heading is a line of a document whose headings are never in its text,
    and no heading that reached it underlined ("0.6.3 / 2022-01-22 ====")."""
    return sentence.chunk["doc_name"].lower().endswith(_HEADINGS_LIFTED) and underlined_heading(sentence.text) is None


_FIELD = re.compile(r"^([A-Za-z][\w -]{0,30}):\s+\S")


def _asked_field(line: str, asked: matching.Question, asked_for: frozenset[int]) -> bool:
    """Whether a line that reads like a label is a field the question asks about by its name, or by the noun it asks
    for (`asked_for`: "Status: draft, experimental" to "What is the status of …?"): a value, not a heading."""
    field = _FIELD.match(line)
    return bool(field) and (bool(asked.credits_in(field.group(1))) or bool(asked_for & terms(field.group(1))))


def _heading_answers(line: str, kind: str | None, question: str, wanted: Sequence[str]) -> bool:
    """Whether a line that reads like a heading answers the question itself: a release's line holding the release
    asked about and the date asked for ("Version 1.8.5 (2019-08-29)" to "When was libgcrypt 1.8.5 released?")."""
    if kind != "date":
        return False
    exact = [anchor for anchor in wanted if not anchors.is_name(anchor)]
    return bool(exact) and all(anchors.holds(line, anchor) for anchor in exact) and gives_type(line, kind, question)


# a package's own name or version in its metadata header ("Name: xgboost", "Version: 3.2.0")
_NAME_OR_VERSION = re.compile(r"^\s*(?:Name|Version):\s+(?P<value>\S+)\s*$")


def _restated_header(text: str, question: str) -> bool:
    """Whether `text` is a metadata header's name or version line that the question already holds: "Version: 3.2.0"
    tells "Which dependency does xgboost 3.2.0 install only on Linux?" nothing (mldocs tune ml-022, quoted as the
    answer beside "Name: xgboost")."""
    match = _NAME_OR_VERSION.match(text)
    return match is not None and terms(match["value"]) <= terms(question)


def _holding_most_anchors(question: str, candidates: list[Sentence]) -> list[Sentence]:
    """The candidates whose quote context holds the most of the question's exact constraints (a version, a code, a
    name): "What changed in 2.4.0?" quotes the 2.4.0 section, not the 2.1.0 one that shares every other word. All
    of them when the question has none, or no candidate holds any."""
    wanted = anchors.anchors(question)
    if not wanted or not candidates:
        return candidates
    held = {id(s): len(wanted) - len(anchors.missing(wanted, [(s.text, s.chunk)])) for s in candidates}
    most = max(held.values())
    return [s for s in candidates if held[id(s)] == most] if most else candidates


def _focused(
    question: str,
    kind: str | None,
    quoted: Sequence[tuple[str, str]],
    by_id: Mapping[str, EvidenceChunk],
    covers: Callable[[str], float],
) -> bool:
    """Whether one of the first supported quotes, read with the quote before it from the same passage when it needs
    that referent ("Andrew Lortie …. He was born in …"), its section heading and its document's name, holds every
    anchor of the question, most of the question's words (`covers`, weighted) and the kind of answer asked for: not
    the value of a neighbouring entry ("they had uid/gid 41" under gnats, to "Which UID does the www-data user
    have?"), and not an anchor that only another part of the passage names."""
    wanted = anchors.anchors(question)
    for index, (claim, chunk_id) in enumerate(quoted[:FOCUS_QUOTES]):
        if is_program_text(claim):
            continue  # a value inside code may be any of its arguments: code is quoted, not focused on
        chunk = by_id[chunk_id]
        # the quote before it is read with it only when it leans on it: a pronoun ("His refusal …", "It was built …")
        # or an entry's short sentence ("Default: 256.", "Gross margin was 61% for the quarter."); "A French church
        # in Portarlington dates back to 1696" is not about the French Church Street in Cork the sentence before names
        leans = quotes.leans_on_before(claim)
        before = quoted[index - 1][0] if index and quoted[index - 1][1] == chunk_id and leans else ""
        before = " ".join([before, *_release_headings(quoted, chunk_id, claim), *package_header(chunk),
                           _entry_term(chunk, claim)]).strip()
        if anchors.missing(wanted, [(claim, anchors.alone(chunk, before))]):
            continue
        if kind is not None and not gives_type(claim, kind, question):  # type: ignore[arg-type]
            continue
        read = " ".join([before, claim, chunk.get("section") or "", quotes.document_title(chunk["doc_name"])])
        if covers(read) >= FOCUS_COVERAGE:
            return True
    return False


def _first_record(quoted: Sequence[tuple[str, str]]) -> tuple[str, str]:
    """The answer's first quote that is a record: a table's header quoted above its row ("Version | Changes" over
    "v6.0.0 | The historySize option can be 0 now") names the columns, and the row is what answers."""
    first = quoted[0]
    if len(quoted) > 1 and quoted[1][1] == first[1] and table_cells(first[0]) == table_cells(quoted[1][0]) >= 2:
        return quoted[1]
    return first


def _lead_unkeyed(
    question: str, lead: tuple[str, str], by_id: Mapping[str, EvidenceChunk], quoted: Sequence[tuple[str, str]]
) -> bool:
    """Whether the answer's first quote, read under its heading and its document's name but without the rest of its
    passage, misses every key (a flag, an identifier, a code) and figure of the question: "xsltproc return codes
    provide information …" for "What does xsltproc return code 6 mean?", a neighbouring entry's default for
    `chunkSize`'s. Names, acronyms and numerals ("John Paul II", "Super Bowl XLI") are left to the anchor floor: a
    passage's story names its subject once. A default is asked of its entry, so a name in lower camel case counts
    there (`anchors.is_entry_key`: "What is the default chunkSize of zlib streams?")."""
    claim, chunk_id = lead
    default = expected_type(question) == "default"
    exact = [anchor for anchor in anchors.anchors(question)
             if anchors.is_key(anchor) or anchor[:1].isdigit() or (default and anchors.is_entry_key(anchor))]
    headings = " ".join([*_release_headings(quoted, chunk_id, claim), _entry_term(by_id[chunk_id], claim)])
    read = anchors.alone(by_id[chunk_id], headings)
    return bool(exact) and len(anchors.missing(exact, [(claim, read)])) == len(exact)


def _release_headings(quoted: Sequence[tuple[str, str]], chunk_id: str, claim: str) -> list[str]:
    """The release headings the answer quotes from the claim's passage ("* Noteworthy changes in release 3.5 …" beside
    "The message … has been reworded …"): the release the claim is read under, as the synthesizer puts a heading
    before an item."""
    return [other for other, source in quoted if source == chunk_id and other != claim and is_release_heading(other)]


def _kept(block: list[str], asked: frozenset[int], named: frozenset[int]) -> list[str]:
    """What compression keeps of one block (an entry): its sentences that share a term with the question, and its
    short ones with the noun the answer is asked by; a short sentence kept without the entry's first sentence brings
    it along ("Default: dns.lookup()." is the `lookup` option's, not that of the option a line above it once the
    lines between are cut), a setting's entry kept its fields, and a kept sentence its bracketed remark (`_REMARK`)."""
    kept = [s for s in block if terms(s) & asked or (len(s) <= ENTRY_SENTENCE_MAX and terms(s) & named)]
    if kept and kept[0] != block[0] and (len(kept[0]) <= ENTRY_SENTENCE_MAX or is_option_term(block[0])):
        kept.insert(0, block[0])  # and an option's description its option ("--drop:..." of "Remove certain …")
    if kept and kept[0] == block[0] and is_keyed_entry(block[0]):
        kept += [s for s in block if is_field(s)]  # a setting kept keeps its fields ("Default: 50MB Required: No.")
    # a bracketed remark stays with the sentence before it ("(This option is not yet implemented.)")
    return [s for at, s in enumerate(block) if s in kept or (at and block[at - 1] in kept and _REMARK.match(s.strip()))]


def _names_asked_noun(question: str, quotes: Sequence[str]) -> bool:
    """Whether the question names its answer by a noun ("What river separates Jacksonville?") that the quotes name
    too ("The St. Johns River divides the city"): they give the kind of thing asked for."""
    noun = answer_noun(question)
    return noun is not None and bool(terms(noun) & terms(" ".join(quotes)))


def _entry_of(claim: str, before: str, chunk: EvidenceChunk) -> EvidenceChunk:
    """`chunk` narrowed to what a quote is read with as its own entry: the quote before it, the passage's line it
    sits on when that is an entry, the section heading and the document's name (not the rest of the passage)."""
    return _narrowed(chunk, before, " ".join(claim.split())[:60])


def _naming_anchors(wanted: Sequence[str], candidates: Sequence[Sentence]) -> dict[int, set[str]]:
    """The anchors of the question each candidate (by id) holds in its own words, its entry's first sentence, its
    section heading or its document's name: not only somewhere else in its passage."""
    if not wanted:
        return {}
    named: dict[int, set[str]] = {}
    for s in candidates:
        own = _own(s)
        named[id(s)] = _keyed(set(wanted) - set(anchors.missing(wanted, [(s.text, own)])), own, s.text)
    return named


def _keyed(named: set[str], own: EvidenceChunk, said: str) -> set[str]:
    """`named` less the keys (`anchors.is_entry_key`) that the sentence's entry (`own`, as `_own` narrows it) only
    mentions: on the line keyed PRIORITY_BELOW_NORMAL, "above PRIORITY_LOW" does not name PRIORITY_LOW's entry."""
    key = _entry_key(own, said)
    if key is None:
        return named
    return {anchor for anchor in named
            if not anchors.is_entry_key(anchor) or anchors.parts(anchor) == anchors.parts(key)}


def _entry_key(own: EvidenceChunk, said: str) -> str | None:
    """The key an entry's line opens with (`PRIORITY_LOW`, `--depth=<number>`, `DEP0005:`), or None."""
    line = own["text"].split("\n")[-1] or said
    first = line.split(maxsplit=1)[0].strip(":,;()[]`") if line.split() else ""
    return first if first and anchors.is_entry_key(first) else None


ENTRY_LINE_MAX = 400  # a passage's line this long or shorter is an entry (a table row, a list item, a definition)


def _own(sentence: Sentence) -> EvidenceChunk:
    """The sentence's chunk with its text narrowed to what the sentence is read with as its own: its entry's lead,
    and the line of the passage it sits on when that is an entry ("PRIORITY_ABOVE_NORMAL The process scheduling
    priority …. This corresponds to …, and a nice value of -7 …"); what `anchors.quote_context` then reads."""
    return _narrowed(sentence.chunk, sentence.lead or "", " ".join(sentence.text.split()))


def _narrowed(chunk: EvidenceChunk, lead: str, said: str) -> EvidenceChunk:
    """`chunk` with its text cut to `lead` and the first of its lines, when one is an entry (`ENTRY_LINE_MAX`), that
    holds `said`, led by its term when the term stands on the line above (a man page's "-Z cipher" over "Specifies
    the cipher …. The default is “aes256-ctr”."); no context terms from the rest of its document."""
    term, line = _entry_line(chunk, said)
    return anchors.alone(chunk, f"{lead}\n{term} {line}" if term else f"{lead}\n{line}")


def _entry_line(chunk: EvidenceChunk, said: str) -> tuple[str, str]:
    """The first of the passage's lines that is an entry (`ENTRY_LINE_MAX`) holding `said`, with the definition list's
    term on the line above it when there is one ("-Z cipher" over "Specifies the cipher …"): (term, line), each ""
    when there is none."""
    lines = [" ".join(raw.split()) for raw in chunk["text"].splitlines()]
    at = next((i for i, joined in enumerate(lines) if said in joined and len(joined) <= ENTRY_LINE_MAX), None)
    if at is None:
        return "", ""
    return (lines[at - 1] if at and quotes.is_term_line(lines[at - 1]) else ""), lines[at]


def _entry_term(chunk: EvidenceChunk, claim: str) -> str:
    """The term of the entry whose text holds `claim`: on the line above it, or the setting's name that opens its line
    (ssh(1)'s "SSH_ASKPASS_REQUIRE Allows further control …. If it is set to “prefer”, …"), or ""."""
    term, line = _entry_line(chunk, " ".join(claim.split())[:60])
    return term or (line.split(maxsplit=1)[0] if line and is_keyed_entry(line) else "")


def _context(chunk: EvidenceChunk, asked: matching.Question, question: str) -> set[int]:
    """The question's terms that a quote from `chunk` is read under: its headings (in its text or above it), its
    document's name, and the names of the question its document holds elsewhere (not its title, which every
    passage of the document shares: "AI Investment Strategy FY2026" above the memo made a travel approval answer
    "Who approved the AI investment for FY2026?"). Not the rest of the document:
    "How much did we spend on marketing in Q3?" is not answered by "Q3 revenue was $12.4 million" because the
    budget elsewhere in the report says "marketing"."""
    headings = " ".join(s for s in split_sentences(chunk["text"]) if is_heading(s))
    own = " ".join([headings, chunk.get("section") or "", quotes.document_title(chunk["doc_name"])])
    # a dotted name run together, as a file names it: "Node.js" by "nodejs-readline.html"
    named = {term for anchor in anchors.anchors(question) if "." in anchor and anchors.holds(chunk["doc_name"], anchor)
             for term in terms(anchor)}
    # a project's acronym its document's title gives ("GNU" of "GNU sed NEWS"), which a changelog's releases, each a
    # section of its own, do not repeat; a title's period or figure ("FY2026") is no such name
    titled = {term for anchor in anchors.anchors(question) if anchor.isalpha() and anchor.isupper()
              and anchors.holds(chunk.get("title") or "", anchor) for term in terms(anchor)}
    return (set(asked.credits_in(own).keys()) | named | titled
            | (set(chunk.get("context_terms", [])) & _name_terms(question)))


def _name_terms(question: str) -> set[int]:
    """The terms of the names the question gives: a passage is read in its document for those only (the board
    minutes name Kestrel Labs on their first page, and every passage of them is about Kestrel)."""
    return {term for anchor in anchors.anchors(question) if anchors.is_name(anchor) for term in terms(anchor)}


def _cite(sentence: str, chunk_id: str) -> str:
    """Put the citation inside the sentence, before its closing punctuation."""
    body = sentence.rstrip()
    end = body[-1] if body[-1:] in ".!?" else "."
    return f"{body.rstrip('.!?').rstrip()} [{chunk_id}]{end}"
