"""Comments cite sections of ``docs/interface.md``: every cited section exists."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CITATION = re.compile(r"docs/interface\.md#([a-z0-9-]+)")


def _anchors(markdown: str) -> set[str]:
    """GitHub's anchors of the headings: lower case, punctuation dropped, spaces as '-'."""
    found = set()
    for heading in re.findall(r"(?m)^#+ (.+)$", markdown):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        found.add(slug)
    return found


def test_every_cited_section_of_the_interface_exists() -> None:
    anchors = _anchors((ROOT / "docs" / "interface.md").read_text())
    cited: dict[str, set[str]] = {}
    for folder in ("src", "tests", "benchmarks", "docs"):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix in {".py", ".md"} and path.is_file():
                for anchor in CITATION.findall(path.read_text(errors="replace")):
                    cited.setdefault(anchor, set()).add(str(path.relative_to(ROOT)))
    assert cited, "no comment cites docs/interface.md"
    missing = {anchor: sorted(paths) for anchor, paths in cited.items() if anchor not in anchors}
    assert missing == {}


def test_no_comment_cites_documents_outside_the_repository() -> None:
    old = re.compile(r"\b(seed [0-9]|contract (section )?[0-9])", re.IGNORECASE)
    offenders = [
        f"{path.relative_to(ROOT)}:{number}"
        for folder in ("src", "tests", "benchmarks")
        for path in (ROOT / folder).rglob("*.py")
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if old.search(line)
    ]
    assert offenders == []
