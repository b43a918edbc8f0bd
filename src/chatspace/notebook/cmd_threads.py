"""``%chat threads | reset | resume | export | config``: the conversations and the connection."""

from __future__ import annotations

import argparse
from collections import Counter
from typing import TYPE_CHECKING, Any

from .commands import Command
from .display import Message
from .options import OptionError, Parser
from .settings import ChatspaceSettings

if TYPE_CHECKING:
    import pandas as pd

    from .context import NotebookContext

__all__ = ["COMMANDS"]

_NAME = ChatspaceSettings.__name__
"""Where ``%chat config`` says a setting comes from: ``%config ChatspaceSettings.x``."""


def _threads(ctx: NotebookContext, args: argparse.Namespace) -> pd.DataFrame:
    """The threads in memory, and those stored for this notebook, one row each."""
    import pandas as pd

    book = ctx.session.threads
    stored: Counter[str] = Counter()
    if not args.local:
        stored = _stored_threads(ctx)
    names = sorted(set(book.threads) | set(stored) | {book.current})
    rows = [
        {
            "thread": name,
            "current": name == book.current,
            "turns": len(book.threads[name].turns) if name in book.threads else 0,
            "tokens": book.threads[name].tokens if name in book.threads else 0,
            "stored_turns": stored.get(name, 0),
        }
        for name in names
    ]
    return pd.DataFrame(rows, columns=["thread", "current", "turns", "tokens", "stored_turns"])


def _stored_threads(ctx: NotebookContext) -> Counter[str]:
    from .conversations import stored_threads

    workspace = ctx.session.settings.default_workspace
    return stored_threads(ctx.session.client, workspace=workspace, notebook=ctx.notebook)


def _reset(ctx: NotebookContext, args: argparse.Namespace) -> Message:
    book = ctx.session.threads
    if args.all:
        count = len(book.threads)
        book.clear()
        return Message(f"forgot {count} threads; %%chat now continues thread {book.current}")
    name = args.name or book.current
    turns = len(book.threads[name].turns) if name in book.threads else 0
    book.reset(name)
    return Message(f"thread {name} starts afresh ({turns} turns forgotten)")


def _resume(ctx: NotebookContext, args: argparse.Namespace) -> Message:
    session = ctx.session
    thread = ctx.session.threads.resume(
        session.client,
        args.name,
        workspace=session.settings.default_workspace,
        notebook=ctx.notebook,
    )
    return Message(
        f"thread {thread.name} resumed with {len(thread.turns)} stored turns "
        f"(~{thread.tokens} tokens); %%chat continues it"
    )


def _export(ctx: NotebookContext, args: argparse.Namespace) -> Message:
    from .export import write_thread
    from .sources import stored_sources

    session = ctx.session
    book = session.threads
    name = args.name or book.current
    if name not in book.threads:
        raise OptionError(
            f"%chat export: no thread {name!r} in this kernel; %chat resume {name} first"
        )
    ids = [t.completion_id for t in book.threads[name].turns if t.completion_id]
    retrieved = {
        i: stored_sources(session.client, i, session.settings.default_workspace) for i in ids
    }
    path = write_thread(book.threads[name], args.output, args.to, retrieved)
    return Message(f"wrote {len(book.threads[name].turns)} turns of thread {name} to {path}")


def _config(ctx: NotebookContext, args: argparse.Namespace) -> ConfigView:
    session = ctx.session
    client = session.client
    config = client.config
    sources = config.sources
    user, org = _identity(client)
    settings = session.settings
    workspace_from = sources.get("workspace", "default")
    if settings.default_workspace != config.workspace:
        workspace_from = f"%workspace or {_NAME}.default_workspace"
    rows = [
        ("service", config.base_url, sources.get("base_url", "")),
        ("token", config.token or "(none)", sources.get("token", "")),
        ("user", user or "(unknown)", "the token"),
        ("organization", org or "(unknown)", "the token"),
        ("workspace", settings.default_workspace, workspace_from),
        ("model", *session.model_choice()),
        ("store", str(settings.store), f"{_NAME}.store"),
        ("stream", str(settings.stream), f"{_NAME}.stream"),
        ("top_k", str(settings.default_top_k or "(service default)"), f"{_NAME}.default_top_k"),
        ("format", settings.default_format, f"{_NAME}.default_format"),
        ("history", f"{settings.thread_token_budget} tokens", f"{_NAME}.thread_token_budget"),
        ("thread", ctx.session.threads.current, "%%chat --thread"),
    ]
    return ConfigView(rows)


def _identity(client: Any) -> tuple[str | None, str | None]:
    """The user and organization named by the client's token (read, never shown)."""
    auth = getattr(client, "_auth", None)
    header = auth.header() if auth is not None else None
    if not header:
        return None, None
    try:
        import jwt

        claims = jwt.decode(header.split(" ", 1)[-1], options={"verify_signature": False})
    except Exception:  # an opaque token: nothing to read
        return None, None
    return claims.get("sub"), claims.get("org_id")


class ConfigView:
    """``%chat config``: each setting, its value and where it came from (token masked)."""

    def __init__(self, rows: list[tuple[str, str, str]]) -> None:
        self.rows = rows

    def __getitem__(self, key: str) -> str:
        return next(value for name, value, _ in self.rows if name == key)

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, str]:
        from .markup import markdown_literal

        width = max(len(name) for name, _, _ in self.rows)
        plain = "\n".join(f"{n.ljust(width)}  {v}  ({src})" for n, v, src in self.rows)
        table = ["| setting | value | from |", "|---|---|---|"]
        table += [
            f"| {markdown_literal(n)} | {markdown_literal(v)} | {markdown_literal(src)} |"
            for n, v, src in self.rows
        ]
        return {"text/plain": plain, "text/markdown": "\n".join(table)}

    def __repr__(self) -> str:
        return self._repr_mimebundle_()["text/plain"]


def _no_options(parser: Parser) -> None:
    del parser


def _threads_options(parser: Parser) -> None:
    parser.add_argument(
        "--local", action="store_true", help="only the threads of this kernel (no service call)"
    )


def _reset_options(parser: Parser) -> None:
    parser.add_argument("name", nargs="?", help="the thread to reset (default: the current one)")
    parser.add_argument("--all", action="store_true", help="forget every thread")


def _export_options(parser: Parser) -> None:
    from .export import EXPORT_FORMATS

    parser.add_argument("name", nargs="?", help="the thread (default: the current one)")
    parser.add_argument("--to", choices=EXPORT_FORMATS, help="format (default: from -o, else md)")
    parser.add_argument("-o", "--output", metavar="PATH", help="file (default: THREAD.FORMAT)")


def _resume_options(parser: Parser) -> None:
    parser.add_argument("name", help="the thread to rebuild from its stored completions")


COMMANDS = [
    Command(
        "threads",
        "the threads, their turns and tokens, and stored turns",
        _threads_options,
        _threads,
    ),
    Command("reset", "start the current (or named) thread afresh", _reset_options, _reset),
    Command(
        "resume",
        "rebuild a thread from stored completions (after a restart)",
        _resume_options,
        _resume,
    ),
    Command(
        "export",
        "write a thread with its citations: [THREAD] --to md|ipynb|json [-o PATH]",
        _export_options,
        _export,
    ),
    Command(
        "config",
        "the service, user, workspace and defaults in use, and their origin",
        _no_options,
        _config,
    ),
]
