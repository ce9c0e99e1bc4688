"""The ingest's faster forms give exactly what the plain forms they replace give, and the names and ids it
makes stay what older stores hold."""

from __future__ import annotations

import gc
import re
import uuid
from pathlib import PurePath

import pytest

from masis.ingest.pipeline import document_name
from masis.judge.matching import words
from masis.judge.sentences import split_sentences
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
