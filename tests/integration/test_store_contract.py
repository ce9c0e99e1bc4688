"""The `VectorStore` contract, run against both backends: Qdrant Edge and qdrant-client's local mode."""

from __future__ import annotations

import logging
import subprocess
import sys
import textwrap
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from qdrant_client import QdrantClient

from masis.config import Settings
from masis.errors import InvalidWorkspaceError, MasisError, StoreInUseError
from masis.judge.terms import query_vector
from masis.store import ChunkRecord, EdgeStore, QdrantServerStore, VectorStore, open_store
from masis.store.embeddings import make_embedder
from masis.store.ids import point_id
from tests.openai_server import OpenAICompatServer, openai_settings

pytestmark = [
    pytest.mark.filterwarnings("ignore:Payload indexes have no effect:UserWarning"),
    pytest.mark.filterwarnings("ignore:Api key is used with an insecure connection:UserWarning"),
]

WS_A = "T1:C_ALPHA"
WS_B = "T1:C_BETA"
REPO_ROOT = Path(__file__).resolve().parents[2]


def chunk(doc: str, ordinal: int, text: str, page: int | None = None, section: str | None = None) -> ChunkRecord:
    return ChunkRecord(
        chunk_id=f"{doc}#{ordinal}", doc_name=doc, text=text, ordinal=ordinal, page=page, section=section
    )


@pytest.fixture(scope="module")
def openai_server() -> Iterator[OpenAICompatServer]:
    server = OpenAICompatServer().start()
    yield server
    server.stop()


