"""Every CLI call pays for what it imports: heavy libraries load only on the path that uses them.

Each case runs a fresh interpreter (an import already made by the test process would hide a regression)
and reads its `sys.modules`.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

# Never needed by the embedded, offline default: the Qdrant server client (QDRANT_URL only), the OpenAI
# path, the evaluation's peers (`masis eval` only), the Slack bot and the HTTP API (`masis serve` only).
NEVER_ON_THE_DEFAULT_PATH = (
    "qdrant_client",
    "langchain_openai",
    "openai",
    "bm25s",
    "Stemmer",
    "masis.eval.runner",
    "masis.eval.peers",
    "slack_bolt",
    "slack_sdk",
    "bot",
    "masis.api",
    "uvicorn",
    "starlette",
    "prometheus_client",  # the metrics: on in servers only
)
# Not needed to parse arguments or print help: the engine and everything under it, the terminal renderer.
NOT_FOR_ARGUMENT_PARSING = (
    *NEVER_ON_THE_DEFAULT_PATH,
    "masis.engine",
    "langgraph",
    "langchain_core",
    "qdrant_edge",
    "pydantic_settings",
    "rich",
    "pypdf",
    "docx",
    "pptx",
    "openpyxl",
    "bs4",
)
# Not needed to answer a question: the parsers of uploaded pdf, docx, pptx, xlsx and html files.
NOT_FOR_A_QUESTION = (*NEVER_ON_THE_DEFAULT_PATH, "pypdf", "docx", "pptx", "openpyxl", "PIL", "bs4")


def loaded_modules(code: str, tmp_path: Path) -> set[str]:
    """The top-level and dotted module names loaded after running `code` in a fresh interpreter."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "QDRANT_", "SLACK_", "MASIS_"))}
    env.update(MASIS_DATA_DIR=str(tmp_path / "data"), MASIS_LLM="extractive", PYTHONPATH=str(REPO))
    script = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    proc = subprocess.run(
        [sys.executable, "-c", script], env=env, cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    return set(json.loads(proc.stdout.strip().splitlines()[-1]))


def present(modules: set[str], names: tuple[str, ...]) -> list[str]:
    return sorted(n for n in names if n in modules or any(m.startswith(n + ".") for m in modules))


def test_import_masis_cli_loads_only_what_parsing_arguments_needs(tmp_path: Path) -> None:
    modules = loaded_modules("import masis.cli", tmp_path)
    assert "masis.cli" in modules
    assert present(modules, NOT_FOR_ARGUMENT_PARSING) == []


def test_masis_help_loads_nothing_heavy(tmp_path: Path) -> None:
    code = (
        "import contextlib, io\nfrom masis.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()) as out, contextlib.suppress(SystemExit):\n"
        "    main(['--help'])\n"
        "assert 'ingest' in out.getvalue() and 'eval' in out.getvalue()"
    )
    assert present(loaded_modules(code, tmp_path), NOT_FOR_ARGUMENT_PARSING) == []


@pytest.mark.timeout(180)
def test_a_question_on_the_embedded_default_loads_no_server_client_openai_eval_or_slack(tmp_path: Path) -> None:
    (tmp_path / "notes.md").write_text("# Budget\n\nThe AI budget for 2026 is 4 million dollars.\n")
    code = (
        "from masis.cli import main\n"
        f"assert main(['ingest', '--workspace', 'w', {str(tmp_path / 'notes.md')!r}]) == 0\n"
        "assert main(['ask', '--workspace', 'w', '--json', 'What is the AI budget?']) == 0"
    )
    modules = loaded_modules(code, tmp_path)
    assert {"masis.engine", "langgraph", "qdrant_edge"} <= modules  # it did run the engine
    # ingest of a .md file needs no pdf/docx/html parser either, so a question-only process is the same
    assert present(modules, NOT_FOR_A_QUESTION) == []


@pytest.mark.timeout(180)
def test_a_question_alone_loads_neither_the_ingest_pipeline_nor_its_loaders(tmp_path: Path) -> None:
    (tmp_path / "notes.md").write_text("# Budget\n\nThe AI budget for 2026 is 4 million dollars.\n")
    notes = str(tmp_path / "notes.md")
    ingest = f"from masis.cli import main\nassert main(['ingest', '--workspace', 'w', {notes!r}]) == 0"
    loaded_modules(ingest, tmp_path)  # another process: this one only asks
    modules = loaded_modules(
        "from masis.cli import main\nassert main(['ask', '--workspace', 'w', '--json', 'What is the AI budget?']) == 0",
        tmp_path,
    )
    assert "langgraph" in modules
    assert present(modules, ("masis.ingest.pipeline", "masis.ingest.loaders", "masis.ingest.isolation")) == []


def test_listing_and_ingesting_documents_do_not_load_langgraph(tmp_path: Path) -> None:
    (tmp_path / "notes.md").write_text("# Budget\n\nThe AI budget for 2026 is 4 million dollars.\n")
    code = (
        "from masis.cli import main\n"
        f"assert main(['ingest', '--workspace', 'w', {str(tmp_path / 'notes.md')!r}]) == 0\n"
        "assert main(['docs', '--workspace', 'w']) == 0"
    )
    modules = loaded_modules(code, tmp_path)
    assert "masis.engine" in modules
    assert present(modules, (*NOT_FOR_A_QUESTION, "langgraph", "langchain_core", "langsmith")) == []


def test_the_loaders_a_parse_child_imports_leave_the_judge_and_its_store_out(tmp_path: Path) -> None:
    # every isolated parse of a pdf, docx or html file imports the loaders: the judge's word lists and Qdrant Edge's
    # BM25 load only when a text needs them (a man page's hyphenated words, a table's heading)
    modules = loaded_modules("import masis.ingest.loaders", tmp_path)
    assert present(modules, ("qdrant_edge", "masis.judge.names", "masis.judge.terms", "masis.judge.tables")) == []
