"""Build the two CSV tables of data/mldocs/files from the files they come from (stdlib only).

    python data/mldocs/build_csvs.py

onnxruntime-releases.csv: the "Changes" section of onnxruntime-METADATA.rst (ONNX Runtime's README as its wheel
carries it), one reStructuredText section per release, a version title underlined with `^` followed by a line
`Release Notes : <url>`. Each section becomes a row: the version and the release-notes address. Rows in the file's
order (newest first).

xgboost-extras.csv: the optional dependencies of xgboost-METADATA.rst, one row per `Requires-Dist:` line whose
environment marker names an extra (`Requires-Dist: pandas>=1.2; extra == 'pandas'`): the extra, the package (the
requirement up to its first version operator) and the version specifier (the rest, empty when there is none). The
required dependencies (numpy, scipy, and nvidia-nccl-cu12 on Linux) have no extra and are not in it. Rows in file
order.
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

FILES = Path(__file__).resolve().parent / "files"


def onnxruntime_rows(readme: str) -> list[list[str]]:
    rows = [["Version", "Release notes"]]
    pattern = r"^(\d+(?:\.\d+)+)\n\^+\n\nRelease Notes : (\S+)$"
    for version, url in re.findall(pattern, readme, flags=re.MULTILINE):
        rows.append([version, url])
    return rows


def xgboost_rows(metadata: str) -> list[list[str]]:
    rows = [["Extra", "Package", "Version specifier"]]
    for line in metadata.splitlines():
        match = re.fullmatch(r"""Requires-Dist: ([^;]+); extra == ['"]([^'"]+)['"]""", line.strip())
        if match:
            requirement, extra = match[1].strip(), match[2]
            package, specifier = re.fullmatch(r"([^<>=!~]+)(.*)", requirement).groups()
            rows.append([extra, package.strip(), specifier.strip()])
    return rows


def write(name: str, rows: list[list[str]]) -> None:
    with (FILES / name).open("w", encoding="utf-8", newline="") as out:
        csv.writer(out, lineterminator="\n").writerows(rows)


def main() -> None:
    write(
        "onnxruntime-releases.csv", onnxruntime_rows((FILES / "onnxruntime-METADATA.rst").read_text(encoding="utf-8"))
    )
    # the header ends at the blank line before the README
    header = (FILES / "xgboost-METADATA.rst").read_text(encoding="utf-8").split("\n\n", 1)[0]
    write("xgboost-extras.csv", xgboost_rows(header))


if __name__ == "__main__":
    main()
