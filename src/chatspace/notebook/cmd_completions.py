"""``%completions``: the stored completions as a DataFrame, and one completion's messages."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from .commands import Command
from .markup import markdown_literal, safe_markdown
from .options import Parser, parse_pairs, positive_int

if TYPE_CHECKING:
    import pandas as pd

    from .magics import ChatspaceMagics

__all__ = ["COMMANDS", "Transcript"]

DEFAULT_LIMIT = 100


def _list(magics: ChatspaceMagics, args: argparse.Namespace) -> pd.DataFrame:
    """Stored completions, newest first unless ``--order asc``; at most ``--limit``."""
    metadata = parse_pairs(args.metadata, "--metadata")
    if args.thread:
        metadata["thread"] = args.thread
    client = magics.session.client
    workspace = args.workspace or magics.session.workspace
    page = client.chat.list(
        workspace=workspace,
        model=args.model,
        metadata=metadata or None,
        order=args.order,
        limit=min(args.limit, 100),
    )
    return page.to_pandas(limit=args.limit)


def _show(magics: ChatspaceMagics, args: argparse.Namespace) -> Transcript:
    """The messages of one stored completion, as a transcript."""
    page = magics.session.client.chat.messages(
        args.id, workspace=args.workspace or magics.session.workspace, limit=100
    )
    return Transcript(args.id, [(m.role, m.content or "") for m in page])


class Transcript:
    """Messages shown one after the other, each under its role; ``to_pandas()`` for a table."""

    def __init__(self, completion_id: str, messages: list[tuple[str, str]]) -> None:
        self.completion_id = completion_id
        self.messages = messages

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, str]:
        plain = [f"{self.completion_id}: {len(self.messages)} messages"]
        markdown = [f"**{markdown_literal(self.completion_id)}**: {len(self.messages)} messages"]
        for role, content in self.messages:
            plain.append(f"[{role}]\n{content}")
            markdown.append(f"**{markdown_literal(role)}**\n\n{safe_markdown(content)}")
        return {"text/plain": "\n\n".join(plain), "text/markdown": "\n\n---\n\n".join(markdown)}

    def to_pandas(self) -> pd.DataFrame:
        import pandas as pd

        return pd.DataFrame(self.messages, columns=["role", "content"])

    def __repr__(self) -> str:
        return self._repr_mimebundle_()["text/plain"]


def _list_options(parser: Parser) -> None:
    parser.add_argument("--model", help="only completions of this model")
    parser.add_argument("--limit", type=positive_int, default=DEFAULT_LIMIT, help="at most N")
    parser.add_argument("--metadata", action="append", metavar="K=V", help="metadata to match")
    parser.add_argument("--thread", help="only the turns of this thread")
    parser.add_argument("--order", choices=("asc", "desc"), default="desc", help="by creation")
    parser.add_argument("-w", "--workspace", help="workspace (default: the current one)")


def _show_options(parser: Parser) -> None:
    parser.add_argument("id", metavar="ID", help="the completion")
    parser.add_argument("-w", "--workspace", help="workspace (default: the current one)")


COMMANDS = [
    Command("list", "stored completions as a DataFrame", _list_options, _list),
    Command("show", "the messages of one completion: ID", _show_options, _show),
]
