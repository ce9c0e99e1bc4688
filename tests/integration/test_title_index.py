"""A plain-text file's title travels with every chunk into the index, so a passage deep in a document
still matches the words that say what the document is about."""

from __future__ import annotations

import pytest

from masis.engine import Engine
from masis.ingest.loaders import Section, load_document
from masis.store.base import ChunkRecord
from masis.store.payload import index_text


@pytest.mark.parametrize(
    ("text", "title"),
    [
        ("Zebra Migration Report\n\nThe herds move north.", "Zebra Migration Report"),
        ("Why do zebras have stripes?\n\nBody.", None),  # a sentence, not a title
        ("First para\nwrapped here.\n\nSecond para.", None),  # no blank line after the first line
        ("Only a title line", None),  # nothing under it
        ("x" * 201 + "\n\nBody.", None),  # too long for a title
    ],
)
def test_a_standalone_first_line_is_the_title(text: str, title: str | None) -> None:
    assert load_document("notes.txt", text.encode()) == [Section(text=text, heading=title, titles_document=bool(title))]


def test_index_text_puts_the_document_name_and_the_heading_above_the_chunk_once() -> None:
    middle = ChunkRecord("r.txt#3", "r.txt", "The herds move north.", 2, section="Zebra Report")
    first = ChunkRecord("r.txt#1", "r.txt", "Zebra Report\nIntro.", 0, section="Zebra Report")
    bare = ChunkRecord("n.txt#1", "n.txt", "Plain.", 0)
    assert index_text(middle) == "r\nZebra Report\nThe herds move north."
    assert index_text(first) == f"r\n{first.text}" and index_text(bare) == "n\nPlain."


def test_a_table_row_is_found_by_the_name_of_its_file(engine: Engine) -> None:
    """distro-info-debian.csv names Debian only in its file name: its rows still answer "Debian 12", and only the
    row of version 12 (not 1.2, released on 1996-12-12)."""
    rows = "version,codename,release\n1.2,Rex,1996-12-12\n11,Bullseye,2021-08-14\n12,Bookworm,2023-06-10\n"
    other = "Install on Ubuntu 12 with apt. The Python 3.12.1 build needs Xcode 12.\n"
    result = engine.ingest("ws", [("distro-info-debian.csv", rows.encode()), ("install.txt", other.encode())])
    assert not result.failed
    outcome = engine.ask("ws", "When was Debian 12 released?")
    assert outcome.status == "answered", outcome.clarification
    assert "2023-06-10" in (outcome.answer or "") and "1996-12-12" not in (outcome.answer or "")
    assert outcome.citations[0].doc_name == "distro-info-debian.csv"


def test_a_late_chunk_is_found_by_its_document_title(engine: Engine) -> None:
    filler = " ".join(f"Observation {i} of the herd was logged by the field team at dawn." for i in range(40))
    report = f"Zebra Migration Report\n\n{filler}\n\nRainfall in the Serengeti drives the herds north."
    others = [
        ("weather.txt", "Weather notes\n\nRainfall totals were recorded."),
        *((f"memo-{t}.txt", f"Memo\n\nThe {t} budget was approved.") for t in ("fleet", "office", "hiring")),
    ]
    result = engine.ingest("ws", [("report.txt", report.encode()), *((n, t.encode()) for n, t in others)])
    assert not result.failed and result.results[0].chunks >= 3

    top = engine.store.search("ws", "zebra rainfall", 3)[0]
    assert top.doc_name == "report.txt" and "Rainfall in the Serengeti" in top.text
    assert "Zebra Migration Report" not in top.text  # the shown text is the chunk's own
    assert top.section == "Zebra Migration Report"
