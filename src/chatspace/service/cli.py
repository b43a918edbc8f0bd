"""The ``chatspace`` command (also ``python -m chatspace``).

``chatspace serve`` runs the reference service: it binds the socket itself (so that
``--port 0`` picks a free port), prints ``chatspace service listening on <url>`` on
stdout once it answers requests, and writes ``<data-dir>/service.json``
(``{"url", "pid", "version"}``) for clients to find it, removed again on shutdown.
``chatspace token`` prints a JWT that a service using the same data dir (or the same
``CHATSPACE_JWT_SECRET``) accepts. A usage error is one line on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import copy
import json
import logging
import os
import socket
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

import uvicorn
from uvicorn.config import LOGGING_CONFIG

from chatspace._shared import positive_int as _positive
from chatspace._version import __version__
from chatspace.local_auth import data_dir, load_or_create_secret, mint_token, parse_ttl
from chatspace.serving import READY_LINE as READY

from .cli_models import add_models_parser
from .connections import BadConnection

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


def _positive_number(text: str) -> float:
    """A positive number: seconds or days."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r} must be a positive number")
    return value


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


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="chatspace", description="The chatspace reference service.")
    parser.add_argument("--version", action="version", version=f"chatspace {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="{serve,token,models}")

    serve = commands.add_parser("serve", help="run the reference service")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on")
    serve.add_argument("--port", type=_port, default=8000, help="0 picks a free port")
    serve.add_argument("--data-dir", type=Path, help="default: the platform's user data dir")
    serve.add_argument("--max-upload-mb", type=_positive, help="largest file (default 512)")
    serve.add_argument(
        "--database-url",
        metavar="URL",
        help="postgresql://USER@HOST:PORT/DB for a team's service (its password from "
        "PGPASSWORD or ~/.pgpass: a password in the URL shows in the process list); "
        "default: SQLite in the data dir",
    )
    serve.add_argument(
        "--blob-store",
        metavar="s3://BUCKET/PREFIX",
        help="keep file bytes in an S3 bucket (AWS_ENDPOINT_URL, AWS_ACCESS_KEY_ID, "
        "AWS_SECRET_ACCESS_KEY, AWS_REGION); default: the data dir",
    )
    serve.add_argument(
        "--max-json-mb", type=_positive, help="largest JSON request body (default 8)"
    )
    serve.add_argument(
        "--header-timeout",
        type=_positive_number,
        help="seconds to send a request's headers (default 10)",
    )
    serve.add_argument(
        "--body-timeout",
        type=_positive_number,
        help="seconds a request body may stall (default 30)",
    )
    serve.add_argument(
        "--max-uploads-per-caller", type=_positive, help="uploads at once per caller (default 16)"
    )
    serve.add_argument(
        "--max-token-days",
        type=_positive_number,
        help="longest token lifetime accepted (default 366)",
    )
    serve.add_argument("--retention-days", type=_positive, help="files expire after N days")
    serve.add_argument("--rate-limit-per-minute", type=_positive, help="per caller")
    serve.add_argument(
        "--jwt-public-key", type=Path, metavar="PEM", help="verify RS256 tokens with this key"
    )
    serve.add_argument("--upstream-url", action=_UpstreamURL, dest="upstreams", metavar="URL")
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
    serve.add_argument("--instructions-model", help="model that runs file instructions")
    serve.add_argument(
        "--embeddings",
        choices=("wordllama", "off"),
        help="dense half of hybrid retrieval (default wordllama, offline; off: full text only)",
    )
    serve.add_argument(
        "--relevance-threshold",
        type=float,
        metavar="SHARE",
        help="how relevant, from 0 to 1, a passage must be to be cited (default 0.35)",
    )
    serve.add_argument(
        "--vectors-wait-seconds",
        type=float,
        metavar="SECONDS",
        help="how long a question waits for the vectors of files just uploaded "
        "(default 10; 0: never)",
    )
    serve.add_argument(
        "--no-autodetect",
        dest="autodetect",
        action="store_false",
        default=None,
        help="do not serve the models of OPENAI_API_KEY's endpoint or a local Ollama",
    )
    serve.add_argument("--log-level", choices=_LEVELS, default="info")
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


def _settings(args: argparse.Namespace) -> Any:
    from pydantic import ValidationError

    from chatspace.service.config import Settings

    for upstream in args.upstreams or []:
        if not upstream["models"]:
            raise UsageError(f"--upstream-url {upstream['url']} needs an --upstream-model")
    if args.jwt_public_key is not None:
        _check_public_key(args.jwt_public_key)
    given = {
        "data_dir": data_dir(args.data_dir) if args.data_dir else None,
        "max_upload_mb": args.max_upload_mb,
        "database_url": args.database_url,
        "blob_store": args.blob_store,
        "max_json_mb": args.max_json_mb,
        "header_timeout": args.header_timeout,
        "body_timeout": args.body_timeout,
        "max_uploads_per_caller": args.max_uploads_per_caller,
        "max_token_days": args.max_token_days,
        "retention_days": args.retention_days,
        "rate_limit_per_minute": args.rate_limit_per_minute,
        "jwt_public_key": args.jwt_public_key,
        "upstreams": args.upstreams,
        "instructions_model": args.instructions_model,
        "autodetect": args.autodetect,
        "embeddings": args.embeddings,
        "relevance_threshold": args.relevance_threshold,
        "vectors_wait_seconds": args.vectors_wait_seconds,
    }
    try:
        return Settings(**{k: v for k, v in given.items() if v is not None})
    except ValidationError as exc:
        first = exc.errors()[0]
        option = "--" + str(first["loc"][0]).replace("_", "-")
        raise UsageError(f"{option}: {first['msg']}") from None


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


def _write_runtime_file(path: Path, url: str) -> None:
    from chatspace.embedded import env_fingerprint

    env = env_fingerprint(load_or_create_secret(path.parent))
    info = {"url": url, "pid": os.getpid(), "version": __version__, "env": env}
    tmp = path.with_name(f".{path.name}.{os.getpid()}")
    tmp.write_text(json.dumps(info))
    os.replace(tmp, path)


def _remove_runtime_file(path: Path) -> None:
    """Remove ``service.json`` if it is still this process's (a newer service may own it)."""
    try:
        if json.loads(path.read_text()).get("pid") == os.getpid():
            path.unlink()
    except (OSError, ValueError):
        pass


def _serve(args: argparse.Namespace) -> int:
    settings = _settings(args)
    sock = _bind(args.host, args.port)  # before the heavy imports: a taken port fails fast
    from chatspace.service.app import create_app
    from chatspace.service.state import AppState
    from chatspace.service.store import StoreUnavailable
    from chatspace.service.timeouts import h11_protocol

    settings.data_dir.mkdir(parents=True, exist_ok=True)
    try:
        state = AppState.open(settings)
    except StoreUnavailable as exc:
        sock.close()
        raise CannotStart(str(exc)) from None
    url = _url(sock)
    runtime = settings.runtime_file

    def ready() -> None:
        _write_runtime_file(runtime, url)
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
        http=h11_protocol(settings.header_timeout),
    )
    server = _Server(config, on_ready=ready, on_stop=lambda: _remove_runtime_file(runtime))
    try:
        server.run(sockets=[sock])
    finally:
        _remove_runtime_file(runtime)
        sock.close()
    return 0


def main(argv: Sequence[str] | None = None) -> NoReturn:
    """Run the command line; exit with its status."""
    parser = _parser()
    args = parser.parse_args(argv)
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
