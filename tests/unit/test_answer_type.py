"""Answer-type detection and the question terms relevance and the critic measure against."""

from __future__ import annotations

import pytest

from masis.judge.answer_type import answer_noun, as_said, expected_type, gives_type, of_the_document_only
from masis.judge.terms import implied_words, question_terms, terms


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("When did the plant open?", "date"),
        ("In what year was the company founded?", "date"),
        ("Which century saw the first mill?", "date"),
        ("How many staff work in Lyon?", "number"),
        ("How much did the Falcon project cost?", "number"),
        ("What percentage of revenue is recurring?", "number"),
        # the head of a compound names the kind (nextdocs tune nd-012)
        ("What is the maximum decompressed WebSocket message size before undici throws?", "number"),
        ("What is the largest city in Poland?", None),
        ("Who approved the AI investment?", "person"),
        ("What commit message does git subtree merge use when -m is not given?", "default"),  # an option left out
        ("how many connections will npm open at most if i don't touch the config?", "default"),
        ("What load average does make -l use when you give it no number?", "default"),  # tooldocs tune tl-046
        # a runtime's bound is its version (tooldocs threads, cv-323#1), "whats" as chat types "what's"
        ("what's the minimum python for hypothesis and for pytest", "version"),
        ("whats the oldest rust that rustfmt runs on", "version"),
        ("whats the default seed in python-xxhash", "default"),
        ("my graphviz boxes come out tiny, what's the minimum node width dot uses if i don't set one?", "default"),
        ("When is the bonus not paid?", "date"),
        ("Which environment variable sets GNU time's format when no -f is given?", "identifier"),  # rd-080
        ("Whose signature is on the contract?", "person"),
        ("Where is the new plant?", "place"),
        ("What is our AI investment strategy?", None),
        ("Which company bought the plant?", None),
        ("What did the board decide?", None),
        ("Summarise the Q3 report.", None),
    ],
)
def test_the_wh_phrase_decides_the_expected_type(question: str, kind: str | None) -> None:
    assert expected_type(question) == kind


@pytest.mark.parametrize(
    ("sentence", "question", "gives"),
    [
        ("The plant opened in March 2019.", "When did the plant open?", True),
        ("The plant opened after a long delay.", "When did the plant open?", False),
        ("It was built in the 19th century.", "When was it built?", True),
        ("The cafeteria opens at half past seven.", "When does the cafeteria open?", True),  # a time of day
        ("The gates open at 7:30 every day.", "When do the gates open?", True),
        ("The fee rose to 4.25 euros.", "When did the fee rise?", False),
        ("Refunds are issued within thirty days.", "When are refunds issued?", True),  # a span of time
        ("About 240 people work there.", "How many staff work in Lyon?", True),
        ("Twelve engineers joined.", "How many engineers joined?", True),
        ("The outcome of a division is known in seconds.", "How long does a division take?", True),  # a unit of time
        ("It rained for days.", "How many people came?", False),  # only "how long" is answered by a unit
        ("In 2020 the Lyon plant grew.", "How many staff worked in Lyon in 2020?", False),  # only the asked year
        ("The investment was approved by Maria Lopez.", "Who approved the investment?", True),
        ("The board approved the investment.", "Who approved the investment?", True),  # a role answers "who"
        ("Any reallocation needs sign-off from the chief financial officer.", "Who signs off a reallocation?", True),
        ("A small group of customers will run the beta.", "Who will run the beta?", True),
        ("The investment was approved last week.", "Who approved the investment?", False),
        ("Requests above the team allowance need approval.", "Who approves requests?", False),  # "team" modifies
        ("For any other return the customer pays a flat $25.", "Who pays return shipping?", True),
        ("The Falcon team leads the launch.", "Which team leads Falcon?", False),  # not typed: "which team"
        ("Falcon is led by the Falcon project.", "Who leads Falcon?", False),  # a name the question already has
        ("The launch is led by the Falcon team.", "Who leads the Falcon team?", False),  # a role it already has
        ("add activate hooks by @joshfrench in #452", "Who contributed the activate hooks?", True),  # a handle
        ("install @types/node for the typings", "Who contributed the typings?", False),  # a package scope
        ("The new plant is in Lyon.", "Where is the new plant?", True),
        ("Anything at all.", "What is the strategy?", False),
    ],
)
def test_a_sentence_gives_the_type_only_with_something_new(sentence: str, question: str, gives: bool) -> None:
    assert gives_type(sentence, expected_type(question), question) is gives


def test_the_answer_noun_is_the_kind_of_thing_asked_for() -> None:
    assert answer_noun("What city hosted the summit?") == "city"
    assert answer_noun("What is the name of the CEO?") == "name"
    assert answer_noun("What Denver player scored?") is None  # a proper noun is what the question is about
    assert answer_noun("What did the board decide?") is None
    assert answer_noun("Who approved it?") is None


def test_the_answer_noun_of_a_compound_is_its_head() -> None:
    # teamdocs tune td-014: "backport" is what the label is of; the answer is a label
    assert answer_noun("Which backport label means a PR is blocked by pending backports?") == "label"
    assert answer_noun("Which gzip option sets the number of threads?") == "option"
    assert answer_noun("Which npm version introduced the 24-hour wait?") == "version"
    assert question_terms("Which gzip option sets the number of threads?") >= terms("gzip")
    assert answer_noun("What city hosted the summit?") == "city"  # no compound


def test_question_terms_leave_out_framing_words_and_the_answer_noun() -> None:
    assert question_terms("What city could the summit be located in?") == terms("summit")
    assert question_terms("What is the name of the CEO?") == terms("CEO")
    assert question_terms("Where did the summit happen?") == terms("summit")


def test_a_question_that_is_only_its_answer_noun_keeps_it() -> None:
    assert question_terms("Which budget?") == terms("budget")


def test_of_a_compound_the_noun_naming_a_kind_of_answer_is_the_answer_noun() -> None:
    # "wedding" is what the question is about: a passage about a launch date does not answer it
    assert answer_noun("What was the wedding date?") == "date"
    assert expected_type("What was the wedding date?") == "date"
    assert question_terms("What was the wedding date?") == terms("wedding")
    assert answer_noun("What river separates Jacksonville?") == "river"  # a verb follows: no compound


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("Since which util-linux version is hwclock --debug deprecated?", "version"),
        ("Which version of make fixes the assertion failure?", "version"),
        ("Which environment variable sets GNU time's format?", "identifier"),
        # frontdocs threads, cv-330#1: "env var" as chat writes it, answered with no variable at 0.85
        ("which env var makes dotenv load some other file instead of .env", "identifier"),
        ("Which libffi function must be used for variadic functions?", "identifier"),
        ("Which perf record option skips collecting build-ids?", "flag"),
        ("Which uid did the operator user have on Debian?", "number"),
        ("Which security issues does Git 2.39.2 address?", None),
        # a configuration's key or a path is asked by its noun (opsdocs tune od-022, tooldocs tune tl-032, teamdocs
        # tune td-116); a PGP or SSH key is no setting
        ("Which Defaults setting lets sudo run commands as an unknown user ID?", "key"),
        ("Which pyproject.toml key points pip to the directory of an in-tree build backend?", "key"),
        ("On which path does the Bolt example app receive Slack events?", "path"),
        ("Which PGP key should security reports be encrypted with?", None),
        # a setting of a named variable is one of its values (realdocs tune rd-211: "FORCE_COLOR = 2")
        ("Which FORCE_COLOR setting makes a Node.js tty WriteStream report 256-color support?", None),
    ],
)
def test_a_technical_noun_at_the_head_of_the_which_phrase_decides(question: str, kind: str | None) -> None:
    assert expected_type(question) == kind


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        # datadocs tune dd-060: typed "default" by its "when no … is given", so "it does not read PGDATABASE when a
        # database name is not supplied" was asked back for giving no default
        ("Does pg_restore read PGDATABASE when no database name is given?", None),
        ("Does curl retry when the server returns 503?", None),
        ("Is the cache cleared when the process restarts?", None),
        ("Do you know when the plant opened?", "date"),
        ("Which encoding does open() use when no encoding argument is given?", "default"),
    ],
)
def test_a_yes_no_question_is_not_typed_by_its_when_clause(question: str, kind: str | None) -> None:
    assert expected_type(question) == kind


