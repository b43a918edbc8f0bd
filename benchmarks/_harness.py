"""Measuring contenders side by side: interleaved rounds, medians, ratios, a report.

Absolute times on a shared 2-core machine are noise; ratios of contenders measured in
the same run, round by round in rotating order, are not. Every figure in the report is a
median over samples, with the ratio to the section's baseline next to it.
"""

from __future__ import annotations

import json
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

__all__ = ["Report", "Section", "interleave", "machine", "percentile"]


def interleave(
    contenders: dict[str, Callable[[], object]], *, rounds: int, per_round: int
) -> dict[str, list[float]]:
    """Per-call seconds of each contender, run in rotating order round after round."""
    names = list(contenders)
    samples: dict[str, list[float]] = {name: [] for name in names}
    clock = time.perf_counter
    for r in range(rounds):
        for name in names[r % len(names) :] + names[: r % len(names)]:
            op = contenders[name]
            for _ in range(per_round):
                start = clock()
                op()
                samples[name].append(clock() - start)
    return samples


def percentile(values: Iterable[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


@dataclass
class Section:
    """One benchmark: rows of metrics per contender, a baseline, goals and notes."""

    key: str
    title: str
    baseline: str
    unit_notes: str = ""
    rows: dict[str, dict[str, float]] = field(default_factory=dict)
    lower_is_better: dict[str, bool] = field(default_factory=dict)
    goals: list[tuple[str, bool]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def add(self, contender: str, **metrics: float) -> None:
        self.rows.setdefault(contender, {}).update(metrics)

    def metric(self, name: str, *, lower_is_better: bool) -> None:
        self.lower_is_better[name] = lower_is_better

    def ratio(self, contender: str, metric: str) -> float:
        """The contender's value over the baseline's (for times: < 1 is faster)."""
        base = self.rows[self.baseline][metric]
        return self.rows[contender][metric] / base if base else float("nan")

    def goal(self, text: str, met: bool) -> None:
        self.goals.append((text, met))

    def to_json(self) -> dict[str, Any]:
        ratios = {
            c: {m: self.ratio(c, m) for m in row if m in self.rows[self.baseline]}
            for c, row in self.rows.items()
        }
        return {
            "title": self.title,
            "baseline": self.baseline,
            "rows": self.rows,
            "ratios_to_baseline": ratios,
            "goals": [{"goal": g, "met": m} for g, m in self.goals],
            "notes": self.notes,
        }

    def to_markdown(self) -> str:
        metrics = list(dict.fromkeys(m for row in self.rows.values() for m in row))
        head = "| contender | " + " | ".join(metrics) + " |"
        lines = [f"## {self.title}", "", self.unit_notes, "", head]
        lines.append("|---" * (len(metrics) + 1) + "|")
        for contender, row in self.rows.items():
            cells = []
            for m in metrics:
                if m not in row:
                    cells.append("")
                    continue
                cell = _fmt(row[m])
                if contender != self.baseline and m in self.rows[self.baseline]:
                    cell += f" ({self.ratio(contender, m):.2f}x)"
                cells.append(cell)
            name = f"{contender} (baseline)" if contender == self.baseline else contender
            lines.append(f"| {name} | " + " | ".join(cells) + " |")
        if self.goals:
            lines.append("")
            lines += [f"- {'met' if met else 'MISSED'}: {text}" for text, met in self.goals]
        if self.notes:
            lines.append("")
            lines += [f"- {note}" for note in self.notes]
        return "\n".join(lines) + "\n"


def _fmt(value: float) -> str:
    if value == 0 or abs(value) >= 100:
        return f"{value:,.0f}"
    if abs(value) >= 1:
        return f"{value:.2f}"
    return f"{value:.4g}"


def machine() -> dict[str, Any]:
    """What the numbers were measured on."""
    packages = ["chatspace", "httpx", "pydantic", "fastapi", "uvicorn", "openai", "pandas"]
    versions = {}
    for name in packages:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = None
    try:
        curl = subprocess.run(["curl", "--version"], capture_output=True, text=True, check=False)
        versions["curl"] = curl.stdout.split()[1] if curl.stdout else None
    except FileNotFoundError:
        versions["curl"] = None
    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "platform": platform.platform(),
        "python": sys.version.split()[0],
        "cpu": cpu,
        "cpus": os.cpu_count(),
        "versions": versions,
        "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }


@dataclass
class Report:
    size: str
    sections: list[Section] = field(default_factory=list)
    name: str = ""
    """The files' name: ``results-<name>.md`` and ``.json`` (default: the size)."""

    def write(self, out: Path) -> tuple[Path, Path]:
        out.mkdir(parents=True, exist_ok=True)
        info = machine()
        data = {"size": self.size, "machine": info, "sections": {}}
        for s in self.sections:
            data["sections"][s.key] = s.to_json()
        stem = f"results-{self.name or self.size}"
        json_path = out / f"{stem}.json"
        json_path.write_text(json.dumps(data, indent=2) + "\n")
        md = [f"# chatspace benchmarks ({self.size} run)", ""]
        md.append(
            f"Measured {info['when']} on {info['platform']}, {info['cpu'] or 'unknown CPU'}, "
            f"{info['cpus']} CPUs, Python {info['python']}."
        )
        md.append("Versions: " + ", ".join(f"{k} {v}" for k, v in info["versions"].items()))
        md.append("")
        md.append("Ratios in parentheses are against the section's baseline, same run.")
        md.append("")
        md += [s.to_markdown() for s in self.sections]
        md_path = out / f"{stem}.md"
        md_path.write_text("\n".join(md))
        return json_path, md_path


def median(values: Iterable[float]) -> float:
    return statistics.median(list(values))
