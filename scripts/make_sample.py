"""Write the sample corpus: six documents of a fictional company, Kestrel Labs.

Run `python scripts/make_sample.py [DATA_DIR]` (default: the repo's data/). The documents go to
DATA_DIR/sample/, which holds nothing else so that the whole folder can be ingested; the corpus's
README.md and the labelled questions (sample_questions.json) go to DATA_DIR/. The output is
byte-for-byte the same on every run: the PDF's creation date, the DOCX's core properties and its zip
entry timestamps are fixed.

Each fact lives in one document only, so a question has one right source. The one deliberate exception
is Q3 2026 revenue: the quarterly report says $12.4 million and the roadmap's board update says
$11.9 million, which gives the demo a real conflict to clarify.
"""

from __future__ import annotations

import io
import json
import sys
import zipfile
from datetime import UTC, datetime
from pathlib import Path

import docx
from docx.shared import Pt
from fpdf import FPDF

FIXED_TIME = datetime(2026, 1, 9, 9, 0, 0, tzinfo=UTC)
ZIP_TIME = (2026, 1, 9, 9, 0, 0)
DEFAULT_DATA_DIR = Path(__file__).resolve().parent.parent / "data"

# --- 1. strategy_memo.pdf ---------------------------------------------------------------------------------

MEMO_PAGE_1 = [
    ("heading", "AI Investment Strategy FY2026"),
    ("meta", "To: All staff, Kestrel Labs"),
    ("meta", "From: Dana Whitfield, Chief Executive Officer"),
    ("meta", "Date: 9 January 2026"),
    (
        "para",
        "This memo sets out how Kestrel Labs will invest in artificial intelligence over the coming "
        "fiscal year. Our customers move freight through crowded networks, and the quality of our "
        "routing and forecasting is what they pay us for. AI is the most direct way to make that "
        "quality better, so we are making it a funded programme rather than a set of side projects.",
    ),
    (
        "para",
        "Kestrel Labs will invest $4.2 million in AI during FY2026. The money is spread across three "
        "pillars. The first pillar is route optimisation models that plan multi-stop deliveries around "
        "traffic, delivery windows and vehicle capacity. The second pillar is computer vision for "
        "warehouse inspection, which checks pallets and racking for damage from camera feeds. The third "
        "pillar is customer-support copilots that draft answers for our support agents.",
    ),
    ("subheading", "Build versus buy"),
    (
        "para",
        "We will build forecasting and routing models in-house, because they are the core of our "
        "product and our data gives us an edge there. We will buy commodity tools such as "
        "transcription, where the market already offers good and cheap services. Every production "
        "model is reviewed by the AI Governance Council before launch. The council checks accuracy, "
        "privacy and the fallback plan for each model.",
    ),
    ("subheading", "Targets and people"),
    (
        "para",
        "Our headline target is to cut fuel costs by 15% by the end of 2027 for customers who use "
        "our routing. We plan to hire 12 machine learning engineers in FY2026. New hires will join "
        "the existing platform teams rather than a separate AI department, so that models ship with "
        "the products that use them.",
    ),
]

MEMO_PAGE_2 = [
    ("subheading", "Risks"),
    (
        "para",
        "The first risk is data quality. Telematics feeds from older vehicles are patchy, and a model "
        "trained on gaps will make confident mistakes. Each pillar will have a named data owner who "
        "signs off training data before it is used.",
    ),
    (
        "para",
        "The second risk is vendor lock-in. Where we buy tools, we will prefer vendors with open "
        "export formats and keep our own copies of the data we send them.",
    ),
    (
        "para",
        "The third risk is talent competition. Experienced machine learning engineers are in demand "
        "across the industry. We will compete on interesting problems, remote-friendly teams and a "
        "clear path from prototype to production.",
    ),
    ("subheading", "Partnerships"),
    (
        "para",
        "Kestrel Labs has agreed a research partnership with the University of Leeds on demand "
        "forecasting. Researchers at the university will work with anonymised shipment histories to "
        "test new forecasting methods, and our engineers will turn the promising ones into product "
        "features.",
    ),
    (
        "para",
        "Questions about this memo can go to the office of the CEO. Thank you for the work that "
        "made this plan possible.",
    ),
]


