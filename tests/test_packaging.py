"""Packaging and the public namespace: what a user imports is there and sorted."""

from __future__ import annotations

import importlib
import tomllib
from pathlib import Path

import toolform

ROOT = Path(__file__).resolve().parents[1]


def test_every_package_folder_is_listed_in_pyproject():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    listed = set(config["packages"])
    mapping = config["package-dir"]
    found = set()
    for name, folder in mapping.items():
        for init in (ROOT / folder).rglob("__init__.py"):
            rel = init.parent.relative_to(ROOT / folder)
            found.add(".".join([name, *rel.parts]))
    assert found - listed == set()


def test_public_names_import_and_all_is_sorted():
    assert toolform.__all__ == sorted(toolform.__all__)
    for name in toolform.__all__:
        assert getattr(toolform, name) is not None
    from toolform import Toolset, ab_test, load_tools, parse_reply, render  # noqa: F401
    from toolform.sdk import OpenAICompatClient  # noqa: F401


def test_subpackage_all_lists_are_sorted():
    for name in ("toolform.formats", "toolform.protocols", "toolform.io", "toolform.charts",
                 "toolform.clients", "toolform.errors", "toolform.ir"):
        module = importlib.import_module(name)
        assert module.__all__ == sorted(module.__all__), name
        for attr in module.__all__:
            assert hasattr(module, attr), f"{name}.{attr}"


def test_registries_list_the_core_formats_and_crossing_protocols():
    from toolform.study import CORE_FORMATS
    from toolform.formats import format_ids
    from toolform.protocols import protocol_ids

    assert set(CORE_FORMATS) <= set(format_ids())
    assert {"xml_call", "nl_intent", "json_object", "python_call", "tool_call_tags"} <= set(protocol_ids())
