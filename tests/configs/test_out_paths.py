"""Output paths that cannot be written: one line naming the path, the cause and the fix. A read-only file system is
mounted for real where mounting is permitted (skipped elsewhere); the same lines are checked without privileges from
the error the file system raises (EROFS)."""

from __future__ import annotations

import errno
import subprocess
from pathlib import Path

import pytest

from configs.out_paths import out_folder_problem
from paranmt.core.command_line import os_error_line
from pipeline.run import main as run
from tests.support.repo import REPO_ROOT

SAMPLE = REPO_ROOT / "configs" / "sample"
FIX = "is on a read-only file system: choose a path on a disk you can write"


@pytest.fixture
def read_only(tmp_path: Path):
    disk = tmp_path / "ro"
    disk.mkdir()
    try:
        done = subprocess.run(["mount", "-t", "tmpfs", "-o", "ro,size=64k", "tmpfs", str(disk)], capture_output=True,
                              text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as error:
        pytest.skip(f"no read-only file system: mount could not run ({error})")
    if done.returncode:
        pytest.skip(f"no read-only file system: mounting is not permitted here ({done.stderr.strip()})")
    yield disk
    subprocess.run(["umount", str(disk)], capture_output=True, timeout=30)


def test_a_run_into_a_read_only_disk_names_the_fix(read_only, capsys):
    out = read_only / "run"
    assert run(["--cs", str(SAMPLE / "sample.cs"), "--en", str(SAMPLE / "sample.en"), "--out", str(out),
                "--no-score"]) == 2
    assert capsys.readouterr().err == f"error: --out {out} {FIX}\n"


def test_a_translation_into_a_read_only_disk_names_the_fix(read_only, capsys):
    from paranmt.cli.paranmt_command import main

    out = read_only / "x.tsv"
    assert main(["translate", "--input", str(SAMPLE / "sample.cs"), "--out", str(out)]) == 2
    assert capsys.readouterr().err == f"error: --out {out} {FIX}\n"


def test_read_only_and_other_write_errors_name_a_fix_without_privileges(tmp_path):
    out = tmp_path / "run"
    assert out_folder_problem(out, OSError(errno.EROFS, "Read-only file system", str(out))) == f"--out {out} {FIX}"
    assert os_error_line(OSError(errno.EROFS, "Read-only file system", str(out)), ["--out", str(out)]) == \
        f"--out {out} {FIX}"
    assert out_folder_problem(out, OSError(errno.EIO, "Input/output error", str(out))) == \
        f"--out {out} cannot be written: Input/output error: choose a folder you can write"
