"""PowerPoint and Excel files, built here with python-pptx and openpyxl: what is read, in what order, under which
heading, and what a damaged, old-style or hostile file is told."""

from __future__ import annotations

import datetime as dt
import io
import re
import zipfile

import pytest
from openpyxl import Workbook
from pptx import Presentation
from pptx.util import Inches

from masis.errors import IngestError
from masis.ingest.loaders import Section, load_document
from masis.ingest.sheets import MAX_COLUMNS


def saved(document: Presentation | Workbook) -> bytes:
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


def deck() -> bytes:
    prs = Presentation()
    plan = prs.slides.add_slide(prs.slide_layouts[1])  # title and content
    plan.shapes.title.text = "Fleet plan"
    body = plan.placeholders[1].text_frame
    body.text = "The fleet counts 212 trucks."
    bullet = body.add_paragraph()
    bullet.text = "Twelve electric vans joined in March."
    bullet.level = 1
    plan.notes_slide.notes_text_frame.text = "Mention that the vans were delivered late."
    budget = prs.slides.add_slide(prs.slide_layouts[5])  # title only
    budget.shapes.title.text = "Budget"
    table = budget.shapes.add_table(2, 2, Inches(1), Inches(2), Inches(4), Inches(1)).table
    for (row, col), text in {(0, 0): "Region", (0, 1): "Budget", (1, 0): "North", (1, 1): "4.2 M"}.items():
        table.cell(row, col).text = text
    group = budget.shapes.add_group_shape()
    group.shapes.add_textbox(Inches(1), Inches(4), Inches(3), Inches(1)).text_frame.text = "Grouped remark."
    prs.slides.add_slide(prs.slide_layouts[6])  # blank: nothing to read
    divider = prs.slides.add_slide(prs.slide_layouts[0])
    divider.shapes.title.text = "Questions"
    return saved(prs)


def by_heading(sections: list[Section]) -> dict[str | None, list[str]]:
    return {s.heading: s.text.split("\n\n") for s in sections}


# --- PowerPoint ---------------------------------------------------------------------------------------------


def test_slides_are_read_under_their_titles_with_notes_tables_and_groups() -> None:
    sections = load_document("deck.pptx", deck())
    assert by_heading(sections) == {
        "Slide 1: Fleet plan": ["The fleet counts 212 trucks.", "Twelve electric vans joined in March."],
        "Slide 1: Fleet plan (speaker notes)": ["Mention that the vans were delivered late."],
        "Slide 2: Budget": ["Region | Budget", "North | 4.2 M", "Grouped remark."],
        "Slide 4: Questions": ["Questions"],  # a title alone still says it; the blank slide 3 says nothing
    }
    assert [s.heading for s in sections][:2] == ["Slide 1: Fleet plan", "Slide 1: Fleet plan (speaker notes)"]
    assert all(s.page is None for s in sections)


def test_a_deck_without_text_is_refused_as_such() -> None:
    prs = Presentation()
    prs.slides.add_slide(prs.slide_layouts[6])
    with pytest.raises(IngestError, match="no text found"):
        load_document("blank.pptx", saved(prs))


@pytest.mark.parametrize(
    ("name", "data", "reason"),
    [
        ("old.pptx", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 504, "old-style PowerPoint file (.ppt)"),
        ("cut.pptx", deck()[:4000], "could not open this PPTX; it may be damaged"),
        ("text.pptx", b"just some text, renamed", "could not open this PPTX"),
        ("old.xlsx", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 504, "old-style Excel file (.xls)"),
        ("text.xlsx", b"just some text, renamed", "could not open this XLSX; it may be damaged"),
    ],
)
def test_a_damaged_or_old_style_file_says_what_to_do(name: str, data: bytes, reason: str) -> None:
    with pytest.raises(IngestError) as info:
        load_document(name, data)
    assert reason in str(info.value)
    assert "upload again" in str(info.value)
    assert "Traceback" not in str(info.value) and "KeyError" not in str(info.value)


