"""``/models`` (docs/interface.md#models): the models served, and connecting more."""

from __future__ import annotations

from fastapi import APIRouter, status

from chatspace.service.discovery import DISCOVERY_TIMEOUT
from chatspace.service.http.deps import CallerDep, StateDep
from chatspace.service.http.errors import error_responses
from chatspace.service.http.limits import BoundedJSONRoute
from chatspace.service.operations import models as ops
from chatspace.types import Model, ModelCheck, ModelConnection, ModelDeleted, ModelList

router = APIRouter(
    tags=["models"], responses=error_responses(401, 429), route_class=BoundedJSONRoute
)
_ADMIN = error_responses(403, 404, 409)


@router.get("/models", summary="List models")
async def list_models(_: CallerDep, state: StateDep) -> ModelList:
    """``service-l0`` (the built-in local engine) and every connected model; ``owned_by``
    says where each comes from (``chatspace``, ``chatspace serve``, ``models.toml``,
    ``added by USER`` over HTTP, ``openai``, ``ollama``). Right after the start it waits
    (at most 5 s) for the models of the environment's endpoints to be discovered."""
    await state.models.first_discovery(DISCOVERY_TIMEOUT)
    return ModelList(data=state.models.list_models())


@router.post(
    "/models",
    summary="Connect a model",
    status_code=status.HTTP_201_CREATED,
    responses=error_responses(403, 409),
)
def add_model(body: ModelConnection, caller: CallerDep, state: StateDep) -> Model:
    """Serve a model of an OpenAI-compatible server under ``id``, on every replica. Needs a
    token with the ``admin`` claim. The server is asked first (unless ``check`` is false):
    a 422 names what failed. The key is kept sealed and never shown again."""
    return ops.add_model(state, caller=caller, body=body)


@router.post("/models/{model_id:path}/check", summary="Check a connected model", responses=_ADMIN)
def check_model(model_id: str, caller: CallerDep, state: StateDep) -> ModelCheck:
    """Ask the server of a model added with ``POST /models`` whether it answers, accepts the
    key and serves the model; ``ok`` says how it went. Needs the ``admin`` claim."""
    return ops.check_model(state, caller=caller, name=model_id)


@router.get("/models/{model_id:path}", summary="Retrieve a model", responses=error_responses(404))
def get_model(model_id: str, _: CallerDep, state: StateDep) -> Model:
    """One model; a 404 names the models that exist and how to add one."""
    engine = state.models.get(model_id)
    return Model(id=model_id, owned_by=engine.owned_by)


@router.delete("/models/{model_id:path}", summary="Disconnect a model", responses=_ADMIN)
def remove_model(model_id: str, caller: CallerDep, state: StateDep) -> ModelDeleted:
    """Stop serving a model added with ``POST /models``, on every replica. Needs the
    ``admin`` claim; models configured where the service runs are a 409."""
    return ops.remove_model(state, caller=caller, name=model_id)
