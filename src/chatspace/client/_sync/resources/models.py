# Generated from _async/resources/models.py by scripts/unasync_client.py; do not edit.
"""``client.models``: the models the service serves (``GET /models``), and connecting
more (``POST /models``, for a token with the ``admin`` claim)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chatspace.client._call import Call, dump, segment
from chatspace.client._pagination import Pager
from chatspace.client._resource import Resource
from chatspace.client._sync._pagination import SyncPage
from chatspace.types import Model, ModelCheck, ModelDeleted, ModelList

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

    def add(
        self,
        model_id: str,
        *,
        url: str,
        model: str | None = None,
        key: str | None = None,
        timeout: float | None = None,
        replace: bool = False,
        check: bool = True,
    ) -> Model:
        """Serve ``model_id`` from an OpenAI-compatible server (``url``, its base URL) under
        the server's name ``model`` (default: ``model_id``), on every replica of the
        service. The service asks the server first unless ``check`` is false; a failure is
        an :class:`~chatspace.errors.UnprocessableEntityError` naming the part at fault.
        ``key`` is kept sealed by the service and never shown again; the token needs the
        ``admin`` claim (``chatspace token --admin``)."""
        body: dict[str, object] = {"id": model_id, "url": url, "replace": replace, "check": check}
        if model is not None:
            body["model"] = model
        if key is not None:
            body["key"] = key
        if timeout is not None:
            body["timeout"] = timeout
        call = Call("POST", "/models", parse=Model.model_validate_json, content=dump(body))
        return self._client._request(call)

    def test(self, model_id: str) -> ModelCheck:
        """Ask the server of a model added with :meth:`add` whether it answers, accepts the
        key and serves the model; ``ok`` and ``detail`` say how it went."""
        path = f"/models/{segment(model_id)}/check"
        return self._client._request(Call("POST", path, parse=ModelCheck.model_validate_json))

    def remove(self, model_id: str) -> None:
        """Stop serving a model added with :meth:`add`."""
        path = f"/models/{segment(model_id)}"
        self._client._request(Call("DELETE", path, parse=ModelDeleted.model_validate_json))
