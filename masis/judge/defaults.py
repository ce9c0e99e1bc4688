"""A default asked for is the asked setting's own default.

"What is the default delay of setInterval?" is not answered by "By default, when a timer is scheduled using
setTimeout() or setInterval(), the event loop will continue running", nor "Which hierarchies does systemd-sysext
manage by default?" by "By default non-UTF-8 locales are suppressed": a quote that says "default" of another
setting, in a passage that holds the question's words, gives a neighbour's default. When the answer's quotes say
"default" and none of them says it of what the question asks the default of — in its own words, or, for a line that
is only the default ("Default: 1000", "The default is 15000", "Defaults to 100 msec"), with the quote before it,
the passage's sentence before it and its section heading — the answer is another setting's. Of the words after
"default" that name the thing, the last must be said: "-x Output XML (default) instead of DDL" shares "output" with
"the default output width" and says nothing of a width. In a quote that runs several reference entries together
("ipc_key INT # Unique ipc key ipc_perm INT # ipc permissions (default 0600)"), a "default" is the entry's whose key
comes last before it: when every "default" follows another key than the one asked, it is a neighbour's.

What the default is asked of: the words after "default" ("the default *output file name*"), or the setting a
generic word leads to ("the default value *of DRD's --join-list-vol option*"), or, for "… by default", what the
question asks which or what of ("*which hierarchies* does systemd-sysext manage by default", "where is *pip's cache*
stored by default"). Answers whose quotes never say "default" are left to the other rules.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from masis.judge.answer_type import GIVEN, expected_type
from masis.judge.quotes import sentence_before
from masis.judge.sentences import is_keyed_entry, split_sentences
from masis.judge.terms import terms
from masis.state import EvidenceChunk

# "default" as a word: not the part of a flag or a variable (`--default-timeout`, `XZ_DEFAULTS`)
_DEFAULT = re.compile(r"(?<![\w$-])defaults?(?![\w-])", re.IGNORECASE)
_WORD = re.compile(r"[\w.$/<>-]*\w[\w.$/<>-]*(?:::[\w.$/<>-]*\w)*(?:\(\))?|[?,;:()]")
_STOP = frozenset({
    "of", "for", "in", "on", "at", "to", "with", "when", "if", "and", "or", "before", "after", "per", "that", "is",
    "are", "was", "were", "does", "do", "did", "will", "would", "can", "should", "under", "from", "by", "than",
    "without", "within", "as", "?", ",", ";", ":", "(", ")",
})
_GENERIC = frozenset({
    "value", "values", "setting", "settings", "option", "options", "config", "configuration", "parameter",
    "parameters", "argument", "arguments", "field", "fields", "flag", "flags", "key", "keys", "number", "kind", "type",
    "mode", "one", "the", "a",
    "an", "its", "their", "s", "default", "defaults",
})
_WHICH = re.compile(
    r"^\W*(?:which|what|how\s+many|how\s+much)\s+((?:[\w.$'’-]+\s+){0,4}?)"
    r"(?:does|do|did|is|are|was|were|will|would|can|should)\b",
    re.IGNORECASE,
)
# "what value does X use for Y by default", "which value is given to Y by default": the thing is Y
_VALUE_FOR = re.compile(
    r"^\W*(?:which|what)\s+(?:value|setting)s?\s+(?:does|do|did|is|are|will|would)\s+[^?]*?\b(?:for|of|to)\s+(.+?)"
    r"\s+by\s+defaults?\b",
    re.IGNORECASE,
)
_ABOUT = re.compile(
    r"^\W*(?:(?:where|what|when|how\s+\w+|which)\s+)?(?:does|do|did|is|are|was|were|will|would|can|should)\s+(.+?)"
    r"\s+(?:by\s+defaults?\b|defaults?\s+to\b)",
    re.IGNORECASE,
)
# what a question leaves out is what it asks the default of: "when --keep-daily is not given", "when no encoding
# argument is given"
_LEFT_OUT_THING = re.compile(
    rf"\b(?:when|if|where|while)\s+(?:no\s+)?(?P<thing>[^?,;]{{1,40}}?)\s+(?:is|are)\s+(?:not\s+)?(?:{GIVEN})\b",
    re.IGNORECASE,
)
# an identifier's words ("XML_SetBillionLaughsAttackProtectionActivationThreshold" says "activation threshold")
_CAMEL_HUMP = re.compile(r"(?<=[a-z])(?=[A-Z])")
# a line that is only the default: its setting is named by the line or the heading above it ("Default: 1000", "The
# default value, if not specified, is 16"), not one that names it ("The default read timeout is 900 seconds" is the
# read timeout's, whatever was quoted before it)
_DEFAULT_FIRST = re.compile(
    # … or that says it of a generic word ("The option defaults to false" after the sentence naming the option)
    r"^\W*(?:(?:the|this|that|its)\s+(?:option|setting|value|flag|parameter|field|key|argument)\s+)?(?:the\s+)?"
    r"defaults?\b",
    re.IGNORECASE,
)
# a word after "default" that is an identifier ("indent_level", "--platform"): the thing the default is asked of,
# whatever noun follows it ("the default indent_level format option"); a dotted name ("node.js") may be a product
_IDENTIFIER_WORD = re.compile(r"\w_\w|^--?\w")
# a setting written in camel case ("RevokedKeys", "chunkSize"), or in capitalised words joined by hyphens as apt's
# and HTTP's keys are ("Check-Date", "Retry-After"): an identifier too, though `_words` lower-cases it
_CAMEL_CASE = re.compile(r"(?<![\w.-])[A-Za-z][a-z0-9]+(?:[A-Z][a-z0-9]+)+(?![\w-])"
                         r"|(?<![\w.-])[A-Z][a-z0-9]+(?:-[A-Z][A-Za-z0-9]*)+(?![\w-])")


def _words(text: str) -> list[str]:
    return [word.lower().removesuffix("'s").removesuffix("’s") for word in _WORD.findall(text)]


# a participle that the phrase's agent follows ends the phrase: "the default minimum evaluation time *set by -i#*" asks
# the time's default (kitdocs tune kt-057); "the default character set" keeps its noun
_PARTICIPLES = frozenset({"set", "used", "given", "passed", "chosen", "applied", "specified", "defined", "configured",
                          "selected", "taken", "returned", "written"})


def _run(words: Sequence[str]) -> list[str]:
    """The words up to the first that ends a noun phrase (`_STOP`, or a participle before "by")."""
    run: list[str] = []
    for at, word in enumerate(words):
        if word in _STOP or (word in _PARTICIPLES and words[at + 1 : at + 2] == ["by"]):
            break
        run.append(word)
    return run


def asked_of(question: str) -> list[str]:
    """The words naming what the question asks the default of; [] when it asks for no default (`expected_type`: not
    "Which option stops the default door call case from warning?") or names nothing."""
    return _asked(question)[0]


# a name with its short form in brackets after it: "ldmMinMatch (lmml)", "--dest-compress (-z)"
_ALIAS = re.compile(r"([\w.$-]+)\s*\(([\w.$-]+)\)")


def _asked(question: str) -> tuple[list[str], bool]:
    """`asked_of`'s words, and whether they are the noun phrase right after "default" ("the default *output
    width*"), whose last word is the thing, not the phrase a generic word leads to ("the default value *of chrony's
    maxdelay*"); a name's short form in brackets after it is one of them ("ldmMinMatch (lmml)")."""
    named, after_default = _asked_words(question)
    aliases = [alias.lower() for name, alias in _ALIAS.findall(question) if name.lower() in named]
    return [*named, *(alias for alias in aliases if alias not in named)], after_default


