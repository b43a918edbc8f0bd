"""The service's settings: one class, filled from ``chatspace serve`` options and
``CHATSPACE_*`` environment variables (options win).

Each field is the one place a setting is stated: its docstring is its ``--help`` text and
its default the one that applies; ``chatspace serve``'s options are made from these fields
(:mod:`.cli_settings`), and docs/deploy.md's table of settings is checked against them.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from chatspace._wire import DEFAULT_MODEL
from chatspace.local.connections import DEFAULT_TIMEOUT
from chatspace.local.datadir import data_dir as default_data_dir

from .retrieval.embeddings import EMBEDDINGS, ModelMissingError, open_embedder
from .retrieval.search import DEFAULT_RELEVANCE

_S3_URL = re.compile(r"^s3://[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](/.*)?$")


class Upstream(BaseModel):
    """An OpenAI-compatible model server that generation is forwarded to.

    ``models`` maps the names this service offers to the names the upstream knows
    (``--upstream-model local-name=remote-name``; a bare name maps to itself).
    """

    url: str
    key: SecretStr | None = None
    models: dict[str, str] = Field(default_factory=dict)
    timeout: float = DEFAULT_TIMEOUT


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix="CHATSPACE_", extra="ignore", use_attribute_docstrings=True
    )

    data_dir: Path = Field(default_factory=default_data_dir)
    """Where the service keeps its secret, database and files unless told otherwise;
    default: the platform's user data dir."""
    database_url: str | None = None
    """``postgresql://USER@HOST:PORT/DB`` (through psycopg 3; the password from
    ``PGPASSWORD`` or ``~/.pgpass``, as one in the URL shows in the process list) or a
    ``sqlite:///`` URL; by default ``chatspace.db`` (SQLite) in the data dir."""
    blob_store: str | None = None
    """Where file bytes live: ``s3://bucket/prefix`` (``AWS_ENDPOINT_URL``,
    ``AWS_ACCESS_KEY_ID``, ``AWS_SECRET_ACCESS_KEY``, ``AWS_REGION``), or by default the
    ``blobs`` folder of the data dir."""
    max_upload_mb: int = Field(default=512, ge=1)
    """Largest file an upload may hold, in MiB; over it, 413."""
    max_json_mb: int = Field(default=8, ge=1)
    """Largest body of a JSON request (uploads have ``max_upload_mb`` per file); over it, 413."""
    header_timeout: float = Field(default=10.0, gt=0)
    """Seconds a client has to send a request's headers; then the connection is closed."""
    keep_alive_timeout: int = Field(default=20, ge=1)
    """Seconds an idle connection stays open for the client's next request: longer than
    clients keep one (httpx 5 s), so that none sends a request on a closing connection."""
    body_timeout: float = Field(default=30.0, gt=0)
    """Seconds a request body may go without new bytes; then 408 and the connection is closed."""
    max_uploads_per_caller: int = Field(default=16, ge=1)
    """Uploads one caller may have in progress at once; one more is a 429."""
    max_token_days: float = Field(default=366.0, gt=0)
    """Longest a token may still be valid for (its ``exp`` from now); beyond it, 401."""
    retention_days: int | None = Field(default=None, ge=1)
    """When set, files get ``expires_at`` this many days after upload."""
    housekeeping_interval: float = Field(default=600.0, gt=0)
    """Seconds between housekeeping runs (expiry, purges), on one replica at a time (a
    short one lets tests see a takeover)."""
    jwt_public_key: Path | None = None
    """A PEM public key: tokens are then verified with RS256 instead of the HS256 secret."""
    connections_secret: SecretStr | None = None
    """What seals the keys of models added over HTTP (the same on every replica);
    default: the HS256 token secret. See ``service/sealing.py``."""
    rate_limit_per_minute: int | None = Field(default=None, ge=1)
    """Requests per caller per minute; over it, 429 with ``Retry-After``."""
    upstreams: list[Upstream] = Field(default_factory=list)
    """OpenAI-compatible servers generation is forwarded to (``CHATSPACE_UPSTREAMS`` as
    JSON, or ``--upstream-url`` with its ``--upstream-key-env`` and ``--upstream-model``)."""
    autodetect: bool = True
    """Serve the models of the endpoints the environment names (``OPENAI_API_KEY``, a local
    Ollama); ``CHATSPACE_AUTODETECT=0`` turns it off too."""
    relevance_threshold: float | None = Field(default=None, ge=0, le=1)
    """How relevant a passage must be to be cited, from 0 (the best ``top_k`` whatever
    they say) to 1; a filter part's ``relevance`` wins. Default: the dense model's own
    (0.35 for ``wordllama``, 0.3 for ``minilm``; 0.35 with ``--embeddings off``). See
    ``retrieval/search.py``."""
    embeddings: Literal["wordllama", "minilm", "off"] = "wordllama"
    """The dense half of hybrid retrieval: ``wordllama`` (a 256-dimension model inside the
    ``wordllama`` wheel, offline), ``minilm`` (all-MiniLM-L6-v2, 384 dimensions: better
    with questions in other words than the files', many times slower to embed; the
    ``minilm`` extra) or ``off`` (full text only). Vectors of another model already
    stored are recomputed in the background."""
    vectors_wait_seconds: float = Field(default=10.0, ge=0)
    """How long a question (a completion, ``POST /files/search``) waits for the passage
    vectors its workspace's files still wait for (an upload just made) before it is
    answered by words alone for them; 0: never waits. See ``service/vectors.py``."""
    instructions_model: str = DEFAULT_MODEL
    """The model that runs file ``instructions``: ``service-l0`` (a deterministic extractor)
    or a name an upstream serves (the model then returns the metadata as a JSON object)."""

    @field_validator("database_url")
    @classmethod
    def _database_url(cls, value: str | None) -> str | None:
        if value is None:
            return None
        scheme, sep, rest = value.partition("://")
        if not sep:
            raise ValueError("expected a URL like postgresql://user@host:5432/chatspace")
        if scheme in {"postgres", "postgresql", "postgresql+psycopg"}:
            return f"postgresql+psycopg://{rest}"
        if scheme == "sqlite":
            return value
        raise ValueError(f"unsupported database {scheme!r}: use postgresql:// or sqlite://")

    @field_validator("embeddings")
    @classmethod
    def _embedder_usable(cls, value: str) -> str:
        try:
            open_embedder(value)  # finds the model's files, loads nothing
        except ModelMissingError as exc:
            raise ValueError(str(exc)) from None
        return value

    @field_validator("blob_store")
    @classmethod
    def _s3_url(cls, value: str | None) -> str | None:
        if value is not None and not _S3_URL.match(value):
            raise ValueError("expected s3://bucket/prefix (a bucket name of 3 to 63 characters)")
        return value

    @property
    def relevance(self) -> float:
        """The relevance a passage needs to be cited: ``relevance_threshold``, else the
        dense model's own (its lexical share and threshold are one rule, chosen together
        on the dev split), else :data:`DEFAULT_RELEVANCE` by words alone."""
        if self.relevance_threshold is not None:
            return self.relevance_threshold
        model = EMBEDDINGS.get(self.embeddings)
        return model.relevance if model is not None else DEFAULT_RELEVANCE

    @property
    def max_upload_bytes(self) -> int:
        return self.max_upload_mb * 1024 * 1024

    @property
    def resolved_database_url(self) -> str:
        return self.database_url or f"sqlite:///{self.data_dir / 'chatspace.db'}"

    @property
    def blob_dir(self) -> Path:
        return self.data_dir / "blobs"
