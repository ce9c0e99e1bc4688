"""Names written as plain words (masis.judge.names): which words of a question name a thing the quotes must hold."""

from __future__ import annotations

from masis.judge.matching import question
from masis.judge.names import names, ordinary_words
from masis.judge.terms import terms

_ORDINARY_WORDS = ("what is the default block size of tier target does have which release implements key type lock "
                   "file protected field characterized how were people")
ORDINARY = frozenset(_ORDINARY_WORDS.split())


def _names(text: str, frequencies: dict[str, int], workspace: tuple[str, ...] = ()) -> list[str]:
    asked = question(text)
    counts = {term: frequencies.get(word, 1) for word in frequencies for term in terms(word)}
    counts |= {term: 1 for term in asked.terms if term not in counts}
    return names(text, asked, counts, lambda start: [w for w in workspace if w.startswith(start)], ORDINARY)


def test_a_word_no_dictionary_has_names_a_thing() -> None:
    # real cases: fresh tune fd-069 ("llnode", in no passage) and fd-065 ("dpkg", answered from libxslt's changelog)
    assert _names("What target tier does llnode have?", {"llnode": 0}) == ["llnode"]
    assert _names("Which dpkg release implements the Protected field?", {"dpkg": 4}) == ["dpkg"]


def test_ordinary_words_run_together_words_and_misspellings_name_nothing() -> None:
    assert _names("What is the default block size?", {}) == []
    assert _names("Which keytype does the lockfile have?", {"keytype": 0, "lockfile": 0}) == []
    # a misspelling of the workspace's word is that word, not a name the documents lack
    assert _names("How were people charecterized?", {"charecterized": 0}, ("characterized",)) == []


def test_a_name_already_written_as_an_anchor_is_not_read_twice() -> None:
    assert _names("What is the default block size of XZutils?", {"xzutils": 2}) == []  # an inner capital: an anchor


def test_without_a_word_list_no_word_is_a_name() -> None:
    asked = question("What target tier does llnode have?")
    assert names("What target tier does llnode have?", asked, dict.fromkeys(asked.terms, 0), lambda s: [],
                 frozenset()) == []


def test_the_word_list_is_installed_and_knows_ordinary_words_from_tool_names() -> None:
    words = ordinary_words()
    assert {"deprecated", "milliseconds", "recursive", "tiers"} <= words
    assert not {"gzip", "dpkg", "llnode", "npm"} & words
