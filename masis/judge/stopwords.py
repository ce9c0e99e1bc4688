"""The English stop words of MASIS's BM25, on top of Qdrant's own English list.

Qdrant's list (~175 words: pronouns, articles, auxiliaries) leaves in the function words that carry no
topic ("according", "therefore", "using", "whereby", "please", "would like"): in a chunk they only stretch
its length, and in a question they match any chunk that happens to say them. Terrier, the IR reference
MASIS is measured against on Vaswani, drops a 733-word list; MASIS drops the SMART list instead.

Source: the stop list of the SMART retrieval system (G. Salton, Cornell University), file
`english.stop` (571 lines, 570 distinct words), as redistributed in Lewis et al., "RCV1: A New Benchmark
Collection for Text Categorization Research", JMLR 5 (2004), online appendix 11. It ships without a
license and is redistributed freely (MySQL's full-text stop list is the same list); it is a list of
common English words, spelled out here verbatim.

Kept out of it (they stay searchable): numerals and ordinals ("second quarter", "first pick"), single
letters and ordinal suffixes ("Plan B", "grade C"), and the adjectives and nouns that name
something ("New York", "old", "best", "value", "example", "name", "course"). Measured with the rest of
the list: SciFact nDCG@10, Vaswani MAP and SQuAD paragraph hit@5 (docs/evaluation.md).
"""

from __future__ import annotations

_SMART = """
a a's able about above according accordingly across actually after afterwards again against ain't all allow
allows almost alone along already also although always am among amongst an and another any anybody anyhow
anyone anything anyway anyways anywhere apart appear appreciate appropriate are aren't around as aside ask
asking associated at available away awfully b be became because become becomes becoming been before
beforehand behind being believe below beside besides best better between beyond both brief but by c c'mon
c's came can can't cannot cant cause causes certain certainly changes clearly co com come comes concerning
consequently consider considering contain containing contains corresponding could couldn't course currently
d definitely described despite did didn't different do does doesn't doing don't done down downwards during e
each edu eg eight either else elsewhere enough entirely especially et etc even ever every everybody everyone
everything everywhere ex exactly example except f far few fifth first five followed following follows for
former formerly forth four from further furthermore g get gets getting given gives go goes going gone got
gotten greetings h had hadn't happens hardly has hasn't have haven't having he he's hello help hence her here
here's hereafter hereby herein hereupon hers herself hi him himself his hither hopefully how howbeit however i
i'd i'll i'm i've ie if ignored immediate in inasmuch inc indeed indicate indicated indicates inner insofar
instead into inward is isn't it it'd it'll it's its itself j just k keep keeps kept know known knows l last
lately later latter latterly least less lest let let's like liked likely little look looking looks ltd m
mainly many may maybe me mean meanwhile merely might more moreover most mostly much must my myself n name
namely nd near nearly necessary need needs neither never nevertheless new next nine no nobody non none noone
nor normally not nothing novel now nowhere o obviously of off often oh ok okay old on once one ones only onto
or other others otherwise ought our ours ourselves out outside over overall own p particular particularly per
perhaps placed please plus possible presumably probably provides q que quite qv r rather rd re really
reasonably regarding regardless regards relatively respectively right s said same saw say saying says second
secondly see seeing seem seemed seeming seems seen self selves sensible sent serious seriously seven several
shall she should shouldn't since six so some somebody somehow someone something sometime sometimes somewhat
somewhere soon sorry specified specify specifying still sub such sup sure t t's take taken tell tends th than
thank thanks thanx that that's thats the their theirs them themselves then thence there there's thereafter
thereby therefore therein theres thereupon these they they'd they'll they're they've think third this
thorough thoroughly those though three through throughout thru thus to together too took toward towards tried
tries truly try trying twice two u un under unfortunately unless unlikely until unto up upon us use used
useful uses using usually uucp v value various very via viz vs w want wants was wasn't way we we'd we'll we're
we've welcome well went were weren't what what's whatever when whence whenever where where's whereafter
whereas whereby wherein whereupon wherever whether which while whither who who's whoever whole whom whose why
will willing wish with within without won't wonder would wouldn't x y yes yet you you'd you'll you're you've
your yours yourself yourselves z zero
"""
SMART_STOP_WORDS = frozenset(_SMART.split())

# Words of the SMART list that name or count something in a team's documents, or say what happened ("fell
# apart", "even numbers"): they stay searchable. As stop words, "apart" and "even" left too little of a question
# for the relevance gate to refuse it (SQuAD open book: refused 95.3 % with them, 94.7 % without).
_NUMERALS = "one ones two three four five six seven eight nine zero first second secondly third fifth twice"
_LETTERS = "b c d e f g h j k l m n o p q r s t u v w x y z th nd rd"
_NAMING = """new old novel best better little far near inner outside right value way example course name changes
self selves greetings welcome help sensible serious necessary possible available appropriate different immediate
particular certain useful thorough brief sure last apart even"""

STOP_WORDS = SMART_STOP_WORDS - frozenset(f"{_NUMERALS} {_LETTERS} {_NAMING}".split())

# Chat's contractions typed without their apostrophe ("whats the default", "if i dont pass -c"): the list above has
# them with it. They stay in the BM25 index (a document that says "dont" is rare, and the index is not rebuilt for
# them). Chat's question words ("whats") frame a question (`masis.judge.terms.question_terms`); its negations
# ("dont") stay words of what a question asks about, as a guard (`masis.judge.negation` reads them as negations):
# taken out of the terms too, chat's negated questions were answered more, and wrongly as often as rightly (stop 84).
# None names a tool.
CHAT_QUESTION_WORDS = frozenset({"whats", "hows", "wheres", "whos", "whens", "whys", "heres"})
CHAT_NEGATIONS = frozenset({
    "dont", "doesnt", "didnt", "isnt", "arent", "wasnt", "werent", "wont", "shouldnt", "couldnt", "wouldnt", "havent",
    "hasnt", "hadnt",
})
CHAT_CONTRACTIONS = CHAT_QUESTION_WORDS | CHAT_NEGATIONS | {"youre", "theyre", "ive", "aint"}
