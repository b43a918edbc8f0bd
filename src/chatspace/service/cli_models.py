"""``chatspace models add | list | test | remove``: the model connections of a data dir.

They are kept in ``<data dir>/models.toml`` (:mod:`chatspace.local.connections`), which a running
service of that data dir, the embedded one included, re-reads at its next request.
A key is never an argument (it would show in the process list): it is the name of an
environment variable of the service (``--key-env``), or read from standard input
(``--key-stdin``, typed without echo at a terminal) into a file of mode 0600. ``add``
checks the connection before saving it (``--no-check`` skips that), ``test`` checks a
saved one (:func:`chatspace.local.checks.check_connection`). What cannot be done raises
:class:`chatspace.local.checks.BadConnection`, a usage error of the CLI.
"""

from __future__ import annotations

import argparse
import getpass
import sys
from typing import Any

from chatspace.local.connections import (
    DEFAULT_TIMEOUT,
    add_connection,
    check_saved,
    read_connections,
    remove_connection,
)
from chatspace.local.datadir import data_dir

__all__ = ["add_models_parser"]


def add_models_parser(commands: Any) -> None:
    """Register ``models`` and its subcommands on the CLI's subparsers."""
    models = commands.add_parser("models", help="add, list, test or remove model connections")
    actions = models.add_subparsers(dest="action", metavar="{add,list,test,remove}", required=True)

    add = actions.add_parser("add", help="serve a model of an OpenAI-compatible server")
    add.add_argument("name", help="the name users pick (%%chat -m NAME)")
    add.add_argument("--url", required=True, help="base URL, e.g. http://127.0.0.1:8080/v1")
    add.add_argument("--model", help="the server's name for the model (default: NAME)")
    key = add.add_mutually_exclusive_group()
    key.add_argument("--key-env", metavar="VAR", help="the service's variable holding the key")
    key.add_argument(
        "--key-stdin", action="store_true", help="read the key from standard input (no echo)"
    )
    add.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, help="seconds (default 120)")
    add.add_argument("--replace", action="store_true", help="change an existing connection")
    add.add_argument(
        "--no-check",
        action="store_true",
        help="save it without asking the server first (one that is not up yet)",
    )
    add.set_defaults(run=_add)

    listing = actions.add_parser("list", help="the connections of models.toml")
    listing.set_defaults(run=_list)

    test = actions.add_parser("test", help="check that a connection works: server, key, model")
    test.add_argument("name")
    test.set_defaults(run=_test)

    remove = actions.add_parser("remove", help="stop serving a model")
    remove.add_argument("name")
    remove.set_defaults(run=_remove)

    for sub in (add, listing, test, remove):
        sub.add_argument("--data-dir", help="default: CHATSPACE_DATA_DIR or the user data dir")


def _read_key(name: str) -> str:
    if sys.stdin.isatty():
        return getpass.getpass(f"Key for {name} (not shown): ")
    return sys.stdin.read().strip()


def _add(args: argparse.Namespace) -> int:
    where = data_dir(args.data_dir)
    connection = add_connection(
        where,
        args.name,
        url=args.url,
        model=args.model,
        key=_read_key(args.name) if args.key_stdin else None,
        key_env=args.key_env,
        timeout=args.timeout,
        replace=args.replace,
        check=not args.no_check,
    )
    checked = "not checked" if args.no_check else "checked"
    print(
        f"added model {connection.name} ({connection.url}, remote model {connection.model}, "
        f"key: {connection.describe_key()}, {checked}); the service of {where} serves it "
        "from its next request"
    )
    return 0


def _test(args: argparse.Namespace) -> int:
    print(check_saved(data_dir(args.data_dir), args.name))
    return 0


def _list(args: argparse.Namespace) -> int:
    rows = [("NAME", "URL", "MODEL", "KEY", "TIMEOUT")]
    for c in read_connections(data_dir(args.data_dir)):
        rows.append((c.name, c.url, c.model, c.describe_key(), f"{c.timeout:g}"))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for row in rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())
    return 0


def _remove(args: argparse.Namespace) -> int:
    removed = remove_connection(data_dir(args.data_dir), args.name)
    print(f"removed model {removed.name}")
    return 0
