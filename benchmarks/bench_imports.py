"""5. Import cost in a fresh process: ``import chatspace``, ``%load_ext chatspace``, openai."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

from ._harness import Section, median

# Each snippet prints the seconds its own work took, measured inside the fresh process.
_SNIPPETS = {
    "import openai": "import openai",
    "import chatspace": "import chatspace",
    "from chatspace import Client": "from chatspace import Client",
    "%load_ext chatspace": (
        "from IPython.core.interactiveshell import InteractiveShell\n"
        "shell = InteractiveShell.instance()\n"
        "t = time.perf_counter()\n"
        "shell.run_line_magic('load_ext', 'chatspace')\n"
    ),
}
_TEMPLATE = "import time\nt = time.perf_counter()\n{body}\nprint(time.perf_counter() - t)\n"


def _once(body: str) -> float:
    out = subprocess.run(
        [sys.executable, "-c", _TEMPLATE.format(body=body)],
        capture_output=True,
        text=True,
        check=True,
    )
    return float(out.stdout.strip().splitlines()[-1])


def run(size: dict[str, Any]) -> Section:
    samples: dict[str, list[float]] = {name: [] for name in _SNIPPETS}
    names = list(_SNIPPETS)
    for r in range(size["import_runs"]):
        for name in names[r % len(names) :] + names[: r % len(names)]:
            samples[name].append(_once(_SNIPPETS[name]))
    section = Section(
        "imports",
        f"5. Import cost (fresh process, median of {size['import_runs']})",
        baseline="import openai",
        unit_notes="Milliseconds (lower is better).",
    )
    for name in names:
        section.add(name, ms=median(samples[name]) * 1e3)
    section.goal(
        "import chatspace faster than import openai", section.ratio("import chatspace", "ms") < 1
    )
    section.goal("import chatspace within 300 ms", section.rows["import chatspace"]["ms"] <= 300)
    section.goal(
        "%load_ext chatspace within 500 ms", section.rows["%load_ext chatspace"]["ms"] <= 500
    )
    return section
