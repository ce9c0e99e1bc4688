"""Swapped names: a quote that says the question's words about another name answers another question.

"Who runs the Santiago office?" is not answered by "Ana Ruiz runs the Oslo office", even when the staff list
names Santiago two rows down; "What did Toyota rebrand its Forte as?" is not answered by "Mitsubishi rebranded
its Forte as the Dodge D-50", "Minister Robert Dinwiddie" is not "Governor Robert Dinwiddie". The name the
question gives stands beside a word of it ("Santiago office", "Toyota rebrand"); when the quote holds that word
with another name in the name's place, and not the question's name, the quote is about the other one.

A code is swapped the same way: "When was OC-12c upgraded?" is not answered by "… went on to upgrade the entire
backbone to OC-48c", though the sentence before it names OC-12c, nor "What does error E1042 mean?" by "Error E1043
means the disk is full". The quote that says the question's other words holds a code of the same letters and shape in
place of the question's, and not the question's (nor does its heading or document name).

A version after a name is swapped too: "Which Zip 3.0 option turns on AES encryption?" is not answered by "… the list
for Zip 3.1: AES encryption", though the file's first line is about Zip 3.0. A sentence that names its own release
is about that release, whatever its heading says.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from itertools import pairwise

from masis.judge.anchors import NOT_NAMES, anchors, holds, parts
from masis.judge.answer_type import AnswerType, expected_type, gives_type
from masis.judge.contrast import in_closed_set
from masis.judge.mentions import DO_MODALS
from masis.judge.stopwords import STOP_WORDS
from masis.judge.support import answering
from masis.judge.terms import question_terms, terms
from masis.state import EvidenceChunk

# a flag keeps its dashes: "Massif's --depth option" puts no word "depth" beside Massif ("Maximum depth of …")
_TOKEN = re.compile(r"(?:(?<![\w-])--?(?=[A-Za-z]))?[A-Za-z0-9](?:[\w&.-]*\w)?(?:['’]s)?")
_CONTEXT = 2  # a name's neighbour: the next word of content, after at most one stop word ("TRANSPAC and TYMNET")


@lru_cache(maxsize=4096)
def stem(word: str) -> frozenset[int]:
    """A word's BM25 term ids (its stem), cached."""
    return terms(word)


def tokens(text: str) -> list[str]:
    """A text's words, a possessive dropped ("Toyota's" -> "Toyota")."""
    return [re.sub(r"['’]s$", "", token) for token in _TOKEN.findall(text)]


def is_name(token: str) -> bool:
    """A capitalised word that names something (not "What", "September")."""
    return token[:1].isupper() and token.lower() not in NOT_NAMES and bool(stem(token))


def _same(have: str, wanted: str) -> bool:
    if have.lower() == wanted.lower():
        return True
    wanted_stem = stem(wanted)
    return bool(wanted_stem) and stem(have) == wanted_stem


def _context(words: list[str], index: int, step: int) -> list[str]:
    """The words beside words[index] in direction `step`, up to and with the first word of content."""
    found: list[str] = []
    position = index + step
    while 0 <= position < len(words) and len(found) < _CONTEXT:
        if words[position].startswith("-"):
            return []  # a flag is matched as written (the anchor floor's), not by its word
        found.append(words[position])
        if stem(words[position]):
            return found
        position += step
    return []


def _in_place(quote: list[str], context: list[str], step: int) -> list[str]:
    """The quote's words that stand where the question's name stands: before (step 1) or after (step -1) the
    question's context words."""
    found: list[str] = []
    for start in range(len(quote)):
        positions = [start + step * offset for offset in range(len(context))]
        if not all(0 <= p < len(quote) and _same(quote[p], word) for p, word in zip(positions, context, strict=True)):
            continue
        slot = start - step
        if 0 <= slot < len(quote):
            found.append(quote[slot])
        # the passive names the doer after the verb: "Telstra started …" / "Started by Telecom Australia"
        after = start + len(context)
        if step == 1 and len(context) == 1 and after + 1 < len(quote) and quote[after].lower() == "by":
            found.append(quote[after + 1 + (quote[after + 1].lower() == "the" and after + 2 < len(quote))])
    return found


