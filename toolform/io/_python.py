"""Python functions as tools: type hints give the schema, docstrings the prose.

:func:`from_python` reads functions (or the ``@tool`` functions of a module) into a
:class:`~toolform.ir.Toolset` whose executors are the functions themselves.

How annotations map onto the IR:

==============================================  ===============================================
annotation                                      IR type
==============================================  ===============================================
``str`` / ``int`` / ``float`` / ``bool``        string / integer / number / boolean
``None``                                        null
none, ``Any``, ``object``                       any
``datetime`` / ``date`` / ``time`` / ``UUID``   string with format date-time / date / time / uuid
``Literal[a, b]``, an ``Enum`` class            enum of the values (``None`` makes it nullable)
``Optional[X]``, ``X | None``                   X, nullable
``Union[A, B]``, ``A | B``                      union (nested unions flattened)
``list[X]``, ``Sequence[X]``, ``set[X]``,       array of X (``tuple[A, B]``: array of the union
``tuple[X, ...]``                               of A and B, exactly 2 items)
``dict[str, X]``, ``Mapping[str, X]``           free-form object (other keys than str: error)
``TypedDict``                                   object; ``total``/``NotRequired`` set required
dataclass, pydantic model                       object of its fields (defaults, descriptions)
``Annotated[X, ...]``                           X, with a string taken as the description, and
                                                ``annotated_types`` bounds/lengths or a pydantic
                                                ``Field`` as constraints
==============================================  ===============================================

A parameter is required when it has no default. Descriptions come from the function's docstring
in Google, NumPy or reST style (``docstring_parser`` detects which): the summary and body become
the tool's description, each parameter's entry its description; a class's ``Attributes`` (or a
pydantic ``Field(description=...)``) describe its fields. A recursive type (a dataclass holding
itself), ``*args``/``**kwargs``, a default that is not JSON, or an annotation with no IR form is a
:class:`~toolform.errors.LoaderError` naming the file, the function and the path to the
parameter (``$.order.items[].sku``).
"""

from __future__ import annotations

import dataclasses
import datetime
import decimal
import enum
import inspect
import json
import types
import typing
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from ..errors import LoaderError, MissingDependencyError
from ..ir import NO_DEFAULT, ParamIR, ToolIR, Toolset, TypeIR

__all__ = ["from_python", "tool"]

_ATTR = "__toolform_tool__"
_SCALARS: dict[Any, TypeIR] = {
    str: TypeIR("string"), int: TypeIR("integer"), float: TypeIR("number"),
    bool: TypeIR("boolean"), type(None): TypeIR("null"), decimal.Decimal: TypeIR("number"),
    datetime.datetime: TypeIR("string", format="date-time"),
    datetime.date: TypeIR("string", format="date"),
    datetime.time: TypeIR("string", format="time"),
    uuid.UUID: TypeIR("string", format="uuid"),
}
_ARRAYS = {list, set, frozenset, tuple, Sequence, Iterable, typing.List, typing.Set,
           typing.FrozenSet, typing.Tuple, typing.Sequence}
_MAPPINGS = {dict, Mapping, typing.Dict, typing.Mapping}


def _qualifiers(*names: str) -> set[Any]:
    """TypedDict key qualifiers by name from ``typing`` and, on older Pythons,
    ``typing_extensions``."""
    modules: list[Any] = [typing]
    try:
        import typing_extensions
        modules.append(typing_extensions)
    except ImportError:  # pragma: no cover - typing_extensions ships with pydantic
        pass
    return {getattr(m, n) for m in modules for n in names if hasattr(m, n)}


_QUALIFIERS = _qualifiers("Required", "NotRequired", "ReadOnly")
_REQUIRED = _qualifiers("Required")
_NOT_REQUIRED = _qualifiers("NotRequired")


def _typeddict_required(cls: type, name: str, hint: Any) -> bool:
    # The resolved hint decides: with postponed annotations (PEP 563) the class could not see
    # NotRequired when it was built, so __required_keys__ alone would be wrong.
    origin = typing.get_origin(hint)
    if origin in _NOT_REQUIRED:
        return False
    if origin in _REQUIRED:
        return True
    return name in getattr(cls, "__required_keys__", ()) or \
        (getattr(cls, "__total__", True) and name not in getattr(cls, "__optional_keys__", ()))


def _lookup(table: Mapping[Any, Any] | set[Any], ann: Any) -> Any:
    """``table[ann]`` (or membership, for a set), tolerating unhashable annotations."""
    try:
        return table.get(ann) if isinstance(table, Mapping) else ann in table
    except TypeError:
        return None


