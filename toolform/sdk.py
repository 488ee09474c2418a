"""The public SDK surface for driving models: clients and what they return.

Import from here in notebooks and scripts (``from toolform.sdk import OpenAICompatClient``).
"""

from __future__ import annotations

from .clients import Completion, OpenAICompatClient, ReplayClient
from .generator import generated_toolset

__all__ = ["Completion", "OpenAICompatClient", "ReplayClient", "generated_toolset"]
