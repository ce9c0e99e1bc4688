"""AsciiDoc shipped as `.txt` (ccache's NEWS.txt): read as the Markdown it stands for, not as markup-laden text."""

from __future__ import annotations

from pathlib import Path

from masis.ingest import asciidoc
from masis.ingest.loaders import load_document

CCACHE_NEWS = Path(__file__).resolve().parents[2] / "data" / "platformdocs" / "files" / "ccache-NEWS.txt"

# the shape of ccache's NEWS.txt: a document title, release sections, list items with a hard line break and a role
NEWS = """= Ccache news

== Ccache 4.7

Release date: 2022-10-22

=== New and improved features

- Added support for subsecond timestamps on macOS. +
  [small]#_[contributed by Joel Rosdahl]_#

- Added link:pass:[https://ccache.dev/manual/4.7.html#_the_depend_mode][depend
  mode] support for MSVC. +
  [small]#_[contributed by Orgad Shaneh]_#

== Ccache 4.6

Release date: 2022-02-27
"""

MAN_SOURCE = """= git-demo(1)
:doctype: manpage

== OPTIONS

--verbose::
-v::
\tBe verbose; see <<config,the configuration>> and https://git-scm.com/docs[the manual].

--quiet:: Say nothing.

[source,shell]
----
$ git demo --verbose
----

// a comment the reader never sees
////
a comment block
////
"""


def test_asciidoc_is_told_by_its_document_title_and_a_section() -> None:
    assert asciidoc.is_asciidoc(NEWS)
    assert asciidoc.is_asciidoc(MAN_SOURCE)
    assert not asciidoc.is_asciidoc("Release notes\n\nSome text.\n")
    assert not asciidoc.is_asciidoc("= a line that only looks like a title\nand no section\n")
    assert not asciidoc.is_asciidoc("x = 1\n== 2\n")  # code, not a title


def test_a_news_file_gets_its_release_headings_and_one_item_a_block_without_markup() -> None:
    sections = load_document("NEWS.txt", NEWS.encode())
    headings = [section.heading for section in sections]
    assert headings == ["Ccache 4.7", "Ccache 4.7: New and improved features", "Ccache 4.6"]
    features = sections[1].text
    assert "Added depend mode support for MSVC. [contributed by Orgad Shaneh]" in " ".join(features.split())
    for markup in ("[small]", "#_", "link:", "pass:", " +\n", "https://ccache.dev"):
        assert markup not in features
    # the two items stay two blocks, not one run-on sentence
    assert features.count("\n") >= 1
    assert features.index("macOS") < features.index("MSVC")


def test_a_definitions_terms_stay_with_its_text_and_listings_become_code() -> None:
    text = asciidoc.to_markdown(MAN_SOURCE)
    assert "--verbose, -v: Be verbose; see the configuration and the manual." in text
    assert "--quiet: Say nothing." in text
    assert "```\n$ git demo --verbose\n```" in text
    for hidden in ("doctype", "comment", "[source,shell]"):
        assert hidden not in text


def test_plain_text_stays_plain_text() -> None:
    text = "Release notes\n\n- Added one thing. +\n  [small]#kept as written#\n"
    sections = load_document("notes.txt", text.encode())
    assert "[small]#kept as written#" in sections[0].text


def test_ccache_news_reads_with_its_release_sections() -> None:
    sections = load_document(CCACHE_NEWS.name, CCACHE_NEWS.read_bytes())
    msvc = next(section for section in sections if "depend mode support for MSVC" in section.text)
    assert msvc.heading == "Ccache 4.7: New and improved features"
    assert not any("[small]#" in section.text or "link:pass:" in section.text for section in sections)
