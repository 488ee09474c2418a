"""The grading version: a stamp of the code and libraries that turn a reply into verdicts."""

from __future__ import annotations

import functools
import hashlib
import importlib
import importlib.metadata
from pathlib import Path

__all__ = ["VERDICT_LIBRARIES", "VERDICT_MODULES", "grading_version"]

#: The modules whose code decides a turn's verdicts: the IR (the schema validated against), every
#: parser, the graders, and the end-state check of simulated worlds.
VERDICT_MODULES = ("toolform.ir", "toolform.protocols", "toolform.grading",
                   "toolform.generator._world")
#: The libraries those modules read replies and validate calls with.
VERDICT_LIBRARIES = ("defusedxml", "jsonschema", "jsonschema-rs", "PyYAML")


@functools.cache
def grading_version() -> str:
    """A stamp of the code that turns a reply into verdicts; it changes when that code does.

    The SHA-256 of the source of :data:`VERDICT_MODULES` (every file of a package, line endings
    normalised) and the installed versions of :data:`VERDICT_LIBRARIES`. ``run_cells`` stores it
    on every turn; a resumed run re-grades the stored replies of turns whose stamp differs,
    without asking the model again. A change that moves no verdict (a comment) changes the stamp
    too: re-grading is cheap, and a stale verdict is not.

    Returns
    -------
    str
        16 hexadecimal digits.
    """
    digest = hashlib.sha256()
    for name in VERDICT_MODULES:
        module = importlib.import_module(name)
        root = Path(module.__file__).parent if hasattr(module, "__path__") else None
        files = sorted(root.rglob("*.py")) if root else [Path(module.__file__)]
        for path in files:
            digest.update(f"{name}:{path.relative_to(root) if root else path.name}\n".encode())
            digest.update(path.read_bytes().replace(b"\r\n", b"\n"))
    for library in VERDICT_LIBRARIES:
        digest.update(f"{library}=={_installed(library)}\n".encode())
    return digest.hexdigest()[:16]


def _installed(distribution: str) -> str:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"
