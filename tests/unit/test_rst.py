"""reStructuredText read as text: titles become headings, markup is stripped, directives keep or drop their
bodies, and nothing a document names (an include, an image) is ever opened."""

from __future__ import annotations

from pathlib import Path

import pytest

from masis.ingest.loaders import Section, load_document
from masis.ingest.rst import sections, strip_inline

DOCUMENT = """\
=============
 Fleet Report
=============

:Author: Jane Doe

Introduction
============

The fleet counts **212 trucks** and *12 vans* [#]_.

.. note:: Electric vans joined
   the pool in March.

.. image:: van.png
   :alt: a van photo

.. code-block:: python
   :linenos:

   print("hello *world*")

Example::

    literal *stays*

.. toctree::
   :maxdepth: 2

   intro

Budget
------

+---------+--------+
| Region  | Budget |
+=========+========+
| North   | 4.2 M  |
+---------+--------+

=====  ======
Team   People
=====  ======
Ops    12
=====  ======

- First *item*
- Second item

1. One
#. Two

.. [#] Counted in June.

.. This comment
   spans two lines.

.. _ops: https://ops.example.com

>>> 1 + 1
2

| Line one
| Line two
"""


def read(text: str) -> dict[str | None, list[str]]:
    return {s.heading: s.text.split("\n\n") for s in load_document("doc.rst", text.encode())}


def test_titles_become_headings_and_blocks_keep_their_text() -> None:
    assert read(DOCUMENT) == {
        "Fleet Report": ["Author: Jane Doe"],
        "Introduction": [
            "The fleet counts 212 trucks and 12 vans.",
            "Electric vans joined the pool in March.",
            'print("hello *world*")',  # code is literal: no markup stripped
            "Example:",
            "literal *stays*",
        ],
        "Budget": [
            "Region | Budget", "North | 4.2 M",
            "Team People", "Ops 12",
            "First item", "Second item", "One", "Two",
            "Counted in June.",
            ">>> 1 + 1", "2",
            "Line one", "Line two",
        ],
    }


@pytest.mark.parametrize(
    ("markup", "text"),
    [
        ("See :mod:`fleet.routes` and :py:func:`~fleet.routes.optimise`.", "See fleet.routes and optimise."),
        ("Read :ref:`the guide <guide-label>` first.", "Read the guide first."),
        ("`Route Optimiser <https://example.com/ro>`_ ships", "Route Optimiser ships"),
        ("`<https://example.com/ro>`_", "https://example.com/ro"),
        ("Ask Ops_ or `the team`_ or `anonymous`__.", "Ask Ops or the team or anonymous."),
        ("The `default role` and `suffixed`:sub: text", "The default role and suffixed text"),
        ("``code_*x*`` stays as written", "code_*x* stays as written"),
        ("an _`inline target` here", "an inline target here"),
        ("use |product| today, see [1]_ and [CIT2002]_", "use product today, see and"),
        (r"escaped \*stars\* and \`ticks\`", "escaped *stars* and `ticks`"),
        ("snake_case and __init__ and 2*3*4 stay", "snake_case and __init__ and 2*3*4 stay"),
        ("**bold** and *italic*", "bold and italic"),
    ],
)
def test_inline_markup_gives_its_text(markup: str, text: str) -> None:
    assert strip_inline(markup) == text


def test_a_literal_paragraph_marker_shows_as_a_colon_or_goes() -> None:
    assert read("Example::\n\n   x = 1\n") == {None: ["Example:", "x = 1"]}
    assert read("Example ::\n\n   x = 1\n") == {None: ["Example", "x = 1"]}
    assert read("Intro.\n\n::\n\n   x = 1\n\nAfter.\n") == {None: ["Intro.", "x = 1", "After."]}


def test_directives_that_hold_no_text_or_point_elsewhere_are_dropped_with_their_bodies(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("SECRET-PASSAGE from this machine")
    text = (f".. include:: {secret}\n\n.. raw:: html\n\n   <b>RAW-HTML</b>\n\n"
            f".. literalinclude:: {secret}\n\n.. |logo| image:: logo.png\n\n"
            ".. contents:: Table of contents\n   :depth: 2\n\nBody text stays.\n")
    assert read(text) == {None: ["Body text stays."]}


def test_admonitions_tables_and_topics_keep_their_titles_and_bodies() -> None:
    text = (".. warning:: Do not overload the vans.\n\n"
            ".. topic:: Delivery windows\n\n   Vans deliver before noon.\n\n"
            ".. csv-table:: Fleet size\n   :header: \"Kind\", \"Count\"\n\n   \"Truck\", 212\n\n"
            ".. figure:: chart.png\n\n   The caption of the chart.\n")
    assert read(text) == {None: [
        "Do not overload the vans.",
        "Delivery windows", "Vans deliver before noon.",
        "Fleet size", "\"Truck\", 212",
        "The caption of the chart.",
    ]}


def test_a_version_note_says_what_its_version_did_as_sphinx_prints_it() -> None:
    # tooldocs tune tl-037: ctest.1.rst's ".. versionadded:: 3.21" above "Write test results in JUnit format." read
    # as a bare "3.21", and the answer quoted another option's bare "3.14" for the version that added JUnit output
    text = (".. versionadded:: 3.21\n\nWrite test results in JUnit format.\n\n"
            ".. versionchanged:: 3.22 The *format* argument.\n\n"
            ".. deprecated:: 4.0\n   Use the new option.\n")
    assert read(text) == {None: [
        "New in version 3.21.", "Write test results in JUnit format.",
        "Changed in version 3.22: The format argument.",
        "Deprecated since version 4.0. Use the new option.",  # its body joins it
    ]}


def test_an_underline_shorter_than_three_marks_or_a_transition_is_no_title() -> None:
    assert read("A sentence\n--\n\nMore.\n") == {None: ["A sentence --", "More."]}
    assert read("Before.\n\n--------\n\nAfter.\n") == {None: ["Before.", "After."]}


def test_a_document_with_only_markup_has_no_text() -> None:
    from masis.errors import IngestError

    with pytest.raises(IngestError, match="no text found"):
        load_document("empty.rst", b".. toctree::\n\n   intro\n\n.. image:: x.png\n")


def test_sections_carry_their_heading_into_the_chunks() -> None:
    sections = load_document("doc.rst", DOCUMENT.encode())
    assert all(isinstance(s, Section) for s in sections)
    assert [s.heading for s in sections] == ["Fleet Report", "Introduction", "Budget"]


def test_an_options_name_alone_is_read_with_the_prose_under_it() -> None:
    # teamdocs tune td-106: pip's upgrade-options page writes ``--force-reinstall`` alone above its description, and
    # "Which pip option uninstalls and reinstalls …?" was answered by the description without the option's name
    text = (".. option:: -q, --quiet\n\n   Give less output.\n\n``--force-reinstall``\n\nDoesn't affect resolution.\n\n"
            "``--last``\n\n* ``--an-item``\n")
    (section,) = sections(text)
    assert section.text.split("\n\n") == [
        "-q, --quiet: Give less output.", "--force-reinstall: Doesn't affect resolution.", "--last", "--an-item"]
