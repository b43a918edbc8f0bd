"""The service's settings: one class, filled from ``chatspace serve`` options and
``CHATSPACE_*`` environment variables (options win)."""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

from chatspace.tokens import data_dir as default_data_dir

from .connections import DEFAULT_TIMEOUT


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
    model_config = SettingsConfigDict(env_prefix="CHATSPACE_", extra="ignore")

    data_dir: Path = Field(default_factory=default_data_dir)
    database_url: str | None = None
    """A SQLAlchemy URL; by default ``chatspace.db`` (SQLite) in the data dir."""
    max_upload_mb: int = Field(default=512, ge=1)
    retention_days: int | None = Field(default=None, ge=1)
    """When set, files get ``expires_at`` this many days after upload."""
    jwt_public_key: Path | None = None
    """A PEM public key: tokens are then verified with RS256 instead of the HS256 secret."""
    rate_limit_per_minute: int | None = Field(default=None, ge=1)
    """Requests per caller per minute; over it, 429 with ``Retry-After``."""
    upstreams: list[Upstream] = Field(default_factory=list)
    autodetect: bool = True
    """Serve the models of the endpoints the environment names (``OPENAI_API_KEY``, a local
    Ollama); ``CHATSPACE_AUTODETECT=0`` or ``--no-autodetect`` turns it off."""
    relevance_threshold: float = Field(default=0.0, ge=0, le=1)
    """Share of a question's idf-weighted terms a passage must match to be cited (0: any
    match); a filter part's ``relevance`` wins. See ``retrieval/search.py``. Off by default:
    on natural questions a word no file uses ("Which products *sell* in Lyon?") weighs as
    much as an entity no file names ("the capital of *Australia*"), so no lexical threshold
    separates them; 0.4 (``DEFAULT_RELEVANCE``, calibrated on the benchmark) is opt-in until
    dense similarity adds the missing signal."""
    instructions_model: str = "service-l0"
    """The model that runs file ``instructions``: ``service-l0`` (a deterministic extractor)
    or a name an upstream serves (the model then returns the metadata as a JSON object)."""

    @property
    def max_upload_bytes(self) -> int:
        return self.max_upload_mb * 1024 * 1024

    @property
    def resolved_database_url(self) -> str:
        return self.database_url or f"sqlite:///{self.data_dir / 'chatspace.db'}"

    @property
    def blob_dir(self) -> Path:
        return self.data_dir / "blobs"

    @property
    def runtime_file(self) -> Path:
        """Where a running service writes its address, for clients to find it."""
        return self.data_dir / "service.json"
