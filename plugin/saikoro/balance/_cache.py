"""Balance figures where an author waits, computed once and cached by content.

``saikoro validate`` (and so pre-commit), ``mkdocs build`` and ``mkdocs serve`` ask one
:class:`BalanceStore` for a scenario's figures (:func:`author_figures`), which keeps them
in memory and on disk, one JSON file per key in the book's cache folder
(``.cache/plugin/saikoro/balance`` next to ``mkdocs.yml``, the plugin's
``balance.cache_dir``), so that validate, a build and serve compute a fight once between
them, and a later run computes only what changed.

The key is a digest of everything the figures depend on: the encounter (party, enemies,
targets, round limit, rulings, ``balance:`` targets; the scenario's id and title left
out, since no simulator reads them), the tactics, the battles, the seed and the bounds of
work, a digest of the simulator's code (:mod:`saikoro.balance`,
:mod:`saikoro.systems`, :mod:`saikoro.dice`) and, for a system an installed package adds,
a digest of that package's code (its simulator, rules and definitions) and its
distribution's version. Editing a scenario's title or text re-simulates nothing;
editing an enemy re-simulates that scenario only; two files with the same fight are
simulated once; a development checkout never reads figures an older simulator wrote.
A package built on balance keeps its own results in the same store under keys made the
same way (:func:`cache_key`, :meth:`BalanceStore.recall`): :mod:`saikoro.tune` keeps
``saikoro tune``'s suggestions by the file's bytes.

A cache file holds its key and a SHA-256 of its payload: a file that is truncated,
garbled or not ours is reported (:attr:`BalanceStore.report`), computed again and
overwritten. A cache folder that cannot be written raises :class:`CacheError`.

The store is safe to use from several threads (``mkdocs serve`` fills it from a
background thread).
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import importlib
import json
import sys
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction
from pathlib import Path
from typing import TypeVar

from saikoro.dice import SaikoroError
from saikoro.scenario import Scenario, balance_seconds_env, replace_file
from saikoro.systems import BUILTIN, ENTRY_POINT_GROUP, system_class

from ._budget import AUTHOR_SECONDS, AUTHOR_STEPS
from ._model import Encounter, encounter
from ._runner import simulate
from ._stats import BalanceResult
from ._tactics import Tactics, tactics_for

__all__ = [
    "FORMAT",
    "MEMORY_SIZE",
    "SEED",
    "BalanceStore",
    "CacheError",
    "CorruptCacheError",
    "author_figures",
    "cache_key",
    "code_digest",
    "decode",
    "encode",
    "fight_key",
    "scenario_tactics",
]

SEED = 0
"""The seed every figure on an author's path is simulated from."""

FORMAT = 3
"""The cache files' format (part of the key: a new format never reads an old file)."""

MEMORY_SIZE = 4096
"""Results kept in memory (least recently used forgotten; the disk cache keeps the rest)."""

_PACKAGES = ("balance", "systems", "dice")
"""The packages whose code decides a simulated figure (their digest is part of the key)."""


class CacheError(SaikoroError):
    """The cache folder cannot be read or written (the message says which file and why)."""


class CorruptCacheError(SaikoroError, ValueError):
    """A cache file that is not a complete file written by this version."""


# -- what an author's path computes ---------------------------------------------------------


def scenario_tactics(enc: Encounter) -> Tactics:
    """The tactics the scenario's ``balance:`` names (each system's default otherwise)."""
    spec = enc.balance
    return tactics_for(
        enc.system, spec.tactics if spec else None, spec.enemy_tactics if spec else None
    )


def author_seconds() -> float:
    """How long one scenario's battles may take where an author waits:
    :data:`~saikoro.balance.AUTHOR_SECONDS`, or the environment's ``SAIKORO_BALANCE_SECONDS``
    (:func:`saikoro.scenario.balance_seconds_env`)."""
    seconds = balance_seconds_env()
    return AUTHOR_SECONDS if seconds is None else seconds


def author_figures(enc: Encounter, battles: int, *, seconds: float | None = None) -> BalanceResult:
    """``enc``'s figures as validate and the site compute them: ``battles`` battles from
    :data:`SEED` with the scenario's tactics, cut after ``seconds`` (default
    :func:`author_seconds`), and the exact solution within
    :data:`~saikoro.balance.AUTHOR_STEPS`."""
    return simulate(
        enc,
        battles=battles,
        seed=SEED,
        tactics=scenario_tactics(enc),
        steps=AUTHOR_STEPS,
        seconds=author_seconds() if seconds is None else seconds,
    )


