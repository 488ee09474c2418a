"""Old import paths kept one release: a module's ``__getattr__`` that warns and forwards.

A name that moved is removed from its old module and listed here by that module::

    __getattr__ = moved_names(__name__, {"GRADINGS": "toolform.grading.GRADINGS"})

``from toolform.bfcl_arm import GRADINGS`` then still works, with a ``DeprecationWarning``
naming the new home.
"""

from __future__ import annotations

import importlib
import warnings
from typing import Any, Callable, Mapping

__all__ = ["moved_names"]


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
        target, _, attribute = moves[name].rpartition(".")
        warnings.warn(f"{module}.{name} is deprecated and will be removed in the next release; "
                      f"use {moves[name]}", DeprecationWarning, stacklevel=2)
        return getattr(importlib.import_module(target), attribute)

    return __getattr__
