"""Ctrl-C (SIGINT) and SIGTERM end a run at once with one line and exit status 130 / 143 — no traceback, no crash.

Python raises ``KeyboardInterrupt`` only in the main thread and only between bytecodes. During translation the
main thread waits on Beam while worker threads sit in native decoding code (CTranslate2, torch): the interrupt
used to surface as three tracebacks from Beam, and the interpreter's shutdown under still-running native
threads ended in a segmentation fault (exit 139). Here the signal is taken by the C-level handler, which writes
its number to a pipe (:func:`signal.set_wakeup_fd`) whatever the threads are doing; a watcher thread reads it,
prints the line and leaves with :func:`os._exit` — no unwinding through Beam, no interpreter shutdown under native
threads. That leaves the run folder exactly as ``kill -9`` would, which is the state every resume is built and
tested for: translated chunks are cached atomically (a rename), outputs are staged and moved into place only at
the end, and the run folder's lock dies with the process.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator

#: Exit status per signal: the shell's 128 + signal number.
EXIT_STATUS = {signal.SIGINT: 128 + signal.SIGINT, signal.SIGTERM: 128 + signal.SIGTERM}


def _ignore(signum: int, frame: object) -> None:
    """The Python-level handler does nothing: the watcher thread acts on the wake-up byte."""


def _watch(read_fd: int, message: Callable[[], str], cleanup: Callable[[], None] | None) -> None:
    while True:
        try:
            data = os.read(read_fd, 1)
        except OSError:
            return
        if not data:  # the block ended: the write end was closed
            return
        signum = data[0]
        if signum not in EXIT_STATUS:  # another signal with a Python handler (not ours to act on)
            continue
        try:
            if cleanup is not None:
                cleanup()
            line = message()
        except Exception as error:  # the line must still come out
            line = f"interrupted ({error})"
        with contextlib.suppress(Exception):
            sys.stdout.flush()
        with contextlib.suppress(Exception):
            tty = sys.stderr.isatty()
            sys.stderr.write(("\r\033[K" if tty else "") + line + "\n")
            sys.stderr.flush()
        os._exit(EXIT_STATUS[signal.Signals(signum)])


@contextlib.contextmanager
def exit_on_interrupt(message: Callable[[], str], cleanup: Callable[[], None] | None = None) -> Iterator[None]:
    """Within the block, SIGINT or SIGTERM runs ``cleanup``, prints ``message()`` as one line on stderr and ends
    the process with :data:`EXIT_STATUS`. Must be entered in the main thread (a no-op elsewhere)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    read_fd, write_fd = os.pipe()
    os.set_blocking(write_fd, False)
    previous_fd = signal.set_wakeup_fd(write_fd, warn_on_full_buffer=False)
    previous = {sig: signal.signal(sig, _ignore) for sig in EXIT_STATUS}
    watcher = threading.Thread(target=_watch, args=(read_fd, message, cleanup), name="paranmt-interrupt",
                               daemon=True)
    watcher.start()
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        signal.set_wakeup_fd(previous_fd)
        os.close(write_fd)  # the watcher reads end-of-file and returns
        watcher.join()
        os.close(read_fd)

