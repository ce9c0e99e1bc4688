"""Sentences: how a passage or an answer splits into sentences, and which lines are headings, not claims."""

from __future__ import annotations

import re
from functools import lru_cache

from masis.judge.figures import NUMBER
from masis.judge.stopwords import SMART_STOP_WORDS

# A sentence's end: its mark (kept, captured), closing quotes or brackets and the space after it (dropped),
# before what starts a sentence; not after an abbreviation that a name or an example may follow ("e.g.
# Warsaw", "Dr. Smith"), nor after a middle initial (`_INITIAL`). Starting the pattern with the mark rather
# than a look-behind lets the regex engine skip to the next mark: twice as fast.
_ABBREVIATIONS = ("e.g.", "i.e.", "vs.", "Mr.", "Mrs.", "Ms.", "Dr.", "St.", "Mt.", "No.", "cf.", "resp.")
_SENTENCE_END = re.compile(
    r"([.!?])" + "".join(rf"(?<!\b{re.escape(a)})" for a in _ABBREVIATIONS) + r"[\"')\]]*\s+(?=[\"'(\[]?[A-Z0-9])"
)
_INITIAL = re.compile(r"\b[A-Z][a-z]+ [A-Z]\.$")  # "John M." goes on ("Grunsfeld"); "fleet D." ends
# a section's or a list item's number, which goes on with its title ("6.1.1. Functionality", "2. Run it.")
_SECTION_NUMBER = re.compile(r"^\d{1,3}(?:\.\d{1,3})*\.$")
# a line's last sentence mark, not an abbreviation's
_LINE_END = re.compile(r"[.!?][\"')\]]*$" + "".join(rf"(?<!\b{re.escape(a)})" for a in _ABBREVIATIONS))

_CLOSERS = "\"')]"
_MARKS = (".", "!", "?")


def ends_with_mark(text: str) -> bool:
    r"""Whether `text` ends with a sentence mark, closing quotes or brackets after it: what `[.!?]["')\]]*$` finds,
    read from the end instead of searched for from the start."""
    end = text[:-1] if text.endswith("\n") else text  # `$` also matches before a final line break
    return end.rstrip(_CLOSERS).endswith(_MARKS)


_HEADING_LINE_MAX = 60
# A table row as the loaders write it: "column: value; column: value." (a CSV row) or "cell | cell | cell".
CSV_ROW = re.compile(r"^[^:;|]{1,80}: [^;]*(?:; [^:;|]{1,80}: [^;]*)+\.?$")
_TABLE_ROW = re.compile(rf"{CSV_ROW.pattern}|^[^|]+(?: \| [^|]+){{2,}}$")


_CELLS = re.compile(r"^[^|]+(?: \| [^|]+)+$")


def table_cells(line: str) -> int:
    """How many cells a line of cells has ("Weight | 1.1 kg": 2), or 0 for a line that is not one; `is_table_row`
    reads three or more as a row without the table's first line."""
    return line.count(" | ") + 1 if " | " in line and _CELLS.match(line) else 0


def is_table_row(line: str) -> bool:
    """A table row as the loaders write one (a CSV row's "column: value; …", a table's "cell | cell | …")."""
    line = line.strip()
    # what either form must hold, checked first: the pattern backtracks through a whole paragraph to refuse it
    if " | " not in line and ("; " not in line or ": " not in line):
        return False
    return bool(_TABLE_ROW.match(line))


def split_sentences(text: str) -> list[str]:
    """Sentences of `text`, whitespace collapsed; abbreviations like "e.g. the" stay joined.

    A short line without closing punctuation followed by a capitalised line is a heading or a
    label ("To: All staff"), not the start of a sentence that wrapped, so it stands alone; so does a line that
    is a table row (each row is a record of its own).
    """
    return [sentence for block in _sentence_blocks(text) for sentence in block]


def sentence_blocks(text: str) -> list[list[str]]:
    """`split_sentences`, block by block (a paragraph, a list item, a table row)."""
    return [list(block) for block in _sentence_blocks(text)]


# A text up to a few passages long is kept by the judges' caches (`_kept_blocks`, `matching.words`): an ask reads each
# of its passages' sentences again for its evidence, its compression and its audit. A long text (a whole section at
# ingest) is read once and not held.
KEPT_TEXT_MAX = 4096


