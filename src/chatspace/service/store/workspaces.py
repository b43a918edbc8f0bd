# PLACEHOLDER owned by the service-platform helper: replace entirely.
from __future__ import annotations

import sqlalchemy as sa


def access_level(
    conn: sa.Connection, *, org_id: str, workspace_id: str, user_id: str
) -> str | None:
    return "writer" if workspace_id == "default" else None
