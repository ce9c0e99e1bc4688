"""A document's numbering standing alone ("Chapter 2.", "2.2.") is a heading, never a quote or an answer's figure."""

from __future__ import annotations

import pytest

from masis.judge.citations import answer_sentences
from masis.judge.quotes import referent
from masis.judge.sentences import (
    is_heading,
    is_keyed_entry,
    is_program_text,
    is_release_line,
    is_synopsis,
    sentence_blocks,
    split_sentences,
    underlined_heading,
    without_numbering,
)


@pytest.mark.parametrize("label", ["Chapter 2.", "Chapter 2", "Section 4.1", "2.2.", "Part IV", "APPENDIX 3"])
def test_numbering_alone_is_a_heading(label: str) -> None:
    assert is_heading(label)


@pytest.mark.parametrize("sentence", ["It had uid 37.", "Default: 5.", "Revenue was 4.2 million.", "civil."])
def test_a_sentence_with_a_figure_is_not(sentence: str) -> None:
    assert not is_heading(sentence)


def test_the_chapter_line_of_an_html_manual_splits_into_a_heading() -> None:
    # real case (base-passwd's users-and-groups.html, realdocs rd-077/rd-136): "Chapter 2." was quoted, and its
    # figure counted as the uid asked for
    first, rest = split_sentences("Chapter 2. Users and Groups")
    assert first == "Chapter 2." and is_heading(first) and rest == "Users and Groups"


def test_a_quote_led_by_its_heading_is_not_led_by_the_chapter_number() -> None:
    # real case (realdocs rd-077): "Chapter 2." led "It had uid 37", stood as a sentence of its own and pushed the
    # answer out of the first three quoted sentences
    passage = "operator\nHistorically, the operator user account was used by system operators. It had uid 37."
    assert referent("It had uid 37.", "Chapter 2. Users and Groups", passage) == "Users and Groups:"
    assert without_numbering("IV. Results") == "Results"
    assert without_numbering("3.19.0 Highlights") == "3.19.0 Highlights"  # a version is no chapter number
    assert without_numbering("2024 goals") == "2024 goals"


def test_records_are_read_apart() -> None:
    # real case (util-linux's deprecated list, realdocs rd-128): the entries ran together into one sentence, and the
    # hwclock entry's "since:" answered for sfdisk --show-size
    chunk = (
        "since: v2.32\nwhat: hwclock -v for version why: renamed to -V since: v2.20\n"
        "what: column --columns why: renamed to --output-width since: v2.30\n"
        'what: sfdisk --show-size why: this does not belong to fdisk, use "blockdev --getsz"'
    )
    assert split_sentences(chunk)[1:] == [
        "what: column --columns why: renamed to --output-width since: v2.30",
        'what: sfdisk --show-size why: this does not belong to fdisk, use "blockdev --getsz"',
    ]
    # a field after a sentence's end stays with its record (realdocs rd-062: hwclock --debug's "since: v2.32")
    fields = "what: hwclock --debug why: may be repurposed later.\nsince: v2.32\nwhat: hwclock -v why: renamed to -V"
    assert split_sentences(fields) == [
        "what: hwclock --debug why: may be repurposed later. since: v2.32",
        "what: hwclock -v why: renamed to -V",
    ]
    ruled = "what: column --columns\nwhy: renamed\nsince: v2.30\n--------------------------\nwhat: sfdisk --show-size"
    assert split_sentences(ruled) == ["what: column --columns why: renamed since: v2.30", "what: sfdisk --show-size"]


def test_a_cited_sentence_ends_at_its_citation() -> None:
    answer = "what: sfdisk --show-size why: use blockdev [a.txt#1]. what: sfdisk --Linux why: unnecessary [a.txt#1]."
    assert len(answer_sentences(answer)) == 2


# linux-perf-tips.txt: a tip a line, none punctuated
TIPS = """For a higher level overview, try: perf report --sort comm,dso
Sample related events with: perf record -e '{cycles,instructions}:S'
Compare performance results with: perf diff [<old file> <new file>]
Skip collecting build-id when recording: perf record -B
To change sampling frequency to 100 Hz: perf record -F 100"""


def test_a_list_of_one_unpunctuated_item_a_line_splits_at_each_line() -> None:
    assert split_sentences(TIPS) == TIPS.splitlines()


