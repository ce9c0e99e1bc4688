"""Anchors: the exact constraints of a question, and whether a quote holds them (real examples)."""

from __future__ import annotations

import pytest

from masis.judge.anchors import anchors, bound, held_together, holds, is_name, latest_anchors, missing, named_settings
from masis.judge.sentences import is_table_row
from masis.state import EvidenceChunk


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("What changed in release 2.4.0?", ["2.4.0"]),
        ("What is the price of part KX-4471-B?", ["KX-4471-B"]),
        ("Who runs the Santiago office?", ["Santiago"]),
        ("Who is the CEO of Nordlys?", ["CEO", "Nordlys"]),
        ("What is the default of --max-old-space-size?", ["--max-old-space-size"]),
        ("What does fs.readFile() return in Node.js v18?", ["fs.readFile", "Node.js", "v18"]),
        ("What was Q3 2026 revenue?", ["Q3", "2026"]),
        ("In Sept 1760 who negotiated a capitulation?", ["Sept", "1760"]),  # a month beside its year
        ("hey quick q, what's the default port?", []),
        ("WHy was the Merit network formed in Michigan", ["Merit", "Michigan"]),  # a question word, miscased
        ("Who led the dynasty in the early 1200s?", []),  # a decade or century is a period, read as words too
        ("Which flag silences the warnings?", []),
        # a keyword or variable by its sigil (stackdocs tune sd-084: no crontab page here describes @reboot)
        ("What does the @reboot keyword do in a crontab?", ["@reboot"]),
        ("is $home set for cron jobs?", ["$home"]),
        # a colon starts no sentence (tooldocs tune tl-061), and a pronoun after it names nothing
        ("Which algorithm does GNU diff use: Myers, patience or histogram?", ["GNU", "Myers"]),
        ("context: Our deploy failed, which exit code means a timeout?", []),
    ],
)
def test_the_anchors_of_a_question(question: str, expected: list[str]) -> None:
    assert anchors(question) == expected


@pytest.mark.parametrize(
    ("text", "anchor"),
    [
        ("Release 3.19.0 (11 Apr 2022)", "3.19.0"),
        ("Ubuntu 22.04 LTS (Jammy Jellyfish)", "22.04"),
        ("part kx 4471 b, brake pad set", "KX-4471-B"),
        ("Added in version 11.6.0.", "v11.6.0"),
        ("the FY 2026 budget", "FY2026"),
        ("Kublai's rival, Möngke Khan", "Mongke"),
        ("the revolution in Russia", "Russian"),
        ("The United Methodist Church understands itself", "UMC"),  # an acronym, spelled out
        ("the National Science Foundation (NSF)", "NSF"),
        ("Calling timeout.close() is legacy; use clearTimeout().", "timeout.close()"),
        ("Class: http.Agent", "http.Agent"),
        ("Calling timersPromises.scheduler.yield() is equivalent to …", "scheduler.yield()"),  # a qualified name
        ("1.7.0rc1 was followed by 1.7.0 itself", "1.7.0"),  # a release said beside its pre-release
        ("Release 1.7.0+local (19 May)", "1.7.0"),  # build metadata is the same release
    ],
)
def test_an_anchor_survives_formatting(text: str, anchor: str) -> None:
    assert holds(text, anchor)