def swapped(question: str, quotes: Sequence[str]) -> list[tuple[str, str]]:
    """(question's name, the quote's name in its place) for each name of the question that an answering quote
    (`support.answering`) without it replaces by another name beside the same words, and that no quote holds
    beside them."""
    leading = answering(question, list(quotes)) if quotes else []
    asked = tokens(question)
    asked_lower = {token.lower() for token in asked}
    scoped = {part.lower() for key in _SCOPED_KEY.findall(question) for part in key.split("::")}
    said = [(quote, tokens(quote)) for quote in quotes]
    found: list[tuple[str, str]] = []
    for index, name in enumerate(asked):
        if not is_name(name) or any(char.isdigit() for char in name) or name.lower() in scoped:
            # a model or version ("Heron S1") is the anchor floor's: "Heron Care" is not its swap; so is a scoped key
            # ("Acquire::MaxReleaseFileSize"), whose group names its other settings too ("Acquire::Languages")
            continue
        for step in (1, -1):
            context = _context(asked, index, step)
            if not context:
                continue
            in_place = [(quote, _in_place(quote_words, context, step)) for quote, quote_words in said]
            if any(_same(word, name) for _, words in in_place for word in words):
                continue
            for quote, words in in_place:
                if quote not in leading or holds(quote, name):
                    continue
                for other in words:
                    if (is_name(other) and other.lower() not in asked_lower and not holds(other, name)
                            and not _capital_by_place(quote, other) and (name, other) not in found):
                        found.append((name, other))
    return found


# where any word is written with a capital: a quote's start, after a sentence's end, a label's colon or a field's
# semicolon ("New DNS backend: c-ares", "Breaking: Strict-Transport-Security …", "…; Affected lints: …")
_START_OF_PLACE = r"(?:^|[.:;|!?]\s+|\n)\W*"
# the words changelogs and tables label their entries and fields with (an English word list would take "Mitsubishi"
# at a sentence's start for one too: it lists names)
_LABELS = frozenset({
    "new", "breaking", "affected", "added", "changed", "fixed", "removed", "deprecated", "security", "note", "notes",
    "important", "warning", "updated", "improved", "feature", "features", "bugfix", "bugfixes", "enhancement",
    "enhancements", "other", "misc", "internal", "known",
})


def _capital_by_place(quote: str, word: str) -> bool:
    """Whether `word` is a label capitalised only where it stands: a changelog's ("New", "Breaking"), a table's
    field's ("Affected lints"), not a name in place of the question's."""
    if word.lower() not in _LABELS:
        return False
    found = list(re.finditer(rf"(?<![\w-]){re.escape(word)}(?![\w-])", quote))
    return bool(found) and all(re.search(rf"{_START_OF_PLACE}$", quote[: m.start()]) for m in found)


_SCOPED_KEY = re.compile(r"\w[\w-]*(?:::[\w-]+)+")  # "Acquire::MaxReleaseFileSize", "Unattended-Upgrade::Origins"
_CODE_TOKEN = re.compile(r"[A-Za-z0-9][\w.-]*[A-Za-z0-9]")


def _shape(token: str) -> tuple[str, str]:
    """A code's letters and its shape with every run of figures as one: "OC-12c" and "OC-48c" -> ("occ", "OC-9c")."""
    return re.sub(r"\d+", "", token).lower(), re.sub(r"\d+", "9", token)


def swapped_codes(question: str, quotes: Sequence[tuple[str, EvidenceChunk]]) -> list[tuple[str, str]]:
    """(question's code, the quote's code in its place) for each code of the question (letters and figures: "OC-12c",
    "E1042") that the quotes saying most of the question's other words do not hold, in themselves, their heading or
    their document's name, while they hold another code of the same letters and shape."""
    codes = [a for a in anchors(question) if re.search(r"\d", a) and re.search(r"[A-Za-z]", a)]
    leading = _leading(question, quotes, codes)
    if not leading:
        return []
    read = ["\n".join([quote, chunk.get("section") or "", chunk["doc_name"]]) for quote, chunk in leading]
    # another code the question names too is no swap: "which lockfileVersion do npm v7 and v8 use?" is answered by
    # "Lockfiles generated by npm v7 will contain lockfileVersion: 2" (conversations tune cv-432#3)
    own = {c.lower() for c in codes}
    found: list[tuple[str, str]] = []
    for code in codes:
        if any(holds(text, code) for text in read):
            continue
        others = sorted({token for quote, _ in leading for token in _CODE_TOKEN.findall(quote)
                         if _shape(token) == _shape(code) and token.lower() not in own})
        found.extend((code, other) for other in others[:1])
    return found


def _leading(
    question: str, quotes: Sequence[tuple[str, EvidenceChunk]], asked: Sequence[str]
) -> list[tuple[str, EvidenceChunk]]:
    """The quotes that say most of the question's words other than `asked` (its codes, its versions): the ones that
    answer it; [] when there are no such words or no quote says any."""
    if not asked or not quotes:
        return []
    rest = question_terms(question) - set().union(*(terms(word) for word in asked))
    counts = [len(rest & terms(quote)) for quote, _ in quotes]
    if not rest or max(counts) == 0:
        return []
    return [(quote, chunk) for (quote, chunk), count in zip(quotes, counts, strict=True) if count == max(counts)]


