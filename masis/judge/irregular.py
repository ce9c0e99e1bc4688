"""The forms of English's irregular verbs, which a stemmer cannot join: "began" and "begun", "wrote" and "written".

"Who began the tput command?" is answered by "The tput command was begun by Bill Joy in 1980", not by "This
implementation of tput began from a different source … Ross Ridge's mytinfo package", which shares the question's
very word (kitdocs threads, cv-456#1). A word of the question is matched in full by another form of its verb
(`masis.judge.matching`).
"""

from __future__ import annotations

from functools import lru_cache

# each line: a verb's forms (base, past, past participle and their variants); the framing verbs a question's terms
# leave out ("take", "make", "get", "go", "give", "use", "come", "put") are not here
_FORMS = """
arise arose arisen; awake awoke awoken; bear bore borne born; beat beaten; become became; begin began begun;
bend bent; bind bound; bite bit bitten; blow blew blown; break broke broken; breed bred; bring brought;
build built; buy bought; catch caught; choose chose chosen; deal dealt; dig dug; draw drew drawn;
drink drank drunk; drive drove driven; eat ate eaten; fall fell fallen; feed fed; feel felt; fight fought;
find found; flee fled; fly flew flown; forbid forbade forbidden; forget forgot forgotten; forgive forgave forgiven;
freeze froze frozen; grind ground; grow grew grown; hang hung; hear heard; hide hid hidden; hold held; keep kept;
know knew known; lay laid; lead led; leave left; lend lent; lie lay lain; lose lost; mean meant; meet met; pay paid;
ride rode ridden; ring rang rung; rise rose risen; run ran; say said; see saw seen; seek sought; sell sold;
send sent; shake shook shaken; shine shone; shoot shot; show showed shown; shrink shrank shrunk; sing sang sung;
sink sank sunk; sit sat; sleep slept; slide slid; speak spoke spoken; spend spent; spin spun; stand stood;
steal stole stolen; stick stuck; strike struck stricken; swear swore sworn; sweep swept; swim swam swum;
swing swung; teach taught; tear tore torn; tell told; think thought; throw threw thrown; understand understood;
wake woke woken; wear wore worn; weave wove woven; win won; wind wound; withdraw withdrew withdrawn;
write wrote written; undo undid undone; redo redid redone; rewrite rewrote rewritten; rebuild rebuilt;
overwrite overwrote overwritten; override overrode overridden; mislead misled; withhold withheld; uphold upheld
"""

_VERBS: tuple[tuple[str, ...], ...] = tuple(
    tuple(group.split()) for group in _FORMS.replace("\n", " ").split(";") if group.strip()
)


@lru_cache(maxsize=4096)
def other_forms(word: str) -> tuple[str, ...]:
    """The other forms of the irregular verb `word` is a form of ("began": "begin", "begun"); () for any other word.
    A form that is also another word ("found", "bound", "left", "stick") names no other and is named by none: it may
    be either verb, or no verb ("bind" is not matched by the "bound" of "bound to a port")."""
    forms = [group for group in _VERBS if word in group]
    if len(forms) != 1 or word in _AMBIGUOUS:
        return ()
    return tuple(form for form in forms[0] if form != word and form not in _AMBIGUOUS)


# forms that are also common nouns or adjectives, or another verb's form: "found" (to found), "left" (the side),
# "saw" (the tool), "bound" (a limit), "bit" (a binary digit), "led" (a LED), "lead" (the metal), "mean" (an average)
_AMBIGUOUS = frozenset([
    "found", "bound", "ground", "wound", "wind", "lay", "lie", "lain", "fell", "rose", "saw", "left", "lead", "led",
    "born", "bear", "bore", "sat", "stick", "mean", "meant", "sink", "ring", "shot", "run", "ran", "fly", "dig", "beat",
    "bit", "tear", "felt", "thought", "won",
])
