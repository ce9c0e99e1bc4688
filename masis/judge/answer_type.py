"""What kind of answer a question asks for, and whether a sentence gives one.

"When did the plant open?" wants a date, "How many staff ...?" a number, "Who approved ...?" a name,
"Where is ...?" a place. A sentence that repeats the question's words but holds no date, number or new
name does not answer it; one that does is the better quote, and is an answer even when it words the
question's subject differently. Only the wh-word decides (English); anything else has no expected type.
"""

from __future__ import annotations

import re
from typing import Literal

from masis.judge.sentences import prose_before_program

AnswerType = Literal[
    "date", "number", "person", "place", "default", "version", "flag", "identifier", "code", "unit", "returned",
    "key", "path", "alias", "range"]

_MONTHS = "january february march april may june july august september october november december"
_DATE_NOUNS = "year years date century centuries decade decades day month era period season"
_NUMBER_NOUNS = (
    "percentage percent proportion share fraction number amount count total population size age cost price value "
    "distance length height weight depth width area speed rate ratio"
)
_PERSON_NOUNS = "person people man woman author founder leader president ceo director architect composer writer"

# "how many …", "how big …": a question asking for an amount
_HOW_AMOUNT = r"how\s+(?:many|much|long|old|far|big|large|high|tall|often|frequently|fast|deep|wide|heavy)"
_TYPED = re.compile(
    r"\b(?:(?P<date>when|what\s+time)"
    rf"|(?P<number>{_HOW_AMOUNT})"
    r"|(?P<person>who|whom|whose)"
    r"|(?P<place>where)"
    r"|(?:what|which)\s+(?:(?:was|is|were|are)\s+the\s+)?(?P<noun>[a-z]+))\b",
    re.IGNORECASE,
)
_RANGE_NOUNS = ("range", "ranges")
# a range the question names itself asks something else of it: "what is the range 60514…60577 used for?"
_RANGE_NAMED = re.compile(r"\branges?\s+\d", re.IGNORECASE)
# a range given: two bounds ("1024 to 65535", "1000-999,999,999", "61184…65519", "between 32 … and 1024 …")
_RANGE_GIVEN = re.compile(
    r"\d[\d,.]*\s*(?:[a-z]+\s*){0,3}?(?:-|–|—|…|\.\.\.?|\bto\b|\bthrough\b)\s*\d"
    r"|\bbetween\s+\S+(?:\s+\S+){0,4}?\s+and\s+\S*\d"
    r"|\bfrom\s+\S*\d\S*(?:\s+\S+){0,3}?\s+(?:to|up\s+to|until)\s+\S*\d",
    re.IGNORECASE)
_NUMBER_WORDS = (
    "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred hundreds "
    "thousand thousands million millions billion billions dozen dozens half quarter third twice"
)
_DATE = re.compile(
    # a year inside a code is no date: "CVE-2022-24765" (but "08-Mar-2021" is one)
    rf"(?<!(?-i:[A-Z]{{2}})-)\b(?:1\d{{3}}|20\d\d|\d{{1,2}}(?:st|nd|rd|th)\s+century|\d{{2,4}}s|"
    rf"{_MONTHS.replace(' ', '|')}"
    r"|(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|thirteenth|"
    r"fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth|twenty-first)\s+century"
    r"|(?:BC|BCE|AD|CE)\b"
    # a time of day answers "when" too: "7:30", "9 am", "half past seven", "noon"
    r"|\d{1,2}:\d\d\b|\d{1,2}\s*(?:am|pm|a\.m\.|p\.m\.)|(?:half|quarter)\s+(?:past|to)\b|o'clock|noon|midnight)",
    re.IGNORECASE,
)
# a figure, not the figures of a name ("ASN.1", "Falcon X2", "IP67", "A380", "v1.4": not its "4"), nor a number word
_NUMBER = re.compile(
    rf"(?<![A-Za-z\d])(?<![A-Za-z\d]\.)\d(?:[\d,.]*\d)?|\b(?:{_NUMBER_WORDS.replace(' ', '|')})\b", re.IGNORECASE)
# a span of time answers "when" too: "within thirty days", "two weeks after launch"
_DURATION = re.compile(
    rf"(?:\d[\d,.]*|\b(?:{_NUMBER_WORDS.replace(' ', '|')}))\s+(?:second|minute|hour|day|week|month|year|decade)s?\b",
    re.IGNORECASE,
)
_FIGURE = rf"(?:\d[\d,.]*|\b(?:{_NUMBER_WORDS.replace(' ', '|')}))\s*-?\s*"
_MASS = re.compile(_FIGURE + r"(?:kg|g|mg|grams?|kilograms?|kilos?|lbs?|pounds?|oz|ounces?|tonnes?|tons?)\b",
                   re.IGNORECASE)
_LENGTH = re.compile(
    _FIGURE + r"(?:mm|cm|m|km|metres?|meters?|kilometres?|kilometers?|miles?|feet|foot|ft|inch(?:es)?|in|yards?)\b",
    re.IGNORECASE,
)
_SPAN = re.compile(
    _FIGURE + r"(?:ms|msecs?|milliseconds?|s|secs?|seconds?|mins?|minutes?|h|hrs?|hours?|days?|weeks?|months?|years?"
    r"|decades?|centuries|century)\b",
    re.IGNORECASE,
)
# "How long is the timeout?" is answered by a span of time ("10 seconds") or a length ("1.2 km"), not by a version
# ("OpenSSH 3.8") or a count beside it
_LONG = re.compile(f"{_SPAN.pattern}|{_LENGTH.pattern}", re.IGNORECASE)
# "How long has the government been engaged …?" is answered by when it started ("since 2001", "from January 1964
# until …"), or by a span without a figure ("less than a year")
_SINCE = re.compile(
    rf"\b(?:since|from)\s+(?:the\s+)?(?:early\s+|late\s+|mid-?\s*)?(?:1\d{{3}}|20\d\d|{_MONTHS.replace(' ', '|')})\b"
    r"|\b(?:a|an)\s+(?:few\s+)?(?:second|minute|hour|day|week|month|year|decade|century)s?\b",
    re.IGNORECASE,
)
_MEASURE_UNITS = {"heavy": _MASS, "tall": _LENGTH, "deep": _LENGTH, "wide": _LENGTH, "far": _LENGTH, "long": _LONG}
_MEASURED = re.compile(r"\bhow\s+(heavy|tall|deep|wide|far|long)\b(?!\s+ago\b)", re.IGNORECASE)
_HOW_MANY_THINGS = re.compile(r"\bhow\s+many\b", re.IGNORECASE)
_COUNTS_MONEY = re.compile(
    r"\bhow\s+many\s+(?:dollars|euros|pounds|yen|francs|cents|percent|per\s*cent|percentage\s+points)\b", re.IGNORECASE)
# a currency sign or code right before the figure, or before the figure a scale word follows ("$9.4 million")
_CURRENCY_BEFORE = re.compile(r"(?:[$€£¥]|\b(?:USD|EUR|GBP|CHF|JPY))\s*(?:\d[\d,.]*\s*)?$", re.IGNORECASE)
_SHARE_AFTER = re.compile(r"^\s*(?:%|percent\b|per\s*cent\b)", re.IGNORECASE)
# "How much does the K2 kettle cost?", "What is the price of …?": a price, not any figure ("1.7 litres")
_ASKS_PRICE = re.compile(
    r"\bhow\s+much\s+(?:does|do|did|will|would|is|are|was|were)\b[^?]*\bcost\b|\bwhat\s+(?:does|do|did|will)\b[^?]*\bcost\b"
    r"|\b(?:price|cost)\s+of\b",
    re.IGNORECASE,
)
# a currency named after the figure ("5 million euros", "1,000 dollars")
_CURRENCY_AFTER = re.compile(
    r"^\s*(?:(?:thousand|million|billion|trillion|k|m|bn)\s+)?(?:dollars|euros|pounds|yen|francs|marks|rupees|yuan|"
    r"kroner|krona|USD|EUR|GBP|CHF|JPY|NOK|SEK|DKK)\b",
    re.IGNORECASE,
)
# "What share of the budget goes to Operations?" asks for a part of a whole: "19%", "a third", "one in five", not the
# whole's "$38 million"
_ASKS_SHARE = re.compile(
    r"\b(?:what|which)\s+(?:(?:was|is|were|are)\s+the\s+)?(?:share|percentage|proportion|fraction|percent|per\s*cent)\b"
    r"|\bhow\s+many\s+(?:percent|per\s*cent)\b",
    re.IGNORECASE,
)
_PART_OF_WHOLE = re.compile(
    r"\b(?:half|halves|quarters?|thirds?|fifths?|tenths?)\b|\b(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten)"
    r"\s+(?:in|out\s+of)\s+(?:every\s+)?(?:\d+|two|three|four|five|six|seven|eight|nine|ten|a\s+hundred)\b",
    re.IGNORECASE,
)


