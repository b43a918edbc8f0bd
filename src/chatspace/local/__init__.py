"""This machine's chatspace service: everything a process needs to find, start, stop and
talk to the service of a data dir, without importing the service itself.

- :mod:`.datadir`: which data dir (``--data-dir``, ``CHATSPACE_DATA_DIR``, the user's).
- :mod:`.auth`: its JWT secret (0600) and minting tokens with it.
- :mod:`.runtime`: ``service.json``, the one record a running ``chatspace serve`` writes
  and the launcher reads (its URL, process, version and environment).
- :mod:`.serving`: the command line of ``chatspace serve`` and its ready line.
- :mod:`.launcher`: the embedded service, found or started for a client with no URL.
- :mod:`.locks`: exclusive file locks between processes.
- :mod:`.connections` and :mod:`.checks`: ``models.toml`` with its key files, and asking
  a model server whether a connection works.

The service, the client, the CLI and the server extension import these; this
package imports nothing of the service, the client, the notebook or the server extension
(tests/service/test_layering.py).
"""