def make_memo_pdf() -> bytes:
    pdf = FPDF(format="A4")
    pdf.set_creation_date(FIXED_TIME)
    pdf.set_title("AI Investment Strategy FY2026")
    pdf.set_author("Dana Whitfield")
    pdf.set_creator("Kestrel Labs")
    pdf.set_producer("Kestrel Labs sample generator")
    pdf.set_auto_page_break(auto=True, margin=20)
    pdf.set_margins(20, 20, 20)
    for page in (MEMO_PAGE_1, MEMO_PAGE_2):
        pdf.add_page()
        for kind, text in page:
            if kind == "heading":
                pdf.set_font("Helvetica", "B", 16)
                pdf.multi_cell(0, 9, text, new_x="LMARGIN", new_y="NEXT")
                pdf.ln(2)
            elif kind == "subheading":
                pdf.ln(2)
                pdf.set_font("Helvetica", "B", 12)
                pdf.multi_cell(0, 7, text, new_x="LMARGIN", new_y="NEXT")
            elif kind == "meta":
                pdf.set_font("Helvetica", "", 10)
                pdf.multi_cell(0, 5, text, new_x="LMARGIN", new_y="NEXT")
            else:
                pdf.ln(2)
                pdf.set_font("Helvetica", "", 11)
                pdf.multi_cell(0, 6, text, new_x="LMARGIN", new_y="NEXT")
    return bytes(pdf.output())


# --- 2. budget_fy2026.docx --------------------------------------------------------------------------------

BUDGET_DEPARTMENTS = [
    ("Department", "FY2026 budget", "Share"),
    ("Engineering", "$16.2 million", "43%"),
    ("Sales", "$9.4 million", "25%"),
    ("Operations", "$7.3 million", "19%"),
    ("G&A", "$5.1 million", "13%"),
]


def make_budget_docx() -> bytes:
    document = docx.Document()
    props = document.core_properties
    props.title = "FY2026 Operating Budget"
    props.author = "Kestrel Labs Finance"
    props.last_modified_by = "Kestrel Labs Finance"
    props.created = FIXED_TIME.replace(tzinfo=None)
    props.modified = FIXED_TIME.replace(tzinfo=None)
    props.last_printed = FIXED_TIME.replace(tzinfo=None)
    props.revision = 1
    document.styles["Normal"].font.size = Pt(11)

    document.add_heading("Kestrel Labs FY2026 Operating Budget", level=0)
    document.add_paragraph(
        "This document sets out the operating budget of Kestrel Labs for the fiscal year 2026, as "
        "approved by the board in December 2025. Figures are in US dollars."
    )
    document.add_heading("Summary", level=1)
    document.add_paragraph(
        "The total operating budget for FY2026 is $38 million. The budget funds a budgeted headcount "
        "of 240 full-time employees by the end of the year. Spending is phased by quarter, with the "
        "largest increases in the second half once new hires are in place."
    )
    document.add_heading("Investment areas", level=1)
    document.add_paragraph(
        "The R&D budget is $11.5 million. The AI programme budget is $4.2 million, and it sits within "
        "the R&D budget. Cloud infrastructure is budgeted at $3.1 million, covering hosting, storage "
        "and the compute used to train models."
    )
    document.add_paragraph(
        "The marketing budget is $5.6 million, most of it for trade shows and partner campaigns. "
        "The travel budget is $0.9 million. Travel requests above the team allowance need approval "
        "from the finance director."
    )
    document.add_heading("Budget by department", level=1)
    document.add_paragraph(
        "The table below shows how the operating budget is divided between departments. The "
        "Engineering line includes the R&D budget and cloud infrastructure."
    )
    table = document.add_table(rows=0, cols=3)
    table.style = "Table Grid"
    for row in BUDGET_DEPARTMENTS:
        cells = table.add_row().cells
        for cell, value in zip(cells, row, strict=True):
            cell.text = value
    document.add_heading("Controls", level=1)
    document.add_paragraph(
        "Department heads review spending against budget every month. Any reallocation between "
        "departments needs sign-off from the chief financial officer."
    )
    buffer = io.BytesIO()
    document.save(buffer)
    return _fixed_zip_times(buffer.getvalue())


def _fixed_zip_times(package: bytes) -> bytes:
    """Rewrite a zip with fixed entry timestamps; python-docx stamps each entry with the current time."""
    source = zipfile.ZipFile(io.BytesIO(package))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            entry = zipfile.ZipInfo(info.filename, date_time=ZIP_TIME)
            entry.compress_type = zipfile.ZIP_DEFLATED
            target.writestr(entry, source.read(info.filename))
    return out.getvalue()


# --- 3. q3_report.md --------------------------------------------------------------------------------------

