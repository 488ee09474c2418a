"""Fuzzing ``parse_reply`` over all 31 protocols (issue 4, point 4): it never raises, and what
it returns is well formed.

Every registered protocol gets :data:`EXAMPLES` generated replies (10,000: the issue asks for at
least that many per protocol). Hypothesis draws one integer per example, derandomized so CI
runs the same inputs every time, with no shrinking phase (a failure cannot spend minutes
shrinking); :func:`reply_for` builds the reply from that integer and the protocol with plain
Python (``random.Random``) over precomputed pools, so a failing example, printed as its
``seed`` and reply, can be rebuilt by hand. Deep composite strategies cost about 2 ms of
hypothesis bookkeeping per example; one integer costs about 0.6 ms (CPU, hypothesis 6.155 on
the 2-core development machine), close to one ``parse_reply`` call (about 0.55 ms on these
replies, most of which run all 31 parsers). The replies reach deep into the parsers because
most start from a real call:

* **mutations** of written calls: each protocol's writer output for the hand-written calls of
  ``tests/test_protocols.py``, the real reply shapes of both protocol test files and the 85
  local-model replies of ``tests/fixtures/replies/local_model.jsonl``, with up to four edits (a
  marker or random characters inserted, a span deleted or duplicated, two neighbours swapped,
  the text cut short, another seed spliced in), then wrapped in a code fence, a ``<think>``
  block, prose, a tag or a bracket pair; two in seven start from the asked protocol's own
  output, one in seven from a local-model reply, one in seven from any seed;
* **nested brackets**: a written call, or nothing, inside up to 300 levels of one bracket kind,
  balanced or not;
* **marker soup**: up to 30 protocol markers and short random strings, joined;
* **random text**: up to 300 characters, printable ASCII, bracket-and-quote heavy, awkward
  characters (controls, lone surrogates, BOM, line separator, emoji) or any code point.

Counts (soup pieces, random characters) favour short ones, as hypothesis's own strategies do.

Each reply is parsed with ``lenient_fallback=True``; one in ten (chosen by the reply's own
random stream) is parsed with it off too. Reading ``toolform/protocols/_parse.py``, the flag
changes only whether another protocol's calls are taken (``lenient_taken``) and what follows
from that (the calls, their repairs and their issues); so the flag-on result carries every
field the flag-off one shares, and the one-in-ten run checks the relation exactly. The checks
(all must hold):

* the result is a ``ParsedReply`` for the asked protocol and the ``main`` rule; its calls
  (under the rule, as written, re-nested) are tuples of ``ToolCall`` whose name is a string and
  whose arguments are a dict of JSON values (str keys; None, bool, int, finite float, str,
  list, dict); ``issues`` are strings; ``to_dict()`` serializes to JSON;
* no parser crashed (no ``parser failed`` issue: a crash would be a bug caught by
  ``parse_reply``'s safety net) and none returned a non-call;
* ``no_call`` is ``not calls``; ``resolved_names`` are ``(str, str, how)`` triples;
* a strict read is format-compliant and names the asked protocol as ``lenient_protocol``; a
  reply read only by another protocol is not format-compliant;
* with the flag on, ``lenient_taken`` holds exactly when the strict parse read nothing and
  another protocol read something, and the calls as written are non-empty exactly when the
  strict parse read a call or another protocol's calls were taken;
* **strict subset** (the flag-off run): both runs agree on what was read (``parsed_strict``,
  ``parsed_lenient``, ``lenient_protocol``, ``format_compliant``); when no other protocol's
  calls were taken the two results are equal field for field; when they were, the flag-off
  result has no call at all (under the rule, as written, re-nested; no name resolved, nothing
  re-nested) and its issues are the flag-on ones up to the line saying which protocol read the
  reply, which the flag-on run extends.

The regression replies at the end are checked with both runs, for every protocol.
``TOOLFORM_FUZZ_EXAMPLES`` overrides :data:`EXAMPLES` for a quicker local run.
"""

from __future__ import annotations

import json
import math
import os
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import Phase, given, note, settings
from hypothesis import strategies as st

from toolform.ir import ToolCall
from toolform.protocols import ParsedReply, get_protocol, parse_reply, protocol_ids

import test_protocols
import test_protocols_more
from test_protocols import HAND_CALLS, TOOLS

