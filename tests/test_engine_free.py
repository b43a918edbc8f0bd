"""The judgement that lets ``--engine postgres`` leave a test out (support/engine_free.py):
what reaches a service or the run's engines, however indirectly, is never judged free."""

from __future__ import annotations

from pathlib import Path

from support import engine_free, engines
from support.documents import docx_bytes
from support.service import running_service, start_service


def _serves(tmp_path: Path) -> None:
    start_service(tmp_path)


def _serves_through_a_helper(tmp_path: Path) -> None:
    _serves(tmp_path)


class _Team:
    def start(self, tmp_path: Path) -> None:
        with running_service(tmp_path):
            pass


def _uses_a_team(tmp_path: Path) -> None:
    _Team().start(tmp_path)


def _asks_for_a_database() -> object:
    return engines.current


def _in_a_closure(tmp_path: Path) -> None:
    def inner() -> None:
        _serves(tmp_path)

    inner()


def _parses_a_document() -> bytes:
    return docx_bytes("Title", ["plain words"], [])


def test_what_starts_a_service_or_reads_the_engines_reaches_them() -> None:
    for function in (_serves, _serves_through_a_helper, _uses_a_team, _asks_for_a_database):
        assert engine_free.reaches(function), function.__name__
    assert engine_free.reaches(_in_a_closure)


def test_what_only_reads_files_of_its_own_is_free() -> None:
    assert not engine_free.reaches(_parses_a_document)
    assert not engine_free.reaches(len, Path.read_text)
