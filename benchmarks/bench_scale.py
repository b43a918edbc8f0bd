"""11. A million passages: one workspace filled with 100,000 files (about 1,000,000
passages) on each engine, measured at checkpoints on the way (``--only scale``, opt-in).

The files are generated prose of about ten passages each (8,000 characters: the
service's passages are 1,000 characters, 200 of them shared with the next), sentences
sampled from a real text, so that the words' frequencies are those of a manual rather
than of one repeated sentence: PostgreSQL 15's HTML manual where it is installed
(``make bench-deps``), or else Python's own help topics (``pydoc_data``, always there).
Each batch of :data:`BATCH` files carries a ``year`` and a ``team`` (what the filtered
list keeps). They go through the real HTTP API as a notebook sends them: a list of paths
to ``client.files.upload``, one request a batch, :data:`UPLOADERS` at a time.

At each checkpoint (a tenth, a half, all of the files) the benchmark records the upload
rate of the stretch since the last one (files per second until the last answer), how
long the service then took to store the stretch's passage vectors (it embeds them after
answering, in the background), retrieval over HTTP once every vector is stored (``POST
/files/search``, the hybrid search a completion runs, and a non-stored chat answer with
``service-l0``, :data:`QUESTIONS` questions on the corpus's words, one at a time), the
first page of a filtered file list with its ``total``, and the service's resident memory
(``psutil``, the service process and its children; the peak during the stretch, and the
value after the questions, whose first loads the workspace's vectors into the dense
index; its anonymous and file-backed parts from ``/proc``) beside the load average.
Memory is judged by the slope of the anonymous part between the last two checkpoints: a
service that keeps anything per passage on its heap grows with them (the dense index's
memory-mapped files are page cache, reported beside it). ``--keep DIR`` fills a data dir that
outlives the run (with the workspace's token in ``DIR/<engine>/token``).
"""

from __future__ import annotations

import html
import json
import os
import random
import re
import shutil
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import psutil

from ._harness import Section, median, percentile
from ._service import BenchService, start, wait_for_vectors
from .pgdocs import DOCS

ENGINES = ("sqlite", "postgres")
ENGINE_NAMES = {"sqlite": "SQLite + data dir", "postgres": "PostgreSQL + S3"}
CHECKPOINTS = (0.1, 0.5, 1.0)
BATCH = 50
UPLOADERS = 4
FILE_CHARS = 6_000
"""About ten passages of :data:`chatspace.service.retrieval.indexing.PASSAGE_CHARS`."""
QUESTIONS = 50
UPLOAD_TIMEOUT = 600.0
"""Seconds a batch's request may take: on 2 busy cores a PostgreSQL + S3 upload of 50
files took more than the client's default of 60 (three times in a row)."""
LIST_ROUNDS = 5
TEAMS = ("ml", "bi", "ops", "data")
FILTER = {"type": "and", "filters": [
    {"type": "eq", "key": "team", "value": "ml"},
    {"type": "gte", "key": "year", "value": 2020},
]}  # fmt: skip
P99_GOAL_MS = 300.0
SLOPE_GOAL_KB = 0.5
"""The service's anonymous resident memory (its heap: ``RssAnon``) may grow by at most
this much per file between the last two checkpoints (50 MB per 100,000 files): anything
kept per passage, a vector or a row, would exceed it. The pages of files it maps (the
dense index's blocks: ``RssFile``) are the kernel's page cache, shared by the processes
on the data dir and dropped under pressure; they are reported beside it."""
_TAG = re.compile(r"<[^>]+>")
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")
_WORD = re.compile(r"[A-Za-z][a-z]{4,}")


def sentences() -> list[str]:
    """Sentences of a real text: PostgreSQL's manual if installed, else Python's help."""
    if DOCS.is_dir():
        texts = [
            html.unescape(_TAG.sub(" ", page.read_text(errors="replace")))
            for page in sorted(DOCS.glob("*.html"))
        ]
    else:
        from pydoc_data.topics import topics

        texts = list(topics.values())
    found = []
    for text in texts:
        for s in _SENTENCE.split(" ".join(text.split())):
            if 40 <= len(s) <= 400 and s.endswith((".", "!", "?")):
                found.append(s)
    return found