# "… page 16, 2.4 Library Notes": a section's number before its title, at the end of a line of contents
_SECTION_TITLE_AFTER = re.compile(r"\s+(?:[A-Z][a-z]+\s+){0,4}[A-Z][a-z]+\s*$")
# "page 22", "section 4", "Figure 3": where something is in a document, not a value it gives
_REFERENCE_BEFORE = re.compile(r"\b(?:pages?|pp?\.|sections?|chapters?|figures?|fig\.|tables?|appendix|footnote)\s*$",
                               re.IGNORECASE)


def _currency_before(sentence: str, match: re.Match[str]) -> bool:
    return _CURRENCY_BEFORE.search(sentence[max(0, match.start() - 16) : match.start()]) is not None


def _is_money_or_share(sentence: str, match: re.Match[str]) -> bool:
    """Whether a figure of `sentence` is an amount of money ("$9.4 million") or a share ("25%"), not a count."""
    return _currency_before(sentence, match) or _SHARE_AFTER.match(sentence[match.end() :]) is not None


def _is_money(sentence: str, match: re.Match[str]) -> bool:
    """Whether a figure of `sentence` is an amount of money: "$1,249", "£1.2 million", "49 euros"."""
    return _currency_before(sentence, match) or _CURRENCY_AFTER.match(sentence[match.end() :]) is not None


# the month May beside a day, a year or a preposition of time ("9 May 2027", "May 2027", "in May"); else the modal
# ("Underscore may now be required with …")
_MONTH_MAY = re.compile(
    r"\d\s+$|\b(?:in|since|until|till|by|from|during|of|early|late|mid|before|after)\s+$", re.IGNORECASE)


def _modal_may(sentence: str, match: re.Match[str]) -> bool:
    if match.group(0).lower() != "may":
        return False
    after = sentence[match.end() : match.end() + 6]
    return not (_MONTH_MAY.search(sentence[max(0, match.start() - 12) : match.start()]) or re.match(r"\s+\d", after))


# "One of the most prominent refugees was Pierre Bayle" picks one out of many; it counts nothing
# a figure in a link's path or after "#" numbers an issue or a page ("…/npm/issues/6082", "#227"): it counts nothing
_NUMBERED_THING = re.compile(r"[/#]$")
# ... nor dates anything ("…/joblib/pull/1218" is no year 1218; "03/2021" is a month)
_LINKED = re.compile(r"(?:#|(?<![\d\s])/)$")
# a stage before a release: its date is not the release's ("When was Optuna v5 released?")
_PRE_RELEASE = re.compile(
    r"\b(?:release\s+candidates?|pre-?releases?|beta|alpha|(?:developer\s+)?preview|rc\d+)\b", re.IGNORECASE)
_ASKS_RELEASED = re.compile(r"\breleased?\b|\bcome\s+out\b|\bcame\s+out\b|\bshipped\b", re.IGNORECASE)
_ONE_OF = re.compile(r"one\s+of\b", re.IGNORECASE)
# a figure that is part of a name: digits run into letters that are no unit ("2FA", "3DES", "H1" is caught before),
# a number word joined to a noun ("two-factor authentication", "one-time password"); "16K", "128MB", "twenty-five",
# "two-thirds" are figures
_NAMED_FIGURE = re.compile(
    r"(?!(?:[kKMGTP]i?B|[kKMGT]|ms|s|x|px|th|st|nd|rd|h|m|d)\b)[A-Za-z]{2,}"
    rf"|-(?!(?:{_NUMBER_WORDS.replace(' ', '|')})s?\b|[a-z]+ths?\b)[a-z]",
)
_HOW_MANY = re.compile(r"\bhow\s+(?:many|much)\b", re.IGNORECASE)
_YEAR = re.compile(r"1\d{3}|20\d\d")
_HOW_LONG = re.compile(r"\bhow\s+long\b", re.IGNORECASE)
# "How often does Requests ship a minor release?" asks for a rate ("every four years", "twice a year", "annually",
# "rarely"), which a version or a count does not give ("a minor release would be versioned as v10.3.0")
_ASKS_FREQUENCY = re.compile(r"\bhow\s+(?:often|frequently)\b", re.IGNORECASE)
_FREQUENCY = re.compile(
    r"\b(?:every|each|once|twice|thrice|times)\b"
    r"|\b(?:per|a|an)\s+(?:second|minute|hour|day|night|week|month|quarter|year|decade)\b"
    r"|\b(?:half-)?(?:hourly|daily|nightly|weekly|fortnightly|monthly|quarterly|yearly|annually|annual|biennial(?:ly)?"
    r"|biweekly|bimonthly|semiannual(?:ly)?|rarely|seldom|often|frequently|sometimes|occasionally|usually|always"
    r"|never|regularly|periodically|continuously)\b",
    re.IGNORECASE,
)
_TIME_UNITS = re.compile(r"\b(?:seconds|minutes|hours|days|weeks|months|years|decades|centuries)\b", re.IGNORECASE)
_NAME = re.compile(r"\b[A-Z][\w'’.-]*(?:\s+(?:of\s+|de\s+|von\s+|van\s+)?[A-Z][\w'’.-]*)*")
_WORD = re.compile(r"[\w'’-]+")
# a team's documents answer "who" with a role as often as with a name: "sign-off from the chief financial officer",
# "the customer pays a flat $25", "a small group of customers will run …"
_ROLE = re.compile(
    r"\b(?:officers?|managers?|teams?|customers?|clients?|employees?|staff|board|committee|department|"
    r"administrators?|maintainers?|developers?|users?|vendors?|suppliers?|contractors?|auditors?|reviewers?|"
    r"owners?|sponsors?)\b",
    re.IGNORECASE,
)
# a person as a changelog or a chat names one: "Add fish install oneliner by @ElijahLynn" (not a scope, "@types/node")
_HANDLE = re.compile(r"(?<![\w.@])@[A-Za-z0-9][\w-]*\b(?!/)")
# what may follow a role that is the one asked for: a verb ("pays", "approved", "will"), a preposition, the end
_AFTER_ROLE = re.compile(
    r"\s*(?:$|[^\w\s]|(?:[a-z]+s|[a-z]+ed|is|was|are|were|will|would|may|might|must|can|could|should|shall|has|"
    r"have|had|do|does|did|of|in|at|for|on|and|or|who|that|which|to|alone|only)\b)"
)


_AUXILIARY_WORDS = (
    "is was are were be been do does did has have had can could will would shall should may might must "
    "a an the of in on at to for by with from as this that these those it its"
)
_AUXILIARIES = frozenset(_AUXILIARY_WORDS.split())
_KIND_NOUNS = frozenset(f"{_DATE_NOUNS} {_NUMBER_NOUNS} {_PERSON_NOUNS}".split())
_NEXT_WORD = re.compile(r"\s+([a-z]+)\b", re.IGNORECASE)
_COMPOUND_WORDS = 4  # how far into a "what is the A B C size" compound its kind is looked for when typing it


