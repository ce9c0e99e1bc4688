"""Parsing costs time linear in the file, whatever the file holds: checked by counting work, not by a clock.

Two measures, which together bound all the work a parse does:

- **Regular expressions**, statically (tests/regex_linearity.py): every pattern in the parsing modules, module
  constants and literal patterns passed to `re` functions alike, is free of the shapes that make a
  backtracking engine super-linear (nested or overlapping unbounded repeats, and repeats that rescan a run
  from each of its characters). Each call of such a pattern costs at most a constant times the characters
  it is given, so counting those characters counts the regex work.
- **Everything else**, by counting: a parse of hostile input of 1 KB and of 64 KB runs with every pattern
  of the parsing and chunking modules wrapped to add up the characters each call is handed (a search
  counts up to where it stopped), and with `sys.settrace` counting the Python lines executed (in MASIS,
  bs4 and the standard library alike). Linear work grows ~64 times from 1 KB to 64 KB; quadratic work
  grows ~4,096 times. The tests allow 96.

What neither measure sees is a C string method handed a long string many times; the character count
covers the regex calls, and the parsers' other C calls (split, join, strip, find) each take one line or
one block once.
"""

from __future__ import annotations

import ast
import inspect
import re
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from types import FrameType, ModuleType
from typing import Any

import pytest

from masis.errors import IngestError
from masis.ingest import chunking, html_text, loaders, markdown, rst
from masis.ingest.chunking import chunk_sections
from masis.ingest.loaders import load_document
from masis.judge import figures, sentences, terms
from tests.regex_linearity import problems

STATIC_MODULES = (loaders, markdown, rst, html_text)
COUNTED_MODULES = (loaders, markdown, rst, chunking, sentences, terms, figures)
SMALL, LARGE = 1024, 64 * 1024
LINEAR_GROWTH = 96  # 64 for linear work, with room for the fixed costs the small parse amortises less


def module_patterns(module: ModuleType) -> dict[str, re.Pattern[str]]:
    """The module's compiled patterns (also inside tuples, lists and dicts) and the literal patterns its
    code passes to `re.search`, `re.sub`, `re.split` and the like."""
    found: dict[str, re.Pattern[str]] = {}

    def add(name: str, value: object) -> None:
        if isinstance(value, re.Pattern):
            found[name] = value
        elif isinstance(value, tuple | list):
            for i, item in enumerate(value):
                add(f"{name}[{i}]", item)
        elif isinstance(value, dict):
            for key, item in value.items():
                add(f"{name}[{key!r}]", item)

    for name, value in vars(module).items():
        add(name, value)
    for node in ast.walk(ast.parse(inspect.getsource(module))):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name) and node.func.value.id == "re" and node.args
                and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            found[f"re.{node.func.attr}(line {node.lineno})"] = re.compile(node.args[0].value)
    return found


@pytest.mark.parametrize("module", STATIC_MODULES, ids=lambda m: m.__name__)
def test_every_pattern_of_the_parsers_is_linear(module: ModuleType) -> None:
    patterns = module_patterns(module)
    if module is not html_text:  # the HTML walk has no pattern at all
        assert patterns, "no pattern found: the check would pass vacuously"
    bad = {name: found for name, p in patterns.items() if (found := problems(p))}
    assert not bad


