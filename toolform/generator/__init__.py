"""The synthetic toolset, its tasks with gold calls, decoy catalogues and executors.

- :func:`generated_toolset`: 93 tools across 24 service domains (weather, calendar, orders,
  payments, files, tickets …), seeded, with tools at each of the study's five complexity tiers
  and near twins inside a domain (siblings, ``v1`` / ``v2`` / ``v2_final``);
- :func:`generated_tasks`: for every tool, clear and vague requests with the gold call;
- :func:`decoy_catalogue`: nested catalogues of 1 … 256 tools for tool-count sweeps;
- :class:`World`, :class:`Executor`, :func:`run_calls`, :func:`end_state_correct`: every tool
  runs over a small in-memory state, so a call can be graded by the state it leaves;
- :func:`write_generated_dataset`: the files of ``datasets/generated/``.
"""

from __future__ import annotations

from ._build import (N_DOMAINS, N_TOOLS, decoy_catalogue, generated_tasks, generated_toolset,
                     max_catalogue_size, tool_specs)
from ._dataset import write_generated_dataset
from ._spec import Ask, Domain, Effect, ToolSpec
from ._world import Execution, Executor, World, end_state_correct, run_calls

__all__ = [
    "Ask",
    "Domain",
    "Effect",
    "Execution",
    "Executor",
    "N_DOMAINS",
    "N_TOOLS",
    "ToolSpec",
    "World",
    "decoy_catalogue",
    "end_state_correct",
    "generated_tasks",
    "generated_toolset",
    "max_catalogue_size",
    "run_calls",
    "tool_specs",
    "write_generated_dataset",
]
