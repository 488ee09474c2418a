"""Hand-built toolsets for the format tests: one per complexity tier, an awkward one, a deep one,
a recursive one and one of maps.

Tiers follow the study's definitions (``tiers.json``): 1 flat required scalars; 2 an enum, an
optional parameter and a constraint; 3 one nested object and an array of objects; 4 depth 2 and
a union; 5 depth 3, two unions, two arrays, three enums, six optional parameters.
"""

from __future__ import annotations

import functools
from pathlib import Path

from toolform.ir import ParamIR, ToolIR, Toolset, TypeIR

#: The real MCP catalogues the repository ships: one IR JSON file per server (the same
#: ``tools/list`` captures the study used), ``datasets/mcp/<server>.json``.
REAL_MCP = Path(__file__).resolve().parents[1] / "datasets" / "mcp"
REAL_SERVERS = sorted(p.stem for p in REAL_MCP.glob("*.json") if p.stem != "catalogue")

S = TypeIR("string")
I = TypeIR("integer")
N = TypeIR("number")
B = TypeIR("boolean")


def obj(*fields: ParamIR, **kw: object) -> TypeIR:
    return TypeIR("object", fields=fields, **kw)


def enum(*values: object) -> TypeIR:
    return TypeIR("enum", values=values)


def tier1() -> Toolset:
    return Toolset((
        ToolIR("get_weather", "Current weather for a city.",
               (ParamIR("city", S, "City name, e.g. Paris."),)),
        ToolIR("add", "Add two integers.", (ParamIR("a", I, "First term."),
                                            ParamIR("b", I, "Second term.")), returns=I),
    ), source="tier1")


def tier2() -> Toolset:
    return Toolset((
        ToolIR("convert_temperature", "Convert a temperature between units.", (
            ParamIR("value", N, "The temperature."),
            ParamIR("unit", enum("celsius", "fahrenheit", "kelvin"), "Target unit."),
            ParamIR("precision", TypeIR("integer", minimum=0, maximum=6), "Decimal places.",
                    required=False, default=2),
        ), returns=N),
        ToolIR("search_books", "Search a library catalogue.", (
            ParamIR("query", TypeIR("string", min_length=1, max_length=200), "Words to find."),
            ParamIR("available_only", B, "Only books on the shelf.", required=False),
        )),
    ), source="tier2")


def tier3() -> Toolset:
    address = obj(ParamIR("street", S, "Street and number."),
                  ParamIR("city", S, "City."),
                  ParamIR("postcode", TypeIR("string", pattern=r"^\d{5}$"), "Five digits.",
                          required=False))
    line = obj(ParamIR("sku", S, "Stock code."),
               ParamIR("quantity", TypeIR("integer", minimum=1), "How many."))
    return Toolset((
        ToolIR("create_order", "Place an order for delivery.", (
            ParamIR("customer_id", S, "The customer."),
            ParamIR("address", address, "Where to deliver."),
            ParamIR("lines", TypeIR("array", items=line, min_items=1), "What to deliver."),
            ParamIR("speed", enum("standard", "express"), "Delivery speed.", required=False,
                    default="standard"),
        ), returns=obj(ParamIR("order_id", S), ParamIR("total", N))),
    ), source="tier3")


def tier4() -> Toolset:
    window = obj(ParamIR("start", TypeIR("string", format="date"), "First day."),
                 ParamIR("end", TypeIR("string", format="date"), "Last day.", required=False))
    filt = obj(ParamIR("window", window, "Date range."),
               ParamIR("status", enum("open", "closed"), "Ticket status.", required=False))
    return Toolset((
        ToolIR("list_tickets", "List support tickets.", (
            ParamIR("project", TypeIR("union", options=(S, I)), "Project key or numeric id."),
            ParamIR("filter", filt, "Which tickets."),
            ParamIR("labels", TypeIR("array", items=S), "Labels to match.", required=False),
            ParamIR("sort", enum("created", "updated"), "Sort key.", required=False),
            ParamIR("limit", TypeIR("integer", minimum=1, maximum=100), "Page size.",
                    required=False, default=20),
        )),
    ), source="tier4")


