"""Named conversations: earlier turns are sent again with each question, within a token budget.

A thread is multi-turn by default (``%%chat`` continues the notebook's current thread).
When the turns no longer fit the budget the oldest are left out, and the answer's footer
says how many, so that nothing is dropped silently. Stored completions carry the metadata
``notebook``, ``thread`` and ``turn``, which is what :meth:`ThreadBook.resume` reads to
rebuild a thread after a kernel restart.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from chatspace.client import Client

__all__ = ["DEFAULT_THREAD", "Thread", "ThreadBook", "Turn", "estimate_tokens"]

DEFAULT_THREAD = "main"
RESUME_LIMIT = 500
"""At most this many stored turns are read back into a resumed thread (the newest)."""

# The reference service's tokenizer rule (service/engines/tokenizer.py): close enough to
# hosted models' counts for a budget, and it needs no vocabulary.
_TOKEN = re.compile(r"\w{1,8}|[^\w\s]")


def estimate_tokens(text: str) -> int:
    """Roughly how many tokens ``text`` costs when sent."""
    return sum(1 for _ in _TOKEN.finditer(text))


@dataclass
class Turn:
    """One question and its answer, as they are sent again in later requests."""

    question: str
    answer: str
    completion_id: str | None = None
    tokens: int = 0

    def __post_init__(self) -> None:
        if not self.tokens:
            self.tokens = estimate_tokens(self.question) + estimate_tokens(self.answer)

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

    def resume(self, client: Client, name: str, *, workspace: str, notebook: str | None) -> Thread:
        """Rebuild thread ``name`` from the completions stored for it, and make it current.

        The latest conversation of that name is taken (the one after the last ``--new``),
        its turns in order.
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
        thread = Thread(name)
        if stored:
            latest = max(_tag(c, "conversation") for c in stored)
            kept = sorted(
                (c for c in stored if _tag(c, "conversation") == latest),
                key=lambda c: (_turn_number(c), c.created),
            )
            thread.conversation = latest or thread.conversation
            for completion in kept:
                question = _last_question(client, completion.id, workspace)
                tokens = estimate_tokens(question) + completion.usage.completion_tokens
                thread.turns.append(Turn(question, completion.text, completion.id, tokens or 1))
        self.threads[name] = thread
        self.current = name
        return thread


def _tag(completion: Any, key: str) -> str:
    return str((completion.metadata or {}).get(key) or "")


def _turn_number(completion: Any) -> int:
    try:
        return int(_tag(completion, "turn"))
    except ValueError:
        return 0


def _last_question(client: Client, completion_id: str, workspace: str) -> str:
    """The last user message sent with a stored completion (its messages end with the answer)."""
    page = client.chat.messages(completion_id, workspace=workspace, order="desc", limit=5)
    for message in page.data:
        if message.role == "user":
            return message.content or ""
    return ""
