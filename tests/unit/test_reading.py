"""The offline reading of a follow-up: real follow-ups from the conversations set, read with the turns before them."""

from __future__ import annotations

import pytest

from masis.judge.mentions import coordinated, mentions
from masis.judge.names import product_names, tool_names
from masis.judge.reading import Earlier, Reading, points_back, read, topic


def turn(question: str, answer: str = "", reading: str | None = None) -> Earlier:
    return Earlier(question, reading or question, answer)


# (earlier questions, follow-up, expected reading, rule)
DEPENDENT = [
    # "it" after a subject question is what its answer's entry gave (conversations tune cv-080), or else the clause
    (["What launches in Q2 2027?"], "who gets it?", "Who gets the support copilot general availability in Q2 2027?",
     "pronoun"),
    (["What ships next?"], "who asked for it?", "Who asked for what ships next?", "pronoun"),
    # a pronoun takes the earlier question's subject
    (["When does the Falcon X2 launch?"], "How much will it cost?", "How much will the Falcon X2 cost?", "pronoun"),
    (["How large is the home-office equipment stipend?"], "Is it paid every year?",
     "Is the home-office equipment stipend paid every year?", "pronoun"),
    (["Who wrote the AI investment strategy memo?"], "When was it sent?",
     "When was the AI investment strategy memo sent?", "pronoun"),
    # "that" alone before a verb is a pronoun, the subject (conversations tune cv-096), not "that pay"
    (["What's Kestrel's total operating budget for FY2026?"], "how many employees does that pay for?",
     "How many employees does Kestrel's total operating budget pay for in FY2026?", "pronoun"),
    # ... and its period, when the follow-up names none (the "And who approved it?")
    (["How much will we invest in AI in FY2026?"], "And who approved it?", "Who approved AI in FY2026?", "pronoun"),
    (["When will the legacy dispatch console be retired?"], "What happens to customers still using it?",
     "What happens to customers still using the legacy dispatch console?", "pronoun"),
    (["How many days do I have to return a device?"], "Is there a fee if I've opened it?",
     "Is there a fee if I've opened the device?", "pronoun"),
    (["How long is the Heron S1's warranty?"], "Does it cover accidental damage?",
     "Does the Heron S1's warranty cover accidental damage?", "pronoun"),
    (["Can I cancel a Falcon X2 pre-order?"], "When do pre-orders for it open?",
     "When do pre-orders for the Falcon X2 open?", "pronoun"),
    # a demonstrative takes the earlier period, place or version
    (["What was the gross margin in Q3 2026?"], "How many customers were there at the end of that quarter?",
     "How many customers were there at the end of Q3 2026?", "pronoun"),
    (["What support tier does Node.js give macOS on arm64?"], "Which macOS version is the minimum there?",
     "Which macOS version is the minimum on arm64?", "pronoun"),
    (["Which option did git symbolic-ref learn in Git 2.39?"],
     "And which option did git patch-id get in that release?", "Which option did git patch-id get in Git 2.39?",
     "pronoun"),
    # ... or what the earlier answer named
    (["Which budget does the AI programme budget sit within?"], "And how big is that one?",
     "How big is the R&D budget?", "pronoun"),
    (["What was Valgrind named before its release?"], "Why was that name dropped?",
     "Why was Valgrind's name Heimdall dropped?", "pronoun"),
    # an ellipsis takes the earlier question's frame with the new thing
    (["When does the Falcon X2 launch?", "How much will the Falcon X2 cost?"], "And the Heron S1?",
     "How much will the Heron S1 cost?", "ellipsis"),
    (["Where is the Heron S1 assembled?"], "What about the Falcon X2?", "Where is the Falcon X2 assembled?",
     "ellipsis"),
    (["How many open roles does Engineering have?"], "What about Sales?", "How many open roles does Sales have?",
     "ellipsis"),
    (["What does Node.js exit code 13 mean?"], "And 12?", "What does Node.js exit code 12 mean?", "ellipsis"),
    (["What is the default value of Massif's --depth option?"], "What about --threshold?",
     "What is the default value of Massif's --threshold option?", "ellipsis"),
    (["What was the gross margin in Q3 2026?"], "And monthly churn?", "What was monthly churn in Q3 2026?",
     "ellipsis"),
    (["What is the marketing budget for FY2026?"], "And travel?", "What is the travel budget for FY2026?",
     "ellipsis"),
    (["What share of the FY2026 operating budget goes to Engineering?"], "And to G&A?",
     "What share of the FY2026 operating budget goes to G&A?", "ellipsis"),
    (["What was revenue in Q3 2026?"], "What about Q4?", "What was revenue in Q4?", "ellipsis"),
    # two things of the fragment, each in the place of the earlier one of its shape
    (["What was the Falcon X2 revenue in Q3?"], "What about the Heron S1 in Q4?",
     "What was the Heron S1 revenue in Q4?", "ellipsis"),
    # a missing entity or version comes from the earlier question
    (["What is the default maxKeys of querystring.parse()?"], "How do I remove the limit?",
     "How do I remove the limit of maxKeys?", "carried"),
    (["Which security issues does Git 2.39.2 address?"], "And what did 2.39.1 merge?",
     "What did Git 2.39.1 merge?", "carried"),
    # written after the set, before these rules: how people type in a thread
    (["How heavy is the Heron S1?"], "and the falcon x2", "How heavy is the Falcon X2?", "ellipsis"),
    (["When does the Falcon X2 launch?", "How heavy is the Heron S1?"], "and the falcon x2?",
     "How heavy is the Falcon X2?", "ellipsis"),
    (["Which IP rating does the Heron S1 have?"], "Same question for the Falcon X2.",
     "Which IP rating does the Falcon X2 have?", "ellipsis"),
    (["When does the Heron S1 launch?"], "In which markets?", "In which markets does the Heron S1 launch?",
     "ellipsis"),
    (["How much does the 256 GB Falcon X2 cost?"], "How about the 128 GB one?",
     "How much does the 128 GB Falcon X2 cost?", "ellipsis"),
    # no figure in the question before: the figure goes before the one thing it named (was "What does the Falcon X2
    # the 256 GB one?")
    (["What does the Falcon X2 cost?"], "How about the 256 GB one?", "What does the 256 GB Falcon X2 cost?",
     "ellipsis"),
    (["What is the lowest operating temperature of the Falcon X2?"], "And the highest?",
     "What is the highest operating temperature of the Falcon X2?", "ellipsis"),
    (["What was the gross margin in Q3 2026?"], "And monthly churn in the same quarter?",
     "What was monthly churn in Q3 2026?", "ellipsis"),
    (["What was the headcount at the end of Q3 2026?"], "Where did most new joiners go that quarter?",
     "Where did most new joiners go in Q3 2026?", "pronoun"),
    (["Where are warranty repairs carried out?"], "How long does a repair take there?",
     "How long does a repair take in Rotterdam?", "pronoun"),
    # a bare version swaps the version inside the earlier question's name
    (["What is the codename of Debian 11?"], "And 12?", "What is the codename of Debian 12?", "ellipsis"),
    (["Which option did git patch-id get in Git 2.39?"], "What about 2.38?",
     "Which option did git patch-id get in Git 2.38?", "ellipsis"),
    (["Which ports does the Falcon X2 have?", "Which ports does the Heron S1 have?"],
     "Does the other one have Ethernet?", "Does the Falcon X2 have Ethernet?", "pronoun"),
    # "they" after a who-question is who its answer named (conversations tune cv-101)
    (["Who reviews production models before they launch?"], "what do they look at?",
     "What do the AI Governance Council look at?", "pronoun"),
    # "by who" asks the earlier question's predicate about its agent (cv-102), with or without a question mark
    (["When was the remote work policy last reviewed?"], "by who", "By who was the remote work policy last reviewed?",
     "ellipsis"),
    # the word after "who" is its verb, not the thing it asks about (cv-111); one article, not two
    (["Who contributed the activate hooks?"], "and the fish install oneliner?",
     "Who contributed the fish install oneliner?", "ellipsis"),
    # "vs X?" is an ellipsis; a fragment sharing a word with a run of the frame takes the run's place (cv-124, cv-122)
    (["what compression ratio does zstd 1.5.1 -1 get in the benchmarks"], "vs zlib -1?",
     "What compression ratio does zlib -1 get in the benchmarks", "ellipsis"),
    (["whats the alias for npm ls"], "same for npm exec", "Whats the alias for npm exec", "ellipsis"),
    # a place after "on" takes the frame's place (cv-119); "And for nasm?" is no place (the test below)
    (["where's pip's cache on linux"], "on windows?", "Where's pip's cache on windows", "ellipsis"),
    # one word like the frame's head, not its modifier, takes the head's place (cv-131)
    (["what's tqdm's default mininterval"], "maxinterval?", "What's tqdm's default maxinterval", "ellipsis"),
    # "the two" are the things the last two questions asked the same of, named or not (cv-112)
    (["How fast does certifi respond to security reports?", "How fast does google-auth respond to security reports?"],
     "which of the two is quicker", "Which of certifi and google-auth is quicker", "pronoun"),
    # a code name heading the subject is the whole thing "it" means (cv-132)
    (["does load_dotenv override variables that are already set?"],
     "can i switch it off in prod without touching the code",
     "Can i switch load_dotenv off in prod without touching the code", "pronoun"),
    # a thing named first and set apart by a comma is what the pronoun after it stands for, not the previous answer's
    # release (coredocs tune cv-466#3, read "… which release added cachetools v5.4.0?")
    (["When was cachetools v5.4.0 released?"], "and the FIFO cache implementation, which release added that one?",
     "Which release added the FIFO cache implementation?", "pronoun"),
    (["Does pip's --force-reinstall only work together with --upgrade?"],
     "and my local changes, can i still send them upstream", "Can i still send my local changes upstream?",
     "pronoun"),
    # what a thing costs its user is the earlier thing's (conversations tune cv-189#2: read alone, "whats the catch"
    # was answered at 0.89 with libgpg-error's "Catch all error for LDAP")
    (["does cjpeg -optimize make the jpegs smaller"], "whats the catch", "Whats the catch of -optimize?", "carried"),
    # an acronym takes the place of the name it could spell out, not of another name (conversations tune cv-391#2,
    # read "… an optimized LTO build with Profile Guided Optimization?" and answered with --enable-optimizations)
    (["Which configure option gives an optimized CPython build with Profile Guided Optimization?"], "and for LTO?",
     "Which configure option gives an optimized CPython build with LTO?", "ellipsis"),
]