#: Generated replies per protocol (the issue asks for at least 10,000).
EXAMPLES = int(os.environ.get("TOOLFORM_FUZZ_EXAMPLES", "10000"))
#: One in this many replies is also parsed with ``lenient_fallback`` off.
STRICT_EVERY = 10

PROTOCOLS = protocol_ids()


def _written(protocol_id: str) -> list[str]:
    """The protocol's writer output for each hand-written call list it can carry."""
    spec = get_protocol(protocol_id)
    out = []
    for calls in [[], *HAND_CALLS]:
        if len(calls) > 1 and not spec.supports_parallel:
            continue
        out.append(spec.protocol.write(calls, TOOLS))
    return out


_REAL = [reply for _, reply, _ in test_protocols.REAL + test_protocols_more.REAL]
#: Seed texts per protocol: its own written calls and its real reply shapes.
OWN = {p: _written(p) + [r for q, r, _ in test_protocols.REAL + test_protocols_more.REAL
                          if q == p] for p in PROTOCOLS}
_FIXTURE = Path(__file__).parent / "fixtures" / "replies" / "local_model.jsonl"
#: The local model's recorded replies (any protocol; their toolsets differ from ``TOOLS``, so
#: their names are unknown tools here, which the parsers must take in their stride too).
MODEL_REPLIES = sorted({json.loads(line)["reply"]
                        for line in _FIXTURE.read_text("utf-8").splitlines() if line.strip()})
#: Every seed text of every protocol, and the local model's replies.
ALL_SEEDS = sorted({s for seeds in OWN.values() for s in seeds} | set(_REAL)
                   | set(MODEL_REPLIES))

#: Markers of every protocol, and characters that open or close something.
FRAGMENTS = sorted({
    "<function_calls>", "</function_calls>", '<invoke name="get_weather">', "</invoke>",
    '<parameter name="city">', "</parameter>", "<tool_call>", "</tool_call>", '"name"',
    '"arguments"', "get_weather(", "math.factorial(", "call('API-post-page'", "city=", "n=",
    "I will use get_weather with city = ", " and days = ", "set to ", "get_weather",
    "math.factorial", "'Paris'", "=>", ":=", "--city", "SELECT ", "mutation {", "POST /",
    ":city ", "TOOL: ", "★", "§", "#", "~", "¤", "∅", "```yaml\n", "[[call]]\n", "name = ",
    "name: ", "arguments:", "- ", "&a ", "*a", "!!", "Use ", " with ", " = ", "Action: ",
    "Action Input: ", "Observation:", "<function=", "</function>", "<parameter=",
    '<call name="get_weather">', "</call>", "<|python_tag|>", "<|eom_id|>", "→",
    '{"tool_calls": [', '"function": {', '"arguments": "', "ARRAY[", "::jsonb", "true", "nil",
    "$x", "True", "None", "null", "&lol;", "<!DOCTYPE x>", "<!ENTITY a 'b'>", "1e999", "**{",
    "<a>", "</a>", "&", "?", "%", "+", "```", "```json\n", "```python\n", "\n```", "<think>",
    "</think>", '\\"', "\\", "\x00", "\ud800", "\r\n", "\n", "\t", " ", "'", '"', "`", "(", ")",
    "[", "]", "{", "}", "<", ">", "/>", "=", ":", ",", ";", "|", "&amp;", "&#0;", "1e309",
    "NaN", "9" * 30, "-", "-0", ".", "...", "*", "**", "- name: ", "é", "\u2028", "\ufeff",
    "😀", "| tool | argument | value |\n", "|---|---|---|\n", "<![CDATA[", "]]>",
    "[call.arguments]\n", "Thought: ", "query {", "GET /", "%2",
})
_WRAPS = [("", ""), ("```json\n", "\n```"), ("```\n", "\n```"), ("```python\n", "\n```"),
          ("```yaml\n", "\n```"), ("<think>Let me think.</think>\n", ""), ("<think>", ""),
          ("", "</think>"), ("Sure! Here is the call:\n", "\nLet me know if you need more."),
          ("I will do that. ", " Done."), ("<tool_call>", "</tool_call>"), ("[", "]"),
          ("{", "}"), ("(", ")"), ("> ", ""), ("1. ", "\n2. ")]