DEPRECATED = "Since which version is hwclock --debug deprecated?"
TIME_FORMAT = "Which environment variable sets GNU time's format?"


@pytest.mark.parametrize(
    ("sentence", "question", "gives"),
    [
        ("what: hwclock --debug why: renamed to --verbose since: v2.32", DEPRECATED, True),
        ("hwclock --debug is deprecated in favour of --verbose.", DEPRECATED, False),
        ("If the TIME environment variable is set, its value is the format.", TIME_FORMAT, True),
        ("The format is read from the environment.", TIME_FORMAT, False),
        ("Use perf record -B to skip build-ids.", "Which perf record option skips build-ids?", True),
        ("The perf record command samples events.", "Which perf record option skips build-ids?", False),
        # a choice marked as the default where it is listed (tooldocs tune tl-039)
        ("Truncate tail (default), middle or head of test output.", "What is the default truncation mode?", True),
        ("Set the truncation mode (default) per test.", "What is the default truncation mode?", False),  # its own word
        ("Output a plain-text SQL script file (the default).",  # datadocs tune dd-054, a near miss: no choice listed
         "Which compression level does pg_dump use by default for the custom format?", False),
        # a package's "Requires-Python" pins Python, not another package
        ("Requires-Python: >=3.10", "whats the minimum python for hypothesis", True),
        ("Unfortunately this sets the minimum supported pytest version to 8.1.",
         "whats the minimum python for hypothesis", False),
        # what happens without the option the question leaves out (tooldocs tune tl-042), not without another
        ("If no -f option is present, make will look for the makefiles GNUmakefile, makefile, and Makefile.",
         "In which order does GNU make look for makefiles when no -f option is given?", True),
        ("If no -C option is present, make stays in the directory where it started.",
         "In which order does GNU make look for makefiles when no -f option is given?", False),
        # a key as a configuration writes it (tooldocs tune tl-032, opsdocs tune od-022), not prose about the file
        ("backend-path: a list of directories to prepend to sys.path when loading the backend.",
         "Which pyproject.toml key points pip to the directory of an in-tree build backend?", True),
        ("If not, pip will look at pyproject.toml and decide which program to use to build from source.",
         "Which pyproject.toml key points pip to the directory of an in-tree build backend?", False),
        ("Set Defaults allow_unknown_runas_id to restore the old behavior.",
         "Which Defaults setting lets sudo run commands as an unknown user ID?", True),
        ("sudo no longer allows an unknown user ID by default.",
         "Which Defaults setting lets sudo run commands as an unknown user ID?", False),
        # a directive named in capitalised words, as Bacula's manuals write them (servicedocs tune sv-112)
        ("In that case, you can use the Heartbeat Interval directive in both daemons.",
         "Which directive does the Bacula guide recommend when a router times out inactive lines?", True),
        ("The directive must be set in the Storage daemon.",
         "Which directive does the Bacula guide recommend when a router times out inactive lines?", False),
        # a FAQ entry's number opening the quote numbers the entry (realdocs tune rd-140), a release does not
        ("2.1. When building Valgrind, 'make' dies partway with an assertion failure.",
         "Which version of make fixes the assertion failure when building Valgrind?", False),
        ("2.2. | When building Valgrind, 'make' fails with this: cannot find -lc",
         "Which version of make fixes the assertion failure when building Valgrind?", False),
        ("GNU make 4.3 fixes the assertion failure.",
         "Which version of make fixes the assertion failure when building Valgrind?", True),
        # a path has a slash (teamdocs tune td-116); code around it is no path
        ("The app listens for events at /slack/events by default.",
         "On which path does the Bolt example app receive Slack events?", True),
        ("from slack_bolt import App app = App()", "On which path does the Bolt example app receive Slack events?",
         False),
    ],
)
def test_a_technical_answer_gives_an_instance_the_question_does_not(sentence: str, question: str, gives: bool) -> None:
    assert gives_type(sentence, expected_type(question), question) is gives


@pytest.mark.parametrize(
    ("sentence", "question", "gives"),
    [
        # real case (realdocs rd-025): "API" in the Buffer() deprecation's text was read as the code asked for
        (
            "The Buffer() function and new Buffer() constructor are deprecated due to API usability issues.",
            "Which deprecation code covers the Buffer() constructor?",
            False,
        ),
        ("DEP0005: Buffer() constructor", "Which deprecation code covers the Buffer() constructor?", True),
        ("Thrown as ERR_SOCKET_BAD_PORT when the port is out of range.", "Which error code is thrown?", True),
        ("Node.js exits with status code 9 on an invalid argument.", "Which exit code does Node.js use?", True),
        # real case (SQuAD 2.0, unanswerable): a year is when, not how many
        (
            "In 1564 a group of Norman Huguenots established the small colony of Fort Caroline.",
            "How many Huguenots were there in Fort Caroline?",
            False,
        ),
        ("Nearly 3,000 Protestants were slaughtered in Toulouse alone.", "How many Huguenots were slain?", True),
        ("The plant opened in 1998.", "When did the plant open?", True),
    ],
)
def test_a_code_is_not_an_acronym_and_a_year_is_not_a_count(sentence: str, question: str, gives: bool) -> None:
    assert gives_type(sentence, expected_type(question), question) is gives


