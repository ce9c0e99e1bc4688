"""Phrases of a question: what it is about (its subject), what it asks for (its focus, the noun it names its
answer by), and what an earlier answer named as that: the pieces `masis.judge.reading` puts in place of a pronoun.

Word-level rules over `masis.judge.mentions`' tokens; no tagger, no model.
"""

from __future__ import annotations

import re

from masis.judge.anchors import anchors
from masis.judge.citations import CITATION, strip_citations
from masis.judge.mentions import (
    AUXILIARIES,
    CONJUNCTIONS,
    DETERMINERS,
    DO_MODALS,
    MEASURE_WORDS,
    PREPOSITIONS,
    UNITS,
    WH_WORDS,
    Token,
    mentions,
    phrase,
    tokens,
    word_set,
)
from masis.judge.names import is_ordinary


def focus(words: list[Token]) -> tuple[int, int] | None:
    """The span of what a question asks about: the noun phrase after its wh-word and verb ("What was [the gross
    margin] in Q3 2026?", "What IP rating ..." -> [IP rating], "Who approved [the budget]?")."""
    index = 0
    if len(words) > 2 and words[0].lower in {"who", "whom"} and words[1].lower not in AUXILIARIES:
        return noun_phrase(words, 2)  # "Who contributed [the activate hooks]?": the word after "who" is its verb
    if index < len(words) and words[index].lower in WH_WORDS:
        index += 1
        if index < len(words) and words[index].lower in MEASURE_WORDS:
            index += 1
        if index < len(words) and words[index].lower not in AUXILIARIES | PREPOSITIONS:
            end = index
            while end + 1 < len(words) and words[end + 1].lower not in AUXILIARIES | PREPOSITIONS | CONJUNCTIONS:
                end += 1
            return index, end
    while index < len(words) and words[index].lower in AUXILIARIES:
        index += 1
    span = noun_phrase(words, index)
    if span is not None and words[0].lower in WH_WORDS:
        # "where does python-build keep [its temp files]": a determiner inside the phrase opens the verb's object
        inner = [i for i in range(span[0] + 1, span[1] + 1)
                 if words[i].lower in DETERMINERS and not words[i - 1].possessive]
        if inner and inner[-1] < span[1]:
            return inner[-1], span[1]
    return span


def noun_phrase(words: list[Token], index: int) -> tuple[int, int] | None:
    if index >= len(words):
        return None
    end = index
    while end + 1 < len(words) and words[end + 1].lower not in AUXILIARIES | PREPOSITIONS | CONJUNCTIONS | WH_WORDS:
        if words[end].possessive and words[end + 1].lower in DETERMINERS:
            break
        end += 1
    while end > index and _adverb(words[end]):
        end -= 1  # "who wrote wget originally": the phrase is "wget"
    return index, end


_TRAILING_ADVERBS = word_set("still too again anymore now today though either just")
_NOUNS_IN_LY = word_set("reply family supply assembly anomaly italy july ally rally belly jelly fly")


# adverbs that open what a copular question says of its subject ("is tomli fully compatible with", "is zstd still
# maintained"), never a word of the subject itself (not "the nightly build", "the monthly churn")
_PREDICATE_ADVERBS = word_set(
    "fully still also actually really already currently officially always ever never even yet completely entirely "
    "properly generally usually typically widely truly strictly partially partly")


def _adverb(word: Token) -> bool:
    """An adverb a chat question puts after its object ("originally", "still"): a word in -ly made of an ordinary
    word ("original"), or one of a few others."""
    lower = word.lower
    if lower in _TRAILING_ADVERBS:
        return True
    return (len(lower) > 5 and lower.endswith("ly") and lower.isalpha() and lower not in _NOUNS_IN_LY
            and is_ordinary(lower[:-2]))