def _asked_words(question: str) -> tuple[list[str], bool]:
    match = _DEFAULT.search(question)
    if expected_type(question) != "default":
        return [], False
    if match is None:
        left_out = _LEFT_OUT_THING.search(question)
        return (_naming_words(left_out["thing"]) if left_out else []), False
    after = _words(question[match.end():])
    head = _run(after)
    named = [word for word in head if word not in _GENERIC]
    by_default = question[: match.start()].rstrip().lower().endswith("by")
    if named:
        return named, True
    if not by_default and after[len(head):][:1] in (["of"], ["for"]):
        named = [word for word in _run(after[len(head) + 1:]) if word not in _GENERIC]
    if named:
        return named, False  # "the default value of chrony's maxdelay option": any of its words may be said
    for pattern in (_WHICH, _ABOUT):
        if found := pattern.match(question):
            if pattern is _WHICH and (phrase := _words(found.group(1))) and phrase[-1] in _GENERIC:
                # "Which apt-get option is on by default …?" asks which option: any quoted option's default is its own
                return [], False
            named = _naming_words(found.group(1))
            if named:
                return named, False
    return [], False


def _naming_words(text: str) -> list[str]:
    """The words of a phrase of the question that may name the thing: not generic, not a function word."""
    return [word for word in _words(text) if word not in _GENERIC and word not in _STOP]


