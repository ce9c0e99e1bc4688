"""An answer's constraints must be held by one document's quotes, not stitched from two (policydocs tune pd-068)."""

from __future__ import annotations

from masis.judge import grounding, stitched
from masis.judge.conflicts import evidence_conflicts
from masis.judge.sentences import split_sentences
from masis.state import EvidenceChunk


def _chunk(chunk_id: str, text: str) -> EvidenceChunk:
    return {"chunk_id": chunk_id, "doc_name": chunk_id.split("#")[0], "text": text, "page": None, "section": None,
            "relevance": 1.0, "score": 1.0}


NODE = _chunk("nodejs-code-of-conduct.md#3",
              "All contributors to Node.js tacitly agree to abide by the letter and spirit of the Code of Conduct.")
PYENV = _chunk("pyenv-CONDUCT.md#7",
               "This Code of Conduct is adapted from the Contributor Covenant, version 1.4.")
QUESTION = "Which version of the Contributor Covenant is the Node.js Code of Conduct based on?"


def test_a_fact_of_one_document_beside_another_documents_name_is_stitched() -> None:
    quotes = [(NODE["text"], NODE), (PYENV["text"], PYENV)]
    assert stitched.stitched(QUESTION, quotes) == ["Covenant"]  # "contributors" holds "Contributor"
    floors = grounding.check(QUESTION, f"{NODE['text']} [{NODE['chunk_id']}]. {PYENV['text']} [{PYENV['chunk_id']}].",
                             [NODE, PYENV])
    assert floors.stitched and not floors.missing_anchors


def test_one_document_holding_every_constraint_is_not_stitched() -> None:
    own = _chunk("nodejs-code-of-conduct.md#4", "The Node.js Code of Conduct is based on the Contributor Covenant 2.1.")
    quotes = [(own["text"], own), (PYENV["text"], PYENV)]
    assert stitched.stitched(QUESTION, quotes) == []
    # one document alone, and a question about two named things, each held by its own document
    assert stitched.stitched(QUESTION, [(PYENV["text"], PYENV)]) == []
    falcon = _chunk("falcon.md#1", "The Falcon X2 weighs 1.2 kg.")
    heron = _chunk("heron.md#1", "The Heron S1 weighs 2 kg.")
    assert stitched.stitched("How much do the Falcon X2 and the Heron S1 weigh?",
                             [(falcon["text"], falcon), (heron["text"], heron)]) == []


def test_figures_of_two_projects_policies_are_no_conflict_about_one_of_them() -> None:
    # policydocs tune pd-030: certifi's 7 working days and Google's 5 were asked back as a conflict
    certifi = _chunk("certifi-SECURITY.md#1", "We will respond to a security report within 7 working days.")
    google = _chunk("google-auth-SECURITY.md#1", "The Google Security Team will respond within 5 working days.")
    question = "Within how many working days does certifi respond to a security report?"
    assert evidence_conflicts(question, [certifi, google]) == []
    # the same figures about one subject in two documents still disagree
    other = _chunk("certifi-FAQ.md#1", "certifi will respond to a security report within 5 working days.")
    assert evidence_conflicts(question, [certifi, other])


def test_a_section_number_goes_with_its_title() -> None:
    # freshdocs tune fd-007 quoted "6.1.1" alone, a sentence of its own
    assert split_sentences("6.1.1. Functionality\nIt works best on x86. 2. Run it.") == [
        "6.1.1. Functionality", "It works best on x86.", "2. Run it."]


def test_a_lead_quote_from_another_projects_document_is_stitched() -> None:
    # policydocs tune pd-064 (a near miss answered at 0.67): certifi's timeline quoted first, argcomplete's policy
    # (which holds its name) after it
    certifi = _chunk("certifi-SECURITY.md#1", "Reporting Security Issues: This project follows a 90 day disclosure "
                     "timeline.")
    argcomplete = _chunk("argcomplete-SECURITY.md#1", "If you believe you have found a security vulnerability in this "
                         "project, please report it at https://github.com/kislyuk/argcomplete/security/advisories.")
    question = "What disclosure timeline (in days) does argcomplete follow?"
    lead_elsewhere = [(certifi["text"], certifi), (argcomplete["text"], argcomplete)]
    assert stitched.stitched(question, lead_elsewhere, names=["argcomplete"]) == ["argcomplete"]
    # led by the document the question names, the answer is that document's
    own = [(argcomplete["text"], argcomplete), (certifi["text"], certifi)]
    assert stitched.stitched(question, own, names=["argcomplete"]) == []