def topic(question: str, possessor: bool = False) -> str | None:
    """The thing a question is about: its subject, or the object of a subject question ("Who wrote the AI
    investment strategy memo?") or of a question about "I" ("... to return a device?" -> "the device"), as a name
    when the phrase ends with one ("the Falcon X2"). With `possessor`, the name a possessive phrase hangs on ("the
    Falcon X2's battery life" -> "the Falcon X2")."""
    words = tokens(question)
    span = subject(words)
    if span is None:
        found = [m for m in mentions(question) if m.kind in {"name", "identifier"}]
        return found[0].text if found else None
    first, last = span
    if first == last and words[first].lower in _SUPPORT_NOUNS and last + 2 < len(words) \
            and words[last + 1].lower == "for":
        # "which ld release added support for zstd compressed debug sections": what is supported is the thing
        span = noun_phrase(words, last + 2)
        if span is not None:
            first, last = _with_of(words, *span)
    named = [m for m in mentions(question) if first <= m.first <= last and m.kind in {"name", "identifier", "flag"}]
    has_of = any(words[i].lower == "of" for i in range(first, last + 1))
    if named and named[0].kind == "identifier" and named[0].first == first and not has_of:
        return named[0].text  # "does load_dotenv override variables …": a code name is a whole phrase
    if named:
        mention = named[0]
        possessive = words[mention.last].possessive
        if mention.kind == "flag" and mention.first > first and mention.last == last and not has_of:
            return phrase(words, first, last, question)  # "cjpeg -optimize": the flag with its command
        if (possessor and possessive) or has_of or (mention.last == last and not possessive):
            before = mention.first - 1
            while before >= first and (words[before].text[:1].isdigit() or words[before].lower in UNITS):
                before -= 1  # "the 256 GB Falcon X2"
            the = before >= 0 and words[before].lower == "the"
            return ("the " if the else "") + mention.text
    if first == last and verb_like(words[first]):
        return None  # "How much is budgeted for …?": a participle, not a thing
    if words[first].lower in CONJUNCTIONS:
        return None  # "and unpacking" of "which einops version brought packing and unpacking in" is no thing
    text = phrase(words, first, last, question)
    if words[first].lower in {"a", "an"}:
        text = "the " + text.split(" ", 1)[1]
    return text or None


_PARTICLES = word_set("out up off down away back over")
# a noun that names no thing of its own before "for X": "support for zstd compressed debug sections" is about X
_SUPPORT_NOUNS = word_set("support")


_PERSONAL = word_set("i you we they he she one")
_BE = word_set("is are was were")
_USER = word_set("i you we")  # the one who asks: the verb after it is theirs ("when should i turn on packrat")
_PRONOUNS = word_set("it its them they this that these those him her")


def subject(words: list[Token]) -> tuple[int, int] | None:
    """The span of a question's subject (or, for a subject question, its object)."""
    if not words:
        return None
    index = 0
    contracted = words[0].lower in WH_WORDS and words[0].possessive  # "What's the fee?" is "What is the fee?"
    if words[0].lower in WH_WORDS and not contracted:
        index = 1
        if index < len(words) and words[index].lower in MEASURE_WORDS:
            index += 1
        if index < len(words) and words[index].lower not in AUXILIARIES and (
            words[0].lower in {"which", "what"} or index == 2
        ):
            while index < len(words) and words[index].lower not in AUXILIARIES and not verb_like(words[index]):
                index += 1  # the wh-phrase: "Which pyenv release", "What IP rating", "How many days"
    if contracted or (index < len(words) and words[index].lower in AUXILIARIES):
        aux = "is" if contracted else words[index].lower
        span = noun_phrase(words, 1 if contracted else index + 1)
        if span is None:
            return None
        if words[span[0]].lower in _PERSONAL:  # "do I have to return a device": what "I" does it to
            if words[span[0]].lower not in _USER | {"one"}:
                return None  # "do they take merge requests": about whoever "they" are, which the thread says
            return object_phrase(words, span[0] + 1, after_verb=words[span[0]].lower != "one")
        if words[span[0]].lower == "there":  # "Is there a fee if I return an opened device?": the device
            return _existential(words, span[0] + 1)
        first, last = _with_of(words, *span)
        ends_verb = last + 1 >= len(words) or words[last + 1].lower not in AUXILIARIES
        inner = next((at for at in range(first + 2, last + 1) if words[at].lower in DETERMINERS - {"that", "this"}),
                     None)
        verb = _base_verb(words, first, last) if aux in DO_MODALS else None
        if verb is not None and (inner is None or verb < inner - 1):
            last = verb - 1  # "does supervisord need root to switch …": the verb after the name ends it
        elif aux in DO_MODALS and inner is not None and not _of_at(words, first, inner):
            last = inner - 2  # "does cjpeg -optimize make the jpegs smaller": the verb before "the" ends it
        elif aux in DO_MODALS and ends_verb and last > first and not _of_at(words, first, last):
            last -= 1  # "does the Falcon X2 launch": the verb ends the phrase
        elif (index == 0 and aux in _BE and last == len(words) - 1 and last > first and not _of_at(words, first, last)
              and words[last].lower.isalpha() and is_ordinary(words[last].lower)):
            last -= 1  # "is the dpkg Protected field spec final": the adjective is what it asks of it
        if last > first + 1 and words[last].lower in _PARTICLES and verb_like(words[last - 1]):
            last -= 1  # "carried out"
        elif last > first and aux in _BE and words[last].lower in _PARTICLES and last == len(words) - 1:
            last -= 1  # "when was httpcore 0.17.2 out": out is what it asks of it
        if aux in _BE and (adverb := next((at for at in range(first + 1, last + 1)
                                           if words[at].lower in _PREDICATE_ADVERBS), None)):
            last = adverb - 1  # "which TOML version is tomli fully compatible with": an adverb opens what is said of it
        while last > first and (verb_like(words[last]) or _adverb(words[last])):
            last -= 1  # "what does npm unpublish actually delete" is about npm unpublish
        return first, last
    # a subject question: the verb, then its object
    return object_phrase(words, index + 1 if index < len(words) else index)