_VERSION = re.compile(r"^v?\d+(?:\.\d+)+[a-z]?$", re.IGNORECASE)  # "3.0", "2.4.0", "v20.1", "3.0a"
_DOTTED_DATE = re.compile(r"^(?:19|20)\d\d\.\d{1,2}\.\d{1,2}$")  # "2015.04.01": a day, not a release
_RELEASE_WORDS = frozenset({"release", "version", "v", "ver"})


# a major version a "v" marks, after a package's lower-case name: "libjpeg v9", "node v20"
_MAJOR = re.compile(r"^v\d+$", re.IGNORECASE)
_PACKAGE = re.compile(r"^[a-z][a-z0-9+_-]*[a-z0-9]$")


def _versioned(words: list[str]) -> list[tuple[str, str]]:
    """(name, version) for each version written right after a name or "release"/"version" ("Zip 3.0", "release
    2.4.0"), and each major version "v9" after a package's lower-case name ("libjpeg v9")."""
    return [(name, version) for name, version in pairwise(words)
            if (_VERSION.match(version) and (is_name(name) or name.lower() in _RELEASE_WORDS))
            or (_MAJOR.match(version) and _PACKAGE.match(name) and name not in STOP_WORDS)]


def _depth(version: str) -> int:
    return version.count(".")


# a release a text counts from rather than speaks of: "Updates since Git 2.35" heads 2.36's notes
_COUNTED_FROM = re.compile(r"\bsince\s+(?:[A-Za-z][\w.+-]*\s+)?v?\d+(?:\.\d+)+", re.IGNORECASE)


def swapped_versions(
    question: str, quotes: Sequence[tuple[str, EvidenceChunk]], wanted: Sequence[str] | None = None
) -> list[tuple[str, str]]:
    """("Zip 3.0", "Zip 3.1") for each version the question names after a name ("Which Zip 3.0 option turns on AES
    encryption?") that the quotes saying most of its other words do not say, while they say another version of the
    same depth after the same name ("… the list for Zip 3.1 …: AES encryption"). The quote names its own release,
    so the heading or the document it sits under cannot lend it the question's one: release notes list many. A release
    it counts from ("Updates since Git 2.35" in 2.36's notes) is no other release it speaks of.
    `wanted` are the anchors still asked for, when a reply refined them ("I meant 2.1.0")."""
    pairs = [(name, version) for name, version in _versioned(tokens(question)) if wanted is None or version in wanted]
    leading = _leading(question, quotes, [version for _, version in pairs])
    found: list[tuple[str, str]] = []
    for name, version in pairs:
        if any(holds(quote, version) for quote, _ in leading):
            continue
        others = sorted({f"{name} {other}" for quote, _ in leading
                         for said, other in _versioned(tokens(_COUNTED_FROM.sub(" ", quote)))
                         if _same(said, name) and _depth(other) == _depth(version)
                         and parts(other) != parts(version)})
        found.extend((f"{name} {version}", other) for other in others[:1])
    return found


# the kinds of answer a release's line states beside its version ("1.12.1 — March 15, 2021", "3.2.0: 14 fixes")
_PLAIN_KINDS = ("date", "number")


def typed_of_other_release(question: str, quotes: Sequence[tuple[str, EvidenceChunk]]) -> list[tuple[str, str]]:
    """(question's release, the quote's) when the question asks a date or a number of a release ("When was
    Underscore 1.3.2 released?") and every quote giving one names another release (`_another`), not the asked one
    ("1.12.1 — March 15, 2021", "release 4.8 (2020-01-14)" to "When was sed 4.2.1 released?"): the date is that
    release's. A quote that names no release is read under its section's heading ("for at least 10 years" under
    "Noteworthy changes in release 4.3 (2016-12-30)", sysdocs sy-021); one whose heading names none either is not
    read so. The quote that names the asked release may sit beside without giving the kind asked for."""
    kind = expected_type(question)
    asked = _releases(question)
    if kind not in _PLAIN_KINDS or not asked:
        return []
    giving = [(claim, chunk) for claim, chunk in quotes if gives_type(claim, kind, question)]
    if not giving:
        return []
    found: list[tuple[str, str]] = []
    for version in asked:
        others = [_other_releases(claim, chunk, version) for claim, chunk in giving]
        if all(other and _dates_another(claim, kind, question, version)
               for (claim, _), other in zip(giving, others, strict=True)):
            found.append((version, others[0][0]))
    return found


def _other_releases(claim: str, chunk: EvidenceChunk, version: str) -> list[str]:
    """The releases other than `version` that `claim` names; for a claim that names none, those its section's heading
    names when it names no other ("Changes between GMP version 6.1.* and 6.2.0" heads 6.2.0's changes)."""
    if said := _releases(claim):
        return [token for token in said if _another(token, version)]
    heading = _releases(chunk.get("section") or "")
    return heading if all(_another(token, version) for token in heading) else []


