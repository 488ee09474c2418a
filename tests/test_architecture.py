"""The shape of the tree: no import circles among ToolForm's modules, and every package's
``__all__`` a literal, sorted list equal to its public members."""

from __future__ import annotations

import ast
import builtins
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


#: Every builtin exception class (``KeyError``, ``RuntimeError``, ``FileExistsError``...).
BUILTIN_ERRORS = frozenset(n for n, v in vars(builtins).items()
                           if isinstance(v, type) and issubclass(v, BaseException))


def _python_convention(builtin: str, where: str, scopes: tuple[ast.AST, ...]) -> bool:
    """Whether Python itself asks for this builtin here: ``AttributeError`` from a
    ``__getattr__`` (a module's, one a factory returns, an object's: ``hasattr`` and
    ``getattr(x, name, default)`` rely on it), ``NotImplementedError`` from a method a subclass
    overrides, ``SystemExit`` from a ``__main__`` module, and the ``SyntaxError`` of
    ``py_parse_source``, which stands in for ``ast.parse`` and whose callers all catch it."""
    function = next((s.name for s in reversed(scopes)
                     if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))), None)
    if builtin == "AttributeError":
        return function == "__getattr__"
    if builtin == "NotImplementedError":
        return (function is not None and len(scopes) >= 2 and isinstance(scopes[-2], ast.ClassDef)
                and isinstance(scopes[-1], (ast.FunctionDef, ast.AsyncFunctionDef)))
    if builtin == "SystemExit":
        return where.endswith("/__main__.py")
    if builtin == "SyntaxError":
        return where == "toolform/protocols/_python.py" and function == "py_parse_source"
    return False


def _builtin_errors_made(tree: ast.AST, where: str) -> list[str]:
    """``file:line Name`` for every builtin exception raised or built (``raise KeyError(...)``,
    ``raise RuntimeError``, ``return ValueError(...)`` for a later ``raise``) outside the
    Python conventions above. A bare ``raise`` and ``raise exc`` re-raise and are not counted."""
    found: list[str] = []

    def visit(node: ast.AST, scopes: tuple[ast.AST, ...]) -> None:
        made = None
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            made = node.func.id
        elif isinstance(node, ast.Raise) and isinstance(node.exc, ast.Name):
            made = node.exc.id
        if made in BUILTIN_ERRORS and not _python_convention(made, where, scopes):
            found.append(f"{where}:{node.lineno} {made}")
        inner = (*scopes, node) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                     ast.ClassDef)) else scopes
        for child in ast.iter_child_nodes(node):
            visit(child, inner)

    visit(tree, ())
    return found


def test_toolform_raises_errors_from_its_tree():
    bare = []
    for name, path in _modules().items():
        where = path.relative_to(ROOT).as_posix()
        bare += _builtin_errors_made(ast.parse(path.read_text(encoding="utf-8")), where)
    assert bare == []


def test_the_raise_check_sees_every_builtin_and_allows_only_the_conventions():
    source = (
        "def f():\n    raise KeyError('k')\n"
        "def g():\n    raise RuntimeError\n"
        "def h():\n    return FileExistsError('taken')\n"
        "def __getattr__(name):\n    raise AttributeError(name)\n"
        "class Base:\n    def run(self):\n        raise NotImplementedError\n"
        "    def __getattr__(self, name):\n        raise AttributeError(name)\n"
        "    def size(self):\n        raise AttributeError('size')\n"
        "def helper():\n    raise NotImplementedError\n"
        "def py_parse_source(s, mode):\n    raise SyntaxError(s)\n"
        "def again():\n    try:\n        pass\n    except KeyError:\n        raise\n")
    made = [f.split(" ", 1)[1] for f in _builtin_errors_made(ast.parse(source), "toolform/x.py")]
    # only a __getattr__ may raise AttributeError; a module-level function is not abstract;
    # py_parse_source's SyntaxError is allowed in toolform/protocols/_python.py only
    assert made == ["KeyError", "RuntimeError", "FileExistsError", "AttributeError",
                    "NotImplementedError", "SyntaxError"]
    assert _builtin_errors_made(ast.parse("raise SystemExit(main())\n"),
                                "toolform/generator/__main__.py") == []
    assert _builtin_errors_made(ast.parse("def py_parse_source(s, mode):\n"
                                          "    raise SyntaxError(s)\n"),
                                "toolform/protocols/_python.py") == []


def test_the_error_tree_is_drawn_with_every_error():
    import toolform.errors as errors

    doc = errors.__doc__
    for name in errors.__all__:
        assert f" {name}" in doc, name
    from toolform.errors import InvalidParameterError, ParameterTypeError, ToolFormError

    assert issubclass(InvalidParameterError, (ToolFormError, ValueError))
    assert issubclass(ParameterTypeError, TypeError) and issubclass(ParameterTypeError,
                                                                    InvalidParameterError)


def test_lookups_that_find_nothing_raise_not_found_errors_that_are_key_errors():
    import pandas as pd

    from toolform.catalogue import run_mission
    from toolform.errors import NotFoundError, ToolFormError
    from toolform.frontier import pareto_front
    from toolform.guard import get_rule
    from toolform.ir import ParamIR, ToolIR, Toolset, TypeIR

    toolset = Toolset((ToolIR("ping", "Check a host.", (ParamIR("host", TypeIR("string")),)),))
    for lookup, says in ((lambda: toolset["pong"], "no tool named 'pong'"),
                         (lambda: get_rule("TS999"), "no guard rule 'TS999'; rules: TS101"),
                         (lambda: run_mission("nope"), "unknown mission 'nope'; missions: "),
                         (lambda: pareto_front(pd.DataFrame({"tokens": [1]})),
                          "pareto_front needs columns ['accuracy']")):
        with pytest.raises(KeyError) as caught:  # what callers caught before still catches
            lookup()
        assert isinstance(caught.value, NotFoundError) and isinstance(caught.value, ToolFormError)
        assert str(caught.value).startswith(says)  # not quoted, as a bare KeyError would be