def test_a_wrapped_paragraph_stays_one_sentence_though_a_line_starts_with_a_name() -> None:
    wrapped = (
        "The spec defines a mapping from XML (namespaceURI, localName) pairs to\n"
        "MIME types for documents whose root element says what they are, so that\n"
        "Applications can tell them apart."
    )
    assert len(split_sentences(wrapped)) == 1
    greedy = "The board approved the plan that the product team presented at the\nOslo offsite last week."
    assert len(split_sentences(greedy)) == 1
    # wrapped to 72 columns: "Falcon" did not fit on the first line, so the break is the wrap's
    to_width = (
        "Pre-orders open in the United States and Canada for the rugged handheld\n"
        "Falcon X2 on 1 February 2027, and the first units ship to customers in\nMarch."
    )
    assert len(split_sentences(to_width)) == 1


def test_a_line_that_gives_a_command_line_option_is_not_a_heading() -> None:
    assert not is_heading("Skip collecting build-id when recording: perf record -B")
    assert is_heading("Recording options")


@pytest.mark.parametrize(
    "record",
    ["Add prompt customization by @jimenezj8 in https://github.com/o/r/pull/476"],
)
def test_a_linked_list_item_is_a_record_not_a_heading(record: str) -> None:
    assert not is_heading(record)
    assert is_heading("Chapter 2: Users and Groups")
    # a field without a figure names no entry: quoted, it answered for its neighbour's (kept as a label)
    assert is_heading("Default: null")


def test_definition_list_entries_a_line_each_are_read_apart() -> None:
    # real case (fresh tune fd-007): xsltproc's return codes, one "code: meaning" line each, none punctuated, ran
    # together into one sentence of twelve codes
    chunk = (
        "xsltproc return codes provide information.\n5: Error in the stylesheet\n"
        "6: Error in one of the documents\n--maxvars VALUE: Maximum number of variables"
    )
    assert split_sentences(chunk) == [
        "xsltproc return codes provide information.",
        "5: Error in the stylesheet",
        "6: Error in one of the documents",
        "--maxvars VALUE: Maximum number of variables",
    ]


def test_a_man_pages_option_entries_a_line_each_are_read_apart() -> None:
    # mandocs tune md2-085: "-mmap N: Set default mmap size to N" ends on "N" (a stop word) and ran into the next
    # entry, whose "Default is ''" then read as the mmap size's default
    chunk = ("-mmap N: Set default mmap size to N\n-nullvalue string: Set string used to represent NULL values. "
             "Default is '' (empty string).\n-w, --wait, --timeout seconds: Fail if the lock cannot be acquired")
    assert split_sentences(chunk) == [
        "-mmap N: Set default mmap size to N",
        "-nullvalue string: Set string used to represent NULL values.",
        "Default is '' (empty string).",
        "-w, --wait, --timeout seconds: Fail if the lock cannot be acquired",
    ]


def test_an_asciidoc_term_is_read_with_its_text() -> None:
    # real case (fresh tune fd-026): git-subtree's "-P <prefix>::" lines were cut off from "Specify the path …"
    chunk = ("-q:: --quiet::\nSuppress unnecessary output messages on stderr.\n-P <prefix>:: --prefix=<prefix>::\n"
             "Specify the path to the subtree. This option is mandatory for all commands.")
    assert split_sentences(chunk) == [
        "-q:: --quiet:: Suppress unnecessary output messages on stderr.",
        "-P <prefix>:: --prefix=<prefix>:: Specify the path to the subtree.",
        "This option is mandatory for all commands.",
    ]


def test_a_definition_list_entry_as_long_as_a_paragraph_is_no_field_of_the_one_before() -> None:
    # real case (realdocs tune rd-077, after the HTML loader wrote "term: definition" lines): "operator: …" was read
    # as the next field of the "HELP: …" line before it, and "It had uid 37." with that line
    chunk = ("HELP: Is that right? Amanda reportedly uses this, details?\n"
             "operator: Historically, the operator user account was used by system operators to dump backups. "
             "It had uid 37.")
    assert sentence_blocks(chunk)[-1] == [
        "operator: Historically, the operator user account was used by system operators to dump backups.",
        "It had uid 37.",
    ]


def test_the_rows_of_an_options_table_are_read_apart_however_wide() -> None:
    # real case (nextdocs tune nd-019): node-gyp's table of two cells a row ran together, and --devdir's "(default is
    # OS cache directory)" answered for --msvs_version, the widest row ending where the next would not have fitted
    rows = (
        "--tarball=$path | Get headers from a local tarball\n"
        "--devdir=$path | SDK download directory (default is OS cache directory)\n"
        "--ensure | Don't reinstall headers if already present\n"
        "-C $dir, --directory=$dir | Run command in different directory\n"
        "--msvs_version=$version | Set Visual Studio version (Windows only)"
    )
    assert split_sentences(rows) == rows.split("\n")
    # a table of methods the same (moredocs tune md-001: update_sandbox's row ran into service's "=600")
    methods = ("service(name, port, *, expires_in_seconds=600) | Get a ServiceURL for an HTTP service\n"
               "list_sandboxes() | List all sandboxes\n"
               "update_sandbox(name, *, idle_ttl_seconds=None) | Update a sandbox's name or retention settings")
    assert split_sentences(methods) == methods.split("\n")
    # a wrapped line of running text is still one sentence with the next
    assert split_sentences("--devdir sets where headers are downloaded, which by\ndefault is the cache.") == [
        "--devdir sets where headers are downloaded, which by default is the cache."]