@pytest.mark.parametrize(
    ("pattern", "reason"),
    [
        (r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$", "two unbounded repeats in a row"),
        (r"^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$", "two unbounded repeats in a row"),
        (r"^\s{0,3}([-*_])(\s*\1){2,}\s*$", "inside another one"),
        (r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1", "rescans the run"),
        (r"\[([^\]]+)\]\([^)]*\)", "rescans the run"),
        (r"(a|aa)*b", "a choice inside an unbounded repeat"),
    ],
)
def test_the_static_check_refuses_the_patterns_that_froze_the_process(pattern: str, reason: str) -> None:
    assert any(reason in problem for problem in problems(re.compile(pattern)))


# --- counting work ------------------------------------------------------------------------------------------


@dataclass
class Work:
    lines: int = 0  # Python lines executed
    chars: int = 0  # characters handed to regular expressions


class _CountingPattern:
    """A compiled pattern that adds up the characters each call is handed."""

    def __init__(self, pattern: re.Pattern[str], work: Work) -> None:
        self._pattern = pattern
        self._work = work

    def search(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        found = self._pattern.search(string, pos, endpos)
        self._work.chars += (found.end() if found else min(len(string), endpos)) - pos
        return found

    def __getattr__(self, name: str) -> Any:
        method = getattr(self._pattern, name)
        if not callable(method):
            return method

        def counted(string: str = "", *args: Any, **kwargs: Any) -> Any:
            # match, fullmatch, sub, split, findall, finditer: the whole string from `pos`, at most
            subject = args[0] if name in ("sub", "subn") and args else string
            self._work.chars += len(subject) if isinstance(subject, str) else 0
            return method(string, *args, **kwargs)

        return counted


def _wrapped(value: object, work: Work) -> object:
    if isinstance(value, re.Pattern):
        return _CountingPattern(value, work)
    if isinstance(value, tuple):
        return tuple(_wrapped(v, work) for v in value)
    if isinstance(value, dict):
        return {k: _wrapped(v, work) for k, v in value.items()}
    return value


def measure(monkeypatch: pytest.MonkeyPatch, parse: Callable[[], object]) -> Work:
    work = Work()
    sentences._kept_blocks.cache_clear()  # a text split before is kept, as no text of a new file is
    with monkeypatch.context() as patch:
        for module in COUNTED_MODULES:
            for name, value in list(vars(module).items()):
                wrapped = _wrapped(value, work)
                if wrapped is not value and wrapped != value:
                    patch.setattr(module, name, wrapped)

        def trace(frame: FrameType, event: str, arg: object) -> Callable[..., object]:
            work.lines += event == "line"
            return trace

        sys.settrace(trace)
        try:
            parse()
        except IngestError:
            pass  # refusing a file is a fine outcome; what it cost is what is measured
        finally:
            sys.settrace(None)
    return work


def ingest_in_process(name: str, data: bytes) -> Callable[[], object]:
    """What the server process does with a .md, .rst, .txt or .csv file: load it and chunk it."""
    return lambda: chunk_sections(name, load_document(name, data), 900, 150)


UNITS = [" ", "#", "|", "-", "*", "_", "`", "[", "<", "**x ", "![", "<http://", "](", "John M. ", "\t"]
MD_SHAPES = ["{}x", "# {}x", "# x{}y", "| {} |", "- {}", "> {}", "[a]: {}"]


def hostile(unit: str, size: int, shape: str = "{}") -> bytes:
    run = (unit * (size // len(unit) + 1))[:size]
    return shape.format(run).encode()


# reStructuredText: runs inside a line, and runs of lines (titles, directives, tables, literal blocks)
RST_INLINE_UNITS = [" ", "`", "``", ":a:`", "`x <", "`x`_ ", "*", "**x ", "|", "\\", "[#]_ ", "ref_ words "]
RST_LINE_UNITS = ["=\n", "x\n=\n", ".. x::\n", ".. \n", "+-+\n", "| a |\n", "::\n", "   \n  x\n"]
RST_SHAPES = {"inline": ["{}x", ".. note:: {}", "- {}"], "line": ["{}x", "Title\n{}", "Ex::\n\n  {}"]}


def cases() -> Iterator[Any]:
    for unit in UNITS:
        for shape in MD_SHAPES:
            yield pytest.param("hostile.md", unit, shape, id=f"md-{shape[:3]}-{unit!r}")
        yield pytest.param("hostile.txt", unit, "{}", id=f"txt-{unit!r}")
        yield pytest.param("hostile.csv", unit, "a,b\n{}", id=f"csv-{unit!r}")
    for kind, units in (("inline", RST_INLINE_UNITS), ("line", RST_LINE_UNITS)):
        for unit in units:
            for shape in RST_SHAPES[kind]:
                yield pytest.param("hostile.rst", unit, shape, id=f"rst-{shape[:4]}-{unit!r}")


@pytest.mark.parametrize(("name", "unit", "shape"), list(cases()))
def test_in_process_parsing_grows_linearly_on_hostile_lines(
    monkeypatch: pytest.MonkeyPatch, name: str, unit: str, shape: str
) -> None:
    small = measure(monkeypatch, ingest_in_process(name, hostile(unit, SMALL, shape)))
    large = measure(monkeypatch, ingest_in_process(name, hostile(unit, LARGE, shape)))
    assert small.lines > 0
    assert large.lines <= LINEAR_GROWTH * small.lines, (small, large)
    assert large.chars <= LINEAR_GROWTH * max(small.chars, SMALL), (small, large)


def test_a_heading_of_3000_spaces_costs_what_a_heading_of_3000_letters_costs(monkeypatch: pytest.MonkeyPatch) -> None:
    """The old heading pattern took 38 s on this line (cubic: its three space-matching repeats split the run)."""
    spaces = measure(monkeypatch, ingest_in_process("h.md", b"# x" + b" " * 3000 + b"y\n\nBody text."))
    letters = measure(monkeypatch, ingest_in_process("h.md", b"# x" + b"z" * 3000 + b"y\n\nBody text."))
    assert spaces.lines <= 2 * letters.lines, (spaces, letters)
    assert spaces.chars <= 2 * letters.chars, (spaces, letters)


@pytest.mark.parametrize("opening", ["<div>", "<b>", "<table><tr><td>", "<h1>", "<li>", "<p><span>"])
def test_deeply_nested_html_grows_linearly_with_its_depth(monkeypatch: pytest.MonkeyPatch, opening: str) -> None:
    def page(depth: int) -> bytes:
        return (opening * depth + "deep text" + "".join(f"</{tag}" for tag in reversed(opening.split("<")[1:]))
                * depth).encode()

    shallow = measure(monkeypatch, lambda: load_document("deep.html", page(1000)))
    deep = measure(monkeypatch, lambda: load_document("deep.html", page(16000)))
    assert shallow.lines > 0
    assert deep.lines <= 24 * shallow.lines, (shallow, deep)  # 16 times the depth
