"""Quotes that stand alone: a pronoun subject is led by what it refers to, from the quote's own passage."""

from __future__ import annotations

import pytest

from masis.judge.quotes import needs_referent, referent, sentence_before

PASSAGE = ("Router notes. The Kestrel K1 router launches in May 2027 with four Ethernet ports. It will cost $219 at "
           "launch. The Osprey O2 router launches in June 2027. It will cost $349 at launch.")


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("It will cost $219.", True),
        ("Its battery lasts 14 hours.", True),
        ("This product ships in May.", True),
        ("The product is assembled in Penang.", True),
        ("They are refunded within 10 days.", True),
        ("The Falcon X2 costs $1,249.", False),
        ("Items are refunded within 10 days.", False),
        ("Italy is not served.", False),  # "It" only as a whole word
    ],
)
def test_what_needs_a_referent(sentence: str, expected: bool) -> None:
    assert needs_referent(sentence) is expected


def test_a_heading_that_names_the_thing_leads_the_quote() -> None:
    assert referent("It will cost $219.", "Falcon X2", "Intro. It will cost $219.") == "Falcon X2:"


def test_without_a_naming_heading_the_sentence_before_leads_it() -> None:
    assert referent("It will cost $349 at launch.", "Availability and price", PASSAGE) == (
        "The Osprey O2 router launches in June 2027.")
    assert referent("It will cost $219 at launch.", None, PASSAGE) == (
        "The Kestrel K1 router launches in May 2027 with four Ethernet ports.")


def test_a_heading_naming_nothing_still_leads_when_the_sentence_before_names_nothing_either() -> None:
    assert referent("It is refunded in full.", "Faulty devices", "Check it first. It is refunded in full.") == (
        "Faulty devices:")
    assert referent("It is refunded in full.", None, "Check it first. It is refunded in full.") is None


def test_a_sentence_that_names_its_subject_needs_no_lead() -> None:
    assert referent("The Osprey O2 router launches in June 2027.", "Routers", PASSAGE) is None


def test_sentence_before() -> None:
    assert sentence_before(PASSAGE, "It will cost $219 at launch.") == (
        "The Kestrel K1 router launches in May 2027 with four Ethernet ports.")
    assert sentence_before(PASSAGE, "Router notes.") is None


def test_a_quote_about_this_option_is_led_by_the_sentence_that_names_the_flag() -> None:
    # real case (fresh tune fd-026): "This option is mandatory for all commands" — which option?
    passage = "-P <prefix>:: --prefix=<prefix>:: Specify the path. This option is mandatory for all commands."
    assert referent("This option is mandatory for all commands.", None, passage) == (
        "-P <prefix>:: --prefix=<prefix>:: Specify the path."
    )


def test_a_definition_is_led_by_its_term_on_the_line_above() -> None:
    # real case (stackdocs tune sd-086): anacron(8)'s FILES entry, quoted without "/var/spool/anacron"
    passage = ("FILES /etc/anacrontab\nContains specifications of jobs.\n/var/spool/anacron\n"
               "This directory is used by Anacron for storing timestamp files.\nAnacron never removes them.")
    assert referent("This directory is used by Anacron for storing timestamp files.", "FILES", passage) == (
        "/var/spool/anacron:")
    # a heading in words is no term: the sentence is led as before (by the heading that names something)
    assert referent("It will cost $219.", "Falcon X2", "Pricing\nIt will cost $219.") == "Falcon X2:"