def test_a_heading_joined_to_its_underline_stands_apart() -> None:
    # teamdocs tune td-087: negotiator's HISTORY.md writes each release as a setext heading, which reaches the chunk
    # as one line with its underline; the item above it was read as one sentence with the next release's heading
    text = ('0.6.3 / 2022-01-22 ==================\nRevert "Lazy-load modules from main entry point"\n'
            "0.6.2 / 2019-04-29 ==================\nFix sorting charset")
    assert split_sentences(text) == ["0.6.3 / 2022-01-22 ==================",
                                     'Revert "Lazy-load modules from main entry point"',
                                     "0.6.2 / 2019-04-29 ==================", "Fix sorting charset"]
    assert underlined_heading("0.6.3 / 2022-01-22 ==================") == "0.6.3 / 2022-01-22"
    assert underlined_heading("Revert it") is None
    assert is_heading("man-db 2.11.1 (15 November 2022) ================")  # a heading, though it has figures


def test_a_help_texts_options_alone_on_a_line_are_read_with_their_description() -> None:
    # teamdocs tune td-134: charset_normalizer's argparse help, quoted without the option it describes
    text = ("-f, --force Replace file without asking if you are sure, use this\nflag with caution.\n"
            "-t THRESHOLD, --threshold THRESHOLD\nDefine a custom maximum amount of chaos allowed in\n"
            "decoded content. 0. <= chaos <= 1.\n--version Show version information and exit.")
    assert split_sentences(text) == [
        "-f, --force Replace file without asking if you are sure, use this flag with caution.",
        "-t THRESHOLD, --threshold THRESHOLD Define a custom maximum amount of chaos allowed in decoded content.",
        "0. <= chaos <= 1.",
        "--version Show version information and exit.",
    ]


def test_an_option_with_a_placeholder_opens_its_entry() -> None:
    # frontdocs tune fe-083: esbuild(1) writes "--drop:..." over its description; after a description without a closing
    # mark it was read as that description's end, and "Remove certain constructs" as --entry-names'
    text = ("--color=...\nForce use of color terminal escapes (true | false)\n--drop:...\n"
            "Remove certain constructs (console | debugger)\n--entry-names=...\nPath template to use")
    blocks = sentence_blocks(text)
    assert blocks[1] == ["--drop:...", "Remove certain constructs (console | debugger)"]
    assert blocks[2][0] == "--entry-names=..."


def test_argparse_choices_are_an_option_term_too() -> None:
    # datadocs tune dd-041: "-u {0,1,2,3}, --quoting {0,1,2,3}" stood apart from "Quoting style used in …"
    text = ("-u {0,1,2,3}, --quoting {0,1,2,3}\nQuoting style used in the input CSV file: 0 quote\n"
            "minimal, 1 quote all.\n-S, --skipinitialspace\nIgnore whitespace.")
    assert split_sentences(text) == [
        "-u {0,1,2,3}, --quoting {0,1,2,3} Quoting style used in the input CSV file: 0 quote minimal, 1 quote all.",
        "-S, --skipinitialspace Ignore whitespace.",
    ]


def test_a_bulleted_option_term_with_a_colon_is_read_with_its_text() -> None:
    # datadocs threads, cv-303: jq's "○ --tab:" was quoted as a sentence of its own, its text left behind
    text = ("○ --tab:\nUse a tab for each indentation level instead of two spaces.\n"
            "○ --compact-output / -c:\nBy default, jq pretty-prints JSON output.")
    assert split_sentences(text) == [
        "○ --tab: Use a tab for each indentation level instead of two spaces.",
        "○ --compact-output / -c: By default, jq pretty-prints JSON output.",
    ]


