"""The subcommand tables of the magics, built once on first use."""

from __future__ import annotations

from functools import cache

from .commands import CommandGroup

__all__ = ["group"]


@cache
def group(name: str) -> CommandGroup:
    """The :class:`CommandGroup` of ``%files``, ``%completions``, ``%workspace`` or ``%chat``."""
    if name == "files":
        from .cmd_files import COMMANDS

        return CommandGroup("%files", "the files of the workspace", COMMANDS, default="list")
    if name == "completions":
        from .cmd_completions import COMMANDS

        return CommandGroup("%completions", "stored completions", COMMANDS, default="list")
    if name == "workspace":
        from .cmd_workspace import COMMANDS

        return CommandGroup("%workspace", "workspaces and users", COMMANDS, default="use")
    if name == "chat":
        from .cmd_chat import COMMANDS as ASK
        from .cmd_models import COMMANDS as MODELS
        from .cmd_threads import COMMANDS as THREADS

        return CommandGroup(
            "%chat", "threads, models and settings", THREADS + MODELS + ASK, default="threads"
        )
    raise KeyError(name)