@pytest.mark.parametrize(
    ("sentence", "question", "gives"),
    [
        # real case (conversations tune): the weight is asked, the price was quoted
        ("The Falcon X2 costs $1,249 with 128 GB of storage.", "How heavy is the Falcon X2?", False),
        ("| Weight | 1.1 kg |", "How heavy is the Falcon X2?", True),
        ("The Heron S1 has a 6-inch display and weighs 320 g.", "How heavy is the Heron S1?", True),
        ("The spire was completed in 1890.", "How tall is the spire?", False),
        ("The spire is 161 metres tall.", "How tall is the spire?", True),
        ("The depot is three miles from the port.", "How far is the depot from the port?", True),
        # "how many" counts things: an amount of money or a share is not a count (a real case on the sample budget)
        ("Sales | $9.4 million | 25%", "How many employees does Sales have?", False),
        ("Sales,41,4", "How many employees does Sales have?", True),
        ("Monthly churn was 2.1%.", "How many customers left?", False),
        ("The overrun was about $5 million.", "How many dollars did the overrun cost?", True),
        ("The Falcon X2 costs $1,249.", "How much does the Falcon X2 cost?", True),
        # a price asked for is an amount of money: a kettle's guide with no price holds litres and minutes
        ("The K2 kettle holds 1.7 litres of water and boils a full load in about four minutes.",
         "How much does the K2 kettle cost?", False),
        ("The K2 costs 49 euros.", "What is the price of the K2 kettle?", True),
        ("The refit will cost £1.2 million.", "How much will the refit cost?", True),
        # nor are the last digits of a name's figures: "FY2026" holds no count "026" (conversations tune cv-096#2)
        ("The total operating budget for FY2026 is $38 million.",
         "How many employees does Kestrel's total operating budget pay for in FY2026?", False),
        ("The budget funds 240 full-time employees in FY2026.",
         "How many employees does Kestrel's total operating budget pay for in FY2026?", True),
        # the figures of a name are not a value (realdocs tune, a near miss: the manual never gives the value)
        ("ASN1_MAX_NAME_SIZE is the maximum number of characters allowed for an ASN.1 identifier",
         "What is the numeric value of ASN1_MAX_NAME_SIZE in libtasn1?", False),
        ("ASN1_MAX_NAME_SIZE is 64.", "What is the numeric value of ASN1_MAX_NAME_SIZE in libtasn1?", True),
        ("• (asn1 decode simple der), page 22, • (asn1 encode simple der), page 16",
         "What is the numeric value of ASN1_MAX_NAME_SIZE in libtasn1?", False),
        # a share is a part of a whole: the whole is not one (conversations tune, answered at confidence 1.0)
        ("The total operating budget for FY2026 is $38 million.",
         "What share of the FY2026 operating budget goes to Operations?", False),
        ("Operations | $7.2 million | 19%", "What share of the FY2026 operating budget goes to Operations?", True),
        ("About a third of the budget goes to Operations.", "What share of the budget goes to Operations?", True),
        ("One in five staff work remotely.", "What percentage of staff work remotely?", True),
        ("--threshold=<0--100> [default: 99%]", "at what percentage does callgrind_annotate stop printing", True),
        ("The threshold is 99.", "at what percentage does callgrind_annotate stop printing", False),
    ],
)
def test_a_measure_is_answered_by_a_figure_in_its_units(sentence: str, question: str, gives: bool) -> None:
    assert gives_type(sentence, expected_type(question), question) is gives


def test_a_who_question_names_the_action_its_name_must_come_with() -> None:
    from masis.judge.answer_type import asked_action

    assert asked_action("Who approved the AI investment for FY2026?") == "approved"
    assert asked_action("Who never captured Fort Beausejour?") == "captured"
    assert asked_action("Who is the CEO of Nordlys?") is None  # the noun says what is asked
    assert asked_action("When was the budget approved?") is None


@pytest.mark.parametrize(
    ("sentence", "gives"),
    [
        ("Default: null", True),
        ("--depth=<number> [default: 30]", True),
        ("By default port 8000 is used and a web browser will be opened.", True),
        ('The default progress status is "[%f/%t] " (note the trailing space).', True),
        ("The default value, if not specified, is 16 for non-incremental builds.", True),
        ("Sets the block size to 100,000 bytes through 900,000 bytes (the default) respectively.", True),
        ('If "binary-targets", debian/rules binary must run under (fake)root. This is the default/status quo.', True),
        ("Default AES key size, 32.", True),  # a reference's entry line (Nettle's manual)
        ("Default values, see below.", False),
        # names a default thing, gives no default value
        ('When "true" submit audit reports alongside the current npm command to the default registry.', False),
        ("false: causes a new Agent with default values to be used.", False),
        # the question's own file is no value (opsdocs check od-110)
        ("Some drivers need more time to update than the default value of MAXAGE (in upsd.conf) allows.", False),
        ("The default value of MAXAGE is 15.", True),
    ],
)
def test_a_sentence_gives_a_default_only_when_it_says_what_the_default_is(sentence: str, gives: bool) -> None:
    question = ("What is the default value of MAXAGE in upsd.conf?" if "MAXAGE" in sentence
                else "What is the default audit-level in npm config?")
    assert gives_type(sentence, "default", question) is gives


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("What default compression level does Borg use for zstd?", "default"),
        ("Which default timeout does the client use?", "default"),
        # a default thing, not a default value
        ("Which default network does Docker attach containers to?", None),
        # whether a setting has a default asks for it (kitdocs tune thread cv-448#3: answered, wrong, with an example
        # command that sets max_bandwidth for the profile named "default")
        ("does max_bandwidth have a default too?", "default"),
        ("Is there a default for max_bandwidth?", "default"),
        ("Is there a default branch?", None),
        ("Does max_bandwidth limit uploads?", None),
    ],
)
def test_what_default_value_asks_for_a_default(question: str, kind: str | None) -> None:
    assert expected_type(question) == kind


@pytest.mark.parametrize(
    ("question", "kind", "noun"),
    [
        # real case (realdocs tune rd-206): the question proper follows the clause that sets the scene
        ("When installing from bitbucket:user/repo without a #commit-ish, which branch does npm install use?", None,
         "branch"),
        ("If I pass --json, how many lines does npm audit print?", "number", None),
        ("Where the lock file is missing, which command fails?", None, "command"),
        # a question that opens with its wh-word is read as written, relative clause and all
        ("When did the war, which lasted ten years, end?", "date", None),
        ("Where is the Falcon X2 assembled, and by whom?", "place", None),
    ],
)
def test_a_leading_clause_does_not_say_what_kind_of_answer_is_asked(question: str, kind: str | None,
                                                                    noun: str | None) -> None:
    from masis.judge.answer_type import answer_noun

    assert expected_type(question) == kind
    assert answer_noun(question) == noun


@pytest.mark.parametrize(
    ("sentence", "gives"),
    [
        # real case (fresh tune fd-056): maxBuffer's size is no exit code
        ("timeout {number} Default: 0 maxBuffer {number} Largest amount of data in bytes allowed on stdout.", False),
        ("The process exits with code 1 when the buffer overflows.", True),
        ("6: Error in one of the documents", True),
        ("9 Invalid Argument: Either an unknown option was specified.", True),  # realdocs tune rd-012
        ("It fails with ERR_CHILD_PROCESS_STDIO_MAXBUFFER.", True),
    ],
)
def test_a_figure_answers_a_code_question_only_as_a_code(sentence: str, gives: bool) -> None:
    question = "What exit code does a child process get when exec()'s maxBuffer is exceeded?"
    assert gives_type(sentence, expected_type(question), question) is gives


def test_a_sections_number_before_its_title_is_no_value() -> None:
    # real case (realdocs tune rd-134): a line of libtasn1's contents, "2.4 Library Notes", gave the value asked for
    question = "What is the numeric value of ASN1_MAX_NAME_SIZE in libtasn1?"
    assert not gives_type("• [asn1 encode simple der], page 16, 2.4 Library Notes", "number", question)
    assert gives_type("ASN1_MAX_NAME_SIZE is 64 in this release.", "number", question)


def test_a_signal_question_is_answered_by_a_signals_name() -> None:
    # real cases (realdocs tune rd-213, fresh tune fd-039): a quote about the signal option names no signal
    question = "if i call kill() on a node child process without passing anything, which signal does it get??"
    assert expected_type(question) == "code"
    assert gives_type("If no argument is given, the process will be sent the 'SIGTERM' signal.", "code", question)
    assert not gives_type("If the signal option is enabled, calling .abort() is similar to calling .kill().", "code",
                          question)


