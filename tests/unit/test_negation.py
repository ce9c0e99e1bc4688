"""A question about what did not happen is not answered by a quote that says it did."""

from __future__ import annotations

from masis.judge import grounding, negation
from masis.judge.citations import audit
from masis.judge.findings import Critique
from masis.state import EvidenceChunk


def _chunk(chunk_id: str, text: str) -> EvidenceChunk:
    return {"chunk_id": chunk_id, "doc_name": chunk_id.split("#")[0], "text": text, "page": None, "section": None,
            "relevance": 1.0, "score": 1.0}


def test_negated_questions_are_told_from_plain_ones() -> None:
    assert negation.negated("Who never captured Fort Beausejour?")
    assert negation.negated("What order didn't British make of French?")
    assert negation.negated("What group's membership does not reflect the balance of parties in Parliament?")
    assert not negation.negated("Who captured Fort Beausejour?")
    assert not negation.negated("What is not only cheap but also fast?")  # "not only … but also" denies nothing
    assert not negation.negated("Is a notice needed?")  # "not" inside a word
    # an option left out asks for its default (realdocs tune rd-202, freshdocs tune fd-062): it denies nothing
    assert not negation.negated("Which encoding does new StringDecoder() use when no encoding argument is given?")
    assert not negation.negated("What commit message does git subtree merge use when -m is not given?")
    assert negation.negated("What is not given to members?")
    # chat types its negations without the apostrophe (conversations tune cv-136#2, "and if the command doesnt exist",
    # had been answered at 0.85 by what timeout does when the command runs)
    assert negation.negated("and if the command doesnt exist")
    assert negation.negated("why wont it start")
    assert not negation.negated("what url path does dig +https hit if i dont give one")  # a default, as above
    assert not negation.negated("does the mount want a restart")


def test_a_quote_that_denies_answers_a_negated_question() -> None:
    assert negation.unmet("Who never captured Fort Beausejour?",
                          ["Colonel Monckton captured Fort Beauséjour in June 1755."])
    assert not negation.unmet("Which ASN.1 type does libtasn1 not handle?",
                              ["The REAL type is not supported by libtasn1."])
    assert not negation.unmet("Which ASN.1 type does libtasn1 not handle?", ["Every type except REAL is handled."])
    assert not negation.unmet("Who captured Fort Beausejour?", ["Colonel Monckton captured Fort Beauséjour."])
    assert not negation.unmet("Who never captured it?", [])  # no quote: the citation floors decide


def test_the_grounding_floor_flags_a_negated_question_answered_by_the_positive() -> None:
    evidence = [_chunk("war.txt#1", "Colonel Monckton, in the sole British success that year, captured Fort "
                                    "Beauséjour in June 1755.")]
    answer = "Colonel Monckton, in the sole British success that year, captured Fort Beauséjour [war.txt#1]."
    floors = grounding.check("Who never captured Fort Beausejour?", answer, evidence)
    assert floors.unmet_negation
    assert not grounding.check("Who captured Fort Beausejour?", answer, evidence).unmet_negation
    critique = grounding.apply(Critique(confidence=1.0), floors, audit(answer, ["war.txt#1"]))
    assert critique.needs_retry and any("not the case" in gap for gap in critique.logical_gaps)


def test_the_denial_must_be_in_the_quote_that_answers() -> None:
    quotes = ["Scottish MPs are unable to vote on the domestic legislation of the Scottish Parliament.",
              "This phenomenon is known as the West Lothian question and has led to criticism."]
    assert negation.unmet("What question has not led to criticism?", quotes)
    # a denial in the answering quote itself, or a word with a negating prefix, says what is not the case
    assert not negation.unmet("Which flags are not supported on Windows?",
                              ["The --color flag is unsupported on Windows.", "Colors work on Linux."])
    assert not negation.unmet("Who had no real military power during the Yuan?",
                              ["The insignificance of the Ministry of War compared with native dynasties, as the real "
                               "military authority in Yuan times resided in the Privy Council."])


def test_a_word_with_a_negating_prefix_negates_the_question() -> None:
    assert negation.negated("How were British unable to cut supplies to Louisbourg?")
    assert negation.negated("Governor Robert Dinwiddie had an investment in what insignificant company?")
    assert negation.negated("Which exit code does Node.js use when an unknown option is given?")
    assert not negation.negated("Which company influenced the design?")  # "influence" is no "in-" negation
    assert negation.unmet("Governor Robert Dinwiddie had an investment in what insignificant company?",
                          ["Governor Robert Dinwiddie of Virginia was an investor in the Ohio Company."])
    assert not negation.unmet("Which formats are unsupported?", ["Unsupported formats: BMP and TIFF."])


def test_an_identifiers_prefix_negates_nothing() -> None:
    # nextdocs tune nd-030 (a right draft asked back): TRANS_NONBLOCKING names an option
    assert not negation.negated("In xtrans, what happens when TRANS_NONBLOCKING is set with an argument of 1?")
    assert negation.negated("Which xtrans option is nonblocking?")


def test_software_documentation_denies_by_disabling_and_omitting() -> None:
    # configdocs tune cd-020, stackdocs sd-078: the quotes said it with "disables" and "omitted"
    assert not negation.unmet("What can PIP_CONFIG_FILE be set to so that pip loads no configuration files at all?",
                     ["Setting PIP_CONFIG_FILE to os.devnull disables the loading of all configuration files"])
    assert not negation.unmet("ss doesn't show my listening sockets at all by default?? which flag shows only those",
                     ["-l, --listening Display only listening sockets (these are omitted by default)"])
    assert negation.unmet("ss doesn't show my listening sockets at all by default?? which flag shows only those",
                 ["-l, --listening Display only listening sockets"])
