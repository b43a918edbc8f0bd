"""``GET /models`` and ``GET /models/{id}`` (docs/interface.md#models): the models served."""

from __future__ import annotations

from fastapi import APIRouter

from chatspace.service.deps import CallerDep, StateDep
from chatspace.service.discovery import DISCOVERY_TIMEOUT
from chatspace.service.limits import BoundedJSONRoute
from chatspace.service.problems import error_responses
from chatspace.types import Model, ModelList

router = APIRouter(
    tags=["models"], responses=error_responses(401, 429), route_class=BoundedJSONRoute
)


@router.get("/models", summary="List models")
async def list_models(_: CallerDep, state: StateDep) -> ModelList:
    """``service-l0`` (the built-in local engine) and every connected model; ``owned_by``
    says where each comes from (``chatspace``, ``chatspace serve``, ``models.toml``,
    ``openai``, ``ollama``). Right after the start it waits (at most 5 s) for the models of
    the environment's endpoints to be discovered."""
    await state.models.first_discovery(DISCOVERY_TIMEOUT)
    return ModelList(data=state.models.list_models())


@router.get("/models/{model_id:path}", summary="Retrieve a model", responses=error_responses(404))
def get_model(model_id: str, _: CallerDep, state: StateDep) -> Model:
    """One model; a 404 names the models that exist and how to add one."""
    engine = state.models.get(model_id)
    return Model(id=model_id, owned_by=engine.owned_by)
