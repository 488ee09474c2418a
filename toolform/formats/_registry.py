"""The format registry: ``@register_format`` attaches metadata to a renderer and registers it."""

from __future__ import annotations

import inspect
import textwrap
from dataclasses import dataclass, field
from typing import Callable

from .._registry import Registry
from ..errors import RegistryError, UnknownFormatError
from ..ir import Toolset
from ..study import CORE_FORMATS

FAMILIES = ("code", "config", "grammar", "idl", "json", "markup", "novel", "prose", "tabular",
            "typescript", "vendor", "yaml", "two_stage")


@dataclass(frozen=True)
class RenderOptions:
    """Options every renderer accepts.

    Parameters
    ----------
    include_descriptions : bool
        Show tool and parameter prose (False gives the description ablation).
    include_returns : bool
        Show return types where the format can.
    max_depth : int
        Object nesting past this depth raises ``RenderError`` (guards schemas too deep to show).
    recursion_depth : int
        How many levels of a recursive type the formats that cannot name a type show (the
        innermost references become ``any``); the JSON Schema formats write the type once
        under ``$defs`` whatever this says. At least 1.
    """

    include_descriptions: bool = True
    include_returns: bool = True
    max_depth: int = 12
    recursion_depth: int = 2


Renderer = Callable[[Toolset, RenderOptions], str]


@dataclass(frozen=True)
class FormatSpec:
    """A registered format: its metadata and its renderer.

    ``id`` equals the renderer's function name. ``supports_*`` say what the format can express;
    ``lossy`` formats may drop exactly what those flags exclude. ``language`` names the real
    language the block is written in (``"xml"``, ``"python"``, ``None`` for prose), for the
    validity tests. ``named_types`` formats write a recursive type once under its name and a
    map in their own syntax (JSON Schema's ``$defs``/``$ref`` and ``additionalProperties``);
    every other format shows a recursive type unrolled to ``RenderOptions.recursion_depth``
    levels and a map as an object with stand-in keys (``toolform.formats._common.plain_type``).
    """

    id: str
    name: str
    family: str
    default_protocol: str
    description: str
    render: Renderer = field(repr=False, compare=False)
    language: str | None = None
    novel: bool = False
    supports_nesting: bool = True
    supports_enum: bool = True
    supports_constraints: bool = True
    supports_optional: bool = True
    supports_returns: bool = True
    lossy: bool = False
    compressed: bool = False
    core: bool = False
    two_stage: bool = False
    named_types: bool = False

    def __post_init__(self) -> None:
        if self.family not in FAMILIES:
            raise RegistryError(f"format {self.id!r}: family {self.family!r} is not one of {FAMILIES}")
        if not self.description:
            raise RegistryError(f"format {self.id!r} has no description")


FORMATS: Registry[FormatSpec] = Registry("format", UnknownFormatError)


#: What a renderer's generated docstring says when its registration does not say otherwise.
TOOLSET_DOC = "The tools, in the order shown."
OPTIONS_DOC = "Descriptions and return types are shown only when the options ask for them."
RETURNS_DOC = "The rendered block."
RAISES_DOC: tuple[tuple[str, str], ...] = (
    ("RenderError", "When a tool nests past ``options.max_depth``."),)


def _entry(head: str, text: str) -> list[str]:
    return [head, *textwrap.wrap(" ".join(text.split()), 92, initial_indent="    ",
                                  subsequent_indent="    ")]