def with_member(data: bytes, name: str, size: int) -> bytes:
    """`data` (a zip) with one more member of `size` zero bytes: compressed ~1000x, the mark of a bomb."""
    buffer = io.BytesIO(data)
    with zipfile.ZipFile(buffer, "a", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(name, b"\0" * size)
    return buffer.getvalue()


@pytest.mark.parametrize("name", ["bomb.pptx", "bomb.xlsx"])
def test_a_zip_bomb_is_refused_from_its_directory(name: str) -> None:
    good = deck() if name.endswith(".pptx") else saved(Workbook())
    with pytest.raises(IngestError, match=r"refused to unpack this (PPTX|XLSX): .*zip bomb"):
        load_document(name, with_member(good, "ppt/media/blob.bin", 64 * 1024 * 1024))


# --- Excel --------------------------------------------------------------------------------------------------


def fleet_workbook() -> Workbook:
    workbook = Workbook()
    fleet = workbook.active
    fleet.title = "Fleet"
    fleet.append(["Fleet inventory 2026"])
    fleet.append([])
    fleet.append(["Vehicle", "Count", "Since", "Electric", "Cost"])
    fleet.append(["Truck", 212, dt.datetime(2024, 3, 1), False, 0.1 + 0.2])
    fleet.append([])
    fleet.append(["Van", 12.0, dt.datetime(2026, 3, 1, 9, 30), True, None])
    notes = workbook.create_sheet("Notes")
    notes.append(["Only one column here."])
    notes.append(["A second line."])
    workbook.create_sheet("Empty")
    return workbook


def test_each_sheet_is_a_table_whose_rows_read_as_csv_rows_do() -> None:
    sections = load_document("fleet.xlsx", saved(fleet_workbook()))
    assert by_heading(sections) == {
        "Fleet": ["Fleet inventory 2026"],  # the title above the table
        "Fleet, rows 4-6 of Vehicle, Count, Since, Electric, Cost": [  # the rows' numbers in the sheet, the columns
            "Vehicle: Truck; Count: 212; Since: 2024-03-01; Electric: FALSE; Cost: 0.3.",
            "Vehicle: Van; Count: 12; Since: 2026-03-01 09:30; Electric: TRUE.",
        ],
        "Notes": ["Only one column here.", "A second line."],
    }


def test_the_rows_of_a_sheet_and_of_the_same_csv_read_the_same() -> None:
    rows = [["Region", "Revenue", "Note"], *[[f"R{i}", str(i * 10), "" if i % 3 else "checked"] for i in range(95)]]
    workbook = Workbook()
    for row in rows:
        workbook.active.append(row)
    as_csv = "\n".join(",".join(row) for row in rows).encode()
    sheet_text = [s.text for s in load_document("r.xlsx", saved(workbook))]
    csv_text = [s.text for s in load_document("r.csv", as_csv)]
    assert sheet_text == csv_text and len(sheet_text) == 3  # 40 rows a section
    assert [s.heading for s in load_document("r.xlsx", saved(workbook))] == [
        "Sheet, rows 2-41 of Region, Revenue, Note", "Sheet, rows 42-81 of Region, Revenue, Note",
        "Sheet, rows 82-96 of Region, Revenue, Note"]


def with_cached_formula(data: bytes) -> bytes:
    """The workbook with a formula in Sheet!C2 whose value, 224, was saved with it (as Excel does)."""
    source = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for item in source.infolist():
            content = source.read(item.filename)
            if item.filename == "xl/worksheets/sheet1.xml":
                content = re.sub(rb'<c r="C2"[^>]*>.*?</c>', b'<c r="C2"><f>A2+B2</f><v>224</v></c>', content)
            target.writestr(item, content)
    return out.getvalue()


def test_a_formula_gives_the_value_saved_with_it_never_its_text() -> None:
    workbook = Workbook()
    workbook.active.append(["Trucks", "Vans", "Total", "Check"])
    workbook.active.append([212, 12, "=A2+B2", "=A2*2"])  # openpyxl saves no value for C2 or D2
    [section] = load_document("total.xlsx", with_cached_formula(saved(workbook)))
    assert section.text == "Trucks: 212; Vans: 12; Total: 224."
    assert "=" not in section.text


def test_a_stray_cell_far_right_and_a_claimed_million_rows_cost_nothing() -> None:
    workbook = Workbook()
    sheet = workbook.active
    sheet.append(["Name", "Value"])
    sheet.append(["a", 1])
    sheet["XFD1048576"] = "far away"  # the sheet's stored size becomes A1:XFD1048576
    sheet.cell(row=3, column=MAX_COLUMNS + 1, value="past the last column read")
    [section] = load_document("far.xlsx", saved(workbook))
    assert section.text == "Name: a; Value: 1."
    assert section.heading == "Sheet, rows 2-2 of Name, Value"