def test_a_man_pages_footer_is_a_heading_of_its_own() -> None:
    # mandocs tune md2-007, a near miss ("Since which coreutils version …?") answered with the page's footer
    text = ("Full documentation <https://www.gnu.org/software/coreutils/timeout> or available locally via: info "
            "'(coreutils) timeout invocation'\nGNU coreutils 9.1 September 2022 TIMEOUT(1)")
    assert split_sentences(text)[-1] == "GNU coreutils 9.1 September 2022 TIMEOUT(1)"
    assert is_heading("GNU coreutils 9.1 September 2022 TIMEOUT(1)")
    assert not is_heading("See kill(1) for the signals.")


def test_a_two_cell_tables_rows_are_sentences_of_their_own() -> None:
    # Node.js BUILDING.md's toolchain table (conversations tune cv-106): one "sentence" of every row was quoted
    # whole for "what toolchain is the linux-x64 node binary built with"
    text = ("Binaries at https://nodejs.org/download/release/ are produced on:\n"
            "Binary package | Platform and Toolchain\n"
            "aix-ppc64 | AIX 7.2 TL04 on PPC64BE with GCC 10\n"
            "linux-x64 | RHEL 8 with gcc-toolset-10[^6]\n")
    assert split_sentences(text)[1:] == [
        "Binary package | Platform and Toolchain", "aix-ppc64 | AIX 7.2 TL04 on PPC64BE with GCC 10",
        "linux-x64 | RHEL 8 with gcc-toolset-10[^6]"]
    # one line with a pipe is no table: a shell pipeline in prose stays in its sentence
    assert split_sentences("Count them with\nls | wc -l\nand compare.") == ["Count them with ls | wc -l and compare."]


def test_a_lead_in_line_after_a_finished_paragraph_opens_what_follows_it() -> None:
    # opsdocs tune od-019 (sudo's UPGRADE.md): the 1.9.10 lead-in was read as the end of the 1.9.13 paragraph, so the
    # '^' change it introduces was quoted beside the next lead-in's 1.9.9
    text = ("To restore the old, pre-1.9.13 behavior, run configure using the --with-aix-soname=svr4 option.\n"
            "Upgrading from a version prior to 1.9.10:\n"
            "Sudo now interprets a command line argument in sudoers that begins with a '^' character as a regular "
            "expression.\nUpgrading from a version prior to 1.9.9:\n"
            "Sudo now runs commands with the core limit set to 0.")
    assert sentence_blocks(text) == [
        ["To restore the old, pre-1.9.13 behavior, run configure using the --with-aix-soname=svr4 option."],
        ["Upgrading from a version prior to 1.9.10:"],
        ["Sudo now interprets a command line argument in sudoers that begins with a '^' character as a regular "
         "expression."],
        ["Upgrading from a version prior to 1.9.9:"],
        ["Sudo now runs commands with the core limit set to 0."],
    ]


@pytest.mark.parametrize("line", [
    "usage: normalizer [-h] [-v] [-a] [-n] [-m] [-r] [-f] [-t THRESHOLD] file [file ...]",
    "SYNOPSIS gcloud run deploy [[SERVICE] --namespace=NAMESPACE] [--[no-]allow-unauthenticated] [--async] "
    "[--breakglass=JUSTIFICATION] [--clear-vpc-connector] [--concurrency=CONCURRENCY]",
])
def test_a_usage_line_is_a_synopsis(line: str) -> None:
    assert is_synopsis(line)


@pytest.mark.parametrize("line", [
    # a usage block that goes on to say what each option does is read for what it says (pyenv's install help)
    "Usage: pyenv install [-f] [-kvp] <version> -k/--keep Keep source tree in $PYENV_BUILD_ROOT after installation "
    "(defaults to $PYENV_ROOT/sources) -v/--verbose Verbose mode: print compilation status to stdout",
    "Pass [-n] to skip the check.",
])
def test_a_sentence_with_a_few_options_is_no_synopsis(line: str) -> None:
    assert not is_synopsis(line)


@pytest.mark.parametrize("sentence", [
    # quoted first by the offline engine on the documentation sets' tune splits (teamdocs, apidocs, configdocs,
    # guidedocs, extradocs)
    "import logging logging.basicConfig(level=logging.DEBUG) from slack_bolt import App # export SLACK_SIGNING_SECRET",
    "CRC-32 example: >>> import crcmod.predefined >>> crc32_func = crcmod.predefined.mkCrcFun('crc-32')",
    "An example: $ valgrind --tool=drd --exclusive-threshold=10 drd/tests/hold_lock -i 500 ... ==10668== Acquired at:",
    "{ finishFlush: zlib.constants.Z_SYNC_FLUSH }, (err, buffer) => { if (err) { console.error('An error occurred:', "
    "err); process.exitCode = 1;",
    "For the tutorial program, that would be done as follows: tutorial]$ ./libxslt_tutorial --param rootid",
    '""" if tsize is not None: self.total = tsize return self.update(b * bsize - self.n)',
    "const SocksClient = require('socks').SocksClient; let options = { proxy: { port: 1080 } };",
])
def test_code_and_console_sessions_are_program_text(sentence: str) -> None:
    assert is_program_text(sentence)