# Verbs a yes/no question puts after its subject ("does supervisord need root", "does the Heron S1 cover
# accidental damage"): ones a question's subject rarely ends with as a noun
_BASE_VERBS = word_set(
    "need have support handle cover require accept allow keep overwrite override follow respect honour honor ignore "
    "wait exit retry fall leave pull bring ship bundle encrypt verify trust expose listen bind affect apply mean "
    "understand recognise recognize see pick prefer hit reach sit go come stay survive")


def _base_verb(words: list[Token], first: int, last: int) -> int | None:
    """Where a yes/no question's verb sits inside what reads as its subject phrase: the first of `_BASE_VERBS` after
    a word that is no article or preposition ("the cost of support" is a phrase)."""
    for at in range(first + 1, last + 1):
        before = words[at - 1].lower
        if words[at].lower in _BASE_VERBS and words[at].text.islower() and before not in DETERMINERS | PREPOSITIONS:
            return at
    return None


def _existential(words: list[Token], index: int) -> tuple[int, int] | None:
    """What an "is there N ...?" question is about: what "I" acts on in its condition ("if I return an opened
    device"), else N itself (never "there")."""
    span = noun_phrase(words, index)
    for at in range(span[1] + 1 if span else index, len(words) - 1):
        if words[at].lower in _PERSONAL and words[at - 1].lower in CONJUNCTIONS:
            return object_phrase(words, at + 1, after_verb=True)
    return span


def object_phrase(words: list[Token], index: int, after_verb: bool = False) -> tuple[int, int] | None:
    """The first noun phrase from `index` on that starts with a determiner or a name, with its "of ..." part. When
    none does and the words from `index` on are a verb and its object (`after_verb`: "i" typed before them), the
    phrase after the verb and its particle: "when should i turn on packrat" is about packrat, not "turn"."""
    for start in range(index, len(words)):
        lower = words[start].lower
        if lower in DETERMINERS - {"that", "this"} or words[start].text[:1].isupper():
            span = noun_phrase(words, start)
            return _with_of(words, *span) if span else None
    if after_verb:
        index += 1
        while index < len(words) and words[index].lower in _PARTICLES | PREPOSITIONS:
            index += 1
        if index < len(words) and words[index].lower in _PRONOUNS:
            return None  # "can i use it with gloves on": what "it" is, the thread says
    span = noun_phrase(words, index)
    return _with_of(words, *span) if span else None


def _of_at(words: list[Token], first: int, last: int) -> bool:
    return any(words[i].lower == "of" for i in range(first, last + 1))


def _with_of(words: list[Token], first: int, last: int) -> tuple[int, int]:
    """A noun phrase with its "of ..." part: "the default value of Massif's --threshold option"."""
    while last + 2 < len(words) and words[last + 1].lower == "of":
        span = noun_phrase(words, last + 2)
        if span is None:
            break
        last = span[1]
    return first, last


