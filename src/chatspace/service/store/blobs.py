# PLACEHOLDER owned by the service-platform helper: replace entirely.
from pathlib import Path


class BlobStore:
    def __init__(self, root: Path) -> None:
        self.root = root
