"""The shape of the house (ARCHITECTURE.md): no import cycles in ``bot/`` and ``engine/``, and no generic
layer that imports a rule set's engine.

An import is an edge of the graph wherever it is written: at the top of a module, inside a function
(an import put off until it is needed still ties the two modules together) and under
``TYPE_CHECKING`` (the type checker reads it). ``from a.b import c`` is an edge to the module
``a.b.c`` when there is one, else to ``a.b``; a package's ``__init__`` is a module like any other (a
submodule does not depend on its package's ``__init__`` by being in it). A cycle is a strongly
connected component of two modules or more.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: the generic layers: what they import of a rule set comes through the registry (``bot.registry``)
GENERIC = ("bot/service", "bot/storage", "bot/discord", "bot/console", "bot/render", "bot/commands",
           "bot/i18n", "bot/prep", "bot/registry.py", "bot/ruleset.py", "bot/views.py")  # fmt: skip
#: the engines of the rule sets
RULE_ENGINES = ("engine.fort", "engine.sengensho")


def modules(root: Path, packages: Iterable[str]) -> dict[str, Path]:
    """Every module of ``packages`` (folders under ``root``) by its dotted name."""
    found: dict[str, Path] = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _known(name: str, known: Mapping[str, Path]) -> str | None:
    """The module ``name`` names, or the package it is in (the longest known prefix)."""
    while name:
        if name in known:
            return name
        name = name.rpartition(".")[0]
    return None


def imports(name: str, path: Path, known: Mapping[str, Path]) -> set[str]:
    """The modules of ``known`` that module ``name`` imports, anywhere in it."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*up, *([node.module] if node.module else [])])
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]
        else:
            continue
        for target in targets:
            module = _known(target, known)
            if module is not None and module != name:
                out.add(module)
    return out


def graph(root: Path, packages: Iterable[str]) -> dict[str, set[str]]:
    known = modules(root, packages)
    return {name: imports(name, path, known) for name, path in known.items()}


def cycles(edges: Mapping[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of two modules or more (Tarjan's algorithm, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, following = work[-1]
            step = next(following, None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = len(index)
                    stack.append(step)
                    on_stack.add(step)
                    work.append((step, iter(sorted(edges.get(step, ())))))
                elif step in on_stack:
                    low[node] = min(low[node], index[step])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_bot_and_engine_have_no_import_cycle() -> None:
    assert cycles(graph(ROOT, ("bot", "engine"))) == []


def test_the_cycle_check_sees_a_cycle_hidden_in_a_function_or_under_type_checking(tmp_path: Path) -> None:
    """The check above fails when a cycle is added: here one through a function-level import and a
    ``TYPE_CHECKING`` one (``a`` → ``b`` → ``c`` → ``a``), beside modules that import each other one way."""
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text('"""Its __init__ imports its modules."""\nfrom pkg import a\n')
    (package / "a.py").write_text("import pkg.b\n")
    (package / "b.py").write_text("def later():\n    from pkg.c import thing\n    return thing\n")
    (package / "c.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import a\nthing = 1\n"
    )
    (package / "d.py").write_text("from pkg import a, c\n")
    edges = graph(tmp_path, ("pkg",))
    assert edges == {
        "pkg": {"pkg.a"},
        "pkg.a": {"pkg.b"},
        "pkg.b": {"pkg.c"},
        "pkg.c": {"pkg.a"},
        "pkg.d": {"pkg.a", "pkg.c"},
    }
    assert cycles(edges) == [["pkg.a", "pkg.b", "pkg.c"]]
    (package / "c.py").write_text("thing = 1\n")  # the cycle broken: none left
    assert cycles(graph(tmp_path, ("pkg",))) == []


def test_no_generic_layer_imports_a_rule_sets_engine() -> None:
    """The service, storage, Discord, the console, the renderers and the rest of the generic layers
    reach a rule set through the registry, never by importing ``engine.fort`` or ``engine.sengensho``
    (the issue's proof: ``grep -rn "engine\\.fort\\|engine\\.sengensho"`` finds nothing there)."""
    known = modules(ROOT, ("bot", "engine"))
    found = []
    for place in GENERIC:
        paths = [ROOT / place] if place.endswith(".py") else sorted((ROOT / place).rglob("*.py"))
        for path in paths:
            name = next(n for n, p in known.items() if p == path)
            found += [(name, m) for m in sorted(imports(name, path, known)) if m.startswith(RULE_ENGINES)]
            text = path.read_text(encoding="utf-8")
            found += [(name, word) for word in RULE_ENGINES if word in text]
    assert found == []
