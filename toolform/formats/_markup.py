"""Markup formats: tool listings as XML (elements or attributes), XML Schema, HTML forms,
Markdown API documentation, REST endpoint listings and curl examples.

The XML formats build trees with ElementTree, which escapes every name and text, so a block
always parses. The documentation formats (``markdown_docs``, ``rest_endpoints``) share one
parameter walker (:func:`parameter_lines`): a line per parameter, nested fields, array items'
fields and union options indented below it.

Recursive and map types (see ``toolform.ir``): all of them show a recursive type unrolled to
``RenderOptions.recursion_depth`` levels (default 2; the innermost references become ``any``)
and a map as an object with one stand-in key per kind of key (``<key>``,
``<key matching the pattern P>``) holding the values' type (``_common.plain_type``).
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from typing import Any, Callable, Sequence
from urllib.parse import quote

from ..ir import ParamIR, ToolIR, Toolset, TypeIR
from ._common import (COMPACT, ascii_identifier, comment_lines, constraint_phrases,
                      example_value, json_text, one_line, prepare, type_label, unique_name,
                      xml_safe)
from ._registry import RenderOptions, register_format

__all__ = ["curl_examples", "example_bodies", "example_body", "html_forms", "markdown_docs",
           "parameter_lines", "rest_endpoints", "xml_attributes", "xml_schema", "xsd"]

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
    returns="The XML document (no declaration), indented by two spaces.",
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


# -- XML with attributes -------------------------------------------------------------------------

def _enum_attribute(values: Sequence[Any]) -> str:
    """Enum values as one attribute: ``a|b`` for strings without ``|``, else a JSON list."""
    if values and all(isinstance(v, str) and "|" not in v and v for v in values):
        return "|".join(values)
    return json.dumps(list(values), ensure_ascii=False)


def _scalar_items(t: TypeIR) -> bool:
    return t.kind not in ("object", "array", "union") or (t.kind == "object" and not t.fields)


def _attr_fill(el: ET.Element, t: TypeIR) -> None:
    """Attributes and children of ``t`` in the attribute style."""
    el.set("type", type_label(t))
    if t.kind == "enum":
        el.set("enum", xml_safe(_enum_attribute(t.values)))
    for attr, name in _CONSTRAINT_ATTRIBUTES:
        value = getattr(t, attr)
        if value is not None:
            el.set(name, xml_safe(value if isinstance(value, str) else json_text(value)))
    if t.kind == "object" and t.additional is not None:
        el.set("additionalProperties", json_text(t.additional))
    if t.kind == "object":
        for p in t.fields:
            _attr_param(el, p)
    elif t.kind == "array" and t.items is not None:
        if _scalar_items(t.items) and not t.items.constraints and t.items.kind != "enum":
            el.set("items", type_label(t.items))
        elif t.items.kind == "object":
            el.set("items", type_label(t.items))
            for p in t.items.fields:
                _attr_param(el, p)
        else:
            _attr_fill(_sub(el, "items"), t.items)
    elif t.kind == "union" and not all(_is_plain(o) for o in t.options):
        for o in t.options:
            _attr_fill(_sub(el, "option"), o)


def _attr_param(parent: ET.Element, p: ParamIR) -> None:
    el = _sub(parent, "param", name=p.name)
    _attr_fill(el, p.type)
    # name first, then type, then the rest: ElementTree keeps insertion order
    el.set("required", json_text(p.required))
    if p.has_default:
        el.set("default", xml_safe(json_text(p.default)))
    if p.description:
        el.set("description", xml_safe(p.description))


@register_format(
    name="XML tool listing in attributes",
    family="markup",
    default_protocol="xml_call",
    description=("The XML tool listing with everything moved into attributes: a <tool> element "
                 "per tool and one <param> element per parameter whose attributes carry name, "
                 "type, enum, constraints, required, default and description; nested fields as "
                 "child <param> elements."),
    language="xml",
    compressed=True,
    returns="The XML document (no declaration), indented by two spaces.",
)
def xml_attributes(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as XML where each parameter is one element with attributes.

    Shape::

        <tools>
          <tool name="create_order" description="Place an order.">
            <param name="customer_id" type="string" required="true" description="..." />
            <param name="lines" type="array" minItems="1" items="object" required="true">
              <param name="sku" type="string" required="true" />
            </param>
            <param name="speed" type="string" enum="standard|express" required="false"
                   default="&quot;standard&quot;" />
            <returns type="number" />
          </tool>
        </tools>

    ``type`` is a JSON-Schema-style label; ``enum`` is ``a|b`` when every value is a string
    without ``|``, else a JSON list; ``default`` is JSON text; constraints use JSON Schema's
    names. The fields of an object, or of the objects an array holds (``items="object"``),
    are child ``<param>`` elements; other non-scalar items are an ``<items>`` child and a
    union with an object option has one ``<option>`` child per option. Text is escaped and
    characters XML 1.0 forbids are replaced with U+FFFD.
    """
    root = ET.Element("tools")
    for tool in prepare(toolset, options):
        el = _sub(root, "tool", name=tool.name)
        if tool.description:
            el.set("description", xml_safe(tool.description))
        for p in tool.params:
            _attr_param(el, p)
        if tool.returns is not None:
            _attr_fill(_sub(el, "returns"), tool.returns)
    ET.indent(root, space="  ")
    return ET.tostring(root, encoding="unicode")


