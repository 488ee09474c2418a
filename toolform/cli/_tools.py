"""``toolform render``, ``parse``, ``grade`` and ``convert``: one tools file at a time.

Each is a thin call into the library: ``render`` into ``toolform.formats.render``, ``parse``
into ``toolform.protocols.parse_reply``, ``grade`` into ``toolform.grading.grade`` under every
rule, ``convert`` into ``toolform.io.load_tools`` and ``export_tools``. A reply is read from a
file, from standard input (``-``), or given with ``--reply``.

Exit status: 0 on success (``grade`` too, whatever the verdict: the verdict is its output);
2 for a usage error or an unreadable input (the message names the file, the tool and the path).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Optional

import typer

from ..errors import InvalidParameterError

__all__ = ["register"]

_TOOLS_HELP = "Tools file: OpenAI, Anthropic, MCP tools/list, BFCL or ToolForm IR JSON."


def _load(tools: Path) -> Any:
    from ..io import load_tools

    return load_tools(tools)


def _reply_text(reply_file: Optional[Path], reply: Optional[str]) -> str:
    """The reply from ``--reply``, a file, or standard input (``-``)."""
    if (reply_file is None) == (reply is None):
        raise typer.BadParameter("give the reply one way: a file, - for standard input, or "
                                 "--reply TEXT", param_hint="REPLY")
    if reply is not None:
        return reply
    assert reply_file is not None
    if str(reply_file) == "-":
        return sys.stdin.read()
    return reply_file.read_text(encoding="utf-8")


def _gold_calls(gold: str) -> list[Any]:
    """Gold calls from JSON text or a JSON file: one call or a list; each either
    ``{"name", "arguments"}`` (exactly these values) or ``{"name", "accepted", "may_omit"}``."""
    from ..ir import GoldCall, ToolCall

    path = Path(gold)
    text = path.read_text(encoding="utf-8") if not gold.lstrip().startswith(("{", "[")) \
        else gold
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise InvalidParameterError(f"--gold is not JSON ({exc})") from None
    items = data if isinstance(data, list) else [data]
    calls = []
    for index, item in enumerate(items):
        if not isinstance(item, dict) or not isinstance(item.get("name"), str):
            raise InvalidParameterError(
                f"--gold item {index} is not a call: expected an object with a "
                f"name, got {item!r}")
        if "accepted" in item:
            calls.append(GoldCall.from_dict(item))
        else:
            calls.append(GoldCall.from_call(ToolCall(item["name"],
                                                     dict(item.get("arguments") or {}))))
    return calls


def _calls_json(calls: Any) -> list[dict[str, Any]]:
    return [c.to_dict() for c in calls]


def register(app: typer.Typer) -> None:
    """Add ``render``, ``parse``, ``grade`` and ``convert`` to ``app``.

    Parameters
    ----------
    app : typer.Typer
        The ``toolform`` command-line app.
    """
    from ._failures import fail

    @app.command("render")
    def render_command(
        tools: Path = typer.Argument(..., metavar="TOOLS", help=_TOOLS_HELP),
        format_id: str = typer.Option("json_schema_openai", "--format", metavar="FORMAT",
                                      help="Schema format (toolform.formats.format_ids())."),
        protocol_id: Optional[str] = typer.Option(
            None, "--protocol", metavar="PROTOCOL",
            help="Answer protocol asked for. Default: the format's own."),
        request: Optional[str] = typer.Option(None, "--request", metavar="TEXT",
                                              help="A user request, added as the last message."),
        descriptions: bool = typer.Option(True, help="Show tool and parameter descriptions."),
        block_only: bool = typer.Option(False, "--block-only",
                                        help="Print the tool block alone, not the messages."),
        as_json: bool = typer.Option(False, "--json",
                                     help="Print the messages and token counts as JSON."),
    ) -> None:
        """Render a tools file in a schema format (the prompt a model would see).

        Prints each chat message under a role line; the tool block's size goes to stderr
        (characters, and tokens estimated as characters / 4).
        """
        from ..errors import ToolFormError
        from ..formats import RenderOptions, render

        try:
            prompt = render(_load(tools), format_id, protocol_id, request,
                            options=RenderOptions(include_descriptions=descriptions))
        except (ToolFormError, ValueError, OSError) as exc:
            raise fail(str(exc)) from None
        if as_json:
            typer.echo(json.dumps({
                "format_id": prompt.format_id, "protocol_id": prompt.protocol_id,
                "messages": prompt.messages, "api_tools": prompt.api_tools,
                "schema_chars": prompt.schema_chars, "schema_tokens": prompt.schema_tokens,
                "schema_tokens_tiktoken": prompt.schema_tokens_tiktoken,
            }, indent=2, ensure_ascii=False))
            return
        if block_only:
            typer.echo(prompt.schema_text)
        else:
            for message in prompt.messages:
                typer.echo(f"--- {message['role']} ---")
                typer.echo(message["content"])
        typer.echo(f"{prompt.format_id}/{prompt.protocol_id}: {prompt.schema_chars:,} characters, "
                   f"{prompt.schema_tokens:,} tokens (characters / 4)", err=True)

    @app.command("parse")
    def parse_command(
        tools: Path = typer.Argument(..., metavar="TOOLS", help=_TOOLS_HELP),
        reply_file: Optional[Path] = typer.Argument(
            None, metavar="REPLY", help="File holding the reply; - reads standard input."),
        protocol_id: str = typer.Option(..., "--protocol", metavar="PROTOCOL",
                                        help="The protocol the model was asked to answer in."),
        reply: Optional[str] = typer.Option(None, "--reply", metavar="TEXT",
                                            help="The reply itself, instead of a file."),
        rule: str = typer.Option("main", "--rule", metavar="RULE",
                                 help="Which calls to print: main, symmetric or as_written."),
        lenient: bool = typer.Option(False, "--lenient",
                                     help="Take another protocol's calls when the asked one "
                                          "reads none (a repair)."),
        as_json: bool = typer.Option(False, "--json", help="Print the parse as JSON."),
    ) -> None:
        """Parse a model's reply under an answer protocol.

        Prints whether the asked protocol's parser read a call (strict), whether any protocol
        did (lenient), whether the reply kept to the protocol, the calls (one JSON object a
        line) and every issue the parser forgave or could not read.
        """
        from ..errors import ToolFormError
        from ..grading import check_rule, select_calls
        from ..protocols import parse_reply

        try:
            text = _reply_text(reply_file, reply)
            check_rule(rule)
            parsed = parse_reply(text, _load(tools), protocol_id, lenient_fallback=lenient)
        except (ToolFormError, ValueError, OSError) as exc:
            raise fail(str(exc)) from None
        calls = select_calls(parsed, rule, nearest=True)
        if as_json:
            data = {**parsed.to_dict(), "rule": rule, "calls": [c.to_dict() for c in calls]}
            typer.echo(json.dumps(data, indent=2, ensure_ascii=False, default=str))
            return
        lenient_note = (f" (read as {parsed.lenient_protocol}"
                        + ("; calls taken)" if parsed.lenient_taken else "; calls not taken)")
                        if parsed.parsed_lenient and not parsed.parsed_strict else "")
        typer.echo(f"strict parse ({parsed.protocol_id}): {_yes(parsed.parsed_strict)}; "
                   f"lenient parse: {_yes(parsed.parsed_lenient)}{lenient_note}; "
                   f"format compliant: {_yes(parsed.format_compliant)}")
        typer.echo(f"calls under {rule} ({len(calls)}):")
        for call in calls:
            typer.echo("  " + json.dumps(call.to_dict(), ensure_ascii=False))
        for issue in parsed.issues:
            typer.echo(f"issue: {issue}")

    @app.command("grade")
    def grade_command(
        tools: Path = typer.Argument(..., metavar="TOOLS", help=_TOOLS_HELP),
        reply_file: Optional[Path] = typer.Argument(
            None, metavar="REPLY", help="File holding the reply; - reads standard input."),
        gold: str = typer.Option(..., "--gold", metavar="JSON",
                                 help='The expected calls, as JSON or a JSON file: '
                                      '{"name": ..., "arguments": {...}} or a list of them; '
                                      'BFCL-style {"name", "accepted": {arg: [values]}} too.'),
        protocol_id: str = typer.Option(..., "--protocol", metavar="PROTOCOL",
                                        help="The protocol the model was asked to answer in."),
        reply: Optional[str] = typer.Option(None, "--reply", metavar="TEXT",
                                            help="The reply itself, instead of a file."),
        as_json: bool = typer.Option(False, "--json", help="Print the verdicts as JSON."),
    ) -> None:
        """Grade a reply against gold calls under the three rules.

        One line per rule (main, symmetric, as_written): correct, right tool, schema valid,
        and why not. A gold call the tools file cannot satisfy is an error (exit 2), never a
        verdict.
        """
        from ..errors import ToolFormError
        from ..grading import grade_rules
        from ..protocols import parse_reply

        try:
            text = _reply_text(reply_file, reply)
            toolset = _load(tools)
            golds = _gold_calls(gold)
            verdicts = grade_rules(parse_reply(text, toolset, protocol_id), golds, toolset)
        except (ToolFormError, ValueError, OSError) as exc:
            raise fail(str(exc)) from None
        if as_json:
            typer.echo(json.dumps({rule: {"correct": v.correct, "tool_correct": v.tool_correct,
                                          "schema_valid": v.schema_valid, "reason": v.reason}
                                   for rule, v in verdicts.items()}, indent=2,
                                  ensure_ascii=False))
            return
        width = max(len(r) for r in verdicts)
        for rule, v in verdicts.items():
            typer.echo(f"{rule:<{width}}  correct: {_yes(v.correct):3}  right tool: "
                       f"{_yes(v.tool_correct):3}  schema valid: {_yes(v.schema_valid):3}"
                       + (f"  why not: {v.reason}" if v.reason else ""))

    @app.command("convert")
    def convert_command(
        tools: Path = typer.Argument(..., metavar="TOOLS", help=_TOOLS_HELP),
        to: str = typer.Option(..., "--to", metavar="KIND",
                               help="openai, anthropic, mcp or ir (BFCL is read only)."),
        out: Optional[Path] = typer.Option(None, "--out", metavar="FILE",
                                           help="Where to write (default: standard output)."),
    ) -> None:
        """Convert a tools file to another kind (OpenAI, Anthropic, MCP, IR JSON)."""
        from ..errors import ToolFormError
        from ..io import export_tools

        try:
            document = export_tools(_load(tools), to)
            text = json.dumps(document, indent=2, ensure_ascii=False) + "\n"
            if out is None:
                typer.echo(text, nl=False)
            else:
                out.write_text(text, encoding="utf-8")
        except (ToolFormError, ValueError, OSError) as exc:
            raise fail(str(exc)) from None
        if out is not None:
            typer.echo(f"wrote {out} ({to})", err=True)


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"
