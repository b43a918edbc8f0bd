"""Connecting models over HTTP (docs/interface.md#connecting-models): adding, checking and
removing the connections of ``POST /models``.

Only a caller whose token has the ``admin`` claim may change them: they are the service's,
served to every organization, as ``models.toml`` and the command line's are. The key is
sealed before the database holds it (:mod:`..sealing`) and never leaves the service again.
"""

from __future__ import annotations

import time

from chatspace.local.checks import CHECK_TIMEOUT, BadConnection, check_connection, check_name
from chatspace.local.connections import FILE_NAME
from chatspace.service.access import Caller
from chatspace.service.engines.registry import SAVED, added_by
from chatspace.service.problems import Conflict, Forbidden, Invalid, NotFound, quoted
from chatspace.service.sealing import CONNECTIONS_SECRET_ENV, Unsealable
from chatspace.service.state import AppState
from chatspace.service.store import connections as store
from chatspace.service.store.transactions import write_transaction
from chatspace.types import Model, ModelCheck, ModelConnection, ModelDeleted

__all__ = ["add_model", "check_model", "remove_model"]


def _require_admin(caller: Caller) -> None:
    if not caller.admin:
        raise Forbidden(
            "Changing the models this service serves needs a token with the admin claim "
            "(its operator mints one with 'chatspace token --admin')."
        )


def _refuse_other_source(state: AppState, name: str, doing: str) -> str | None:
    """The source of ``name`` when it is ``POST /models`` or none; a 409 for the others,
    which are configured where the service runs."""
    source = state.models.source_of(name)
    if source in (None, SAVED):
        return source
    where = "its host's models.toml" if source == FILE_NAME else source
    raise Conflict(
        f"Model {quoted(name)} is served from {where}, not added over HTTP: {doing} it there."
    )


def _checked(body: ModelConnection, key: str | None) -> None:
    try:
        check_connection(body.url, body.model or body.id, key, timeout=CHECK_TIMEOUT)
    except BadConnection as exc:
        message = str(exc).replace(" (--no-check saves the model unchecked)", "")
        raise Invalid(["body", exc.field], f"{message} (check: false saves it unchecked)") from None


def add_model(state: AppState, *, caller: Caller, body: ModelConnection) -> Model:
    """Serve ``body.id`` from its server, on every replica (at once on this one)."""
    _require_admin(caller)
    try:
        check_name(body.id)
    except BadConnection as exc:
        raise Invalid(["body", "id"], str(exc)) from None
    if _refuse_other_source(state, body.id, "change") == SAVED and not body.replace:
        raise Conflict(f"Model {quoted(body.id)} exists; send replace: true to change it.")
    key = body.key.get_secret_value() if body.key is not None else None
    if key is not None and state.sealer is None:
        raise Invalid(
            ["body", "key"],
            "This service cannot keep keys: its operator must set "
            f"{CONNECTIONS_SECRET_ENV} (the same on every replica).",
        )
    if body.check:
        _checked(body, key)
    sealed = state.sealer.seal(key) if key is not None and state.sealer else None
    with write_transaction(state.db) as conn:
        saved = store.save(
            conn,
            name=body.id,
            url=body.url.rstrip("/"),
            model=body.model or body.id,
            timeout=body.timeout,
            sealed_key=sealed,
            org_id=caller.org_id,
            user_id=caller.user_id,
            now=time.time(),
            replace=body.replace,
        )
    if not saved:  # another admin added the name meanwhile
        raise Conflict(f"Model {quoted(body.id)} exists; send replace: true to change it.")
    state.saved_models.load()
    return Model(id=body.id, created=int(time.time()), owned_by=added_by(caller.user_id))


def _saved(state: AppState, name: str) -> store.Saved:
    with state.db.connect() as conn:
        found = store.find(conn, name)
    if found is None:
        raise NotFound(f"No model {quoted(name)} was added over HTTP.")
    return found


def check_model(state: AppState, *, caller: Caller, name: str) -> ModelCheck:
    """Ask the server of a connection added over HTTP whether it answers, accepts the key
    and serves the model (nothing changes); the answer says how it went (a failed check is
    an answer, not an error of this request)."""
    _require_admin(caller)
    _refuse_other_source(state, name, "check")
    row = _saved(state, name)
    key = None
    if row.sealed_key is not None:
        try:
            if state.sealer is None:
                raise Unsealable("this service has no secret to unseal model keys with")
            key = state.sealer.open(row.sealed_key)
        except Unsealable as exc:
            raise Conflict(f"Model {quoted(name)}: {exc}.") from None
    try:
        served = check_connection(row.url, row.model, key, adding=False)
    except BadConnection as exc:
        return ModelCheck(id=name, ok=False, detail=str(exc))
    keyed = "accepts its key and " if key else ""
    return ModelCheck(
        id=name,
        ok=True,
        detail=f"{row.url} {keyed}serves {row.model} (one of the {len(served)} models it serves)",
        served=served,
    )


def remove_model(state: AppState, *, caller: Caller, name: str) -> ModelDeleted:
    """Stop serving a connection added over HTTP, on every replica (at once on this one)."""
    _require_admin(caller)
    _refuse_other_source(state, name, "remove")
    with write_transaction(state.db) as conn:
        removed = store.delete(conn, name)
    if not removed:
        raise NotFound(f"No model {quoted(name)} was added over HTTP.")
    state.saved_models.load()
    return ModelDeleted(id=name)
