"""What a guard rule is: its severities, the :class:`Rule` record, the :class:`Hit` a matcher
yields and the :class:`ScanContext` it reads beside its field."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable, Iterator

from ..errors import InvalidParameterError

__all__ = ["Hit", "MAX_DECODE_CHARS", "Matcher",
           "Rule", "SEVERITIES", "ScanContext", "severity_rank"]

#: Severity levels, most severe first.
SEVERITIES = ("high", "medium", "low")
_RANK = {s: i for i, s in enumerate(SEVERITIES)}

#: The longest base64/hex run TS107 will decode to look at (characters); longer runs are
#: reported from their shape alone.
MAX_DECODE_CHARS = 4096

_PROSE_KINDS = ("tool.title", "tool.description", "param.title", "param.description",
                "param.default", "param.enum")
_VALUE_KINDS = ("tool.title", "param.title", "param.default", "param.enum")
_ALL_KINDS = ("tool.name", *_PROSE_KINDS, "param.name")


@dataclass(frozen=True)
class Hit:
    """One match of one rule in one field's text.

    Parameters
    ----------
    start, end : int
        Character offsets (Python ``str`` indices) of the span in the field's text, ``end``
        exclusive.
    severity : str
        ``"high"``, ``"medium"`` or ``"low"``.
    detail : str
        Why this span matched, in a few words.
    """

    start: int
    end: int
    severity: str
    detail: str


_IDENTIFIER_SHAPE = re.compile(r"[_.\-\d]|[a-z][A-Z]")


@dataclass(slots=True)
class ScanContext:
    """What a matcher may know beyond its field: the catalogue's tool names.

    Made fresh for every field by the scanner; matchers only read it.

    Parameters
    ----------
    tool_names : tuple of str
        Every tool name of the toolset being scanned, in order.
    tool : str
        The tool whose field is being read.
    kind : str
        The field's kind (see ``toolform.guard._fields.FIELD_KINDS``).
    known_names : frozenset of str, optional
        The names distinctive enough to be recognised in prose (``send_email``, ``getUser``;
        not ``query`` or ``echo``, which are also plain words). Computed from ``tool_names``
        when not given, so pass it on when making many contexts for one catalogue.
    words : frozenset of str, optional
        The words of the field's (visible, lower-cased) text, when the scanner has worked them
        out already; matchers compute them otherwise.
    gated : bool
        Run a rule's patterns only when their trigger words occur (the default); False runs
        every pattern, which the test that triggers hide no match compares against.
    """

    tool_names: tuple[str, ...] = ()
    tool: str = ""
    kind: str = "tool.description"
    known_names: frozenset[str] | None = field(default=None, compare=False, repr=False)
    words: frozenset[str] | None = field(default=None, compare=False, repr=False)
    gated: bool = True

    def __post_init__(self) -> None:
        if self.known_names is None:
            self.known_names = frozenset(n for n in self.tool_names
                                         if len(n) >= 4 and _IDENTIFIER_SHAPE.search(n))


Matcher = Callable[[str, ScanContext], Iterator[Hit]]


@dataclass(frozen=True)
class Rule:
    """One guard rule.

    Parameters
    ----------
    id : str
        ``TS101`` to ``TS111``.
    name : str
        Short kebab-case name.
    severity : str
        The highest severity the rule reports; matchers may report less for weaker evidence.
    summary : str
        What it looks for, in one sentence.
    kinds : tuple of str
        The field kinds it reads (``"toolset"`` for the catalogue-wide name check).
    matcher : callable
        ``matcher(text, context) -> iterator of Hit``.
    flags : str
        A text (in a field of ``example_kind``) the rule must flag at ``severity``.
    passes : str
        A text, of the same kind, the rule must leave alone.
    example_kind : str
        The field kind the two examples sit in.
    triggers : tuple of str
        Necessary conditions, checked before the matcher runs: the matcher can only match
        when the lower-cased text contains one of these. A trigger made only of letters and
        digits must appear as a whole word; one ending in ``*`` (star dropped), or holding any
        other character, is looked for as a substring. Empty: always run. A test checks that
        the triggers never hide a match.
    catalogue_matcher : callable, optional
        A second matcher that reads the catalogue's tool names (TS104); it runs on every field
        of its kinds when the toolset has recognisable names, whatever the triggers say.
    general : bool
        The matcher also reports the general sentence checks (TS101-TS105): the triggers
        cover only its phrase patterns, and the scanner also runs it when
        :func:`general_rules` names the rule for a text.
    wakes : tuple of compiled regex, optional
        A stricter necessary condition than the triggers, searched in the lower-cased text:
        the matcher can only match where one of these matches. The scanner screens a long
        enum's values with them at once (TS107's digits are triggers, but a readable blob is a
        run of 24).
    """

    id: str
    name: str
    severity: str
    summary: str
    kinds: tuple[str, ...]
    matcher: Matcher = field(repr=False, compare=False)
    flags: str = ""
    passes: str = ""
    example_kind: str = "tool.description"
    triggers: tuple[str, ...] = ()
    catalogue_matcher: Matcher | None = field(default=None, repr=False, compare=False)
    general: bool = False
    wakes: tuple[re.Pattern[str], ...] = field(default=(), repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.severity not in SEVERITIES:
            raise InvalidParameterError(f"rule {self.id}: severity must be one of {SEVERITIES}, "
                             f"got {self.severity!r}")
        if any(t != t.lower() for t in self.triggers):
            raise InvalidParameterError(f"rule {self.id}: triggers must be lower case")




def severity_rank(severity: str) -> int:
    """0 for high, 1 for medium, 2 for low (sort key)."""
    return _RANK[severity]