@pytest.mark.parametrize(
    ("text", "anchor"),
    [
        ("Release 2.1.0 (3 Jan 2022)", "2.4.0"),
        ("version 12.4", "2.4"),
        ("part KX-4471-C", "KX-4471-B"),
        # bzip2's manual: a flag is held as written, not by a bare figure nor by the other case
        ("the flags -1 to -9 set the block size; version 1.0.5", "-5"),
        ("use -V to print the version", "-v"),
        # distro-info-debian.csv: Debian 1.2's row was released on 1996-12-12; that is not Debian 12
        ("version: 1.2; codename: Rex; release: 1996-12-12", "12"),
        ("Add CPython 3.8.20, 3.9.20, 3.10.15, 3.11.10 and 3.12.6", "11"),  # pyenv's changelog is not Debian 11
        # an identifier is held as written, not by its words apart
        ("On a timeout, close the socket.", "timeout.close()"),
        ("Set the priority low for batch jobs.", "PRIORITY_LOW"),
        ("PRIORITY_LOWEST", "PRIORITY_LOW"),
        # a pre-release is another release (frontdocs tune fe-040: 1.7.0-beta.1's row answered when 1.7.0 came out)
        ("Version: 1.7.0-beta.1; Release date: 2024-05-07", "1.7.0"),
        ("v2.0.0-rc.2 (2024-01-02)", "2.0.0"),
        ("pkg-3.1.0.dev3", "v3.1.0"),
    ],
)
def test_another_identifier_does_not_hold_it(text: str, anchor: str) -> None:
    assert not holds(text, anchor)


def _chunk(text: str, section: str | None = None, doc: str = "notes.md") -> EvidenceChunk:
    return {"chunk_id": f"{doc}#1", "doc_name": doc, "text": text, "page": None, "section": section,
            "relevance": 1.0, "score": 1.0}


def test_a_version_in_the_heading_above_the_quote_holds_it() -> None:
    chunk = _chunk("Faster startup. The cache is now on by default.", section="Release 2.4.0 (11 Apr 2024)")
    assert missing(["2.4.0"], [("The cache is now on by default.", chunk)]) == []
    other = _chunk("Faster startup. The cache is now on by default.", section="Release 2.1.0 (3 Jan 2023)")
    assert missing(["2.4.0"], [("The cache is now on by default.", other)]) == ["2.4.0"]


def test_the_documents_title_above_the_section_holds_its_period() -> None:
    """Recorded (issue 23): Qwen quoted "Kestrel Labs ended the quarter with 412 customers." under the Q3 report's
    "Customers" heading; only the report's title says Q3 2026, and the question was asked back as a near miss."""
    quote = "Kestrel Labs ended the quarter with 412 customers."
    chunk = _chunk(quote, section="Customers", doc="q3_report.md")
    assert missing(["Q3", "2026"], [(quote, chunk)]) == ["2026"]  # "Q3" is in the file name
    chunk["title"] = "Kestrel Labs Quarterly Report: Q3 2026"
    assert missing(["Q3", "2026"], [(quote, chunk)]) == []
    assert missing(["Q2", "2026"], [(quote, chunk)]) == ["Q2"]  # another quarter stays a near miss


def test_a_table_row_holds_only_its_own_cells() -> None:
    rows = "office: Oslo; head: Kari Nord; staff: 12.\n\noffice: Santiago; head: Ana Ruiz; staff: 7."
    chunk = _chunk(rows, section="rows 1-2", doc="offices.csv")
    oslo = "office: Oslo; head: Kari Nord; staff: 12."
    assert is_table_row(oslo)
    assert missing(["Santiago"], [(oslo, chunk)]) == ["Santiago"]
    assert missing(["Santiago"], [("office: Santiago; head: Ana Ruiz; staff: 7.", chunk)]) == []


def test_a_name_the_document_holds_elsewhere_is_held() -> None:
    chunk = _chunk("The board approved the acquisition of Nordlys Logistics.", doc="board_minutes.md")
    from masis.judge.terms import terms

    chunk["context_terms"] = sorted(terms("Kestrel"))
    assert missing(["Kestrel"], [("The board approved the acquisition of Nordlys Logistics.", chunk)]) == []
    assert missing(["2.4.0"], [("The board approved the acquisition of Nordlys Logistics.", chunk)]) == ["2.4.0"]


def test_a_reply_that_names_its_own_anchor_replaces_the_questions() -> None:
    assert latest_anchors(["What changed in 2.4.0?", "I meant 2.1.0"]) == ["2.1.0"]
    assert latest_anchors(["What changed in 2.4.0?", "the cache part"]) == ["2.4.0"]