def test_a_signals_name_answers_for_a_signal_not_for_an_exit_code() -> None:
    # real case (fresh tune fd-056): killSignal's "Default: 'SIGTERM'" is no exit code
    question = "What exit code does a child process get when exec()'s maxBuffer is exceeded?"
    assert not gives_type("killSignal {string|integer} Default: 'SIGTERM'", "code", question)


@pytest.mark.parametrize(
    ("sentence", "gives"),
    [
        # moredocs tune md-025: the modal "may" was read as the month, and a date question answered at 0.85
        ('In CommonJS, Underscore may now be required with just: var _ = require("underscore")', False),
        ("It may ship soon.", False),
        ("Pre-orders open on 9 May 2027.", True),
        ("It shipped in May.", True),
        ("May 2027 is the launch.", True),
    ],
)
def test_may_is_a_month_only_beside_a_day_a_year_or_a_preposition_of_time(sentence: str, gives: bool) -> None:
    assert gives_type(sentence, "date", "When did Underscore first come out?") is gives


def test_whats_is_what_is() -> None:
    # moredocs tune md-028: "what's the default wait …" had no type, and a sentence about `_.defaults` answered it
    assert expected_type("what's the default wait for _.debounce if i don't pass one?") == "default"
    assert expected_type("who's the CEO of Nordlys?") == "person"


def test_when_with_a_modal_asks_for_a_condition_not_a_date() -> None:
    # SQuAD dev, Chloroplast: "Under conditions such as high atmospheric CO2 concentrations, these starch grains may
    # grow very large" answers it; the modal "may" once passed for its date
    assert expected_type("When might starch grains become overly large?") is None
    assert expected_type("When will the Falcon X2 launch?") == "date"


def test_how_often_asks_for_a_rate_not_any_figure() -> None:
    # policydocs tune pd-075: a version number answered "How often does Requests ship a minor release?" at 0.67
    question = "How often does Requests ship a minor release?"
    assert expected_type(question) == "number"
    assert not gives_type("If the previous version was v10.2.7 a minor release would be v10.3.0.", "number", question)
    assert gives_type("We ship a minor release every six weeks.", "number", question)
    assert gives_type("Minor releases ship twice a year.", "number", question)
    # SQuAD's rates are words as often as figures: "biennial", "half-hourly", "rarely"
    assert gives_type("The AV Festival is biennial.", "number", "How often is the AV Festival held?")
    assert expected_type("How frequently are backups taken?") == "number"


@pytest.mark.parametrize(
    ("sentence", "question", "gives"),
    [
        # configdocs cd-025: a requirement's version is that package's, not a pip release
        ("$ pip download sampleproject==1.0.0 --no-binary :all:",
         "Since which pip version is `pip cache dir` available?", False),
        ("$ pip install sampleproject-1.0.0.tar.gz", "Since which pip version is `pip cache dir` available?", False),
        ("FooProject >= 1.2 --global-option", "In which pip release will --global-option stop working?", False),
        ("pip cache dir was added in pip 20.1", "Since which pip version is `pip cache dir` available?", True),
        # the name the version is pinned to is the one asked about
        ("pip requires Python >= 3.8", "Which Python version does pip require?", True),
        ("OpenSSL-1.1.1 requires gas 2.26", "Which OpenSSL version does Node.js bundle?", True),
        # webdocs tune wd-031, a near miss answered: a protocol's version is no release of the thing asked about
        ("Uvicorn currently supports HTTP/1.1, HTTP/2 and WebSockets",
         "In which uvicorn release did HTTP/2 support arrive?", False),
        ("HTTP/2 support arrived in uvicorn 0.30.0", "In which uvicorn release did HTTP/2 support arrive?", True),
        ("h11 implements HTTP/1.1", "Which HTTP version does h11 implement?", True),
        # webdocs tune wd-036: a range pins its versions to its package; "minimum" does not hide what is asked about
        ("Requires-Dist: httpx<0.29.0,>=0.27.0; extra == 'full'",
         "What minimum jinja2 version does starlette[full] require?", False),
        ("Requires-Python: >=3.11", "What minimum jinja2 version does starlette[full] require?", False),
        ("Requires-Dist: jinja2>=3.1.2", "What minimum jinja2 version does starlette[full] require?", True),
        # teamdocs tune td-111: the metadata format's version is not the package's
        ("Metadata-Version: 2.4", "Which version of slack_bolt does this package metadata describe?", False),
        ("Version: 1.30.0", "Which version of slack_bolt does this package metadata describe?", True),
        # teamdocs tune td-136: a hyphenated name is one name
        ("Python 3.6: charset-normalizer < 3.1", "Which charset-normalizer versions work on Python 3.6?", True),
    ],
)
def test_a_version_pinned_to_another_name_is_not_the_one_asked_for(sentence: str, question: str, gives: bool) -> None:
    assert gives_type(sentence, expected_type(question), question) is gives


def test_a_table_rows_column_name_is_no_persons_name() -> None:
    # configdocs cd-018: "Purpose" is a column of the UID/GID table, not who defines the range
    question = "Who defines the 2147483648…4294967294 (HIC SVNT LEONES) range in the UID/GID table?"
    assert not gives_type("UID/GID: 2147483648…4294967294; Purpose: HIC SVNT LEONES", "person", question)
    assert gives_type("Office: Oslo; Owner: Kari Nordmann", "person", "Who runs the Oslo office?")


def test_a_release_title_or_a_month_is_no_persons_name() -> None:
    # conversations tune cv-257: "who did that one" read as "Who did crcmod 1.6" was answered at 0.74 with the
    # changelog's heading "1.6 Enhancement Release - Jan 24, 2010"
    question = "Who did crcmod 1.6?"
    assert not gives_type("1.6 Enhancement Release - Jan 24, 2010", "person", question)
    assert not gives_type("2.0 Bugfix Release - Sept. 3, 2011", "person", question)
    assert gives_type("1.6 was made by Craig McQueen", "person", question)


def test_which_unit_asks_for_a_unit() -> None:
    # configdocs cd-043
    question = "In which unit is DRD's --exclusive-threshold given?"
    assert expected_type(question) == "unit"
    assert gives_type("a threshold of 10 ms was specified to DRD", "unit", question)
    assert not gives_type("The two command line options --exclusive-threshold=<n> and --shared-threshold=<n> make "
                          "it possible to detect excessive lock contention", "unit", question)
    assert expected_type("Which unit starts the journal?") != "unit"  # a systemd unit


def test_come_out_asks_when_it_was_released() -> None:
    # conversations cv-085: "when did it come out" over a release table was asked back; documents say "release"
    assert terms("released") <= question_terms("When did Debian 10 come out?")
    assert not terms("released") & question_terms("What comes out of the box?")
    assert not terms("released") & question_terms("When did Debian 10 freeze?")


