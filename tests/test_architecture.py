"""The shape of the tree: no import circles among ToolForm's modules, and every package's
``__all__`` a literal, sorted list equal to its public members."""

from __future__ import annotations

import ast
import importlib
import types
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: Import name → folder, as pyproject.toml's package-dir maps them.
PACKAGE_DIRS = {"toolform": ROOT / "toolform", "toolform.widgets": ROOT / "widgets",
                "toolform.evidence": ROOT / "evidence", "toolform.datasets": ROOT / "datasets"}
def _modules() -> dict[str, Path]:
    """Every ToolForm module: dotted name → file (packages by their ``__init__.py``)."""
    out = {}
    for package, folder in PACKAGE_DIRS.items():
        for path in folder.rglob("*.py"):
            parts = path.relative_to(folder).with_suffix("").parts
            if package == "toolform" and parts[0] in ("widgets", "evidence", "datasets"):
                continue
            if not (path.parent / "__init__.py").exists():
                continue  # a script folder (datasets/cassettes), not a package
            if any(not (folder.joinpath(*parts[:k]) / "__init__.py").exists()
                   for k in range(1, len(parts))):
                continue
            inner = parts[:-1] if parts[-1] == "__init__" else parts
            name = ".".join((package, *inner))
            out[name] = path
    return out


def _imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The ToolForm modules ``name`` imports, at module level or inside a function (a deferred
    import hides a circle, it does not remove it); ``if TYPE_CHECKING:`` blocks are not run."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            return
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            found.update(f"{target}.{a.name}" if f"{target}.{a.name}" in modules else target
                         for a in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    out = set()
    for target in found:
        while target and target not in modules:
            target = target.rpartition(".")[0]
        # importing a.b.c runs a and a.b first; a module's own parents are already running
        parts = target.split(".")
        for k in range(1, len(parts) + 1):
            step = ".".join(parts[:k])
            if step in modules and step != name and not name.startswith(step + "."):
                out.add(step)
    return out


def import_circles() -> list[list[str]]:
    """Strongly connected groups of two or more modules in the import graph (Tarjan)."""
    modules = _modules()
    graph = {name: _imports(name, path, modules) for name, path in modules.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles = []

    def connect(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                circles.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            connect(v)
    return sorted(circles)


def test_the_import_graph_sees_deferred_imports():
    modules = _modules()
    assert {"toolform", "toolform.grading", "toolform.grading._rules", "toolform.widgets",
            "toolform.charts._runs"} <= set(modules)
    # charts/_runs reads the gradings from toolform.grading, not from the BFCL arm
    assert "toolform.grading" in _imports("toolform.charts._runs",
                                          modules["toolform.charts._runs"], modules)
    assert "toolform.bfcl_arm" not in _imports("toolform.charts._runs",
                                               modules["toolform.charts._runs"], modules)


def test_no_import_circles():
    circles = import_circles()
    assert circles == []


def _packages() -> list[str]:
    return sorted(name for name, path in _modules().items() if path.name == "__init__.py")


def _public_members(name: str) -> set[str]:
    """What a package's ``__init__`` offers: names it defines, names it imports from its own
    modules, and names it serves lazily (a ``_LAZY`` table)."""
    module = importlib.import_module(name)
    tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
    names: set[str] = set(getattr(module, "_LAZY", {}))
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            names.update(a.asname or a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and \
                node.module.startswith(name + "."):
            names.update(a.asname or a.name for a in node.names)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(t.id for t in targets if isinstance(t, ast.Name))
    return {n for n in names if not n.startswith("_")
            and not isinstance(getattr(module, n, None), types.ModuleType)}


def _literal_all(name: str) -> list[str] | None:
    module = importlib.import_module(name)
    tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "__all__"
                                                for t in node.targets):
            if isinstance(node.value, ast.List) and all(
                    isinstance(e, ast.Constant) and isinstance(e.value, str)
                    for e in node.value.elts):
                return [e.value for e in node.value.elts]
            return None
    return None


def test_every_package_is_checked():
    assert len(_packages()) >= 15
    assert {"toolform", "toolform.formats", "toolform.io", "toolform.grading", "toolform.cli",
            "toolform.widgets", "toolform.datasets", "toolform.evidence"} <= set(_packages())


@pytest.mark.parametrize("name", _packages())
def test_all_is_a_sorted_literal_equal_to_the_public_members(name):
    listed = _literal_all(name)
    assert listed is not None, f"{name}.__all__ is not a literal list of strings"
    assert listed == sorted(listed), f"{name}.__all__ is not sorted"
    assert len(set(listed)) == len(listed), f"{name}.__all__ repeats a name"
    module = importlib.import_module(name)
    assert list(module.__all__) == listed
    members = _public_members(name)
    assert sorted(set(listed) - members) == [], f"{name}.__all__ lists what it does not offer"
    assert sorted(members - set(listed)) == [], f"{name} offers names __all__ leaves out"
    for attr in listed:
        assert getattr(module, attr) is not None


def test_toolform_raises_errors_from_its_tree():
    bare = []
    for name, path in _modules().items():
        where = path.relative_to(ROOT).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Raise) and node.exc is not None:
                called = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
                if isinstance(called, ast.Name) and called.id in ("ValueError", "TypeError"):
                    bare.append(f"{where}:{node.lineno}")
    assert bare == []


def test_the_error_tree_is_drawn_with_every_error():
    import toolform.errors as errors

    doc = errors.__doc__
    for name in errors.__all__:
        assert f" {name}" in doc, name
    from toolform.errors import InvalidParameterError, ParameterTypeError, ToolFormError

    assert issubclass(InvalidParameterError, (ToolFormError, ValueError))
    assert issubclass(ParameterTypeError, TypeError) and issubclass(ParameterTypeError,
                                                                    InvalidParameterError)
