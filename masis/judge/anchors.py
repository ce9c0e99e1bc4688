"""Anchors: the exact constraints a question names (versions, codes, figures, flags, acronyms, proper names).

"What changed in release 2.4.0?", "What is the price of part KX-4471-B?", "Who runs the Santiago office?": the
version, the code and the name are not ordinary words whose look-alikes may stand in for them. An answer that
quotes the 2.1.0 section, another part's row or another office is wrong however many other words it shares, so
an anchor must be held by what the answer quotes: the sentence, the passage it sits in and that passage's
heading, or its document's name. A table row is a record of its own: an anchor must be in the row itself (or
the heading and the document's name), not in a neighbouring row of the same passage.

Matching survives formatting: both sides are read as runs of letters and runs of digits, lower-cased, so
`3.19.0` is held by "Release 3.19.0 (11 Apr 2022)", `22.04` by "22.04 LTS", `KX-4471-B` by "kx 4471 b", `v11.6.0`
by "11.6.0", and `FY2026` by "FY 2026".
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator, Sequence
from functools import lru_cache
from itertools import pairwise

from masis.judge.matching import related
from masis.judge.sentences import is_table_row
from masis.judge.tables import without_row_range
from masis.judge.terms import terms
from masis.state import EvidenceChunk

_TOKEN = re.compile(r"\S+")
_EDGE_PUNCTUATION = "?!,;:\"'()[]{}“”‘’«»*`"
_POSSESSIVE = re.compile(r"['’]s$")
_PARTS = re.compile(r"[^\W\d_]+|\d+")
_CODE = re.compile(r"\w[._:/]\w|\w_\w|\(\)$")
_LEADING_V = re.compile(r"^v(?=\d)", re.IGNORECASE)
_FLAG = re.compile(r"^--?\w|^\+[A-Za-z]")  # "-5", "-B", "--max-old-space-size"; dig(1)'s "+short"
# `fs.readFile`, `PRIORITY_LOW`, and a setting written in camel case (`sessionResume`: not held by "sessiond")
_IDENTIFIER = re.compile(r"[A-Za-z][.:/][A-Za-z]|[A-Za-z0-9]_[A-Za-z0-9]|^[a-z]+[A-Z][a-z]")
# What a bare number ("Debian 12") is not held by: an ISO date's month and day, a dotted version's later parts
# ("3.12.6" holds 3, not 12; "v20.1.0" holds 20)
_DATE_MONTH_DAY = re.compile(r"\b(\d{4})-\d{2}-\d{2}\b")
_LATER_VERSION_PARTS = re.compile(r"(?<=\d)(?:\.\d+)+")
# a written date's day ("Sep 12 2012", "September 12th, 2012", "12 Sep 2012"): its year stays
_MONTH_NAME = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]{0,6}\.?"
_WRITTEN_DATE_DAY = re.compile(
    rf"\b(?:{_MONTH_NAME}\s+\d{{1,2}}(?:st|nd|rd|th)?,?|\d{{1,2}}(?:st|nd|rd|th)?\s+{_MONTH_NAME},?)\s+(\d{{4}})\b",
    re.IGNORECASE,
)
# Capitalised words that start or frame a question rather than name something in it.
_NOT_NAME_WORDS = (
    "i a what which who whom whose when where why how is are was were do does did can could would should will "
    "i've i'm i'd i'll "
    "shall may might must has have had the an in on at of for to from by with about according and or but if "
    "tell give show list name please hey hi hello thanks so ok okay also just "
    "our my your their we they this these those there here "
    # months and days name a date, which its figures pin down; "Sept" is written "September" in documents
    "january february march april june july august september october november december jan feb mar apr jun "
    "jul aug sep sept oct nov dec monday tuesday wednesday thursday friday saturday sunday"
)
NOT_NAMES = frozenset(_NOT_NAME_WORDS.split())


def parts(text: str) -> list[str]:
    """Runs of letters and runs of digits, lower-cased and without accents ("Möngke" ~ "Mongke"): what an anchor
    and a text are compared by."""
    return list(_parts(text))


@lru_cache(maxsize=4096)
def _parts(text: str) -> tuple[str, ...]:
    """`parts`, kept for the texts met recently: an audit asks whether each quote holds each anchor."""
    folded = unicodedata.normalize("NFKD", text)
    if not folded.isascii():
        folded = "".join(char for char in folded if not unicodedata.combining(char))
    return tuple(part.lower() for part in _PARTS.findall(_LEADING_V.sub("", folded)))


def anchor_spans(question: str) -> list[tuple[int, int]]:
    """Where each anchor of the question stands (start, end), as `anchors` reads them, in order."""
    return list(_anchor_spans(question))


@lru_cache(maxsize=1024)  # an ask's agents and judges read the same question's anchors about fifty times
def _anchor_spans(question: str) -> tuple[tuple[int, int], ...]:
    spans: list[tuple[int, int]] = []
    sentence_start = True
    matches = list(_TOKEN.finditer(question))
    for index, match in enumerate(matches):
        raw = match.group(0)
        token = _POSSESSIVE.sub("", raw.strip(_EDGE_PUNCTUATION)).rstrip(".")
        starts = sentence_start
        # a colon starts no sentence in a question: "Which algorithm does GNU diff use: Myers, patience or
        # histogram?" names Myers
        sentence_start = raw.rstrip("\"')]”’").endswith((".", "?", "!"))
        if token and parts(token) and (
            _is_anchor(token, starts) or _dated_month(token, matches, index) or _named_letter(token, matches, index)
        ):
            start = match.start() + raw.find(token)
            spans.append((start, start + len(token)))
    return tuple(_days_with_their_months(question, spans))


# the nouns a one-letter code is asked by: "the process state code I", "the validity letter A"
_LETTER_NOUNS = frozenset({"code", "letter", "flag", "character"})


def _named_letter(token: str, matches: Sequence[re.Match[str]], index: int) -> bool:
    """Whether `token` is a capital letter that a code noun names ("What does the process state code I mean?"): a
    code, not the pronoun or the article that `NOT_NAMES` keeps out."""
    return len(token) == 1 and token.isupper() and index > 0 and matches[index - 1].group(0).lower() in _LETTER_NOUNS


def _days_with_their_months(question: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The spans, a date's day joined to its month ("1 Jan", "Sep 12"): one anchor, held by that day of that month
    (`_holds_day`), where a bare "12" is not held by the day of "Sep 12 2012"."""
    joined: list[tuple[int, int]] = []
    for start, end in spans:
        if joined:
            before = question[joined[-1][0] : joined[-1][1]]
            pair = f"{before} {question[start:end]}"
            if question[joined[-1][1] : start].strip() == "" and _day_month(pair) is not None:
                joined[-1] = (joined[-1][0], end)
                continue
        joined.append((start, end))
    return joined


