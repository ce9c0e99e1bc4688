"""Names the documents do not have: a question word that no passage of the workspace holds, that is no ordinary
word, no two ordinary words run together and no misspelling of a word the workspace has.

"What target tier does llnode have?" over a table of tools without llnode, "Which flag of gzfrob sets the level?":
the question is about something the documents never mention, however close the rest of a passage comes (the
sentence encoder reads "llnode" as close to the tiers it does list). Such a word is a missing anchor of every
answer (`masis.judge.grounding`), so the answer is asked back, saying what is missing.

An ordinary word is one the sentence encoder's tokenizer knows whole (its WordPiece vocabulary: 30k English words and
common names); without that vocabulary no word is taken for a name, since an ordinary word the documents happen not
to use ("disagree" for "do not match") says nothing about what they cover.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import lru_cache

from masis.judge.matching import Question, related

SHARED_START = 3  # a misspelling shares its first letters with the word (`matching.related` asks for more)
MIN_PART = 3  # each of two run-together words ("keytype", "lockfile") has at least this many letters
MIN_NAME = 3  # letters: shorter words are abbreviations and units more often than names


@lru_cache(maxsize=1)
def ordinary_words() -> frozenset[str]:
    """The whole words of the sentence encoder's vocabulary, or nothing when its model is not installed."""
    from masis.judge.semantic import model_dir  # numpy loads with it: only for a question with a word no passage has

    directory = model_dir()
    if directory is None:
        return frozenset()
    try:
        text = (directory / "vocab.txt").read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return frozenset()
    return frozenset(token for token in text.split() if token.isalpha())


def unknown_names(
    asked: Question,
    absent: Iterable[int],
    workspace_words: Callable[[str], Iterable[str]],
    ordinary: frozenset[str],
) -> list[str]:
    """The words of the question's `absent` terms (those no passage holds) that name something: not `ordinary`, not
    two ordinary words run together, and not a misspelling of one of the `workspace_words` that start like it."""
    if not ordinary:
        return []
    found: list[str] = []
    for term in absent:
        for word in asked.surface.get(term, ()):
            if len(word) < MIN_NAME or word in ordinary or _run_together(word, ordinary):
                continue
            if any(related(word, other) for other in workspace_words(word[:SHARED_START])):
                continue
            found.append(word)
    return list(dict.fromkeys(found))


def _run_together(word: str, ordinary: frozenset[str]) -> bool:
    """Whether `word` is two ordinary words written as one ("keytype", "lockfile", "filesize")."""
    return any(
        word[:cut] in ordinary and word[cut:] in ordinary for cut in range(MIN_PART, len(word) - MIN_PART + 1)
    )
