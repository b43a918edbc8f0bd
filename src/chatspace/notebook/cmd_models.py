"""``%chat models [list | add NAME --url URL ... | test NAME | remove NAME]``: the models and
their origin.

The verbs are the CLI's (``chatspace models list|add|test|remove``).
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from .commands import Command
from .display import Message
from .options import OptionError, Parser

if TYPE_CHECKING:
    from .context import NotebookContext

__all__ = ["COMMANDS"]

_ACTIONS = ("list", "add", "test", "remove")


def _options(parser: Parser) -> None:
    parser.add_argument("action", nargs="?", default="list", choices=_ACTIONS)
    parser.add_argument("name", nargs="?", help="the model name users pick (add, test, remove)")
    parser.add_argument("--url", help="the server's OpenAI-compatible base URL (add)")
    parser.add_argument("--model", help="the server's name for the model (default: NAME)")
    key = parser.add_mutually_exclusive_group()
    key.add_argument("--key-env", metavar="VAR", help="take the key from this kernel variable")
    key.add_argument(
        "--key-prompt", action="store_true", help="type the key into a password prompt"
    )
    parser.add_argument("--timeout", type=float, help="seconds (default 120)")
    parser.add_argument("--replace", action="store_true", help="change an existing model")
    parser.add_argument(
        "--no-check", action="store_true", help="add without asking the server first (add)"
    )


def _models(ctx: NotebookContext, args: argparse.Namespace) -> Any:
    from .models import add_model, check_model, models_frame, remove_model

    session = ctx.session
    if args.action == "list":
        return models_frame(session)
    if not args.name:
        raise OptionError(f"%chat models {args.action}: name the model (see %chat models --help)")
    if args.action == "remove":
        return Message(remove_model(session, args.name))
    if args.action == "test":
        return Message(check_model(session, args.name))
    if not args.url:
        raise OptionError("%chat models add: --url is required (see %chat models --help)")
    return Message(
        add_model(
            session,
            args.name,
            url=args.url,
            model=args.model,
            key_env=args.key_env,
            key_prompt=args.key_prompt,
            timeout=args.timeout,
            replace=args.replace,
            check=not args.no_check,
        )
    )


COMMANDS = [
    Command(
        "models",
        "the models served and where each comes from; add NAME --url URL, test NAME, remove NAME",
        _options,
        _models,
    )
]
