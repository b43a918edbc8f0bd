"""Run the benchmarks: ``python -m benchmarks [--size tiny|full] [--only NAME ...] [--out DIR]``.

``full`` is the real measurement (minutes); ``tiny`` runs every benchmark at a toy size so
that the test suite keeps them working. Results go to ``benchmarks/results/`` as a
Markdown table and a JSON file. ``team`` (PostgreSQL, S3 and nginx in front of two
replicas) runs only when named, ``--only team``, and writes a report of its own
(``results-team-<size>``), so that it never replaces the sections of a full run.
``scale`` (a workspace filled to ``--files`` files, 100,000 by default, on SQLite and on
PostgreSQL + S3: hours on 2 cores) runs only when named too and writes ``results-scale``
(``results-scale-<engine>`` when ``--engines`` names one). ``retrieval-quality`` is
sections 7 and 7b (``labelled``) then 9 (``evidence``), each of which runs alone when named.
``formats`` (section 9b: PDF manuals, Markdown documents and a table nobody here wrote, from
Debian's packages: ``make bench-deps``; section 9c: office files as colleagues send them)
runs only when named and writes ``results-formats-<size>``. ``--embeddings MODEL`` starts
the services with that dense model (``chatspace serve --embeddings``; section 7 stays the
default model's, 7b compares them) and writes ``results-<size>-<model>`` unless it is the
default.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

from . import (
    bench_completion_search,
    bench_evidence,
    bench_filters,
    bench_formats,
    bench_imports,
    bench_listing,
    bench_office,
    bench_requests,
    bench_retrieval_quality,
    bench_scale,
    bench_service,
    bench_streaming,
    bench_transfer,
)
from ._harness import Report, Section
from ._service import start

SIZES = {
    "tiny": {
        "requests": 30, "rounds": 3, "streams": 3, "stream_paragraphs": 20, "stream_n": 1,
        "listing": 120, "listing_rounds": 2, "transfer_mb": 8, "transfer_rounds": 1,
        "import_runs": 2, "service_completions": 32, "retrieval_files": 50,
        "retrieval_questions": 10, "retrieval_quality": "tiny", "upload_mb": 1,
        "team_rounds": 1, "team_completions": 32, "team_files": 1, "team_file_mb": 1,
        "team_questions": 10, "evidence": "tiny", "search_completions": 150, "search_rounds": 2,
        "filter_files": 200, "filter_rounds": 2, "scale_files": 500, "model_prose_files": 1,
        "model_prose_kb": 5, "model_sweep": False,
    },
    "full": {
        "requests": 2000, "rounds": 20, "streams": 30, "stream_paragraphs": 400, "stream_n": 4,
        "listing": 10_000, "listing_rounds": 5, "transfer_mb": 1024, "transfer_rounds": 3,
        "import_runs": 15, "service_completions": 2000, "retrieval_files": 10_000,
        "retrieval_questions": 300, "retrieval_quality": "full", "upload_mb": 10,
        "team_rounds": 3, "team_completions": 400, "team_files": 1, "team_file_mb": 8,
        "team_questions": 200, "evidence": "full", "search_completions": 10_000,
        "search_rounds": 10, "filter_files": 10_000, "filter_rounds": 15,
        "scale_files": 100_000, "model_prose_files": 20,
        "model_prose_kb": 50, "model_sweep": True,
    },
}  # fmt: skip
NAMES = [
    "requests", "streaming", "listing", "completion-search", "transfer", "imports", "service",
    "retrieval-quality", "filters",
]  # fmt: skip
ON_REQUEST = ["team", "scale", "formats"]
"""Run only when named: they need more than the service (PostgreSQL, S3, nginx; Debian's
documentation packages), or hours."""
PARTS = ["labelled", "evidence"]
"""The parts of ``retrieval-quality``, run alone when named: sections 7 and 7b (the
project's labelled set), section 9 (PostgreSQL's manual)."""
DEFAULT_EMBEDDINGS = "wordllama"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__)
    parser.add_argument("--size", choices=sorted(SIZES), default="full")
    parser.add_argument("--only", nargs="+", choices=NAMES + ON_REQUEST + PARTS, default=NAMES)
    parser.add_argument(
        "--embeddings",
        choices=("wordllama", "minilm", "off"),
        default=DEFAULT_EMBEDDINGS,
        help="the dense model of every service started (default wordllama)",
    )
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "results")
    parser.add_argument("--files", type=int, help="scale: files to fill the workspace with")
    parser.add_argument(
        "--engines", nargs="+", choices=bench_scale.ENGINES, default=list(bench_scale.ENGINES)
    )
    parser.add_argument(
        "--keep",
        type=Path,
        help="scale: fill the engines' data dirs under this folder and keep them (hours of "
        "filling that a later run or a profile can reuse) instead of a temporary one",
    )
    args = parser.parse_args(argv)
    os.environ["CHATSPACE_EMBEDDINGS"] = args.embeddings  # the services started inherit it
    size = SIZES[args.size] | ({"scale_files": args.files} if args.files else {})
    report = Report(args.size, name=_report_name(args))
    with tempfile.TemporaryDirectory(prefix="chatspace-bench-") as tmp:
        scratch = Path(tmp)
        shared = start(scratch / "data", "--max-upload-mb", "4096") if set(args.only) & {
            "requests", "streaming", "listing", "completion-search", "transfer"
        } else None  # fmt: skip
        try:
            for name in args.only:
                print(f"running {name} ...", file=sys.stderr, flush=True)
                found: Section | list[Section]
                if name == "imports":
                    found = bench_imports.run(size)
                elif name == "service":
                    found = bench_service.run(size, scratch)
                elif name == "filters":
                    found = bench_filters.run(size, scratch)
                elif name == "scale":
                    found = bench_scale.run(size, args.keep or scratch, tuple(args.engines))
                elif name == "team":
                    from . import bench_team  # imports the servers' support code of tests/

                    found = bench_team.run(size, scratch)
                elif name == "retrieval-quality":
                    found = [
                        *bench_retrieval_quality.run(size, scratch),
                        bench_evidence.run(size, scratch),  # PostgreSQL's manual
                    ]
                elif name == "labelled":
                    found = bench_retrieval_quality.run(size, scratch)
                elif name == "evidence":
                    found = bench_evidence.run(size, scratch)
                elif name == "formats":
                    found = [bench_formats.run(size, scratch), *bench_office.run(size, scratch)]
                elif name == "transfer":
                    assert shared is not None
                    found = bench_transfer.run(shared, size, scratch)
                else:
                    assert shared is not None
                    module = {"requests": bench_requests, "streaming": bench_streaming,
                              "listing": bench_listing,
                              "completion-search": bench_completion_search}[name]  # fmt: skip
                    found = module.run(shared, size)
                report.sections += found if isinstance(found, list) else [found]
        finally:
            if shared is not None:
                shared.stop()
    json_path, md_path = report.write(args.out)
    print(md_path.read_text())
    print(f"written: {json_path} and {md_path}", file=sys.stderr)
    return 0


def _report_name(args: argparse.Namespace) -> str:
    """``team``, ``scale`` and ``formats`` write reports of their own, never the full run's."""
    if args.only == ["scale"]:
        engines = args.engines
        return "scale" if len(engines) == len(bench_scale.ENGINES) else f"scale-{engines[0]}"
    if args.only == ["formats"]:
        return f"formats-{args.size}"
    if set(args.only) <= set(ON_REQUEST):
        return f"team-{args.size}"
    if args.embeddings != DEFAULT_EMBEDDINGS:
        return f"{args.size}-{args.embeddings}"
    return args.size


if __name__ == "__main__":
    sys.exit(main())
