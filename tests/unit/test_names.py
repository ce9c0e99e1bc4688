"""Names written as plain words (masis.judge.names): which words of a question name a thing the quotes must hold."""

from __future__ import annotations

from masis.judge.names import candidates, document_words, names, ordinary_words

_ORDINARY_WORDS = ("what is the default block size of tier target does have which release implements key type lock "
                   "file protected field characterized how were people our repository has configuration")
ORDINARY = tuple(sorted(_ORDINARY_WORDS.split()))


def test_a_word_no_dictionary_has_names_a_thing() -> None:
    # real cases: fresh tune fd-069 ("llnode", in no passage) and fd-065 ("dpkg", answered from libxslt's changelog)
    assert candidates("What target tier does llnode have?", ORDINARY) == ["llnode"]
    assert candidates("Which dpkg release implements the Protected field?", ORDINARY) == ["dpkg"]


def test_ordinary_words_their_starts_and_run_together_words_name_nothing() -> None:
    assert candidates("What is the default block size?", ORDINARY) == []
    assert candidates("Which keytype does the lockfile have?", ORDINARY) == []
    # real case (realdocs tune rd-205): "repo" is short for "repository"
    assert candidates("Our repo has what config?", ORDINARY) == []
    # computing's common nouns the word list lacks (guidedocs tune gd-015: "need the url", asked back for 'url')
    assert "url" not in candidates("where does the git repo live now? need the url", ORDINARY)
    assert "gzip" in candidates("where does the gzip repo live now?", ORDINARY)


def test_a_british_spelling_of_an_ordinary_word_names_nothing() -> None:
    # kitdocs tune kt-022: "organisation" was taken for a name, and the right answer asked back for it
    question = "Which organisation is the official maintenance agency for ISO 639-3, and what colour is its logo?"
    english = ordinary_words()
    assert candidates(question, english) == []
    assert candidates("Does the tool analyse the centre of the behaviour log?", english) == []
    assert candidates("Which gzip colour?", english) == ["gzip"]


def test_a_name_written_as_an_anchor_or_in_a_code_is_not_read_twice() -> None:
    assert candidates("What is the default block size of XZutils?", ORDINARY) == []  # an inner capital: an anchor
    assert candidates("What is the npm-shrinkwrap.json size?", ORDINARY) == []


def test_a_misspelling_of_the_workspaces_word_is_no_name() -> None:
    words = candidates("How were people charecterized?", ORDINARY)
    assert words == ["charecterized"]
    assert names(words, {"charecterized": 0}, lambda start: ["characterized"]) == []
    assert names(words, {"charecterized": 0}, lambda start: []) == ["charecterized"]
    assert names(["dpkg"], {"dpkg": 3}, lambda start: []) == ["dpkg"]  # held by some passage: a name it has


def test_without_a_word_list_no_word_is_a_name() -> None:
    assert candidates("What target tier does llnode have?", ()) == []


def test_the_word_list_is_installed_and_knows_ordinary_words_from_tool_names() -> None:
    words = set(ordinary_words())
    assert {"deprecated", "milliseconds", "recursive", "tiers"} <= words
    assert not {"gzip", "dpkg", "llnode", "npm"} & words


def test_a_word_one_slip_from_an_ordinary_word_is_a_misspelling() -> None:
    # real case (open-book SQuAD seed 0): "What additional srevice did BSkyB offer …?" was asked back for "srevice"
    assert names(["srevice"], {"srevice": 0}, lambda start: [], ("service",)) == []
    assert names(["llnode"], {"llnode": 0}, lambda start: [], ("node", "anode")) == ["llnode"]


def test_a_letter_added_to_a_computing_term_names_a_package() -> None:
    # webdocs tune wd-011: "What's ujson's median latency …?" was answered from orjson's table at 0.80, "ujson" taken
    # for a slip of "json"; no passage holds it, so it is missing from every answer
    assert names(["ujson"], {"ujson": 0}, lambda start: [], ("jason", "son")) == ["ujson"]


def test_a_word_that_looks_ordinary_names_a_thing_when_a_documents_name_has_it() -> None:
    # policydocs tune pd-030: "certifi" starts "certificate", so it was no name, and Google's policy answered for it
    ordinary = ordinary_words()
    question = "Within how many working days does certifi respond to a security report?"
    assert "certifi" not in candidates(question, ordinary)
    titles = document_words(["certifi-SECURITY.md", "google-auth-SECURITY.md"])
    assert candidates(question, ordinary, lambda: titles) == ["certifi"]
    # an ordinary word in a document's name stays a word
    assert "security" not in candidates(question, ordinary, lambda: titles)


def test_a_contraction_typed_without_its_apostrophe_names_nothing() -> None:
    # deskdocs tune dk-070: "dont" was asked of the quotes as if it named a tool
    question = "if i build a .deb and dont pass any compression flag, what does it get compressed with?"
    assert candidates(question, ordinary_words()) == []
    assert candidates("does dpkg-deb need xz, idk", ordinary_words()) == []