def _docstring(obj: Any) -> Any:
    try:
        import docstring_parser
    except ImportError as exc:  # pragma: no cover - exercised only without the package
        raise MissingDependencyError("docstring_parser", purpose="reading docstrings") from exc
    # __doc__, not inspect.getdoc: getdoc falls back to a base class's docstring (dict's, for
    # a TypedDict), which would describe the wrong thing
    return docstring_parser.parse(inspect.cleandoc(getattr(obj, "__doc__", None) or ""))


def _prose(text: str | None) -> str:
    """Paragraphs kept, line breaks inside a paragraph folded into spaces."""
    paragraphs = [" ".join(p.split()) for p in (text or "").split("\n\n")]
    return "\n\n".join(p for p in paragraphs if p)


class _Reader:
    """Converts annotations for one function, raising errors that name it."""

    def __init__(self, file: str, tool: str) -> None:
        self.file = file
        self.tool = tool

    def error(self, message: str, path: str) -> LoaderError:
        return LoaderError(message, file=self.file, tool=self.tool, path=path)

    def json_value(self, value: Any, path: str) -> Any:
        if isinstance(value, enum.Enum):
            value = value.value
        if isinstance(value, tuple):
            value = list(value)
        try:
            json.dumps(value, allow_nan=False)
        except (TypeError, ValueError):
            raise self.error(f"the default {value!r} is not a JSON value", path) from None
        return value

    def type_of(self, ann: Any, path: str, stack: tuple[Any, ...] = ()) -> tuple[TypeIR, str]:
        """The IR type of ``ann`` and a description found in ``Annotated`` metadata."""
        origin = typing.get_origin(ann)
        if origin in _QUALIFIERS:
            return self.type_of(typing.get_args(ann)[0], path, stack)
        if origin is typing.Annotated:
            base, *extras = typing.get_args(ann)
            t, description = self.type_of(base, path, stack)
            for extra in extras:
                if isinstance(extra, str):
                    description = extra
                else:
                    t, found = self._constrain(t, extra, path)
                    description = found or description
            return t, description
        return self._plain(ann, origin, path, stack), ""

    def _constrain(self, t: TypeIR, extra: Any, path: str) -> tuple[TypeIR, str]:
        """Apply ``annotated_types`` or pydantic ``FieldInfo`` metadata."""
        description = ""
        parts = [extra]
        if hasattr(extra, "metadata") and hasattr(extra, "description"):  # pydantic FieldInfo
            description = extra.description or ""
            parts = list(extra.metadata)
        changes: dict[str, Any] = {}
        for part in parts:
            for attr, key in (("ge", "minimum"), ("le", "maximum"), ("gt", "exclusive_minimum"),
                              ("lt", "exclusive_maximum"), ("pattern", "pattern")):
                if getattr(part, attr, None) is not None:
                    changes[key] = getattr(part, attr)
            array = t.kind == "array"
            if getattr(part, "min_length", None) is not None:
                changes["min_items" if array else "min_length"] = part.min_length
            if getattr(part, "max_length", None) is not None:
                changes["max_items" if array else "max_length"] = part.max_length
        return (dataclasses.replace(t, **changes) if changes else t), description

    def _plain(self, ann: Any, origin: Any, path: str, stack: tuple[Any, ...]) -> TypeIR:
        if ann is inspect.Parameter.empty or ann is Any or ann is object:
            return TypeIR("any")
        if ann is None:
            return TypeIR("null")
        scalar = _lookup(_SCALARS, ann)
        if scalar is not None:
            return scalar
        if origin is typing.Literal:
            values = typing.get_args(ann)
            for v in values:
                if not isinstance(v, (str, int, float, bool, type(None))):
                    raise self.error(f"Literal value {v!r} is not a JSON scalar", path)
            kept = tuple(v for v in values if v is not None)
            return TypeIR("enum", values=kept, nullable=len(kept) < len(values))
        if origin in (typing.Union, types.UnionType):
            return self._union(typing.get_args(ann), path, stack)
        if origin in _ARRAYS or _lookup(_ARRAYS, ann):
            return self._array(ann, origin, path, stack)
        if origin in _MAPPINGS or _lookup(_MAPPINGS, ann):
            args = typing.get_args(ann)
            if args and args[0] is not str:
                raise self.error(f"mapping keys must be str, got {args[0]!r}", path)
            return TypeIR("object", additional=True)
        if isinstance(ann, type):
            if issubclass(ann, enum.Enum):
                return TypeIR("enum", values=tuple(self.json_value(m.value, path) for m in ann))
            if ann in stack:
                raise self.error(f"{ann.__name__} refers to itself; the IR holds trees only",
                                 path)
            fields = self._class_fields(ann, path, (*stack, ann))
            if fields is not None:
                return TypeIR("object", fields=fields, additional=False)
        raise self.error(f"the annotation {ann!r} has no IR type", path)

    def _union(self, args: tuple[Any, ...], path: str, stack: tuple[Any, ...]) -> TypeIR:
        options: list[TypeIR] = []
        nullable = False
        for arg in args:
            t, _ = self.type_of(arg, path, stack)
            if t.kind == "null":
                nullable = True
            elif t.kind == "union":
                options.extend(t.options)
                nullable = nullable or t.nullable
            else:
                options.append(t)
        if len(options) == 1:
            return dataclasses.replace(options[0], nullable=True) if nullable else options[0]
        return TypeIR("union", options=tuple(options), nullable=nullable)

    def _array(self, ann: Any, origin: Any, path: str, stack: tuple[Any, ...]) -> TypeIR:
        args = typing.get_args(ann)
        item_path = f"{path}[]"
        if not args:
            return TypeIR("array")
        if (origin or ann) in (tuple, typing.Tuple) and not (len(args) == 2 and args[1] is ...):
            items = [self.type_of(a, item_path, stack)[0] for a in args]
            unique = list(dict.fromkeys(items))
            item = unique[0] if len(unique) == 1 else TypeIR("union", options=tuple(unique))
            return TypeIR("array", items=item, min_items=len(args), max_items=len(args))
        item, _ = self.type_of(args[0], item_path, stack)
        return TypeIR("array", items=None if item.kind == "any" else item)

    def _class_fields(self, cls: type, path: str,
                      stack: tuple[Any, ...]) -> tuple[ParamIR, ...] | None:
        """Fields of a TypedDict, dataclass or pydantic model; None for any other class."""
        if typing.is_typeddict(cls):
            hints = self._hints(cls, path)
            docs = self._field_docs(cls)
            return tuple(self._field(name, ann, docs.get(name, ""),
                                     _typeddict_required(cls, name, ann),
                                     NO_DEFAULT, f"{path}.{name}", stack)
                         for name, ann in hints.items())
        if dataclasses.is_dataclass(cls):
            hints = self._hints(cls, path)
            docs = self._field_docs(cls)
            out = []
            for f in dataclasses.fields(cls):
                has_default = f.default is not dataclasses.MISSING
                has_factory = f.default_factory is not dataclasses.MISSING
                out.append(self._field(f.name, hints.get(f.name, f.type), docs.get(f.name, ""),
                                       not (has_default or has_factory),
                                       f.default if has_default else NO_DEFAULT,
                                       f"{path}.{f.name}", stack))
            return tuple(out)
        model_fields = getattr(cls, "model_fields", None)
        if isinstance(model_fields, dict) and hasattr(cls, "model_json_schema"):
            docs = self._field_docs(cls)
            out = []
            for name, info in model_fields.items():
                key = info.alias or name
                default = NO_DEFAULT
                if not info.is_required() and info.default_factory is None:
                    default = info.default
                t, annotated = self.type_of(info.annotation, f"{path}.{key}", stack)
                for part in info.metadata:
                    t, _ = self._constrain(t, part, f"{path}.{key}")
                description = info.description or annotated or docs.get(name, "")
                out.append(ParamIR(key, t, _prose(description), required=info.is_required(),
                                   default=self._default(default, f"{path}.{key}"),
                                   title=info.title or ""))
            return tuple(out)
        return None

    def _hints(self, obj: Any, path: str) -> dict[str, Any]:
        try:
            return typing.get_type_hints(obj, include_extras=True)
        except Exception as exc:  # a forward reference that does not resolve, of any kind
            raise self.error(f"cannot resolve the type hints of {obj!r}: {exc}", path) from None

    def _field_docs(self, cls: type) -> dict[str, str]:
        return {p.arg_name: p.description or "" for p in _docstring(cls).params}

    def _default(self, value: Any, path: str) -> Any:
        return NO_DEFAULT if value is NO_DEFAULT else self.json_value(value, path)

    def _field(self, name: str, ann: Any, doc: str, required: bool, default: Any, path: str,
               stack: tuple[Any, ...]) -> ParamIR:
        t, annotated = self.type_of(ann, path, stack)
        return ParamIR(name, t, _prose(annotated or doc), required=required,
                       default=self._default(default, path))