# -- XML Schema ----------------------------------------------------------------------------------

_XSD_NAMESPACE = "http://www.w3.org/2001/XMLSchema"
#: Namespace of the attributes that carry what XSD has no facet for (true names, JSON
#: Schema patterns and formats, defaults that are not simple values).
_TOOLFORM_NAMESPACE = "urn:toolform:schema"
_XSD_TYPES = {"string": "xs:string", "integer": "xs:integer", "number": "xs:double",
              "boolean": "xs:boolean", "any": "xs:anyType"}
_XSD_FACETS = (("minimum", "minInclusive"), ("exclusive_minimum", "minExclusive"),
               ("maximum", "maxInclusive"), ("exclusive_maximum", "maxExclusive"),
               ("min_length", "minLength"), ("max_length", "maxLength"))


def _ncname(name: str) -> bool:
    """Whether ``name`` can be an XML element name without a prefix (an NCName)."""
    return bool(name) and (name[0].isalpha() or name[0] == "_") and all(
        ch.isalnum() or ch in "._-" for ch in name) and xml_safe(name) == name


def _xsd_lexical(value: Any) -> str:
    """A scalar as XSD writes it (``true``, ``2``, ``2.5``, text)."""
    return value if isinstance(value, str) else json_text(value)


def _xsd_default_ok(value: Any, t: TypeIR) -> bool:
    """Whether ``value`` can be an XSD ``default`` of the simple type of ``t``."""
    if t.kind == "enum":
        return value in t.values and value is not None and not isinstance(value, (list, dict))
    checks = {"string": isinstance(value, str), "boolean": isinstance(value, bool),
              "integer": isinstance(value, int) and not isinstance(value, bool),
              "number": isinstance(value, (int, float)) and not isinstance(value, bool)}
    if not checks.get(t.kind, False):
        return False
    if isinstance(value, str):
        size = len(value)
        return (t.min_length is None or size >= t.min_length) and (
            t.max_length is None or size <= t.max_length) and t.pattern is None
    if isinstance(value, bool):
        return True
    return all(ok for ok in ((t.minimum is None or value >= t.minimum),
                             (t.maximum is None or value <= t.maximum),
                             (t.exclusive_minimum is None or value > t.exclusive_minimum),
                             (t.exclusive_maximum is None or value < t.exclusive_maximum)))


def _xs(parent: ET.Element, tag: str, **attrs: str) -> ET.Element:
    return ET.SubElement(parent, f"xs:{tag}", {k.replace("__", ":"): xml_safe(v)
                                               for k, v in attrs.items()})


def _xsd_doc(el: ET.Element, lines: list[str]) -> None:
    if lines:
        doc = _xs(_xs(el, "annotation"), "documentation")
        doc.text = xml_safe("\n".join(lines))


def _xsd_simple(parent: ET.Element, t: TypeIR) -> None:
    """An inline ``xs:simpleType`` for a scalar with facets or an enum."""
    simple = _xs(parent, "simpleType")
    values = [v for v in t.values if v is not None] if t.kind == "enum" else []
    base = _XSD_TYPES[t.enum_base() if t.kind == "enum" else t.kind]
    restriction = _xs(simple, "restriction", base=base)
    for attr, facet in _XSD_FACETS:
        value = getattr(t, attr)
        if value is not None:
            _xs(restriction, facet, value=json_text(value))
    for v in values:
        _xs(restriction, "enumeration", value=_xsd_lexical(v))


