"""Every exception ToolForm raises on purpose.

The tree::

    ToolFormError                      root: catch this to catch anything ToolForm raised on purpose
    ├── LoaderError (ValueError)       a tool file or object could not be read; names file, tool, JSON path
    ├── RegistryError                  a registry was misused at import time (duplicate id, bad metadata)
    │   ├── UnknownFormatError (KeyError)    no format has that id; names the closest ids
    │   └── UnknownProtocolError (KeyError)  no protocol has that id; names the closest ids
    ├── RenderError (ValueError)       a toolset cannot be rendered in a format (too deep, recursive)
    ├── ParseError (ValueError)        raised *inside* a protocol parser only; ``parse_reply`` turns it
    │                                  into an issue on the result and never lets it out
    ├── GradingError (ValueError)      a gold call or grading rule is malformed
    │   └── SchemaValidatorError       a tool's input schema cannot be validated against (names the tool)
    ├── ClientError                    a model server failed after every retry
    │   ├── ModelServerError                 names the URL, model, attempt count and last error
    │   └── CassetteMissError (KeyError)     replay-only mode met a request it has no recording of
    ├── DatasetError (ValueError)      a dataset is missing or malformed
    ├── EvidenceError                  an evidence table is missing or altered
    ├── NotFoundError (KeyError)       a lookup by name or id found nothing (a tool in a toolset,
    │                                  a column, a mission, a guard rule, a request, a world's row);
    │                                  names what was asked for and what there is
    ├── OutputExistsError (FileExistsError)  a file ToolForm would write is taken (it never
    │                                  overwrites); names the path
    ├── InvalidParameterError (ValueError)   a function was given a value outside what it allows;
    │   │                                names the parameter, what is allowed and what was given
    │   │                                (constraints as data: ``toolform.validation``)
    │   └── ParameterTypeError (TypeError)   ... a value of the wrong type (also a ValueError)
    ├── MissingDependencyError (ImportError)  an optional package is not installed; gives the pip line
    └── StaleVerdictWarning (UserWarning)     a resumed run kept verdicts it could not re-grade

    ToolFormWarning (UserWarning)      root of the warnings ToolForm reports (never raised by default)
    └── LoaderWarning                  a tool file loaded, but holds something probably unmeant; named
                                       by a code, with file, tool, JSON path (``Toolset.warnings``)

Subclasses of ``ValueError``, ``TypeError``, ``KeyError``, ``FileExistsError`` and ``ImportError`` are
there so that callers who already catch those keep working.

Builtin exceptions are raised only where Python's protocols ask for them: ``AttributeError`` from a
``__getattr__`` (a module's or an object's), ``NotImplementedError`` from a base class's method a
subclass overrides, ``SystemExit`` from a ``__main__`` module, and ``SyntaxError`` from the
protocols' ``py_parse_source``, which stands in for ``ast.parse`` and whose callers all catch it
(``tests/test_architecture.py`` holds the list).
"""

from __future__ import annotations

__all__ = [
    "CassetteMissError",
    "ClientError",
    "DatasetError",
    "EvidenceError",
    "GradingError",
    "InvalidParameterError",
    "LoaderError",
    "LoaderWarning",
    "MissingDependencyError",
    "ModelServerError",
    "NotFoundError",
    "OutputExistsError",
    "ParameterTypeError",
    "ParseError",
    "RegistryError",
    "RenderError",
    "SchemaValidatorError",
    "StaleVerdictWarning",
    "ToolFormError",
    "ToolFormWarning",
    "UnknownFormatError",
    "UnknownProtocolError",
]


class ToolFormError(Exception):
    """Root of every exception ToolForm raises on purpose."""


class LoaderError(ToolFormError, ValueError):
    """A tool file or object could not be read.

    Parameters
    ----------
    message : str
        What is wrong.
    file : str, optional
        The file being read (or a label such as ``"<dict>"``).
    tool : str, optional
        The tool's name, or ``"#3"`` for the fourth tool when it has no usable name.
    path : str, optional
        JSON path inside the file, e.g. ``"$.tools[3].inputSchema.properties.q.type"``.
    """

    def __init__(self, message: str, *, file: str | None = None, tool: str | None = None,
                 path: str | None = None) -> None:
        self.file = file
        self.tool = tool
        self.path = path
        self.reason = message
        where = ", ".join(f"{k} {v}" for k, v in (("file", file), ("tool", tool), ("at", path)) if v)
        super().__init__(f"{message} ({where})" if where else message)


class ToolFormWarning(UserWarning):
    """Root of the warnings ToolForm reports. They are returned (``Toolset.warnings``), not
    raised; ``warnings.warn(w)`` issues one through Python's warning machinery."""


