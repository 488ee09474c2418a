"""A scripted chat client for the catalogue tests: it reads the prompt the way a model would.

* A stage-one (selection) prompt (either ask placement): it answers with the gold tool's name when the menu lists it,
  else ``none``.
* A call prompt: when the gold tool is among the tools shown and at most ``confused_above``
  tools are shown, it writes the gold call in the asked protocol; with more tools it returns an
  empty reply (the study's empty turns at large sizes); without the gold tool it abstains in
  words.
"""

from __future__ import annotations

import json
import threading

from toolform.catalogue import SELECTION_ASK, SELECTION_INSTRUCTION
from toolform.clients import Completion
from toolform.protocols import get_protocol, protocol_ids


class CatalogueFake:
    model = "catalogue-fake"

    def __init__(self, requests, *, confused_above: int = 32) -> None:
        self.by_text = {r.text: r for r in requests}
        self.confused_above = confused_above
        self.log: list[dict] = []
        self.lock = threading.Lock()

    def describe(self) -> dict:
        return {"client": "CatalogueFake", "model": self.model}

    def complete(self, messages, *, max_tokens=None, temperature=None, tools=None,
                 extra_body=None) -> Completion:
        system = messages[0]["content"]
        asked = messages[-1]["content"]
        in_request = asked.endswith(SELECTION_ASK)
        selecting = in_request or SELECTION_INSTRUCTION in system
        request = self.by_text[asked[:-len(SELECTION_ASK)] if in_request else asked]
        gold = request.gold[0]
        with self.lock:
            self.log.append({"system": system, "max_tokens": max_tokens})
        if selecting:
            text = gold.name if json.dumps(gold.name) in system else "none"
        else:
            shown = [t for t in request.toolset.names if _shows(system, t)]
            protocol = max((p for p in protocol_ids() if get_protocol(p).instruction in system),
                           key=lambda p: len(get_protocol(p).instruction))
            if gold.name not in shown:
                text = "None of these tools can do that."
            elif len(shown) > self.confused_above:
                text = ""
            else:
                text = get_protocol(protocol).protocol.write([gold.first_call()], request.toolset)
        return Completion(text=text, tool_calls=None, prompt_tokens=len(system) // 4,
                          completion_tokens=len(text) // 4, latency_s=0.01, model=self.model,
                          finish_reason="stop")


def _shows(system: str, name: str) -> bool:
    return f"<name>{name}</name>" in system or f'"name": "{name}"' in system
