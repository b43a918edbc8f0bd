# PLACEHOLDER owned by the chat/retrieval helper: replace entirely (keep these signatures).
from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa


def extract_text(path: Path, *, filename: str, content_type: str) -> str | None:
    """The file's text, or None when it has none that can be extracted."""
    return None


def index_file(
    conn: sa.Connection,
    *,
    file_id: str,
    org_id: str,
    workspace_id: str,
    path: Path,
    filename: str,
    content_type: str,
) -> int:
    """Extract the file's text, split it into passages and insert them (same transaction).

    Returns the number of passages; 0 when the file has no extractable text.
    """
    return 0