def test_a_row_is_a_near_miss_when_its_passage_never_fills_the_asked_column() -> None:
    # distro-info-debian.csv: the last rows have no release date, and the passage holding them names no `release`
    # cell at all; the section heading still names the column
    from masis.judge.tables import heading_columns, missing_columns, rows_heading
    from masis.judge.terms import question_terms

    header = ["version", "codename", "series", "created", "release", "eol"]
    rows = "version: 14; codename: Forky; series: forky; created: 2025-08-09.\n\nversion: 15; codename: Duke."
    chunk = _chunk(rows, section=rows_heading(21, 22, header), doc="distro-info-debian.csv")
    forky = "version: 14; codename: Forky; series: forky; created: 2025-08-09."
    assert heading_columns(chunk["section"]) == header
    assert heading_columns(f"Releases, {rows_heading(4, 43, header)}") == header  # a workbook's sheet
    assert heading_columns("Release notes") == []
    assert missing_columns(question_terms("When was Debian 14 Forky released?"), [(forky, chunk)]) == ["release"]
    assert missing_columns(question_terms("When was Debian 14 Forky created?"), [(forky, chunk)]) == []


def test_a_column_named_with_a_word_that_frames_other_questions_is_still_the_asked_column() -> None:
    # basedocs tune bd-078: zip(1)'s -Bn has no long form; its row ("Option: -Bn; Platform: TANDEM; …") was the
    # answer at 0.89, because "long" is "how long"'s word and "Long option" was not read as a column asked about
    from masis.judge.tables import missing_columns, rows_heading
    from masis.judge.terms import question_terms, worded_terms

    header = ["Option", "Long option", "Argument", "Platform", "Description"]
    row = "Option: -Bn; Platform: TANDEM; Description: [TANDEM] set Edit/Enscribe formatting options."
    chunk = _chunk(row, section=rows_heading(1, 40, header), doc="zip-options.csv")
    asked = "What's the long option name for zip's -Bn?"
    assert missing_columns(question_terms(asked), [(row, chunk)], worded_terms(asked)) == ["Long option"]
    binary = "Option: -B; Long option: --binary; Platform: VM/CMS, MVS; Description: force binary read."
    assert missing_columns(question_terms(asked), [(binary, chunk)], worded_terms(asked)) == []
    how_long = "How long is the TANDEM option -Bn?"  # "how long" asks a measure; it names no "Long option"
    assert missing_columns(question_terms(how_long), [(row, chunk)], worded_terms(how_long)) == []


def test_a_name_and_the_number_after_it_are_one_constraint() -> None:
    assert bound("When were Debian 11 and Debian 12 released?") == ["Debian 11", "Debian 12"]
    assert bound("What changed in release 2.4.0?") == []  # no name before the number
    # real case (conversations tune): "macOS 11, Xcode 12" beside "Debian 10" does not say when Debian 11 came out
    node = _chunk("linux-x64 | RHEL 8 with GCC 10\nThese are available on distributions such as Debian 10 and Ubuntu.",
                  doc="nodejs-BUILDING.md")
    assert not held_together("Debian 11", "darwin-x64 | macOS 11, Xcode 12 with -mmacosx-version-min=10.15", node)
    # a number the document's name puts with its name: the Debian release table's row for 12
    table = _chunk("version: 12; codename: Bookworm; release: 2023-06-10", doc="distro-info-debian.csv")
    assert held_together("Debian 12", "version: 12; codename: Bookworm; release: 2023-06-10", table)
    assert held_together("Debian 11", "Debian GNU/Linux 11 (bullseye) was released in 2021.", _chunk("…"))


def test_a_dotted_name_is_held_run_together_as_a_file_names_it() -> None:
    # real case (realdocs tune rd-003, once sentences were read in their document): "nodejs-http.md" holds Node.js
    assert holds("nodejs-http.md", "Node.js")
    assert not holds("my_PRIORITY_LOW", "PRIORITY_LOW")  # an identifier is still held as written