_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
           "november", "december")


def month_number(token: str) -> int | None:
    """The month a word names, written out or shortened to three letters ("sep", "Sept", "September"): 1-12, or
    None ("Marc" is a name)."""
    lower = token.lower().rstrip(".")
    if lower == "sept":
        return 9
    return next((number for number, month in enumerate(_MONTHS, 1) if lower in (month, month[:3])), None)


def _dated_month(token: str, matches: Sequence[re.Match[str]], index: int) -> bool:
    """A month written beside a year or a day ("the Sept 2022 release", "on 3 March"): a constraint like the year,
    which a row of another month does not meet. A month alone ("in May") is left a word. `matches` are the
    question's tokens, `index` the month's place among them."""
    if month_number(token) is None:
        return False
    beside = (matches[i].group(0).strip(_EDGE_PUNCTUATION) for i in (index - 1, index + 1) if 0 <= i < len(matches))
    return any(word.isdigit() for word in beside)


def anchors(question: str) -> list[str]:
    """The question's anchors, as written (edge punctuation and a possessive dropped), first seen first.

    An anchor is a token with a digit (a version, a code, a figure, a date, "Q3"), a flag ("--max-old-space-size"),
    an identifier (`fs.readFile`, `MAX_RETRIES`, `open()`), an acronym ("CFO", "HTTP") or a word with inner capitals
    ("PostgreSQL"), or a capitalised word that does not start the question or a sentence of it ("Santiago")."""
    return list(dict.fromkeys(question[start:end] for start, end in _anchor_spans(question)))


_BOUND_GAP = 2  # words a document may put between a name and its number ("Debian GNU/Linux 11")


def bound(question: str) -> list[str]:
    """A name and the bare number written right after it ("Debian 11", "Windows 11", "Table 3"): one thing, so a
    quote must say the number with that name, not beside another one ("macOS 11" does not hold "Debian 11")."""
    words = [_POSSESSIVE.sub("", m.group(0).strip(_EDGE_PUNCTUATION)) for m in _TOKEN.finditer(question)]
    found = anchors(question)
    return list(dict.fromkeys(
        f"{name} {number}"
        for name, number in pairwise(words)
        if number.isdigit() and name in found and is_name(name)
    ))


def holds_bound(text: str, pair: str) -> bool:
    """Whether `text` says the number of `pair` (a `bound` name and number) within a few words after its name."""
    name, number = pair.rsplit(" ", 1)
    wanted = _parts(name)
    have = _parts(_bare_numbers(text))
    return any(number in have[end : end + 1 + _BOUND_GAP] for end in _ends_of(have, wanted))


