"""Answer what the documents answer, refuse what they don't: plain questions, phrased as people write
them, against a small company corpus (tests/data/company), through the whole offline engine."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from masis.engine import Engine
from tests.conftest import REPO, encoder_reads, make_settings

COMPANY = REPO / "tests" / "data" / "company"


@pytest.fixture(scope="module")
def company(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Engine]:
    with Engine(make_settings(tmp_path_factory.mktemp("company") / "data")) as engine:
        report = engine.ingest_paths("acme", [COMPANY])
        assert not report.failed, report.failed
        yield engine


@pytest.mark.parametrize(
    ("asked", "fact", "source"),
    [
        ("Which company is Kestrel acquiring?", "Nordlys Logistics", "board_minutes.md"),  # acquiring ~ acquisition
        ("hey, quick one: how much are we putting into AI overall?", "$4.2 million", "ai_budget.md"),
        ("How good was on-time delivery last quarter?", "94.2%", "operations_report.md"),  # last quarter ~ Q3
        ("Sorry, I meant our fleet: how many trucks does the company operate?", "212 trucks", "operations_report.md"),
        ("How much are hotel costs reimbursd?", "$180", "travel_policy.txt"),  # a typo
    ],
)
def test_a_question_the_documents_answer_is_answered_with_its_source(
    company: Engine, asked: str, fact: str, source: str
) -> None:
    outcome = company.ask("acme", asked)
    assert outcome.status == "answered", outcome.clarification
    assert fact in (outcome.answer or "")
    assert outcome.citations[0].doc_name == source
    assert "do not say" not in (outcome.answer or "")  # no hedge about words the question only framed


@pytest.mark.parametrize(
    "asked",
    [
        "What did the board say about Australia?",  # one common word ("board") shared with the corpus
        "What is the capital of Australia?",
        "hey, quick one: what's on the cafeteria menu?",
    ],
)
def test_an_off_topic_question_is_still_refused_without_an_llm_call(company: Engine, asked: str) -> None:
    outcome = company.ask("acme", asked)
    assert outcome.status == "needs_clarification"
    assert outcome.clarification is not None and outcome.clarification.kind == "zero_results"
    assert outcome.metrics["llm_calls"] == 0


def test_a_chatty_reply_to_nothing_matched_is_answered_as_the_new_question(company: Engine) -> None:
    asked = company.ask("acme", "What is the cafeteria menu?")
    assert asked.clarification is not None and asked.clarification.kind == "zero_results"
    outcome = company.reply(asked.thread_id, "Sorry, I meant our fleet: how many trucks does the company operate?")
    assert outcome.status == "answered"
    assert "212 trucks" in (outcome.answer or "")
    assert outcome.citations[0].doc_name == "operations_report.md"


def test_a_heading_is_context_not_a_sentence_to_quote(company: Engine) -> None:
    outcome = company.ask("acme", "What is our AI budget for FY2026?")
    assert outcome.status == "answered"
    answer = outcome.answer or ""
    assert answer.startswith("Kestrel Labs will invest $4.2 million"), answer
    assert "AI Budget FY2026 [" not in answer


def test_a_removed_documents_words_are_no_longer_searched_for(tmp_path: Path) -> None:
    with Engine(make_settings(tmp_path / "data")) as engine:
        engine.ingest_paths("acme", [COMPANY / "board_minutes.md", COMPANY / "ai_budget.md"])
        assert engine.registry.words_starting("acme", "acqui") == ["acquisition"]
        assert engine.ask("acme", "Which company is Kestrel acquiring?").status == "answered"

        engine.remove_document("acme", "board_minutes.md")
        assert engine.registry.words_starting("acme", "acqui") == []
        outcome = engine.ask("acme", "Which company is Kestrel acquiring?")
        assert outcome.status == "needs_clarification"
        assert all(c.doc_name != "board_minutes.md" for c in outcome.citations)
        assert engine.registry.words_starting("other", "kestr") == []  # the vocabulary is per workspace too


# --- by meaning: the local sentence encoder (masis.judge.semantic) ----------------------------------------------------

SAMPLE = REPO / "data" / "sample"


@pytest.fixture(scope="module")
def sample_pair(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Engine, Engine]]:
    """The sample corpus twice: read by meaning (the default) and by words alone (MASIS_SEMANTIC=false)."""
    root = tmp_path_factory.mktemp("meaning")
    with (
        Engine(make_settings(root / "meaning")) as by_meaning,
        Engine(make_settings(root / "words", semantic=False)) as by_words,
    ):
        for engine in (by_meaning, by_words):
            assert not engine.ingest_paths("demo", [SAMPLE]).failed
        yield by_meaning, by_words


@pytest.mark.parametrize(
    ("asked", "fact", "source"),
    [
        ("How many clients did Kestrel have at the end of Q3?", "412 customers", "q3_report.md"),
        ("How much did fuel consumption drop in the routing trial?", "9%", "q3_report.md"),
    ],
)
def test_a_question_in_other_words_is_answered_by_meaning(
    sample_pair: tuple[Engine, Engine], asked: str, fact: str, source: str
) -> None:
    by_meaning, by_words = sample_pair
    assert by_words.ask("demo", asked).status == "needs_clarification"  # the words alone fall short
    outcome = by_meaning.ask("demo", asked)
    assert outcome.status == "answered", outcome.clarification
    assert fact in (outcome.answer or "")
    assert outcome.citations[0].doc_name == source
    researched = next(step for step in outcome.trace if step["node"] == "researcher")
    assert researched["semantic"] is True


PARLIAMENT = (
    "The first item of business on Wednesdays is usually Time for Reflection, at which a speaker addresses "
    "members for up to four minutes, sharing a perspective on issues of faith. This contrasts with the formal "
    'style of "Prayers", which is the first item of business in meetings of the House of Commons.'
)


def test_a_passage_sharing_words_but_not_meaning_is_not_read_as_an_answer(tmp_path: Path) -> None:
    # a SQuAD question whose article was not indexed, against a passage of another article: "style" and "first"
    # are two thirds of what the question weighs, but the passage is about something else
    asked = "Where is this housing style being developed recently?"
    docs = [("parliament.txt", PARLIAMENT.encode())]
    docs += [(f"note_{i}.txt", f"Note {i}: the office plants are watered on Mondays.".encode()) for i in range(8)]
    outcomes = {}
    for semantic in (False, True):
        with Engine(make_settings(tmp_path / str(semantic), semantic=semantic)) as engine:
            assert not engine.ingest("ws", docs).failed
            outcomes[semantic] = engine.ask("ws", asked)
    # by its words alone it passes the relevance gate and is drafted (then asked back: a partial match of words
    # is calibrated below the threshold)
    assert outcomes[False].metrics["llm_calls"] > 0
    refused = outcomes[True]
    assert refused.status == "needs_clarification"
    assert refused.clarification is not None and refused.clarification.kind == "zero_results"
    assert refused.metrics["llm_calls"] == 0


def test_passages_read_by_meaning_are_kept_and_a_replaced_document_is_read_anew(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked = "How many clients did Kestrel have at the end of Q3?"
    report = (SAMPLE / "q3_report.md").read_text()
    assert "412 customers" in report
    replaced = report.replace("412 customers", "377 customers")
    with Engine(make_settings(tmp_path / "data")) as engine:
        assert not engine.ingest("demo", [("q3_report.md", report.encode())]).failed
        first = engine.ask("demo", asked)
        assert first.status == "answered" and "412 customers" in (first.answer or "")
    with Engine(make_settings(tmp_path / "data")) as engine:  # a restarted process: nothing in memory
        read = encoder_reads(monkeypatch)
        again = engine.ask("demo", asked)
        assert read == [asked]  # every passage and sentence it weighs was kept on disk: only the question is read
        assert (again.answer, again.confidence) == (first.answer, first.confidence)

        assert not engine.ingest("demo", [("q3_report.md", replaced.encode())]).failed
        read.clear()
        now = engine.ask("demo", asked)
        assert "377 customers" in (now.answer or "") and "412" not in (now.answer or "")
        assert any("377 customers" in text for text in read)  # the new text was read, not the old one's vector
    # the same answer as an engine that never saw the old text
    with Engine(make_settings(tmp_path / "fresh")) as fresh:
        assert not fresh.ingest("demo", [("q3_report.md", replaced.encode())]).failed
        never = fresh.ask("demo", asked)
    assert (now.status, now.answer, now.confidence) == (never.status, never.answer, never.confidence)


def test_an_unwritable_vector_cache_costs_readings_not_answers(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "embeddings.db").mkdir()  # not a database: SQLite cannot open it
    with Engine(make_settings(data)) as engine:
        assert not engine.ingest_paths("demo", [SAMPLE / "q3_report.md"]).failed
        outcome = engine.ask("demo", "How many clients did Kestrel have at the end of Q3?")
    assert outcome.status == "answered" and "412 customers" in (outcome.answer or "")


def test_a_who_question_is_not_answered_by_a_name_beside_another_approval(
    sample_pair: tuple[Engine, Engine],
) -> None:
    # the memo names the AI investment, the budget a travel approval: neither says who approved the investment
    by_meaning, _ = sample_pair
    outcome = by_meaning.ask("demo", "Who approved the AI investment for FY2026?")
    assert outcome.status == "needs_clarification", outcome.answer


REALDOCS = REPO / "data" / "realdocs" / "files"
RELEASE_FILES = ("distro-info-ubuntu.csv", "distro-info-debian.csv", "pyenv-CHANGELOG.md")


def test_an_answer_does_not_depend_on_the_questions_asked_before_it(tmp_path: Path) -> None:
    """The same questions in two orders, each order in a fresh engine: the same answers. (A release table's rows
    tied in BM25 once came back in the order of the store's segments, which its background optimizer changes.)"""
    asked = ["When was Ubuntu 24.04 LTS released?", "What is the codename of Debian 12?",
             "Which pyenv release added CPython 3.12.13?"]
    answers: list[dict[str, tuple[str, str | None]]] = []
    for order, questions in enumerate((asked, list(reversed(asked)))):
        # two retries: v2.6.25's entry is in the retry's wider pool (the first pass drafts v2.6.1's and asks back)
        with Engine(make_settings(tmp_path / str(order), max_retries=2)) as engine:
            assert not engine.ingest_paths("docs", [REALDOCS / name for name in RELEASE_FILES]).failed
            answers.append({q: (o.status, o.answer or (o.clarification.draft if o.clarification else None))
                            for q in questions for o in [engine.ask("docs", q)]})
    assert answers[0] == answers[1]
    status, answer = answers[0]["When was Ubuntu 24.04 LTS released?"]
    assert status == "answered" and "2024-04-25" in (answer or "")
    # the release is the item's heading: a package name with a version in it ("miniforge3-26.1.0-0") does not
    # answer "which release"
    status, answer = answers[0]["Which pyenv release added CPython 3.12.13?"]
    assert status == "answered" and (answer or "").startswith("Release v2.6.25: "), answer


def test_tied_passages_come_back_the_same_whatever_order_they_were_ingested_in(tmp_path: Path) -> None:
    """Three documents with the same text tie in BM25; ingested in two orders, the store laid them out differently and
    a search cut at two returned a.txt and b.txt one time, a.txt and c.txt the other. Now ties go by chunk order."""
    text = b"The Falcon X2 router ships in May 2027 with a price of $219.\n"
    found = []
    for run, names in enumerate((["a.txt", "b.txt", "c.txt"], ["c.txt", "b.txt", "a.txt"])):
        with Engine(make_settings(tmp_path / str(run))) as engine:
            for name in names:
                engine.ingest("docs", [(name, text)], uploaded_by="test")
            found.append([hit.chunk_id for hit in engine.store.search("docs", "Falcon X2 price", 2)])
    assert found[0] == found[1] == ["a.txt#1", "b.txt#1"]


WIDGET_NEWS = b"""================
NEWS for widgetlib
================

1.3.6 (2021-09-13)
==================

- Remove buildout support in favour of tox.

1.3.5 (2021-01-20)
==================

- Drop support for Python 3.2, 3.3, and 3.4.
- Accept Unicode parameter values again.

1.3.4 (2020-04-29)
==================

- Advertise support for Python 3.8.
"""


def test_the_release_asked_for_is_its_items_heading_not_a_version_the_item_names(tmp_path: Path) -> None:
    # moredocs tune md-031: "Drop support for Python 3.2, 3.3, and 3.4" was answered without its release, its 3.3
    # taken for the version asked for (Python's, not the library's)
    with Engine(make_settings(tmp_path / "data")) as engine:
        assert not engine.ingest("docs", [("widgetlib-NEWS.rst", WIDGET_NEWS)]).failed
        outcome = engine.ask("docs", "which widgetlib version dropped python 3.2 to 3.4?")
    assert outcome.status == "answered", outcome.clarification
    assert (outcome.answer or "").startswith("1.3.5 (2021-01-20): Drop support for Python 3.2"), outcome.answer
    assert "do not say anything about version" not in (outcome.answer or "")


HTTP_PAGE = b"""# HTTP

This page documents the HTTP module of Node.js, its server and its client.

## Server options

maxHeaderSize: Optionally overrides the maximum size of request headers in bytes. Default: 16384 (16 KiB).
"""


def test_a_hedge_names_only_what_the_documents_do_not_say(tmp_path: Path) -> None:
    # realdocs tune rd-004 and rd-003: "The documents do not say anything about q, box." and "… about Node, js."
    # under answers quoted from the Node.js manual; a real gap ("launch") is still named
    with Engine(make_settings(tmp_path / "data")) as engine:
        falcon = b"The Falcon X2 ships with a price of $219."
        engine.ingest("docs", [("nodejs-http.md", HTTP_PAGE), ("falcon.txt", falcon)])
        chatty = engine.ask("docs", "hey quick q - what's the max size of http headers in node out of the box?")
        gap = engine.ask("docs", "What is the launch price of the Falcon X2?")
    assert chatty.status == "answered", chatty.clarification
    assert "16384" in (chatty.answer or "")
    assert "do not say" not in (chatty.answer or ""), chatty.answer
    assert (gap.answer or "").endswith("The documents do not say anything about launch."), gap.answer
