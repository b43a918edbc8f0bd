"""The service's OpenAPI document describes the platform endpoints as the seed does."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from chatspace.types import WORKSPACE_ID_PATTERN
from support.service import Service

PLATFORM = {
    "/workspaces": {"get", "post"},
    "/workspaces/{workspace_id}": {"get", "delete"},
    "/workspaces/{workspace_id}/user": {"post", "put"},
    "/workspaces/{workspace_id}/user/{user_id}": {"delete"},
    "/workspaces/{workspace_id}/users": {"get"},
    "/files": {"get", "post"},
    "/files/search": {"post"},
    "/files/{file_id}": {"get", "delete"},
    "/files/{file_id}/content": {"get"},
    "/files/{file_id}/metadata": {"patch"},
    "/models": {"get"},
    "/models/{model_id}": {"get", "delete"},
    "/models/{model_id}/check": {"post"},
}


@pytest.fixture(scope="module")
def spec(service: Service) -> dict[str, Any]:
    response = httpx.get(service.url + "/openapi.json")
    assert response.status_code == 200
    return dict(response.json())


def _schema(spec: dict[str, Any], ref_or_schema: dict[str, Any]) -> dict[str, Any]:
    ref = ref_or_schema.get("$ref")
    return spec["components"]["schemas"][ref.rsplit("/", 1)[1]] if ref else ref_or_schema


def _params(op: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {p["name"]: p for p in op.get("parameters", [])}


def test_every_platform_operation_is_described_and_secured(spec: dict[str, Any]) -> None:
    assert spec["info"]["version"] == "1.0.0"
    assert spec["components"]["securitySchemes"]["HTTPBearer"] == {
        "type": "http",
        "scheme": "bearer",
        "bearerFormat": "JWT",
        "description": (
            "A JWT with the claims sub (user), org_id and exp; admin: true lets it change the "
            "models the service serves."
        ),
    }
    for path, methods in PLATFORM.items():
        assert methods <= set(spec["paths"][path]), path
        for method in methods:
            op = spec["paths"][path][method]
            assert op["security"] == [{"HTTPBearer": []}], (path, method)
            assert "200" in op["responses"]
            invalid = op["responses"]["422"]["content"]["application/json"]["schema"]
            assert invalid == {"$ref": "#/components/schemas/HTTPValidationError"}
            error = op["responses"]["401"]["content"]["application/json"]["schema"]
            assert _schema(spec, error)["required"] == ["detail", "error"]


def test_connecting_a_model_is_described_with_a_write_only_key(spec: dict[str, Any]) -> None:
    created = spec["paths"]["/models"]["post"]["responses"]
    assert {"201", "403", "409", "422"} <= set(created)
    body = _schema(spec, spec["components"]["schemas"]["ModelConnection"])
    assert body["required"] == ["id", "url"]
    assert body["properties"]["url"]["pattern"] == "^https?://[^\\s/]+"
    assert "key" not in _schema(spec, spec["components"]["schemas"]["Model"])["properties"]


def test_the_v1_aliases_are_not_described_twice(spec: dict[str, Any]) -> None:
    """``/v1/chat/completions`` and the like answer (tests/service/test_ecosystem.py) but the
    document lists each operation once, under the seed's path."""
    assert "/chat/completions" in spec["paths"]
    assert [path for path in spec["paths"] if path.startswith("/v1")] == []


def test_the_422_shape(spec: dict[str, Any]) -> None:
    body = spec["components"]["schemas"]["HTTPValidationError"]
    item = _schema(spec, body["properties"]["detail"]["items"])
    assert item["required"] == ["loc", "msg", "type"]
    assert set(item["properties"]) == {"loc", "msg", "type"}
    assert item["properties"]["loc"]["items"] == {
        "anyOf": [{"type": "string"}, {"type": "integer"}]
    }


def test_the_multipart_upload_body(spec: dict[str, Any]) -> None:
    body = spec["paths"]["/files"]["post"]["requestBody"]
    assert body["required"] is True
    schema = body["content"]["multipart/form-data"]["schema"]
    assert schema["required"] == ["file"]
    props = schema["properties"]
    assert props["file"] == {
        "type": "array",
        "items": {"type": "string", "format": "binary"},
        "minItems": 1,
        "description": props["file"]["description"],
    }
    assert props["purpose"]["default"] == "user_data"
    assert props["metadata"]["type"] == "string"
    assert props["metadata"]["contentSchema"] == {"type": "object"}
    assert (props["instructions"]["type"], props["instructions"]["minLength"]) == ("string", 1)
    assert (props["workspace"]["default"], props["workspace"]["pattern"]) == (
        "default",
        WORKSPACE_ID_PATTERN,
    )
    assert props["workspace"]["maxLength"] == 64
    answer = spec["paths"]["/files"]["post"]["responses"]["200"]["content"]["application/json"]
    assert answer["schema"]["items"] == {"$ref": "#/components/schemas/File"}
    assert "413" in spec["paths"]["/files"]["post"]["responses"]
    for path, method in [
        ("/chat/completions", "post"),
        ("/workspaces", "post"),
        ("/files/{file_id}/metadata", "patch"),
    ]:
        declared = spec["paths"][path][method]["responses"]
        assert {"408", "413"} <= set(declared), (path, method)
    assert _params(spec["paths"]["/files"]["post"])["Idempotency-Key"]["in"] == "header"


