"""Measure how often ToolForm's possible-answers grader agrees with BFCL's own AST checker.

Two steps, in two environments, so that ``bfcl-eval`` (and its heavy dependencies) never becomes
a dependency of ToolForm or of its CI:

1. ``python datasets/bfcl_agreement.py dump`` (ToolForm's environment) replays the committed
   local-model cassettes (the BFCL arm and the eight-cell A/B test), and writes one line per turn
   to ``tests/fixtures/bfcl_agreement/replies.jsonl``: request id, category, protocol, the reply
   text, and the calls ToolForm's parser read as written, in BFCL's ``[{name: {args}}]`` shape.
2. ``python datasets/bfcl_agreement.py check`` (a separate virtual environment with the full
   ``pip install bfcl-eval``; this step imports nothing from ToolForm) grades each line with
   ``bfcl_eval.eval_checker.ast_eval.ast_checker.ast_checker`` against BFCL's own function
   documents and possible answers, and writes ``bfcl_verdicts.jsonl`` beside it. Replies asked
   for in ``bfcl_python_list`` are also decoded by BFCL's own prompting decoder
   (``default_decode_ast_prompting``), so for them parser and grader are both compared.

``tests/test_bfcl_agreement.py`` then grades the same replies with ToolForm in CI and compares
with the stored BFCL verdicts; the data card ``tests/fixtures/bfcl_agreement/README.md`` explains
every disagreement.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT_DIR = HERE.parent / "tests" / "fixtures" / "bfcl_agreement"
#: The BFCL model whose settings the checker is run with: a prompting (non-FC) model that keeps
#: dots in tool names, as the local model sees them.
CHECKER_MODEL = "qwen3-0.6b"
#: ToolForm dataset category → BFCL test category (the checker dispatches on it).
BFCL_CATEGORY = {"simple_python": "simple_python", "multiple": "multiple",
                 "parallel": "parallel", "parallel_multiple": "parallel_multiple"}


def dump(out_dir: Path = OUT_DIR) -> int:
    """Step 1: replay the cassettes and write ``replies.jsonl``; returns the number of lines."""
    from toolform.abtest import RECORDED_AB_DATASETS, ab_test, recorded_ab_client
    from toolform.bfcl_arm import bfcl_arm, bfcl_arm_requests, recorded_bfcl_client
    from toolform.datasets import load_dataset

    turns = [bfcl_arm(bfcl_arm_requests(), recorded_bfcl_client(), progress=False),
             ab_test([load_dataset(n) for n in RECORDED_AB_DATASETS], recorded_ab_client(),
                     n=50, progress=False).turns]
    out_dir.mkdir(parents=True, exist_ok=True)
    lines = 0
    with open(out_dir / "replies.jsonl", "w", encoding="utf-8", newline="\n") as out:
        for frame in turns:
            for row in frame.itertuples():
                out.write(json.dumps({
                    "request_id": row.request_id, "category": row.category,
                    "cell": row.cell, "protocol_id": row.protocol_id, "reply": row.reply,
                    "calls_as_written": _as_written(row.reply, row.request_id, row.category,
                                                    row.protocol_id),
                }, ensure_ascii=False) + "\n")
                lines += 1
    return lines


def _as_written(reply: str, request_id: str, category: str, protocol_id: str) -> list[dict]:
    """The calls ToolForm reads from ``reply``, as written, in BFCL's ``{name: args}`` shape."""
    from toolform.datasets import load_dataset
    from toolform.grading import calls_under_rule
    from toolform.protocols import parse_reply

    request = load_dataset(f"bfcl/{category}")[request_id]
    parsed = parse_reply(reply, request.toolset, protocol_id)
    return [{c.name: dict(c.arguments)} for c in calls_under_rule(parsed, request.toolset,
                                                                   "as_written")]


def check(out_dir: Path = OUT_DIR) -> int:
    """Step 2 (bfcl-eval's environment): write ``bfcl_verdicts.jsonl``; returns its lines."""
    import importlib.metadata

    from bfcl_eval.constants.enums import Language, ReturnFormat
    from bfcl_eval.eval_checker.ast_eval.ast_checker import ast_checker
    from bfcl_eval.model_handler.utils import default_decode_ast_prompting
    import bfcl_eval

    data = Path(bfcl_eval.__file__).parent / "data"
    functions, answers = {}, {}
    for category in BFCL_CATEGORY.values():
        for line in (data / f"BFCL_v4_{category}.json").read_text().splitlines():
            row = json.loads(line)
            functions[row["id"]] = row["function"]
        for line in (data / "possible_answer" / f"BFCL_v4_{category}.json").read_text() \
                .splitlines():
            row = json.loads(line)
            answers[row["id"]] = row["ground_truth"]

    def verdict(calls: list, row: dict) -> dict:
        try:
            result = ast_checker(functions[row["request_id"]], calls, answers[row["request_id"]],
                                 Language.PYTHON, BFCL_CATEGORY[row["category"]], CHECKER_MODEL)
        except Exception as exc:  # the checker's own crash is a verdict too: not valid
            return {"valid": False, "error_type": f"checker_crash:{type(exc).__name__}"}
        return {"valid": bool(result["valid"]), "error_type": result.get("error_type", "")}

    version = importlib.metadata.version("bfcl-eval")
    lines = 0
    rows = [json.loads(line) for line in (out_dir / "replies.jsonl").read_text().splitlines()]
    with open(out_dir / "bfcl_verdicts.jsonl", "w", encoding="utf-8", newline="\n") as out:
        for row in rows:
            record = {"request_id": row["request_id"], "cell": row["cell"],
                      "bfcl_eval": version, "graded": verdict(row["calls_as_written"], row)}
            if row["protocol_id"] == "bfcl_python_list":
                try:
                    decoded = default_decode_ast_prompting(row["reply"], ReturnFormat.PYTHON)
                except Exception as exc:  # BFCL counts a reply it cannot decode as wrong
                    record["end_to_end"] = {"valid": False,
                                            "error_type": f"decode:{type(exc).__name__}"}
                else:
                    record["end_to_end"] = verdict(decoded, row)
            out.write(json.dumps(record) + "\n")
            lines += 1
    return lines


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point: ``dump`` or ``check``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("step", choices=("dump", "check"))
    parser.add_argument("--out", type=Path, default=OUT_DIR, help="folder of the two files")
    args = parser.parse_args(argv)
    lines = (dump if args.step == "dump" else check)(args.out)
    print(f"{args.out}: {lines} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
