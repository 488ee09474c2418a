"""The one check every chart makes of the frame it is given."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from ..errors import InvalidParameterError, ParameterTypeError

__all__ = ["require_columns"]


def require_columns(frame: object, columns: Sequence[str], *, expected: str,
                    remedy: str) -> None:
    """Raise unless ``frame`` is a DataFrame holding every one of ``columns``.

    Parameters
    ----------
    frame : object
        What the chart was given.
    columns : sequence of str
        The columns the chart reads.
    expected : str
        What the chart wants, for the type error ("ABResult.cells").
    remedy : str
        What to pass instead, for the missing-column error ("bfcl_arm_table(turns)").

    Raises
    ------
    ParameterTypeError
        When ``frame`` is not a DataFrame (a ``TypeError``).
    InvalidParameterError
        When a column is missing (a ``ValueError``), naming the missing ones.
    """
    if not isinstance(frame, pd.DataFrame):
        raise ParameterTypeError(f"expected the DataFrame {expected}, got {type(frame).__name__}")
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise InvalidParameterError(f"the frame lacks columns {missing}; pass {remedy}")
