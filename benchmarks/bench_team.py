"""8. The team deployment: one SQLite process against PostgreSQL + S3 (one replica, one
behind nginx, two behind nginx) under 16 concurrent clients; retrieval over 10,000 files
on both engines; and where the machine's CPU goes in each.

The deployments run at the same time, on one PostgreSQL server and one SeaweedFS
(``tests/support``: the servers of the tests and of ``docs/deploy.md``), each with a
database and a bucket of its own, and are measured round after round in rotating order,
so that the ratios to SQLite compare the same minutes of the machine. Stored completions
are :func:`bench_service.completion_rate` (16 clients, ``store: true``); uploads are 16
clients each sending files of random bytes (no text to extract: what is measured is the
path of the bytes, the data dir against S3 multipart uploads). Retrieval builds
:func:`bench_service.upload_corpus`'s files on SQLite and on PostgreSQL, times the
searches of 6b on each database (:func:`bench_service.search_latency`: hybrid, full text
alone, the scan of every passage) and a non-stored chat answer (retrieval, then
``service-l0``) over HTTP, one at a time.

On a shared 2-core machine every part competes for the same cores, so beside the rates
the CPU seconds each part spends per operation are measured (``psutil``, the processes
and their children): the load generator (this process), the replicas, nginx, PostgreSQL
and SeaweedFS. They say what a bigger machine would change.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager, ExitStack, contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import psutil

from chatspace.local.auth import mint_token

from ._harness import Section, median, percentile
from ._service import start
from .bench_service import (
    FULL_TEXT,
    HYBRID,
    SCAN,
    completion_rate,
    retrieval_questions,
    search_latency,
    upload_corpus,
)

# The servers of the tests (PostgreSQL, SeaweedFS, nginx in front of replicas): imported
# as the tests import them, from tests/ (pytest's pythonpath).
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from support.engines import TeamEngines, running_team_engines
from support.replicas import running_deployment
from support.service import TEST_SECRET

SQLITE = "SQLite, one process"
PG_ONE = "PostgreSQL + S3, one replica"
PG_ONE_PROXY = "PostgreSQL + S3, one replica + nginx"
PG_TWO = "PostgreSQL + S3, two replicas + nginx"
CLIENTS = 16
MIB = 1024 * 1024
QUIET = ("--log-level", "warning")
"""No access log: its lines would be read by this process, the clients' process (the
services of :func:`._service.start` are quiet already)."""
PARTS = ("clients", "chatspace", "nginx", "postgres", "seaweedfs")
ANSWER = "chat answer over HTTP"
ENGINES = {SQLITE: "SQLite", PG_ONE: "PostgreSQL"}


@dataclass
class Target:
    """A deployment under test: where its clients connect (every one verifies tokens of
    the tests' secret), and the processes of each of its parts."""

    name: str
    url: str
    pids: dict[str, list[int]] = field(default_factory=dict)
    database: str | Path = ""
    """Its database: a SQLite file or a PostgreSQL URL (for searches in this process)."""

    def token(self, user: str, org: str) -> str:
        return mint_token(user=user, org=org, secret=TEST_SECRET, ttl_seconds=24 * 3600)


def _listening(url: str) -> int:
    """The process listening on ``url``'s port."""
    port = urlsplit(url).port
    for conn in psutil.net_connections("tcp"):
        if conn.status == psutil.CONN_LISTEN and conn.laddr.port == port and conn.pid:
            return conn.pid
    raise RuntimeError(f"nothing listens on {url}")


def _cpu_seconds(pids: list[int]) -> float:
    """User and system CPU seconds of ``pids``, their children alive and reaped."""
    total = 0.0
    for pid in pids:
        try:
            root = psutil.Process(pid)
            t = root.cpu_times()
            total += t.user + t.system + t.children_user + t.children_system
            for child in root.children(recursive=True):
                c = child.cpu_times()
                total += c.user + c.system
        except psutil.NoSuchProcess:
            continue
    return total


def _cpu(target: Target) -> dict[str, float]:
    return {part: _cpu_seconds(pids) for part, pids in target.pids.items()}


@contextmanager
def _single(name: str, data_dir: Path, env: dict[str, str]) -> Iterator[Target]:
    service = start(data_dir, env={"CHATSPACE_JWT_SECRET": TEST_SECRET, **env})  # quiet
    database = env.get("CHATSPACE_DATABASE_URL") or data_dir / "chatspace.db"
    try:
        yield Target(name, service.url, {"chatspace": [service.process.pid]}, database)
    finally:
        service.stop()


@contextmanager
def _behind_nginx(name: str, base: Path, team: TeamEngines, replicas: int) -> Iterator[Target]:
    env = team.service_env(base)
    with running_deployment(base, replicas=replicas, env=env, args=QUIET) as deployment:
        pids = {
            "chatspace": [r.process.pid for r in deployment.replicas],
            "nginx": [deployment.proxy.process.pid],
        }
        yield Target(name, deployment.url, pids)


def upload_rate(target: Target, payload: Path, per_client: int) -> float:
    """MB/s of ``CLIENTS`` clients each uploading ``payload`` ``per_client`` times."""
    from chatspace import Client

    org = f"team-{time.time_ns()}"
    clients = [
        Client(base_url=target.url, token=target.token(f"u{i}", org), max_retries=0)
        for i in range(CLIENTS)
    ]

    def work(i: int) -> None:
        for _ in range(per_client):
            clients[i].files.upload(payload, progress=False)

    try:
        with ThreadPoolExecutor(CLIENTS) as pool:
            begin = time.perf_counter()
            list(pool.map(work, range(CLIENTS)))
            seconds = time.perf_counter() - begin
    finally:
        for c in clients:
            c.close()
    return CLIENTS * per_client * payload.stat().st_size / 1e6 / seconds


def _analyze(url: str) -> None:
    """What autovacuum does once a bulk load has settled: statistics of the whole corpus
    (its own run may have sampled the tables halfway through the upload)."""
    import sqlalchemy as sa

    engine = sa.create_engine(url)
    try:
        with engine.begin() as conn:
            conn.exec_driver_sql("ANALYZE")
    finally:
        engine.dispose()


def retrieval(
    target: Target, files: int, questions: list[str], folder: Path
) -> dict[str, list[float]]:
    """Over ``files`` files of a new org: seconds per search in this process on the
    target's database (:func:`bench_service.search_latency`), and per non-stored chat
    answer over HTTP, one at a time."""
    from chatspace import Client

    org = f"retrieval-{time.time_ns()}"
    token = target.token("bench", org)
    upload_corpus(target.url, token, files, folder)
    if str(target.database).startswith("postgresql"):
        _analyze(str(target.database))
    times = search_latency(target.database, org, questions)
    times[ANSWER] = []
    with Client(base_url=target.url, token=token, max_retries=0) as client:
        client.chat.create(messages=[{"role": "user", "content": "warm up"}])
        for question in questions:
            begin = time.perf_counter()
            client.chat.create(messages=[{"role": "user", "content": question}])
            times[ANSWER].append(time.perf_counter() - begin)
    return times


def _rotating(names: list[str], rounds: int) -> Iterator[str]:
    for r in range(rounds):
        yield from names[r % len(names) :] + names[: r % len(names)]


@dataclass
class _Tally:
    """Rates per round, and CPU seconds per part summed over the rounds, of one target."""

    rates: list[float] = field(default_factory=list)
    cpu: dict[str, float] = field(default_factory=dict)
    work: float = 0.0
    """Operations (completions) or megabytes (uploads) over all rounds."""
    wall: float = 0.0

    def measure(self, target: Target, run: Callable[[], float], work: float) -> None:
        before, begin = _cpu(target), time.perf_counter()
        self.rates.append(run())
        after = _cpu(target)
        self.wall += time.perf_counter() - begin
        self.work += work
        for part in after:
            self.cpu[part] = self.cpu.get(part, 0.0) + after[part] - before[part]


def run(size: dict[str, Any], scratch: Path) -> list[Section]:
    rounds, total, per_client = size["team_rounds"], size["team_completions"], size["team_files"]
    payload = scratch / "payload.bin"
    payload.write_bytes(os.urandom(size["team_file_mb"] * MIB))
    upload_mb = CLIENTS * per_client * payload.stat().st_size / 1e6
    completions: dict[str, _Tally] = {}
    uploads: dict[str, _Tally] = {}
    latency: dict[str, dict[str, list[float]]] = {}
    with ExitStack() as stack:
        team = stack.enter_context(running_team_engines(scratch / "engines"))
        starters: list[Callable[[], AbstractContextManager[Target]]] = [
            lambda: _single(SQLITE, scratch / "sqlite", {}),
            lambda: _single(PG_ONE, scratch / "one", team.service_env(scratch / "one")),
            lambda: _behind_nginx(PG_ONE_PROXY, scratch / "one-proxy", team, replicas=1),
            lambda: _behind_nginx(PG_TWO, scratch / "two", team, replicas=2),
        ]
        targets = {t.name: t for t in (stack.enter_context(s()) for s in starters)}
        engines = {
            "postgres": [_listening(f"http://{team.pg.host}:{team.pg.port}")],
            "seaweedfs": [_listening(team.s3.endpoint)],
        }
        for target in targets.values():
            target.pids["clients"] = [os.getpid()]
            if target.name != SQLITE:
                target.pids.update(engines)
        for name in _rotating(list(targets), rounds):
            target = targets[name]
            token = target.token("bench", f"completions-{time.time_ns()}")
            completions.setdefault(name, _Tally()).measure(
                target, partial(completion_rate, target.url, token, True, total), total
            )
            uploads.setdefault(name, _Tally()).measure(
                target, partial(upload_rate, target, payload, per_client), upload_mb
            )
        questions = retrieval_questions(size["team_questions"])
        for name in (SQLITE, PG_ONE):
            folder = scratch / f"corpus-{len(latency)}"
            latency[name] = retrieval(targets[name], size["retrieval_files"], questions, folder)
    return _sections(size, completions, uploads, latency)


def _sections(
    size: dict[str, Any],
    completions: dict[str, _Tally],
    uploads: dict[str, _Tally],
    latency: dict[str, dict[str, list[float]]],
) -> list[Section]:
    load = Section(
        "team",
        f"8a. Team deployment: {CLIENTS} concurrent clients "
        f"({size['team_completions']:,} stored completions, {CLIENTS}x{size['team_files']} "
        f"uploads of {size['team_file_mb']} MiB per round, median of {size['team_rounds']})",
        baseline=SQLITE,
        unit_notes="Stored completions per second and upload MB/s (higher is better).",
    )
    for name in completions:
        load.add(
            name,
            completions_per_s=median(completions[name].rates),
            upload_mb_per_s=median(uploads[name].rates),
        )
    cpu = [
        _cpu_section("team-cpu-completions", "8b", "per stored completion", completions),
        _cpu_section("team-cpu-uploads", "8c", "per uploaded MB", uploads),
    ]
    search = Section(
        "team-retrieval",
        f"8d. Retrieval over {size['retrieval_files']:,} files, by engine",
        baseline=f"SQLite: {HYBRID}",
        unit_notes="Milliseconds per search in this process on the service's database, "
        "as in 6b (lower is better); the last rows, a non-stored chat answer over HTTP "
        "(retrieval, then service-l0), one at a time.",
    )
    for kind in (HYBRID, FULL_TEXT, SCAN, ANSWER):
        for name, times in latency.items():
            values = times[kind]
            search.add(
                f"{ENGINES[name]}: {kind}",
                p50_ms=median(values) * 1e3,
                p99_ms=percentile(values, 99) * 1e3,
            )
    return [load, *cpu, search]


def _cpu_section(key: str, number: str, per: str, tallies: dict[str, _Tally]) -> Section:
    section = Section(
        key,
        f"{number}. Where the CPU goes: CPU milliseconds {per}, by part",
        baseline=SQLITE,
        unit_notes="User + system CPU time of each part's processes and their children "
        "(lower is better); `busy_cores`: all of them together over the wall time, of the "
        f"{os.cpu_count()} cores of this machine.",
    )
    for name, tally in tallies.items():
        parts = {
            f"{part}_ms": tally.cpu[part] / tally.work * 1e3 for part in PARTS if part in tally.cpu
        }
        section.add(name, busy_cores=sum(tally.cpu.values()) / tally.wall, **parts)
    return section