@pytest.mark.parametrize("sentence", [
    "Call `fs.readFile()` with an encoding to get a string.",
    "The subscription costs $ 5 a month, or $50 a year.",
    "Import the module before you call connect() (see below); it opens the socket.",
    "The hash function (SHA-256) is applied to each chunk.",
    "By running the command with the --if-present flag, npm will ignore workspaces missing target script.",
    "Set default mmap size to N with -mmap N; the default is 0.",
])
def test_prose_about_code_is_not_program_text(sentence: str) -> None:
    assert not is_program_text(sentence)


def test_entries_of_dotted_flags_a_line_each_are_read_apart() -> None:
    # stackdocs tune sd-066: Alertmanager's `--cluster.*` flags, one "flag value: text (default …)" line each, ran
    # together into one sentence whose defaults then answered for --cluster.settle-timeout, which has none
    chunk = ('--cluster.peer-timeout value: peer timeout period (default "15s")\n'
             "--cluster.settle-timeout value: maximum time to wait for cluster connections to settle\n"
             '--web.listen-address string: address to listen on (default ":9093")')
    assert split_sentences(chunk) == [
        '--cluster.peer-timeout value: peer timeout period (default "15s")',
        "--cluster.settle-timeout value: maximum time to wait for cluster connections to settle",
        '--web.listen-address string: address to listen on (default ":9093")',
    ]


def test_a_query_option_entry_is_read_with_its_term_and_a_cited_sentence_ends_before_the_next_one() -> None:
    from masis.judge.sentences import is_option_term, split_sentences

    assert is_option_term("+short, +noshort")
    assert is_option_term("+bufsize[=B]")
    assert is_option_term("+subnet=addr[/prefix-length], +nosubnet")
    assert not is_option_term("+ this is text")
    passage = "+short, +noshort\nThis option toggles whether a terse answer is provided."
    assert split_sentences(passage) == ["+short, +noshort This option toggles whether a terse answer is provided."]
    answer = "+tries=T This option sets the tries, 3 [a#34]. +recurse, +norecurse This option toggles RD [a#27]."
    assert answer_sentences(answer) == ["+tries=T This option sets the tries, 3 [a#34].",
                                        "+recurse, +norecurse This option toggles RD [a#27]."]


def test_the_items_of_a_plain_text_list_are_sentences_of_their_own() -> None:
    from masis.judge.sentences import split_sentences

    # chrony's NEWS and libssh2's RELEASE-NOTES list items with no closing mark, one a line
    news = ("Enhancements\n------------\n* Add asynchronous name resolving with POSIX threads\n"
            "* Add PTP hardware clock (PHC) refclock driver\n* Add new generic clock driver to slew by adjusting\n"
            "  frequency only and use it on Linux")
    assert split_sentences(news) == [
        "Enhancements", "* Add asynchronous name resolving with POSIX threads",
        "* Add PTP hardware clock (PHC) refclock driver",
        "* Add new generic clock driver to slew by adjusting frequency only and use it on Linux"]
    notes = "This release adds:\n o agent forwarding support\n o OpenSSH Agent support on Windows"
    assert split_sentences(notes) == ["This release adds:", "o agent forwarding support",
                                      "o OpenSSH Agent support on Windows"]
    # a dash that wrapped to the start of a line in prose is no list
    assert split_sentences("The option is rare\n- and only on Linux - today.") == [
        "The option is rare - and only on Linux - today."]


def test_an_entrys_closing_default_stays_with_its_entry_not_the_next_term() -> None:
    # real case (secdocs sc-034, stunnel's manual): retry's "default: no" was read with the next entry's term and
    # quoted at 1.0 as the default of securityLevel
    passage = (
        "retry = yes | no: reconnect a connect+exec section after it was disconnected\n"
        "default: no\n"
        "securityLevel = LEVEL: set the security level\n"
        "reset = yes | no: attempt to use the TCP RST flag\n"
        "default: yes (if supported by OpenSSL)\n"
        "SIGUSR1: Close and reopen the stunnel log file.\n"
    )
    assert split_sentences(passage) == [
        "retry = yes | no: reconnect a connect+exec section after it was disconnected default: no",
        "securityLevel = LEVEL: set the security level",
        "reset = yes | no: attempt to use the TCP RST flag default: yes (if supported by OpenSSL)",
        "SIGUSR1: Close and reopen the stunnel log file.",
    ]
    # the same entry joined into one line by the compressor keeps its default, and its neighbour stays apart
    joined = "retry = yes | no: reconnect a connect+exec section after it was disconnected default: no\n" + (
        "securityLevel = LEVEL: set the security level")
    assert split_sentences(joined)[1] == "securityLevel = LEVEL: set the security level"


