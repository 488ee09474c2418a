"""The protocol registry: a protocol is a class with an instruction, a writer and a parser.

A protocol class is registered with ``@register_protocol(...)``; its id is the snake_case form
of the class name (``JsonObject`` → ``json_object``), so the key and the code spell the same id.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, ClassVar, Sequence

from .._registry import Registry, snake_case
from ..errors import RegistryError, UnknownProtocolError
from ..ir import ToolCall, Toolset
from ._calls import ParsedCall
from ._text import strip_think

__all__ = ["PROTOCOLS", "Protocol", "ProtocolSpec", "get_protocol", "protocol_ids", "register_protocol"]


class Protocol:
    """Base class of every answer protocol.

    Subclasses set ``instruction`` (the sentence the prompt gives the model) and implement
    ``write`` and ``read``. ``parse(write(calls)) == calls`` must hold for what the protocol can
    carry (see ``ProtocolSpec.cannot_carry``).
    """

    instruction: ClassVar[str] = ""

    def write(self, calls: Sequence[ToolCall], toolset: Toolset) -> str:
        """Text in this protocol that carries ``calls`` (an empty list writes an abstention)."""
        raise NotImplementedError

    def read(self, text: str, toolset: Toolset) -> list[ParsedCall]:
        """The calls in ``text`` as written, each with the span it was read from.

        ``text`` has had its reasoning removed already (``parse_reply`` does it once for every
        parser). Names are not resolved; values are as the text gives them (typed from the
        schema for text-valued protocols). Returns an empty list when the text holds no call
        in this protocol. Raises ``ParseError`` when the protocol's markers are there but
        broken, with a message saying what is broken. Must never run code, and must stay
        linear in the length of the text.

        A protocol written against the older API, with ``parse`` only, is read through its
        ``parse``, each call spanning the whole text.
        """
        if type(self).parse is not Protocol.parse:
            return [ParsedCall(c.name, c.arguments, (0, len(text)))
                    for c in self.parse(text, toolset)]
        raise NotImplementedError

    def parse(self, text: str, toolset: Toolset) -> list[ToolCall]:
        """The calls in ``text`` (reasoning removed first), without their provenance.

        Raises
        ------
        ParseError
            As for :meth:`read`.
        """
        return [found.call for found in self.read(strip_think(text)[0], toolset)]


@dataclass(frozen=True)
class ProtocolSpec:
    """A registered protocol and its metadata.

    ``text_values``: argument values arrive as text and are typed from the schema (so the main
    grading rule allows re-nesting a flat argument). ``cannot_carry`` lists what a round trip
    may lose (e.g. ``("nested_objects",)``), honoured by the round-trip tests.
    """

    id: str
    name: str
    description: str
    protocol: Protocol
    supports_parallel: bool = True
    structured: bool = True
    text_values: bool = False
    cannot_carry: tuple[str, ...] = ()

    @property
    def instruction(self) -> str:
        """The sentence the prompt gives the model."""
        return self.protocol.instruction


PROTOCOLS: Registry[ProtocolSpec] = Registry("protocol", UnknownProtocolError)


def register_protocol(*, name: str, description: str, replace: bool = False, **flags: object
                      ) -> Callable[[type[Protocol]], type[Protocol]]:
    """Register the decorated :class:`Protocol` subclass under the snake_case of its name.

    Parameters
    ----------
    name, description : str
        Metadata (see :class:`ProtocolSpec`).
    replace : bool
        Replace a protocol already registered under this id (re-running a notebook cell that
        defines it); it keeps the old one's place in :func:`protocol_ids`. Without it a second
        registration raises.
    **flags
        The remaining :class:`ProtocolSpec` fields (``supports_parallel``, ``structured``,
        ``text_values``, ``cannot_carry``).

    Returns
    -------
    callable
        The decorator; it returns the class itself.

    Raises
    ------
    RegistryError
        On a duplicate id (unless ``replace``) or a class without an instruction.
    """

    def decorate(cls: type[Protocol]) -> type[Protocol]:
        if not cls.instruction:
            raise RegistryError(f"protocol class {cls.__name__} has no instruction")
        spec = ProtocolSpec(id=snake_case(cls.__name__), name=name, description=description,
                            protocol=cls(), **flags)  # type: ignore[arg-type]
        PROTOCOLS.add(spec.id, spec, replace=replace)
        return cls

    return decorate


def get_protocol(protocol_id: str) -> ProtocolSpec:
    """The :class:`ProtocolSpec` for ``protocol_id``; raises ``UnknownProtocolError``."""
    return PROTOCOLS.get(protocol_id)


def protocol_ids() -> list[str]:
    """Registered protocol ids in registration order."""
    return PROTOCOLS.ids()
