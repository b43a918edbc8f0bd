"""File ``instructions`` (docs/interface.md#metadata-and-instructions): the local extractor of
``service-l0``, and an upstream model chosen with ``--instructions-model`` that answers a JSON
object, checked before use."""

from __future__ import annotations

import json
import mimetypes
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from chatspace.service.engines.extractor import derive_locally, detect_language
from support.chat import client_for
from support.platform import with_vectors
from support.service import Service, start_service
from support.upstream import META, FakeUpstream

NOTES = """# Trip to Lyon

We took the train from Paris to Lyon and it was a pleasant ride.
The old town is beautiful and the food is excellent.
"""
GERMAN = "Der Zug fährt von Berlin nach Hamburg. Es ist nicht weit und die Fahrt ist schön."
CSV = "city,country,population\nParis,France,2100000\nLyon,France,520000\n"


def _upload(client: httpx.Client, name: str, data: str | bytes, **form: str) -> dict[str, Any]:
    parts = [("file", (name, data.encode() if isinstance(data, str) else data))]
    response = client.post("/files", files=parts, data={"purpose": "user_data", **form})
    assert response.status_code == 200, response.text
    return with_vectors(client, response.json())[0]


def _type(name: str) -> str:
    return mimetypes.guess_type(name, strict=False)[0] or "application/octet-stream"


@pytest.fixture
def client(service: Service, org: str) -> Iterator[httpx.Client]:
    with client_for(service, org) as c:
        yield c


def test_upload_with_instructions_derives_what_they_name(client: httpx.Client) -> None:
    file = _upload(
        client,
        "trip.md",
        NOTES,
        instructions="Extract the title and the language.",
        metadata=json.dumps({"owner": "ann"}),
    )
    assert file["metadata"] == {"title": "Trip to Lyon", "language": "en", "owner": "ann"}
    assert file["status_details"] == (
        "service-l0 derived title, language with its local extractor "
        "(no generative model is configured for instructions)."
    )
    assert client.get(f"/files/{file['id']}").json()["metadata"] == file["metadata"]


def test_given_metadata_wins_over_derived(client: httpx.Client) -> None:
    file = _upload(
        client, "trip.md", NOTES, instructions="title", metadata=json.dumps({"title": "Mine"})
    )
    assert file["metadata"] == {"title": "Mine"}


def test_patch_with_instructions_merges_and_never_stores_them(client: httpx.Client) -> None:
    file = _upload(client, "cities.csv", CSV, metadata=json.dumps({"keep": True}))
    patched = client.patch(
        f"/files/{file['id']}/metadata", json={"instructions": "count rows and columns"}
    )
    assert patched.status_code == 200
    assert patched.json()["metadata"] == {
        "keep": True,
        "rows": 2,
        "columns": 3,
        "column_names": ["city", "country", "population"],
    }
    assert "instructions" not in patched.json()["metadata"]
    assert patched.json()["status_details"].startswith("service-l0 derived rows, columns")


def test_instructions_naming_nothing_known_derive_everything(client: httpx.Client) -> None:
    file = _upload(client, "trip.md", NOTES, instructions="Summarize this document.")
    lines = NOTES.count("\n")
    assert file["metadata"] == {
        "title": "Trip to Lyon",
        "content_type": _type("trip.md"),
        "characters": len(NOTES),
        "words": len(NOTES.split()) - 1,  # '#' is not a word
        "lines": lines,
        "language": "en",
    }


@pytest.mark.parametrize(
    ("name", "data", "instructions", "expected"),
    [
        ("de.txt", GERMAN, "language", {"language": "de"}),
        ("tool.py", "import os\nprint(os.getcwd())\n", "programming language", {"programming_language": "python"}),  # noqa: E501
        ("data.json", '{"b": 1, "a": [1, 2]}', "json structure and keys", {"json_type": "object", "keys": ["b", "a"]}),  # noqa: E501
        ("list.json", "[1, 2, 3]", "items", {"items": 3}),
        ("blob.bin", b"\x00\x01\x02\x03", "title", {"content_type": "application/octet-stream"}),
    ],
)  # fmt: skip
def test_local_extractor_by_kind(
    client: httpx.Client, name: str, data: str | bytes, instructions: str, expected: dict
) -> None:
    file = _upload(client, name, data, instructions=instructions)
    assert file["metadata"] == expected


def test_bad_instructions_are_422(client: httpx.Client) -> None:
    file = _upload(client, "trip.md", NOTES)
    for bad in ("", 5):
        response = client.patch(f"/files/{file['id']}/metadata", json={"instructions": bad})
        assert response.status_code == 422
        assert response.json()["detail"][0]["loc"] == ["body", "instructions"]


def test_extractor_is_deterministic_and_language_detection_is_cautious() -> None:
    one = derive_locally(text=NOTES, filename="a.md", content_type="text/markdown", instructions="")
    two = derive_locally(text=NOTES, filename="a.md", content_type="text/markdown", instructions="")
    assert one == two
    french = "le chat est sur la table et il dort dans le jardin"
    assert detect_language(french.split(" ")) == "fr"
    assert detect_language(["Paris", "Lyon", "2024"]) is None
    assert detect_language([]) is None


# ---------------------------------------------------------------- an upstream model


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeUpstream]:
    server = FakeUpstream().start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def meta_service(tmp_path_factory: pytest.TempPathFactory, fake: FakeUpstream) -> Iterator[Service]:
    args = ["--upstream-url", fake.url, "--upstream-model", "meta", "--instructions-model", "meta"]
    svc = start_service(tmp_path_factory.mktemp("meta"), *args)
    yield svc
    svc.stop()


def test_upstream_model_answers_json_metadata(
    meta_service: Service, fake: FakeUpstream, org: str
) -> None:
    with client_for(meta_service, org) as c:
        file = _upload(c, "trip.md", NOTES, instructions="Summarize it in one sentence.")
    assert file["metadata"] == META
    assert file["status_details"] == "Model 'meta' derived summary, pages by the instructions."
    sent = fake.last("meta")["body"]
    assert sent["response_format"] == {"type": "json_object"}
    assert sent["temperature"] == 0
    prompt = sent["messages"][1]["content"]
    assert "Summarize it in one sentence." in prompt
    assert NOTES in prompt
    assert "trip.md" in prompt


def test_an_upstream_answer_that_is_not_json_changes_nothing(
    meta_service: Service, org: str
) -> None:
    with client_for(meta_service, org) as c:
        file = _upload(c, "trip.md", NOTES, metadata=json.dumps({"a": 1}))
        response = c.patch(f"/files/{file['id']}/metadata", json={"instructions": "garble it"})
        assert response.status_code == 502
        assert response.json()["detail"] == (
            "The model 'meta' did not answer the instructions with a JSON object of metadata; "
            "nothing was changed."
        )
        assert c.get(f"/files/{file['id']}").json()["metadata"] == {"a": 1}
        refused = c.post(
            "/files",
            files=[("file", ("x.md", b"garble"))],
            data={"purpose": "user_data", "instructions": "garble"},
        )
        assert refused.status_code == 502
        assert c.get("/files").json()["total"] == 1, "a refused upload keeps nothing"
