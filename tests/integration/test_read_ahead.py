"""Reading ahead (`masis.read_ahead`): a long-running engine has the sentence encoder read its documents' passages
and sentences in the background, so that a question reads only itself and answers exactly as without; a question
being answered holds the reading back. Real engine, real Qdrant Edge store, the real encoder, the offline provider.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from masis.engine import Engine
from masis.judge import semantic
from masis.pause import hooked
from masis.store.embeddings import VectorCache
from tests.conftest import SAMPLE_DIR, encoder_reads, make_settings

ASKED = "How many clients did Kestrel have at the end of Q3?"  # its words fall short: passages are read by meaning


def _until(condition: Callable[[], bool], what: str) -> None:
    """Wait for a state the code under test reaches by itself (not for time to pass)."""
    deadline = time.monotonic() + 60
    while not condition():
        assert time.monotonic() < deadline, f"never reached: {what}"
        threading.Event().wait(0.01)


def test_after_reading_ahead_a_question_reads_only_itself_and_answers_as_without(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Engine(make_settings(tmp_path / "plain")) as engine:
        assert not engine.ingest_paths("demo", [SAMPLE_DIR]).failed
        plain = engine.ask("demo", ASKED)
    assert plain.status == "answered"

    settings = make_settings(tmp_path / "data")
    with Engine(settings) as engine:
        assert not engine.ingest_paths("demo", [SAMPLE_DIR]).failed
    with Engine(settings) as engine:  # a bot's start: every workspace already stored is read
        reader = engine.read_ahead()
        assert reader is not None and engine.read_ahead() is reader
        assert reader.wait_idle(timeout=600)
        assert reader.texts_read > 0
    with Engine(settings) as engine:  # restarted: nothing in memory, the vectors on disk
        read = encoder_reads(monkeypatch)
        ahead = engine.ask("demo", ASKED)
    assert read == [ASKED]
    assert (ahead.answer, ahead.confidence, ahead.citations) == (plain.answer, plain.confidence, plain.citations)


def test_an_upload_is_read_ahead_once_the_question_being_answered_ends(tmp_path: Path) -> None:
    settings = make_settings(tmp_path / "data")
    added = "The Heron S2 scanner reads damaged barcodes at up to four metres and ships in June 2027."
    with Engine(settings) as engine:
        assert not engine.ingest_paths("demo", [SAMPLE_DIR]).failed
        reader = engine.read_ahead()
        assert reader is not None and reader.wait_idle(timeout=600)
        before = reader.texts_read

        auditing, answer_may_go_on = threading.Event(), threading.Event()

        def hold() -> None:
            auditing.set()
            answer_may_go_on.wait(60)

        outcomes = []
        with hooked("ask:auditing", hold):
            asking = threading.Thread(target=lambda: outcomes.append(engine.ask("demo", ASKED)))
            asking.start()
            assert auditing.wait(60)
            assert not engine.ingest("demo", [("heron_s2.txt", added.encode())]).failed
            _until(lambda: reader.held_back, "the reading held back by the question")
            assert reader.texts_read == before  # nothing of the upload is read while the question runs
            answer_may_go_on.set()
            asking.join(60)
        assert outcomes and outcomes[0].status == "answered"
        assert reader.wait_idle(timeout=600)
        assert reader.texts_read > before

    encoder = semantic.load()
    assert encoder is not None
    kept = VectorCache(settings.data_dir / "embeddings.db")
    try:
        assert added in kept.get(encoder.model_key, [added])  # the passage itself, kept for any later question
    finally:
        kept.close()


def test_no_reading_ahead_when_the_encoder_is_off(tmp_path: Path) -> None:
    for switch in ({"semantic": False}, {"read_ahead": False}):
        with Engine(make_settings(tmp_path / "data", **switch)) as engine:
            assert engine.read_ahead() is None


def test_closing_the_engine_stops_the_reading_between_two_texts(tmp_path: Path) -> None:
    """Closing waits for the text being read at most, not for the whole store; the store stays whole."""
    settings = make_settings(tmp_path / "data")
    with Engine(settings) as engine:
        assert not engine.ingest_paths("demo", [SAMPLE_DIR]).failed
    engine = Engine(settings)
    reader = engine.read_ahead()
    assert reader is not None
    engine.close()
    assert not reader._thread.is_alive()
    with Engine(settings) as engine:
        assert engine.ask("demo", ASKED).status == "answered"
