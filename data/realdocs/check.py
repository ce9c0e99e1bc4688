"""Verify the labelled sets data/realdocs/questions.jsonl, data/freshdocs/questions.jsonl,
data/holdoutdocs/questions.jsonl, data/nextdocs/questions.jsonl, data/moredocs/questions.jsonl,
data/policydocs/questions.jsonl, data/configdocs/questions.jsonl, data/guidedocs/questions.jsonl,
data/apidocs/questions.jsonl, data/mandocs/questions.jsonl, data/teamdocs/questions.jsonl,
data/opsdocs/questions.jsonl, data/servicedocs/questions.jsonl, data/extradocs/questions.jsonl,
data/stackdocs/questions.jsonl, data/webdocs/questions.jsonl, data/datadocs/questions.jsonl,
data/mldocs/questions.jsonl, data/tooldocs/questions.jsonl, data/frontdocs/questions.jsonl,
data/platformdocs/questions.jsonl, data/secdocs/questions.jsonl, data/pkgdocs/questions.jsonl,
data/hostdocs/questions.jsonl, data/sysdocs/questions.jsonl, data/libdocs/questions.jsonl,
data/shelfdocs/questions.jsonl, data/deskdocs/questions.jsonl, data/kitdocs/questions.jsonl,
data/coredocs/questions.jsonl, data/basedocs/questions.jsonl, data/rackdocs/questions.jsonl,
data/yarddocs/questions.jsonl and
data/conversations/conversations.jsonl.

Stdlib only. HTML, PDF and DOCX evidence is compared against the text MASIS's own loader extracts
(`masis.ingest.loaders.load_document`) when masis is importable; otherwise those checks are skipped and
counted. Markdown, text and CSV evidence is compared against the raw file and, when masis is importable,
against the loader's text too (reStructuredText too: its section titles, which the loader keeps as headings
only, hold versions and dates). Whitespace runs, backticks and asterisks are ignored when comparing.

    python data/realdocs/check.py            # exit 0 when every set passes, 1 otherwise
"""

from __future__ import annotations

import contextlib
import json
import re
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent
REALDOCS = DATA / "realdocs"
FRESHDOCS = DATA / "freshdocs"
HOLDOUTDOCS = DATA / "holdoutdocs"
NEXTDOCS = DATA / "nextdocs"
MOREDOCS = DATA / "moredocs"
POLICYDOCS = DATA / "policydocs"
CONFIGDOCS = DATA / "configdocs"
GUIDEDOCS = DATA / "guidedocs"
APIDOCS = DATA / "apidocs"
MANDOCS = DATA / "mandocs"
TEAMDOCS = DATA / "teamdocs"
OPSDOCS = DATA / "opsdocs"
SERVICEDOCS = DATA / "servicedocs"
EXTRADOCS = DATA / "extradocs"
STACKDOCS = DATA / "stackdocs"
WEBDOCS = DATA / "webdocs"
DATADOCS = DATA / "datadocs"
MLDOCS = DATA / "mldocs"
TOOLDOCS = DATA / "tooldocs"
FRONTDOCS = DATA / "frontdocs"
PLATFORMDOCS = DATA / "platformdocs"
SECDOCS = DATA / "secdocs"
PKGDOCS = DATA / "pkgdocs"
HOSTDOCS = DATA / "hostdocs"
SYSDOCS = DATA / "sysdocs"
LIBDOCS = DATA / "libdocs"
SHELFDOCS = DATA / "shelfdocs"
DESKDOCS = DATA / "deskdocs"
KITDOCS = DATA / "kitdocs"
COREDOCS = DATA / "coredocs"
BASEDOCS = DATA / "basedocs"
RACKDOCS = DATA / "rackdocs"
YARDDOCS = DATA / "yarddocs"
CONVERSATIONS = DATA / "conversations"
CORPORA = {
    "realdocs": REALDOCS / "files",
    "freshdocs": FRESHDOCS / "files",
    "holdoutdocs": HOLDOUTDOCS / "files",
    "nextdocs": NEXTDOCS / "files",
    "moredocs": MOREDOCS / "files",
    "policydocs": POLICYDOCS / "files",
    "configdocs": CONFIGDOCS / "files",
    "guidedocs": GUIDEDOCS / "files",
    "apidocs": APIDOCS / "files",
    "mandocs": MANDOCS / "files",
    "teamdocs": TEAMDOCS / "files",
    "opsdocs": OPSDOCS / "files",
    "servicedocs": SERVICEDOCS / "files",
    "extradocs": EXTRADOCS / "files",
    "stackdocs": STACKDOCS / "files",
    "webdocs": WEBDOCS / "files",
    "datadocs": DATADOCS / "files",
    "mldocs": MLDOCS / "files",
    "tooldocs": TOOLDOCS / "files",
    "frontdocs": FRONTDOCS / "files",
    "platformdocs": PLATFORMDOCS / "files",
    "secdocs": SECDOCS / "files",
    "pkgdocs": PKGDOCS / "files",
    "hostdocs": HOSTDOCS / "files",
    "sysdocs": SYSDOCS / "files",
    "libdocs": LIBDOCS / "files",
    "shelfdocs": SHELFDOCS / "files",
    "deskdocs": DESKDOCS / "files",
    "kitdocs": KITDOCS / "files",
    "coredocs": COREDOCS / "files",
    "basedocs": BASEDOCS / "files",
    "rackdocs": RACKDOCS / "files",
    "yarddocs": YARDDOCS / "files",
    "sample": DATA / "sample",
    "conversations": CONVERSATIONS / "files",
}
RAW_SUFFIXES = {".md", ".txt", ".csv", ".rst"}
KINDS = {"factual", "chatty", "near_miss"}
SPLITS = {"tune", "check"}
QUESTION_KEYS = {"id", "question", "kind", "answers", "docs", "evidence", "split", "note"}
TURN_KEYS = {"question", "standalone", "dependent", "answers", "docs", "evidence"}


