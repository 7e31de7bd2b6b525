"""pipeline.launcher.interrupts: SIGINT and SIGTERM inside the block run the cleanup, print one line and end the
process with 130 / 143 (in a process of its own: the point is that it ends); the block restores what it replaced,
lets other signals through, and is a no-op outside the main thread."""

from __future__ import annotations

import os
import signal
import threading
import time

import pytest

from pipeline.launcher.interrupts import EXIT_STATUS, exit_on_interrupt
from tests.support.processes import run_python

# The block around a wait, as the launcher has it around a job; the process signals itself once inside.
SCRIPT = """
import os, signal, sys, time
from pipeline.launcher.interrupts import exit_on_interrupt

def message():
    if sys.argv[2] == "failing":
        raise RuntimeError("the summary could not be read")
    return "interrupted: 3 translated chunks are kept; rerun the command to resume"

with exit_on_interrupt(message, cleanup=lambda: print("cleaned up", flush=True)):
    print("in the block", flush=True)
    os.kill(os.getpid(), getattr(signal, sys.argv[1]))
    time.sleep(60)
print("after the block")
"""


@pytest.mark.parametrize(("sig", "status"), [("SIGINT", 130), ("SIGTERM", 143)])
def test_a_signal_in_the_block_is_one_line_and_its_exit_status(sig, status):
    done = run_python("-c", SCRIPT, sig, "plain", timeout=60)
    assert done.returncode == status == EXIT_STATUS[getattr(signal, sig)], done.stderr
    assert done.stdout == "in the block\ncleaned up\n"  # cleanup ran; nothing after the signal did
    assert done.stderr == "interrupted: 3 translated chunks are kept; rerun the command to resume\n"


def test_the_line_still_comes_out_when_the_message_fails():
    done = run_python("-c", SCRIPT, "SIGINT", "failing", timeout=60)
    assert done.returncode == 130 and done.stderr == "interrupted (the summary could not be read)\n"


def test_the_block_restores_the_handlers_and_passes_other_signals_through():
    before = {sig: signal.getsignal(sig) for sig in EXIT_STATUS}
    seen: list[int] = []
    previous_usr1 = signal.signal(signal.SIGUSR1, lambda signum, frame: seen.append(signum))
    try:
        with exit_on_interrupt(lambda: "never printed"):
            assert all(signal.getsignal(sig) is not before[sig] for sig in EXIT_STATUS)
            os.kill(os.getpid(), signal.SIGUSR1)  # its byte reaches the watcher too, which leaves it alone
            deadline = time.monotonic() + 30
            while not seen and time.monotonic() < deadline:
                time.sleep(0.01)
        assert seen == [signal.SIGUSR1]
    finally:
        signal.signal(signal.SIGUSR1, previous_usr1)
    assert {sig: signal.getsignal(sig) for sig in EXIT_STATUS} == before
    assert not any(t.name == "paranmt-interrupt" for t in threading.enumerate())
    # the wake-up descriptor is the one from before the block (set_wakeup_fd answers the one it replaces)
    previous_fd = signal.set_wakeup_fd(-1)
    signal.set_wakeup_fd(previous_fd)
    assert previous_fd == -1


def test_outside_the_main_thread_the_block_changes_nothing():
    before = signal.getsignal(signal.SIGINT)
    inside: list[object] = []

    def enter() -> None:
        with exit_on_interrupt(lambda: "never printed"):
            inside.append(signal.getsignal(signal.SIGINT))

    thread = threading.Thread(target=enter)
    thread.start()
    thread.join()
    assert inside == [before]