Q3_REPORT = """\
# Kestrel Labs Quarterly Report: Q3 2026

This report covers the third quarter of 2026, from 1 July to 30 September. It is shared with all staff
and with our investors.

## Financial results

Q3 2026 revenue was $12.4 million, up 18% year over year. Gross margin was 61% for the quarter. Growth
came mostly from larger fleets moving to our annual plans, and from the first paid contracts for the
routing add-on.

## Customers

Kestrel Labs ended the quarter with 412 customers. Monthly churn was 2.1%, and most of the customers
who left were small fleets that moved to free tools. The customer success team now runs a check-in call
in the first month of every new contract.

## People

Headcount at quarter end was 231. Most new joiners this quarter went into **Engineering** and
*Customer Success*.

## Product highlights

The route optimisation pilot cut fuel use by 9% for pilot customers. The pilot ran with a small group
of regional carriers, and the results are described in the [pilot summary](https://example.com/pilot).
Warehouse inspection work moved from research into design.

## Outlook

We expect the fourth quarter to be busy, with the next release of our routing product and the usual
year-end peak in freight volumes.
"""

# --- 4. remote_work_policy.html ---------------------------------------------------------------------------

REMOTE_POLICY = """\
<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Remote Work Policy - Kestrel Labs</title>
  <style>body { font-family: sans-serif; max-width: 48rem; margin: auto; }</style>
</head>
<body>
  <nav><a href="/">Intranet home</a> | <a href="/people">People team</a> | <a href="/it">IT help</a></nav>
  <main>
    <h1>Remote Work Policy</h1>
    <p>This policy applies to all employees of Kestrel Labs. It was last reviewed by the People team
    in March 2026.</p>

    <h2>Working from home</h2>
    <p>Employees may work remotely up to 3 days a week. The remaining days are spent in the office, so
    that teams can plan, review and mentor in person. Teams agree their office days together and record
    them in the team calendar.</p>

    <h2>Core collaboration hours</h2>
    <p>Core collaboration hours are 10:00 to 15:00 local time. Meetings that involve more than one team
    should be scheduled inside these hours. Outside them, people may arrange their day as suits their
    work.</p>

    <h2>Equipment</h2>
    <p>Each employee receives a one-time home-office equipment stipend of $600. The stipend can be spent
    on a desk, a chair, a monitor or other equipment that makes home working safe and comfortable.
    Receipts are submitted through the expenses system.</p>

    <h2>Security</h2>
    <p>A VPN is required on all company laptops when working outside the office. Company data must not
    be stored on personal devices. Lost or stolen laptops must be reported to IT help within one
    hour.</p>

    <h2>Working from another country</h2>
    <p>Managers may approve remote work outside the home country for at most 4 weeks a year. Longer
    stays need approval from the People team, because they can create tax and employment obligations.</p>
  </main>
  <script>document.querySelectorAll("nav a").forEach(a => a.rel = "noopener");</script>
</body>
</html>
"""

# --- 5. product_roadmap.txt -------------------------------------------------------------------------------

ROADMAP = """\
KESTREL LABS PRODUCT ROADMAP 2026-2027

This roadmap lists the major product milestones for the next five quarters. Dates are targets and may
move as we learn from customers.

Q4 2026: Route Optimiser 2.0 launch. The new version plans routes for mixed fleets of vans and trucks
and re-plans during the day when traffic or orders change.

Q1 2027: warehouse vision beta. A small group of customers will run camera-based inspection of pallets
and racking in their own warehouses.

Q2 2027: support copilot general availability. The copilot drafts replies for support agents and will
be available to all customers on annual plans.

Q3 2027: the legacy dispatch console is retired. Customers still using it will be moved to the new
dispatch workspace, with training sessions offered before the switch.

Board update

The roadmap was presented to the board in October 2026. Q3 2026 revenue came in at $11.9 million. The
board asked the product team to keep the Route Optimiser 2.0 launch date fixed and to report on the
warehouse vision beta at its next meeting.
"""

# --- 6. headcount.csv -------------------------------------------------------------------------------------

HEADCOUNT = [
    ("department", "headcount", "open_roles"),
    ("Engineering", 98, 9),
    ("Sales", 41, 4),
    ("Operations", 47, 3),
    ("Customer Success", 27, 2),
    ("G&A", 18, 1),
]


def make_headcount_csv() -> str:
    return "".join(",".join(str(v) for v in row) + "\n" for row in HEADCOUNT)


# --- README and labelled questions ------------------------------------------------------------------------