# -- the key --------------------------------------------------------------------------------


def _digest_files(root: Path, paths: list[Path]) -> str:
    digest = hashlib.sha256()
    for path in sorted(paths):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
            digest.update(path.relative_to(root).as_posix().encode("utf-8") + b"\0")
            digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


@functools.cache
def code_digest() -> str:
    """SHA-256 of the simulator's installed code and data (read once per process)."""
    root = Path(__file__).resolve().parents[1]  # the saikoro package
    return _digest_files(root, [p for package in _PACKAGES for p in (root / package).rglob("*")])


@functools.cache
def _folder_digest(folder: Path) -> str:
    """SHA-256 of the code and data in ``folder`` (read once per process)."""
    return _digest_files(folder, list(folder.rglob("*")))


@functools.cache
def system_version(system_id: str) -> str:
    """The version of the distribution that registers ``system_id`` (``""`` for a system
    saikoro ships: :func:`code_digest` covers it; ``unknown`` when its entry point names none)."""
    if system_id in BUILTIN:
        return ""
    import importlib.metadata  # only for a plugin: ~20 ms of a warm validate

    for point in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        if point.name == system_id and point.dist is not None:
            return f"{point.dist.name} {point.dist.version}"
    return "unknown"


@functools.cache
def system_digest(system_id: str) -> str:
    """SHA-256 of the code of the package that adds ``system_id``: the whole top-level
    package its class is defined in, engine and parts (its simulator among them), each of
    its folders (several for a namespace package); ``""`` for a system saikoro ships
    (:func:`code_digest` covers it)."""
    if system_id in BUILTIN:
        return ""
    top = sys.modules[system_class(system_id).__module__.partition(".")[0]]
    folders = getattr(top, "__path__", None)
    if folders is None:  # a module alone
        path = Path(str(top.__file__)).resolve()
        return _digest_files(path.parent, [path])
    return "".join(_folder_digest(Path(f).resolve()) for f in folders)


def _text(data: object) -> str:
    """JSON data written one way: keys sorted, no spaces."""
    return json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def _hash(data: object) -> str:
    return hashlib.sha256(_text(data).encode("utf-8")).hexdigest()


def cache_key(system: str, parts: Mapping[str, object], *, code: Path | None = None) -> str:
    """A cache key of a result computed from a scenario of ``system``: a SHA-256 of
    ``parts`` (JSON data) with the files' format, the digest of the
    simulator's code and of the package that adds ``system`` and its version (see the
    module); ``code``: the folder of a package built on balance whose code decides the
    result too (:func:`saikoro.tune.tune_key`)."""
    data: dict[str, object] = {
        "format": FORMAT,
        "code": code_digest(),
        "system_code": system_digest(system),
        "system_version": system_version(system),
        **parts,
    }
    if code is not None:
        data["package_code"] = _folder_digest(code)
    return _hash(data)


def fight_key(enc: Encounter, tactics: Tactics, battles: int, seed: int) -> str:
    """The cache key of simulating ``enc`` where an author waits (:func:`author_figures`):
    a SHA-256 of the whole input (see the module)."""
    fight = dataclasses.replace(enc, scenario="", title="")
    return cache_key(
        enc.system,
        {
            "encounter": encode(fight, key=True),
            "tactics": encode(tactics, key=True),
            "battles": battles,
            "seed": seed,
            "steps": AUTHOR_STEPS,
            "seconds": author_seconds(),
        },
    )


# -- results as JSON ------------------------------------------------------------------------