def _sentence_blocks(text: str) -> tuple[tuple[str, ...], ...]:
    return _kept_blocks(text) if len(text) <= KEPT_TEXT_MAX else _read_blocks(text)


@lru_cache(maxsize=1024)  # see KEPT_TEXT_MAX
def _kept_blocks(text: str) -> tuple[tuple[str, ...], ...]:
    return _read_blocks(text)


def _read_blocks(text: str) -> tuple[tuple[str, ...], ...]:
    found: list[tuple[str, ...]] = []
    for block in _blocks(text):
        sentences: list[str] = []
        parts = _SENTENCE_END.split(" ".join(block.split()))  # text, mark, text, mark, ..., text
        pieces = [parts[i] + parts[i + 1] for i in range(0, len(parts) - 1, 2)]
        pieces.append(parts[-1])
        sentence: list[str] = []  # the pieces of the sentence being read; a middle initial joins the next one
        for piece in (p.strip() for p in pieces):
            if not piece:
                continue
            numbered = len(sentence) == 1 and _SECTION_NUMBER.match(sentence[0])
            if sentence and not _initial_ends(sentence) and not numbered:
                sentences.append(" ".join(sentence))
                sentence = []
            sentence.append(piece)
        if sentence:
            sentences.append(" ".join(sentence))
        if sentences:
            found.append(tuple(sentences))
    return tuple(found)


def _initial_ends(pieces: list[str]) -> bool:
    """Whether the pieces end on a middle initial ("John M."); the last piece's last two characters say when they
    cannot, without joining the end of the pieces."""
    last = pieces[-1]
    return last[-1:] == "." and "A" <= last[-2:-1] <= "Z" and _INITIAL.search(_last_two_words(pieces)) is not None


def _last_two_words(pieces: list[str]) -> str:
    """The end of the pieces joined by spaces, as far back as `_INITIAL` can match (it holds one space).

    Only the end is read, so a block of thousands of "John M." pieces costs what its length costs."""
    tail = " ".join(pieces[-2:])
    last_space = tail.rfind(" ")
    return tail[tail.rfind(" ", 0, last_space) + 1 :] if last_space > 0 else tail


_NUMBERING = re.compile(
    r"^(?:(?i:chapter|section|part|appendix|article|step)\s+(?:\d+(?:\.\d+)*|[IVXLC]+)[.:)]?"
    r"|(?:\d+|[IVXLC]+)[.:)])\s+(?=\S)"
)


def without_numbering(heading: str) -> str:
    """A heading without its leading number ("Chapter 2. Users and Groups" -> "Users and Groups", "IV. Results"): put
    before a quote, the number would read as a sentence of its own. A version is no number to drop ("3.19.0
    Highlights", "2024 goals" stay)."""
    return _NUMBERING.sub("", heading.strip(), count=1)


_RULE_LINE = re.compile(r"^[-=*_~#+]{3,}$")
_BULLET = re.compile(r"^(\*\*|[*•‣◦▪+-]|o)\s+\S")  # a plain-text list item's bullet (a GNU NEWS file's "**" too)
# a setext heading that reached us joined to its underline ("0.6.3 / 2022-01-22 ===="): a release's heading in a
# changelog, which neither continues the item above it nor leads the one below into its sentence
_UNDERLINED = re.compile(r"\S\s+(?:={3,}|-{3,})$")
# a man page's header or footer line, which ends with the page's name and section ("GNU coreutils 9.1 September 2022
# TIMEOUT(1)"): it names the page's release, not when the text above it changed
_MAN_TITLE = re.compile(r"\b[A-Z][A-Z0-9_.+-]*\(\d[a-z]*\)$")


def _underlined(line: str) -> bool:
    """Whether `_UNDERLINED` finds the line's underline; only a line that ends like one is searched."""
    return line.rstrip("\n").endswith(("===", "---")) and _UNDERLINED.search(line) is not None


def _ends_sentence(line: str) -> bool:
    """Whether a stripped line ends a sentence: a mark, not an abbreviation's (`_LINE_END`). The only mark the
    pattern can find is the one before the closing quotes and brackets, so it is searched for there; its
    look-behinds still read the abbreviation before it."""
    return ends_with_mark(line) and _LINE_END.search(line, len(line.rstrip(_CLOSERS)) - 1) is not None