def test_how_long_asks_for_a_span_or_a_length() -> None:
    # guidedocs tune gd-032, a near miss answered at 1.0: the README gives no figure for the timeout, and "OpenSSH
    # 3.8" is a version, not a span
    question = "How long is the timeout of the untrusted X cookie when ForwardX11Trusted is set to no?"
    assert not gives_type("OpenSSH 3.8 invented ForwardX11Trusted, which causes a very short timeout of the untrusted "
                          "cookie", "number", question)
    assert gives_type("The untrusted cookie expires after 20 minutes.", "number", question)
    assert gives_type("Connections last up to 60 minutes.", "number", "How long can a WebSocket connection last?")
    assert gives_type("The Rhine is 1,230 km long.", "number", "How long is the Rhine?")
    # how long something has been so: since when (open-book SQuAD, seed 3)
    assert gives_type("The U.S. government has engaged in efforts to counter Islamism since 2001.", "number",
                      "How long has the U.S. government been engaged in efforts to counter Islamism?")
    # or a span without a figure, or from when until when (open-book SQuAD, seed 2)
    assert gives_type("In 1979, less than a year after becoming pope, John Paul celebrated Mass in Warsaw.", "number",
                      "How long had John Paul II been the pope in 1979?")
    assert gives_type("Phillips managed Apollo from January 1964, until the first manned landing in July 1969.",
                      "number", "How long did Phillips manage the Apollo missions?")


def test_a_year_inside_a_code_is_no_date() -> None:
    # guidedocs tune gd-057, a near miss answered at 1.0: the release notes never date the release
    question = "On what date was Git 2.36 released?"
    assert not gives_type("With the fixes for CVE-2022-24765 that are common with versions of Git 2.30.4, Git has "
                          "been taught not to recognise repositories owned by other users.", "date", question)
    assert gives_type("Git 2.36 was released on 18 April 2022.", "date", question)
    assert gives_type("Released 2022-04-18.", "date", question)
    # a month's name before the year is a date (apidocs tune ad-027, asked back by the code rule's first form)
    assert gives_type("Release date: 08-Mar-2021", "date", "When was defusedxml 0.7.1 released?")


def test_a_figure_in_a_link_or_after_a_hash_is_no_year() -> None:
    # mldocs tune ml-077, a near miss answered: joblib's changelog dates no release, and its entries end in pull
    # request links ("…/joblib/pull/1218") whose numbers read as years
    question = "When was joblib 1.1.0 released?"
    assert not gives_type("Update vendored loky (from version 2.9 to 3.0) "
                          "https://github.com/joblib/joblib/pull/1218", "date", question)
    assert not gives_type("Fix a crash in the parallel backend (#1999).", "date", question)
    # a month before a slash still dates
    assert gives_type("joblib 1.1.0 was released in 09/2021.", "date", question)


def test_a_ratio_is_a_number() -> None:
    # guidedocs tune gd-023, a near miss: the table has no xz row, and prose about ratios gives none
    question = "What compression ratio did xz (lzma) reach in the zstd benchmark table?"
    assert expected_type(question) == "number"
    assert not gives_type("Zstd can also offer stronger compression ratios at the cost of compression speed.",
                          "number", question)


def test_a_version_written_after_another_name_is_that_ones() -> None:
    # guidedocs tune gd-082, a near miss: "pip 1.5" is pip's version, not the vendored requests'
    question = "Which version of requests does pip vendor?"
    assert not gives_type("However, starting with pip 1.5, we began to replace code with reusable libraries.",
                          "version", question)
    assert gives_type("requests 2.31.0 is vendored.", "version", question)
    assert gives_type("We vendor version 2.31.0 of requests.", "version", question)
    assert gives_type("3.3 Nov-23-19: Add RISC-V support.", "version", "Which libffi release added RISC-V support?")


def test_a_default_that_only_describes_a_thing_leaves_the_asked_kind() -> None:
    # guidedocs tune gd-036 (asked back with the right draft): the question asks for an option
    question = "Which Valgrind option stops the default door call wrapper case from printing a warning on Solaris?"
    assert expected_type(question) == "flag"
    assert expected_type("Which environment variable overrides fontconfig's default configuration file?") == (
        "identifier")
    assert expected_type("What is the default value of DRD's --join-list-vol option?") == "default"
    assert expected_type("Which Rust edition does cargo new use by default?") == "default"
    # guidedocs tune gd-030: the line is asked for, the default is what it restores
    assert expected_type("What line restores upstream's IPQoS default in Debian's OpenSSH?") is None
    assert expected_type("What does Memcheck's --keep-stacktraces default to?") == "default"
    assert expected_type("Which debug setting is the default for Cargo's release profile?") == "default"


def test_a_configuration_option_is_named_by_its_path() -> None:
    # guidedocs tune gd-046 (asked back with the right draft): APT's debug options are no command-line flags
    question = "which apt debug option shows the actual calls it makes to dpkg?"
    assert expected_type(question) == "flag"
    assert gives_type("… or the actual calls to dpkg (Debug::pkgDpkgPm).", "flag", question)
    assert gives_type("Set cache.auto-clean-frequency to 1 day.", "flag", "Which Cargo option cleans the cache?")
    # not a file's name, nor code's member (guidedocs tune gd-059: "module.exports" beside the right flag's quote)
    assert not gives_type("See setup.py and README.md, or Node.js's docs.", "flag", "Which option sets the timeout?")
    assert not gives_type("// ./packages/a/index.js module.exports = 'a'", "flag", "Which flag skips the script?")


def test_a_line_of_code_that_starts_with_a_figure_gives_no_code() -> None:
    # freshdocs tune fd-039: a passage cut inside a code block ("}, 2000); …") answered "which signal" at 0.81
    question = "if i call kill() on a node child process without passing anything, which signal does it get?"
    assert expected_type(question) == "code"
    assert not gives_type("}, 2000); setTimeout(() => { subprocess.kill(); // Does not terminate the process",
                          "code", question)
    assert gives_type("13 Unfinished Top-Level Await: await was used outside of a function.", "code",
                      "Which exit code means an unfinished top-level await?")


def test_which_exception_asks_for_an_exceptions_class() -> None:
    # apidocs tune ad-055, a near miss answered at 1.0: the README names no exception
    question = "Which exception does annotated-types raise for an invalid combination such as MultipleOf(3)?"
    assert expected_type(question) == "identifier"
    assert not gives_type("Downstream implementors may choose to raise an error, emit a warning or ignore it.",
                          "identifier", question)
    assert gives_type("It raises ValueError for an invalid combination.", "identifier", question)
    assert gives_type("Catch portalocker.AlreadyLocked to handle contention.", "identifier",
                      "Which exception lets you handle lock contention in portalocker?")


def test_how_many_people_work_somewhere_asks_for_its_headcount() -> None:
    # conversations tune cv-017#3, cv-018#1, cv-078#1, cv-082#1: a headcount table says neither "people" nor "work"
    assert implied_words("How many people work in Sales?") == ["headcount"]
    assert terms("headcount") <= question_terms("How many employees does Sales have?")
    assert not terms("people") & question_terms("how many people work in customer success")
    # people who live, die or attend somewhere are no headcount
    assert implied_words("How many people live in Warsaw?") == []
    assert terms("people") <= question_terms("How many people died of plague in Paris in 1466?")


def test_a_release_that_ships_is_a_release() -> None:
    # frontdocs threads, cv-332#1: a release table says "released", and "ship" is no word of it to miss
    assert implied_words("when did axios 1.15.0 ship") == ["released"]
    assert question_terms("when did axios 1.15.0 ship") == question_terms("when did axios 1.15.0 get released")
    assert implied_words("which ship carried the cargo?") == []