def verb_like(word: Token) -> bool:
    lower = word.lower
    return len(lower) > 4 and (lower.endswith("ed") or lower.endswith("ing")) and not word.text[:1].isupper()


# asides a question may carry that say nothing of what it asks about
_ASIDES = re.compile(r"\b(?:out of the box|by default|quick (?:q|question|one)|hey|whats)\b", re.IGNORECASE)


def content_words(question: str) -> list[str]:
    """The words of what a question is about, the only ones a hedge may name as missing: its names, codes, versions
    and periods (`mentions`) and the words of its subject, but not its verbs ("Which option sets …", "can I turn on
    …", "released") nor its asides ("out of the box", "quick q")."""
    text = _ASIDES.sub(" ", question)
    words = tokens(text)
    found = [word for mention in mentions(text) for word in mention.text.split()]
    span = subject(words)
    if span is not None:
        first, last = _with_of(words, *span)
        found += [words[i].text for i in range(first, last + 1) if not _verb_at(words, i)]
    return found


_OBJECT_STARTS = (DETERMINERS - {"that", "this"}) | {"to"}


def _verb_at(words: list[Token], index: int) -> bool:
    """Whether the word at `index` of a subject phrase reads as a verb: a participle, a word after "I/we/you" ("can I
    turn on …"), or one an object or an infinitive follows ("does a node server keep an idle socket", "does Kestrel
    aim to cut")."""
    after = words[index + 1].lower if index + 1 < len(words) else ""
    return (
        verb_like(words[index])
        or (index > 0 and words[index - 1].lower in _PERSONAL)
        or after in _OBJECT_STARTS
    )


def asked_noun(question: str) -> str | None:
    """The noun a "which/what N ...?" question names its answer by: "budget", "university", "release"."""
    match = re.match(r"\s*(?:which|what)\s+(?:[\w&.-]+\s+)?([a-z]+)\b", question, re.IGNORECASE)
    if not match:
        return None
    last = None
    for word in tokens(question)[1:5]:
        if word.lower in AUXILIARIES or verb_like(word):
            break
        last = word.lower
    else:
        return None
    return last if last and last not in AUXILIARIES | DETERMINERS else None


def same_noun(a: str, b: str) -> bool:
    return a.rstrip("s") == b.rstrip("s") or (len(a) >= 5 and a[:5] == b[:5])


def answered(question: str, answer: str) -> str | None:
    """What the earlier answer named as the thing a "which N" question asked for: "the R&D budget", "University of
    Leeds", "v2.6.25". None when its answer names nothing of that kind."""
    asked = asked_noun(question)
    text = strip_citations(answer or "")
    if not asked or not text:
        return None
    asked_terms = {m.text.lower() for m in mentions(question)}
    words = tokens(text)
    for index, word in enumerate(words):
        if not same_noun(word.lower, asked):
            continue
        for m in mentions(text):
            near = m.last + 1 == index or m.first - 1 == index or m.first <= index <= m.last
            if near and m.text.lower() not in asked_terms:
                first, last = min(m.first, index), max(m.last, index)
                the = first > 0 and words[first - 1].lower == "the"
                return ("the " if the else "") + phrase(words, first, last, text)
    return None


# nouns a question names a release by: "which csvkit release …", "that version"
VERSION_NOUNS = word_set("release version edition update build")
# a code an answer gives: a flag, an environment variable or constant, a dotted or camel-cased name
_GIVEN_CODE = re.compile(r"^--?[A-Za-z][\w-]*$|^[A-Z][A-Z0-9]*_[A-Z0-9_]+$|^[a-z]\w*[._][a-z]\w*$|^[a-z]+[A-Z]\w*$")
# nouns a question names a code by: "which option …", "which env var …"
_CODE_NOUNS = word_set("option flag switch var variable setting key parameter directive argument")
_FLAG_NOUNS = word_set("option flag switch")  # the nouns a command line's flags answer
_GIVEN_RELEASE = re.compile(r"^v?\d+(?:\.\d+)+[a-z]?$")
_HEADING_WORDS = 3  # a release that heads its entry is among its first words: "version 1.29 -", "v1.4.5 (May 22"


