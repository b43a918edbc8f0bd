"""File metadata derived by an upstream model following a file's ``instructions``.

The model is asked for one JSON object and nothing else. Its answer is checked before
anything is merged: a JSON object (a Markdown code fence around it is tolerated) of at
most :data:`MAX_KEYS` keys of 1..:data:`MAX_KEY_CHARS` characters and at most
:data:`MAX_JSON_BYTES` of JSON, the bounds of file metadata. Anything else is a 502: the
model failed at its task, and the file's metadata stays as it was.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

from chatspace.service.problems import UpstreamFailed
from chatspace.service.retrieval.search import Retrieval
from chatspace.types import ChatCompletionRequest
from chatspace.types.files import FILE_METADATA_MAX_BYTES as MAX_JSON_BYTES
from chatspace.types.files import FILE_METADATA_MAX_KEY_LENGTH as MAX_KEY_CHARS
from chatspace.types.files import FILE_METADATA_MAX_KEYS as MAX_KEYS

from .base import ContentDelta, Job

if TYPE_CHECKING:
    from .upstream import UpstreamEngine

__all__ = ["derive_with_model", "parse_metadata_answer"]

MAX_TEXT_CHARS = 12_000
SYSTEM_PROMPT = (
    "You derive metadata for a file from its text by the user's instructions. Answer with "
    "one JSON object and nothing else: its keys are metadata names, its values JSON values."
)
_FENCE = re.compile(r"^\s*```(?:json)?\s*(.*?)\s*```\s*$", re.DOTALL)


def parse_metadata_answer(content: str) -> dict[str, Any] | None:
    """The metadata object in a model's answer, or ``None`` when it is not a valid one."""
    fenced = _FENCE.match(content)
    try:
        value = json.loads(fenced.group(1) if fenced else content)
    except ValueError:
        return None
    if not isinstance(value, dict) or len(value) > MAX_KEYS:
        return None
    if any(not 1 <= len(key) <= MAX_KEY_CHARS for key in value):
        return None
    if len(json.dumps(value).encode()) > MAX_JSON_BYTES:
        return None
    value.pop("instructions", None)  # never stored, as in a PATCH body
    return value


async def derive_with_model(
    engine: UpstreamEngine,
    *,
    text: str | None,
    filename: str,
    content_type: str,
    instructions: str,
) -> tuple[dict[str, Any], str]:
    """Ask the model for the metadata; return it with the ``status_details`` sentence."""
    shown = (text or "(no text could be extracted from this file)")[:MAX_TEXT_CHARS]
    prompt = (
        f"Instructions: {instructions}\n\nFile name: {filename}\n"
        f"Content type: {content_type}\n\nText of the file:\n{shown}"
    )
    request = ChatCompletionRequest.model_validate(
        {
            "model": engine.name,
            "messages": [
                {"role": "system", "content": SYSTEM_PROMPT},
                {"role": "user", "content": prompt},
            ],
            "response_format": {"type": "json_object"},
            "temperature": 0,
        }
    )
    # asked as any answer is, within the connection's timeout (UpstreamEngine.generate)
    job = Job(request, Retrieval(question=prompt))
    content = "".join([e.text async for e in engine.generate(job) if isinstance(e, ContentDelta)])
    metadata = parse_metadata_answer(content)
    if metadata is None:
        raise UpstreamFailed(
            f"The model '{engine.name}' did not answer the instructions with a JSON object "
            "of metadata; nothing was changed."
        )
    keys = ", ".join(metadata) if 0 < len(metadata) <= 10 else f"{len(metadata)} keys"
    return metadata, f"Model '{engine.name}' derived {keys} by the instructions."
