"""The format registry: ``@register_format`` attaches metadata to a renderer and registers it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from .._registry import Registry
from ..errors import RegistryError, UnknownFormatError
from ..ir import Toolset

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


def register_format(*, name: str, family: str, default_protocol: str, description: str,
                    **flags: object) -> Callable[[Renderer], Renderer]:
    """Register the decorated renderer as a format whose id is the function's name.

    Parameters
    ----------
    name, family, default_protocol, description : str
        Metadata (see :class:`FormatSpec`).
    **flags
        The remaining :class:`FormatSpec` fields (``language``, ``lossy``, ``core``, ...).

    Raises
    ------
    RegistryError
        On a duplicate id, an unknown family or missing description.
    """

    def decorate(fn: Renderer) -> Renderer:
        spec = FormatSpec(id=fn.__name__, name=name, family=family,
                          default_protocol=default_protocol, description=description,
                          render=fn, **flags)  # type: ignore[arg-type]
        FORMATS.add(spec.id, spec)
        return fn

    return decorate


def get_format(format_id: str) -> FormatSpec:
    """The :class:`FormatSpec` for ``format_id``; raises ``UnknownFormatError`` naming close ids."""
    return FORMATS.get(format_id)


def format_ids(*, core: bool | None = None, family: str | None = None) -> list[str]:
    """Registered format ids in registration order, optionally only core ones or one family."""
    return [f.id for f in FORMATS
            if (core is None or f.core == core) and (family is None or f.family == family)]
