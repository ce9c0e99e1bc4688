"""An option entry's term lines above each paragraph of its description, in text laid out as a man page."""

from __future__ import annotations

from masis.ingest.entries import repeat_entry_terms
from masis.ingest.loaders import load_document

PG_RESTORE = """OPTIONS
       -j number-of-jobs
       --jobs=number-of-jobs
           Run the most time-consuming steps of pg_restore concurrently, using up to
           number-of-jobs concurrent sessions.

           Only the custom and directory archive formats are supported with this option.

       -l
       --list
           List the table of contents of the archive.

ENVIRONMENT
       PGHOST
           Default connection parameters.
"""


def test_each_paragraph_of_an_entry_is_written_under_its_term() -> None:
    # datadocs tune dd-058: "Only the custom and directory archive formats …" read as if it belonged to no option
    lines = repeat_entry_terms(PG_RESTORE).split("\n")
    at = lines.index("           Only the custom and directory archive formats are supported with this option.")
    assert lines[at - 2 : at] == ["       -j number-of-jobs", "       --jobs=number-of-jobs"]
    assert lines[at - 3] == ""  # the paragraphs stay apart
    # an entry of one paragraph, and text outside any option's entry, are left as they were
    assert repeat_entry_terms(PG_RESTORE).count("--list") == 1
    assert repeat_entry_terms(PG_RESTORE).count("PGHOST") == 1


def test_a_term_with_a_blank_line_under_it_is_joined_to_its_text() -> None:
    gcloud = """FLAGS
           --ssh-key-expire-after=SSH_KEY_EXPIRE_AFTER

             The maximum length of time an SSH key is valid for once created.

             See $ gcloud topic datetimes for duration formats.

GCLOUD WIDE FLAGS
       These flags are available to all commands.
"""
    assert repeat_entry_terms(gcloud) == """FLAGS
           --ssh-key-expire-after=SSH_KEY_EXPIRE_AFTER
             The maximum length of time an SSH key is valid for once created.

           --ssh-key-expire-after=SSH_KEY_EXPIRE_AFTER
             See $ gcloud topic datetimes for duration formats.

GCLOUD WIDE FLAGS
       These flags are available to all commands.
"""


def test_text_without_option_entries_is_unchanged() -> None:
    prose = "Title\n\n  - a list item\n      indented more\n\n  --not-a-term as it opens a line of prose.\n    More.\n"
    assert repeat_entry_terms(prose) == prose
    flush_left = "-v\n    verbose\n\n    more about it\n"  # a term must be indented, as a man page's are
    assert repeat_entry_terms(flush_left) == flush_left


def test_the_text_loader_reads_a_later_paragraph_with_its_option() -> None:
    [section] = load_document("pg_restore.1.txt", PG_RESTORE.encode())
    paragraphs = section.text.split("\n\n")
    later = next(p for p in paragraphs if "Only the custom" in p)
    assert later.split("\n")[0].strip() == "-j number-of-jobs"


def test_a_term_inside_an_entry_keeps_its_own_text() -> None:
    # datadocs tune dd-048: "-F format --format=format" written over "p plain" ran the three into one "sentence"
    pg_dump = """       -F format
       --format=format
           Selects the format of the output. format can be one of the following:

           p
           plain
               Output a plain-text SQL script file (the default).

           Only one format may be given.
"""
    lines = repeat_entry_terms(pg_dump).split("\n")
    assert lines[lines.index("           p") - 1] == ""
    assert lines[lines.index("           Only one format may be given.") - 1] == "       --format=format"


def test_a_bulleted_term_with_a_colon_heads_its_text() -> None:
    # datadocs threads, cv-303: jq's page writes "○   --tab:", a blank line, then the option's text
    jq = "       ○   --tab:\n\n           Use a tab for each indentation level instead of two spaces.\n"
    assert repeat_entry_terms(jq) == (
        "       ○   --tab:\n           Use a tab for each indentation level instead of two spaces.\n")


def test_hostile_text_cannot_multiply() -> None:
    # a long term over thousands of one-word paragraphs: the repeats stop at half the text's size
    term = "       --" + "a" * 60 + "\n"
    text = term + "\n\n".join(["           x"] * 20_000) + "\n"
    assert len(repeat_entry_terms(text)) <= 1.5 * len(text) + len(term)
    # a run of option lines longer than a term is a list of options, not an entry's term
    listing = "".join(f"       --option-{i}\n" for i in range(10)) + "           text\n\n           more\n"
    assert repeat_entry_terms(listing) == listing
