"""Safe ``{name}`` interpolation: known names only, every other brace as typed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pandas as pd
import pytest

from chatspace.notebook.interpolate import interpolate, render_value


@dataclass
class Point:
    x: int
    _secret: str = "hidden"

    @property
    def explode(self) -> int:
        raise RuntimeError("boom")


NS: dict[str, Any] = {
    "n": 3,
    "name": "Lyon",
    "items": ["a", "b", "c"],
    "table": {"q": 1, "key with space": 2},
    "p": Point(7),
    "nested": {"rows": [{"v": "deep"}]},
}


@pytest.mark.parametrize(
    ("template", "expected"),
    [
        ("{n} items in {name}", "3 items in Lyon"),
        ("{items[0]}{items[-1]}", "ac"),
        ("{table['q']} {table[\"key with space\"]}", "1 2"),
        ("{p.x}", "7"),
        ("{table[q]} {items[1]}", "1 b"),
        ("{nested['rows'][0]['v']}", "deep"),
        ("{unknown} and {n}", "{unknown} and 3"),
        (
            "{items[9]} {table['nope']} {p.nope} {n.nope}",
            "{items[9]} {table['nope']} {p.nope} {n.nope}",
        ),
        ("{p._secret} {p.__class__} {n.__class__}", "{p._secret} {p.__class__} {n.__class__}"),
        ("{p.explode}", "{p.explode}"),
        ("{{n}} stays, {{name}}", "{{n}} stays, {{name}}"),
        ('{"a": 1, "n": {n}}', '{"a": 1, "n": 3}'),
        ('{"a": {"n": {n}}}', '{"a": {"n": 3}}'),
        ("{{n} {n}}", "{3 3}"),
        ("def f(): return {k: v for k, v in d}", "def f(): return {k: v for k, v in d}"),
        ("\\frac{a}{b} \\sqrt{x}", "\\frac{a}{b} \\sqrt{x}"),
        ("{n:>4} {n!r} {n + 1} {1+1} { n }", "{n:>4} {n!r} {n + 1} {1+1} { n }"),
        ("{", "{"),
        ("}{n}{", "}3{"),
        ("", ""),
    ],
)
def test_only_known_placeholders_change(template: str, expected: str) -> None:
    assert interpolate(template, NS).text == expected


def test_names_used_are_reported_once_in_order() -> None:
    assert interpolate("{name} {n} {name} {missing}", NS).names == ["name", "n"]


def test_substituted_text_is_never_scanned_again() -> None:
    ns = {"a": "{b}", "b": "no"}
    assert interpolate("{a}", ns).text == "{b}"


def test_a_broken_str_does_not_break_the_prompt() -> None:
    class Broken:
        def __str__(self) -> str:
            raise ValueError("nope")

    assert interpolate("{x}", {"x": Broken()}).text == "<Broken: str() failed: ValueError>"


def test_long_values_are_cut_with_a_note() -> None:
    text = interpolate("{s}", {"s": "y" * 500}, max_chars=100).text
    assert text == "y" * 100 + "… [400 more characters left out]"


def test_huge_containers_are_not_rendered_whole() -> None:
    text = render_value(list(range(1_000_000)))
    assert len(text) < 2_000
    assert text.endswith("...]")


def test_dataframe_is_schema_and_head_not_str() -> None:
    frame = pd.DataFrame({"city": [f"c{i}" for i in range(25)], "revenue": range(25)})
    text = render_value(frame)
    assert text.startswith("DataFrame with 25 rows and 2 columns: city (")
    assert "revenue (int64)" in text
    assert "```csv\ncity,revenue\nc0,0\n" in text
    assert "c9,9\n```" in text
    assert "c10" not in text
    assert text.endswith("… 15 more rows")


def test_wide_dataframe_and_meaningful_index() -> None:
    wide = pd.DataFrame([list(range(40))], columns=[f"k{i}" for i in range(40)])
    assert "… 10 more columns" in render_value(wide)
    grouped = pd.DataFrame({"city": ["a", "a", "b"], "v": [1, 2, 3]}).groupby("city").sum()
    assert "city,v\na,3\nb,3" in render_value(grouped)
    series = pd.Series([1, 2], name="v")
    assert render_value(series).startswith("DataFrame with 2 rows and 1 columns: v (int64)")