def renderer_doc(spec: FormatSpec, own: str | None, *, toolset_doc: str = TOOLSET_DOC,
                 options_doc: str = OPTIONS_DOC, returns: str = RETURNS_DOC,
                 raises: tuple[tuple[str, str], ...] = ()) -> str:
    """A renderer's docstring: its own text, then the sections every renderer shares.

    The shared sections (``Parameters``, ``Returns``, ``Raises``, and ``Notes`` naming the
    registered metadata) are written here once, not pasted into each of the 133 renderers.

    Parameters
    ----------
    spec : FormatSpec
        The registered format.
    own : str or None
        The renderer's own docstring: a summary line and what is particular to the format.
    toolset_doc, options_doc, returns : str
        What the ``toolset`` and ``options`` parameters and the returned text are for this
        format (one sentence each).
    raises : tuple of (str, str)
        Exceptions beyond the ``RenderError`` every renderer raises: (name, when).

    Returns
    -------
    str
        The full numpydoc docstring, dedented.
    """
    flags = [label for label, on in (
        ("core", spec.core), ("novel", spec.novel), ("lossy", spec.lossy),
        ("compressed", spec.compressed), ("two-stage", spec.two_stage),
        ("named types", spec.named_types)) if on]
    language = f", language ``{spec.language}``" if spec.language else ""
    lines = [inspect.cleandoc(own or spec.name), "",
             "Parameters", "----------",
             *_entry("toolset : Toolset", toolset_doc),
             *_entry("options : RenderOptions", options_doc), "",
             "Returns", "-------",
             *_entry("str", returns), "",
             "Raises", "------"]
    for name, when in (*RAISES_DOC, *raises):
        lines += _entry(name, when)
    notes = (f"Registered as format ``{spec.id}`` ({spec.name}): family ``{spec.family}``"
             f"{language}, default protocol ``{spec.default_protocol}``"
             + (f"; {', '.join(flags)}" if flags else "") + ". "
             f"``get_format({spec.id!r})`` and this function's ``format_spec`` hold the full "
             ":class:`FormatSpec`.")
    lines += ["", "Notes", "-----", *textwrap.wrap(notes, 96)]
    return "\n".join(lines) + "\n"


def register_format(*, name: str, family: str, default_protocol: str, description: str,
                    returns: str = RETURNS_DOC, toolset_doc: str = TOOLSET_DOC,
                    options_doc: str = OPTIONS_DOC, raises: tuple[tuple[str, str], ...] = (),
                    replace: bool = False, **flags: object) -> Callable[[Renderer], Renderer]:
    """Register the decorated renderer as a format whose id is the function's name.

    The decorator writes the docstring sections every renderer shares (:func:`renderer_doc`)
    after the renderer's own text, and tags the function with its spec (``fn.format_spec``).

    Parameters
    ----------
    name, family, default_protocol, description : str
        Metadata (see :class:`FormatSpec`).
    returns : str
        What the rendered text is, for the docstring's ``Returns`` ("Python source.").
    toolset_doc, options_doc : str
        What the ``toolset`` and ``options`` parameters are for this format, when it differs
        from the common wording (only ``max_depth`` matters, tools grouped by domain...).
    raises : tuple of (str, str)
        Exceptions beyond ``RenderError``: (name, when).
    replace : bool
        Replace a format already registered under this id (re-running a notebook cell that
        defines it); without it a second registration raises.
    **flags
        The remaining :class:`FormatSpec` fields (``language``, ``lossy``, ``core``, ...).

    Returns
    -------
    callable
        The decorator; it returns the renderer itself, documented and tagged.

    Raises
    ------
    RegistryError
        On a duplicate id (unless ``replace``), an unknown family or missing description.
    """

    def decorate(fn: Renderer) -> Renderer:
        spec = FormatSpec(id=fn.__name__, name=name, family=family,
                          default_protocol=default_protocol, description=description,
                          render=fn, **flags)  # type: ignore[arg-type]
        FORMATS.add(spec.id, spec, replace=replace)
        fn.__doc__ = renderer_doc(spec, fn.__doc__, toolset_doc=toolset_doc,
                                  options_doc=options_doc, returns=returns, raises=raises)
        fn.format_spec = spec  # type: ignore[attr-defined]
        return fn

    return decorate


def get_format(format_id: str) -> FormatSpec:
    """The :class:`FormatSpec` for ``format_id``; raises ``UnknownFormatError`` naming close ids."""
    return FORMATS.get(format_id)


def format_ids(*, core: bool | None = None, family: str | None = None) -> list[str]:
    """Registered format ids, optionally only core ones (or only the others) or one family.

    Parameters
    ----------
    core : bool, optional
        True: the core formats, in the study's main-grid order (:data:`toolform.study.CORE_FORMATS`,
        the order of every A/B table), then any other format registered as core; False: the
        formats that are not core; None: every format.
    family : str, optional
        Only this family (one of :data:`FAMILIES`).

    Returns
    -------
    list of str
        Registration order, except that ``core=True`` follows the study's order.
    """
    ids = [f.id for f in FORMATS
           if (core is None or f.core == core) and (family is None or f.family == family)]
    if core:
        ids.sort(key=lambda i: CORE_FORMATS.index(i) if i in CORE_FORMATS else len(CORE_FORMATS))
    return ids