_BRACKETS = ["()", "[]", "{}", "<>", "''", '""', "``"]
#: Alphabets of random text: printable ASCII, bracket-and-quote heavy, awkward characters.
_ASCII = "".join(map(chr, range(32, 127)))
_SYNTAX = "{}[]()<>\"':,=\\ \n\tabc01-_."
_AWKWARD = ("\x00\x01\x0b\x1b\x7f\x85\xa0\u2028\u2029\ufeff\ufffe\ud800\udbff\udc00\udfff"
            "é東😀\u0301\u200b\r\n\t\\\"'<>&{}[]")


def _short(rng: random.Random, most: int) -> int:
    """A count from 0 to ``most``, short ones common (mean ``most / 3``), like hypothesis's."""
    return int((most + 1) * rng.random() ** 2)


def _random_text(rng: random.Random, size: int) -> str:
    """Up to ``size`` characters from one of four alphabets (any code point included)."""
    n = _short(rng, size)
    kind = rng.randrange(4)
    if kind == 3:
        return "".join(chr(rng.randint(0, 0x10FFFF)) for _ in range(n))
    return "".join(rng.choices((_ASCII, _SYNTAX, _AWKWARD)[kind], k=n))


def _piece(rng: random.Random) -> str:
    """A protocol marker (three times in four) or up to six random characters."""
    return rng.choice(FRAGMENTS) if rng.random() < 0.75 else _random_text(rng, 6)


def _mutated(rng: random.Random, seeds: list[str]) -> str:
    """A seed with up to four random edits, then a random wrapper (see the module docstring)."""
    text = rng.choice(seeds)
    for _ in range(rng.randint(0, 4)):
        op = rng.randrange(6)
        i = rng.randint(0, len(text))
        if op == 0:  # insert a marker or random characters
            text = text[:i] + _piece(rng) + text[i:]
        elif op == 1:  # delete a span
            text = text[:i] + text[i + rng.randint(1, 12):]
        elif op == 2 and i + 1 < len(text):  # swap two neighbours
            text = text[:i] + text[i + 1] + text[i] + text[i + 2:]
        elif op == 3:  # duplicate a span
            j = min(len(text), i + rng.randint(1, 40))
            text = text[:j] + text[i:j] + text[j:]
        elif op == 4:  # cut the reply short (a stop sequence or the token limit)
            text = text[:i]
        else:  # splice in another seed
            text = text[:i] + "\n" + rng.choice(ALL_SEEDS) + text[i:]
    before, after = rng.choice(_WRAPS)
    return before + text + after


def _nested(rng: random.Random, seeds: list[str]) -> str:
    """A seed, or nothing, inside many levels of one bracket kind (possibly unbalanced)."""
    opener, closer = rng.choice(_BRACKETS)
    depth = rng.randint(1, 300)
    inner = rng.choice(["", *seeds])
    closing = depth if rng.random() < 0.5 else rng.randint(0, depth)
    return opener * depth + inner + closer * closing


def reply_for(protocol_id: str, seed: int) -> tuple[str, bool]:
    """The fuzz reply number ``seed`` for one asked protocol, and whether to parse it strictly.

    Parameters
    ----------
    protocol_id : str
        The asked protocol (its own seeds are favoured).
    seed : int
        The integer hypothesis drew.

    Returns
    -------
    reply : str
        The generated reply (see the module docstring for its kinds).
    strict_too : bool
        Also parse it with ``lenient_fallback`` off (one reply in :data:`STRICT_EVERY`).
    """
    rng = random.Random(f"{protocol_id}:{seed}")
    own = OWN[protocol_id]
    kind = rng.randrange(7)
    if kind < 2:
        reply = _mutated(rng, own)
    elif kind == 2:
        reply = _mutated(rng, MODEL_REPLIES)
    elif kind == 3:
        reply = _mutated(rng, ALL_SEEDS)
    elif kind == 4:
        reply = _nested(rng, own)
    elif kind == 5:
        reply = "".join(_piece(rng) for _ in range(_short(rng, 30)))
    else:
        reply = _random_text(rng, 300)
    return reply, rng.randrange(STRICT_EVERY) == 0


def is_json_value(value: Any, depth: int = 0) -> bool:
    """Whether ``value`` is a JSON value (finite floats, str keys), at most 200 levels deep."""
    if depth > 200:
        return False
    if value is None or isinstance(value, (bool, int, str)):
        return True
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, list):
        return all(is_json_value(v, depth + 1) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and is_json_value(v, depth + 1) for k, v in value.items())
    return False


