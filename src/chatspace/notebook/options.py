"""Argument parsing for the magics: argparse that never exits and never prints a traceback.

Each magic (and each subcommand of ``%files``, ``%workspace``, ...) has one
:class:`Parser`. A bad option raises :class:`OptionError` (one line, ending with where to
find the usage) and ``--help`` raises :class:`HelpRequested` with the usage text; the
magics turn both into output. ``%chat QUESTION`` reads only the *leading* options with
:func:`split_leading_options`, so the question keeps its quotes, apostrophes and braces.
"""

from __future__ import annotations

import argparse
import json
import re
import shlex
from collections.abc import Sequence
from typing import Any, NoReturn

from .grammar import InputError, parse_pairs, short

__all__ = [
    "HelpRequested",
    "OptionError",
    "Parser",
    "identifier",
    "parse_params",
    "positive_int",
    "split_args",
    "split_leading_options",
]

_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
# One shell-like word: unquoted text, '...' or "..." (with backslash escapes), glued together.
_WORD = re.compile(r"""\s*((?:[^\s'"\\]+|\\.|'[^']*'|"(?:[^"\\]|\\.)*")+)""", re.DOTALL)


def positive_int(text: str) -> int:
    """An ``argparse`` type: an integer of at least 1.

    >>> positive_int("3")
    3
    """
    try:
        value = int(text)
    except ValueError:
        flat = " ".join(str(text).split())
        shown = repr(flat if len(flat) <= 60 else flat[:59] + "…")
        raise argparse.ArgumentTypeError(f"{shown} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is not at least 1")
    return value


class OptionError(InputError):
    """A magic was called with options it cannot use; the message is one line."""


class HelpRequested(Exception):
    """``--help`` was given: ``text`` is the usage to show."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


class Parser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose errors and help are exceptions instead of exits."""

    def __init__(self, prog: str, description: str, epilog: str | None = None) -> None:
        super().__init__(
            prog=prog,
            description=description,
            epilog=epilog,
            allow_abbrev=False,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )

    def error(self, message: str) -> NoReturn:
        raise OptionError(f"{self.prog}: {message} (see {self.prog} --help)")

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        raise OptionError(message or f"{self.prog}: stopped")

    def print_help(self, file: Any = None) -> NoReturn:
        raise HelpRequested(self.format_help())

    def parse(self, argv: Sequence[str]) -> argparse.Namespace:
        return self.parse_args(list(argv))


def split_args(line: str, prog: str) -> list[str]:
    """The words of a magic's line, as a shell would split them."""
    try:
        return shlex.split(line)
    except ValueError as exc:
        raise OptionError(f"{prog}: cannot read the options: {exc} (check the quotes)") from exc


def split_leading_options(parser: Parser, line: str) -> tuple[list[str], str]:
    """Split ``line`` into the options at its start and the free text after them.

    ``-m gpt -t 0.2 What's {x}?`` gives ``(['-m', 'gpt', '-t', '0.2'], "What's {x}?")``.
    The text starts at the first word that is neither an option nor an option's value, or
    after ``--``; options that take several values (``--files a b``) take words up to the
    next option, so end them with ``--`` before a question.
    """
    argv: list[str] = []
    pos = 0
    while True:
        rest = line[pos:].lstrip()
        if not rest.startswith("-") or _is_number(rest.split(None, 1)[0]):
            return argv, rest
        word, pos = _next_word(line, pos, parser.prog)
        if word == "--":
            return argv, line[pos:].strip()
        name, eq, _ = word.partition("=")
        action = parser._option_string_actions.get(name)
        if action is None:
            parser.error(f"unrecognized option {name}")
        argv.append(word)
        if eq or action.nargs == 0:
            continue
        if action.nargs is None or isinstance(action.nargs, int):
            for _ in range(action.nargs or 1):
                value, pos = _next_word(line, pos, parser.prog, needed_by=name)
                argv.append(value)
        else:  # "+", "*", "?": values up to the next option
            while (nxt := line[pos:].lstrip()) and not nxt.startswith("-"):
                value, pos = _next_word(line, pos, parser.prog)
                argv.append(value)
                if action.nargs == "?":
                    break


def _is_number(word: str) -> bool:
    try:
        float(word)
    except ValueError:
        return False
    return True


def _next_word(line: str, pos: int, prog: str, needed_by: str | None = None) -> tuple[str, int]:
    match = _WORD.match(line, pos)
    if match is None:
        if needed_by:
            raise OptionError(f"{prog}: argument {needed_by}: expected one argument")
        raise OptionError(f"{prog}: cannot read the options (check the quotes)")
    return split_args(match.group(1), prog)[0] if match.group(1) else "", match.end()


def parse_params(items: Sequence[str] | None, allowed: Sequence[str]) -> dict[str, Any]:
    """``--param k=v``: any request field; ``v`` is read as JSON when it is JSON, else text."""
    params: dict[str, Any] = {}
    for key, raw in parse_pairs(items, field="--param").items():
        if key not in allowed:
            raise OptionError(
                f"--param {short(key)} is not a request field; use one of: {', '.join(allowed)}"
            )
        try:
            params[key] = json.loads(raw)
        except ValueError:
            params[key] = raw
    return params


def identifier(text: str) -> str:
    """An ``argparse`` type: a Python name (for ``-o`` and ``--df``)."""
    if not _IDENTIFIER.match(text):
        raise argparse.ArgumentTypeError(f"{short(text)} is not a Python name")
    return text
