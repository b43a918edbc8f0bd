"""When a model's answer has become a loop (:mod:`chatspace.service.engines.repetition`):
what the service cuts, and the repeated shapes of right answers it must leave whole."""

from __future__ import annotations

import pytest

from chatspace.service.engines.repetition import LOOP_SEGMENTS, looping

NAMES = [
    f"{first} {last}"
    for first in ("Ada", "Alan", "Grace")
    for last in ("Smith", "Jones", "Brown", "Clark", "Lewis", "Young", "King", "Hill")
]


def first_loop(text: str) -> int | None:
    """The number of lines after which ``text``, written line by line, is a loop."""
    lines = text.splitlines(keepends=True)
    return next((k for k in range(1, len(lines) + 1) if looping("".join(lines[:k]))), None)


def test_a_numbered_line_said_again_with_other_numbers_is_a_loop() -> None:
    """SmolLM2's loop on "Summarise the Acme contract." (its words, its numbers)."""
    head = "The Acme contract includes:\n\n1. Annual fee of EUR 184,000\n"
    loop = "".join(
        f"{n}. On-timed delivery guarantee of EUR {p}% of quarterly fee\n"
        for n, p in zip(range(2, 60), range(8, 200, 3), strict=False)
    )
    assert first_loop(head + loop) == 3 + LOOP_SEGMENTS


@pytest.mark.parametrize(
    "text",
    [
        "The fee is EUR 184,000. " * 30,
        "Northwind pays a credit.\nAcme may then terminate.\n" * 15,
        "- Item: the report\n  - Status: late\n  - Credit: 5%\n" * 10,
    ],
    ids=["one sentence", "two lines", "a block of three"],
)
def test_a_sentence_or_a_block_said_again_and_again_is_a_loop(text: str) -> None:
    assert looping(text)
    assert not looping(text[: len(text) // 3]), "not before it has been said twenty times"


@pytest.mark.parametrize(
    "text",
    [
        "\n".join(f"{m}. The revenue in month {m} was EUR {m * 1000:,}." for m in range(1, 13)),
        "| day | units |\n|---|---|\n"
        + "\n".join(f"| 2024-01-{d:02d} | {d * 3} |" for d in range(1, 32)),
        "".join(
            f"Q{q}:\n- Revenue: EUR {q * 7}00\n- Units: {q}0\n- Returns: {q}%\n"
            for q in range(1, 5)
        ),
        "\n".join(f"- {name} holds {n} rows." for n, name in enumerate(NAMES)),
    ],
    ids=["twelve months", "a table of a month's days", "four quarters", "twenty-four names"],
)
def test_answers_that_repeat_a_shape_rightly_are_no_loop(text: str) -> None:
    assert first_loop(text + "\nThat is all.\n") is None