@pytest.mark.parametrize(("before", "question", "expected", "rule"), DEPENDENT)
def test_a_dependent_follow_up_is_read_with_the_thread(before: list[str], question: str, expected: str,
                                                        rule: str) -> None:
    answers = {"Which budget does the AI programme budget sit within?":
               "The AI programme budget is $4.2 million, and it sits within the R&D budget [budget.docx#3].",
               "What was Valgrind named before its release?":
               "It was going to be called Heimdall, but the name was already taken [valgrind-faq.html#5].",
               "Where are warranty repairs carried out?":
               "Warranty repairs are carried out at our service centre in Rotterdam [returns_policy.html#3].",
               "What launches in Q2 2027?":
               "Q2 2027: support copilot general availability [product_roadmap.txt#1].",
               "What ships next?": "The copilot ships in Q2 2027 [product_roadmap.txt#1].",
               "Who reviews production models before they launch?":
               "Every production model is reviewed by the AI Governance Council before launch [strategy_memo.pdf#2]."}
    reading = read(question, [turn(q, answers.get(q, "")) for q in before])
    assert (reading.text, reading.rule, reading.dependent) == (expected, rule, True)
    assert reading.unclear is None


SELF_CONTAINED = [
    ("How quickly are refunds issued?", "Who pays for return shipping on a device that isn't faulty?"),
    ("What is the Falcon X2's battery life?", "Is the Heron S1's battery swappable?"),
    ("How many units must a business order to get the 60-day evaluation period?", "What is the usual return window?"),
    ("What are the core collaboration hours?", "How long can someone work remotely from outside their home country?"),
    ("What does DEP0140 say to use instead of request.abort()?",
     "What's the deprecation code for the Buffer() constructor?"),
    ("What ports does the Falcon X2 have?", "Does the Heron S1 have an Ethernet port?"),
    # a wh-question with a verb of its own is not a fragment
    ("How many customers did Kestrel Labs have at the end of Q3 2026?", "Which customers left?"),
    # it names the frame's tool itself (conversations tune cv-247#3, read "… off the internet for 7?" before)
    ("What does xsltproc's return code 7 mean?", "how do i stop xsltproc from fetching dtds off the internet"),
]


@pytest.mark.parametrize(("before", "question"), SELF_CONTAINED)
def test_a_self_contained_follow_up_is_read_as_typed(before: str, question: str) -> None:
    reading = read(question, [turn(before)])
    assert (reading.text, reading.dependent, reading.unclear) == (question, False, None)


def test_a_question_that_starts_a_new_subject_is_read_as_typed() -> None:
    # "unrelated but" says the thread's tool is not what is asked of (mldocs conversations tune cv-307#3)
    earlier = [turn("which python does onnxruntime 1.32.0 need", "Requires-Python: >=3.11 [onnxruntime.md#1].")]
    typed = "unrelated but what does h5dump -A print"
    assert read(typed, earlier) == Reading(typed, rule="self-contained")


def test_a_first_question_is_read_as_typed_even_with_a_pronoun() -> None:
    reading = read("How much does it cost?", [])
    assert (reading.text, reading.dependent, reading.rule) == ("How much does it cost?", False, "first")


AMBIGUOUS = [
    ("What are the launch dates of the Falcon X2 and the Heron S1?", "How much does it cost?",
     ("Falcon X2", "Heron S1")),
    ("How many people work in Engineering and in Sales?", "How many open roles does it have?",
     ("Engineering", "Sales")),
    ("When were Debian 11 and Debian 12 released?", "When does its LTS end?", ("Debian 11", "Debian 12")),
    ("What is planned for Q1 2027 and Q2 2027 on the roadmap?", "Who will get access to it?", ("Q1 2027", "Q2 2027")),
    ("What are the first and third risks named in the AI strategy memo?", "How will Kestrel deal with it?",
     ("the first risk", "the third risk")),
    # two kinds of one thing (cv-107): "it" is either profile, never "Cargo's"
    ("What codegen-units do Cargo's dev and release profiles use by default?", "is incremental compilation on for it?",
     ("the dev profile", "the release profile")),
]


@pytest.mark.parametrize(("before", "question", "candidates"), AMBIGUOUS)
def test_two_candidate_antecedents_are_asked_back(before: str, question: str, candidates: tuple[str, ...]) -> None:
    reading = read(question, [turn(before)])
    assert reading.unclear in {"it", "its"}
    assert reading.candidates == candidates
    assert reading.text == question  # nothing is guessed


def test_the_chosen_antecedent_settles_the_reading() -> None:
    before = [turn("What are the launch dates of the Falcon X2 and the Heron S1?")]
    reading = read("How much does it cost?", before, antecedent="Heron S1")
    assert (reading.text, reading.rule) == ("How much does the Heron S1 cost?", "chosen")


def test_a_question_naming_nothing_after_two_things_asked_at_once_is_asked_back() -> None:
    # conversations tune cv-181#2 and cv-226#2: "the ttl" is either socket option's, "the bound" either constraint's;
    # each had been read with the frame's first name ("… for dgram?", "… for annotated-types?") and answered wrong
    ttl = [turn("which socket options do dgram's setTTL and setMulticastTTL set")]
    reading = read("what range can the ttl be", ttl)
    assert (reading.rule, reading.unclear, reading.candidates) == ("unclear", "the ttl", ("setTTL", "setMulticastTTL"))
    reading = read("is the bound inclusive then", [turn("in annotated-types what do Gt and Le mean")])
    assert (reading.rule, reading.unclear, reading.candidates) == ("unclear", "the bound", ("Gt", "Le"))
    # a word that is one's alone settles it, as the reply does
    assert read("what range can the multicast ttl be", ttl).text == \
        "What range can the multicast ttl be for setMulticastTTL?"
    reading = read("what range can the ttl be", ttl, antecedent="setMulticastTTL")
    assert (reading.text, reading.rule) == ("What range can the ttl be for setMulticastTTL?", "carried")
    # a question that points at neither of the two with "the …" is not asked which (tune cv-369#2)
    uids = [turn("What are the default FIRST_SYSTEM_UID and LAST_SYSTEM_UID in adduser.conf?")]
    assert read("what regex are system user names checked against by default", uids).rule != "unclear"
    # one thing asked of is carried as before
    reading = read("What is the next release called?", [turn("When was Debian 12 Bookworm released?")])
    assert reading.text == "What is the next release of Debian 12 Bookworm called?"


def test_a_pronoun_with_nothing_to_refer_to_is_asked_back() -> None:
    reading = read("How much does it cost?", [turn("Hello?")])
    assert reading.unclear == "it" and reading.candidates == ()


def test_that_as_the_subject_of_a_verb_that_closes_the_question_is_asked_back() -> None:
    # conversations check cv-256#2: "that" is the release the previous answer named, which no rule reads; read alone,
    # "when did that come out" was answered with another release's date
    before = [turn("which gsutil release added the rsync shim")]
    reading = read("when did that come out", before)
    assert (reading.rule, reading.unclear) == ("unclear", "that")
    # "that" before a noun and its verb is a determiner
    assert read("did that release fix the bug", before).unclear is None


def test_it_or_that_after_a_which_question_is_the_code_its_answer_gave() -> None:
    # platformdocs conversations check cv-345#2: the option the answer quoted, not the question's words
    option = turn("which easyrsa option sets a custom renew grace period",
                  "* Add option '--renew-days=NN', custom renew grace period (#557) [easy-rsa-ChangeLog.txt#1]. "
                  "* Fix --version so it uses EASYRSA_OPENSSL (#416) [easy-rsa-ChangeLog.txt#1].")
    assert read("which release added it?", [option]).text == "Which release added --renew-days?"
    # apidocs conversations check cv-135#2: "that" is the variable the answer named
    variable = turn("which env var sets a global pytest-timeout timeout?",
                    "The PYTEST_TIMEOUT environment variable sets a global timeout overriding a possible value in the "
                    "configuration file [pytest-timeout-METADATA.rst#6].")
    assert read("does --timeout win over that", [variable]).text == "Does --timeout win over PYTEST_TIMEOUT"
    # datadocs conversations tune cv-293#2: "when was that out" is the release the answer gave, with its tool
    release = turn("which csvkit release added zstandard support",
                   "1.5.0 - March 28, 2024: feat: Add support for Zstandard files with the .zst extension, if the "
                   "zstandard package is installed [csvkit-CHANGELOG.rst#9].")
    assert read("when was that out", [release]).text == "When was csvkit 1.5.0 out"
    # basedocs conversations tune cv-484#2: the release the entry is headed by, not the versions it names after it
    parso = turn("Which parso release dropped support for Python 2.7?",
                 "0.8.0 (2020-08-05): Dropped Support for Python 2.7, 3.4, 3.5 [parso-METADATA.rst#17].")
    assert read("when was that released?", [parso]).text == "When was parso 0.8.0 released?"
    # shelfdocs conversations tune cv-406#2: a release asked for after two words ("GNU tar release") is "that one"
    tar = turn("Which GNU tar release added the --clamp-mtime option?",
               "version 1.29 - Sergey Poznyakoff, 2016-05-16: * New option --clamp-mtime [tar-NEWS.txt#13].")
    assert read("when did that one come out?", [tar]).text == "When did tar 1.29 come out?"
    # … and then "use it" is the option again: a release is not what one uses (cv-406#3)
    out = turn("when did that one come out?", reading="When did tar 1.29 come out?",
               answer="version 1.29 - Sergey Poznyakoff, 2016-05-16 [tar-NEWS.txt#13].")
    assert read("can i use it on its own?", [tar, out]).text == "Can i use the --clamp-mtime option on its own?"
    # a later "it" is the thing the release added, not the release (realdocs conversations tune cv-111#2)
    hooks = turn("Which pyenv-virtualenv release added activate/deactivate hooks?",
                 "v1.2.2: Add activate/deactivate hooks by @joshfrench in https://github.com/pyenv/pyenv-virtualenv/pull/"
                 "452 [pyenv-virtualenv-CHANGELOG.md#8].")
    assert read("who contributed it?", [hooks]).text == "Who contributed activate/deactivate hooks?"
    # an answer that quotes two codes settles nothing: still asked back
    two = turn("which env var sets the pager", "Either MAN_PAGER or PAGER_CMD names it [man.txt#3].")
    assert read("can i put a pipe in that", [two]).unclear == "that"


