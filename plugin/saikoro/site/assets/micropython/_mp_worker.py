"""The roller worker's Python side on MicroPython: one call per roll, answered as JSON.

The page's messages are checked in ``worker.js`` first (options a flat JSON object, dice a
list of [sides, value] pairs); here they meet the engine. Written for MicroPython (not
lowered); the same text as the CLI comes back, because the engine is the CLI's.
"""

import json

import saikoro
from saikoro.dice import SaikoroError
from saikoro.systems import OptionError, UnknownSystemError

_systems = {}


DEEP = (
    "コマンドの入れ子が深すぎて、ブラウザでは振れません"
    "（括弧や項を減らすか、コマンドラインの saikoro roll で振ってください）"
)
"""MicroPython's stack holds about 20 levels of parentheses (CPython's engine 3000)."""


class _Refused(Exception):
    """A request the engine cannot take, said in the reader's words."""


def _configured(system, options):
    if not system:
        return None
    key = (system, options)
    found = _systems.get(key)
    if found is None:
        chosen = json.loads(options) if options else {}
        if type(chosen) is not dict:
            raise _Refused("ルールオプションは JSON のオブジェクトで指定してください")
        try:
            found = saikoro.get_system(system, **chosen)
        except UnknownSystemError as error:
            raise _Refused("システム「" + system + "」はありません（" + error.ja + "）")
        except OptionError as error:
            raise _Refused("このシステムでは使えないルールオプションです（" + error.ja + "）")
        if len(_systems) >= 64:
            _systems.clear()
        _systems[key] = found
    return found


def _answer(result):
    return {
        "ok": True,
        "text": result.text,
        "command": result.command,
        "success": bool(result.success),
        "failure": bool(result.failure),
        "critical": bool(result.critical),
        "fumble": bool(result.fumble),
        "secret": bool(result.secret),
        "dice": [list(die) for die in result.dice],
    }


def roll(command, system, options="", dice=""):
    """One roll as the JSON text the page reads (``dice``: JSON pairs to replay, or "")."""
    try:
        given = [(int(s), int(v)) for s, v in json.loads(dice)] if dice else None
        result = saikoro.roll(command, system=_configured(system, options), dice=given)
    except (SaikoroError, ValueError, _Refused) as error:
        if getattr(error, "bound", None) == "nesting":
            return json.dumps({"ok": False, "message": DEEP})
        return json.dumps({"ok": False, "message": str(error)})
    except RuntimeError as error:
        if "recursion" not in str(error):
            raise
        return json.dumps({"ok": False, "message": DEEP})
    # Anything else is a bug of the engine: it reaches worker.js, which shows it as 内部エラー.
    if result is None:
        return json.dumps({"ok": False, "message": "コマンドとして認識できません"})
    return json.dumps(_answer(result))


def warm(step):
    """Import one more part of the engine ("generic" or a system id)."""
    try:
        if step == "generic":
            saikoro.roll("1D6")
        else:
            saikoro.systems.get(step)
    except (SaikoroError, UnknownSystemError):  # a system this page names but no bundle has:
        pass  # its roll will say so; any other error is a bug and reaches worker.js