def check_shape(parsed: Any, protocol_id: str) -> None:
    """The result is a well-formed ``ParsedReply`` (see the module docstring)."""
    assert isinstance(parsed, ParsedReply)
    assert parsed.protocol_id == protocol_id and parsed.rule == "main"
    for field in ("calls", "calls_as_written", "calls_renested"):
        calls = getattr(parsed, field)
        assert isinstance(calls, tuple), field
        for call in calls:
            assert isinstance(call, ToolCall) and isinstance(call.name, str), (field, call)
            assert isinstance(call.arguments, dict), (field, call)
            assert is_json_value(call.arguments), (field, call)
    assert isinstance(parsed.issues, tuple) and all(isinstance(i, str) for i in parsed.issues)
    assert not any("parser failed" in i or "non-call" in i for i in parsed.issues), \
        parsed.issues
    assert parsed.no_call == (not parsed.calls)
    for triple in parsed.resolved_names:
        assert len(triple) == 3 and all(isinstance(x, str) for x in triple)
        assert triple[2] in ("case", "separator", "nearest")
    json.dumps(parsed.to_dict())
    # what parse_reply read and who read it (see its module docstring)
    foreign = any("does not accept" in i for i in parsed.issues)  # another vendor's markup
    for call in parsed.parsed_calls + parsed.example_calls:
        start, end = call.span
        assert 0 <= start <= end and (call.protocol_id or call.vendor_shape), call
    assert len(parsed.parsed_calls) == len(parsed.calls_as_written)
    assert all(c.example for c in parsed.example_calls)
    if parsed.parsed_strict:
        assert parsed.format_compliant or foreign, parsed.issues
        assert parsed.lenient_protocol == protocol_id
        assert parsed.parsed_lenient and not parsed.lenient_taken
        assert parsed.calls_as_written or parsed.example_calls
    elif parsed.parsed_lenient:
        assert parsed.lenient_protocol != protocol_id
        assert parsed.lenient_protocol is not None or parsed.vendor_shape is not None
        assert not parsed.format_compliant
    else:
        assert parsed.lenient_protocol is None and not parsed.calls_as_written


def check_lenient(lenient: ParsedReply, protocol_id: str) -> None:
    """The ``lenient_fallback=True`` result is well formed and takes calls exactly when due."""
    check_shape(lenient, protocol_id)
    assert lenient.lenient_taken == (lenient.parsed_lenient and not lenient.parsed_strict)
    # calls are read exactly when some protocol read them (calls shown as examples aside)
    assert bool(lenient.calls_as_written or lenient.example_calls) == (
        lenient.parsed_strict or lenient.lenient_taken)


def check_strict_subset(strict: ParsedReply, lenient: ParsedReply, protocol_id: str) -> None:
    """The flag-off result is the flag-on one without another protocol's calls."""
    check_shape(strict, protocol_id)
    read = ("parsed_strict", "parsed_lenient", "lenient_protocol", "format_compliant")
    assert [getattr(strict, k) for k in read] == [getattr(lenient, k) for k in read]
    assert not strict.lenient_taken
    if not lenient.lenient_taken:
        assert strict == lenient
        return
    assert strict.calls == strict.calls_as_written == strict.calls_renested == ()
    assert strict.parsed_calls == strict.example_calls == ()
    assert not strict.renested and strict.resolved_names == ()
    # same issues up to "no <asked> call found; the reply reads as <other>", which the
    # flag-on run extends ("its calls are used") and follows with its repairs' issues
    n = len(strict.issues)
    assert n and strict.issues[:-1] == lenient.issues[:n - 1], (strict.issues, lenient.issues)
    assert lenient.issues[n - 1].startswith(strict.issues[-1]), (strict.issues, lenient.issues)
    assert lenient.issues[n - 1] != strict.issues[-1]


def check(reply: str, protocol_id: str, *, strict_too: bool = True) -> None:
    """Parse ``reply`` with ``lenient_fallback`` on (and off too) and check the results."""
    lenient = parse_reply(reply, TOOLS, protocol_id, lenient_fallback=True)
    check_lenient(lenient, protocol_id)
    if strict_too:
        check_strict_subset(parse_reply(reply, TOOLS, protocol_id), lenient, protocol_id)


