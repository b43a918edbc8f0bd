"""``client.models``: the models the service serves (``GET /models``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chatspace.client._call import Call
from chatspace.client._pagination import Pager
from chatspace.types import Model, ModelList

from ._resource import Resource

if TYPE_CHECKING:
    from chatspace.client._pagination import SyncPage

__all__ = ["Models"]

_MODELS: Pager[Model] = Pager("models", "none")


class Models(Resource):
    """The models a completion may ask for (``model=...``)."""

    __slots__ = ()

    def list(self) -> SyncPage[Model]:
        """Every model the service serves; ``service-l0`` is the built-in local engine.

        ``to_pandas()`` columns: ``id, owned_by, created``.
        """
        call = Call("GET", "/models", parse=ModelList.model_validate_json)
        return self._client._page(_MODELS, call)
