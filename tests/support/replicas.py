"""Test support: a team deployment on one machine, N replicas of ``chatspace serve``
behind nginx, all on one database and one bucket.

:func:`running_deployment` starts the replicas (:func:`.service.start_service`, each with
its own data dir, all with the same ``CHATSPACE_DATABASE_URL``, ``CHATSPACE_BLOB_STORE``,
``AWS_*`` and token secret), then nginx (:func:`running_nginx`) with the checked-in
``deploy/nginx.conf``, so the tests, the benchmarks and docs/deploy.md run one proxy
configuration. Only its ``listen`` line and its upstream's ``server`` lines are rewritten
to the ports of this run. nginx runs in the foreground as a child process, everything it
writes (pid, logs, temp files) in a folder of its own::

    with running_team_engines(tmp / "engines") as engines:
        shared = engines.service_env(tmp)  # one database and one bucket for all replicas
        with running_deployment(tmp / "team", replicas=2, env=shared) as team:
            httpx.get(team.url + "/models", headers=team.headers("alice", "acme"))
            team.replicas[1].process.kill()  # the proxy sends the rest to replica 0
            team.restart(1)  # on its port and data dir again
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import time
from collections.abc import Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

from chatspace.local.auth import mint_token

from .processes import stop_process
from .s3_server import free_ports
from .service import TEST_SECRET, Service, start_service

__all__ = [
    "NGINX",
    "NGINX_CONF",
    "Deployment",
    "Nginx",
    "nginx_conf",
    "running_deployment",
    "running_nginx",
]

NGINX = Path("/usr/sbin/nginx")
"""Debian's nginx (``make proxy-deps`` installs it)."""
NGINX_CONF = Path(__file__).resolve().parents[2] / "deploy" / "nginx.conf"

_LISTEN = re.compile(r"^(\s*)listen\s+[^;]+;$", re.MULTILINE)
_SERVERS = re.compile(r"^(\s*)server\s+(\S+:\d+)([^;]*);\n", re.MULTILINE)


def nginx_conf(template: str, *, port: int, upstreams: list[str]) -> str:
    """``deploy/nginx.conf`` listening on ``127.0.0.1:port``, its upstream the
    ``host:port`` of each of ``upstreams`` (each with the options of the template's
    first ``server`` line)."""
    listen, count = _LISTEN.subn(rf"\1listen 127.0.0.1:{port};", template)
    first = _SERVERS.search(listen)
    if count != 1 or first is None:
        raise ValueError("the template needs one listen line and at least one server line")
    indent, options = first.group(1), first.group(3)
    lines = "".join(f"{indent}server {address}{options};\n" for address in upstreams)
    without = _SERVERS.sub("", listen)
    return without[: first.start()] + lines + without[first.start() :]


@dataclass
class Nginx:
    """nginx running in the foreground, with its folder (``logs/``, ``nginx.conf``)."""

    url: str
    prefix: Path
    process: subprocess.Popen[bytes]

    def access_log(self) -> list[str]:
        return (self.prefix / "logs" / "access.log").read_text().splitlines()

    def error_log(self) -> str:
        return (self.prefix / "logs" / "error.log").read_text(errors="replace")

    def stop(self) -> None:
        stop_process(self.process, 10)  # SIGTERM: nginx's fast shutdown


