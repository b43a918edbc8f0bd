"""Generate the sync client from its async source: ``client/_async/`` -> ``client/_sync/``.

    python scripts/unasync_client.py           # write the sync twin
    python scripts/unasync_client.py --check   # exit 1, naming the files, when it is stale

The ``unasync`` package does the token work, as in httpcore: ``async``/``await`` go,
``__aiter__`` becomes ``__iter__``, ``AsyncPage`` becomes ``SyncPage`` and the names of
:data:`RENAMES` are renamed. This script adds what the package leaves alone:

- the same changes in docstrings and comments, so that the examples of the sync
  client read ``client.chat.create(...)`` and ``for chunk in stream``;
- lines that differ between the twins: ``# unasync: remove`` ends a line that only the
  async code has (``__await__``, the ``aclose`` alias); ``# unasync: <code>`` ends a
  line whose sync twin is ``<code>``;
- a header naming the source, and ruff's import order and formatting.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import unasync

ROOT = Path(__file__).resolve().parent.parent
CLIENT = ROOT / "src" / "chatspace" / "client"
SOURCE, TARGET = CLIENT / "_async", CLIENT / "_sync"

RENAMES = {
    # the client, its resources and its stream keep their names without the prefix
    "AsyncClient": "Client",
    "AsyncChat": "Chat",
    "AsyncChatStream": "ChatStream",
    "AsyncFiles": "Files",
    "AsyncModels": "Models",
    "AsyncWorkspaces": "Workspaces",
    "_async": "_sync",  # the package, in absolute imports
    # httpx's async methods, and the I/O helpers of each side
    "aclose": "close",
    "aiter_bytes": "iter_bytes",
    "aiter_sse": "iter_sse",
    "aread": "read",
    "anyio": "time",
    "run_concurrently": "run_in_turn",
}
_RULE = unasync.Rule("/_async/", "/_sync/", additional_replacements=RENAMES)
_PROSE = [
    (re.compile(r"\bawait (?=[\w(])"), ""),
    (re.compile(r"\basync (?=(?:with|for|def)\b)"), ""),
]
_NAME = re.compile(r"\b[A-Za-z_]\w*\b")
_MARKER = re.compile(r"^(?P<indent>\s*)(?P<code>.*?)\s*# unasync: (?P<sync>.+)$")
HEADER = "# Generated from {source} by scripts/unasync_client.py; do not edit.\n"


def _rename(match: re.Match[str]) -> str:
    """A name as unasync renames it in code (``AsyncPage`` -> ``SyncPage``, ...)."""
    name = match.group(0)
    if name in _RULE.token_replacements:
        return str(_RULE.token_replacements[name])
    if len(name) > 5 and name.startswith("Async") and name[5].isupper():
        return "Sync" + name[5:]
    return name


def _prose(line: str) -> str:
    """A line with unasync's changes made in its docstring or comment text as well."""
    for pattern, replacement in _PROSE:
        line = pattern.sub(replacement, line)
    return _NAME.sub(_rename, line)


def _markers(text: str) -> str:
    lines = []
    for line in text.splitlines(keepends=True):
        marked = _MARKER.match(line)
        if marked is None:
            lines.append(_prose(line))
        elif marked["sync"] != "remove":
            lines.append(f"{marked['indent']}{marked['sync']}\n")
    return "".join(lines)


def _ruff(text: str, target: Path) -> str:
    """``text`` with its imports sorted and formatted, under the project's ruff settings."""
    name = str(target.relative_to(ROOT))
    for command in (
        ["check", "--fix-only", "--unsafe-fixes", "--select", "I,F401,UP028", "--quiet"],
        ["format", "--quiet"],
    ):
        text = subprocess.run(  # noqa: S603 - our own interpreter, fixed arguments
            [sys.executable, "-m", "ruff", *command, "--stdin-filename", name, "-"],
            input=text,
            capture_output=True,
            text=True,
            check=True,
            cwd=ROOT,
        ).stdout
    return text


def generate() -> dict[Path, str]:
    """The sync files, by path, as the async source makes them now."""
    sources = sorted(SOURCE.rglob("*.py"))
    words = set(_NAME.findall("".join(source.read_text() for source in sources)))
    if unused := sorted(set(RENAMES) - words):
        raise SystemExit(f"RENAMES has names the async source no longer uses: {unused}")
    with tempfile.TemporaryDirectory() as tmp:
        copies = []
        for source in sources:
            copy = Path(tmp, "_async", source.relative_to(SOURCE))
            copy.parent.mkdir(parents=True, exist_ok=True)
            copy.write_text(source.read_text())
            copies.append(str(copy))
        unasync.unasync_files(copies, [_RULE])
        generated = {}
        for source in sources:
            relative = source.relative_to(SOURCE)
            text = Path(tmp, "_sync", relative).read_text()
            header = HEADER.format(source=f"_async/{relative.as_posix()}")
            generated[TARGET / relative] = _ruff(header + _markers(text), TARGET / relative)
    return generated


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail when _sync/ is stale")
    check = parser.parse_args().check
    wanted = generate()
    present = set(TARGET.rglob("*.py"))
    stale = sorted(p for p in wanted if not p.exists() or p.read_text() != wanted[p])
    extra = sorted(present - set(wanted))
    if check:
        for path in [*stale, *extra]:
            print(f"stale: {path.relative_to(ROOT)}", file=sys.stderr)
        if stale or extra:
            print("run: python scripts/unasync_client.py", file=sys.stderr)
            return 1
        return 0
    for path in stale:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(wanted[path])
        print(f"wrote {path.relative_to(ROOT)}")
    for path in extra:
        path.unlink()
        print(f"removed {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