def _releases(text: str) -> list[str]:
    return [token for token in tokens(text) if _VERSION.match(token)]


def _dates_another(claim: str, kind: AnswerType, question: str, version: str) -> bool:
    """Whether the value `claim` gives is another release's: it does not name the asked `version`, or every part of
    it that gives the value runs from another release (`_owners`)."""
    if not holds(claim, version):
        return True
    owners = _owners(claim, kind, question, version)
    return bool(owners) and all(parts(owner) != parts(version) for owner in owners)


def _another(token: str, version: str) -> bool:
    """Whether the version `token` is another release than `version`: neither is the other or a line it belongs to
    ("4.8" is another release than "4.2.1"; "1.3", the line of "1.3.2", is not), and it is no date written with dots
    ("Release date: 2015.04.01")."""
    said, asked = parts(token), parts(version)
    return said[: len(asked)] != asked and asked[: len(said)] != said and not _DOTTED_DATE.match(token)


def _owners(claim: str, kind: AnswerType, question: str, version: str) -> list[str]:
    """The releases whose part of `claim` gives the kind asked: a part runs from the asked version or another release
    (`_another`) to the next one. Empty when the text before the first version gives it too, so the value may be no
    release's. "(Bug#44754 introduced in grep 3.5) * Noteworthy changes in release 3.6 (2020-11-08)" dates 3.6, not
    3.5."""
    marks = [match for match in _TOKEN.finditer(claim) if _VERSION.match(match.group(0))
             and (parts(match.group(0)) == parts(version) or _another(match.group(0), version))]
    if not marks or gives_type(claim[: marks[0].start()], kind, question):
        return []
    ends = [match.start() for match in marks[1:]] + [len(claim)]
    return [match.group(0) for match, end in zip(marks, ends, strict=True)
            if gives_type(claim[match.start() : end], kind, question)]


_DETERMINERS = frozenset({"the", "a", "an", "this", "that", "each", "every", "our", "its", "their", "your"})
# an adjective's ending: "global" and "worldwide", "annual" and "yearly" describe the same thing in other words, where
# "audio" and "tty" name two groups
_DESCRIBING = re.compile(r"(?:al|ful|ous|ive|ic|ible|able|ary|wide|ish|less|ly|ern|ian)$")


def swapped_modifiers(question: str, quotes: Sequence[str]) -> list[tuple[str, str]]:
    """("audio group", "tty group") for a lower-case word that tells one thing of a kind from another in the question
    ("the audio group") where an answering quote (one holding the most of the question's words, or giving the kind
    of answer asked for) without that word has another in its place ("the tty group must have the GID 5"): the
    quote is about the other group. Both stand between a determiner and the same noun; a
    word of a closed set ("the maximum size") is the contrast floor's, and a word the question also has is no swap.
    When any quote speaks of the thing asked about ("the travel budget"), its neighbours beside it are no swap; nor
    are two words with an adjective's ending (`_DESCRIBING`), nor a capitalised one (the name swap's)."""
    kind = expected_type(question)
    # the quotes that answer: those holding the most of the question's words, and those giving the kind asked for
    leading = dict.fromkeys(
        [*answering(question, list(quotes)), *(q for q in quotes if kind and gives_type(q, kind, question))]
    ) if quotes else {}
    asked = tokens(question)
    asked_lower = {token.lower() for token in asked}
    found: list[tuple[str, str]] = []
    for index in range(1, len(asked) - 1):
        determiner, word, noun = asked[index - 1].lower(), asked[index], asked[index + 1]
        if (determiner not in _DETERMINERS or not word.islower() or not word.isalpha() or in_closed_set(word)
                or _DESCRIBING.search(word)):
            continue
        if index >= 2 and asked[index - 2].lower() in DO_MODALS:
            continue  # "Did the plague spread …?", "What did the network install …?": the subject and its verb
        if not stem(word) or not stem(noun) or not noun.isalpha():
            continue
        if any(holds(quote, f"{word} {noun}") for quote in quotes):
            continue  # a quote speaks of the thing asked about; the others may list its neighbours
        for quote in leading:
            if holds(quote, word):
                continue
            said = tokens(quote)
            for position in range(1, len(said) - 1):
                other = said[position]
                if (said[position - 1].lower() in _DETERMINERS and _same(said[position + 1], noun)
                        and other.islower() and other.isalpha() and other not in asked_lower and stem(other)
                        and not in_closed_set(other) and not _DESCRIBING.search(other)
                        and (pair := (f"{word} {noun}", f"{other} {noun}")) not in found):
                    found.append(pair)
    return found
