"""The floor for a fact the documents leave open ("Not sure of the specifics yet", "TBD", "never released")."""

from __future__ import annotations

from masis.judge.unsettled import unsettled

XTRANS_ROWS = [
    "Addresses are specified in the following syntax, protocol/host:port where protocol specifies a protocol family "
    "or an alias for a protocol family",
    "NETware | ipx | name of a NETware addressable host | Not sure of the specifics yet",
]


def test_the_quote_about_the_named_subject_that_leaves_its_fact_open_is_found() -> None:
    # nextdocs tune nd-034: the row that names NETware leaves the port open, though another quote says more words
    question = "What is the port format of an xtrans address for the NETware (ipx) protocol family?"
    assert unsettled(question, XTRANS_ROWS) == "Not sure"
    assert unsettled("What is the retail price of the Kestrel?",
                     ["Kestrel retail price: TBD.", "The Heron S1 sells for $219."]) == "TBD"


def test_a_settled_quote_about_the_subject_is_no_finding_though_another_is_open() -> None:
    assert unsettled("When does the Kestrel launch?",
                     ["The Kestrel launches on 3 May 2027.", "Pricing is not yet decided."]) is None
    # the open state asked about is the answer, not a near miss
    assert unsettled("Is the Kestrel's price still TBD?", ["Kestrel retail price: TBD."]) is None
    assert unsettled("What is the retail price of the Kestrel?", []) is None
    # an open fact beside the one asked (SQuAD 2.0 dev, Yuan dynasty: the father is named, the mother unknown)
    assert unsettled("Who was Shi Tianze's father?", [
        "His father was Shi Bingzhi (史秉直, Shih Ping-chih).",
        "Shi Bingzhi was married to a Jurchen woman (surname Na-ho) and a Han Chinese woman (surname Chang); it is "
        "unknown which of them was Shi Tianze's mother."]) is None
    # a quote that states the fact, beside one that leaves something open (SQuAD dev, Chloroplast)
    assert unsettled("Where did Dinophysis get its chloroplasts from?", [
        "Members of the genus Dinophysis have a phycobilin-containing chloroplast taken from a cryptophyte",
        "so it is possible (but not confirmed) that the Dinophysis chloroplast is a kleptoplast"]) is None
    # a condition on the open state (realdocs tune rd-201: "`root` will be used if `dir` is not specified")
    assert unsettled("Which city does the Kestrel launch in?",
                     ["The Kestrel launches in Oslo if the Bergen date is not confirmed."]) is None