def test_a_placeholder_release_is_no_version() -> None:
    # apidocs tune ad-054, a near miss answered at 1.0: the changelog writes the release as "v0.x.x"
    question = "Which annotated-types release changed Timezone to accept tzinfo objects?"
    assert not gives_type("Changed in v0.x.x: Timezone accepts tzinfo objects instead of timezone.", "version",
                          question)
    assert gives_type("Changed in v0.4.0: Timezone accepts tzinfo objects.", "version", question)
    assert gives_type("Added in v20.", "version", "In which Node.js version was it added?")


@pytest.mark.parametrize(
    ("sentence", "counts"),
    [
        ("Ensure they have 2FA enabled in H1", False),  # teamdocs tune td-021: no count of stewards
        ("If you have two-factor authentication then you'll need a one-time password", False),  # td-169
        ("It uses 3DES keys", False),
        ("There are 12 stewards", True),
        ("The buffer holds 16K entries", True),
        ("It keeps twenty-five copies", True),
        ("sometimes two-thirds of its population has been wiped out", True),  # open-book SQuAD seed 4
        ("three-fifths of the staff", True),
        ("Files up to 128MB are read", True),
    ],
)
def test_a_figure_inside_a_name_is_no_count(sentence: str, counts: bool) -> None:
    assert gives_type(sentence, "number", "How many security stewards does the Node.js project have?") is counts


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("What is the latest setuptools version listed in this history file?", "version"),  # teamdocs tune td-102
        ("What is the minimum CMake version required to build APT?", "version"),
        ("What is the latest Node-API version that has been released?", "version"),
        ("What is the release process for npm?", None),  # the head is "process"
        ("What was the release date of jsdiff 4.0.0?", "date"),
    ],
)
def test_what_is_the_x_version_asks_for_a_version(question: str, kind: str | None) -> None:
    assert expected_type(question) == kind


def test_an_issues_number_is_no_count() -> None:
    # teamdocs tune td-169, a near miss answered with a link to npm's issue 6082
    question = "How many dist-tags can an npm package have at most?"
    assert not gives_type("See https://github.com/npm/npm/issues/6082.", "number", question)
    assert not gives_type("#227 - Licence", "number", question)
    # nor is a version: "v1.4 cannot be used as a tag, because it is interpreted by semver as >=1.4.0 <1.5.0"
    assert not gives_type("It is interpreted by semver as >=1.4.0 <1.5.0.", "number", question)
    assert not gives_type("For example, v1.4 cannot be used as a tag.", "number", question)  # not its "4"
    assert gives_type("A package can have 12 dist-tags.", "number", question)


def test_what_a_function_returns_is_said_not_coded() -> None:
    # apidocs tune ad-005 (a line of code quoted at 1.0) and nextdocs tune nd-035 (a near miss: "is not necessary")
    question = "What does tqdm's update() method return?"
    assert expected_type(question) == "returned"
    assert expected_type("What exit status does timeout return?") != "returned"  # an exit code
    assert not gives_type("return self.update(b * bsize - self.n)", "returned", question)
    assert not gives_type("The complimentary function TRANS(GetOption) is not necessary.", "returned", question)
    assert gives_type("Returns True if a display() was triggered.", "returned", question)
    assert gives_type("client.responses.delete(response_id) -> None", "returned", question)
    assert gives_type('>>> ttLib.tagToIdentifier("OS/2") \'O_S_2f_2\'', "returned", question)
    # "return to" is going back (SQuAD open-book seed 1: "What do MSPs … return to do?")
    assert expected_type("What do MSPs who are not in the chamber when the division bell rings return to do?") is None
    assert expected_type("What does xxhash's digest() return when called twice?") == "returned"


def test_a_version_written_after_another_tools_name_and_version_is_that_tools() -> None:
    # realdocs tune rd-122, a near miss: gas's and nasm's versions answered "Which LLVM version …?" at 0.72
    llvm = "Which LLVM version does OpenSSL-1.1.1 need for AVX-512 when building Node.js?"
    assert not gives_type("For use of AVX-512, gas (GNU assembler) version 2.26 or higher nasm version 2.11.8 or "
                          "higher in Windows", "version", llvm)
    assert gives_type("Xcode version 5.0 or higher llvm version 3.3 or higher", "version", llvm)
    # conversations tune cv-042: gas's own version, past the aside in brackets
    assert gives_type("For use of AVX2, gas (GNU assembler) version 2.23 or higher", "version",
                      "Which gas version is needed for AVX2 when building Node.js?")
    assert gives_type("Added in version 2.3.", "version", "Which version of requests added it?")


@pytest.mark.parametrize(
    ("sentence", "gives"),
    [
        # platformdocs tune pf-089: where the image goes by default is no size
        ("By default, fai-kvm will create the disk images for the virtual machines in /tmp.", False),
        ("By default, fai-kvm creates a 20G disk image.", True),
    ],
)
def test_a_default_asked_as_an_amount_is_given_by_a_figure(sentence: str, gives: bool) -> None:
    question = "How big is the disk image fai-kvm creates by default?"
    assert expected_type(question) == "default"
    assert gives_type(sentence, "default", question) is gives


def test_a_changelog_entry_that_sets_a_default_says_it_with_its_value() -> None:
    # platformdocs tune pf-071: node_exporter 1.5.0's "[CHANGE] Default GOMAXPROCS to 1"
    question = "What did node_exporter 1.5.0 set the Go runtime's GOMAXPROCS to by default?"
    assert gives_type("[CHANGE] Default GOMAXPROCS to 1 #2530", "default", question)
    # "to" before a placeholder or a verb sets nothing: sqlite3(1)'s "Set default mmap size to N", systemd's
    # "configure the default mount options to use" (configdocs tune cd-008)
    assert not gives_type("-mmap N Set default mmap size to N", "default", "What is the default mmap size?")
    assert not gives_type("configure the default mount options to use for LUKS home directories", "default",
                          "Which mount options does systemd-homed use by default?")


def test_a_default_said_after_instead_of_gives_the_default() -> None:
    # dig(1)'s "+tries=T": the figure after "the default," is the default asked for
    question = "How many times does dig try a query by default (+tries)?"
    sentence = "+tries=T This option sets the number of times to try UDP and TCP queries to server to T instead of " \
        "the default, 3."
    assert gives_type(sentence, expected_type(question), question)


@pytest.mark.parametrize(
    ("sentence", "question", "gives"),
    [
        # real cases (configdocs tune cd-043, guidedocs tune gd-070): the example's arguments are no answer
        ("An example: $ valgrind --tool=drd --exclusive-threshold=10 drd/tests/hold_lock -i 500 ... ==10668== "
         "Acquired at: ==10668== at 0x4C267C8: pthread_mutex_lock (drd_pthread_intercepts.c:395)",
         "In which unit is DRD's --exclusive-threshold given?", False),
        ("For the tutorial program, that would be done as follows: tutorial]$ ./libxslt_tutorial --param rootid "
         "\"'asect1'\" stylesheet.xsl filename.xml", "Which function parses the stylesheet in the libxslt tutorial?",
         False),
        # the prose before the code names it (guidedocs check gd-072's wording, frontdocs check fe-027's)
        ("For this example, xsltSaveResultToFile is used, and the results are saved to stdout: "
         "xsltSaveResultToFile(stdout, res, cur);",
         "Which libxslt function does the tutorial use to save the result to stdout?", True),
        ("The following example will listen once for the SIGUSR2 signal (used by nodemon to restart): "
         "process.once('SIGUSR2', function () { gracefulShutdown(); });",
         "Which signal does nodemon send to restart the application?", True),
    ],
)
def test_a_name_inside_an_examples_code_gives_no_answer(sentence: str, question: str, gives: bool) -> None:
    assert gives_type(sentence, expected_type(question), question) is gives


