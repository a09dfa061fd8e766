"""Balance figures for the site, computed at build time and cached by content.

The model is mkdocs-material's social and privacy plugins: a result is keyed by a digest
of everything it depends on and kept in memory (the plugin instance survives
``mkdocs serve`` rebuilds) and on disk, one JSON file per key in ``cache_dir``
(``.cache/plugin/saikoro/balance`` by default), so a later ``mkdocs build`` simulates
only the scenarios whose fight changed.

The key is the digest of the simulation's whole input, not of the file's bytes: the
encounter (party, enemies, targets, round limit, rulings, ``balance:`` targets; the
scenario's id and title left out, since no simulator reads them), the tactics, the
number of battles and the seed, saikoro's version and a digest of the simulator's code
(:mod:`saikoro.balance`, :mod:`saikoro.systems`, :mod:`saikoro.dice`), so a development
checkout never reads figures an older simulator wrote. Editing a scenario's title or
text re-simulates nothing; editing an enemy re-simulates that scenario only; two files
with the same fight are simulated once.

A cache file holds its key and a SHA-256 of its payload: a file that is truncated,
garbled or not ours is reported in the log, simulated again and overwritten. Anything
else that goes wrong is a bug and fails the build.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import importlib
import importlib.metadata
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction
from pathlib import Path

from mkdocs.exceptions import PluginError

from saikoro.balance import (
    SEED,
    BalanceResult,
    Encounter,
    Tactics,
    TuneResult,
    encounter,
    scenario_tactics,
    simulate,
    tune,
)
from saikoro.dice import SaikoroError
from saikoro.scenario import Scenario, replace_file

from ._log import log
from ._lru import Lru

__all__ = ["FORMAT", "BalanceStore", "decode", "encode", "fight_key", "tune_key"]

FORMAT = 2
"""The cache files' format (part of the key: a new format never reads an old file)."""

MEMORY_SIZE = 4096
"""Fights kept in memory across ``mkdocs serve`` rebuilds (least recently used forgotten;
the disk cache keeps the rest)."""

_PACKAGES = ("balance", "systems", "dice")
"""The packages whose code decides a simulated figure (their digest is part of the key)."""


class CorruptCacheError(SaikoroError, ValueError):
    """A cache file that is not a complete file written by this version."""


# -- the key -----------------------------------------------------------------------------


@functools.cache
def version() -> str:
    """The installed saikoro's version (``source``: run from a checkout, not installed;
    the :func:`code_digest` still tells one simulator from another)."""
    try:
        return importlib.metadata.version("saikoro")
    except importlib.metadata.PackageNotFoundError:
        return "source"