def test_a_modules_member_is_held_by_its_section_on_the_modules_page() -> None:
    # real case (realdocs tune rd-006): "new Agent([options])" on nodejs-http.md, under the page's "Class: http.Agent"
    chunk = {"chunk_id": "nodejs-http.md#8", "doc_name": "nodejs-http.md", "section": "new Agent([options])",
             "text": "maxFreeSockets {number} Maximum number of sockets per host. Default: 256.", "page": None,
             "relevance": 1.0, "score": 1.0}
    assert missing(["http.Agent"], [("Default: 256.", chunk)]) == []
    assert missing(["https.Agent"], [("Default: 256.", chunk)]) == ["https.Agent"]


def test_a_setting_of_three_hyphenated_words_is_an_anchor_and_a_key() -> None:
    # real case (fresh tune fd-057): min-release-age-exclude's empty default answered by its neighbour's "Default: null"
    from masis.judge.anchors import is_key

    assert anchors("What is the default of npm outdated's min-release-age-exclude?") == ["min-release-age-exclude"]
    assert is_key("min-release-age-exclude")
    assert anchors("Is keep-alive on by default?") == []  # a hyphenated word, not a setting


def test_a_key_only_listed_before_another_ones_value_is_told_apart() -> None:
    from masis.judge.anchors import listed_only

    line = "[Constant]AES_MIN_KEY_SIZE [Constant]AES_MAX_KEY_SIZE [Constant]AES_KEY_SIZE Default AES key size, 32."
    assert listed_only(line, "AES_MIN_KEY_SIZE")
    assert not listed_only(line, "AES_KEY_SIZE")
    assert not listed_only("recvBufferSize and sendBufferSize default to 8192.", "recvBufferSize")  # both
    assert not listed_only("Use --shallow or --depth to cut history.", "--shallow")  # no value at all
    # a key that running words name is not another entry (util-linux's column entry, test_precision.py)
    assert not listed_only("what: column --columns why: renamed to --output-width since: v2.30", "--columns")
    # a flag's other spelling in brackets is the same entry (guidedocs tune gd-007, asked back with the right draft)
    news = "* Noteworthy changes in release 1.6 (2013-06-09) gzip now accepts the --keep (-k) option, like bzip2."
    assert not listed_only(news, "--keep")
    assert listed_only("--keep --force -v 12", "--keep")


def test_a_month_beside_a_year_or_a_day_is_a_constraint_its_rows_must_meet() -> None:
    # policydocs tune pd-054: "the sept 2022 release" was answered with the Nov 2022 row of the stewards table
    assert anchors("who was the node security steward for the sept 2022 release?") == ["sept", "2022"]
    assert anchors("What happened on 3 March?") == ["3 March"]  # a day with its month (stop 65)
    assert holds("released on 2022-03-03", "3 March") and holds("Datadog | 2022-Mar-03", "3 March")
    assert anchors("What may I do in 2022?") == ["2022"]  # the modal, not the month
    assert holds("Datadog | Vladimir | 2022-Sep-23", "sept")
    assert holds("released on 2022-09-23", "September")
    assert not holds("NodeSource | Juan | 2022-Nov-04", "sept")
    assert not holds("It may ship in 2022.", "September")
    # a name that starts like a month is still a name
    assert holds("Marc Lopez signed it", "Marc") and not holds("March 2022", "Marc")
    assert not is_name("September")