def questions(pool: list[str], count: int, seed: int = 7) -> list[str]:
    """Questions from the corpus's own words: three longer words of a sentence each."""
    rng = random.Random(seed)
    made: list[str] = []
    while len(made) < count:
        words = list(dict.fromkeys(w.lower() for w in _WORD.findall(rng.choice(pool))))
        if len(words) >= 3:
            picked = rng.sample(words, 3)
            made.append(f"What does it say about {picked[0]}, {picked[1]} and {picked[2]}?")
    return made


def _write_batch(folder: Path, pool: list[str], first: int) -> list[Path]:
    """Files ``first .. first + BATCH - 1``, each sentences drawn by its own seed."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for i in range(first, first + BATCH):
        rng = random.Random(i)
        parts: list[str] = []
        size = 0
        while size < FILE_CHARS:
            paragraph = " ".join(rng.choice(pool) for _ in range(rng.randint(3, 7)))
            parts.append(paragraph)
            size += len(paragraph) + 2
        path = folder / f"doc-{i:06d}.txt"
        path.write_text(f"Document {i}\n\n" + "\n\n".join(parts))
        paths.append(path)
    return paths


def _rss(pid: int) -> int:
    """Resident bytes of the service process and its children."""
    root = psutil.Process(pid)
    total: int = root.memory_info().rss
    for child in root.children(recursive=True):
        try:
            total += child.memory_info().rss
        except psutil.NoSuchProcess:
            continue
    return total


def _rss_kinds(pid: int) -> tuple[float, float]:
    """The service process's anonymous and file-backed resident MB (``/proc``: what a
    memory-mapped file holds counts as RssFile, what the process allocated as RssAnon)."""
    found = dict.fromkeys(("RssAnon:", "RssFile:"), 0.0)
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, value = line.partition("\t")
        if name in found:
            found[name] = int(value.split()[0]) / 1e3
    return found["RssAnon:"], found["RssFile:"]


@contextmanager
def _peak_rss(pid: int) -> Iterator[list[int]]:
    """The largest resident size seen every half second while the block runs."""
    peak = [_rss(pid)]
    done = threading.Event()

    def watch() -> None:
        while not done.wait(0.5):
            peak[0] = max(peak[0], _rss(pid))

    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    try:
        yield peak
    finally:
        done.set()
        thread.join()


@dataclass
class Checkpoint:
    files: int
    upload_files_per_s: float
    vector_backlog_s: float
    rss_peak_mb: float
    rss_mb: float
    search_ms: list[float] = field(default_factory=list)
    answer_ms: list[float] = field(default_factory=list)
    list_ms: float = 0.0
    list_total: int = 0
    passages: int = 0
    rss_anon_mb: float = 0.0
    rss_file_mb: float = 0.0
    loads: list[float] = field(default_factory=list)
    """The 1-minute load average at the end of the stretch's upload, and before and after
    the retrieval questions (the machine is shared: each figure beside its load)."""


def _fill(
    service: BenchService, token: str, pool: list[str], first: int, last: int, scratch: Path
) -> float:
    """Upload files ``first .. last - 1``; files per second until the last answer."""
    from chatspace import Client

    clients = [
        Client(base_url=service.url, token=token, max_retries=2, timeout=UPLOAD_TIMEOUT)
        for _ in range(UPLOADERS)
    ]

    def send(batch_start: int) -> None:
        folder = scratch / f"batch-{batch_start}"
        paths = _write_batch(folder, pool, batch_start)
        number = batch_start // BATCH
        metadata = {"year": 2015 + number % 10, "team": TEAMS[number % len(TEAMS)]}
        clients[number % UPLOADERS].files.upload(paths, metadata=metadata, progress=False)
        shutil.rmtree(folder)

    begin = time.perf_counter()
    try:
        with ThreadPoolExecutor(UPLOADERS) as pool_:
            list(pool_.map(send, range(first, last, BATCH)))
    finally:
        for c in clients:
            c.close()
    return (last - first) / (time.perf_counter() - begin)


def _vector_backlog(service: BenchService, token: str) -> float:
    """Seconds until the newest file's vectors are stored (the service embeds oldest
    first), then every file checked once (not counted)."""
    from chatspace import Client
    from chatspace.types.files import VECTORS_PENDING

    with Client(base_url=service.url, token=token, max_retries=2) as client:
        begin = time.perf_counter()
        while True:
            newest = client.files.list(limit=1).page.data
            if newest and VECTORS_PENDING not in newest[0].status_details:
                break
            time.sleep(0.2)
        seconds = time.perf_counter() - begin
        wait_for_vectors(client)
    return seconds


def _measure(service: BenchService, token: str, asked: list[str], point: Checkpoint) -> None:
    from chatspace import Client

    point.loads.append(os.getloadavg()[0])
    with Client(base_url=service.url, token=token, max_retries=0) as client:
        client.files.search("warm up")
        client.chat.create(messages=[{"role": "user", "content": "warm up"}])
        for question in asked:
            begin = time.perf_counter()
            client.files.search(question)
            point.search_ms.append((time.perf_counter() - begin) * 1e3)
            begin = time.perf_counter()
            client.chat.create(messages=[{"role": "user", "content": question}])
            point.answer_ms.append((time.perf_counter() - begin) * 1e3)
    with httpx.Client(
        base_url=service.url, headers={"Authorization": f"Bearer {token}"}, timeout=300
    ) as http:
        params: dict[str, str | int] = {"limit": 100, "metadata": json.dumps(FILTER)}
        times = []
        for _ in range(LIST_ROUNDS):
            begin = time.perf_counter()
            response = http.get("/files", params=params)
            response.raise_for_status()
            times.append(time.perf_counter() - begin)
            point.list_total = int(response.json()["total"])
        point.list_ms = median(times) * 1e3
    point.loads.append(os.getloadavg()[0])


def _passages(database: str) -> int:
    """Passages stored, counted on the service's database."""
    import sqlalchemy as sa

    from chatspace.service.store.db import open_database

    engine = open_database(database)
    try:
        with engine.connect() as conn:
            return int(conn.execute(sa.text("SELECT count(*) FROM passages")).scalar_one())
    finally:
        engine.dispose()


