# PLACEHOLDER owned by the chat/retrieval helper: replace entirely (keep these signatures).
from __future__ import annotations

from typing import Any

from chatspace.types import Model


class ModelRegistry:
    @classmethod
    def from_settings(cls, settings: Any) -> ModelRegistry:
        return cls()

    def list_models(self) -> list[Model]:
        return [Model(id="service-l0", owned_by="chatspace")]

    async def derive_metadata(
        self, *, text: str | None, filename: str, content_type: str, instructions: str
    ) -> tuple[dict[str, Any], str]:
        """Metadata derived from a file by instructions, and the status_details sentence."""
        return {}, ""

    async def aclose(self) -> None:
        return None
