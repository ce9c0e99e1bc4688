"""Right or ask back, through the engine: exact anchors, table rows, an option's default, and near misses that are
asked back (with what the documents do hold) and resumed by a reply, a typed choice or a yes."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from masis.engine import Engine
from tests.conftest import make_settings

WS = "acme"
RELEASE_NOTES = b"""# Widget release notes

## Release 2.4.0 (11 Apr 2024)

The cache is now on by default. Startup is 30% faster on large projects.

## Release 2.1.0 (3 Jan 2023)

Added the export command. Support for Python 3.8 was dropped.
"""
OFFICES = b"""office,head,phone,staff
Oslo,Kari Nord,+47 2233 4455,12
Santiago,Ana Ruiz,,7
Leeds,Tom Hale,+44 113 496 0000,9
"""
OPTIONS = b"""# widget command-line options

## --retries

How many times a failed download is tried again. Default: 5.

## --timeout

Seconds to wait for the server before giving up. Default: 30.
"""


@pytest.fixture
def engine(tmp_path: Path) -> Iterator[Engine]:
    with Engine(make_settings(tmp_path / "data")) as engine:
        report = engine.ingest(WS, [("release_notes.md", RELEASE_NOTES), ("offices.csv", OFFICES),
                                    ("options.md", OPTIONS)])
        assert not report.failed
        yield engine


def _quoted(outcome_answer: str | None) -> str:
    return outcome_answer or ""


def test_a_version_is_answered_from_its_own_section(engine: Engine) -> None:
    outcome = engine.ask(WS, "What changed in release 2.4.0?")
    assert outcome.status == "answered"
    assert "cache" in _quoted(outcome.answer) and "export" not in _quoted(outcome.answer)


def test_a_version_the_documents_do_not_have_is_asked_back_and_a_reply_resumes_it(engine: Engine) -> None:
    outcome = engine.ask(WS, "What changed in release 2.2.0?")
    assert outcome.status == "needs_clarification"
    assert outcome.clarification is not None and outcome.clarification.kind == "near_miss"
    assert "2.2.0" in outcome.clarification.question and "closest passage" in outcome.clarification.question
    resumed = engine.reply(outcome.thread_id, "I meant 2.1.0")
    assert resumed.status == "answered"
    assert "export" in _quoted(resumed.answer)


def test_a_table_question_is_answered_with_its_row_only(engine: Engine) -> None:
    outcome = engine.ask(WS, "Who is the head of the Santiago office?")
    assert outcome.status == "answered"
    answer = _quoted(outcome.answer)
    assert "Ana Ruiz" in answer and "Kari Nord" not in answer and "Tom Hale" not in answer


def test_an_empty_cell_is_a_near_miss_not_the_rows_other_cells(engine: Engine) -> None:
    outcome = engine.ask(WS, "What is the phone number of the Santiago office?")
    assert outcome.status == "needs_clarification"
    assert outcome.clarification is not None and outcome.clarification.kind == "near_miss"
    assert "phone" in outcome.clarification.question


def test_an_options_default_is_quoted_from_its_own_entry(engine: Engine) -> None:
    outcome = engine.ask(WS, "What is the default of --timeout?")
    assert outcome.status == "answered"
    assert "30" in _quoted(outcome.answer)


def test_an_option_the_reference_does_not_list_is_asked_back(engine: Engine) -> None:
    outcome = engine.ask(WS, "What is the default of --color?")
    assert outcome.status == "needs_clarification"


@pytest.mark.parametrize(("reply", "status"), [("cancel", "cancelled"), ("Use this draft", "answered"),
                                               ("yes", "answered")])
def test_a_typed_choice_on_a_near_miss_acts_like_its_button(engine: Engine, reply: str, status: str) -> None:
    outcome = engine.ask(WS, "What changed in release 2.2.0?")
    assert outcome.clarification is not None and outcome.clarification.kind == "near_miss"
    resumed = engine.reply(outcome.thread_id, reply)
    assert resumed.status == status
    if status == "answered":
        assert resumed.requires_human_review


def test_a_question_for_a_release_is_answered_with_the_heading_that_names_it(engine: Engine) -> None:
    outcome = engine.ask(WS, "Which release added the export command?")
    assert outcome.status == "answered"
    assert "Release 2.1.0" in _quoted(outcome.answer) and "export" in _quoted(outcome.answer)


KESTREL = b"""# Kestrel router

## Chipset

The Kestrel uses the Nordic N7 chipset and has four Gigabit Ethernet ports.

## Price

Kestrel retail price: TBD. The Heron S1 sells for $219.
"""


def test_a_fact_the_documents_leave_open_is_asked_back_with_their_words(tmp_path: Path) -> None:
    # before: "Kestrel retail price: TBD. The Heron S1 sells for $219." was answered at confidence 1.0
    with Engine(make_settings(tmp_path / "data")) as engine:
        assert not engine.ingest(WS, [("kestrel.md", KESTREL)]).failed
        open_price = engine.ask(WS, "What is the retail price of the Kestrel?")
        assert open_price.status == "needs_clarification"
        assert open_price.clarification is not None
        assert "leaves it open ('TBD')" in open_price.clarification.question
        settled = engine.ask(WS, "What chipset does the Kestrel use?")
        assert settled.status == "answered"
        assert "Nordic N7" in (settled.answer or "")


CELLS = b"""# Plant cells

The chloroplast makes the precursors of methionine. It is unclear whether the chloroplast carries out the last step \
of the methionine pathway or whether that step happens in the cytosol.

## --jobs

How many jobs run in parallel. If not specified, the default is 16 jobs.
"""


def test_a_quote_that_says_the_fact_is_unknown_is_asked_back(tmp_path: Path) -> None:
    # before: the document's own "It is unclear whether …" was the answer, at confidence 1.0
    with Engine(make_settings(tmp_path / "data")) as engine:
        assert not engine.ingest(WS, [("cells.md", CELLS)]).failed
        for question in ("Where does the last step of the methionine pathway happen?",
                         "Does the chloroplast carry out the last step of the methionine pathway?"):
            unknown = engine.ask(WS, question)
            assert unknown.status == "needs_clarification", question
            assert unknown.confidence < 0.65
        # "if not specified" states a default: it is a claim, not a hedge, and it is answered
        default = engine.ask(WS, "What is the default of --jobs?")
        assert default.status == "answered"
        assert "16" in (default.answer or "")


def test_a_price_the_guide_does_not_give_is_asked_back_not_answered_with_other_figures(tmp_path: Path) -> None:
    guide = (Path(__file__).parents[1] / "fixtures" / "evaldata" / "conversations" / "files" / "kettle.txt")
    with Engine(make_settings(tmp_path / "data")) as engine:
        assert not engine.ingest(WS, [("kettle.txt", guide.read_bytes())]).failed
        asked = engine.ask(WS, "How much does the K2 kettle cost?")  # the guide gives litres and minutes, no price
        assert asked.status == "needs_clarification"
        held = engine.ask(WS, "How much water does the K2 kettle hold?")
        assert held.status == "answered" and "1.7 litres" in _quoted(held.answer)
