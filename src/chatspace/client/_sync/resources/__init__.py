# Generated from _async/resources/__init__.py by scripts/unasync_client.py; do not edit.
"""The resources of the API: ``chat``, ``files``, ``models`` and ``workspaces``."""

from .chat import Chat
from .files import Files
from .models import Models
from .workspaces import Workspaces

__all__ = ["Chat", "Files", "Models", "Workspaces"]
