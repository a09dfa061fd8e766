"""The bundled MicroPython and Mermaid (``saikoro.site.vendor``): copied from the pinned npm
packages, found only inside the package, and a clear fix when missing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from saikoro.site import RollerAssetError, vendor
from saikoro.site._roller import find_runtime_dir
from saikoro.site.vendor import BUNDLES, LICENSE_NAME, VendorError, bundle_dir, copy_bundles

REPO = Path(__file__).resolve().parents[1]
NODE_MODULES = REPO / "node_modules"
LICENSES = REPO / "licenses"


def test_pins_match_package_json() -> None:
    pins = json.loads((REPO / "package.json").read_text(encoding="utf-8"))["dependencies"]
    assert {bundle.npm: bundle.version for bundle in BUNDLES.values()} == pins
    lock = json.loads((REPO / "package-lock.json").read_text(encoding="utf-8"))["packages"]
    for bundle in BUNDLES.values():
        assert lock[f"node_modules/{bundle.npm}"]["version"] == bundle.version


def test_copy_then_find(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    written = copy_bundles(NODE_MODULES, LICENSES, tmp_path)
    assert {p.relative_to(tmp_path).as_posix() for p in written} == {
        "manifest.json",
        *(f"{b.name}/{f}" for b in BUNDLES.values() for f in (*b.files, LICENSE_NAME)),
    }
    assert (
        (tmp_path / "micropython" / LICENSE_NAME)
        .read_text("utf-8")
        .startswith("The MIT License (MIT)")
    )
    assert "MIT" in (tmp_path / "mermaid" / LICENSE_NAME).read_text("utf-8")
    monkeypatch.setattr(vendor, "_root", lambda: tmp_path)
    assert bundle_dir("micropython") == tmp_path / "micropython"
    assert find_runtime_dir() == tmp_path / "micropython"
    # a truncated file is noticed (the manifest records sizes)
    wasm = tmp_path / "micropython" / "micropython.wasm"
    wasm.write_bytes(wasm.read_bytes()[:100])
    with pytest.raises(VendorError, match=r"lacks a complete .*micropython\.wasm"):
        bundle_dir("micropython")


def test_missing_bundle_names_the_fix(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(vendor, "_root", lambda: tmp_path)
    with pytest.raises(VendorError, match=r"reinstall it .*make setup"):
        bundle_dir("mermaid")
    with pytest.raises(RollerAssetError, match=r"reinstall .*make setup"):
        find_runtime_dir()
    (tmp_path / "manifest.json").write_text('{"micropython": {"version": "0.1"}}', "utf-8")
    with pytest.raises(VendorError, match=r"'0\.1' but this saikoro is pinned to 1\.27\.0"):
        bundle_dir("micropython")


def test_flowcharts_without_the_bundle_fail_the_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from types import SimpleNamespace

    from mkdocs.exceptions import PluginError

    from saikoro.site._assets import Assets

    monkeypatch.setattr(vendor, "_root", lambda: tmp_path)
    roller = SimpleNamespace(enabled=False)
    assets = Assets()
    assets.configure(
        SimpleNamespace(mermaid_url=None, mermaid_dir=None, roller=roller),  # type: ignore[arg-type]
        tmp_path,
    )
    assert assets.mermaid_file is None
    assets.post_build(SimpleNamespace(site_dir=str(tmp_path)))  # type: ignore[arg-type]
    assets.note_page('<pre class="mermaid"><code>flowchart TD</code></pre>')
    with pytest.raises(PluginError, match=r"flowcharts but .*reinstall .*mermaid_url"):
        assets.post_build(SimpleNamespace(site_dir=str(tmp_path)))  # type: ignore[arg-type]


def test_wrong_npm_version_is_refused(tmp_path: Path) -> None:
    fake = tmp_path / "node_modules"
    package = fake / "@micropython" / "micropython-webassembly-pyscript"
    package.mkdir(parents=True)
    (package / "package.json").write_text('{"version": "1.20.0"}', "utf-8")
    with pytest.raises(VendorError, match=r"pyscript '1\.20\.0', saikoro pins 1\.27\.0.*npm ci"):
        copy_bundles(fake, LICENSES, tmp_path / "out")
    assert vendor.main([str(fake), str(LICENSES), "--target", str(tmp_path / "out")]) == 1


def test_explicit_mermaid_dir(tmp_path: Path) -> None:
    from types import SimpleNamespace

    from saikoro.site._assets import Assets

    (tmp_path / "js").mkdir()
    (tmp_path / "js" / "mermaid.min.js").write_text("/* mermaid */", "utf-8")
    assets = Assets()
    assets.configure(
        SimpleNamespace(mermaid_url=None, mermaid_dir="js", roller=SimpleNamespace(enabled=False)),  # type: ignore[arg-type]
        tmp_path,
    )
    assert assets.mermaid_file == (tmp_path / "js" / "mermaid.min.js").resolve()