def _asked_noun(match: re.Match[str], question: str, reach: int = 1) -> str:
    """The noun of a "what/which" phrase; of a compound, the word up to `reach` words on that names a kind of
    answer ("what was the wedding date" asks for a date, and "wedding" is what the question is about; "what is the
    maximum decompressed message size", read with a longer reach, asks for a size)."""
    end = match.end()
    for _ in range(reach):
        following = _NEXT_WORD.match(question, end)
        if following is None or following.group(1).lower() in _AUXILIARIES:
            break
        if following.group(1).lower() in _KIND_NOUNS:
            return following.group(1)
        end = following.end()
    return match.group("noun")


# nouns that head a compound after "what/which": "which backport *label*", "which gzip *option*", "which npm
# *version*", "what exit *status*" ask for a label, an option, a version, a status; the word before says of what
_HEAD_NOUN_WORDS = (
    "label file variable option command item version release level value name key field flag setting timeout format "
    "path directory code status tool package module function method class type mode port limit size length time "
    "timeline window hours capacity memory priority syntax list"
)
_HEAD_NOUNS = frozenset(_HEAD_NOUN_WORDS.split())


# "which uuid_utils function", "which Node.js command-line option": a tool's name written with "_", "." or "-" before
# the head noun (a word between them at most), which `_TYPED`'s plain word does not take
_WHICH_TOOLS_HEAD = re.compile(
    rf"\b(?i:what|which)\s+[\w+-]*\w[_.+-][\w.+-]*\s+(?:[a-z][\w-]*\s+)?(?P<head>{'|'.join(_HEAD_NOUNS)})\b")


def answer_noun(question: str) -> str | None:
    """The noun a "what/which" question names its answer by ("what city", "which year", "what is the name"):
    the kind of thing asked for, which the answer gives as an instance ("Santa Clara") rather than repeats; of a
    compound, its head ("which backport label": label, not backport; "which uuid_utils function": function)."""
    question = main_clause(question)
    if tools_head := _WHICH_TOOLS_HEAD.search(question):
        return tools_head.group("head")
    for match in _TYPED.finditer(question):
        if not match.group("noun"):
            return None
        noun = _asked_noun(match, question)
        if not noun.islower() or noun in _AUXILIARIES:
            return None
        head = _NEXT_WORD.match(question, match.end())
        return head.group(1) if head and head.group(1) in _HEAD_NOUNS else noun
    return None


# "What is the default …?", "… by default?": a reference entry's default, which a sentence gives by saying "default"
# with a value ("Default: 5000", "The default is 1000 microseconds", "defaults to false").
# what happens when an option is left out asks for its default: "when -m is not given", "when no encoding argument is
# given", "if I don't touch the config"; it denies nothing (`masis.judge.negation`)
# how a setting is said to be given (`masis.judge.contrast` reads its conditions with a few more)
GIVEN = "given|specified|set|passed|provided|supplied"
LEFT_OUT = re.compile(
    rf"\b(?:when|if|where|while)\b[^?,;]{{0,40}}?(?:\b(?:is|are)\s+(?:not|n't)\s+(?:{GIVEN})"
    rf"|\bno\s+(?:[\w-]+\s+){{0,2}}(?:is|are)\s+(?:{GIVEN})"
    r"|\b(?:(?:do|does|did)\s+not|don't|dont|doesn't|doesnt|didn't)\s+(?:give|specify|set|pass|provide|supply|touch)"
    r"|\b(?:give|pass|provide|supply)\s+(?:it|them)\s+no)\b"
    r"|\bout\s+of\s+the\s+box\b",
    re.IGNORECASE,
)
# the default is what the question asks for ("What is the default …?", "… by default?", "What does X default to?",
# "Which setting is the default?"), not a thing it names ("Which option stops the default door call case from
# warning?", "What line restores upstream's IPQoS default?")
_ASKS_DEFAULT_ITSELF = re.compile(
    r"\bby\s+default\b|\bdefaults?\s+to\b|\bdefault\s+(?:values?|settings?|of|for)\b|\b(?:is|are|was|were)\s+(?:on|off|"
    r"enabled|disabled|set|used|turned\s+on)?\s*(?:by\s+)?(?:the\s+)?default\b"
    r"|\b(?:what|which)(?:['’]s|\s+(?:is|are|was|were))\s+(?:[\w.$'’()-]+\s+){0,5}?defaults?\b"
    # "What default compression level does Borg use for zstd?" asks a value ("Which default network …" a thing)
    r"|^\W*(?:what|which)\s+default\s+(?:[\w-]+\s+)?(?:level|value|size|timeout|limit|interval|port|count|number"
    r"|length|depth|rate|delay|period|threshold|mode)s?\s+(?:does|do|did|is|are|will)\b",
    re.IGNORECASE,
)
# a default thing, not a setting's default: "the default branch", "my default browser"
_NOT_A_THING_DEFAULT = r"(?!\s+(?:branch|browser|shell|editor)\b)"
# whether a setting has a default asks for it: "does max_bandwidth have a default too?" (kitdocs tune thread cv-448#3,
# answered by the example line "aws configure set default.s3.max_bandwidth 50MB/s")
_HAS_DEFAULT = re.compile(
    rf"^\W*(?:does|do|did|is|are|has|have)\b[^?]*?\b(?:have|has|there|got)\s+(?:a|any)\s+default\b{_NOT_A_THING_DEFAULT}",
    re.IGNORECASE)
_ASKS_DEFAULT = re.compile(rf"\b(?:default|defaults)\b{_NOT_A_THING_DEFAULT}", re.IGNORECASE)
# a sentence that says what a default is ("Default: 5000", "[default: 30]", "by default, …", "defaults to false",
# "the default is 256", "the default progress status is …", "the default 900k block size", "900,000 bytes (the
# default)", "This is the default"), not one that only names a default thing ("submit audit reports to the default
# registry")
_SAYS_DEFAULT = re.compile(
    r"\bby\s+default\b|\bdefault(?:s|ing)?\s*(?:[:=]|\b(?:to|is|was|are|were|value|setting|settings|of)\b)"
    # dig(1)'s "instead of the default, 3"
    r"|\bthe\s+default,\s+(?=[\d'\"`])"
    r"|[\[(](?:the\s+)?default\b|\bdefault\s+(?=[\d'\"`]|(?:true|false|null|none|on|off|yes|no|unlimited)\b)"
    r"|\b(?:is|was|are|be)\s+(?:the\s+)?default\b|\bdefault\s+(?:[\w-]+\s+){1,4}(?:is|was|are)\s"
    # what holds when a setting is left out: "If unspecified, "SYSEXT_SCOPE=system portable" is implied"
    r"|\b(?:if|when)\s+(?:unspecified|omitted|unset)\b"
    # a changelog's entry: "Default GOMAXPROCS to 1", "Change default log level to info"
    r"|\bdefault\s+[\w.-]+(?:\s+[\w.-]+)?\s+to\s+(?=[\d'\"`])"
    # a reference's entry line: "Default AES key size, 32."
    r"|^\W*default\s+(?:[\w-]+\s+){0,4}[\w-]+,\s*[\w.'\"`-]+\W*$",
    re.IGNORECASE,
)
# a default the sentence says can be set, not what it is: "The default value can be set on a host-by-host basis in the
# configuration files" (ssh(1)'s -c, deskdocs tune dk-080, answered at 0.85 by ssh_config(5)'s section number)
_SETTABLE_DEFAULT = re.compile(
    r"default(?:\s+(?:value|setting|settings|values))?\s+(?:can|may|could|should|must|will)\s+(?:also\s+)?be\s+"
    r"(?:set|changed|configured|overridden|specified|altered|modified|adjusted|tuned)\b",
    re.IGNORECASE)
# a sentence that says the quote before it gives the default: `* If "binary-targets", then … run under (fake)root.` /
# "This is the default/status quo."
_POINTS_TO_DEFAULT = re.compile(r"^\W*(?:this|that)\s+(?:is|was)\s+(?:also\s+)?(?:the\s+)?default\b", re.IGNORECASE)