def _man_title(line: str) -> bool:
    """Whether `_MAN_TITLE` finds a man page's title at the line's end; only a line ending in ")" is searched."""
    return line.rstrip("\n").endswith(")") and _MAN_TITLE.search(line) is not None


# a changelog's release written as a line of its own: "1.6 Enhancement Release - Jan 24, 2010", "v2.3.1 (2021-05-04)",
# "pyenv 2.6.25": a version first (or after one name), then nothing or a few words with a date or "release" in them,
# and no sentence's end ("Python 3.10 or later is required" is no release line)
_RELEASE_LINE = re.compile(r"^(?:[A-Za-z][\w.+-]*\s)?v?\d+(?:\.\d+)+\b(?P<rest>(?:\s\S+){0,8})$")
_RELEASE_WORDS = re.compile(
    r"\b(?:release|(?:19|20)\d\d|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)", re.IGNORECASE)


def is_release_line(line: str) -> bool:
    """Whether a line is a release's heading written as a line of its own (`_RELEASE_LINE`)."""
    text = " ".join(line.split())
    found = _RELEASE_LINE.match(text)
    return found is not None and text[-1:] not in ".!?:;," and (
        not found["rest"] or _RELEASE_WORDS.search(found["rest"]) is not None)


# a changelog's release heading in words: "* Noteworthy changes in release 3.4 (2020-01-02) [stable]", "Release 3.19.0"
_RELEASE_IN_WORDS = re.compile(
    r"^\W*(?:(?:noteworthy\s+|user-visible\s+)?changes\s+in\s+(?:release|version)|release|version)\s+v?\d+(?:\.\d+)+",
    re.IGNORECASE)


RELEASE_LINE_WORDS_MAX = 12  # a release's line of its own, its version and a few words ("… (2019-02-08) [beta]")


def _outline_release(line: str) -> bool:
    """A GNU NEWS file's release line under its outline star ("* Noteworthy changes in release 2.1.1 (2019-02-08)
    [beta]"): a heading, not the first item's opening words."""
    return (line.startswith("* ") and len(line.split()) <= RELEASE_LINE_WORDS_MAX and line[-1] not in ".!?,;:"
            and _RELEASE_IN_WORDS.match(line) is not None)


def is_release_heading(text: str) -> bool:
    """Whether a quote is a release's heading: its line of its own (`is_release_line`) or its heading in words."""
    return is_release_line(text) or _RELEASE_IN_WORDS.match(text) is not None


def underlined_heading(line: str) -> str | None:
    """The heading of a line joined to its setext underline ("0.6.3 / 2022-01-22 ====" -> "0.6.3 / 2022-01-22"), or
    None for any other line."""
    found = _UNDERLINED.search(line.strip())
    return line.strip()[: found.start() + 1] if found else None


_RECORD_LABEL = re.compile(r"^([A-Za-z][\w-]{0,20}):\s")


def _labels(lines: list[str]) -> set[str]:
    return {found.group(1).lower() for found in map(_RECORD_LABEL.match, lines) if found}


