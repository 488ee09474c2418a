"""Measure how often ToolForm's possible-answers grader agrees with BFCL's own AST checker.

Two sets of calls, graded in two environments, so that ``bfcl-eval`` (and its heavy
dependencies) never becomes a dependency of ToolForm or of its CI:

* **Recorded replies.** ``python datasets/bfcl_agreement.py dump`` (ToolForm's environment)
  replays the committed local-model cassettes (the BFCL arm and the eight-cell A/B test) and
  writes one line per turn to ``tests/fixtures/bfcl_agreement/replies.jsonl``: request id,
  category, protocol, the reply text, and the calls ToolForm's parser read as written, in
  BFCL's ``[{name: {args}}]`` shape.
* **The differential set.** ``python datasets/bfcl_agreement.py perturb`` (ToolForm's
  environment) writes ``perturbed_calls.jsonl``: calls made from BFCL's possible answers by
  small edits, each labelled with its kind (:func:`perturbed_calls`).

``python datasets/bfcl_agreement.py check`` (a separate virtual environment with
``pip install bfcl-eval soundfile``; this step imports nothing from ToolForm) grades both with
``bfcl_eval.eval_checker.ast_eval.ast_checker.ast_checker`` against BFCL's own function
documents and possible answers, and writes ``bfcl_verdicts.jsonl`` and
``perturbed_verdicts.jsonl`` beside them, line for line. Replies asked for in
``bfcl_python_list`` are also decoded by BFCL's own prompting decoder
(``default_decode_ast_prompting``), so for them parser and grader are both compared.

``tests/test_bfcl_agreement.py`` then grades the same calls with ToolForm in CI and compares
with the stored BFCL verdicts; the data card ``tests/fixtures/bfcl_agreement/README.md`` explains
every disagreement.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any, Iterator, Sequence

HERE = Path(__file__).resolve().parent
OUT_DIR = HERE.parent / "tests" / "fixtures" / "bfcl_agreement"
#: The BFCL model whose settings the checker is run with: a prompting (non-FC) model that keeps
#: dots in tool names, as the local model sees them.
CHECKER_MODEL = "qwen3-0.6b"
#: ToolForm dataset category → BFCL test category (the checker dispatches on it).
BFCL_CATEGORY = {"simple_python": "simple_python", "multiple": "multiple",
                 "parallel": "parallel", "parallel_multiple": "parallel_multiple",
                 "live_simple": "live_simple", "live_multiple": "live_multiple"}


def dump(out_dir: Path = OUT_DIR) -> int:
    """Step 1: replay the cassettes and write ``replies.jsonl``; returns the number of lines."""
    from toolform.experiments import recorded_ab, recorded_bfcl_arm

    turns = [recorded_bfcl_arm().turns, recorded_ab().turns]
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


# -- perturbed calls -------------------------------------------------------------------------------
#: BFCL categories whose questions have possible answers and that BFCL grades with its AST checker.
PERTURBED_CATEGORIES = ("simple_python", "multiple", "parallel", "parallel_multiple",
                        "live_simple", "live_multiple")
#: At most this many perturbed calls of one kind per category (a seeded sample).
PER_KIND = 45
SEED = 14


def _first(values: Sequence[Any], pick: int) -> Any:
    return values[pick % len(values)]


def _concrete(gold: Any, *, pick: int = 0, omit: bool = False) -> dict[str, Any]:
    """One acceptable argument set: ``pick``-th value of each argument; omittable ones dropped
    when ``omit`` (and always when they have no value)."""
    return {k: _first(v, pick) for k, v in gold.accepted.items()
            if v and not (omit and k in gold.may_omit)}


def _call(name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return {name: arguments}


def _changed_string(text: str) -> str:
    return text + " extra" if text else "something"


def _recased(text: str) -> str:
    return text.swapcase() if text.swapcase() != text else text + "X"


def _argument_edits(gold: Any, tool: Any, rng: random.Random) -> Iterator[tuple[str, dict]]:
    """(kind, arguments) for one gold call: each kind of single-argument change that applies."""
    base = _concrete(gold)
    params = {p.name: p for p in tool.params}

    def pick(predicate) -> str | None:
        names = [k for k, v in base.items() if predicate(k, v)]
        return rng.choice(names) if names else None

    yield "exact", base
    yield "exact_other_answer", _concrete(gold, pick=-1)
    yield "minimal", _concrete(gold, omit=True)
    key = pick(lambda k, v: type(v) is int)
    if key:
        yield "int_as_float", {**base, key: float(base[key])}
        yield "number_as_string", {**base, key: str(base[key])}
    key = pick(lambda k, v: type(v) is float)
    if key:
        yield "float_as_int", {**base, key: int(base[key])}
        yield "float_changed", {**base, key: base[key] + 1.5}
    key = pick(lambda k, v: type(v) is int)
    if key:
        yield "int_changed", {**base, key: base[key] + 1}
    key = pick(lambda k, v: type(v) is bool)
    if key:
        yield "bool_as_string", {**base, key: str(base[key]).lower()}
        yield "bool_flipped", {**base, key: not base[key]}
    key = pick(lambda k, v: isinstance(v, str) and v.strip())
    if key:
        text = base[key]
        yield "string_case", {**base, key: _recased(text)}
        yield "string_punctuation", {**base, key: text.replace(" ", "-") + "."}
        yield "string_changed", {**base, key: _changed_string(text)}
    required = [k for k in base if params.get(k) is not None and params[k].required]
    if required:
        key = rng.choice(required)
        yield "missing_required", {k: v for k, v in base.items() if k != key}
    optional = [k for k in base if k not in gold.may_omit and params.get(k) is not None
                and not params[k].required]
    if optional:
        key = rng.choice(optional)
        yield "missing_optional", {k: v for k, v in base.items() if k != key}
    omittable = [k for k in gold.accepted if k in gold.may_omit]
    if omittable:
        key = rng.choice(omittable)
        yield "omitted_allowed", {k: v for k, v in base.items() if k != key}
        for kind, empty in (("explicit_empty_string", ""), ("explicit_null", None),
                            ("explicit_empty_list", []), ("explicit_empty_dict", {}),
                            ("explicit_zero", 0)):
            yield kind, {**base, key: empty}
    key = pick(lambda k, v: k not in gold.may_omit and params.get(k) is not None)
    if key:
        yield "explicit_empty_string_not_omittable", {**base, key: ""}
        yield "explicit_null_not_omittable", {**base, key: None}
    extra = [p for p in tool.params if p.name not in gold.accepted]
    if extra:
        p = rng.choice(extra)
        yield "extra_declared_argument", {**base, p.name: p.default if p.has_default else
                                          _plausible(p.type)}
    yield "extra_undeclared_argument", {**base, "extra_argument": "x"}
    key = pick(lambda k, v: isinstance(v, list) and len(v) >= 2 and v != v[::-1])
    if key:
        yield "list_reversed", {**base, key: base[key][::-1]}
    key = pick(lambda k, v: isinstance(v, list) and len(v) >= 1)
    if key:
        yield "list_shortened", {**base, key: base[key][:-1]}
        yield "list_as_its_first_element", {**base, key: base[key][0]}
    key = pick(lambda k, v: isinstance(v, list) and any(isinstance(x, str) and x.strip()
                                                         for x in v))
    if key:
        i = next(i for i, x in enumerate(base[key]) if isinstance(x, str) and x.strip())
        items = list(base[key])
        items[i] = _recased(items[i])
        yield "list_element_case", {**base, key: items}
    key = pick(lambda k, v: isinstance(v, list) and any(type(x) is int for x in v))
    if key:
        yield "list_int_as_float", {**base, key: [float(x) if type(x) is int else x
                                                  for x in base[key]]}
    yield from _dict_edits(base, gold, rng)
    key = pick(lambda k, v: isinstance(v, list) and v and all(isinstance(x, dict) for x in v))
    if key:
        items = [dict(x) for x in base[key]]
        victim = rng.randrange(len(items))
        if items[victim]:
            items[victim].pop(rng.choice(sorted(items[victim])))
            yield "list_of_dicts_key_dropped", {**base, key: items}


def _dict_edits(base: dict[str, Any], gold: Any, rng: random.Random
                ) -> Iterator[tuple[str, dict]]:
    keys = [k for k, v in base.items() if isinstance(v, dict) and v]
    if not keys:
        return
    key = rng.choice(keys)
    value = base[key]
    inner = rng.choice(sorted(value))
    yield "dict_key_dropped", {**base, key: {k: v for k, v in value.items() if k != inner}}
    yield "dict_key_added", {**base, key: {**value, "extra_key": "x"}}
    strings = [k for k, v in value.items() if isinstance(v, str) and v.strip()]
    if strings:
        k = rng.choice(strings)
        yield "dict_value_case", {**base, key: {**value, k: _recased(value[k])}}
        yield "dict_value_changed", {**base, key: {**value, k: _changed_string(value[k])}}
    ints = [k for k, v in value.items() if type(v) is int]
    if ints:
        k = rng.choice(ints)
        yield "dict_int_as_float", {**base, key: {**value, k: float(value[k])}}
    alternatives = [v for v in gold.accepted[key][1:] if isinstance(v, dict)]
    if alternatives:
        yield "dict_other_answer", {**base, key: rng.choice(alternatives)}


def _plausible(t: Any) -> Any:
    """A value of type ``t`` for an argument the gold call does not expect."""
    if t.kind == "enum" and t.values:
        return t.values[0]
    return {"integer": 1, "number": 1.5, "boolean": True, "array": [],
            "object": {}}.get(t.kind, "x")


def _name_edits(name: str, toolset: Any) -> Iterator[tuple[str, str]]:
    yield "name_case", name.upper() if name.upper() != name else name.lower() + "X"
    if "." in name:
        yield "name_dots_as_underscores", name.replace(".", "_")
    elif "_" in name:
        yield "name_underscores_as_dots", name.replace("_", ".")
    others = [t.name for t in toolset if t.name != name]
    if others:
        yield "name_other_tool", others[0]


def _satisfies_both(a: Any, b: Any) -> dict[str, Any] | None:
    """Arguments acceptable to both gold calls (plain equality), or None."""
    out: dict[str, Any] = {}
    for key in dict.fromkeys([*a.accepted, *b.accepted]):
        common = [v for v in a.accepted.get(key, ()) if v in b.accepted.get(key, ())]
        if common:
            out[key] = common[0]
        elif not all(key in g.may_omit or key not in g.accepted for g in (a, b)):
            return None
    return out


def _parallel_edits(golds: Sequence[Any], rng: random.Random) -> Iterator[tuple[str, list]]:
    exact = [_call(g.name, _concrete(g)) for g in golds]
    if len(golds) < 2:
        return
    yield "parallel_reversed", exact[::-1]
    order = list(range(len(golds)))
    rng.shuffle(order)
    yield "parallel_shuffled", [exact[i] for i in order]
    drop = rng.randrange(len(golds))
    yield "parallel_call_dropped", exact[:drop] + exact[drop + 1:]
    yield "parallel_call_repeated", exact + [exact[drop]]
    yield "parallel_call_duplicated_for_another", [exact[0]] + exact[:1] + exact[2:]
    same = [(i, j) for i in range(len(golds)) for j in range(i + 1, len(golds))
            if golds[i].name == golds[j].name]
    if same:
        i, j = rng.choice(same)
        shared = sorted(set(_concrete(golds[i])) & set(_concrete(golds[j])))
        for key in shared:
            if _concrete(golds[i])[key] != _concrete(golds[j])[key]:
                calls = [dict(_concrete(g)) for g in golds]
                calls[i][key], calls[j][key] = calls[j][key], calls[i][key]
                yield "parallel_values_swapped", [_call(g.name, c) for g, c in zip(golds, calls)]
                break
    # several possible matchings: a call that fits two gold calls, and one that fits only
    # the first of them; in one order greedy matching finds a matching, in the other it misses
    for i, j in same:
        both = _satisfies_both(golds[i], golds[j])
        only = next((c for c in (_concrete(golds[i], pick=-1), _concrete(golds[i])) if
                     c != both), None)
        if both is None or only is None:
            continue
        rest = [exact[k] for k in range(len(golds)) if k not in (i, j)]
        first, second = _call(golds[i].name, both), _call(golds[i].name, only)
        yield "parallel_two_matchings_fitting_call_first", [first, second] + rest
        yield "parallel_two_matchings_fitting_call_last", [second, first] + rest


def perturbed_calls(seed: int = SEED, per_kind: int = PER_KIND) -> list[dict[str, Any]]:
    """The differential set: calls derived from BFCL's possible answers by small edits.

    Each request of :data:`PERTURBED_CATEGORIES` gives every applicable kind of edit (a changed
    type, a left-out or explicitly empty argument, a change of case, an extra argument, a list
    in another order, an edited nested dict, a wrong function name, and for parallel requests
    reordered, dropped, repeated and swapped calls and calls with several possible matchings);
    then at most ``per_kind`` of each kind per category are kept, drawn with ``seed``.

    Returns
    -------
    list of dict
        ``{"id", "request_id", "category", "kind", "calls": [{name: arguments}]}``, in a
        stable order.
    """
    from toolform.datasets import load_dataset

    rng = random.Random(seed)
    out: list[dict[str, Any]] = []
    for category in PERTURBED_CATEGORIES:
        by_kind: dict[str, list[dict[str, Any]]] = {}
        for request in load_dataset(f"bfcl/{category}"):
            golds = request.gold
            exact = [_call(g.name, _concrete(g)) for g in golds]
            target = rng.randrange(len(golds))
            gold = golds[target]
            edits: list[tuple[str, list]] = []
            for kind, arguments in _argument_edits(gold, request.toolset[gold.name], rng):
                calls = list(exact)
                calls[target] = _call(gold.name, arguments)
                edits.append((kind, calls))
            for kind, name in _name_edits(gold.name, request.toolset):
                calls = list(exact)
                calls[target] = _call(name, _concrete(gold))
                edits.append((kind, calls))
            edits.extend(_parallel_edits(golds, rng))
            for kind, calls in edits:
                by_kind.setdefault(kind, []).append(
                    {"request_id": request.id, "category": category, "kind": kind,
                     "calls": calls})
        for kind in sorted(by_kind):
            rows = by_kind[kind]
            out.extend(rows if len(rows) <= per_kind else
                       [rows[i] for i in sorted(rng.sample(range(len(rows)), per_kind))])
    return [{"id": f"p{i:05d}", **row} for i, row in enumerate(out)]


def perturb(out_dir: Path = OUT_DIR, seed: int = SEED) -> int:
    """Write ``perturbed_calls.jsonl`` (:func:`perturbed_calls`); returns its lines."""
    rows = perturbed_calls(seed)
    out_dir.mkdir(parents=True, exist_ok=True)
    with open(out_dir / "perturbed_calls.jsonl", "w", encoding="utf-8", newline="\n") as out:
        for row in rows:
            out.write(json.dumps(row, ensure_ascii=False) + "\n")
    return len(rows)


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
    perturbed = out_dir / "perturbed_calls.jsonl"
    if perturbed.exists():
        rows = [json.loads(line) for line in perturbed.read_text().splitlines()]
        with open(out_dir / "perturbed_verdicts.jsonl", "w", encoding="utf-8",
                  newline="\n") as out:
            for row in rows:
                out.write(json.dumps({"id": row["id"], "bfcl_eval": version,
                                      "graded": verdict(row["calls"], row)}) + "\n")
                lines += 1
    return lines


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point: ``dump``, ``perturb`` or ``check``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("step", choices=("dump", "perturb", "check"))
    parser.add_argument("--out", type=Path, default=OUT_DIR, help="folder of the fixtures")
    parser.add_argument("--seed", type=int, default=SEED,
                        help="perturb: the seed of the sample (another seed: another set)")
    args = parser.parse_args(argv)
    if args.step == "perturb":
        lines = perturb(args.out, args.seed)
    else:
        lines = (dump if args.step == "dump" else check)(args.out)
    print(f"{args.out}: {lines} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