def test_a_flag_alone_takes_the_tool_the_thread_wrote_before_a_flag() -> None:
    # opsdocs conversations check cv-208#3 (found reading check failures): -b is needrestart's, and "on its own" is
    # "by itself", no thing's own (it was read "on NEEDRESTART-KSTA 3's own")
    batch = [turn("needrestart -b says NEEDRESTART-KSTA: 3, what does that mean")]
    assert read("will -b restart anything on its own", batch).text == "Will needrestart -b restart anything on its own"
    # two tools before flags: which one's -b, the words cannot tell
    two = [turn("does xz -6 compress better than gzip -9")]
    assert read("will -b restart anything on its own", two).text == "will -b restart anything on its own"
    # a question that names its tool keeps it
    assert read("does zstd -b restart anything", batch).text == "does zstd -b restart anything"


def test_a_lone_flag_or_a_verb_after_to_is_an_ellipsis() -> None:
    # mandocs conversations check cv-138 (found reading check failures): "-9?" is a fragment, not a question of its
    # own, and "and to unpack?" swaps the frame's verb after "to", not its noun ("How much unpack does xz -6 need …")
    xz = [turn("how much memory does xz -6 need to compress")]
    unpack = read("and to unpack?", xz)
    assert unpack.text == "How much memory does xz -6 need to unpack"
    assert read("-9?", [*xz, turn("and to unpack?", reading=unpack.text)]).text == (
        "How much memory does xz -9 need to unpack")


def test_a_tool_named_like_a_comparative_is_no_comparison() -> None:
    # hostdocs conversations check cv-363#3 (a bug seen on its first run): "pyspellchecker" ends in "-er", and the
    # question was read as comparing the thread's two things
    before = [turn("In openapi-schema-validator, what does check_schema default to?"),
              turn("and allow_remote_references?",
                   reading="In allow_remote_references, what does check_schema default to?")]
    question = "Which pyspellchecker method returns the words that are not in the frequency list?"
    assert (read(question, before).text, read(question, before).rule) == (question, "self-contained")


def test_a_question_that_names_nothing_takes_the_workspace_tool_the_question_before_named() -> None:
    # hostdocs conversations tune cv-359#2 and cv-361#2: read as typed, asked back and answered from another
    # document; the tool the thread was about goes with the question
    docs = ["langsmith-METADATA.md", "slack_sdk-METADATA.md", "attrs-METADATA.md", "tar-tar.1.txt"]
    tools = tool_names(docs)
    langsmith = [turn("In LangSmith, which project are runs logged to when LANGSMITH_PROJECT is not set?")]
    assert read("which env var turns tracing on then?", langsmith, tools=tools).text == (
        "Which env var turns tracing on then for LangSmith?")
    slack = [turn("Which slack_sdk method does the README use to upload a file to Slack?")]
    assert read("does the async client need anything extra?", slack, tools=tools).text == (
        "Does the async client need anything extra for slack_sdk?")
    # a question that names a tool of its own is its own
    own = "In which version was the attrs package import name added?"
    assert read(own, slack, tools=tools).text == own
    # without the workspace's tools, or after a question naming two, nothing is carried
    assert read("which env var turns tracing on then?", langsmith).rule == "self-contained"
    both = [turn("does slack_sdk log to LangSmith")]
    assert read("does the async client need anything extra?", both, tools=tools).rule == "self-contained"


def test_its_after_a_tool_the_question_names_is_that_tool_s() -> None:
    # platformdocs conversations tune cv-349#3: fai-setup's own log, not the mirror's of the question before
    reading = read("and where does fai-setup write its log", [turn("whats the default package mirror fai uses")])
    assert (reading.text, reading.rule) == ("and where does fai-setup write its log", "self-contained")


def test_a_reading_that_still_holds_an_unread_it_is_asked_back() -> None:
    # conversations tune cv-332#2: the fragment's own "it" went into the frame as typed ("When did Axios 1.15.0 the
    # patch right after it"); which release "it" is, the words leave to the user
    reading = read("and the patch right after it?", [turn("when did axios 1.15.0 ship")])
    assert (reading.rule, reading.dependent, reading.unclear) == ("unclear", True, "it")
    # platformdocs conversations check cv-345#3: a turn asked back as typed leaves its "it" unread, so "that release"
    # cannot be read as "the release that added it" (it was answered with another release's entry)
    before = [turn("which easyrsa option sets a custom renew grace period"), turn("which release added it?")]
    assert (read("did that release do anything for openssl 3", before).unclear) == "that"
    # an "it" the reading settles is read as before
    assert read("is it on by default", [turn("does the xfs collector need a particular kernel")]).rule != "unclear"


def test_an_ellipsis_the_earlier_question_cannot_take_whole_is_asked_back() -> None:
    """"nasm" and "Windows" have no one place in the frame: a swap of "Windows" for "Node.js" alone would drop
    "nasm" and ask about gas on Windows, so the user is asked to put the question in full."""
    before = [turn("Which gas version is needed for AVX-512 when building Node.js?"),
              turn("And for AVX2?", reading="Which gas version is needed for AVX2 when building Node.js?")]
    reading = read("What about nasm on Windows for that one?", before)
    assert (reading.rule, reading.unclear, reading.text) == (
        "unclear", "nasm on Windows for that one", "What about nasm on Windows for that one?")
    assert read("And for nasm?", before).text == "Which nasm version is needed for AVX2 when building Node.js?"
    asked_in_full = "Which nasm version does AVX2 need on Windows?"
    settled = read("What about nasm on Windows for that one?", before, antecedent=asked_in_full)
    assert (settled.text, settled.rule) == (asked_in_full, "chosen")


def test_an_ellipsis_whose_reading_asks_nothing_is_asked_back() -> None:
    # conversations tune cv-284#2: "for directories" took the place of "whats pacote's default", and the reading
    # "Directories fmode for extracted files" was answered with the fmode entry
    modes = [turn("whats pacote's default fmode for extracted files")]
    reading = read("and for directories?", modes)
    assert (reading.rule, reading.unclear) == ("unclear", "for directories")
    # cv-221#2: "A line ending in a backslash does a # after a package name start a comment"
    comment = [turn("in requirements.txt does a # after a package name start a comment")]
    assert read("and a line ending in a backslash?", comment).unclear == "a line ending in a backslash"
    # a swap that keeps the question word is read as before
    assert read("and for dmode?", modes).text == "Whats pacote's default dmode for extracted files"


def test_a_fragment_left_unread_is_no_frame_for_the_next_turn() -> None:
    # cv-284#3: after "and for directories?" was asked back, "it" was read as "for directories"
    modes = [turn("whats pacote's default fmode for extracted files"), turn("and for directories?")]
    reading = read("how do i make it keep exactly the modes that are in the tarball", modes)
    assert "directories" not in reading.text and "fmode" in reading.text


def test_a_plural_pronoun_means_both_things_of_the_earlier_question() -> None:
    reading = read("When were they released?", [turn("What are the codenames of Debian 11 and Debian 12?")])
    assert reading.text == "When were Debian 11 and Debian 12 released?"


def test_a_second_pronoun_follows_the_first_ones_reading() -> None:
    first = read("Is there a fee if I've opened it?", [turn("How many days do I have to return a device?")])
    earlier = [turn("How many days do I have to return a device?"),
               Earlier("Is there a fee if I've opened it?", first.text, "", first.about)]
    reading = read("What if it's faulty?", earlier)
    assert reading.text == "Is there a fee if I've opened the device if the device is faulty?"


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("When does the Falcon X2 launch?", "the Falcon X2"),
        ("How much does the 256 GB Falcon X2 cost?", "the Falcon X2"),
        ("Who wrote the AI investment strategy memo?", "the AI investment strategy memo"),
        ("How much will Kestrel Labs invest in AI during FY2026?", "Kestrel Labs"),
        ("What is the default value of Massif's --threshold option?", "Massif"),
        ("Where are warranty repairs carried out?", "warranty repairs"),
        # "What's" is "What is" (conversations tune cv-096: the topic was the period, "FY2026")
        ("What's Kestrel's total operating budget for FY2026?", "Kestrel's total operating budget"),
    ],
)
def test_what_a_question_is_about(question: str, expected: str) -> None:
    assert topic(question) == expected


def test_mentions_keep_names_periods_and_versions_whole() -> None:
    found = mentions("When was Ubuntu 24.04 LTS released, and what was revenue in Q3 2026 at the University of Leeds?")
    assert [(m.text, m.kind) for m in found] == [
        ("Ubuntu 24.04 LTS", "name"), ("Q3 2026", "period"), ("University of Leeds", "name")]
    assert [m.text for m in coordinated("Where are the Falcon X2 and the Heron S1 assembled?")] == [
        "Falcon X2", "Heron S1"]
    assert coordinated("Where is the Falcon X2 assembled?") == []


def test_the_bigger_one_is_asked_back_and_the_reply_takes_its_place() -> None:
    # conversations tune cv-092: read as "What does the bigger one cost of Falcon X2?" and answered with the base price
    earlier = [turn("How much storage does the base Falcon X2 have?", "The Falcon X2 costs $1,249 with 128 GB of "
                    "storage [falcon_x2_datasheet.md#2].")]
    reading = read("and what does the bigger one cost", earlier)
    assert (reading.rule, reading.unclear, reading.candidates) == ("unclear", "the bigger one", ())
    chosen = read("and what does the bigger one cost", earlier, antecedent="the 256 GB model")
    assert (chosen.rule, chosen.text) == ("chosen", "What does the 256 GB model cost")
    # an ordinal or a comparing question is not such a reference
    assert read("Is the first one faster?", earlier).rule == "self-contained"


def test_a_pronoun_never_means_a_participle() -> None:
    # "How much is spent on …?" is about no thing a "that" could mean: it is asked back, not read as "spent"
    reading = read("what does that include", [turn("How much is allocated to travel in Q3?")])
    assert (reading.rule, reading.unclear) == ("unclear", "that")
    assert topic("How much is allocated to travel in Q3?") is None
    # a demonstrative before a noun stays one
    assert read("does that budget cover travel?", [turn("What is the Kestrel budget?")]).rule != "unclear"


