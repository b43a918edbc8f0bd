# PLACEHOLDER owned by the chat helper: replace entirely.
from __future__ import annotations

from typing import Any


class ModelRegistry:
    @classmethod
    def from_settings(cls, settings: Any) -> ModelRegistry:
        return cls()

    async def aclose(self) -> None:
        return None
