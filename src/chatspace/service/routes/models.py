"""``GET /models`` (an addition to the seed): the models this service serves."""

from __future__ import annotations

from fastapi import APIRouter

from chatspace.service.deps import CallerDep, StateDep
from chatspace.service.problems import error_responses
from chatspace.types import ModelList

router = APIRouter(tags=["models"], responses=error_responses(401, 429))


@router.get("/models", summary="List models")
def list_models(_: CallerDep, state: StateDep) -> ModelList:
    """``service-l0`` (the built-in local engine) and the names of configured upstreams."""
    return ModelList(data=state.models.list_models())