# a configuration keyword alone on its line, as a man page heads its entry ("MaxAuthTries" over "Specifies the maximum
# number of authentication attempts … The default is 6."), or a constant's name ("SYS_DIR_MODE" over "The permissions
# mode … Defaults to 0755.", "SIGUSR1" over "This signal causes …"; a section's "SIGNALS" has no digit and no "_"):
# read with its text, so that the default is its own
_KEYWORD = r"^(?:[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[A-Z]{2,}[0-9]+)"
# a unit file's setting as systemd's pages head its entry, its name and "=" ("MaxConnections=", "Accept=")
_ASSIGNED_KEY = r"^[A-Z][A-Za-z0-9]*="
_KEYWORD_TERM = re.compile(rf"{_KEYWORD}$|{_ASSIGNED_KEY}$")
# a setting's name in lower case alone on its line after a field, as a reference of fields heads its entry ("silent"
# over "If true and not daemonized, …", after the entry above closed with "Introduced: 3.0")
_KEY_TERM = re.compile(r"^[a-z][a-z0-9]*(?:[_.-][a-z0-9]+)*$")
# a setting's name in snake case alone on its line, as mke2fs.conf(5) heads its entry ("enable_periodic_fsck" over "This
# boolean relation specifies …"): a name, after a field or not, over a line of prose (not over a label: "xxh3_128" over
# "Oneshot functions:" is a list's last name)
_SNAKE_TERM = re.compile(r"^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$")
# an entry's code alone on its line, as man pages head a tagged paragraph: a letter or a few ("C" over "Recursively copy
# a file or directory, …", "L, L+" over "Create a symlink …", tmpfiles.d(5)'s line types), or a configuration key of
# dotted parts ("gc.auto" over "When there are approximately more than this many loose objects …", git-gc(1)): read
# with its text (basedocs tune cv-494#1 and bd-055)
_CODE_TERM = re.compile(r"^(?:[A-Za-z]\+?(?:, [A-Za-z]\+?)*|[a-z][a-z0-9-]*(?:\.[a-z][A-Za-z0-9-]*)+)$")
# the same entry with its name and its text on one line ("silent If true and not daemonized, …"), as `_blocks` reads it
_KEY_ENTRY = re.compile(r"^[a-z][a-z0-9]*(?:[_.-][a-z0-9]+)* [A-Z][a-z]")
# a line that closes on a short field ("… Required: No. Introduced: 3.0", "Default: value of tempfile.gettempdir")
_ENDS_WITH_FIELD = re.compile(r"(?:^|\s)[A-Z][\w-]{0,20}: [^:]{1,40}$")
# the same entry as a passage's line gives it, the keyword and its text on one line ("MaxAuthTries Specifies …"); a name
# in capitals alone needs a defining word after it ("DSHELL The login shell …", "EPERM Indicates …"), as "XHR
# Adapter: …", "GNU Make …" or "TLS Extensions support." are no entries
_CAPS_ENTRY = (r"[A-Z]{3,} (?:The|This|These|A|An|If|When|Whether|Specifies|Sets?|Used|Sent|Indicates|Enables|Controls"
               r"|Defines|Determines|Names?|Lists?)\b")
_KEYWORD_ENTRY = re.compile(rf"{_KEYWORD} [A-Z][a-z]|^{_CAPS_ENTRY}|{_ASSIGNED_KEY} [A-Z][a-z]")
# a setting's term as pod2html writes it, its value's form after "=" ("securityLevel = LEVEL: set the security level",
# "retry = yes | no: reconnect …")
_ASSIGNED_TERM = re.compile(r"^[A-Za-z][\w.-]* = [^:]{1,40}: \S")
# a short field without a closing mark at a line's end ("… after it was disconnected default: no", "default: yes (if
# supported by OpenSSL)"), as an entry of a reference ends with its default
_CLOSING_FIELD = re.compile(r"(?:^|\s)[A-Za-z][\w-]{0,20}: [^:.!?]{1,40}$")
# an API reference's parameter with its type, as undici's Markdown lists them once the markup is read: "maxTimeout
# number (optional) - Maximum number of milliseconds …", "statusCodes number[] (optional) - Array of …"
_TYPED_PARAMETER = re.compile(r"^[A-Za-z_$][\w$.]* [^:()]{1,40}?\((?:optional|required)\) - \S")


def _next_field(current: list[str], following: str) -> bool:
    """Whether `following` is the next field of the record `current` holds: it opens with a label ("since: v2.32")
    that no line of the record opened with yet, after a record whose lines open with labels ("what: …", "why: …")."""
    label = _RECORD_LABEL.match(following)
    labels = _labels(current)
    # a field is short; a line as long as a paragraph is the next entry of a definition list ("operator: Historically,
    # the operator user account was used by …" after "HELP: Is that right?")
    short = len(following) <= _HEADING_LINE_MAX
    return bool(label and labels and short and label.group(1).lower() not in labels)


def _ends_open(line: str) -> bool:
    """A line without closing punctuation that does not end on a function word ("… pairs to" is cut mid-phrase)."""
    words = line.split()
    return bool(words) and line[-1] not in ".!?,;:" and words[-1].lower() not in SMART_STOP_WORDS


def _open_line(line: str) -> bool:
    """A line that starts with a capital and ends open (`_ends_open`), as the items of a one-a-line list do."""
    return line[:1].isupper() and _ends_open(line)


