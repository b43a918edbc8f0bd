"""``client.models``: the models the service serves (``GET /models``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chatspace.client._async._pagination import AsyncPage
from chatspace.client._call import Call, segment
from chatspace.client._pagination import Pager
from chatspace.client._resource import Resource
from chatspace.types import Model, ModelList

if TYPE_CHECKING:
    from chatspace.client._async._client import AsyncClient

__all__ = ["AsyncModels"]

_MODELS: Pager[Model] = Pager("models", "none")


class AsyncModels(Resource):
    """The models a completion may ask for (``model=...``)."""

    __slots__ = ()
    _client: AsyncClient

    def list(self) -> AsyncPage[Model]:
        """Every model the service serves; ``service-l0`` is the built-in local engine.

        ``to_pandas()`` columns: ``id, owned_by, created``.
        """
        call = Call("GET", "/models", parse=ModelList.model_validate_json)
        return self._client._page(_MODELS, call)

    async def get(self, model_id: str) -> Model:
        """One model, with ``owned_by`` saying where it comes from; an unknown id raises
        :class:`~chatspace.errors.NotFoundError` naming the models that exist."""
        path = f"/models/{segment(model_id)}"
        return await self._client._request(Call("GET", path, parse=Model.model_validate_json))
