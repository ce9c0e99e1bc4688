"""Questions as people type them in a thread, put as written before the reading rules read them.

- A question typed all in lower case still names its products: a word followed by letters and figures ("the heron
  s1") or by a version ("debian 10", "git 2.39") is a name, written with capitals ("the Heron S1", "Debian 10") so
  that the rules, which find names by their capitals, find it as the antecedent of a later "it".
- "its" typed for "it's" at the end of a condition ("what if its faulty") is "it's": after "if", "when" or
  "because", a possessive "its" needs a noun and a verb after it, not one last word.
- A word that starts a new subject ("Unrelated: which lockfileVersion do npm v7 and v8 use?", "different thing: …")
  says the question stands alone; it is no word of the question ("un-related" is no denial of anything).
"""

from __future__ import annotations

import re

from masis.judge.mentions import (
    AUXILIARIES,
    CONJUNCTIONS,
    DETERMINERS,
    MEASURE_WORDS,
    PREPOSITIONS,
    UNITS,
    WH_WORDS,
    kind_of,
    tokens,
    word_set,
)
from masis.judge.phrases import verb_like

_CODE = re.compile(r"^[a-z]+\d[a-z0-9]*$")  # "s1", "x2": a model's code after its name
_DOTTED = re.compile(r"^v?\d+(?:\.\d+)+$")  # "2.39", "22.04"
_BARE = re.compile(r"^\d{1,3}$")  # "10" in "debian 10"
# Words a figure follows without making a name of them ("the top 10", "over 50", "every 3").
_NOT_NAMES = (
    WH_WORDS | AUXILIARIES | PREPOSITIONS | CONJUNCTIONS | DETERMINERS | MEASURE_WORDS
    | word_set("top last next first every each only around about than and or no not up to")
)
_CONDITION = word_set("if when because unless whether once")
# what a message opens with to start a new subject in a thread: "Unrelated: …", "unrelated but …", "btw, …"
_NEW_SUBJECT = re.compile(
    r"^\s*(?:(?:totally|completely|also|slightly)\s+)?(?:unrelated(?:\s+question)?|different\s+(?:thing|question|topic)"
    r"|(?:another|new|separate|side)\s+question|off[-\s]topic|on\s+another\s+note|btw|by\s+the\s+way"
    r"|switching\s+topics?)(?:\s*[:,;.!-]+\s*|\s+but\s+)(?P<question>\S.*)$", re.IGNORECASE | re.DOTALL)


def new_subject(text: str) -> str | None:
    """The question after words that start a new subject ("unrelated but what does h5dump -A print" -> "what does
    h5dump -A print"), three words or more; None when `text` opens with no such words."""
    match = _NEW_SUBJECT.match(text)
    return match["question"] if match and len(tokens(match["question"])) >= 3 else None


def without_aside(text: str) -> str:
    """`text` without the words that start a new subject, which ask nothing."""
    return new_subject(text) or text


def recase_names(text: str) -> str:
    """`text` typed all in lower case with its names capitalised ("how heavy is the heron s1" -> "how heavy is the
    Heron S1"); text with any capital letter is left as written."""
    if text != text.lower():
        return text
    words = tokens(text)
    edits: dict[int, str] = {}
    for index in range(1, len(words)):
        word, before = words[index], words[index - 1]
        after = words[index + 1].lower if index + 1 < len(words) else None
        code = bool(_CODE.match(word.text)) and kind_of([word.text]) != "period"
        bare = bool(_BARE.match(word.text)) and not _counts(after) and not before.lower.endswith("s")
        if not (code or _DOTTED.match(word.text) or bare):
            continue
        if before.lower in _NOT_NAMES or not before.text.isalpha() or verb_like(before):
            continue
        edits[index - 1] = before.text.capitalize()
        if code:
            edits[index] = word.text.upper()
    for index in sorted(edits, reverse=True):
        word = words[index]
        text = text[: word.start] + edits[index] + text[word.start + len(word.text) :]
    return text


def _counts(after: str | None) -> bool:
    """Whether the word after a figure is what it counts ("10 days", "50 units", "256 gb"): then it is no version."""
    return after is not None and (after in UNITS or (after.endswith("s") and not after.endswith("ss")))


def it_is(text: str) -> str:
    """`text` with "its" read as "it's" where it ends a condition with one word ("what if its faulty", "if its not
    faulty")."""
    words = tokens(text)
    for index in range(len(words) - 2, 0, -1):
        word = words[index]
        rest = [w.lower for w in words[index + 1 :]]
        if word.lower == "its" and not word.possessive and words[index - 1].lower in _CONDITION \
                and (len(rest) == 1 or (len(rest) == 2 and rest[0] == "not")):
            return text[: word.start] + word.text[:2] + "'" + word.text[2:] + text[word.start + len(word.text) :]
    return text
