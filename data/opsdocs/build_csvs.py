"""Build the two CSV tables of data/opsdocs/files/ from lists in two of its files (cells verbatim, trimmed).

    python data/opsdocs/build_csvs.py
"""

import csv
import re
from pathlib import Path

FILES = Path(__file__).resolve().parent / "files"


def unattended_upgrades_options() -> None:
    """The "Supported Options Reference" of unattended-upgrades-README.md: one row per
    `* `Option` - type (default:…)`."""
    text = (FILES / "unattended-upgrades-README.md").read_text(encoding="utf-8")
    text = text[text.index("Supported Options Reference") :]
    rows = [["Option", "Type", "Default"]]
    for m in re.finditer(r"^\* `([^`]+)` - (.+?)(?: \(default: ?(.*)\))?\s*$", text, re.M):
        rows.append([m.group(1), m.group(2).strip(), (m.group(3) or "").strip()])
    with open(FILES / "unattended-upgrades-options.csv", "w", encoding="utf-8", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows(rows)


def needrestart_kernel_status() -> None:
    """The NEEDRESTART-KSTA value list of needrestart-README.batch.md (`- *N*: meaning`)."""
    text = (FILES / "needrestart-README.batch.md").read_text(encoding="utf-8")
    rows = [["NEEDRESTART-KSTA value", "Meaning"]]
    for m in re.finditer(r"^- \*(\d)\*: (.+?)\s*$", text, re.M):
        rows.append([m.group(1), m.group(2)])
    with open(FILES / "needrestart-kernel-status.csv", "w", encoding="utf-8", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows(rows)


if __name__ == "__main__":
    unattended_upgrades_options()
    needrestart_kernel_status()