def test_a_standard_question_is_answered_by_that_standards_number() -> None:
    # real case (webdocs tune wd-022, answered wrong at 1.0): h11's README quoted without its RFC
    question = "Which RFC does h11 implement?"
    assert expected_type(question) == "code"
    assert gives_type("h11 implements RFC 7230, the HTTP/1.1 specification.", "code", question)
    assert not gives_type('It\'s a "bring-your-own-I/O" library; h11 contains no IO code whatsoever.', "code",
                          question)
    # a PEP for a PEP, written with a hyphen too (apidocs tune ad-053); an RFC is no PEP
    pep = "which pep gave us typing.Annotated again?"
    assert gives_type("Annotated types, introduced by PEP-593.", "code", pep)
    assert not gives_type("See RFC 8259 for the JSON grammar.", "code", pep)
    # the standard the question names is no answer; a version question that names one stays a version question
    assert not gives_type("RFC 4039 rapid commit is supported.", "code", "Which RFC extends RFC 4039?")
    assert expected_type("Which dnsmasq version added support for RFC 4039 DHCP rapid commit?") == "version"


def test_the_answer_noun_after_a_tools_written_name() -> None:
    # libdocs lb-048: "function" is what uuid7 is, not a word its entry must say; a hyphen's tool was read as the noun
    assert answer_noun("Which uuid_utils function makes UUIDs from a Unix timestamp ordered by time?") == "function"
    assert answer_noun("Which Node.js command-line option sets the file path pattern?") == "option"
    assert answer_noun("Which node-gyp release dropped Python 2?") == "release"
    assert answer_noun("What Python version does it need?") is None  # a capitalised name is left as before


def test_a_default_named_as_an_instance_or_in_typographic_quotes_is_given() -> None:
    # apidocs tune ad-019 and secdocs sc-013: right drafts asked back as giving no default
    question = "Which pytest-timeout method is used by default when the system supports SIGALRM?"
    assert gives_type("If the system supports the SIGALRM signal the signal method will be used by default",
                      "default", question)
    assert not gives_type("The default method depends on the platform", "default", question)
    cipher = "Which cipher does ssh-keygen use by default to encrypt an OpenSSH-format private key file (-Z)?"
    assert gives_type("The default is “aes256-ctr”", "default", cipher)
    status_quo = "Which Rules-Requires-Root value is the default/status quo?"
    assert not gives_type("This is the default/status quo", "default", status_quo)


def test_software_documentation_names_places_functions_and_yanked_versions() -> None:
    # teamdocs tune td-062, td-071, td-139: right drafts scored as giving no place, function or version
    gyp = "Where should changes to node-gyp's gyp/ subfolder be submitted first?"
    assert gives_type("Changes in the subfolder gyp/ should be submitted to the gyp-next repository first", "place",
                      gyp)
    assert gives_type("Send them to bugs@example.org", "place", "Where do I report bugs?")
    assert not gives_type("He was born in the village", "place", "Where was Chopin born?")
    removed = "Which function did jsdiff 8.0.0 remove in #596?"
    assert gives_type("#596 - removed the merge function", "identifier", removed)
    assert not gives_type("#596 - removed a function", "identifier", removed)
    yanked = "Which charset-normalizer version was yanked because of a regression in the fallback path?"
    assert gives_type("We've yanked 3.4.8 as a result of that bug", "version", yanked)


def test_a_thing_named_with_an_indefinite_article_or_the_word_default_is_no_instance() -> None:
    # datadocs tune dd-054: "a moderate level" is no compression level; extradocs' --concurrency: "the server
    # default" is no default value
    level = "Which compression level does pg_dump use by default for the custom format?"
    assert not gives_type("and the default is to compress at a moderate level", "default", level)
    concurrency = "What is the default --concurrency (requests per instance) for gcloud run deploy?"
    assert not gives_type("Leave concurrency unspecified to receive the server default value", "default", concurrency)


def test_a_release_candidates_date_is_not_the_releases() -> None:
    # mldocs tune ml-054: "When was Optuna v5 released?" answered at 0.85 by the release candidate's date
    question = "When was Optuna v5 released?"
    assert not gives_type("Aug 3, 2026: Release candidate of Optuna v5 is available!", "date", question)
    assert not gives_type("Jul 1, 2026: Optuna v5.0.0-rc1 and a beta of the dashboard are out.", "date", question)
    assert gives_type("Sep 7, 2026: Optuna v5 is out!", "date", question)
    # the stage the question names is the one asked about (gcloud tune xd-082), and "rc" in a path is no stage
    preview = "0.9.0 (2013-04-09): Developer preview release of the Cloud SDK."
    assert gives_type(preview, "date", "When was Cloud SDK 0.9.0, the developer preview release, published?")
    assert gives_type("2019-03-02: /etc/rc.local is read at boot again.", "date", "When was the fix released?")


def test_a_plain_word_said_to_be_the_default_is_a_default() -> None:
    # opsdocs tune od-039: "The default log facility is authpriv" gave no default, and the answer leaned on another
    # tool's page quoted beside it
    question = "What is sudo's default syslog facility?"
    assert gives_type("The default log facility is authpriv (changeable via configure or in sudoers).", "default",
                      question)
    # a participle, a pronoun or the question's own word is no value
    assert not gives_type("The default is used.", "default", question)
    assert not gives_type("The default facility is this.", "default", question)
    assert not gives_type("The default facility is syslog.", "default", question)


def test_a_copular_question_with_a_subject_and_verb_asks_for_its_owners_version() -> None:
    # libdocs tune lb-064: "What is the minimum Windows version truststore supports?" asked no kind, and "macOS 10.8+"
    # beside "Windows via CryptoAPI" answered it
    question = "What is the minimum Windows version truststore supports?"
    assert expected_type(question) == "version"
    quote = ("Truststore requires Python 3.10 or later and supports the following platforms: macOS 10.8+ via "
             "Security framework")
    assert not gives_type(quote, "version", question)  # Python's and macOS's versions, not Windows'
    assert gives_type(quote, "version", "What is the minimum macOS version truststore supports?")
    # a bound word is no owner: "What is the latest version of …" asks the version of what follows "of"
    assert expected_type("What is the release process of pip?") is None


def test_a_packages_own_version_field_answers_only_for_that_package() -> None:
    # libdocs tune lb-064: truststore's "Version: 0.10.5" answered "What is the minimum Windows version …?" at 0.78
    windows = "What is the minimum Windows version truststore supports?"
    assert of_the_document_only("Version: 0.10.5", windows, "truststore-METADATA.md")
    assert not of_the_document_only("Version: 0.10.5", "What version is truststore at?", "truststore-METADATA.md")
    assert not of_the_document_only("Version: 0.10.5", "Which truststore release is this?", "truststore-METADATA.md")
    assert not of_the_document_only("Windows 10 or later is supported", windows, "truststore-METADATA.md")