# a definition list's entry as the HTML loader writes it, its term first: a code, a flag or a constant ("6: Error in
# one of the documents", "--maxvars VALUE: Maximum number of variables"); a word's label ("since: v2.30") is a field
# of a record, which `_blocks` reads by its labels
# or a man page's option with its aliases and its argument ("-w, --wait, --timeout seconds: Fail if …")
# (a flag's name may hold dots: Alertmanager's "--cluster.peer-timeout value: peer timeout period (default …)")
_TERM_LINE = re.compile(
    r"^(?:\d[\w.]*|--?\w[\w.-]*(?:=\S+)?(?:, --?\w[\w.-]*(?:=\S+)?){0,4}(?: [a-z]\w*)?|[A-Z][A-Z0-9_]+)"
    r"(?: [A-Z_]+)?: \S"
)
# a table of options, methods or settings writes an entry as a row of two cells keyed by a flag, a call or an
# identifier ("--devdir=$path | SDK download directory (default is OS cache directory)", "list_sandboxes() | List all
# sandboxes", "fs.readFile | …", "maxSockets | …"): one entry a line, however wide
_OPTION_ROW = re.compile(
    r"^(?:--?\w\S*(?:,? \S+){0,3}|[A-Za-z_][\w.]*\([^|]*\)|[A-Za-z_]\w*[_.][\w.]*|[a-z]+[A-Z]\w*) \| \S")


def is_entry_row(line: str) -> bool:
    """A table row that is an entry keyed by a flag, a call or an identifier (`_OPTION_ROW`): a record, never the
    header other rows are read under."""
    return _OPTION_ROW.match(line) is not None


def _two_cell_rows(lines: list[str]) -> list[bool]:
    """For each line, whether it is a row of a table of two cells or more: a line of cells beside another of as
    many ("linux-x64 | RHEL 8 with gcc-toolset-10" under "Binary package | Platform and Toolchain"). Alone, a line
    with one " | " may be prose or a shell pipeline; beside a line of as many cells it is a row of its own."""
    cells = [table_cells(line) for line in lines]
    return [count >= 2 and ((i > 0 and cells[i - 1] == count) or (i + 1 < len(cells) and cells[i + 1] == count))
            for i, count in enumerate(cells)]


def _deliberate_breaks(lines: list[str]) -> list[bool]:
    """For each line, whether it ended on purpose before a capitalised line although it has no closing
    punctuation, as in a list of one item a line ("Skip collecting build-id when recording: perf record -B"):
    the next line's first word would have fitted on it within the text's widest line, which a text wrapped to a
    width never does, or it is one of three such lines in a row (a chunk's own lines are narrower than its
    document's). A line that ends on a function word ("pairs to") was cut mid-phrase all the same (a PDF's
    proportional font fills its lines unevenly). An option's row before another option's row (`_OPTION_ROW`), and a
    term's entry before another term's (`_TERM_LINE`), end on purpose too."""
    width = max(map(len, lines), default=0)
    open_ = [_open_line(line) for line in lines]
    rows = [is_entry_row(line) for line in lines] + [False]
    terms = [_TERM_LINE.match(line) is not None for line in lines] + [False]
    found = []
    for i, line in enumerate(lines):
        following = lines[i + 1] if i + 1 < len(lines) else ""
        first = following.split()[0] if following.split() else ""
        if (rows[i] and rows[i + 1]) or (terms[i] and terms[i + 1]):
            found.append(True)  # an entry before another entry ends on purpose, whatever its last word
            continue
        if not ((first[:1].isupper() or terms[i + 1]) and _ends_open(line)):
            found.append(False)
            continue
        fits = len(line) + 1 + len(first) <= width
        in_list = open_[i] and open_[i + 1] and ((i > 0 and open_[i - 1]) or (i + 2 < len(lines) and open_[i + 2]))
        found.append(fits or in_list)
    return found