def held_together(pair: str, sentence: str, chunk: EvidenceChunk) -> bool:
    """Whether a quote holds a `bound` pair: the number with the name in the quote or its passage, or, when only the
    heading or the document names it ("version: 12" in distro-info-debian.csv), the number in the quote."""
    body = sentence if is_table_row(sentence) else f"{sentence}\n{chunk['text']}"
    around = read_under(chunk)
    if holds_bound(body, pair) or holds_bound(around, pair):
        return True
    name, number = pair.rsplit(" ", 1)
    return holds(around, name) and not holds(body, name) and holds(body, number)


# a number the question gives as a code: "exit status 1", "exit code 82", "reason code 10", "error 13", "signal 9"
_CODED_NUMBER = re.compile(r"\b(?:status|code|error|errno|signal)\s+(\d+)\b(?![.,]\d)", re.IGNORECASE)


def coded_numbers(question: str) -> list[str]:
    """The numbers the question names as codes ("What does exit status 1 of dpkg-deb mean?"): each is one entry of a
    list of codes, so a quote must say it itself; the passage around the entry of status 2 holds other numbers."""
    return list(dict.fromkeys(match.group(1) for match in _CODED_NUMBER.finditer(question)))


# a release asked of one side of another: "releases after 2.8.2", "bq before 2.0.99", "prior to v3.1"
_RELATIVE_RELEASE = re.compile(
    r"\b(?P<side>before|prior\s+to|older\s+than|earlier\s+than|after|later\s+than|newer\s+than)\s+"
    r"(?:[A-Za-z][\w.+-]*\s+)?v?(?P<release>\d+(?:\.\d+)+)\b", re.IGNORECASE)
# what bounds a release from above ("until 2.8.2", "2.4.1-2.8.2", "<= 2.8.2", "2.8.2 and earlier") or from below
# ("since 2.0.99", ">= 2.0.99", "2.0.99 and later", "2.0.99+"), read before and after it
_UPPER_BEFORE = re.compile(
    r"(?:\b(?:until|up\s+to|through|thru|to|prior\s+to|before)\s+(?:version\s+)?v?|<=?\s*|\d[-–])$", re.IGNORECASE)
_UPPER_AFTER = re.compile(r"^(?:\s+(?:and|or)\s+(?:earlier|older|below|before|lower)\b)", re.IGNORECASE)
_LOWER_BEFORE = re.compile(
    r"(?:\b(?:since|from|after|starting\s+(?:with|from|at)|as\s+of)\s+(?:version\s+)?v?|>=?\s*)$", re.IGNORECASE)
_LOWER_AFTER = re.compile(r"^(?:\+|\s+(?:and|or)\s+(?:later|newer|above|higher|greater|up)\b)", re.IGNORECASE)


def relative_releases(question: str) -> list[tuple[str, bool]]:
    """The releases the question asks of one side of: (release, True) for "after 2.8.2", (release, False) for
    "before 2.0.99"."""
    return [(m["release"], not m["side"].lower().startswith(("before", "prior", "older", "earlier")))
            for m in _RELATIVE_RELEASE.finditer(question)]


def held_only_on_other_side(texts: Sequence[str], release: str, after: bool) -> bool:
    """Whether the texts that hold `release` (one at least) all name it only as a bound of the other side than the one
    asked (`_bounds_other_side`)."""
    holding = [text for text in texts if holds(text, release)]
    return bool(holding) and all(_bounds_other_side(text, release, after) for text in holding)


def _bounds_other_side(text: str, release: str, after: bool) -> bool:
    """Whether `text` names `release` and only as a bound of the other side than the one asked: for "after 2.8.2",
    "until 2.8.2", "2.4.1-2.8.2", "2.8.2 and earlier"; for "before 2.0.99", "2.0.99 and later", "since 2.0.99"."""
    found = list(re.finditer(rf"(?<![\w.])v?{re.escape(release)}(?![\w.]*\d)", text))

    def other_side(match: re.Match[str]) -> bool:
        before, rest = text[max(0, match.start() - 30) : match.start()], text[match.end() : match.end() + 30]
        if after:
            return bool(_UPPER_BEFORE.search(before) or _UPPER_AFTER.match(rest))
        return bool(_LOWER_BEFORE.search(before) or _LOWER_AFTER.match(rest))

    return bool(found) and all(other_side(match) for match in found)


def latest_anchors(readings: Sequence[str]) -> list[str]:
    """The anchors of a question and the replies that refined it: the latest reading that names any wins, so
    "What changed in 2.4.0?" answered with "I meant 2.1.0" asks about 2.1.0, not both."""
    for text in reversed(readings):
        if found := anchors(text):
            return found
    return []