def test_that_one_is_always_a_reference_and_unresolved_is_asked_back() -> None:
    # conversations tune cv-199: "that one" is the field the previous answer named, which the rules cannot pick; it
    # was read as typed and answered from libxslt's news
    earlier = [turn("is the dpkg Protected field spec final"),
               turn("Which existing field would dpkg's proposed Protected field phase out?",
                    "The Protected field would phase out the Important field [dpkg-protected-field.txt#2].")]
    reading = read("what supports that one today", earlier)
    assert (reading.rule, reading.unclear, reading.candidates) == ("unclear", "that one", ())
    # as a fragment too: "and that one?" was read "Which that one field would dpkg's proposed …"
    reading = read("and that one?", earlier)
    assert (reading.rule, reading.unclear) == ("unclear", "that one")
    # a demonstrative before a noun is unchanged
    assert read("does that budget cover travel?", [turn("What is the Kestrel budget?")]).rule != "unclear"


def test_they_means_only_a_plural_thing_else_stays_as_typed() -> None:
    # conversations tune cv-091: "they" were read as "the warranty claim" ("Where do the warranty claim fix …")
    earlier = [turn("How do I make a warranty claim?")]
    assert read("where do they fix it", earlier).text == "Where do they fix the warranty claim"
    assert read("When were they released?", [turn("When did the new routers ship?")]).text == (
        "When were the new routers released?")


def test_the_other_one_with_one_thing_named_is_asked_back() -> None:
    reading = read("Does the other one have Ethernet?", [turn("Which ports does the Heron S1 have?")])
    assert (reading.rule, reading.unclear, reading.candidates) == ("unclear", "the other one", ())


def test_a_whole_noun_phrase_replaces_the_thing_asked_about_with_its_lower_case_name() -> None:
    # conversations tune cv-111: "and the fish install oneliner?" after "Who contributed activate/deactivate hooks?"
    # was read "Who contributed activate/deactivate the fish install oneliner?"
    earlier = [Earlier("who contributed it?", "Who contributed activate/deactivate hooks?")]
    assert read("and the fish install oneliner?", earlier).text == "Who contributed the fish install oneliner?"
    # a period or a capitalised name in the frame stays
    earlier = [Earlier("What was the marketing budget in Q3?", "What was the marketing budget in Q3?")]
    assert read("and the travel budget?", earlier).text == "What was the travel budget in Q3?"


PRODUCTS = product_names(["falcon_x2_datasheet.md", "heron_s1_datasheet.txt", "returns_policy.html",
                          "budget_fy2026.docx", "roadmap-q3.md", "pyenv-v2-notes.md"])


def test_products_are_read_from_document_names_and_periods_and_versions_are_not() -> None:
    assert PRODUCTS == ["Falcon X2", "Heron S1"]


def test_a_product_typed_in_lower_case_by_its_first_word_is_the_product_a_document_is_named_after() -> None:
    # conversations tune cv-089: "and the falcons?" was read "What's the falcons capacity of the Heron S1?"
    earlier = [turn("What's the battery capacity of the Heron S1?")]
    reading = read("and the falcons?", earlier, names=PRODUCTS)
    assert reading.text == "What's the battery capacity of the Falcon X2?"
    # ... and the next turn compares the two (cv-089#3)
    earlier.append(Earlier("and the falcons?", reading.text))
    assert read("which one is lighter", earlier, names=PRODUCTS).text == \
        "Which one is lighter, the Heron S1 or the Falcon X2?"
    # without the documents' names the word stays an attribute, as before
    assert read("and the falcons?", earlier[:1]).text == "What's the falcons capacity of the Heron S1?"


def test_the_other_one_is_the_other_product_the_documents_name() -> None:
    # conversations tune cv-066: the thread named one product, the workspace documents two
    earlier = [turn("Which ports does the Heron S1 have?")]
    assert read("Does the other one have Ethernet?", earlier, names=PRODUCTS).text == \
        "Does the Falcon X2 have Ethernet?"
    three = read("Does the other one have Ethernet?", earlier, names=[*PRODUCTS, "Osprey Z1"])
    assert (three.rule, three.unclear) == ("unclear", "the other one")


TOOLS = tool_names(["pg_restore.1.txt", "pg_dump.1.txt", "aiosqlite-METADATA.rst", "csvkit-csvsql.rst",
                    "npm-unpublish.md", "returns_policy.html", "falcon-x2.md",
                    "budget-q3.md", "pyparsing-best_practices.md"])


def test_tools_are_read_from_document_names_and_ordinary_words_codes_and_periods_are_not() -> None:
    assert sorted(TOOLS) == ["aiosqlite", "csvkit", "csvkit-csvsql", "csvsql", "npm", "npm-unpublish", "pg-dump",
                             "pg-restore", "pyparsing", "pyparsing-best-practices"]


def test_it_is_the_workspace_tool_the_previous_question_asked_about_when_its_subject_names_nothing() -> None:
    # datadocs threads, cv-292#2: "it" was read "the error halfway", the subject of the question's condition
    stop = [turn("if pg_restore hits an error halfway does it stop?")]
    assert read("how do i make it bail instead", stop, tools=TOOLS).text == "How do i make pg_restore bail instead"
    assert read("how do i make it bail instead", stop).text == "How do i make the error halfway bail instead"
    # cv-302#2: a tool typed in lower case is no name, and its verb was read into the phrase ("aiosqlite avoid")
    blocking = [turn("how does aiosqlite avoid blocking the event loop")]
    assert read("who wrote it", blocking, tools=TOOLS).text == "Who wrote aiosqlite"
    # a command a document is named after keeps its second word (teamdocs threads, cv-275)
    delete = [turn("what does npm unpublish actually delete")]
    assert read("is it undoable", delete, tools=TOOLS).text == "Is npm unpublish undoable"


def test_it_is_not_the_flag_the_answer_gave_when_the_follow_up_names_a_flag_of_its_own() -> None:
    # kitdocs threads, cv-442#3: "it" was read as the option the previous answer gave
    added = [turn("What is the nickname of the MPFR 4.1.0 release?"),
             turn("which configure option did it add for formally proven code?",
                  "- New --enable-formally-proven-code configure option, to use formally proven code [NEWS.txt#5].",
                  "Which configure option did the MPFR 4.1.0 add for formally proven code?")]
    assert read("and what did it replace --enable-mini-gmp with?", added).text == (
        "What did the MPFR 4.1.0 replace --enable-mini-gmp with?")
    assert read("which release added it?", added).text != "Which release added the MPFR 4.1.0?"


def test_a_tool_named_by_an_english_word_gives_way_to_one_that_is_no_word() -> None:
    # kitdocs threads, cv-450#2: file(1)'s page made "a config file" name a tool beside cfn-lint, and with two tools
    # named "it" fell to the question's first phrase, "my home directory"
    tools = tool_names(["cfn-lint-METADATA.md", "file-file.1.txt"])
    home = [turn("Where in my home directory does cfn-lint look for a config file?")]
    assert read("which rules does it leave out by default?", home, tools=tools).text == (
        "Which rules does cfn-lint leave out by default?")


def test_a_package_page_or_a_manual_page_names_its_tool_even_when_it_is_an_english_word() -> None:
    # tooldocs: ruff, make and git are English words, and their documents are a package's metadata and man pages
    tools = tool_names(["ruff-METADATA.md", "make.1.txt", "git-bisect.1.txt", "returns_policy.html",
                        "make-NEWS.txt"])
    assert sorted(tools) == ["git", "git-bisect", "make", "ruff"]


def test_a_version_stays_with_its_tool_when_the_verb_is_left_out() -> None:
    # tooldocs threads, cv-318#2: "it" was read "pytest-benchmark 4.0.0 come", with the verb of "come out"
    out = [turn("when did pytest-benchmark 4.0.0 come out")]
    tools = tool_names(["pytest-benchmark-METADATA.rst"])
    assert read("what pythons did it drop", out, tools=tools).text == "What pythons did pytest-benchmark 4.0.0 drop"


def test_its_after_a_workspace_tool_the_question_names_is_the_questions_own() -> None:
    # tooldocs threads, cv-327#3: "its" was read as the previous question's clippy setting, not ruff
    clippy = [turn("whats clippy's default too-many-lines-threshold")]
    tools = tool_names(["ruff-METADATA.md", "clippy-lint_configuration.html"])
    question = "which rules can ruff fix with --fix in its default config?"
    assert (read(question, clippy, tools=tools).text, read(question, clippy, tools=tools).rule) == (
        question, "self-contained")


def test_a_tool_named_after_a_preposition_or_beside_a_name_of_its_own_is_not_what_it_means() -> None:
    # as in teamdocs threads, cv-169: "it" is the code of conduct, not the tool it is for
    conduct = [turn("where's the code of conduct for aiosqlite")]
    assert read("what does it cover", conduct, tools=TOOLS).text == "What does the code of conduct cover"
    # a subject with a word of its own keeps it (pyparsing threads, cv-206: "it" is packrat)
    packrat = [turn("when should i use packrat with pyparsing")]
    assert read("how do i turn it on", packrat, tools=TOOLS).text == "How do i turn packrat on"
    # a word after an article is a document's, not a tool's ("roadmap-q3.md" names no tool "the roadmap")
    roadmap = [turn("when the roadmap changes who approves the budget")]
    assert read("how do i stop it", roadmap, tools=tool_names(["roadmap-q3.md"])).text == "How do i stop the budget"
    # ... nor one after a wh-word, which modifies what is asked for (tooldocs threads, cv-320#2: "What does git get on
    # stdin" after "which git hook runs on the server …")
    hook = [turn("which git hook runs on the server before any ref gets updated by a push")]
    assert "git get" not in read("what does it get on stdin", hook, tools=tool_names(["git-bisect.1.txt"])).text
    # ... and a tool the follow-up names itself is not what its "it" means
    halfway = [turn("if pg_restore hits an error halfway does it stop?")]
    assert read("can pg_restore retry it", halfway, tools=TOOLS).text == read("can pg_restore retry it", halfway).text


def test_a_departments_short_name_takes_its_place_in_the_frame() -> None:
    # conversations tune cv-097#2: "and ops?" was read as "the Sales ops" and asked back
    before = [turn("How much is the Sales department budgeted for in FY2026?")]
    assert read("and ops?", before).text == "How much is the Operations department budgeted for in FY2026?"
    # a word of a longer phrase is no department
    assert "Engineering" not in read("and the eng team's laptops?", before).text


