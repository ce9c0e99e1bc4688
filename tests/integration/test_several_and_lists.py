"""This round's reading of real files, end to end (real engine, real store): two named things asked about at once,
a tip a line in a plain-text list, an option's own entry line, a conflict only about what was asked."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from masis.engine import Engine
from tests.conftest import make_settings

DATA = Path(__file__).resolve().parents[2] / "data"
DATASHEETS = DATA / "conversations" / "files"
REALDOCS = DATA / "realdocs" / "files"


@pytest.fixture
def engine(tmp_path: Path) -> Iterator[Engine]:
    with Engine(make_settings(tmp_path / "data")) as engine:
        names = ("falcon_x2_datasheet.md", "heron_s1_datasheet.txt")
        sheets = [(name, (DATASHEETS / name).read_bytes()) for name in names]
        assert not engine.ingest("sheets", sheets).failed
        docs = [(name, (REALDOCS / name).read_bytes()) for name in ("linux-perf-tips.txt", "valgrind-ms-manual.html")]
        assert not engine.ingest("docs", docs).failed
        sample = [(path.name, path.read_bytes()) for path in sorted((DATA / "sample").iterdir()) if path.is_file()]
        assert not engine.ingest("sample", sample).failed
        yield engine


def test_two_named_things_asked_at_once_are_each_found(engine: Engine) -> None:
    # conversations cv-012: only the Heron S1's passages were found, and the Falcon X2's weight was asked back
    outcome = engine.ask("sheets", "How much do the Falcon X2 and the Heron S1 weigh?")
    assert outcome.status == "answered"
    assert "1.1 kg" in (outcome.answer or "") and "320 g" in (outcome.answer or "")
    assert outcome.metrics["retrieval_calls"] == 3  # the question, then each named thing


def test_a_tip_a_line_is_quoted_alone(engine: Engine) -> None:
    # realdocs rd-064: the tips ran together into one "sentence", and the answer quoted the neighbouring tips
    outcome = engine.ask("docs", "Which perf record option skips collecting build-ids?")
    assert outcome.status == "answered"
    assert (outcome.answer or "").startswith("Skip collecting build-id when recording: perf record -B [")


def test_an_options_own_line_gives_its_default(engine: Engine) -> None:
    # conversations cv-036: "--depth=<number> [default: 30]" read as a heading, never quoted
    outcome = engine.ask("docs", "What is the default value of Massif's --depth option?")
    assert outcome.status == "answered" and "[default: 30]" in (outcome.answer or "")


def test_a_conflict_about_another_figure_of_the_period_is_not_raised(engine: Engine) -> None:
    # sample q9: two Q3 2026 revenue figures raised a conflict for a question about customers
    outcome = engine.ask("sample", "How many customers did Kestrel Labs have at the end of Q3 2026?")
    assert outcome.status == "answered" and "412" in (outcome.answer or "")
    assert engine.ask("sample", "What was Q3 2026 revenue?").clarification.kind == "conflict"  # type: ignore[union-attr]