@pytest.fixture(params=["edge", "server", "edge-hybrid", "server-hybrid"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[VectorStore]:
    """Each backend BM25-only, and hybrid (BM25 + dense vectors from the local OpenAI-compatible server)."""
    embedder = None
    if request.param.endswith("hybrid"):
        server = request.getfixturevalue("openai_server")
        embedder = make_embedder(openai_settings(tmp_path / "data", server))
    backend: VectorStore
    if request.param.startswith("edge"):
        backend = EdgeStore(tmp_path / "edge", embedder)
    else:
        backend = QdrantServerStore(QdrantClient(":memory:"), "test", embedder)
    assert backend.hybrid is (embedder is not None)
    yield backend
    backend.close()
    if embedder is not None:
        embedder.close()


HANDBOOK = [
    chunk("handbook.pdf", 0, "Employees accrue twenty days of paid vacation per calendar year.", page=1),
    chunk(
        "handbook.pdf",
        1,
        "Refunds are issued within thirty days when the customer returns the product unopened.",
        page=2,
        section="Refund policy",
    ),
    chunk("handbook.pdf", 2, "The office is closed on public holidays and during the winter shutdown.", page=3),
]


# --- the contract ---------------------------------------------------------------------------------


def test_search_ranks_the_matching_chunk_first_and_returns_its_fields(store: VectorStore) -> None:
    store.upsert(WS_A, HANDBOOK)

    hits = store.search(WS_A, "how many days until refunds are issued?", limit=5)

    assert hits, "the refund chunk should be found"
    top = hits[0]
    assert top.chunk_id == "handbook.pdf#1"
    assert top.doc_name == "handbook.pdf"
    assert top.text == HANDBOOK[1].text
    assert top.page == 2
    assert top.section == "Refund policy"
    assert top.score > 0


def test_a_workspace_never_sees_another_workspaces_chunks(store: VectorStore) -> None:
    secret = "The vault combination is zebra omega seven seven three one."
    store.upsert(WS_A, [chunk("secrets.txt", 0, secret)])
    store.upsert(WS_B, [chunk("notes.txt", 0, "The vault in the lobby is painted blue.")])

    hits = store.search(WS_B, "vault combination zebra omega seven seven three one", limit=10)

    assert [h.chunk_id for h in hits] == ["notes.txt#0"]
    assert all(secret not in h.text for h in hits)
    assert store.search(WS_B, "zebra omega", limit=10) == []
    assert store.search(WS_A, "zebra omega", limit=10)[0].text == secret
    assert store.count(WS_A) == 1
    assert store.count(WS_B) == 1
    assert store.count("T1:C_NOBODY") == 0


def test_count_and_delete_are_scoped_to_the_workspace(store: VectorStore) -> None:
    store.upsert(WS_A, [chunk("shared.md", 0, "alpha text"), chunk("shared.md", 1, "more alpha text")])
    store.upsert(WS_B, [chunk("shared.md", 0, "beta text")])

    store.delete_document(WS_B, "shared.md")

    assert store.count(WS_B) == 0
    assert store.count(WS_A) == 2
    assert store.count(WS_A, "shared.md") == 2
    assert sorted(h.chunk_id for h in store.search(WS_A, "alpha", limit=5)) == ["shared.md#0", "shared.md#1"]


@pytest.mark.parametrize("workspace_id", ["", "   ", "\t\n", f"{WS_A}\x00unpublished"])
@pytest.mark.parametrize("operation", ["search", "upsert", "count", "delete_document"])
def test_a_blank_workspace_is_refused(store: VectorStore, workspace_id: str, operation: str) -> None:
    store.upsert(WS_A, HANDBOOK)
    calls = {
        "search": lambda: store.search(workspace_id, "refunds", limit=5),
        "upsert": lambda: store.upsert(workspace_id, [chunk("x.txt", 0, "refunds")]),
        "count": lambda: store.count(workspace_id),
        "delete_document": lambda: store.delete_document(workspace_id, "handbook.pdf"),
    }

    with pytest.raises(InvalidWorkspaceError):
        calls[operation]()

    assert store.count(WS_A) == len(HANDBOOK), "a refused call must not have touched the store"


def test_an_empty_upsert_still_needs_a_workspace(store: VectorStore) -> None:
    with pytest.raises(InvalidWorkspaceError):
        store.upsert("", [])


def test_reupserting_the_same_chunk_ids_replaces_instead_of_duplicating(store: VectorStore) -> None:
    store.upsert(WS_A, HANDBOOK)
    revised = [chunk(c.doc_name, c.ordinal, c.text.replace("thirty", "fourteen")) for c in HANDBOOK]

    store.upsert(WS_A, revised)

    assert store.count(WS_A) == len(HANDBOOK)
    hits = store.search(WS_A, "refunds issued within fourteen days", limit=10)
    assert [h.chunk_id for h in hits].count("handbook.pdf#1") == 1
    assert "fourteen" in hits[0].text
    assert store.search(WS_A, "thirty", limit=10) == []


def test_the_same_chunk_id_in_two_workspaces_is_two_points(store: VectorStore) -> None:
    assert point_id(WS_A, "doc#0") != point_id(WS_B, "doc#0")
    assert point_id(WS_A, "doc#0") == point_id(WS_A, "doc#0")

    store.upsert(WS_A, [chunk("doc", 0, "apples from workspace A")])
    store.upsert(WS_B, [chunk("doc", 0, "pears from workspace B")])

    assert store.count(WS_A) == 1
    assert store.count(WS_B) == 1
    assert store.search(WS_A, "apples", limit=5)[0].text == "apples from workspace A"


def test_delete_document_removes_only_that_document_in_that_workspace(store: VectorStore) -> None:
    store.upsert(
        WS_A,
        [
            chunk("report.pdf", 0, "Quarterly revenue grew by twelve percent."),
            chunk("report.pdf", 1, "Operating costs fell in the northern region."),
            chunk("memo.txt", 0, "Revenue targets for next quarter are unchanged."),
        ],
    )
    store.upsert(WS_B, [chunk("report.pdf", 0, "Revenue in workspace B doubled.")])

    store.delete_document(WS_A, "report.pdf")

    assert store.count(WS_A, "report.pdf") == 0
    assert store.count(WS_A) == 1
    assert store.count(WS_B, "report.pdf") == 1
    assert [h.chunk_id for h in store.search(WS_A, "revenue", limit=10)] == ["memo.txt#0"]
    assert [h.doc_name for h in store.search(WS_B, "revenue", limit=10)] == ["report.pdf"]


def test_owners_names_the_document_each_stored_chunk_id_belongs_to_in_that_workspace(store: VectorStore) -> None:
    store.upsert(WS_A, HANDBOOK)
    store.upsert(WS_B, [chunk("memo.txt", 0, "Workspace B's memo.")])

    assert store.owners(WS_A, ["handbook.pdf#0", "handbook.pdf#2", "memo.txt#0", "nothing#1"]) == {
        "handbook.pdf#0": "handbook.pdf",
        "handbook.pdf#2": "handbook.pdf",
    }
    assert store.owners(WS_B, ["memo.txt#0", "handbook.pdf#0"]) == {"memo.txt#0": "memo.txt"}
    with pytest.raises(InvalidWorkspaceError):
        store.owners("", ["memo.txt#0"])


def test_passages_gives_the_texts_of_one_workspaces_visible_chunks_page_by_page(store: VectorStore) -> None:
    many = [chunk("notes.txt", i, f"Note number {i} of the long notes.") for i in range(700)]  # two pages
    store.upsert(WS_A, [*HANDBOOK, *many])
    store.upsert(WS_A, [chunk("draft.md", 0, "An upload that is not published yet.")], versions={"draft.md": "v1"})
    store.upsert(WS_B, [chunk("memo.txt", 0, "Workspace B's memo.")])

    pages = list(store.passages(WS_A))

    assert len(pages) >= 2
    assert sorted(text for page in pages for text in page) == sorted(c.text for c in [*HANDBOOK, *many])
    assert sorted(text for page in store.passages(WS_A, ["handbook.pdf"]) for text in page) == sorted(
        c.text for c in HANDBOOK)
    assert [text for page in store.passages(WS_B) for text in page] == ["Workspace B's memo."]
    assert list(store.passages("T1:C_NOBODY")) == []
    with pytest.raises(InvalidWorkspaceError):
        next(store.passages(""))


def test_renumber_document_moves_old_ids_to_the_current_scheme_keeping_text_and_vectors(store: VectorStore) -> None:
    old = [ChunkRecord(f"q3-report.md#{i + 1}", "Q3 report.md", c.text, i, c.page, c.section)
           for i, c in enumerate(HANDBOOK)]
    store.upsert(WS_A, old)
    store.upsert(WS_B, old)
    before = store.search(WS_A, "refunds issued within thirty days", limit=1)[0]

    assert store.renumber_document(WS_A, "Q3 report.md") == len(HANDBOOK)
    assert store.renumber_document(WS_A, "Q3 report.md") == 0

    assert store.count(WS_A) == store.count(WS_A, "Q3 report.md") == len(HANDBOOK)
    after = store.search(WS_A, "refunds issued within thirty days", limit=1)[0]
    assert after.chunk_id == "Q3-report.md~dfd0bb6d#2"
    assert (after.text, after.page, after.section, after.score) == (before.text, before.page, before.section,
                                                                    pytest.approx(before.score))
    assert after.dense_score == pytest.approx(before.dense_score)
    assert store.owners(WS_A, [c.chunk_id for c in old]) == {}
    assert store.search(WS_B, "refunds", limit=1)[0].chunk_id == "q3-report.md#2", "only that workspace"


def test_deleting_an_unknown_document_is_a_no_op(store: VectorStore) -> None:
    store.upsert(WS_A, HANDBOOK)

    store.delete_document(WS_A, "never-uploaded.pdf")

    assert store.count(WS_A) == len(HANDBOOK)


def test_search_can_be_restricted_to_one_document(store: VectorStore) -> None:
    store.upsert(
        WS_A,
        [
            chunk("a.md", 0, "The deployment pipeline runs nightly builds."),
            chunk("b.md", 0, "Deployment approvals need two reviewers."),
            chunk("b.md", 1, "Unrelated text about lunch menus."),
        ],
    )

    everywhere = store.search(WS_A, "deployment", limit=10)
    only_b = store.search(WS_A, "deployment", limit=10, doc_name="b.md")

    assert {h.doc_name for h in everywhere} == {"a.md", "b.md"}
    assert [h.chunk_id for h in only_b] == ["b.md#0"]
    assert store.count(WS_A, "b.md") == 2
    assert store.search(WS_A, "deployment", limit=10, doc_name="missing.md") == []


def test_idf_is_computed_per_workspace(store: VectorStore) -> None:
    store.upsert(
        WS_A,
        [
            chunk("a.txt", 0, "The invoice was paid late because the approver was travelling."),
            chunk("a.txt", 1, "Payment terms are net thirty for every supplier."),
            chunk("a.txt", 2, "The warehouse moved to a new building in March."),
            chunk("a.txt", 3, "Suppliers must register before their first delivery."),
        ],
    )
    question = "why was the invoice payment late"
    before = [(h.chunk_id, h.score) for h in store.search(WS_A, question, limit=10)]
    assert before and before[0][0] == "a.txt#0"

    # In B "invoice" is in every chunk: under collection-wide IDF it would become a weak term for A too.
    store.upsert(WS_B, [chunk("b.txt", i, f"Invoice number {i} for the invoice batch.") for i in range(60)])
    assert store.count(WS_B) == 60
    after = [(h.chunk_id, h.score) for h in store.search(WS_A, question, limit=10)]

    assert [cid for cid, _ in after] == [cid for cid, _ in before]
    for (_, score_before), (_, score_after) in zip(before, after, strict=True):
        assert score_after == pytest.approx(score_before, abs=1e-6)
    if not store.hybrid:  # fused RRF scores are rank-based; the ranking check above covers hybrid
        b_top = store.search(WS_B, "invoice", limit=1)[0].score
        a_top = store.search(WS_A, "invoice", limit=1)[0].score
        assert b_top < a_top, "the term everywhere in B should weigh less in B than in A"


def test_a_stop_word_only_query_returns_nothing(store: VectorStore) -> None:
    store.upsert(WS_A, [*HANDBOOK, chunk("x.txt", 0, "What is it and who was there?")])
    assert query_vector("what is the and of it")[0] == []

    assert store.search(WS_A, "what is the and of it", limit=10) == []
    assert store.search(WS_A, "", limit=10) == []
    assert store.search(WS_A, "vacation", limit=10), "a real term must still match"


def test_scores_come_in_descending_order(store: VectorStore) -> None:
    texts = [
        "Solar panels convert sunlight.",
        "Solar solar energy and solar panels on the solar farm.",
        "Wind turbines and solar panels share the grid.",
        "Batteries store solar energy overnight for later use in homes and offices.",
        "Nothing relevant here at all.",
    ]
    store.upsert(WS_A, [chunk("notes.txt", i, t) for i, t in enumerate(texts)])  # a name sharing no query word

    hits = store.search(WS_A, "solar panels energy", limit=10)

    assert len(hits) == 4
    scores = [h.score for h in hits]
    assert scores == sorted(scores, reverse=True)
    assert hits[0].chunk_id == "notes.txt#1"
    assert len(store.search(WS_A, "solar panels energy", limit=2)) == 2


def test_upsert_of_many_chunks_crosses_batch_boundaries(store: VectorStore) -> None:
    chunks = [chunk("big.txt", i, f"Paragraph {i} about topic{i % 7} and the common thread.") for i in range(1300)]

    store.upsert(WS_A, chunks)

    assert store.count(WS_A) == 1300
    assert store.count(WS_A, "big.txt") == 1300
    assert len(store.search(WS_A, "common thread", limit=50)) == 50


def test_use_after_close_is_a_clear_error_and_close_is_idempotent(store: VectorStore) -> None:
    store.upsert(WS_A, HANDBOOK)
    store.close()
    store.close()

    with pytest.raises(RuntimeError, match="closed"):
        store.search(WS_A, "refunds", limit=5)
    with pytest.raises(RuntimeError, match="closed"):
        store.count(WS_A)


# --- versions: a replacement written beside the old one, hidden until published ---------------------

REVISED = [chunk(c.doc_name, c.ordinal, c.text.replace("thirty", "fourteen") + " Revised.") for c in HANDBOOK]
REVISED.append(chunk("handbook.pdf", 3, "Revised: parking permits are renewed every January."))


def _versions_seen(store: VectorStore, query: str) -> set[str]:
    return {"revised" if "Revised" in h.text else "old" for h in store.search(WS_A, query, 10)}


def test_a_new_version_is_hidden_until_published_then_replaces_the_old(store: VectorStore) -> None:
    store.upsert(WS_A, HANDBOOK)  # as stores written before versions hold them: no version, no mark
    question = "refunds issued within days"
    before = [(h.chunk_id, h.score) for h in store.search(WS_A, question, 10)]

    store.upsert(WS_A, REVISED, versions={"handbook.pdf": "v2"})

    assert store.count(WS_A) == store.count(WS_A, "handbook.pdf") == len(HANDBOOK)
    assert store.count(WS_A, unpublished=True) == store.count(WS_A, "handbook.pdf", unpublished=True) == len(REVISED)
    assert [(h.chunk_id, h.score) for h in store.search(WS_A, question, 10)] == before, "its IDF unchanged too"
    assert store.search(WS_A, "parking permits", 10) == []
    assert store.search(WS_A, "fourteen", 10, doc_name="handbook.pdf") == []

    store.publish(WS_A, {"handbook.pdf": "v2"})
    assert store.count(WS_A, unpublished=True) == 0
    assert store.count(WS_A) == len(HANDBOOK) + len(REVISED)  # both, until the old one is deleted...
    for query in (question, "office holidays vacation parking", "revised"):
        assert len(_versions_seen(store, query)) == 1, "...but a search shows one version of a document"

    store.delete_other_versions(WS_A, {"handbook.pdf": "v2"})
    assert store.count(WS_A) == len(REVISED)
    assert _versions_seen(store, "office holidays vacation parking refunds") == {"revised"}
    assert "fourteen" in store.search(WS_A, question, 1)[0].text


def test_deleting_a_version_rolls_back_to_the_one_before(store: VectorStore) -> None:
    store.upsert(WS_A, HANDBOOK, versions={"handbook.pdf": "v1"})
    store.publish(WS_A, {"handbook.pdf": "v1"})
    store.upsert(WS_A, REVISED, versions={"handbook.pdf": "v2"})
    store.publish(WS_A, {"handbook.pdf": "v2"})  # published, never switched to: what a crash can leave

    store.delete_versions(WS_A, {"handbook.pdf": "v2"})

    assert store.count(WS_A) == len(HANDBOOK) and store.count(WS_A, unpublished=True) == 0
    assert _versions_seen(store, "office holidays vacation parking refunds") == {"old"}


def test_versions_are_scoped_to_their_workspace_and_a_removal_takes_every_version(store: VectorStore) -> None:
    store.upsert(WS_A, HANDBOOK)
    store.upsert(WS_A, REVISED, versions={"handbook.pdf": "v2"})
    store.upsert(WS_B, REVISED, versions={"handbook.pdf": "v2"})

    store.publish(WS_A, {"handbook.pdf": "v2"})
    store.delete_other_versions(WS_A, {"handbook.pdf": "v2"})
    assert store.count(WS_B) == 0 and store.count(WS_B, unpublished=True) == len(REVISED)

    store.delete_document(WS_B, "handbook.pdf")
    assert store.count(WS_B, unpublished=True) == 0
    assert store.count(WS_A) == len(REVISED)
    with pytest.raises(InvalidWorkspaceError):
        store.publish("", {"handbook.pdf": "v2"})
    with pytest.raises(InvalidWorkspaceError):
        store.delete_other_versions(" ", {"handbook.pdf": "v2"})
    assert store.count(WS_A) == len(REVISED)


# --- the embedded store ---------------------------------------------------------------------------


def test_edge_store_keeps_its_data_across_close_and_reopen(tmp_path: Path) -> None:
    path = tmp_path / "edge"
    with EdgeStore(path) as first:
        first.upsert(WS_A, HANDBOOK)

    with EdgeStore(path) as reopened:
        assert reopened.count(WS_A) == len(HANDBOOK)
        assert reopened.search(WS_A, "refunds", limit=1)[0].chunk_id == "handbook.pdf#1"


def test_edge_store_open_twice_in_one_process_says_what_to_do(tmp_path: Path) -> None:
    path = tmp_path / "edge"
    first = EdgeStore(path)
    try:
        with pytest.raises(StoreInUseError, match="QDRANT_URL") as excinfo:
            EdgeStore(path)
        assert str(path) in str(excinfo.value)
        first.upsert(WS_A, HANDBOOK)
        assert first.count(WS_A) == len(HANDBOOK), "the failed second open must not disturb the first"
    finally:
        first.close()

    with EdgeStore(path) as again:
        assert again.count(WS_A) == len(HANDBOOK)


def test_edge_store_held_by_another_process_fails_with_a_clear_message(tmp_path: Path) -> None:
    path = tmp_path / "edge"
    script = textwrap.dedent(
        """
        import sys
        from pathlib import Path
        from masis.errors import StoreInUseError
        from masis.store.edge import EdgeStore
        try:
            EdgeStore(Path(sys.argv[1]))
        except StoreInUseError as exc:
            print(exc)
            sys.exit(3)
        print("opened")
        """
    )
    with EdgeStore(path) as holder:
        holder.upsert(WS_A, HANDBOOK)
        result = subprocess.run(
            [sys.executable, "-c", script, str(path)],
            cwd=REPO_ROOT,
            capture_output=True,
            text=True,
            timeout=120,
        )

    assert result.returncode == 3, result.stdout + result.stderr
    assert "in use by another running MASIS process" in result.stdout
    assert "QDRANT_URL" in result.stdout


def test_edge_store_serves_several_threads_at_once(tmp_path: Path) -> None:
    errors: list[BaseException] = []

    with EdgeStore(tmp_path / "edge") as edge:
        edge.upsert(WS_A, HANDBOOK)

        def work(n: int) -> None:
            try:
                edge.upsert(WS_A, [chunk(f"t{n}.txt", i, f"thread {n} line {i} refunds") for i in range(50)])
                for _ in range(20):
                    assert edge.search(WS_A, "refunds", limit=5)
            except BaseException as exc:
                errors.append(exc)

        threads = [threading.Thread(target=work, args=(n,)) for n in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()

        assert errors == []
        assert edge.count(WS_A) == len(HANDBOOK) + 6 * 50


# --- the server store and the factory -------------------------------------------------------------


def test_an_unreachable_server_fails_clearly_without_leaking_the_api_key(
    caplog: pytest.LogCaptureFixture,
) -> None:
    key = "sk-very-secret-qdrant-key-123"
    caplog.set_level(logging.DEBUG)

    with pytest.raises(MasisError) as excinfo:
        QdrantServerStore.from_url("http://127.0.0.1:1", key, "masis_chunks")

    message = str(excinfo.value)
    assert "QDRANT_URL" in message
    assert "127.0.0.1:1" in message
    assert key not in message
    assert excinfo.value.__cause__ is None and excinfo.value.__suppress_context__
    assert key not in repr(excinfo.value.__context__)
    assert key not in caplog.text


def test_open_store_uses_the_embedded_store_without_qdrant_url(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, qdrant_url=None)

    store = open_store(settings)
    try:
        assert isinstance(store, EdgeStore)
        assert store.path == tmp_path / "qdrant-edge"
        store.upsert(WS_A, HANDBOOK)
    finally:
        store.close()
    assert (tmp_path / "qdrant-edge").is_dir()


def test_open_store_uses_the_server_when_qdrant_url_is_set(tmp_path: Path) -> None:
    key = "sk-another-secret"
    settings = Settings(data_dir=tmp_path, qdrant_url="http://127.0.0.1:1", qdrant_api_key=key)

    with pytest.raises(MasisError, match=r"127\.0\.0\.1:1") as excinfo:
        open_store(settings)

    assert key not in str(excinfo.value)
    assert not (tmp_path / "qdrant-edge").exists(), "the embedded store must not be opened"