# (earlier questions, follow-up, expected reading): conversations tune cv-136 to cv-156, written in stop 46
THREADS_46 = [
    # a condition with a subject of its own replaces the frame's; one said of the thing is added (cv-007 above)
    (["what exit code does timeout give if it finds the command but can't run it"], "and if the command doesnt exist",
     "What exit code does timeout give if the command doesnt exist?"),
    # a condition before a question of its own is no ellipsis: the question is read as typed
    (["what happens if i npm publish a name and version that's already on the registry"],
     "If a package has both a .gitignore and a .npmignore, which one does npm publish follow?",
     "If a package has both a .gitignore and a .npmignore, which one does npm publish follow?"),
    # one letter for the frame's one letter
    (["in a keyserver colon listing what does the r flag on a key mean"], "and e",
     "In a keyserver colon listing what does the e flag on a key mean"),
    # a condition typed after a frame that ended on a "when" condition replaces it (sysdocs thread cv-384, tune)
    (["In mke2fs.conf, which file system type does mke2fs default to when no journal was requested?"],
     "and if a journal was requested?",
     "In mke2fs.conf, which file system type does mke2fs default to if a journal was requested?"),
    # "that one" after a question about one release is that release (sysdocs thread cv-371, tune)
    (["When was GNU findutils 4.8.0 released?"], "what changed for xargs -t in that one?",
     "What changed for xargs -t in findutils 4.8.0?"),
    # the other bound of the frame's one constant with a bound in its name (sysdocs threads cv-382, cv-387, tune)
    (["In login.defs, what is the default SYS_UID_MIN?"], "and the max?",
     "In login.defs, what is the default SYS_UID_MAX?"),
    (["What is the default value of PASS_MIN_DAYS in login.defs?"], "and for the max?",
     "What is the default value of PASS_MAX_DAYS in login.defs?"),
    (["What is the default value of PASS_MAX_DAYS in login.defs?"], "and the minimum?",
     "What is the default value of PASS_MIN_DAYS in login.defs?"),
    # "the medium ones": the frame's thing with another modifier, as a fragment and inside a question
    (["where do zstd's short CI tests run"], "and the medium ones", "Where do zstd's medium CI tests run"),
    (["where do zstd's short CI tests run", "Where do zstd's medium CI tests run"],
     "how often do the long ones hit dev", "How often do zstd's long CI tests hit dev"),
    # "it" with no subject to take: the one tool the frame names in lower case
    (["which python versions need node-gyp v10 or newer"], "how do i install it", "How do i install node-gyp"),
    # "what else": more of what the frame's tool needs
    (["which python versions need node-gyp v10 or newer", "How do i install node-gyp"],
     "what else do i need on a mac", "What else do i need on a mac for node-gyp?"),
    # a lower-case tool's name is the subject without the verb after it, and a sibling of its family takes its place
    (["which ntp servers does systemd-timesyncd fall back to out of the box"],
     "how would a distro point it somewhere else", "How would a distro point systemd-timesyncd somewhere else"),
    (["which ntp servers does systemd-timesyncd fall back to out of the box",
      "How would a distro point systemd-timesyncd somewhere else"],
     "and for resolved", "How would a distro point systemd-resolved somewhere else"),
    # "each" after a comparison: each of the two things either side of its "than"
    (["how much faster is man-db than man at man -K"], "how long did each take on the test machine",
     "How long did man-db and man each take on the test machine"),
    # "and to …": the same ask of another deed, its pronoun read too
    (["how do i join the lsof mailing list"], "and to get off it", "How do i get off the lsof mailing list?"),
    # ... by the tool the frame has do it (tooldocs threads, cv-321#2: ctest was lost)
    (["how do i make ctest stop at the first failing test"], "and to only rerun the ones that failed last time?",
     "How do i make ctest only rerun the ones that failed last time?"),
    (["how do i get npm to skip optional deps"], "and to only install prod ones?",
     "How do i get npm to only install prod ones?"),
    # ... and what a "which … makes" question asks for, of another deed (frontdocs threads, cv-330#2)
    (["which env var makes dotenv load some other file instead of .env"], "and to switch on the fast parser?",
     "Which env var makes dotenv switch on the fast parser?"),
    # a question that names nothing is about the one tool the frame names in lower case (conversations tune cv-162)
    (["does util-linux require an out of tree build to work before a release"], "how do i do one",
     "How do i do one for util-linux?"),
    # not when it names a tool of its own
    (["does util-linux require an out of tree build to work before a release"], "how do i install node-gyp",
     "how do i install node-gyp"),
]

# (earlier turns as (typed, read), follow-up, expected reading): a fragment after a fragment takes its slot
SLOTS = [
    # conversations tune cv-176: "gitweb?" takes the place "and git remote -v?" took (it read "What gitweb for …")
    ([("what changed for git add -i in 2.37", "what changed for git add -i in 2.37"),
      ("and git remote -v?", "What changed for git remote -v in 2.37")], "gitweb?", "What changed for gitweb in 2.37"),
    # a slot that is no thing ("since which version?") is not taken
    ([("what was column --table-empty-lines renamed to?", "what was column --table-empty-lines renamed to?"),
      ("since which version?", "Since which version was column --table-empty-lines renamed to?")],
     "and --columns?", "Since which version was column --columns renamed to?"),
]


@pytest.mark.parametrize(("turns", "follow_up", "expected"), SLOTS)
def test_a_fragment_after_a_fragment_takes_its_slot(
    turns: list[tuple[str, str]], follow_up: str, expected: str
) -> None:
    assert read(follow_up, [Earlier(typed, reading, "") for typed, reading in turns]).text == expected


@pytest.mark.parametrize(("before", "follow_up", "expected"), THREADS_46)
def test_follow_ups_typed_in_threads_over_man_pages_and_tool_docs(
    before: list[str], follow_up: str, expected: str
) -> None:
    assert read(follow_up, [turn(q) for q in before]).text == expected


def test_the_bigger_one_and_the_other_one_are_no_modifier_of_the_frames_thing() -> None:
    before = [turn("where do zstd's short CI tests run")]
    assert "bigger CI tests" not in read("and the bigger one", before).text
    assert "other CI tests" not in read("and the other one", before).text
    assert "first CI tests" not in read("how often do the first ones hit dev", before).text


def test_it_after_two_tools_joined_is_asked_back_with_both() -> None:
    # conversations tune cv-141: "hows high can it go" after a question on xz and zstd was read as xz's
    reading = read("hows high can it go", [turn("what compression level do xz and zstd use by default")])
    assert (reading.rule, reading.candidates) == ("unclear", ("xz", "zstd"))
    # English words joined are no two tools: "pip and npm" names one word no dictionary holds
    assert read("how do i update it", [turn("how do pip and npm pick a cache folder")]).rule != "unclear"


# (earlier questions, follow-up, expected reading): threads over the holdout and man-page docs (stop 48)
THREADS_48 = [
    # conversations tune cv-139: "nothing on X?" asks the previous question in another case; the frame has no "on"
    (["what network timeout does wget have out of the box"], "nothing on dns lookups?",
     "What network timeout does wget have out of the box on dns lookups?"),
    # ... and "all of them" are all of the thing's kind of what it asked ("i" is no group "them" could mean)
    (["what network timeout does wget have out of the box", "nothing on dns lookups?"],
     "can i set all of them with one flag", "Can i set all of the wget timeouts with one flag"),
    # conversations tune cv-182: the verb's object is what "and the build dir?" replaces, not "keep its temp files"
    (["where does python-build keep its temp files"], "and the build dir?",
     "Where does python-build keep its build dir"),
]


@pytest.mark.parametrize(("before", "follow_up", "expected"), THREADS_48)
def test_follow_ups_in_another_case_and_of_the_verbs_object(before: list[str], follow_up: str, expected: str) -> None:
    earlier: list[Earlier] = []
    for question in before:
        earlier.append(turn(question, reading=read(question, earlier).text))
    assert read(follow_up, earlier).text == expected


def test_that_one_and_both_with_nothing_named_are_asked_back() -> None:
    # conversations tune cv-179 and cv-172: read as typed, each was answered from another tool's docs at 1.0
    npm = [turn("in the npm update docs, if dep1 is ^0.2.0 what gets installed"),
           turn("and ^0.4.0?", reading="In the npm update docs, if dep1 is ^0.4.0 what gets installed")]
    assert (read("why that one", npm).rule, read("why that one", npm).unclear) == ("unclear", "that one")
    pyenv = [turn("how do i unset the pyenv local version"), turn("whats the old file name it still reads")]
    assert (read("which one wins if both are there", pyenv).rule,
            read("which one wins if both are there", pyenv).unclear) == ("unclear", "both")
    # "both" before a noun is the question's own; "that budget" unresolved stays as typed
    assert read("do both plans include support?", [turn("What does the Basic plan cost?")]).rule != "unclear"


def test_a_thing_pointed_at_as_the_closing_object_is_asked_back_when_the_thread_does_not_name_it() -> None:
    # conversations tune cv-211: read as typed, "what generates that file" was answered from another package's docs
    certs = [turn("where do node's bundled root certs live in the source tree",
                  "The certificates are in src/node_root_certs.h [nodejs-maintaining-root-certs.md#2].")]
    reading = read("what generates that file", certs)
    assert (reading.rule, reading.unclear) == ("unclear", "that file")
    # a clause's "that" is no pointer, and "that budget" before more words stays as typed when unresolved
    assert read("does it say that files are kept", certs).unclear != "that files"
    assert read("does that budget cover travel?", [turn("What is the Kestrel budget?")]).rule != "unclear"


def test_a_pronoun_after_the_questions_own_tool_and_flag_is_left_as_typed() -> None:
    # conversations tune cv-229: "it" was read as the thread's apt-autoclean
    apt = [turn("what does apt-get clean delete"), turn("and autoclean?", reading="What does apt-get autoclean delete")]
    question = "What does grep -c count when it is combined with -v?"
    assert (read(question, apt).text, read(question, apt).dependent) == (question, False)
    # a tool named after the pronoun, or the thread's own tool, leaves "it" to the thread
    assert read("does it work with grep -r", apt).text == "Does apt-get work with grep -r"
    assert read("what does apt-get -s show when it is combined with clean", apt).dependent


def test_a_fragment_that_extends_a_word_of_the_frame_takes_its_place() -> None:
    # conversations tune cv-229: "and autoclean?" was read "What does apt-autoclean clean delete"
    assert read("and autoclean?", [turn("what does apt-get clean delete")]).text == "What does apt-get autoclean delete"
    # a sibling of a compound still swaps its other half
    timesyncd = [turn("how would a distro point systemd-timesyncd somewhere else")]
    assert "systemd-resolved" in read("and for resolved", timesyncd).text