@functools.cache
def code_digest() -> str:
    """SHA-256 of the simulator's installed code and data (read once per process)."""
    root = Path(__file__).resolve().parents[1]  # the saikoro package
    digest = hashlib.sha256()
    for package in _PACKAGES:
        for path in sorted((root / package).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
                digest.update(path.relative_to(root).as_posix().encode("utf-8") + b"\0")
                digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def _canon(value: object) -> object:
    """``value`` as plain JSON data, the same in every process (sets sorted, order kept),
    equal for equal values."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, Fraction):
        return ["fraction", str(value)]
    if isinstance(value, Enum):
        return ["enum", type(value).__qualname__, value.name]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        # fields left out of equality (a model object's ``where``: file and line) are
        # not part of the value, so a fight moved to another file or line keeps its key
        fields = {
            f.name: _canon(getattr(value, f.name)) for f in dataclasses.fields(value) if f.compare
        }
        return ["object", type(value).__qualname__, fields]
    if isinstance(value, (tuple, list)):
        return ["list", [_canon(v) for v in value]]
    if isinstance(value, (set, frozenset)):
        items = [_canon(v) for v in value]
        return ["set", sorted(items, key=lambda v: json.dumps(v, ensure_ascii=False))]
    if isinstance(value, Mapping):
        return ["map", [[_canon(k), _canon(v)] for k, v in value.items()]]
    raise TypeError(f"cannot key a balance result on a {type(value).__name__}: {value!r}")


def fight_key(enc: Encounter, tactics: Tactics, battles: int, seed: int) -> str:
    """The cache key of simulating ``enc``: a SHA-256 of the whole input (see the module)."""
    fight = dataclasses.replace(enc, scenario="", title="")
    data = {
        "format": FORMAT,
        "saikoro": version(),
        "code": code_digest(),
        "encounter": _canon(fight),
        "tactics": _canon(tactics),
        "battles": battles,
        "seed": seed,
    }
    text = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def tune_key(scenario: Scenario) -> str:
    """The cache key of tuning ``scenario``: its file's bytes and saikoro's code (tuning
    reads and edits the file itself, so every byte of it is part of the input)."""
    data = {
        "format": FORMAT,
        "saikoro": version(),
        "code": code_digest(),
        "tune": scenario.digest,
        "seed": SEED,
    }
    text = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# -- results as JSON ----------------------------------------------------------------------


def encode(value: object) -> object:
    """A :class:`BalanceResult` (or any part of one) as JSON data, every type tagged."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, Fraction):
        return {"$": "fraction", "v": str(value)}
    if isinstance(value, tuple):
        return {"$": "tuple", "v": [encode(v) for v in value]}
    if isinstance(value, list):
        return {"$": "list", "v": [encode(v) for v in value]}
    if isinstance(value, dict):
        return {"$": "dict", "v": [[encode(k), encode(v)] for k, v in value.items()]}
    cls = type(value)
    if dataclasses.is_dataclass(value) and cls.__module__.startswith("saikoro.balance."):
        fields = {
            f.name: encode(getattr(value, f.name)) for f in dataclasses.fields(value) if f.init
        }
        return {"$": "object", "c": f"{cls.__module__}:{cls.__qualname__}", "v": fields}
    raise TypeError(f"cannot cache a {cls.__name__} in a balance result: {value!r}")


def _class(name: object) -> type:
    """A dataclass of :mod:`saikoro.balance` named ``module:qualname`` (nothing else)."""
    if not isinstance(name, str) or ":" not in name:
        raise CorruptCacheError(f"bad class name {name!r}")
    module, _, qualname = name.partition(":")
    if not module.startswith("saikoro.balance.") or "." in qualname:
        raise CorruptCacheError(f"not a balance class: {name!r}")
    try:
        cls = getattr(importlib.import_module(module), qualname)
    except (ImportError, AttributeError) as e:
        raise CorruptCacheError(f"no class {name!r}") from e
    if not (isinstance(cls, type) and dataclasses.is_dataclass(cls)):
        raise CorruptCacheError(f"not a balance class: {name!r}")
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


def _payload_text(payload: object) -> str:
    return json.dumps(payload, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


# -- the store ----------------------------------------------------------------------------


@dataclass
class BalanceStore:
    """Simulated figures by key, in memory and (``cache_dir`` set) on disk.

    Attributes:
        cache_dir: the folder of cache files (``None``: memory only).
        simulated: how many simulations were run (not served from a cache) so far.
        memory_hits / disk_hits: results served from memory / read from a cache file.
        rewritten: cache files that were unreadable, simulated again and overwritten.
    """

    cache_dir: Path | None = None
    simulated: int = 0
    memory_hits: int = 0
    disk_hits: int = 0
    rewritten: int = 0
    _memory: Lru[str, BalanceResult] = field(
        default_factory=lambda: Lru[str, BalanceResult](MEMORY_SIZE), repr=False
    )
    _tuned: Lru[str, TuneResult] = field(
        default_factory=lambda: Lru[str, TuneResult](MEMORY_SIZE), repr=False
    )

    def reset_counts(self) -> None:
        """Zero the counters (at the start of each build; the caches stay)."""
        self.simulated = self.memory_hits = self.disk_hits = self.rewritten = 0

    def figures(self, scenario: Scenario, battles: int) -> BalanceResult:
        """The scenario's balance figures: ``battles`` battles from seed 0 (as ``saikoro
        validate`` plays them, see :func:`saikoro.balance._check.figures`), with the exact
        solution where the simulator has one, from a cache when the fight is unchanged."""
        return self.figures_of(encounter(scenario), battles)

    def figures_of(self, enc: Encounter, battles: int) -> BalanceResult:
        """:meth:`figures` of an encounter already read from its scenario."""
        tactics = scenario_tactics(enc)
        key = fight_key(enc, tactics, battles, SEED)
        found = self._memory.get(key)
        if found is not None:
            self.memory_hits += 1
        else:
            read = self._read(key, BalanceResult)
            found = read if isinstance(read, BalanceResult) else None
            if found is not None:
                self.disk_hits += 1
            else:
                self.simulated += 1
                found = simulate(enc, battles=battles, seed=SEED, tactics=tactics)
                self._write(key, found)
            self._memory[key] = found
        return dataclasses.replace(found, scenario=enc.scenario)

    def tune_of(self, scenario: Scenario) -> TuneResult:
        """What to change in ``scenario`` to bring it into its ``balance.win`` range
        (:func:`saikoro.balance.tune`, seed 0), from a cache when the file is unchanged."""
        key = tune_key(scenario)
        found = self._tuned.get(key)
        if found is not None:
            self.memory_hits += 1
            return found
        read = self._read(key, TuneResult)
        if isinstance(read, TuneResult):
            self.disk_hits += 1
            found = read
        else:
            self.simulated += 1
            found = tune(scenario, seed=SEED)
            self._write(key, found)
        self._tuned[key] = found
        return found

    def _path(self, key: str) -> Path | None:
        return None if self.cache_dir is None else self.cache_dir / f"{key}.json"

    def _read(
        self, key: str, kind: type[BalanceResult] | type[TuneResult]
    ) -> BalanceResult | TuneResult | None:
        path = self._path(key)
        if path is None or not path.exists():
            return None
        try:
            raw = path.read_bytes()
        except OSError as e:
            raise PluginError(f"saikoro: cannot read the balance cache file {path}: {e}") from e
        try:
            result = self._parse(raw, key, kind)
        except CorruptCacheError as e:
            self.rewritten += 1
            log.info(f"balance cache: {path} is unreadable ({e}); simulating again")
            return None
        return result

    @staticmethod
    def _parse(
        raw: bytes, key: str, kind: type[BalanceResult] | type[TuneResult]
    ) -> BalanceResult | TuneResult:
        try:
            data = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as e:
            raise CorruptCacheError(f"not JSON: {e}") from e
        if not isinstance(data, dict) or set(data) != {"key", "sha256", "result"}:
            raise CorruptCacheError("not a saikoro balance cache file")
        if data["key"] != key:
            raise CorruptCacheError("written for another key")
        text = _payload_text(data["result"])
        if hashlib.sha256(text.encode("utf-8")).hexdigest() != data["sha256"]:
            raise CorruptCacheError("checksum mismatch")
        result = decode(data["result"])
        if not isinstance(result, kind):
            raise CorruptCacheError(f"not a {kind.__name__}")
        return result

    def _write(self, key: str, result: BalanceResult | TuneResult) -> None:
        path = self._path(key)
        if path is None:
            return
        payload = encode(result)
        text = _payload_text(payload)
        data = {
            "key": key,
            "sha256": hashlib.sha256(text.encode("utf-8")).hexdigest(),
            "result": payload,
        }
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            # atomic: a parallel build never reads half a file
            replace_file(path, json.dumps(data, ensure_ascii=False).encode("utf-8"), sync=False)
        except OSError as e:
            raise PluginError(
                f"saikoro: cannot write the balance cache {path}: {e} "
                "(set balance.cache_dir to a writable folder, or balance.cache: false)"
            ) from e