def tier5() -> Toolset:
    leaf = obj(ParamIR("unit", enum("m", "km", "mi"), "Distance unit."),
               ParamIR("value", TypeIR("number", exclusive_minimum=0), "Distance."))
    middle = obj(ParamIR("radius", leaf, "Search radius."),
                 ParamIR("centre", TypeIR("union", options=(S, obj(
                     ParamIR("lat", TypeIR("number", minimum=-90, maximum=90)),
                     ParamIR("lon", TypeIR("number", minimum=-180, maximum=180))))),
                     "Place name or coordinates."))
    outer = obj(ParamIR("area", middle, "Where."),
                ParamIR("open_now", B, "Only places open now.", required=False))
    stop = obj(ParamIR("name", S), ParamIR("minutes", I, required=False))
    return Toolset((
        ToolIR("plan_trip", "Plan a trip with stops.", (
            ParamIR("origin", S, "Start."),
            ParamIR("where", outer, "Search area."),
            ParamIR("stops", TypeIR("array", items=stop, max_items=10), "Stops on the way."),
            ParamIR("mode", enum("car", "bike", "walk"), "Travel mode.", required=False),
            ParamIR("avoid", TypeIR("array", items=enum("tolls", "ferries")), "What to avoid.",
                    required=False),
            ParamIR("budget", TypeIR("union", options=(N, TypeIR("string")), nullable=True),
                    "Money or 'any'.", required=False, default=None),
            ParamIR("notes", S, "Free text.", required=False),
            ParamIR("party_size", TypeIR("integer", minimum=1), "People.", required=False,
                    default=1),
            ParamIR("return_trip", B, "Come back too.", required=False, default=False),
        ), returns=TypeIR("array", items=S)),
    ), source="tier5")


def awkward() -> Toolset:
    """Names and text that break naive renderers."""
    nasty = 'Say <b>"hi"</b> & \'bye\' | pipe\nsecond line */ """ \\ end'
    return Toolset((
        ToolIR("math.factorial", "Factorial of n.\nExact for n <= 20.", (
            ParamIR("n", TypeIR("integer", minimum=0), "A non-negative integer."),
            ParamIR("type", enum("exact", "gamma"), "Method.", required=False),
            ParamIR("class", S, "A keyword as a name.", required=False),
        )),
        ToolIR("API-post-page", "", (
            ParamIR("page-id", S, ""),
            ParamIR("body", obj(ParamIR("class", S, nasty), ParamIR("x-y|z", I, required=False),
                                ParamIR("ok", B)), nasty),
        )),
        ToolIR("météo_prévision", "Prévision météo à 3 jours — «ville».", (
            ParamIR("ville", S, "Nom de la ville: Zürich, 東京."),
            ParamIR("unités", enum("°C", "°F", "a|b", 'q"uote'), "Unités.", required=False,
                    default="°C"),
        )),
        ToolIR("a&b<c>", nasty, (ParamIR('x"y', S, nasty, required=False, default=nasty),)),
        ToolIR("no_params", "Takes nothing."),
        ToolIR("odd_types", "Types with nothing in them.", (
            ParamIR("nothing", TypeIR("enum"), required=False),
            ParamIR("anything", TypeIR("any")),
            ParamIR("free", TypeIR("object"), required=False),
            ParamIR("maybe", TypeIR("integer", nullable=True)),
            ParamIR("nil", TypeIR("null"), required=False),
            ParamIR("untyped_list", TypeIR("array"), required=False),
            ParamIR("strict", obj(ParamIR("k", S), additional=False), required=False),
        )),
        ToolIR("delete", "A reserved word in TypeScript.", (ParamIR("def", I),)),
    ), source="awkward")


def deep(levels: int = 50) -> Toolset:
    """A tool whose one parameter nests objects ``levels`` deep."""
    t = S
    for i in range(levels):
        t = obj(ParamIR(f"level{i}", t))
    return Toolset((ToolIR("deep", "Too deep.", (ParamIR("root", t),)),), source="deep")


def ref(name: str, **kw: object) -> TypeIR:
    return TypeIR("ref", ref=name, **kw)