def _reading(index: int, quotes: Sequence[tuple[str, EvidenceChunk]]) -> str:
    """What the quote at `index` says its default of: itself, and for a line that is only the default, the quote
    before it from the same passage, its passage's sentence before it and its section heading."""
    sentence, chunk = quotes[index]
    if not _default_alone(sentence):
        return sentence
    # the quote before it from the same passage, unless another entry opens between them: "SYS_NAME_REGEX System
    # user- and groupnames are checked …" does not own a "Defaults to yes." three entries further down
    before = [quotes[index - 1][0]] if index and quotes[index - 1][1]["chunk_id"] == chunk["chunk_id"] and not (
        _entry_between(chunk["text"], quotes[index - 1][0], sentence)) else []
    return "\n".join([sentence, *before, sentence_before(chunk["text"], sentence) or "", chunk.get("section") or ""])


def _entry_between(passage: str, first: str, second: str) -> bool:
    """Whether another entry ("USE_EXTRAUSERS Use the extrausers tables.") opens, or another default is said, between
    the sentences `first` and `second` of `passage`; False when either is not found there."""
    sentences = [" ".join(text.split()) for text in split_sentences(passage)]
    wanted = " ".join(first.split()), " ".join(second.split())
    if wanted[0] not in sentences or wanted[1] not in sentences:
        return False
    start, end = sentences.index(wanted[0]), sentences.index(wanted[1])
    # an entry says its default once: a line that says one between them is the default of the entry they are in (not
    # one that names a default thing of its own: "The default unit is seconds" is no entry's default value)
    return any(_opens_entry(text) or (_DEFAULT.search(text) and not _only_of_other_things(text, frozenset()))
               for text in sentences[start + 1 : end])


# a sentence that opens another entry: a key first ("UID_POOL and GID_POOL specify …", "--retry <num> …"), a name in
# capitals alone ("USERGROUPS"), or a list's next item ("• Date-Max-Future (date-max-future) controls …" under
# sources.list(5)'s "• Check-Date …", whose "Default to the value of … Acquire::Max-FutureTime" is its own, coredocs
# cr-080)
_OPENING_KEY = re.compile(r"^(?:--?[A-Za-z][\w-]*|[A-Za-z]\w*_\w+)(?![\w-])|^[A-Z][A-Z0-9]{3,}$|^[*•‣◦▪-]\s+\S")


def _opens_entry(sentence: str) -> bool:
    return is_keyed_entry(sentence) or _OPENING_KEY.match(sentence) is not None


def _said_terms(text: str) -> frozenset[int]:
    """The terms of `text`, an identifier's whole and its words ("maxFreeSockets", and "max", "free", "sockets")."""
    return terms(text) | terms(_CAMEL_HUMP.sub(" ", text))


def _default_alone(sentence: str) -> bool:
    """Whether `sentence` opens with "default" and names nothing it is the default of ("Default: 1000"; not "The
    default of prune is to apply to all archives")."""
    match = _DEFAULT_FIRST.match(sentence)
    if match is None:
        return False
    after = _words(sentence[match.end():])
    head = _run(after)
    if not all(word in _GENERIC for word in head):
        return False
    rest = after[len(head):]
    return not (rest[:1] in (["of"], ["for"]) and any(word not in _GENERIC for word in _run(rest[1:])))


# "default" before a noun names a thing that is the default one ("the default network", "the default registry"): it says
# nothing of another setting's default, unless that noun is the setting asked about
_ATTRIBUTIVE = re.compile(
    r"(?<![\w$-])default\s+(?P<noun>[a-z][a-z-]*)\b(?!\s*[:=(])(?:\s+(?P<head>[a-z][a-z-]*)\b)?", re.IGNORECASE)
_BY = re.compile(r"\bby\s*$", re.IGNORECASE)  # "by default" says how something is, not which thing
_VALUE_WORDS = frozenset({"true", "false", "on", "off", "yes", "no", "none", "null", "unlimited", "empty", "enabled",
                          "disabled", "behavior", "behaviour"})