# A decade or a century written as a figure ("the 1960s", "the early 1200s"): documents also write "the 13th
# century", so it is a period to read, not an exact constraint.
_DECADE = re.compile(r"^'?\d{2,4}['’]?s$")


# a setting's name of three words or more joined by hyphens (`min-release-age-exclude`, `fetch-retry-factor`,
# `line-tables-only`): a key of a reference, where "keep-alive" or "built-in" are words
_SETTING = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+){2,}$")


def _is_anchor(token: str, starts_sentence: bool) -> bool:
    if token.lower() in NOT_NAMES:
        return False  # a question word, however it is capitalised ("WHy", "WHAT")
    if _DECADE.match(token):
        return False
    if any(char.isdigit() for char in token):
        return True
    if token.startswith("-") and len(token) > 1 and token.lstrip("-")[:1].isalpha():
        return True
    if token[:1] == "+" and token[1:2].isalpha():
        return True  # a query option as dig(1) writes it: "+tries", "+short"
    if token[:1] in "@$" and token[1:2].isalpha():
        return True  # a keyword or a variable by its sigil: crontab's `@reboot`, a decorator's `@cache`, `$home`
    if _CODE.search(token) or _SETTING.match(token):
        return True
    letters = [char for char in token if char.isalpha()]
    if len(letters) >= 2 and all(char.isupper() for char in letters):
        return token.lower() not in NOT_NAMES
    if any(char.isupper() for char in token[1:]) and token[:1].isalpha():
        return True  # inner capitals: "PostgreSQL", "readFile", "iPhone"
    if token[:1].isupper() and not starts_sentence:
        return token.lower() not in NOT_NAMES
    return False


_DAY_FIRST = re.compile(r"(?<!\d)(?P<day>\d{1,2})(?:st|nd|rd|th)?[\s-]+(?P<month>[A-Za-z]{3,9})\.?(?![A-Za-z])")
_MONTH_FIRST = re.compile(r"(?<![A-Za-z])(?P<month>[A-Za-z]{3,9})\.?[\s-]+(?P<day>\d{1,2})(?:st|nd|rd|th)?(?!\d)")
_ISO_DAY = re.compile(r"\b\d{4}-(\d{2})-(\d{2})\b")


def _day_month(anchor: str) -> tuple[int, int] | None:
    """The (day, month) an anchor joined by `_days_with_their_months` names ("1 Jan", "Sep 12"), or None."""
    found = _DAY_FIRST.fullmatch(anchor) or _MONTH_FIRST.fullmatch(anchor)
    return None if found is None else _named_day(found)


def _named_day(found: re.Match[str]) -> tuple[int, int] | None:
    """The (day, month) of a `_DAY_FIRST` or `_MONTH_FIRST` match whose word is a month (`month_number`)."""
    day, month = int(found["day"]), month_number(found["month"])
    return (day, month) if month is not None and 1 <= day <= 31 else None


def _holds_day(text: str, day: int, month: int) -> bool:
    """Whether `text` names that day of that month: "1 Jan", "Jan 1st", "January 01", or an ISO date "2017-01-01"."""
    return any(_named_day(found) == (day, month) for pattern in (_DAY_FIRST, _MONTH_FIRST)
               for found in pattern.finditer(text)) or any(
        (int(iso_month), int(iso_day)) == (month, day) for iso_month, iso_day in _ISO_DAY.findall(text))