def _blocks(text: str) -> list[str]:
    blocks: list[str] = []
    current: list[str] = []
    lines = [line.strip() for line in text.splitlines()]
    deliberate = _deliberate_breaks(lines)
    rows = _two_cell_rows(lines)
    entry = False  # the block being read opened with a keyword term
    for index, line in enumerate(lines):
        if not line:
            if current:
                blocks.append(" ".join(current))
                current = []
            continue
        if _RULE_LINE.match(line):
            # a rule ("-----", "=====") separates entries: what follows is another record, and the rule says nothing
            if current:
                blocks.append(" ".join(current))
                current = []
            continue
        if (is_table_row(line) or rows[index] or _underlined(line) or _man_title(line) or is_release_line(line)
                or _outline_release(line)):
            # (a changelog's release line ends the item above it: "* Updated database …" / "1.6 Enhancement Release")
            if current:
                blocks.append(" ".join(current))
                current = []
            blocks.append(line)
            continue
        label = _RECORD_LABEL.match(line)
        if current and label and label.group(1).lower() in _labels(current):
            # a line opening with a label a line of its block opened with ("what: sfdisk --show-size …" after "what:
            # column --columns … since: v2.30") starts the next record
            blocks.append(" ".join(current))
            current = []
        following = lines[index + 1] if index + 1 < len(lines) else ""
        heading_like = (
            len(line) <= _HEADING_LINE_MAX and line[-1] not in ".!?,;" and following[:1].isupper()
            and not _SENTENCE_END.search(line)  # "… df(1). This option is equivalent to -o" wrapped: no label
        ) or deliberate[index]
        if current and _OPTIONS_ALONE.match(line) and not _OPTIONS_ALONE.match(current[-1]):
            # an option alone on its line opens the next entry, even after a description without a closing mark
            # ("Force use of color terminal escapes (true | false)" / "--drop:..." / "Remove certain constructs …")
            blocks.append(" ".join(current))
            current = []
        if current and _CLOSING_FIELD.search(current[-1]) and (
                _TERM_LINE.match(line) or _ASSIGNED_TERM.match(line) or _TYPED_PARAMETER.match(line)):
            # an entry's closing field ("default: no", "Default: 5") before the next entry's term ("securityLevel =
            # LEVEL: set the security level", "SIGUSR1: Close and reopen …", "maxTimeout number (optional) - …"): the
            # default belongs to the entry above
            blocks.append(" ".join(current))
            current = []
        if heading_like and line.endswith(":") and current and ends_with_mark(current[-1]):
            # "Upgrading from a version prior to 1.9.10:" after a paragraph that ended opens what follows it
            blocks.append(" ".join(current))
            current = []
        if current and (item := _BULLET.match(line)) and (
            current[0].startswith(marker := f"{item.group(1)} ") or following.startswith(marker)
            or current[-1].endswith(":")
        ):
            # a plain-text list's item ("* Add PTP hardware clock" after "* Add asynchronous name resolving",
            # libssh2's "o adds …" after "… the following enhancements:"): items with no closing mark are not one
            # sentence
            blocks.append(" ".join(current))
            current = []
        # a setting's name in lower case (alone, or with its text) after a field, or after an entry that closes with
        # one ("… Default: 022 Required: No. Introduced: 3.0"); the line above is read only for such a line
        key_term, key_entry = _KEY_TERM.match(line) is not None, _KEY_ENTRY.match(line) is not None
        after_field = (key_term or key_entry) and bool(current) and (
            (_RECORD_LABEL.match(current[-1]) is not None and len(current[-1]) <= _HEADING_LINE_MAX)
            or _ENDS_WITH_FIELD.search(current[-1]) is not None)
        # (a passage may end on a term whose text is in the next passage)
        name_over_prose = ((_SNAKE_TERM.match(line) is not None or _CODE_TERM.match(line) is not None)
                           and len(following.split()) >= 3 and not following.endswith(":"))
        keyword = (following[:1].isupper() and (_KEYWORD_TERM.match(line) is not None or name_over_prose)) or (
            (following[:1].isupper() or not following) and after_field and key_term)
        keyed = keyword or (after_field and key_entry)
        if current and (keyed or _KEYWORD_ENTRY.match(line)):
            # a configuration keyword opens the next entry: what came before is the entry above
            blocks.append(" ".join(current))
            current = []
        if current and _COMMENT_LINE.match(line) and _CODE_KEY.match(current[-1]):
            # a program's comment over a key describes that key ("// where we're doing stuff.  defaults to cwd." over
            # "path: '/path/to/package/root',"): the key above it ends its own entry, whatever its closing comma
            blocks.append(" ".join(current))
            current = []
        if keyed:
            entry = True  # the block is a keyed entry: its fields ("Default: false", "Introduced: 4.2.0") stay with it
        elif not current:
            entry = False
        current.append(line)
        if entry and _ENDS_WITH_FIELD.search(line) and following[:1].isupper():
            # an entry's fields stay with it ("Default: false" / "Required: No."); what follows its last one is not
            # its own ("Introduced: 3.0" / "In Supervisor versions prior to 4.0, the default was 0,2")
            heading_like = not (_RECORD_LABEL.match(following) and _next_field(current, following))
        if line.endswith("::") or (_OPTIONS_ALONE.match(line) and not _OPTION.match(following)) or keyword:
            # an AsciiDoc entry's term ("-P <prefix>:: --prefix=<prefix>::"), or a help text's options on a line of
            # their own ("-t THRESHOLD, --threshold THRESHOLD" over "Define a custom maximum …"): read with its text
            heading_like = False
        # a line that ends a sentence before one that does not start with a capital ends its block: a chunk puts
        # each block on a line of its own, and a reference entry often opens with its name
        # ("Default: Infinity." / "maxFreeSockets {number} Maximum number of sockets …", "--edition edition")
        ends_sentence = _ends_sentence(line)
        if (heading_like or (
            ends_sentence and following and not following[:1].isupper() and not _next_field(current, following)
        )) and not (_COMMENT_LINE.match(line) and _CODE_KEY.match(following)):
            blocks.append(" ".join(current))
            current = []
    if current:
        blocks.append(" ".join(current))
    return blocks