def as_said(claim: str, before: str, kind: AnswerType | None) -> str:
    """What a quote says when it is read for a default: with the quote before it of the same passage (`before`) when
    it only points back to it ("This is the default."), else itself."""
    return f"{before} {claim}" if kind == "default" and before and _POINTS_TO_DEFAULT.match(claim) else claim


# a sentence that says what happens when an option is left out: "If no -f option is present, …", "when -m is not given"
_LEFT_OUT_SAID = re.compile(
    rf"\b(?:if|when|unless)\s+(?:no\s+([\w-]+)(?:\s+[\w-]+)?\s+(?:is|are)\s+(?:present|{GIVEN})\b"
    rf"|([\w-]+)(?:\s+[\w-]+)?\s+(?:is|are)\s+not\s+(?:present|{GIVEN})\b)",
    re.IGNORECASE,
)
# a plain word said to be the default: "The default log facility is authpriv (changeable via configure)"
_DEFAULT_IS_WORD = re.compile(
    r"\bdefault\s+(?:[\w-]+\s+){0,3}?(?:is|are)\s+(?P<value>[A-Za-z][\w-]*)(?=\s*(?:[.,;(]|$))", re.IGNORECASE)
_NOT_A_VALUE = frozenset({"it", "this", "that", "them", "used", "set", "given", "applied", "shown", "below", "above",
                          "here", "there", "unchanged", "different", "platform-dependent", "system-dependent"})


def _default_is_word(sentence: str, asked: set[str]) -> bool:
    """Whether `sentence` says a plain word is the default ("The default log facility is authpriv."), one the
    question does not say; not a verb's participle ("The default is used.") nor a pronoun."""
    return any((value := match["value"].lower()) not in asked and value not in _NOT_A_VALUE
               and not value.endswith(("ed", "ing")) for match in _DEFAULT_IS_WORD.finditer(sentence))


# a choice marked as the default where it is listed: "Truncate tail (default), middle or head of test output", not a
# phrase that ends with the mark ("Output a plain-text SQL script file (the default).")
_MARKED_DEFAULT = re.compile(r"([\w.-]+)\s+\((?:the\s+)?default\)(?=\s*,|\s+(?:or|and)\b)", re.IGNORECASE)
_LITERAL = re.compile(
    r"\b(?:true|false|null|none|undefined|unlimited|infinity|disabled|enabled|on|off|yes|no|empty)\b"
    r"|['\"`][^'\"`\s]{1,40}['\"`]|[\"`][^\"`\n]{1,40}[\"`]|(?<![\w-])--?[a-z][\w-]*|\b[a-z]+[_./][\w./]+"
    # a name that starts with a dot: a file's extension or a dotfile (".js", ".npmrc")
    r"|(?<![\w.])\.[a-z][\w-]*"
    # typographic quotes, as man pages render them: The default is “aes256-ctr”
    r"|[‘“][^’”\n]{1,40}[’”]",
    re.IGNORECASE,
)


# What a "which/what …" phrase of technical documentation asks for, by the noun at its head ("Since which util-linux
# version …", "Which environment variable …", "Which perf record option …"): an instance of that kind, which the
# question does not already give.
_TECHNICAL_NOUNS: dict[str, AnswerType] = {
    **dict.fromkeys(("version", "versions", "release", "releases", "edition"), "version"),
    **dict.fromkeys(("option", "options", "flag", "flags", "switch"), "flag"),
    **dict.fromkeys(("variable", "variables", "constant", "constants", "function", "functions", "macro"), "identifier"),
    **dict.fromkeys(("var", "vars", "envvar", "envvars"), "identifier"),  # "which env var makes dotenv load …"
    **dict.fromkeys(("exception", "exceptions"), "identifier"),  # "ValueError", "portalocker.AlreadyLocked"
    **dict.fromkeys(("uid", "gid", "pid", "port"), "number"),
    **dict.fromkeys(("code", "codes"), "code"),  # an exit code is a figure, a deprecation code an identifier
    **dict.fromkeys(("signal", "signals"), "code"),  # "SIGTERM", "SIGUSR2"
    **dict.fromkeys(("cve", "cves"), "code"),  # "CVE-2023-22490"
    **dict.fromkeys(("rfc", "rfcs", "pep", "peps"), "code"),  # "RFC 7230", "PEP-593": a standard by its number
    # a configuration's key is written as one: "allow_unknown_runas_id", "backend-path", "Persistent=", "SyslogEnable"
    **dict.fromkeys(("key", "keys", "setting", "settings", "directive", "directives", "parameter", "parameters"),
                    "key"),
    **dict.fromkeys(("path", "paths"), "path"),  # "/slack/events", "~/.ssh/google_compute_engine"
    **dict.fromkeys(("alias", "aliases"), "alias"),  # "What alias does the npm version command have?"
}
# "In which unit is --exclusive-threshold given?" asks for milliseconds (not "which unit starts the journal?")
# "What does tqdm's update() method return?": a function's return value, which a quote says in prose ("returns the
# holder's PID", "Return True if …", "return value"), as a signature's arrow ("-> None") or as a doctest's output;
# a line of code ("return self.update(…)") shows how, not what
_ASKS_RETURNED = re.compile(
    r"^\W*what\s+(?:does|do|did|will|would|should|can)\s+\S.*?\s+return"
    r"(?=\s*(?:[?.!]|$)|\s+(?:when|if|for|in|on|with|after|given|upon|once|under)\b)",
    re.IGNORECASE)
_SAYS_RETURNED = re.compile(
    r"\b(?i:returns|returned|returning|return\s+values?|resolves\s+(?:to|with)|evaluates\s+to|yields)\b"
    r"|\bReturns?\b|->|→|=>|>>>")
# a command's other name, said as one: "alias: list", "also available under the shorthand alias conc"
_SAYS_ALIAS = re.compile(
    r"\b(?:alias(?:es|ed)?|a\.?k\.?a\.?|also\s+(?:known\s+as|called|named|available\s+(?:as|under))|synonyms?)\b",
    re.IGNORECASE)
# a key as a configuration writes it: words joined by "_", "-", "." or "::", in camel case, or with its "="
# (or, as Bacula's manuals do, in capitalised words the prose calls a directive: "the Heartbeat Interval directive")
_KEY_GIVEN = re.compile(
    r"(?<![\w/.-])(?:[A-Za-z][A-Za-z0-9]*(?:(?:[_-]|::|\.)[A-Za-z0-9]+)+|[a-z]+[A-Z]\w*|[A-Z][a-z]+[A-Z]\w*|"
    r"[A-Za-z]\w*=)(?![\w/-])"
    r"|\b[A-Z][a-z]+(?:\s+[A-Z][a-z]+){0,3}(?=\s+(?:directive|setting|parameter|key)s?\b)")