def _loader() -> Callable[[str, bytes], list] | None:
    sys.path.insert(0, str(DATA.parent))
    try:
        from masis.ingest.loaders import load_document
    except ImportError:
        return None
    return load_document


LOAD = _loader()


def norm(text: str) -> str:
    # a man page's line-end hyphen (U+2010, "de‐\n fault") is dropped with the break after it: the loader joins the
    # word ("default", `masis.ingest.hyphens`), the file keeps it, and an evidence line may have been copied either way
    return " ".join(re.sub(r"[`*]|\u2010\s*", "", text).split())


class Texts:
    """The comparable texts of each file, read once."""

    def __init__(self) -> None:
        self._cache: dict[Path, list[str] | None] = {}

    def of(self, path: Path) -> list[str] | None:
        """Normalised texts of `path` to search (raw and/or extracted); None when none can be had."""
        if path not in self._cache:
            texts: list[str] = []
            data = path.read_bytes()
            if path.suffix.lower() in RAW_SUFFIXES:
                texts.append(norm(data.decode("utf-8", errors="replace")))
            if LOAD is not None:
                # masis may be importable without its parsers (bs4, pypdf, docx): then raw text only
                with contextlib.suppress(ImportError):
                    sections = LOAD(path.name, data)
                    texts.append(norm("\n\n".join(s.text for s in sections)))
                    # and read under their headings, as a page shows them (an HTML page laid out in a table has
                    # its release headings as headings, "v1.1.35: Feb 16 2022" over "Security: …")
                    texts.append(norm("\n\n".join(f"{s.heading or ''}\n\n{s.text}" for s in sections)))
            self._cache[path] = texts or None
        return self._cache[path]


class Report:
    def __init__(self, name: str) -> None:
        self.name = name
        self.errors: list[str] = []
        self.warnings: list[str] = []
        self.skipped = 0

    def error(self, where: str, message: str) -> None:
        self.errors.append(f"{where}: {message}")

    def warn(self, where: str, message: str) -> None:
        self.warnings.append(f"{where}: {message}")


def check_item(report: Report, texts: Texts, where: str, folder: Path, item: dict, *, answerable: bool) -> None:
    """Docs exist, evidence is in one of them, the gold answer is in the evidence; no answers if not answerable."""
    docs, answers, evidence = item.get("docs"), item.get("answers"), item.get("evidence", "")
    if not isinstance(docs, list) or not all(isinstance(d, str) for d in docs):
        report.error(where, "docs must be a list of file names")
        return
    if not isinstance(answers, list) or not all(isinstance(a, str) and a.strip() for a in answers):
        report.error(where, "answers must be a list of non-empty strings")
        return
    if answerable and not answers:
        report.error(where, "an answerable question needs at least one answer")
    if not answerable and answers:
        report.error(where, "a question without an answer in the files must have answers []")
    if answerable and not docs:
        report.error(where, "an answerable question names the docs that hold it")
    paths = [folder / d for d in docs]
    for path in paths:
        if not path.is_file():
            report.error(where, f"doc {path.name} not found in {folder}")
    if not evidence:
        if answerable:
            report.error(where, "an answerable question needs evidence")
        return
    searchable = [t for p in paths if p.is_file() for t in (texts.of(p) or [])]
    if not searchable:
        report.skipped += 1
        return
    if not any(norm(evidence) in t for t in searchable):
        report.error(where, f"evidence not found in {', '.join(docs)}: {evidence[:80]!r}")
    ev = norm(evidence).lower()
    for i, answer in enumerate(answers):
        if norm(answer).lower() in ev:
            continue
        if i == 0:
            report.error(where, f"gold answer {answer!r} not in its evidence")
        else:
            report.warn(where, f"alternative answer {answer!r} is not written so in the evidence")


