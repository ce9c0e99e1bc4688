"""Human in the loop: the clarifying question, the pause, and what a reply does on resume.

The `clarify` node calls `interrupt()` first and does nothing before it: LangGraph re-runs the node
from its first line on resume, so anything before the interrupt would happen twice. Faces (Slack,
CLI, HTTP) post the question themselves, outside the graph.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from langgraph.graph import END
from langgraph.runtime import Runtime
from langgraph.types import Command, interrupt

from masis.agents.context import AgentContext
from masis.config import Settings
from masis.judge.citations import CITATION, answer_sentences, strip_citations
from masis.judge.reading import asks_anew, picked_then_asked
from masis.state import Draft, MASISState

EscalationKind = Literal["conflict", "near_miss", "low_confidence", "zero_results", "unclear_reference"]
NEAR_QUOTE_CHARS = 300  # how much of the nearest quote a near-miss question repeats
ACCEPT = "accept"
CANCEL = "cancel"
SOURCE_PREFIX = "source:"
ABOUT_PREFIX = "about:"  # a follow-up's pronoun means this (an `unclear_reference` option)
_NAME_WORD = re.compile(r"[a-z0-9]+")
_GENERIC_NAME_WORDS = frozenset(
    {"the", "and", "doc", "docs", "document", "file", "final", "copy", "draft", "new", "old"}
)


def escalate(
    state: MASISState,
    settings: Settings,
    kind: EscalationKind,
    reason: str,
    *,
    candidates: int = 0,
    documents: int = 0,
    question: str | None = None,
    options: list[str] | None = None,
) -> dict[str, Any]:
    """The state update that asks the user, or, once the rounds are spent, finalizes with a warning. A caller
    that words its own question (the reader's `unclear_reference`) passes it with its options."""
    best = state.get("best_draft")
    rounds = state.get("clarification_rounds", 0)
    if rounds >= settings.max_clarification_rounds:
        return {} if kind == "unclear_reference" else _final_with_warning(best, rounds)
    if question is None:
        question, options = _question(state, settings, kind, candidates, documents)
    clarification: dict[str, Any] = {
        "kind": kind,
        "question": question,
        "options": options or [],
        "reason": reason,
        "round": rounds + 1,
        "draft": best["answer"] if best else None,
        "draft_confidence": best["confidence"] if best else None,
        "draft_evaluation": best["evaluation"] if best else None,
    }
    return {"clarification": clarification, "status": "needs_clarification"}


def _question(
    state: MASISState, settings: Settings, kind: EscalationKind, candidates: int, documents: int
) -> tuple[str, list[str]]:
    if kind == "conflict":
        conflicts = (state.get("critique") or {}).get("conflicts") or []
        conflict = conflicts[0] if conflicts else {"topic": "a figure", "claims": []}
        claims = "; ".join(f"{c['doc_name']} says {c['value']}" for c in conflict["claims"])
        sources = list(dict.fromkeys(c["doc_name"] for c in conflict["claims"]))
        return (
            f"The documents disagree on {conflict['topic']}: {claims}. I retried and they still disagree. "
            "Which source should I trust? Pick one, or reply with more context (for example which "
            "document is the most recent).",
            sources,
        )
    if kind == "near_miss":
        return _near_miss_question(state), []
    if kind == "low_confidence":
        attempts = state.get("attempt", 1)
        return (
            f"I found related material but could not verify a complete answer after {attempts} "
            f"attempt{'s' if attempts != 1 else ''}: {_doubts(state, settings.low_confidence_threshold)}. "
            "Could you narrow the question, for example the period, team or document you mean? "
            "You can also use the draft below as it is.",
            [],
        )
    if documents == 0:
        return (
            "There are no documents in this workspace yet, so I have nothing to answer from. "
            "Upload some (in Slack: /masis-upload) and ask again.",
            [],
        )
    if candidates:
        return (
            f"I found {candidates} passage(s) that share some words with your question, but none matched "
            "it closely enough to answer from. Could you rephrase it, or add detail such as names, dates "
            "or the document it is in?",
            [],
        )
    return (
        f"None of the {documents} document(s) here mention what you asked about. Could you rephrase it "
        "with the words the documents use, or upload the document that covers it?",
        [],
    )


def _doubts(state: MASISState, threshold: float) -> str:
    """Why the best draft is not answered with, in the user's terms (the supervisor's reasons are for the trace)."""
    critique = state.get("critique") or {}
    audit = state.get("citation_audit") or {}
    best = state.get("best_draft")
    # the draft offered is the best attempt's, not always the last one's: its score is the one to name
    confidence = best["confidence"] if best and best.get("confidence") is not None else state.get("confidence", 0.0)
    doubts = []
    if drifted := state.get("drifted_to"):
        # the score alone would not tell the user why: the draft left the documents the thread was about
        names = ", ".join(drifted[:2])
        doubts.append(f"the draft quotes {names}, which no earlier answer in this thread used, so I may have read "
                      "your follow-up wrongly")
    if confidence < threshold:
        doubts.append(f"the best draft's confidence is {confidence:.2f}, below the {threshold:.2f} I answer at")
    if audit.get("no_valid_citation"):
        doubts.append("the draft cites no passage")
    if unsupported := len(critique.get("unsupported_claims") or []):
        doubts.append(f"{unsupported} of the draft's statements could not be matched to a passage")
    if doubts:
        return "; ".join(doubts)
    # what the floors found, as they word it ("The quoted passage leaves it open ('TBD')."), the first two
    gaps = [gap.rstrip(".") for gap in critique.get("logical_gaps") or []][:2]
    found = "; ".join(gap[:1].lower() + gap[1:] for gap in gaps)
    return f"the audit found what a retry could not mend: {found or 'gaps in the draft'}"


def _near_miss_question(state: MASISState) -> str:
    """What the documents hold and what they do not: the question's constraint the nearest quote misses."""
    missing = state.get("missing_anchors") or []
    named = " or ".join(f"“{anchor}”" for anchor in missing) or "what you asked about"
    best = state.get("best_draft")
    quote = ""
    if best:
        cited = [strip_citations(s) for s in answer_sentences(best["answer"]) if CITATION.search(s)]
        quote = " ".join(cited)[:NEAR_QUOTE_CHARS]
    documents = list(dict.fromkeys(c["doc_name"] for c in (best or {}).get("evidence", [])))[:2]
    if quote:
        source = f" ({', '.join(documents)})" if documents else ""
        return (
            f"The documents do not mention {named}. The closest passage I found{source} says: “{quote}” "
            "Is that what you need? Reply with the detail you mean (another version, name or period), or use the "
            "draft as it is."
        )
    return (
        f"The documents do not mention {named}. Could you check the name, version or figure, or rephrase the "
        "question?"
    )


def _final_with_warning(best: Draft | None, rounds: int) -> dict[str, Any]:
    warning = (
        f"After {rounds} clarification rounds I still could not verify this answer; "
        "treat it as unverified and check the sources."
    )
    if best is None:
        return {
            "status": "answered",
            "answer": "I could not find an answer to this in the documents.",
            "confidence": 0.0,
            "evidence": [],
            "clarification": None,
            "requires_human_review": True,
            "warning": warning,
        }
    return {**_from_draft(best), "clarification": None, "requires_human_review": True, "warning": warning}


def _from_draft(best: Draft) -> dict[str, Any]:
    return {
        "status": "answered",
        "answer": best["answer"],
        "confidence": best["confidence"],
        "evaluation": best["evaluation"],
        "critique": best["critique"],
        "context": best["evidence"],
    }


def _read_again(state: MASISState, action: str, argument: str, options: list[str]) -> Command[Literal["reader"]]:
    """A reply to "which one do you mean?": the option it names (or the reply itself) is what the pronoun means,
    and the question is read again with it."""
    rounds = state.get("clarification_rounds", 0) + 1
    if action == "refine" and (typed := typed_choice(argument, options)) and typed[0] == "source":
        argument = typed[1]
    elif action == "refine" and not picked_then_asked(argument) and (named := named_option(argument, options)):
        argument = named
    trace = {"node": "clarify", "kind": "unclear_reference", "action": "about", "round": rounds}
    return Command(goto="reader", update={"antecedent": argument, "clarification": None,
                                          "clarification_rounds": rounds, "trace": [trace]})


def named_option(text: str, options: list[str]) -> str | None:
    """The one option a reply names by a word no other option has ("the Heron" -> "Heron S1")."""
    words = {o: set(_NAME_WORD.findall(o.lower())) for o in options}
    said = set(_NAME_WORD.findall(text.lower()))
    named = [o for o, own in words.items() if (own - set().union(*(w for p, w in words.items() if p != o))) & said]
    return named[0] if len(named) == 1 else None


def parse_resume(value: Any) -> tuple[str, str]:
    """A resume value as (action, argument): ("refine", text) | ("accept", "") | ("cancel", "")
    | ("source", doc_name). Plain text is a refinement."""
    if isinstance(value, dict):
        choice = value.get("choice")
        if choice:
            value = choice
        else:
            return "refine", str(value.get("text") or "").strip()
    text = str(value).strip()
    if text == ACCEPT:
        return "accept", ""
    if text == CANCEL:
        return "cancel", ""
    if text.startswith(SOURCE_PREFIX):
        return "source", text[len(SOURCE_PREFIX) :]
    if text.startswith(ABOUT_PREFIX):
        return "about", text[len(ABOUT_PREFIX) :]
    return "refine", text


# What a reply typed in words means when it says what a button says: "cancel", "Use this draft", "Trust q3_report.md".
_CANCEL_WORDS = frozenset({"cancel", "cancel it", "cancel this", "cancel the question", "never mind", "nevermind",
                           "forget it", "stop"})
_ACCEPT_WORDS = frozenset({"accept", "accept it", "accept the draft", "use this draft", "use the draft", "use draft",
                           "use it", "use the draft as it is"})
_TYPED = re.compile(r"[^\w:.'\-]+")


# To "Is that what you need?" (a near miss), a yes takes the nearest passage as it is.
_YES_WORDS = frozenset({"yes", "yes please", "yes thanks", "yes that's it", "that's it", "that is it", "yep", "y"})


def typed_choice(text: str, options: list[str], kind: str | None = None) -> tuple[str, str] | None:
    """A reply typed in words that says what a button says, as (action, argument), or None for any other text:
    "cancel" and "accept" (or "Use this draft") act like their buttons, and an offered option's label, alone or
    after "trust" ("Trust q3_report.md"), picks it."""
    words = " ".join(_TYPED.sub(" ", text.lower()).split()).strip(" .:-")
    if words in _CANCEL_WORDS:
        return CANCEL, ""
    if words in _ACCEPT_WORDS or (kind == "near_miss" and words in _YES_WORDS):
        return ACCEPT, ""
    label = words.removeprefix("trust ").removeprefix("the ").strip()
    for option in options:
        if label == option.lower():
            return "source", option
    return None


def answers(kind: str, options: list[str], text: str) -> bool:
    """Whether `text`, a message typed in the thread while a clarification of `kind` waits, answers it (True) or is a
    new question (False), read with the thread's earlier turns. What a button says, typed ("cancel", "use this draft",
    an option's label), answers it; after "nothing matched" any other text rephrases the question, so it is a new one;
    otherwise a message that asks a question of its own is a new one (`masis.judge.reading.asks_anew`: "What about
    sqlite?" after "which one do you mean?", "and 8?" after "could you narrow the question?" are ellipses of the
    question before), and so is a pick followed by a question of its own ("the limit one. with a few workers running
    does each get the whole limit"); anything else answers it ("the Q3 report", "the Heron S1 one", "I meant the
    FY2026 budget")."""
    if typed_choice(text, options, kind) is not None:
        return True
    return kind != "zero_results" and not asks_anew(text) and picked_then_asked(text) is None


def named_source(text: str, options: list[str]) -> str | None:
    """The one offered source a free-text reply names, e.g. "trust the Q3 report" -> "q3_report.md".

    An option is named when the reply contains a word of its file name (extension dropped) that no
    other option's name has. None when the reply names no option, or more than one.
    """
    reply_words = set(_NAME_WORD.findall(text.lower()))
    words = {option: _name_words(option) for option in options}
    named = []
    for option, own in words.items():
        others = set().union(*(w for o, w in words.items() if o != option))
        if (own - others) & reply_words:
            named.append(option)
    return named[0] if len(named) == 1 else None


def _name_words(name: str) -> set[str]:
    stem = name.rsplit(".", 1)[0] if "." in name else name
    return {w for w in _NAME_WORD.findall(stem.lower()) if w not in _GENERIC_NAME_WORDS}


def clarify(
    state: MASISState, runtime: Runtime[AgentContext]
) -> Command[Literal["researcher", "reader", "__end__"]]:
    reply = interrupt(state["clarification"])
    action, argument = parse_resume(reply)
    options = state["clarification"].get("options") or []
    if state["clarification"]["kind"] == "unclear_reference" and action in {"refine", "about", "source"}:
        return _read_again(state, action, argument, options)
    if action == "refine" and (typed := typed_choice(argument, options, state["clarification"]["kind"])):
        action, argument = typed
    if action == "refine" and state["clarification"]["kind"] == "conflict":
        source = named_source(argument, state["clarification"]["options"])
        if source:
            action, argument = "source", source
    rounds = state.get("clarification_rounds", 0) + 1
    trace = {"node": "clarify", "kind": state["clarification"]["kind"], "action": action, "round": rounds}
    best = state.get("best_draft")
    if action == "cancel" or (action == "refine" and not argument):
        return Command(
            goto=END,
            update={"status": "cancelled", "clarification": None, "trace": [trace]},
        )
    if action == "accept":
        if best is None:
            return Command(
                goto=END,
                update={
                    "status": "cancelled",
                    "clarification": None,
                    "warning": "There was no draft to use.",
                    "trace": [trace],
                },
            )
        return Command(
            goto=END,
            update={
                **_from_draft(best),
                "clarification": None,
                "requires_human_review": True,
                "warning": "You chose the unverified draft; its audit did not pass.",
                "trace": [trace],
            },
        )
    restart: dict[str, Any] = {
        "clarification": None,
        "clarification_rounds": rounds,
        "retries": 0,
        "attempt": 0,
        "critique": None,
        "retry_inputs": None,
        "trace": [trace],
    }
    if action == "source":
        restart["source_filter"] = argument
    else:
        restart["clarifications"] = [argument]
        if state["clarification"]["kind"] == "zero_results":
            restart["question_start"] = 1 + len(state.get("clarifications", []))
    return Command(goto="researcher", update=restart)
