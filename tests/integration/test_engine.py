"""The engine's documents API, tenant isolation on both store backends, and graph termination."""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from qdrant_client import QdrantClient

from masis.engine import Engine
from masis.errors import (
    InvalidWorkspaceError,
    MasisError,
    NothingPendingError,
    StaleReplyError,
    ThreadOwnershipError,
    UnknownDocumentError,
)
from masis.judge.findings import Critique, Relatedness
from masis.llm.extractive import ExtractiveProvider
from masis.outcome import Outcome
from masis.state import EvidenceChunk
from masis.store.server import QdrantServerStore
from tests.conftest import make_settings

SECRET = "Project Nightjar will acquire Bluefin Systems for $84 million in March."
PUBLIC = "The Nightjar office party is in March and everyone is invited."


@pytest.fixture(params=["edge", "server"])
def any_engine(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Engine]:
    """An engine on the embedded store, and one on qdrant-client (":memory:" stands in for a server)."""
    store = QdrantServerStore(QdrantClient(":memory:"), "masis_test") if request.param == "server" else None
    with Engine(make_settings(tmp_path / "data"), store=store) as engine:
        yield engine


def test_tenant_isolation_a_secret_never_reaches_another_workspace(any_engine: Engine) -> None:
    any_engine.ingest("T1:C_FINANCE", [("deal.txt", SECRET.encode())])
    any_engine.ingest("T1:C_SOCIAL", [("party.txt", PUBLIC.encode())])
    leak = any_engine.ask("T1:C_SOCIAL", "How much will Nightjar pay to acquire Bluefin Systems?")
    leaked = leak.model_dump_json()
    assert "$84" not in leaked and "84 million" not in leaked  # not a bare "84": timings may contain it
    assert "Bluefin" not in (leak.answer or "")
    assert all(c.doc_name == "party.txt" for c in leak.citations)
    assert [d.name for d in any_engine.documents("T1:C_SOCIAL")] == ["party.txt"]
    own = any_engine.ask("T1:C_FINANCE", "How much will Nightjar pay to acquire Bluefin Systems?")
    assert own.status == "answered" and "$84 million" in (own.answer or "")


def test_an_empty_workspace_id_is_refused(any_engine: Engine) -> None:
    with pytest.raises(InvalidWorkspaceError):
        any_engine.ask("  ", "anything at all?")
    with pytest.raises(InvalidWorkspaceError):
        any_engine.ingest("", [("a.txt", b"text here.")])


def test_reingesting_the_same_file_adds_no_duplicates(any_engine: Engine) -> None:
    data = b"The Falcon budget is $2 million. The Falcon deadline is March 2027."
    first = any_engine.ingest("ws", [("falcon.txt", data)])
    again = any_engine.ingest("ws", [("falcon.txt", data)])
    assert first.results[0].status == "indexed" and again.results[0].status == "unchanged"
    assert any_engine.store.count("ws") == first.results[0].chunks
    assert any_engine.documents("ws")[0].chunks == first.results[0].chunks


def test_a_changed_file_replaces_the_old_version(any_engine: Engine) -> None:
    any_engine.ingest("ws", [("falcon.txt", b"The Falcon budget is $2 million.")])
    report = any_engine.ingest("ws", [("falcon.txt", b"The Falcon budget is $3 million.")])
    assert report.results[0].status == "indexed"
    outcome = any_engine.ask("ws", "What is the Falcon budget?")
    assert "$3 million" in (outcome.answer or "") and "$2 million" not in (outcome.answer or "")
    assert any_engine.store.count("ws") == 1


def test_documents_are_listed_and_removed(any_engine: Engine) -> None:
    any_engine.ingest(
        "ws", [("a.txt", b"Alpha facts are here."), ("b.md", b"# Beta\nBeta facts are here.")], uploaded_by="U123"
    )
    docs = any_engine.documents("ws")
    assert [(d.name, d.uploaded_by) for d in docs] == [("a.txt", "U123"), ("b.md", "U123")]
    assert all(d.chunks >= 1 and d.size_bytes > 0 and d.uploaded_at for d in docs)
    any_engine.remove_document("ws", "a.txt")
    assert [d.name for d in any_engine.documents("ws")] == ["b.md"]
    assert any_engine.store.count("ws", "a.txt") == 0
    with pytest.raises(UnknownDocumentError, match=r"b\.md"):
        any_engine.remove_document("ws", "a.txt")


def test_a_bad_file_fails_alone_and_the_rest_are_indexed(engine: Engine) -> None:
    report = engine.ingest(
        "ws",
        [
            ("good.txt", b"The Falcon budget is $2 million."),
            ("broken.pdf", b"%PDF-1.7 this is not a pdf"),
            ("sheet.numbers", b"PK\x03\x04"),
            ("notes.md", b"# Notes\nThe Falcon deadline is March 2027."),
        ],
    )
    status = {r.name: r.status for r in report.results}
    assert status == {"good.txt": "indexed", "broken.pdf": "failed", "sheet.numbers": "failed", "notes.md": "indexed"}
    reasons = {r.name: r.reason for r in report.failed}
    assert "not supported" in (reasons["sheet.numbers"] or "")
    assert reasons["broken.pdf"] and "Traceback" not in reasons["broken.pdf"]
    assert [d.name for d in engine.documents("ws")] == ["good.txt", "notes.md"]


