"""The chatspace Jupyter server extension.

Enabled by ``jupyter-config/jupyter_server_config.d/chatspace.json`` (installed with the
package). When the Jupyter server starts, it

* resolves the chatspace service: the remote one configured by ``CHATSPACE_BASE_URL``
  (and ``CHATSPACE_TOKEN``) in the server's environment, else the embedded local service,
  found or started in a background thread so that the server's start is not held up, and
  shared by every kernel of the server (they find it through the same data dir);
* exports its ``base_url`` as ``CHATSPACE_JUPYTER_BASE_URL``, which kernels started by the
  server inherit, so the panels build download links that work under any base URL;
* exports the path of its runtime file (``jpserver-<pid>.json``) as
  ``CHATSPACE_JUPYTER_SERVER_INFO``, so that a kernel can ask the server which notebook it
  runs for after a rename (:mod:`chatspace.notebook.notebook_file`); the token stays in
  that file, never in the environment;
* serves ``GET <base_url>/chatspace/files/<id>/content?workspace=...``, authenticated by
  the Jupyter server, streaming the file from the service (see :mod:`.handlers`).
"""

from __future__ import annotations

import os
from typing import Any

from chatspace.notebook.notebook_file import SERVER_INFO_ENV

from ._target import ServiceTarget
from .handlers import setup_route_handlers

__all__ = ["BASE_URL_ENV", "ServiceTarget", "setup_route_handlers"]

BASE_URL_ENV = "CHATSPACE_JUPYTER_BASE_URL"
"""Read by the panels (``notebook/panels/_links.py``) to build download links."""


def _jupyter_server_extension_points() -> list[dict[str, str]]:
    return [{"module": "chatspace.serverext"}]


def _load_jupyter_server_extension(serverapp: Any) -> None:
    """Resolve (or start) the service in the background and add the download route."""
    web_app = serverapp.web_app
    target = web_app.settings.get("chatspace_target")
    if target is None:
        target = ServiceTarget.from_environment(serverapp.log)
        web_app.settings["chatspace_target"] = target
    os.environ[BASE_URL_ENV] = web_app.settings["base_url"]
    os.environ[SERVER_INFO_ENV] = serverapp.info_file  # a path: the token stays in the file
    setup_route_handlers(web_app)
    serverapp.log.info("chatspace | extension loaded; service: %s", target.where)
