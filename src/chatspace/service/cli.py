"""The ``chatspace`` command (also ``python -m chatspace``).

``chatspace serve`` runs the reference service: it binds the socket itself (so that
``--port 0`` picks a free port), prints ``chatspace service listening on <url>`` on
stdout once it answers requests, and writes ``<data-dir>/service.json``
(:class:`chatspace.local.runtime.Runtime`) for clients to find it, removed again on
shutdown. Its options are the fields of :class:`~.config.Settings`
(:mod:`.cli_settings`), so a new setting is one field.
``chatspace token`` prints a JWT that a service using the same data dir (or the same
``CHATSPACE_JWT_SECRET``) accepts. A usage error is one line on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import copy
import logging
import os
import socket
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import uvicorn
from uvicorn.config import LOGGING_CONFIG

from chatspace._version import __version__
from chatspace.local.auth import load_or_create_secret, mint_token, parse_ttl
from chatspace.local.checks import BadConnection
from chatspace.local.datadir import data_dir
from chatspace.local.runtime import Runtime, env_fingerprint, remove_runtime
from chatspace.local.serving import READY_LINE as READY

from .cli_models import add_models_parser

if TYPE_CHECKING:
    from .config import Settings

__all__ = ["main"]

_LEVELS = ("critical", "error", "warning", "info", "debug")


class UsageError(Exception):
    """A command line that cannot be run as given (exit status 2)."""

    status = 2


class CannotStart(UsageError):
    """The command is right but the machine says no, e.g. the port is taken (status 1)."""

    status = 1


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


def _port(text: str) -> int:
    if not text.isdigit() or int(text) > 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number (0 to 65535)")
    return int(text)


def _upstreams(namespace: argparse.Namespace) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] | None = getattr(namespace, "upstreams", None)
    if found is None:
        found = []
        namespace.upstreams = found
    return found


class _UpstreamURL(argparse.Action):
    """``--upstream-url`` starts an upstream; the key and model options after it belong to it."""

    def __call__(self, parser: Any, namespace: Any, value: Any, option: Any = None) -> None:
        if not str(value).startswith(("http://", "https://")):
            parser.error(f"--upstream-url {value!r} must start with http:// or https://")
        _upstreams(namespace).append({"url": value, "models": {}})


class _UpstreamPart(argparse.Action):
    def __call__(self, parser: Any, namespace: Any, value: Any, option: Any = None) -> None:
        upstreams = _upstreams(namespace)
        if not upstreams:
            parser.error(f"{option} must come after the --upstream-url it belongs to")
        if option == "--upstream-key":
            upstreams[-1]["key"] = value
            return
        if option == "--upstream-key-env":
            if not os.environ.get(value):
                parser.error(f"--upstream-key-env {value}: that environment variable is not set")
            upstreams[-1]["key"] = os.environ[value]
            return
        for item in value:
            local, _, remote = item.partition("=")
            if not local or (_ and not remote):
                parser.error(f"--upstream-model {item!r} must be NAME or NAME=REMOTE")
            upstreams[-1]["models"][local] = remote or local


def _parser(*, settings_options: bool = True) -> argparse.ArgumentParser:
    """The command line; ``settings_options``: with the options of ``serve`` that come from
    the service's settings (importing them is only worth it for ``serve``)."""
    parser = _Parser(prog="chatspace", description="The chatspace reference service.")
    parser.add_argument("--version", action="version", version=f"chatspace {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="{serve,token,models}")

    serve = commands.add_parser("serve", help="run the reference service")
    serve.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)"
    )
    serve.add_argument(
        "--port", type=_port, default=8000, help="0 picks a free port (default 8000)"
    )
    if settings_options:
        from .cli_settings import add_settings_options  # imports the service's settings

        add_settings_options(serve)
    serve.add_argument(
        "--upstream-url",
        action=_UpstreamURL,
        dest="upstreams",
        metavar="URL",
        help="an OpenAI-compatible server to forward generation to; the --upstream-key(-env) "
        "and --upstream-model after it are its own [CHATSPACE_UPSTREAMS, as JSON]",
    )
    serve.add_argument(
        "--upstream-key-env",
        action=_UpstreamPart,
        dest="upstreams",
        metavar="VAR",
        help="the environment variable holding the upstream's key",
    )
    serve.add_argument(
        "--upstream-key",
        action=_UpstreamPart,
        dest="upstreams",
        metavar="KEY",
        help="unsafe: the key shows in the process list; prefer --upstream-key-env",
    )
    serve.add_argument(
        "--upstream-model",
        action=_UpstreamPart,
        dest="upstreams",
        nargs="+",
        metavar="NAME[=REMOTE]",
        help="model names the upstream before it serves",
    )
    serve.add_argument(
        "--log-level", choices=_LEVELS, default="info", help="what the service logs (default info)"
    )
    serve.set_defaults(run=_serve, upstreams=None)

    token = commands.add_parser("token", help="print a JWT for the local service")
    token.add_argument("--user", required=True, help="the token's sub claim")
    token.add_argument("--org", required=True, help="the token's org_id claim")
    token.add_argument("--ttl", default="1h", help="lifetime: 90, 30m, 1h, 7d (default 1h)")
    token.add_argument("--data-dir", type=Path, help="where the service keeps its secret")
    token.add_argument(
        "--admin", action="store_true", help="may change the models served (POST /models)"
    )
    token.set_defaults(run=_token)
    add_models_parser(commands)
    return parser