def test_the_year_of_a_release_date_line_is_no_release() -> None:
    # shelfdocs tune sf-020: polkit's "The polkit team & polkit community October 26, 2022" answered "which polkit
    # release moved to mozjs 102?" at 0.85, the release being only in the heading
    question = "hey which polkit release moved to mozjs 102?"
    assert expected_type(question) == "version"
    assert not gives_type("The polkit team & polkit community October 26, 2022", "version", question)
    assert not gives_type("Released on 26 Oct 2022 by the polkit team", "version", question)
    assert gives_type("polkit 0.120 moved to mozjs 102", "version", question)
    assert gives_type("The 2022 release moved to mozjs 102", "version", question)


def test_a_man_pages_since_dates_the_entry_it_follows() -> None:
    # shelfdocs tune sf-083 (near miss, answered at 1.0): ld.so(8) gives --inhibit-cache no version; the "(since glibc
    # 2.33)" before it is --argv0's, whose term line ran into the next entry
    question = "Since which glibc version does ld.so support the --inhibit-cache option?"
    joined = "OPTIONS --argv0 string (since glibc 2.33) --inhibit-cache Do not use /etc/ld.so.cache."
    assert not gives_type(joined, "version", question)
    assert gives_type("--argv0 string (since glibc 2.33)", "version", "Since which glibc version is --argv0 there?")
    assert gives_type("LD_AUDIT (since glibc 2.4) A list of user-specified ELF shared objects", "version",
                      "Since which glibc version does ld.so support LD_AUDIT?")
    assert not gives_type("LD_AUDIT (since glibc 2.4) A list of user-specified ELF shared objects", "version",
                          "Since which glibc version does ld.so support LD_BIND_NOW?")


def test_this_is_the_default_says_the_quote_before_it_gives_the_default() -> None:
    # realdocs tune rd-071 (dpkg's rootless-builds.txt): the value is in the entry, the word "default" after it
    question = "Which Rules-Requires-Root value is the default/status quo?"
    entry = '* If "binary-targets", then "debian/rules binary" (etc.) must always be run under (fake)root.'
    pointer = "This is the default/status quo."
    kind = expected_type(question)
    assert kind == "default"
    assert not gives_type(pointer, kind, question)
    assert gives_type(as_said(pointer, entry, kind), kind, question)
    assert as_said(entry, pointer, kind) == entry  # only a sentence that points back is read with the one before
    assert as_said(pointer, entry, "number") == pointer


def test_when_inside_a_which_question_asks_no_date() -> None:
    # deskdocs tune dk-060: "when requesting passwords" opens a clause; the question asks for a value
    assert expected_type("Which SSH_ASKPASS_REQUIRE value makes ssh prefer the askpass program over the TTY when "
                         "requesting passwords?") is None
    assert expected_type("When was libgcrypt 1.9.0 released?") == "date"


def test_what_is_used_when_a_thing_does_not_set_it_asks_for_a_default() -> None:
    # deskdocs tune dk-054 (GYP): "does not set" leaves the setting out as "do not set" does
    assert expected_type("What target type does GYP use when a target does not set type?") == "default"
    assert expected_type("Which encoding does it use when the caller doesn't pass one?") == "default"


def test_a_default_said_of_a_longer_name_or_for_a_setting_left_out_is_given() -> None:
    # deskdocs tune dk-016 (groff's PROBLEMS) and dk-065 (os-release(5))
    length = "What is the default page length in gtroff?"
    assert gives_type("For compatibility with ditroff, the default page length in gtroff is always 11 inches.",
                      expected_type(length), length)
    scope = "In an extension-release file, what SYSEXT_SCOPE= is implied when the field is not set?"
    assert expected_type(scope) == "default"
    assert gives_type('If unspecified, "SYSEXT_SCOPE=system portable" is implied.', "default", scope)
    assert not gives_type("This field is only supported in extension-release.d/ files.", "default", scope)



def test_an_alias_is_given_only_where_a_sentence_says_one() -> None:
    # deskdocs tune dk-033 was answered at 1.0 with a sentence naming no alias; frontdocs fe-062 and the npm ls page
    # say theirs with the word
    npm_version = "What alias does the npm version command have?"
    assert expected_type(npm_version) == "alias"
    assert expected_type("What are the aliases of npm update?") == "alias"
    assert expected_type("whats the alias for npm ls") == "alias"
    assert not gives_type("Tag the commit when using the npm version command", "alias", npm_version)
    assert gives_type("alias: verison", "alias", npm_version)
    concurrently = "What shorthand alias does the concurrently command have?"
    assert gives_type("Note The concurrently command is also available under the shorthand alias conc", "alias",
                      concurrently)
    assert not gives_type("The concurrently command has no alias", "alias", concurrently)


def test_a_default_said_to_be_settable_gives_none() -> None:
    # deskdocs tune dk-080: ssh(1)'s -c entry, once its hyphenated words were whole, answered "Which ciphers does ssh
    # use by default when -c is not given?" at 0.85 with where the default is set, read as a value by "ssh_config(5)"
    ciphers = "Which ciphers does ssh use by default when -c is not given?"
    settable = ("The default value can be set on a host-by-host basis in the configuration files; see the Compression "
                "option in ssh_config(5)")
    assert not gives_type(settable, "default", ciphers)
    assert gives_type("The default is aes128-ctr; it can be set in ssh_config", "default", ciphers)


def test_a_version_of_another_named_thing_is_no_version_of_the_one_asked() -> None:
    # yarddocs tune yd-032: "The current version 3.2.8 of GraphQL-core …" answered which version of pytest-describe
    # the test suite requires (a near miss) at 0.76
    question = "Which version of pytest-describe does the GraphQL-core test suite require?"
    assert not gives_type("The current version 3.2.8 of GraphQL-core is up-to-date with GraphQL.js.", "version",
                          question)
    assert gives_type("The suite needs pytest-describe 2.1 or newer.", "version", question)
    # an ordinary word after "of" owns nothing
    assert gives_type("It needs version 2.1 of the plugin.", "version", question)


def test_a_range_asks_for_its_bounds() -> None:
    # yarddocs tune yd-069: "Values are in kilobytes per second" answered the range --max-rate accepts at 0.85
    question = "What range of values does pg_basebackup accept for --max-rate?"
    assert expected_type(question) == "range"
    assert not gives_type("Values are in kilobytes per second.", "range", question)
    assert gives_type("The value must be between 32 kilobytes per second and 1024 megabytes per second.", "range",
                      question)
    port = "What range does the listener port have to be in for valgrind?"
    assert gives_type("The specified port must be in the range 1024 to 65535.", "range", port)
    rounds = "In login.defs, what range must the SHA_CRYPT_MIN_ROUNDS and SHA_CRYPT_MAX_ROUNDS be in?"
    assert gives_type("The values must be inside the 1000-999,999,999 range.", "range", rounds)
    # a range the question names is no range asked for (configdocs check cd-014)
    assert expected_type("In the systemd UID/GID ranges table, what is the range 60514…60577 used for?") != "range"


def test_a_name_that_starts_with_a_dot_is_a_value_given() -> None:
    # frontdocs tune fe-025: with the space before ".js" kept (yd-016's fix), the extensions are a default's value
    question = "Which file extensions does nodemon watch by default?"
    assert gives_type("By default, nodemon looks for files with the .js, .mjs, .coffee, .litcoffee, and .json "
                      "extensions.", "default", question)
    assert not gives_type("By default, nodemon restarts the process.", "default", question)
