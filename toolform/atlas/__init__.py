"""The format atlas: search a model's format × protocol grid for its best cells.

``atlas(requests, client, budget_turns=...)`` explores every format × protocol pair that can
carry the requests' calls (``carry_grid``) by successive elimination with confidence bounds
(``confidence_elimination``; ``successive_halving`` on request), with strength shared along
formats and protocols, on today's runner, and reports the best cells
with intervals, the search's path and BFCL's format-sensitivity statistics
(``format_sensitivity``). ``synthetic_grid`` and ``simulate_search`` validate the search on grids
whose true accuracies are known; ``toolform.atlas.charts`` draws the results.
"""

from ._atlas import (ATLAS_CELL_COLUMNS, PATH_COLUMNS, RECORDED_ATLAS_BUDGET, RECORDED_ATLAS_CASSETTE,
                     RECORDED_ATLAS_DRAW, RECORDED_ATLAS_FORMATS, RECORDED_ATLAS_PAIRS, RECORDED_ATLAS_PROTOCOLS,
                     RECORDED_ATLAS_SEARCH, SEARCHES, AtlasResult, atlas, record_atlas, recorded_atlas,
                     recorded_atlas_requests)
from ._grid import GRID_COLUMNS, LOSS_CHECKS, carry_grid, request_losses
from ._search import SearchResult, SearchRound, confidence_elimination, successive_halving
from ._sensitivity import format_sensitivity
from ._simulate import (GAP_BINS, ILLUSTRATION_FORMATS, ILLUSTRATION_PROTOCOLS, SCENARIOS, SIMULATION_COLUMNS, Scenario, SyntheticGrid, by_gap,
                        calibrate_request_spread, recorded_validation, run_validation,
                        simulate_search, synthetic_grid, validation_curve)

__all__ = [
    "ATLAS_CELL_COLUMNS",
    "AtlasResult",
    "GAP_BINS",
    "GRID_COLUMNS",
    "ILLUSTRATION_FORMATS",
    "ILLUSTRATION_PROTOCOLS",
    "LOSS_CHECKS",
    "PATH_COLUMNS",
    "RECORDED_ATLAS_BUDGET",
    "RECORDED_ATLAS_CASSETTE",
    "RECORDED_ATLAS_DRAW",
    "RECORDED_ATLAS_FORMATS",
    "RECORDED_ATLAS_PAIRS",
    "RECORDED_ATLAS_PROTOCOLS",
    "RECORDED_ATLAS_SEARCH",
    "SCENARIOS",
    "SEARCHES",
    "SIMULATION_COLUMNS",
    "Scenario",
    "SearchResult",
    "SearchRound",
    "SyntheticGrid",
    "atlas",
    "by_gap",
    "calibrate_request_spread",
    "carry_grid",
    "confidence_elimination",
    "format_sensitivity",
    "record_atlas",
    "recorded_atlas",
    "recorded_atlas_requests",
    "recorded_validation",
    "request_losses",
    "run_validation",
    "simulate_search",
    "successive_halving",
    "synthetic_grid",
    "validation_curve",
]
