"""toolform.stats: hand-worked cases, and the reference packages where they have the same test."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from toolform import stats
from toolform.stats import (discordant_pairs, holm, mcnemar_exact, minimum_detectable_effect,
                            noise_floor, noise_floor_sentence, paired_contrasts, pass_at_k,
                            pass_hat_k, plan_n, repeat_cells, repeat_requests, wilson_interval)


def test_all_is_sorted_and_public():
    assert stats.__all__ == sorted(stats.__all__)
    for name in stats.__all__:
        assert hasattr(stats, name)


# -- discordant pairs and the exact McNemar test ------------------------------------------------

def test_discordant_pairs_hand_counted():
    a = [True, True, False, False, True, False]
    b = [True, False, True, False, False, False]
    assert discordant_pairs(a, b) == (2, 1)
    assert discordant_pairs(b, a) == (1, 2)
    assert discordant_pairs([], []) == (0, 0)
    with pytest.raises(ValueError, match="equal"):
        discordant_pairs([True], [True, False])


def test_mcnemar_exact_hand_worked():
    # 1 vs 6 of 7 discordant pairs: P(X <= 1) = (1 + 7) / 2^7 = 1/16, doubled
    assert mcnemar_exact(1, 6) == pytest.approx(0.125)
    assert mcnemar_exact(6, 1) == pytest.approx(0.125)
    assert mcnemar_exact(0, 5) == pytest.approx(2 / 32)
    # a 3-3 split: twice P(X <= 3) = 2 * 42/64 > 1, capped
    assert mcnemar_exact(3, 3) == 1.0
    assert mcnemar_exact(0, 0) == 1.0
    with pytest.raises(ValueError, match=">= 0"):
        mcnemar_exact(-1, 2)


@pytest.mark.parametrize("a_only,b_only", [(0, 1), (1, 6), (4, 9), (12, 30), (25, 25),
                                           (40, 61), (300, 370), (980, 1100)])
def test_mcnemar_exact_matches_statsmodels_and_scipy(a_only, b_only):
    from scipy.stats import binomtest
    from statsmodels.stats.contingency_tables import mcnemar

    table = [[7, a_only], [b_only, 11]]  # concordant cells do not enter the exact test
    reference = mcnemar(table, exact=True).pvalue
    ours = mcnemar_exact(a_only, b_only)
    assert ours == pytest.approx(reference, rel=1e-9, abs=1e-300)
    assert ours == pytest.approx(binomtest(a_only, a_only + b_only, 0.5).pvalue, rel=1e-9,
                                 abs=1e-300)


# -- Holm ----------------------------------------------------------------------------------------

def test_holm_hand_worked():
    # sorted 0.01, 0.03, 0.04 -> 3*0.01, 2*0.03, max(1*0.04, 0.06)
    assert holm([0.01, 0.04, 0.03]).tolist() == pytest.approx([0.03, 0.06, 0.06])
    got = holm([0.5, float("nan"), 0.001])
    assert got[0] == pytest.approx(0.5) and math.isnan(got[1]) and got[2] == pytest.approx(0.002)
    assert holm([0.6, 0.9]).tolist() == pytest.approx([1.0, 1.0])
    assert holm([]).size == 0


def test_holm_matches_statsmodels_multipletests():
    from statsmodels.stats.multitest import multipletests

    rng = np.random.default_rng(7)
    for m in (1, 2, 5, 8, 31):
        p = rng.uniform(0, 0.2, m) ** rng.uniform(0.5, 3, m)
        reject, adjusted, _, _ = multipletests(p, alpha=0.05, method="holm")
        assert holm(p) == pytest.approx(adjusted, rel=1e-12)
        assert ((holm(p) < 0.05) == reject).all()


def test_wilson_matches_statsmodels():
    from statsmodels.stats.proportion import proportion_confint

    for correct, n in ((0, 10), (5, 10), (16, 20), (49, 50), (123, 400)):
        low, high = proportion_confint(correct, n, alpha=0.05, method="wilson")
        assert wilson_interval(correct, n) == pytest.approx((100 * low, 100 * high), rel=1e-6)


# -- paired contrasts over a turn frame -----------------------------------------------------------

def _turns(verdicts: dict[str, list[bool]], *, error_at: tuple[str, int] | None = None
           ) -> pd.DataFrame:
    rows = []
    for cell, values in verdicts.items():
        for i, ok in enumerate(values):
            err = "ClientError: down" if error_at == (cell, i) else None
            rows.append({"cell": cell, "request_id": f"r{i}", "error": err,
                         "correct_main": bool(ok) and err is None})
    return pd.DataFrame(rows)


def test_paired_contrasts_hand_worked():
    ref = [True] * 6 + [False] * 4            # 60%
    better = [True] * 9 + [False]             # 90%: right on r6, r7, r8 where ref was wrong
    same = list(ref)
    turns = _turns({"ref/p": ref, "better/p": better, "same/p": same})
    table = paired_contrasts(turns, "ref/p", n_boot=500).set_index("cell")
    assert list(table.index) == ["better/p", "same/p"]
    row = table.loc["better/p"]
    assert (row.n_pairs, row.cell_only, row.reference_only) == (10, 3, 0)
    assert row.accuracy == pytest.approx(90) and row.reference_accuracy == pytest.approx(60)
    assert row.difference == pytest.approx(30)
    assert row.p_value == pytest.approx(mcnemar_exact(3, 0)) == pytest.approx(0.25)
    assert row.difference_low <= 30 <= row.difference_high
    assert table.loc["same/p"].p_value == 1.0
    # Holm over the two: 2 * 0.25, then max(0.5, 1.0)
    assert table["p_holm"].tolist() == pytest.approx([0.5, 1.0])
    assert not table["significant"].any()


def test_paired_contrasts_leave_out_failed_turns_and_need_the_reference():
    turns = _turns({"ref/p": [True, False, True], "a/p": [True, True, False]},
                   error_at=("a/p", 1))
    row = paired_contrasts(turns, "ref/p", n_boot=50).iloc[0]
    assert row.n_pairs == 2 and (row.cell_only, row.reference_only) == (0, 1)
    with pytest.raises(ValueError, match="reference cell"):
        paired_contrasts(turns, "nope/p")
    with pytest.raises(ValueError, match="correct_symmetric"):
        paired_contrasts(turns, "ref/p", rule="symmetric")


# -- the planner and the minimum detectable effect ------------------------------------------------

def test_plan_n_hand_worked():
    # Connor (1987): d = 0.10, psi = 0.30, z = 1.959964 and 0.841621
    # n = (1.959964 * sqrt(.3) + 0.841621 * sqrt(.29))^2 / .01 = 233.1 -> 234
    assert plan_n(10, discordance=0.3) == 234
    assert plan_n(-10, discordance=0.3) == 234
    # 3 points at 20% discordance: (1.959964 * .447214 + .841621 * .446206)^2 / .0009
    # = 1.252059^2 / .0009 = 1741.8 -> 1742 requests a cell
    assert plan_n(3, discordance=0.2) == 1742
    with pytest.raises(ValueError, match="at most the discordance"):
        plan_n(40, discordance=0.3)
    with pytest.raises(ValueError, match="discordance"):
        plan_n(5, discordance=0.0)
    with pytest.raises(ValueError, match="power"):
        plan_n(5, discordance=0.3, power=1.0)


def test_minimum_detectable_effect_inverts_plan_n():
    for effect, psi in ((10, 0.3), (5, 0.15), (20, 0.5), (3, 0.2)):
        n = plan_n(effect, discordance=psi)
        assert minimum_detectable_effect(n, discordance=psi) <= effect + 1e-6
        assert minimum_detectable_effect(n - 1, discordance=psi) > effect - 0.05
    # too few pairs: nothing short of the whole discordance is detectable
    assert minimum_detectable_effect(2, discordance=0.1) == pytest.approx(10)
    with pytest.raises(ValueError, match="at least 1"):
        minimum_detectable_effect(0, discordance=0.3)


def _exact_mcnemar_power(n: int, p10: float, p01: float, alpha: float) -> float:
    """Exact power of the exact test: discordant count m ~ Bin(n, psi), split ~ Bin(m, p10/psi)."""
    from scipy.stats import binom

    psi = p10 + p01
    power = 0.0
    for m in range(n + 1):
        pm = binom.pmf(m, n, psi)
        if pm < 1e-14:
            continue
        k = np.arange(m + 1)
        reject = np.array([mcnemar_exact(int(x), m - int(x)) <= alpha for x in k])
        power += pm * binom.pmf(k, m, p10 / psi)[reject].sum()
    return power


def test_plan_n_reaches_its_power_under_the_exact_test():
    # the normal approximation behind plan_n, checked against the exact test's own power
    for effect, psi in ((10, 0.3), (15, 0.4)):
        n = plan_n(effect, discordance=psi)
        d = effect / 100
        power = _exact_mcnemar_power(n, (psi + d) / 2, (psi - d) / 2, 0.05)
        assert 0.75 <= power <= 0.85, (effect, psi, n, power)


def test_noise_floor_of_a_run_and_its_sentence():
    rng = np.random.default_rng(0)
    base = rng.random(50) < 0.6
    flip = rng.random((3, 50)) < 0.2
    cells = {"ref/p": base, **{f"c{i}/p": base ^ flip[i] for i in range(3)}}
    turns = _turns({k: list(v) for k, v in cells.items()})
    floor = noise_floor(turns, "ref/p")
    discordant = sum(sum(discordant_pairs(cells[c], base)) for c in cells if c != "ref/p")
    assert floor["n"] == 50 and floor["n_pairs"] == 150
    assert floor["n_discordant"] == discordant
    assert floor["discordance"] == pytest.approx(discordant / 150)
    assert floor["mde_points"] == pytest.approx(
        minimum_detectable_effect(50, discordance=discordant / 150))
    assert floor["sentence"].startswith(
        f"Differences smaller than {floor['mde_points']:.1f} points cannot be told apart in this run")
    assert "50 requests a cell" in floor["sentence"]
    assert "cannot say" in noise_floor_sentence(float("nan"), n=10, discordance=0.0)


# -- repeats ---------------------------------------------------------------------------------------

def test_pass_at_k_and_pass_hat_k_hand_worked():
    assert pass_at_k(5, 2, 2) == pytest.approx(1 - 3 / 10)
    assert pass_hat_k(5, 2, 2) == pytest.approx(1 / 10)
    assert pass_at_k(5, 2, 1) == pytest.approx(0.4) == pass_hat_k(5, 2, 1)
    assert pass_at_k(3, 2, 2) == 1.0 and pass_hat_k(3, 0, 1) == 0.0
    with pytest.raises(ValueError, match="k <= n"):
        pass_at_k(3, 1, 4)


def test_repeat_statistics_over_a_turn_frame():
    # cell a: r0 always right, r1 right once in 3 (flips), r2 never; cell b: all right
    verdicts = {("a/p", "r0"): [1, 1, 1], ("a/p", "r1"): [0, 1, 0], ("a/p", "r2"): [0, 0, 0],
                ("b/p", "r0"): [1, 1, 1], ("b/p", "r1"): [1, 1, 1], ("b/p", "r2"): [1, 1, 1]}
    rows = [{"cell": c, "request_id": r, "repeat": k, "error": None, "correct_main": bool(v)}
            for (c, r), vs in verdicts.items() for k, v in enumerate(vs)]
    turns = pd.DataFrame(rows)
    per_request = repeat_requests(turns, k=2).set_index(["cell", "request_id"])
    assert per_request.loc[("a/p", "r1"), "n_correct"] == 1
    assert per_request.loc[("a/p", "r1"), "pass_at_k"] == pytest.approx(1 - 1 / 3)
    assert per_request.loc[("a/p", "r1"), "pass_hat_k"] == 0.0
    assert per_request["flipped"].sum() == 1
    cells = repeat_cells(turns, k=2).set_index("cell")
    a = cells.loc["a/p"]
    assert a.accuracy == pytest.approx(100 * 4 / 9)
    assert a.flip_rate == pytest.approx(100 / 3)
    # per-repeat accuracies 1/3, 2/3, 1/3 -> sample sd 19.245 points
    assert a.accuracy_sd == pytest.approx(np.std([100 / 3, 200 / 3, 100 / 3], ddof=1))
    assert a.accuracy_variance == pytest.approx(a.accuracy_sd ** 2)
    assert a.pass_at_k == pytest.approx(100 * (1 + 2 / 3 + 0) / 3)
    assert a.pass_hat_k == pytest.approx(100 * (1 + 0 + 0) / 3)
    assert cells.loc["b/p"].flip_rate == 0 and cells.loc["b/p"].accuracy_sd == 0
    with pytest.raises(ValueError, match="repeat"):
        repeat_cells(turns.drop(columns="repeat"))


# -- docstrings name every parameter ---------------------------------------------------------------

def _documented(doc: str) -> set[str]:
    """Parameter names listed in a numpydoc ``Parameters`` section (``a, b : type`` lines)."""
    import re

    section = re.search(r"Parameters\n\s*-+\n(.*?)(?:\n\s*\n\s*[A-Z][a-z]+\n\s*-+\n|\Z)", doc,
                        re.S)
    if not section:
        return set()
    names: set[str] = set()
    for line in section.group(1).splitlines():
        head = re.match(r"^(\*{0,2}[\w, *]+?)\s*(?::|$)", line)  # getdoc() dedents
        if head:
            names |= {n.strip().lstrip("*") for n in head.group(1).split(",")}
    return names


@pytest.mark.parametrize("module_name", ["toolform.stats", "toolform.atlas",
                                         "toolform.atlas.charts"])
def test_public_functions_document_every_parameter(module_name):
    import importlib
    import inspect

    module = importlib.import_module(module_name)
    for name in module.__all__:
        obj = getattr(module, name)
        if not inspect.isfunction(obj):
            continue
        params = [p for p in inspect.signature(obj).parameters]
        documented = _documented(inspect.getdoc(obj) or "")
        missing = [p for p in params if p not in documented]
        assert not missing, f"{module_name}.{name}: undocumented parameters {missing}"
