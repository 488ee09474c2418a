"""Old import paths kept one release: names and whole modules that moved, served with a warning.

A name that moved out of a module that still exists is listed by that module::

    __getattr__ = moved_names(__name__, {"GRADINGS": "toolform.grading.GRADINGS"})

A module that moved away altogether (its file is gone, so version control follows the rename)
is listed in :data:`MOVED_MODULES`; ``import toolform`` installs a finder that serves it as a
module whose every name forwards to its new home. ``from toolform.abtest import ab_test`` then
still works, with a ``DeprecationWarning`` naming the new path, and gives the very same object.

:func:`forwarded` reaches an object by its dotted path without an
import statement, for a shim kept one release in a module the new home itself imports
(``ParsedReply.calls`` asks ``toolform.grading``, which imports ``toolform.protocols``).

A keyword a function renamed is read one release by :func:`renamed_keywords`, with a warning
naming the new spelling: ``ab_test(requests, client, formats=[...])`` still runs.
"""

from __future__ import annotations

import functools
import importlib
import importlib.abc
import importlib.machinery
import sys
import types
import warnings
from typing import Any, Callable, Mapping, TypeVar

from .errors import InvalidParameterError

__all__ = ["MOVED_MODULES", "forwarded", "install_moved_modules", "moved_names",
           "renamed_keywords"]

F = TypeVar("F", bound=Callable[..., Any])


def moved_names(module: str, moves: Mapping[str, str], *,
                stacklevel: int = 2) -> Callable[[str], Any]:
    """A module ``__getattr__`` serving each old name from its new dotted path, with a warning.

    Parameters
    ----------
    module : str
        The old module's ``__name__``.
    moves : mapping of str to str
        Old name → new dotted path (``"toolform.grading.GRADINGS"``).
    stacklevel : int, default 2
        Passed to ``warnings.warn``: 2 names the importing line when the returned function is
        the module's ``__getattr__``; 3 when a module's own ``__getattr__`` calls it.

    Returns
    -------
    callable
        ``__getattr__(name)``; any other name raises ``AttributeError`` as usual.
    """

    def __getattr__(name: str) -> Any:
        if name not in moves:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        warnings.warn(f"{module}.{name} is deprecated and will be removed in the next release; "
                      f"use {moves[name]}", DeprecationWarning, stacklevel=stacklevel)
        return forwarded(moves[name])

    return __getattr__


def _experiments(*names: str) -> dict[str, str]:
    return {name: f"toolform.experiments.{name}" for name in names}


#: Modules that moved away, one release old: old module → {old name → new dotted path}.
MOVED_MODULES: dict[str, dict[str, str]] = {
    "toolform.abtest": {
        **_experiments("ABResult", "CELL_COLUMNS", "HEADLINE_REASON", "LOCAL_MODEL_ID",
                       "RECORDED_AB_CASSETTE", "RECORDED_AB_DATASETS", "REFERENCE_FORMAT",
                       "ab_test", "recorded_ab_client", "select_requests", "summarize_cells"),
        "CORE_FORMATS": "toolform.study.CORE_FORMATS",
        "RULE_MEANINGS": "toolform.grading.RULE_MEANINGS",
    },
    "toolform.possible_answers": {
        name: f"toolform.grading.{name}"
        for name in ("MATCHINGS", "grade_possible_answers", "normalise_string")},
    "toolform.bfcl_arm": {
        **_experiments("BFCL_ARM_COLUMNS", "DISAGREEMENT_COLUMNS", "RECORDED_BFCL_CASSETTE",
                       "RECORDED_BFCL_CELL", "RECORDED_BFCL_DRAW", "bfcl_arm",
                       "bfcl_arm_requests", "bfcl_arm_table", "grading_disagreements",
                       "recorded_bfcl_client"),
        "RECORDED_MAX_TOKENS": "toolform.experiments.RECORDED_BFCL_MAX_TOKENS",
        "GRADINGS": "toolform.grading.GRADINGS",
    },
}


class _MovedModuleLoader(importlib.abc.Loader):
    """Makes the stand-in module of a moved one: nothing but a forwarding ``__getattr__``."""

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        module = types.ModuleType(spec.name, f"Moved: see {spec.name}'s names' new homes.")
        moves = MOVED_MODULES[spec.name]
        module.__getattr__ = moved_names(spec.name, moves)  # type: ignore[attr-defined]
        module.__dir__ = lambda: sorted(moves)  # type: ignore[attr-defined]
        return module

    def exec_module(self, module: types.ModuleType) -> None:
        """Nothing to run: every name is served on access."""


class _MovedModuleFinder(importlib.abc.MetaPathFinder):
    """Finds the modules of :data:`MOVED_MODULES` (and no other)."""

    def find_spec(self, fullname: str, path: Any = None,
                  target: Any = None) -> importlib.machinery.ModuleSpec | None:
        if fullname not in MOVED_MODULES:
            return None
        return importlib.machinery.ModuleSpec(fullname, _MovedModuleLoader())


def install_moved_modules() -> None:
    """Let the old modules of :data:`MOVED_MODULES` be imported (once per process)."""
    if not any(isinstance(f, _MovedModuleFinder) for f in sys.meta_path):
        sys.meta_path.append(_MovedModuleFinder())


def forwarded(dotted: str) -> Any:
    """The object at a dotted path (``"toolform.grading.select_calls"``), imported on first use.

    Parameters
    ----------
    dotted : str
        The module path, a dot, and the attribute.

    Returns
    -------
    object
    """
    target, _, attribute = dotted.rpartition(".")
    return getattr(importlib.import_module(target), attribute)


def renamed_keywords(renames: Mapping[str, str],
                     converters: Mapping[str, Callable[[dict[str, Any]], Any]] | None = None
                     ) -> Callable[[F], F]:
    """A decorator reading a function's old keyword names one release, with a warning.

    Parameters
    ----------
    renames : mapping of str to str
        Old keyword → the keyword that replaced it. Several old keywords may map to one new
        one (``formats=`` and ``protocol=`` both became ``cells=``).
    converters : mapping of str to callable, optional
        New keyword → a function of the old keywords given (a dict) returning its value; a
        new keyword without one takes the single old keyword's value as it is.

    Returns
    -------
    callable
        The decorator. The wrapped function raises ``InvalidParameterError`` when a call gives
        a keyword under both its old and its new name.
    """
    converters = dict(converters or {})

    def decorate(function: F) -> F:
        @functools.wraps(function)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            old = {name: kwargs.pop(name) for name in list(kwargs) if name in renames}
            for target in dict.fromkeys(renames[name] for name in old):
                given = {name: value for name, value in old.items() if renames[name] == target}
                spelled = ", ".join(f"{name}=" for name in given)
                if target in kwargs:
                    raise InvalidParameterError(
                        f"{function.__name__}: give {target}= or its old spelling {spelled}, "
                        f"not both")
                warnings.warn(f"{function.__name__}({spelled}...) is deprecated and will be "
                              f"removed in the next release; use {target}=",
                              DeprecationWarning, stacklevel=2)
                convert = converters.get(target)
                kwargs[target] = convert(given) if convert else next(iter(given.values()))
            return function(*args, **kwargs)

        return wrapper  # type: ignore[return-value]

    return decorate