def encode(value: object, *, key: bool = False) -> object:
    """A :class:`BalanceResult` (or any part of one, or another dataclass of saikoro's: a
    :class:`saikoro.tune.TuneResult`) as JSON data, every type tagged.

    With ``key``: an input as a cache key sees it, the same in every process and equal for
    equal values (sets sorted, enums by name, any dataclass). The fields left out of a
    dataclass's equality (a model object's ``where``: file and line) are not part of the
    value, so a fight moved to another file or line keeps its key.
    """
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, Fraction):
        return {"$": "fraction", "v": str(value)}
    if key and isinstance(value, Enum):
        return {"$": "enum", "v": f"{type(value).__qualname__}.{value.name}"}
    if isinstance(value, (tuple, list)):
        tag = "tuple" if isinstance(value, tuple) else "list"
        return {"$": tag, "v": [encode(v, key=key) for v in value]}
    if key and isinstance(value, (set, frozenset)):
        return {"$": "set", "v": sorted((encode(v, key=key) for v in value), key=_text)}
    if isinstance(value, dict) or (key and isinstance(value, Mapping)):
        pairs = [[encode(k, key=key), encode(v, key=key)] for k, v in value.items()]
        return {"$": "dict", "v": pairs}
    cls = type(value)
    if dataclasses.is_dataclass(cls) and (key or cls.__module__.startswith(_OURS)):  # an instance
        fields = {
            f.name: encode(getattr(value, f.name), key=key)
            for f in dataclasses.fields(cls)
            if (f.compare if key else f.init)
        }
        return {"$": "object", "c": f"{cls.__module__}:{cls.__qualname__}", "v": fields}
    raise TypeError(f"cannot cache a {cls.__name__} in a balance result: {value!r}")


_OURS = "saikoro."
"""The modules whose dataclasses a cache file may name (saikoro's own)."""


def _class(name: object) -> type:
    """A dataclass of saikoro's named ``module:qualname`` (nothing else)."""
    if not isinstance(name, str) or ":" not in name:
        raise CorruptCacheError(f"bad class name {name!r}")
    module, _, qualname = name.partition(":")
    if not module.startswith(_OURS) or "." in qualname:
        raise CorruptCacheError(f"not a saikoro class: {name!r}")
    try:
        cls = getattr(importlib.import_module(module), qualname)
    except (ImportError, AttributeError) as e:
        raise CorruptCacheError(f"no class {name!r}") from e
    if not (isinstance(cls, type) and dataclasses.is_dataclass(cls)):
        raise CorruptCacheError(f"not a saikoro class: {name!r}")
    return cls


def decode(data: object) -> object:
    """The inverse of :func:`encode`; :class:`CorruptCacheError` on anything it did not write."""
    if data is None or isinstance(data, (bool, int, float, str)):
        return data
    if not isinstance(data, dict) or "$" not in data or "v" not in data:
        raise CorruptCacheError(f"untagged value {data!r:.60}")
    tag, value = data["$"], data["v"]
    if tag == "fraction" and isinstance(value, str):
        try:
            return Fraction(value)
        except (ValueError, ZeroDivisionError) as e:
            raise CorruptCacheError(f"bad fraction {value!r}") from e
    if tag in ("tuple", "list") and isinstance(value, list):
        items = [decode(v) for v in value]
        return tuple(items) if tag == "tuple" else items
    if tag == "dict" and isinstance(value, list):
        if not all(isinstance(kv, list) and len(kv) == 2 for kv in value):
            raise CorruptCacheError("bad mapping")
        return {decode(k): decode(v) for k, v in value}
    if tag == "object" and isinstance(value, dict):
        cls = _class(data.get("c"))
        names = {f.name for f in dataclasses.fields(cls) if f.init}
        if set(value) != names:
            raise CorruptCacheError(f"{cls.__name__} fields {sorted(value)} != {sorted(names)}")
        return cls(**{k: decode(v) for k, v in value.items()})
    raise CorruptCacheError(f"unknown tag {tag!r}")


# -- the store ------------------------------------------------------------------------------

V = TypeVar("V")


