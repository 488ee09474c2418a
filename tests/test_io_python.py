"""toolform.io._python: functions, type hints and docstrings as tools."""

from __future__ import annotations

import dataclasses
import datetime
import enum
import importlib.util
import sys
import textwrap
from typing import Annotated, Any, Literal, Optional, TypedDict, Union

import jsonschema
import pytest
from pydantic import BaseModel, Field
from typing_extensions import NotRequired

from toolform.errors import LoaderError
from toolform.io._python import from_python, tool
from toolform.ir import NO_DEFAULT, ToolCall, TypeIR
from toolform.tiers import tier_estimate


class Unit(enum.Enum):
    CELSIUS = "c"
    FAHRENHEIT = "f"


class Address(TypedDict):
    """A postal address.

    Attributes:
        city: City name.
        postcode: Postal code, when known.
    """

    city: str
    postcode: NotRequired[str]


@dataclasses.dataclass
class Item:
    """One order line.

    Attributes
    ----------
    sku : str
        Product code.
    quantity : int
        How many.
    """

    sku: str
    quantity: int = 1
    tags: list[str] = dataclasses.field(default_factory=list)


class Payment(BaseModel):
    card_token: str = Field(description="Card token from the vault.", pattern="^tok_")
    amount: float = Field(gt=0, description="Amount to charge.")
    currency: Literal["EUR", "USD"] = "EUR"
    save_card: bool = Field(False, alias="saveCard")


@tool
def get_weather(city: str, days: int = 3, unit: Unit = Unit.CELSIUS,
                when: Optional[datetime.date] = None) -> dict[str, Any]:
    """Get the weather forecast for a city.

    Uses the national weather service, then falls back to
    a global model.

    Args:
        city: City name, e.g.
            'Lisbon'.
        days: Days ahead.
        unit: Temperature unit.
        when: First day of the forecast.
    """
    return {"city": city, "days": days}


@tool(name="orders.place", description="Place an order.")
def place_order(items: list[Item], ship_to: Address, payment: Payment,
                priority: Literal["standard", "express", None] = None,
                notes: dict[str, str] | None = None,
                reference: Union[int, str] = 0) -> str:
    """Ignored, because the decorator gives a description.

    Parameters
    ----------
    items : list of Item
        Order lines.
    ship_to : Address
        Where to deliver.
    payment : Payment
        How to pay.
    priority : {"standard", "express"}, optional
        Delivery speed.
    notes : dict, optional
        Free-form notes.
    reference : int or str
        Customer reference.
    """
    return "ORD-1"


@tool
def set_range(low: Annotated[int, "Lower bound."], high: Annotated[int, Field(ge=0, le=100)],
              point: tuple[float, float], labels: set[str]) -> None:
    """Set a range.

    :param low: Ignored when Annotated gives a description.
    :param high: Upper bound, 0 to 100.
    :param point: An x, y pair.
    :param labels: Labels to attach.
    """


def test_google_docstring_scalars_enum_optional_date():
    toolset = from_python(get_weather)
    t = toolset["get_weather"]
    assert t.description == ("Get the weather forecast for a city.\n\nUses the national weather "
                             "service, then falls back to a global model.")
    city, days, unit, when = t.params
    assert (city.type, city.required, city.description) == \
        (TypeIR("string"), True, "City name, e.g. 'Lisbon'.")
    assert (days.type, days.required, days.default) == (TypeIR("integer"), False, 3)
    assert unit.type == TypeIR("enum", values=("c", "f")) and unit.default == "c"
    assert when.type == TypeIR("string", format="date", nullable=True)
    assert when.default is None and not when.required
    assert t.returns == TypeIR("object", additional=True)
    assert toolset.executors["get_weather"](city="Lisbon") == {"city": "Lisbon", "days": 3}