@contextmanager
def _service(engine: str, scratch: Path) -> Iterator[tuple[BenchService, str]]:
    """The engine's service, and its database (a SQLite file or a PostgreSQL URL)."""
    if engine == "sqlite":
        service = start(scratch / "sqlite-data")
        try:
            yield service, str(service.data_dir / "chatspace.db")
        finally:
            service.stop()
        return
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    from support.engines import running_team_engines

    with running_team_engines(scratch / "engines") as team:
        data_dir = scratch / "pg-data"
        env = team.service_env(data_dir)
        service = start(data_dir, env=env)
        try:
            yield service, env["CHATSPACE_DATABASE_URL"]
        finally:
            service.stop()


def fill_and_measure(engine: str, files: int, scratch: Path) -> list[Checkpoint]:
    pool = sentences()
    asked = questions(pool, QUESTIONS)
    points: list[Checkpoint] = []
    with _service(engine, scratch) as (service, database):
        token = service.fresh_token()
        (scratch / "token").write_text(token)  # to reach the workspace of a kept data dir
        pid = service.process.pid
        done = 0
        for share in CHECKPOINTS:
            target = max(BATCH, round(files * share / BATCH) * BATCH)
            if target <= done:
                continue
            with _peak_rss(pid) as peak:
                rate = _fill(service, token, pool, done, target, scratch / "upload")
                load = os.getloadavg()[0]
                backlog = _vector_backlog(service, token)
            done = target
            point = Checkpoint(done, rate, backlog, peak[0] / 1e6, 0.0, loads=[load])
            point.passages = _passages(database)
            _measure(service, token, asked, point)
            # after the questions: the first of them loads what the dense index holds
            point.rss_mb = _rss(pid) / 1e6
            point.rss_anon_mb, point.rss_file_mb = _rss_kinds(pid)
            points.append(point)
            print(f"  {engine}: {_line(point)}", file=sys.stderr, flush=True)
    return points


