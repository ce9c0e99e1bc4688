"""Build the two CSV tables of data/tooldocs/files from the files they come from (stdlib only).

    python data/tooldocs/build_csvs.py

make-releases.csv: the release headings of make-NEWS.txt (GNU make's NEWS as Debian's make 4.3 ships it), one line
`Version <number>` or `Version <number> (<date>)` at the start of a line per release. Each becomes a row: the version
(a trailing full stop, as in "Version 3.14.", dropped) and the date as the file writes it (`19 Jan 2020`), empty when
the heading carries none. Rows in the file's order (newest first).

clippy-lint-config.csv: the configuration options of clippy-lint_configuration.html (the Clippy book's "Lint
Configuration Options" page), one `<h2>` per option followed by its description, a "Default Value:" paragraph and an
"Affected lints:" list. Each option becomes a row: the option's name, its default value as the page writes it (the
text of the `<code>` after "Default Value:"), and the affected lints joined by a space. Rows in the page's order.
"""

from __future__ import annotations

import csv
import re
from html.parser import HTMLParser
from pathlib import Path

FILES = Path(__file__).resolve().parent / "files"


def make_rows(news: str) -> list[list[str]]:
    rows = [["Version", "Release date"]]
    for version, date in re.findall(r"^Version (\d+(?:\.\d+)*)\.?(?: \(([^)]*)\))?[ \t]*$", news, flags=re.MULTILINE):
        rows.append([version, date])
    return rows


class ClippyOptions(HTMLParser):
    """Collects (option, default value, affected lints) from the page's <main>."""

    def __init__(self) -> None:
        super().__init__()
        self.options: list[dict[str, object]] = []
        self.in_h2 = self.in_code = self.in_strong = self.in_li = False
        self.text = ""
        self.expect = ""  # "default" after a "Default Value:" label, "lints" after "Affected lints:"

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "h2":
            self.in_h2, self.text, self.expect = True, "", ""
        elif tag == "code":
            self.in_code, self.text = True, ""
        elif tag == "strong":
            self.in_strong, self.text = True, ""
        elif tag == "li":
            self.in_li = True

    def handle_endtag(self, tag: str) -> None:
        if tag == "h2" and self.in_h2:
            self.in_h2 = False
            self.options.append({"name": self.text.strip(), "default": None, "lints": []})
        elif tag == "code" and self.in_code:
            self.in_code = False
            if self.options and not self.in_h2:
                current = self.options[-1]
                if self.expect == "default" and current["default"] is None:
                    current["default"] = self.text
                    self.expect = ""
                elif self.expect == "lints" and self.in_li:
                    current["lints"].append(self.text)  # type: ignore[union-attr]
        elif tag == "strong" and self.in_strong:
            self.in_strong = False
            label = self.text.strip()
            if label == "Default Value:":
                self.expect = "default"
            elif label == "Affected lints:":
                self.expect = "lints"
        elif tag == "li":
            self.in_li = False

    def handle_data(self, data: str) -> None:
        if self.in_h2 or self.in_code or self.in_strong:
            self.text += data


def clippy_rows(page: str) -> list[list[str]]:
    parser = ClippyOptions()
    parser.feed(page[page.index("<main>") : page.index("</main>")])
    rows = [["Option", "Default value", "Affected lints"]]
    for option in parser.options:
        rows.append([str(option["name"]), str(option["default"] or ""), " ".join(option["lints"])])  # type: ignore[arg-type]
    return rows


def write(name: str, rows: list[list[str]]) -> None:
    with (FILES / name).open("w", encoding="utf-8", newline="") as out:
        csv.writer(out, lineterminator="\n").writerows(rows)


def main() -> None:
    # NEWS is ISO-8859-1 (two lines name Klaus Kämpf); no heading holds a non-ASCII byte
    write("make-releases.csv", make_rows((FILES / "make-NEWS.txt").read_text(encoding="latin-1")))
    write("clippy-lint-config.csv", clippy_rows((FILES / "clippy-lint_configuration.html").read_text(encoding="utf-8")))


if __name__ == "__main__":
    main()
