"""Old import paths kept one release: a module's ``__getattr__`` that warns and forwards.

A name that moved is removed from its old module and listed here by that module::

    __getattr__ = moved_names(__name__, {"GRADINGS": "toolform.grading.GRADINGS"})

``from toolform.bfcl_arm import GRADINGS`` then still works, with a ``DeprecationWarning``
naming the new home. :func:`forwarded` reaches an object by its dotted path without an
import statement, for a shim kept one release in a module the new home itself imports
(``ParsedReply.calls`` asks ``toolform.grading``, which imports ``toolform.protocols``).
"""

from __future__ import annotations

import importlib
import warnings
from typing import Any, Callable, Mapping

__all__ = ["forwarded", "moved_names"]


def moved_names(module: str, moves: Mapping[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` serving each old name from its new dotted path, with a warning.

    Parameters
    ----------
    module : str
        The old module's ``__name__``.
    moves : mapping of str to str
        Old name → new dotted path (``"toolform.grading.GRADINGS"``).

    Returns
    -------
    callable
        ``__getattr__(name)``; any other name raises ``AttributeError`` as usual.
    """

    def __getattr__(name: str) -> Any:
        if name not in moves:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        warnings.warn(f"{module}.{name} is deprecated and will be removed in the next release; "
                      f"use {moves[name]}", DeprecationWarning, stacklevel=2)
        return forwarded(moves[name])

    return __getattr__


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