def test_for_a_thing_takes_the_place_of_what_the_frame_asked_in() -> None:
    # conversations tune cv-222: "and for ntbtls?" was read "What does GPG_ERR_WRONG_PUBKEY_ALGO ntbtls in gnupg"
    gnupg = [turn("what does GPG_ERR_WRONG_PUBKEY_ALGO mean in gnupg")]
    assert read("and for ntbtls?", gnupg).text == "What does GPG_ERR_WRONG_PUBKEY_ALGO mean in ntbtls"
    # a frame with nothing asked "in" is left to the other rules
    assert read("and for ntbtls?", [turn("what does GPG_ERR_WRONG_PUBKEY_ALGO mean")]).text != (
        "What does GPG_ERR_WRONG_PUBKEY_ALGO mean in ntbtls")


def test_that_release_is_the_version_an_earlier_turn_named() -> None:
    # conversations tune cv-216: the latest turn named an option, not a version, and "that release" was read as it
    git = [turn("what does transfer.credentialsInURL control in git 2.37"),
           turn("does it catch them in pushurl too",
                reading="Does transfer.credentialsInURL catch them in pushurl too")]
    assert read("anything new for git log --since in that release", git).text == (
        "Anything new for git log --since in 2.37")


def test_a_bare_why_asks_the_yes_no_question_why_and_is_asked_back_after_any_other() -> None:
    # conversations tune cv-214: "why" was read "Why for python-build?"
    shared = [turn("does python-build build a shared libpython by default")]
    assert read("why", shared).text == "Why does python-build build a shared libpython by default?"
    reading = read("why?", [turn("which edition does cargo new use")])
    assert (reading.rule, reading.unclear) == ("unclear", "why?")
    assert read("why is that the default", shared).rule != "unclear"  # a why-question of its own


def test_which_one_is_one_of_what_the_thread_asked_for() -> None:
    # conversations tune cv-166: "and which one added 3.12" was read "Which one added Python 3.12", no tool named
    before: list[Earlier] = []
    for question in ("which charset-normalizer release dropped python 3.6", "when was that out"):
        before.append(turn(question, reading=read(question, before).text))
    assert read("and which one added 3.12", before).text == "Which charset-normalizer release added Python 3.12"
    # a plural kind is picked from: "which of the ports"
    assert read("which one is fastest?", [turn("Which ports does the Heron S1 have?")]).text.startswith(
        "Which of the ports is fastest")


def test_the_reply_to_what_that_one_means_takes_its_place() -> None:
    npm = [turn("in the npm update docs, if dep1 is ^0.2.0 what gets installed"),
           turn("and ^0.4.0?", reading="In the npm update docs, if dep1 is ^0.4.0 what gets installed")]
    assert read("why that one", npm, antecedent="dep1@0.4.1").text == "Why dep1@0.4.1"
    pyenv = [turn("how do i unset the pyenv local version"), turn("whats the old file name it still reads")]
    assert read("which one wins if both are there", pyenv,
                antecedent=".pyenv-version and .python-version").text.startswith(
        "Which one wins if .pyenv-version and .python-version are there")


def test_what_the_user_does_something_to_is_the_object_after_the_verb() -> None:
    # conversations tune cv-206: "it" after "when should i turn on packrat" was read as "turn"
    packrat = [turn("when should i turn on packrat in pyparsing")]
    assert read("how do i turn it on", packrat).text == "How do i turn packrat on"
    assert read("can i use it with left recursion", packrat).text == "Can i use packrat with left recursion"
    # an adverb typed after the object is not part of it (cv-207: "who wrote wget originally")
    assert read("does it need perl", [turn("who wrote wget originally")]).text == "Does wget need perl"
    # nor one typed between the subject and its verb (cv-275: "what does npm unpublish actually delete"; cv-241:
    # "can chronyd just set the clock once")
    assert read("which package does it go for", [turn("what does npm unpublish actually delete")]).text == (
        "Which package does npm unpublish go for")
    assert read("does it need root", [turn("can chronyd just set the clock once and quit")]).text == (
        "Does chronyd need root")


def test_a_yes_no_question_s_subject_ends_before_its_verb_or_its_adjective() -> None:
    # cv-189: "does cjpeg -optimize make the jpegs smaller" is about cjpeg -optimize, not "cjpeg -optimize make the
    # jpegs"; cv-199: "is the dpkg Protected field spec final" is about the spec, not "the … spec final"
    assert topic("does cjpeg -optimize make the jpegs smaller") == "cjpeg -optimize"
    assert topic("does a node server keep an idle socket") == "the node server"
    assert topic("is the dpkg Protected field spec final") == "the dpkg Protected field spec"
    assert topic("Is the Heron S1 waterproof?") == "the Heron S1"
    # a "they" that does something is whoever "they" are, not its object (cv-147)
    assert topic("do they take merge requests too") is None


def test_he_or_him_is_the_one_person_the_thread_named() -> None:
    # conversations tune cv-207: "do i send bug reports to him" was read alone and answered from lsof's docs
    wget = [turn("who wrote wget originally",
                 answer="Wget was originally written and mainained by Hrvoje Niksic [w#4].")]
    reading = read("do i send bug reports to him", wget)
    assert (reading.text, reading.rule) == ("Do i send bug reports to Hrvoje Niksic", "pronoun")
    # "it" is never that person: the thread's thing before him
    after = [*wget, turn("do i send bug reports to him", reading=reading.text)]
    assert read("does it need perl", after).text == "Does wget need perl"
    # no one named: asked back, not read alone
    lsof = [turn("how do i join the lsof mailing list", answer="Send e-mail to lsof-l-request [l#2].")]
    assert (read("is he still maintaining lsof", lsof).rule, read("is he still maintaining lsof", lsof).unclear) == (
        "unclear", "he")
    # a "he" the question's own people word introduced stays
    assert read("if an employee leaves, does he keep his laptop?", wget).rule != "unclear"


def test_that_release_after_which_version_is_the_version_that_did_it() -> None:
    # cv-191: "when was that release out" after "which libffi version added risc-v": the release its answer gave
    libffi = [turn("which libffi version added risc-v", answer="3.3 Nov-23-2019 Add RISC-V support [l#11].")]
    assert read("when was that release out", libffi).text == "When was libffi 3.3 out"
    # an answer that gives no release number: the release the question defined
    libffi = [turn("which libffi version added risc-v", answer="RISC-V support was added in a later one [l#11].")]
    assert read("when was that release out", libffi).text == "When was the libffi version that added risc-v out"


def test_a_question_naming_its_tool_does_not_carry_the_frame_s_flag() -> None:
    # cv-177: "whats the older syntax for that with pyenv install" after "does pyenv latest -k pick up prereleases"
    pyenv = [turn("what does pyenv latest -k do"),
             turn("does it pick up prereleases", reading="Does pyenv latest -k pick up prereleases")]
    assert read("whats the older syntax for that with pyenv install", pyenv).rule == "self-contained"



# --- libdocs' tune threads (stop 74) -------------------------------------------------------------------------------


def test_a_quoted_letter_takes_the_frames_quoted_letter() -> None:
    first = "In GnuPG's --with-colons key listings, what does the validity letter 'r' in field 2 mean?"  # cv-389
    assert read("and 'm'?", [Earlier(first, first)]).text == (
        "In GnuPG's --with-colons key listings, what does the validity letter 'm' in field 2 mean?")


def test_the_negated_ones_take_the_place_of_the_word_they_negate() -> None:
    first = "When no target release is set, what priority does APT assign to installed package versions?"  # cv-402
    assert read("and to uninstalled ones?", [Earlier(first, first)]).text == (
        "When no target release is set, what priority does APT assign to uninstalled package versions?")


def test_a_code_ones_take_the_place_of_the_frames_code_of_that_make() -> None:
    first = "Which uuid_utils function makes Version 5 UUIDs from the SHA1 hash of some data?"  # cv-396
    assert read("and the md5 one?", [Earlier(first, first)]).text == (
        "Which uuid_utils function makes Version 5 UUIDs from the MD5 hash of some data?")


def test_it_after_which_option_is_the_flag_the_answer_gave_first() -> None:
    first = "Which Node.js command-line option sets the file path pattern for trace event log files?"  # cv-392
    answer = ("The filepath pattern can be specified with --trace-event-file-pattern that accepts a template string "
              "that supports ${rotation} and ${pid}: node --trace-event-categories v8 --trace-event-file-pattern "
              "'${pid}-${rotation}.log' server.js [nodejs-tracing.html#8].")
    assert read("which placeholders can it use?", [Earlier(first, first, answer)]).text == (
        "Which placeholders can --trace-event-file-pattern use?")


def test_a_yes_no_question_s_subject_ends_at_a_tool_or_a_name_before_its_verb() -> None:
    # conversations tune cv-270: "does supervisord need root …" is about supervisord, not "supervisord need"
    assert topic("does supervisord need root to switch to the user set in [supervisord]") == "supervisord"
    assert topic("does eslint handle jsx out of the box") == "eslint"
    assert topic("does the Heron S1 cover accidental damage?") == "the Heron S1"
    assert topic("does the warranty cover water damage") == "the warranty"
    # "of" keeps the phrase whole: the verb list is no reason to cut "the cost of support"
    assert topic("does the cost of support cover travel") == "the cost of support"


def test_what_if_after_a_yes_no_question_asks_what_happens_to_its_subject() -> None:
    first = "does supervisord need root to switch to the user set in [supervisord]"  # conversations tune cv-270
    assert read("and what if it cant switch", [turn(first)]).text == "What happens if supervisord cant switch?"
    # "and if …" asks the same question under the condition (cv-136), as before
    timeout = "what exit code does timeout give if it finds the command but can't run it"
    assert read("and if the command doesnt exist", [turn(timeout)]).text == (
        "What exit code does timeout give if the command doesnt exist?")


def test_a_fragment_after_which_release_did_something_takes_the_place_of_what_it_did_it_to() -> None:
    # conversations tune cv-310 ("Which packing and unpacking in") and cv-257 ("Which the xor out thing")
    assert read("and packing and unpacking?", [turn("which einops version brought einsum in")]).text == (
        "Which einops version brought packing and unpacking in")
    assert read("and the xor out thing?", [turn("which crcmod release added python 3 support")]).text == (
        "Which crcmod release added the xor out thing")
    # a fragment naming a release or a version is not what the release acted on
    crcmod = [turn("which crcmod release added python 3 support")]
    assert read("and the release after?", crcmod).text != "Which crcmod release added the release after"
    assert read("and 1.8?", crcmod).text != "Which crcmod release added 1.8"