class LoaderWarning(ToolFormWarning):
    """A tool file loaded, but holds something its author probably did not mean.

    Parameters
    ----------
    code : str
        What kind of thing, as a stable kebab-case name (``"required-not-declared"``,
        ``"default-wrong-type"``, ``"name-rejected-by-providers"``...); the loaders' docstrings
        list the codes.
    message : str
        What was found, and what the load made of it.
    file, tool, path : str, optional
        As for :class:`LoaderError`.
    """

    def __init__(self, code: str, message: str, *, file: str | None = None,
                 tool: str | None = None, path: str | None = None) -> None:
        self.code = code
        self.file = file
        self.tool = tool
        self.path = path
        self.reason = message
        where = ", ".join(f"{k} {v}" for k, v in (("file", file), ("tool", tool), ("at", path)) if v)
        super().__init__(f"[{code}] {message} ({where})" if where else f"[{code}] {message}")

    def __repr__(self) -> str:
        return f"LoaderWarning({self.code!r}, tool={self.tool!r}, path={self.path!r})"


class RegistryError(ToolFormError):
    """A registry was misused: a duplicate id, a key that differs from its function, bad metadata."""


def _closest_hint(given: str, known: list[str]) -> str:
    import difflib

    close = difflib.get_close_matches(given, known, n=3, cutoff=0.5)
    return f"; closest: {', '.join(close)}" if close else ""


class UnknownFormatError(RegistryError, KeyError):
    """No format is registered under this id. ``closest`` lists up to three near ids."""

    def __init__(self, given: str, known: list[str]) -> None:
        import difflib

        self.given = given
        self.closest = difflib.get_close_matches(given, known, n=3, cutoff=0.5)
        super().__init__(f"unknown format {given!r}{_closest_hint(given, known)}")

    def __str__(self) -> str:  # KeyError would otherwise quote the message
        return self.args[0]


class UnknownProtocolError(RegistryError, KeyError):
    """No protocol is registered under this id. ``closest`` lists up to three near ids."""

    def __init__(self, given: str, known: list[str]) -> None:
        import difflib

        self.given = given
        self.closest = difflib.get_close_matches(given, known, n=3, cutoff=0.5)
        super().__init__(f"unknown protocol {given!r}{_closest_hint(given, known)}")

    def __str__(self) -> str:
        return self.args[0]


class RenderError(ToolFormError, ValueError):
    """A toolset cannot be rendered in the asked format (for example, a schema past the depth cap)."""


class ParseError(ToolFormError, ValueError):
    """A protocol parser could not read a reply. Never escapes ``parse_reply``."""


class GradingError(ToolFormError, ValueError):
    """A gold call or a grading rule is malformed."""


class SchemaValidatorError(GradingError):
    """A tool's input schema cannot be validated against: the validator could not be built or
    could not run (a ``pattern`` its regex engine rejects, a ``$ref`` that resolves nowhere...).

    Grading never turns this into a verdict: ``schema_valid`` is then unknown (None) and the
    verdict's ``schema_issue`` carries this message.

    Parameters
    ----------
    tool : str
        The tool whose schema failed.
    reason : str
        What the validator said.
    """

    def __init__(self, tool: str, reason: str) -> None:
        self.tool = tool
        self.reason = reason
        super().__init__(f"the input schema of tool {tool!r} cannot be validated against: "
                         f"{reason}")


class ClientError(ToolFormError):
    """A model server failed after every retry. ``status`` is the HTTP status when there was one."""

    def __init__(self, message: str, *, status: int | None = None) -> None:
        self.status = status
        super().__init__(message)


