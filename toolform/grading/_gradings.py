"""Every grading of a turn in one pass: the three rules, then BFCL's possible answers."""

from __future__ import annotations

from collections.abc import Sequence

from ..ir import GoldCall, ToolCall, Toolset
from ..protocols import ParsedReply
from ._grade import Verdict, _gold_calls, _grade_selections
from ._possible_answers import possible_answers_verdict

__all__ = ["grade_gradings"]


def grade_gradings(parsed: ParsedReply,
                   gold: Sequence[GoldCall | ToolCall] | GoldCall | ToolCall,
                   toolset: Toolset) -> dict[str, Verdict]:
    """Grade a parsed reply under every grading of :data:`GRADINGS`, in one pass.

    The three rules as :func:`grade_rules` grades them, then BFCL's possible answers on the
    calls as written, reusing the ``as_written`` rule's schema check of the same calls.

    Parameters
    ----------
    parsed : ParsedReply
        The reply as ``parse_reply`` read it.
    gold : sequence of GoldCall or ToolCall
        The expected calls (possible answers are graded against their ``GoldCall`` form).
    toolset : Toolset
        The tools the model was shown.

    Returns
    -------
    dict of str to Verdict
        Keyed and ordered as :data:`GRADINGS`; each the same as :func:`grade` (or
        ``grade_possible_answers``) gives.

    Raises
    ------
    GradingError
        As for :func:`grade`.
    """
    golds = _gold_calls(gold, toolset)
    verdicts = _grade_selections(parsed, golds, toolset)
    written = verdicts["as_written"]
    verdicts["possible_answers"] = possible_answers_verdict(
        parsed.calls_as_written, golds, toolset, (written.schema_valid, written.schema_issue))
    return verdicts