def _xsd_type(el: ET.Element, t: TypeIR, path: str) -> None:
    """Give the element ``el`` the type of ``t`` (a ``type`` attribute or an inline type)."""
    if t.nullable or t.kind == "null" or (t.kind == "enum" and None in t.values):
        el.set("nillable", "true")
    for attr in ("pattern", "format"):
        if getattr(t, attr) is not None:
            el.set(f"tf:{attr}", xml_safe(getattr(t, attr)))
    if t.kind == "null":
        _xs(el, "complexType")
    elif t.kind == "any":
        el.set("type", "xs:anyType")
    elif t.kind == "enum" or (t.kind in _XSD_TYPES and any(
            getattr(t, a) is not None for a, _ in _XSD_FACETS)):
        _xsd_simple(el, t)
    elif t.kind in _XSD_TYPES:
        el.set("type", _XSD_TYPES[t.kind])
    elif t.kind == "array":
        seq = _xs(_xs(el, "complexType"), "sequence")
        item = _xs(seq, "element", name="item", minOccurs=str(t.min_items or 0),
                   maxOccurs=str(t.max_items) if t.max_items is not None else "unbounded")
        if t.items is None:
            item.set("type", "xs:anyType")
        else:
            _xsd_type(item, t.items, path + "[]")
    elif t.kind == "object" and t.fields:
        group = _xs(_xs(el, "complexType"), "all")
        _xsd_fields(group, t.fields, path)
    elif t.kind == "object":
        seq = _xs(_xs(el, "complexType"), "sequence")
        _xs(seq, "any", processContents="lax", minOccurs="0", maxOccurs="unbounded")
    elif t.options and all(o.kind == "enum" or (o.kind in _XSD_TYPES and o.kind != "any")
                           for o in t.options):
        union = _xs(_xs(el, "simpleType"), "union")
        plain = [_XSD_TYPES[o.kind] for o in t.options if o.kind != "enum" and not any(
            getattr(o, a) is not None for a, _ in _XSD_FACETS)]
        if plain:
            union.set("memberTypes", " ".join(dict.fromkeys(plain)))
        for o in t.options:
            if o.kind == "enum" or any(getattr(o, a) is not None for a, _ in _XSD_FACETS):
                _xsd_simple(union, o)
    else:
        choice = _xs(_xs(el, "complexType"), "choice")
        taken: set[str] = set()
        for i, o in enumerate(t.options, 1):
            label = unique_name(o.enum_base() if o.kind == "enum" else o.kind, taken)
            _xsd_type(_xs(choice, "element", name=label), o, f"{path}#{i}")


def _xsd_fields(group: ET.Element, fields: Sequence[ParamIR], path: str) -> None:
    taken: set[str] = set()
    for p in fields:
        name = unique_name(p.name if _ncname(p.name) else ascii_identifier(p.name), taken)
        el = _xs(group, "element", name=name)
        if name != p.name:
            el.set("tf:name", xml_safe(p.name))
        if not p.required:
            el.set("minOccurs", "0")
        if p.has_default:
            simple = p.type.kind in ("string", "integer", "number", "boolean", "enum")
            if simple and _xsd_default_ok(p.default, p.type):
                el.set("default", xml_safe(_xsd_lexical(p.default)))
            else:
                el.set("tf:default", xml_safe(json_text(p.default)))
        _xsd_doc(el, comment_lines(p.description))
        _xsd_type(el, p.type, f"{path}.{p.name}")