def test_a_man_pages_configuration_keyword_is_read_with_its_text_and_opens_its_entry() -> None:
    # real case (secdocs sc-004 / sc-009, sshd_config(5)): each keyword stands alone on its line over its text, so
    # "The default is 6." was read with whatever opened the passage (the Match keyword list naming RevokedKeys)
    page = (
        "PubkeyAuthentication, RekeyLimit, RevokedKeys and X11UseLocalhost.\n"
        "MaxAuthTries\n"
        "Specifies the maximum number of authentication attempts permitted per connection. The default is 6.\n"
        "MaxSessions\n"
        "Specifies the maximum number of open shell sessions. The default is 10.\n"
    )
    assert sentence_blocks(page) == [
        ["PubkeyAuthentication, RekeyLimit, RevokedKeys and X11UseLocalhost."],
        ["MaxAuthTries Specifies the maximum number of authentication attempts permitted per connection.",
         "The default is 6."],
        ["MaxSessions Specifies the maximum number of open shell sessions.", "The default is 10."],
    ]
    # as a passage gives the same entries, a keyword and its text on one line, each still opens its entry
    passage = page.replace("MaxAuthTries\n", "MaxAuthTries ").replace("MaxSessions\n", "MaxSessions ")
    assert sentence_blocks(passage) == sentence_blocks(page)




def test_a_constants_name_alone_on_its_line_is_read_with_its_text() -> None:
    # hostdocs tune hs-101 and hs-100 (e2fsck(8), adduser.conf(5)): "This signal causes e2fsck to start displaying a
    # completion bar" was quoted without SIGUSR1, the name on the line above it
    page = (
        "The following signals have the following effect when sent to e2fsck.\n\n"
        "SIGUSR1\nThis signal causes e2fsck to start displaying a completion bar.\n\n"
        "SYS_DIR_MODE\nThe permissions mode for home directories of system users. Defaults to 0755.\n"
    )
    assert split_sentences(page) == [
        "The following signals have the following effect when sent to e2fsck.",
        "SIGUSR1 This signal causes e2fsck to start displaying a completion bar.",
        "SYS_DIR_MODE The permissions mode for home directories of system users.", "Defaults to 0755.",
    ]
    # a section's name in capitals (no digit, no "_") stays a heading of its own
    assert split_sentences("SIGNALS\nThe following signals have the following effect.")[0] == "SIGNALS"

SUPERVISORD_VALUES = (  # supervisor-configuration.rst's [supervisord] values, as a chunk holds them: a line a block
    "The umask of the supervisord process.\n"
    "Default: 022\nRequired: No.\nIntroduced: 3.0\n"
    "nodaemon\n"
    "If true, supervisord will start in the foreground instead of daemonizing.\n"
    "Default: false\nRequired: No.\nIntroduced: 3.0\n"
    "silent\n"
    "If true and not daemonized, logs will not be directed to stdout.\n"
    "Default: false\nRequired: No.\nIntroduced: 4.2.0\n"
)


def test_a_settings_name_after_the_entry_above_opens_its_own_entry_with_its_fields() -> None:
    # real case (opsdocs tune od-121): "Introduced: 3.0 silent" was read as one sentence, so the silent option's own
    # "Introduced: 4.2.0" stood apart from its name and nodaemon's 3.0 was quoted for it
    assert sentence_blocks(SUPERVISORD_VALUES)[-2:] == [
        ["nodaemon If true, supervisord will start in the foreground instead of daemonizing.",
         "Default: false Required: No. Introduced: 3.0"],
        ["silent If true and not daemonized, logs will not be directed to stdout.",
         "Default: false Required: No. Introduced: 4.2.0"],
    ]
    # as compression rejoins a block on one line, each entry still opens its own
    passage = "\n".join(" ".join(block) for block in sentence_blocks(SUPERVISORD_VALUES))
    assert sentence_blocks(passage)[-2:] == sentence_blocks(SUPERVISORD_VALUES)[-2:]


def test_a_lower_case_word_alone_after_prose_opens_no_entry() -> None:
    # only a field closes an entry: "make" on its own line after an open line is that line wrapped, not a term
    assert sentence_blocks("Run the build with\nmake\nThen go.") == [["Run the build with make"], ["Then go."]]


