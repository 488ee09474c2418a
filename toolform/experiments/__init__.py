"""Experiments: many turns of a model, one call shape, one result type.

Each experiment is called ``experiment(requests, client, *, cells=..., checkpoint=None,
on_turn=None, max_tokens=DEFAULT_MAX_TOKENS, concurrency=DEFAULT_CONCURRENCY, progress=False,
stop=None, repeats=1, ...)`` and returns an :class:`ExperimentResult` (``.turns``, ``.cells``,
``.table()``, ``.chart()``):

- :func:`ab_test` → :class:`ABResult`: the eight core cells on one model, the best under a rule;
- :func:`bfcl_arm` → :class:`BFCLArmResult`: cells on BFCL requests, graded four ways;
- :func:`hijack_experiment` → :class:`HijackResult`: a planted instruction, who follows it, and
  the guard's cleaning;
- :func:`count_sweep` → :class:`SweepResult`: catalogues of growing size under each strategy;
- :func:`atlas` → :class:`AtlasExperimentResult`: the adaptive format × protocol search;
- :func:`recall_at_k` → :class:`RecallResult`: retrieval, no model (the methods in the client's
  place; see its module).

``recorded_ab``, ``recorded_bfcl_arm`` and ``recorded_hijack`` replay the committed recordings
of the local model offline, at the budget each was recorded with.
"""

from .._deprecated import moved_names
from ._result import (DEFAULT_CONCURRENCY, DEFAULT_MAX_TOKENS, ExperimentResult, OnTurn, as_cells)
from ._ab import (ABResult, CELL_COLUMNS, CORE_CELLS, HEADLINE_REASON, LOCAL_MODEL_ID,
                  RECORDED_AB_CASSETTE, RECORDED_AB_DATASETS, RECORDED_AB_MAX_TOKENS,
                  REFERENCE_FORMAT, ab_test, recorded_ab, recorded_ab_client, select_requests,
                  summarize_cells)
from ._bfcl_arm import (BFCLArmResult, BFCL_ARM_COLUMNS, DISAGREEMENT_COLUMNS,
                        RECORDED_BFCL_CASSETTE, RECORDED_BFCL_CELL, RECORDED_BFCL_DRAW,
                        RECORDED_BFCL_MAX_TOKENS, bfcl_arm, bfcl_arm_requests, bfcl_arm_table,
                        grading_disagreements, recorded_bfcl_arm, recorded_bfcl_client)
from ._hijack import (CONDITIONS, HIJACK_COLUMNS, HijackResult, RECORDED_HIJACK_CASSETTE,
                      RECORDED_HIJACK_DRAW, RECORDED_HIJACK_FORMATS, RECORDED_HIJACK_MAX_TOKENS,
                      RECORDED_HIJACK_SENTENCES, hijack_experiment, record_hijack, recorded_hijack)
from ._sweep import (DEFAULT_STRATEGIES, RECORDED_SWEEP_CASSETTE, RECORDED_SWEEP_CONTEXT_TOKENS,
                     RECORDED_SWEEP_MAX_TOKENS, RECORDED_SWEEP_SIZES, RECORDED_SWEEP_STRATEGIES,
                     SWEEP_CELLS, SWEEP_COLUMNS, SWEEP_SIZES, SWEEP_SUMMARY_COLUMNS, Strategy,
                     SweepResult, count_sweep, make_strategies, recorded_sweep,
                     recorded_sweep_requests, summarize_sweep)
from ._recall import (END_TO_END_COLUMNS, RECALL_COLUMNS, RECALL_TURN_COLUMNS, RecallResult,
                      end_to_end, recall_at_k)
from ._atlas import (AtlasExperimentResult, atlas)

#: ``SUMMARY_COLUMNS`` was the sweep's summary, under the runner's summary's name; kept one
#: release.
__getattr__ = moved_names(__name__,
                          {"SUMMARY_COLUMNS": "toolform.experiments.SWEEP_SUMMARY_COLUMNS"})

__all__ = ["ABResult", "AtlasExperimentResult", "BFCLArmResult", "BFCL_ARM_COLUMNS",
           "CELL_COLUMNS", "CONDITIONS", "CORE_CELLS", "DEFAULT_CONCURRENCY", "DEFAULT_MAX_TOKENS",
           "DEFAULT_STRATEGIES", "DISAGREEMENT_COLUMNS", "END_TO_END_COLUMNS", "ExperimentResult",
           "HEADLINE_REASON", "HIJACK_COLUMNS", "HijackResult", "LOCAL_MODEL_ID", "OnTurn",
           "RECALL_COLUMNS", "RECALL_TURN_COLUMNS", "RECORDED_AB_CASSETTE", "RECORDED_AB_DATASETS",
           "RECORDED_AB_MAX_TOKENS", "RECORDED_BFCL_CASSETTE", "RECORDED_BFCL_CELL",
           "RECORDED_BFCL_DRAW", "RECORDED_BFCL_MAX_TOKENS", "RECORDED_HIJACK_CASSETTE",
           "RECORDED_HIJACK_DRAW", "RECORDED_HIJACK_FORMATS", "RECORDED_HIJACK_MAX_TOKENS",
           "RECORDED_HIJACK_SENTENCES", "RECORDED_SWEEP_CASSETTE", "RECORDED_SWEEP_CONTEXT_TOKENS",
           "RECORDED_SWEEP_MAX_TOKENS", "RECORDED_SWEEP_SIZES", "RECORDED_SWEEP_STRATEGIES",
           "REFERENCE_FORMAT", "RecallResult", "SWEEP_CELLS", "SWEEP_COLUMNS",
           "SWEEP_SIZES", "SWEEP_SUMMARY_COLUMNS", "Strategy", "SweepResult", "ab_test", "as_cells", "atlas", "bfcl_arm",
           "bfcl_arm_requests", "bfcl_arm_table", "count_sweep", "end_to_end",
           "grading_disagreements", "hijack_experiment", "make_strategies", "recall_at_k",
           "record_hijack", "recorded_ab", "recorded_ab_client", "recorded_bfcl_arm",
           "recorded_bfcl_client", "recorded_hijack", "recorded_sweep", "recorded_sweep_requests",
           "select_requests", "summarize_cells", "summarize_sweep"]
