"""The ``toolform`` command line (typer). Each command only calls library functions.

Commands are listed here by name, with the module that registers them and a one-line summary;
a command's module (and pandas, the formats, the evidence...) is imported only when that command
runs or shows its own help, so ``toolform --help`` starts in a fraction of a second
(``tests/benchmarks/bench_cli_startup.py``). Help is click's plain layout: it wraps at the
terminal's width (at most 100 columns) rather than cutting text off.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, Iterator, MutableMapping

import typer
from typer.core import TyperGroup

from ..errors import NotFoundError

__all__ = ["APP_SETTINGS", "COMMANDS", "CommandEntry", "app"]


@dataclass(frozen=True)
class CommandEntry:
    """One ``toolform`` command: the private module whose ``register(app)`` adds it, and the
    summary ``toolform --help`` lists (the first sentence of the command's own help)."""

    module: str
    summary: str


#: Every command, in the order ``toolform --help`` lists them.
COMMANDS: dict[str, CommandEntry] = {
    "ab-test": CommandEntry("_abtest", "Run the eight core formats, each with its default "
                                       "protocol, and print the table."),
    "bfcl-arm": CommandEntry("_bfcl_arm", "Run cells on the recorded BFCL draw (simple, multiple, "
                                          "parallel, parallel_multiple) and print accuracy "
                                          "under the three rules and BFCL's possible answers."),
    "render": CommandEntry("_tools", "Render a tools file in a schema format (the prompt a "
                                     "model would see)."),
    "parse": CommandEntry("_tools", "Parse a model's reply under an answer protocol."),
    "grade": CommandEntry("_tools", "Grade a reply against gold calls under the three rules."),
    "convert": CommandEntry("_tools", "Convert a tools file to another kind (OpenAI, Anthropic, "
                                      "MCP, IR JSON)."),
    "recommend": CommandEntry("_advisor", "Recommend a schema format and answer protocol from "
                                          "the study's evidence."),
    "evidence": CommandEntry("_advisor", "List the evidence tables, or show one."),
    "catalogue": CommandEntry("_catalogue", "Plan a catalogue: one shot, retrieve or two-stage, "
                                            "with the study's evidence."),
    "guard": CommandEntry("_guard", "Scan tool metadata for planted instructions (rules "
                                    "TS101-TS112); exit 1 when a server has a finding at the "
                                    "--fail-on severity or a pin mismatch."),
    "local-model": CommandEntry("_local_model", "The local model: Qwen2.5-Coder-0.5B-Instruct "
                                                "(GGUF Q4_K_M) on llama-cpp-python's "
                                                "OpenAI-compatible server."),
    "version": CommandEntry("_doctor", "Print ToolForm's version, and Python's."),
    "doctor": CommandEntry("_doctor", "Say what is installed and reachable: extras, Chromium, "
                                      "the local model, the MCP SDK, an endpoint."),
}

#: Settings every Typer app of the command line shares: click's plain help (no rich panels,
#: which cut defaults off at 80 columns and print flags as ``<bool>``), no locals in tracebacks.
APP_SETTINGS: dict[str, Any] = {
    "rich_markup_mode": None,
    "pretty_exceptions_enable": False,
    "add_completion": False,
    "context_settings": {"max_content_width": 100, "help_option_names": ["-h", "--help"]},
}


class _Commands(MutableMapping[str, Any]):
    """The group's commands: every name is listed, a command is built on first lookup."""

    def __init__(self) -> None:
        self._loaded: dict[str, Any] = {}

    def __getitem__(self, name: str) -> Any:
        if name not in self._loaded:
            if name not in COMMANDS:
                raise NotFoundError(f"no command {name!r}; commands: {', '.join(COMMANDS)}",
                                    key=name)
            self._loaded[name] = _load(name)
        return self._loaded[name]

    def __setitem__(self, name: str, command: Any) -> None:
        self._loaded[name] = command

    def __delitem__(self, name: str) -> None:
        del self._loaded[name]

    def __iter__(self) -> Iterator[str]:
        return iter(dict.fromkeys([*COMMANDS, *self._loaded]))

    def __len__(self) -> int:
        return len(set(COMMANDS) | set(self._loaded))


def _load(name: str) -> Any:
    """Import the command's module and build its click command."""
    module = importlib.import_module(f"{__name__}.{COMMANDS[name].module}")
    holder = typer.Typer(**APP_SETTINGS)
    module.register(holder)
    return typer.main.get_group(holder).commands[name]


class _LazyGroup(TyperGroup):
    """The ``toolform`` group: lists every command from :data:`COMMANDS` without importing it."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.commands = _Commands()

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        with formatter.section("Commands"):
            formatter.write_dl([(name, entry.summary) for name, entry in COMMANDS.items()])


app = typer.Typer(
    cls=_LazyGroup, no_args_is_help=True,
    help="ToolForm: how should an agent show its tools to a model, and read the calls back? "
         "Run `toolform COMMAND --help` for a command's options.",
    **APP_SETTINGS,
)


@app.callback()
def _main() -> None:
    """ToolForm: how should an agent show its tools to a model, and read the calls back?"""
