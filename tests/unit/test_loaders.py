"""Loaders: real files of every supported format, built here with fpdf2 and python-docx, and the sample corpus."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import docx
import pytest
from docx.document import Document as DocxDocument
from fpdf import FPDF

from masis.errors import IngestError, UnsupportedFileError
from masis.ingest.chunking import chunk_sections
from masis.ingest.loaders import SUPPORTED_SUFFIXES, Section, load_document

DATA = Path(__file__).resolve().parents[2] / "data"
SAMPLE = DATA / "sample"
CORPUS = (
    "strategy_memo.pdf",
    "budget_fy2026.docx",
    "q3_report.md",
    "remote_work_policy.html",
    "product_roadmap.txt",
    "headcount.csv",
)


def flat(sections: list[Section]) -> str:
    return " ".join(" ".join(s.text.split()) for s in sections)


def make_pdf(pages: list[str], *, user_password: str | None = None, owner_password: str = "owner") -> bytes:
    pdf = FPDF()
    if user_password is not None:
        pdf.set_encryption(owner_password=owner_password, user_password=user_password)
    for text in pages:
        pdf.add_page()
        if text:
            pdf.set_font("Helvetica", size=12)
            pdf.multi_cell(0, 6, text)
        else:
            pdf.rect(20, 20, 100, 60, style="F")  # a "scan": marks on the page, no text
    return bytes(pdf.output())


def docx_bytes(document: DocxDocument) -> bytes:
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


# --- dispatch and generic failures -------------------------------------------------------------------------


def test_supported_suffixes_are_the_documented_formats() -> None:
    assert {".txt", ".md", ".rst", ".pdf", ".docx", ".pptx", ".xlsx", ".html", ".htm", ".csv", ".conf", ".cfg", ".ini",
            ".toml", ".yaml", ".yml"} == SUPPORTED_SUFFIXES


@pytest.mark.parametrize("name", ["redis.conf", "setup.CFG", "php.ini", "pyproject.toml", "compose.yaml", "ci.yml"])
def test_a_configuration_file_is_read_as_text_with_its_comments(name: str) -> None:
    # an operations team documents its settings in the file's comments (redis.conf: "# maxclients 10000" under them)
    data = (b"# Set the max number of connected clients at the same time.\n# By default this limit is 10000.\n\n"
            b"maxclients 10000\n")
    text = flat(load_document(name, data))
    assert "By default this limit is 10000." in text and "maxclients 10000" in text


def test_unsupported_suffix_names_the_formats_to_use() -> None:
    with pytest.raises(UnsupportedFileError) as info:
        load_document("report.xls", b"PK\x03\x04")
    message = str(info.value)
    assert message.startswith(".xls files are not supported")
    assert "PDF, DOCX, PPTX, XLSX, TXT, MD, RST, HTML, CSV or a configuration file (CONF, CFG, INI, TOML, YAML)" in (
        message
    )


def test_a_file_without_an_extension_is_refused_clearly() -> None:
    with pytest.raises(UnsupportedFileError, match="without an extension"):
        load_document("Makefile", b"all:\n\techo hi\n")


def test_suffix_dispatch_ignores_case() -> None:
    sections = load_document("NOTES.TXT", b"Upper-case names load too.")
    assert flat(sections) == "Upper-case names load too."


@pytest.mark.parametrize("suffix", sorted(SUPPORTED_SUFFIXES))
def test_an_empty_file_says_so(suffix: str) -> None:
    with pytest.raises(IngestError, match=r"^the file is empty$"):
        load_document(f"empty{suffix}", b"")


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("blank.txt", b"  \n\n\t \r\n"),
        ("blank.md", b"\n\n   \n"),
        ("blank.html", b"<html><head><title>x</title></head><body><script>var a;</script>  </body></html>"),
        ("header_only.csv", b"department,headcount\n"),
    ],
)
def test_a_document_without_text_says_no_text_found(name: str, data: bytes) -> None:
    with pytest.raises(IngestError, match="no text found"):
        load_document(name, data)


# --- plain text -----------------------------------------------------------------------------------------------


def test_utf8_with_bom_is_decoded_without_the_bom() -> None:
    sections = load_document("bom.txt", "\ufeffNaïve café prices.".encode())
    assert sections == [Section(text="Naïve café prices.")]


def test_cp1252_text_is_decoded_not_dropped() -> None:
    data = "The café’s menu – prices in €.".encode("cp1252")
    with pytest.raises(UnicodeDecodeError):
        data.decode("utf-8")
    assert flat(load_document("menu.txt", data)) == "The café’s menu – prices in €."


def test_bytes_undefined_in_cp1252_fall_back_to_latin1() -> None:
    data = b"Caf\xe9 \x81 menu prices are listed below."  # 0x81 is undefined in cp1252
    assert flat(load_document("odd.txt", data)) == "Café \x81 menu prices are listed below."


def test_utf16_with_bom_is_text_not_binary() -> None:
    assert flat(load_document("wide.txt", "Wide text here.".encode("utf-16"))) == "Wide text here."


@pytest.mark.parametrize(
    "data",
    [
        b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00",  # NUL bytes
        bytes(range(1, 32)) * 20 + b"some letters",  # mostly control characters, no NUL
    ],
)
def test_a_binary_file_named_txt_is_refused(data: bytes) -> None:
    with pytest.raises(IngestError, match="looks like a binary file, not text"):
        load_document("image.txt", data)


def test_txt_keeps_paragraphs_as_blocks() -> None:
    sections = load_document("notes.txt", b"First para\nwrapped here.\r\n\r\nSecond para.")
    assert sections == [Section(text="First para\nwrapped here.\n\nSecond para.")]


def test_txt_release_notes_are_cut_at_their_underlined_headings() -> None:
    # strace's NEWS (libdocs): an item's release is its heading's, which a chunk far down the release no longer held
    news = (
        "Noteworthy changes in release 5.19 (2022-08-12)\n"
        "===============================================\n\n"
        "* Improvements\n  * Enhanced decoding of PTP_* ioctl commands.\n\n"
        "Noteworthy changes in release 5.18 (2022-06-18)\n"
        "===============================================\n\n"
        "Bug fixes\n---------\n\n"
        "* Added --tips option to print strace tips, tricks, and tweaks.\n"
    )
    sections = load_document("strace-NEWS.txt", news.encode())
    assert [s.heading for s in sections] == [
        "Noteworthy changes in release 5.19 (2022-08-12)",
        "Noteworthy changes in release 5.18 (2022-06-18)",
        "Noteworthy changes in release 5.18 (2022-06-18): Bug fixes",  # a sub-heading under its release
    ]
    assert sections[2].text == "Bug fixes\n\n* Added --tips option to print strace tips, tricks, and tweaks."
    assert not any(s.titles_document for s in sections)  # the first release titles no file


def test_txt_release_notes_are_cut_at_their_release_lines_when_nothing_is_underlined() -> None:
    # GMP's and MPFR's NEWS (kitdocs tune kt-001, kt-008): "Since MPFR 4.0.0, what is the minimum precision …?" was
    # asked back, the release line 30 lines above the quote being in no passage of it
    news = (
        "Copyright 2020 Free Software Foundation, Inc.\n\n"
        "Changes from versions 4.0.* to version 4.1.0:\n"
        "- The \"épinards à la crème\" release.\n\n"
        "Changes from versions 3.1.* to version 4.0.0:\n"
        "- The \"dinde aux marrons\" release.\n"
        "- The minimum precision MPFR_PREC_MIN is now 1.\n\n"
        "You can find the changes since version 2.4.1 in the git log.\n"
    )
    sections = load_document("mpfr-NEWS.txt", news.encode())
    assert [s.heading for s in sections] == [
        None, "Changes from versions 4.0.* to version 4.1.0", "Changes from versions 3.1.* to version 4.0.0"]
    assert sections[2].text.endswith("MPFR_PREC_MIN is now 1.\n\nYou can find the changes since version 2.4.1 in the "
                                     "git log.")
    # GMP writes its lines over a blank line and indented notes; the line keeps its words, not its spacing
    gmp = ("Changes between GMP version 6.2.0 and 6.2.1\n\n  BUGS FIXED\n  * A fix.\n\n"
           "Changes between   GMP version 6.1.* and 6.2.0\n\n  FEATURES\n  * BPSW.\n")
    assert [s.heading for s in load_document("gmp-NEWS.txt", gmp.encode())] == [
        "Changes between GMP version 6.2.0 and 6.2.1", "Changes between GMP version 6.1.* and 6.2.0"]
    # a beta's letter is part of its number (Zip's WHATSNEW, conversation cv-204#3: the betas were read as 3.0's)
    betas = ("New things in Zip 3.0 since Zip 3.0h\n\n- Bug fixes.\n\n"
             "New things in Zip 3.0f\n\n- Split pause mode -sp.\n")
    assert [s.heading for s in load_document("zip-WHATSNEW.txt", betas.encode())] == [
        "New things in Zip 3.0 since Zip 3.0h", "New things in Zip 3.0f"]


def test_release_lines_that_open_with_their_number_or_differ_only_in_figures_cut_too() -> None:
    # XZ Utils' NEWS (coredocs tune cr-001): "When was XZ Utils 5.0.0 released?" was asked back, "5.0.0 (2010-10-23)"
    # being in no passage of its notes; "Version 0.21 - July 2020" and "Version 0.20.2 - April 2020" open alike too
    xz = "XZ Utils Release Notes\n======================\n\n5.0.1 (2011-01-29)\n\n    * A fix.\n\n" \
         "5.0.0 (2010-10-23)\n\n    Only the most important changes are listed here.\n"
    assert [s.heading for s in load_document("xz-NEWS.txt", xz.encode())] == [
        None, "5.0.1 (2011-01-29)", "5.0.0 (2010-10-23)"]
    gettext = "Version 0.21 - July 2020\n\n* Runtime behaviour.\n\nVersion 0.20.2 - April 2020\n\n* Bug fixes.\n"
    assert [s.heading for s in load_document("gettext-NEWS.txt", gettext.encode())] == [
        "Version 0.21 - July 2020", "Version 0.20.2 - April 2020"]
    # a release dated first, each month a line of its own (libarchive's NEWS): the month is no part of the opening
    dated = "Apr 08, 2022: libarchive 3.6.1 released\n\nFeb 09, 2022: libarchive 3.6.0 released\n\n" \
            "Jan 03, 2020: Support mbed TLS as optional crypto provider\n"
    assert [s.heading for s in load_document("libarchive-NEWS.txt", dated.encode())] == [
        "Apr 08, 2022: libarchive 3.6.1 released", "Feb 09, 2022: libarchive 3.6.0 released"]


def test_a_gnu_news_files_outline_stars_and_both_wordings_head_its_releases() -> None:
    # libidn2's NEWS (basedocs tune cv-480#1): "Which libidn2 release deprecated idn2_to_ascii_4i()?" was answered at
    # 1.0 with the item and the next release's line run into it, the file one passage with no release heading at all
    news = ("Libidn2 NEWS -- History of user-visible changes.                -*- outline -*-\n\n"
            "* Noteworthy changes in release 2.1.1 (2019-02-08) [beta]\n\n"
            "** Deprecate idn2_to_ascii_4i() in favor of idn2_to_ascii_4i2()\n\n"
            "* Noteworthy changes in release 2.1.0 (2019-01-04) [beta]\n\n** Two exposed functions are gone.\n")
    sections = load_document("libidn2-NEWS.txt", news.encode())
    assert [s.heading for s in sections][1:] == [
        "Noteworthy changes in release 2.1.1 (2019-02-08) [beta]", "Noteworthy changes in release 2.1.0 (2019-01-04) "
        "[beta]"]
    assert "idn2_to_ascii_4i2()" in sections[1].text and "idn2_to_ascii_4i2()" not in sections[2].text
    # the title alone above the first release still titles the file (sysdocs tune sy-001: "When was GNU sed 4.9
    # released?" lost "GNU sed" with it); a mode line or a release's own line titles nothing
    assert sections[0].heading == "Libidn2 NEWS -- History of user-visible changes.                -*- outline -*-"
    assert sections[0].titles_document
    moded = load_document("ld-NEWS.txt", ("-*- text -*-\n\n" + news.split("\n\n", 1)[1]).encode())
    assert moded[0].heading is None
    # grep's NEWS words its old releases "Version 2.5.3": both wordings head releases, each seen twice or more
    grep = ("* Noteworthy changes in release 3.8 (2022-09-02) [stable]\n\n** A fix.\n\n"
            "* Noteworthy changes in release 3.7 (2021-08-14) [stable]\n\n** Another.\n\n"
            "Version 2.5.3\n  - Old.\n\nVersion 2.5.1\n  - Older.\n")
    assert [s.heading for s in load_document("grep-NEWS.txt", grep.encode())] == [
        "Noteworthy changes in release 3.8 (2022-09-02) [stable]", "Noteworthy changes in release 3.7 (2021-08-14) "
        "[stable]", "Version 2.5.3", "Version 2.5.1"]


def test_numbered_questions_and_addresses_at_the_margin_are_no_release_lines() -> None:
    # chrony's FAQ and keepalived.conf(5): "4.1. I keep getting …" and "192.168.10.1" open with a number but date
    # nothing and say no "release"
    faq = "4.1. I keep getting the error 506\n\n  Check the socket.\n\n4.2. I keep getting the error 501\n\n  Ok.\n"
    assert len(load_document("chrony-FAQ.txt", faq.encode())) == 1
    hosts = "virtual_server\n\n192.168.10.1\n\n  weight 1\n\n192.168.10.2\n\n  weight 2\n"
    assert len(load_document("keepalived.txt", hosts.encode())) == 1


def test_a_lone_line_naming_a_version_or_lines_worded_unlike_cut_nothing() -> None:
    prose = "Requires Python 3.11 or later\n- on Linux.\n\nTested on Debian 12.4\n- nightly.\n"
    assert load_document("readme.txt", prose.encode()) == [Section(text=prose.strip())]
    one = "Intro.\n\nVersion 2.0\n- A change.\n"
    assert load_document("one.txt", one.encode()) == [Section(text=one.strip())]


def test_txt_with_one_underlined_line_or_a_table_rule_stays_one_section() -> None:
    # chrony's FAQ: a table's header row over its rule is no heading, and one underline alone cuts nothing
    table = (
        "Frequently Asked Questions\n\n"
        "MS Name/IP address         Stratum Poll Reach LastRx Last sample\n"
        "===============================================================\n"
        "^* foo.example.net               2   6   377    33   +1ms\n\n"
        "Name/IP Address            NP  NR  Span  Frequency  Freq Skew\n"
        "=============================================================\n"
        "foo.example.net            11   5    46     -0.001      0.045\n"
    )
    assert load_document("chrony-FAQ.txt", table.encode()) == [
        Section(text=table.strip(), heading="Frequently Asked Questions", titles_document=True)]
    single = "Title\n=====\n\nOne paragraph."
    assert load_document("one.txt", single.encode()) == [Section(text=single)]
    # util-linux's release schedule (teamdocs): a table's header written with tabs is no heading either
    schedule = ("Release schedule\n----------------\n\nTwo candidates.\n\n"
                "  what\t length\t\twhat will be accepted into upstream\n  ------------------------------------\n"
                "  rc1\t 1-2 weeks\tbug fixes only\n\nRelease criteria\n----------------\n\nmake distcheck passes\n")
    assert [s.heading for s in load_document("schedule.txt", schedule.encode())] == [
        "Release schedule", "Release criteria"]


def test_a_section_counted_from_an_earlier_release_is_its_documents_release() -> None:
    # git's release notes (realdocs rd-059): "Fixes since v2.37" under "Git v2.38 Release Notes" is 2.38's section
    notes = ("Git v2.38 Release Notes\n=======================\n\nUpdates since Git 2.37\n----------------------\n\n"
             "* push.useBitmaps is introduced.\n\nFixes since v2.37\n-----------------\n\n* A fix.\n")
    assert [s.heading for s in load_document("git-2.38.0.txt", notes.encode())] == [
        "Git v2.38 Release Notes", "Git v2.38 Release Notes: Updates since Git 2.37",
        "Git v2.38 Release Notes: Fixes since v2.37"]


# --- Markdown -------------------------------------------------------------------------------------------------


def test_markdown_groups_text_under_headings_and_strips_syntax() -> None:
    text = (
        "Preface before any heading.\n\n"
        "# Budget\n\n"
        "The **total** is *$38 million*, see [the sheet](https://example.com/x) and `code`.\n"
        "A wrapped line with snake_case_name.\n\n"
        "## Budget by department ##\n\n"
        "- Engineering gets _most_\n"
        "1. Sales second\n\n"
        "| team | amount |\n|---|---:|\n| Ops | $7 |\n\n"
        "```\n# not a heading\n```\n"
    )
    sections = load_document("budget.md", text.encode())
    assert [s.heading for s in sections] == [None, "Budget", "Budget by department"]
    assert sections[0].text == "Preface before any heading."
    assert sections[1].text == (
        "The total is $38 million, see the sheet and code. A wrapped line with snake_case_name."
    )
    assert sections[2].text.split("\n\n") == [
        "Engineering gets most",
        "Sales second",
        "team | amount",
        "Ops | $7",
        "# not a heading",
    ]


def test_a_paragraph_of_fields_keeps_one_field_a_line() -> None:
    # webdocs tune wd-036: Starlette's METADATA header ran together as one "sentence", whose other packages' versions
    # answered "What minimum jinja2 version does starlette[full] require?" (none is given) at 1.0
    text = (
        "Name: starlette\nRequires-Python: >=3.11\nRequires-Dist: anyio<5,>=4.0.0\n"
        "Requires-Dist: jinja2; extra == 'full'\n\n"
        "Status: a wrapped paragraph whose first line has a label\nand whose next line has none.\n"
    )
    blocks = load_document("METADATA.md", text.encode())[0].text.split("\n\n")
    assert blocks == [
        "Name: starlette",
        "Requires-Python: >=3.11",
        "Requires-Dist: anyio<5,>=4.0.0",
        "Requires-Dist: jinja2; extra == 'full'",
        "Status: a wrapped paragraph whose first line has a label and whose next line has none.",
    ]
    # reStructuredText joins a paragraph's lines the same way (h11's METADATA.rst)
    assert load_document("METADATA.rst", b"Name: h11\nVersion: 0.16.0\n")[0].text.split("\n\n") == [
        "Name: h11", "Version: 0.16.0"]


def test_myst_directives_keep_what_they_say_and_their_bodies_read_as_markdown() -> None:
    # pip's MyST docs (configdocs pip-caching.md, pip-requirements-file-format.md): a version note's argument and a
    # tab's label were dropped, leaving three cache paths without their systems and "pip cache dir" without "20.1";
    # each now opens the block it is said of
    text = (
        "### `pip cache dir`\n\n```{versionadded} 20.1\n\n```\n\nYou can use `pip cache dir` to get it.\n\n"
        "### Default paths\n\n````{tab} Linux\n```\n~/.cache/pip\n```\n\npip will also respect `XDG_CACHE_HOME`.\n"
        "````\n\n````{tab} Windows\n```\n%LocalAppData%\\pip\\Cache\n```\n````\n\n"
        "```{note}\nA note wrapped\nover two lines.\n```\n\n```{pip-cli}\n$ pip cache dir\n$ pip cache info\n```\n"
    )
    sections = load_document("pip-caching.md", text.encode())
    assert [s.heading for s in sections] == ["pip cache dir", "Default paths"]
    assert sections[0].text == "New in version 20.1: You can use pip cache dir to get it."
    assert sections[1].text.split("\n\n") == [
        "Linux: ~/.cache/pip",
        "pip will also respect XDG_CACHE_HOME.",
        "Windows: %LocalAppData%\\pip\\Cache",
        "A note wrapped over two lines.",  # an admonition's body is Markdown: its lines are one paragraph
        "$ pip cache dir",  # an unknown directive's body is kept line by line, as code is
        "$ pip cache info",
    ]
    # a version note that no block follows in its section stands alone
    alone = load_document("notes.md", b"## A\n\n```{deprecated} 2.0\n```\n\n## B\n\ntext\n")
    assert [(s.heading, s.text) for s in alone] == [("A", "Deprecated since version 2.0."), ("B", "text")]


def test_a_directive_closes_with_its_own_fence_and_a_code_fence_inside_it_with_the_next_fence_line() -> None:
    text = "````{note}\n```\ncode line\n~~~\nbody after the code\n````\n\n# Heading\n\ntext\n"
    sections = load_document("fences.md", text.encode())
    assert [(s.heading, s.text) for s in sections] == [
        (None, "code line\n\nbody after the code"), ("Heading", "text")]


def test_a_fence_indented_under_a_list_item_is_a_fence_and_the_page_after_it_stays_text() -> None:
    # realdocs' npm-install.md: "    ```bash" under an item was no fence, its closing "   ```" opened one, and the rest
    # of the page (its "See Also" links among it) was read as code, "* [npm scripts](/using-npm/scripts)" and all
    text = ("* `npm install <user>/<repo>`:\n\n    Install the package from GitHub.\n\n    Examples:\n\n"
            "    ```bash\n    npm install me/project\n   ```\n\n## See Also\n\n* [npm scripts](/using-npm/scripts)\n")
    sections = load_document("npm-install.md", text.encode())
    assert [(s.heading, s.text) for s in sections] == [
        (None, "npm install <user>/<repo>:\n\nInstall the package from GitHub.\n\nExamples:\n\nnpm install me/project"),
        ("See Also", "npm scripts")]
    # four spaces outside a list are no fence, as before
    plain = load_document("plain.md", b"Text.\n\n    ```\n\nMore text.\n")
    assert [s.text for s in plain] == ["Text.\n\n```\n\nMore text."]


# --- HTML -----------------------------------------------------------------------------------------------------


def test_html_drops_scripts_styles_and_nav_and_groups_under_headings() -> None:
    html = b"""<!DOCTYPE html><html><head><title>Policy</title><style>p { color: red }</style></head>
    <body><header><nav><a href="/">Home</a><a href="/it">IT help desk</a></nav><h1>Remote Work</h1></header>
    <!-- internal note: do not index -->
    <p>Intro   text.</p><script>alert("tracking")</script>
    <h2>Equipment <small>(updated)</small></h2><p>A stipend of <b>$600</b> is paid.</p>
    <h3>Details</h3><ul><li>Desk</li><li>Chair</li></ul>
    <table><tr><th>Item</th><th>Limit</th></tr><tr><td>Monitor</td><td>$250</td></tr></table>
    <h5>Not a section heading</h5><p>Still details.</p></body></html>"""
    sections = load_document("policy.HTM", html)
    everything = flat(sections)
    for hidden in ("Home", "IT help desk", "tracking", "color", "internal note", "Policy"):
        assert hidden not in everything
    assert [s.heading for s in sections] == ["Remote Work", "Equipment (updated)", "Details"]
    assert sections[0].text == "Intro text."
    assert sections[1].text == "A stipend of $600 is paid."
    assert sections[2].text.split("\n\n") == [
        "Desk",
        "Chair",
        "Item | Limit",
        "Monitor | $250",
        "Not a section heading",
        "Still details.",
    ]


def test_html_definition_list_entries_are_one_line_each() -> None:
    # real case (fresh tune fd-007): xsltproc's return codes, each code a <dt> and its meaning a <dd><p>; read as
    # separate lines, the splitter joined code 5's meaning to the number 6
    html = b"""<html><body><h2>DIAGNOSTICS</h2><p>xsltproc return codes:</p><dl>
    <dt><span class="errorcode">5</span></dt><dd><p>Error in the stylesheet</p></dd>
    <dt><span class="errorcode">6</span></dt><dd><p>Error in one of the documents</p></dd>
    <dt><code>--maxdepth</code> VALUE</dt><dd><p>Adjust the maximum depth.</p><p>The default is 3000.</p></dd>
    <dt></dt><dd><p>An entry without a term.</p></dd></dl></body></html>"""
    (section,) = load_document("xsltproc.html", html)
    assert section.text.split("\n\n") == [
        "xsltproc return codes:",
        "5: Error in the stylesheet",
        "6: Error in one of the documents",
        "--maxdepth VALUE: Adjust the maximum depth.",
        "The default is 3000.",
        "An entry without a term.",
    ]


def test_html_definition_keeps_its_term_across_the_page_line_breaks_and_an_empty_one_leaves_it_alone() -> None:
    # real case (secdocs sc-036, stunnel's pod2html manual): "<dt>SIGUSR1</dt>\n<dd>\n\n<p>Close and reopen …" was
    # read as "SIGUSR1:" on a line of its own, and the answer quoted the text without its signal; pod2html's empty
    # "<dt>default: 2</dt><dd></dd>" must not glue itself to the paragraph after the list
    html = b"""<html><body><h1>SIGNALS</h1><dl>
