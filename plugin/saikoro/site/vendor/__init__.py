"""The pinned browser runtimes bundled inside the saikoro package: MicroPython and Mermaid.

An author's site serves these files itself, so a reader's browser never calls another
host and a build needs no npm, no Node and no network. They are not kept in git: the
source checkout copies them from the pinned npm packages (``package.json`` /
``package-lock.json``) with ``make setup`` (editable installs) and ``make dist``
(wheel and sdist), by running this module::

    python -m saikoro.site.vendor node_modules licenses

Only the files a site serves are copied (see :data:`BUNDLES`), each bundle with its
licence, plus ``manifest.json`` recording the versions and sizes. An installed package
finds them next to this file (:func:`bundle_dir`) or fails with :class:`VendorError`
naming the fix: nothing is searched for in the working directory or in ``node_modules``.

>>> sorted(BUNDLES), BUNDLES["micropython"].version
(['mermaid', 'micropython'], '1.27.0')
>>> BUNDLES["mermaid"].files
('mermaid.min.js',)
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from saikoro.dice import SaikoroError

__all__ = [
    "BUNDLES",
    "LICENSE_NAME",
    "MERMAID_VERSION",
    "MICROPYTHON_VERSION",
    "Bundle",
    "VendorError",
    "bundle_dir",
    "bundle_file",
    "copy_bundles",
    "main",
]

MICROPYTHON_VERSION = "1.27.0"
"""The pinned MicroPython WebAssembly port (npm ``@micropython/micropython-webassembly-pyscript``)
that runs the roller's engine in the browser."""

MERMAID_VERSION = "11.17.2"
"""The pinned Mermaid (npm ``mermaid``)."""

LICENSE_NAME = "LICENSE"
"""The licence file's name inside each bundle folder (and next to it in the site)."""

_MANIFEST = "manifest.json"


@dataclass(frozen=True)
class Bundle:
    """One runtime: which npm package, which of its files, where its licence comes from.

    Attributes:
        name: the bundle folder's name.
        version: the pinned version (checked against the npm package's ``package.json``).
        folder: where the files are inside the npm package.
        files: the files the site serves (nothing else is bundled).
        license: the licence inside the npm package, or ``None`` when the package ships
            none and the checkout's ``licenses/<name>.LICENSE`` is used.
        package: the npm package (``name`` when empty).
    """

    name: str
    version: str
    folder: str
    files: tuple[str, ...]
    license: str | None
    package: str = ""

    @property
    def npm(self) -> str:
        """The npm package's name."""
        return self.package or self.name


BUNDLES = {
    "micropython": Bundle(
        "micropython",
        MICROPYTHON_VERSION,
        ".",
        # What the roller's worker loads: micropython.mjs (imported by worker.js), which
        # instantiates micropython.wasm. About 220 kB gzip, a tenth of Pyodide's.
        ("micropython.mjs", "micropython.wasm"),
        None,  # the npm package has no licence file: MicroPython's MIT text is in licenses/
        "@micropython/micropython-webassembly-pyscript",
    ),
    "mermaid": Bundle("mermaid", MERMAID_VERSION, "dist", ("mermaid.min.js",), "LICENSE"),
}
"""The bundled runtimes by name."""


class VendorError(SaikoroError, RuntimeError):
    """A bundled runtime is missing or not the pinned version (the message says the fix)."""


def _root() -> Path:
    return Path(str(resources.files(__name__)))


def _fix() -> str:
    return (
        "the saikoro package is incomplete: reinstall it (`pip install --force-reinstall "
        "saikoro`); in a source checkout of saikoro run `make setup`, which copies the pinned "
        "files from node_modules into plugin/saikoro/site/vendor/"
    )


