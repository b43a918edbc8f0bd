"""Knowing when a model's answer has become a loop, so that it can be cut.

A small local model answering greedily falls into loops: SmolLM2 on llama.cpp, asked to
summarise a contract at temperature 0, lists a dozen terms and then writes
"16. On-timed delivery guarantee of EUR 8% of quarterly fee", then 9%, 10%, ... until its
context is full: minutes of a busy server, a whole answer lost to the timeout (a 504) or a
screen of noise. An answer is a loop once its last :data:`LOOP_SEGMENTS` complete
segments (lines, and sentences within a line) are one block of at most :data:`MAX_PERIOD`
segments said again and again, numbers aside, and that block says at least
:data:`MIN_WORDS` words. The numbers are set aside because loops count (the list above);
the words are required because a table's rows differ only by their numbers; twenty
segments leave room for what answers rightly repeat a shape (twelve months, four
quarters by four figures).
"""

from __future__ import annotations

import re

__all__ = ["LOOP_SEGMENTS", "MAX_PERIOD", "MIN_WORDS", "looping"]

LOOP_SEGMENTS = 20
MAX_PERIOD = 4
MIN_WORDS = 3
_TAIL = 8_000
"""Characters of the answer's end looked at: twenty segments of 400 characters."""
_SEGMENT_END = re.compile(r"\n+|(?<=[.!?])\s+")
_LIST_MARK = re.compile(r"^[ \t]*(?:[-*+•]|\d+[.)])[ \t]+", re.MULTILINE)
_NUMBER = re.compile(r"\d+(?:[.,:/-]\d+)*")
_WORD = re.compile(r"[^\W\d_]{2,}")
ENDS_SEGMENT = re.compile(r"[\n.!?]")
"""A piece of an answer that may have completed a segment: the only ones worth a look."""


def _segments(text: str) -> list[str]:
    """The complete segments of ``text``'s end, blanks collapsed, list marks and numbers
    set aside: the first may be cut by the tail and the last may be unfinished, both go."""
    parts = _SEGMENT_END.split(_LIST_MARK.sub("", text[-_TAIL:]))
    complete = parts[1:-1] if len(text) > _TAIL else parts[:-1]
    found = (_NUMBER.sub("#", part).casefold() for part in complete)
    return [" ".join(s.split()) for s in found if s.strip()]


def looping(text: str) -> bool:
    """Whether ``text`` ends in a loop (module docstring)."""
    segments = _segments(text)
    for period in range(1, MAX_PERIOD + 1):
        block = segments[-period:]
        if len(block) < period or len(_WORD.findall(" ".join(block))) < MIN_WORDS:
            continue
        repeats = 1
        while segments[-(repeats + 1) * period : -repeats * period] == block:
            repeats += 1
        if repeats * period >= LOOP_SEGMENTS:
            return True
    return False