def _source_file(func: Callable[..., Any]) -> str:
    try:
        return inspect.getsourcefile(func) or "<python>"
    except TypeError:
        return "<python>"


def _build(func: Callable[..., Any], name: str | None, description: str | None) -> ToolIR:
    if not callable(func):
        raise LoaderError(f"a tool must be a function, got {type(func).__name__}",
                          file="<python>", path="$")
    tool_name = name or getattr(func, "__name__", "")
    reader = _Reader(_source_file(func), tool_name or "<anonymous>")
    if not tool_name.strip():
        raise reader.error("the function has no usable name; pass name=", "$")
    try:
        signature = inspect.signature(func)
    except (TypeError, ValueError) as exc:
        raise reader.error(f"cannot read the signature: {exc}", "$") from None
    hints = reader._hints(func, "$")
    doc = _docstring(func)
    docs = {p.arg_name: p.description or "" for p in doc.params}
    params = []
    for param in signature.parameters.values():
        path = f"$.{param.name}"
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            raise reader.error("*args and **kwargs cannot be tool parameters", path)
        default = NO_DEFAULT if param.default is param.empty else param.default
        params.append(reader._field(param.name, hints.get(param.name, param.annotation),
                                    docs.get(param.name, ""), default is NO_DEFAULT, default,
                                    path, ()))
    returns = None
    ret = hints.get("return", signature.return_annotation)
    if ret is not inspect.Signature.empty and ret is not None and ret is not type(None):
        returns = reader.type_of(ret, "$.return")[0]
    prose = description if description is not None else \
        _prose("\n\n".join(p for p in (doc.short_description, doc.long_description) if p))
    return ToolIR(tool_name, prose, tuple(params), returns=returns)