# a program's comment line, and a line that sets a key ("path: '/path/to/package/root',", "retries = 3")
_COMMENT_LINE = re.compile(r"^(?://|#)\s")
_CODE_KEY = re.compile(r"""^['"]?[A-Za-z_@$][\w@/:.$-]{0,60}['"]?\s*[:=]\s*\S.{0,120}$""")

_HEADING_WORDS_MAX = 8
# a line of options and their arguments only, as argparse and man pages write an entry's term
# (its argument a metavar, a placeholder or argparse's choices, "{0,1,2,3}")
_OPTION_TERM = (
    r"(?:--?[A-Za-z][\w-]*(?:[ =](?:[A-Z][A-Z0-9_]*|<[\w-]+>|\{[\w.,-]+\})"
    # esbuild(1)'s placeholders: "--color=...", "--drop:...", "--footer:T=...", "--inject:F"
    r"|(?=[:=][A-Z.])[:=](?:[A-Z]=?)?(?:\.\.\.)?)?"
    # dig(1)'s query options: "+short", "+tries=T", "+bufsize[=B]", "+subnet=addr[/prefix-length]"
    r"|\+[a-z][\w-]*(?:\[=[^\s,]+\]|=[^\s,]+)?)"
)
# (jq's page writes them after a bullet, "/" between, and a colon after: "○   --compact-output / -c:")
_OPTIONS_ALONE = re.compile(rf"^(?:[○•·]\s+)?{_OPTION_TERM}(?:(?:,\s*|\s+/\s+){_OPTION_TERM})*:?$")
_OPTION = re.compile(r"^--?[A-Za-z]|^\+[a-z]")
# a list item's link or author ("Add prompt customization by @jimenezj8 in https://…")
_LINK = re.compile(r"^(?:https?://|@\w)")
_YEARISH = re.compile(r"^(?:FY|Q[1-4]|H[12])?[-']?(?:19|20)?\d\d$|^(?:FY|Q[1-4]|H[12])$", re.I)
# A document's numbering standing as a sentence of its own ("Chapter 2.", "Section 4.1", "2.2.", "Part IV"): the
# loaders split "Chapter 2. Users and Groups" at its period. It says nothing, and its figure is not an answer to
# "Which uid …?".
_NUMBERED_LABEL = re.compile(
    r"^(?:(?i:chapter|section|part|appendix|article|step|page|figure|table)\s+)?(?:\d+(?:\.\d+)*|[IVXLC]+)\.?$"
)


# an option group of a usage line: "[--async]", "[--no-clobber, -n]", "[-t THRESHOLD]"
_OPTION_GROUP = re.compile(r"\[-{1,2}[^\[\]]*(?:\[[^\[\]]*\][^\[\]]*)*\]")
SYNOPSIS_GROUPS = 3


