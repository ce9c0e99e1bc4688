"""Names written as plain words: "What is the default block size of gzip?", "Which dpkg release implements the
Protected field?", "What target tier does llnode have?".

A word of the question that is no ordinary English word names a thing (a tool, a package, a command), and like a
version or a code it is a constraint, not a word whose look-alikes may stand in for it: the bzip2 manual's block
size does not answer for gzip, nor the libxslt changelog for dpkg. Such a name must be held by what an answer
quotes (`masis.judge.grounding`'s anchor floor); a name no passage of the workspace holds at all is missing from
every answer, and the question is asked back saying so.

An ordinary word is one of pyspellchecker's English word list (160k words with their forms) or of computing's common
nouns it lacks ("url", "api", "json"), the start of one
("repo", "config", "async": abbreviations), or two of them run together ("keytype", "lockfile"); a misspelling of
a word the workspace has ("charecterized") is no name either. Without the list no word is taken for a name.
"""

from __future__ import annotations

import gzip
import itertools
import re
from bisect import bisect_left
from collections.abc import Callable, Iterable, Mapping
from collections.abc import Set as AbstractSet
from functools import lru_cache
from importlib import resources
from string import ascii_lowercase

from masis.judge import anchors
from masis.judge.matching import related
from masis.judge.stopwords import CHAT_CONTRACTIONS

SHARED_START = 3  # a misspelling shares its first letters with the word (`matching.related` asks for more)
MIN_PART = 3  # each of two run-together words has at least this many letters
MIN_NAME = 3  # letters: shorter words are abbreviations and units more often than names
_KEY = re.compile(r'"([^"\\]+)":')
_WORD = re.compile(r"(?<![\w.@/-])[a-z][a-z0-9]*(?![\w@/-]|\.\w)")  # a plain lower-case word, not part of a code


@lru_cache(maxsize=1)
def ordinary_words() -> tuple[str, ...]:
    """pyspellchecker's English words, sorted; empty when the package is not installed or its list cannot be read."""
    try:
        text = gzip.decompress(resources.files("spellchecker").joinpath("resources", "en.json.gz").read_bytes())
    except (ModuleNotFoundError, OSError, EOFError, gzip.BadGzipFile):
        return ()
    # the list is one JSON object of word -> frequency; its keys, read without building the dict (a quarter of the
    # time: this runs once per process, on its first question)
    return tuple(sorted(_KEY.findall(text.decode("utf-8", "replace"))))


def candidates(
    question: str, ordinary: tuple[str, ...], document_words: Callable[[], AbstractSet[str]] = frozenset
) -> list[str]:
    """The question's plain lower-case words that may name something: of `MIN_NAME` letters or more, no ordinary
    word, its start or two run together, and not already an anchor. A word that only looks like the start of an
    ordinary word or two of them run together names something when a document's name in the workspace has it
    (`document_words()`, asked for only then): "certifi" of `certifi-SECURITY.md`, "argcomplete" of
    `argcomplete-SECURITY.md`."""
    if not ordinary:
        return []
    written = {part for anchor in anchors.anchors(question) for part in anchors.parts(anchor)}
    found = [
        word
        for word in _WORD.findall(question)
        if len(word) >= MIN_NAME
        and word not in written
        and (not _ordinary(word, ordinary) or (not _listed(word, ordinary) and word in document_words()))
    ]
    return list(dict.fromkeys(found))


def document_words(document_names: Iterable[str]) -> frozenset[str]:
    """The lower-case words of documents' names ("certifi-SECURITY.md" -> certifi, security, md)."""
    return frozenset(word for name in document_names for word in _name_words(name))


def _name_words(name: str) -> list[str]:
    """A document name's lower-case words and figures, in order ("falcon_x2_datasheet" -> falcon, x2, datasheet)."""
    return re.findall(r"[a-z0-9]+", name.lower())


