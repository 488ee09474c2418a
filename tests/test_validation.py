"""Constraints as data (``toolform.validation``): what passes, and what the error says."""

from __future__ import annotations

import numpy as np
import pytest

from toolform.errors import InvalidParameterError, ParameterTypeError, ToolFormError
from toolform.validation import InstanceOf, Interval, Options, check_parameter, check_parameters


def test_an_interval_checks_type_and_bounds():
    positive = [Interval(int, 1, None)]
    assert check_parameter("n", 3, positive) == 3
    assert check_parameter("n", np.int64(3), positive) == 3
    with pytest.raises(InvalidParameterError, match="n must be an int at least 1; got 0") as e:
        check_parameter("n", 0, positive)
    assert (e.value.parameter, e.value.value) == ("n", 0)
    with pytest.raises(ParameterTypeError, match="got 2.5"):
        check_parameter("n", 2.5, positive)
    with pytest.raises(ParameterTypeError):
        check_parameter("n", True, positive)  # a bool is not a count


def test_open_and_closed_ends():
    share = [Interval(float, 0, 1, closed="right")]
    assert check_parameter("discordance", 1, share) == 1
    for bad in (0, 1.5, float("nan")):
        with pytest.raises(InvalidParameterError, match=r"in \(0, 1\]"):
            check_parameter("discordance", bad, share)


def test_options_none_and_instances():
    rule = [Options(("main", "symmetric")), None]
    assert check_parameter("rule", None, rule) is None
    with pytest.raises(InvalidParameterError, match="one of 'main', 'symmetric' or None; got 'x'"):
        check_parameter("rule", "x", rule)
    with pytest.raises(ParameterTypeError, match="an instance of list or tuple"):
        check_parameter("cells", "a", [InstanceOf(list, tuple)])
    with pytest.raises(ParameterTypeError) as caught:
        check_parameter("rule", [], rule)  # unhashable: refused, not crashed
    assert isinstance(caught.value, (TypeError, ValueError, ToolFormError))


def test_check_parameters_names_the_function():
    with pytest.raises(InvalidParameterError, match=r"^power_for: alpha must be"):
        check_parameters({"alpha": [Interval(float, 0, 1, closed="neither")]},
                         where="power_for", alpha=1.0)
    with pytest.raises(KeyError):
        check_parameters({}, alpha=0.5)


def test_the_stats_entry_points_use_it():
    from toolform.stats import minimum_detectable_effect, plan_n

    with pytest.raises(InvalidParameterError, match=r"alpha must be a number in \(0, 1\); got 1.5"):
        plan_n(5, discordance=0.2, alpha=1.5)
    with pytest.raises(InvalidParameterError, match="n must be an int at least 1; got 0"):
        minimum_detectable_effect(0, discordance=0.2)