def test_two_simultaneous_asks_in_one_thread_from_two_workspaces_one_wins_and_the_thread_stays(
    engine: Engine,
) -> None:
    engine.ingest("ws-a", [("a.md", SECRET.encode())])
    engine.ingest("ws-b", [("b.md", PUBLIC.encode())])
    barrier = threading.Barrier(2)
    results: dict[str, Outcome | ThreadOwnershipError] = {}

    def ask(workspace: str) -> None:
        barrier.wait()
        try:
            results[workspace] = engine.ask(workspace, "When is Nightjar in March?", thread_id="shared")
        except ThreadOwnershipError as exc:
            results[workspace] = exc

    workers = [threading.Thread(target=ask, args=(ws,)) for ws in ("ws-a", "ws-b")]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()

    winners = [ws for ws, r in results.items() if isinstance(r, Outcome)]
    losers = [ws for ws, r in results.items() if isinstance(r, ThreadOwnershipError)]
    assert len(winners) == 1 and len(losers) == 1, results
    assert engine.workspace_of("shared") == winners[0]
    with pytest.raises(ThreadOwnershipError, match="belongs to another workspace"):
        engine.ask(losers[0], "Anything?", thread_id="shared")
    assert engine.workspace_of("shared") == winners[0]


@pytest.mark.parametrize(
    ("name", "why"),
    [("notes\u0085.md", "control character U+0085"), ("tab\there.md", "control character U+0009"),
     ("a\x7fb.md", "control character U+007F"), ("invoice\u202egpj.md", "bidirectional-text control U+202E"),
     ("x\u2067y.md", "bidirectional-text control U+2067"), ("line\u2028break.md", "control character U+2028")],
)
def test_a_document_name_with_a_control_or_bidi_character_is_refused_alone(engine: Engine, name: str, why: str) -> None:
    report = engine.ingest("ws", [(name, b"Pay the invoice today."), ("fine.md", b"The Osprey launch is in April.")])
    [refused, indexed] = report.results
    assert refused.status == "failed" and why in (refused.reason or "") and "rename the file" in (refused.reason or "")
    assert refused.name.isprintable() and "\\u" in refused.name, "reported with the character escaped"
    assert indexed.status == "indexed"
    assert [d.name for d in engine.documents("ws")] == ["fine.md"]
    assert engine.store.count("ws") == 1


def test_a_reply_for_a_round_that_is_no_longer_pending_is_refused_and_changes_nothing(
    sample_engine: Engine,
) -> None:
    asked = sample_engine.ask("demo", "What was Q3 2026 revenue?", thread_id="rounds", max_retries=0)
    assert asked.status == "needs_clarification" and asked.clarification is not None
    assert asked.clarification.round == 1
    with pytest.raises(StaleReplyError, match=r"round 2 .* but round 1 is pending"):
        sample_engine.reply("rounds", "the audited one", round=2)
    assert sample_engine.pending("rounds") == asked.clarification, "the refused reply changed nothing"
    resumed = sample_engine.reply("rounds", choice="source:q3_report.md", round=1)
    assert resumed.status == "answered"
    with pytest.raises(NothingPendingError):
        sample_engine.reply("rounds", choice="accept", round=1)


def test_a_reply_with_nothing_pending_is_refused_clearly(engine: Engine) -> None:
    with pytest.raises(MasisError, match="no question waiting"):
        engine.reply("nowhere:thread", "hello")


# --- termination under any critic ---------------------------------------------------------------


class ScriptedCritic(ExtractiveProvider):
    """The offline provider with the critic's verdicts drawn at random: the graph must still end."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def critique(
        self,
        question: str,
        answer: str,
        evidence: Sequence[EvidenceChunk],
        term_weights: Mapping[int, float] | None = None,
        relatedness: Relatedness | None = None,
    ) -> Critique:
        real = super().critique(question, answer, evidence)
        conflicts = real.conflicts if self.rng.random() < 0.3 else []
        return Critique(
            hallucination_detected=self.rng.random() < 0.2,
            unsupported_claims=["made up"] if self.rng.random() < 0.3 else [],
            conflicts=conflicts,
            confidence=self.rng.choice([0.0, 0.3, 0.64, 0.65, 0.9, 1.0, 55, 140]),
            needs_retry=self.rng.random() < 0.5,
        )


@pytest.fixture(scope="module")
def scripted_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    data_dir = tmp_path_factory.mktemp("scripted") / "data"
    with Engine(make_settings(data_dir)) as engine:
        engine.ingest_paths("demo", [Path(__file__).resolve().parents[2] / "data" / "sample"])
    return data_dir


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    seed=st.integers(0, 10_000),
    replies=st.lists(st.sampled_from(["accept", "cancel", "text", "source"]), min_size=4, max_size=4),
)
def test_the_graph_always_terminates(scripted_dir: Path, seed: int, replies: list[str]) -> None:
    with Engine(make_settings(scripted_dir), llm=ScriptedCritic(seed)) as engine:
        outcome = engine.ask("demo", "What was Q3 2026 revenue?", thread_id=f"prop:{seed}:{'-'.join(replies)}")
        for reply in replies:
            assert outcome.metrics["llm_calls"] <= 9 * (outcome.metrics["clarification_rounds"] + 1)
            if outcome.status != "needs_clarification":
                break
            if reply == "text":
                outcome = engine.reply(outcome.thread_id, "the quarterly report figure")
            elif reply == "source":
                outcome = engine.reply(outcome.thread_id, choice="source:q3_report.md")
            else:
                outcome = engine.reply(outcome.thread_id, choice=reply)
        assert outcome.status in {"answered", "needs_clarification", "cancelled"}
        assert outcome.metrics["clarification_rounds"] <= 3
        if outcome.status == "needs_clarification":
            assert engine.pending(outcome.thread_id) is not None
