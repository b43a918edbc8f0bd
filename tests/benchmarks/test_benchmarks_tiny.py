"""Every benchmark, at a toy size, so that they keep working (the figures are not judged).

The evidence benchmark reads Debian's PostgreSQL manual: ``make test`` installs it first
(``make bench-deps``)."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SECTIONS = {
    "requests",
    "streaming",
    "listing",
    "completion-search",
    "transfer",
    "imports",
    "service",
    "retrieval",
    "search",
    "uploads",
    "retrieval-quality",
    "dense-models",
    "evidence",
    "filters",
}


def _benchmarks(*args: str) -> None:
    """``python -m benchmarks ARGS``, which must succeed."""
    run = subprocess.run(
        [sys.executable, "-m", "benchmarks", *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert run.returncode == 0, run.stderr[-3000:]


def test_a_tiny_run_of_every_benchmark_writes_a_full_report(tmp_path: Path) -> None:
    _benchmarks("--size", "tiny", "--out", str(tmp_path))
    report = json.loads((tmp_path / "results-tiny.json").read_text())
    assert set(report["sections"]) == SECTIONS
    assert report["machine"]["versions"]["chatspace"]
    for key, section in report["sections"].items():
        rows = section["rows"]
        assert section["baseline"] in rows, key
        assert len(rows) >= 2, key
        for contender, metrics in rows.items():
            for name, value in metrics.items():
                assert math.isfinite(value), (key, contender, name)
                assert value >= 0, (key, contender, name, value)
        for goal in section["goals"]:
            assert isinstance(goal["met"], bool)
    markdown = (tmp_path / "results-tiny.md").read_text()
    assert "(baseline)" in markdown
    assert "## 6b. Retrieval latency" in markdown
    quality = report["sections"]["retrieval-quality"]["rows"]
    assert set(quality) == {
        "service today (FTS5 bm25, OR)",
        "bm25s",
        "dense alone (WordLlama)",
        "chatspace, full text only",
        "chatspace (hybrid)",
        "chatspace, full text only (PostgreSQL)",
        "chatspace (hybrid, PostgreSQL)",
    }
    for row in quality.values():
        assert set(row) >= {"recall_at_5", "ndcg_at_10", "mrr", "no_answer_silent"}
        assert all(0 <= v <= 1 for v in row.values())
    # the service profile found busy threads and named chatspace's own functions
    notes = report["sections"]["service"]["notes"]
    assert any("samples of busy threads" in n for n in notes), notes
    assert any("chatspace/service/" in n for n in notes), notes


def test_the_scale_benchmark_fills_a_workspace_and_measures_it_at_each_checkpoint(
    tmp_path: Path,
) -> None:
    """``--only scale`` is opt-in (hours at its default 100,000 files): 450 files here."""
    _benchmarks("--only", "scale", "--engines", "sqlite", "--files", "450", "--out", str(tmp_path))
    report = json.loads((tmp_path / "results-scale-sqlite.json").read_text())
    assert list(report["sections"]) == ["scale-sqlite"]
    section = report["sections"]["scale-sqlite"]
    rows = list(section["rows"].values())
    assert [name.rsplit(", ", 1)[1] for name in section["rows"]] == [
        "50 files", "200 files", "450 files"
    ]  # fmt: skip
    passages = [row["passages"] for row in rows]
    assert passages == sorted(passages)
    assert passages[-1] >= 450 * 8  # about ten a file
    for row in rows:
        assert row["rss_mb"] > 0
        assert row["search_p99_ms"] >= row["search_p50_ms"] > 0
        assert row["upload_files_per_s"] > 0
        assert row["vector_backlog_s"] >= 0
    # team = ml and year >= 2020: batch numbers 8 and 16 of every 20 (of 50 files each)
    assert [row["list_total"] for row in rows] == [0, 0, 50]
    assert len(section["goals"]) == 3
    assert all(isinstance(goal["met"], bool) for goal in section["goals"])
