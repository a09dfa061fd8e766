"""The scenario book's own parts (issue 29): handouts, scenes, NPCs, images, credits.

Each mistake an author makes in them is reported at its line and column, in Japanese,
with the fix (a did-you-mean among the names that exist); images are files in the book,
checked when the scenario is a file on disk.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import pytest

from saikoro.scenario import image_info, load_scenario, validate_text
from saikoro.scenario.model import Branch

BASE = """\
system: cutaction
title: 試し
difficulty_targets:
  - {name: 鍵を開ける, check: head, target: 2}
  - {name: 逃げ切る, check: body, target: 4, kind: chase, runners: [car]}
enemies:
  - {id: boss, name: 幹部, body: 6, head: 7, hp: 14}
  - {id: car, name: 追跡車, body: 5, head: 5, hp: 8, vehicle: ワゴン}
chase_tables:
  - name: ルート表
    die: 1D6
    entries: {1-6: {title: 直線}}
npcs:
  - {id: mashiba, name: 真柴, text: 税関職員, secret: 味方}
handouts:
  - {id: pc1, pc: PC1, title: 刑事, text: 公開, secret: 秘匿}
scenes:
  - {id: start, phase: 導入, title: 港, npcs: [mashiba], checks: [鍵を開ける]}
  - {id: fight, phase: middle, title: 倉庫, enemies: [boss],
     next: [road, {scene: lost, condition: 全滅}]}
  - {id: road, phase: クライマックス, title: 追跡, chases: [逃げ切る], tables: [ルート表]}
  - {id: win, phase: ending, title: 検問所}
  - {id: lost, phase: エンディング, title: 奪われた帳簿}