def read_jsonl(path: Path, report: Report) -> list[dict]:
    rows = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            report.error(f"{path.name}:{n}", f"not JSON ({exc.msg})")
            continue
        if not isinstance(row, dict):
            report.error(f"{path.name}:{n}", "each line must be a JSON object")
            continue
        rows.append(row)
    return rows


def check_questions(texts: Texts, name: str = "realdocs", prefix: str = "rd") -> tuple[Report, list[str]]:
    """One question set of the realdocs kind: data/<name>/questions.jsonl over data/<name>/files/, ids <prefix>-NNN."""
    folder = DATA / name
    report = Report(name)
    rows = read_jsonl(folder / "questions.jsonl", report)
    ids = Counter(r.get("id") for r in rows)
    for dup in [i for i, c in ids.items() if c > 1]:
        report.error(str(dup), "duplicate id")
    for row in rows:
        where = str(row.get("id"))
        if set(row) != QUESTION_KEYS:
            report.error(where, f"keys must be exactly {sorted(QUESTION_KEYS)}, got {sorted(row)}")
        if not re.fullmatch(rf"{prefix}-\d{{3}}", where):
            report.error(where, f"id must look like {prefix}-001")
        if row.get("kind") not in KINDS:
            report.error(where, f"kind must be one of {sorted(KINDS)}")
        if row.get("split") not in SPLITS:
            report.error(where, f"split must be one of {sorted(SPLITS)}")
        if not str(row.get("question", "")).strip():
            report.error(where, "empty question")
        near_miss = row.get("kind") == "near_miss"
        if near_miss and not str(row.get("note", "")).strip():
            report.error(where, "a near miss says in its note what the files hold and what they don't")
        check_item(report, texts, where, CORPORA[name], row, answerable=not near_miss)
    by_kind = Counter(r.get("kind") for r in rows)
    by_split = Counter((r.get("kind"), r.get("split")) for r in rows)
    files = {d for r in rows for d in r.get("docs", [])}
    on_disk = sorted(p.name for p in CORPORA[name].iterdir() if p.is_file())
    formats = Counter(Path(n).suffix.lower() for n in on_disk)
    size = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())
    lines = [
        f"questions: {len(rows)}  " + "  ".join(f"{k}={by_kind[k]}" for k in sorted(KINDS)),
        "split: "
        + "  ".join(f"{k}: tune={by_split[(k, 'tune')]} check={by_split[(k, 'check')]}" for k in sorted(KINDS))
        + f"  all: check={sum(v for (_, s), v in by_split.items() if s == 'check')}",
        f"files on disk: {len(on_disk)} ({', '.join(f'{s} {n}' for s, n in sorted(formats.items()))}),"
        f" referenced by questions: {len(files)}, data/{name} size: {size / 1e6:.2f} MB",
    ]
    return report, lines


