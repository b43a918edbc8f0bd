"""How fast a service drains a backlog of passage vectors (SQLite).

``python -m benchmarks.vector_backlog DATA_DIR SRC [SRC ...]``: ``DATA_DIR`` is a
service's data dir (one filled by ``bench_scale._fill``); for each ``SRC`` (a tree's
``src``, put first on the service's ``PYTHONPATH``), in turn, a copy of its database
has every vector made pending again, the service is started on it, and the passages a
second are timed from its first answer until none is pending
(``results-scale.md``)."""

from __future__ import annotations

import argparse
import os
import shutil
import sqlite3
import tempfile
import time
from pathlib import Path

from ._service import start


def drain(data_dir: Path, src: str, scratch: Path) -> tuple[int, float]:
    """Passages pending at the service's first answer, and seconds until none is."""
    copy = scratch / "data"
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(data_dir, copy, ignore=shutil.ignore_patterns("blobs"))
    db = sqlite3.connect(copy / "chatspace.db")
    try:
        db.execute(
            "UPDATE passages SET vector_model = NULL, vector = NULL, embed_claimed_until = NULL"
        )
        db.execute("UPDATE files SET vectors_pending = 1")
        db.commit()
        service = start(copy, env={"PYTHONPATH": src})
        try:
            begin = time.perf_counter()
            pending = "SELECT count(*) FROM passages WHERE vector_model IS NULL"
            first = int(db.execute(pending).fetchone()[0])
            while db.execute(pending).fetchone()[0]:
                time.sleep(0.5)
            return first, time.perf_counter() - begin
        finally:
            service.stop()
    finally:
        db.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("data_dir", type=Path)
    parser.add_argument("src", nargs="+")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        for src in args.src:
            count, seconds = drain(args.data_dir, src, Path(scratch))
            load = os.getloadavg()[0]
            print(
                f"{src}: {count} passages in {seconds:.1f} s, "
                f"{count / seconds:.0f}/s, load {load:.1f}"
            )


if __name__ == "__main__":
    main()