@dataclass
class BalanceStore:
    """Figures (and what a package above keeps here: tuning's suggestions) by key, in
    memory and (``cache_dir`` set) on disk.

    Attributes:
        cache_dir: the folder of cache files (``None``: memory only).
        report: told, in words, of a cache file that was unreadable and is replaced.
        tolerant: a cache folder that cannot be read or written is reported and left
            alone (memory only from then on) instead of raising :class:`CacheError`
            (``saikoro validate``: a read-only cache never fails a check).
        simulated: how many results were computed (not served from a cache) so far.
        memory_hits / disk_hits: results served from memory / read from a cache file.
        rewritten: cache files that were unreadable, computed again and overwritten.
    """

    cache_dir: Path | None = None
    report: Callable[[str], None] | None = None
    tolerant: bool = False
    simulated: int = 0
    memory_hits: int = 0
    disk_hits: int = 0
    rewritten: int = 0
    _memory: OrderedDict[str, object] = field(default_factory=OrderedDict, repr=False)
    _lock: threading.RLock = field(default_factory=threading.RLock, repr=False)

    def reset_counts(self) -> None:
        """Zero the counters (at the start of each build; the caches stay)."""
        with self._lock:
            self.simulated = self.memory_hits = self.disk_hits = self.rewritten = 0

    # -- figures

    def figures(self, scenario: Scenario, battles: int | None = None) -> BalanceResult:
        """The scenario's figures: ``battles`` battles (default: its own
        ``balance.battles``, 400 when not given, as ``saikoro validate`` checks them)."""
        enc = encounter(scenario)
        if battles is None:
            battles = enc.balance.battles if enc.balance else 400
        return self.figures_of(enc, battles)

    def key(self, enc: Encounter, battles: int) -> str:
        """The cache key of :meth:`figures_of` ``(enc, battles)``."""
        return fight_key(enc, scenario_tactics(enc), battles, SEED)

    def figures_of(self, enc: Encounter, battles: int) -> BalanceResult:
        """:func:`author_figures` of ``enc``, from a cache when the fight is unchanged."""
        key = self.key(enc, battles)
        found = self.recall(key, BalanceResult)
        if found is None:
            with self._lock:
                self.simulated += 1
            found = author_figures(enc, battles)
            self.keep(key, found)
        return dataclasses.replace(found, scenario=enc.scenario)

    # -- memory and disk

    def keep(self, key: str, value: object) -> None:
        """Keep ``value`` (figures, or another dataclass of saikoro's: what a package built
        on balance keeps beside them) under ``key`` (a :func:`cache_key`), in memory and on
        disk."""
        with self._lock:
            self._remember(key, value)
        self._write(key, value)

    def recall(self, key: str, kind: type[V]) -> V | None:
        """The ``kind`` kept under ``key`` (:class:`BalanceResult`: the figures) if memory or
        the disk holds it (counted as a hit)."""
        with self._lock:
            found = self._memory.get(key)
            if isinstance(found, kind):
                self._memory.move_to_end(key)
                self.memory_hits += 1
                return found
        read = self._read(key, kind)
        if read is None:
            return None
        with self._lock:
            self.disk_hits += 1
            self._remember(key, read)
        return read

    def _remember(self, key: str, value: object) -> None:
        self._memory[key] = value
        self._memory.move_to_end(key)
        while len(self._memory) > MEMORY_SIZE:
            self._memory.popitem(last=False)

    def _path(self, key: str) -> Path | None:
        return None if self.cache_dir is None else self.cache_dir / f"{key}.json"

    def _read(self, key: str, kind: type[V]) -> V | None:
        path = self._path(key)
        if path is None or not path.exists():
            return None
        try:
            raw = path.read_bytes()
        except OSError as e:
            self._fail(f"cannot read the balance cache file {path}: {e}", e)
            return None
        try:
            result = self._parse(raw, key, kind)
        except CorruptCacheError as e:
            with self._lock:
                self.rewritten += 1
            if self.report is not None:
                self.report(f"balance cache: {path} is unreadable ({e}); computing it again")
            return None
        return result

    @staticmethod
    def _parse(raw: bytes, key: str, kind: type[V]) -> V:
        try:
            data = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as e:
            raise CorruptCacheError(f"not JSON: {e}") from e
        if not isinstance(data, dict) or set(data) != {"key", "sha256", "result"}:
            raise CorruptCacheError("not a saikoro balance cache file")
        if data["key"] != key:
            raise CorruptCacheError("written for another key")
        if _hash(data["result"]) != data["sha256"]:
            raise CorruptCacheError("checksum mismatch")
        result = decode(data["result"])
        if not isinstance(result, kind):
            raise CorruptCacheError(f"not a {kind.__name__}")
        return result

    def _write(self, key: str, result: object) -> None:
        path = self._path(key)
        if path is None:
            return
        payload = encode(result)
        data = {"key": key, "sha256": _hash(payload), "result": payload}
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            # atomic: a parallel build never reads half a file
            replace_file(path, json.dumps(data, ensure_ascii=False).encode("utf-8"), sync=False)
        except OSError as e:
            self._fail(f"cannot write the balance cache {path}: {e}", e)

    def _fail(self, message: str, error: OSError) -> None:
        """A cache folder that cannot be used: :class:`CacheError`, or (``tolerant``) a
        report and no disk cache from now on."""
        if not self.tolerant:
            raise CacheError(message) from error
        self.cache_dir = None
        if self.report is not None:
            self.report(f"{message}; the balance figures are not kept on disk")