<dt id="SIGHUP">SIGHUP</dt>
<dd>

<p>Force a reload of the configuration file.</p>

</dd>
<dt id="SIGUSR1">SIGUSR1</dt>
<dd>

<p>Close and reopen the <b>stunnel</b> log file.</p>

</dd>
<dt id="default:-2">default: 2</dt>
<dd>

</dd>
</dl>

<p>The <i>securityLevel</i> option needs OpenSSL 1.1.0.</p></body></html>"""
    (section,) = load_document("stunnel.html", html)
    assert section.text.split("\n\n") == [
        "SIGHUP: Force a reload of the configuration file.",
        "SIGUSR1: Close and reopen the stunnel log file.",
        "default: 2",
        "The securityLevel option needs OpenSSL 1.1.0.",
    ]


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ("<p>Le café coûte 3 €.</p>".encode(), "Le café coûte 3 €."),  # UTF-8, no declared charset
        ("<p>Le café – naïve.</p>".encode("cp1252"), "Le café – naïve."),
        ('<meta charset="iso-8859-5"><p>Отчёт за квартал.</p>'.encode("iso-8859-5"), "Отчёт за квартал."),
        ("<p>Wide café page.</p>".encode("utf-16"), "Wide café page."),
    ],
)
def test_html_encodings_are_decoded_predictably(data: bytes, expected: str) -> None:
    assert flat(load_document("page.html", data)) == expected


# --- DOCX -----------------------------------------------------------------------------------------------------


def test_docx_groups_paragraphs_under_headings_and_renders_table_rows() -> None:
    document = docx.Document()
    document.add_paragraph("Opening remark before headings.")
    document.add_heading("Summary", level=1)
    document.add_paragraph("The total operating budget is $38 million.")
    document.add_heading("Budget by department", level=2)
    table = document.add_table(rows=3, cols=3)
    values = [("Dept", "Amount", "Note"), ("Sales", "$9.4m", ""), ("G&A", "$5.1m", "x")]
    for row, row_values in zip(table.rows, values, strict=True):
        for cell, value in zip(row.cells, row_values, strict=True):
            cell.text = value
    merged = table.rows[2].cells[1].merge(table.rows[2].cells[2])
    merged.text = "$5.1m total"
    document.add_paragraph("After the table.")

    sections = load_document("budget.docx", docx_bytes(document))
    assert [s.heading for s in sections] == [None, "Summary", "Budget by department"]
    assert sections[1].text == "The total operating budget is $38 million."
    assert sections[2].text.split("\n\n") == [
        "Dept | Amount | Note",
        "Sales | $9.4m",
        "G&A | $5.1m total",  # a merged cell appears once, not once per spanned column
        "After the table.",
    ]


def test_a_damaged_docx_gives_a_short_actionable_error() -> None:
    document = docx.Document()
    document.add_paragraph("Some text.")
    data = docx_bytes(document)
    with pytest.raises(IngestError) as info:
        load_document("broken.docx", data[: len(data) // 2])
    message = str(info.value)
    assert message.startswith("could not open this DOCX")
    assert "Error" not in message and "Traceback" not in message


def test_an_old_word_file_renamed_docx_is_explained() -> None:
    with pytest.raises(IngestError, match="old-style Word file"):
        load_document("legacy.docx", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 64)


# --- PDF ------------------------------------------------------------------------------------------------------


def test_pdf_gives_one_section_per_page_with_page_numbers() -> None:
    data = make_pdf(["The first page talks about budgets.", "The second page covers risks."])
    sections = load_document("memo.pdf", data)
    assert [s.page for s in sections] == [1, 2]
    assert "budgets" in sections[0].text and "risks" not in sections[0].text
    assert "risks" in sections[1].text
    assert all(s.heading is None for s in sections)


def test_a_page_without_text_is_skipped_but_keeps_page_numbers() -> None:
    sections = load_document("mixed.pdf", make_pdf(["Text page one.", "", "Text page three."]))
    assert [s.page for s in sections] == [1, 3]


def test_a_truncated_pdf_gives_ingest_error_not_a_traceback() -> None:
    data = make_pdf(["Some words on a page."] * 3)
    with pytest.raises(IngestError) as info:
        load_document("cut.pdf", data[: len(data) // 2])
    message = str(info.value)
    assert message.startswith("could not read this PDF (")
    assert "re-export it" in message
    assert "Traceback" not in message and "Error(" not in message and "\n" not in message


def test_bytes_that_are_not_a_pdf_give_ingest_error() -> None:
    with pytest.raises(IngestError, match="could not read this PDF"):
        load_document("fake.pdf", b"%PDF-1.7\nthis is not really a pdf")


def test_a_scanned_pdf_with_no_text_is_explained() -> None:
    with pytest.raises(IngestError, match="looks scanned; no text to index"):
        load_document("scan.pdf", make_pdf(["", ""]))


def test_a_password_protected_pdf_is_explained() -> None:
    data = make_pdf(["Secret plans."], user_password="hunter2")
    with pytest.raises(IngestError, match="this PDF is password-protected"):
        load_document("locked.pdf", data)


def test_a_pdf_encrypted_only_with_an_owner_password_opens() -> None:
    data = make_pdf(["Readable without a password."], user_password="")
    assert b"/Encrypt" in data
    assert "Readable without a password." in flat(load_document("restricted.pdf", data))


# --- CSV ------------------------------------------------------------------------------------------------------


def test_csv_rows_become_sentences_grouped_forty_to_a_section() -> None:
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(["city", "team", "note"])
    for i in range(1, 86):
        writer.writerow([f"City {i}", f"Team {i}", "has, a comma" if i == 1 else ""])
    sections = load_document("offices.csv", buffer.getvalue().encode())
    # each section's heading names its columns too: a passage whose rows all leave one empty still knows it exists
    assert [s.heading for s in sections] == [
        "rows 1-40 of city, team, note",
        "rows 41-80 of city, team, note",
        "rows 81-85 of city, team, note",
    ]
    rows = sections[0].text.split("\n\n")
    assert len(rows) == 40
    assert rows[0] == "city: City 1; team: Team 1; note: has, a comma."
    assert rows[1] == "city: City 2; team: Team 2."  # empty cells are left out
    assert sections[2].text.split("\n\n")[-1] == "city: City 85; team: Team 85."


def test_csv_from_a_european_excel_uses_semicolons_and_cp1252() -> None:
    data = "poste;montant\nCafé;0,9\nCloud;3,1\n".encode("cp1252")
    sections = load_document("eu.csv", data)
    assert sections[0].text.split("\n\n") == ["poste: Café; montant: 0,9.", "poste: Cloud; montant: 3,1."]


def test_csv_ragged_rows_name_the_extra_columns() -> None:
    sections = load_document("ragged.csv", b"name,amount\nTravel,0.9\nCloud,3.1,extra\nShort\n")
    assert sections[0].text.split("\n\n") == [
        "name: Travel; amount: 0.9.",
        "name: Cloud; amount: 3.1; column 3: extra.",
        "name: Short.",
    ]


# --- the sample corpus ----------------------------------------------------------------------------------------

KEY_FACTS = {
    "strategy_memo.pdf": [
        "Kestrel Labs will invest $4.2 million in AI during FY2026.",
        "cut fuel costs by 15% by the end of 2027",
        "We plan to hire 12 machine learning engineers in FY2026.",
        "Every production model is reviewed by the AI Governance Council before launch.",
        "University of Leeds",
    ],
    "budget_fy2026.docx": [
        "The total operating budget for FY2026 is $38 million.",
        "The R&D budget is $11.5 million.",
        "The AI programme budget is $4.2 million",
        "240 full-time employees",
        "Engineering | $16.2 million",
    ],
    "q3_report.md": [
        "Q3 2026 revenue was $12.4 million, up 18% year over year.",
        "Gross margin was 61%",
        "412 customers",
        "Monthly churn was 2.1%",
        "Headcount at quarter end was 231.",
        "cut fuel use by 9% for pilot customers",
    ],
    "remote_work_policy.html": [
        "Employees may work remotely up to 3 days a week.",
        "10:00 to 15:00 local time",
        "equipment stipend of $600",
        "A VPN is required on all company laptops",
        "for at most 4 weeks a year",
    ],
    "product_roadmap.txt": [
        "Q4 2026: Route Optimiser 2.0 launch.",
        "Q3 2027: the legacy dispatch console is retired.",
        "Q3 2026 revenue came in at $11.9 million.",
    ],
    "headcount.csv": ["department: Engineering; headcount: 98; open_roles: 9."],
}


@pytest.fixture(scope="module")
def corpus() -> dict[str, list[Section]]:
    return {name: load_document(name, (SAMPLE / name).read_bytes()) for name in CORPUS}


@pytest.mark.parametrize("name", CORPUS)
def test_each_sample_document_loads_with_its_key_facts(name: str, corpus: dict[str, list[Section]]) -> None:
    text = flat(corpus[name])
    for fact in KEY_FACTS[name]:
        assert fact in text, f"{fact!r} missing from {name}"


@pytest.mark.parametrize(
    ("fact", "home"),
    [
        ("$11.5 million", {"budget_fy2026.docx"}),
        ("$38 million", {"budget_fy2026.docx"}),
        ("$4.2 million", {"strategy_memo.pdf", "budget_fy2026.docx"}),
        ("15%", {"strategy_memo.pdf"}),
        ("machine learning engineers", {"strategy_memo.pdf"}),
        ("$600", {"remote_work_policy.html"}),
        ("3 days a week", {"remote_work_policy.html"}),
        ("412", {"q3_report.md"}),
        ("61%", {"q3_report.md"}),
        ("18%", {"q3_report.md"}),
        ("$12.4 million", {"q3_report.md"}),
        ("$11.9 million", {"product_roadmap.txt"}),
        ("dispatch console", {"product_roadmap.txt"}),
    ],
)
def test_each_sample_fact_lives_only_in_its_document(
    fact: str, home: set[str], corpus: dict[str, list[Section]]
) -> None:
    assert {name for name, sections in corpus.items() if fact in flat(sections)} == home


def test_sample_structure_is_kept(corpus: dict[str, list[Section]]) -> None:
    assert [s.page for s in corpus["strategy_memo.pdf"]] == [1, 2]
    assert "University of Leeds" in corpus["strategy_memo.pdf"][1].text
    assert "Budget by department" in {s.heading for s in corpus["budget_fy2026.docx"]}
    assert {s.heading for s in corpus["remote_work_policy.html"]} >= {"Remote Work Policy", "Equipment"}
    assert {s.heading for s in corpus["q3_report.md"]} >= {"Financial results", "Customers"}
    assert [s.heading for s in corpus["headcount.csv"]] == ["rows 1-5 of department, headcount, open_roles"]


def test_sample_headcount_adds_up_to_the_reported_headcount() -> None:
    rows = list(csv.DictReader(io.StringIO((SAMPLE / "headcount.csv").read_text())))
    assert [r["department"] for r in rows] == [
        "Engineering",
        "Sales",
        "Operations",
        "Customer Success",
        "G&A",
    ]
    assert sum(int(r["headcount"]) for r in rows) == 231


def test_sample_questions_have_gold_answers_in_their_documents(corpus: dict[str, list[Section]]) -> None:
    questions = json.loads((DATA / "sample_questions.json").read_text())
    assert len(questions) >= 10
    assert {q["doc"] for q in questions} == set(CORPUS)
    for q in questions:
        assert set(q) == {"question", "answer", "doc"}
        assert q["answer"] in flat(corpus[q["doc"]]), q


def test_the_roadmap_and_the_report_disagree_on_q3_revenue(corpus: dict[str, list[Section]]) -> None:
    roadmap, report = flat(corpus["product_roadmap.txt"]), flat(corpus["q3_report.md"])
    assert "$11.9 million" in roadmap and "$12.4 million" not in roadmap
    assert "$12.4 million" in report and "$11.9 million" not in report
    assert "gross margin" not in roadmap.lower() and "18%" not in roadmap


def test_markdown_reference_pages_lose_their_markup_and_keep_their_entries() -> None:
    page = (
        "---\ntitle: HTTP\n---\n# HTTP\n\n<!-- YAML\nadded: v0.1.13\nchanges:\n  - version: v20.0.0\n-->\n\n"
        '<a id="ERR_X"></a>\n\n(http-agent)=\n\n'
        "* `maxSockets` {number} Maximum sockets per host.\n  **Default:** `Infinity`.\n"
        "* `maxFreeSockets` {number} Sockets left open in a free state.\n  **Default:** `256`.\n\n"
        "Install {pypi}`keyring` first.\n"
    )
    text = "\n\n".join(s.text for s in load_document("http.md", page.encode()))
    for markup in ("YAML", "v0.1.13", "ERR_X", "http-agent", "title:", "{pypi}"):
        assert markup not in text
    assert "Install keyring first." in text
    from masis.judge.sentences import split_sentences

    chunked = chunk_sections("http.md", load_document("http.md", page.encode()), 1200, 0)[0].text
    assert "maxFreeSockets {number} Sockets left open in a free state." in split_sentences(chunked)
    assert "Default: 256." in split_sentences(chunked)


def test_dashes_under_a_list_item_or_after_a_blank_line_are_no_heading() -> None:
    sections = load_document("notes.md", b"# Notes\n\n* an item\n---\n\nText.\n\n---\n\nMore text.\n")
    assert [s.heading for s in sections] == ["Notes"]
    assert "an item" in sections[0].text and "More text." in sections[0].text


def test_a_markdown_paragraph_of_an_options_name_is_read_with_the_prose_under_it() -> None:
    data = b"Intro.\n\n`--no-cache`\n\nDisable the cache.\n\n* `--item`\n\nNext para.\n\n`--x`\n\n    code\n"
    (section,) = load_document("a.md", data)
    assert section.text.split("\n\n") == ["Intro.", "--no-cache: Disable the cache.", "--item", "Next para.", "--x",
                                          "code"]


def test_a_changelogs_sub_heading_carries_its_release() -> None:
    # charset-normalizer's changelog (teamdocs): "### Added" under each release said nothing of which release it was,
    # so "Which release added explicit support for Python 3.12?" was answered without one
    data = (b"# Changelog\n\n## [3.2.0](https://example.org/compare/3.1.0...3.2.0) (2023-06-07)\n\n### Added\n"
            b"- Explicit support for Python 3.12\n\n## 3.1.0 (2023-03-06)\n\n### Removed\n- Support for Python 3.6\n\n"
            b"## Contributing\n\n### Tests\nRun the suite.\n")
    headings = [s.heading for s in load_document("CHANGELOG.md", data) if s.text.strip()]
    assert headings == ["3.2.0 (2023-06-07): Added", "3.1.0 (2023-03-06): Removed", "Tests"]


def test_an_html_changelogs_sub_heading_carries_its_release() -> None:
    data = (b"<html><body><h1>Changelog</h1><h2>v2.6.25</h2><h3>Added</h3><p>Support for CPython 3.12.13.</p>"
            b"<h2>Install</h2><h3>Linux</h3><p>Run the script.</p></body></html>")
    headings = [s.heading for s in load_document("changes.html", data) if s.text.strip()]
    assert headings == ["v2.6.25: Added", "Linux"]



def test_ligatures_of_pdf_text_are_read_as_their_letters() -> None:
    # graphviz's dotguide.pdf gives "speciﬁed", "ﬁle" and "Koutsoﬁos": a question types "specified" and "file"
    text = flat(load_document("dotguide.pdf", (DATA / "stackdocs" / "files" / "graphviz-dotguide.pdf").read_bytes()))
    assert "specified" in text and "Koutsofios" in text
    assert not any("\ufb00" <= char <= "\ufb06" for char in text)
    assert flat(load_document("notes.txt", "The ﬁle is speciﬁed ﬁrst, then ﬂushed.".encode())) == (
        "The file is specified first, then flushed.")


def test_html_drops_a_headings_link_to_itself() -> None:
    # Sphinx (borgbackup's FAQ, h5py's) and texinfo (libffi) end each heading with a "¶" linking to it
    page = (b'<html><body><h2>Can I back up to multiple targets?<a class="headerlink" href="#targets" '
            b'title="Permalink to this heading">\xc2\xb6</a></h2><p>Yes <a href="#how">see below</a>.</p>'
            b'<h3>2.1 The Basics <a class="copiable-anchor" href="#The-Basics">\xc2\xb6</a></h3><p>Text.</p>'
            b'</body></html>')
    sections = load_document("faq.html", page)
    assert [s.heading for s in sections] == ["Can I back up to multiple targets?", "2.1 The Basics"]
    assert flat(sections) == "Yes see below. Text."


def test_html_laid_out_in_a_table_keeps_its_headings_and_blocks() -> None:
    # libxslt's pages: the menu in one cell, the whole page (headings, lists, <br> lines) in the next
    page = (b"<html><body><table><tr><td><ul><li>Home</li><li>FAQ</li></ul></td><td>"
            b"<h3>v1.1.35: Feb 16 2022</h3><ul><li>Security:<br />Fix use-after-free<br />Fix a leak<br /></li></ul>"
            b"<h3>v1.1.34: Oct 30 2019</h3><p>Portability fixes.</p></td></tr></table>"
            b"<table><tr><th>flag</th><th>meaning</th></tr><tr><td><p>-v</p></td><td><p>verbose</p></td></tr></table>"
            b"</body></html>")
    sections = load_document("news.html", page)
    assert [s.heading for s in sections] == [None, "v1.1.35: Feb 16 2022", "v1.1.34: Oct 30 2019"]
    assert sections[1].text.split("\n\n") == ["Security:", "Fix use-after-free", "Fix a leak"]
    assert sections[2].text.split("\n\n") == ["Portability fixes.", "flag | meaning", "-v | verbose"]  # a data table
