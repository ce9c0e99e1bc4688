"""Sentences read for what they say: a two-column table's rows are records read under its first row ("Item | Falcon
X2" over "Weight | 1.1 kg"), and a clause a sentence sets aside ("instead of the usual return window") is not what
it says."""

from __future__ import annotations

from masis.judge.evidence import evidence_sentences, in_table
from masis.judge.sentences import is_heading
from masis.llm.extractive import ExtractiveProvider
from masis.state import EvidenceChunk

DATASHEET: EvidenceChunk = {  # data/conversations/files/falcon_x2_datasheet.md, as the markdown loader writes it
    "chunk_id": "falcon_x2_datasheet.md#3", "doc_name": "falcon_x2_datasheet.md", "page": None, "section": "Hardware",
    "relevance": 1.0, "score": 1.0,
    "text": "Item | Falcon X2\nDisplay | 10.1-inch, 1,000 nits, glove-touch\nWeight | 1.1 kg\n"
            "Battery | 9,800 mAh, up to 14 hours of use\nIngress protection | IP67\n"
            "The Falcon X2 operates from -20 °C to 60 °C.",
}


def test_a_row_of_cells_is_a_record_not_a_heading() -> None:
    assert not is_heading("Ingress protection | IP67")
    assert is_heading("Warranty and manufacturing")


def test_the_rows_are_read_under_the_tables_first_row() -> None:
    sentences = {s.text: s for s in evidence_sentences([DATASHEET])}
    assert sentences["Weight | 1.1 kg"].lead == "Item | Falcon X2"
    assert sentences["Item | Falcon X2"].lead is None
    assert in_table(sentences["Ingress protection | IP67"])
    assert not in_table(sentences["The Falcon X2 operates from -20 °C to 60 °C."])


DOWNLOADS: EvidenceChunk = {  # data/moredocs/files/underscore-index.html, a table without a header row
    "chunk_id": "underscore-index.html#5", "doc_name": "underscore-index.html", "page": None,
    "section": "v1.13.4 Downloads", "relevance": 1.0, "score": 1.0,
    "text": "ESM (Production) | 8.59 KB, Minified and Gzipped\n\nUMD (Development) | 68.4 KB, Uncompressed\n\n"
            "UMD (Production) | 7.48 KB, Minified and Gzipped",
}


def test_a_first_row_with_a_measured_figure_is_a_record_not_the_rows_header() -> None:
    # moredocs tune md-020: every row was read under "ESM (Production) | 8.59 KB", so "UMD (Development)" was credited
    # with "production" and tied with the row asked about
    sentences = {s.text: s for s in evidence_sentences([DOWNLOADS])}
    assert sentences["UMD (Development) | 68.4 KB, Uncompressed"].lead is None
    answer = ExtractiveProvider().synthesize("How big is Underscore's UMD production build?", [DOWNLOADS])
    assert answer.startswith("UMD (Production) | 7.48 KB"), answer


def test_an_options_first_row_is_no_header_of_the_rows_after_it() -> None:
    # nextdocs tune nd-019: --msvs_version's row was read under --devdir's, and its "(default is OS cache directory)"
    # quoted as the lead of the row asked about
    options: EvidenceChunk = {**DOWNLOADS, "chunk_id": "node-gyp-README.md#17", "doc_name": "node-gyp-README.md",
                              "text": "--devdir=$path | SDK download directory (default is OS cache directory)\n"
                                      "--ensure | Don't reinstall headers if already present\n"
                                      "--msvs_version=$version | Set Visual Studio version (Windows only)"}
    sentences = {s.text: s for s in evidence_sentences([options])}
    assert sentences["--msvs_version=$version | Set Visual Studio version (Windows only)"].lead is None


def test_the_row_asked_about_is_quoted_and_not_its_neighbours() -> None:
    provider = ExtractiveProvider()
    answer = provider.synthesize("What IP rating does the Falcon X2 have?", [DATASHEET])
    assert "IP67" in answer and "operates from" not in answer.split("IP67")[0]
    assert "Display" not in answer and "Battery" not in answer


RETURNS: EvidenceChunk = {  # data/conversations/files/returns_policy.html, the returns section
    "chunk_id": "returns_policy.html#2", "doc_name": "returns_policy.html", "page": None, "section": "Returns",
    "relevance": 1.0, "score": 1.0,
    "text": "Business customers who order 50 units or more in one order get a 60-day evaluation period instead of the "
            "usual return window.\nYou can return a device within 30 days of delivery for a full refund.",
}


def test_what_a_sentence_sets_aside_does_not_answer_for_it() -> None:
    # real case (conversations tune): "instead of the usual return window" is not the usual return window; the
    # critic no longer counts those words for the quote, whichever sentence is chosen
    provider = ExtractiveProvider()
    question = "What is the usual return window?"
    business = "Business customers who order 50 units or more in one order get a 60-day evaluation period instead " \
               "of the usual return window [returns_policy.html#2]."
    critique = provider.critique(question, business, [RETURNS])
    assert critique.confidence < 0.65, critique
