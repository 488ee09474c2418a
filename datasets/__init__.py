"""Labelled requests shipped with ToolForm (importable as ``toolform.datasets``).

A dataset is a JSON Lines file ``<folder>/<name>.jsonl`` inside this package, one
``toolform.ir.Request.to_dict()`` per line (``id``, ``category``, ``source``, ``request``,
``tools``, ``gold``), with its data card in ``<folder>/README.md``; its name is
``"<folder>/<name>"``. Any such file whose first line has ``request`` and ``tools`` counts, so
other JSONL files (recorded replies, for instance) are not mistaken for datasets.

>>> from toolform.datasets import dataset_names, load_dataset
>>> "bfcl/simple_python" in dataset_names()
True
>>> ds = load_dataset("bfcl/simple_python")
>>> len(ds), ds.requests[0].gold[0].name
(400, 'calculate_triangle_area')
"""

from __future__ import annotations

import functools
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from toolform.errors import DatasetError, NotFoundError
from toolform.io import load_tools
from toolform.ir import Request, Toolset

__all__ = ["Dataset", "FRAME_COLUMNS", "data_path", "dataset_names", "load_dataset", "read_requests"]

_ROOT = Path(__file__).resolve().parent

#: Columns of :meth:`Dataset.frame`, in order.
FRAME_COLUMNS = ("id", "category", "request", "n_tools", "gold_names", "source")


@dataclass(frozen=True)
class Dataset:
    """A named, ordered collection of labelled requests.

    Parameters
    ----------
    name : str
        ``"<folder>/<name>"`` for a packaged dataset, or the file path it was read from.
    requests : tuple of Request
        In file order; ids are unique.
    card : str
        The data card (Markdown): source, licence, size, schema, how it was built.
    """

    name: str
    requests: tuple[Request, ...]
    card: str = ""

    def __len__(self) -> int:
        return len(self.requests)

    def __iter__(self) -> Iterator[Request]:
        return iter(self.requests)

    def __getitem__(self, key: int | str) -> Request:
        """The request at a position, or with an id.

        Raises
        ------
        NotFoundError
            When no request has that id (a ``KeyError`` too).
        """
        if isinstance(key, str):
            for request in self.requests:
                if request.id == key:
                    return request
            raise NotFoundError(f"no request {key!r} in dataset {self.name!r}", key=key)
        return self.requests[key]

    def frame(self) -> Any:
        """One row per request, as a pandas DataFrame.

        Returns
        -------
        pandas.DataFrame
            Columns ``id`` (str), ``category`` (str), ``request`` (str, the user's text),
            ``n_tools`` (int, tools on offer), ``gold_names`` (tuple of str, the gold calls'
            tools in order), ``source`` (str); ``len(self)`` rows.
        """
        import pandas as pd

        rows = [{"id": r.id, "category": r.category, "request": r.text,
                 "n_tools": len(r.toolset), "gold_names": tuple(g.name for g in r.gold),
                 "source": r.source} for r in self.requests]
        return pd.DataFrame(rows, columns=list(FRAME_COLUMNS)).astype({"n_tools": "int64"})


def _is_request_file(path: Path) -> bool:
    """Whether the first non-blank line of a JSONL file is a Request line."""
    try:
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                if line.strip():
                    first = json.loads(line)
                    return isinstance(first, dict) and "request" in first and "tools" in first
    except (OSError, ValueError):
        return False
    return False


def data_path(relative: str) -> Path:
    """The path of a packaged data file, e.g. ``data_path("mcp/filesystem.json")``.

    Raises
    ------
    DatasetError
        When no such file is packaged (the message lists the folder's files).
    """
    path = (_ROOT / relative).resolve()
    if _ROOT not in path.parents or not path.is_file():
        folder = (_ROOT / relative).parent
        here = sorted(p.name for p in folder.iterdir()) if folder.is_dir() else []
        raise DatasetError(f"no packaged data file {relative!r}; {folder.name}/ holds {here}")
    return path


def dataset_names() -> list[str]:
    """The packaged datasets' names, sorted (``["bfcl/multiple", "bfcl/simple_python", ...]``)."""
    return sorted(f"{path.parent.name}/{path.stem}" for path in _ROOT.glob("*/*.jsonl")
                  if _is_request_file(path))


def read_requests(path: str | os.PathLike[str]) -> tuple[Request, ...]:
    """Read a dataset JSONL file.

    Parameters
    ----------
    path : str or path
        One ``Request.to_dict()`` per line; blank lines are skipped.

    Returns
    -------
    tuple of Request

    Raises
    ------
    DatasetError
        When the file cannot be read, a line is not a valid request (naming file and line
        number), or two lines share an id.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise DatasetError(f"cannot read dataset file {path}: {exc}") from exc
    requests: list[Request] = []
    seen: dict[str, int] = {}
    shared: dict[str, Toolset] = {}  # "tools": "<file>.json" names one toolset for many lines
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
            if not isinstance(data, dict):
                raise DatasetError(f"expected a JSON object, got {type(data).__name__}")
            tools = data.get("tools")
            if isinstance(tools, str):
                if tools not in shared:
                    shared[tools] = load_tools(path.parent / tools, kind="ir")
                request = Request.from_dict(data, toolset=shared[tools])
            else:
                request = Request.from_dict(data)
        except (ValueError, KeyError, TypeError) as exc:  # LoaderError is a ValueError
            what = f"missing key {exc}" if isinstance(exc, KeyError) else str(exc)
            raise DatasetError(f"{path}, line {number}: not a valid request ({what})") from exc
        if request.id in seen:
            raise DatasetError(f"{path}, line {number}: id {request.id!r} already used on line "
                               f"{seen[request.id]}")
        seen[request.id] = number
        requests.append(request)
    return tuple(requests)


@functools.lru_cache(maxsize=None)
def _load_packaged(name: str) -> Dataset:
    path = _ROOT / f"{name}.jsonl"
    card_path = path.parent / "README.md"
    card = card_path.read_text(encoding="utf-8") if card_path.is_file() else ""
    return Dataset(name=name, requests=read_requests(path), card=card)


def load_dataset(name: str) -> Dataset:
    """Load a packaged dataset by name, or a dataset JSONL file by path.

    Parameters
    ----------
    name : str
        A name from :func:`dataset_names` (``"bfcl/simple_python"``), or the path of a ``.jsonl``
        file in the same line format (its card is a ``README.md`` beside it, when there is one).

    Returns
    -------
    Dataset
        Packaged datasets are read once per process and shared (they are immutable).

    Raises
    ------
    DatasetError
        When the name is unknown (the message lists the available names), or a line is
        malformed (naming the file and line number).
    """
    names = dataset_names()
    if name in names:
        return _load_packaged(name)
    path = Path(name)
    if path.suffix == ".jsonl" and path.is_file():
        card_path = path.parent / "README.md"
        card = card_path.read_text(encoding="utf-8") if card_path.is_file() else ""
        return Dataset(name=str(path), requests=read_requests(path), card=card)
    raise DatasetError(f"unknown dataset {name!r}; available: {', '.join(names) or 'none'}")