# a path: a slash between or before names, or a home directory's tilde
_PATH_GIVEN = re.compile(r"(?<![\w<])(?:~|\.{1,2})?/[\w.-]+(?:/[\w.-]*)*|\b[\w.-]+/[\w.-]+(?:/[\w.-]*)*")
_ASKS_UNIT = re.compile(r"\b(?:which|what)\s+units?\s+(?:is|are|was|were|does|do|of|for)\b", re.IGNORECASE)
# the units a setting is given in: time, size, rate, share, length on a screen
_UNIT_GIVEN = re.compile(
    r"\b(?:(?:nano|micro|milli)?seconds?|ms|minutes?|hours?|days?|weeks?|months?|years?"
    r"|(?:kilo|mega|giga|tera|kibi|mebi|gibi|tebi)?bytes?|bits?|[KMGT]i?B|percent|per\s*cent|pixels?|px|dpi"
    r"|jiffies|ticks)(?!\w)",
    re.IGNORECASE,
)
_PHRASE_WORDS = 3  # how many words after "which" a technical head noun may come ("which perf record option")
_TECH_WORD = re.compile(r"[\w.@+-]+")
# "v0.x.x" is a placeholder, not release 0
_VERSION_GIVEN = re.compile(
    r"(?<![\w.])v?\d+(?:\.\d+)+(?![\w.]*\d)|\bv\d+\b(?!\.[a-z])|@\d+(?:\.\d+)*"
    r"|(?<!(?-i:[A-Z]{2})-)\b(?:19|20)\d\d\b",
    re.I,
)
# the day and month a year ends, as a release's date line writes it ("October 26, 2022", "26 Oct 2022"): a date's year
# is no release
_MONTH_STEMS = "|".join(month[:3] for month in _MONTHS.split())
_DAY_OF_MONTH_BEFORE = re.compile(
    rf"(?:\b(?:{_MONTH_STEMS})[a-z]*\.?\s+\d{{1,2}}(?:st|nd|rd|th)?,?"
    rf"|\b\d{{1,2}}(?:st|nd|rd|th)?\s+(?:{_MONTH_STEMS})[a-z]*\.?,?)\s+$",
    re.IGNORECASE,
)
# a man page's "(since glibc 2.33)" after an entry's term: the term ("--argv0 string", "LD_AUDIT") is what it dates
_SINCE_AFTER_TERM = re.compile(
    r"(?:^|\s)(?P<term>--?[A-Za-z][\w-]*|[A-Z][A-Z0-9]*_[A-Z0-9_]+)(?:\s+[a-z]\w*)?\s*\(\s*since\s+[\w.+-]+\s+$")


def _since_of_another_entry(before: str, question: str) -> bool:
    """Whether the version after `before` is a man page's "(since …)" of an entry the question does not name:
    "--argv0 string (since glibc 2.33)" does not say when ld.so's --inhibit-cache came."""
    found = _SINCE_AFTER_TERM.search(before)
    return found is not None and found["term"] not in question


# a numbered entry's number opening a quote ("2.1. When building Valgrind, 'make' dies …", "2.2. | …" of a FAQ's
# contents) numbers the entry; it is no release
_SECTION_NUMBER = re.compile(r"(?<=^)\d+(?:\.\d+)+\.\s+(?:\|\s+)?[A-Z'\"]")
# a code has a figure or an underscore ("DEP0005", "ERR_SOCKET_BAD_PORT") or is an errno name ("ENOENT"); a bare
# acronym ("API", "HTTP") names a thing, not a code
_CODE_GIVEN = re.compile(
    r"\b[A-Z]{2,}(?:[A-Z]*\d[A-Z0-9_]*|[A-Z0-9]*_[A-Z0-9_]+)\b|\bE[A-Z]{3,}\b|\bSIG[A-Z]{2,}\b|\bCVE-\d{4}-\d+\b"
)
# a version pinned to a name by a requirement's operator or a hyphen is that name's version: "sampleproject==1.0.0",
# "FooProject >= 1.2" and "sampleproject-1.0.0.tar.gz" say nothing of which pip release did something
# (a range too: "httpx<0.29.0,>=0.27.0", "Requires-Python: >=3.11"); so is one after a slash ("HTTP/1.1" is HTTP's)
# or in a field named by what it is the version of ("Metadata-Version: 2.4" is the metadata format's)
_PINNED_TO = re.compile(
    r"([A-Za-z][\w.-]*?)(?:\s*:?\s*(?:(?:[<>]=?|[=!~]=)\s*[\w.*]+\s*,\s*)*(?:===?|[<>]=?|~=|!=)\s*|-|"
    r"(?P<other>/|[- ][Vv]ersion:\s*))$"
)
_FLAG_GIVEN = re.compile(r"(?<![\w-])--?[A-Za-z][\w-]*")
# an option of a configuration rather than a command line is named by its path: "Debug::pkgDpkgPm",
# "cache.auto-clean-frequency" (a hyphen tells it from code's member, "module.exports", and a file's name, "setup.py")
_OPTION_PATH = re.compile(
    r"\b[A-Za-z][\w-]*(?:::[A-Za-z][\w-]*)+\b|(?<![\w.])[a-z][\w-]*(?:\.[a-z][\w-]*)*\.[a-z]\w*-[\w-]+")
# an exception is a class, named in CamelCase whatever its ending: "portalocker.AlreadyLocked", "StopIteration"
_ASKS_EXCEPTION = re.compile(r"\bexceptions?\b", re.IGNORECASE)
_CLASS_NAME = re.compile(r"\b(?:[a-z_]\w*\.)*[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+\b")
_IDENTIFIER_GIVEN = re.compile(
    r"\b[A-Za-z][A-Za-z0-9]*_[\w]+|\b[A-Z][A-Z0-9]{1,}\b|\b\w+\(\)|\b[a-z]+[A-Z]\w*|(?<![\w-])--?[a-z][\w-]*"
)


# "When installing from a gist, which branch does npm use?", "If I pass --json, what does it print?": a clause that
# sets the scene before the question proper, which follows its comma; "When did …" and "Where is …" are questions
_QUESTION_VERBS = "is|was|are|were|be|do|does|did|has|have|had|can|could|will|would|shall|should|may|might|must"
_LEADING_CLAUSE = re.compile(
    rf"^\W*(?:when|where|if|while|after|before|once|unless)\s+(?!(?:{_QUESTION_VERBS})\b)"
    r"[^?,]*,\s*(?=(?:which|what|who|whom|whose|when|where|how)\b)",
    re.IGNORECASE,
)


_WHEN_MIGHT = re.compile(r"when\s+(?:might|may|can|could|would|should)\b", re.IGNORECASE)
_WH_IS = re.compile(r"\b(what|which|who|where|when|how)['’]?s\b", re.IGNORECASE)  # "whats" as chat types it


def main_clause(question: str) -> str:
    """The question without a leading clause that only sets the scene ("When installing from X, which …?")."""
    return _LEADING_CLAUSE.sub("", question, count=1)


# a figure is a code in a sentence that says so ("exits with code 1") or that a list of codes opens with it ("9
# Invalid Argument: …", "5: Error in the stylesheet"), not a size or a count beside the word the question asks about
_SAYS_CODE = re.compile(r"\b(?:codes?|status|exit(?:s|ed)?|returns?|returned|errno)\b|^[\s*•-]*\d+\b", re.IGNORECASE)


_ASKS_SIGNAL = re.compile(r"\bsignals?\b", re.IGNORECASE)
# "Which RFC does h11 implement?" is answered by a standard's number ("RFC 7230"), not by any other code
_ASKS_STANDARD = re.compile(r"\b(rfc|pep)s?\b", re.IGNORECASE)
_STANDARD_GIVEN = re.compile(r"\b(rfc|pep)[\s-]?\d+\b", re.IGNORECASE)


# a runtime or a platform named with a bound ("the minimum python", "the oldest numpy"): its version is asked for
_BOUND_RUNTIME = (
    r"(?:minimum|min|oldest|lowest|earliest|newest|latest|highest)\s+(?:supported\s+|required\s+)?"
    r"(?P<runtime>python3?|node(?:\.?js)?|numpy|rust|rustc|go|java|jdk|ruby|perl|php|gcc|clang|cmake|glibc|openssl"
    r"|postgres(?:ql)?|sqlite|kernel|macos|ubuntu|debian|pip|npm|django|pytest)"
    r"(?=\s*(?:[?,]|$)|\s+(?:for|that|which|does|do|did|is|are|you|i|we|needed|required|supported|on|in|with|before"
    r"|accepts?|works?)\b)"
)
# "What is the minimum CMake version required …?", "What is the latest setuptools version listed …?": a copular
# question whose subject is headed by a technical noun, which a verb, a relative pronoun or the end follows (not
# "What is the release process …?", "What is the port format …?")
_COPULAR_TECHNICAL = re.compile(
    r"\bwhat\s+(?:is|was|are|were)\s+the\s+(?:[\w.@+-]+\s+){0,2}?(?P<noun>versions?|releases?)"
    r"(?=\s*[?]|\s+(?:that|which|of|for|in|on|to|by|from|with|is|was|are|were|does|did|has|had|\w+ed)\b"
    # … or a subject and its verb: "What is the minimum Windows version truststore supports?"
    r"|\s+[\w.@+-]+(?:['’]s)?\s+(?:supports?|requires?|needs?|accepts?|uses?|runs?\s+on|targets?|ships?|bundles?"
    r"|works?\s+with)\b)"
    # "what's the minimum python for hypothesis": a runtime's bound is its version
    rf"|\bwhat\s+(?:is|was|are|were)\s+the\s+{_BOUND_RUNTIME}(?!\s+(?:versions?|releases?)\b)",
    re.IGNORECASE,
)


