"""The retry policy every live client follows, stated as data, and the loop that applies it.

What is the SDK's and what is ours
----------------------------------
The ``openai`` and ``anthropic`` SDKs send the request: HTTP transport and connection pool, the
per-attempt timeout (``timeout=``), and the typed errors that say what failed
(``APIStatusError`` with the status and headers, ``APITimeoutError``, ``APIConnectionError``).
The SDKs' own retry loops are switched off (``max_retries=0``), because they cannot do three
things a run needs: retry a reply whose body is not a chat completion (they raise a bare
``JSONDecodeError``), report how many attempts were made when they give up, and take another
schedule (theirs is fixed in code). So the loop is ours, in one place for every client, and
its defaults are the SDKs' own numbers: 0.5 s doubling to at most 8 s, up to 25 % jitter, the
same statuses, ``Retry-After`` honoured up to 120 s and ``x-should-retry`` obeyed.
"""

from __future__ import annotations

import email.utils
import json
import math
import random
import time
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Callable, Mapping, TypeVar

from ..errors import InvalidParameterError, ModelServerError

__all__ = ["DEFAULT_RETRY_POLICY", "MalformedReply", "RetryPolicy", "call_with_retries",
           "excerpt", "read_json_body", "resolve_policy", "retry_after_s"]

T = TypeVar("T")

# The longest excerpt of a failed body or error message an error carries, in characters.
_DETAIL_CHARS = 500


@dataclass(frozen=True)
class RetryPolicy:
    """How a live client retries a failed request: which errors, how many times, how long.

    A request is sent at most ``retries + 1`` times. After a failed attempt it is retried when
    the failure is one of:

    * a timeout (no reply within ``timeout_s``) or a connection error (refused, reset, DNS);
    * an HTTP status in ``retry_statuses`` (408, 409, 429 by default) or any 5xx;
    * a malformed body: a 2xx reply that is not a chat completion (not JSON, invalid JSON, JSON
      without ``choices``/``content``);

    and the server did not answer ``x-should-retry: false`` (``true`` makes any status
    retryable). Any other 4xx fails at once: the request itself is wrong.

    Before retry ``k`` (k = 1, 2, ...) the client waits the server's ``Retry-After`` when it sent
    one (``retry-after-ms``, or ``Retry-After`` in seconds or as an HTTP date) between 0 and
    ``max_retry_after_s``; otherwise ``min(backoff_s * 2**(k-1), max_backoff_s)`` shortened by a
    random part of up to ``jitter`` (so concurrent clients do not retry in step). A
    ``Retry-After`` longer than ``max_retry_after_s`` is not waited for: the request fails at
    once (kind ``retry_after_too_long``), so a run never sleeps unseen for an hour.

    Parameters
    ----------
    retries : int, default 4
        Retries after the first attempt (0: no retry).
    timeout_s : float, default 60.0
        Per-attempt timeout in seconds, given to the SDK: the connect, write and pool timeouts,
        and the read timeout, which in httpx is the longest silence between two chunks of the
        reply (a server trickling bytes can take longer in total).
    backoff_s : float, default 0.5
        First back-off wait in seconds; it doubles with each retry.
    max_backoff_s : float, default 8.0
        Longest back-off wait in seconds (``Retry-After`` is not capped by it).
    jitter : float, default 0.25
        Proportion (0 to 1) by which each back-off wait is shortened at random.
    retry_statuses : frozenset of int, default {408, 409, 429}
        4xx statuses worth another try; every 5xx is retried too.
    max_retry_after_s : float, default 120.0
        Longest server-asked wait, in seconds, that the client honours.

    Raises
    ------
    ValueError
        When a field is out of range; the message names the field, the allowed range and the
        value given.

    Examples
    --------
    >>> policy = RetryPolicy(retries=2, timeout_s=30.0)
    >>> policy.worst_case_s()  # two retries, each after at most a 120 s Retry-After
    330.0
    """

    retries: int = 4
    timeout_s: float = 60.0
    backoff_s: float = 0.5
    max_backoff_s: float = 8.0
    jitter: float = 0.25
    retry_statuses: frozenset[int] = field(default=frozenset({408, 409, 429}))
    max_retry_after_s: float = 120.0

    def __post_init__(self) -> None:
        checks = [
            ("retries", isinstance(self.retries, int) and not isinstance(self.retries, bool)
             and self.retries >= 0, "an integer >= 0"),
            ("timeout_s", _positive(self.timeout_s), "a number > 0"),
            ("backoff_s", _number(self.backoff_s) and self.backoff_s >= 0, "a number >= 0"),
            ("max_backoff_s", _number(self.max_backoff_s) and self.max_backoff_s >= 0,
             "a number >= 0"),
            ("jitter", _number(self.jitter) and 0 <= self.jitter <= 1, "a number in [0, 1]"),
            ("max_retry_after_s", _number(self.max_retry_after_s) and self.max_retry_after_s >= 0,
             "a number >= 0"),
        ]
        for name, ok, allowed in checks:
            if not ok:
                raise InvalidParameterError(f"RetryPolicy.{name} must be {allowed}, got "
                                 f"{getattr(self, name)!r}")
        statuses = frozenset(self.retry_statuses)
        if not all(isinstance(s, int) and 400 <= s < 500 for s in statuses):
            raise InvalidParameterError(f"RetryPolicy.retry_statuses must hold 4xx statuses (5xx are always "
                             f"retried), got {sorted(self.retry_statuses)!r}")
        object.__setattr__(self, "retry_statuses", statuses)

    def retryable_status(self, status: int, headers: Mapping[str, str] | None = None) -> bool:
        """Whether a reply with this HTTP status (and headers) is worth another attempt."""
        verdict = (headers or {}).get("x-should-retry")
        if verdict in ("true", "false"):
            return verdict == "true"
        return status in self.retry_statuses or status >= 500

    def backoff(self, retry: int, rng: Callable[[], float] = random.random) -> float:
        """The back-off wait before retry number ``retry`` (1, 2, ...), in seconds."""
        base = min(self.backoff_s * 2.0 ** min(retry - 1, 1000), self.max_backoff_s)
        return base * (1.0 - self.jitter * rng())

    def worst_case_s(self) -> float:
        """Longest time one request can take, in seconds: every attempt timing out and every
        wait at its longest (with httpx's per-chunk read timeout this bounds a server that
        answers nothing, not one that trickles bytes)."""
        return ((self.retries + 1) * self.timeout_s
                + self.retries * max(self.max_backoff_s, self.max_retry_after_s))

    def to_dict(self) -> dict[str, Any]:
        """The policy as a JSON-ready dict (``retry_statuses`` a sorted list), for run records."""
        out = asdict(self)
        out["retry_statuses"] = sorted(self.retry_statuses)
        return out


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _positive(value: Any) -> bool:
    return _number(value) and value > 0


