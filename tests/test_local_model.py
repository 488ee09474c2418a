"""The local model: chunk assembly on fake chunk packages, the CLI, and one live request."""

from __future__ import annotations

import hashlib
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
import typer
from typer.testing import CliRunner

import toolform.local_model as lm
from toolform.cli._local_model import register
from toolform.clients import OpenAICompatClient
from toolform.errors import MissingDependencyError, ToolFormError

CHUNKS = [b"GGUF-head-", b"middle-part-", b"\x00\x01\x02tail"]


@pytest.fixture
def fake_chunks(tmp_path, monkeypatch):
    """Three importable fake chunk packages, and the checksum of their concatenation."""
    root = tmp_path / "site"
    names = []
    for index, data in enumerate(CHUNKS, start=1):
        name = f"tf_fake_chunk_{os.getpid()}_part{index}"
        (root / name / "data").mkdir(parents=True)
        (root / name / "__init__.py").write_text("")
        (root / name / "data" / f"part{index:02d}.bin").write_bytes(data)
        names.append(name)
    monkeypatch.syspath_prepend(str(root))
    monkeypatch.setattr(lm, "CHUNK_PACKAGES", tuple(names))
    monkeypatch.setattr(lm, "MODEL_SHA256", hashlib.sha256(b"".join(CHUNKS)).hexdigest())
    return root


def test_cache_dir_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("TOOLFORM_CACHE", str(tmp_path / "c"))
    assert lm.cache_dir() == tmp_path / "c"
    monkeypatch.delenv("TOOLFORM_CACHE")
    assert lm.cache_dir() == lm.Path.home() / ".cache" / "toolform"


def test_chunks_are_joined_in_order_and_verified(fake_chunks, tmp_path):
    path = lm.model_path(cache=tmp_path / "cache")
    assert path.name == "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf"
    assert path.read_bytes() == b"".join(CHUNKS)
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name, path.name + ".verified"]


def test_a_verified_file_is_not_rebuilt(fake_chunks, tmp_path, monkeypatch):
    path = lm.model_path(cache=tmp_path / "cache")

    def no_chunks() -> list:
        raise AssertionError("chunks were read again")

    monkeypatch.setattr(lm, "_chunk_files", no_chunks)
    assert lm.model_path(cache=tmp_path / "cache") == path


def test_an_altered_file_is_rebuilt(fake_chunks, tmp_path):
    path = lm.model_path(cache=tmp_path / "cache")
    path.write_bytes(b"damaged")
    assert lm.model_path(cache=tmp_path / "cache").read_bytes() == b"".join(CHUNKS)


def test_a_wrong_checksum_raises_and_leaves_nothing(fake_chunks, tmp_path, monkeypatch):
    monkeypatch.setattr(lm, "MODEL_SHA256", "0" * 64)
    with pytest.raises(ToolFormError, match="expected 0000"):
        lm.model_path(cache=tmp_path / "cache")
    assert list((tmp_path / "cache").iterdir()) == []


def test_a_missing_chunk_package_gives_the_pip_line(fake_chunks, tmp_path, monkeypatch):
    monkeypatch.setattr(lm, "CHUNK_PACKAGES", (*lm.CHUNK_PACKAGES[:2], "tf_no_such_chunk_part3"))
    with pytest.raises(MissingDependencyError) as caught:
        lm.model_path(cache=tmp_path / "cache")
    assert 'pip install "toolform[local]"' in str(caught.value)
    assert "tf-no-such-chunk-part3" in str(caught.value)


def test_a_chunk_package_without_its_data_file(fake_chunks, tmp_path, monkeypatch):
    (fake_chunks / lm.CHUNK_PACKAGES[1] / "data" / "part02.bin").unlink()
    with pytest.raises(MissingDependencyError, match="part02.bin is missing"):
        lm.model_path(cache=tmp_path / "cache")


def test_cli_path_prints_the_file(fake_chunks, tmp_path, monkeypatch):
    monkeypatch.setenv("TOOLFORM_CACHE", str(tmp_path / "cache"))
    app = typer.Typer()
    register(app)

    @app.callback()
    def main() -> None:
        """Make ``local-model`` a sub-command even with a single group."""

    result = CliRunner().invoke(app, ["local-model", "path"])
    assert result.exit_code == 0, result.output
    assert result.output.strip() == str(tmp_path / "cache" / lm.MODEL_FILE)
    helptext = CliRunner().invoke(app, ["local-model", "serve", "--help"]).output
    assert "--n-ctx" in helptext and "--port" in helptext


@pytest.fixture
def models_endpoint():
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def do_GET(self) -> None:  # noqa: N802 - http.server's naming
            status = 200 if self.path == "/v1/models" else 404
            self.send_response(status)
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"{}")

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=httpd.serve_forever, args=(0.05,), daemon=True).start()
    yield httpd.server_address[1]
    httpd.shutdown()
    httpd.server_close()


def test_server_answers(models_endpoint):
    assert lm.server_answers(f"http://127.0.0.1:{models_endpoint}/v1")
    assert lm.server_answers(f"http://127.0.0.1:{models_endpoint}/v1/")
    assert not lm.server_answers(f"http://127.0.0.1:{models_endpoint}/other")
    assert not lm.server_answers("not a url")


def test_serve_refuses_a_taken_address(models_endpoint):
    if lm.importlib.util.find_spec("llama_cpp") is None:
        pytest.skip("llama-cpp-python is not installed")
    with pytest.raises(ToolFormError, match="already answers"):
        lm.serve(port=models_endpoint)


def test_serve_without_llama_cpp_gives_the_pip_line(monkeypatch):
    real = lm.importlib.util.find_spec
    monkeypatch.setattr(lm.importlib.util, "find_spec",
                        lambda name, *a: None if name == "llama_cpp" else real(name, *a))
    with pytest.raises(MissingDependencyError, match=r'toolform\[local\]'):
        lm.serve(port=1)


LIVE_URL = os.environ.get("TOOLFORM_LOCAL_URL", "http://127.0.0.1:8080/v1")


@pytest.mark.live
def test_live_local_model_answers():
    if not lm.server_answers(LIVE_URL):
        pytest.skip(f"no local model server answers at {LIVE_URL} "
                    "(start one with: toolform local-model serve)")
    client = OpenAICompatClient(LIVE_URL, lm.MODEL_ALIAS, timeout=120.0, retries=1)
    reply = client.complete([{"role": "user", "content": "Name one prime number. Reply briefly."}],
                            max_tokens=16)
    assert reply.text.strip()
    assert reply.prompt_tokens and reply.prompt_tokens > 5
    assert reply.completion_tokens and 0 < reply.completion_tokens <= 16
    assert reply.latency_s > 0
