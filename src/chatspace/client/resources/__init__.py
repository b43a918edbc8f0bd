"""The API's resources, written once for :class:`Client` and :class:`AsyncClient`."""

from .chat import Chat
from .files import Files
from .models import Models
from .workspaces import Workspaces

__all__ = ["Chat", "Files", "Models", "Workspaces"]