# a model's code in a file name: a few letters and figures ("x2", "s1", "rt6500"), not a period ("fy2026", "q3") or
# a version ("v2")
_MODEL_CODE = re.compile(r"(?!fy|q\d|h\d|v\d)[a-z]{1,3}\d{1,5}")
_NAME_WORD = re.compile(r"[a-z]{3,}")


def product_names(document_names: Iterable[str]) -> list[str]:
    """The products documents are named after, as a reader writes them: a word and the model code after it
    ("falcon_x2_datasheet.md" -> "Falcon X2", "heron-s1-manual.pdf" -> "Heron S1")."""
    found: list[str] = []
    for name in document_names:
        words = _name_words(name.rsplit(".", 1)[0])  # an extension ("mp3") is no model code
        found += [f"{word.capitalize()} {code.upper()}" for word, code in itertools.pairwise(words)
                  if _NAME_WORD.fullmatch(word) and _MODEL_CODE.fullmatch(code)]
    return list(dict.fromkeys(found))


# a document name's parts: split at hyphens and dots, an underscore kept inside a part ("pg_restore.1.txt")
_NAME_PART = re.compile(r"[^-.]+")


# a model's code or a period in a name is no tool ("falcon_x2_datasheet", "roadmap-q3")
_CODE_OR_PERIOD = re.compile(rf"{_MODEL_CODE.pattern}|fy\d+|q[1-4]|h[12]|v\d+")


def tool_names(document_names: Iterable[str]) -> frozenset[str]:
    """The tools, packages and commands documents are named after, as chat types them (`tool_key`): each lower-case
    part of a name with a word that is no ordinary word, nor the start of one, nor a model's code or a period
    ("aiosqlite-METADATA.rst" -> aiosqlite, "pg_restore.1.txt" -> pg-restore, "csvkit-csvsql.rst" -> csvkit and
    csvsql; not "best_practices" nor "heron_s1_datasheet"), and the leading parts joined once one is a tool's
    ("python-dotenv-METADATA.md" -> python-dotenv; not "returns-policy"). Empty without the word list."""
    ordinary = ordinary_words()
    if not ordinary:
        return frozenset()

    def plain(word: str) -> bool:
        return bool(_CODE_OR_PERIOD.fullmatch(word)) or _listed(word, ordinary) or _starts_one(word, ordinary)

    found: set[str] = set()
    for name in document_names:
        parts = _NAME_PART.findall(name.rsplit(".", 1)[0])
        # a package's metadata or a manual page is named after its tool, even an English word ("ruff-METADATA.md",
        # "make.1.txt", "git-bisect.1.txt")
        own_page = bool(parts) and (parts[-1] == "METADATA" or bool(_MAN_SECTION.fullmatch(parts[-1])))
        named = False
        for count, part in enumerate(parts, 1):
            if not part.islower() or not re.search("[a-z]", part):
                break  # "README", "METADATA", "1": the project's name has ended
            words = part.split("_")  # "pg_restore" is a tool's; "best_practices", two words, is not
            if len(part) >= 2 and ((own_page and count == 1) or not all(
                    plain(word) and (len(word) >= MIN_NAME or len(words) == 1) for word in words)):
                found.add(tool_key(part))
                named = True
            if count > 1 and named:
                found.add(tool_key("-".join(parts[:count])))
    return frozenset(found)


_MAN_SECTION = re.compile(r"[1-9][a-z]{0,3}")


def tool_key(word: str) -> str:
    """A tool's name for comparing: lower case, an underscore as a hyphen."""
    return word.lower().replace("_", "-")


def names(
    words: Iterable[str],
    frequencies: Mapping[str, int],
    workspace_words: Callable[[str], Iterable[str]],
    ordinary: tuple[str, ...] = (),
) -> list[str]:
    """The `candidates` that name something: each held by some passage of the workspace (`frequencies`: how many
    passages hold each word), or held by none and no misspelling of the `workspace_words(start)` that start like it
    nor, one slip away, of an `ordinary` word ("srevice")."""
    return [
        word
        for word in words
        if frequencies.get(word, 0)
        or not (any(related(word, other) for other in workspace_words(word[:SHARED_START])) or _slip(word, ordinary))
    ]


