"""The reader: reads a follow-up question in its thread's context before any retrieval, or asks which thing it means.

It runs only for a question asked in a thread that had earlier questions (the graph routes a first question
straight to the supervisor). Offline the reading is deterministic (`masis.judge.reading`, no model call); on the
OpenAI path the model rewrites the question from the earlier turns, one call. When the thread does not settle
what a pronoun means (two candidates, or none), the user is asked: a clarification of kind `unclear_reference`,
whose reply (or button) brings the run back here with the chosen antecedent.
"""

from __future__ import annotations

from typing import Any, Literal

from langgraph.runtime import Runtime
from langgraph.types import Command

from masis.agents.clarify import escalate
from masis.agents.context import AgentContext, timed
from masis.agents.memory import earlier
from masis.judge.names import product_names, tool_names
from masis.judge.reading import Reading
from masis.llm.usage import collect_usage, usage_entries, usage_totals
from masis.state import MASISState


def reader(state: MASISState, runtime: Runtime[AgentContext]) -> Command[Literal["supervisor", "clarify"]]:
    ctx = runtime.context
    question = state["user_query"]
    antecedent = state.get("antecedent")
    with timed("reader") as latency, collect_usage() as usage:
        documents = [info.name for info in ctx.registry.documents(state["workspace_id"])]
        reading = ctx.llm.read_in_context(question, earlier(state.get("history") or []), antecedent,
                                          product_names(documents), tool_names(documents))
    update: dict[str, Any] = {
        "llm_calls": 1 if ctx.llm.reading_uses_model else 0,
        "latencies_ms": [latency],
        "token_usage": usage_entries("reader", usage),
    }
    trace: dict[str, Any] = {"node": "reader", "rule": reading.rule, "dependent": reading.dependent,
                             "tokens": usage_totals(usage)}
    if reading.unclear and antecedent is None:
        asked = escalate(state, ctx.settings, "unclear_reference", f"“{reading.unclear}” is unclear",
                         question=unclear_question(question, reading), options=list(reading.candidates))
        if asked.get("clarification"):
            trace["candidates"] = list(reading.candidates)
            return Command(goto="clarify", update={**update, **asked, "trace": [trace]})
    differs = reading.text.strip() != question.strip() and not reading.unclear
    update.update(reading=reading.text if differs else None, reading_about=reading.about)
    if differs:
        trace["reading"] = reading.text
    return Command(goto="supervisor", update={**update, "trace": [trace]})


def unclear_question(question: str, reading: Reading) -> str:
    """The clarifying question: which of the candidates the word means, or what it means when none is known."""
    word = reading.unclear or "it"
    if reading.candidates:
        names = [f"“{name}”" for name in reading.candidates]
        choices = ", ".join(names[:-1]) + f" or {names[-1]}"
        return (
            f"In “{question}”, I am not sure what “{word}” refers to: the thread mentioned {choices}. Which one do "
            "you mean? Pick one, or reply with what you mean."
        )
    # an ellipsis the earlier question cannot take; "that one" is a thing pointed at, asked like "it"
    if " " in word and not word.lower().startswith(("the other ", "that ", "this ", "these ", "those ")):
        return (
            f"In “{question}”, I cannot tell how “{word}” fits the earlier question in this thread. Could you ask "
            "the question in full?"
        )
    return (
        f"In “{question}”, I cannot tell what “{word}” refers to from the earlier questions in this thread. Reply "
        "with what you mean (a name, a product, a version or a period), or ask the question in full."
    )


def route_at_start(state: MASISState) -> str:
    """A question with earlier turns in its thread is read in their context first; a first question is not."""
    return "reader" if state.get("history") else "supervisor"
