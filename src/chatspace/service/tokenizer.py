"""The one tokenizer of the service: every token count the service reports comes from here.

A token is either

* a run of 1 to 8 Unicode word characters (letters, digits, ``_``); a longer run is cut
  into pieces of 8 from its start, so ``internationalization`` is ``internat``,
  ``ionaliza``, ``tion`` (3 tokens), or
* one character that is neither a word character nor whitespace (``.``, ``"``, ``[``, ...).

Whitespace is never a token. The rule is deterministic, needs no vocabulary file, and
lands near the counts of the BPE tokenizers of hosted models for English prose, which is
all a count is used for here: ``usage`` of the local engine, ``perception_usage`` of
retrieved passages, and ``max_tokens`` truncation.

>>> tokenize("Hello, world!")
['Hello', ',', 'world', '!']
>>> count_tokens("internationalization")
3
>>> truncate("one two three", 2)
('one two', True)
"""

from __future__ import annotations

from collections.abc import Iterable

from chatspace._wire import TOKEN_PATTERN  # the rule is stated once, there

__all__ = ["TOKEN_PATTERN", "count_texts", "count_tokens", "tokenize", "truncate"]


def tokenize(text: str) -> list[str]:
    """The tokens of ``text``, in order."""
    return TOKEN_PATTERN.findall(text)


def count_tokens(text: str) -> int:
    """How many tokens ``text`` holds."""
    return sum(1 for _ in TOKEN_PATTERN.finditer(text))


def count_texts(texts: Iterable[str]) -> int:
    """The tokens of several texts, counted one by one (tokens never span two texts)."""
    return sum(count_tokens(t) for t in texts)


def truncate(text: str, max_tokens: int) -> tuple[str, bool]:
    """``text`` cut just after its ``max_tokens``-th token, and whether anything was cut.

    Text after the last kept token (trailing whitespace included) is dropped only when
    another token follows, so a text of exactly ``max_tokens`` tokens comes back whole.
    """
    end = 0
    for i, match in enumerate(TOKEN_PATTERN.finditer(text)):
        if i == max_tokens:
            return text[:end], True
        end = match.end()
    return text, False