#: The policy a client uses when none is given.
DEFAULT_RETRY_POLICY = RetryPolicy()


class MalformedReply(Exception):
    """Raised inside a client when a 2xx body is not a reply it can read (never leaves the
    client: :func:`call_with_retries` retries it, then raises ``ModelServerError``)."""


def read_json_body(content: bytes) -> Any:
    """The JSON value of an HTTP body, whatever bytes it holds.

    Bytes that are not UTF-8 are kept as lone surrogates (``errors="surrogateescape"``:
    ``b"\\xff"`` becomes ``"\\udcff"``), so ``text.encode("utf-8", "surrogateescape")`` gives
    the server's bytes back and nothing is replaced or lost; NUL and any other character are
    kept as sent.

    Raises
    ------
    MalformedReply
        When the body is not one JSON document (the reason and the body's first bytes).
    """
    text = content.decode("utf-8", errors="surrogateescape")
    try:
        return json.loads(text[1:] if text.startswith("\ufeff") else text)
    except json.JSONDecodeError as exc:
        raise MalformedReply(f"the body is not JSON ({exc.msg} at character {exc.pos} of "
                             f"{len(text)}); it starts {excerpt(text)}") from None
    except (ValueError, RecursionError) as exc:  # a huge integer; nesting too deep
        raise MalformedReply(f"the body cannot be read as JSON ({type(exc).__name__}); it "
                             f"starts {excerpt(text)}") from None


