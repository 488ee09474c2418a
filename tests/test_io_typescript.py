"""toolform.io._typescript: TypeScript declarations read with tree-sitter."""

from __future__ import annotations

import pytest

from toolform.errors import LoaderError
from toolform.io._typescript import from_typescript
from toolform.ir import NO_DEFAULT, ParamIR, TypeIR

S, N, B = TypeIR("string"), TypeIR("number"), TypeIR("boolean")

SOURCE = r'''
/** A postal address. */
interface Address {
  /** Street and number. */
  line1: string;
  city?: string;
  "post-code": string;
}

interface GeoAddress extends Address {
  /**
   * Latitude.
   * @minimum -90
   * @maximum 90
   */
  lat: number;
}

type Unit = "celsius" | 'fahren\'heit';

/**
 * Get the weather
 * for a city.
 *
 * @param city - The city name.
 * @param {number} [days=3] How many days.
 * @param unit Temperature unit.
 */
declare function get_weather(city: string, days?: number, unit?: Unit | null): Promise<string>;

/** Place an order. */
export declare function place_order(params: {
  /** Order lines. */
  items: Array<{ sku: string; quantity: number }>;
  ship_to: GeoAddress | string;
  /**
   * How many parcels.
   * @integer
   * @default 1
   */
  parcels?: number;
  notes: Record<string, string>;
  flags: readonly boolean[];
  point: [number, number];
  mode: 1 | 2 | "auto" | true;
  extra: { [key: string]: number };
}): void;

export function ping(host: string, meta: Partial<Address> & { ttl: number }): boolean {
  return true;
}

namespace functions {
  // The vendor form: one object argument, and `any` as the result.
  type send_message = (_: {
    /** Channel. */
    channel: string,
    text?: string | undefined,
  }) => any;
}
'''


@pytest.fixture(scope="module")
def toolset():
    return from_typescript(SOURCE)


def test_functions_in_source_order(toolset):
    assert toolset.names == ["get_weather", "place_order", "ping", "send_message"]
    assert toolset.source == "<string>"


def test_declare_function_jsdoc_optional_alias_nullable(toolset):
    t = toolset["get_weather"]
    assert t.description == "Get the weather for a city."
    city, days, unit = t.params
    assert city == ParamIR("city", S, "The city name.")
    assert days == ParamIR("days", N, "How many days.", required=False, default=3)
    assert unit == ParamIR("unit", TypeIR("enum", values=("celsius", "fahren'heit"),
                                          nullable=True), "Temperature unit.", required=False)
    assert t.returns == S


def test_one_object_parameter_interfaces_unions_and_tags(toolset):
    t = toolset["place_order"]
    assert t.description == "Place an order."
    assert t.returns is None
    items, ship_to, parcels, notes, flags, point, mode, extra = t.params
    assert items.description == "Order lines."
    assert items.type == TypeIR("array", items=TypeIR("object", fields=(
        ParamIR("sku", S), ParamIR("quantity", N))))
    geo, plain = ship_to.type.options
    assert plain == S
    assert [(f.name, f.required, f.description) for f in geo.fields] == [
        ("line1", True, "Street and number."), ("city", False, ""), ("post-code", True, ""),
        ("lat", True, "Latitude.")]
    assert geo.fields[3].type == TypeIR("number", minimum=-90, maximum=90)
    assert parcels == ParamIR("parcels", TypeIR("integer"), "How many parcels.",
                              required=False, default=1)
    assert notes.type == TypeIR("object", additional=True)
    assert flags.type == TypeIR("array", items=B)
    assert point.type == TypeIR("array", items=N, min_items=2, max_items=2)
    assert mode.type == TypeIR("enum", values=(1, 2, "auto", True))
    assert extra.type == TypeIR("object", additional=True)


def test_function_declaration_intersection_and_partial(toolset):
    t = toolset["ping"]
    host, meta = t.params
    assert host == ParamIR("host", S)
    assert [(f.name, f.required) for f in meta.type.fields] == [
        ("line1", False), ("city", False), ("post-code", False), ("ttl", True)]
    assert t.returns == B


def test_namespace_type_alias_tool(toolset):
    t = toolset["send_message"]
    assert t.params == (ParamIR("channel", S, "Channel."),
                        ParamIR("text", TypeIR("string", nullable=True), required=False))
    assert t.params[1].default is NO_DEFAULT and t.returns is None


def test_reads_a_file_path(tmp_path):
    path = tmp_path / "tools.d.ts"
    path.write_text("declare function f(x: string): void;\n", encoding="utf-8")
    assert from_typescript(path).source == str(path)
    assert from_typescript(str(path)).names == ["f"]


def test_round_trip_through_the_typescript_format():
    from toolform.formats import render
    from toolform.generator import generated_toolset

    def shape(t: TypeIR):  # TypeScript cannot say "integer" without a tag; compare the rest
        if t.kind == "object":
            return "object", tuple((f.name, f.required, shape(f.type)) for f in t.fields)
        if t.kind in ("array", "union"):
            return t.kind, shape(t.items) if t.items else None, tuple(map(shape, t.options))
        return ("number" if t.kind == "integer" else t.kind), t.values

    original = generated_toolset(0)
    back = from_typescript(render(original, "typescript").schema_text)
    assert back.names == original.names
    for a, b in zip(original, back):
        assert a.description == b.description
        assert [(p.name, p.required, shape(p.type)) for p in a.params] == \
               [(p.name, p.required, shape(p.type)) for p in b.params], a.name


@pytest.mark.parametrize("source, tool, path, words", [
    ("declare function broken(a: string, b: ): void;", None, "$", "syntax error"),
    ("declare function f(a: string;\n", None, "$", "syntax error"),
    ("declare function g(x: Missing): void;", "g", "$.x", "unknown type 'Missing'"),
    ("interface Node { next?: Node }\ndeclare function h(n: Node): void;", "h", "$.n.next",
     "refers to itself"),
    ("declare function k(a: string): void;\ndeclare function k(a: number): void;", "k", "$",
     "declared twice"),
    ("declare function m(...xs: string[]): void;", "m", "$.xs", "rest parameters"),
    ("declare function p(o: { run(): void }): void;", "p", "$", "unsupported member"),
    ("interface Box<T> { v: T }\ndeclare function q(b: Box<string>): void;", "q", "$.b",
     "unsupported generic"),
    ("declare function r(x: Record<number, string>): void;", "r", "$.x", "Record keys"),
    ("declare function s(o: {\n  /** @minimum lots */\n  n: number }): void;", "s", "$.n",
     "@minimum needs a number"),
])
def test_malformed_declarations_raise_loader_error(source, tool, path, words):
    with pytest.raises(LoaderError) as info:
        from_typescript(source)
    err = info.value
    assert err.file == "<string>"
    assert err.tool == tool
    assert err.path == path
    assert words in err.reason and "line" in err.reason


def test_malformed_file_names_the_file(tmp_path):
    path = tmp_path / "bad.ts"
    path.write_text("declare function f(a: ): void;", encoding="utf-8")
    with pytest.raises(LoaderError) as info:
        from_typescript(path)
    assert info.value.file == str(path) and "line 1" in str(info.value)
    with pytest.raises(LoaderError, match="cannot read"):
        from_typescript(tmp_path / "missing.ts")