def _slip(word: str, ordinary: tuple[str, ...]) -> bool:
    """Whether one letter left out, added, changed or swapped with the next makes `word` an English word. Not one of
    computing's common terms: a letter added to one is how packages are named ("ujson", "xpath"), not a slip."""
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    variants = {a + b[1:] for a, b in splits if b}
    variants |= {a + b[1] + b[0] + b[2:] for a, b in splits if len(b) > 1}
    variants |= {a + c + b[1:] for a, b in splits if b for c in ascii_lowercase}
    variants |= {a + c + b for a, b in splits for c in ascii_lowercase}
    return any(_in_list(variant, ordinary) for variant in variants - {word} if len(variant) >= MIN_NAME)


def is_ordinary(word: str) -> bool:
    """Whether a lower-case word is an English word or one of computing's common nouns; every word is, when the word
    list is missing (nothing is then taken for a name)."""
    ordinary = ordinary_words()
    return not ordinary or _listed(word, ordinary)


def _ordinary(word: str, ordinary: tuple[str, ...]) -> bool:
    return _listed(word, ordinary) or _starts_one(word, ordinary) or _run_together(word, ordinary)


# computing's common nouns that an English word list lacks: "need the url" names no tool
_COMMON_TERMS = frozenset({
    "url", "urls", "uri", "uris", "api", "apis", "cli", "gui", "json", "yaml", "toml", "html", "xml", "csv", "http",
    "https", "tcp", "udp", "dns", "cpu", "gpu", "ssd", "usb", "sdk", "faq", "pdf",
})


# chat's words that an English word list lacks: a contraction typed without its apostrophe, a short form ("if i dont
# pass any compression flag" names no tool called "dont")
_CHAT_WORDS = CHAT_CONTRACTIONS | {"pls", "plz", "thx", "idk", "btw", "tbh", "afaik", "imo", "imho"}


# British spellings of the list's American words: "organisation", "behaviour", "centre", "analyse" name no tool
# (kitdocs tune kt-022, "Which organisation is the official maintenance agency for ISO 639-3 …?")
_BRITISH = ((re.compile(r"is(e|es|ed|ing|ation|ations|er|ers)$"), r"iz\1"), (re.compile(r"ys(e|es|ed|ing)$"), r"yz\1"),
            (re.compile(r"our(s|ed|ing|ite|ites|able)?$"), r"or\1"), (re.compile(r"tre(s)?$"), r"ter\1"))


def _listed(word: str, ordinary: tuple[str, ...]) -> bool:
    if word in _COMMON_TERMS or word in _CHAT_WORDS or _in_list(word, ordinary):
        return True
    return any(_in_list(american, ordinary) for spelling, us in _BRITISH
               if (american := spelling.sub(us, word)) != word)


def _in_list(word: str, ordinary: tuple[str, ...]) -> bool:
    index = bisect_left(ordinary, word)
    return index < len(ordinary) and ordinary[index] == word


def _starts_one(word: str, ordinary: tuple[str, ...]) -> bool:
    """Whether `word` (or it less a plural s) begins a longer ordinary word: "repo", "config", "deps", "async"."""
    for stem in {word, word.removesuffix("s")}:
        index = bisect_left(ordinary, stem)
        if len(stem) >= MIN_NAME and index < len(ordinary) and ordinary[index].startswith(stem):
            return True
    return False


def _run_together(word: str, ordinary: tuple[str, ...]) -> bool:
    """Whether `word` is two ordinary words written as one ("keytype", "lockfile", "filesize")."""
    return any(
        _listed(word[:cut], ordinary) and _listed(word[cut:], ordinary)
        for cut in range(MIN_PART, len(word) - MIN_PART + 1)
    )