def holds(text: str, anchor: str) -> bool:
    """Whether `text` holds `anchor`: its parts appear together, in order; a name's plural or possessive counts,
    and an acronym is held by the words it abbreviates ("UMC" by "United Methodist Church"); a month by its name
    written out or shortened, or by an ISO date of that month ("Sept" by "2022-Sep-23", "September 9" or
    "2022-09-23")."""
    if (day_month := _day_month(anchor)) is not None:
        return _holds_day(text, *day_month)
    if len(forms := anchor.split("/")) > 1 and all(_FLAG.match(form) for form in forms):
        # a flag's short and long forms ("-M/--memory"): a manual writes them apart ("-M#, --memory=#"), and either
        # names the option
        return any(holds(text, form) for form in forms)
    if len(forms) == 2 and all(_PATH_PART.match(form) for form in forms):
        # two names joined by a slash are said apart: a property under its section ("builds/timeout": "timeout" under
        # "[builds]"), or a pair of things ("UID/GID", "apache/bsd")
        return all(holds(text, form) for form in forms)
    if _spelled_out(text, anchor) or _written_apart(text, anchor):
        return True
    if (month := month_number(anchor)) is not None and anchor.isalpha():
        return _holds_month(text, month)
    if _FLAG.match(anchor):
        # a flag is held as written: "-5" is not the 5 of "1.5" or of "-9 … 5 MB", and "-v" is not "-V"; a letter's
        # flag also with its figure run on ("-I4" holds strace's -I, "-O2" gcc's -O)
        value = r"\d*" if _LETTER_FLAG.match(anchor) else ""
        return re.search(rf"(?<![\w-]){re.escape(anchor)}{value}(?![\w-])", text) is not None
    if "::" in anchor.strip(":"):
        return re.search(rf"(?<![\w:]){re.escape(anchor)}(?![\w:])", text, re.IGNORECASE) is not None \
            or _scoped(text, anchor)
    if _IDENTIFIER.search(anchor):
        # `timeout.close()`, `http.Agent`, `PRIORITY_LOW` are held as written, not by "the timeout, close it"; a
        # dotted name also run together, and a snake-case one with hyphens, as a file or a package names it ("Node.js"
        # by "nodejs-http.md", "node_exporter" by "prometheus-node-exporter-CHANGELOG.md"); a setting named with its
        # "=" is held where it is given a value ("SYSEXT_SCOPE=" by "SYSEXT_SCOPE=system portable")
        bare = anchor.removesuffix("()").removesuffix("=")
        forms = {re.escape(bare), re.escape(re.sub(r"[.:/]", "", bare)), re.escape(bare.replace("_", "-"))}
        return any(re.search(rf"(?<!\w){form}(?!\w)", text, re.IGNORECASE) for form in forms)
    wanted = _parts(anchor)
    if not wanted:
        return True
    if _RELEASE.match(anchor) and (_only_prereleases(text, anchor) or _only_later_parts(text, anchor)):
        return False
    if any(c.isdigit() for c in anchor):
        text = _SECTION_NUMBER.sub(r"\1", text)
    have = _parts(_bare_numbers(text) if anchor.isdigit() else text)
    return any(True for _ in _ends_of(have, wanted))


def _scoped(text: str, key: str) -> bool:
    """Whether `text` holds a scoped key ("Acquire::MaxReleaseFileSize") as a reference under its group writes it: its
    last part as a name of its own ("MaxReleaseFileSize The maximum file size …") and each scope somewhere around it
    ("The Acquire group of options …", "Acquire::Languages")."""
    *scopes, name = key.split("::")
    return bool(scopes) and all(
        re.search(rf"(?<![\w:]){re.escape(part)}(?![\w])", text, re.IGNORECASE) for part in scopes
    ) and re.search(rf"(?<![\w:]){re.escape(name)}(?![\w:])", text) is not None


# a release written with dots ("1.7.0", "v2.4"), and what makes a text's mention of it another release: a pre-release
# tag after it ("1.7.0-beta.1", "2.0.0rc1", "3.1.0.dev2") names a build before the release asked about
_RELEASE = re.compile(r"^v?\d+(?:\.\d+)+$", re.IGNORECASE)
_PRERELEASE_TAG = re.compile(r"[-.~+]?(?:alpha|beta|rc|pre|preview|dev|next|canary|nightly|a\d|b\d)", re.IGNORECASE)


def _only_prereleases(text: str, release: str) -> bool:
    """Whether every mention of `release` in `text` is a pre-release of it (and there is one)."""
    bare = _LEADING_V.sub("", release)
    found = [m.end() for m in re.finditer(rf"(?<![\w.])(?:v|V)?{re.escape(bare)}(?![\d])", text)]
    return bool(found) and all(_PRERELEASE_TAG.match(text, end) for end in found)


def _only_later_parts(text: str, release: str) -> bool:
    """Whether every mention of `release` in `text` is the later part of a longer version (and there is one): ccache
    3.2.4 is no release of ccache 2.4."""
    bare = _LEADING_V.sub("", release)
    found = [m.start() for m in re.finditer(rf"(?<!\d){re.escape(bare)}(?!\d)", text)]
    return bool(found) and all(re.match(r"\d\.", text[max(0, start - 2) : start]) for start in found)


# a FAQ's or a manual's section number opening a line ("4.4. Is the chronyc / chronyd protocol documented
# anywhere?", "? 4.4. Is …" in its contents): no version of anything
_SECTION_NUMBER = re.compile(r"(?m)^(\s*(?:[?*•o-]\s+)?)\d+(?:\.\d+)+\.(?=\s+[A-Z])")


_MONTH_WORD = re.compile(r"(?<![^\W\d_])[A-Za-z]{3,9}(?![^\W\d_])")  # a month's name: 3 to 9 letters
_ISO_MONTH = re.compile(r"\b\d{4}-(\d{2})(?:-\d{2})?\b")


