"""A quoted sentence whose subject is a pronoun carries what it refers to, in the answer, through the real engine."""

from __future__ import annotations

from masis.engine import Engine

ROUTERS = (
    "Router notes\n\n"
    "The Kestrel K1 router launches in May 2027 with four Ethernet ports. It will cost $219 at launch.\n\n"
    "The Osprey O2 router launches in June 2027 with eight Ethernet ports. It will cost $349 at launch.\n"
)


def test_each_pronoun_quote_is_led_by_the_sentence_that_names_its_subject(engine: Engine) -> None:
    assert not engine.ingest("routers", [("routers.txt", ROUTERS.encode())]).failed
    outcome = engine.ask("routers", "What is the launch price?")
    answer = outcome.answer or ""
    kestrel = "The Kestrel K1 router launches in May 2027 with four Ethernet ports [routers.txt#1]. It will cost $219"
    osprey = "The Osprey O2 router launches in June 2027 with eight Ethernet ports [routers.txt#1]. It will cost $349"
    assert kestrel in answer and osprey in answer
    assert outcome.status == "answered"  # the lead is the passage's own words: every quote is still supported