class ModelServerError(ClientError):
    """A model server failed a request, after every retry its policy allowed.

    Every field is plain data, so a run can write :meth:`to_dict` into the failed turn's row.

    Parameters
    ----------
    url : str
        The endpoint that failed (the server's API root, or ``stub://<model>`` for a stub).
    model : str
        The model id the request went to.
    attempts : int
        Requests sent, the first included (1 when the error was not worth a retry).
    kind : {"status", "timeout", "connection", "malformed_body", "retry_after_too_long", \
"injected"}
        What went wrong on the last attempt: an HTTP error status, no reply within the
        timeout, no connection, a reply that is not a chat completion (not JSON, or JSON of
        another shape), a ``Retry-After`` longer than the policy waits, a stub's injected fault.
    detail : str
        The last error's own message (for a malformed body, what was wrong and its first bytes).
    status : int, optional
        The last HTTP status, when the server sent one.
    elapsed_s : float, optional
        Seconds from the first attempt to giving up, waits included.
    """

    KINDS = ("status", "timeout", "connection", "malformed_body", "retry_after_too_long",
             "injected")

    def __init__(self, *, url: str, model: str, attempts: int, kind: str, detail: str,
                 status: int | None = None, elapsed_s: float | None = None) -> None:
        self.url = url
        self.model = model
        self.attempts = attempts
        self.kind = kind
        self.detail = detail
        self.elapsed_s = elapsed_s
        what = f"HTTP {status}" if status is not None else kind.replace("_", " ")
        super().__init__(f"{url} (model {model!r}) failed after {attempts} attempt(s) with "
                         f"{what}: {detail}", status=status)

    def to_dict(self) -> dict:
        """``url``, ``model``, ``attempts``, ``kind``, ``status``, ``detail``, ``elapsed_s``
        and ``message`` (``str(self)``), as a JSON-ready dict."""
        return {"url": self.url, "model": self.model, "attempts": self.attempts,
                "kind": self.kind, "status": self.status, "detail": self.detail,
                "elapsed_s": self.elapsed_s, "message": str(self)}

    @classmethod
    def from_dict(cls, data: dict) -> ModelServerError:
        """Inverse of :meth:`to_dict` (``message`` is rebuilt, not read).

        Raises
        ------
        KeyError
            When ``url``, ``model``, ``attempts``, ``kind`` or ``detail`` is missing.
        """
        return cls(url=data["url"], model=data["model"], attempts=int(data["attempts"]),
                   kind=data["kind"], detail=data["detail"], status=data.get("status"),
                   elapsed_s=data.get("elapsed_s"))

    def __reduce__(self) -> tuple:  # keyword-only fields: pickle (Ray, processes) needs this
        return (type(self).from_dict, (self.to_dict(),))


class CassetteMissError(ClientError, KeyError):
    """A replay-only client met a request it has no recording of. ``key`` is the request's hash."""

    def __init__(self, key: str, cassette: str) -> None:
        self.key = key
        self.cassette = cassette
        super().__init__(f"no recording for request {key} in cassette {cassette}")

    def __str__(self) -> str:
        return self.args[0]


class DatasetError(ToolFormError, ValueError):
    """A dataset is missing or malformed."""


class EvidenceError(ToolFormError):
    """An evidence table is missing, or its checksum does not match the manifest."""


class NotFoundError(ToolFormError, KeyError):
    """A lookup by name or id found nothing: no tool of that name in a toolset, no such column
    in a frame or an evidence table, no mission, guard rule or dataset request with that id, no
    row of a generated world with that key. A ``KeyError`` too, so ``except KeyError`` and
    ``Mapping.get`` keep working.

    Parameters
    ----------
    message : str
        What was asked for, where, and what there is.
    key : object, optional
        The name or id looked up.
    """

    def __init__(self, message: str, *, key: object = None) -> None:
        self.key = key
        super().__init__(message)

    def __str__(self) -> str:  # KeyError would otherwise quote the message
        return self.args[0]


class OutputExistsError(ToolFormError, FileExistsError):
    """A file ToolForm would write is already there, and ToolForm never overwrites one.
    ``path`` is the file (or the one a free name was sought beside)."""

    def __init__(self, message: str, *, path: str | None = None) -> None:
        self.path = path
        super().__init__(message)


_NOT_GIVEN = object()


class InvalidParameterError(ToolFormError, ValueError):
    """A function was given a value outside what it allows.

    Parameters
    ----------
    message : str
        What is wrong, naming the parameter, what is allowed and what was given.
    parameter : str, optional
        The parameter's name.
    allowed : str, optional
        What the parameter accepts, in words (``"an int in [1, inf)"``).
    value : object, optional
        The value received.
    """

    def __init__(self, message: str, *, parameter: str | None = None, allowed: str | None = None,
                 value: object = _NOT_GIVEN) -> None:
        self.parameter = parameter
        self.allowed = allowed
        self.value = None if value is _NOT_GIVEN else value
        super().__init__(message)


class ParameterTypeError(InvalidParameterError, TypeError):
    """A function was given a value of the wrong type (a ``TypeError`` and a ``ValueError``)."""


class MissingDependencyError(ToolFormError, ImportError):
    """An optional package is not installed. The message gives the ``pip install`` line."""

    def __init__(self, package: str, extra: str | None = None, purpose: str = "") -> None:
        line = f'pip install "toolform[{extra}]"' if extra else f"pip install {package}"
        why = f" for {purpose}" if purpose else ""
        super().__init__(f"{package} is needed{why}: {line}")
        self.package = package


class StaleVerdictWarning(ToolFormError, UserWarning):
    """A resumed run kept turns graded by older parser or grader code, because their stored
    reply is not enough to grade them again (a native tool-call reply recorded before checkpoints
    kept the server's tool calls). Their ``grading_version`` still names the old code."""
