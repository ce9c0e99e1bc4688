"""Chunking: whole sentences, bounded size, overlap inside a section only, stable readable ids."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

import pytest

from masis.chunk_ids import document_key, legacy_key
from masis.ingest.chunking import chunk_sections
from masis.ingest.loaders import Section, load_document
from masis.judge.sentences import split_sentences
from masis.store.base import ChunkRecord

SAMPLE = Path(__file__).resolve().parents[2] / "data" / "sample"


def sentences(n: int, prefix: str = "Fact") -> list[str]:
    return [f"{prefix} {i} says the value {i * 7} matters for the plan." for i in range(1, n + 1)]


def chunk_sentences(chunk: ChunkRecord) -> list[str]:
    return split_sentences(chunk.text)


@pytest.mark.parametrize(
    ("name", "slug"),
    [
        ("Q3 Report.md", "q3-report.md"),
        ("strategy_memo.pdf", "strategy_memo.pdf"),
        ("  Budget (FY2026) -- final!!.DOCX ", "budget-fy2026-final-.docx"),
        ("Café Menu.txt", "cafe-menu.txt"),
        ("---", "document"),
    ],
)
def test_the_legacy_key_is_the_lossy_slug_older_stores_used(name: str, slug: str) -> None:
    assert legacy_key(name) == slug


@pytest.mark.parametrize(
    ("first", "second"),
    [("Budget.md", "budget.md"), ("Q3 report.md", "q3-report.md"), ("Q3 report.md", "Q3-report.md"),
     ("résumé.md", "resume.md"), ("отчёт.md", "бюджет.md"), ("a b.md", "a  b.md"), ("a~b.md", "a-b.md")],
)
def test_names_that_shared_a_legacy_slug_get_different_keys(first: str, second: str) -> None:
    assert document_key(first) != document_key(second)


@pytest.mark.parametrize(
    ("name", "key"),
    [
        ("strategy_memo.pdf", "strategy_memo.pdf"),
        ("Budget.md", "Budget.md"),
        ("отчёт.md", "отчёт.md"),
        ("résumé.md", "résumé.md"),
        ("Q3 report.md", "Q3-report.md~dfd0bb6d"),  # a name with a space: a slug and a hash of the exact name
        ("<@U1> x.md", "U1-x.md~7efe3c8b"),
    ],
)
def test_a_key_is_the_name_itself_when_it_is_id_safe_else_a_readable_slug_and_a_short_hash(name: str, key: str) -> None:
    assert document_key(name) == key


def test_keys_stay_short_for_long_names() -> None:
    long_a, long_b = "a" * 60 + "-one.md", "a" * 60 + "-two.md"
    assert len(document_key(long_a)) <= 48 and document_key(long_a) != document_key(long_b)


def test_chunks_are_whole_sentences_within_the_size_limit() -> None:
    text = " ".join(sentences(40))
    chunks = chunk_sections("facts.txt", [Section(text=text)], chunk_chars=300, overlap_chars=0)
    assert len(chunks) > 3
    originals = set(sentences(40))
    for chunk in chunks:
        assert len(chunk.text) <= 300
        assert set(chunk_sentences(chunk)) <= originals  # no sentence was cut
    # with no overlap, the chunks are the sentences in order, each exactly once
    assert [s for c in chunks for s in chunk_sentences(c)] == sentences(40)


def test_the_next_chunk_starts_with_the_previous_chunks_trailing_sentences() -> None:
    text = " ".join(sentences(40))
    chunks = chunk_sections("facts.txt", [Section(text=text)], chunk_chars=300, overlap_chars=120)
    assert len(chunks) > 3
    for previous, current in pairwise(chunks):
        before, after = chunk_sentences(previous), chunk_sentences(current)
        shared = [s for s in after if s in before]
        assert shared, "consecutive chunks should overlap"
        assert shared == before[-len(shared) :] == after[: len(shared)]
        assert len(" ".join(shared)) <= 120
        assert len(after) > len(shared), "every chunk must add a new sentence"
    covered = {s for c in chunks for s in chunk_sentences(c)}
    assert covered == set(sentences(40))


def test_chunks_never_cross_pages_and_keep_page_and_heading() -> None:
    sections = [
        Section(text=" ".join(sentences(12, "Alpha")), page=1, heading="Intro"),
        Section(text=" ".join(sentences(12, "Beta")), page=2, heading="Risks"),
    ]
    chunks = chunk_sections("memo.pdf", sections, chunk_chars=250, overlap_chars=100)
    assert {c.page for c in chunks} == {1, 2}
    for chunk in chunks:
        prefix, heading = ("Alpha", "Intro") if chunk.page == 1 else ("Beta", "Risks")
        assert chunk.section == heading
        assert all(s.startswith(prefix) for s in chunk_sentences(chunk)), chunk.text
    first_on_page_2 = next(c for c in chunks if c.page == 2)
    assert chunk_sentences(first_on_page_2)[0] == "Beta 1 says the value 7 matters for the plan."


def test_ids_are_readable_stable_and_ordinals_contiguous() -> None:
    sections = [
        Section(text=" ".join(sentences(10)), page=1),
        Section(text="   "),  # an empty section yields no chunk and uses no ordinal
        Section(text=" ".join(sentences(10, "More")), page=2),
    ]
    first = chunk_sections("Q3 Report.md", sections, chunk_chars=200, overlap_chars=60)
    again = chunk_sections("Q3 Report.md", sections, chunk_chars=200, overlap_chars=60)
    assert first == again
    assert [c.ordinal for c in first] == list(range(len(first)))
    assert [c.chunk_id for c in first] == [f"Q3-Report.md~870ca846#{i}" for i in range(1, len(first) + 1)]
    assert {c.doc_name for c in first} == {"Q3 Report.md"}


def test_a_sentence_longer_than_a_chunk_is_split_between_words() -> None:
    words = [f"word{i:03d}" for i in range(200)]
    giant = " ".join(words) + "."
    text = f"A short opener. {giant} A short closer."
    chunks = chunk_sections("long.txt", [Section(text=text)], chunk_chars=100, overlap_chars=30)
    assert all(len(c.text) <= 100 for c in chunks)
    assert chunks[0].text.startswith("A short opener.")
    assert chunks[-1].text.endswith("A short closer.")
    seen = [w for c in chunks for w in c.text.replace(".", " ").split() if w.startswith("word")]
    deduped = list(dict.fromkeys(seen))
    assert deduped == words  # every word kept whole and in order


def test_a_single_word_longer_than_a_chunk_is_cut_to_fit() -> None:
    chunks = chunk_sections("blob.txt", [Section(text="x" * 250)], chunk_chars=100, overlap_chars=0)
    assert [len(c.text) for c in chunks] == [100, 100, 50]


def test_blocks_such_as_table_rows_stay_on_their_own_lines() -> None:
    section = Section(text="Intro sentence here.\n\nEngineering | $16.2 million\n\nSales | $9.4 million")
    (chunk,) = chunk_sections("budget.docx", [section], chunk_chars=500, overlap_chars=0)
    assert chunk.text == "Intro sentence here.\nEngineering | $16.2 million\nSales | $9.4 million"


def test_a_plain_text_lists_items_stay_on_lines_of_their_own() -> None:
    # strace's NEWS (libdocs lb-002): the items of one paragraph were run together on a line, and read again there
    # as one sentence ("… awareness. * Added --tips option …"), whose release heading never led it
    items = ("* Improvements\n  * Added an interface of raising des Strausses awareness.\n"
             "  * Added --tips option to print strace tips, tricks, and tweaks at the end\n    of the tracing session.")
    (chunk,) = chunk_sections("strace-NEWS.txt", [Section(text=items)], chunk_chars=500, overlap_chars=0)
    assert split_sentences(chunk.text) == [
        "* Improvements", "* Added an interface of raising des Strausses awareness.",
        "* Added --tips option to print strace tips, tricks, and tweaks at the end of the tracing session."]
    # a paragraph's sentences still share its line
    (prose,) = chunk_sections("a.txt", [Section(text="One sentence. Another one.")], chunk_chars=500, overlap_chars=0)
    assert prose.text == "One sentence. Another one."


@pytest.mark.parametrize(("chunk_chars", "overlap_chars"), [(0, 0), (100, 100), (100, -1)])
def test_invalid_sizes_are_refused(chunk_chars: int, overlap_chars: int) -> None:
    with pytest.raises(ValueError):
        chunk_sections("a.txt", [Section(text="Hello.")], chunk_chars, overlap_chars)


def test_the_sample_memo_chunks_by_page_with_stable_ids() -> None:
    sections = load_document("strategy_memo.pdf", (SAMPLE / "strategy_memo.pdf").read_bytes())
    chunks = chunk_sections("strategy_memo.pdf", sections, chunk_chars=900, overlap_chars=150)
    assert chunks[0].chunk_id == "strategy_memo.pdf#1"
    assert [c.page for c in chunks] == sorted(c.page for c in chunks)
    assert {c.page for c in chunks} == {1, 2}
    invest = [c for c in chunks if "Kestrel Labs will invest $4.2 million in AI during FY2026." in c.text]
    assert invest and all(c.page == 1 for c in invest)
    leeds = [c for c in chunks if "University of Leeds" in c.text]
    assert leeds and all(c.page == 2 for c in leeds)


def test_a_heading_line_stays_apart_when_the_chunk_is_split_again() -> None:
    section = Section(text="The pillars are set.\nBuild versus buy\nWe build routing in-house. We buy the rest.")
    (chunk,) = chunk_sections("memo.pdf", [section], chunk_chars=500, overlap_chars=0)
    assert chunk.text == "The pillars are set.\nBuild versus buy\nWe build routing in-house. We buy the rest."
    assert split_sentences(chunk.text) == [
        "The pillars are set.",
        "Build versus buy",
        "We build routing in-house.",
        "We buy the rest.",
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Some were razed in the 1950s (e.g. Kronenberg Palace). Others stand.",
            ["Some were razed in the 1950s (e.g. Kronenberg Palace).", "Others stand."],
        ),
        (
            "Alumni include NASA astronaut John M. Grunsfeld. He flew five missions.",
            ["Alumni include NASA astronaut John M. Grunsfeld.", "He flew five missions."],
        ),
        ("It covers fleet D. The review lists invoices.", ["It covers fleet D.", "The review lists invoices."]),
        ("Signed by John M.\n\nThe board met.", ["Signed by John M.", "The board met."]),  # a paragraph ends it
        ("Revenue grew. Q3 was strong.", ["Revenue grew.", "Q3 was strong."]),
        (  # login.defs(5) (sysdocs tune sy-081): the pair's second values were quoted apart from their first
            "The default value for UID_MIN (resp. UID_MAX) is 1000 (resp. 60000). See also useradd.",
            ["The default value for UID_MIN (resp. UID_MAX) is 1000 (resp. 60000).", "See also useradd."],
        ),
    ],
)
def test_a_sentence_goes_on_after_an_abbreviation_or_a_middle_initial(text: str, expected: list[str]) -> None:
    assert split_sentences(text) == expected


def test_a_chunk_ends_between_entries_rather_than_inside_one() -> None:
    # a reference page's entries: packing sentence by sentence would leave "Default: 4, …" in the next chunk
    entries = [
        f"option{i} {{number}} What option {i} sets. Default: {i}, unless the environment sets another value."
        for i in range(9)
    ]
    chunks = chunk_sections("http.md", [Section(text="\n\n".join(entries), heading="Options")], 350, 0)
    assert len(chunks) > 1
    for chunk in chunks:
        lines = chunk.text.split("\n")
        assert lines[0].startswith("option") and lines[-1].endswith("another value.")


def test_every_chunk_carries_the_documents_title_from_its_top_level_heading() -> None:
    """The Q3 report's "Customers" chunk is read under "Kestrel Labs Quarterly Report: Q3 2026" (its H1); a document
    that starts with text or with a lower heading has no title, and a table's rows heading titles nothing."""
    report = load_document("q3_report.md", (SAMPLE / "q3_report.md").read_bytes())
    chunks = chunk_sections("q3_report.md", report, 1200, 200)
    by_section = {chunk.section: chunk for chunk in chunks}
    assert by_section["Customers"].title == "Kestrel Labs Quarterly Report: Q3 2026"
    assert by_section["Kestrel Labs Quarterly Report: Q3 2026"].title is None  # its own heading says it already
    html = load_document("remote_work_policy.html", (SAMPLE / "remote_work_policy.html").read_bytes())
    assert {c.title for c in chunk_sections("p.html", html, 1200, 200)[1:]} == {"Remote Work Policy"}
    for name, data in [
        ("notes.md", b"Some text first.\n\n# Later heading\n\nMore text here."),
        ("changes.md", b"## 2.4.0\n\nFaster startup.\n\n## 2.1.0\n\nA cache."),
        ("rows.csv", b"office,staff\nOslo,12\n"),
    ]:
        assert all(c.title is None for c in chunk_sections(name, load_document(name, data), 1200, 200)), name


def test_the_next_chunk_keeps_a_term_with_the_text_it_heads() -> None:
    # real case (stackdocs tune sd-086): anacron(8)'s FILES list; the overlap began with "This directory is used …"
    # and left "/var/spool/anacron", on the line above it, in the chunk before
    entries = [("/etc/anacrontab", "Contains specifications of jobs run by anacron every day."),
               ("/var/spool/anacron", "This directory is used by Anacron for storing timestamp files."),
               ("/lib/systemd/system/anacron.service", "This file provides systemd service for anacron.")]
    text = "\n\n".join(f"{term}\n{line}" for term, line in entries)
    chunks = chunk_sections("anacron.8.txt", [Section(text=text)], chunk_chars=160, overlap_chars=70)
    assert len(chunks) > 1
    for chunk in chunks:
        lines = chunk.text.splitlines()
        for term, line in entries:
            if line in lines:
                assert lines.index(line) > 0 and lines[lines.index(line) - 1] == term, chunk.text
