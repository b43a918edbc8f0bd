"""Storage: SQLite (through SQLAlchemy) for rows and the FTS5 index, the disk for blobs."""