def recursive() -> Toolset:
    """Recursive types: a JSON value (a map of itself among its options), a filter whose
    fields hold filters, and a tree that only a return type uses."""
    json_value = TypeIR("union", options=(S, N, B, TypeIR("array", items=ref("JsonValue")),
                                          TypeIR("object", value_type=ref("JsonValue"))),
                        nullable=True, name="JsonValue")
    filt = obj(ParamIR("field", S, "Field to test.", required=False),
               ParamIR("equals", S, "Value the field must equal.", required=False),
               ParamIR("all_of", TypeIR("array", items=ref("Filter")),
                       "Filters that must all hold.", required=False),
               ParamIR("negate", ref("Filter", nullable=True), "A filter that must not hold.",
                       required=False), name="Filter")
    tree = obj(ParamIR("label", S, "Node label."),
               ParamIR("children", TypeIR("array", items=ref("Tree")), "Child nodes.",
                       required=False), name="Tree")
    return Toolset((
        ToolIR("set_value", "Store a JSON value under a key.", (
            ParamIR("key", S, "Where to store it."),
            ParamIR("value", json_value, "Any JSON value."))),
        ToolIR("search_records", "Search records with a filter.", (
            ParamIR("filter", filt, "Which records."),
            ParamIR("limit", TypeIR("integer", minimum=1), "Page size.", required=False,
                    default=10))),
        ToolIR("directory_tree", "The tree below a directory.",
               (ParamIR("path", S, "The directory."),), returns=tree),
    ), source="recursive")


def maps() -> Toolset:
    """Map types: schema-valued additionalProperties, patternProperties, propertyNames."""
    return Toolset((
        ToolIR("tag_resource", "Set labels and quotas on a resource.", (
            ParamIR("resource", S, "Resource id."),
            ParamIR("labels", TypeIR("object", value_type=S), "Label values by label name."),
            ParamIR("quotas", TypeIR("object", value_type=TypeIR("integer", minimum=0),
                                     key_type=TypeIR("string", pattern="^[a-z_]+$")),
                    "Quota per resource kind.", required=False),
            ParamIR("env", TypeIR("object", pattern_types=(("^[A-Z_][A-Z0-9_]*$", S),),
                                  additional=False), "Environment variables.",
                    required=False),
            ParamIR("headers", obj(ParamIR("content_type", S, "Media type.", required=False),
                                   value_type=S), "HTTP headers.", required=False),
        ), returns=TypeIR("object", value_type=obj(ParamIR("applied", B, "Whether it took.")))),
    ), source="maps")


TIERS = {"tier1": tier1, "tier2": tier2, "tier3": tier3, "tier4": tier4, "tier5": tier5}
def generated() -> Toolset:
    """The project's generated toolset (93 tools, tiers 1 to 5), seed 0."""
    from toolform.generator import generated_toolset

    return generated_toolset(0)


BUILT = {**TIERS, "awkward": awkward, "generated": generated, "recursive": recursive,
         "maps": maps}
#: Every case the format tests run: the built toolsets and ``real:<server>`` for each real
#: catalogue in ``datasets/mcp``.
CASES = [*BUILT, *(f"real:{server}" for server in REAL_SERVERS)]


@functools.lru_cache(maxsize=None)
def load_case(case: str) -> Toolset:
    """A test toolset by id: a built one, or ``real:<server>`` from ``datasets/mcp``."""
    if not case.startswith("real:"):
        return BUILT[case]()
    from toolform.io import load_tools

    return load_tools(REAL_MCP / f"{case[5:]}.json")


def shown(toolset: Toolset, fmt: str) -> Toolset:
    """What format ``fmt`` shows of ``toolset``: the toolset itself for a format with named
    types, else its plain form (recursive types unrolled, maps with stand-in keys; grammars
    keep maps open)."""
    from toolform.formats import get_format
    from toolform.formats._common import plain_toolset

    spec = get_format(fmt)
    if spec.named_types and spec.family != "grammar":
        return toolset
    # a grammar's calls: recursion to any depth, maps open; these examples stay shallow
    return plain_toolset(toolset, stand_in_keys=spec.family != "grammar" or fmt in (
        "typed_lambda", "symbolic_compressed"))

