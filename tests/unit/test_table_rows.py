"""A two-column table as the loaders write it ("Item | Falcon X2" over "Weight | 1.1 kg"): its rows are records, read
under the table's first row, which names what they describe."""

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


def test_the_row_asked_about_is_quoted_and_not_its_neighbours() -> None:
    provider = ExtractiveProvider()
    answer = provider.synthesize("What IP rating does the Falcon X2 have?", [DATASHEET])
    assert "IP67" in answer and "operates from" not in answer.split("IP67")[0]
    assert "Display" not in answer and "Battery" not in answer
