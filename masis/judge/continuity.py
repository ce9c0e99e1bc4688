"""A follow-up answered from a document its thread never used: the sign of a reading that drifted.

A thread is a conversation about the documents its answers cited. When a follow-up that the reading rules rewrote, or
that points back at something ("which one wins if both are there"), is answered from a document none of the earlier
answers cited, and neither its words nor its reading name that document, the rules most often took the wrong thing for
"it" or "one". At the first run of the six rounds of unseen threads (cv-112 to cv-255, tune parts), the 79 dependent
follow-ups answered were right 42 times; the 12 this rule finds were all wrong. A follow-up that names its new
document ("and google-auth?" after certifi's policy, answered from google-auth-SECURITY.md), or whose reading names it
("Does the other one have Ethernet?" read as "Does the Falcon X2 have Ethernet?"), switches on purpose; one that is
self-contained in its words ("How long does a warranty repair take?") may well move to a new document.

The documents a thread used are those its answers cited and those its questions named (`named_documents`): a thread
whose first answer was asked back is still about lazr.restfulclient when its question named it, so "why so short"
answered from pytest-timeout's page drifted. A "then" or a "so" that closes a follow-up points back as "it" does
(`masis.judge.reading.points_back`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from masis.judge.names import document_words, product_names, tool_key, tool_names
from masis.judge.terms import terms

DRIFTED_CONFIDENCE = 0.6  # under the threshold: retried (a wider search may find the thread's document), then asked


def drifted(
    asked: str, answer_documents: Sequence[str], earlier_questions: Iterable[str], thread_documents: Iterable[str]
) -> list[str]:
    """The answer's documents when none of them is one the thread's earlier answers cited (`thread_documents`) and
    no word this question adds to the thread's earlier questions names one of them; empty otherwise (and when
    the thread has cited nothing yet, or the answer cites nothing). `asked` is what the user wrote for this question
    (with any reply to a clarification) and how it was read; the earlier questions are as they were typed."""
    used = set(thread_documents)
    if not used or not answer_documents or used.intersection(answer_documents):
        return []
    said = frozenset().union(*(terms(text) for text in earlier_questions))
    new = terms(asked) - said
    if new & terms(" ".join(document_words(answer_documents))):
        return []
    return list(dict.fromkeys(answer_documents))


def named_documents(questions: Iterable[str], document_names: Iterable[str]) -> list[str]:
    """The documents the questions name: one named after a tool, a package or a product a question holds
    ("lazr.restfulclient-caching.rst" by "how long can lazr.restfulclient's cache filenames get",
    "heron_s1_datasheet.txt" by "Is the Heron S1 waterproof?"). A thread whose earlier answers were asked back
    cited nothing, yet it is about what its questions named."""
    asked = " ".join(tool_key(question.lower()) for question in questions)
    words = frozenset(_WORD.findall(asked))
    return [
        name for name in document_names
        # a name none of whose words the questions hold names nothing they asked (most of a large workspace)
        if words.intersection(_WORD.findall(name.lower()))
        and any(re.search(rf"(?<![\w-]){re.escape(key)}(?![\w-])", asked)
                for key in {*tool_names([name]), *(tool_key(product.lower()) for product in product_names([name]))})
    ]


_WORD = re.compile(r"[a-z0-9]+")
