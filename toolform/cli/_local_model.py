"""``toolform local-model``: serve the bundled local model, or show where its file is."""

from __future__ import annotations

import typer

from ..errors import ToolFormError

__all__ = ["register"]


def register(app: typer.Typer) -> None:
    """Add the ``local-model`` command group (``serve``, ``path``) to ``app``.

    Parameters
    ----------
    app : typer.Typer
        The ``toolform`` command-line app.
    """
    group = typer.Typer(help="The local model: Qwen2.5-Coder-0.5B-Instruct (GGUF Q4_K_M) on "
                             "llama-cpp-python's OpenAI-compatible server.",
                        no_args_is_help=True)

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
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(1) from exc
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
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(1) from exc

    app.add_typer(group, name="local-model")
