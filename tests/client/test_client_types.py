"""The types both clients promise, checked by mypy on code that uses them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_call_of_both_clients_has_its_declared_type(tmp_path: Path) -> None:
    """mypy (strict) accepts ``typed_usage.py``: no call of either client is ``Any``."""
    checked = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--follow-imports=silent",
            "--disallow-any-unimported",  # an import it cannot find fails, not passes as Any
            "--cache-dir",
            str(tmp_path),
            str(Path(__file__).with_name("typed_usage.py")),
        ],
        cwd=ROOT,
        env={**os.environ, "MYPYPATH": str(ROOT / "src")},
        capture_output=True,
        text=True,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
