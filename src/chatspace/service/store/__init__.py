"""Storage: rows and their search indexes in SQLite or PostgreSQL (through SQLAlchemy),
file bytes in a directory or an S3 bucket."""


class StoreUnavailable(RuntimeError):
    """The database or the blob store cannot be used at start: the service stops, saying
    why in one line (never with a credential)."""
