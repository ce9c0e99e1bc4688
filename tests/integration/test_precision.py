"""Right or ask back, precision round: a reference's entries read apart, the value asked for taken from the entry that
holds the question's key, and the top of the confidence scale kept for a quote that itself answers. Real engine, real
store; the documents are two of the real-documentation set's files."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from masis.engine import Engine
from masis.llm.extractive import GATHERED_CONFIDENCE, GATHERED_QUOTES
from tests.conftest import make_settings

WS = "docs"
FILES = Path(__file__).resolve().parents[2] / "data" / "realdocs" / "files"
# util-linux's Documentation/deprecated (entries parted by rule lines, "since:" on some of them only) and base-passwd's
# users-and-groups manual (its chapter heading carries its number), as the real-documentation set ships them
DOCUMENTS = ("util-linux-deprecated.txt", "base-passwd-users-and-groups.html")


@pytest.fixture
def engine(tmp_path: Path) -> Iterator[Engine]:
    with Engine(make_settings(tmp_path / "data")) as engine:
        report = engine.ingest(WS, [(name, (FILES / name).read_bytes()) for name in DOCUMENTS])
        assert not report.failed
        yield engine


def test_a_value_from_the_neighbouring_entry_is_asked_back(engine: Engine) -> None:
    # real case (realdocs rd-128, a near miss): the entries ran together into one quote, and the hwclock entry's
    # "since: v2.32" answered for sfdisk --show-size, whose entry gives no version, at confidence 1.0
    outcome = engine.ask(WS, "Since which util-linux version is sfdisk --show-size deprecated?")
    assert outcome.status == "needs_clarification"
    assert outcome.clarification is not None and "sfdisk --show-size" in (outcome.clarification.draft or "")


def test_the_entry_that_gives_the_value_is_answered(engine: Engine) -> None:
    outcome = engine.ask(WS, "Since which util-linux version is column --columns deprecated?")
    first = (outcome.answer or "").split("].")[0]
    assert outcome.status == "answered"
    assert "column --columns" in first and "v2.30" in first and "hwclock" not in first
    # a draft that gathers four quotes or more of the list around the entry stays under the top of the scale; since
    # stop 74 the entries' lines are kept in the chunk, and the draft quotes the entry with fewer
    quotes = (outcome.answer or "").count("[util-linux-deprecated.txt#")
    assert outcome.confidence >= GATHERED_CONFIDENCE
    assert (outcome.confidence == pytest.approx(GATHERED_CONFIDENCE)) == (quotes >= GATHERED_QUOTES)