@pytest.mark.parametrize(
    ("question", "settings"),
    [
        ("What is the default value of npm ls's include option?", ["include"]),
        ("What is the default cache-max setting?", ["cache-max"]),
        ("What is the default of http.timeout in Cargo's config?", []),  # not the "s" of "Cargo's"
        ("What is the default of the --depth option?", []),  # a flag is a key already
        ("Which option disables it?", []),
        # the kind of option, not its name (kitdocs tune kt-043, asked back for 'command-line')
        ("Which command-line option of the cssesc binary makes the output a CSS identifier?", []),
        ("Which boolean setting turns it off?", []),
    ],
)
def test_a_plain_word_the_question_calls_an_option_is_a_setting(question: str, settings: list[str]) -> None:
    assert named_settings(question) == settings


def test_a_table_passage_s_row_numbers_hold_no_figure_the_question_asks_for() -> None:
    # opsdocs tune od-096: "What does a NEEDRESTART-KSTA value of 4 mean?" was answered with the row of value 0 at
    # confidence 1.0: the 4 of its passage's heading "rows 1-4 of …" counted as held
    row = "NEEDRESTART-KSTA value: 0; Meaning: unknown or failed to detect."
    chunk: EvidenceChunk = {"chunk_id": "k.csv#1", "doc_name": "needrestart-kernel-status.csv", "text": row,
                            "page": None, "section": "rows 1-4 of NEEDRESTART-KSTA value, Meaning", "relevance": 1.0,
                            "score": 1.0}
    assert missing(["NEEDRESTART-KSTA", "4"], [(row, chunk)]) == ["4"]
    assert missing(["NEEDRESTART-KSTA", "0"], [(row, chunk)]) == []


def test_a_section_number_opening_a_line_is_no_version() -> None:
    # opsdocs tune od-147: "What changed in chrony 4.4?" was answered with the FAQ's "4.4. Is the chronyc / chronyd
    # protocol documented anywhere?"
    faq = "Frequently asked questions\n? 4.4. Is the chronyc / chronyd protocol documented anywhere?\nNo."
    assert not holds(faq, "4.4") and not holds(faq, "chrony 4.4")
    assert holds("New in version 4.4\n=================", "4.4")
    assert holds("4.4 (2023-08-09)\nAdded support for NTS.", "4.4")  # a changelog's heading keeps its version


def test_a_query_option_as_dig_writes_it_is_an_anchor_held_as_written() -> None:
    # dig(1): "+tries=T This option sets the number of times to try …", "+short, +noshort"
    assert anchors("How many times does dig try a query by default (+tries)?") == ["+tries"]
    assert holds("+tries=T This option sets the number of times to try UDP and TCP queries", "+tries")
    assert not holds("+retry=T This option sets the number of times to retry", "+tries")
    assert not holds("+noshort", "+short")
    assert anchors("Is a + b commutative?") == []


def test_a_release_is_not_held_by_the_later_parts_of_another_version() -> None:
    # ccache's NEWS starts at 3.0: its "Ccache 3.2.4" section says nothing of ccache 2.4
    assert not holds("Ccache 3.2.4\nRelease date: 2015-10-08", "2.4")
    assert holds("Ccache 2.4\nRelease date: 2004-09-13", "2.4")
    assert holds("Bug fixes since 3.2.4 and 2.4", "2.4")
    assert holds("Python 3.12.6", "3.12")  # a patch release of the release asked about


def test_a_day_is_read_with_its_month_and_a_bare_number_is_not_held_by_a_dates_day() -> None:
    # libxslt's news: "What does xsltproc return code 12 mean?" is not answered under "1.1.27: Sep 12 2012"
    assert anchors("What does xsltproc return code 12 mean?") == ["12"]
    assert not holds("1.1.27: Sep 12 2012", "12")
    assert holds("1.1.27: Sep 12 2012", "2012")
    # a date asked about keeps its day, held in either order or as an ISO date
    assert anchors("What is TAI-UTC from 1 Jan 2017 according to the leap second list?") == [
        "TAI-UTC", "1 Jan", "2017"]
    assert holds("3692217600 37 # 1 Jan 2017", "1 Jan")
    assert holds("on January 1st, 2017", "1 Jan") and holds("2017-01-01", "1 Jan")
    assert not holds("1 Jul 2017", "1 Jan") and not holds("11 Jan 2017", "1 Jan")


