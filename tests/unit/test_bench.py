"""The benchmark scripts import and run at tiny sizes; their helpers compute what they claim.
(They print figures; nothing here asserts a timing.)"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from ..conftest import REPO

sys.path.insert(0, str(REPO / "bench"))

import bench_cli_startup
import bench_encoder_load
import bench_fairness
import bench_hostile_files
import bench_ingest
import bench_replace
import bench_scaling
import bench_sentences
import run_all


def test_growth_exponent_recovers_a_power_law() -> None:
    sizes = [1_000, 10_000, 50_000, 100_000]
    assert bench_scaling.growth_exponent(sizes, [0.002 * s**0.5 for s in sizes]) == pytest.approx(0.5)
    assert bench_scaling.growth_exponent(sizes, [3.0] * 4) == pytest.approx(0.0)


def test_scaling_runs_tiny_and_grows_the_workspace_in_place() -> None:
    figures = bench_scaling.run([100, 300], n_queries=5, asks=1)
    assert [row["chunks"] for row in figures["sizes"]] == [100, 300]
    assert [row["store_chunks"] for row in figures["sizes"]] == [200, 600]
    assert figures["workspaces"] == 20
    assert all(row["query_p50_ms"] > 0 and row["peak_rss_mb"] > 0 for row in figures["sizes"])


def test_ingest_bench_indexes_text_and_pdf_pages() -> None:
    figures = bench_ingest.run(count=2, pages=2)
    for kind in ("text", "pdf"):
        assert figures[kind]["files"] == 2 and figures[kind]["pages"] == 4
        assert figures[kind]["chunks"] >= 4 and figures[kind]["chunks_per_s"] > 0


def test_replace_bench_replaces_a_document_whole() -> None:
    figures = bench_replace.run(paragraphs=40, queries=5)
    assert figures["chunks"] == 30 and figures["masis"] == str(Path(__file__).resolve().parents[2])
    assert figures["upload_s"] > 0 and figures["replace_s"] > 0 and figures["query_p50_ms"] > 0


def test_run_all_reads_a_bench_json_and_plots(tmp_path: Path) -> None:
    assert run_all.first_json('note\n{"a": {"b": 1}}\n\n| figure | value |') == {"a": {"b": 1}}
    rows = [
        {"chunks": n, "query_p50_ms": n / 1000, "query_p95_ms": n / 800, "ask_p50_ms": 30.0} for n in (1000, 10_000)
    ]
    run_all.plot({"sizes": rows, "asks": 2, "query_p50_growth_exponent": 1.0}, tmp_path / "plot.png")
    assert (tmp_path / "plot.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert set(run_all.QUICK) == set(run_all.FULL)


def test_cli_startup_bench_times_processes_and_exports_a_revision(tmp_path: Path) -> None:
    env = bench_cli_startup._env(REPO, tmp_path / "data")
    assert "OPENAI_API_KEY" not in env and env["MASIS_LLM"] == "extractive"
    assert bench_cli_startup.median_seconds([sys.executable, "-c", "pass"], env, tmp_path, runs=1) > 0
    with pytest.raises(SystemExit, match="exited 3"):
        bench_cli_startup.median_seconds([sys.executable, "-c", "raise SystemExit(3)"], env, tmp_path, runs=1)
    source = bench_cli_startup.export("HEAD", tmp_path)
    assert (source / "masis" / "cli.py").is_file() and (source / "bot").is_dir()


def test_hostile_files_bench_parses_a_case_in_a_worker_and_builds_its_inputs() -> None:
    assert len(bench_hostile_files.CASES["md 1 MiB of '**x '"]()[1]) == 1024 * 1024
    assert bench_hostile_files.CASES["md 4 KB heading of spaces"]()[1].startswith("# x   ")
    assert bench_hostile_files.CASES["xlsx 2 rows claiming A1:XFD1048576"]()[1][:2] == b"PK"
    figures = bench_hostile_files.parse_figures(REPO, "md 64 KB of '**x '", timeout=60)
    assert figures["outcome"] == "73 chunks" and figures["seconds"] >= 0 and figures["gil_held_ms"] > 0


def test_fairness_bench_measures_the_quiet_question_in_each_pool() -> None:
    figures = bench_fairness.run(heavy=3, heavy_seconds=0.01, workers=2)
    assert figures["fair_cap_per_workspace"] == 1
    for kind in ("one_line", "fair", "fair_uncapped"):
        assert figures[kind]["quiet_question_s"] > 0 and figures[kind]["last_heavy_answer_s"] > 0, kind


def test_encoder_load_bench_measures_a_load_in_a_fresh_process() -> None:
    figures = bench_encoder_load.run(texts=1, against=None)
    assert "before" not in figures
    assert figures["now"]["load_s"] > 0 and figures["now"]["load_uss_mb"] > 50  # the weights are read, ~87 MB


def test_sentences_bench_splits_the_documentation_sets_sections() -> None:
    figures = bench_sentences.run(rounds=1, files=2)
    assert figures["files"] == 2 and figures["sections"] >= 2 and figures["seconds"] >= 0
