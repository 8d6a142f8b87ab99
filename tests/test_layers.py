"""The package's layers: what each part of the companion may import, read from the source itself.

Every ``import`` and ``from ... import`` in ``companion/`` is parsed with :mod:`ast` (including imports
inside functions and under ``TYPE_CHECKING``: a lazy import is still a dependency), so a new module is
checked the day it is written, with no list to keep up to date by hand.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "companion"


def _module_name(path: Path) -> tuple[str, list[str]]:
    """The dotted name of a source file and the package its relative imports start from."""
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
        return ".".join(parts), parts
    return ".".join(parts), parts[:-1]


def _imports(path: Path) -> Iterator[str]:
    """Every module of the companion that a source file names in an import statement."""
    _, package = _module_name(path)
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                names = [".".join([*base, node.module] if node.module else base)]
            else:
                names = [node.module or ""]
            # ``from companion.vision import index`` imports the module companion.vision.index.
            names += [f"{names[0]}.{alias.name}" for alias in node.names]
        else:
            continue
        for name in names:
            if name == "companion" or name.startswith("companion."):
                yield name


def _part(module: str) -> str:
    """The part of the package a module belongs to: ``companion.app.loop`` -> ``app``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "companion"


def _existing(module: str) -> bool:
    relative = Path(*module.split(".")[1:]) if "." in module else Path()
    base = PACKAGE / relative
    return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()


@cache
def import_graph() -> dict[str, frozenset[str]]:
    """Module -> the companion modules it imports (only names that are modules of the package; read once)."""
    graph: dict[str, set[str]] = defaultdict(set)
    for path in sorted(PACKAGE.rglob("*.py")):
        module, _ = _module_name(path)
        graph[module] |= {name for name in _imports(path) if _existing(name) and name != module}
    return {module: frozenset(targets) for module, targets in graph.items()}


def part_graph() -> dict[str, set[str]]:
    """Part -> the other parts it imports (``app`` -> ``board``, ``events``, ...)."""
    parts: dict[str, set[str]] = defaultdict(set)
    for module, targets in import_graph().items():
        parts[_part(module)] |= {_part(target) for target in targets} - {_part(module)}
    return dict(parts)


def _imports_of(part: str) -> dict[str, set[str]]:
    """For each module of ``part``, the modules of other parts it imports."""
    return {
        module: {target for target in targets if _part(target) != part}
        for module, targets in import_graph().items()
        if _part(module) == part
    }


def test_the_graph_is_read_from_the_source() -> None:
    # The reader must see what is really there, or every rule below would pass vacuously.
    graph = import_graph()
    assert "companion.cards" in graph["companion.rules.show"]
    assert "companion.events" in graph["companion.controls"]
    assert "companion.vision.index" in graph["companion.vision.recognise"]  # ``from ... import index``
    assert {"app", "board", "cards", "controls", "events", "rules", "vision", "web"} <= set(part_graph())


def test_cards_import_nothing_of_the_companion() -> None:
    assert _imports_of("cards") == {"companion.cards": set()}


def test_rules_import_only_cards() -> None:
    wrong = {module: targets - {"companion.cards"} for module, targets in _imports_of("rules").items()}
    assert {module: targets for module, targets in wrong.items() if targets} == {}


def test_vision_imports_only_cards() -> None:
    wrong = {module: targets - {"companion.cards"} for module, targets in _imports_of("vision").items()}
    assert {module: targets for module, targets in wrong.items() if targets} == {}


@pytest.mark.parametrize("part", ["board", "controls", "web", "events", "vision", "rules", "cards"])
def test_the_app_is_imported_by_nothing_below_it(part: str) -> None:
    # The app wires the parts together; a part that imported it would need the whole companion.
    importers = {
        module for module, targets in _imports_of(part).items() if any(_part(t) == "app" for t in targets)
    }
    assert importers == set()


def test_events_import_nothing_of_the_companion_but_cards() -> None:
    # An event carries a card (or the camera's unread mark) as a value: the cards are the only layer below.
    assert part_graph().get("events", set()) <= {"cards"}


def test_no_cycles_among_the_parts() -> None:
    graph = part_graph()
    cycles: list[list[str]] = []

    def visit(part: str, path: list[str]) -> None:
        for target in sorted(graph.get(part, set())):
            if target in path:
                cycles.append([*path[path.index(target) :], target])
            elif len(path) < len(graph) + 1:
                visit(target, [*path, target])

    for start in sorted(graph):
        visit(start, [start])
    assert cycles == []