def test_a_camel_case_setting_is_held_as_written() -> None:
    # real case (secdocs sc-041): "sessionResume" was held by 4.29's "sessiond" (a derived form of its first part),
    # and the release that added another option was quoted at 0.82
    assert anchors("Which stunnel version added the sessionResume option?") == ["sessionResume"]
    assert not holds('A new service-level "sessiond" option was added.', "sessionResume")
    assert holds("New 'sessionResume' service-level option", "sessionResume")
    assert holds("Set SESSIONRESUME to no", "sessionResume")  # the case of a setting is not its name


def test_a_scoped_key_is_held_by_its_name_under_its_group() -> None:
    # apt.conf(5) writes the Acquire group's settings by their own names (sysdocs tune sy-095)
    key = "Acquire::MaxReleaseFileSize"
    assert holds("The Acquire group of options … MaxReleaseFileSize The maximum file size …", key)
    assert holds("set Acquire::MaxReleaseFileSize to 0", key)
    assert not holds("MaxReleaseFileSize The maximum file size …", key)  # no group said: another group's setting
    assert not holds("The Acquire group … Acquire::http::MaxReleaseFileSize", key)  # a longer key
    assert not holds("The Acquire group … Acquire::Languages", key)


def test_a_word_run_together_is_held_by_its_halves_written_apart() -> None:
    # find(1) (libdocs lb-098): "symlinks" is asked, "-P Never follow symbolic links" answers; the clarification said
    # "The documents do not mention symlinks"
    assert holds("-P Never follow symbolic links.", "symlinks")
    assert holds("when the file system is full", "filesystem") and holds("the host name", "hostname")
    assert holds("mawk's built-in regular expression engine", "regex")  # moredocs cv-253, a section of its own
    assert not holds("find will follow links", "symlinks")  # half of it is no word written apart
    assert not holds("a symbol, and other links", "symlinks")  # the halves must be neighbours


@pytest.mark.parametrize("text", [
    "-P Never follow Symbolic-Links.", "the file system2 is full", "a file systems list", "file  system",
    "\u017fymbolic links", "HOST NAME", "regular expressions, regular_expression", "xfile system", "host names2",
])
@pytest.mark.parametrize("word", ["symlinks", "filesystem", "hostname", "regex", "filesystems", "hostnames"])
def test_a_word_written_apart_is_read_from_the_texts_pairs_as_its_patterns_would(text: str, word: str) -> None:
    # the one pass over the text's pairs of words stands in for a pattern per cut of the word (stop 86, for speed)
    from masis.judge.anchors import _apart_pattern, _written_apart

    by_patterns = any(_apart_pattern(word, cut).search(text) is not None for cut in range(3, len(word) - 1))
    assert _written_apart(text, word) == by_patterns


def test_a_letters_flag_is_held_with_its_figure_run_on() -> None:
    # strace's NEWS (libdocs lb-004): "-D option now implies -I4" holds the -I asked about
    assert holds("* -D option now implies -I4: by default strace ignores SIGHUP", "-I")
    assert holds("build with -O2", "-O") and not holds("build with -Os", "-O") and not holds("-v is verbose", "-V")


def test_a_wheels_metadata_is_its_readme() -> None:
    # libdocs lb-043: "Which Docker image does the openapi-spec-validator README use …?" over its wheel's METADATA
    quote = "docker way: docker run --rm pythonopenapi/openapi-spec-validator /openapi.yaml"
    name = "openapi-spec-validator-METADATA.rst"
    chunk = EvidenceChunk(chunk_id=f"{name}#6", doc_name=name, text=quote, relevance=1.0, page=None)
    assert missing(["README"], [(quote, chunk)]) == []
    other = EvidenceChunk(chunk_id="openapi-NEWS.txt#1", doc_name="openapi-NEWS.txt", text=quote, relevance=1.0,
                          page=None)
    assert missing(["README"], [(quote, other)]) == ["README"]