def _wait_until_listening(nginx: Nginx, port: int, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if nginx.process.poll() is not None or time.monotonic() > deadline:
                nginx.stop()
                raise RuntimeError(f"nginx did not start:\n{nginx.error_log()[-3000:]}") from None
            time.sleep(0.05)


@contextmanager
def running_nginx(prefix: Path, *, upstreams: list[str]) -> Iterator[Nginx]:
    """nginx with ``deploy/nginx.conf`` in front of ``upstreams`` (``host:port``), on a
    free port of 127.0.0.1, its files under ``prefix``, until the block ends."""
    if not NGINX.exists():
        raise RuntimeError(f"{NGINX} is missing: run `make proxy-deps` (apt-get install nginx)")
    (port,) = free_ports(1)
    for folder in ("logs", "temp"):
        (prefix / folder).mkdir(parents=True, exist_ok=True)
    conf = prefix / "nginx.conf"
    conf.write_text(nginx_conf(NGINX_CONF.read_text(), port=port, upstreams=upstreams))
    command = [str(NGINX), "-p", str(prefix), "-c", str(conf), "-e", "logs/error.log"]
    # As root, nginx's workers would run as nobody, who cannot enter a test's temporary
    # folder (mode 0700) to write a temp file: they run as root too.
    extra = "daemon off;" + (" user root;" if os.geteuid() == 0 else "")
    process = subprocess.Popen(
        [*command, "-g", extra],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    nginx = Nginx(url=f"http://127.0.0.1:{port}", prefix=prefix, process=process)
    _wait_until_listening(nginx, port)
    try:
        yield nginx
    finally:
        nginx.stop()


@dataclass
class Deployment:
    """Replicas behind nginx: ``url`` is the proxy's, what every client of the team uses.

    It answers ``url``, ``token()`` and ``headers()`` as a :class:`.service.Service` does,
    so a test written against the session's service runs against the deployment too.
    """

    proxy: Nginx
    replicas: list[Service]
    env: dict[str, str]
    """What every replica shares: ``CHATSPACE_DATABASE_URL``, ``CHATSPACE_BLOB_STORE``,
    ``AWS_*`` (and the token secret, which every service of the tests gets)."""
    args: tuple[str, ...] = ()
    """The options every replica was started with."""
    secret: str = TEST_SECRET

    @property
    def url(self) -> str:
        return self.proxy.url

    def token(self, user: str = "alice", org: str = "acme", ttl: int = 3600) -> str:
        return mint_token(user=user, org=org, secret=self.secret, ttl_seconds=ttl)

    def headers(self, user: str = "alice", org: str = "acme") -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token(user, org)}"}

    def restart(self, index: int) -> Service:
        """Start replica ``index`` again (stopped first if it still runs) on its port and
        data dir, so that the proxy finds it where it was."""
        old = self.replicas[index]
        old.stop()
        port = int(old.url.rsplit(":", 1)[1])
        self.replicas[index] = start_service(old.data_dir, *self.args, env=self.env, port=port)
        self._wait_until_proxied(port)
        return self.replicas[index]

    def _wait_until_proxied(self, port: int, timeout: float = 15.0) -> None:
        """Ask through the proxy until the replica on ``port`` answers one request: until
        then nginx may still count it out (``fail_timeout``), and a test that kills the
        other replica would see "no live upstreams"."""
        address = f"upstream=127.0.0.1:{port} "
        deadline = time.monotonic() + timeout
        with httpx.Client(base_url=self.url, headers=self.headers("restart-probe")) as client:
            while True:
                seen = len(self.proxy.access_log())
                assert client.get("/models").status_code == 200
                if any(address in line for line in self.proxy.access_log()[seen:]):
                    return
                assert time.monotonic() < deadline, f"the proxy sends nothing to :{port}"
                time.sleep(0.05)


@contextmanager
def running_deployment(
    base: Path,
    *,
    replicas: int = 2,
    env: Mapping[str, str],
    args: tuple[str, ...] = (),
) -> Iterator[Deployment]:
    """``replicas`` services (data dirs ``base/replica-<i>``, options ``args``) sharing the
    database and bucket of ``env``, behind nginx (``base/nginx``), until the block ends."""
    # On PostgreSQL the replicas start at once, as a deployment's do (migrations take an
    # advisory lock: the first applies them, the others find them done); replicas on one
    # SQLite file (a quick local try) start one after the other.
    at_once = env.get("CHATSPACE_DATABASE_URL", "").startswith("postgresql")
    with ThreadPoolExecutor(replicas if at_once else 1) as pool:
        starting = [
            pool.submit(start_service, base / f"replica-{i}", *args, env=dict(env))
            for i in range(replicas)
        ]
    started = [future.result() for future in starting if future.exception() is None]
    try:
        for future in starting:
            if (error := future.exception()) is not None:
                raise error
        upstreams = [service.url.removeprefix("http://") for service in started]
        with running_nginx(base / "nginx", upstreams=upstreams) as proxy:
            yield Deployment(proxy=proxy, replicas=started, env=dict(env), args=args)
    finally:
        for service in started:  # restarted ones included: the deployment's list
            service.stop()