@pytest.mark.parametrize(("sentence", "keyed"), [
    ("DSHELL The login shell to be used for all new users.", True),  # adduser.conf(5)
    ("EPERM Indicates that the operation is not permitted.", True),  # Node.js's os page
    ("SYSTEM If $SYSTEM is set, it will have the same effect as if it had been specified.", True),  # man(1)
    ("XHR Adapter: Unsubscribed the cancelToken and AbortSignal listeners.", False),  # a change log's area
    ("TLS Extensions support.", False),
    ("GNU Libtasn1 home page: <https://www.gnu.org/software/libtasn1/>", False),
])
def test_a_name_in_capitals_opens_an_entry_only_before_a_defining_word(sentence: str, keyed: bool) -> None:
    assert is_keyed_entry(sentence) is keyed


def test_a_setting_named_in_snake_case_alone_on_its_line_is_read_with_its_text() -> None:
    # sysdocs tune sy-086 (mke2fs.conf(5), its first run): "If set to true, checks will be forced every 180 days" was
    # quoted apart from the name two lines above it, and asked back
    page = ("enable_periodic_fsck\nThis boolean relation specifies whether periodic file system checks should be "
            "enforced at boot time. If set to true, checks will be forced every 180 days.\n"
            "errors Change the behavior of the kernel code when errors are detected.")
    assert sentence_blocks(page)[0] == [
        "enable_periodic_fsck This boolean relation specifies whether periodic file system checks should be enforced "
        "at boot time.", "If set to true, checks will be forced every 180 days."]
    # a word without "_" alone on its line is no setting's name here ("errors" opens its entry on its own line)
    assert sentence_blocks("Description\nThe tool reads files.")[0] == ["Description"]
    # nor is a list's last name over a label (xxhash's README: "xxh3_128" / "Oneshot functions:"; apidocs check
    # ad-031 lost its answer to this until the label was told apart)
    listed = sentence_blocks("Streaming classes:\nxxh3_64\nxxh3_128\nOneshot functions:\nxxh3_64_digest(bytes, seed=0)")
    assert not any(block[0].startswith("xxh3_128 Oneshot") for block in listed)


def test_a_gnu_news_files_items_are_sentences_under_their_release_line() -> None:
    # libidn2's NEWS (basedocs tune cv-480#1): its "**" items have no closing mark; they ran into one sentence with the
    # next release's line, and a short item read as a heading was never quoted
    from masis.judge.sentences import is_heading

    news = ("* Noteworthy changes in release 2.1.1 (2019-02-08) [beta]\n"
            "** Fix free of random value in idn2_to_ascii_4i()\n"
            "** Deprecate idn2_to_ascii_4i() in favor of idn2_to_ascii_4i2()\n"
            "* Noteworthy changes in release 2.1.0 (2019-01-04) [beta]\n** Two exposed functions are gone.")
    assert [sentence for block in sentence_blocks(news) for sentence in block] == [
        "* Noteworthy changes in release 2.1.1 (2019-02-08) [beta]",
        "** Fix free of random value in idn2_to_ascii_4i()",
        "** Deprecate idn2_to_ascii_4i() in favor of idn2_to_ascii_4i2()",
        "* Noteworthy changes in release 2.1.0 (2019-01-04) [beta]", "** Two exposed functions are gone."]
    assert not is_heading("** Deprecate idn2_to_ascii_4i() in favor of idn2_to_ascii_4i2()")
    assert is_heading("- Usage notes") and is_heading("Board update")


def test_a_programs_comment_goes_with_the_key_below_it() -> None:
    # basedocs tune cv-488#3 (@npmcli/arborist's README): "What does the path option … default to?" was answered at 0.85
    # with "path: '/path/to/package/root', // url to the default registry. defaults to npm's default registry": the
    # comment under a key was read as its, and the key's own comment above it went with the line before
    program = ("// options object\n// where we're doing stuff. defaults to cwd.\npath: '/path/to/package/root',\n"
               "// url to the default registry. defaults to npm's default registry\n"
               "registry: 'https://registry.npmjs.org',\n# retries\nretries = 3")
    blocks = [" ".join(block) for block in sentence_blocks(program)]
    assert any("defaults to cwd." in block and "path: '/path/to/package/root'," in block for block in blocks)
    assert not any("path: '/path" in block and "url to the default registry" in block for block in blocks)
    assert "# retries retries = 3" in blocks