def _holds_month(text: str, month: int) -> bool:
    return any(month_number(word) == month for word in _MONTH_WORD.findall(text) if word.lower() != "may"
               or month == 5) or any(int(found) == month for found in _ISO_MONTH.findall(text))


def _bare_numbers(text: str) -> str:
    """`text` with what does not hold a bare number taken out: a date's month and day (ISO or written: "return code
    12" is not held by "Sep 12 2012"), a version's later parts."""
    return _LATER_VERSION_PARTS.sub("", _WRITTEN_DATE_DAY.sub(r"\1", _DATE_MONTH_DAY.sub(r"\1", text)))


def _ends_of(have: Sequence[str], wanted: Sequence[str]) -> Iterator[int]:
    """Where each run of `have` that matches `wanted` part by part (`_same_part`) ends, first seen first."""
    size = len(wanted)
    if not size:
        yield from range(len(have) + 1)
        return
    first = wanted[0]
    for start in range(len(have) - size + 1):
        if _same_part(have[start], first) and all(_same_part(have[start + i], wanted[i]) for i in range(1, size)):
            yield start + size


_JOINERS = r"(?:\s+(?:of|and|for|the|de|du|&)\s+|\s+|-)"


def _spelled_out(text: str, acronym: str) -> bool:
    """An acronym's words in the text, their initials in order ("National Science Foundation" for "NSF")."""
    if not (2 <= len(acronym) <= 6 and acronym.isalpha() and acronym.isupper()):
        return False
    words = _JOINERS.join(rf"{letter}[a-z]+" for letter in acronym)
    return re.search(rf"\b{words}\b", text) is not None


_LETTER_FLAG = re.compile(r"^-[A-Za-z]$")
_PATH_PART = re.compile(r"^[A-Za-z][\w-]*$")  # a name on either side of a slash ("builds/timeout"), not a path's "/"
_APART_MIN = 3  # the fewest letters of the first half of a word written apart


def _written_apart(text: str, word: str) -> bool:
    """A word run together as two ("symlinks", "filesystem", "hostname", "regex") held by its halves written apart, the
    first one whole or cut short: "symbolic links", "file system", "host name", "regular expression". A name the user
    types in plain words is an anchor when it is no ordinary word; the document says it the long way ("-P Never follow
    symbolic links")."""
    if not (word.isalpha() and word.islower() and len(word) >= 5):
        return False
    if not word.isascii():
        return any(_apart_pattern(word, cut).search(text) is not None for cut in range(_APART_MIN, len(word) - 1))
    # the text's pairs of words written apart, read once per text, stand in for a pattern per word and cut (a new
    # word's patterns miss re's cache, and compiling them was a tenth of an ask)
    pairs = _pairs_written_apart(text).get(word[:_APART_MIN], ())
    return any(first.startswith(word[:cut]) and _second_half(second, word[cut:])
               for cut in range(_APART_MIN, len(word) - 1) for first, second in pairs)


def _apart_pattern(word: str, cut: int) -> re.Pattern[str]:
    """`word` cut at `cut`, written apart: the second half whole ("links"), or cut short too when it is two or three
    letters ("regex": "regular expression")."""
    return re.compile(rf"\b{word[:cut]}[a-z]*[ -]{word[cut:]}{'[a-z]*' if len(word) - cut <= 3 else 's?'}\b",
                      re.IGNORECASE)


def _second_half(written: str, half: str) -> bool:
    """What `_apart_pattern` asks of the second word: the half whole or with an "s", or any word it begins when it is
    two or three letters."""
    return written.startswith(half) if len(half) <= 3 else written in (half, half + "s")


_TWO_WORDS = re.compile(r"(?<!\w)([a-z]+)[ -](?=([a-z]+)(?!\w))", re.IGNORECASE)
# the letters re's IGNORECASE takes for a-z beside their capitals, folded as re folds them
_AS_ASCII = str.maketrans({"\u0130": "i", "\u0131": "i", "\u017f": "s", "\u212a": "k"})


@lru_cache(maxsize=256)
def _pairs_written_apart(text: str) -> dict[str, tuple[tuple[str, str], ...]]:
    """Every two words of letters in `text` with one space or hyphen between them, lower-cased and grouped by the first
    word's first `_APART_MIN` letters: what `_apart_pattern` could match, read in one pass."""
    grouped: dict[str, list[tuple[str, str]]] = {}
    for found in _TWO_WORDS.finditer(text):
        first, second = (found[group].translate(_AS_ASCII).lower() for group in (1, 2))
        grouped.setdefault(first[:_APART_MIN], []).append((first, second))
    return {start: tuple(pairs) for start, pairs in grouped.items()}


