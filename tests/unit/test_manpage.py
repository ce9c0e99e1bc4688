"""A man page rendered as text is read by its layout: sections, "term: description" entries and table rows (the pages
of data/mandocs, cut down)."""

from __future__ import annotations

from masis.ingest.loaders import load_document
from masis.ingest.manpage import is_manpage

SQLITE = """SQLITE3(1)                           General Commands Manual                           SQLITE3(1)

NAME
       sqlite3 - A command line interface for SQLite version 3

SQLITE META-COMMANDS
       sqlite> .help
       .dump ?TABLE? ...      Dump the database in an SQL text format
                                If TABLE specified, only dump tables matching
                                LIKE pattern TABLE.
       .nullvalue STRING      Use STRING in place of NULL values
       .prompt MAIN CONTINUE  Replace the standard prompts

OPTIONS
       -list  Query  results  will  be  displayed  with  the  separator (|, by default) character
              between each field value.  The default.

       -mmap N
              Set default mmap size to N

       -nullvalue string
              Set string used to represent NULL values.  Default is '' (empty string).

   EXIT status:
       124    if COMMAND times out, and --preserve-status is not specified

       2   Parse error---for instance, when parsing command-line options, the .wgetrc or
           .netrc...

                                   2023-01-28                                    SQLITE3(1)
"""


def test_a_man_page_is_known_by_its_header_line() -> None:
    assert is_manpage(SQLITE)
    assert not is_manpage("README(1) is how we name the readme\n\nplain text")
    assert not is_manpage("Release notes\n\nSQLITE3(1)")


def test_each_option_keeps_its_term_and_a_neighbours_default_stays_the_neighbours() -> None:
    sections = load_document("sqlite3.1.txt", SQLITE.encode())
    assert [s.heading for s in sections] == [
        "SQLITE3(1) General Commands Manual", "SQLITE META-COMMANDS", "OPTIONS", "EXIT status"]
    assert sections[0].titles_document and sections[0].text == "sqlite3 - A command line interface for SQLite version 3"
    assert sections[2].text.split("\n\n") == [
        # a description that starts on the term's line goes on as one paragraph
        "-list Query results will be displayed with the separator (|, by default) character between each field "
        "value. The default.",
        "-mmap N: Set default mmap size to N",
        "-nullvalue string: Set string used to represent NULL values. Default is '' (empty string).",
    ]
    assert sections[3].text.split("\n\n") == [
        "124 if COMMAND times out, and --preserve-status is not specified",
        "2 Parse error---for instance, when parsing command-line options, the .wgetrc or .netrc...",
    ]


def test_aligned_columns_are_table_rows_and_a_line_indented_further_goes_on_its_row() -> None:
    rows = load_document("sqlite3.1.txt", SQLITE.encode())[1].text.split("\n\n")
    assert rows == [
        "sqlite> .help",
        ".dump ?TABLE? ... | Dump the database in an SQL text format If TABLE specified, only dump tables matching "
        "LIKE pattern TABLE.",
        ".nullvalue STRING | Use STRING in place of NULL values",
        ".prompt MAIN CONTINUE | Replace the standard prompts",
    ]


def test_a_description_cut_mid_sentence_by_blank_lines_is_joined_again() -> None:
    page = ("TIMEOUT(1)      User Commands      TIMEOUT(1)\n\nDESCRIPTION\n       --preserve-status\n\n"
            "              exit with the same status as COMMAND, even when the\n\n              command times out\n")
    [section] = load_document("timeout.1.txt", page.encode())
    assert section.text == "--preserve-status: exit with the same status as COMMAND, even when the command times out"
