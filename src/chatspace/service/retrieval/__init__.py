"""Retrieval: text extraction, passages and FTS5 search over a workspace's files."""
