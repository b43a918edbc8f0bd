# Generated from _async/resources/models.py by scripts/unasync_client.py; do not edit.
"""``client.models``: the models the service serves (``GET /models``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chatspace.client._call import Call, segment
from chatspace.client._pagination import Pager
from chatspace.client._resource import Resource
from chatspace.client._sync._pagination import SyncPage
from chatspace.types import Model, ModelList

if TYPE_CHECKING:
    from chatspace.client._sync._client import Client

__all__ = ["Models"]

_MODELS: Pager[Model] = Pager("models", "none")


class Models(Resource):
    """The models a completion may ask for (``model=...``)."""

    __slots__ = ()
    _client: Client

    def list(self) -> SyncPage[Model]:
        """Every model the service serves; ``service-l0`` is the built-in local engine.

        ``to_pandas()`` columns: ``id, owned_by, created``.
        """
        call = Call("GET", "/models", parse=ModelList.model_validate_json)
        return self._client._page(_MODELS, call)

    def get(self, model_id: str) -> Model:
        """One model, with ``owned_by`` saying where it comes from; an unknown id raises
        :class:`~chatspace.errors.NotFoundError` naming the models that exist."""
        path = f"/models/{segment(model_id)}"
        return self._client._request(Call("GET", path, parse=Model.model_validate_json))
