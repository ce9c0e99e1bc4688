"""Irregular verbs' forms (masis.judge.irregular) and their full match in a question's terms (masis.judge.matching)."""

from __future__ import annotations

from masis.judge.irregular import other_forms
from masis.judge.matching import question
from masis.judge.terms import terms


def test_the_forms_of_an_irregular_verb_name_each_other() -> None:
    assert other_forms("began") == ("begin", "begun")
    assert other_forms("written") == ("write", "wrote")
    assert other_forms("overridden") == ("override", "overrode")
    # a form that is also a noun, or another verb's, names nothing: "bit" of binary digits, "found" (to found)
    assert other_forms("bit") == () and other_forms("found") == () and other_forms("left") == ()
    assert other_forms("configure") == ()
    assert other_forms("bind") == () and other_forms("stuck") == ()  # "bound", "stick": other words too


def test_another_form_of_the_questions_verb_matches_in_full() -> None:
    # kitdocs threads, cv-456#1: "Who began the tput command?" was answered with Ross Ridge's mytinfo package, whose
    # sentence has "began", over "The tput command was begun by Bill Joy in 1980"
    asked = question("Who began the tput command?")
    began = next(iter(terms("began")))
    assert asked.credits_in("The tput command was begun by Bill Joy in 1980.")[began] == 1.0
    assert began not in asked.credits_in("The tput command was started by Bill Joy in 1980.")
    wrote = question("Who wrote the dateutil module?")
    assert next(iter(terms("wrote"))) in wrote.credits_in("The dateutil module was written by Gustavo Niemeyer.")