def check_conversations(texts: Texts) -> tuple[Report, list[str]]:
    report = Report("conversations")
    rows = read_jsonl(CONVERSATIONS / "conversations.jsonl", report)
    ids = Counter(r.get("id") for r in rows)
    for dup in [i for i, c in ids.items() if c > 1]:
        report.error(str(dup), "duplicate id")
    turn_kinds: Counter[str] = Counter()
    for row in rows:
        where = str(row.get("id"))
        if set(row) != {"id", "corpus", "split", "turns"}:
            report.error(where, f"keys must be id, corpus, split, turns; got {sorted(row)}")
        if not re.fullmatch(r"cv-\d{3}", where):
            report.error(where, "id must look like cv-001")
        folder = CORPORA.get(row.get("corpus", ""))
        if folder is None:
            report.error(where, f"corpus must be one of {sorted(CORPORA)}")
            continue
        if row.get("split") not in SPLITS:
            report.error(where, f"split must be one of {sorted(SPLITS)}")
        turns = row.get("turns")
        if not isinstance(turns, list) or not 2 <= len(turns) <= 3:
            report.error(where, "a conversation has 2 or 3 turns")
            continue
        for t, turn in enumerate(turns, 1):
            tw = f"{where} turn {t}"
            extra = set(turn) - TURN_KEYS - {"ambiguous", "note"}
            if not set(turn) >= TURN_KEYS or extra:
                report.error(tw, f"turn keys must be {sorted(TURN_KEYS)} (+ ambiguous, note); got {sorted(turn)}")
                continue
            if t == 1 and turn["dependent"]:
                report.error(tw, "the first turn cannot depend on an earlier one")
            if not turn["dependent"] and turn["standalone"] != turn["question"]:
                report.error(tw, "a self-contained turn's standalone reading is the question itself")
            ambiguous = bool(turn.get("ambiguous"))
            if ambiguous:
                turn_kinds["ambiguous"] += 1
                if not turn["dependent"] or not str(turn.get("note", "")).strip():
                    report.error(tw, "an ambiguous turn is dependent and its note names the candidates")
            elif turn["dependent"]:
                turn_kinds["dependent"] += 1
            else:
                turn_kinds["first" if t == 1 else "self-contained follow-up"] += 1
            check_item(report, texts, tw, folder, turn, answerable=not ambiguous)
    by_corpus = Counter(r.get("corpus") for r in rows)
    by_split = Counter(r.get("split") for r in rows)
    lines = [
        f"conversations: {len(rows)}  turns: {sum(len(r.get('turns', [])) for r in rows)}  "
        + "  ".join(f"{k}={v}" for k, v in sorted(by_corpus.items())),
        "turns: " + "  ".join(f"{k}={v}" for k, v in sorted(turn_kinds.items())),
        f"split: tune={by_split['tune']} check={by_split['check']}",
    ]
    return report, lines


def main() -> int:
    texts = Texts()
    failed = False
    if LOAD is None:
        print("masis is not importable: HTML/PDF/DOCX evidence is not checked (run with the project's .venv)")
    checks = (
        check_questions,
        lambda t: check_questions(t, "freshdocs", "fd"),
        lambda t: check_questions(t, "holdoutdocs", "hd"),
        lambda t: check_questions(t, "nextdocs", "nd"),
        lambda t: check_questions(t, "moredocs", "md"),
        lambda t: check_questions(t, "policydocs", "pd"),
        lambda t: check_questions(t, "configdocs", "cd"),
        lambda t: check_questions(t, "guidedocs", "gd"),
        lambda t: check_questions(t, "apidocs", "ad"),
        lambda t: check_questions(t, "mandocs", "md2"),  # md- is moredocs'
        lambda t: check_questions(t, "teamdocs", "td"),
        lambda t: check_questions(t, "opsdocs", "od"),
        lambda t: check_questions(t, "servicedocs", "sv"),
        lambda t: check_questions(t, "extradocs", "xd"),
        lambda t: check_questions(t, "stackdocs", "sd"),
        lambda t: check_questions(t, "webdocs", "wd"),
        lambda t: check_questions(t, "datadocs", "dd"),
        lambda t: check_questions(t, "mldocs", "ml"),
        lambda t: check_questions(t, "tooldocs", "tl"),
        lambda t: check_questions(t, "frontdocs", "fe"),
        lambda t: check_questions(t, "platformdocs", "pf"),
        lambda t: check_questions(t, "secdocs", "sc"),
        lambda t: check_questions(t, "pkgdocs", "pk"),
        lambda t: check_questions(t, "hostdocs", "hs"),
        lambda t: check_questions(t, "sysdocs", "sy"),
        lambda t: check_questions(t, "libdocs", "lb"),
        lambda t: check_questions(t, "shelfdocs", "sf"),
        lambda t: check_questions(t, "deskdocs", "dk"),
        lambda t: check_questions(t, "kitdocs", "kt"),
        lambda t: check_questions(t, "coredocs", "cr"),
        lambda t: check_questions(t, "basedocs", "bd"),
        lambda t: check_questions(t, "rackdocs", "rk"),
        lambda t: check_questions(t, "yarddocs", "yd"),
        check_conversations,
    )
    for check in checks:
        report, lines = check(texts)
        print(f"== {report.name}")
        for line in lines:
            print(line)
        if report.skipped:
            print(f"evidence checks skipped (HTML/PDF/DOCX parsers not importable; use the .venv): {report.skipped}")
        for warning in report.warnings:
            print(f"warning: {warning}")
        for error in report.errors:
            print(f"ERROR: {error}")
        print("OK" if not report.errors else f"{len(report.errors)} error(s)")
        failed = failed or bool(report.errors)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