def test_an_it_that_stands_for_the_clause_after_it_points_at_nothing() -> None:
    # conversations check cv-220 (disclosed: a check case): "What does it mean when policy-rc.d returns 102?" is
    # self-contained; it was read as "What does (DynamicUser) mean when …"
    uids = [turn("which uid range does systemd hand out for DynamicUser"), turn("why those numbers")]
    reading = read("What does it mean when policy-rc.d returns 102?", uids)
    assert (reading.text, reading.rule) == ("What does it mean when policy-rc.d returns 102?", "self-contained")
    assert not points_back("is it safe to delete the cache when pip is running")
    # an "it" with an object after its verb, or alone, still points back
    assert points_back("what does it mean")
    assert points_back("does it take a config file")


def test_that_one_after_which_release_is_the_release_by_its_number() -> None:
    # conversations tune cv-257: "who did that one" was read "Who did crcmod 1.6 one" ("that" taken for the subject
    # of "one"), and "that one" then as "1.6 Enhancement Release", the words the answer wrapped the number in
    crcmod = [turn("which crcmod release added python 3 support"),
              turn("and the xor out thing?", reading="Which crcmod release added the xor out thing",
                   answer="1.6 Enhancement Release - Jan 24, 2010: * Added XOR out feature to allow creation of "
                          "standard CRC algorithms [crcmod-changelog.txt#1].")]
    assert read("who did that one", crcmod).text == "Who did crcmod 1.6"


def test_a_fragment_that_would_go_before_the_frame_s_question_is_asked_back() -> None:
    # conversations tune cv-262: "and to get rid of one?" was read "Get rid of one what does pg_createcluster …"
    debian = [turn("on debian what does pg_createcluster actually do")]
    reading = read("and to get rid of one?", debian)
    assert (reading.rule, reading.unclear) == ("unclear", "to get rid of one")
    # a swap inside the frame keeps its opening
    assert read("and on ubuntu?", debian).text == "On ubuntu what does pg_createcluster actually do"


def test_they_after_who_is_whom_the_answer_named_and_never_a_heading_in_capitals() -> None:
    # conversations tune cv-254: "where are they based" was read "Where are HISTORY based", a heading of the quote
    first = "who actually decides when a leap second gets added"
    heading = ("# # # HISTORY # The first leap second was added on June 30, 1972 "
               "[hypothesis-leap-seconds.txt#3].")
    reading = read("where are they based", [turn(first, answer=heading)])
    assert (reading.rule, reading.unclear) == ("unclear", "they")  # the answer named no one: asked back
    named = "The IERS decides; NOTE: see its bulletin [leap-seconds.txt#3]."
    assert read("where are they based", [turn(first, answer=named)]).text == "Where are the IERS based"


def test_and_to_do_something_else_keeps_the_tool_the_frame_named() -> None:
    # conversations tune cv-260: "and to load a file into a table?" lost bq and was answered from gcloud's notes
    tools = tool_names(["bq-README.txt", "gcloud-RELEASE_NOTES.md", "gsutil-README.md"])
    bq = [turn("how do i get help on one specific bq command")]
    assert read("and to load a file into a table?", bq, tools=tools).text == (
        "How do i load a file into a table with bq?")
    # a tool the frame had do the deed is kept where it was (cv-321)
    ctest = [turn("how do i make ctest stop at the first failing test")]
    assert read("and to only rerun the ones that failed last time?", ctest, tools=tool_names(["ctest.1.txt"])).text \
        == "How do i make ctest only rerun the ones that failed last time?"


def test_anything_in_it_reads_it_as_the_release_the_thread_is_about() -> None:
    # conversations tune cv-280: "anything in it for logging?" was put in the frame as typed and asked back for "it"
    answer = ("0.17.2 (May 23th, 2023): Add socket_options argument to ConnectionPool and HTTProxy classes. (#668) "
              "[httpcore-METADATA.md#23].")
    thread = [turn("which httpcore version added socket_options to ConnectionPool", answer=answer),
              turn("when was that out", reading="When was httpcore 0.17.2 out", answer=answer)]
    assert read("anything in it for logging?", thread).text == "Anything in httpcore 0.17.2 for logging?"
    assert topic("When was httpcore 0.17.2 out") == "httpcore 0.17.2"  # "out" is what it asks of it


def test_a_frame_that_sets_a_scene_before_its_question_keeps_it() -> None:
    # conversations check cv-215 had read "and copy?" as "Copy pcm what does route_policy average do"
    pcm = [turn("in an alsa plug pcm what does route_policy average do")]
    assert read("and copy?", pcm).text == "In an alsa plug pcm what does route_policy copy do"
    # a fragment in the scene's own place takes it (the frame's question stays)
    debian = [turn("on debian what does pg_createcluster actually do")]
    assert read("and on ubuntu?", debian).text == "On ubuntu what does pg_createcluster actually do"


def test_a_fragment_that_asks_a_question_of_its_own_is_no_ellipsis() -> None:
    # conversations tune cv-303: "and then what escapes the delimiter?" was read "Then what escapes the delimiter what
    # does --quoting 3 mean"
    reading = read("and then what escapes the delimiter?", [turn("in csvkit what does --quoting 3 mean")])
    assert reading.rule != "ellipsis"
    assert "mean" not in reading.text


def test_a_swap_that_leaves_an_article_after_what_or_which_is_asked_back() -> None:
    # conversations tune cv-351 ("What the type class does dig use …") and a csvkit thread ("Which the release after
    # support"): the fragment went between the question word and its noun
    for frame, fragment in (("what query class does dig use if i dont pass -c", "and the type?"),
                            ("which csvkit release added zstandard support", "and the release after?")):
        reading = read(fragment, [turn(frame)])
        assert reading.rule == "unclear", reading.text
    # "What's the …" is a question word and its verb, not one and an article
    assert read("And its capacity?", [turn("What's the Falcon X2's battery life?")]).rule == "ellipsis"


def test_a_subject_never_opens_with_a_conjunction() -> None:
    # conversations tune cv-310: "it" after "which einops version brought packing and unpacking in" was read as
    # "and unpacking"
    assert topic("Which einops version brought packing and unpacking in") is None


def test_a_reading_that_says_a_word_twice_in_a_row_is_asked_back() -> None:
    # conversations check cv-375 (disclosed: a check case): "which of those does it discourage?" was read "Which of
    # pip pip discourage?" and answered wrong; the user is asked what "those" means
    pip = [turn("which git url schemes does pip support",
                answer="pip supports git+https and git+ssh [pip-vcs.md#1].")]
    reading = read("which of those does it discourage?", pip)
    assert (reading.rule, reading.unclear) == ("unclear", "those")


def test_a_version_with_its_own_owner_is_not_given_the_frames() -> None:
    # conversations check cv-158 (disclosed: a check case): "which release dropped python 3.4" after a wadllib thread
    # was read "Which release dropped python Wadllib 3.4"; the release asked for is wadllib's, the version python's
    thread = [turn("which wadllib release added python 3 support"), turn("when was it out")]
    assert read("which release dropped python 3.4", thread).text == "Which wadllib release dropped python 3.4"
    # or the thread's versioned name ("Wadllib 1.3.6": the thread as it went in cv-158)
    thread = [turn("when did wadllib 1.3.6 come out"),
              turn("what replaced buildout in it", reading="What replaced buildout in Wadllib 1.3.6")]
    assert read("which release dropped python 3.4", thread).text == "Which Wadllib release dropped python 3.4"
    # a bare version still takes the frame's name (the rule's first case)
    git = [turn("Which fix went into Git 2.39.2?")]
    assert read("what did 2.39.1 merge?", git).text == "What did Git 2.39.1 merge?"


def test_a_question_that_names_whose_release_it_asks_for_carries_nothing() -> None:
    # conversations tune cv-212: "Which negotiator release first lazy-loaded modules …" (negotiator: an English word,
    # no workspace tool) was read "Which negotiator release of -n …" after a question on charset-normalizer's -n
    thread = [turn("what does -n do in charset-normalizer's cli")]
    question = "Which negotiator release first lazy-loaded modules from the main entry point?"
    assert read(question, thread).rule == "self-contained"
    # "which other editions" names no owner: the thread's thing is carried as before (cv-039)
    rust = [turn("Which Rust edition does cargo new use by default?")]
    assert read("Which other editions can I pick?", rust).text == "Which other editions of Rust can I pick?"


def test_them_after_a_verb_is_the_plural_thing_the_frame_asked_of_its_tool() -> None:
    # conversations tune cv-253: "so what are my options if i need them" kept "them" and was answered wrong
    mawk = [turn("can mawk's builtin regex engine do brace expressions like /a{,4}/")]
    assert read("so what are my options if i need them", mawk).text == \
        "What are my options if i need brace expressions"
    # "they" as people who do something stays as typed (cv-091), and "all of them" is no object of a verb
    claim = [turn("How do I make a warranty claim?")]
    assert read("where do they fix it", claim).text.startswith("Where do they fix")


def test_a_demonstrative_right_after_what_is_no_reading() -> None:
    # conversations tune cv-270: "and before that version?" was read "What that version if supervisord cant switch?"
    thread = [turn("does supervisord need root to switch to the user set in [supervisord]"),
              turn("and what if it cant switch", reading="What happens if supervisord cant switch?")]
    assert read("and before that version?", thread).rule == "unclear"


