"""A follow-up answered from a document its thread never used (`masis.judge.continuity`), on real threads."""

from __future__ import annotations

import pytest

from masis.judge.continuity import drifted, named_documents
from masis.judge.reading import points_back

# (the follow-up as asked and read, the answer's documents, the thread's earlier questions and cited documents, what
# drifted), from real threads
CASES = [
    # conversations tune cv-206 at its first run: "it" is packrat; the answer came from underscore's docs
    pytest.param("how do i turn it on", ["underscore-index.html"], ["when should i turn on packrat in pyparsing"],
                 ["pyparsing-best_practices.md"], ["underscore-index.html"], id="pronoun-to-an-unused-document"),
    # cv-112: from certifi's security policy to google-auth's, named in the follow-up
    pytest.param("and google-auth?", ["google-auth-SECURITY.md"],
                 ["How fast does certifi respond to security reports?"], ["certifi-SECURITY.md"], [],
                 id="names-its-new-document"),
    # "security" was the first question's word: it does not make certifi's thread about another policy
    pytest.param("and the security one?", ["google-auth-SECURITY.md"],
                 ["How fast does certifi respond to security reports?"], ["certifi-SECURITY.md"],
                 ["google-auth-SECURITY.md"], id="a-repeated-word-names-nothing"),
    # a self-contained follow-up in the router thread: "return" names returns_policy.html
    pytest.param("How many days do customers have to return a router?", ["returns_policy.html"],
                 ["When does the Falcon X2 launch?"], ["falcon_x2_datasheet.md"], [], id="a-stem-names-the-document"),
    pytest.param("How much will it cost?", ["falcon_x2_datasheet.md", "heron_s1_datasheet.txt"],
                 ["When does the Falcon X2 launch?"], ["falcon_x2_datasheet.md"], [], id="a-document-the-thread-used"),
    pytest.param("how do i turn it on", ["underscore-index.html"], ["when should i turn on packrat"], [], [],
                 id="the-thread-cited-nothing-yet"),
]


@pytest.mark.parametrize(("asked", "answer_documents", "earlier", "thread_documents", "expected"), CASES)
def test_what_drifted_from_its_thread(
    asked: str, answer_documents: list[str], earlier: list[str], thread_documents: list[str], expected: list[str]
) -> None:
    assert drifted(asked, answer_documents, earlier, thread_documents) == expected


@pytest.mark.parametrize(
    "question",
    ["which one wins if both are there", "do i send bug reports to him", "what generates that file",
     "can i set all of them with one flag", "what else do i need on a mac",
     # conversations tune cv-337: "and" carries ESLint's thread on; the answer came from axios's changelog
     "and for the react specific rules what do we add", "so how do i pin the version",
     # a closing "then" or "so" stands for what was said
     "is it free then", "anything to set until then?", "why so slow", "do i have to do so",
     # a repair of the question before (platformdocs conversations tune cv-344#3, answered from ccache's manual in a
     # thread about crun)
     "the backend i mean"],
)
def test_questions_left_as_typed_that_still_point_back(question: str) -> None:
    # follow-ups of unseen threads (tune) that the rules read as typed and that drifted to another document
    assert points_back(question)


@pytest.mark.parametrize(
    "question", ["How long does a warranty repair take?", "what would a hotfix after v10.2.7 be",
                 "Android support: which versions?"]
)
def test_self_contained_follow_ups_do_not_point_back(question: str) -> None:
    # a self-contained follow-up may move to a new document: the drift rule leaves it alone
    assert not points_back(question)


@pytest.mark.parametrize(
    ("questions", "expected"),
    [
        # a package's name, dotted, names both of its pages
        (["how long can lazr.restfulclient's cache filenames get"],
         ["lazr.restfulclient-caching.rst", "lazr.restfulclient-retry.rst"]),
        # a product typed in lower case, and a tool with an underscore typed with it
        (["is the heron s1 waterproof?"], ["heron_s1_datasheet.txt"]),
        (["how do i run pg_restore in parallel"], ["pg_restore.1.txt"]),
        # conversations tune cv-271: the first question names chrony, whose NEWS the follow-up was answered from
        (["which chrony version added ntp over ptp"], ["chrony-FAQ.txt", "chrony-NEWS.txt"]),
        # ordinary words name no document: "returns" is no tool, "policy" no product
        (["what is the returns policy"], []),
    ],
)
def test_the_documents_a_thread_s_questions_name(questions: list[str], expected: list[str]) -> None:
    documents = ["lazr.restfulclient-caching.rst", "lazr.restfulclient-retry.rst", "pytest-timeout-METADATA.rst",
                 "heron_s1_datasheet.txt", "falcon_x2_datasheet.md", "returns_policy.html", "pg_restore.1.txt",
                 "pg_dump.1.txt", "chrony-FAQ.txt", "chrony-NEWS.txt"]
    assert named_documents(questions, documents) == expected
