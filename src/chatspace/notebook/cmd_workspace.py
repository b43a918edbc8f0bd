"""``%workspace``: show or switch the current workspace; manage workspaces and their users.

The verbs are the client's (``client.workspaces.list/create/delete/add_user/update_user/
remove_user``); see ``docs/vocabulary.md``.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TYPE_CHECKING

from chatspace.errors import NotFoundError

from .commands import Command
from .display import Message
from .options import Parser

if TYPE_CHECKING:
    import pandas as pd

    from .context import NotebookContext

__all__ = ["COMMANDS"]

ACCESS = ("reader", "writer", "admin")


def _use(ctx: NotebookContext, args: argparse.Namespace) -> Message:
    """No name: the current workspace. A name: switch to it (it must exist for you)."""
    session = ctx.session
    workspaces = session.client.workspaces
    if args.name is None:
        found = workspaces.get(session.settings.default_workspace)
        return Message(f"workspace {found.id} ({found.name})")
    created = ""
    try:
        found = workspaces.get(args.name)  # a 404 here leaves the current one
    except NotFoundError:
        if not args.create:
            raise
        found, created = workspaces.create(args.name), ", created"
    session.settings.default_workspace = found.id
    return Message(f"now in workspace {found.id} ({found.name}{created})")


def _list(ctx: NotebookContext, args: argparse.Namespace) -> pd.DataFrame:
    frame = ctx.session.client.workspaces.list().to_pandas()
    frame.insert(0, "current", frame["id"] == ctx.session.settings.default_workspace)
    return frame


def _create(ctx: NotebookContext, args: argparse.Namespace) -> Message:
    name = " ".join(args.name) if args.name else None
    created = ctx.session.client.workspaces.create(args.id, name)
    return Message(
        f"created workspace {created.id} ({created.name}); %workspace {created.id} to use it"
    )


def _delete(ctx: NotebookContext, args: argparse.Namespace) -> Message:
    session = ctx.session
    session.client.workspaces.delete(args.id)
    if session.settings.default_workspace == args.id:
        session.settings.default_workspace = "default"
        return Message(f"deleted workspace {args.id}; now in workspace default")
    return Message(f"deleted workspace {args.id}")


def _users(ctx: NotebookContext, args: argparse.Namespace) -> pd.DataFrame:
    workspace = args.id or ctx.session.settings.default_workspace
    return ctx.session.client.workspaces.users(workspace=workspace).to_pandas()


def _target(ctx: NotebookContext, args: argparse.Namespace) -> str:
    return str(args.workspace or ctx.session.settings.default_workspace)


def _add_user(ctx: NotebookContext, args: argparse.Namespace) -> Message:
    where = _target(ctx, args)
    ctx.session.client.workspaces.add_user(args.user, args.access, workspace=where)
    return Message(f"added {args.user} to workspace {where} as {args.access}")


def _update_user(ctx: NotebookContext, args: argparse.Namespace) -> Message:
    where = _target(ctx, args)
    ctx.session.client.workspaces.update_user(args.user, args.access, workspace=where)
    return Message(f"{args.user} is now {args.access} in workspace {where}")


def _remove_user(ctx: NotebookContext, args: argparse.Namespace) -> Message:
    where = _target(ctx, args)
    ctx.session.client.workspaces.remove_user(args.user, workspace=where)
    return Message(f"removed {args.user} from workspace {where}")


def _use_options(parser: Parser) -> None:
    parser.add_argument("name", nargs="?", metavar="NAME", help="the workspace to switch to")
    parser.add_argument("--create", action="store_true", help="create it when it does not exist")


def _no_options(parser: Parser) -> None:
    del parser


def _create_options(parser: Parser) -> None:
    parser.add_argument("id", metavar="ID", help="lowercase letters and digits, - or _ between")
    parser.add_argument("name", nargs="*", metavar="NAME", help="display name (default: the id)")


def _delete_options(parser: Parser) -> None:
    parser.add_argument("id", metavar="ID", help="the workspace to delete, with its files")


def _users_options(parser: Parser) -> None:
    parser.add_argument("id", nargs="?", metavar="ID", help="workspace (default: the current one)")


def _user_options(with_access: bool) -> Callable[[Parser], None]:
    def build(parser: Parser) -> None:
        parser.add_argument("user", metavar="USER", help="the user id")
        if with_access:
            parser.add_argument("access", choices=ACCESS, help="reader, writer or admin")
        parser.add_argument("-w", "--workspace", help="workspace (default: the current one)")

    return build


COMMANDS = [
    Command("use", "show the current workspace, or switch: NAME", _use_options, _use),
    Command("list", "your workspaces as a DataFrame", _no_options, _list),
    Command("create", "create a workspace: ID [NAME]", _create_options, _create),
    Command(
        "delete", "delete a workspace with its files and completions: ID", _delete_options, _delete
    ),
    Command("users", "the users of a workspace as a DataFrame: [ID]", _users_options, _users),
    Command("add-user", "give a user access: USER ACCESS", _user_options(True), _add_user),
    Command(
        "update-user", "change a user's access: USER ACCESS", _user_options(True), _update_user
    ),
    Command("remove-user", "take a user out: USER", _user_options(False), _remove_user),
]
