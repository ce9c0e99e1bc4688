"""The attribute a copular question asks for must be what a quote speaks of: real cases from the tune splits."""

from __future__ import annotations

import pytest

from masis.judge import grounding
from masis.judge.attribute import attribute, unspoken
from masis.state import EvidenceChunk


def _chunk(doc: str, section: str | None = None) -> EvidenceChunk:
    return {"chunk_id": f"{doc}#1", "doc_name": doc, "text": "", "page": None, "section": section,
            "relevance": 1.0, "score": 1.0}


@pytest.mark.parametrize(
    ("question", "asked"),
    [
        ("How much is the add-on of Heron S1?", "add-on"),
        ("What is the status of dpkg's Protected field specification?", "status"),
        ("What is the recommended MTU for IPv6 in the Node dgram docs?", "MTU"),  # the qualifier is contrast's
        ("What is the lowest operating temperature of the Falcon X2?", "operating temperature"),
        ("What is the default maxKeys of querystring.parse()?", "maxKeys"),
        ("What was the population of Warsaw in 1900?", "population"),
        ("What is the name of the river?", None),  # a generic noun says nothing a quote must hold
        ("Who approved the AI investment?", None),  # not copular
        ("What is Nettle's default AES key size?", None),  # no article: not read
    ],
)
def test_the_attribute_of_a_copular_question(question: str, asked: str | None) -> None:
    assert attribute(question) == asked


def test_a_quote_about_the_subject_but_not_the_attribute_does_not_answer() -> None:
    # conversations tune cv-055#3: "How much is the add-on?" read with the Heron S1, answered with its price at 0.81
    sheet = _chunk("heron_s1_datasheet.txt")
    question = "How much is the add-on of Heron S1?"
    assert unspoken(question, [("The Heron S1 costs $649.", sheet)]) == "add-on"
    assert unspoken(question, [("The Heron Care add-on costs $89.", sheet)]) is None
    # the quotes speak of it together: an entry's line, then its "Default:" line
    parse = "What is the default maxKeys of querystring.parse()?"
    assert unspoken(parse, [("maxKeys {number} Specifies the maximum number of keys to parse.", sheet),
                            ("Default: 1000.", sheet)]) is None
    # freshdocs tune fd-030: the proposal's text, not its "Status:" field, at confidence 1.0
    spec = _chunk("dpkg-protected-field.txt")
    status = "What is the status of dpkg's Protected field specification?"
    assert unspoken(status, [("The proposal would be to add support for a new Protected field.", spec)]) == "status"
    assert unspoken(status, [("Status: draft, experimental.", spec)]) is None
    # a measure is spoken of by a figure in its unit (conversations tune cv-067, cv-010)
    sheet_question = "What is the lowest operating temperature of the Falcon X2?"
    assert unspoken(sheet_question, [("The Falcon X2 operates from -20 °C to 55 °C.", sheet)]) is None
    assert unspoken(sheet_question, [("The Falcon X2 weighs 410 g.", sheet)]) == "operating temperature"
    # under its heading, a quote speaks of what the heading names
    assert unspoken(status, [("draft, experimental", _chunk("spec.txt", section="Status"))]) is None


def test_the_grounding_floor_reports_the_unspoken_attribute() -> None:
    sheet = {**_chunk("heron_s1_datasheet.txt"), "text": "The Heron S1 costs $649."}
    answer = "The Heron S1 costs $649 [heron_s1_datasheet.txt#1]."
    floors = grounding.check("How much is the add-on of Heron S1?", answer, [sheet])
    assert floors.unspoken_attribute == "add-on"


def test_an_address_is_spoken_of_by_one() -> None:
    # teamdocs tune td-121 and td-129: the quotes gave the address without the word
    page: EvidenceChunk = {"chunk_id": "slack_bolt-METADATA.md#15", "doc_name": "slack_bolt-METADATA.md", "text": "",
                           "section": None, "page": None, "relevance": 1.0, "score": 1.0}
    question = "What is the email address of Slack's developer support team in the Bolt README?"
    assert unspoken(question, [("Email our developer support team: support@slack.com", page)]) is None
    assert unspoken(question, [("Contact our developer support team on the forum", page)]) == "email address"