README = """\
# Sample corpus: Kestrel Labs

Six short documents of a fictional company, Kestrel Labs, which makes logistics software and has about
230 staff. They live in `sample/`, cover every file type MASIS ingests and are used by the demo, the
tests and the benchmarks. `scripts/make_sample.py` writes them; re-running it gives the same bytes.

| file in `sample/` | what it is |
|---|---|
| `strategy_memo.pdf` | 2-page memo from the CEO: AI investment strategy for FY2026 |
| `budget_fy2026.docx` | FY2026 operating budget, with a table by department |
| `q3_report.md` | Q3 2026 quarterly report |
| `remote_work_policy.html` | the remote work policy, as an intranet page |
| `product_roadmap.txt` | product roadmap 2026-2027, with a short board update |
| `headcount.csv` | headcount and open roles by department |

Each fact is stated in one document only (the AI programme's budget appears in both the memo and the
budget, with the same value), so a question has one right source.

**A deliberate conflict:** the roadmap's board update and the quarterly report disagree on Q3 2026
revenue ($11.9M in `product_roadmap.txt` vs $12.4M in `q3_report.md`). Asking for Q3 revenue should
lead MASIS to notice the conflict and ask which source to trust.

`sample_questions.json` holds labelled questions: each has a short gold answer that occurs literally
in the named document. It and this README sit outside `sample/` so that the whole folder can be
ingested (`masis ingest --workspace demo data/sample/*`) without them.
"""

QUESTIONS = [
    {
        "question": "How much will Kestrel Labs invest in AI during FY2026?",
        "answer": "$4.2 million",
        "doc": "strategy_memo.pdf",
    },
    {
        "question": "By how much does Kestrel Labs aim to cut fuel costs by the end of 2027?",
        "answer": "15%",
        "doc": "strategy_memo.pdf",
    },
    {
        "question": "How many machine learning engineers does Kestrel Labs plan to hire in FY2026?",
        "answer": "12",
        "doc": "strategy_memo.pdf",
    },
    {
        "question": "Which university is Kestrel Labs partnering with on demand forecasting?",
        "answer": "University of Leeds",
        "doc": "strategy_memo.pdf",
    },
    {
        "question": "What is the total operating budget for FY2026?",
        "answer": "$38 million",
        "doc": "budget_fy2026.docx",
    },
    {
        "question": "What is the R&D budget for FY2026?",
        "answer": "$11.5 million",
        "doc": "budget_fy2026.docx",
    },
    {
        "question": "How many days a week may employees work remotely?",
        "answer": "3 days",
        "doc": "remote_work_policy.html",
    },
    {
        "question": "How large is the home-office equipment stipend?",
        "answer": "$600",
        "doc": "remote_work_policy.html",
    },
    {
        "question": "How many customers did Kestrel Labs have at the end of Q3 2026?",
        "answer": "412",
        "doc": "q3_report.md",
    },
    {"question": "What was the gross margin in Q3 2026?", "answer": "61%", "doc": "q3_report.md"},
    {
        "question": "When will the legacy dispatch console be retired?",
        "answer": "Q3 2027",
        "doc": "product_roadmap.txt",
    },
    {
        "question": "How many people work in the Engineering department?",
        "answer": "98",
        "doc": "headcount.csv",
    },
]


def write_sample(data_dir: Path) -> list[Path]:
    corpus_dir = data_dir / "sample"
    corpus_dir.mkdir(parents=True, exist_ok=True)
    files: dict[Path, bytes] = {
        corpus_dir / "strategy_memo.pdf": make_memo_pdf(),
        corpus_dir / "budget_fy2026.docx": make_budget_docx(),
        corpus_dir / "q3_report.md": Q3_REPORT.encode("utf-8"),
        corpus_dir / "remote_work_policy.html": REMOTE_POLICY.encode("utf-8"),
        corpus_dir / "product_roadmap.txt": ROADMAP.encode("utf-8"),
        corpus_dir / "headcount.csv": make_headcount_csv().encode("utf-8"),
        data_dir / "README.md": README.encode("utf-8"),
        data_dir / "sample_questions.json": (json.dumps(QUESTIONS, indent=2) + "\n").encode("utf-8"),
    }
    for path, content in files.items():
        path.write_bytes(content)
    return list(files)


def main(argv: list[str]) -> int:
    data_dir = Path(argv[1]) if len(argv) > 1 else DEFAULT_DATA_DIR
    for path in write_sample(data_dir):
        print(f"wrote {path} ({path.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
