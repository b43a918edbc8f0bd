"""Everything a running service holds on to, built once when it starts."""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass

import sqlalchemy as sa

from chatspace.local.auth import SECRET_ENV, load_or_create_secret

from .config import Settings
from .engines.registry import ModelRegistry
from .ratelimit import RateLimiter
from .retrieval.dense import DenseIndex
from .retrieval.embeddings import open_embedder
from .retrieval.index import PassageIndex, open_index
from .saved_models import SavedModels
from .sealing import Sealer
from .store.blobs import BlobStore, open_blob_store
from .store.db import open_database
from .store.dialects import is_postgres
from .vectors import BackgroundVectors

log = logging.getLogger("chatspace.service")


@dataclass
class AppState:
    settings: Settings
    db: sa.Engine
    blobs: BlobStore
    models: ModelRegistry
    rate_limiter: RateLimiter
    verification_key: str
    jwt_algorithm: str
    index: PassageIndex
    """Retrieval's side of the database engine (its ``dense`` is None when ``embeddings``
    is ``off``)."""
    sealer: Sealer | None
    """Seals the keys of models added over HTTP; None when the service has no secret to
    seal them with (RS256 tokens and no ``connections_secret``)."""
    saved_models: SavedModels
    vectors: BackgroundVectors | None
    """Embeds the passages of uploads after they commit; None without ``embeddings``."""

    @classmethod
    def open(cls, settings: Settings) -> AppState:
        settings.data_dir.mkdir(parents=True, exist_ok=True)
        if settings.jwt_public_key is not None:
            key, algorithm = settings.jwt_public_key.read_text(), "RS256"
        else:
            key, algorithm = load_or_create_secret(settings.data_dir), "HS256"
        db = open_database(settings.resolved_database_url)
        if is_postgres(db) and algorithm == "HS256" and SECRET_ENV not in os.environ:
            log.warning(
                "tokens are verified with the secret of this data dir: every replica on "
                "this database must get the same %s (or --jwt-public-key); "
                "see docs/deploy.md",
                SECRET_ENV,
            )
        secret = settings.connections_secret
        sealer = Sealer(secret.get_secret_value()) if secret else None
        if sealer is None and algorithm == "HS256":
            sealer = Sealer(key)
        models = ModelRegistry.from_settings(settings)
        index = open_index(db, open_embedder(settings.embeddings), settings.data_dir / "dense")
        if isinstance(index.dense, DenseIndex):  # what deleted workspaces left on disk
            with db.connect() as conn:
                index.dense.release_unused(conn)
        return cls(
            settings=settings,
            db=db,
            blobs=open_blob_store(settings.blob_store, data_dir=settings.data_dir),
            models=models,
            rate_limiter=RateLimiter(settings.rate_limit_per_minute, db),
            verification_key=key,
            jwt_algorithm=algorithm,
            index=index,
            sealer=sealer,
            saved_models=SavedModels(db, sealer, models),
            vectors=BackgroundVectors(db, index.dense) if index.dense else None,
        )

    async def aclose(self) -> None:
        await self.models.aclose()
        self.db.dispose()