def _technical_type(question: str) -> AnswerType | None:
    """The kind asked for by a "which/what" phrase headed by a technical noun, or None."""
    if _COPULAR_TECHNICAL.search(question):
        return "version"
    match = re.search(r"\b(?:what|which)\s+", question, re.IGNORECASE)
    if not match:
        return None
    kind = None
    before = ""
    for word in _TECH_WORD.findall(question, match.end())[:_PHRASE_WORDS]:
        lowered = word.lower()
        if lowered in _AUXILIARIES:
            break
        if lowered in {"key", "keys"} and before in _CRYPTO_WORDS:  # "which PGP key": a key, not a setting
            pass
        elif _TECHNICAL_NOUNS.get(lowered) == "key" and before and _IDENTIFIER_GIVEN.fullmatch(before):
            kind = None  # "which FORCE_COLOR setting": a value of that variable ("FORCE_COLOR = 2"), not a key
        else:
            kind = _TECHNICAL_NOUNS.get(lowered, kind)
        before = lowered
    return kind


_CRYPTO_WORDS = frozenset({"pgp", "gpg", "ssh", "signing", "public", "private", "api", "encryption", "host"})


# a yes/no question: an auxiliary first, and no wh-question asked through it ("Do you know when …", "Can you tell me …")
_YES_NO = re.compile(
    r"^\W*(?:does|do|did|is|are|was|were|can|could|will|would|should|has|have|had|may|must)\b"
    r"(?!\s+(?:you|anyone|anybody|someone|somebody|we|i)\s+(?:know|tell|say|remember|recall)\b)",
    re.IGNORECASE,
)


# "Which check_hashes value is the default …?": a wh-phrase whose noun is a setting's name (no plain word)
_WHAT_OR_WHICH = re.compile(r"\b(?:what|which)\b", re.IGNORECASE)


def expected_type(question: str) -> AnswerType | None:
    """The kind of answer the question asks for, if it names one: a default, or what its first wh-phrase asks; its
    "what's" read as "what is" (as chat types it: "what's the default wait for _.debounce?")."""
    question = _WH_IS.sub(r"\1 is", main_clause(question))
    asks_itself = _ASKS_DEFAULT_ITSELF.search(question) and (_TYPED.search(question) or _WHAT_OR_WHICH.search(question))
    if _ASKS_DEFAULT.search(question) and (asks_itself or _HAS_DEFAULT.match(question)):
        return "default"
    if _ASKS_UNIT.search(question):
        return "unit"
    if _ASKS_RETURNED.search(question):
        return "returned"
    technical = _technical_type(question)
    if technical:
        return technical
    if _YES_NO.match(question):
        return None  # "Does curl retry when the server returns 503?" asks yes or no, not a date
    if LEFT_OUT.search(question) and _TYPED.search(question):
        return "default"  # "which encoding … when no encoding argument is given", unless it asks for a variable
    for match in _TYPED.finditer(question):
        if match.group("date") and _WHEN_MIGHT.match(question, match.start()):
            return None  # "When might starch grains become overly large?" asks under what conditions
        if match.group("date") and _WHAT_OR_WHICH.search(question, 0, match.start()):
            # "Which SSH_ASKPASS_REQUIRE value makes ssh prefer the askpass program … when requesting passwords?":
            # "when" opens a clause of the which-question, which asks no date
            return None
        for kind in ("date", "number", "person", "place"):
            if match.group(kind):
                return kind  # type: ignore[return-value]
        noun = _asked_noun(match, question, reach=_COMPOUND_WORDS).lower()
        if noun in _AUXILIARIES:
            return None
        if noun in _DATE_NOUNS.split():
            return "date"
        if noun in _NUMBER_NOUNS.split():
            return "number"
        if noun in _RANGE_NOUNS and not _RANGE_NAMED.search(question):
            return "range"  # "What range of values does pg_basebackup accept for --max-rate?" wants its bounds
        if noun in _PERSON_NOUNS.split():
            return "person"
        if _TECHNICAL_NOUNS.get(noun) == "alias":
            return "alias"  # "What are the aliases of npm update?"
        return None  # "what colour", "which company": a noun we cannot type
    return None


_WHO_DOES = re.compile(r"^\W*(?:who|whom)\s+(?:(?:never|not|also|first|later|then|actually|finally)\s+)?([a-z]+)\b",
                       re.IGNORECASE)


# a changelog says who made a change with "by": "Add fish install oneliner by @ElijahLynn" says who added, contributed
# or wrote it, not who approved or uses it
_AUTHORING = re.compile(
    r"^(?:contribut|add|wr[io]t|author|creat|ma[dk]e|implement|introduc|fix|report|submit|develop|buil[dt]|propos"
    r"|design)", re.IGNORECASE)
_BY_AUTHOR = re.compile(r"\bby\s+(?:@[A-Za-z0-9]|[A-Z][a-z])")


def is_authoring(verb: str) -> bool:
    """Whether a "who …?" question's verb asks who made something (added, contributed, wrote, fixed …)."""
    return bool(_AUTHORING.match(verb))


def names_author(sentence: str) -> bool:
    """Whether `sentence` names who made something after "by", as changelogs do."""
    return bool(_BY_AUTHOR.search(sentence))


def asked_action(question: str) -> str | None:
    """The verb of a "who did …?" question ("Who *approved* the AI investment?", "Who never *captured* the fort?"):
    a name answers it only in a sentence that says so, not one that names the investment's company or another
    approval. None for "who is/was …" (the noun after it says what is asked) and any other question."""
    match = _WHO_DOES.match(question)
    if not match or match.group(1).lower() in _AUXILIARIES:
        return None
    return match.group(1)


def _question_words(question: str) -> set[str]:
    return {word.lower() for word in _WORD.findall(question)}


# a default asked as an amount: "how big … by default", "how many retries by default"
_ASKS_AMOUNT = re.compile(rf"\b{_HOW_AMOUNT}\b", re.IGNORECASE)


def _names_an_instance(sentence: str, question: str, asked: set[str]) -> bool:
    """Whether `sentence` names an instance of the noun a "which" question asks by, with a word of its own between
    "the" and it: "the signal method will be used by default" to "Which pytest-timeout method is used by default …?"
    ("the default is to compress at a moderate level" names no level)."""
    noun = answer_noun(question)
    if noun is None or noun in _KIND_NOUNS or noun in ("default", "defaults"):
        return False  # "What is the default --concurrency?" asks no kind of thing: "the server default" is none
    # named with "the": "the signal method"; "a moderate level" names none
    found = re.finditer(rf"\bthe\s+([a-z][\w.-]*)\s+{re.escape(noun)}\b", sentence, re.IGNORECASE)
    return any(m.group(1).lower() not in asked and m.group(1).lower() not in _AUXILIARIES
               and m.group(1).lower() not in _NOT_INSTANCES for m in found)


# words before a noun that name no instance of it: "each method", "another method", "this option"
_NOT_INSTANCES = frozenset({"each", "every", "any", "another", "other", "some", "which", "what", "same", "new", "old",
                            "default", "following", "above", "below", "given", "specified", "no", "all", "both"})