"""


def problems(text: str, name: str = "s.yaml") -> list[str]:
    return [p.format("ja") for p in validate_text(text, name).problems]


def test_the_base_is_valid_and_reads_as_a_model() -> None:
    result = validate_text(BASE, "s.yaml")
    assert result.problems == [] and result.scenario is not None
    model = result.scenario.model
    assert [s.phase for s in model.scenes] == ["opening", "middle", "climax", "ending", "ending"]
    assert model.scenes[1].next == (Branch(scene="road"), Branch(scene="lost", condition="全滅"))
    # a scene without next leads to the one after it, an ending to none
    assert [b.scene for b in model.next_scenes(model.scenes[0])] == ["fight"]
    assert [b.scene for b in model.next_scenes(model.scenes[2])] == ["win"]
    assert model.next_scenes(model.scenes[3]) == ()
    assert model.handouts[0].secret == "秘匿"  # noqa: S105 - a handout's secret part
    assert model.npcs[0].secret == "味方"  # noqa: S105


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        (
            "enemies: [boss]",
            "enemies: [bos]",
            "s.yaml:19:53: error: scenario.scenes[1].enemies[0]: ID 'bos' のエネミーはいません"
            "(ヒント: 'boss' の間違いではありませんか?)",
        ),
        (
            "npcs: [mashiba]",
            "npcs: [mashba]",
            "s.yaml:18:45: error: scenario.scenes[0].npcs[0]: ID 'mashba' のNPCは npcs にいません"
            "(ヒント: 'mashiba' の間違いではありませんか?)",
        ),
        (
            "checks: [鍵を開ける]",
            "checks: [鍵をあける]",
            "s.yaml:18:64: error: scenario.scenes[0].checks[0]: 名前 '鍵をあける' の判定は "
            "difficulty_targets にありません(ヒント: '鍵を開ける' の間違いではありませんか?)",
        ),
        (
            "tables: [ルート表]",
            "tables: [ルート]",
            "s.yaml:21:68: error: scenario.scenes[2].tables[0]: 名前 'ルート' の表は "
            "chase_tables にありません(ヒント: 'ルート表' の間違いではありませんか?)",
        ),
        (
            "{scene: lost, condition: 全滅}",
            "{scene: lots, condition: 全滅}",
            "s.yaml:20:27: error: scenario.scenes[1].next[1].scene: ID 'lots' のシーンは scenes "
            "にありません(ヒント: 'lost' の間違いではありませんか?)",
        ),
        (
            "chases: [逃げ切る]",
            "chases: [鍵を開ける]",
            "s.yaml:21:52: error: scenario.scenes[2].chases[0]: 判定 '鍵を開ける' はチェイス"
            "(kind: chase)ではありません(ヒント: チェイスでない判定は checks に書いてください)",
        ),
        (
            "phase: middle",
            "phase: midle",
            "s.yaml:19:24: error: scenario.scenes[1].phase: opening | middle | climax | ending "
            "| 導入 | オープニング | ミドル | クライマックス | エンディング "
            "のいずれかが必要ですが、'midle' が指定されています"
            "(ヒント: 'middle' の間違いではありませんか?)",
        ),
        (
            "title: 刑事, text",
            "titel: 刑事, text",
            "s.yaml:16:24: error: scenario.handouts[0].titel: 不明なキー 'titel' です"
            "(ヒント: 'title' の間違いではありませんか?)",
        ),
    ],
)
def test_each_mistake_at_its_place_with_the_fix(old: str, new: str, expected: str) -> None:
    assert old in BASE
    assert problems(BASE.replace(old, new, 1)) == [expected]


def test_every_mistake_of_a_file_at_once() -> None:
    text = BASE.replace("enemies: [boss]", "enemies: [bos]").replace("[mashiba]", "[x]")
    text = text.replace("title: 刑事, text: 公開", "title: 刑事")  # text is required
    found = problems(text)
    assert len(found) == 3, found
    assert any("必須のキー 'text'" in p for p in found)


def test_duplicate_ids_and_ambiguous_check_names() -> None:
    text = BASE.replace("- {id: road,", "- {id: fight,")
    assert any("ID 'fight' が重複しています" in p for p in problems(text))
    twice = BASE.replace(
        "  - {name: 逃げ切る", "  - {name: 鍵を開ける, check: body, target: 1}\n  - {name: 逃げ切る"
    )
    assert any("名前 '鍵を開ける' の判定が 2 個あります" in p for p in problems(twice))


def test_an_unreachable_scene_is_a_warning_at_its_id() -> None:
    text = BASE.replace("next: [road, {scene: lost, condition: 全滅}]", "next: [road]")
    found = problems(text)
    assert found == [
        "s.yaml:23:10: warning: scenario.scenes[4].id: シーン 'lost' には最初のシーン 'start' "
        "から next をたどって着きません(ヒント: 前のシーンの next に lost を加えるか、"
        "不要なら消してください)"
    ]


def test_chases_are_offered_only_where_targets_can_be_chases() -> None:
    text = "system: kegare\ntitle: t\nscenes:\n  - {id: a, phase: opening, title: x, chases: [y]}\n"
    found = problems(text)
    assert len(found) == 1 and "不明なキー 'chases'" in found[0]


def _png(width: int, height: int) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    raw = b"".join(b"\x00" + b"\x00\x00\x00" * width for _ in range(height))
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )


IMAGED = BASE + "images:\n  - {id: map, file: img/map.png, alt: 港の地図}\n"


def _book(tmp_path: Path, text: str) -> Path:
    (tmp_path / "mkdocs.yml").write_text("site_name: t\n", "utf-8")
    folder = tmp_path / "scenarios"
    (folder / "img").mkdir(parents=True)
    (folder / "img" / "map.png").write_bytes(_png(64, 32))
    path = folder / "s.yaml"
    path.write_text(text, "utf-8")
    return path


def test_an_image_in_the_book_is_read(tmp_path: Path) -> None:
    result = load_scenario(_book(tmp_path, IMAGED))
    assert result.problems == []
    assert image_info(_png(64, 32)) == ("png", 64, 32)


@pytest.mark.parametrize(
    ("file", "expected"),
    [
        ("img/mpa.png", "画像ファイル 'img/mpa.png' がありません"),
        ("https://example.org/x.png", "画像 'https://example.org/x.png' は URL です"),
        ("/etc/map.png", "画像のパス '/etc/map.png' は絶対パスです"),
        ("img\\map.png", "パスの区切りは / で書きます(ヒント: img/map.png と書いてください)"),
        ("img/map.bmp", "画像 'img/map.bmp' の拡張子は使えません"),
        ("../../outside.png", "本のフォルダ"),
        ("img/broken.png", "PNG・JPEG・GIF・WebP の画像として読めません"),
    ],
)
def test_image_mistakes_are_errors_at_the_file_line(
    tmp_path: Path, file: str, expected: str
) -> None:
    path = _book(tmp_path, IMAGED.replace("img/map.png", file))
    (path.parent / "img" / "broken.png").write_bytes(b"\x89PNG not really")
    (tmp_path.parent / "outside.png").write_bytes(_png(4, 4))
    found = [p.format("ja") for p in load_scenario(path).problems]
    assert len(found) == 1, found
    assert found[0].startswith(f"{path}:25:21: error: "), found
    assert ".images[0].file:" in found[0] and expected in found[0], found
    if file == "img/mpa.png":
        assert "'img/map.png' の間違いではありませんか" in found[0]


def test_an_image_id_that_names_nothing(tmp_path: Path) -> None:
    text = IMAGED.replace("{id: mashiba, name: 真柴,", "{id: mashiba, image: mpa, name: 真柴,")
    found = [p.format("ja") for p in load_scenario(_book(tmp_path, text)).problems]
    assert len(found) == 1 and "ID 'mpa' の画像は images にありません" in found[0], found
    assert "'map' の間違いではありませんか" in found[0]


def test_text_without_a_file_does_not_look_for_images() -> None:
    assert validate_text(IMAGED, "nowhere.yaml").problems == []


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b"GIF89a\x40\x01\xf0\x00", ("gif", 320, 240)),
        (
            b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00"
            b"\xff\xc0\x00\x11\x08\x01\xe0\x02\x80\x03",
            ("jpeg", 640, 480),
        ),
        (
            b"RIFF\x00\x00\x00\x00WEBPVP8X" + b"\x00" * 8 + b"\x7f\x02\x00\xdf\x01\x00",
            ("webp", 640, 480),
        ),
        (b"\xff\xd8\xff\xe0\x00", None),
        (b"", None),
    ],
)
def test_image_sizes_from_headers(data: bytes, expected: tuple[str, int, int] | None) -> None:
    assert image_info(data) == expected
