"""Everything a running service holds on to, built once when it starts."""

from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa

from chatspace.local_auth import load_or_create_secret

from .config import Settings
from .engines.registry import ModelRegistry
from .ratelimit import RateLimiter
from .retrieval.dense import DenseIndex
from .retrieval.embeddings import WordLlamaEmbedder
from .store.blobs import BlobStore, open_blob_store
from .store.db import open_database


@dataclass
class AppState:
    settings: Settings
    db: sa.Engine
    blobs: BlobStore
    models: ModelRegistry
    rate_limiter: RateLimiter
    verification_key: str
    jwt_algorithm: str
    dense: DenseIndex | None
    """Dense similarity for hybrid retrieval; None when ``embeddings`` is ``off``."""

    @classmethod
    def open(cls, settings: Settings) -> AppState:
        settings.data_dir.mkdir(parents=True, exist_ok=True)
        if settings.jwt_public_key is not None:
            key, algorithm = settings.jwt_public_key.read_text(), "RS256"
        else:
            key, algorithm = load_or_create_secret(settings.data_dir), "HS256"
        return cls(
            settings=settings,
            db=open_database(settings.resolved_database_url),
            blobs=open_blob_store(settings.blob_store, data_dir=settings.data_dir),
            models=ModelRegistry.from_settings(settings),
            rate_limiter=RateLimiter(settings.rate_limit_per_minute),
            verification_key=key,
            jwt_algorithm=algorithm,
            dense=DenseIndex(WordLlamaEmbedder()) if settings.embeddings == "wordllama" else None,
        )

    async def aclose(self) -> None:
        await self.models.aclose()
        self.db.dispose()
