"""The resources of the API: ``chat``, ``files``, ``models`` and ``workspaces``."""

from .chat import AsyncChat
from .files import AsyncFiles
from .models import AsyncModels
from .workspaces import AsyncWorkspaces

__all__ = ["AsyncChat", "AsyncFiles", "AsyncModels", "AsyncWorkspaces"]
