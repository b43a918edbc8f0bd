"""``%completions``: the stored completions as a DataFrame, one completion's messages and
sources, and a full-text search of past questions and answers."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

from .commands import Command
from .grammar import parse_mapping
from .markup import markdown_literal, safe_markdown
from .options import Parser, positive_int
from .sources import SOURCE_COLUMNS, source_rows, stored_sources

if TYPE_CHECKING:
    import pandas as pd

    from .context import NotebookContext

__all__ = ["COMMANDS", "Transcript"]

DEFAULT_LIMIT = 100


def _list(ctx: NotebookContext, args: argparse.Namespace) -> pd.DataFrame:
    """Stored completions, newest first unless ``--order asc``; at most ``--max-items``."""
    # --filter as everywhere (JSON or k=v words); given twice, both apply
    metadata = {
        key: value if isinstance(value, str) else json.dumps(value)
        for text in args.filter or ()
        for key, value in parse_mapping(text, field="--filter").items()
    }
    if args.thread:
        metadata["thread"] = args.thread
    client = ctx.session.client
    workspace = args.workspace or ctx.session.settings.default_workspace
    page = client.chat.list(
        workspace=workspace,
        model=args.model,
        metadata=metadata or None,
        order=args.order,
        limit=min(args.max_items, 100),
    )
    return page.to_pandas(max_items=args.max_items)


def _search(ctx: NotebookContext, args: argparse.Namespace) -> pd.DataFrame:
    """Completions whose question or answer holds every word of TEXT, newest first (the
    service's search: case, accents and order aside, punctuation not searched)."""
    page = ctx.session.client.chat.list(
        workspace=args.workspace or ctx.session.settings.default_workspace,
        search=" ".join(args.text),
        order="desc",
        limit=min(args.max_items, 100),
    )
    return page.to_pandas(max_items=args.max_items)


def _show(ctx: NotebookContext, args: argparse.Namespace) -> Transcript:
    """The messages of one stored completion, as a transcript, then its sources."""
    client = ctx.session.client
    workspace = args.workspace or ctx.session.settings.default_workspace
    page = client.chat.messages(args.id, workspace=workspace, limit=100)
    messages: list[tuple[str, str]] = [(m.role, m.content or "") for m in page]
    return Transcript(args.id, messages, source_rows(stored_sources(client, args.id, workspace)))


class Transcript:
    """Messages shown one after the other, each under its role, then the table of the
    completion's sources; ``to_pandas()`` for the messages as a table."""

    def __init__(
        self,
        completion_id: str,
        messages: list[tuple[str, str]],
        sources: list[dict[str, Any]] | None = None,
    ) -> None:
        self.completion_id = completion_id
        self.messages = messages
        self.sources = sources or []

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, str]:
        plain = [f"{self.completion_id}: {len(self.messages)} messages"]
        markdown = [f"**{markdown_literal(self.completion_id)}**: {len(self.messages)} messages"]
        for role, content in self.messages:
            plain.append(f"[{role}]\n{content}")
            markdown.append(f"**{markdown_literal(role)}**\n\n{safe_markdown(content)}")
        if self.sources:
            plain.append(f"[sources] {len(self.sources)}\n" + _plain_table(self.sources))
            markdown.append(
                f"**sources** ({len(self.sources)})\n\n" + _markdown_table(self.sources)
            )
        return {"text/plain": "\n\n".join(plain), "text/markdown": "\n\n---\n\n".join(markdown)}

    def to_pandas(self) -> pd.DataFrame:
        import pandas as pd

        return pd.DataFrame(self.messages, columns=["role", "content"])

    def __repr__(self) -> str:
        return self._repr_mimebundle_()["text/plain"]


def _plain_table(rows: list[dict[str, Any]]) -> str:
    return "\n".join(" | ".join(str(r[c]) for c in SOURCE_COLUMNS) for r in rows)


def _markdown_table(rows: list[dict[str, Any]]) -> str:
    """The sources as a Markdown table; every cell literal (a quote's ``|`` or ``<b>`` too)."""
    lines = ["| " + " | ".join(SOURCE_COLUMNS) + " |", "|" + "---|" * len(SOURCE_COLUMNS)]
    for r in rows:
        lines.append("| " + " | ".join(markdown_literal(r[c]) for c in SOURCE_COLUMNS) + " |")
    return "\n".join(lines)


def _max_items(parser: Parser) -> None:
    parser.add_argument(
        "--max-items", type=positive_int, default=DEFAULT_LIMIT, metavar="N", help="at most N"
    )


def _list_options(parser: Parser) -> None:
    parser.add_argument("--model", help="only completions of this model")
    _max_items(parser)
    parser.add_argument(
        "--filter", action="append", metavar="K=V", help="metadata to match (JSON or k=v words)"
    )
    parser.add_argument("--thread", help="only the turns of this thread")
    parser.add_argument("--order", choices=("asc", "desc"), default="desc", help="by creation")
    parser.add_argument("-w", "--workspace", help="workspace (default: the current one)")


def _show_options(parser: Parser) -> None:
    parser.add_argument("id", metavar="ID", help="the completion")
    parser.add_argument("-w", "--workspace", help="workspace (default: the current one)")


def _search_options(parser: Parser) -> None:
    parser.add_argument("text", nargs="+", metavar="TEXT", help="words to find")
    _max_items(parser)
    parser.add_argument("-w", "--workspace", help="workspace (default: the current one)")


COMMANDS = [
    Command("list", "stored completions as a DataFrame", _list_options, _list),
    Command("search", "past questions and answers by their words: TEXT", _search_options, _search),
    Command("show", "the messages and sources of one completion: ID", _show_options, _show),
]