def test_it_asked_of_as_a_release_is_the_release_the_which_question_asked_for() -> None:
    # conversations tune cv-376: "when did it come out" after "which httpcore2 release …" was read as Trio's release
    httpcore = [turn("Which httpcore2 release started requiring Trio 0.34.0 or later for the trio extra?",
                     answer="Requires-Dist: trio<1.0,>=0.34.0; extra == 'trio' [httpcore2-METADATA.md#3].")]
    came_out = read("when did it come out", httpcore)
    assert came_out.text == ("When did the httpcore2 release that started requiring Trio 0.34.0 or later for the "
                             "trio extra come out")
    # and "what got fixed in it" after that is the same release (its "about")
    thread = [*httpcore, Earlier("when did it come out", came_out.text, "", came_out.about)]
    assert read("and what got fixed in it", thread).text == (
        "What got fixed in the httpcore2 release that started requiring Trio 0.34.0 or later for the trio extra")
    # by its number when the answer gave one (check cv-388's first turn, where this was right before)
    strace = [turn("Which strace release added the --secontext option for displaying SELinux contexts?",
                   answer="Noteworthy changes in release 5.12 (2021-04-26): * Implemented --secontext[=full] option "
                          "[strace-NEWS.txt#14].")]
    came_out = read("when did it come out", strace)
    assert came_out.text == "When did strace 5.12 come out"
    # "it" in a question asking for a release is not that release: the option asked about before
    thread = [*strace, Earlier("when did it come out", came_out.text, "", came_out.about)]
    assert read("which later release added a mismatch mode for it?", thread).text == \
        "Which later release added a mismatch mode for the --secontext option?"
    # "who contributed it?" asks of what the release added, not of the release
    assert "release" not in read("who contributed it?", strace).text.lower()
    # a release as the subject stays one (tune cv-318)
    benchmark = [turn("when did pytest-benchmark 4.0.0 come out"),
                 turn("what pythons did it drop", reading="What pythons did pytest-benchmark 4.0.0 drop")]
    assert read("and which pytest release did it add support for?", benchmark).text == \
        "Which pytest release did pytest-benchmark 4.0.0 add support for?"
    assert topic("When did strace 5.12 come out") == "strace 5.12"  # "come" ends the subject


def test_a_pick_then_a_question_reads_the_question_with_the_thing_picked() -> None:
    # conversations tune cv-236: "the limit one. with a few workers …" after "which one do you mean?" had re-read the
    # waiting question ("What happens if i set autovacuum_vacuum_cost_limit to -1 then") and answered it, wrong
    thread = [turn("what do autovacuum_vacuum_cost_delay and autovacuum_vacuum_cost_limit default to")]
    typed = "the limit one. with a few workers running does each get the whole limit"
    expected = "With a few workers running does each get the whole autovacuum_vacuum_cost_limit"
    assert read(typed, thread).text == expected
    assert read("what happens if i set it to -1 then", thread, antecedent=typed).text == expected  # as the reply
    # its pronoun takes the thing picked (cv-265); a thing no question named is said after the question (cv-252)
    pgbouncer = [turn("running pgbouncer on windows: how do i install it as a service, and how do i get it logging "
                      "to the event log")]
    assert read("the service one. what do i have to set in the config before registering it", pgbouncer).text == \
        "What do i have to set in the config before registering the service"
    gcc = [turn("what did gcc 12 deprecate on the debug format side, and for openmp offloading")]
    assert read("the stabs one. what do ports emit instead", gcc).text == "What do ports emit instead (stabs)?"
    # "each" after the question's own plural is its own, no pair from the thread
    assert read("with a few workers running does each get the whole limit", thread).rule != "unclear"


def test_its_after_the_tool_the_question_asks_of_is_the_tools_own() -> None:
    # conversations tune cv-420#3 (stop 80's first run): "its" was read as the status column of the turn before,
    # although the question's own subject, less, owns the history file
    thread = [turn("and the status column?", reading="What is the default width of the status column in less?")]
    typed = "Where does less keep its history file by default on Unix?"
    assert read(typed, thread, tools=frozenset({"less"})).text == typed
    # a tool the question only mentions does not own a later "its": "in less, what is its default?" still points back
    assert read("in less, what is its default?", thread, tools=frozenset({"less"})).dependent


def test_a_question_left_unread_gives_no_thing_to_point_back_to() -> None:
    # conversations tune cv-412#3 (stop 80's first run): "it" after "when did that come out?", which was asked back,
    # became "that come"; the thing is the question's before it
    thread = [turn("Which pyOpenSSL release added OpenSSL.SSL.Context.set_min_proto_version?"),
              turn("when did that come out?")]
    reading = read("and which python version did it stop supporting?", thread)
    assert "that come" not in reading.text and reading.about == "OpenSSL.SSL.Context.set_min_proto_version"


def test_the_one_that_asks_the_frames_which_again_with_its_own_clause() -> None:
    # conversations tune cv-464#3 (stop 83's first run): "and the one that lets you ignore a minor version conflict?"
    # was read alone, and matched nothing; it asks the frame's "which control command" of the new clause
    engine = [turn("Which control command of OpenSSL's dynamic ENGINE identifies the shared library that contains "
                   "the ENGINE implementation?")]
    assert read("and the one that lets you ignore a minor version conflict?", engine).text == \
        "Which control command of OpenSSL's dynamic ENGINE lets you ignore a minor version conflict?"
    # the frame's scene stays, and a word like a verb right after "which" is its noun's modifier
    gyp = [turn("In GYP, which predefined variable holds the file extension of a rule's input file?")]
    assert read("and the one that holds just the base name?", gyp).text == \
        "In GYP, which predefined variable holds just the base name?"
    # a name the frame's own clause held is kept as the scope
    uids = [turn("which uid range does systemd hand out for DynamicUser")]
    assert read("and the one that is reserved for containers?", uids).text == \
        "Which uid range is reserved for containers (DynamicUser)?"
    # a frame that asks no "which N" gives no head: "the one that …" is not read as one
    assert read("and the one that lets you skip it?", [turn("What is the default of file's -P bytes limit?")]).rule \
        != "ellipsis"


def test_then_after_a_question_on_two_cases_is_asked_back_with_both() -> None:
    # conversations tune cv-187#2: read as self-contained, "then" was answered for code 105 at 0.81 (the thread meant
    # either); after a question on one case it is left as typed
    two = [turn("what do exit codes 101 and 105 from policy-rc.d mean")]
    reading = read("does invoke-rc.d still run the action then", two)
    assert (reading.rule, reading.unclear, reading.candidates) == ("unclear", "then", ("101", "105"))
    chosen = read("does invoke-rc.d still run the action then", two, antecedent="105")
    assert (chosen.rule, chosen.text) == ("chosen", "Does invoke-rc.d still run the action for 105?")
    one = [turn("what does exit code 101 from policy-rc.d mean")]
    assert read("does invoke-rc.d still run the action then", one).rule == "self-contained"


def test_both_as_the_object_before_a_particle_is_the_two_the_thread_asked_of() -> None:
    # conversations tune cv-454: "how do i switch both off?" after lz4's block and frame checksums was read as typed
    # plus the tool ("How do i switch both off for lz4?") and answered from --list's entry
    lz4 = [turn("What is lz4's default for block checksums?")]
    lz4.append(turn("and for the frame checksum?", reading=read("and for the frame checksum?", lz4).text))
    found = read("how do i switch both off?", lz4)
    assert found.rule == "pronoun"
    assert "block checksums" in found.text and "frame checksum" in found.text and "both" not in found.text


def test_an_adverb_after_a_copular_questions_subject_ends_it() -> None:
    # rackdocs threads, tune cv-504: "it" after "Which version of the TOML spec is tomli fully compatible with?" was
    # read as "tomli fully compatible" ("How much faster is tomli fully compatible than the toml package?")
    assert topic("Which version of the TOML spec is tomli fully compatible with?") == "tomli"
    assert topic("Is zstd actually faster than gzip?") == "zstd"
    # an adjective in -ly inside the subject is its own ("the monthly churn", "the nightly build")
    assert topic("What was the Q3 monthly churn?") == "the Q3 monthly churn"
    tomli = [turn("Which version of the TOML spec is tomli fully compatible with?",
                  "Tomli is fully compatible with TOML v1.0.0 [tomli-METADATA.md#4].")]
    assert read("how much faster is it than the toml package?", tomli).text == (
        "How much faster is tomli than the toml package?")


def test_support_for_a_thing_is_about_the_thing() -> None:
    # binutils threads, tune cv-478#2: "what's the option for it?" after "Which ld release added support for zstd
    # compressed debug sections?" was read as "What's the option for support?" and answered with another option
    assert topic("Which ld release added support for zstd compressed debug sections?") == (
        "zstd compressed debug sections")
    ld = [turn("Which ld release added support for zstd compressed debug sections?",
               "Changes in 2.40: * ld now supports zstd compressed debug sections [binutils-ld-NEWS.txt#2].")]
    assert read("what's the option for it?", ld).text == "What's the option for zstd compressed debug sections?"
    # a support that is no "support for …" stays the phrase it was
    assert topic("which crcmod release added python 3 support") == "python 3 support"


def test_a_word_marked_by_a_sign_takes_the_place_of_the_frames_word_with_that_sign() -> None:
    # npm query threads, tune cv-488#2: "and :invalid?" after a question on the :missing pseudo selector was left
    # unread (asked back): the colon is no part of the words the swaps compare
    query = [turn("In npm query, what does the :missing pseudo selector match?")]
    assert read("and :invalid?", query).text == "In npm query, what does the :invalid pseudo selector match?"
    # a frame with two words of that sign does not say which one gives way
    two = [turn("In npm query, does :missing match what :extraneous matches?")]
    assert read("and :invalid?", two).rule == "unclear"


def test_the_one_with_a_phrase_asks_the_frames_which_n_again() -> None:
    # GYP threads, tune cv-416#2: "and the one with just the base name?" after "In GYP, which predefined variable
    # holds the file extension of a rule's input file?" was carried as "The one with just the base name of GYP?"
    gyp = [turn("In GYP, which predefined variable holds the file extension of a rule's input file?")]
    assert read("and the one with just the base name?", gyp).text == (
        "In GYP, which predefined variable with just the base name?")
    # "the one that …" still gives way to the frame's N
    lock = [turn("In package-lock.json, which field says a package has a preinstall, install or postinstall script?")]
    assert read("and the one that marks a bundled dependency?", lock).text == (
        "In package-lock.json, which field marks a bundled dependency?")


def test_a_fragment_put_after_a_possessive_drops_its_article() -> None:
    # yarddocs threads, tune cv-529#2: "and the offset?" after "What does fstrim's --minimum option default to?" was
    # read as "What does fstrim's the offset default to?", and the next turn's "it" as "fstrim's"
    fstrim = [turn("What does fstrim's --minimum option default to?")]
    assert read("and the offset?", fstrim).text == "What does fstrim's offset default to?"
    # "what's the …" is no possessive
    budget = [turn("What's the marketing budget for FY2026?")]
    assert read("and travel?", budget).text == "What's the travel budget for FY2026?"
