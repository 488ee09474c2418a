"""The grading rules: their names, what each means, and the one check of a rule name.

Every module that names a rule imports it from here (``toolform.grading``): the runner's
``correct_<rule>`` columns, the A/B's long frame, the BFCL arm's gradings, the charts' colour
order, the CLI and the widgets.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import GradingError

__all__ = ["GRADINGS", "RULES", "RULE_MEANINGS", "check_rule"]

#: The study's three grading rules, in the order every table and chart shows them.
RULES: tuple[str, ...] = ("main", "symmetric", "as_written")

#: Each rule in one line (the package docstring has the full definitions).
RULE_MEANINGS: dict[str, str] = {
    "main": "names forgiven for case and separators, flat arguments re-nested for the text "
            "protocols only",
    "symmetric": "the same repairs for every protocol",
    "as_written": "the calls exactly as written",
}

#: The three rules, then BFCL's possible answers (``grade_possible_answers``): what the BFCL
#: arm and the atlas grade every turn under.
GRADINGS: tuple[str, ...] = (*RULES, "possible_answers")


def check_rule(rule: object, allowed: Sequence[str] = RULES, *, parameter: str = "rule") -> str:
    """Return ``rule`` when it is one of ``allowed``; raise naming the allowed names otherwise.

    Parameters
    ----------
    rule : object
        The name given.
    allowed : sequence of str
        The names accepted (default :data:`RULES`; :data:`GRADINGS` where possible answers
        count as a grading).
    parameter : str
        The caller's parameter name, used in the message (``"headline_rule"``, ``"rules"``).

    Returns
    -------
    str
        ``rule``, unchanged.

    Raises
    ------
    GradingError
        When ``rule`` is not one of ``allowed`` (a ``ValueError``, so callers that catch that
        keep working).

    Examples
    --------
    >>> check_rule("symmetric")
    'symmetric'
    """
    if not isinstance(rule, str) or rule not in allowed:
        raise GradingError(f"unknown grading rule {rule!r} for {parameter}; expected one of "
                           f"{list(allowed)}")
    return rule