@lru_cache(maxsize=1 << 16)
def _same_part(have: str, wanted: str) -> bool:
    """The same run; for words, also a plural or a derived form ("Russia" ~ "Russian", "America" ~ "American")."""
    if have == wanted:
        return True
    if have.isdigit() or wanted.isdigit() or min(len(have), len(wanted)) < 4:
        return False
    longer, shorter = (have, wanted) if len(have) > len(wanted) else (wanted, have)
    return (longer.startswith(shorter) and longer[len(shorter) :] in {"s", "es", "n", "an", "ns", "ans"}) or (
        min(len(have), len(wanted)) >= 5 and related(have, wanted)
    )


# a flag, a constant, a call, a code; or a member written in lower case (`timeout.close`, `fs.readFile`), unlike a
# product's name with a dot in it ("Node.js", "ASP.NET")
_KEY = re.compile(r"^--?\w|_|\(\)$|[A-Za-z].*\d|\d.*[A-Za-z]|^[a-z]\w*[.:/][A-Za-z]")
# an option's or a field's name in lower camel case (`keepAliveTimeout`, `statusCodes`), not a brand written so
# ("macOS", "iPhone", "mRNA")
_CAMEL_KEY = re.compile(r"^[a-z]{2,}(?:[A-Z][a-z0-9]+)+$")
_CAMEL_KEY_MIN = 7


def is_key(anchor: str) -> bool:
    """An anchor that keys an entry of a reference: a flag (`--show-size`), an identifier (`PRIORITY_ABOVE_NORMAL`,
    `open()`) or a code (`DEP0005`, `KX-4471-B`); not a name, an acronym or a figure, which a document may give once
    for all its entries; a setting (`_SETTING`) is one too."""
    return bool(_KEY.search(anchor) or _SETTING.match(anchor))


def is_entry_key(anchor: str) -> bool:
    """A key (`is_key`), or a name in lower camel case (`_CAMEL_KEY`: undici's `keepAliveTimeout`), which opens its own
    entry of a reference: on the line of `keepAliveMaxTimeout`, "the maximum allowed `keepAliveTimeout`" only names
    it. Unlike a key, a question may name one in passing ("… when dualStack is false"), so a value's quote need not
    hold it."""
    return is_key(anchor) or (len(anchor) >= _CAMEL_KEY_MIN and _CAMEL_KEY.match(anchor) is not None)


# "npm ls's include option", "the depth setting", "CAKE's pppoa-llc keyword": a plain word a question calls an option
# keys its entry as a flag does
_NAMED_SETTING = re.compile(
    r"(?<![\w'’.-])([a-z][a-z0-9]+(?:[-_][a-z0-9]+)*)\s+(?:option|setting|parameter|field|config|key|keyword|directive)\b"
    r"(?!\s+(?:files?|dir|directory|path)\b)")  # "its config file" names a file
_NOT_SETTING = frozenset(
    ["the", "a", "an", "this", "that", "which", "what", "each", "every", "any", "default", "same", "other", "new",
     "old", "main", "global", "its", "their", "his", "her", "my", "our", "your", "these", "those", "does", "do", "did",
     "is", "are", "was", "were", "can", "will", "would", "should", "could", "must", "may", "has", "have", "had", "when",
     "how", "why", "where", "who", "without", "with", "by", "for", "of", "to", "in", "on",
     # the kind of option, not its name: "Which command-line option of the cssesc binary …?" (kitdocs tune kt-043)
     "command-line", "commandline", "cli", "runtime", "run-time", "build-time", "compile-time", "boolean", "required",
     "optional", "deprecated", "only", "single", "another", "some", "one", "no"]
)


def named_settings(question: str) -> list[str]:
    """The plain words the question calls an option, a setting or a field by ("What is the default value of npm ls's
    include option?" -> "include"), which key a reference's entry like a flag (`is_key`)."""
    return [word for word in _NAMED_SETTING.findall(question) if word not in _NOT_SETTING]


def is_name(anchor: str) -> bool:
    """A capitalised word ("Kestrel", "Santiago"): unlike a version, a code or an acronym, the subject of a whole
    document may be named only in its first lines, so a passage of it holds the name through its document. A month
    names no document's subject."""
    return anchor.isalpha() and anchor[:1].isupper() and not anchor.isupper() and month_number(anchor) is None


def missing(question_anchors: Sequence[str], quotes: Sequence[tuple[str, EvidenceChunk]]) -> list[str]:
    """The anchors that no quote holds, each quote read in its context (`quote_context`); a name also counts as
    held when the quote's document holds it (the researcher's `context_terms`)."""
    contexts = [quote_context(sentence, chunk) for sentence, chunk in quotes]
    in_documents = set().union(*(chunk.get("context_terms", []) for _, chunk in quotes)) if quotes else set()
    return [
        anchor
        for anchor in question_anchors
        if not any(holds(context, anchor) for context in contexts)
        and not any(held_by_document(anchor, chunk) for _, chunk in quotes)
        and not (is_name(anchor) and (found := terms(anchor)) and found <= in_documents)
    ]


