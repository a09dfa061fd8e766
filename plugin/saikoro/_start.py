"""Where the ``saikoro`` command starts: a Ctrl-C at any moment is an answer, not a traceback.

The console script (``[project.scripts]``) and ``python -m saikoro`` call :func:`main`
first. ``import saikoro`` imports nothing of the engine (its names are loaded on first
use) and this module only :mod:`sys`, so the command takes Ctrl-C as its own from its first
millisecond: everything else (the engine, YAML, the scenario model, the command's work) is
imported and run under the guard below, and a Ctrl-C at any point exits with
:data:`EXIT_INTERRUPTED` and the one line :func:`interrupted` prints, as it does in the
middle of a command. Once the command has finished, a Ctrl-C changes nothing: the exit
status is the command's.

Before this module runs there is only Python's own start (the interpreter and its
``site`` module, a few milliseconds): a Ctrl-C there ends the process as Python ends it.
"""

from __future__ import annotations

import sys

__all__ = ["EXIT_INTERRUPTED", "interrupted", "main"]

EXIT_INTERRUPTED = 130
"""The status after Ctrl-C: 128 + SIGINT, what a shell reports for a command it stopped."""


def interrupted() -> int:
    """Say on stderr that Ctrl-C stopped the command; :data:`EXIT_INTERRUPTED`.

    Whatever ran stopped where it was (files are only ever replaced whole, so none is
    half-written) and no partial figure is reported as the result; what the command had
    already printed is flushed first.
    """
    for stream, text in ((sys.stdout, ""), (sys.stderr, "\nsaikoro: Ctrl-C で中断しました\n")):
        try:
            stream.write(text)
            stream.flush()
        except (OSError, ValueError):  # a closed pipe or stream: nothing more to say there
            pass
    return EXIT_INTERRUPTED


def _ignore_ctrl_c() -> None:
    """From here on a Ctrl-C changes nothing (the command has finished, or is saying it
    was stopped): the process ends with the status it has. Imports nothing (a Ctrl-C may
    have cut an import short): :func:`main` imported :mod:`signal` first."""
    signal = sys.modules.get("signal")
    if signal is not None:
        signal.signal(signal.SIGINT, signal.SIG_IGN)


def _ctrl_c_again(unraisable: sys.UnraisableHookArgs) -> None:
    """:data:`sys.unraisablehook`: a Ctrl-C that came while Python ran code whose errors it
    can only report (a weak reference's callback, a finaliser: Python would print
    "Exception ignored ... KeyboardInterrupt" and go on) comes again a moment later, from
    a thread, to stop the command where it then stands (once it has finished, nothing
    happens: see :func:`_ignore_ctrl_c`). Anything else is reported as Python reports it."""
    if unraisable.exc_type is not None and issubclass(unraisable.exc_type, KeyboardInterrupt):
        import _thread
        import threading

        again = threading.Timer(0.01, _thread.interrupt_main)
        again.daemon = True
        again.start()
        return
    sys.__unraisablehook__(unraisable)


def main() -> int:
    """Run the ``saikoro`` command (:func:`saikoro._cli.main`) with Ctrl-C guarded from the
    start; returns the exit status. Only for the program's own process: it ignores Ctrl-C
    once the command is done, and a Ctrl-C that lands in a callback comes again (call
    :func:`saikoro._cli.main` to run a command in process)."""
    sys.unraisablehook = _ctrl_c_again
    try:
        import signal  # noqa: F401 - for _ignore_ctrl_c, which must not import

        from ._cli import main as run  # the command's imports, a tenth of a second

        status = run()
        _ignore_ctrl_c()
    except KeyboardInterrupt:
        _ignore_ctrl_c()
        return interrupted()
    return status