def bundle_dir(name: str) -> Path:
    """The installed folder of bundle ``name``, checked against the manifest.

    Raises:
        VendorError: the manifest or a file is missing, a file's size differs from the
            manifest's, or the bundle is not the pinned version.
    """
    bundle = BUNDLES[name]
    root = _root()
    manifest_path = root / _MANIFEST
    label = f"{bundle.name} {bundle.version}"
    if not manifest_path.is_file():
        raise VendorError(f"saikoro's bundled {label} is missing from {root}: {_fix()}")
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    entry = manifest.get(name) or {}
    if entry.get("version") != bundle.version:
        raise VendorError(
            f"{root} holds {name} {entry.get('version')!r} but this saikoro is pinned to "
            f"{bundle.version}: {_fix()}"
        )
    folder = root / name
    sizes: dict[str, int] = entry.get("files", {})
    for file in (*bundle.files, LICENSE_NAME):
        path = folder / file
        if not path.is_file() or path.stat().st_size != sizes.get(file):
            raise VendorError(f"saikoro's bundled {label} lacks a complete {path}: {_fix()}")
    return folder


def bundle_file(name: str, file: str) -> Path:
    """One file of bundle ``name`` (see :func:`bundle_dir`)."""
    return bundle_dir(name) / file


def _npm_version(package: Path) -> str | None:
    meta = package / "package.json"
    if not meta.is_file():
        return None
    version = json.loads(meta.read_text(encoding="utf-8")).get("version")
    return str(version) if version is not None else None


def copy_bundles(node_modules: Path, licenses: Path, target: Path | None = None) -> list[Path]:
    """Copy every bundle's files from ``node_modules`` into ``target`` (default: here).

    Args:
        node_modules: the folder ``npm ci`` filled from the pinned ``package-lock.json``.
        licenses: the checkout's ``licenses/`` folder (licences npm packages lack).
        target: the vendor folder to fill (this package's folder by default).

    Returns:
        The files written, in order.

    Raises:
        VendorError: a package is missing or not the pinned version, or a file is missing.
    """
    target = target or _root()
    written: list[Path] = []
    manifest: dict[str, object] = {}
    for bundle in BUNDLES.values():
        package = node_modules / bundle.npm
        version = _npm_version(package)
        if version != bundle.version:
            raise VendorError(
                f"{package} holds {bundle.npm} {version!r}, saikoro pins {bundle.version}: "
                "run `npm ci` (package-lock.json pins it)"
            )
        sources = {file: package / bundle.folder / file for file in bundle.files}
        sources[LICENSE_NAME] = (
            package / bundle.license if bundle.license else licenses / f"{bundle.name}.LICENSE"
        )
        folder = target / bundle.name
        if folder.exists():
            shutil.rmtree(folder)
        folder.mkdir(parents=True)
        sizes: dict[str, int] = {}
        for file, source in sources.items():
            if not source.is_file():
                raise VendorError(f"{source} is missing (needed for the bundled {bundle.name})")
            shutil.copyfile(source, folder / file)
            sizes[file] = source.stat().st_size
            written.append(folder / file)
        manifest[bundle.name] = {"version": bundle.version, "files": sizes}
    manifest_path = target / _MANIFEST
    manifest_path.write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n", "utf-8")
    written.append(manifest_path)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m saikoro.site.vendor NODE_MODULES LICENSES [--target DIR]``."""
    parser = argparse.ArgumentParser(
        prog="python -m saikoro.site.vendor",
        description="Copy the pinned MicroPython and Mermaid files into saikoro's package.",
    )
    parser.add_argument("node_modules", type=Path, help="the node_modules folder `npm ci` made")
    parser.add_argument("licenses", type=Path, help="the checkout's licenses/ folder")
    parser.add_argument("--target", type=Path, help="vendor folder to fill (default: here)")
    args = parser.parse_args(argv)
    try:
        written = copy_bundles(args.node_modules, args.licenses, args.target)
    except VendorError as error:
        print(f"saikoro: {error}", file=sys.stderr)
        return 1
    total = sum(path.stat().st_size for path in written)
    print(f"saikoro: bundled {len(written)} files ({total / 1e6:.1f} MB) into {written[-1].parent}")
    return 0
