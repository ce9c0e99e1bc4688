"""Names written as plain words: "What is the default block size of gzip?", "Which dpkg release implements the
Protected field?", "What target tier does llnode have?".

A word of the question that is no ordinary English word names a thing (a tool, a package, a command), and like a
version or a code it is a constraint, not a word whose look-alikes may stand in for it: the bzip2 manual's block
size does not answer for gzip, nor the libxslt changelog for dpkg. Such a name must be held by what an answer
quotes (`masis.judge.grounding`'s anchor floor); a name no passage of the workspace holds at all is missing from
every answer, and the question is asked back saying so.

An ordinary word is one of pyspellchecker's English word list (160k words with their forms); two of them run
together ("keytype", "lockfile") are ordinary too, and so is a misspelling of a word the workspace has
("charecterized"). Without the list no word is taken for a name.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable, Iterable, Mapping
from functools import lru_cache
from importlib import resources

from masis.judge import anchors
from masis.judge.matching import Question, related

SHARED_START = 3  # a misspelling shares its first letters with the word (`matching.related` asks for more)
MIN_PART = 3  # each of two run-together words has at least this many letters
MIN_NAME = 3  # letters: shorter words are abbreviations and units more often than names


@lru_cache(maxsize=1)
def ordinary_words() -> frozenset[str]:
    """pyspellchecker's English words, or nothing when the package is not installed or its list cannot be read."""
    try:
        with resources.files("spellchecker").joinpath("resources", "en.json.gz").open("rb") as raw:
            return frozenset(json.load(gzip.open(raw)))
    except (ModuleNotFoundError, OSError, ValueError):
        return frozenset()


def names(
    question: str,
    asked: Question,
    frequencies: Mapping[int, int],
    workspace_words: Callable[[str], Iterable[str]],
    ordinary: frozenset[str],
) -> list[str]:
    """The question's words that name something (see the module's docstring), first seen first. `frequencies` are
    the question's terms with the number of the workspace's passages that hold each; `workspace_words(start)` the
    workspace's words that begin with `start`."""
    if not ordinary:
        return []
    written = {part for anchor in anchors.anchors(question) for part in anchors.parts(anchor)}
    found: list[str] = []
    for term, count in frequencies.items():
        for word in asked.surface.get(term, ()):
            if len(word) < MIN_NAME or word in ordinary or word in written or _run_together(word, ordinary):
                continue
            if not count and any(related(word, other) for other in workspace_words(word[:SHARED_START])):
                continue  # a misspelling of the workspace's word, not a name it lacks
            found.append(word)
    order = question.lower()
    return sorted(dict.fromkeys(found), key=order.find)


def _run_together(word: str, ordinary: frozenset[str]) -> bool:
    """Whether `word` is two ordinary words written as one ("keytype", "lockfile", "filesize")."""
    return any(word[:cut] in ordinary and word[cut:] in ordinary for cut in range(MIN_PART, len(word) - MIN_PART + 1))
