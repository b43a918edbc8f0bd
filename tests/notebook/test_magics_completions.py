"""``%completions`` through a real IPython shell against the real reference service."""

from __future__ import annotations

from typing import Any

from chatspace.client import Client
from chatspace.notebook.session import NotebookSession
from support.magics import run


def test_search_finds_past_questions_and_answers_by_their_words(
    ip: Any, nb_session: NotebookSession, client: Client
) -> None:
    client.files.upload(b"The Q3 churn in Lyon was 5 percent.", filename="n.txt")
    lyon = run(ip, "%%chat\nWhat was the churn in Lyon?").value
    run(ip, "%%chat\nWhat is the capital of Italy?")
    found = run(ip, "%completions search churn LYON").value
    assert found["id"].tolist() == [lyon.id]
    assert list(found.columns) == list(run(ip, "%completions").value.columns)
    by_answer = run(ip, "%completions search 5 percent").value
    assert lyon.id in by_answer["id"].tolist()
    nothing = run(ip, "%completions search zebra").value
    assert nothing.empty
    assert {"id", "created", "question", "answer"} <= set(nothing.columns)
