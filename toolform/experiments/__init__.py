"""Experiments: the A/B, the BFCL arm, the hijack experiment, the count sweep and recall@k.

Each one asks many turns of a model (through :func:`toolform.runs.run_cells` where a turn is one
prompt) and summarises them.
"""

from ._ab import (CELL_COLUMNS, HEADLINE_REASON, LOCAL_MODEL_ID, RECORDED_AB_CASSETTE,
                  RECORDED_AB_DATASETS, REFERENCE_FORMAT, ABResult, ab_test, recorded_ab_client,
                  select_requests, summarize_cells)
from ._bfcl_arm import (BFCL_ARM_COLUMNS, DISAGREEMENT_COLUMNS, RECORDED_BFCL_CASSETTE,
                        RECORDED_BFCL_CELL, RECORDED_BFCL_DRAW, bfcl_arm, bfcl_arm_requests,
                        bfcl_arm_table, grading_disagreements, recorded_bfcl_client)
from ._hijack import (CONDITIONS, DEFAULT_SENTENCE, DEFAULT_SENTINEL, HIJACK_COLUMNS,
                      RECORDED_HIJACK_CASSETTE, RECORDED_HIJACK_DRAW, RECORDED_HIJACK_FORMATS,
                      RECORDED_HIJACK_SENTENCES, HijackResult, calls_follow, hijack_experiment,
                      plant_instruction, record_hijack, recorded_hijack)
from ._sweep import (DEFAULT_STRATEGIES, END_TO_END_COLUMNS, RECALL_COLUMNS, SUMMARY_COLUMNS,
                     SWEEP_COLUMNS, SWEEP_SIZES, Strategy, count_sweep, end_to_end,
                     make_strategies, recall_at_k, summarize_sweep)

__all__ = ["ABResult", "BFCL_ARM_COLUMNS", "CELL_COLUMNS", "CONDITIONS", "DEFAULT_SENTENCE",
    "DEFAULT_SENTINEL", "DEFAULT_STRATEGIES", "DISAGREEMENT_COLUMNS", "END_TO_END_COLUMNS",
    "HEADLINE_REASON", "HIJACK_COLUMNS", "HijackResult", "LOCAL_MODEL_ID", "RECALL_COLUMNS",
    "RECORDED_AB_CASSETTE", "RECORDED_AB_DATASETS", "RECORDED_BFCL_CASSETTE",
    "RECORDED_BFCL_CELL", "RECORDED_BFCL_DRAW", "RECORDED_HIJACK_CASSETTE",
    "RECORDED_HIJACK_DRAW", "RECORDED_HIJACK_FORMATS", "RECORDED_HIJACK_SENTENCES",
    "REFERENCE_FORMAT", "SUMMARY_COLUMNS", "SWEEP_COLUMNS", "SWEEP_SIZES", "Strategy", "ab_test",
    "bfcl_arm", "bfcl_arm_requests", "bfcl_arm_table", "calls_follow", "count_sweep",
    "end_to_end", "grading_disagreements", "hijack_experiment", "make_strategies",
    "plant_instruction", "recall_at_k", "record_hijack", "recorded_ab_client",
    "recorded_bfcl_client", "recorded_hijack", "select_requests", "summarize_cells",
    "summarize_sweep"]
