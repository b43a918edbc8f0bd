"""The service's HTTP edge: what only HTTP needs, around the routes.

Request bounds (``limits``: JSON body size, uploads at once; ``timeouts``: head and body
reads), request ids, the caller from the bearer token (``deps``), multipart uploads
streamed to temporary blobs (``uploads``), the ``Idempotency-Key`` header and replays
(``idempotency``), a file's bytes with ``Range`` (``content``) and how a domain error is
answered (``errors``). Below the routes nothing imports this package
(tests/service/test_layering.py).
"""