def test_every_protocol_is_fuzzed_with_its_own_seeds():
    assert len(PROTOCOLS) == 31
    assert len(MODEL_REPLIES) >= 40
    for protocol_id in PROTOCOLS:
        seeds = OWN[protocol_id]
        assert len(seeds) >= 9, protocol_id
        # the unmutated seeds read back under their own protocol (abstention excepted)
        read = [parse_reply(s, TOOLS, protocol_id).parsed_strict for s in seeds[1:]]
        assert all(read), (protocol_id, [s for s, r in zip(seeds[1:], read) if not r])


def test_replies_are_rebuilt_from_their_seed_and_vary():
    replies = [reply_for("python_call", seed) for seed in range(700)]
    assert replies == [reply_for("python_call", seed) for seed in range(700)]
    assert reply_for("xml_call", 5) != reply_for("python_call", 5)
    texts = [r for r, _ in replies]
    assert len(set(texts)) > 600
    # every kind of reply turns up, and about one in ten is parsed strictly too
    assert any(t.startswith("(" * 40) for t in texts)
    assert any(any(m in t for m in MODEL_REPLIES) for t in texts)
    assert 35 <= sum(s for _, s in replies) <= 110


def fuzz_test(protocols: list[str]):
    """The fuzz test over ``protocols``: :data:`EXAMPLES` generated replies for each."""

    @pytest.mark.parametrize("protocol_id", protocols)
    @settings(max_examples=EXAMPLES, derandomize=True, database=None, deadline=None,
              phases=(Phase.explicit, Phase.generate))
    @given(seed=st.integers(min_value=0, max_value=2**64 - 1))
    def test_parse_reply_never_raises(protocol_id, seed):
        reply, strict_too = reply_for(protocol_id, seed)
        note(f"reply = {reply!r}")
        check(reply, protocol_id, strict_too=strict_too)

    return test_parse_reply_never_raises


#: Half the protocols here, the other half in ``test_protocols_fuzz_second_half.py``: the fuzz
#: is most of the suite's time, and ``pytest -n auto --dist loadfile`` runs one file per worker.
FIRST_HALF = PROTOCOLS[: len(PROTOCOLS) // 2 + 1]
SECOND_HALF = PROTOCOLS[len(PROTOCOLS) // 2 + 1:]
test_parse_reply_never_raises = fuzz_test(FIRST_HALF)


#: Replies that once broke a parser, kept as cases: found by ``tests/benchmarks/fuzz_long.py``
#: (seed 0: a lone surrogate made ``defusedxml`` raise ``UnicodeEncodeError`` out of the XML
#: readers, which ``parse_reply`` reported as "parser failed").
REGRESSIONS = {
    "xml_lone_surrogate": '<function_calls><invoke name="get_weather"><parameter name="city">'
                          "\udcc0</parameter></invoke></function_calls>",
    "xml_generic_lone_surrogate": '<call name="get_weather"><city>\ud800</city></call>',
    "long_run_133": "y\ud883\udff7u\u0005'</function>/>--city<invoke name=\"(True&lol;  "
                    "</function>\udcc0>\udc08=\udf56\udb83:city mutation {<think>\u000b\uddcbc"
                    "\ud837\uda93\u001e\"name\"|---|---|---|\nZRroW$SELECT \u00a7[call.arguments]"
                    "\n\uda1e\udc04,]0>]<?true|---|---|---|\n<!DOCTYPE x>2'M\"+Y",
}


@pytest.mark.parametrize("name", list(REGRESSIONS))
@pytest.mark.parametrize("protocol_id", PROTOCOLS)
def test_regressions(protocol_id, name):
    check(REGRESSIONS[name], protocol_id)


@pytest.mark.parametrize("protocol_id,name", [("xml_call", "xml_lone_surrogate"),
                                               ("xml_generic_call", "xml_generic_lone_surrogate")])
def test_lone_surrogates_in_xml_are_an_issue(protocol_id, name):
    parsed = parse_reply(REGRESSIONS[name], TOOLS, protocol_id)
    assert parsed.no_call and not parsed.format_compliant
    assert any(i.startswith(f"{protocol_id}: the XML holds a character no encoding allows")
               for i in parsed.issues), parsed.issues
