"""A quote that names the question's doer where the question's answer goes answers the question turned round."""

from __future__ import annotations

from masis.judge import grounding, roles
from masis.state import EvidenceChunk


def test_the_doer_named_after_its_verb_is_done_to() -> None:
    quote = ("They were descended from Norse raiders and pirates from Denmark, Iceland and Norway who, under their "
             "leader Rollo, agreed to swear fealty to King Charles III of West Francia.")
    assert roles.reversed_role("Who did King Charles III swear fealty to?", [quote]) == ("King Charles III", "swear")
    assert roles.reversed_role("Which service does Envoy forward requests to?",
                               ["The load balancer forwards requests to Envoy on port 8080."]) == ("Envoy", "forward")


def test_the_doer_before_its_verb_or_after_by_is_the_doer() -> None:
    assert not roles.reversed_role("Who did King Charles III swear fealty to?",
                                   ["King Charles III swore fealty to the Pope."])
    assert not roles.reversed_role("Which service does Envoy forward requests to?",
                                   ["Envoy forwards requests to the app service."])
    # the passive names the doer after "by"
    assert not roles.reversed_role("What did Telecom Australia start?",
                                   ["AUSTPAC, started by Telecom Australia in the early 1980s, was Australia's first "
                                    "public packet-switched data network."])
    # a question without "did/does NAME VERB" is left alone
    assert not roles.reversed_role("Who runs the Santiago office?", ["Ana Ruiz runs the Santiago office."])


def test_the_grounding_floor_flags_a_reversed_role() -> None:
    chunk: EvidenceChunk = {"chunk_id": "net.md#1", "doc_name": "net.md", "page": None, "section": None,
                            "text": "The load balancer forwards requests to Envoy on port 8080.", "relevance": 1.0,
                            "score": 1.0}
    answer = "The load balancer forwards requests to Envoy on port 8080 [net.md#1]."
    floors = grounding.check("Which service does Envoy forward requests to?", answer, [chunk])
    assert floors.reversed_role == ("Envoy", "forward")
    assert not grounding.check("Which service forwards requests to Envoy?", answer, [chunk]).reversed_role


def test_names_on_the_other_sides_of_the_verb_are_turned_round() -> None:
    assert roles.reversed_role("What Frank led Norman forces?",
                               ['A Norman named Oursel led a force of "Franks" into the upper Euphrates valley.']) == (
        "Frank", "led")
    assert not roles.reversed_role("What Norman led Frankish forces?",
                                   ['A Norman named Oursel led a force of "Franks" into the upper Euphrates valley.'])
    # a passive question names its doer after "by": "… is maintained by Huguenots"
    assert not roles.reversed_role("What church in Virginia is maintained by Huguenots as a historic shrine?",
                                   ["The Huguenot Society of America maintains Manakin Episcopal Church in Virginia "
                                    "as an historic shrine."])


def test_a_passive_questions_subject_named_as_the_doer_is_turned_round() -> None:
    quote = ("The network was engineered and operated by MCI Telecommunications under a cooperative agreement with "
             "the NSF.")
    assert roles.reversed_role("NSF was engineered and operated by who?", [quote]) == ("NSF", "engineered")
    assert not roles.reversed_role("vBNS was engineered and operated by who?",
                                   ["The vBNS was engineered and operated by MCI Telecommunications."])


def test_the_one_done_to_named_as_the_doer_is_turned_round() -> None:
    quote = "The conquest of Cyprus by the Anglo-Norman forces of the Third Crusade opened a new chapter."
    assert roles.reversed_role("Who defeated Anglo-Norman forces during the third Crusade?", [quote]) == (
        "Anglo-Norman", "defeated")
    assert not roles.reversed_role("Who defeated Anglo-Norman forces during the third Crusade?",
                                   ["Saladin defeated the Anglo-Norman forces at Hattin."])


def test_a_pronoun_subject_is_not_the_name_its_own_sentence_gives_later() -> None:
    quote = ("He called it packet switching, a more accessible name than Baran's, and proposed to build a nationwide "
             "network in the UK.")
    assert roles.reversed_role("What did Baran call his system?", [quote]) == ("Baran", "call")
    assert not roles.reversed_role("What did Davies call his system?", [quote])


def test_only_a_verb_between_two_names_is_read() -> None:
    # "release" stands between "Debian" and "ships", not between two names
    assert not roles.reversed_role("Which Debian release ships Python 3.11?",
                                   ["Python 3.11 is the default in the bookworm release of Debian 12."])
    # a version after the name is no verb
    assert not roles.reversed_role("What did Git 2.39 fix?", ["The 2.39 release of Git fixed the lfs regression."])
