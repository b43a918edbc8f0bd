"""The one tokenizer: its documented rule, and that the service's counts come from it."""

from __future__ import annotations

import doctest

import httpx
import pytest

from chatspace.service import tokenizer
from chatspace.service.tokenizer import count_texts, count_tokens, tokenize, truncate
from support.service import Service


def test_docstring_examples_hold() -> None:
    result = doctest.testmod(tokenizer)
    assert result.attempted >= 3
    assert result.failed == 0


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("", []),
        ("   \n\t ", []),
        ("Hello, world!", ["Hello", ",", "world", "!"]),
        ("internationalization", ["internat", "ionaliza", "tion"]),
        ("a_b 42", ["a_b", "42"]),
        ("naïve café", ["naïve", "café"]),
        ("東京都庁舎の展望室", ["東京都庁舎の展望", "室"]),
        ("<script>", ["<", "script", ">"]),
        ("[1]", ["[", "1", "]"]),
    ],
)
def test_tokens_follow_the_documented_rule(text: str, tokens: list[str]) -> None:
    assert tokenize(text) == tokens
    assert count_tokens(text) == len(tokens)


def test_counts_of_several_texts_add_up() -> None:
    assert count_texts(["one two", "three"]) == 3
    assert count_texts([]) == 0


@pytest.mark.parametrize(
    ("text", "limit", "kept", "cut"),
    [
        ("one two three", 2, "one two", True),
        ("one two three", 3, "one two three", False),
        ("one two three  ", 3, "one two three  ", False),
        ("one, two", 1, "one", True),
        ("one, two", 2, "one,", True),
        ("", 1, "", False),
    ],
)
def test_truncate_cuts_after_the_last_kept_token(
    text: str, limit: int, kept: str, cut: bool
) -> None:
    assert truncate(text, limit) == (kept, cut)
    assert count_tokens(truncate(text, limit)[0]) == min(limit, count_tokens(text))


def test_the_service_counts_usage_with_it(service: Service, org: str) -> None:
    question = "How many tokens does internationalization take, roughly?"
    body = {"messages": [{"role": "system", "content": "Be brief."}, {"content": question}]}
    answer = httpx.post(
        f"{service.url}/chat/completions", json=body, headers=service.headers(org=org)
    ).json()
    content = answer["choices"][0]["message"]["content"]
    prompt = count_tokens("Be brief.") + count_tokens(question)
    assert answer["usage"] == {
        "prompt_tokens": prompt,
        "completion_tokens": count_tokens(content),
        "total_tokens": prompt + count_tokens(content),
    }
