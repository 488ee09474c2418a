"""A stub OpenAI-compatible chat server on 127.0.0.1, in its own process, for the runner benchmarks.

Every ``POST /v1/chat/completions`` waits ``delay_s`` (a fixed delay, or a uniform draw from a
range), then answers a ``json_object`` call of ``get_weather`` with usage counts. It speaks
HTTP/1.1 with keep-alive, as real servers do, so the client's connection pool is used. Running
it in a child process keeps its CPU time out of the measured process's ``time.process_time``.
"""

from __future__ import annotations

import json
import multiprocessing as mp
import random
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

REPLY_TEXT = '{"name": "get_weather", "arguments": {"city": "Oslo"}}'


def _serve(delay: tuple[float, float], port_out: Any) -> None:
    low, high = delay

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        # headers and body go out in two writes; without TCP_NODELAY the body waits for the
        # client's delayed ACK (40 ms on Linux), so every reply took 40 ms more than asked
        disable_nagle_algorithm = True

        def log_message(self, *args: object) -> None:
            pass

        def do_POST(self) -> None:  # noqa: N802 - http.server's naming
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            wait = low if low == high else random.uniform(low, high)
            if wait:
                time.sleep(wait)
            data = json.dumps({
                "id": "stub", "object": "chat.completion", "created": 0, "model": body["model"],
                "choices": [{"index": 0, "finish_reason": "stop",
                             "message": {"role": "assistant", "content": REPLY_TEXT}}],
                "usage": {"prompt_tokens": 321, "completion_tokens": 17, "total_tokens": 338},
            }).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    port_out.put(httpd.server_address[1])
    httpd.serve_forever(0.05)


class StubServer:
    """Context manager: a stub server process; ``base_url`` is its ``/v1`` root.

    Parameters
    ----------
    delay_s : float or (float, float)
        Seconds each reply waits: fixed, or drawn uniformly from ``(low, high)``.
    """

    def __init__(self, delay_s: float | tuple[float, float] = 0.0) -> None:
        self.delay = (delay_s, delay_s) if isinstance(delay_s, (int, float)) else tuple(delay_s)
        self.base_url = ""
        self._process: mp.Process | None = None

    def __enter__(self) -> StubServer:
        ports: Any = mp.get_context("spawn").Queue()
        self._process = mp.get_context("spawn").Process(target=_serve, args=(self.delay, ports),
                                                        daemon=True)
        self._process.start()
        self.base_url = f"http://127.0.0.1:{ports.get(timeout=30)}/v1"
        return self

    def __exit__(self, *exc: object) -> None:
        assert self._process is not None
        self._process.terminate()
        self._process.join(5)


def _spin(stop: Any) -> None:
    while not stop.is_set():
        sum(range(10_000))


class Neighbour:
    """Context manager: a CPU-bound process beside the benchmark (a busy laptop's notebook)."""

    def __enter__(self) -> Neighbour:
        ctx = mp.get_context("spawn")
        self._stop = ctx.Event()
        self._process = ctx.Process(target=_spin, args=(self._stop,), daemon=True)
        self._process.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._process.join(5)
        if self._process.is_alive():
            self._process.terminate()