def _token(args: argparse.Namespace) -> int:
    try:
        ttl = parse_ttl(args.ttl)
    except ValueError as exc:
        raise UsageError(f"--ttl: {exc}") from None
    for name in ("user", "org"):
        if not getattr(args, name).strip():
            raise UsageError(f"--{name} must not be empty")
    secret = load_or_create_secret(data_dir(args.data_dir))
    print(
        mint_token(user=args.user, org=args.org, secret=secret, ttl_seconds=ttl, admin=args.admin)
    )
    return 0


def _settings(args: argparse.Namespace) -> Settings:
    from .cli_settings import settings_from

    for upstream in args.upstreams or []:
        if not upstream["models"]:
            raise UsageError(f"--upstream-url {upstream['url']} needs an --upstream-model")
    if args.jwt_public_key is not None:
        _check_public_key(args.jwt_public_key)
    try:
        return settings_from(args)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def _check_public_key(path: Path) -> None:
    from jwt.algorithms import RSAAlgorithm

    try:
        RSAAlgorithm(RSAAlgorithm.SHA256).prepare_key(path.read_text())
    except OSError as exc:
        raise UsageError(f"--jwt-public-key: cannot read {path}: {exc.strerror}") from None
    except Exception:
        raise UsageError(f"--jwt-public-key: {path} is not a PEM RSA public key") from None


def _bind(host: str, port: int) -> socket.socket:
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
        sock = socket.socket(family, kind, proto)
    except OSError as exc:
        raise UsageError(f"--host {host!r}: {exc}") from None
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(2048)
    except OSError as exc:
        sock.close()
        raise CannotStart(f"cannot listen on {host}:{port}: {exc.strerror}") from None
    sock.set_inheritable(True)
    return sock


def _url(sock: socket.socket) -> str:
    """A URL a local client can connect to (an unspecified address becomes loopback)."""
    host, port = sock.getsockname()[:2]
    if host in ("0.0.0.0", ""):  # noqa: S104 - reading the address, not binding it
        host = "127.0.0.1"
    elif host == "::":
        host = "::1"
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def _log_config(level: str) -> dict[str, Any]:
    config = copy.deepcopy(LOGGING_CONFIG)
    # stdout carries only the ready line, for programs that start the service and read it.
    config["handlers"]["access"]["stream"] = "ext://sys.stderr"
    # Not propagated: a library that calls logging.basicConfig() on import (wordllama
    # does) would otherwise print every line of the service twice.
    config["loggers"]["chatspace"] = {
        "handlers": ["default"],
        "level": level.upper(),
        "propagate": False,
    }
    return config


class _Server(uvicorn.Server):
    """uvicorn's server, telling the world once it serves and once it has stopped.

    The stop hook runs in ``shutdown``, not after ``run``: uvicorn re-raises the SIGTERM
    it caught once it has shut down, which ends the process before ``run`` returns.
    """

    def __init__(
        self, config: uvicorn.Config, on_ready: Callable[[], None], on_stop: Callable[[], None]
    ) -> None:
        super().__init__(config)
        self._on_ready = on_ready
        self._on_stop = on_stop

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        if self.started:
            self._on_ready()

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        try:
            await super().shutdown(sockets)
        finally:
            self._on_stop()


def _serve(args: argparse.Namespace) -> int:
    settings = _settings(args)
    sock = _bind(args.host, args.port)  # before the heavy imports: a taken port fails fast
    from chatspace.service.app import create_app
    from chatspace.service.http.timeouts import h11_protocol
    from chatspace.service.state import AppState
    from chatspace.service.store import StoreUnavailable

    settings.data_dir.mkdir(parents=True, exist_ok=True)
    try:
        state = AppState.open(settings)
    except StoreUnavailable as exc:
        sock.close()
        raise CannotStart(str(exc)) from None
    url = _url(sock)
    where: Path = settings.data_dir
    env = env_fingerprint(load_or_create_secret(where))
    runtime = Runtime(url=url, pid=os.getpid(), version=__version__, env=env)

    def ready() -> None:
        runtime.write(where)
        print(f"{READY} {url}", flush=True)
        logging.getLogger("chatspace.service").info(
            "mint a token with: chatspace token --user USER --org ORG --data-dir %s",
            settings.data_dir,
        )

    config = uvicorn.Config(
        create_app(settings, state=state),
        log_config=_log_config(args.log_level),
        log_level=args.log_level,
        timeout_graceful_shutdown=10,
        timeout_keep_alive=settings.keep_alive_timeout,
        http=h11_protocol(settings.header_timeout),
    )
    server = _Server(config, on_ready=ready, on_stop=lambda: remove_runtime(where, runtime.pid))
    try:
        server.run(sockets=[sock])
    finally:
        remove_runtime(where, runtime.pid)
        sock.close()
    return 0


def main(argv: Sequence[str] | None = None) -> NoReturn:
    """Run the command line; exit with its status."""
    given = sys.argv[1:] if argv is None else list(argv)
    command = next((a for a in given if not a.startswith("-")), None)
    parser = _parser(settings_options=command == "serve")
    args = parser.parse_args(given)
    if args.command is None:
        parser.error("choose a command: serve, token or models")
    try:
        status = args.run(args)
    except UsageError as exc:
        print(f"chatspace {args.command}: error: {exc}", file=sys.stderr)
        status = exc.status
    except BadConnection as exc:
        print(f"chatspace {args.command}: error: {exc}", file=sys.stderr)
        status = 2
    sys.exit(status)
