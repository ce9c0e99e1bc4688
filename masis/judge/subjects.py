"""The figure asked for is said about the question's subject, not about a neighbour of it.

"How many Protestants are there in the Cévennes?" is not answered by "Approximately one million Protestants in
modern France" quoted beside a sentence that names the Cévennes, nor "How many cores does the Falcon X2 have?" by
"The Heron S1 has 8 cores" quoted after a sentence about the Falcon X2: the passage holds every constraint of the
question, but the sentence that gives the number holds another subject's. A "how many / how much" answer counts only
when a quote that gives the number holds the question's anchors itself — read with the sentence before it when it
leans on it ("It has 8 cores"), its section heading, its document's title and name — not only its passage. A
quote in the first person ("Our headline target is to cut fuel costs by 15%") speaks for the document's author, so
the names its document holds elsewhere count for it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from masis.judge import anchors, several
from masis.judge.answer_type import expected_type, gives_type
from masis.judge.quotes import document_title, leans_on_before, sentence_before
from masis.judge.sentences import is_release_heading, sentence_blocks, table_cells
from masis.judge.terms import terms
from masis.state import EvidenceChunk

_FIRST_PERSON = re.compile(r"\b(?:we|our|ours|us)\b", re.IGNORECASE)


# the kinds of answer that are said about something: a count or an amount, and a version or a code of an entry keyed
# by an identifier, a flag, a code or a version ("In which Node.js version was timeout.close() marked as legacy?" is
# not answered by a version the http page gives for its keep-alive timeout, nor "Which CVE does Git 2.39.1 fix?" by
# the CVEs of 2.39.2's notes)
_SAID_ABOUT = frozenset({"number", "version", "code"})
_RELEASE = re.compile(r"^v?\d+(?:\.\d+)+$")  # "2.39.1", "v20.1"


def figure_elsewhere(
    question: str, quotes: Sequence[tuple[str, EvidenceChunk]], wanted: Sequence[str] | None = None
) -> list[str]:
    """The question's anchors (or `wanted`: a reply's, when it refined them) that no quote giving the number,
    version or code asked for (`_SAID_ABOUT`) holds in its own reading (the quote, the quote before it from the same
    passage when it leans on it, its heading, its document's title and name); [] when the question asks for none of
    those kinds, names no anchor, or no quote gives one (the type floor's case)."""
    wanted = anchors.anchors(question) if wanted is None else list(wanted)
    kind = expected_type(question)
    if kind in {"version", "code"}:
        # a product's name may be its page's alone; an entry's key or a release's version is the quote's to hold
        wanted = [anchor for anchor in wanted if anchors.is_key(anchor) or _RELEASE.match(anchor)]
    if kind not in _SAID_ABOUT or not wanted:
        return []
    # "How much do the Falcon X2 and the Heron S1 weigh?": each figure need only be said about one of the two
    asked = [found for part in several.parts(question) if (found := anchors.anchors(part))] or [wanted]
    unheld: list[list[str]] = []
    for index, (quote, chunk) in enumerate(quotes):
        if not gives_type(quote, kind, question):
            continue
        name, heading = chunk["doc_name"], chunk.get("section") or ""
        # a release's heading quoted beside its item gives the item's release: "* Noteworthy changes in release 3.4
        # (2020-01-02) [stable] ** New features" holds no option, "The new --no-ignore-case option …" under it does
        items = [other for other, source in quotes if source["chunk_id"] == chunk["chunk_id"] and other != quote] \
            if kind == "version" and is_release_heading(quote) else []
        text = "\n".join([*_referents(quotes, index), *_table_header(quote, chunk), *_entry_start(quote, chunk), quote,
                          *items, heading, *package_header(chunk),
                          chunk.get("title") or "", name, document_title(name)])
        # "Our headline target is to cut fuel costs by 15%" speaks for the document's author, whom it names elsewhere
        author = set(chunk.get("context_terms", [])) if _FIRST_PERSON.search(quote) else set()
        unheld.extend([a for a in part if not anchors.holds(text, a) and not anchors.held_by_document(a, chunk)
                       and not _names_author(a, author)] for part in asked)
    return min(unheld, key=len) if unheld else []


# a package's metadata header: "Name: onnx", "Version: 1.23.2" say what every line of it is about
_HEADER_FIELD = re.compile(r"^(?:Name|Version):[ \t]*\S.*$", re.MULTILINE)


# the parts of a document's name ("zstd-CONTRIBUTING.md": "zstd", "contributing")
_NAME_PART = re.compile(r"[^\W_]+")
_QUESTION_WORD = re.compile(r"[A-Za-z][\w+]*")


def products(question: str, doc_names: Sequence[str]) -> frozenset[str]:
    """The question's words that name a document the answer quotes by its first word ("zstd" in "How many approvals
    does a zstd pull request need?" over `zstd-CONTRIBUTING.md`): the tool or project the question is about, as the
    workspace's own file names spell it. A later word of a name is what the document is about within its tool
    ("subprocess" in `supervisor-subprocess.rst`), no tool. Lower case; empty when no quoted document's name starts
    with a word of the question."""
    asked = {word.lower() for word in _QUESTION_WORD.findall(question) if len(word) >= 2}
    # a packaging suffix is no part of the name: "stunnel4-NEWS.md" is stunnel's, "python3-policy.html" python's
    named = {parts[0].lower().rstrip("0123456789") for name in doc_names
             if (parts := _NAME_PART.findall(name.rsplit(".", 1)[0]))}
    return frozenset(asked & named)


def of_another_product(chunk: EvidenceChunk, asked: frozenset[str]) -> bool:
    """Whether a passage is another tool's than the one the question names (`products`): neither its document's name,
    its heading nor its text says any of those words. "Two collaborators must approve a pull request" in Node.js's
    governance page does not say how many approvals a zstd pull request needs, whatever `zstd-CONTRIBUTING.md`
    quoted beside it says."""
    if not asked:
        return False
    said = " ".join([chunk["doc_name"], chunk.get("section") or "", chunk["text"]]).lower()
    return not any(re.search(rf"(?<![^\W_]){re.escape(word)}\d*(?![^\W_])", said) for word in asked)


def package_header(chunk: EvidenceChunk) -> list[str]:
    """The name and version lines of a wheel's `METADATA` passage: "Requires-Dist: protobuf>=6.31.1" is onnx
    1.23.2's requirement when the passage opens with "Name: onnx" and "Version: 1.23.2"."""
    if "METADATA" not in chunk["doc_name"] and "PKG-INFO" not in chunk["doc_name"]:
        return []
    return _HEADER_FIELD.findall(chunk["text"])


def _entry_start(quote: str, chunk: EvidenceChunk) -> list[str]:
    """The first sentence of the reference entry (a block keyed by a flag, an identifier or a code) a quote sits in,
    when the quote is a later one: "You may pass multiple name/value pairs up to a maximum of 32" is said in `--param
    PARAMNAME PARAMVALUE`'s entry. A paragraph's first sentence is no entry's key: it names no subject for the rest."""
    said = " ".join(quote.split()).rstrip(".")
    for block in sentence_blocks(chunk["text"]):
        key = block[0].split(maxsplit=1)[0].rstrip(":,") if block[0].split() else ""
        if anchors.is_key(key) and any(" ".join(sentence.split()).rstrip(".") == said for sentence in block[1:]):
            return [block[0]]
    return []


def _table_header(quote: str, chunk: EvidenceChunk) -> list[str]:
    """The first row of the table a quoted row sits in ("Item | Falcon X2" above "Weight | 1.1 kg"): a row is read
    under its table's header, as the synthesizer quotes it."""
    cells = table_cells(quote)
    if not cells:
        return []
    lines = [" ".join(line.split()) for line in chunk["text"].splitlines()]
    said = " ".join(quote.split()).rstrip(".")
    for index, line in enumerate(lines):
        if line.rstrip(".") == said:
            start = index
            while start > 0 and table_cells(lines[start - 1]) == cells:
                start -= 1
            return [lines[start]] if start < index else []
    return []


def _names_author(anchor: str, author: set[str]) -> bool:
    return anchors.is_name(anchor) and bool(found := terms(anchor)) and found <= author


def _referents(quotes: Sequence[tuple[str, EvidenceChunk]], index: int) -> list[str]:
    """What a quote that leans on the sentence before it ("It had uid 37.") is read with: that sentence in its
    passage, and the quote before it in the answer when it comes from the same passage; [] for a quote that stands
    alone. A heading the quote is led by ("Users and Groups: It had uid 37") is not its own start."""
    quote, chunk = quotes[index]
    heading = chunk.get("section") or ""
    lead, colon, rest = quote.partition(": ")
    own = rest if colon and lead and lead in heading else quote
    if not leans_on_before(own):
        return []
    found = [before] if (before := sentence_before(chunk["text"], own)) else []
    if index and quotes[index - 1][1]["chunk_id"] == chunk["chunk_id"]:
        found.append(quotes[index - 1][0])
    return found
