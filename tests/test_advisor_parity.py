"""ToolForm's advisor against the reference package's, over the committed parity grid.

The grid (``tests/fixtures/advisor_parity/grid.jsonl``) holds 2,619 situations and what the
study's own package (``toolform`` 0.0.1) recommended for each, built by ``build.py`` beside it:
every zoo family x tool counts 1 to 512 x tiers 1, 3, 5 x the three rules, every zoo id,
checkpoint and anchor (with and without its effort level), and cost, budget, protocol, size,
window, toolset, candidate and third-party cases.
"""

from __future__ import annotations

import pytest

from advisor_parity import FIGURES, agreement, load_grid, measure

#: The issue's targets, in percent of the grid.
TARGET = 95.0


@pytest.fixture(scope="module")
def measured():
    return measure()


def test_the_grid_covers_what_the_issue_asks():
    grid = load_grid()
    assert len(grid) >= 400
    families = {c["situation"]["family"] for c in grid if c["group"] == "family"}
    assert len(families) == 25  # every family of the zoo
    family_cases = {(c["situation"]["n_tools"], c["situation"]["tier"], c["situation"]["rule"])
                    for c in grid if c["group"] == "family"}
    assert family_cases == {(n, t, r) for n in (1, 8, 32, 64, 128, 256, 512) for t in (1, 3, 5)
                            for r in ("main", "symmetric", "as_written")}
    bases = {c["reference"].get("basis", "").split(":")[0] for c in grid}
    assert {"checkpoint", "anchor", "family", "pooled"} <= bases
    assert {"cost", "budget", "protocol", "params_b", "context", "tools"} <= {
        c["group"] for c in grid}


def test_agreement_meets_the_targets(measured):
    overall, _, _ = measured
    for figure in FIGURES:
        assert overall[figure] >= TARGET, (figure, overall)


def test_every_remaining_difference_is_a_rendered_block_over_half_the_window(measured):
    # The only known difference (docs/reference-parity.md): with a real toolset, ToolForm
    # measures its own rendered block, which for some formats is larger than the reference
    # package's rendering, so a different set of formats is over half the window.
    _, _, differences = measured
    for d in differences:
        assert d["group"] == "tools" and d["situation"]["context_tokens"], d
    assert len(differences) <= 3


def test_agreement_is_exact_where_no_toolset_is_rendered(measured):
    _, groups, _ = measured
    for group, figures in groups.items():
        if group != "tools":
            assert all(figures[f] == 100.0 for f in FIGURES), (group, figures)


def test_agreement_counts_ties_and_errors():
    ref = {"format_id": "xml_schema", "protocol_id": "xml_call", "expected_accuracy": 60.0,
           "basis": "pooled", "ties": [["typescript", "json_object"]]}
    tied = {"format_id": "typescript", "protocol_id": "json_object", "expected_accuracy": 60.4,
            "basis": "pooled"}
    assert agreement(ref, tied) == {"pick": True, "basis": True, "accuracy": True}
    other = dict(tied, format_id="yaml_schema", expected_accuracy=61.0, basis="family:glm")
    assert agreement(ref, other) == {"pick": False, "basis": False, "accuracy": False}
    assert agreement({"error": "x"}, {"error": "y"}) == dict.fromkeys(FIGURES, True)
    assert agreement({"error": "x"}, tied) == dict.fromkeys(FIGURES, False)
