"""The ingest's faster forms give exactly what the plain forms they replace give, and the names and ids it
makes stay what older stores hold."""

from __future__ import annotations

import gc
import re
import uuid
from pathlib import PurePath

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from masis.ingest.pipeline import document_name
from masis.judge.matching import words
from masis.judge.sentences import (
    _CELLS,
    _INITIAL,
    _LINE_END,
    _MAN_TITLE,
    _TABLE_ROW,
    _UNDERLINED,
    _ends_sentence,
    _initial_ends,
    _last_two_words,
    _man_title,
    _underlined,
    ends_with_mark,
    is_table_row,
    split_sentences,
    table_cells,
)
from masis.store.ids import NAMESPACE, point_id


@pytest.mark.parametrize(
    ("workspace", "chunk"),
    [("slack:T1:C1", "report.md#1"), ("", ""), ("ws:é", "отчёт.md#12"), ("w", "Q3-report.md~5c0e83b1#3")],
)
def test_a_point_id_is_the_uuid5_of_workspace_and_chunk(workspace: str, chunk: str) -> None:
    assert point_id(workspace, chunk) == str(uuid.uuid5(NAMESPACE, f"{workspace}\x00{chunk}"))


_ANY_LETTERS = re.compile(r"[^\W\d_]{5,}")


@pytest.mark.parametrize(
    "text",
    ["Acquisitions and ACQUIRING_things 12345abcde", "naïve Übersetzung façade", "\u212aelvin KELVIN", "a b c"],
)
def test_words_of_ascii_and_other_text_are_the_long_letter_runs_lower_cased(text: str) -> None:
    assert words(text) == frozenset(_ANY_LETTERS.findall(text.lower()))


_CODE = re.compile(r"\b[a-z]{2,4}\d{1,4}\b")


@pytest.mark.parametrize(
    "text", ["IP67 and usb3, abcd1234 abcde1 ab12cd x9 \u00e9t\u00e9 ip67_x", "Kelvin42 caf\u00e9 ab1"]
)
def test_words_are_the_long_letter_runs_and_the_codes_each_pattern_finds_alone(text: str) -> None:
    lower = text.lower()
    assert words(text) == frozenset(_ANY_LETTERS.findall(lower)) | frozenset(_CODE.findall(lower))


@given(st.text(alphabet=st.sampled_from("abcdeAB\u00e9_19 .-\n"), max_size=40))
def test_one_pass_finds_what_the_word_and_code_patterns_find(text: str) -> None:
    lower = text.lower()
    assert words(text) == frozenset(_ANY_LETTERS.findall(lower)) | frozenset(_CODE.findall(lower))


@given(st.text(alphabet=st.sampled_from("ab |:;.\n"), max_size=30))
def test_a_table_row_is_what_the_pattern_matches(line: str) -> None:
    assert is_table_row(line) == bool(_TABLE_ROW.match(line.strip()))


@given(st.text(alphabet=st.sampled_from(".!?\"')] aM\n"), max_size=12))
def test_a_sentence_mark_at_the_end_is_what_the_pattern_finds(text: str) -> None:
    assert ends_with_mark(text) == (re.search(r"[.!?][\"')\]]*$", text) is not None)


@given(st.lists(st.sampled_from(["e.g.", "vs.", "Dr.", " ", "a", ".", "?", ")", '"', "x"]), max_size=10))
def test_a_line_ends_a_sentence_where_the_pattern_searched_from_its_start_finds_it(pieces: list[str]) -> None:
    line = "".join(pieces).strip()
    assert _ends_sentence(line) == (ends_with_mark(line) and _LINE_END.search(line) is not None)


@given(st.lists(st.sampled_from(["=", "-", " ", "a", "\n", "TIMEOUT", "(1)", "(", ")", "1", "x"]), max_size=12))
@example(["1.0 ", "---"])
@example(["1.0 ", "====", "\n"])
@example(["x ", "TIMEOUT", "(1)", "\n"])
def test_an_underline_and_a_man_page_title_are_what_their_patterns_find(pieces: list[str]) -> None:
    line = "".join(pieces)
    assert _underlined(line) == (_UNDERLINED.search(line) is not None)
    assert _man_title(line) == (_MAN_TITLE.search(line) is not None)


@given(st.text(alphabet=st.sampled_from("ab |"), max_size=16))
def test_a_line_of_cells_is_what_the_pattern_matches(line: str) -> None:
    assert table_cells(line) == (line.count(" | ") + 1 if _CELLS.match(line) else 0)


@given(st.lists(st.text(alphabet=st.sampled_from("JohnM. a"), min_size=1, max_size=8), min_size=1, max_size=3))
def test_a_middle_initial_is_what_the_pattern_finds(pieces: list[str]) -> None:
    assert _initial_ends(pieces) == (_INITIAL.search(_last_two_words(pieces)) is not None)


@pytest.mark.parametrize(
    "text",
    [
        'He said "hi." Then left! Why? 3 more.',
        "It rose (sharply.) Then fell... \"Quoted.\" 'Single.' [Bracket.] Next",
        "e.g. the end. A.B. Smith wrote it.  Twice   spaced.\nNew line",
    ],
)
def test_sentences_split_where_the_look_behind_pattern_split_them(text: str) -> None:
    old = re.compile(r"(?<=[.!?])[\"')\]]*\s+(?=[\"'(\[]?[A-Z0-9])")
    flat = " ".join(text.split())
    assert split_sentences(text) == [s.strip() for s in old.split(flat) if s.strip()]


@pytest.mark.parametrize("name", ["report.md", " spaced.txt ", ".", "..", "...", "a/b.txt", "a\\b.txt", "dir/", " "])
def test_a_document_name_is_what_pure_path_makes_of_it(name: str) -> None:
    assert document_name(name) == PurePath(name.replace("\\", "/")).name.strip()


def test_the_collector_paused_for_indexing_is_enabled_again_even_after_an_error() -> None:
    from masis.ingest.pipeline import _collector_paused

    assert gc.isenabled()
    with pytest.raises(RuntimeError), _collector_paused():
        assert not gc.isenabled()
        raise RuntimeError("indexing failed")
    assert gc.isenabled()
    gc.disable()
    try:
        with _collector_paused():
            pass
        assert not gc.isenabled(), "a collector someone else disabled stays disabled"
    finally:
        gc.enable()
