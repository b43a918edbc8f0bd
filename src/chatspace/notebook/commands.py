"""Subcommands of a magic as a table: ``%files upload ...`` runs ``table["upload"]``.

Each :class:`Command` has its own parser (built on first use, so that loading the
extension stays cheap) and a handler taking the notebook context and the parsed options. A
line whose first word is no subcommand goes to the group's default command, which is how
``%workspace NAME`` switches and ``%chat QUESTION`` asks.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .options import HelpRequested, Parser, split_args

if TYPE_CHECKING:
    from .context import NotebookContext

__all__ = ["Command", "CommandGroup"]

Handler = Callable[["NotebookContext", argparse.Namespace], Any]


@dataclass
class Command:
    """One subcommand: how to build its parser, and what to run."""

    name: str
    summary: str
    build: Callable[[Parser], None]
    run: Handler
    prog: str = ""
    _parser: Parser | None = field(default=None, repr=False)

    def parser(self) -> Parser:
        if self._parser is None:
            parser = Parser(self.prog, self.summary)
            self.build(parser)
            self._parser = parser
        return self._parser

    def __call__(self, ctx: NotebookContext, words: list[str]) -> Any:
        return self.run(ctx, self.parser().parse(words))


class CommandGroup:
    """The subcommands of one magic, dispatched on the first word of its line."""

    def __init__(
        self,
        magic: str,
        summary: str,
        commands: list[Command],
        default: str,
    ) -> None:
        self.magic = magic
        self.summary = summary
        self.commands = {c.name: c for c in commands}
        self.default = default
        for command in commands:
            command.prog = magic if command.name == default else f"{magic} {command.name}"

    def __call__(self, ctx: NotebookContext, line: str) -> Any:
        # A trailing ";" hides a cell's Out in IPython; it is no part of the options.
        words = split_args(line.rstrip().removesuffix(";"), self.magic)
        if words and words[0] in ("-h", "--help", "help"):
            raise HelpRequested(self.help())
        if words and words[0] in self.commands:
            return self.commands[words[0]](ctx, words[1:])
        return self.commands[self.default](ctx, words)

    def help(self) -> str:
        """The group's usage: one line per subcommand, then how to get more."""
        width = max(len(name) for name in self.commands)
        lines = [f"{self.magic}: {self.summary}", ""]
        for name, command in self.commands.items():
            shown = f"[{name}]" if name == self.default else name
            lines.append(f"  {self.magic} {shown.ljust(width)}  {command.summary}")
        lines += ["", f"{self.magic} SUBCOMMAND --help shows the options of one subcommand."]
        return "\n".join(lines)