def gives_type(sentence: str, kind: AnswerType | None, question: str) -> bool:
    """Whether `sentence` holds something of `kind` that the question does not already say."""
    if kind is None:
        return False
    asked = _question_words(question)
    if kind == "default":
        if _ASKS_AMOUNT.search(question) and not gives_type(sentence, "number", question):
            return False  # "How big is the disk image … by default?" is not answered by where it goes by default
        if (restated := _LEFT_OUT_SAID.search(sentence)) and (restated[1] or restated[2]).lower() in asked \
                and LEFT_OUT.search(question):
            # "If no -f option is present, make will look for GNUmakefile, makefile and Makefile": what happens
            # without the option the question leaves out is its default
            return len(_question_words(sentence) - asked) >= 3
        typed = question.lower()
        said = [m.start() for m in _SAYS_DEFAULT.finditer(sentence)]
        if all(_SETTABLE_DEFAULT.match(sentence, at) for at in said):
            return False  # none said, or only "The default value can be set on a host-by-host basis …": where, not what
        return (any(
            match.group(0).lower().strip("'\"`") not in asked for match in _NUMBER.finditer(sentence)
        ) or any(  # "(in upsd.conf)" repeats the question's file, it gives no value
            (literal := match.group(0).lower().strip("'\"`")) not in asked and literal not in typed
            for match in _LITERAL.finditer(sentence)
        ) or any(match.group(1).lower() not in asked for match in _MARKED_DEFAULT.finditer(sentence))
            or _names_an_instance(sentence, question, asked) or _default_is_word(sentence, asked))
    if kind in ("code", "identifier", "unit"):
        # a name or a unit inside an example's code is any of its arguments ("$ valgrind --tool=drd
        # --exclusive-threshold=10 …" to "In which unit is --exclusive-threshold given?"): only the prose before it
        # gives one
        sentence = prose_before_program(sentence)
    if kind == "code" and (standard := _ASKS_STANDARD.search(question)):
        return any(m.group(1).lower() == standard.group(1).lower() and m.group(0) not in question
                   for m in _STANDARD_GIVEN.finditer(sentence))
    if kind == "code":  # "DEP0005", "ERR_SOCKET_BAD_PORT", "ENOENT", or a figure said to be a code: an exit code
        signals = bool(_ASKS_SIGNAL.search(question))  # a signal's name answers for a signal, not an exit code
        return any(m.group(0) not in question and m.group(0).startswith("SIG") == signals
                   for m in _CODE_GIVEN.finditer(sentence)) or (
            bool(_SAYS_CODE.search(sentence)) and gives_type(sentence, "number", question)
        )
    if kind == "version":
        owner = version_owner(question)
        return any(
            match.group(0) not in question and not _pinned_elsewhere(sentence[: match.start()], asked, owner)
            and not _owned_after(sentence[match.end() :], owner)
            and not _SECTION_NUMBER.match(sentence, match.start())
            and not _DAY_OF_MONTH_BEFORE.search(sentence[max(0, match.start() - 20) : match.start()])
            and not _since_of_another_entry(sentence[: match.start()], question)
            for match in _VERSION_GIVEN.finditer(sentence)
        )
    if kind in ("flag", "identifier"):
        pattern = _FLAG_GIVEN if kind == "flag" else _IDENTIFIER_GIVEN
        # case matters: "TIME" is a new identifier beside "GNU time's format"
        found = [*pattern.finditer(sentence), *(_OPTION_PATH.finditer(sentence) if kind == "flag" else ()),
                 *(_CLASS_NAME.finditer(sentence) if _ASKS_EXCEPTION.search(question) else ())]
        # "#596 - removed the merge function" names the function asked for in a plain word
        return any(match.group(0) not in question for match in found) or (
            kind == "identifier" and _names_an_instance(sentence, question, asked))
    if kind in ("key", "path"):
        pattern = _KEY_GIVEN if kind == "key" else _PATH_GIVEN
        return any(match.group(0) not in question and match.group(0).lower() not in asked
                   for match in pattern.finditer(prose_before_program(sentence) if kind == "key" else sentence))
    if kind == "returned":
        return bool(_SAYS_RETURNED.search(sentence))
    if kind == "alias":
        # a command's other name is said as one ("alias: list", "also available under the shorthand alias conc"); "Tag
        # the commit when using the npm version command" names none
        return any(_question_words(sentence[match.end() :]) - asked for match in _SAYS_ALIAS.finditer(sentence))
    if kind == "range":
        return any(match.group(0) not in question for match in _RANGE_GIVEN.finditer(sentence))
    if kind == "unit":
        return any(match.group(0).lower() not in asked for match in _UNIT_GIVEN.finditer(sentence))
    if kind == "date":
        if (stage := _PRE_RELEASE.search(sentence)) and _ASKS_RELEASED.search(question) and not re.search(
                rf"\b{re.escape(stage.group(0))}", question, re.IGNORECASE):
            return False  # "Aug 3, 2026: Release candidate of Optuna v5 is available" does not date Optuna v5
        found = [*_DATE.finditer(sentence), *_DURATION.finditer(sentence)]
        return any(match.group(0).lower() not in asked and not _modal_may(sentence, match)
                   and not _LINKED.search(sentence[: match.start()]) for match in found)
    if kind == "number":
        if (measured := _MEASURED.search(question)) is not None:
            # "How heavy is the Falcon X2?" is answered by a weight, not by its price: a figure with a unit of the
            # dimension asked about
            units = _MEASURE_UNITS[measured.group(1).lower()]
            return any(match.group(0).lower() not in asked for match in units.finditer(sentence)) or (
                # "how long does it take …?": "in seconds", "for decades" give a length of time without a figure
                measured.group(1).lower() == "long"
                and any(match.group(0).lower() not in asked
                        for match in (*_TIME_UNITS.finditer(sentence), *_SINCE.finditer(sentence)))
            )
        if _ASKS_FREQUENCY.search(question):
            return any(match.group(0).lower() not in asked for match in _FREQUENCY.finditer(sentence))
        if _ASKS_PRICE.search(question):
            return any(match.group(0).lower() not in asked and _is_money(sentence, match)
                       for match in _NUMBER.finditer(sentence))
        if _ASKS_SHARE.search(question):
            return any(
                match.group(0).lower() not in asked and _SHARE_AFTER.match(sentence[match.end() :])
                for match in _NUMBER.finditer(sentence)
            ) or any(match.group(0).lower() not in asked for match in _PART_OF_WHOLE.finditer(sentence))
        # a year is when, not how many: "In 1564 a group of Huguenots established Fort Caroline" gives no count
        counting = bool(_HOW_MANY.search(question))
        # "How many employees does Sales have?" counts people: "Sales | $9.4 million | 25%" holds no count
        counts_things = bool(_HOW_MANY_THINGS.search(question)) and not _COUNTS_MONEY.search(question)
        if any(
            match.group(0).lower() not in asked
            and not (counting and _YEAR.fullmatch(match.group(0)))
            and not (counts_things and _is_money_or_share(sentence, match))
            and not _REFERENCE_BEFORE.search(sentence[max(0, match.start() - 12) : match.start()])
            and not _SECTION_TITLE_AFTER.match(sentence, match.end())
            and not _ONE_OF.match(sentence, match.start())
            and not (counts_things and _NAMED_FIGURE.match(sentence, match.end()))
            and not (counting and _NUMBERED_THING.search(sentence, 0, match.start()))
            and not (counting and match.group(0).count(".") >= 2)  # a version: ">=1.4.0 <1.5.0" counts nothing
            for match in _NUMBER.finditer(sentence)
        ):
            return True
        # "how long ago …?" (the measure above reads every other "how long"): "decades ago" is a time with no figure
        return bool(_HOW_LONG.search(question)) and any(
            match.group(0).lower() not in asked for match in _TIME_UNITS.finditer(sentence)
        )
    if kind == "person" and any(
        match.group(0).lower() not in asked and _AFTER_ROLE.match(sentence, match.end())  # not "the team allowance"
        for match in _ROLE.finditer(sentence)
    ):
        return True
    if kind == "person" and any(match.group(0).lower() not in asked for match in _HANDLE.finditer(sentence)):
        return True
    if kind == "place" and any(match.group(0).lower() not in asked for match in _TECH_PLACE.finditer(sentence)):
        return True
    return any(
        _new_name(match.group(0), asked) and not (kind == "person" and (
            _LABEL_AFTER.match(sentence, match.end()) or _names_no_one(match.group(0))))
        for match in _NAME.finditer(sentence, 1)
    )


