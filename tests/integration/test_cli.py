"""The CLI as a user runs it: separate processes sharing one data directory."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from masis.engine import Engine
from tests.conftest import SAMPLE_DIR, make_settings


def masis(data_dir: Path, *args: str, **settings: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "MASIS_DATA_DIR": str(data_dir), "MASIS_LLM": "extractive", **settings}
    env.pop("QDRANT_URL", None)
    return subprocess.run(
        [sys.executable, "-m", "masis.cli", *args], capture_output=True, text=True, env=env, timeout=120
    )


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("cli") / "data"
    result = masis(path, "ingest", "--workspace", "demo", str(SAMPLE_DIR))
    assert result.returncode == 0, result.stderr
    assert "strategy_memo.pdf" in result.stdout
    return path


def test_clarify_then_reply_from_another_process_resumes_the_saved_state(data_dir: Path) -> None:
    asked = masis(data_dir, "ask", "--workspace", "demo", "--json", "What was Q3 2026 revenue?")
    assert asked.returncode == 0, asked.stderr
    first = json.loads(asked.stdout)
    assert first["status"] == "needs_clarification"
    assert first["clarification"]["kind"] == "conflict"
    assert first["metrics"]["llm_calls"] == 3  # the offline engine asks back after its first draft

    replied = masis(data_dir, "reply", "--thread", first["thread_id"], "--json", "--choice", "source:q3_report.md")
    assert replied.returncode == 0, replied.stderr
    second = json.loads(replied.stdout)
    assert second["status"] == "answered"
    assert second["thread_id"] == first["thread_id"] and second["workspace_id"] == "demo"
    assert "$12.4 million" in second["answer"]
    assert second["citations"][0]["doc_name"] == "q3_report.md"
    assert second["metrics"]["llm_calls"] == 6  # 3 before the question, 3 after


def test_a_free_text_reply_from_another_process(data_dir: Path) -> None:
    first = json.loads(masis(data_dir, "ask", "--workspace", "demo", "--json", "What is the cafeteria menu?").stdout)
    assert first["clarification"]["kind"] == "zero_results"
    second = json.loads(
        masis(data_dir, "reply", "--thread", first["thread_id"], "--json", "the home-office equipment stipend").stdout
    )
    assert second["status"] == "answered" and "$600" in second["answer"]


def test_the_outcome_json_has_the_contract_fields(data_dir: Path) -> None:
    out = json.loads(
        masis(data_dir, "ask", "--workspace", "demo", "--json", "What is our AI investment strategy?").stdout
    )
    assert {
        "status",
        "thread_id",
        "workspace_id",
        "answer",
        "confidence",
        "citations",
        "clarification",
        "evaluation",
        "trace",
        "metrics",
    } <= set(out)
    assert {"chunk_id", "doc_name", "page", "text"} <= set(out["citations"][0])
    assert {"faithfulness", "relevance", "completeness", "reasoning_quality", "overall_score"} <= set(out["evaluation"])
    assert {"llm_calls", "retrieval_calls", "confidence_history", "retry_reasons", "last_citation_audit"} <= set(
        out["metrics"]
    )


def test_a_follow_up_with_thread_is_read_with_the_earlier_question_in_another_process(data_dir: Path) -> None:
    first = masis(data_dir, "ask", "--workspace", "demo", "--thread", "ops-follow", "--json",
                  "How large is the home-office equipment stipend?")
    assert first.returncode == 0, first.stderr
    assert json.loads(first.stdout)["reading"] is None
    follow = masis(data_dir, "ask", "--workspace", "demo", "--thread", "ops-follow", "--json", "Is it paid every year?")
    assert follow.returncode == 0, follow.stderr
    out = json.loads(follow.stdout)
    assert out["question"] == "Is it paid every year?"
    assert out["reading"] == "Is the home-office equipment stipend paid every year?"
    assert {c["doc_name"] for c in out["citations"]} == {"remote_work_policy.html"}
    assert "one-time" in out["answer"]
    shown = masis(data_dir, "ask", "--workspace", "demo", "--thread", "ops-follow", "How do I claim it?")
    assert shown.returncode == 0, shown.stderr
    assert "Reading this as: How do I claim the home-office equipment stipend?" in " ".join(shown.stdout.split())


def test_the_terminal_answer_shows_numbered_sources_and_scores(data_dir: Path) -> None:
    result = masis(data_dir, "ask", "--workspace", "demo", "What is our AI investment strategy?")
    assert result.returncode == 0
    assert "[1]" in result.stdout and "Sources" in result.stdout
    assert "strategy_memo.pdf, p. 1" in result.stdout
    assert "faithfulness" in result.stdout and "confidence" in result.stdout
    assert "#1]" not in result.stdout  # raw chunk ids are replaced by numbers


def test_docs_lists_and_removes(tmp_path: Path) -> None:
    data = tmp_path / "data"
    assert masis(data, "ingest", "--workspace", "w", "--by", "alice", str(SAMPLE_DIR / "q3_report.md")).returncode == 0
    listing = masis(data, "docs", "--workspace", "w")
    assert "q3_report.md" in listing.stdout and "alice" in listing.stdout
    assert masis(data, "docs", "--workspace", "w", "--remove", "q3_report.md").returncode == 0
    assert "No documents" in masis(data, "docs", "--workspace", "w").stdout


def test_docs_piped_prints_whole_names_and_json_prints_the_apis_document_list(tmp_path: Path) -> None:
    data = tmp_path / "data"
    long_name = "Quarterly board pack for the northern region, final version approved by the committee.md"
    (tmp_path / long_name).write_text("The northern region grew by nine percent.")
    (tmp_path / "отчёт.md").write_text("Выручка выросла.")
    ingested = masis(data, "ingest", "--workspace", "w", str(tmp_path / long_name), str(tmp_path / "отчёт.md"))
    assert ingested.returncode == 0 and f"✓ {long_name}: 1 chunks (indexed)" in ingested.stdout

    piped = masis(data, "docs", "--workspace", "w")  # stdout is a pipe here, not a terminal
    assert piped.returncode == 0 and "…" not in piped.stdout
    header, *rows = piped.stdout.splitlines()
    assert header.split("\t") == ["name", "chunks", "size_bytes", "pages", "uploaded_at", "uploaded_by"]
    assert sorted(row.split("\t")[0] for row in rows) == sorted([long_name, "отчёт.md"])

    listed = json.loads(masis(data, "docs", "--workspace", "w", "--json").stdout)
    assert listed["workspace_id"] == "w"
    assert sorted(d["name"] for d in listed["documents"]) == sorted([long_name, "отчёт.md"])
    assert set(listed["documents"][0]) == {"name", "chunks", "size_bytes", "pages", "uploaded_by", "uploaded_at",
                                           "sha256"}


def test_ingest_refuses_a_name_with_a_bidi_or_control_character_and_says_why(tmp_path: Path) -> None:
    data = tmp_path / "data"
    (tmp_path / "invoice\u202egpj.md").write_text("Pay now.")
    (tmp_path / "fine.md").write_text("The Osprey launch is in April.")
    result = masis(data, "ingest", "--workspace", "w", str(tmp_path / "invoice\u202egpj.md"), str(tmp_path / "fine.md"))
    assert result.returncode == 3
    reason = "the name contains the bidirectional-text control U+202E; rename the file"
    assert f"✗ invoice\\u202egpj.md: {reason}\n" in result.stdout
    assert "\u202e" not in result.stdout + result.stderr, "the invisible character is never printed as is"
    assert [d["name"] for d in json.loads(masis(data, "docs", "--workspace", "w", "--json").stdout)["documents"]] == [
        "fine.md"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("ingest", "--workspace", "w", "/no/such/file.pdf"), "no such file"),
        (("ingest", "--workspace", "w", "/dev/zero"), "/dev/zero: not a regular file but a character device"),
        (("reply", "--thread", "nothing:here", "hello"), "no question waiting"),
        (("docs", "--workspace", "w", "--remove", "ghost.pdf"), "No document named"),
        (("ask", "--workspace", " ", "question?"), "workspace"),
    ],
)
def test_errors_are_one_clear_line_and_a_nonzero_exit(tmp_path: Path, args: tuple[str, ...], message: str) -> None:
    result = masis(tmp_path / "data", *args)
    assert result.returncode != 0
    assert message in result.stderr
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_ingest_refuses_a_fifo_argument_without_waiting_for_a_writer(tmp_path: Path) -> None:
    fifo = tmp_path / "notes.md"
    os.mkfifo(fifo)
    result = masis(tmp_path / "data", "ingest", "--workspace", "w", str(fifo))
    assert result.returncode == 1
    assert result.stderr == f"masis: {fifo}: not a regular file but a named pipe (FIFO); give the path of a " \
                            "document or of a directory of documents\n"


def test_ingest_refuses_a_2_gib_file_without_reading_it(tmp_path: Path) -> None:
    """A sparse 2 GiB file beside a small one, with the process's address space capped at 1.5 GiB: reading the
    big file (as `masis ingest` did, every file up front) would fail for memory; checking its size first
    refuses it and indexes the small one."""
    big, small = tmp_path / "big.txt", tmp_path / "small.txt"
    with big.open("wb") as file:
        file.truncate(2 * 1024**3)
    small.write_text("The Osprey launch is in April.")
    env = {**os.environ, "MASIS_DATA_DIR": str(tmp_path / "data"), "MASIS_LLM": "extractive"}
    env.pop("QDRANT_URL", None)

    def cap_memory() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (3 * 1024**3 // 2, 3 * 1024**3 // 2))

    result = subprocess.run([sys.executable, "-m", "masis.cli", "ingest", "--workspace", "w", str(big), str(small)],
                            capture_output=True, text=True, env=env, timeout=120, preexec_fn=cap_memory)
    assert result.returncode == 3, result.stderr
    assert result.stdout.splitlines() == ["✗ big.txt: the file is 2.0 GiB; the limit is 20.0 MiB",
                                          "✓ small.txt: 1 chunks (indexed)",
                                          "1 indexed (1 chunk), 0 unchanged, 1 failed."]


def test_a_store_held_by_another_process_gets_a_clear_message(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with Engine(make_settings(data)):
        result = masis(data, "docs", "--workspace", "w")
    assert result.returncode == 1
    assert "in use" in result.stderr and "QDRANT_URL" in result.stderr
    assert "Traceback" not in result.stderr


def test_ingest_ends_with_one_summary_line_and_its_exit_code_says_whether_some_failed(tmp_path: Path) -> None:
    """0: every file indexed or unchanged; 3: some failed, the others indexed; 1: nothing was read."""
    data, docs = tmp_path / "data", tmp_path / "docs"
    docs.mkdir()
    for i in range(30):
        (docs / f"note{i:02}.md").write_text(f"Note {i} says the depot opens at {i % 12 + 1} o'clock.")
    first = masis(data, "ingest", "--workspace", "w", str(docs))
    assert first.returncode == 0, first.stderr
    assert first.stdout.splitlines()[-1] == "30 indexed (30 chunks), 0 unchanged, 0 failed."

    (docs / "note00.md").write_text("Note 0 now says the depot opens at noon.")
    (docs / "broken.pdf").write_bytes(b"%PDF-1.7 cut here")
    (docs / "slides.key").write_bytes(b"not a format MASIS reads")
    second = masis(data, "ingest", "--workspace", "w", str(docs))
    assert second.returncode == 3, second.stderr
    lines = second.stdout.splitlines()
    assert lines[-1] == "1 indexed (1 chunk), 29 unchanged, 2 failed."
    assert len(lines) == 33 and sum(line.startswith("✗ ") for line in lines) == 2
    assert second.stderr == ""

    nothing = masis(data, "ingest", "--workspace", "w", str(tmp_path / "missing"))
    assert nothing.returncode == 1 and nothing.stdout == "" and "no such file" in nothing.stderr


def test_a_raised_answer_bar_asks_back_with_the_draft(data_dir: Path) -> None:
    # the README's "Choosing the bar": MASIS_LOW_CONFIDENCE_THRESHOLD is read by every face, and an answer scored
    # under it is asked back with its draft instead of given
    question = "How many machine learning engineers does Kestrel Labs plan to hire in FY2026?"
    default = json.loads(masis(data_dir, "ask", "--workspace", "demo", "--json", question).stdout)
    assert default["status"] == "answered" and 0.65 <= default["confidence"] < 0.95

    raised = masis(data_dir, "ask", "--workspace", "demo", "--json", question, MASIS_LOW_CONFIDENCE_THRESHOLD="0.95")
    assert raised.returncode == 0, raised.stderr
    asked = json.loads(raised.stdout)
    assert asked["status"] == "needs_clarification"
    assert asked["clarification"]["kind"] == "low_confidence"
    assert asked["metrics"]["llm_calls"] == default["metrics"]["llm_calls"] == 3  # offline: no retry before asking
    assert asked["answer"]  # the draft is offered, not lost
