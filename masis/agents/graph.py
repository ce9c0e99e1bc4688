"""The MASIS graph: nodes, edges and routing, nothing else."""

from __future__ import annotations

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from masis.agents.clarify import clarify
from masis.agents.context import AgentContext
from masis.agents.critic import critic
from masis.agents.evaluator import evaluator
from masis.agents.reader import reader, route_at_start
from masis.agents.researcher import researcher, route_after_research
from masis.agents.supervisor import route_after_supervisor, supervisor
from masis.agents.synthesizer import synthesizer
from masis.state import MASISState


def build_graph(checkpointer: BaseCheckpointSaver | None = None) -> CompiledStateGraph:
    graph = StateGraph(MASISState, context_schema=AgentContext)
    graph.add_node("reader", reader)
    graph.add_node("supervisor", supervisor)
    graph.add_node("researcher", researcher)
    graph.add_node("synthesizer", synthesizer)
    graph.add_node("critic", critic)
    graph.add_node("evaluator", evaluator)
    graph.add_node("clarify", clarify)

    graph.add_conditional_edges(START, route_at_start, {"reader": "reader", "supervisor": "supervisor"})
    graph.add_conditional_edges(
        "supervisor",
        route_after_supervisor,
        {"first_run": "researcher", "retry": "researcher", "finalize": END, "escalate": "clarify"},
    )
    graph.add_conditional_edges(
        "researcher", route_after_research, {"synthesizer": "synthesizer", "clarify": "clarify", END: END}
    )
    graph.add_edge("synthesizer", "critic")
    graph.add_edge("critic", "evaluator")
    graph.add_edge("evaluator", "supervisor")
    return graph.compile(checkpointer=checkpointer)
