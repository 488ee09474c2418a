"""A small ordered registry shared by formats and protocols.

Entries are registered once, by a decorator in the module that defines them; a duplicate id
raises ``RegistryError`` at import unless the caller says ``replace=True`` (re-running a notebook
cell that registers a format), and a lookup of an unknown id raises the registry's own
``Unknown*Error`` naming the closest ids.
"""

from __future__ import annotations

from typing import Callable, Generic, Iterator, TypeVar

from .errors import RegistryError

T = TypeVar("T")


class Registry(Generic[T]):
    """Ordered id → entry mapping.

    Parameters
    ----------
    kind : str
        What the entries are ("format", "protocol"); used in messages.
    unknown : callable
        ``unknown(given, known_ids)`` builds the exception raised for an unknown id.
    """

    def __init__(self, kind: str, unknown: Callable[[str, list[str]], Exception]) -> None:
        self.kind = kind
        self._unknown = unknown
        self._entries: dict[str, T] = {}

    def add(self, key: str, entry: T, *, replace: bool = False) -> T:
        """Register ``entry`` under ``key`` and return it.

        Parameters
        ----------
        key : str
            The id.
        entry : object
            What the id names.
        replace : bool
            Put ``entry`` in place of an entry already under ``key`` (it keeps that entry's
            position in :meth:`ids`); without it a second entry raises.

        Returns
        -------
        object
            ``entry``.

        Raises
        ------
        RegistryError
            When ``key`` is taken and ``replace`` is False.
        """
        if key in self._entries and not replace:
            raise RegistryError(f"{self.kind} {key!r} is registered twice (pass replace=True to "
                                "register it again, e.g. when re-running a notebook cell)")
        self._entries[key] = entry
        return entry

    def get(self, key: str) -> T:
        """The entry for ``key``; raises the registry's unknown-id error naming the closest ids."""
        try:
            return self._entries[key]
        except (KeyError, TypeError):
            raise self._unknown(str(key), list(self._entries)) from None

    def ids(self) -> list[str]:
        """Registered ids in registration order."""
        return list(self._entries)

    def __contains__(self, key: object) -> bool:
        return key in self._entries

    def __iter__(self) -> Iterator[T]:
        return iter(self._entries.values())

    def __len__(self) -> int:
        return len(self._entries)


def snake_case(name: str) -> str:
    """``JsonObject`` → ``json_object``; already-snake names are returned unchanged."""
    out = []
    for i, ch in enumerate(name):
        if ch.isupper() and i and (not name[i - 1].isupper() or
                                   (i + 1 < len(name) and name[i + 1].islower())):
            out.append("_")
        out.append(ch.lower())
    return "".join(out)
