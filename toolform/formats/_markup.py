"""Markup formats: tool listings as XML."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from ..ir import ParamIR, Toolset, TypeIR
from ._common import json_text, prepare, type_label, xml_safe
from ._registry import RenderOptions, register_format

__all__ = ["xml_schema"]

# IR constraint attribute -> XML attribute (JSON Schema's spelling).
_CONSTRAINT_ATTRIBUTES = (("minimum", "minimum"), ("maximum", "maximum"),
                          ("exclusive_minimum", "exclusiveMinimum"),
                          ("exclusive_maximum", "exclusiveMaximum"),
                          ("min_length", "minLength"), ("max_length", "maxLength"),
                          ("min_items", "minItems"), ("max_items", "maxItems"),
                          ("pattern", "pattern"), ("format", "format"))


def _text(value: object) -> str:
    """A JSON value as element text: strings as they are, anything else as JSON."""
    return xml_safe(value if isinstance(value, str) else json_text(value))


def _sub(parent: ET.Element, tag: str, text: str | None = None, **attrs: str) -> ET.Element:
    child = ET.SubElement(parent, tag, {k: xml_safe(v) for k, v in attrs.items()})
    if text is not None:
        child.text = xml_safe(text)
    return child


def _is_plain(t: TypeIR) -> bool:
    """A scalar with nothing to show beyond its type label."""
    return t.kind not in ("object", "array", "enum", "union") and not t.constraints


def _fill(el: ET.Element, t: TypeIR) -> None:
    """Give ``el`` the ``type`` attribute, constraint attributes and structure children of ``t``."""
    el.set("type", type_label(t))
    for attr, name in _CONSTRAINT_ATTRIBUTES:
        value = getattr(t, attr)
        if value is not None:
            el.set(name, xml_safe(value if isinstance(value, str) else json_text(value)))
    if t.kind == "object" and t.additional is not None:
        el.set("additionalProperties", json_text(t.additional))
    if t.kind == "enum":
        values = _sub(el, "enum")
        for v in t.values:
            _sub(values, "value", _text(v))
    elif t.kind == "object":
        for p in t.fields:
            _parameter(el, p)
    elif t.kind == "array" and t.items is not None:
        _fill(_sub(el, "items"), t.items)
    elif t.kind == "union" and not all(_is_plain(o) for o in t.options):
        for o in t.options:
            _fill(_sub(el, "option"), o)


def _parameter(parent: ET.Element, p: ParamIR) -> None:
    el = _sub(parent, "parameter", name=p.name, type=type_label(p.type),
              required=json_text(p.required))
    if p.description:
        _sub(el, "description", p.description)
    _fill(el, p.type)
    if p.has_default:
        _sub(el, "default", json_text(p.default))


@register_format(
    name="XML tool listing",
    family="markup",
    default_protocol="xml_call",
    description=("Each tool as a <tool> element holding its <name>, <description>, a "
                 "<parameters> list of typed <parameter> elements (nested for objects, with "
                 "<items>, <enum> and constraint attributes) and its <returns>, in the style "
                 "many agent prompts list tools."),
    language="xml",
    core=True,
)
def xml_schema(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as one ``<tools>`` XML document.

    Shape::

        <tools>
          <tool>
            <name>search</name>
            <description>...</description>
            <parameters>
              <parameter name="query" type="string" required="true" minLength="1">
                <description>...</description>
              </parameter>
              <parameter name="filter" type="object" required="false">
                <parameter name="start" type="string" required="true" format="date" />
              </parameter>
              <parameter name="tags" type="array" required="false">
                <items type="string" />
              </parameter>
              <parameter name="units" type="string" required="false">
                <enum><value>c</value><value>f</value></enum>
                <default>"c"</default>
              </parameter>
            </parameters>
            <returns type="object">...</returns>
          </tool>
        </tools>

    ``type`` is a JSON-Schema-style label (``string | null``, ``string | integer``); a union
    with any non-scalar option lists each as an ``<option>``. Constraints are attributes with
    JSON Schema's names; defaults are JSON text. All text and attributes are escaped, and
    characters XML 1.0 forbids are replaced with U+FFFD, so the block always parses.

    Parameters
    ----------
    toolset : Toolset
        The tools, in the order shown.
    options : RenderOptions
        Descriptions and return types are shown only when the options ask for them.

    Returns
    -------
    str
        The XML document (no declaration), indented by two spaces.

    Raises
    ------
    RenderError
        When a tool nests past ``options.max_depth``.
    """
    root = ET.Element("tools")
    for tool in prepare(toolset, options):
        el = _sub(root, "tool")
        _sub(el, "name", tool.name)
        if tool.description:
            _sub(el, "description", tool.description)
        params = _sub(el, "parameters")
        for p in tool.params:
            _parameter(params, p)
        if tool.returns is not None:
            _fill(_sub(el, "returns"), tool.returns)
    ET.indent(root, space="  ")
    return ET.tostring(root, encoding="unicode")