def is_keyed_entry(sentence: str) -> bool:
    """Whether `sentence` opens a configuration entry with the setting's name ("MaxAuthTries Specifies …", "silent If
    true …"): the entry's fields ("Default: false Required: No. Introduced: 4.2.0") are read with it."""
    return bool(_KEYWORD_ENTRY.match(sentence) or _KEY_ENTRY.match(sentence))


def is_field(sentence: str) -> bool:
    """Whether `sentence` opens with a field's label ("Default: false Required: No.", "Introduced: 4.2.0")."""
    return _RECORD_LABEL.match(sentence) is not None


def is_option_term(line: str) -> bool:
    """Whether `line` is only an option and its argument, as a man page heads an entry with it ("--drop:...")."""
    return _OPTIONS_ALONE.match(line) is not None


def is_synopsis(sentence: str) -> bool:
    """A usage line ("SYNOPSIS gcloud run deploy [[SERVICE] --namespace=NAMESPACE] [--async] [--breakglass=…] …",
    "usage: normalizer [-h] [-v] [-a] [-n] …"): option groups in brackets that make up most of it. It names every
    option of a command and says what none of them does, so it matches a question on any of them without answering
    it."""
    groups = _OPTION_GROUP.findall(sentence)
    return len(groups) >= SYNOPSIS_GROUPS and sum(map(len, groups)) * 2 >= len(sentence.strip())


# What source code and console sessions write and prose does not: a prompt (">>> ", "$ gcloud …", "tutorial]$ ./…"),
# valgrind's "==10668==", an import, a declaration ("const ac = …", "def update(", "function (a, b) {"), an arrow
# function, a call ended by a semicolon, a docstring's quotes. Backquoted names and flags in a sentence are prose.
_PROGRAM = re.compile(
    r">>> |(?:^|[\]:]\s?|\s)\$ [a-z./~]|==\d+=="
    r"|(?:^|[;{}]\s*)import\s+[\w{*]|\bfrom [\w.]+ import \w"
    r"|\b(?:const|let|var)\s+[\w{}\[\], ]+?\s=\s|\bdef \w+\(|\bfunction\s*\w*\s*\([\w, ]*\)\s*\{|=>\s*[{(]"
    r"|\w\([^()]*\);|\"\"\""
)


def is_program_text(sentence: str) -> bool:
    """A "sentence" that holds a piece of a program or of a console session ("import logging logging.basicConfig(…)
    from slack_bolt import App …", "CRC-32 example: >>> import crcmod.predefined …"). The engine reads it as words,
    so a value it holds may be any of its arguments: quoted first, such answers were right 23 times in 32 on the
    documentation sets' tune splits."""
    return bool(_PROGRAM.search(sentence))


def prose_before_program(sentence: str) -> str:
    """What a sentence says before the program or console session it holds, if any ("An example: $ valgrind
    --tool=drd --exclusive-threshold=10 …" -> "An example: "); the whole sentence when it holds none."""
    found = _PROGRAM.search(sentence)
    return sentence[: found.start()] if found else sentence


_ITEM_WORDS_MIN = 3  # a bullet and two words ("- Usage notes") may be a table of contents' entry


def is_heading(sentence: str) -> bool:
    """A heading or label ("AI Investment Strategy FY2026", "Board update"): short, no closing punctuation,
    and no figure beyond a year or period. Context for retrieval, not a sentence to quote; a table row with
    figures ("Engineering 98 9") is not one, nor is a line that gives a command-line option ("Skip collecting
    build-id when recording: perf record -B") or a link. A field without a figure ("Default: null") stays a label:
    it does not say which entry it belongs to, and quoted it answered for its neighbouring entry."""
    text = sentence.strip()
    if _NUMBERED_LABEL.match(text) or _underlined(text) or _man_title(text):
        return True
    words = text.split()
    if not words or len(words) > _HEADING_WORDS_MAX or text[-1] in ".!?;:" or " | " in text:
        return False  # a table's row of cells ("Ingress protection | IP67") is a record, not a label
    if any(_OPTION.match(word) or _LINK.match(word) for word in words):
        return False
    if _BULLET.match(text) and len(words) > _ITEM_WORDS_MIN:
        return False  # a list's item says something ("** Deprecate idn2_to_ascii_4i() in favor of …")
    return not any(NUMBER.fullmatch(word) and not _YEARISH.match(word) for word in words)
