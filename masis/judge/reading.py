"""The offline reading of a follow-up question: what it asks once the thread's earlier turns are read into it.

Deterministic rules over the words (no model), in this order:

- a thing named first and set apart by a comma ("and the FIFO cache implementation, which release added that one?")
  is what the question's pronoun stands for: the question is read with it in the pronoun's place, then as any other;
- an ellipsis ("And the Heron S1?", "What about Q4?", "And to G&A?") takes the previous question's frame with the
  new thing in place of the one of the same shape ("How much will the Falcon X2 cost?" -> "How much will the
  Heron S1 cost?"); a fragment of several things puts each in the place of its shape ("What about the Heron S1 in
  Q4?"), and one the frame cannot take whole ("What about nasm on Windows?" after a question on gas and Node.js)
  is unsettled: the user is asked to put the question in full, and that reply is the reading; a few words and a
  question mark ("open roles?") are an ellipsis too, "and if ..." is "what if ...", "vs zlib -1?" too, and a fragment
  with a preposition the frame has no place for ("and with -s?") is added to it; a fragment that shares a word with a
  run of the frame's words takes the run's place ("same for npm exec" after "… for npm ls"), a place its place ("on
  windows?" after "… on linux"), and one word like the frame's head its head ("maxinterval?" after "… mininterval");
  "and if …" with a subject of its own replaces the frame's condition, one letter the frame's one letter ("and e"),
  "the medium ones" the modifier of the frame's thing, a word the last part of its one hyphenated tool ("and for
  resolved" after systemd-timesyncd), and "and to get off it" asks the frame's "how do i …" of another deed;
- a pronoun or demonstrative with no antecedent of its own ("How much will it cost?", "at the end of that
  quarter", "researchers there") takes it from the previous question: the thing it was about, its period, its
  place, or what its answer named ("they" after a who-question: the people its answer named);
- "it" with no subject to take is the one lower-case tool the previous question names ("node-gyp"), "what else"
  carries that tool, "each" after a comparison means the two either side of its "than", and "the long ones" the
  previous question's thing of that kind;
- a which-question that compares and names nothing ("which is cheaper") compares the two things the thread named
  last;
- a question missing the entity, version or period the previous one had ("How do I remove the limit?") takes
  them from it, unless what it shares with it is said with "a" ("How long does a warranty repair take?");
- "then" ending a question after one on two cases ("… exit codes 101 and 105 …") is one of them: the user is asked
  which;
- anything else is self-contained and read as typed.

Earlier questions are read with their names as written even when typed in lower case ("debian 10",
`masis.judge.typed`), and "its" ending a condition as "it's".

When the previous question joined two things a singular pronoun could mean ("the Falcon X2 and the Heron S1", "xz and
zstd"),
or no earlier turn names anything, the reading is unsettled: the caller asks the user which one.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, replace

from masis.judge.citations import strip_citations
from masis.judge.mentions import (
    AUXILIARIES,
    CONJUNCTIONS,
    DETERMINERS,
    DO_MODALS,
    MEASURE_WORDS,
    PREPOSITIONS,
    VERSION_WORD,
    WH_WORDS,
    Mention,
    Token,
    coordinated,
    mentions,
    phrase,
    tokens,
    word_set,
)
from masis.judge.names import is_ordinary, tool_key
from masis.judge.phrases import (
    VERSION_NOUNS,
    answered,
    asked_noun,
    asked_noun_at,
    code_given,
    focus,
    likeness,
    noun_phrase,
    relative_phrase,
    same_noun,
    shape,
    shared_ending,
    topic,
    unasked,
    verb_like,
)
from masis.judge.sentences import split_sentences
from masis.judge.stopwords import STOP_WORDS
from masis.judge.terms import question_terms
from masis.judge.typed import it_is, new_subject, recase_names

EARLIER_TURNS = 3  # how many earlier turns a pronoun's antecedent is looked for in, the latest first


@dataclass(frozen=True)
class Earlier:
    """An earlier turn of the thread: what was typed, how it was read, and its answer (empty if none)."""

    question: str
    reading: str
    answer: str = ""
    about: str | None = None  # what its pronoun was read as, if it had one ("the device")


@dataclass(frozen=True)
class Reading:
    """How a question is read. `unclear` is the word the thread does not settle ("it"), with the `candidates` it
    could mean (none when no earlier turn names anything): the user is asked which one."""

    text: str
    dependent: bool = False
    rule: str = "first"  # first | self-contained | ellipsis | pronoun | compared | carried | chosen | unclear
    candidates: tuple[str, ...] = ()
    unclear: str | None = None
    about: str | None = None  # what a pronoun was read as: the next follow-up's "it" may mean it too


_LEAD = re.compile(r"^\s*(?:and|also|so|ok(?:ay)?|then|now|and\s+then)\s*[,:]?\s+", re.IGNORECASE)
_ABOUT = re.compile(r"^\s*(?:and\s+)?(?:what|how)\s+about\s+(?P<rest>.+?)\s*[?.!]*\s*$", re.IGNORECASE)
_SAME_FOR = re.compile(
    r"^\s*(?:and\s+)?(?:(?:the\s+)?same(?:\s+(?:question|thing))?|ditto)\s+(?:for|with|about|on)\s+(?P<rest>.+?)\s*[?.!]*\s*$",
    re.IGNORECASE,
)
# "vs zlib -1?", "compared to npm?": the previous question asked of another thing
_VERSUS = re.compile(
    r"^\s*(?:and\s+)?(?:vs\.?|versus|compared\s+(?:to|with))\s+(?P<rest>.+?)\s*[?.!]*\s*$", re.IGNORECASE)
# "nothing on dns lookups?", "anything for windows?": the previous question asked of another place or case
_NOTHING_ON = re.compile(
    r"^\s*(?:and\s+|but\s+)?(?:nothing|anything|none|something)\s+(?P<rest>(?:on|in|for|at|under|within)\s+.+?)"
    r"\s*[?.!]*\s*$", re.IGNORECASE)
_WHAT_HAPPENS = re.compile(r"^\s*(?:(?:and|but|so)\s+)?what\s+if\b", re.IGNORECASE)
_WHAT_IF = re.compile(r"^\s*(?:(?:and|but)\s+)?(?:what\s+)?if\s+(?P<rest>.+?)\s*[?.!]*\s*$", re.IGNORECASE)
# "In which markets?", "Since when?", "Which ports?": a wh-phrase with no verb of its own asks the previous question's
# predicate ("… does the Heron S1 launch?") about another thing
_WH_FRAGMENT = re.compile(
    r"^\s*(?:and\s+)?(?P<rest>(?:in|on|at|for|from|since|until|by|to|with)\s+(?:which|what|when|where|whose)"
    r"(?:\s+[\w-]+){0,2}|(?:which|what|when|where|whose)(?:\s+[\w-]+)?)\s*\?+\s*$"
    r"|^\s*(?:and\s+)?(?P<agent>(?:by|to|from|with|for)\s+(?:who|whom))\s*\?*\s*$",  # "by who": no "?" needed
    re.IGNORECASE,
)
# "in the same quarter", "that year": the period the previous question named, which its frame keeps anyway
_SAME_PERIOD = re.compile(
    r"\s*\b(?:(?:in|for|during|over)\s+)?(?:that|the\s+same)\s+(?:quarter|year|month|period|week|day)\b",
    re.IGNORECASE,
)
# the tool a how-question has do something: "make ctest ", "get npm to ", "let pip "
_MADE_TO = re.compile(r"(?:make|let|have)\s+(?P<tool>[\w.+-]+)\s+|get\s+(?P<tool2>[\w.+-]+)\s+to\s+", re.IGNORECASE)
_AND_TO = re.compile(r"^\s*and\s+to\s+(?P<rest>[a-z].*?)\s*[?.!]*\s*$", re.IGNORECASE)
_HOW_DO_I = re.compile(r"^\s*(?:how|where|when)\s+(?:do|can|could|should|would)\s+(?:i|you|we)\s+", re.IGNORECASE)
# "which env var makes dotenv …": the thing asked for, and the tool it makes do the deed
_WHICH_MAKES = re.compile(
    r"^\s*(?:which|what)\s+(?:[\w.'’-]+\s+){1,4}?(?:makes?|lets?|tells?|gets?)\s+[\w.+-]+\s+(?=[a-z])", re.IGNORECASE)
_AND_FRAGMENT = re.compile(r"^\s*and\s+(?P<rest>.+?)\s*[?.!]*\s*$", re.IGNORECASE)
# "open roles?", "battery life?": a few words and a question mark, no wh-word or verb first, is an ellipsis too
_BARE_FRAGMENT = re.compile(r"^\s*(?P<rest>[\w&-]+(?:\s+[\w&-]+){0,2})\s*\?+\s*$")
_SINGULAR = frozenset({"it", "its", "this", "that"})
_DEMONSTRATIVES = frozenset({"this", "that", "these", "those"})
_ONES = frozenset({"one", "ones"})  # a stand-in for a thing: "that one", "the other ones"
_PERSON = frozenset({"he", "him", "his", "she", "her"})
_PLURAL = frozenset({"they", "them", "their", "these", "those"})
_BE = frozenset({"is", "are", "was", "were", "be", "been", "will", "has", "have", "had"})
# An earlier word a "they" or "their" in the same question refers to ("Can someone work remotely from their
# home country?"): the pronoun is the question's own.
_PEOPLE = word_set(
    "someone anyone everyone somebody anybody everybody people person employee employees staff customers customer "
    "users user members member i you we team teams")
_PERIOD_NOUNS = word_set("quarter year month week period fiscal day")
# Nouns a question uses about a thing it leaves unnamed: "the limit", "the add-on", "the next release", and what a
# thing costs its user ("whats the catch" after "does cjpeg -optimize make the jpegs smaller")
_RELATIONAL = word_set(
    "limit limits default defaults version versions release releases edition editions price cost fee add-on "
    "option options setting settings value values name codename successor predecessor deadline owner author "
    "maximum minimum catch downside downsides drawback drawbacks caveat caveats")


# Words that point back at something said before: a question holding one leans on its thread even when the rules
# leave it as typed ("which one wins if both are there", "what else do i need on a mac")
_POINTING_BACK = _SINGULAR | _DEMONSTRATIVES | _ONES | _PERSON | _PLURAL | {"else", "other", "both"}


# "then" and "so" standing for what was said ("what does 0 do then", "anything to pass until then?", "why so short",
# "do i have to do so"), and a repair of the question before ("the backend i mean")
_THEN_OR_SO = re.compile(r"\b(?:then|so(?:\s+[a-z]+)?)\s*[?.!]*\s*$|\bi\s+mean(?:t)?\b", re.IGNORECASE)


def points_back(question: str) -> bool:
    """Whether the question leans on what was said before: it holds a word that points back at something
    (`_POINTING_BACK`), it opens by carrying the thread on ("and for the react rules what do we add", "so how do i
    turn it off"), or it closes on a "then" or a "so" that stands for what was said ("why so short")."""
    words = re.findall(r"[a-z]+", question.lower())
    if _LEAD.match(question) or _THEN_OR_SO.search(question):
        return True
    pointing = [word for word in words if word in _POINTING_BACK]
    if any(word != "it" for word in pointing):
        return True
    typed = tokens(question)
    return len(pointing) > sum(_expletive(typed, at) for at in range(len(typed)))  # not "what does it mean when …"


def read(
    question: str,
    earlier: Sequence[Earlier],
    antecedent: str | None = None,
    names: Sequence[str] = (),
    tools: AbstractSet[str] = frozenset(),
) -> Reading:
    """`question` read in the context of the `earlier` turns (oldest first). With `antecedent` (the user's answer
    to "which one do you mean?"), the unsettled word is read as it. `names` are the products the workspace's
    documents are named after (`masis.judge.names.product_names`): a fragment typed in lower case may name one
    the thread has not ("and the falcons?"). `tools` are the tools and packages they are named after
    (`masis.judge.names.tool_names`): "it" is the one the previous question named when its subject names nothing of
    its own ("how do i make it bail" after "if pg_restore hits an error halfway does it stop?")."""
    if not earlier:
        return Reading(question)
    if antecedent is not None and in_full(antecedent):  # the reply to "ask it in full" is the question
        return _dependent(antecedent, "chosen")
    if new_subject(question):  # "different thing: which cjpeg switch …": the thread's things are not asked of
        return Reading(question, rule="self-contained")
    kept = earlier[-EARLIER_TURNS:]
    frames = [replace(turn, reading=recase_names(turn.reading))  # "debian 10" typed is "Debian 10"
              for at, turn in reversed(list(enumerate(kept)))
              if turn.reading.strip() and not (at and _unread_fragment(turn))]
    if not frames:
        return Reading(question, rule="self-contained")
    if pick_and_question := picked_then_asked(antecedent if antecedent is not None else question):
        # "the limit one. with a few workers running does each get the whole limit": one of the things the thread
        # named, then a question of its own about it, which is what is asked now
        return _asked_of_picked(*pick_and_question, frames, names, tools)
    typed = it_is(question)  # "what if its faulty"
    if _BARE_WHY.match(typed):
        return _why(question, frames[0].reading)
    if (put_back := _put_back(typed)) is not None:
        # "and the FIFO cache implementation, which release added that one?": the thing named first is what the
        # pronoun stands for; what it asks is then read like any question of the thread
        found = read(put_back, earlier, antecedent, names, tools)
        return found if found.dependent else _dependent(put_back, "pronoun")
    body = _LEAD.sub("", typed, count=1)
    picked = _which_one(body, frames)  # "which one added 3.12": one of the kind the thread asked for
    body = picked or body
    for reading in (_ellipsis(typed, frames, names, tools), _pronouns(body, frames, antecedent, names, tools),
                    _compared(body, frames), _carried(body, frames, tools, antecedent),
                    _tool_carried(body, frames, tools)):
        if reading is not None and reading.unclear:
            return Reading(question, True, "unclear", reading.candidates, reading.unclear)
        if reading is not None and reading.text != typed:
            typed_it = _IT.search(typed) is not None
            if _IT.search(reading.text) and (typed_it or reading.rule == "pronoun"):
                # "and the bugfix release after it?" put in the frame as typed ("When did the bugfix release after
                # it"), or "that release" read as "the release that added it": an "it" is still unread, and what it
                # means is the user's to say (the word the user typed that points back)
                return Reading(question, True, "unclear", (), "it" if typed_it else _pointing_word(typed) or "it")
            if _doubled(reading.text, typed):
                # "which of those does it discourage?" read "Which of pip pip discourage?": two antecedents run
                # together, no question; what the words point at is the user's to say
                return Reading(question, True, "unclear", (), _pointing_word(typed) or question.strip())
            return reading
    if picked:
        return _dependent(body, "carried")
    return _then_of_two(question, frames[0].reading, antecedent) or Reading(question, rule="self-contained")


_THEN = re.compile(r"\s*,?\s*\bthen\s*[?.!]*\s*$", re.IGNORECASE)


def _then_of_two(question: str, frame: str, antecedent: str | None) -> Reading | None:
    """"does invoke-rc.d still run the action then" after "what do exit codes 101 and 105 from policy-rc.d mean":
    "then" is one of the cases the previous question joined, and the words do not say which (the user's reply,
    `antecedent`, does). None when the question does not end with "then" or the previous one joined nothing."""
    ending = _THEN.search(question)
    cases = [m.text for m in coordinated(frame)]
    if ending is None or len(cases) < 2:
        return None
    if antecedent is not None:
        return _dependent(f"{question[: ending.start()]} for {antecedent}?", "chosen")
    return Reading(question, True, "unclear", tuple(cases), "then")


# "and the FIFO cache implementation, which release added that one?", "and --upgrade-strategy, does it do anything
# without --upgrade": a thing named first, set apart by a comma, then a question whose pronoun stands for it
_DISLOCATED = re.compile(
    r"^\s*(?:and|also|so|ok(?:ay)?|then)?\s*(?P<thing>(?:(?:the|a|an|my|our|your|their)\s+[\w.+/'’-]+(?:\s+[\w.+/'’-]+)"
    r"{0,5})|--?[A-Za-z][\w-]*),\s*(?P<asked>(?:which|what|when|where|who|how|does|do|did|is|are|was|were|can|could|"
    r"will|would|should)\b[^,]*?)\s*(?P<end>[?.!]*)\s*$",
    re.IGNORECASE)
_STANDS_FOR = re.compile(r"\b(?:that one|this one|that|this|it|them|they)\b", re.IGNORECASE)


def _put_back(question: str) -> str | None:
    """The question with the thing it names first put in place of its pronoun ("Which release added the FIFO cache
    implementation?"), or None when it is not so put."""
    found = _DISLOCATED.match(question)
    if found is None:
        return None
    asked = found["asked"]
    pronoun = _STANDS_FOR.search(asked)
    if pronoun is None:
        return None
    text = f"{asked[: pronoun.start()]}{found['thing']}{asked[pronoun.end():]}{found['end'] or '?'}"
    return text[:1].upper() + text[1:]


# "the limit one. <question>", "the service one: <question>": a pick among the thread's things, then a question
_PICKED_THEN_ASKED = re.compile(
    r"^\s*(?:and\s+)?the\s+(?P<pick>[\w.+-]+(?:\s+[\w.+-]+)?)\s+one\s*[.,:;]\s*(?P<asked>\S.*?)\s*$", re.IGNORECASE)


def picked_then_asked(text: str) -> tuple[str, str] | None:
    """A message that picks one of the thread's things ("the limit one.") and then asks a question of its own about
    it, five words or more or in full ("what do ports emit instead"): the pick and the question."""
    match = _PICKED_THEN_ASKED.match(text)
    if match is None or not (in_full(match["asked"]) or len(tokens(match["asked"])) >= 5):
        return None
    return match["pick"], match["asked"]


def _asked_of_picked(
    pick: str, asked: str, frames: list[Earlier], names: Sequence[str], tools: AbstractSet[str]
) -> Reading:
    """The question asked after a pick, read with the thing picked: in the place of its pronoun ("before registering
    it"), of the pick's word ("the whole limit" -> "the whole autovacuum_vacuum_cost_limit"), or said after it ("what
    do ports emit instead (STABS)"). The thing is the one the thread named that holds the pick's words; the pick as
    typed when none does, or more than one."""
    named = _picked_thing(pick, frames)
    thing = named or f"the {pick}"
    if points_back(asked):
        reading = read(asked, frames[::-1], thing, names, tools)
        if reading.unclear:
            return Reading(asked, True, "unclear", reading.candidates, reading.unclear)
        if reading.text.strip() != asked.strip():
            return _dependent(reading.text, "chosen", thing)
    said = re.compile(rf"\b{re.escape(pick)}\b", re.IGNORECASE)
    if named and said.search(asked):
        return _dependent(said.sub(named, asked, count=1), "chosen", named)
    return _dependent(f"{asked.rstrip(' ?.!')} ({named or pick})?", "chosen", thing)


def _picked_thing(pick: str, frames: list[Earlier]) -> str | None:
    """The one thing the thread's questions named whose words hold the pick's ("limit": autovacuum_vacuum_cost_limit,
    "stabs": STABS)."""
    wanted = set(pick.lower().split())
    found: dict[str, None] = {}
    for frame in frames:
        for word in tokens(frame.reading):
            parts = {word.lower, *re.split(r"[-_.]", word.lower)}
            if wanted <= parts and word.lower not in wanted | STOP_WORDS:  # a code holding it, not the word itself
                found[word.text] = None
        for mention in mentions(frame.reading):
            if wanted <= set(mention.text.lower().split()):
                found[mention.text] = None
    things = [thing for thing in found if not any(thing != other and thing in other for other in found)]
    return things[0] if len(things) == 1 else None


def _pointing_word(typed: str) -> str | None:
    """The first word the user typed that points back at something said before ("those", "it")."""
    return next((word for word in re.findall(r"[a-z]+", typed.lower()) if word in _POINTING_BACK), None)


def _doubled(reading: str, typed: str) -> bool:
    """Whether a reading says a word twice in a row where the question as typed did not ("pip pip")."""
    typed_pairs = set(itertools.pairwise(word.lower for word in tokens(typed)))
    return any(first == second and first.isalpha() and (first, second) not in typed_pairs
               for first, second in itertools.pairwise(word.lower for word in tokens(reading)))


_IT = re.compile(r"\bit\b", re.IGNORECASE)


_BARE_WHY = re.compile(r"^\W*(?:and\s+)?(?:why|how\s+come)\W*$", re.IGNORECASE)


def _why(question: str, frame: str) -> Reading:
    """A bare "why" asks why the previous question's answer holds: after a yes/no question ("does python-build build a
    shared libpython by default") it is that question asked why; after any other, what it asks the reason of is not
    in the words, and it is asked back."""
    words = tokens(frame)
    if words and words[0].lower in AUXILIARIES | DO_MODALS:
        asked = unasked(frame)
        return _dependent(f"Why {asked[:1].lower()}{asked[1:]}?", "ellipsis")
    return Reading(question, True, "unclear", (), question.strip())


# --- ellipsis -------------------------------------------------------------------------------------------


def _ellipsis(
    question: str, frames: list[Earlier], names: Sequence[str] = (), tools: AbstractSet[str] = frozenset()
) -> Reading | None:
    frame = frames[0].reading
    if (match := _WH_FRAGMENT.match(question)) and (asked := _asked_again(frame, match["rest"] or match["agent"])):
        return _dependent(asked, "ellipsis")
    if (match := _WHAT_IF.match(question)) and not _MAIN_CLAUSE.search(match["rest"]):
        if restated := _restated(frame, match["rest"]):  # "and if it's not faulty?" after "a faulty device"
            return _dependent(restated, "ellipsis")
        condition = _pronouns(match["rest"], frames, None)
        text = condition.text if condition and not condition.unclear else match["rest"]
        if match["rest"][:1].islower():
            text = text[:1].lower() + text[1:]
        subject = topic(frame) if _yes_no(frame) else None
        if (_WHAT_HAPPENS.match(question) and condition and condition.dependent and subject
                and text.lower().startswith(subject.lower() + " ")):
            # "and what if it cant switch" after "does supervisord need root to switch …": what happens then, not
            # whether it needs root then
            return _dependent(f"What happens if {unasked(text)}?", "ellipsis")
        # a condition with a subject of its own replaces the frame's ("and if the command doesnt exist"); one said of
        # the thing ("what if it's faulty") is added to it
        kept = unasked(frame) if condition and condition.dependent else _without_condition(frame)
        return _dependent(f"{kept} if {unasked(text)}?", "ellipsis")
    if (match := _AND_TO.match(question)) and (how := _HOW_DO_I.match(frame)):
        # "and to get off it" after "how do i join the lsof mailing list": the same ask, of another deed, by the same
        # tool ("and to only rerun the failed ones" after "how do i make ctest stop at the first failure")
        made = _MADE_TO.match(frame, how.end())
        by = made.group(0) if made and _names_tool((made["tool"] or made["tool2"]).lower()) else ""
        text = f"{how.group(0)}{by}{match['rest']}"
        resolved = _pronouns(f"{text}?", frames, None)
        text = resolved.text.rstrip("?") if resolved and not resolved.unclear else text
        if not by and (tool := _subject_tool(frame, tools, text, anywhere=True)):
            text = f"{text} with {tool}"  # "and to load a file into a table?" after "… one specific bq command"
        return _dependent(f"{text}?", "ellipsis")
    if (match := _AND_TO.match(question)) and (made := _WHICH_MAKES.match(frame)):
        # "and to switch on the fast parser?" after "which env var makes dotenv load some other file": the same ask
        return _dependent(f"{made.group(0)}{match['rest']}?", "ellipsis")
    if (match := _ONE_THAT.match(question)) and (head := _which_head(frame)):
        # "and the one that lets you ignore a minor version conflict?" after "which control command of OpenSSL's
        # dynamic ENGINE identifies the shared library …": the frame's "which N", of what the new clause says
        clause = match["clause"]
        # a name the frame's clause said beyond its N stays the scope: "which uid range does systemd hand out for
        # DynamicUser" + "the one that is reserved for containers" -> "Which uid range is reserved for containers
        # (DynamicUser)?"
        said = f"{head} {clause}".lower()
        scope = [m.text for m in mentions(frame[len(head):]) if m.kind == "name" and m.text.lower() not in said]
        return _dependent(f"{head} {clause}" + (f" ({', '.join(dict.fromkeys(scope))})" if scope else "") + "?",
                          "ellipsis")
    match = _ellipsis_match(question)
    if match is None:
        return None
    rest = match["rest"]
    if match.re is _NOTHING_ON and _IT.search(rest):
        return None  # "anything in it for logging?": what "it" is, the pronoun rules say; no case of the frame's ask
    pointed = [word.lower for word in tokens(rest)]
    if len(pointed) == 2 and pointed[0] in _DEMONSTRATIVES and pointed[1] in _ONES:
        return Reading(question, True, "unclear", (), rest)  # "and that one?": which one, the words do not say
    if swapped := _swap_letter(frame, rest):  # "and e" after "… what does the r flag on a key mean"
        return _dependent(swapped, "ellipsis")
    if swapped := _swap_bound(frame, rest):  # "and the max?" after "what is the default SYS_UID_MIN"
        return _dependent(swapped, "ellipsis")
    if swapped := _swap_marked(frame, rest):  # "and :invalid?" after "… what does the :missing pseudo selector match?"
        return _dependent(swapped, "ellipsis")
    if any(m.kind == "period" for m in mentions(frame)):
        rest = _SAME_PERIOD.sub("", rest).strip() or rest
    rest = _recased(rest, frames, names)
    words = tokens(rest)
    if not words or len(words) > 6 or any(word.lower in WH_WORDS for word in words):
        return None  # "and then what escapes the delimiter?" asks a question of its own
    if swapped := _same_slot(frames[0], rest):  # "gitweb?" after "and git remote -v?" took git add -i's place
        return _dependent(swapped, "ellipsis")
    swapped = _swap(frame, rest, frames)
    if swapped is None:
        return None
    if _lost_words(rest, swapped) or not _asks(swapped) or not _same_opening(frame, swapped):
        # "What about nasm on Windows?": one swap cannot take the whole ask; "and for directories?" put in the place
        # of "whats pacote's default" leaves no question ("Directories fmode for extracted files"), nor does "and to
        # get rid of one?" put before "what does pg_createcluster actually do"
        return Reading(question, True, "unclear", (), rest)
    # "and the offset?" in the place of "--minimum option" after "fstrim's": the possessive is the fragment's article
    return _dependent(_ARTICLE_AFTER_POSSESSIVE.sub(r"\1 ", swapped), "ellipsis")


_ARTICLE_AFTER_POSSESSIVE = re.compile(
    r"\b(?!(?:what|who|where|when|how|that|there|here|it|he|she)['’]s\b)(\w+['’]s)\s+(?:the|a|an)\s+(?=\w)",
    re.IGNORECASE)


# "and the one that marks a bundled dependency?", "the other one which sets it", "the one with just the base name": a
# "which N" asked again with a clause of its own (a relative pronoun gives way to the frame's N; "with" stays)
_ONE_THAT = re.compile(r"^\s*(?:and|also|so|ok(?:ay)?|then|what\s+about|how\s+about)?\s*(?:,\s*)?the\s+(?:other\s+)?"
                       r"one\s+(?:(?:that|which|who)\s+|(?=with\s))(?P<clause>[a-z][^?]*?)\s*[?.!]*\s*$",
                       re.IGNORECASE)
_HEAD_WORDS = 4  # the longest "which N" a frame is taken to open with, past its "of …"


def _which_head(frame: str) -> str | None:
    """The frame's opening up to where it says what its "which N" does: "In package-lock.json, which field" of "In
    package-lock.json, which field says a package has a preinstall script?", "Which control command of OpenSSL's
    dynamic ENGINE" of "… identifies the shared library …". None when the frame asks no "which/what N", or its N is
    not followed by a verb the words show: an auxiliary; past the N's first word, a word ending in -ed, one ending in
    -ing before a determiner or a preposition, or one ending in -s before a determiner."""
    scene = _SCENE.match(frame)
    start = scene.end() if scene else 0
    words = tokens(frame[start:])
    if len(words) < 3 or words[0].lower not in {"which", "what"} or words[1].lower in DETERMINERS | AUXILIARIES:
        return None
    limit = _HEAD_WORDS
    for at in range(1, len(words) - 1):
        word, after = words[at], words[at + 1]
        opens_object = after.lower in DETERMINERS | PREPOSITIONS
        # "predefined variable", "hashing method": a word like a verb right after "which" is its noun's modifier
        verb = word.lower in AUXILIARIES or (at > 1 and (
            (verb_like(word) and (word.lower.endswith("ed") or opens_object))
            or (word.lower.endswith("s") and not word.lower.endswith("ss") and after.lower in DETERMINERS)))
        if verb:
            return frame[: start + word.start].rstrip() if at > 1 else None
        if word.lower == "of":
            limit = at + _HEAD_WORDS  # "of OpenSSL's dynamic ENGINE" belongs to the N
        elif word.lower in PREPOSITIONS or word.lower in WH_WORDS | CONJUNCTIONS or at >= limit:
            return None
    return None


def _same_opening(frame: str, reading: str) -> bool:
    """Whether a reading still opens with the frame's question word or preposition ("what", "does", "on debian what
    …"): a swap puts a thing in the frame's place for one, never before its question, nor between a question word and
    its noun ("Which the release after support", "What the type class does dig use")."""
    opening, reopened = tokens(frame)[:1], tokens(reading)[:2]
    if not opening or opening[0].lower not in WH_WORDS | AUXILIARIES | PREPOSITIONS:
        return True
    if (len(reopened) == 2 and reopened[0].lower in {"what", "which"} and not reopened[0].possessive  # "What's the"
            and reopened[1].lower in {"the", "a", "an"} | _DEMONSTRATIVES):  # "What that version if …"
        return False
    return bool(reopened) and reopened[0].lower == opening[0].lower


def _yes_no(frame: str) -> bool:
    """Whether a question asks yes or no of what its subject does: "does", "can", "will" … opens it ("does supervisord
    need root …"; not "is there a fee …")."""
    words = tokens(frame)
    return bool(words) and words[0].lower in DO_MODALS


def _unread_fragment(turn: Earlier) -> bool:
    """Whether a later turn was a fragment left unread ("and for directories?", asked back): it names nothing a
    pronoun after it could mean, and the turn before it is the frame."""
    return turn.reading.strip() == turn.question.strip() and _ellipsis_match(turn.question) is not None


def _asks(text: str) -> bool:
    """Whether a reading still asks something: a question word in it, or an auxiliary opening it."""
    words = [word.lower.removesuffix("s") if word.lower in {"whats", "hows", "wheres", "whos"} else word.lower
             for word in tokens(text)]
    return bool(words) and (words[0] in AUXILIARIES or any(word in WH_WORDS for word in words))


def _ellipsis_match(question: str) -> re.Match[str] | None:
    """The question as an ellipsis, its `rest` what it says ("the Heron" of "What about the Heron?", "git remote -v"
    of "and git remote -v?", "zlib -1" of "vs zlib -1?"), or None when it is none: "and …" or a bare fragment only
    when a wh-word or an auxiliary does not open what follows."""
    match = (_ABOUT.match(question) or _SAME_FOR.match(question) or _VERSUS.match(question)
             or _NOTHING_ON.match(question))
    for fragment in (_AND_FRAGMENT.match(question), _bare_fragment(question)):
        words = tokens(fragment["rest"]) if fragment and match is None else []
        if words and words[0].lower not in WH_WORDS | AUXILIARIES:
            match = fragment
    return match


_NOT_A_THING = WH_WORDS | AUXILIARIES | PREPOSITIONS | {"it"} | _DEMONSTRATIVES | _ONES


def _same_slot(previous: Earlier, rest: str) -> str | None:
    """The previous reading with `rest` in the place the previous question's own fragment took in it: after "what
    changed for git add -i in 2.37" and "and git remote -v?" (read "What changed for git remote -v in 2.37"),
    "gitweb?" asks "What changed for gitweb in 2.37"."""
    earlier = _ellipsis_match(previous.question)
    slot = earlier["rest"].strip() if earlier else None
    if not slot or previous.reading.strip() == previous.question.strip() or slot.lower() == rest.lower():
        return None
    if any(w.lower in _NOT_A_THING for w in (*tokens(slot), *tokens(rest))):
        return None  # "since which version?", "for AVX2", "nasm … for that one": no thing in a slot of its own
    at = previous.reading.lower().find(slot.lower())
    if at < 0 or len(tokens(slot)) > 4:
        return None
    return previous.reading[:at] + rest + previous.reading[at + len(slot) :]


_PROPERTY = re.compile(r"^(?:it|they)(?:['’]s|['’]re|\s+is|\s+are)\s+(?P<negated>not\s+)?(?P<word>[a-z-]+)$",
                       re.IGNORECASE)


def _restated(frame: str, condition: str) -> str | None:
    """A condition on the property the frame named its thing with, in the property's place: "Who pays return shipping
    for a faulty device?" + "it's not faulty" -> "Who pays return shipping for a device that is not faulty?"."""
    match = _PROPERTY.match(unasked(condition))
    if match is None:
        return None
    words = tokens(frame)
    for index, word in enumerate(words[:-1]):
        noun = words[index + 1]
        if word.lower == match["word"].lower() and _content_word(noun.lower) and not noun.possessive:
            end = noun.start + len(noun.text)
            state = f"that is {'not ' if match['negated'] else ''}{match['word']}"
            return f"{frame[: word.start]}{noun.text} {state}{frame[end:]}"
    return None


def _swap_letter(frame: str, fragment: str) -> str | None:
    """A fragment of one letter in place of the frame's one letter: a flag, a field or a mode named by its letter
    ("what does the r flag on a key mean" + "and e" -> "what does the e flag on a key mean")."""
    new = tokens(fragment)
    if len(new) != 1 or len(letter := _LETTER_QUOTED.sub(r"\1", new[0].text)) != 1 or not letter.isalpha():
        return None
    letters = [w for w in tokens(frame) if len(bare := _LETTER_QUOTED.sub(r"\1", w.text)) == 1 and bare.isalpha()
               and w.lower not in {"a", "i"}]
    if len(letters) != 1:
        return None
    at = letters[0].start + (len(letters[0].text) > 1)  # in quotes, the letter after the opening one
    return frame[:at] + letter + frame[at + 1 :]


_LETTER_QUOTED = re.compile(r"^['\"`](\w)['\"`]$")  # 'r', "m", `e`: a letter quoted as a value


def _swap_marked(frame: str, fragment: str) -> str | None:
    """A fragment of one word marked as a name by a sign before it (":invalid", "@types", "$HOME", "%i") in place of
    the frame's one word marked by the same sign: "In npm query, what does the :missing pseudo selector match?" +
    "and :invalid?" -> "… the :invalid pseudo selector …". Flags ("-x", "--depth") are the mentions' own swap."""
    new = _MARKED_WORD.fullmatch(fragment.strip().rstrip("?.!").strip())
    if new is None:
        return None
    found = [m for m in _MARKED_WORD.finditer(frame) if m["sign"] == new["sign"] and m.group(0) != new.group(0)]
    if len(found) != 1:
        return None
    return frame[: found[0].start()] + new.group(0) + frame[found[0].end() :]


# a word marked as a name by the sign before it: a pseudo selector, a scope, a variable, a format's placeholder
_MARKED_WORD = re.compile(r"(?<![\w:@$%])(?P<sign>::?|@|\$|%)[A-Za-z][\w-]*")


_BOUND_ASKED = re.compile(r"^(?:(?:for|of)\s+)?(?:the\s+)?(?P<bound>max(?:imum)?|min(?:imum)?)$", re.IGNORECASE)
_BOUND_IN_KEY = re.compile(r"(?<=[A-Z_])(?:MIN|MAX)(?=_|\b)|\b(?:MIN|MAX)(?=_)")


def _swap_bound(frame: str, fragment: str) -> str | None:
    """The frame's one constant with a bound in its name, the other bound in its place, when the fragment asks for that
    bound ("In login.defs, what is the default SYS_UID_MIN?" + "and the max?" -> "… SYS_UID_MAX?",
    "PASS_MIN_DAYS" + "and for the max?" -> "PASS_MAX_DAYS")."""
    asked = _BOUND_ASKED.match(fragment.strip().rstrip("?.!").strip())
    if asked is None:
        return None
    bound = "MAX" if asked["bound"].lower().startswith("max") else "MIN"
    keys = [m for m in re.finditer(r"\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b", frame) if _BOUND_IN_KEY.search(m.group(0))]
    if len(keys) != 1:
        return None
    key = keys[0].group(0)
    other = _BOUND_IN_KEY.sub(bound, key, count=1)
    return None if other == key else frame[: keys[0].start()] + other + frame[keys[0].end() :]


# "if a package has both …, which one does npm publish follow?": a condition before a question of its own
_MAIN_CLAUSE = re.compile(
    r",\s*(?:which|what|who|whom|when|where|why|how|can|could|does|do|did|is|are|was|were|will|would|should|may)\b",
    re.IGNORECASE)
# a condition the frame put on its ask: "… give if it finds the command but can't run it", "… default to when no
# journal was requested"
_CONDITION = re.compile(r"\s+(?:if|unless|when)\s+\S.*$", re.IGNORECASE)


def _without_condition(frame: str) -> str:
    """The frame's ask without the condition it ended on, which the follow-up's condition replaces: "what exit code
    does timeout give if it finds the command but can't run it" + "and if the command doesnt exist" asks of the
    missing command, not of both."""
    ask = unasked(frame)
    return _CONDITION.sub("", ask) or ask


def _bare_fragment(question: str) -> re.Match[str] | None:
    """A follow-up of one to three words and a question mark that is no question of its own ("open roles?"): not a
    pronoun, a wh-word or an auxiliary first, nor an adverb ("really?")."""
    match = _BARE_FRAGMENT.match(question)
    if match is None:
        return None
    words = [w.lower for w in tokens(match["rest"])]
    stops = WH_WORDS | AUXILIARIES | _SINGULAR | _PLURAL | _PEOPLE | CONJUNCTIONS | word_set("yes no ok okay thanks")
    short = all(len(w) < 3 and not (w.startswith("-") or any(c.isdigit() for c in w)) for w in words)  # "-9?" is not
    if words[0] in stops or any(w.endswith("ly") for w in words) or short:
        return None
    return match


def _asked_again(frame: str, fragment: str) -> str | None:
    """The previous question's predicate asked with another wh-phrase: "When does the Heron S1 launch?" + "In which
    markets?" -> "In which markets does the Heron S1 launch?". None when the frame has no wh-word then verb."""
    words = tokens(frame)
    if not words or words[0].lower not in WH_WORDS:
        return None
    verb = next((i for i, w in enumerate(words[:5]) if w.lower in AUXILIARIES), None)
    if verb is None or verb == len(words) - 1:
        return None
    return f"{unasked(fragment)} {unasked(frame[words[verb].start :])}?"


_LETTERS_AND_FIGURES = re.compile(r"^(?=.*[a-z])(?=.*\d)[a-z0-9-]+$")


# a team's short names for its departments, as chat types them: a table's rows say "Operations", "Engineering"
_DEPARTMENTS = {"ops": "Operations", "eng": "Engineering", "mktg": "Marketing", "fin": "Finance"}


def _recased(fragment: str, frames: list[Earlier], names: Sequence[str] = ()) -> str:
    """A fragment typed in lower case with its names as the thread wrote them ("and the heron s1" -> "the Heron
    S1"), or as a document's name gives them ("the falcons" -> "the Falcon X2": the name's first word, or its
    plural), or a department by a team's short name ("and ops?" -> "and Operations?"), or, when it has a word of
    letters and figures ("falcon x2"), with its words capitalised: a product's name, which the rules find by its
    capitals."""
    if fragment != fragment.lower():
        return fragment
    for frame in frames:
        for mention in mentions(frame.reading):
            at = fragment.find(mention.text.lower())
            if mention.kind == "name" and at >= 0:
                return fragment[:at] + mention.text + fragment[at + len(mention.text) :]
    words = tokens(fragment)
    for word in words:
        if (expanded := _DEPARTMENTS.get(word.lower)) and len(words) <= 2:  # "and ops?": the Operations department
            return fragment[: word.start] + expanded + fragment[word.start + len(word.text) :]
        named = [name for name in names if word.lower in _first_word_forms(name)]
        if len(named) == 1 and len(words) <= 2:  # "falcons", "the falcons": not a word of a longer phrase
            return fragment[: word.start] + named[0] + fragment[word.start + len(word.text) :]
    if not any(_LETTERS_AND_FIGURES.match(w.text) for w in words):
        return fragment
    for word in reversed(words):
        if word.lower not in DETERMINERS | PREPOSITIONS | CONJUNCTIONS:
            written = word.text.upper() if any(c.isdigit() for c in word.text) else word.text.capitalize()
            fragment = fragment[: word.start] + written + fragment[word.start + len(word.text) :]
    return fragment



def _first_word_forms(name: str) -> tuple[str, str]:
    """How a name is typed by its first word alone: "Falcon X2" as "falcon" or "falcons"."""
    first = name.split()[0].lower()
    return first, f"{first}s"


def _lost_words(fragment: str, reading: str) -> list[str]:
    """The fragment's own words (not its articles, prepositions or pointing words) that the reading dropped."""
    kept = {part for w in tokens(reading) for part in (w.lower, *re.split(r"[-_]", w.lower))}  # "systemd-resolved"
    pointing = DETERMINERS | PREPOSITIONS | CONJUNCTIONS | AUXILIARIES | _SINGULAR | _PLURAL | _ONES
    return [w.text for w in tokens(fragment) if w.lower not in pointing and w.lower not in kept]


# the scene a question sets before it asks: "in an alsa plug pcm what …", "with python-multipart's parse_form, which …"
_SCENE = re.compile(r"^\s*(?:in|with|on|for|under|using)\s+\S[^?]*?(?:,\s*|\s+)(?=(?:what|which|who|when|where|how)\b)",
                    re.IGNORECASE)


def _swap(frame: str, fragment: str, frames: list[Earlier]) -> str | None:
    """The frame asked about the fragment: the frame's mention of the fragment's shape gives way to it. A frame that
    sets a scene before its question keeps it, and the fragment goes into the question ("and copy?" after "in an
    alsa plug pcm what does route_policy average do")."""
    scene = _SCENE.match(frame)
    same_place = scene is not None and fragment.lower().split()[:1] == scene.group(0).lower().split()[:1]
    if scene and not same_place and (swapped := _swap_in(frame[scene.end() :], fragment, frames)):
        return frame[: scene.end()] + swapped
    return _swap_in(frame, fragment, frames)


def _swap_in(frame: str, fragment: str, frames: list[Earlier]) -> str | None:
    words = tokens(fragment)
    preposition = words[0].lower if words[0].lower in PREPOSITIONS else None
    if preposition:
        fragment = fragment[words[1].start :] if len(words) > 1 else ""
        words = words[1:]
    if not words:
        return None
    if quantity := _swap_quantity(frame, fragment):  # "the 128 GB one" after "… the 256 GB Falcon X2 cost?"
        return quantity
    if extended := _swap_extended(frame, words):  # "and autoclean?" after "what does apt-get clean delete"
        return extended
    if sibling := _swap_sibling(frame, words):  # "for resolved" after "… point systemd-timesyncd somewhere else"
        return sibling
    kept = [w for w in words if w.lower not in DETERMINERS]
    # "the md5 one", "to uninstalled ones", "the medium ones"
    if len(kept) == 2 and kept[1].lower in _ONES and (ones := _swap_ones(frame, kept[0])) is not None:
        return ones
    if aligned := _swap_aligned(frame, words, fragment):  # "npm exec" after "… for npm ls"
        return aligned
    if preposition is None and (acted_on := _swap_acted_on(frame, words, fragment)):
        return acted_on  # "and packing and unpacking?" after "which einops version brought einsum in"
    if words[0].lower in {"its", "their"}:  # "And its capacity?": the same thing, another attribute
        return _swap_attribute(frame, fragment[words[1].start :] if len(words) > 1 else "", frames)
    new = mentions(f"about {fragment}")  # a fragment's first word may be a name ("Sales")
    if preposition in _WHERE and not new and (placed := _swap_after(frame, preposition, fragment)):
        return placed  # "on windows?" after "where's pip's cache on linux"
    if preposition == "to" and not new and (placed := _swap_after(frame, "to", fragment)):
        return placed  # "and to unpack?" after "how much memory does xz -6 need to compress"
    if preposition == "for" and not new and (placed := _swap_after(frame, "for", fragment, same_head=True)):
        return placed  # "and for the frame checksum?" after "What is lz4's default for block checksums?"
    if preposition == "for" and not new and (placed := _swap_after(frame, "in", fragment)):
        return placed  # "and for ntbtls?" after "what does GPG_ERR_WRONG_PUBKEY_ALGO mean in gnupg"
    if preposition in _WHERE and not new and not any(w.lower == preposition for w in tokens(frame)):
        # "and on dns lookups?" after "what network timeout does wget have": the same ask, in that case too
        return f"{frame.rstrip().rstrip('?.!').rstrip()} {preposition} {fragment.strip().rstrip('?.!')}?"
    if new and len(new) == 1:
        return _swap_mention(frame, fragment, new[0], preposition)
    if len(new) >= 2 and not _unnamed(f"about {fragment}", new):  # "the Heron S1 in Q4": each in its place
        for mention in new:
            swapped = _swap_mention(frame, mention.text, mention, None)
            if swapped is None:
                return None
            frame = swapped
        return frame
    swapped = _swap_attribute(frame, fragment, frames, keep_head=len(_content(words)) == 1)
    if swapped is None and len(_content(words)) == 1 and words[-1].text.isalpha() and words[-1].text.islower():
        names = [m for m in mentions(frame) if m.kind == "name"]
        if len(names) == 1:  # "and the falcon?" after "... the Heron S1?": another name, typed in lower case
            name = words[-1].text.capitalize()
            return _swap_mention(frame, name, Mention(name, "name", 0, 0), None)
    return swapped


def _swap_acted_on(frame: str, words: list[Token], fragment: str) -> str | None:
    """The frame asks which release did something to a thing ("which crcmod release added python 3 support"); the
    fragment names another thing ("the xor out thing"), which takes the place of what the verb acts on, not of the
    release asked for. Not a fragment that names a release or a version itself ("and the release after?")."""
    frame_words = tokens(frame)
    if any(w.lower in VERSION_NOUNS | _ONES | _PICKED for w in words) or any(
            m.kind == "version" for m in mentions(fragment)):
        return None
    at = asked_noun_at(frame_words, VERSION_NOUNS)
    if at is None or at + 2 >= len(frame_words):
        return None
    verb = frame_words[at + 1]
    if not (verb.text.isalpha() and verb.text.islower()) or verb.lower in _NOT_ALIGNED | PREPOSITIONS:
        return None
    span = noun_phrase(frame_words, at + 2)
    if span is None:
        return None
    start = frame_words[span[0]].start
    end = start + len(phrase(frame_words, *span, frame))
    return frame[:start] + fragment.strip().rstrip("?.!").strip() + frame[end:]


_NOT_ALIGNED = DETERMINERS | PREPOSITIONS | CONJUNCTIONS | AUXILIARIES | WH_WORDS | _SINGULAR | _PLURAL
_EXTENDED_MIN = 4  # the shortest frame word a one-word fragment may extend ("clean" in "autoclean")


def _swap_extended(frame: str, words: list[Token]) -> str | None:
    """A one-word fragment that ends with a word of the frame takes that word's place: "autoclean" after "what does
    apt-get clean delete" is apt-get's other command, not another apt ("apt-autoclean")."""
    if len(words) != 1:
        return None
    fragment = words[0]
    for word in tokens(frame):
        if (len(word.text) >= _EXTENDED_MIN and fragment.lower != word.lower and fragment.lower.endswith(word.lower)
                and _content_word(word.lower)):
            return frame[: word.start] + fragment.text + frame[word.start + len(word.text) :]
    return None


def _swap_aligned(frame: str, words: list[Token], fragment: str) -> str | None:
    """A fragment of two or three words that shares its first or its last word with a run of the frame's words
    takes that run's place: "npm exec" after "whats the alias for npm ls" ("npm ls" gives way), "zlib -1" after
    "... does zstd 1.5.1 -1 get ..." ("zstd 1.5.1 -1"). A run is the frame's words around the shared one up to an
    article, a preposition, a conjunction, an auxiliary or a wh-word, at most four."""
    if not 2 <= len(words) <= 3 or any(w.lower in _NOT_ALIGNED for w in words):
        return None
    frame_words = tokens(frame)
    lower = [w.lower for w in frame_words]
    if all(w.lower in lower for w in words):
        return None
    for shared, step in ((words[0].lower, 1), (words[-1].lower, -1)):
        if lower.count(shared) != 1:
            continue
        start = end = lower.index(shared)
        while 0 <= end + step < len(lower) and lower[end + step] not in _NOT_ALIGNED and abs(end + step - start) < 4:
            end += step
        first, last = min(start, end), max(start, end)
        if first == last:
            continue
        at = frame_words[first].start
        return frame[:at] + fragment + frame[at + len(phrase(frame_words, first, last, frame)) :]
    return None


# where a thing is or runs: "on windows?" puts its place in the frame's ("… on linux"); "and for nasm?" is no place
_WHERE = word_set("on in under at inside within")


def _swap_after(frame: str, preposition: str, fragment: str, same_head: bool = False) -> str | None:
    """The frame's one short phrase after the fragment's preposition of place, in the fragment's place: "where's
    pip's cache on linux" + "on windows" -> "where's pip's cache on windows". With `same_head`, only a phrase of the
    fragment's noun ("block checksums" for "the frame checksum"; not "AVX2" for "nasm", another tool's version)."""
    frame_words = tokens(frame)
    at = [i for i, w in enumerate(frame_words) if w.lower == preposition]
    if len(at) != 1 or (span := noun_phrase(frame_words, at[0] + 1)) is None or span[1] - span[0] > 1:
        return None
    if same_head and not same_noun(tokens(fragment)[-1].lower, frame_words[span[1]].lower):
        return None
    start = frame_words[span[0]].start
    return frame[:start] + fragment.strip().rstrip("?.!") + frame[start + len(phrase(frame_words, *span, frame)) :]


_QUANTITY = re.compile(r"\b\d[\d,.]*\s*-?\s*(?P<unit>[a-z]+)\b", re.IGNORECASE)
_STAND_INS = _ONES | {"model", "models", "version", "option", "plan", "variant"}


# "the other one", "the first one": one of the things the thread named, not a thing of another kind
_PICKED = word_set("other first second third last next former latter same new old")


def _swap_sibling(frame: str, words: list[Token]) -> str | None:
    """One lower-case word in place of the last part of the frame's one hyphenated tool name: a sibling of its family
    ("systemd-timesyncd" + "resolved" -> "systemd-resolved")."""
    if len(words) != 1 or not words[0].text.isalpha() or not words[0].text.islower() or len(words[0].text) < 3:
        return None
    tools = [m for m in _TOOL.finditer(frame) if "-" in m.group(0)]
    if len(tools) != 1 or not _content_word(words[0].lower):
        return None
    tool = tools[0]
    family = tool.group(0).rsplit("-", 1)[0]
    return f"{frame[: tool.start()]}{family}-{words[0].text}{frame[tool.end() :]}"


def _swap_ones(frame: str, new: Token) -> str | None:
    """The frame with `new` in the place of the word its "ones" stand against: the frame's one code of that make ("the
    md5 one" after "… from the SHA1 hash"), the word it negates ("to uninstalled ones" after "… assign to installed
    package versions"), or else its modifier ("the medium ones" after "where do zstd's short CI tests run")."""
    words = tokens(frame)
    text = new.text
    if (at := _same_code(words, new.text)) is not None:
        text = new.text.upper() if words[at].text.isupper() else new.text
    else:
        at = _negated(words, new.lower)
    if at is None and new.lower not in _PICKED and not _degree(new.lower):
        at = _modifier(words)
    if at is None:
        return None
    old = words[at]
    return frame[: old.start] + text + frame[old.start + len(old.text) :]


_NEGATING = ("un", "non-", "non", "dis", "in", "im", "ir", "il")
_CODE_WORD = re.compile(r"^[A-Za-z]{2,}\d+$")  # letters then figures: "SHA1", "md5", "utf8", "ipv6"


def _same_code(words: list[Token], code: str) -> int | None:
    """Where the frame has the one code of the same make as `code` (letters then figures, the letters differing):
    "md5" in place of "SHA1", "ipv6" of "IPv4"."""
    if not _CODE_WORD.match(code):
        return None
    found = [index for index, word in enumerate(words) if _CODE_WORD.match(word.text) and word.lower != code.lower()]
    return found[0] if len(found) == 1 else None


def _negated(words: list[Token], modifier: str) -> int | None:
    """Where the frame has the word that `modifier` negates or is the negation of ("uninstalled" / "installed",
    "signed" / "unsigned"): the one thing of the frame the fragment's "ones" set against it."""
    found = [index for index, word in enumerate(words) if word.lower != modifier and any(
        modifier == prefix + word.lower or word.lower == prefix + modifier for prefix in _NEGATING)]
    return found[0] if len(found) == 1 else None


def _modifier(words: list[Token]) -> int | None:
    """Where the frame's first modified thing has its modifier: a lower-case word after an article or a possessive
    and before another content word ("zstd's short CI tests": "short")."""
    for index in range(1, len(words) - 1):
        word, before, after = words[index], words[index - 1], words[index + 1]
        if (word.text.isalpha() and word.text.islower() and _content_word(word.lower) and _content_word(after.lower)
                and (before.lower in DETERMINERS or before.possessive) and word.lower not in _STAND_INS):
            return index
    return None


def _of_kind(frame: str, modifier: str, plural: bool) -> str | None:
    """The frame's modified thing with `modifier` in its modifier's place, from its article or possessor to its head:
    "the long ones" after "where do zstd's medium CI tests run" is "zstd's long CI tests". A plural head ends at the
    first word with a plural's "s"; a singular one is one word."""
    words = tokens(frame)
    at = _modifier(words)
    if at is None:
        return None
    end = at + 1
    while plural and not words[end].lower.endswith("s") and end + 1 < len(words) \
            and _content_word(words[end + 1].lower) and words[end + 1].lower not in WH_WORDS:
        end += 1
    if plural and not words[end].lower.endswith("s"):
        return None
    start = words[at - 1].start
    head = frame[words[at + 1].start : words[end].start + len(words[end].text)]
    return f"{frame[start : words[at].start]}{modifier} {head}"


def _swap_quantity(frame: str, fragment: str) -> str | None:
    """The frame with its figure of the fragment's unit in place ("How much does the 256 GB Falcon X2 cost?" + "the
    128 GB one" -> "... the 128 GB Falcon X2 ..."), when the fragment says nothing else and the frame has one such
    figure, or none and one thing named, which the figure then goes before."""
    new = _QUANTITY.search(fragment)
    if new is None:
        return None
    rest = tokens(fragment[: new.start()] + " " + fragment[new.end() :])
    if any(w.lower not in DETERMINERS | _STAND_INS for w in rest):
        return None
    unit = new["unit"].lower()
    old = [m for m in _QUANTITY.finditer(frame) if m["unit"].lower() == unit]
    if not old and len(named := [m for m in mentions(frame) if m.kind == "name"]) == 1:
        # "the 256 GB one" after "What does the Falcon X2 cost?": the figure goes before the one thing named
        at = tokens(frame)[named[0].first].start
        return frame[:at] + new.group(0) + " " + frame[at:]
    if len(old) != 1:
        return None
    return frame[: old[0].start()] + new.group(0) + frame[old[0].end() :]


def _swap_mention(frame: str, fragment: str, new: Mention, preposition: str | None) -> str | None:
    frame_words = tokens(frame)
    old = [m for m in mentions(frame) if m.kind == new.kind]
    if preposition:
        after = [m for m in old if m.first > 0 and frame_words[m.first - 1].lower == preposition]
        old = after or old
    if not old:
        if new.kind == "period":
            return f"{unasked(frame)} in {new.text}?"
        if new.kind == "version":  # "And 22.04?" after "… Ubuntu 24.04 LTS …": the version inside the name
            return _swap_inner_version(frame, new.text)
        if preposition:  # "and with -s?": a condition the frame had no place for is added to it
            return f"{unasked(frame)} {preposition} {fragment}?"
        return None
    target = max(old, key=lambda m: (_acronyms_place(m.text, new.text), shape(m.text) == shape(new.text),
                                     likeness(m.text, new.text), -m.first))
    start = frame_words[target.first].start
    last = target.last
    while new.kind == "name" and last > target.first and frame_words[last].text.islower():
        last -= 1  # "Falcon X2 pre-orders": the name gives way, not the lower-case noun it is joined to
    end = start + len(phrase(frame_words, target.first, last, frame))
    replacement = new.text
    if fragment.lower().startswith("the ") and not frame[:start].rstrip().lower().endswith(" the"):
        replacement = f"the {new.text}" if target.first else f"The {new.text}"
    if target.possessive and last == target.last:
        end = frame.find("s", end) + 1 if frame[end : end + 2] in {"'s", "’s"} else end
        replacement += "'s"
    return frame[:start] + replacement + frame[end:]


def _acronyms_place(phrase_text: str, acronym: str) -> bool:
    """Whether a name is written as another acronym of the same length would be spelled out: as many capitalised words
    as `acronym` has letters ("Profile Guided Optimization", PGO, is the place of "LTO" in "… build with Profile Guided
    Optimization?", not "CPython"). Not `anchors._spelled_out`, which finds an acronym's own words by their initials."""
    words = phrase_text.split()
    return (acronym.isalpha() and acronym.isupper() and 2 <= len(acronym) == len(words)
            and all(word[:1].isupper() for word in words))


def _swap_inner_version(frame: str, version: str) -> str | None:
    """The frame with the version inside one of its names in place ("Debian 11" -> "Debian 12"), when it has one."""
    frame_words = tokens(frame)
    inner = [i for m in mentions(frame) if m.kind == "name" for i in range(m.first, m.last + 1)
             if VERSION_WORD.match(frame_words[i].text)]
    if len(inner) != 1:
        return None
    word = frame_words[inner[0]]
    return frame[: word.start] + version + frame[word.start + len(word.text) :]


def _swap_attribute(frame: str, attribute: str, frames: list[Earlier], keep_head: bool = False) -> str | None:
    """The frame with its focus phrase (what it asks about) replaced by `attribute`: "What was the gross margin in
    Q3 2026?" + "monthly churn" -> "What was monthly churn in Q3 2026?"; one word replaces the focus's modifier
    ("the marketing budget" + "travel" -> "the travel budget")."""
    attribute = attribute.strip().rstrip("?.!").strip()
    if not attribute:
        return None
    frame_words = tokens(frame)
    span = focus(frame_words)
    if span is None:
        return None
    first, last = span
    content = [i for i in range(first, last + 1) if frame_words[i].lower not in DETERMINERS]
    article, *rest = attribute.split(None, 1)
    own_article = bool(rest) and article.lower() in DETERMINERS
    # a whole noun phrase ("the fish install oneliner") takes the place of the focus's lower-case names too: in
    # "activate/deactivate hooks" they are part of the thing asked about, unlike "Falcon X2" or "FY2026"
    named = {i for m in mentions(frame) if not (own_article and m.text.islower()) for i in range(m.first, m.last + 1)}
    content = [i for i in content if i not in named and not frame_words[i].possessive]
    if not content:
        return None
    if keep_head and _same_ending(attribute.lower(), frame_words[content[-1]].lower):
        content = content[-1:]  # "maxinterval" after "… default mininterval": another of the head's kind
    elif keep_head and len(content) >= 2:
        content = content[:-1]
        # "the lowest operating temperature" + "the highest": the superlative gives way, the rest of the phrase stays
        degree = _degree(attribute.split()[-1].lower())
        content = [i for i in content if degree and _degree(frame_words[i].lower) == degree][:1] or content
    start = frame_words[content[0]].start
    end = start + len(phrase(frame_words, content[0], content[-1], frame))
    before_words = frame[:start].split()
    if own_article and before_words and before_words[-1].lower() in DETERMINERS:
        # the frame's own article stays: not "the the highest", not "its the build dir"
        attribute = rest[0]
    replaced = frame[:start] + attribute + frame[end:]
    if not keep_head and start > 0 and not own_article:  # "the gross margin" -> "monthly churn": the article goes
        before = frame[:start].rstrip()
        if before.lower().endswith(" the") and attribute.split()[0].lower() not in DETERMINERS:
            head = frame_words[first].lower
            if head == "the" and not any(frame_words[i].possessive for i in range(first, content[0])):
                replaced = before[: -len(" the")] + " " + attribute + frame[end:]
    return replaced


def _same_ending(word: str, other: str) -> bool:
    """Two words that differ only before a shared ending of at least half the shorter one ("maxinterval",
    "mininterval"; "download", "upload")."""
    return word != other and shared_ending(word, other) >= max(4, min(len(word), len(other)) // 2)


def _degree(word: str) -> str | None:
    """"est" for a superlative ("lowest", "highest"), "er" for a comparative; None for any other word."""
    for ending in ("est", "er"):
        if word.endswith(ending) and len(word) > len(ending) + 2:
            return ending
    return None


# --- pronouns and demonstratives -------------------------------------------------------------------------


def _pronouns(
    question: str,
    frames: list[Earlier],
    antecedent: str | None,
    names: Sequence[str] = (),
    tools: AbstractSet[str] = frozenset(),
) -> Reading | None:
    words = tokens(question)
    found = _referring_words(words)
    if not found:
        return None
    edits: list[tuple[int, int, str]] = []
    about: str | None = None
    for index, form in found:
        word = words[index]
        if antecedent is not None and form == "degree":  # "the bigger one" is the thing the user named
            edits.append((words[index - 2].start, word.start + len(word.text), antecedent))
            about = antecedent
            continue
        if antecedent is not None and form in {"singular", "plural"}:
            if any(f"the {antecedent.lower()}" in f.reading.lower() for f in frames):
                antecedent = f"the {antecedent}"  # as the thread wrote it: "the Heron S1"
            edits.append(_replace(question, words, index, antecedent))
            about = antecedent
            continue
        if antecedent is not None and (form == "both" or (form == "demonstrative"
                                                          and words[index + 1].lower in _ONES)):
            # the reply to "what does 'that one' refer to?" takes its place, as a named thing's would
            end = words[index + (form == "demonstrative")]
            edits.append((word.start, end.start + len(end.text), antecedent))
            about = antecedent
            continue
        if form == "singular" and _named_before(words, index, frames[0].reading, tools):
            continue  # "what does grep -c count when it is combined with -v?": "it" is the question's own -c
        resolved = _resolve(question, words, index, form, frames, names, tools)
        if isinstance(resolved, Reading):
            return resolved
        if resolved is None:
            if form == "demonstrative" and words[index + 1].lower not in _ONES \
                    and not _closing_object(words, index):
                # "that budget" unresolved is any budget; "why that one" without its one is asked back, and so is
                # "what generates that file": the thing the thread meant, not any file
                continue
            said = phrase(words, index, index + 1, question) if form == "demonstrative" else word.text
            return Reading(question, True, "unclear", (), said)
        edits.append(resolved)
        if form in {"singular", "plural"} and resolved[2] != word.text:
            about = resolved[2].removesuffix("'s").removesuffix("'")
            if word.lower == "it" and word.possessive:  # "it's bad" was read "{thing} is bad": the thing is its about
                about = about.removesuffix(" is")
    if not edits:
        return None
    text = question
    for start, end, replacement in sorted(edits, reverse=True):
        text = text[:start] + replacement + text[end:]
    return _dependent(_with_period(text, frames[0]), "chosen" if antecedent is not None else "pronoun", about)


def _with_period(text: str, frame: Earlier) -> str:
    """`text` with the period the previous question named ("Who approved it?" after "... in AI in FY2026?":
    "Who approved AI in FY2026?"), unless it names a period of its own or already holds that one."""
    if any(m.kind == "period" for m in mentions(text)):
        return text
    periods = [m.text for m in mentions(frame.reading) if m.kind == "period"]
    if not periods or periods[0].lower() in text.lower():
        return text
    return f"{text.rstrip().rstrip('?.!').rstrip()} in {periods[0]}?"


def _referring_words(words: list[Token]) -> list[tuple[int, str]]:
    """The words that refer outside the question, each with its form: singular, plural, demonstrative ("that
    quarter"), locative ("there"), or pair ("the two")."""
    found = []
    people_before = False
    for index, word in enumerate(words):
        lower = word.lower
        after = words[index + 1].lower if index + 1 < len(words) else None
        before = words[index - 1].lower if index else None
        if lower in _PEOPLE and lower != "i":  # "can i set all of them": one person is never "them"
            people_before = True
        if _subject_pronoun(words, index):
            found.append((index, "singular"))
            continue
        if _expletive(words, index):
            continue  # "what does it mean when policy-rc.d returns 102": the "it" is the clause after it
        if lower in _DEMONSTRATIVES and after in _ONES:
            found.append((index, "demonstrative"))  # "what supports that one today": a thing the thread named
            continue
        # "when was that out", "when was that released": the release the thread named, as "when did that come out"
        been = words[0].lower == "when" and before in {"is", "was"} and after is not None \
            and (after in _CLOSING or after.endswith("ed"))
        if lower == "that" and (before in DO_MODALS or been) and _verb_after_that(words, index):
            found.append((index, "clause"))  # "when did that come out": what the thread said, not a thing named
            continue
        if lower in _DEMONSTRATIVES and after and _content_word(after):
            pointing = before is None or before in PREPOSITIONS | AUXILIARIES | WH_WORDS | {"and"}
            pointing = pointing or (lower == "that" and after in _PERIOD_NOUNS)  # "went into Sales that quarter"
            pointing = pointing or _closing_object(words, index)  # "what generates that file"
            if pointing and not (lower == "this" and after in _PERIOD_NOUNS):  # "this year" is now, not then
                found.append((index, "demonstrative"))
            continue
        if lower == "that" and after is not None:
            continue  # "the fee that applies": a relative clause
        if lower == "there":
            if before not in _BE and after not in _BE | {"'s"} and not word.text.lower().endswith("'s"):
                found.append((index, "locative"))
            continue
        if lower == "each" and before in AUXILIARIES | DO_MODALS and not _plural_before(words, index):
            # "how long did each take": each of the two the thread compared; not "with a few workers running does
            # each get the whole limit", each of the question's own
            found.append((index, "each"))
            continue
        if lower == "two" and before == "the":
            found.append((index, "pair"))
            continue
        if lower == "both" and (after is None or after in AUXILIARIES | _PARTICLES):
            # "which one wins if both are there", "how do i switch both off": the two the thread named
            found.append((index, "both"))
            continue
        if lower == "other" and before == "the" and after is not None and _content_word(after):
            found.append((index, "other"))  # "the other one", "the other model"
            continue
        if (lower in _ONES and index >= 2 and words[index - 2].lower == "the" and before is not None
                and _degree(before) and before not in _NOT_COMPARATIVE):
            found.append((index, "degree"))  # "the bigger one": which earlier thing is bigger, words cannot tell
            continue
        if (lower in _ONES and index >= 2 and words[index - 2].lower == "the" and before is not None
                and before.isalpha() and _content_word(before) and before not in _STAND_INS | _PICKED):
            found.append((index, "kind"))  # "the long ones": the frame's thing of another kind
            continue
        if lower in _PERSON and not people_before:
            found.append((index, "person"))  # "do i send bug reports to him": the person the thread named
            continue
        if lower == "its" and before == "on" and after == "own":
            continue  # "will -b restart anything on its own": by itself, no thing's own
        if lower in _SINGULAR:
            found.append((index, "singular"))
        elif lower in _PLURAL and not (lower in {"they", "their", "them"} and people_before):
            found.append((index, "plural"))
    return found


# the words that close a verb's phrase after its object: "switch both off", "turn both on"
_PARTICLES = frozenset({"off", "on", "out", "up", "down", "back", "away"})


def _plural_before(words: list[Token], index: int) -> bool:
    """Whether a plural noun comes before `words[index]` in the question ("workers")."""
    return any(w.lower.isalpha() and _plural(w.lower) and w.lower not in STOP_WORDS | AUXILIARIES | DO_MODALS
               for w in words[:index])


# words that close a verb's phrase right after it: a particle, a preposition, an adverb ("come out", "work on",
# "apply to", "matter at all")
_CLOSING = PREPOSITIONS | frozenset({"out", "up", "down", "off", "back", "away", "too", "also", "again", "now", "yet",
                                     "still", "anyway"})


def _verb_after_that(words: list[Token], index: int) -> bool:
    """Whether "that" after "did/does/will/can …" is the subject of the verb after it ("when did that come out", "does
    that apply to forks"), not the determiner of a noun ("did that release fix it"): the word after it ends the
    question or is followed by a particle or a preposition."""
    if index + 1 >= len(words):
        return False
    after_next = words[index + 2].lower if index + 2 < len(words) else None
    return after_next is None or after_next in _CLOSING


def _named_before(words: list[Token], index: int, frame: str, tools: AbstractSet[str] = frozenset()) -> bool:
    """Whether the question names, before words[index], a tool the previous question did not, with a flag of it ("what
    does grep -c count when it is …" after a question on apt-get), or, before an "its", a workspace tool (`tools`:
    "which rules can ruff fix in its default config?" after a question on clippy) that is new to the thread or the
    subject of the question's verb ("where does less keep its history file?" after a question on less): the pronoun's
    antecedent is the question's own."""
    frame_words = {word.lower for word in tokens(frame)}
    if words[index].lower == "its" and any(
        (tool_key(word.text) in tools or _TOOL.fullmatch(word.text))
        # new to the thread, or the subject of the question's verb ("where does less keep its history file")
        and (word.lower not in frame_words or (at and words[at - 1].lower in DO_MODALS))
        for at, word in enumerate(words[:index])
    ):
        return True
    new = [(at, word) for at, word in enumerate(words[:index]) if word.lower not in frame_words]
    return any(_names_tool(word.lower) and words[at + 1].text.startswith("-") for at, word in new if at < index - 1)


def _closing_object(words: list[Token], index: int) -> bool:
    """Whether words[index] ("this", "that", "these", "those") and the noun after it close the question as the object
    of the word before: "what generates that file", "how do i silence these warnings". A clause's "that" ("does it say
    that files are kept") has more words after its noun."""
    return index > 0 and index + 2 == len(words) and _content_word(words[index - 1].lower)


# "it" standing for the clause after it: "what does it mean when …", "is it safe to …"
_EXPLETIVE_HEADS = word_set(
    "mean means possible safe ok okay worth necessary recommended required allowed advisable enough")
_CLAUSE_OPENERS = word_set("when if to for whether")


def _expletive(words: list[Token], index: int) -> bool:
    """Whether words[index] is an "it" that points at nothing the thread named but at the clause after the word that
    follows it: "what does it mean when policy-rc.d returns 102", "is it safe to delete the cache". Not "does it take
    a config file" nor a bare "what does it mean"."""
    if words[index].lower != "it" or index + 2 >= len(words):
        return False
    return words[index + 1].lower in _EXPLETIVE_HEADS and words[index + 2].lower in _CLAUSE_OPENERS


def _subject_pronoun(words: list[Token], index: int) -> bool:
    """Whether words[index] is "this" or "that" standing alone as the subject, after "does" and before a verb: "how
    many employees does that pay for?", "does this include the fee?". The word after it is a verb when the question
    ends after it or a preposition or an article follows; "does that budget cover travel?" has a noun there."""
    if words[index].lower not in {"this", "that"} or not index or words[index - 1].lower not in DO_MODALS:
        return False
    if index + 1 >= len(words) or words[index + 1].lower in _ONES:
        return False  # "who did that one": "that one" is the thing, "did" the verb
    following = words[index + 2].lower if index + 2 < len(words) else None
    return following is None or following in PREPOSITIONS | DETERMINERS


def _content_word(word: str) -> bool:
    return word not in AUXILIARIES | PREPOSITIONS | CONJUNCTIONS | WH_WORDS | DETERMINERS | {"'s"}


def _resolve(
    question: str,
    words: list[Token],
    index: int,
    form: str,
    frames: list[Earlier],
    names: Sequence[str] = (),
    tools: AbstractSet[str] = frozenset(),
) -> tuple[int, int, str] | Reading | None:
    """The edit that puts the antecedent in place of `words[index]`, a Reading that asks back, or None."""
    frame = frames[0]
    if form == "degree":
        return Reading(question, True, "unclear", (), phrase(words, index - 2, index, question))
    if form == "clause":  # "that" stands for what an earlier turn said or asked: the words cannot tell which
        if code := code_given(frame.reading, frame.answer):  # unless it was a code: "when was that out" -> csvkit 1.5.0
            return words[index].start, words[index].start + len(words[index].text), code
        return Reading(question, True, "unclear", (), words[index].text)
    if form == "other":  # of the two things the thread named, the one the latest question was not about
        things = _last_two(frames)
        latest = {m.text.lower() for m in mentions(frame.reading)}
        others = [thing for thing in things if thing.removeprefix("the ").lower() not in latest]
        if not things and any(name.lower() in latest for name in names):
            # the thread named one; the workspace's documents name the others ("Heron S1": "Falcon X2")
            others = [f"the {name}" for name in names if name.lower() not in latest]
        if len(others) != 1:
            return Reading(question, True, "unclear", (), f"the other {words[index + 1].text}")
        return words[index - 1].start, words[index + 1].start + len(words[index + 1].text), others[0]
    if form == "kind":
        kind = _of_kind(frame.reading, words[index - 1].text, plural=words[index].lower == "ones")
        if kind is None:
            return None
        return words[index - 2].start, words[index].start + len(words[index].text), kind
    if form == "each":
        things = _last_two(frames) or _than_pair(frame.reading)
        if not things:
            return None
        return words[index].start, words[index].start + len(words[index].text), f"{' and '.join(things)} each"
    if form in {"pair", "both"}:
        things = _last_two(frames) or _swapped_pair(frames)
        if not things:
            return None
        start = words[index - 1].start if form == "pair" else words[index].start
        return start, words[index].start + len(words[index].text), " and ".join(things)
    if form == "demonstrative":
        return _demonstrative(question, words, index, frames)
    if form == "person":
        person = next((found for frame in frames if (found := _person_in(frame))), None)
        if person is None:
            return None
        if words[index].lower == "his" or (words[index].lower == "her" and index + 1 < len(words)
                                          and _content_word(words[index + 1].lower)):
            person += "'s"
        return words[index].start, words[index].start + len(words[index].text), person
    if form == "locative":
        place = _place(frame)
        if place is None:
            return None
        return words[index].start, words[index].start + len(words[index].text), place
    pool: list[Mention] | list[str] = (coordinated(frame.reading) or _ordinal_pair(frame.reading)
                                       or _version_pair(frame.reading) or _modifier_pair(frame.reading)
                                       or _tool_pair(frame.reading))
    if form == "singular" and len(pool) >= 2:
        names = [m if isinstance(m, str) else m.text for m in pool]
        own = {m.text.lower() for m in mentions(question)}
        if not any(name.lower() in own for name in names):
            return Reading(question, True, "unclear", tuple(names), words[index].text)
        return None
    if form == "plural" and words[index].lower in {"they", "them", "their"} and _asked_who(frame):
        named = _named_in_answer(frame)
        if named is None:  # whoever the answer should have named: it named no one
            return Reading(question, True, "unclear", (), words[index].text)
        if f"the {named}".lower() in strip_citations(frame.answer).lower():
            named = f"the {named}"
        return _replace(question, words, index, named)  # "Who reviews the models?" "What do they look at?"
    if form == "plural":
        group = pool or _chain(frames)
        thing = " and ".join(m if isinstance(m, str) else m.text for m in group) if group else _topic(frames, True)
        if (not group and words[index].lower == "them" and index >= 2 and words[index - 1].lower == "of"
                and words[index - 2].lower in {"all", "both", "each", "any"}
                and (asked := asked_noun(frame.reading)) and not _plural(asked)):
            # "can i set all of them" after "what network timeout does wget have": all of wget's timeouts
            kinds = f"{thing} {asked}s" if thing and not _plural(thing) else f"{asked}s"
            return words[index].start, words[index].start + len(words[index].text), f"the {kinds}"
        if not group and words[index].lower in {"they", "them"} and thing and not _plural(thing):
            if (words[index].lower == "them" and index and _acts_on(words[index - 1])
                    and len(acted := _plural_objects(frame.reading)) == 1):
                # "so what are my options if i need them" after "can mawk's regex engine do brace expressions": the
                # things the question asked of, not the tool it asked about
                return _replace(question, words, index, acted[0])
            # "where do they fix it" after a question on a warranty claim: "they" are the people who do it, not
            # the claim; the pronoun stays as typed
            return words[index].start, words[index].start + len(words[index].text), words[index].text
    elif words[index].lower == "it" and _asks_of_release(question, words, index) and (
            release := _release_asked(frame)):
        thing = release  # "when did it come out" after "which httpcore2 release started requiring Trio 0.34.0"
    elif words[index].lower in {"it", "that"} and (
            code := code_given(frame.reading, frame.answer, releases=words[index].lower == "that")) and not (
            code.startswith("-") and _names_flag(question)):
        thing = code  # "which release added it?" after "which easyrsa option …": the option its answer gave
    else:
        # a release is not what a question asking for a release asks it of ("which later release added a mismatch mode
        # for it?" after "When did strace 5.12 come out": the option asked about before); its subject may be one
        # ("which pytest release did it add support for?" after "… pytest-benchmark 4.0.0 …")
        releases = (asked_noun(question) not in VERSION_NOUNS or (
            index > 0 and words[index - 1].lower in DO_MODALS | AUXILIARIES)) and not (
            index > 0 and words[index - 1].lower in _APPLIED)  # "can i use it on its own?": an option, not its release
        thing = _topic(frames, words[index].lower == "its", tools, question, releases)
        if thing and _repeats(question, thing):
            named = [m.text for f in frames for m in mentions(thing) if m.kind == "name"]
            thing = f"the {named[0]}" if named else thing
        if thing is None and words[index].lower == "it":
            thing = _what_did(frame) or _tool(frame.reading)
    if thing is None:
        return None
    return _replace(question, words, index, thing)


def _names_flag(question: str) -> bool:
    """Whether a follow-up names a flag of its own: its "it" is then not a flag the previous answer gave ("what did it
    replace --enable-mini-gmp with?" after "which configure option did MPFR 4.1.0 add for formally proven code?" asks
    of MPFR 4.1.0, kitdocs tune thread cv-442#3), though it may be a variable ("does --timeout win over that")."""
    return any(m.kind == "flag" for m in mentions(question))


# a tool's name as chat types it: lower case, with a hyphen or an underscore inside ("node-gyp", "get_snapshot")
_TOOL = re.compile(r"(?<![\w./-])[a-z][a-z0-9]*(?:[-_][a-z0-9]+)+(?![\w/-])")


def _tool(frame: str) -> str | None:
    """The one tool the frame names in lower case, when words found it no subject: "it" after "which python versions
    need node-gyp v10 or newer" is node-gyp."""
    found = set(_TOOL.findall(frame))
    return found.pop() if len(found) == 1 else None


def _plural(thing: str) -> bool:
    """Whether a noun phrase names more than one thing: "the warranty repairs", "Debian 11 and Debian 12", "Kestrel
    Labs"; not "the warranty claim"."""
    last = thing.split()[-1].lower() if thing.split() else ""
    return " and " in thing or (last.endswith("s") and not last.endswith(("ss", "us", "is", "'s")))


def _asks_of_release(question: str, words: list[Token], index: int) -> bool:
    """Whether an "it" is asked of as a release: when it came out, or what is in it ("what got fixed in it"); not what
    it added ("who contributed it?"), nor in a question that asks for a release of its own ("which later release added
    a mismatch mode for it?": "it" is the option)."""
    if asked_noun(question) in VERSION_NOUNS:
        return False
    return bool(_ASKS_RELEASE.search(question)) or (index == len(words) - 1 and words[index - 1].lower == "in")


def _release_asked(frame: Earlier) -> str | None:
    """The release a "which … release …?" question asked for: the one its answer gave by number ("csvkit 1.5.0"), or
    the question made a phrase ("the httpcore2 release that started requiring Trio 0.34.0 …")."""
    asked = asked_noun(frame.reading)
    if asked not in VERSION_NOUNS or tokens(frame.reading)[0].lower not in {"which", "what"}:
        return None
    return code_given(frame.reading, frame.answer) or relative_phrase(frame.reading, asked)


def _acts_on(word: Token) -> bool:
    """Whether a word may be a verb whose object follows it ("need them", "disable them"): a lower-case word that is no
    preposition, auxiliary, article, conjunction or pronoun ("all of them" is not)."""
    return (word.text.islower() and word.lower.isalpha() and word.lower not in _POINTING_BACK | _PEOPLE
            and word.lower not in PREPOSITIONS | AUXILIARIES | DO_MODALS | DETERMINERS | CONJUNCTIONS | WH_WORDS)


def _plural_objects(frame: str) -> list[str]:
    """The plural things a question asks something of, as it wrote them: its runs of lower-case ordinary words after
    its first word that end in a plural noun ("brace expressions" in "can mawk's builtin regex engine do brace
    expressions like /a{,4}/"); a run holding a name or a tool is the subject, not what is asked of it."""
    def plain(word: Token) -> bool:
        return (word.text.islower() and word.lower.isalpha() and not word.possessive and is_ordinary(word.lower)
                and word.lower not in STOP_WORDS | PREPOSITIONS | AUXILIARIES | DO_MODALS | DETERMINERS | WH_WORDS)

    runs = [list(run) for is_plain, run in itertools.groupby(tokens(frame)[1:], key=plain) if is_plain]
    things = [" ".join(word.text for word in run[-3:]) for run in runs]
    return [thing for thing in things if _plural(thing) and " " in thing]


def _asked_who(frame: Earlier) -> bool:
    """Whether the earlier question asked who: its answer names the people a "they" then means."""
    words = tokens(frame.reading)
    return bool(words) and words[0].lower in {"who", "whom"}


def _what_did(frame: Earlier) -> str | None:
    """What a subject question asked about: "What launches in Q2 2027?" then "Who gets it?" asks who gets what its
    answer's entry gave ("Q2 2027: support copilot general availability"), or else what launches in Q2 2027."""
    words = tokens(frame.reading)
    if len(words) < 3 or words[0].lower != "what" or asked_noun(frame.reading) is not None:
        return None
    found = mentions(frame.reading)
    if not _content_word(words[1].lower) or (found and found[0].first == 1):
        return None  # "What is …", "What Falcon X2 …": not a verb
    first = next(iter(split_sentences(strip_citations(frame.answer or ""))), "")
    label, colon, value = first.partition(":")
    value = value.strip().rstrip(".")
    asked = {m.text.lower() for m in found}
    if colon and value and len(value.split()) <= 6 and {m.text.lower() for m in mentions(label)} <= asked:
        return f"the {value}"
    return f"what {unasked(frame.reading[words[1].start :])}"


def _repeats(question: str, thing: str) -> bool:
    """Whether the thing's head noun is already in the question: "pre-orders for it" is not "pre-orders for the
    Falcon X2 pre-order"."""
    head = tokens(thing)[-1].lower if tokens(thing) else ""
    return any(same_noun(w.lower, head) for w in tokens(question)) if head else False


_ORDINALS = "first second third fourth fifth sixth last final"
_ORDINAL_PAIR = re.compile(rf"\b({_ORDINALS.replace(' ', '|')})\s+(?:and|or)\s+({_ORDINALS.replace(' ', '|')})\s+(\w+)",
                           re.IGNORECASE)


def _ordinal_pair(question: str) -> list[str]:
    """"the first and third risks" -> ["the first risk", "the third risk"]."""
    match = _ORDINAL_PAIR.search(question)
    if not match:
        return []
    noun = match[3][:-1] if match[3].endswith("s") and not match[3].endswith("ss") else match[3]
    return [f"the {match[1].lower()} {noun}", f"the {match[2].lower()} {noun}"]


_MODIFIER_PAIR = re.compile(r"\b([a-z][\w-]*)\s+(?:and|or)\s+([a-z][\w-]*)\s+([a-z][\w-]*[^s\W]s)\b")


def _modifier_pair(question: str) -> list[str]:
    """"Cargo's dev and release profiles" -> ["the dev profile", "the release profile"]: two kinds of one plural
    thing."""
    for match in _MODIFIER_PAIR.finditer(question):
        first, second, noun = match[1], match[2], match[3]
        if {first, second, noun} & (AUXILIARIES | PREPOSITIONS | DETERMINERS | WH_WORDS | CONJUNCTIONS):
            continue
        return [f"the {first} {noun[:-1]}", f"the {second} {noun[:-1]}"]
    return []


def _version_pair(question: str) -> list[str]:
    """"Ubuntu 20.04 and 20.10" -> ["Ubuntu 20.04", "Ubuntu 20.10"]: a named version joined to a bare one."""
    words = tokens(question)
    found = mentions(question)
    for name, other in itertools.pairwise(found):
        parts = name.text.split()
        between = [w.lower for w in words[name.last + 1 : other.first]]
        if name.kind == "name" and other.kind == "version" and len(parts) >= 2 and VERSION_WORD.match(parts[-1]) \
                and between in (["and"], ["or"]):
            return [name.text, " ".join([*parts[:-1], other.text])]
    return []


def _replace(question: str, words: list[Token], index: int, thing: str) -> tuple[int, int, str]:
    word = words[index]
    start, end = word.start, word.start + len(question[word.start : word.end].rstrip("?!.,;:"))
    lower = word.lower
    if lower == "it" and word.possessive:  # "it's faulty"
        return start, end, f"{thing} is"
    if lower in {"its", "their"}:
        return start, end, f"{thing}'s" if not thing.endswith("s") else f"{thing}'"
    if lower in _DEMONSTRATIVES and index + 1 < len(words) and not _subject_pronoun(words, index):
        return start, words[index + 1].start + len(words[index + 1].text), thing
    if index == 0:
        thing = thing[:1].upper() + thing[1:]
    return start, end, thing


def _topic(
    frames: list[Earlier], possessor: bool, tools: AbstractSet[str] = frozenset(), question: str = "",
    releases: bool = True,
) -> str | None:
    """What the latest earlier question that names anything was about (see `topic`), or what its own pronoun was
    read as ("Is there a fee if I've opened the device?" then "What if it's faulty?"). A subject that names nothing
    ("an error halfway", "the sql") gives way to the one workspace tool (`tools`) the question named and `question`
    does not. Without `releases`, a thing that is a release is passed over for the one before it."""
    for frame in frames:
        if frame.about and (releases or not _a_release(frame.about)):
            return frame.about
        found = _named_first(frame.reading) or topic(frame.reading, possessor)
        if not releases and found and _a_release(found):
            continue
        if found and tokens(found)[0].lower in _POINTING:
            continue  # "when did that come out", left unread: its "that come" is no thing, the question before has it
        tool = _subject_tool(frame.reading, tools, question)
        if tool and found and tool_key(tool) not in tool_key(found) and not _names_a_thing(found):
            return tool
        if found and not _person_name(found):  # "does it need perl" after "… to Hrvoje Niksic": not him
            return _without_verb(frame.reading, found, tools)
    return None


# verbs whose object is a thing one applies (an option, a setting), never a release: "can i use it on its own?" after
# "when did that one come out?" on the release that added --clamp-mtime
_APPLIED = word_set("use set pass enable disable combine turn switch configure specify")

# the words a question that was left unread points back with, which name nothing of their own
_POINTING = word_set("it this that these those they them")


def _a_release(thing: str) -> bool:
    """Whether a thing is a release: a version by number ("strace 5.12") or a phrase naming one ("the httpcore2 release
    that …")."""
    return any(m.kind == "version" for m in mentions(thing)) or any(w.lower in VERSION_NOUNS for w in tokens(thing))


def _subject_tool(frame: str, tools: AbstractSet[str], question: str, anywhere: bool = False) -> str | None:
    """The one workspace tool `frame` names, as the frame wrote it, when `question` does not name it and the frame
    names it as what it asks about ("if pg_restore hits an error halfway does it stop?", "how do i get libcbor on
    ubuntu"), not after a preposition ("the code of conduct for node-gyp": that code is what a later "it" means), an
    article ("the roadmap": a document's word, not a tool's) or a wh-word ("which git hook runs …": the hook). With
    `anywhere`, wherever the frame names it (the tool "and to load a file into a table?" is done with, after "how do i
    get help on one specific bq command")."""
    words = tokens(frame)
    found = {tool_key(word.text) for word in words if tool_key(word.text) in tools}
    if len(found) > 1:
        # a tool named by an English word is read as the word beside one that is no word: "a config file" beside
        # cfn-lint, where the workspace holds file(1)'s page (kitdocs tune thread cv-450#2)
        found = {key for key in found if not is_ordinary(key)} or found
    if len(found) != 1 or found & {tool_key(word.text) for word in tokens(question)}:
        return None
    return next((word.text for at, word in enumerate(words) if tool_key(word.text) in found and (
        anywhere or at == 0 or words[at - 1].lower not in PREPOSITIONS | DETERMINERS | WH_WORDS)), None)


def _names_a_thing(text: str) -> bool:
    """Whether a phrase holds a name, an identifier, a flag or a version of its own ("parse_form", "-j"), or a word
    no dictionary has ("packrat")."""
    return any(m.kind in {"name", "identifier", "flag", "version"} for m in mentions(text)) or any(
        _names_tool(word.lower) for word in tokens(text))


def _without_verb(question: str, subject: str, tools: AbstractSet[str] = frozenset()) -> str:
    """A lower-case tool's name without the verb read into its phrase: "which ntp servers does systemd-timesyncd fall
    back to" is about systemd-timesyncd, not "systemd-timesyncd fall"; so is a workspace tool's ("how does aiosqlite
    avoid blocking"), with its version ("when did pytest-benchmark 4.0.0 come out" is about pytest-benchmark 4.0.0)."""
    named, _, verb = subject.rpartition(" ")
    tool, *versions = named.split(" ") if named else [""]
    if not (_TOOL.fullmatch(tool) or tool_key(tool) in tools) or not verb.isalpha() or not verb.islower():
        return subject
    if not all(VERSION_WORD.match(word) for word in versions):
        return subject
    if tool_key(subject.replace(" ", "-")) in tools:  # "npm unpublish": a command a document is named after
        return subject
    before = question.lower().partition(subject.lower())[0].split()
    return named if before and before[-1] in DO_MODALS else subject


def _named_first(question: str) -> str | None:
    """The name a question typed as a noun phrase starts with ("Debian 10 codename?" -> "Debian 10"), or None."""
    words = tokens(question)
    found = mentions(question)
    if not words or words[0].lower in WH_WORDS | AUXILIARIES or not found or found[0].first > 1:
        return None
    first = found[0]
    if first.first == 1 and first.kind == "version" and words[0].text[:1].isupper():  # a sentence's first word
        return phrase(words, 0, first.last, question) if first.last + 1 < len(words) else None
    return first.text if first.first == 0 and first.kind == "name" and first.last + 1 < len(words) else None


def _demonstrative(
    question: str, words: list[Token], index: int, frames: list[Earlier]
) -> tuple[int, int, str] | None:
    """"that quarter" -> the earlier period; "that release" -> the earlier version, or what the earlier answer
    named; "that one" / "that budget" -> what the earlier "which budget ...?" was answered with."""
    noun = words[index + 1]
    start, end = words[index].start, noun.start + len(noun.text)
    for frame in frames:
        found = mentions(frame.reading)
        if noun.lower in {"name", "codename"} and (given := _named_in_answer(frame)):
            owner = topic(frame.reading, possessor=True)  # "What was Valgrind named ...?" "Heimdall ..."
            owned = f"{owner}'s" if owner and owner.lower() != given.lower() else "the"
            return start, end, f"{owned} {noun.lower} {given}"
        asked = asked_noun(frame.reading)
        if asked and (noun.lower == "one" or same_noun(noun.lower, asked)
                      or {noun.lower, asked} <= VERSION_NOUNS):  # "that release" after "which libffi version …"
            # a release by its number with its owner ("crcmod 1.6"), before the words its answer wrapped it in ("1.6
            # Enhancement Release")
            code, phrased = code_given(frame.reading, frame.answer), answered(frame.reading, frame.answer)
            if named := (code or phrased) if asked in VERSION_NOUNS else (phrased or code):
                return start, end, named
            if relative := relative_phrase(frame.reading, asked):
                return start, end, relative
        if noun.lower in _PERIOD_NOUNS:
            periods = [m for m in found if m.kind == "period"]
            if periods:  # "went into Sales that quarter" -> "… in Q3 2026"
                bare = index == 0 or words[index - 1].lower not in PREPOSITIONS
                return start, end, f"in {periods[-1].text}" if bare else periods[-1].text
        versioned = [m for m in found if m.kind in {"name", "version"} and any(c.isdigit() for c in m.text)]
        if noun.lower in VERSION_NOUNS:
            if versioned:
                return start, end, versioned[-1].text
            continue  # "in that release" is the version an earlier turn named, not the latest turn's option
        if noun.lower == "one":
            if len(versioned) == 1 and _ASKS_RELEASE.search(frame.reading):
                # "what changed for xargs -t in that one?" after "When was GNU findutils 4.8.0 released?": the
                # release, with the word the frame wrote before its number ("findutils 4.8.0")
                named = re.search(rf"(?:\b([A-Za-z][\w.+-]*)\s+)?{re.escape(versioned[0].text)}", frame.reading)
                owner = named.group(1) if named and named.group(1) and named.group(1).lower() not in STOP_WORDS else ""
                return start, end, f"{owner} {versioned[0].text}".strip()
            continue
        names = [m.text for m in found if m.kind != "version"]
        if names:
            return start, end, f"{words[index].text} {noun.text} ({', '.join(dict.fromkeys(names))})"
    return None


# a question about a release as such: when it came out, what it holds
_ASKS_RELEASE = re.compile(r"\b(?:released?|releases|came\s+out|come\s+out|out|shipped|ship)\b", re.IGNORECASE)


def _named_in_answer(frame: Earlier) -> str | None:
    """The first name the earlier answer gives that its question did not; not a heading's word in capitals
    ("HISTORY", "NOTE"), which names nothing."""
    asked = {m.text.lower() for m in mentions(frame.reading)}
    text = strip_citations(frame.answer or "")
    for m in mentions(text):
        shouted = m.text.isupper() and all(is_ordinary(part.lower()) for part in m.text.split())
        if m.kind == "name" and not shouted and m.text.lower() not in asked and not any(
                m.text.lower() in a for a in asked):
            return m.text
    return None


def _person_in(frame: Earlier) -> str | None:
    """The one person the earlier turn named, in its question or its answer: a name of two or more capitalised
    words ("Hrvoje Niksic"), none of them a word a sentence could start with."""
    text = f"{frame.reading}. {strip_citations(frame.answer or '')}"
    people = {m.text for m in mentions(text) if m.kind == "name" and _person_name(m.text)}
    return people.pop() if len(people) == 1 else None


def _person_name(name: str) -> bool:
    parts = name.split()
    return 2 <= len(parts) <= 3 and all(p.isalpha() and p[:1].isupper() and p[1:].islower() for p in parts) \
        and not any(is_ordinary(p.lower()) for p in parts)


def _place(frame: Earlier) -> str | None:
    """Where "there" points: what a "which N" answered ("at University of Leeds"), the earlier question's last
    place ("on arm64"), or its name ("in Sales")."""
    if named := answered(frame.reading, frame.answer):
        return f"at {named}"
    words = tokens(frame.reading)
    if words and words[0].lower == "where" and (given := _named_in_answer(frame)):
        return f"in {given}"  # "Where are repairs carried out?" "… in Rotterdam."
    found = mentions(frame.reading)
    for m in reversed(found):
        if m.first > 0 and words[m.first - 1].lower in {"in", "at", "on"} and m.kind == "name":
            return f"{words[m.first - 1].lower} {m.text}"
    names = [m for m in found if m.kind == "name"]
    return f"in {names[0].text}" if names else None


def _last_two(frames: list[Earlier]) -> list[str]:
    """The two latest distinct names of the thread ("Which of the two ..."), oldest first."""
    seen: list[str] = []
    for frame in frames:
        for m in reversed(mentions(frame.reading)):
            if m.kind == "name" and m.text not in seen and (not seen or shape(m.text) == shape(seen[0])):
                seen.append(m.text)
                break
        if len(seen) >= 2:
            break
    return [f"the {name}" for name in reversed(seen[:2])] if len(seen) >= 2 else []


# "xz and zstd", "ConnectTimeoutError and ResponseStatusCodeError": two things a singular "it" after them could mean
_JOINED = re.compile(r"(?<![\w.-])(?P<a>[\w][\w.-]*\w)\s+(?:and|or|vs\.?|versus)\s+(?P<b>[\w][\w.-]*\w)(?![\w-])",
                     re.IGNORECASE)


def _tool_pair(frame: str) -> list[str]:
    """Two tools or codes the frame joins with "and" or "or", each written as no English word is: a lower-case
    name no dictionary holds ("zstd"), a hyphenated or underscored one ("node-gyp"), or a code with capitals inside
    ("ConnectTimeoutError")."""
    for match in _JOINED.finditer(frame):
        if all(_names_tool(match[side]) for side in ("a", "b")):
            return [match["a"], match["b"]]
    return []


def _names_tool(word: str) -> bool:
    if _TOOL.fullmatch(word) or (any(c.isupper() for c in word[1:]) and any(c.islower() for c in word)):
        return True
    return word.isalpha() and word.islower() and len(word) >= 2 and not is_ordinary(word)


_THAN = re.compile(r"(?<![\w-])(?P<a>[\w][\w.+-]*)\s+than\s+(?P<b>[\w][\w.+-]*)", re.IGNORECASE)


def _than_pair(frame: str) -> list[str]:
    """The two things a comparison puts either side of "than" ("is man-db than man"), when neither is a word of the
    question's own ("faster than before")."""
    match = _THAN.search(frame)
    if match is None or not all(_content_word(match[side].lower()) for side in ("a", "b")):
        return []
    return [match["a"], match["b"]]


def _chain(frames: list[Earlier]) -> list[str]:
    """For a plural pronoun: the things of one shape the last two questions asked about in turn ("fetch-retries",
    then "fetch-retry-factor"), or none."""
    if len(frames) < 2:
        return []
    latest = [m for m in mentions(frames[0].reading) if m.kind != "period"]
    before = [m for m in mentions(frames[1].reading) if m.kind != "period"]
    for m in latest:
        for other in before:
            if other.kind == m.kind and other.text != m.text and likeness(m.text, other.text) >= 3:
                return [other.text, m.text]
    return []


def _swapped_pair(frames: list[Earlier]) -> list[str]:
    """The two things the last two questions asked the same of, when they differ in one run of words ("How fast does
    certifi respond …?", then "How fast does google-auth respond …?"): oldest first, or none."""
    if len(frames) < 2:
        return []
    new, old = (tokens(frame.reading.rstrip(" ?.!")) for frame in frames[:2])
    head = 0
    while head < min(len(new), len(old)) and new[head].lower == old[head].lower:
        head += 1
    tail = 0
    while tail < min(len(new), len(old)) - head and new[-1 - tail].lower == old[-1 - tail].lower:
        tail += 1
    if head + tail < 2 or not 1 <= len(new) - head - tail <= 4 or not 1 <= len(old) - head - tail <= 4:
        return []
    texts = [phrase(words, head, len(words) - tail - 1, frame.reading)
             for words, frame in ((old, frames[1]), (new, frames[0]))]
    return texts if all(texts) and texts[0].lower() != texts[1].lower() else []


# --- a comparison of the thread's two things --------------------------------------------------------------

_COMPARING = word_set("more less better worse fewer")
_NOT_COMPARATIVE = word_set(
    "other another after never under over either neither whether number customer order power user server together "
    "rather ever however whatever whenever later")  # "later" asks when, not which


def _compared(question: str, frames: list[Earlier]) -> Reading | None:
    """"which is cheaper", "Which one lasts longer?": a which-question that compares and names nothing compares the
    two things the thread named last ("Which is cheaper, the Falcon X2 or the Heron S1?")."""
    words = tokens(question)
    if len(words) < 2 or words[0].lower not in {"which", "who"} or mentions(question):
        return None
    if any(_names_tool(w.lower) for w in words[1:]):
        return None  # "Which pyspellchecker method returns …" names its own tool (and "-er" is no comparative there)
    if not any(w.lower in _COMPARING or (_degree(w.lower) == "er" and w.lower not in _NOT_COMPARATIVE)
               for w in words[1:]):
        return None
    things = _last_two(frames) or _swapped_pair(frames)
    if len(things) < 2:
        return None
    return _dependent(f"{unasked(question)}, {things[0]} or {things[1]}?", "compared")


# --- a missing entity, version or period ---------------------------------------------------------------


# "which release …", "what version …": a release asked for with no owner of its own
_BARE_RELEASE = re.compile(rf"^\s*(?:which|what)\s+({'|'.join(sorted(VERSION_NOUNS))})s?\b", re.IGNORECASE)


def _versioned_owner(frames: list[Earlier]) -> str | None:
    """The name before the version of the latest versioned name the thread wrote: "Git" of "Git 2.39.2"."""
    for mention in (m for earlier in frames for m in mentions(earlier.reading)):
        parts = mention.text.split()
        if mention.kind == "name" and len(parts) >= 2 and any(c.isdigit() for c in parts[-1]):
            return " ".join(parts[:-1])
    return None


def _release_owner(frame: str) -> str | None:
    """The word before the release noun of a "which wadllib release …" question: the tool whose releases it asks of."""
    words = tokens(frame)
    at = asked_noun_at(words, VERSION_NOUNS)
    if at is None or at < 2:
        return None
    owner = words[at - 1].lower
    if not _content_word(owner) or owner in _PICKED or _degree(owner):  # "which other editions", "the latest release"
        return None
    return words[at - 1].text


def _carried(
    question: str, frames: list[Earlier], tools: AbstractSet[str] = frozenset(), antecedent: str | None = None
) -> Reading | None:
    """A question that names nothing, about something the previous question named ("What is the next release
    called?" after a question on Debian 12 Bookworm): the previous question's names and period go with it. A question
    that names a tool of the workspace (`tools`: "In which version was the attrs package import name added?") names
    its own subject. When the previous question asked of two things at once ("which socket options do dgram's setTTL
    and setMulticastTTL set"), which one is meant is the user's to say (`antecedent`, the reply)."""
    frame = frames[0].reading
    own = mentions(question)
    versions = [m for m in own if m.kind == "version"]
    if versions and len(own) == 1:  # "what did 2.39.1 merge?" after "... Git 2.39.2 ...": Git 2.39.1
        words = tokens(question)
        before = words[versions[0].first - 1] if versions[0].first else None
        named = _versioned_owner(frames)
        if before is not None and before.text.isalpha() and _content_word(before.lower) and not verb_like(before):
            # "which release dropped python 3.4": the version has its owner already (not "python Wadllib 3.4"); the
            # release asked for is the thread's tool's ("which wadllib release added …", "Wadllib 1.3.6")
            asked = _BARE_RELEASE.match(question)
            owner = next((found for earlier in frames if (found := _release_owner(earlier.reading))), named)
            if asked is None or owner is None:
                return None
            return _dependent(f"{question[: asked.start(1)]}{owner} {question[asked.start(1) :]}", "carried")
        if named is None:
            return None
        at = words[versions[0].first].start
        return _dependent(f"{question[:at]}{named} {question[at:]}", "carried")
    if own and all(m.kind == "flag" for m in own):  # "will -b restart anything on its own": needrestart's -b
        return _flag_owner(question, own[0], frames)
    if own or any(tool_key(word.text) in tools for word in tokens(question)):
        return None
    if _release_owner(question):
        return None  # "Which negotiator release first lazy-loaded …" says whose release it asks for
    found = [m for m in mentions(frame) if m.kind in {"name", "version", "identifier", "flag"}]
    words = tokens(question)
    frame_words = {w.lower for w in tokens(frame)}
    if found and any(w.lower in frame_words and _names_tool(w.lower) for w in words):
        # "whats the older syntax for that with pyenv install" names its tool: not the frame's -k; "how do i stop
        # xsltproc from fetching dtds" names it too: not the frame's return code 7
        return None
    if not found and (tool := _tool(frame)) and not _TOOL.search(question):
        # "what else do i need on a mac" after "how do i install node-gyp": more of what that tool needs; "how do i
        # do one" after "does util-linux require an out of tree build …": one for that tool
        return _dependent(f"{unasked(question)} for {tool}?", "carried")
    if not found and not any(m.kind == "period" for m in mentions(frame)):
        return None
    if (pair := _joined_pair(frame, found)) and (pointed := _definite_thing(question)):
        # "what range can the ttl be" after "… setTTL and setMulticastTTL …": either one's range, unless a word of
        # the question is one's alone ("the whole limit": autovacuum_vacuum_cost_limit, not …_cost_delay)
        thing = antecedent or _told_apart(question, pair)
        if thing is None:
            return Reading(question, True, "unclear", pair, pointed)
        return _dependent(f"{question.rstrip().rstrip('?.!').rstrip()} for {thing}?", "carried")
    relational = [i for i, w in enumerate(words) if w.lower in _RELATIONAL]
    shared = (question_terms(question) & question_terms(frame)) - question_terms(" ".join(m.text for m in found))
    if not relational and (not shared or shared <= _indefinite_terms(words, question)):
        return None  # "How long does a warranty repair take?": any warranty repair, not the earlier thing's
    thing = found[0].text if found else None
    text = question.rstrip().rstrip("?.!").rstrip()
    if thing and relational:
        word = words[relational[0]]
        end = word.start + len(word.text)
        text = f"{text[:end]} of {thing}{text[end:]}"
    elif thing:
        text = f"{text} for {thing}"
    return _dependent(f"{text}?" if thing else _with_period(f"{text}?", frames[0]), "carried")


def _joined_pair(frame: str, found: Sequence[Mention]) -> tuple[str, str] | None:
    """Two things of one shape the frame asks of at once, joined by "and" or "or" ("setTTL and setMulticastTTL",
    "exit codes 101 and 105", "Gt and Le"), or None."""
    words = tokens(frame)
    for first, second in itertools.pairwise(found):
        between = [word.lower for word in words[first.last + 1 : second.first]]
        if first.kind == second.kind and between in (["and"], ["or"]):
            return first.text, second.text
    return None


_NAME_PART = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")


def _told_apart(question: str, pair: tuple[str, str]) -> str | None:
    """The one of `pair` that a word of the question names and the other does not ("limit" of
    autovacuum_vacuum_cost_limit against …_cost_delay), or None."""
    asked = {word.lower for word in tokens(question)}
    first, second = ({part.lower() for part in _NAME_PART.findall(name)} for name in pair)
    picks = [name for name, own, other in ((pair[0], first, second), (pair[1], second, first)) if asked & (own - other)]
    return picks[0] if len(picks) == 1 else None


_DEFINITE = re.compile(r"\bthe\s+[\w.+-]+", re.IGNORECASE)


def _definite_thing(question: str) -> str | None:
    """The first thing a question names with "the" ("the ttl", "the bound"): what points back to one of two things,
    where "what regex are system user names checked against" points at neither."""
    found = _DEFINITE.search(question)
    return found.group(0) if found else None


def _tool_carried(question: str, frames: list[Earlier], tools: AbstractSet[str]) -> Reading | None:
    """A question in full that names nothing, no tool of the workspace's either (`tools`), after a question that
    names one: that tool's ("which env var turns tracing on then?" after "In LangSmith, which project …" -> "… for
    LangSmith?"; "does the async client need anything extra?" after "Which slack_sdk method …")."""
    words = tokens(question)
    if not tools or not in_full(question) or mentions(question) or _TOOL.search(question) \
            or any(tool_key(word.text) in tools for word in words):
        return None
    named = list(dict.fromkeys(word.text for word in tokens(frames[0].reading) if tool_key(word.text) in tools))
    if len(named) != 1:
        return None
    return _dependent(f"{unasked(question)} for {named[0]}?", "carried")


# a tool written before one of its flags: "needrestart -b", "xz -6", "pip install --user"
_FLAGGED_TOOL = re.compile(r"(?<![\w-])([a-z][\w.+-]*)\s+(?=-{1,2}[A-Za-z0-9])")


def _flag_owner(question: str, flag: Mention, frames: list[Earlier]) -> Reading | None:
    """A question whose only names are flags, and no tool's, takes the tool the thread wrote before a flag
    ("needrestart -b says …" then "will -b restart anything on its own" -> "will needrestart -b restart …")."""
    words = tokens(question)
    if any(_names_tool(word.lower) for word in words if not word.text.startswith("-")):
        return None
    for frame in frames:
        tools = [m.group(1) for m in _FLAGGED_TOOL.finditer(frame.reading) if _names_tool(m.group(1).lower())]
        if len(set(tools)) == 1:
            at = words[flag.first].start
            return _dependent(f"{question[:at]}{tools[0]} {question[at:]}", "carried")
        if tools:
            return None
    return None


_WHICH_ONE = re.compile(r"^\s*(?P<wh>which|what)\s+(?P<one>ones?)\b", re.IGNORECASE)


def _which_one(question: str, frames: list[Earlier]) -> str | None:
    """"which one added 3.12" after "which charset-normalizer release dropped python 3.6" asks "which
    charset-normalizer release added 3.12": one of what the latest "which N" question asked for, named as it named it
    ("which of the ports" when it asked for ports)."""
    match = _WHICH_ONE.match(question)
    if match is None:
        return None
    for frame in frames:
        asked = asked_noun(frame.reading)
        if not asked:
            continue
        named = re.match(rf"^\W*(?:which|what)\s+((?:[\w.+-]+\s+){{0,2}}?{re.escape(asked)})\b", frame.reading,
                         re.IGNORECASE)
        if named is None:
            return None
        kind = named.group(1)
        if match["one"].lower() == "ones" and not _plural(kind):
            kind = f"{kind}s"
        elif match["one"].lower() == "one" and _plural(kind):
            kind = f"of the {kind}"
        return question[: match.start("one")] + kind + question[match.end("one") :]
    return None


# --- helpers ---------------------------------------------------------------------------------------------


def _dependent(text: str, rule: str, about: str | None = None) -> Reading:
    text = " ".join(text.split())
    return Reading(text[:1].upper() + text[1:], True, rule, about=about)


def in_full(text: str) -> bool:
    """Whether `text` reads as a question put in full: three words or more, ending with "?" or opening (after a leading
    "and", "so", "ok" …) with a wh-word or an auxiliary ("How much is the add-on?", "does the Heron S1 have PoE", "and
    where does fai-setup write its log"), not a fragment ("the Q3 report")."""
    words = tokens(_LEAD.sub("", text, count=1))  # "and how do i check which version got installed"
    first = words[0].lower if words else ""
    # "whats the default connect timeout …": chat's "whats", "hows" are "what's", "how's"
    opens = first in WH_WORDS | AUXILIARIES or (first.endswith("s") and first[:-1] in WH_WORDS)
    return len(words) >= 3 and (text.rstrip().endswith("?") or opens)


# "and 8?", "what about Q4?", "same for npm exec", "vs zlib -1?": the thread's question asked of another thing
_ANOTHER_THING = re.compile(
    r"^\s*(?:and\b|(?:what|how)\s+about\b|(?:the\s+)?same\s+(?:question\s+|thing\s+)?(?:for|with|about|on)\b"
    r"|vs\.?\s|versus\b)", re.IGNORECASE)
# the words that set up a question asked after them: "for the automated way what do i need installed"
_SETTING_UP = PREPOSITIONS | CONJUNCTIONS | word_set("when once")
_SUBJECTS = word_set("i we you it they he she that this those these there")
_RELATIVE = word_set("which who whom whose")


def asks_anew(text: str) -> bool:
    """Whether `text`, typed in a thread while the bot waits for a reply to its question, asks a question of its own
    rather than answering it: a question in full (`in_full`), the thread's question asked of another thing ("and 8?",
    "and the interval?", "what about Q4?"), or a question in full after words that set it up ("and the docs, which
    file gets the napiVersion metadata", "for the automated way what do i need installed", "while a package is
    awaiting triggers does it still count"). A fragment ("the Heron S1", "maxinterval?", "the restore one") answers."""
    if in_full(text) or _ANOTHER_THING.match(text):
        return True
    head, *after_commas = text.split(",")
    if any(_opens_question(tokens(part)) for part in after_commas):
        return True
    words = tokens(head)
    return bool(words) and words[0].lower in _SETTING_UP and any(
        _opens_question(words[at:]) for at in range(2, len(words) - 1))


def _opens_question(words: list[Token]) -> bool:
    """Whether `words` open a question, three words or more: a wh-word then an auxiliary, a subject or a measure ("what
    do i", "how long"), or an auxiliary then a subject ("does it"); not a relative clause ("which has the figures")."""
    if len(words) < 3:
        return False
    first, second = words[0].lower, words[1].lower
    if first in _RELATIVE:  # "which do i", not "which has"
        return second in DO_MODALS | _SUBJECTS
    if first in WH_WORDS:
        return second in AUXILIARIES | _SUBJECTS | MEASURE_WORDS
    return first in AUXILIARIES and second in _SUBJECTS


def _unnamed(text: str, found: list[Mention]) -> list[Token]:
    """The words of `text` outside its mentions, articles and prepositions (what a swap of the mentions leaves)."""
    named = {i for m in found for i in range(m.first, m.last + 1)}
    return [w for i, w in enumerate(tokens(text)) if i not in named and w.lower not in DETERMINERS | PREPOSITIONS]


def _indefinite_terms(words: list[Token], text: str) -> frozenset[int]:
    """The terms of the noun phrases `text` says with "a" or "an": what it asks about any one of, not a known one."""
    spans = [noun_phrase(words, i + 1) for i, w in enumerate(words) if w.lower in {"a", "an"}]
    said = [phrase(words, span[0], span[1], text) for span in spans if span]
    return question_terms(" ".join(said)) if said else frozenset()


def _content(words: list[Token]) -> list[Token]:
    return [w for w in words if w.lower not in DETERMINERS | PREPOSITIONS]



