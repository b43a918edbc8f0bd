"""Named conversations, shared by the magics and the chat panel.

Earlier turns are sent again with each question, within one budget in tokens (counted by
the reference tokenizer's rule). When the turns no longer fit the oldest are left out,
and the answer says how many, so that nothing is dropped silently. Stored completions
carry the tags of :meth:`Thread.tags` (``thread``, ``turn``, ``conversation``,
``notebook``) whichever surface asked, which is what :meth:`ThreadBook.resume` reads to
rebuild a thread after a kernel restart.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from chatspace._wire import TOKEN_PATTERN
from chatspace.errors import ChatspaceError

from .display import Citation, evidence_of
from .grammar import InputError
from .table_rows import labelled_citations

if TYPE_CHECKING:
    from chatspace.client import Client
    from chatspace.types import ChatCompletion

    from .display import ChatResult

__all__ = [
    "DEFAULT_THREAD",
    "Thread",
    "ThreadBook",
    "Turn",
    "estimate_tokens",
    "stored_question",
    "stored_threads",
]

DEFAULT_THREAD = "main"
RESUME_LIMIT = 500
"""At most this many stored turns are read back into a resumed thread (the newest)."""
STORED_SCAN = 1000
"""Stored threads are counted among the newest this many completions."""

# The reference service's tokenizer rule: close enough to hosted models' counts for a
# budget, and it needs no vocabulary.


def estimate_tokens(text: str) -> int:
    """Roughly how many tokens ``text`` costs when sent."""
    return sum(1 for _ in TOKEN_PATTERN.finditer(text))


@dataclass
class Turn:
    """One question and its answer, as they are sent again in later requests."""

    question: str
    answer: str
    completion_id: str | None = None
    tokens: int = 0
    citations: list[Citation] = field(default_factory=list)
    shown: str | None = None
    """The answer as the notebook shows it (:func:`~.display.evidence`); ``answer`` is
    what the model wrote, and what later requests send again."""

    def __post_init__(self) -> None:
        if not self.tokens:
            self.tokens = estimate_tokens(self.question) + estimate_tokens(self.answer)

    @property
    def shown_answer(self) -> str:
        return self.answer if self.shown is None else self.shown

    def messages(self) -> list[dict[str, str]]:
        return [
            {"role": "user", "content": self.question},
            {"role": "assistant", "content": self.answer},
        ]


def new_conversation() -> str:
    """An id for a thread started afresh: hex milliseconds, so that later ones sort later."""
    return f"{time.time_ns() // 1_000_000:012x}"


@dataclass
class Thread:
    """A conversation: its turns, and the system prompt its calls keep using.

    ``conversation`` tells a thread's turns from those of the same name before a
    ``--new`` or ``reset``; it is stored with each turn, for :meth:`ThreadBook.resume`.
    """

    name: str
    turns: list[Turn] = field(default_factory=list)
    system: str | None = None
    conversation: str = field(default_factory=new_conversation)

    def history(self, budget: int) -> tuple[list[dict[str, str]], int, int]:
        """The messages of the newest turns that fit ``budget`` tokens.

        Returns the messages, how many turns they hold, and how many older ones were left out.
        """
        kept: list[Turn] = []
        used = 0
        for turn in reversed(self.turns):
            if used + turn.tokens > budget:
                break
            kept.append(turn)
            used += turn.tokens
        messages = [m for turn in reversed(kept) for m in turn.messages()]
        return messages, len(kept), len(self.turns) - len(kept)

    @property
    def tokens(self) -> int:
        return sum(t.tokens for t in self.turns)

    def tags(self, turn: int, notebook: str | None) -> dict[str, str]:
        """The metadata a stored turn carries, the same from a magic and from a panel."""
        tags = {"thread": self.name, "turn": str(turn), "conversation": self.conversation}
        if notebook:
            tags["notebook"] = notebook
        return tags

    def add(self, question: str, result: ChatResult) -> Turn:
        """Keep a finished turn; the answer costs the service's count when it sent one."""
        answer_tokens = result.usage.completion_tokens if result.usage else 0
        tokens = estimate_tokens(question) + (answer_tokens or estimate_tokens(result.text))
        turn = Turn(question, result.text, result.id, tokens, list(result.citations), result.shown)
        self.turns.append(turn)
        return turn