def _only_of_other_things(sentence: str, head: frozenset[int]) -> bool:
    """Whether every "default" of `sentence` stands before a noun of its own that is not the thing asked about ("If
    the default network was edited …" says nothing of how long a key stays valid by default)."""
    found = list(_DEFAULT.finditer(sentence))
    if not found:
        return False
    for match in found:
        noun = _ATTRIBUTIVE.match(sentence, match.start())
        if noun is None or match.group(0).lower() != "default" or _BY.search(sentence[: match.start()]):
            return False
        word = noun["noun"].lower()
        if word in _STOP or word in _GENERIC or word in _VALUE_WORDS or terms(word) & head:
            return False
        if noun["head"] and terms(noun["head"]) & head:
            return False  # "the default output file" is a file: the one asked of in "What file does Callgrind write …"
    return True


def default_elsewhere(question: str, quotes: Sequence[tuple[str, EvidenceChunk]]) -> str | None:
    """What the question asks the default of (its words joined) when the quotes that say "default" all say it of
    something else; None when they say it of that, when none says "default", or when the question asks no default."""
    if (valued := _VALUE_FOR.match(question)) and (setting := _naming_words(valued.group(1))):
        return _default_of_other_entries(setting, quotes)
    named, after_default = _asked(question)
    wanted = terms(" ".join(named)) if named else frozenset()
    if not wanted:
        return None
    # in "the default output width" the last word is the thing and the words before it narrow it: "Output XML …
    # (default)" shares "output" and says nothing of a width; an identifier there is the thing, whatever follows it
    camel = {word.lower() for word in _CAMEL_CASE.findall(question)}
    identifiers = [word for word in named if _IDENTIFIER_WORD.search(word) or word in camel]
    thing = " ".join(identifiers) if identifiers else named[-1]
    head = (terms(thing) or wanted) if after_default else wanted
    saying = [index for index, (sentence, _) in enumerate(quotes) if _DEFAULT.search(sentence)]
    if not saying:
        return None
    of_asked = [index for index in saying if not _only_of_other_things(quotes[index][0], wanted)]
    if not of_asked:
        return " ".join(named)  # every quoted "default" names a default thing of its own ("the default network")
    # a scoped key is said whole: `Unattended-Upgrade::Package-Blacklist` is not said by the line of
    # `Unattended-Upgrade::Package-Whitelist-Strict`, whose words it shares
    keys = [word for word in named if "::" in word]
    if keys:
        said = any(_says_key(_reading(index, quotes), key) for index in of_asked for key in keys)
        return None if said else " ".join(named)
    said = [index for index in of_asked
            if _says_thing(index, quotes, head, identifiers) or _names_it_after_default(quotes[index][0], named)]
    if not said:
        return " ".join(named)
    if all(_owned_by_others(quotes[index][0], [*identifiers, *_joined_runs(named)]) for index in said):
        # an entry list quoted as a run: "ipc_key INT # Unique ipc key ipc_perm INT # … (default 0600)" gives
        # ipc_perm's default, not ipc_key's
        return " ".join(named)
    return None


# a reference entry's key: an option ("-s", "--time-step-size") or an identifier ("ipc_perm", "maxFreeSockets")
_ENTRY_KEY = re.compile(r"(?<![\w$./-])(?:--?[A-Za-z][\w-]*|[A-Za-z]\w*_\w+|[a-z]+[A-Z][A-Za-z0-9]*)(?![\w-])")


def _joined_runs(named: Sequence[str]) -> list[str]:
    """The keys the named words may be, every run of them joined: "time-step-size" for "time-step size"."""
    return ["-".join(named[start:end]) for start in range(len(named)) for end in range(start + 1, len(named) + 1)]


def _key_form(key: str) -> str:
    """A key as it compares: "--Time_Step" and "time-step" alike."""
    return key.lower().lstrip("-").replace("_", "-")


def _default_of_other_entries(setting: list[str], quotes: Sequence[tuple[str, EvidenceChunk]]) -> str | None:
    """The setting a "what value does X use for <setting> by default?" asks about, when every quote that says "default"
    opens another entry's key: "AllowHybridSleep= By default any power-saving mode is advertised …" gives no default of
    SuspendMode= (yarddocs tune yd-079). An entry's body saying it without its key ("By default, Wget will assume a
    value of 10 seconds" under --waitretry) may be the setting's own."""
    saying = [sentence for sentence, _ in quotes if _DEFAULT.search(sentence)]
    asked = {word.lower() for word in setting}
    opened = [_ENTRY_OPENED.match(sentence) for sentence in saying]
    if saying and all(key is not None and key.group(1).rstrip("=").lower() not in asked for key in opened):
        return " ".join(setting)
    return None