def tool(func: Callable[..., Any] | None = None, *, name: str | None = None,
         description: str | None = None) -> Any:
    """Mark a function as a tool, reading its schema now (so errors show at import).

    Use bare (``@tool``) or with overrides (``@tool(name="weather.get")``). The function is
    returned unchanged, with its :class:`~toolform.ir.ToolIR` attached for :func:`from_python`.

    Parameters
    ----------
    func : callable, optional
        The function (given when used bare).
    name : str, optional
        The tool name; default the function's ``__name__``.
    description : str, optional
        The tool description; default the docstring's summary and body.

    Returns
    -------
    callable
        The function itself, or a decorator when called with keywords only.

    Raises
    ------
    LoaderError
        As :func:`from_python`.
    """
    def mark(f: Callable[..., Any]) -> Callable[..., Any]:
        setattr(f, _ATTR, _build(f, name, description))
        return f

    return mark(func) if func is not None else mark


def _functions(source: Any) -> list[Callable[..., Any]]:
    if isinstance(source, types.ModuleType):
        members = [v for v in vars(source).values() if callable(v)]
        marked = [v for v in members if hasattr(v, _ATTR)]
        if marked:
            return marked
        return [v for v in members if inspect.isfunction(v)
                and v.__module__ == source.__name__ and not v.__name__.startswith("_")]
    if callable(source):
        return [source]
    if isinstance(source, Iterable) and not isinstance(source, (str, bytes, Mapping)):
        return list(source)
    raise LoaderError(f"from_python needs a function, a list of functions or a module, got "
                      f"{type(source).__name__}", file="<python>", path="$")


def from_python(source: Any) -> Toolset:
    """Load Python functions as a toolset whose executors are the functions.

    Parameters
    ----------
    source : callable, sequence of callables, or module
        A module contributes its ``@tool`` functions, or, when it has none, every public
        function defined in it; both in definition order.

    Returns
    -------
    Toolset
        One tool per function (``@tool`` overrides applied), ``executors`` by tool name,
        ``source`` the module's name or ``"<python>"``.

    Raises
    ------
    LoaderError
        Naming the file, the function and the parameter path, for an annotation with no IR
        form, a recursive type, ``*args``/``**kwargs``, a non-JSON default, or two tools with
        one name.
    MissingDependencyError
        When ``docstring_parser`` is not installed.
    """
    funcs = _functions(source)
    tools: list[ToolIR] = []
    executors: dict[str, Callable[..., Any]] = {}
    for index, func in enumerate(funcs):
        built = getattr(func, _ATTR, None) or _build(func, None, None)
        if built.name in executors:
            raise LoaderError(f"duplicate tool name {built.name!r}", file=_source_file(func),
                              tool=built.name, path=f"$[{index}]")
        tools.append(built)
        executors[built.name] = func
    label = source.__name__ if isinstance(source, types.ModuleType) else "<python>"
    return Toolset(tuple(tools), executors=executors, source=label)