def held_by_document(anchor: str, chunk: EvidenceChunk) -> bool:
    """Whether the passage's document itself is what the anchor names: a module's member documented under its
    heading on the module's page, or the README a wheel's `METADATA` is."""
    return _member_of_document(anchor, chunk) or _readme(anchor, chunk)


def _readme(anchor: str, chunk: EvidenceChunk) -> bool:
    """Whether "README" is held by the passage's document: a wheel's `METADATA` is its README (PyPI shows it as the
    project's page), as a file named README is."""
    return anchor.lower() == "readme" and re.search(r"readme|metadata", chunk["doc_name"], re.IGNORECASE) is not None


_MEMBER = re.compile(r"^([a-z][a-z0-9]*)\.([A-Za-z_]\w*)$")  # `http.Agent`, `fs.readFile`: a module's member


def _member_of_document(anchor: str, chunk: EvidenceChunk) -> bool:
    """Whether the passage documents `module.Member`: its document is the module's page ("nodejs-http.md") and its
    section heading names the member as written ("new Agent([options])" under the page's "Class: http.Agent")."""
    member = _MEMBER.match(anchor.removesuffix("()"))
    if not member:
        return False
    module, name = member.groups()
    page = re.search(rf"(?<![^\W_]){re.escape(module)}(?![^\W_])", chunk["doc_name"], re.IGNORECASE)
    return page is not None and re.search(rf"(?<!\w){re.escape(name)}(?!\w)", chunk.get("section") or "") is not None


def alone(chunk: EvidenceChunk, text: str) -> EvidenceChunk:
    """`chunk` read as `text` alone: a quote's own reading keeps its heading and document name, not the rest of its
    passage nor the terms its document holds elsewhere."""
    return {**chunk, "text": text, "context_terms": []}  # type: ignore[typeddict-item]


def read_under(chunk: EvidenceChunk) -> str:
    """What any quote of a passage is read under: its section heading, its document's title (the top of its heading
    path) and its document's name."""
    return "\n".join([without_row_range(chunk.get("section") or ""), chunk.get("title") or "", chunk["doc_name"]])


def quote_context(sentence: str, chunk: EvidenceChunk) -> str:
    """What a quoted sentence is read with: itself, what its passage is read under (`read_under`) and its passage,
    unless it is a table row, a record of its own."""
    around = [sentence, read_under(chunk)]
    if not is_table_row(sentence):
        around.append(chunk["text"])
    return "\n".join(around)


_LISTED_TOKEN = re.compile(r"[^\s\[\](){}`'\",;]+")


def _key_shape(token: str) -> str | None:
    """The family a key belongs to, for telling a list of keys: a flag, a constant, a member, a camelCase name."""
    if _FLAG.match(token):
        return "flag"
    if "_" in token and token.upper() == token:
        return "constant"
    if _IDENTIFIER.search(token) and "." in token:
        return "member"
    if token[:1].islower() and any(c.isupper() for c in token[1:]):
        return "camel"
    return None


def listed_only(text: str, key: str) -> bool:
    """Whether `text` only lists `key` among keys of its kind, a later one of which its value belongs to:
    "AES_MIN_KEY_SIZE AES_MAX_KEY_SIZE AES_KEY_SIZE Default AES key size, 32" gives AES_KEY_SIZE's value. Keys in a
    list stand side by side (a label between them at most); one that running words name ("--columns … renamed to
    --output-width since: v2.30", "recvBufferSize and sendBufferSize default to 8192") is not another entry."""
    shape = _key_shape(key)
    if shape is None:
        return False
    tokens = [match.group(0).rstrip(".:") for match in _LISTED_TOKEN.finditer(text)]
    at = next((index for index, token in enumerate(tokens) if token.endswith(key) or token == key), None)
    if at is None:
        return False
    # a flag's other spelling in brackets after it is the same entry: "the --keep (-k) option"
    alias = re.search(rf"{re.escape(key)}\s*\(\s*(--?[A-Za-z][\w-]*)\s*\)", text)
    other, last = False, at  # a later key of the same kind listed before the first value; the last key's index
    for index in range(at + 1, len(tokens)):
        token = tokens[index]
        if re.search(r"\d", token) and _key_shape(token) is None:
            return other
        if _key_shape(token) == shape and token != key and not (alias and token == alias.group(1)):
            between = tokens[last + 1 : index]
            if len(between) > 1 or any(word[:1].islower() for word in between):
                return other
            other, last = True, index
    return False
