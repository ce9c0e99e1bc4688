"""A limit asked for is answered by a quote that says a limit: real cases from the documentation tracks."""

from __future__ import annotations

from masis.judge import grounding
from masis.judge.limits import asked_limit, unstated_limit
from masis.state import EvidenceChunk


def test_an_example_value_is_not_the_maximum_asked() -> None:
    # libdocs tune lb-060 (answered at 0.86): the README shows the variable set to 2048 and says no maximum
    question = ("What is the maximum value allowed for OPENAPI_SPEC_VALIDATOR_RESOLVED_CACHE_MAXSIZE in "
                "openapi-spec-validator?")
    example = ("You can tune resolved-path caching with an environment variable: "
               "OPENAPI_SPEC_VALIDATOR_RESOLVED_CACHE_MAXSIZE=2048")
    # the variable's own "MAXSIZE" names it; it bounds nothing
    assert unstated_limit(question, [example]) == "maximum"


def test_a_default_is_not_the_maximum_asked() -> None:
    # opsdocs tune od-126 (answered at 0.68): supervisor's numprocs entry gives a default, "Required: No", no maximum
    question = "What is the maximum value allowed for numprocs in a [program:x] section?"
    entry = ["numprocs Supervisor will start as many instances of this program as named by numprocs",
             "Default: 1 Required: No. Introduced: 3.0"]
    assert unstated_limit(question, entry) == "maximum"


def test_a_require_call_is_no_requirement() -> None:
    # kitdocs tune kt-054 (a near miss answered at 0.79): the README's usage code "require('cssesc')"
    question = "What minimum Node.js version does cssesc require?"
    usage = ["In Node.js: const cssesc = require('cssesc'); In Ruby: gem install ruby-cssesc require 'ruby-cssesc'",
             "This library supports the Node.js and browser versions mentioned in .babelrc."]
    assert unstated_limit(question, usage) == "minimum"
    assert unstated_limit(question, ["cssesc requires Node.js 6 or later."]) is None


def test_a_limit_said_in_other_words_answers() -> None:
    # secdocs tune sc-068, freshdocs tune fd-009, libdocs lb-064's first quote, pkgdocs pk-096: each says a bound
    assert unstated_limit("Up to how many characters of a password does the bcrypt algorithm handle?",
                          ["The bcrypt algorithm only handles passwords up to 72 characters"]) is None
    assert unstated_limit("What is the maximum number of name/value pairs that can be passed with --param?",
                          ["You may pass multiple name/value pairs up to a maximum of 32"]) is None
    assert unstated_limit("What is the minimum Python version truststore supports?",
                          ["Truststore requires Python 3.10 or later"]) is None
    assert unstated_limit("What is the minimum macOS version truststore supports?",
                          ["macOS 10.8+ via Security"]) is None
    assert unstated_limit("What minimum pyarrow version does the polars pyarrow extra require?",
                          ["Extra: pyarrow; Package: pyarrow; Version specifier: >=7.0.0"]) is None
    assert unstated_limit("yo how much disk can the systemd journal eat by default at most?",
                          ["Defaults to one eighth of the values capped to 128M"]) is None


def test_a_question_that_asks_no_limit_is_left_alone() -> None:
    # a flag that names a maximum is a name, not a limit asked for (mandocs check md2-025)
    assert asked_limit("What is grep's default for -m/--max-count?") is None
    assert asked_limit("which MAX_DATA value switches off the size limit in defusedxml.xmlrpc?") is None
    assert unstated_limit("What is grep's default for -m/--max-count?", ["Default: 1"]) is None
    assert asked_limit("How many form fields does python-multipart accept at most?") == "at most"


def test_the_floor_asks_back() -> None:
    chunk: EvidenceChunk = {"chunk_id": "supervisor.rst#32", "doc_name": "supervisor.rst", "page": None,
                            "section": "[program:x] Section Values", "relevance": 1.0, "score": 1.0,
                            "text": "numprocs Supervisor will start as many instances of this program as named by "
                                    "numprocs. Default: 1 Required: No. Introduced: 3.0"}
    question = "What is the maximum value allowed for numprocs in a [program:x] section?"
    floors = grounding.check(question, "Default: 1 Required: No. Introduced: 3.0 [supervisor.rst#32].", [chunk])
    assert floors.unstated_limit == "maximum"
    said = grounding.check("What is the default value allowed for numprocs in a [program:x] section?",
                           "Default: 1 Required: No. Introduced: 3.0 [supervisor.rst#32].", [chunk])
    assert said.unstated_limit is None


def test_min_inside_a_word_says_no_limit() -> None:
    # tooldocs tune tl-007: a classifier's "Programming" was read as "min" followed by a name's part
    question = "What is the minimum Python version hypothesis 6.170.17 requires?"
    assert unstated_limit(question, ["Classifier: Programming Language :: Python :: Implementation :: PyPy"]) == (
        "minimum")
    assert unstated_limit(question, ["set minPort to 3"]) is None
    assert unstated_limit(question, ["MIN_SIZE is 3"]) is None