def _line(p: Checkpoint) -> str:
    return (
        f"{p.files:,} files, {p.passages:,} passages: {p.upload_files_per_s:.1f} files/s, "
        f"vectors +{p.vector_backlog_s:.0f} s, RSS {p.rss_mb:.0f} MB "
        f"(peak {p.rss_peak_mb:.0f}; anon {p.rss_anon_mb:.0f}, file {p.rss_file_mb:.0f}), "
        "search p50/p99 "
        f"{median(p.search_ms):.0f}/{percentile(p.search_ms, 99):.0f} ms, answer "
        f"{median(p.answer_ms):.0f}/{percentile(p.answer_ms, 99):.0f} ms, list "
        f"{p.list_ms:.0f} ms ({p.list_total:,}); load {' / '.join(f'{v:.1f}' for v in p.loads)}"
    )


def section(engine: str, files: int, points: list[Checkpoint]) -> Section:
    name = ENGINE_NAMES[engine]
    first = f"{name}, {points[0].files:,} files"
    result = Section(
        f"scale-{engine}",
        f"11. {name}: one workspace filled to {files:,} files (about {files * 10:,} passages)",
        baseline=first,
        unit_notes="At each checkpoint: files per second of the stretch since the last one "
        f"(batches of {BATCH}, {UPLOADERS} at a time, until the last answer); seconds the "
        "service then took to store the stretch's passage vectors; the service's resident "
        f"MB (peak during the stretch, and after the questions); {QUESTIONS} "
        "questions over HTTP, one at a time, `search` (POST /files/search, the hybrid "
        "retrieval) and `answer` (a non-stored chat answer, retrieval then service-l0), "
        "milliseconds; `list_ms`, the first page of 100 of a filtered GET /files with its "
        "`total` (team = ml and year >= 2020), median of 5; the service process's "
        "anonymous and file-backed resident MB; the 1-minute load average at the end of the "
        "upload and the larger of those before and after the questions. Ratios are to the "
        "first checkpoint.",
    )
    for p in points:
        result.add(
            f"{name}, {p.files:,} files",
            passages=p.passages,
            upload_files_per_s=p.upload_files_per_s,
            vector_backlog_s=p.vector_backlog_s,
            rss_peak_mb=p.rss_peak_mb,
            rss_mb=p.rss_mb,
            rss_anon_mb=p.rss_anon_mb,
            rss_file_mb=p.rss_file_mb,
            search_p50_ms=median(p.search_ms),
            search_p99_ms=percentile(p.search_ms, 99),
            answer_p50_ms=median(p.answer_ms),
            answer_p99_ms=percentile(p.answer_ms, 99),
            list_ms=p.list_ms,
            list_total=p.list_total,
            load_upload=p.loads[0],
            load_questions=max(p.loads[1:]),
        )
    last = points[-1]
    for kind, values in (("search", last.search_ms), ("chat answer", last.answer_ms)):
        p99 = percentile(values, 99)
        result.goal(
            f"{name}: {kind} p99 under {P99_GOAL_MS:.0f} ms at {last.files:,} files ({p99:.0f} ms)",
            p99 < P99_GOAL_MS,
        )
    before = points[-2] if len(points) > 1 else points[0]
    files = max(1, last.files - before.files)
    slope = (last.rss_anon_mb - before.rss_anon_mb) * 1e3 / files
    mapped = (last.rss_file_mb - before.rss_file_mb) * 1e3 / files
    result.goal(
        f"{name}: the service's own memory does not grow with the files: RssAnon "
        f"{slope:.3f} KB per file between {before.files:,} and {last.files:,} files (at most "
        f"{SLOPE_GOAL_KB} KB; the mapped files' pages, page cache the kernel may drop, "
        f"{mapped:.3f} KB per file)",
        slope <= SLOPE_GOAL_KB,
    )
    return result


def run(size: dict[str, Any], scratch: Path, engines: tuple[str, ...] = ENGINES) -> list[Section]:
    files = size["scale_files"]
    return [section(e, files, fill_and_measure(e, files, scratch / e)) for e in engines]