def test_a_flags_short_and_long_forms_are_held_by_either() -> None:
    # mandocs tune md2-060 and md2-088: "-M/--memory" was asked back above zstd's "-M#, --memory=#" entry
    assert holds("-M#, --memory=#: Set a memory usage limit.", "-M/--memory")
    assert holds("-t, --target-release, --default-release This option controls", "-t/--target-release")
    assert not holds("--ultra: unlocks high compression levels", "-M/--memory")


def test_two_names_joined_by_a_slash_are_held_apart() -> None:
    # extradocs tune xd-003, configdocs cd-011: gcloud's "builds/timeout" is "timeout" under "[builds]"
    assert holds("[builds]\ntimeout Timeout, in seconds, to wait for builds to complete", "builds/timeout")
    assert not holds("timeout Timeout, in seconds, to wait for Docker builds", "compute/timeout")
    assert holds("UIDs and GIDs: the UID and GID ranges", "UID/GID")
    # a path is held as written
    assert not holds("var and lib", "/var/lib")


def test_a_snake_case_name_is_held_by_its_hyphenated_file_name() -> None:
    # platformdocs tune pf-071: node_exporter's own changelog
    assert holds("prometheus-node-exporter-CHANGELOG.md", "node_exporter")
    assert not holds("prometheus-node-CHANGELOG.md", "node_exporter")


def test_a_capital_letter_a_code_noun_names_is_an_anchor() -> None:
    # shelfdocs tune sf-073 (answered at 1.0 with the entry of state code D): "I" is kept out as the pronoun
    assert anchors("What does the process state code I mean in ps output?") == ["I"]
    assert anchors("What does the process state code D mean in ps output?") == ["D"]
    assert anchors("Can I change the exit code?") == []


def test_a_lower_camel_case_name_keys_an_entry_and_a_brand_does_not() -> None:
    # deskdocs tune dk-028: undici's `keepAliveMaxTimeout` entry mentions `keepAliveTimeout`, whose own entry keys it
    from masis.judge.anchors import is_entry_key, is_key

    assert is_entry_key("keepAliveTimeout") and is_entry_key("statusCodes") and is_entry_key("--depth")
    assert not is_key("keepAliveTimeout")  # a question may name one in passing ("when dualStack is false")
    assert not any(is_entry_key(brand) for brand in ("macOS", "iPhone", "mRNA", "jQuery", "eBay"))


def test_a_number_named_as_a_code_is_a_coded_number() -> None:
    from masis.judge.anchors import coded_numbers

    assert coded_numbers("What does exit status 1 of dpkg-deb mean?") == ["1"]
    assert coded_numbers("In GnuPG's status output, what does INV_RECP reason code 10 mean?") == ["10"]
    assert coded_numbers("What does signal 9 do, and error 13?") == ["9", "13"]
    assert coded_numbers("Which status does version 2.1 report?") == []
    assert coded_numbers("What changed in status 2.1?") == []  # a version, not a code


def test_a_setting_named_with_its_equals_sign_is_held_where_it_gets_a_value() -> None:
    # deskdocs tune dk-065: os-release(5) writes "SYSEXT_SCOPE=system portable"
    assert holds('If unspecified, "SYSEXT_SCOPE=system portable" is implied.', "SYSEXT_SCOPE=")
    assert not holds('"SYSEXT_LEVEL=2"', "SYSEXT_SCOPE=")


def test_a_word_before_option_or_setting_is_a_setting_only_when_it_can_be_a_name() -> None:
    assert named_settings("What overhead is CAKE's pppoa-llc keyword equivalent to?") == ["pppoa-llc"]
    assert named_settings("what does setting SYSTEMD_OFFLINE=1 do") == []  # conversations cv-123: a verb
    assert named_settings("how do I make upsd reload its config file?") == []  # opsdocs od-102: a file, and "its"
