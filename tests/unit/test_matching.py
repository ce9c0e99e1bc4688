"""The relevance rules for words the stemmer keeps apart: derived forms, misspellings, conversational
framing, and periods named relative to today (masis/judge/matching.py, masis/judge/terms.py)."""

from __future__ import annotations

import random

import pytest

from masis.judge.matching import DOCUMENT_CREDIT, RELATED_CREDIT, _edits, _shares_a_piece, question, related
from masis.judge.relevance import coverage
from masis.judge.terms import alternative_words, question_terms, terms


@pytest.mark.parametrize(
    ("word", "other"),
    [
        ("acquiring", "acquisition"),  # a derived form the stemmer splits (acquir / acquisit)
        ("published", "publication"),
        ("charecterized", "characterized"),  # one letter wrong
        ("accelerlations", "accelerations"),  # one letter too many
        ("partical", "particle"),  # two edits in a long-enough word
    ],
)
def test_derived_forms_and_misspellings_are_related(word: str, other: str) -> None:
    assert related(word, other) and related(other, word)


@pytest.mark.parametrize(
    ("word", "other"),
    [
        ("trucks", "track"),  # short words: one edit is a different word
        ("salary", "sales"),
        ("capital", "capex"),
        ("delivery", "discovery"),
        ("acquiring", "requiring"),  # the same ending is no relation
    ],
)
def test_unrelated_words_stay_apart(word: str, other: str) -> None:
    assert not related(word, other)


def test_the_piece_test_never_rules_out_a_pair_within_the_edits_allowed() -> None:
    rng = random.Random(5)
    letters = "aeinrst"  # few letters, so that near pairs are common
    checked = 0
    for _ in range(20000):
        word = "".join(rng.choice(letters) for _ in range(rng.randint(6, 12)))
        other = list(word)
        for _ in range(rng.randint(0, 3)):
            at = rng.randrange(len(other) + 1)
            edit = rng.choice(("insert", "delete", "replace"))
            if edit == "insert" or not other or at == len(other):
                other.insert(at, rng.choice(letters))
            elif edit == "delete":
                del other[at]
            else:
                other[at] = rng.choice(letters)
        allowed = rng.choice((1, 2))
        if _edits(word, "".join(other), allowed) <= allowed:
            checked += 1
            assert _shares_a_piece(word, "".join(other), allowed), (word, "".join(other), allowed)
    assert checked > 5000
    assert not _shares_a_piece("abcdefgh", "ijklmnop", 1)


def test_a_derived_form_earns_partial_credit_and_the_same_stem_full_credit() -> None:
    asked = question("Which company is Kestrel acquiring?")
    credits = asked.credits_in("The board approved the acquisition of Nordlys Logistics.")
    assert list(credits.values()) == [RELATED_CREDIT]
    assert set(asked.credits_in("Kestrel Labs is acquiring a freight broker.").values()) == {1.0}


def test_a_term_only_the_document_holds_counts_in_part() -> None:
    asked = question("Which company is Kestrel acquiring?")
    kestrel = terms("Kestrel")
    credits = asked.credits_in("The board approved the acquisition of Nordlys Logistics.", document_terms=kestrel)
    [acquiring] = asked.terms - kestrel
    assert credits == {next(iter(kestrel)): DOCUMENT_CREDIT, acquiring: RELATED_CREDIT}
    assert DOCUMENT_CREDIT < 1.0 and RELATED_CREDIT < 1.0


@pytest.mark.parametrize(
    ("chatty", "plain"),
    [
        ("hey, quick one: how much are we putting into AI overall?", "How much AI?"),
        ("Sorry, I meant our fleet: how many trucks does the company operate?", "fleet trucks company operate"),
        ("Hi! Can you tell me, just roughly, what the travel policy says?", "travel policy"),
        ("How good was on-time delivery last quarter?", "on-time delivery"),
        # "one" standing for a thing named elsewhere (conversations tune cv-186: "and the one after that" had been
        # about "one", and answered at 1.0 from a FAQ's "Only one package …")
        ("which one does npm publish follow?", "npm publish follow"),
        ("and the one after that", "and after that"),
        # a degree said in passing (coredocs tune cr-071: "The documents do not say anything about bit.")
        ("our clock is a bit off at boot, how far can the timestamps be off?", "our clock is off at boot, how far "
         "can the timestamps be off?"),
        # a contraction typed without its apostrophe (13 tune questions asked back though a draft held the answer,
        # stop 83's records: "whats" was a term no passage holds)
        ("whats the oldest gmp that mpfr 4 will work with?", "what's the oldest gmp that mpfr 4 will work with?"),
        ("hows the default mirror picked", "how's the default mirror picked"),
    ],
)
def test_conversational_framing_and_relative_periods_are_not_what_a_question_is_about(chatty: str, plain: str) -> None:
    assert question_terms(chatty) == question_terms(plain)


def test_a_negation_typed_without_its_apostrophe_stays_a_word_of_the_question() -> None:
    # as a guard: taken out too, chat's negated questions were answered wrongly as often as rightly (stop 84)
    assert terms("dont") <= question_terms("where does gunicorn look for a config file if i dont pass -c?")


def test_framing_words_do_not_count_against_the_passage_that_answers() -> None:
    weights = dict.fromkeys(question_terms("Sorry, I meant: how many trucks does the company operate?"), 1.0)
    assert coverage(weights, terms("The company operates 212 trucks across four depots.")) == 1.0


def test_a_short_code_of_letters_and_figures_holds_its_letters_word() -> None:
    # real case (conversations tune): "What IP rating does the Falcon X2 have?" over "Ingress protection | IP67"
    asked = question("What IP rating does the Falcon X2 have?")
    (ip,) = terms("IP")
    assert asked.credits_in("Ingress protection | IP67") == {ip: 1.0}
    assert ip not in asked.credits_in("The zip67 archive and the tip of the pen")  # another word, not the code



def test_a_phrasal_verb_of_chat_is_matched_by_the_one_word_documents_use() -> None:
    # conversations tune cv-468#3 "how do i turn it off with an env var?" (AWS X-Ray: "… to disable the SDK"), md-061
    # "can i turn on packrat …" (pyparsing: "enable_packrat"): the verb of "turn … off" is "disable", of "switch … on"
    # "enable"; the word itself still matches
    off = question("how do i turn it off with an env var?")
    turn = next(iter(terms("turn")))
    assert off.credits_in("Set the env var to false to turn the SDK off.").get(turn) == 1.0
    assert off.credits_in("Set it to false to disable the SDK.").get(turn) == 1.0
    assert off.credits_in("Set it to false to enable the SDK.").get(turn) is None  # "off" is not "enable"
    on = question("which option switches on AES encryption")
    assert on.credits_in("-Y enables AES encryption").get(next(iter(terms("switches")))) == 1.0
    # a verb that is no phrasal "on"/"off" has no other word
    assert question("which way does the key turn").alternatives == {}
    assert "disable" in alternative_words("how do i switch that off for that crontab?")
