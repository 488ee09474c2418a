"""datasets/mcp_servers/capture.py: the command it runs and the place a server runs in (a scratch
folder with a HOME of its own), on a stdio server of ours; no registry is reached."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("mcp", reason="the mcp SDK is not installed (pip install mcp)")

from stdio_servers import server_source  # noqa: E402  (tests/stdio_servers.py)

SCRIPT = Path(__file__).resolve().parents[1] / "datasets" / "mcp_servers" / "capture.py"

# One tool whose description says where the server runs; the server also writes a file under
# ~, as servers that keep a config or a token cache do.
SERVER = server_source("toolform-capture-test", '''
    home = os.environ["HOME"]
    with open(os.path.join(home, ".toolform-capture-test"), "w") as f:
        f.write("written by the server")
    WHERE = json.dumps({"home": home, "cwd": os.getcwd()})

    async def list_tools(ctx, params):
        return types.ListToolsResult(tools=[types.Tool(
            name="where", description=WHERE, input_schema={"type": "object"})])
''')


@pytest.fixture(scope="module")
def capture():
    spec = importlib.util.spec_from_file_location("mcp_servers_capture", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _entry(**more):
    return {"name": "ours", "registry": "pypi", "package": "ours-mcp", "version": "1.0",
            "split": "dev", "batch": 10, **more}


def test_each_server_gets_a_scratch_home_and_the_real_one_is_left_alone(capture, tmp_path,
                                                                        monkeypatch):
    script = tmp_path / "where_server.py"
    script.write_text(SERVER, encoding="utf-8")
    monkeypatch.setattr(capture, "command_line", lambda server: [sys.executable, str(script)])
    real = Path.home() / ".toolform-capture-test"
    assert not real.exists()
    doc = capture.capture(_entry(), timeout=60)
    assert [t["name"] for t in doc["tools"]] == ["where"]
    where = json.loads(doc["tools"][0]["description"])
    home, cwd = Path(where["home"]), Path(where["cwd"])
    assert home == cwd / "home" and home != Path.home()
    assert (home / ".toolform-capture-test").read_text() == "written by the server"
    assert not real.exists()
    assert (doc["name"], doc["batch"], doc["server_info"]["name"]) == (
        "ours", 10, "toolform-capture-test")


def test_the_command_lines_of_both_registries(capture):
    assert capture.command_line({**_entry(registry="npm", package="@a/b-mcp"),
                                 "args": ["--stdio"]}) == ["npx", "-y", "@a/b-mcp@1.0", "--stdio"]
    assert capture.command_line(_entry(entry="ours-server")) == [
        sys.executable, "-m", "uv", "tool", "run", "--quiet", "--from", "ours-mcp==1.0",
        "ours-server"]
    with pytest.raises(capture.ManifestError, match="'ours': unknown registry 'cargo'"):
        capture.command_line(_entry(registry="cargo"))


def test_a_python_the_entry_asks_for_is_passed_to_uv_or_named_when_missing(capture):
    version = f"{sys.version_info.major}.{sys.version_info.minor}"
    command = capture.command_line(_entry(python=version))
    python = command[command.index("--python") + 1]
    ran = subprocess.run([python, "-c", "import sys; print(sys.version_info[:2])"],
                         capture_output=True, text=True, check=True)
    assert ran.stdout.strip() == str(sys.version_info[:2])
    with pytest.raises(capture.ManifestError, match="no Python 1.1 interpreter"):
        capture.command_line(_entry(python="1.1"))


# A server that starts a helper in a session of its own (as a server with a local HTTP side
# does): the SDK's stop of the server's process group does not reach it.
ESCAPING = server_source("toolform-capture-escape", '''
    import subprocess, sys
    helper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"],
                              start_new_session=True)
    HELPER = json.dumps({"pid": helper.pid})

    async def list_tools(ctx, params):
        return types.ListToolsResult(tools=[types.Tool(
            name="helper", description=HELPER, input_schema={"type": "object"})])
''')


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"  # a zombie has stopped; only its parent's wait is left


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="processes are found through /proc")
def test_a_helper_process_that_left_the_servers_group_is_stopped_with_it(capture, tmp_path,
                                                                          monkeypatch):
    script = tmp_path / "escaping_server.py"
    script.write_text(ESCAPING, encoding="utf-8")
    monkeypatch.setattr(capture, "command_line", lambda server: [sys.executable, str(script)])
    doc = capture.capture(_entry(), timeout=60)
    pid = json.loads(doc["tools"][0]["description"])["pid"]
    assert not _running(pid)


def test_an_interpreter_that_hangs_is_not_taken(capture, tmp_path):
    hanging = tmp_path / "python9.9"
    hanging.write_text("#!/bin/sh\nsleep 30\n")
    hanging.chmod(0o755)
    assert not capture._runs(str(hanging), timeout=0.5)
    assert capture._runs(sys.executable)