class ThreadBook:
    """The threads of this kernel and the one that ``%%chat`` continues by default."""

    def __init__(self) -> None:
        self.threads: dict[str, Thread] = {}
        self.current = DEFAULT_THREAD

    def get(self, name: str | None = None) -> Thread:
        """The thread ``name`` (default: the current one), created when new."""
        name = name or self.current
        if name not in self.threads:
            self.threads[name] = Thread(name)
        return self.threads[name]

    def new_name(self, prefix: str) -> str:
        """A thread name not used yet in this kernel: ``panel-1``, ``panel-2``, ..."""
        number = 1
        while f"{prefix}-{number}" in self.threads:
            number += 1
        return f"{prefix}-{number}"

    def select(self, name: str) -> Thread:
        """Make ``name`` the thread that calls without ``--thread`` continue."""
        self.current = name
        return self.get(name)

    def reset(self, name: str | None = None) -> Thread:
        """Forget the turns (and system prompt) of one thread; it stays current if it was."""
        thread = Thread(name or self.current)
        self.threads[thread.name] = thread
        return thread

    def clear(self) -> None:
        """Forget every thread; the current one becomes ``main`` again."""
        self.threads.clear()
        self.current = DEFAULT_THREAD

    def resume(
        self,
        client: Client,
        name: str,
        *,
        workspace: str,
        notebook: str | None,
        select: bool = True,
    ) -> Thread:
        """Rebuild thread ``name`` from the completions stored for it (current if ``select``).

        The latest conversation of that name is taken (the one after the last ``--new``),
        its turns in order. A name with nothing stored is an error that lists the threads
        there are, and changes nothing (a typo must not start a new current thread).
        """
        metadata = {"thread": name}
        if notebook:
            metadata["notebook"] = notebook
        page = client.chat.list(workspace=workspace, metadata=metadata, order="desc", limit=100)
        stored: list[Any] = []
        for completion in page:
            stored.append(completion)
            if len(stored) >= RESUME_LIMIT:
                break
        if not stored:
            raise InputError(self._unknown(client, name, workspace=workspace, notebook=notebook))
        thread = Thread(name)
        latest = max(_tag(c, "conversation") for c in stored)
        kept = sorted(
            (c for c in stored if _tag(c, "conversation") == latest),
            key=lambda c: (_turn_number(c), c.created),
        )
        thread.conversation = latest or thread.conversation
        for completion in kept:
            question = stored_question(client, completion, workspace)
            tokens = estimate_tokens(question) + completion.usage.completion_tokens
            shown, cited = evidence_of(completion)
            cited = labelled_citations(client, cited, workspace)
            turn = Turn(question, completion.text, completion.id, tokens or 1, cited, shown)
            thread.turns.append(turn)
        self.threads[name] = thread
        if select:
            self.current = name
        return thread

    def _unknown(self, client: Client, name: str, *, workspace: str, notebook: str | None) -> str:
        """Why ``name`` cannot be resumed, and the threads that can be (one line)."""
        stored = stored_threads(client, workspace=workspace, notebook=notebook)
        told = ", ".join(f"{n} ({c} turn{'s' if c > 1 else ''})" for n, c in sorted(stored.items()))
        local = sorted(n for n, t in self.threads.items() if t.turns and n not in stored)
        where = f" for {notebook}" if notebook else ""
        return (
            f"no stored thread {name!r} in workspace {workspace!r}{where}; "
            f"stored: {told or 'none'}"
            + (f"; in this kernel only: {', '.join(local)}" if local else "")
        )


def stored_threads(client: Client, *, workspace: str, notebook: str | None) -> Counter[str]:
    """The stored turns of each thread (of ``notebook`` when known), among the newest
    :data:`STORED_SCAN` completions."""
    page = client.chat.list(
        workspace=workspace,
        metadata={"notebook": notebook} if notebook else None,
        order="desc",
        limit=100,
    )
    counts: Counter[str] = Counter()
    for seen, completion in enumerate(page, start=1):
        thread = _tag(completion, "thread")
        if thread:
            counts[thread] += 1
        if seen >= STORED_SCAN:
            break
    return counts


def _tag(completion: Any, key: str) -> str:
    return str((completion.metadata or {}).get(key) or "")


def _turn_number(completion: Any) -> int:
    try:
        return int(_tag(completion, "turn"))
    except ValueError:
        return 0


def stored_question(client: Client, completion: ChatCompletion, workspace: str) -> str:
    """The question of a stored completion: its ``question`` (chatspace's service sends it),
    else :func:`~chatspace.types.question_of` its messages (one request, other services)."""
    from chatspace.types import question_of

    if completion.question is not None:
        return completion.question
    try:
        page = client.chat.messages(completion.id, workspace=workspace, order="desc", limit=5)
    except ChatspaceError:
        return ""
    return question_of(page.data[::-1]) or ""
