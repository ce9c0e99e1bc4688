"""Hostile and broken files through the real ingest path (each parsed in a limited child process): the good
files in a batch are indexed, each bad one is reported with a reason the user can act on, and nothing
already stored is lost."""

from __future__ import annotations

import io
import os
import zipfile
from pathlib import Path

import docx
import pytest
from pypdf import PdfReader, PdfWriter

from masis.engine import Engine
from tests.conftest import make_settings
from tests.unit.test_loaders import docx_bytes, make_pdf
from tests.unit.test_office_files import deck, fleet_workbook, saved

GOOD = "The Falcon budget is $2 million and the Falcon deadline is March 2027."


def good_docx(text: str = GOOD) -> bytes:
    document = docx.Document()
    document.add_paragraph(text)
    return docx_bytes(document)


def with_extra_members(data: bytes, members: dict[str, bytes | int]) -> bytes:
    """A copy of the zip `data` with more members; an int member is that many zero bytes, streamed."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for item in src.infolist():
            dst.writestr(item, src.read(item.filename))
        for name, content in members.items():
            if isinstance(content, int):
                with dst.open(name, "w") as member:
                    block = bytes(1024 * 1024)
                    for _ in range(content // len(block)):
                        member.write(block)
            else:
                dst.writestr(name, content)
    return out.getvalue()


def aes_pdf(text: str, user_password: str) -> bytes:
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(make_pdf([text]))))
    writer.encrypt(user_password=user_password, owner_password="owner-secret", algorithm="AES-256")
    buffer = io.BytesIO()
    writer.write(buffer)
    return buffer.getvalue()


def test_a_batch_of_hostile_files_indexes_the_good_ones_and_explains_each_bad_one(tmp_path: Path) -> None:
    pdf = make_pdf(["Quarterly numbers are on this page."] * 3)
    files = [
        ("good.txt", GOOD.encode()),
        ("locked.pdf", aes_pdf("The merger closes in May.", user_password="hunter2")),
        ("restricted.pdf", aes_pdf("The cafeteria opens at nine.", user_password="")),
        ("scan.pdf", make_pdf(["", ""])),
        ("cut.pdf", pdf[: len(pdf) // 2]),
        ("bomb.docx", with_extra_members(good_docx(), {"word/media/image1.bin": 64 * 1024 * 1024})),
        ("crowded.docx", with_extra_members(good_docx(), {f"extra/item{i}.xml": b"<a/>" for i in range(2100)})),
        ("huge.md", b"# Big\n" + b"word " * 300_000),
        ("photo.txt", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00" * 10),
        ("menu.txt", "The café’s menu – prices in €.".encode("cp1252")),
        ("empty.md", b""),
        ("sheet.xlsx", b"PK\x03\x04"),
        ("old.xls", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"),
        ("plan.docx", good_docx("The Heron plan ships in June.")),
        ("deck.pptx", deck()),
        ("bomb.pptx", with_extra_members(deck(), {"ppt/media/image1.bin": 64 * 1024 * 1024})),
        ("fleet.xlsx", saved(fleet_workbook())),
        ("cut.xlsx", saved(fleet_workbook())[:3000]),
    ]
    with Engine(make_settings(tmp_path / "data", max_file_bytes=1024 * 1024)) as engine:
        engine.ingest("ws", [("kept.txt", b"The Osprey launch is in April.")])
        report = engine.ingest("ws", files)
        reasons = {r.name: r.reason or "" for r in report.failed}
        assert {r.name for r in report.indexed} == {"good.txt", "restricted.pdf", "menu.txt", "plan.docx", "deck.pptx",
                                                    "fleet.xlsx"}
        assert "this PDF is password-protected; remove the password" in reasons["locked.pdf"]
        assert "looks scanned; no text to index" in reasons["scan.pdf"]
        assert reasons["cut.pdf"].startswith("could not read this PDF (") and "re-export it" in reasons["cut.pdf"]
        assert "refused to unpack this DOCX" in reasons["bomb.docx"] and "zip bomb" in reasons["bomb.docx"]
        assert "refused to unpack this DOCX: it holds 2" in reasons["crowded.docx"]
        assert reasons["huge.md"] == "the file is 1.4 MiB; the limit is 1.0 MiB"
        assert "looks like a binary file, not text" in reasons["photo.txt"]
        assert reasons["empty.md"] == "the file is empty"
        assert reasons["sheet.xlsx"].startswith("could not open this XLSX; it may be damaged")
        assert reasons["old.xls"].startswith(".xls files are not supported; upload PDF, DOCX, PPTX, XLSX")
        assert "refused to unpack this PPTX" in reasons["bomb.pptx"] and "zip bomb" in reasons["bomb.pptx"]
        assert reasons["cut.xlsx"].startswith("could not open this XLSX")
        for reason in reasons.values():
            assert "Traceback" not in reason and "\n" not in reason and len(reason) < 300
        assert [d.name for d in engine.documents("ws")] == sorted(
            ["kept.txt", "good.txt", "restricted.pdf", "menu.txt", "plan.docx", "deck.pptx", "fleet.xlsx"])
        assert engine.store.count("ws", "kept.txt") == 1  # what was stored before is untouched
        menu = engine.ask("ws", "What does the café menu list prices in?")
        assert "€" in (menu.answer or "")



def test_pptx_and_xlsx_are_parsed_in_a_child_process_and_rst_in_this_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Zip containers go to the limited child, as docx does; small reStructuredText is read here, linearly."""
    from masis.errors import IngestError
    from masis.ingest import pipeline

    def where(name: str, data: bytes) -> object:
        raise IngestError(f"parsed in process {os.getpid()}")

    monkeypatch.setattr(pipeline, "load_document", where)
    files = [("deck.pptx", deck()), ("fleet.xlsx", saved(fleet_workbook())), ("notes.rst", b"Notes\n=====\n\nText.")]
    with Engine(make_settings(tmp_path / "data")) as engine:
        reasons = {r.name: r.reason for r in engine.ingest("ws", files).failed}
    here = f"parsed in process {os.getpid()}"
    assert reasons["notes.rst"] == here
    assert reasons["deck.pptx"] != here and reasons["fleet.xlsx"] != here
    assert reasons["deck.pptx"].startswith("parsed in process ") and reasons["fleet.xlsx"].startswith("parsed in")


def test_a_question_is_answered_from_a_sheet_a_slide_and_an_rst_page(tmp_path: Path) -> None:
    rst = b"Routes\n======\n\nThe :term:`Route Optimiser` launches on **14 May 2027**.\n"
    with Engine(make_settings(tmp_path / "data")) as engine:
        report = engine.ingest("ws", [("deck.pptx", deck()), ("fleet.xlsx", saved(fleet_workbook())),
                                      ("routes.rst", rst)])
        assert not report.failed, report.failed
        trucks = engine.ask("ws", "How many trucks does the fleet count?")
        assert "212" in (trucks.answer or "")
        launch = engine.ask("ws", "When does the Route Optimiser launch?")
        assert "14 May 2027" in (launch.answer or "")
        assert [c.doc_name for c in launch.citations] == ["routes.rst"]
        assert "**" not in (launch.answer or "") and ":term:" not in (launch.answer or "")
