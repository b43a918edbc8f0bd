"""Which tests never reach the run's engines, so that ``--engine postgres`` need not repeat them.

``--engine postgres`` runs ``tests/service`` again on PostgreSQL and S3. A test reaches those
engines only through a service started by :func:`support.service.start_service` (which hands
each service a database and a bucket prefix of the run) or through :mod:`support.engines`
itself (``database_url``, the PostgreSQL server of the run). A test whose own code and whose
fixtures' code reach neither, directly or through the helpers of ``tests`` they call, runs the
same on both engines: static checks, parsing, the command line on a data dir of its own.

The analysis follows names, not calls: a function of ``tests`` that merely mentions
``start_service`` counts as reaching it, so it errs on the side of running a test twice.
:func:`started_a_service` checks the verdict in every run: a test judged engine-free that
starts a service fails.
"""

from __future__ import annotations

import functools
import inspect
import sys
import types
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest

from . import engines, service

TESTS = Path(__file__).resolve().parent.parent
ENTRY_POINTS: tuple[object, ...] = (service.start_service, engines)
"""What hands a test the run's engines: a service started on them, or the engines themselves."""
PROVIDER = "team_engines"
"""The autouse fixture that starts the engines (tests/conftest.py): in every closure, no use."""


def reaches_engines(item: pytest.Item) -> bool:
    """Whether the test ``item`` or a fixture of its closure may use the run's engines."""
    if item.get_closest_marker("postgres_only") is not None:
        return True
    functions = [getattr(item, "function", None)]
    infos = getattr(item, "_fixtureinfo", None)
    for name in item.fixturenames if infos is not None else ():
        defs = infos.name2fixturedefs.get(name, ())
        if name != PROVIDER:
            functions.extend(d.func for d in defs)
    return reaches(*functions)


def reaches(*functions: object) -> bool:
    """Whether one of ``functions`` of ``tests`` names an entry point, or a function or class
    of ``tests`` that does (the others are not followed: they are the project's or libraries')."""
    return any(_reaches(f, set())[0] for f in functions if _in_tests(f))


_known: dict[int, tuple[object, bool]] = {}
"""What :func:`_reaches` found for each function or class, by id (the object is kept, so
that its id is never reused): the fixtures of ``tests/conftest.py`` are in most closures."""


def _reaches(obj: Any, path: set[int]) -> tuple[bool, bool]:
    """Whether ``obj`` (a function or class of ``tests``) names an entry point, or a function
    or class of ``tests`` that does; and whether the search was cut short by a cycle through
    ``path`` (the objects being searched), when a "no" holds for this search only."""
    if id(obj) in _known:
        return _known[id(obj)][1], False
    if id(obj) in path:
        return False, True
    path.add(id(obj))
    cut = False
    for value in _named(obj):
        if any(value is entry for entry in ENTRY_POINTS):
            found = True
            break
        if _in_tests(value):
            found, cut_here = _reaches(value, path)
            cut = cut or cut_here
            if found:
                break
    else:
        found = False
    path.discard(id(obj))
    if found or not cut:
        _known[id(obj)] = (obj, found)
    return found, cut and not found


def _named(obj: Any) -> Iterator[object]:
    """The objects ``obj`` names: a class's functions, or the values of the global, attribute
    and free names of a function's code in its module, its closure and the modules of
    ``tests`` it imported."""
    if isinstance(obj, type):
        yield from vars(obj).values()
        return
    func = inspect.unwrap(getattr(obj, "__func__", obj))
    code = getattr(func, "__code__", None)
    if code is None:
        return
    names = set(_names(code))
    scopes = [getattr(func, "__globals__", {})]
    scopes += [vars(v) for v in scopes[0].values() if _support_module(v)]
    for name, cell in zip(code.co_freevars, func.__closure__ or (), strict=True):
        try:
            scopes.append({name: cell.cell_contents})
        except ValueError:  # an empty cell: its function was never defined
            continue
    for scope in scopes:
        for name in names & scope.keys():
            yield scope[name]


def _names(code: types.CodeType) -> Iterator[str]:
    """Every global, attribute and free name ``code`` and the functions nested in it use."""
    yield from code.co_names
    yield from code.co_freevars
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from _names(const)


def _in_tests(value: object) -> bool:
    """Whether ``value`` is a function or class defined in a file under ``tests``."""
    value = getattr(value, "__func__", value)
    if isinstance(value, type):
        return _under_tests(getattr(sys.modules.get(value.__module__), "__file__", None))
    if not isinstance(value, types.FunctionType):
        return False
    return _under_tests(inspect.unwrap(value).__code__.co_filename)


def _support_module(value: object) -> bool:
    """Whether ``value`` is a module of ``tests`` (its attributes are reached as names)."""
    return isinstance(value, types.ModuleType) and _under_tests(getattr(value, "__file__", None))


@functools.cache
def _under_tests(filename: str | None) -> bool:
    return filename is not None and Path(filename).resolve().is_relative_to(TESTS)


def engine_free(items: Iterable[pytest.Item]) -> list[pytest.Item]:
    """The ``items`` that never reach the run's engines."""
    return [item for item in items if not reaches_engines(item)]


def started_a_service(item: pytest.Item) -> str | None:
    """Why ``item``, judged engine-free, was judged wrong: it started a service."""
    if service.started_in_test:
        return (
            f"{item.nodeid} was judged engine-free (support/engine_free.py) but started a "
            f"service: it must run on both engines; the analysis missed how it reaches "
            f"support.service.start_service"
        )
    return None
