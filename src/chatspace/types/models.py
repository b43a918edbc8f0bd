"""The models a service serves (``GET /models``, docs/interface.md#models)."""

from __future__ import annotations

from pydantic import Field

from .common import WireModel

__all__ = ["Model", "ModelList"]


class Model(WireModel):
    id: str
    object: str = "model"
    created: int = 0
    owned_by: str


class ModelList(WireModel):
    object: str = "list"
    data: list[Model] = Field(default_factory=list)
