"""One transfer in a process of its own, so that its peak memory can be read (``wait4``).

    python -m benchmarks._transfer_worker upload URL TOKEN PATH
    python -m benchmarks._transfer_worker download URL TOKEN FILE_ID PATH

Prints ``{"seconds": ..., "file_id": ...}`` with the time of the transfer alone.
"""

from __future__ import annotations

import json
import sys
import time

from chatspace import Client


def main(argv: list[str]) -> None:
    action, url, token, *rest = argv
    with Client(base_url=url, token=token, max_retries=0) as client:
        start = time.perf_counter()
        if action == "upload":
            uploaded = client.files.upload(rest[0], progress=False)
            file_id = uploaded.id
        else:
            file_id, path = rest
            client.files.download(file_id, path, progress=False)
        seconds = time.perf_counter() - start
    print(json.dumps({"seconds": seconds, "file_id": file_id}))


if __name__ == "__main__":
    main(sys.argv[1:])