# an entry's key opening a quote: an option ("--waitretry=seconds") or a setting with its "=" ("AllowHybridSleep=")
_ENTRY_OPENED = re.compile(r"^\s*(--?[A-Za-z][\w-]*|[A-Za-z][\w.-]*=)(?=[\s,]|$)")


def _owned_by_others(sentence: str, identifiers: Sequence[str]) -> bool:
    """Whether every "default" of `sentence` comes after a key other than the asked `identifiers`, with the asked one
    not named between that key and it: the default of the entry that key starts. False when a "default" comes before
    any key, or after the asked one."""
    asked = {_key_form(identifier) for identifier in identifiers}
    keys = [(match.start(), _key_form(match.group(0))) for match in _ENTRY_KEY.finditer(sentence)]
    defaults = list(_DEFAULT.finditer(sentence))
    if not defaults or not any(key in asked for _, key in keys):
        return False
    for match in defaults:
        before = [key for at, key in keys if at < match.start()]
        if not before or before[-1] in asked:
            return False
    return True


def _says_key(text: str, key: str) -> bool:
    """Whether `text` names the setting `key` as a whole, not as the start of a longer key, or names its last part as a
    key of its own, as a reference lists a group's settings ("MaxReleaseFileSize The maximum file size …" under
    apt.conf(5)'s Acquire group)."""
    last = key.rsplit("::", 1)[-1]
    return any(re.search(rf"(?<![\w:-]){re.escape(said)}(?![\w]|::|[-.]\w)", text, re.IGNORECASE) is not None
               for said in dict.fromkeys((key, last)))


def _says_thing(
    index: int, quotes: Sequence[tuple[str, EvidenceChunk]], head: frozenset[int], identifiers: Sequence[str]
) -> bool:
    """Whether the quote at `index`, read as `_reading` does, says the thing asked the default of: one of its words,
    and, when the question names it by an identifier, from a passage that holds the identifier as written in its
    quotes, its heading ("## --jobs") or its document's name (a man page's line break, "CBIND‐ ING", joined). The
    words of "sts_regional_endpoints" are not said by "The AWS CLI config file, which defaults to ~/.aws/config …
    region=us-west-2", quoted from the page's passage on the file's format (kitdocs tune kt-032). A quote of the passage
    names it only when no other entry opens between that quote and this one (coredocs tune cr-080)."""
    reading = _reading(index, quotes)
    chunk = quotes[index][1]
    if identifiers:
        # the passage's other quotes, unless another entry opens between one and this quote ("• Check-Date …" does not
        # name what "Default to … Acquire::Max-FutureTime" is the default of, "• Date-Max-Future …" coming between)
        sentence = quotes[index][0]
        passage = [quote for quote, other in quotes if other["chunk_id"] == chunk["chunk_id"]
                   and not _entry_between(chunk["text"], quote, sentence)]
        named = [reading, *passage, chunk.get("section") or "", chunk["doc_name"]]
        said = _LINE_BREAK.sub("", "\n".join(named)).lower().replace("`", "")
        said = said.replace("-", "_")  # "prometheus-node-exporter-CHANGELOG.md" names node_exporter
        if not any(word.replace("-", "_") in said for word in identifiers):
            return False
    return bool(_said_terms(reading) & head)


# a word broken at a line's end by a man page's rendering: "LDAP_OPT_X_SASL_CBIND‐ ING"
_LINE_BREAK = re.compile(r"(?<=\w)[‐-]\s+(?=\w)")


def _names_it_after_default(sentence: str, named: Sequence[str]) -> bool:
    """Whether `sentence` names the thing asked about right after "default", in the question's first two words or
    more ("The default progress status is …" for "Ninja's default progress status format"; one shared word, as in
    "the default output is XML" for "the default output width", is not enough)."""
    if len(named) < 2:
        return False
    for match in _DEFAULT.finditer(sentence):
        after = _run(_words(sentence[match.end():]))
        if len(after) >= 2 and after[:2] == list(named[:2]):
            return True
    return False