def test_numpy_docstring_typeddict_dataclass_pydantic_literal_union():
    t = from_python([place_order])["orders.place"]
    assert t.description == "Place an order."
    items, ship_to, payment, priority, notes, reference = t.params
    assert items.description == "Order lines."
    item = items.type.items
    assert [f.name for f in item.fields] == ["sku", "quantity", "tags"]
    assert [f.required for f in item.fields] == [True, False, False]
    assert item.fields[0].description == "Product code."
    assert item.fields[1].default == 1 and item.fields[2].default is NO_DEFAULT
    assert item.fields[2].type == TypeIR("array", items=TypeIR("string"))
    assert [(f.name, f.required, f.description) for f in ship_to.type.fields] == \
        [("city", True, "City name."), ("postcode", False, "Postal code, when known.")]
    card, amount, currency, save = payment.type.fields
    assert card.type == TypeIR("string", pattern="^tok_")
    assert card.description == "Card token from the vault."
    assert amount.type == TypeIR("number", exclusive_minimum=0)
    assert currency.type == TypeIR("enum", values=("EUR", "USD")) and currency.default == "EUR"
    assert (save.name, save.default, save.required) == ("saveCard", False, False)
    assert priority.type == TypeIR("enum", values=("standard", "express"), nullable=True)
    assert notes.type == TypeIR("object", additional=True, nullable=True)
    assert reference.type == TypeIR("union", options=(TypeIR("integer"), TypeIR("string")))
    assert t.returns == TypeIR("string")
    assert tier_estimate(t) == 4  # items → fields is depth 1, one union, Payment objects
    schema = t.input_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.validate({"items": [{"sku": "A1"}], "ship_to": {"city": "Porto"},
                         "payment": {"card_token": "tok_1", "amount": 3.5}}, schema)


def test_rest_docstring_annotated_tuple_set():
    t = from_python(set_range)["set_range"]
    low, high, point, labels = t.params
    assert low.description == "Lower bound."
    assert high.type == TypeIR("integer", minimum=0, maximum=100)
    assert high.description == "Upper bound, 0 to 100."
    assert point.type == TypeIR("array", items=TypeIR("number"), min_items=2, max_items=2)
    assert labels.type == TypeIR("array", items=TypeIR("string"))
    assert t.returns is None and t.description == "Set a range."


def test_module_gives_its_tool_functions_in_order():
    toolset = from_python(sys.modules[__name__])
    assert toolset.names == ["get_weather", "orders.place", "set_range"]
    assert toolset.source == __name__
    assert toolset.executors["orders.place"] is place_order


def test_module_without_decorators_gives_public_functions(tmp_path):
    path = tmp_path / "plain_tools.py"
    path.write_text(textwrap.dedent('''
        def ping(host: str) -> bool:
            """Ping a host."""
            return True

        def _helper() -> None:
            pass

        def echo(text: str, times: int = 1) -> str:
            """Echo text."""
            return text * times
    '''))
    spec = importlib.util.spec_from_file_location("plain_tools", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    toolset = from_python(module)
    assert toolset.names == ["ping", "echo"]
    call = ToolCall("echo", {"text": "ab", "times": 2})
    assert toolset.executors[call.name](**call.arguments) == "abab"


@dataclasses.dataclass
class Node:
    value: int
    child: Optional[Node] = None


class Opaque:
    pass


def _recursive(node: Node) -> None:
    """Walk a tree."""


def _variadic(*names: str) -> None:
    """Take many names."""


def _bad_default(when: datetime.datetime = datetime.datetime(2026, 1, 1)) -> None:
    """A default that is not JSON."""


def _opaque(thing: list[Opaque]) -> None:
    """An annotation with no IR form."""


def _int_keys(table: dict[int, str]) -> None:
    """Mapping keys must be strings."""


@pytest.mark.parametrize("func, path, words", [
    (_recursive, "$.node.child", "refers to itself"),
    (_variadic, "$.names", "*args"),
    (_bad_default, "$.when", "not a JSON value"),
    (_opaque, "$.thing[]", "no IR type"),
    (_int_keys, "$.table", "keys must be str"),
])
def test_bad_functions_raise_loader_error_with_file_tool_and_path(func, path, words):
    with pytest.raises(LoaderError) as info:
        from_python(func)
    err = info.value
    assert err.file == __file__
    assert err.tool == func.__name__
    assert err.path == path
    assert words in err.reason


def test_duplicate_names_and_non_functions():
    with pytest.raises(LoaderError, match="duplicate tool name 'get_weather'"):
        from_python([get_weather, get_weather])
    with pytest.raises(LoaderError, match="a function, a list of functions or a module"):
        from_python(42)


def test_decorator_reports_errors_at_definition():
    with pytest.raises(LoaderError) as info:
        @tool
        def broken(x: Opaque) -> None:
            """Broken."""
    assert info.value.tool == "broken" and info.value.path == "$.x"