@register_format(
    name="W3C XML Schema (XSD)",
    family="markup",
    default_protocol="xml_call",
    description=("A formal XML Schema with one global element per tool: an xs:complexType "
                 "whose xs:all holds an xs:element per argument (minOccurs=\"0\" for optional "
                 "ones), xs:restriction facets and xs:enumeration for constraints and enums, "
                 "item elements for arrays, xs:annotation for descriptions."),
    language="xsd",
    returns="The XSD document (no declaration), indented by two spaces.",
)
def xsd(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as an XML Schema document.

    Shape::

        <xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:tf="urn:toolform:schema">
          <xs:element name="create_order">
            <xs:annotation><xs:documentation>Place an order.</xs:documentation></xs:annotation>
            <xs:complexType>
              <xs:all>
                <xs:element name="customer_id" type="xs:string" />
                <xs:element name="lines">
                  <xs:complexType><xs:sequence>
                    <xs:element name="item" minOccurs="1" maxOccurs="unbounded">...
                  </xs:sequence></xs:complexType>
                </xs:element>
                <xs:element name="speed" minOccurs="0" default="standard">
                  <xs:simpleType>
                    <xs:restriction base="xs:string">
                      <xs:enumeration value="standard" /> ...
          <xs:element name="create_order.result" type="xs:double" />

    Arguments are an ``xs:all`` (any order, as in a JSON object); optional ones have
    ``minOccurs="0"``. Integers are ``xs:integer``, numbers ``xs:double``, values of any type
    ``xs:anyType``; bounds and lengths are facets, enums ``xs:enumeration``; an array is an
    element holding ``item`` elements (``minOccurs``/``maxOccurs`` give the item counts); a
    free-form object takes any elements; a union of scalars is an ``xs:union``, one with an
    object an ``xs:choice`` of elements named after each option's kind; null is
    ``nillable="true"``. What XSD has no facet for is an attribute in the ``tf`` namespace:
    ``tf:pattern`` (a JSON Schema pattern, whose dialect differs from XSD's),
    ``tf:format``, ``tf:default`` (JSON text, for a default XSD cannot hold) and
    ``tf:name`` (the true name of an element whose name had to be rewritten to be an
    NCName). A known return type is a global element ``<tool>.result``.
    """
    root = ET.Element("xs:schema", {"xmlns:xs": _XSD_NAMESPACE, "xmlns:tf": _TOOLFORM_NAMESPACE,
                                    "elementFormDefault": "qualified"})
    taken: set[str] = set()
    for tool in prepare(toolset, options):
        name = unique_name(tool.name if _ncname(tool.name) else ascii_identifier(tool.name),
                           taken)
        el = _xs(root, "element", name=name)
        if name != tool.name:
            el.set("tf:name", xml_safe(tool.name))
        _xsd_doc(el, comment_lines(tool.description))
        complex_ = _xs(el, "complexType")
        if tool.params:
            _xsd_fields(_xs(complex_, "all"), tool.params, tool.name)
        if tool.returns is not None:
            result = _xs(root, "element", name=unique_name(f"{name}.result", taken))
            _xsd_doc(result, [f"What {tool.name} returns."])
            _xsd_type(result, tool.returns, f"{tool.name}(result)")
    ET.indent(root, space="  ")
    return ET.tostring(root, encoding="unicode")


# -- HTML forms ----------------------------------------------------------------------------------

_INPUT_TYPES = {"date": "date", "date-time": "datetime-local", "time": "time",
                "email": "email", "uri": "url", "url": "url"}


class _FormWriter:
    """Writes one tool's form as XHTML (every element closed, boolean attributes spelled out)."""

    def __init__(self, tool: str) -> None:
        self.tool = tool
        self.ids: set[str] = set()

    def control_id(self, name: str) -> str:
        return unique_name(re.sub(r"\s", "_", f"{self.tool}.{name}"), self.ids)

    def label(self, parent: ET.Element, text: str, for_id: str | None = None) -> None:
        attrs = {"for": xml_safe(for_id)} if for_id else {}
        label = ET.SubElement(parent, "label", attrs)
        label.text = xml_safe(text)

    def field(self, parent: ET.Element, name: str, label: str, t: TypeIR, p: ParamIR | None
              ) -> None:
        """The control(s) of one value called ``name`` (a bracketed path)."""
        notes = _form_notes(t, p)
        text = label + (f" — {one_line(p.description)}" if p is not None and p.description
                        else "") + (f" ({notes})" if notes else "")
        if t.kind == "object" and t.fields or t.kind == "array" or (
                t.kind == "union" and not all(_is_plain(o) for o in t.options)):
            box = ET.SubElement(parent, "fieldset", {"name": xml_safe(name),
                                                     "data-type": xml_safe(type_label(t))})
            self._common(box, t, p)
            legend = ET.SubElement(box, "legend")
            legend.text = xml_safe(text)
            if t.kind == "object":
                for f in t.fields:
                    self.field(box, f"{name}[{f.name}]", f.name, f.type, f)
            elif t.kind == "array":
                item = t.items if t.items is not None else TypeIR("any")
                self.field(box, f"{name}[]", "each item", item, None)
            else:
                for i, o in enumerate(t.options, 1):
                    self.field(box, name, f"option {i}: {type_label(o)}", o, None)
            return
        cid = self.control_id(name)
        self.label(parent, text, cid)
        if t.kind == "enum" or t.kind == "boolean":
            values = list(t.values) if t.kind == "enum" else [True, False]
            control = ET.SubElement(parent, "select", {"id": cid, "name": xml_safe(name)})
            for v in values:
                option = ET.SubElement(control, "option", {"value": xml_safe(_form_value(v))})
                option.text = xml_safe(_form_value(v))
                if p is not None and p.has_default and p.default == v and type(
                        p.default) is type(v):
                    option.set("selected", "selected")
        elif t.kind in ("any", "object", "union"):
            control = ET.SubElement(parent, "textarea", {"id": cid, "name": xml_safe(name),
                                                         "data-type": xml_safe(type_label(t))})
            control.text = xml_safe(json_text(p.default)) if p is not None and (
                p.has_default) else ""
        else:
            control = ET.SubElement(parent, "input", {"id": cid, "name": xml_safe(name)})
            self._input(control, t, p)
        self._common(control, t, p)

    @staticmethod
    def _input(control: ET.Element, t: TypeIR, p: ParamIR | None) -> None:
        if t.kind == "null":
            control.set("type", "hidden")
            control.set("value", "null")
            return
        if t.kind in ("integer", "number"):
            control.set("type", "number")
            control.set("step", "1" if t.kind == "integer" else "any")
            for attr, html in (("minimum", "min"), ("maximum", "max")):
                if getattr(t, attr) is not None:
                    control.set(html, json_text(getattr(t, attr)))
        else:
            control.set("type", _INPUT_TYPES.get(t.format or "", "text"))
            for attr, html in (("min_length", "minlength"), ("max_length", "maxlength")):
                if getattr(t, attr) is not None:
                    control.set(html, str(getattr(t, attr)))
            if t.pattern is not None:
                control.set("pattern", xml_safe(t.pattern))
        if p is not None and p.has_default:
            control.set("value", xml_safe(_form_value(p.default)))

    @staticmethod
    def _common(el: ET.Element, t: TypeIR, p: ParamIR | None) -> None:
        if p is not None and p.required:
            el.set("required", "required")
        if t.nullable:
            el.set("data-nullable", "true")
        for attr, key in (("exclusive_minimum", "data-exclusive-minimum"),
                          ("exclusive_maximum", "data-exclusive-maximum"),
                          ("min_items", "data-min-items"), ("max_items", "data-max-items")):
            if getattr(t, attr) is not None:
                el.set(key, json_text(getattr(t, attr)))
        if t.format is not None and t.format not in _INPUT_TYPES:
            el.set("data-format", xml_safe(t.format))


def _form_value(value: Any) -> str:
    """A value as form text: strings as they are, everything else as JSON."""
    return value if isinstance(value, str) else json_text(value)


def _form_notes(t: TypeIR, p: ParamIR | None) -> str:
    words = [] if p is None else ["required" if p.required else "optional"]
    if p is not None and p.has_default and not isinstance(p.default, str):
        words.append(f"default {json_text(p.default)}")
    return ", ".join(words)


@register_format(
    name="An HTML form per tool",
    family="markup",
    default_protocol="url_call",
    description=("Each tool as an HTML <form> whose controls are the arguments: typed <input> "
                 "elements with required, min, max, minlength, maxlength and pattern, <select> "
                 "for enums and booleans, <fieldset> for nested objects and arrays, and "
                 "<label> text for names and descriptions."),
    language="html",
    novel=True,
    returns="The forms, one after another.",
)
def html_forms(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as HTML forms (well-formed XHTML fragments, one ``<form>`` per tool).

    Shape::

        <form name="create_order" action="/create_order" method="post">
          <p>Place an order.</p>
          <label for="create_order.customer_id">customer_id — The customer. (required)</label>
          <input id="create_order.customer_id" name="customer_id" type="text" required="required" />
          <fieldset name="lines" data-type="array" required="required" data-min-items="1">
            <legend>lines — What to deliver. (required)</legend>
            <fieldset name="lines[]" data-type="object">
              <legend>each item</legend>
              <label for="...">sku (required)</label>
              <input id="..." name="lines[][sku]" type="text" required="required" />
            </fieldset>
          </fieldset>
          <label for="create_order.speed">speed — Delivery speed. (optional)</label>
          <select id="create_order.speed" name="speed">
            <option value="standard" selected="selected">standard</option> ...
          </select>
          <output name="result" data-type="number">returns number</output>
        </form>

    Control names are the argument names, nested ones in brackets (``address[street]``,
    ``lines[][sku]``). Strings are ``text`` inputs (``date``, ``email``, ``url``... for known
    formats), integers and numbers ``number`` inputs with ``step`` and ``min``/``max``;
    enums and booleans are ``<select>``; values of any type, free-form objects and unions of
    scalars are ``<textarea data-type=...>`` holding JSON; ``null`` is a hidden input.
    What HTML has no attribute for is a ``data-`` attribute (``data-nullable``,
    ``data-exclusive-minimum``, ``data-min-items``, ``data-format``). The known return type
    is an ``<output>`` in the compact type notation.
    """
    forms = []
    for tool in prepare(toolset, options):
        form = ET.Element("form", {"name": xml_safe(tool.name),
                                   "action": "/" + quote(tool.name, safe=""),
                                   "method": "post"})
        if tool.description:
            para = ET.SubElement(form, "p")
            para.text = xml_safe(tool.description)
        writer = _FormWriter(tool.name)
        for p in tool.params:
            writer.field(form, p.name, p.name, p.type, p)
        if tool.returns is not None:
            out = ET.SubElement(form, "output", {"name": "result",
                                                 "data-type": xml_safe(type_label(tool.returns))})
            out.text = xml_safe("returns " + COMPACT.type(tool.returns))
        ET.indent(form, space="  ")
        forms.append(ET.tostring(form, encoding="unicode", short_empty_elements=True))
    return "\n".join(forms) + "\n"


# -- documentation: Markdown API docs and REST endpoints -----------------------------------------

def _type_words(t: TypeIR) -> str:
    if t.kind == "array":
        text = "array of " + (_type_words(t.items) if t.items is not None else "any")
        return text + " | null" if t.nullable else text
    return type_label(t)


def parameter_lines(fields: Sequence[ParamIR], *, name: Callable[[str], str],
                    value: Callable[[Any], str], indent: str = "", step: str = "  ",
                    bullet: str = "- ") -> list[str]:
    """One line per parameter, its nested fields indented below it.

    A line is ``{bullet}{name} ({type}, required|optional, one of ..., constraints,
    default ...): Description.``. The fields of an object, of the objects an array holds and
    of a union's object options, and a union's enum options with their values (after an
    ``option N (type):`` line) follow one ``step`` deeper.

    Parameters
    ----------
    fields : sequence of ParamIR
        The parameters (or an object's fields).
    name : callable
        Writes a name (a Markdown code span, or the name as is).
    value : callable
        Writes a JSON value (enum values, defaults).
    indent, step, bullet : str
        Indentation of this level, added per level, and the line lead.

    Returns
    -------
    list of str
        The lines.
    """
    lines = []
    for p in fields:
        lines += _doc_lines(p.type, name(p.name), p, name=name, value=value, indent=indent,
                            step=step, bullet=bullet)
    return lines


def _doc_lines(t: TypeIR, head: str, p: ParamIR | None, *, name: Callable[[str], str],
               value: Callable[[Any], str], indent: str, step: str, bullet: str) -> list[str]:
    words = [_type_words(t)]
    if p is not None:
        words.append("required" if p.required else "optional")
    if t.kind == "enum":
        words.append("one of " + ", ".join(value(v) for v in t.values) if t.values
                     else "no value allowed")
    inner = t.items if t.kind == "array" and t.items is not None else None
    if inner is not None and inner.kind == "enum":
        words.append("items one of " + ", ".join(value(v) for v in inner.values))
    words += constraint_phrases(t)
    if inner is not None:
        words += [f"each item {c}" for c in constraint_phrases(inner)]
    if p is not None and p.has_default:
        words.append(f"default {value(p.default)}")
    line = f"{indent}{bullet}{head} ({', '.join(words)})"
    if p is not None and p.description:
        line += f": {one_line(p.description)}"
    lines = [line]
    deeper = dict(name=name, value=value, indent=indent + step, step=step, bullet=bullet)
    target = t
    while target.kind == "array" and target.items is not None:
        target = target.items
    if target.kind == "object":
        lines += parameter_lines(target.fields, **deeper)  # type: ignore[arg-type]
    elif target.kind == "union":
        for i, o in enumerate(target.options, 1):
            enum_like = o.kind == "enum" or (o.kind == "array" and o.items is not None
                                             and o.items.kind == "enum")
            if (o.kind == "object" and o.fields) or enum_like:  # what a type word cannot say
                lines += _doc_lines(o, f"option {i}", None, **deeper)  # type: ignore[arg-type]
    return lines


def _code_span(text: str) -> str:
    """``text`` as a Markdown code span (more backticks than any run inside it)."""
    text = one_line(text)
    fence = "`" * (max((len(m) for m in re.findall("`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") or not text.strip() else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _full_example(t: TypeIR, name: str, variant: int) -> Any:
    """An example value of ``t`` with every field of every object; a union takes its option
    number ``variant`` (modulo the number of options)."""
    if t.kind == "object" and t.fields:
        return {f.name: _full_example(f.type, f.name, variant) for f in t.fields}
    if t.kind == "array" and t.items is not None:
        count = max(t.min_items or 1, 1)
        if t.max_items is not None:
            count = min(count, t.max_items)
        return [_full_example(t.items, name, variant) for _ in range(count)]
    if t.kind == "union" and t.options:
        return _full_example(t.options[variant % len(t.options)], name, variant)
    return example_value(t, name)


def _union_width(t: TypeIR) -> int:
    """The largest number of options of a union in ``t`` (1 when there is none)."""
    widths = [len(t.options)] if t.kind == "union" else [1]
    children = [f.type for f in t.fields] + [o for o in (t.items, *t.options) if o is not None]
    return max(widths + [_union_width(c) for c in children])


def example_body(tool: ToolIR, variant: int = 0) -> dict[str, Any]:
    """Example arguments with every parameter of ``tool`` and every nested field (optional
    ones too), in declaration order; each union takes its option number ``variant``; scalar
    values come from :func:`~toolform.formats._common.example_value` (the first enum value,
    values inside their bounds)."""
    return {p.name: _full_example(p.type, p.name, variant) for p in tool.params}


def example_bodies(tool: ToolIR) -> list[dict[str, Any]]:
    """:func:`example_body` for each option of the widest union in ``tool``'s parameters
    (one body when there is no union), without repeats."""
    width = max([_union_width(p.type) for p in tool.params], default=1)
    out: list[dict[str, Any]] = []
    for variant in range(width):
        body = example_body(tool, variant)
        if body not in out:
            out.append(body)
    return out


def _example_call(tool: ToolIR) -> str:
    return json.dumps({"name": tool.name, "arguments": example_body(tool)}, ensure_ascii=False)


@register_format(
    name="Markdown API reference",
    family="markup",
    default_protocol="json_object",
    description=("Human API documentation in Markdown: a ## heading per tool, its description, "
                 "a bulleted parameter list with types, required or optional, enum values, "
                 "constraints and defaults (nested fields indented), the return type, and a "
                 "JSON example call."),
    language="markdown",
    returns="The Markdown text.",
)
def markdown_docs(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as Markdown API documentation.

    Shape::

        ## create_order

        Place an order.

        **Parameters**

        - `customer_id` (string, required): The customer.
        - `lines` (array of object, required, at least 1 item): What to deliver.
          - `sku` (string, required): Stock code.
        - `speed` (string, optional, one of `"standard"`, `"express"`, default `"standard"`)

        **Returns** `number`

        **Example**

        ```json
        {"name": "create_order", "arguments": {"customer_id": "example customer id", ...}}
        ```

    The example call fills every parameter with a value of its type (:func:`example_body`)
    in the ``json_object`` protocol's shape. Names and values are code spans; descriptions are on one line.
    """
    lines: list[str] = []
    for tool in prepare(toolset, options):
        if lines:
            lines.append("")
        lines.append(f"## {_code_span(tool.name) if '`' in tool.name else one_line(tool.name)}")
        if tool.description:
            lines += ["", *comment_lines(tool.description)]
        lines += ["", "**Parameters**", ""]
        lines += parameter_lines(tool.params, name=_code_span,
                                 value=lambda v: _code_span(json_text(v))) or ["None."]
        if tool.returns is not None:
            lines += ["", f"**Returns** {_code_span(COMPACT.type(tool.returns))}"]
        example = _example_call(tool)
        fence = "`" * max(3, max((len(m) for m in re.findall("`+", example)), default=0) + 1)
        lines += ["", "**Example**", "", f"{fence}json", example, fence]
    return "\n".join(lines) + "\n"


@register_format(
    name="HTTP POST endpoint listing",
    family="markup",
    default_protocol="url_call",
    description=("Each tool as an HTTP endpoint `POST /tool_name` with its description, the "
                 "fields of its JSON request body (type, required or optional, enum values, "
                 "constraints, defaults; nested fields indented) and its response type."),
    language="rest",
    returns="The listing, a blank line between endpoints.",
)
def rest_endpoints(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as a REST API listing.

    Shape::

        POST /create_order
          Place an order.
          Request body (JSON object):
            customer_id (string, required): The customer.
            lines (array of object, required, at least 1 item): What to deliver.
              sku (string, required): Stock code.
            speed (string, optional, one of "standard", "express", default "standard")
          Response 200: number

    The path is the tool's name, percent-encoded where a URL needs it (the true name then
    follows in parentheses); body fields are :func:`parameter_lines` with JSON values.
    A tool without parameters takes an empty body; an unknown response type is not shown.
    """
    blocks = []
    for tool in prepare(toolset, options):
        path = quote(tool.name, safe="")
        head = f"POST /{path}" + (f" (tool {json_text(tool.name)})" if path != tool.name else "")
        lines = [head, *(f"  {c}" for c in comment_lines(tool.description))]
        if tool.params:
            lines.append("  Request body (JSON object):")
            lines += parameter_lines(tool.params, name=lambda n: n if n and n == one_line(n)
                                     and "(" not in n else json_text(n),
                                     value=json_text, indent="    ", bullet="")
        else:
            lines.append("  Request body: {}")
        if tool.returns is not None:
            lines.append(f"  Response 200: {COMPACT.type(tool.returns)}")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + "\n"


# -- curl examples -------------------------------------------------------------------------------

#: The base URL of the example commands (example.com is reserved for documentation).
_CURL_BASE = "https://tools.example.com"


def _shell_quote(text: str) -> str:
    """``text`` in single quotes for a POSIX shell (``'`` written as ``'\\''``)."""
    return "'" + text.replace("'", "'\\''") + "'"


@register_format(
    name="Example curl commands",
    family="markup",
    default_protocol="json_object",
    description=("Each tool shown only as a runnable curl command posting a filled example "
                 "JSON body (every parameter with a plausible value) to /tool_name, after a "
                 "comment with its description; no abstract schema at all."),
    language="bash",
    novel=True,
    lossy=True,
    returns="One commented command per tool, a blank line between them.",
    options_doc="Tool descriptions are shown only when the options ask for them.",
)
def curl_examples(toolset: Toolset, options: RenderOptions) -> str:
    """Render each tool as example ``curl`` commands.

    Shape::

        # create_order: Place an order.
        curl -X POST https://tools.example.com/create_order \\
          -H 'Content-Type: application/json' \\
          -d '{"customer_id": "example customer id", "lines": [{"sku": "example sku", ...}]}'

    The body (:func:`example_body`) holds every parameter and nested field, optional ones
    too, with a value of its type: the first enum value, values inside the bounds. A tool
    with a union gets one command per option of its widest union
    (:func:`example_bodies`), so that every field shows. The format is lossy by design: types, required flags,
    other enum values, constraints, defaults, parameter descriptions and return types are
    only what the one example shows. The path is the name, percent-encoded where needed.
    """
    blocks = []
    for tool in prepare(toolset, options):
        doc = comment_lines(tool.description)
        lines = [f"# {tool.name}: {doc[0]}" if doc else f"# {tool.name}",
                 *(f"# {c}" for c in doc[1:])]
        url = f"{_CURL_BASE}/{quote(tool.name, safe='')}"
        for i, body in enumerate(example_bodies(tool)):
            if i:
                lines.append("# the same tool with another form of a value that has several:")
            lines += [f"curl -X POST {url} \\", "  -H 'Content-Type: application/json' \\",
                      f"  -d {_shell_quote(json.dumps(body, ensure_ascii=False))}"]
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + "\n"
