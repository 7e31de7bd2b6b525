"""Bad input is a one-line error naming the file and the fix (exit status 2, before any work) or a dead letter —
never a traceback, and never rows lost without a word. Inputs carry their translation (--mt / --mt-column) and
runs use --no-score where scoring is not the point, so no NMT model is needed and each test takes seconds."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from tests.support.processes import paranmt_run
from tests.support.repo import REPO_ROOT

ROWS = [(f"Věta číslo {i} je tady.", f"Sentence number {i} is here.", f"The sentence {i} is here.")
        for i in range(100)]
RUNNER = ["--runner", "BundleBasedDirectRunner"]


def _tsv() -> bytes:
    return "".join(f"{cs}\t{en}\t{mt}\n" for cs, en, mt in ROWS).encode()


def _side(k: int) -> bytes:
    return "".join(row[k] + "\n" for row in ROWS).encode()


def _one_line_error(capsys, code: int, *names: Path | str) -> str:
    """Exit status 2, and stderr is exactly one ``error:`` line naming every one of ``names`` (after the progress
    lines of a run whose job had started)."""
    err = capsys.readouterr().err
    assert code == 2, err
    lines = [line for line in err.strip().splitlines() if not line.startswith("read ")]
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    for name in names:
        assert str(name) in lines[0]
    return lines[0]


def _summary(out: Path) -> dict:
    return json.loads((out / "summary.json").read_text())


# ------------------------------------------------------------------------------------ compressed input (bug 1)


def test_truncated_tsv_gz_is_an_error_before_any_work(tmp_path, capsys):
    """It used to exit 0 with read = 47 of 100 rows: the cut half was never read and never reported."""
    data = gzip.compress(_tsv())
    path = tmp_path / "corpus.tsv.gz"
    path.write_bytes(data[: len(data) // 2])
    out = tmp_path / "out"
    line = _one_line_error(capsys, paranmt_run("--tsv", path, "--mt-column", "2", "--no-score", "--out", out, *RUNNER),
                           path)
    assert "truncated or corrupt" in line and f"ends at byte {len(data) // 2}" in line and "gzip -t" in line
    assert not out.exists()


@pytest.mark.parametrize("misaligned", [False, True])
def test_truncated_cs_gz_is_not_misaligned_and_never_pairs_a_half_line(tmp_path, capsys, misaligned):
    """It used to be "misaligned"; with --allow-misaligned a Czech line cut mid-word was paired with its English."""
    data = gzip.compress(_side(0))
    cs, en, mt = tmp_path / "c.cs.gz", tmp_path / "c.en", tmp_path / "c.mt"
    cs.write_bytes(data[: len(data) // 2])
    en.write_bytes(_side(1))
    mt.write_bytes(_side(2))
    out = tmp_path / "out"
    args = ["--cs", cs, "--en", en, "--mt", mt, "--no-score", "--out", out, *RUNNER]
    line = _one_line_error(capsys, paranmt_run(*args, *(["--allow-misaligned"] if misaligned else [])), cs)
    assert "truncated or corrupt" in line and "misaligned" not in line
    assert not out.exists()


def test_corrupt_gz_names_the_file(tmp_path, capsys):
    """A flipped byte used to give a 40-line zlib.error traceback without the file's name."""
    data = bytearray(gzip.compress(_tsv()))
    data[len(data) // 2] ^= 0xFF
    path = tmp_path / "corpus.tsv.gz"
    path.write_bytes(bytes(data))
    line = _one_line_error(capsys, paranmt_run("--tsv", path, "--mt-column", "2", "--no-score", "--out",
                                               tmp_path / "out", *RUNNER), path)
    assert "truncated or corrupt" in line and "data error" in line


def test_plain_text_named_gz_says_to_rename_it(tmp_path, capsys):
    path = tmp_path / "corpus.tsv.gz"
    path.write_bytes(_tsv())
    line = _one_line_error(capsys, paranmt_run("--tsv", path, "--mt-column", "2", "--no-score", "--out",
                                               tmp_path / "out", *RUNNER), path)
    assert "not gzip-compressed" in line and "rename it without its .gz suffix" in line


def test_truncated_input_leaves_no_traceback_on_the_console(tmp_path):
    """The real command line: stderr holds the error line and nothing from Python or Beam (bar Beam's own
    import-time warnings, which are not ours)."""
    data = gzip.compress(_tsv())
    path = tmp_path / "corpus.tsv.gz"
    path.write_bytes(data[:-20])
    done = subprocess.run([sys.executable, "-m", "paranmt", "run", "--tsv", str(path), "--mt-column", "2",
                           "--no-score", "--out", str(tmp_path / "out"), *RUNNER], cwd=REPO_ROOT,
                          capture_output=True, text=True, timeout=100,
                          env={**os.environ, "PYTHONPATH": str(REPO_ROOT)})
    lines = [line for line in done.stderr.splitlines() if not line.startswith("WARNING:")]
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert len(lines) == 1 and lines[0].startswith(f"error: {path} is truncated or corrupt"), done.stderr


# ------------------------------------------------------------------------- inputs of the wrong shape (bug 2)


@pytest.mark.parametrize("score", [True, False])
def test_empty_tsv_is_an_error(tmp_path, capsys, score):
    """With scoring it used to be a ValueError traceback from the scorer fit."""
    path = tmp_path / "empty.tsv"
    path.write_bytes(b"")
    line = _one_line_error(capsys, paranmt_run("--tsv", path, "--mt-column", "1", "--out", tmp_path / "out", *RUNNER,
                                               *([] if score else ["--no-score"])), path)
    assert "is empty" in line


def test_empty_pair_files_and_empty_parquet_are_errors(tmp_path, capsys):
    cs, en = tmp_path / "e.cs", tmp_path / "e.en"
    cs.write_bytes(b"")
    en.write_bytes(b"")
    _one_line_error(capsys, paranmt_run("--cs", cs, "--en", en, "--out", tmp_path / "out", *RUNNER), cs, en)
    empty = tmp_path / "e.parquet"
    pq.write_table(pa.table({"cs": pa.array([], pa.string()), "en": pa.array([], pa.string()),
                             "mt": pa.array([], pa.string())}), empty)
    _one_line_error(capsys, paranmt_run("--parquet", empty, "--mt-column", "mt", "--out", tmp_path / "out", *RUNNER),
                    empty)


def test_no_english_to_fit_on_leaves_no_claimed_folder(tmp_path, capsys):
    """The scorer is planned before the run folder is claimed: an input with no English sentence used to leave its
    definition behind, and the rerun with the English side fixed was refused as "a different run"."""
    cs, en, mt = tmp_path / "c.cs", tmp_path / "c.en", tmp_path / "c.mt"
    cs.write_bytes(_side(0))
    en.write_bytes(b"\n" * len(ROWS))
    mt.write_bytes(_side(2))
    out = tmp_path / "out"
    line = _one_line_error(capsys, paranmt_run("--cs", cs, "--en", en, "--mt", mt, "--out", out, *RUNNER), en)
    assert "no English sentence" in line
    assert not out.exists()
    en.write_bytes(_side(1))
    assert paranmt_run("--cs", cs, "--en", en, "--mt", mt, "--out", out, "--quiet", *RUNNER) == 0
    assert _summary(out)["read"] == len(ROWS)


def test_scorer_files_are_checked_before_the_claim_and_a_fit_error_is_one_line(tmp_path, capsys):
    """A missing ``score.embeddings`` failed inside the job (after the definition was written), and word vectors that
    know no word of the input ended the job with Beam's traceback and a ValueError."""
    cs, en, mt = tmp_path / "c.cs", tmp_path / "c.en", tmp_path / "c.mt"
    for path, k in ((cs, 0), (en, 1), (mt, 2)):
        path.write_bytes(_side(k))
    out = tmp_path / "out"
    missing = tmp_path / "nowhere.txt"
    line = _one_line_error(capsys, paranmt_run("--cs", cs, "--en", en, "--mt", mt, "--out", out, "--set",
                                               f"score.embeddings={missing}", *RUNNER), missing)
    assert line.startswith("error: score.embeddings:") and not out.exists()
    foreign = tmp_path / "foreign.txt"
    foreign.write_text("žluťoučký 0.1 0.2\nkůň 0.3 0.4\n", encoding="utf-8")
    line = _one_line_error(capsys, paranmt_run("--cs", cs, "--en", en, "--mt", mt, "--out", out, "--set",
                                               f"score.embeddings={foreign}", *RUNNER), "foreign.txt")
    assert "only 0 of the 100 fitting sentences" in line


def test_a_missing_file_system_and_bad_beam_options_are_one_line_before_any_work(tmp_path, capsys):
    """Each of these used to end in a Beam traceback (a gs:// input was said not to exist)."""
    from pipeline.inputs.files import file_system_problem

    cs, en, mt = tmp_path / "c.cs", tmp_path / "c.en", tmp_path / "c.mt"
    for path, k in ((cs, 0), (en, 1), (mt, 2)):
        path.write_bytes(_side(k))
    out = tmp_path / "out"
    line = _one_line_error(capsys, paranmt_run("--cs", cs, "--en", en, "--mt", mt, "--out", out, "--runner",
                                               "DirectRuner"), "DirectRuner")
    assert "Unexpected pipeline runner" in line and not out.exists()
    if file_system_problem("gs://bucket/x") is None:
        pytest.skip("the gcp extra is installed: gs:// has a file system")
    _one_line_error(capsys, paranmt_run("--cs", cs, "--en", en, "--mt", mt, "--out", "gs://bucket/x", *RUNNER),
                    "--out gs://bucket/x", "pip install -e '.[gcp]'")
    _one_line_error(capsys, paranmt_run("--cs", "gs://bucket/c.cs", "--en", en, "--mt", mt, "--out", out, *RUNNER),
                    "gs://bucket/c.cs", "pip install -e '.[gcp]'")
    _one_line_error(capsys, paranmt_run("--tsv", "gs://bucket/*.tsv", "--mt-column", "2", "--out", out, *RUNNER),
                    "gs://bucket/*.tsv", "pip install -e '.[gcp]'")
    assert not out.exists()


def test_one_column_tsv_is_an_error(tmp_path, capsys):
    """With scoring it used to be a traceback from the scorer fit; with --no-score every row a dead letter."""
    path = tmp_path / "one.tsv"
    path.write_bytes(_side(1))
    line = _one_line_error(capsys, paranmt_run("--tsv", path, "--mt-column", "1", "--out", tmp_path / "out", *RUNNER),
                           path)
    assert "tab-separated" in line and "--cs-column" in line


def test_short_tsv_lines_in_a_good_file_are_dead_letters(tmp_path, capsys):
    """A few bad lines are the rows' problem, not the file's: dead letters, and the accounting holds."""
    path = tmp_path / "mixed.tsv"
    path.write_bytes(_tsv() + b"only one field\n" + b"two\tfields\n")
    out = tmp_path / "out"
    assert paranmt_run("--tsv", path, "--mt-column", "2", "--no-score", "--out", out, *RUNNER) == 0
    summary = _summary(out)
    assert summary["read"] == 102 == summary["pairs"] + summary["rejected"] + summary["deadletter"]
    reasons = pq.read_table(out / "deadletter").column("reason").to_pylist()
    assert reasons == ["unparseable", "unparseable"]


def test_parquet_integer_text_column_is_an_error_naming_the_column(tmp_path, capsys):
    """It used to be an AttributeError traceback from a worker."""
    path = tmp_path / "ints.parquet"
    pq.write_table(pa.table({"cs": list(range(10)), "en": [r[1] for r in ROWS[:10]],
                             "mt": [r[2] for r in ROWS[:10]]}), path)
    line = _one_line_error(capsys, paranmt_run("--parquet", path, "--mt-column", "mt", "--no-score", "--out",
                                               tmp_path / "out", *RUNNER), path)
    assert "'cs'" in line and "int64" in line and "--cs-column" in line and "en, mt" in line


def test_jsonl_integer_field_is_a_dead_letter(tmp_path, capsys):
    """JSONL rows carry their own types: one bad row is a dead letter, the rest go on."""
    path = tmp_path / "rows.jsonl"
    lines = [json.dumps({"cs": cs, "en": en, "mt": mt}) for cs, en, mt in ROWS[:10]]
    lines.append(json.dumps({"cs": 7, "en": "Seven.", "mt": "Seven."}))
    path.write_text("\n".join(lines) + "\n")
    out = tmp_path / "out"
    assert paranmt_run("--jsonl", path, "--mt-column", "mt", "--no-score", "--out", out, *RUNNER) == 0
    summary = _summary(out)
    assert summary["read"] == 11 == summary["pairs"] + summary["rejected"] + summary["deadletter"]
    dead = pq.read_table(out / "deadletter").to_pylist()
    assert [d["reason"] for d in dead] == ["unparseable"] and "is a int" in dead[0]["error"]


def test_parquet_dictionary_strings_are_read(tmp_path, capsys):
    """A pandas categorical (dictionary-encoded strings) is a string column: read, not dead-lettered."""
    path = tmp_path / "cat.parquet"
    pq.write_table(pa.table({"cs": pa.array([r[0] for r in ROWS[:10]]).dictionary_encode(),
                             "en": [r[1] for r in ROWS[:10]], "mt": [r[2] for r in ROWS[:10]]}), path)
    out = tmp_path / "out"
    assert paranmt_run("--parquet", path, "--mt-column", "mt", "--no-score", "--out", out, *RUNNER) == 0
    assert _summary(out)["pairs"] == 10


def test_not_parquet_is_an_error_naming_the_file(tmp_path, capsys):
    path = tmp_path / "pairs.parquet"
    path.write_bytes(_tsv())
    line = _one_line_error(capsys, paranmt_run("--parquet", path, "--mt-column", "mt", "--no-score", "--out",
                                               tmp_path / "out", *RUNNER), path)
    assert line.startswith(f"error: --parquet {path} is not a readable Parquet file (")
    assert line.endswith("): replace it, or remove it from the input")


def test_no_decodable_english_for_the_scorer_is_an_error(tmp_path, capsys):
    """Rows exist but none can fit the scorer (all invalid UTF-8): one line, not a ValueError traceback."""
    cs, en, mt = (tmp_path / f"bad.{side}" for side in ("cs", "en", "mt"))
    for path in (cs, en, mt):
        path.write_bytes(b"\xff\xfe bad\n" * 3)
    line = _one_line_error(capsys, paranmt_run("--cs", cs, "--en", en, "--mt", mt, "--out", tmp_path / "out",
                                               *RUNNER), en)
    assert "--no-score" in line and "score.scorer" in line


# ------------------------------------------------------------------ folders, the output folder and flag values


@pytest.mark.parametrize("flag", ["--cs", "--en", "--tsv", "--jsonl"])
def test_a_folder_given_as_an_input_file(tmp_path, capsys, flag):
    """It used to be an IsADirectoryError traceback (44 lines, exit 1)."""
    folder = tmp_path / "folder"
    folder.mkdir()
    (tmp_path / "c.cs").write_bytes(_side(0))
    (tmp_path / "c.en").write_bytes(_side(1))
    args = {"--cs": ["--cs", folder, "--en", tmp_path / "c.en"], "--en": ["--cs", tmp_path / "c.cs", "--en", folder]
            }.get(flag, [flag, folder, "--mt-column", "2" if flag == "--tsv" else "mt"])
    out = tmp_path / "out"
    line = _one_line_error(capsys, paranmt_run(*args, "--no-score", "--out", out, *RUNNER), folder)
    hint = f"a pattern such as '{folder}/*.{flag[2:]}'" if flag in ("--tsv", "--jsonl") \
        else "a text file, one sentence per line"
    assert line == f"error: {flag} {folder} is a folder, not a file: give {hint}"
    assert not out.exists()


def test_a_parquet_folder_is_read_as_its_shards(tmp_path, capsys):
    """``--parquet`` takes a folder of shards as every command does: its ``*.parquet`` files, a killed run's
    ``_staging/`` and stray files left out; a folder without a shard is the same one line as ``paranmt score``'s."""
    folder = tmp_path / "shards"
    folder.mkdir()
    line = _one_line_error(capsys, paranmt_run("--parquet", folder, "--mt-column", "mt", "--no-score", "--out",
                                               tmp_path / "out", *RUNNER), folder)
    assert line == (f"error: --parquet {folder} holds no Parquet file (*.parquet): give a Parquet file, a folder of "
                    "shards such as runs/x/pairs, or a pattern")
    table = pa.table({"cs": [r[0] for r in ROWS], "en": [r[1] for r in ROWS], "mt": [r[2] for r in ROWS]})
    pq.write_table(table.slice(0, 60), folder / "part-0.parquet")
    pq.write_table(table.slice(60), folder / "part-1.parquet")
    (folder / "_staging").mkdir()
    pq.write_table(table, folder / "_staging" / "part-0.parquet")
    (folder / "notes.txt").write_text("not a shard\n")
    out = tmp_path / "out"
    assert paranmt_run("--parquet", folder, "--mt-column", "mt", "--no-score", "--quiet", "--out", out, *RUNNER) == 0
    assert _summary(out)["read"] == len(ROWS)
    assert [s["source"] for s in _summary(out)["sources"]] == ["part-0", "part-1"]


def test_out_naming_an_existing_file(tmp_path, capsys):
    """It used to be a FileExistsError traceback."""
    path = tmp_path / "c.tsv"
    path.write_bytes(_tsv())
    out = tmp_path / "results.txt"
    out.write_text("keep me")
    line = _one_line_error(capsys, paranmt_run("--tsv", path, "--mt-column", "2", "--no-score", "--out", out, *RUNNER))
    assert line == f"error: --out {out} is a file, not a folder: choose a new folder (or an earlier run's)"
    assert out.read_text() == "keep me"


def test_out_under_a_file(tmp_path, capsys):
    """No user, root included, can make a folder below a regular file (it used to be NotADirectoryError)."""
    path = tmp_path / "c.tsv"
    path.write_bytes(_tsv())
    out = tmp_path / "c.tsv" / "run"
    line = _one_line_error(capsys, paranmt_run("--tsv", path, "--mt-column", "2", "--no-score", "--out", out, *RUNNER))
    assert line == f"error: --out {out} cannot be created: {path} is a file, not a folder"


# Runs the command line as a user who cannot write the folder: root drops to nobody first (root writes anywhere),
# anyone else is such a user already. The job's modules are imported before (the command imports Beam only after
# its checks, and nobody may not read the interpreter's own files).
_AS_NOBODY = """
import os, sys
import pipeline.launcher.launch
from pipeline.run import main
if os.geteuid() == 0:
    os.setegid(65534)
    os.seteuid(65534)
sys.exit(main(sys.argv[1:]))
"""


def test_out_in_a_folder_the_user_cannot_write(tmp_path):
    """It used to be a PermissionError traceback. The parent folder is read-only (0o555) for its user."""
    import shutil
    import tempfile

    base = Path(tempfile.mkdtemp(prefix="paranmt-readonly-"))  # under /tmp, so nobody can reach it
    try:
        base.chmod(0o755)
        locked = base / "locked"
        locked.mkdir(mode=0o555)
        locked.chmod(0o555)
        out = locked / "run"
        done = subprocess.run([sys.executable, "-c", _AS_NOBODY, "--tsv", "unused.tsv", "--mt-column", "2",
                               "--no-score", "--out", str(out), *RUNNER], cwd=REPO_ROOT, capture_output=True,
                              text=True, timeout=100, env={**os.environ, "PYTHONPATH": str(REPO_ROOT)})
        lines = [line for line in done.stderr.splitlines() if not line.startswith("WARNING:")]
        assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
        assert lines == [f"error: --out {out}: permission denied on {out}: choose a folder you can write"]
        assert not out.exists()
    finally:
        shutil.rmtree(base, ignore_errors=True)


@pytest.mark.parametrize("flag,value,field", [("--beam", "0", "translate.beam_size"),
                                              ("--limit", "0", "pipeline.limit"),
                                              ("--num-shards", "0", "pipeline.num_shards")])
def test_a_bad_flag_value_is_one_line_naming_the_flag(tmp_path, capsys, flag, value, field):
    """It used to be two lines: ``invalid configuration (defaults):`` and the field."""
    path = tmp_path / "c.tsv"
    path.write_bytes(_tsv())
    line = _one_line_error(capsys, paranmt_run("--tsv", path, "--mt-column", "2", "--no-score", "--out",
                                               tmp_path / "out", flag, value, *RUNNER))
    assert line == f"error: invalid {flag} {value}: Input should be greater than or equal to 1 ({field})"
    assert not (tmp_path / "out").exists()


def test_a_flag_that_does_not_parse_is_one_line_without_the_usage(tmp_path, capsys):
    """``--beam abc`` used to print the whole 17-line usage before the error."""
    with pytest.raises(SystemExit) as exit_:
        paranmt_run("--tsv", tmp_path / "c.tsv", "--out", tmp_path / "out", "--beam", "abc")
    err = capsys.readouterr().err
    assert exit_.value.code == 2
    assert err == "error: argument --beam: invalid int value: 'abc' (see paranmt run --help)\n"


def test_missing_dataflow_options_are_one_line_with_no_warning_before_it(tmp_path, capsys):
    """Beam's "Unable to create default GCS bucket." warning does not come before the error line."""
    sample = REPO_ROOT / "configs" / "sample"
    code = paranmt_run("--config", "sample", "--cs", sample / "sample.cs", "--en", sample / "sample.en",
                       "--out", tmp_path / "out", "--runner", "DataflowRunner")
    line = _one_line_error(capsys, code, "DataflowRunner", "Missing required option: project")
    assert line.startswith("error: Beam options for DataflowRunner: ") and not (tmp_path / "out").exists()


def test_checks_before_work_answer_before_beam_and_torch_load(tmp_path):
    """DataflowRunner without its options, ``--device cuda`` on a machine without a GPU and a missing ``--model``:
    each is one line from a process that imported neither Beam nor torch (what is imported, not seconds: the
    machine's load does not decide it)."""
    probe = """
import json, sys
from pipeline.run import main
common = ["--cs", "w.cs", "--en", "w.en", "--out", "out"]
codes = [main([*common, *case]) for case in json.loads(sys.argv[1])]
loaded = sorted(name for name in ("apache_beam", "torch", "ctranslate2", "sacremoses") if name in sys.modules)
print(json.dumps({"codes": codes, "loaded": loaded}))
"""
    gpu = any(Path("/dev").glob("nvidia[0-9]*"))  # a GPU machine passes the device check
    cases = [["--runner", "DataflowRunner"], *([] if gpu else [["--device", "cuda"]]), ["--model", "no/such/model"]]
    (tmp_path / "w.cs").write_text("Ahoj.\n", encoding="utf-8")
    (tmp_path / "w.en").write_text("Hello.\n", encoding="utf-8")
    result = subprocess.run([sys.executable, "-c", probe, json.dumps(cases)], cwd=tmp_path, capture_output=True,
                            text=True, timeout=120, env={**os.environ, "CLOUDSDK_COMPUTE_REGION": ""})
    assert json.loads(result.stdout) == {"codes": [2] * len(cases), "loaded": []}, result.stderr
    lines = result.stderr.splitlines()
    assert lines[0] == ("error: Beam options for DataflowRunner: Missing required option: project, region, "
                        "temp_location (give --project PROJECT --region REGION --temp_location gs://BUCKET/tmp; "
                        "docs/dataflow.md)")
    assert gpu or lines[1].startswith("error: --device cuda: no CUDA device is visible here")
    assert lines[-1].startswith("error: --model ") and "no/such/model: no such model directory" in lines[-1]
    assert len(lines) == len(cases)
    assert not (tmp_path / "out").exists()