# a release's title in a changelog ("1.6 Enhancement Release - Jan 24, 2010", "Bugfix Release") names no one
_RELEASE_TITLE = re.compile(r"\b(?:Release|Version|Edition|Update|Build)s?$")
_MONTH_NAMES = frozenset(month for name in _MONTHS.split() for month in (name, name[:3], name[:4]))


def _names_no_one(name: str) -> bool:
    """Whether a capitalised phrase is a release's title or a month ("Jan", "Sept"), which no "who" asks for."""
    return bool(_RELEASE_TITLE.search(name)) or name.lower().rstrip(".") in _MONTH_NAMES


# where software documentation sends things: a link, an address, a path, or a named repository, tracker, list,
# directory or file ("should be submitted to the gyp-next repository first")
_TECH_PLACE = re.compile(
    r"\bhttps?://\S+|\b[\w.+-]+@[\w-]+\.[\w.-]+|(?<![\w.])(?:~|\$\w+|\.{1,2})?/[\w.-]+(?:/[\w.$-]*)*"
    r"|\b[\w.-]*[a-z0-9][\w-]*\s+(?:repository|repo|tracker|mailing\s+list|list|directory|folder|file|forum|channel"
    r"|registry|server)\b",
    re.IGNORECASE,
)


_LABEL_AFTER = re.compile(r":\s")  # a table row's column name ("Purpose: HIC SVNT LEONES") is no one's name


# a package's metadata gives its own release in a bare field: "Version: 0.10.5" in truststore's METADATA
_OWN_VERSION_FIELD = re.compile(r"^\s*Version:\s*v?\d[\w.+-]*\s*$", re.IGNORECASE)


def of_the_document_only(sentence: str, question: str, document: str) -> bool:
    """Whether `sentence` is a bare "Version: …" field, the release of the package `document` is about, while the
    question asks the version of something else ("Version: 0.10.5" of truststore-METADATA.md to "What is the minimum
    Windows version truststore supports?")."""
    owner = version_owner(question)
    return bool(_OWN_VERSION_FIELD.match(sentence)) and owner is not None and owner not in re.findall(
        r"[a-z0-9]+", document.lower())  # the name's words: "truststore-METADATA.md" -> truststore, metadata, md


def _pinned_elsewhere(before: str, asked: set[str], owner: str | None = None) -> bool:
    """Whether the version that follows `before` is pinned to a name the question does not ask about, or written
    after a name other than `owner`, the thing the question asks the version of ("starting with pip 1.5" to
    "Which version of requests does pip vendor?")."""
    pinned = _PINNED_TO.search(before)
    if pinned is not None:
        name = pinned.group(1).lower().removeprefix("requires-")  # a package's "Requires-Python: >=3.10" pins Python
        # a protocol's or a format's version is no release of the thing asked about, even when the question names
        # it: "Uvicorn supports HTTP/1.1" to "In which uvicorn release did HTTP/2 support arrive?"
        return name not in asked or (pinned.group("other") is not None and owner is not None and name != owner)
    named = _NAMED_BEFORE.search(before)
    if named is not None and named.group(1).lower() in {"to", "is", "was", "at"}:
        named = _NAMED_VERSION_SET.search(before)  # "sets the minimum supported pytest version to 8.1" is pytest's
    elif named is not None and named.group(1).lower() in {"version", "release"}:
        # "nasm version 2.11.8", "gas (GNU assembler) version 2.26"; not "we vendor version 2.31.0 of requests"
        named = _NAMED_VERSION_BEFORE.search(before)
        if named is not None and "(" not in named.group(0) and _ordinary_word(named.group(1)):
            named = None
    return (owner is not None and named is not None and named.group(1).lower() not in _NOT_OWNERS
            and not _DONE_TO.fullmatch(named.group(1)) and named.group(1).lower() != owner)


def _owned_after(after: str, owner: str | None) -> bool:
    """Whether the version that `after` follows is said to be another thing's than `owner` by an "of" after it: "The
    current version 3.2.8 of GraphQL-core" to "Which version of pytest-describe does the GraphQL-core test suite
    require?" (yarddocs tune yd-032)."""
    named = _OWNED_AFTER.match(after)
    if owner is None or named is None:
        return False
    name = named.group(1).rstrip(".").lower()
    return name not in _NOT_OWNERS and name != owner and not _ordinary_word(name)


_OWNED_AFTER = re.compile(r"\s+of\s+(?:the\s+)?([A-Za-z][\w.+-]*)")


# a verb in the past before a version says what was done to it, it owns nothing: "We've yanked 3.4.8"
_DONE_TO = re.compile(r"[a-z]{3,}ed")


# the words that bound a version asked for ("the minimum Windows version")
_VERSION_BOUNDS = "minimum|oldest|earliest|latest|newest|first|last|lowest|highest"
# the thing a question asks the version of: "Which version of requests …", "Which requests version …"
_VERSION_OF = re.compile(
    rf"\b(?:version|release)s?\s+of\s+(?:the\s+)?([A-Za-z][\w.+-]*)|\b(?:which|what)\s+(?:(?:is|was)\s+the\s+)?"
    rf"(?:(?:{_VERSION_BOUNDS})\s+)?"
    # "What is the minimum Windows version …?" asks Windows's; "What is the latest version of X?" asks X's
    rf"(?!(?:{_VERSION_BOUNDS}|current|stable|default|supported|required|next|previous|new)\b)([A-Za-z][\w.+-]*)\s+"
    rf"(?:version|release)s?\b|\b{_BOUND_RUNTIME}",
    re.IGNORECASE,
)
_NAMED_BEFORE = re.compile(r"([A-Za-z][\w.+-]*)\s+$")
# the name a "version N" is written after, past an aside in brackets: "gas (GNU assembler) version 2.26" is gas's
_NAMED_VERSION_BEFORE = re.compile(
    r"([A-Za-z][\w.+-]*)(?:\s*\([^()]{0,40}\))?\s+(?:version|release)\s+$", re.IGNORECASE)
_NAMED_VERSION_SET = re.compile(r"([A-Za-z][\w.+-]*)\s+(?:version|release)\s+(?:to|is|was|at)\s+$", re.IGNORECASE)
_NOT_OWNERS = frozenset({
    "version", "versions", "release", "releases", "v", "ver", "in", "since", "to", "from", "of", "with", "at", "by",
    "and", "or", "is", "was", "are", "were", "as", "than", "before", "after", "until", "on", "for", "the", "a", "an",
    "be", "been", "added", "released", "removed", "deprecated", "changed", "fixed", "updated", "upgraded", "bumped",
    "requires", "require", "required", "needs", "need", "use", "uses", "using", "edition", "level", "minimum", "least",
    "about", "around", "between", "through", "then", "now", "still", "also", "only", "even", "e.g", "i.e", "see",
})


def _ordinary_word(word: str) -> bool:
    from masis.judge.names import is_ordinary  # here: names reads terms, which reads this module

    return is_ordinary(word.lower())


def version_owner(question: str) -> str | None:
    """The name a question asks the version of, lower-cased, or None."""
    found = _VERSION_OF.search(question)
    return (found.group(1) or found.group(2) or found.group("runtime")).lower() if found else None


def _new_name(name: str, asked: set[str]) -> bool:
    """A capitalised phrase (not the sentence's first word) with a word the question does not have."""
    return any(word.lower() not in asked for word in _WORD.findall(name) if word[:1].isupper())
