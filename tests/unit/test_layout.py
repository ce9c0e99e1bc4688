"""The direction of imports: the judging package stands on its own, and no module reaches into another's privates.

`masis.judge` scores how relevant a passage is and how well an answer is supported, for every provider and agent
alike, so it imports no provider (`masis.llm`) and no prompt text (`masis.llm.prompts`): they import it. Read from the
source, function-level imports included.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
JUDGE = REPO / "masis" / "judge"
FORBIDDEN_IN_JUDGE = ("masis.llm", "masis.llm.prompts", "masis.agents", "masis.engine", "masis.store", "masis.ingest")


def _module_name(path: Path) -> str:
    parts = path.relative_to(REPO).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> Iterator[tuple[int, str, list[str]]]:
    """(line, module, names) of every import in the file; `import a.b` gives ("a.b", [])."""
    package = _module_name(path).rsplit(".", 1)[0] if path.name != "__init__.py" else _module_name(path)
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name, []
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join([*base, module] if module else base)
            yield node.lineno, module, [alias.name for alias in node.names]


def _sources(*roots: str) -> list[Path]:
    return sorted(p for root in roots for p in (REPO / root).rglob("*.py"))


def test_the_judging_package_imports_no_provider_prompt_or_face() -> None:
    found = [
        f"{path.relative_to(REPO)}:{line} imports {module}"
        for path in _sources("masis/judge")
        for line, module, names in _imports(path)
        for target in [module, *(f"{module}.{name}" for name in names)]
        if target.startswith(FORBIDDEN_IN_JUDGE) or target in {"masis.llm", "masis.llm.prompts"}
    ]
    assert JUDGE.is_dir() and len(_sources("masis/judge")) >= 10
    assert found == []


def test_no_module_imports_another_modules_private_helper() -> None:
    found = [
        f"{path.relative_to(REPO)}:{line} imports {name} from {module}"
        for path in _sources("masis", "bot")
        for line, module, names in _imports(path)
        for name in names
        if name.startswith("_") and not name.startswith("__") and module != _module_name(path)
    ]
    assert found == []


def test_every_judging_module_says_its_job_in_its_first_line() -> None:
    for path in _sources("masis/judge"):
        docstring = ast.get_docstring(ast.parse(path.read_text())) or ""
        assert docstring.strip(), f"{path.name} has no docstring"
        assert len(docstring.splitlines()[0]) <= 120, f"{path.name}: the first line should say its job in one line"


def test_the_slack_face_uses_the_database_seam_not_the_registry() -> None:
    found = [
        f"{path.relative_to(REPO)}:{line} imports {module}"
        for path in _sources("bot")
        for line, module, names in _imports(path)
        if module.startswith("masis.records") and module != "masis.records.db" and module != "masis.records.locks"
    ]
    assert found == []
