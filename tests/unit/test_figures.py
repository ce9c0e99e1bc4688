"""Figures a conflict compares: quantities, not the numbers of links and issues."""

from __future__ import annotations

from masis.judge.figures import values


def test_the_numbers_of_links_and_issues_are_no_figures_to_compare() -> None:
    # two changelogs' "Add … by @someone in https://github.com/…/pull/322" were a conflict over pull request numbers
    assert values("Add fish install oneliner by @ElijahLynn in https://github.com/pyenv/pyenv/pull/322") == {}
    assert values("Fixed the installer on Windows (#452).") == {}
    assert values("Return shipping costs $25, see https://example.com/returns/2") == {"amount": {"$25"}}
