"""``GET <base_url>/chatspace/files/<id>/content``: a file streamed from the service.

The browser follows the panels' download links with its Jupyter login (cookie or token);
this handler adds the service's credentials, which never reach the browser, and passes
the body through in chunks, never holding a whole file in memory. Service errors keep
their meaning: a missing file stays a 404, too low an access level a 403; a service that
cannot be reached or that rejects the server's own credentials is a 502/503/504.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

import httpx
import tornado.web
from jupyter_server.auth.decorator import authorized
from jupyter_server.base.handlers import APIHandler
from jupyter_server.utils import url_path_join
from tornado.iostream import StreamClosedError

from ._target import ServiceTarget, ServiceUnavailable

__all__ = ["FileContentHandler", "setup_route_handlers"]

CHUNK_BYTES = 64 * 1024
TIMEOUT = httpx.Timeout(60.0, connect=10.0)
_PASSED_HEADERS = (
    "Content-Type",
    "Content-Length",
    "Content-Disposition",
    "Content-Range",
    "Content-Encoding",
    "Accept-Ranges",
    "ETag",
    "Last-Modified",
)
# what a service status becomes for the browser; anything else unknown is a 502
_STATUS = {400: 400, 403: 403, 404: 404, 416: 416, 422: 400, 429: 429}


def _detail(body: bytes) -> str:
    """The service's one-sentence ``detail`` (or the 422 items' messages)."""
    try:
        detail = json.loads(body).get("detail")
    except (ValueError, AttributeError):
        return ""
    if isinstance(detail, list):
        return "; ".join(str(item.get("msg", item)) for item in detail if isinstance(item, dict))
    return str(detail) if detail else ""


class FileContentHandler(APIHandler):
    """Streams one file of a workspace from the chatspace service to the browser."""

    auth_resource = "chatspace"

    @property
    def target(self) -> ServiceTarget:
        target: ServiceTarget = self.settings["chatspace_target"]
        return target

    @tornado.web.authenticated
    @authorized("read")
    async def get(self, file_id: str) -> None:
        workspace = self.get_query_argument("workspace", "default")
        try:
            base, auth = await self.target.resolve()
        except ServiceUnavailable as exc:
            raise tornado.web.HTTPError(
                503, f"The chatspace service is not available: {exc}", reason="Service Unavailable"
            ) from None
        headers = {"Accept-Encoding": "identity"}
        if auth:
            headers["Authorization"] = auth
        if self.request.headers.get("Range"):
            headers["Range"] = self.request.headers["Range"]
        url = f"{base}/files/{quote(file_id, safe='')}/content"
        async with httpx.AsyncClient(timeout=TIMEOUT) as http:
            try:
                request = http.build_request(
                    "GET", url, params={"workspace": workspace}, headers=headers
                )
                response = await http.send(request, stream=True)
            except httpx.TimeoutException:
                raise tornado.web.HTTPError(
                    504, "The chatspace service did not answer in time."
                ) from None
            except httpx.TransportError:
                raise tornado.web.HTTPError(
                    502, "The chatspace service could not be reached."
                ) from None
            try:
                await self._relay(response)
            finally:
                await response.aclose()

    async def _relay(self, response: httpx.Response) -> None:
        if response.status_code >= 400:
            self._fail(response.status_code, await response.aread(), response.headers)
        self.set_status(response.status_code)
        for name in _PASSED_HEADERS:
            if name in response.headers:
                self.set_header(name, response.headers[name])
        if not response.headers.get("Content-Disposition", "").startswith("attachment"):
            # a file is downloaded, never rendered in the Jupyter origin
            self.set_header("Content-Disposition", "attachment")
        self.set_header("X-Content-Type-Options", "nosniff")
        content_type = response.headers.get("Content-Type", "application/octet-stream")
        try:
            async for chunk in response.aiter_raw(CHUNK_BYTES):
                self.write(chunk)
                await self.flush()
        except StreamClosedError:
            return  # the browser went away: nothing left to answer
        except httpx.TransportError:
            # headers and some bytes are out already: tornado then ends the connection
            # short of Content-Length, so the browser sees the download fail, not finish
            raise tornado.web.HTTPError(502, "The chatspace service broke off the file.") from None
        self.finish(set_content_type=content_type)

    def _fail(self, status: int, body: bytes, headers: httpx.Headers) -> None:
        detail = _detail(body)
        if status == 401:
            raise tornado.web.HTTPError(
                502, "The chatspace service rejected the Jupyter server's credentials."
            )
        mapped = _STATUS.get(status, 502)
        if mapped == 429 and headers.get("Retry-After"):
            self.set_header("Retry-After", headers["Retry-After"])
        message = detail or f"The chatspace service answered {status}."
        raise tornado.web.HTTPError(mapped, message)

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        # an error page is JSON like every API error; drop any file headers already set
        for name in _PASSED_HEADERS:
            self.clear_header(name)
        super().write_error(status_code, **kwargs)


def setup_route_handlers(web_app: Any) -> None:
    """Add the extension's routes under the server's ``base_url``."""
    base_url = web_app.settings["base_url"]
    route = url_path_join(base_url, "chatspace", "files", "([^/]+)", "content")
    web_app.add_handlers(".*$", [(route, FileContentHandler)])