def test_search_files_is_described(spec: dict[str, Any]) -> None:
    op = spec["paths"]["/files/search"]["post"]
    assert {"403", "404"} <= set(op["responses"])
    body = _schema(spec, op["requestBody"]["content"]["application/json"]["schema"])
    props = body["properties"]
    assert body["required"] == ["query"]
    assert (props["query"]["minLength"], props["query"]["maxLength"]) == (1, 4000)
    assert (props["top_k"]["minimum"], props["top_k"]["maximum"], props["top_k"]["default"]) == (
        1,
        50,
        10,
    )
    relevance = next(s for s in props["relevance"]["anyOf"] if s.get("type") == "number")
    assert (relevance["minimum"], relevance["maximum"]) == (0, 1)
    kinds = [s.get("type") or s["$ref"].rsplit("/", 1)[1] for s in props["filter"]["anyOf"]]
    assert kinds == ["string", "ComparisonFilter", "CompoundFilter", "object", "null"]
    assert props["filter"]["anyOf"][0]["format"] == "metadata-filter"
    compound = spec["components"]["schemas"]["CompoundFilter"]
    assert compound["properties"]["type"]["enum"] == ["and", "or"]
    answer = op["responses"]["200"]["content"]["application/json"]["schema"]
    hit = _schema(spec, _schema(spec, answer)["properties"]["data"]["items"])
    assert set(hit["properties"]) == {
        "file_id",
        "filename",
        "text",
        "quote",
        "score",
        "scores",
        "cited",
        "location",
    }


def test_list_files_parameters(spec: dict[str, Any]) -> None:
    params = _params(spec["paths"]["/files"]["get"])
    assert set(params) == {"workspace", "after", "limit", "order", "purpose", "metadata"}
    assert params["limit"]["schema"] | {} == {
        "type": "integer",
        "minimum": 1,
        "maximum": 10000,
        "default": 10000,
        "title": "Limit",
    }
    assert params["order"]["schema"]["enum"] == ["asc", "desc"]
    assert params["order"]["schema"]["default"] == "desc"
    assert params["workspace"]["schema"]["default"] == "default"
    for path in ("/files/{file_id}", "/files/{file_id}/content", "/files/{file_id}/metadata"):
        for op in spec["paths"][path].values():
            assert _params(op)["workspace"]["schema"]["default"] == "default"
            assert _params(op)["file_id"]["required"] is True


def test_workspace_and_file_models(spec: dict[str, Any]) -> None:
    schemas = spec["components"]["schemas"]
    create = schemas["WorkspaceCreate"]
    assert create["properties"]["id"]["pattern"] == WORKSPACE_ID_PATTERN
    assert set(create["required"]) == {"id", "name"}
    assert create["additionalProperties"] is False
    user = schemas["WorkspaceUserRequest"]
    assert user["properties"]["access"]["enum"] == ["reader", "writer", "admin"]
    workspace = schemas["Workspace"]["properties"]
    assert workspace["created_at"]["format"] == "date-time"
    file = schemas["File"]["properties"]
    assert set(file) >= {
        "id", "object", "bytes", "created_at", "filename", "purpose", "status",
        "status_details", "expires_at", "org_id", "workspace_id", "user_id", "metadata",
    }  # fmt: skip
    assert file["workspace_id"]["default"] == "default"
    assert set(schemas["FileList"]["properties"]) >= {"data", "object", "total"}


def test_the_docs_pages_are_served(service: Service) -> None:
    docs = httpx.get(service.url + "/docs")
    assert docs.status_code == 200
    assert "swagger-ui" in docs.text
    assert httpx.get(service.url + "/redoc").status_code == 200


def test_streamed_answers_and_downloads_are_described(spec: dict[str, Any]) -> None:
    """Each server-sent event's data is a chunk, an error or ``[DONE]``; a download may
    have any content type."""
    created = spec["paths"]["/chat/completions"]["post"]["responses"]["200"]["content"]
    event = created["text/event-stream"]["schema"]
    chunk, error, done = event["properties"]["data"]["anyOf"]
    assert chunk["contentSchema"] == {"$ref": "#/components/schemas/ChatCompletionChunk"}
    assert error["contentSchema"]["required"] == ["error"]
    assert done == {"const": "[DONE]"}
    assert "ChatCompletionChunk" in spec["components"]["schemas"]
    content = spec["paths"]["/files/{file_id}/content"]["get"]["responses"]["200"]["content"]
    assert set(content) == {"*/*"}