def asked_noun_at(words: list[Token], nouns: frozenset[str]) -> int | None:
    """Where a "which/what …" question names the kind of thing it asks for, one of `nouns`, within its first words
    ("which csvkit *release* added …", "which easyrsa *option* sets …")."""
    if not words or words[0].lower not in {"which", "what"}:
        return None
    return next((i for i, word in enumerate(words[1:4], start=1) if word.lower in nouns), None)


def code_given(question: str, answer: str, releases: bool = True) -> str | None:
    """The one code the earlier answer's first quote gave a "which N" question whose N is a code, not a phrase: a
    flag ("which easyrsa option sets a custom renew grace period" "Add option '--renew-days=NN' …" -> "--renew-days"),
    a variable ("which env var …" -> "PYTEST_TIMEOUT"), or a release's number with the word the question put before
    the noun ("which csvkit release added zstandard support" "1.5.0 - March 28, 2024: …" -> "csvkit 1.5.0"). None
    when the quote gives none, or more than one, unless an option is asked and a flag comes first; a release only
    with `releases` (a later "it" is rather the thing the release added: "who contributed it?" after "which
    pyenv-virtualenv release added activate/deactivate hooks")."""
    words = tokens(question)
    at = asked_noun_at(words, VERSION_NOUNS | _CODE_NOUNS)
    cited = CITATION.search(answer or "")  # the first quote ends at its citation, whatever follows it
    first = strip_citations(answer[: cited.start()]) if cited else ""
    if at is None or not first:
        return None
    own = {anchor.lower() for anchor in anchors(question)}
    found = [anchor.partition("=")[0] for anchor in anchors(first) if anchor.lower() not in own]
    if words[at].lower in VERSION_NOUNS:
        if not releases:
            return None
        codes = list(dict.fromkeys(code for code in found if _GIVEN_RELEASE.match(code)))
        before = words[at - 1]
        owner = f"{before.text} " if at >= 2 and before.lower not in DETERMINERS else ""
        # one release, or the one its entry is headed by ("0.8.0 (2020-08-05): Dropped Support for Python 2.7, 3.4")
        heads = bool(codes) and codes[0] in {word.text for word in tokens(first)[:_HEADING_WORDS]}
        return f"{owner}{codes[0]}" if len(codes) == 1 or heads else None
    codes = list(dict.fromkeys(code for code in found if _GIVEN_CODE.match(code)))
    if len(codes) > 1 and words[at].lower in _FLAG_NOUNS and codes[0].startswith("-"):
        # "which option sets the file path pattern …" "… can be specified with --trace-event-file-pattern …: node
        # --trace-event-categories v8 --trace-event-file-pattern …": the quote gives the option it answers with first
        return codes[0]
    return codes[0] if len(codes) == 1 else None


def relative_phrase(question: str, noun: str) -> str | None:
    """A subject question turned into the phrase it defines: "Which pyenv release added CPython 3.12.13?" -> "the
    pyenv release that added CPython 3.12.13"."""
    words = tokens(question)
    for index, word in enumerate(words[1:4], start=1):
        if same_noun(word.lower, noun):
            rest = words[index + 1 :]
            if not rest or rest[0].lower in AUXILIARIES:
                return None
            head = phrase(words, 1, index, question)
            return f"the {head} that {unasked(question[rest[0].start :])}"
    return None


def unasked(question: str) -> str:
    return question.strip().rstrip("?.!").rstrip()


def shape(text: str) -> tuple[bool, bool, int]:
    """A name's look: has a digit, is all capitals, how many words ("Falcon X2" ~ "Heron S1", not "IP")."""
    return any(c.isdigit() for c in text), text.isupper(), len(text.split())


def likeness(a: str, b: str) -> int:
    """Shared leading or trailing characters (case-folded): "fetch-retries" ~ "fetch-retry-factor",
    "keepAliveTimeout" ~ "headersTimeout"."""
    a, b = a.lower(), b.lower()
    prefix = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    return max(prefix, shared_ending(a, b))


def shared_ending(a: str, b: str) -> int:
    """How many trailing characters `a` and `b` share, as written ("maxinterval", "mininterval": 8)."""
    return next((i for i, (x, y) in enumerate(zip(reversed(a), reversed(b), strict=False)) if x != y),
                min(len(a), len(b)))