def test_an_entrys_code_alone_on_its_line_is_read_with_its_text() -> None:
    # basedocs tune cv-494#1 (tmpfiles.d(5)): "Which tmpfiles.d line type recursively copies a file or directory?" was
    # answered with the description, its type "C" a sentence of its own above it; bd-055 (git-gc(1)): "gc.auto" the same
    page = ("C\nRecursively copy a file or directory, if the destination files or directories do not exist yet.\n"
            "L, L+\nCreate a symlink if it does not exist yet.\n"
            "gc.auto\nWhen there are approximately more than this many loose objects, git gc --auto will pack them.")
    assert sentence_blocks(page) == [
        ["C Recursively copy a file or directory, if the destination files or directories do not exist yet."],
        ["L, L+ Create a symlink if it does not exist yet."],
        ["gc.auto When there are approximately more than this many loose objects, git gc --auto will pack them."]]
    # a heading in words is no code, nor is a code over a label or over a line of two words
    assert sentence_blocks("Options\nThe following options are understood.")[0][0] == "Options"
    assert sentence_blocks("x\nExamples:\nrun it")[0][0] == "x"
    assert sentence_blocks("core.bare\nSee above.")[0][0] == "core.bare"


def test_a_unit_files_setting_alone_on_its_line_opens_its_entry() -> None:
    # systemd.socket(5) (sysdocs tune sy-088, its first run): "MaxConnectionsPerSource=" closed MaxConnections='s
    # entry, so "Disabled by default" read as MaxConnections='s default beside its own "Defaults to 64"
    page = ("MaxConnections=\nThe maximum number of connections to run services instances for, when Accept=yes is "
            "set. Defaults to 64.\nMaxConnectionsPerSource=\nThe maximum number of connections per source IP address. "
            "Disabled by default.\nKeepAlive=\nTakes a boolean argument. Defaults to false.")
    assert sentence_blocks(page) == [
        ["MaxConnections= The maximum number of connections to run services instances for, when Accept=yes is set.",
         "Defaults to 64."],
        ["MaxConnectionsPerSource= The maximum number of connections per source IP address.", "Disabled by default."],
        ["KeepAlive= Takes a boolean argument.", "Defaults to false."],
    ]
    assert is_keyed_entry("MaxConnections= The maximum number of connections …")
    assert not is_keyed_entry("Accept=yes is set for this socket.")


def test_a_changelogs_release_line_ends_the_open_item_above_it() -> None:
    # crcmod's changelog: "* Updated database …" has no closing mark, and the release line under it was read as its wrap
    text = "* Updated database of pre-defined CRC algorithms\n1.6 Enhancement Release - Jan 24, 2010\n* Added XOR out"
    assert sentence_blocks(text)[:2] == [["* Updated database of pre-defined CRC algorithms"],
                                         ["1.6 Enhancement Release - Jan 24, 2010"]]
    assert not is_release_line("Python 3.10 or later is required") and is_release_line("v2.3.1 (2021-05-04)")



def test_a_closing_default_belongs_to_its_parameter_not_to_the_next_one() -> None:
    # deskdocs tune dk-031 (undici's RetryHandler.md read from Markdown): "Default: 2" was read as the start of
    # "retryAfter boolean (optional) - …" and answered maxRetries' default
    text = ("maxRetries number (optional) - Maximum number of retries.\nDefault: 5\n"
            "timeoutFactor number (optional) - Factor to multiply the timeout by for each retry attempt.\nDefault: 2\n"
            "retryAfter boolean (optional) - It enables automatic retry after the Retry-After header is received.")
    assert split_sentences(text) == [
        "maxRetries number (optional) - Maximum number of retries.",
        "Default: 5",
        "timeoutFactor number (optional) - Factor to multiply the timeout by for each retry attempt.",
        "Default: 2",
        "retryAfter boolean (optional) - It enables automatic retry after the Retry-After header is received.",
    ]


def test_a_wrapped_line_that_ends_one_sentence_and_starts_another_is_no_label() -> None:
    # coredocs tune cr-066: findmnt(8)'s "This option is equivalent to -o" was quoted alone, its column list on the
    # next line, the short line before a capitalised one being read as a label
    page = ("Imitate the output of df(1). This option is equivalent to -o\n"
            "SOURCE,FSTYPE,SIZE,USED,AVAIL,USE%,TARGET but excludes all pseudo\nfilesystems.")
    assert split_sentences(page) == [
        "Imitate the output of df(1).",
        "This option is equivalent to -o SOURCE,FSTYPE,SIZE,USED,AVAIL,USE%,TARGET but excludes all pseudo "
        "filesystems."]
    # a short line without a mark before a capitalised one is still a label when it says no sentence's end
    assert split_sentences("To: All staff\nThe office closes at noon.") == [
        "To: All staff", "The office closes at noon."]