def excerpt(text: str) -> str:
    """The first characters of ``text`` as a printable, quoted excerpt (controls escaped)."""
    cut = text[:_DETAIL_CHARS]
    return repr(cut) + ("..." if len(text) > _DETAIL_CHARS else "")


def retry_after_s(headers: Mapping[str, str] | None) -> float | None:
    """The wait a server asked for, in seconds: ``retry-after-ms``, else ``Retry-After`` as a
    number of seconds or an HTTP date; None when neither is there or readable."""
    if not headers:
        return None
    for name, scale in (("retry-after-ms", 1000.0), ("retry-after", 1.0)):
        value = headers.get(name)
        if value is None:
            continue
        try:
            seconds = float(value) / scale
        except ValueError:
            continue
        if math.isfinite(seconds):
            return seconds
    value = headers.get("retry-after")
    if value is None:
        return None
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    return when.timestamp() - time.time()


def resolve_policy(policy: RetryPolicy | None, *, timeout: float | None = None,
                   retries: int | None = None, backoff: float | None = None) -> RetryPolicy:
    """``policy`` (or :data:`DEFAULT_RETRY_POLICY`) with a client's ``timeout`` (seconds),
    ``retries`` and ``backoff`` (seconds) put in when given.

    Raises
    ------
    ValueError
        When a value is out of range (the message names the policy's field).
    """
    chosen = DEFAULT_RETRY_POLICY if policy is None else policy
    changes = {name: value for name, value in
               (("timeout_s", timeout), ("retries", retries), ("backoff_s", backoff))
               if value is not None}
    return replace(chosen, **changes) if changes else chosen


def call_with_retries(attempt: Callable[[], T], policy: RetryPolicy, *, url: str, model: str,
                      sdk: Any, sleep: Callable[[float], None] = time.sleep) -> T:
    """Run ``attempt`` until it succeeds or ``policy`` says stop.

    Parameters
    ----------
    attempt : callable
        Sends one request and reads the reply; raises the SDK's typed errors, or
        :class:`MalformedReply` for a body it cannot read.
    policy : RetryPolicy
    url, model : str
        Named in the error.
    sdk : module
        The SDK whose ``APIStatusError``, ``APITimeoutError`` and ``APIConnectionError``
        ``attempt`` raises (``openai`` and ``anthropic`` share these names).
    sleep : callable, default time.sleep
        Waits the given seconds.

    Returns
    -------
    object
        What ``attempt`` returned.

    Raises
    ------
    toolform.errors.ModelServerError
        When the last allowed attempt failed, or a failure was not worth a retry.
    """
    started = time.monotonic()
    attempts = 0
    while True:
        attempts += 1
        status: int | None = None
        wait: float | None = None
        try:
            return attempt()
        except sdk.APIStatusError as exc:
            status = exc.status_code
            headers = getattr(exc.response, "headers", None)
            kind, detail = "status", _clip(str(exc))
            retryable = policy.retryable_status(status, headers)
            wait = retry_after_s(headers)
            if retryable and wait is not None and wait > policy.max_retry_after_s:
                kind, retryable = "retry_after_too_long", False
                detail = (f"the server asked to wait {wait:.0f} s (Retry-After), more than the "
                          f"policy's {policy.max_retry_after_s:g} s; {detail}")
        except sdk.APITimeoutError as exc:  # a subclass of APIConnectionError: first
            kind, detail, retryable = "timeout", _clip(f"{type(exc).__name__}: {exc}"), True
        except sdk.APIConnectionError as exc:
            cause = exc.__cause__ or exc.__context__
            why = f" ({type(cause).__name__}: {cause})" if cause is not None else ""
            kind, detail, retryable = "connection", _clip(f"{exc}{why}"), True
        except MalformedReply as exc:
            kind, detail, retryable = "malformed_body", str(exc), True
        if not retryable or attempts > policy.retries:
            raise ModelServerError(url=url, model=model, attempts=attempts, kind=kind,
                                   detail=detail, status=status,
                                   elapsed_s=time.monotonic() - started) from None
        sleep(wait if wait is not None and wait > 0 else policy.backoff(attempts))


def _clip(text: str) -> str:
    return text if len(text) <= _DETAIL_CHARS else text[:_DETAIL_CHARS] + "..."
