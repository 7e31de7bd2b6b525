"""The stand-alone translator CLI (``paranmt translate``), run in-process on the toy model and the default model."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path

import pytest

from paranmt.cli.translate_command import main
from tests.support.nmt_models import TOY_TRAIN_PAIRS
from tests.support.repo import REPO_ROOT
from tests.support.sample_run import SUITE_KERNEL
from translate.file_translator import COLUMNS

INVALID_BYTES = b"\xff\xfe Velk\xfd pes \xe8te.\n"  # Latin-2 bytes: not UTF-8


@pytest.fixture(scope="module")
def heldout(toy_corpus) -> tuple[list[str], list[str]]:
    cs, en = toy_corpus
    return cs[TOY_TRAIN_PAIRS:], en[TOY_TRAIN_PAIRS:]


@pytest.fixture(scope="module")
def input_lines(heldout) -> tuple[bytes, dict[int, str]]:
    """The input file's bytes and the expected special status per 1-based line (others are toy sentences)."""
    cs, _ = heldout
    lines = [s.encode("utf-8") + b"\n" for s in cs]
    special: dict[int, str] = {}
    # an empty line, a whitespace-only line, an invalid UTF-8 line, a CRLF line and a line with tabs inside,
    # spread over the file so that they fall in different chunks with --chunk-size
    lines.insert(10, b"\n")
    special[11] = "empty"
    lines.insert(200, b" \t \n")
    special[201] = "empty"
    lines.insert(300, INVALID_BYTES)
    special[301] = "invalid_utf8"
    lines[400] = lines[400].rstrip(b"\n") + b"\r\n"
    lines[450] = lines[450].replace(b" ", b"\t", 2)
    return b"".join(lines), special


def expected_sources(data: bytes) -> list[str | None]:
    out: list[str | None] = []
    for raw in data.split(b"\n")[:-1]:
        try:
            out.append(raw.rstrip(b"\r").decode("utf-8"))
        except UnicodeDecodeError:
            out.append(None)
    return out


def read_tsv(path: Path) -> tuple[list[str], list[list[str]]]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as handle:
        lines = handle.read().split("\n")
    assert lines[-1] == "", "the TSV ends with a newline"
    rows = [line.split("\t") for line in lines[1:-1]]
    assert all(len(row) == len(COLUMNS) for row in rows), "every row has every column (no stray tabs)"
    return lines[0].split("\t"), rows


def toy_args(model: Path, input_path: Path, output: Path, *extra: str) -> list[str]:
    return ["--model", str(model), "--backend", "ctranslate2", "--device", "cpu", "--threads", "1", "--quiet",
            "--input", str(input_path), "--out", str(output), *extra]


@pytest.fixture(scope="module")
def plain_run(tmp_path_factory, toy_model, input_lines):
    data, _ = input_lines
    work = tmp_path_factory.mktemp("cli")
    (work / "in.cs").write_bytes(data)
    code = main(toy_args(toy_model, work / "in.cs", work / "out.tsv", "--summary", str(work / "out.json")))
    assert code == 0
    return work


def test_one_row_per_input_line_in_order(plain_run, input_lines, heldout):
    data, special = input_lines
    header, rows = read_tsv(plain_run / "out.tsv")
    sources = expected_sources(data)
    assert header == COLUMNS
    assert [int(r[0]) for r in rows] == list(range(1, len(sources) + 1))
    assert all(r[1] == "1" for r in rows)
    col = {name: i for i, name in enumerate(COLUMNS)}
    for number, status in special.items():
        assert rows[number - 1][col["status"]] == status
    invalid = rows[300]
    assert invalid[col["error"]].startswith("invalid UTF-8") and invalid[col["hypothesis"]] == ""
    assert rows[10][col["hypothesis"]] == "" and rows[10][col["target_tokens"]] == "0"

    references = dict(zip(heldout[0], heldout[1], strict=True))
    ok = [(s, r) for s, r in zip(sources, rows, strict=True) if r[col["status"]] == "ok"]
    assert len(ok) == len(sources) - len(special)
    # the CRLF line and the line with tabs decode like the clean sentence
    for index in (400, 450):
        assert rows[index][col["status"]] == "ok"
    assert rows[450][col["hypothesis"]] == references[sources[450].replace("\t", " ")]
    assert rows[400][col["hypothesis"]] == references[sources[400]]
    matches = sum(r[col["hypothesis"]] == references[" ".join(s.split())] for s, r in ok)
    assert matches / len(ok) >= 0.95
    for _, r in ok:
        assert float(r[col["score"]]) <= 0
        assert int(r[col["source_tokens"]]) > 0 and int(r[col["target_tokens"]]) > 0
        assert r[col["hit_length_cap"]] == "false" and r[col["error"]] == ""


def test_summary_counts_add_up(plain_run, input_lines, toy_model):
    data, special = input_lines
    n = len(expected_sources(data))
    summary = json.loads((plain_run / "out.json").read_text(encoding="utf-8"))
    assert summary["lines"] == n
    counts = {k: summary[k] for k in ("ok", "empty", "too_long", "failed", "invalid_utf8")}
    assert sum(counts.values()) == n
    specials = list(special.values())
    assert counts == {"ok": n - len(specials), "empty": specials.count("empty"), "too_long": 0, "failed": 0,
                      "invalid_utf8": specials.count("invalid_utf8")}
    assert counts["empty"] == 2 and counts["invalid_utf8"] == 1
    assert summary["sentences_per_second"] > 0 and summary["target_tokens_per_second"] > 0
    assert summary["config"]["translate"]["beam_size"] == 12 and summary["config"]["translate"]["threads"] == 1
    assert summary["config"]["translate"]["model"] == str(Path(toy_model).resolve())
    assert summary["backend"] == "ctranslate2" and summary["device"] == "cpu" and summary["beam_size"] == 12
    assert summary["model_id"] == "toy-cs-en"
    assert summary["output"].endswith("out.tsv")


def test_gzip_input_and_output_with_small_chunks_give_the_same_rows(plain_run, toy_model, input_lines, tmp_path):
    data, _ = input_lines
    with gzip.open(tmp_path / "in.cs.gz", "wb") as handle:
        handle.write(data)
    code = main(toy_args(toy_model, tmp_path / "in.cs.gz", tmp_path / "out.tsv.gz", "--chunk-size", "7",
                         "--summary", str(tmp_path / "s.json")))
    assert code == 0
    (tmp_path / "in.cs").write_bytes(data)  # the same chunking from a plain file: byte-identical output
    assert main(toy_args(toy_model, tmp_path / "in.cs", tmp_path / "out.tsv", "--chunk-size", "7")) == 0
    assert gzip.decompress((tmp_path / "out.tsv.gz").read_bytes()) == (tmp_path / "out.tsv").read_bytes()
    # Other chunks give other batches: the same rows and hypotheses, but CTranslate2's scores move in the 6th
    # decimal with a batch's composition (measured up to ~2e-5), so scores agree to 1e-4.
    header, small = read_tsv(tmp_path / "out.tsv.gz")
    plain_header, plain = read_tsv(plain_run / "out.tsv")
    score = header.index("score")
    assert header == plain_header and len(small) == len(plain)
    for a, b in zip(small, plain, strict=True):
        assert a[:score] + a[score + 1:] == b[:score] + b[score + 1:]
        assert (a[score] == b[score] == "") or abs(float(a[score]) - float(b[score])) <= 1e-4
    summary = json.loads((tmp_path / "s.json").read_text(encoding="utf-8"))
    assert summary["lines"] == len(expected_sources(data)) and summary["invalid_utf8"] == 1


def test_nbest_rows(toy_model, heldout, tmp_path, capsys):
    cs, _ = heldout
    lines = [*cs[:30], "", *cs[30:40]]
    (tmp_path / "in.cs").write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(toy_args(toy_model, tmp_path / "in.cs", tmp_path / "out.tsv", "--nbest", "3")) == 0
    _, rows = read_tsv(tmp_path / "out.tsv")
    by_line: dict[int, list[list[str]]] = {}
    for row in rows:
        by_line.setdefault(int(row[0]), []).append(row)
    assert list(by_line) == list(range(1, len(lines) + 1)), "rows grouped by line, in input order"
    for number, group in by_line.items():
        if number == 31:
            assert len(group) == 1 and group[0][2] == "empty"
            continue
        assert [r[1] for r in group] == ["1", "2", "3"] and all(r[2] == "ok" for r in group)
        scores = [float(r[3]) for r in group]
        assert scores == sorted(scores, reverse=True)
        assert len({r[4] for r in group}) >= 2, "n-best hypotheses differ"
        assert [r[7] for r in group[1:]] == ["false", "false"]
    assert "wrote" in capsys.readouterr().err


def test_beam_zero_is_a_usage_error(tmp_path, toy_model, capsys):
    (tmp_path / "in.cs").write_text("Pes vidí kočku.\n", encoding="utf-8")
    code = main(toy_args(toy_model, tmp_path / "in.cs", tmp_path / "out.tsv", "--beam", "0"))
    assert code == 2
    err = capsys.readouterr().err
    assert err == "error: invalid --beam 0: Input should be greater than or equal to 1 (translate.beam_size)\n"
    assert not (tmp_path / "out.tsv").exists()


def test_nbest_over_beam_is_a_usage_error(tmp_path, toy_model, capsys):
    (tmp_path / "in.cs").write_text("Pes vidí kočku.\n", encoding="utf-8")
    assert main(toy_args(toy_model, tmp_path / "in.cs", tmp_path / "out.tsv", "--beam", "2", "--nbest", "3")) == 2
    assert "nbest (3) cannot exceed beam_size (2)" in capsys.readouterr().err


def test_missing_model_directory(tmp_path, capsys):
    (tmp_path / "in.cs").write_text("Pes vidí kočku.\n", encoding="utf-8")
    code = main(["--model", "/nonexistent", "--input", str(tmp_path / "in.cs"), "--out",
                 str(tmp_path / "out.tsv"), "--quiet"])
    assert code == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "/nonexistent" in err and "does not exist" in err
    assert "Traceback" not in err


def test_unknown_config_key(tmp_path, capsys):
    (tmp_path / "in.cs").write_text("Pes vidí kočku.\n", encoding="utf-8")
    code = main(["--config", "sample", "--set", "translate.beem=1", "--input", str(tmp_path / "in.cs"),
                 "--out", str(tmp_path / "out.tsv"), "--quiet"])
    assert code == 2
    err = capsys.readouterr().err
    assert "translate.beem" in err and "unknown key (translate's keys: model, backend" in err


def test_missing_input_and_bad_chunk_size(tmp_path, toy_model, capsys):
    assert main(toy_args(toy_model, tmp_path / "missing.cs", tmp_path / "out.tsv")) == 2
    assert "missing.cs does not exist" in capsys.readouterr().err
    (tmp_path / "in.cs").write_text("Pes vidí kočku.\n", encoding="utf-8")
    assert main(toy_args(toy_model, tmp_path / "in.cs", tmp_path / "out.tsv", "--chunk-size", "0")) == 2
    assert "--chunk-size must be positive (got 0)" in capsys.readouterr().err


def test_help_runs_in_a_fresh_process():
    done = subprocess.run([sys.executable, "-m", "paranmt", "translate", "--help"], cwd=REPO_ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "usage: paranmt translate" in done.stdout
    for flag in ("--input", "--out", "--model", "--beam", "--nbest", "--set", "--summary"):
        assert flag in done.stdout
def test_readme_main_job_on_the_bundled_sample(tmp_path, monkeypatch, capsys):
    """The README's main job: back-translate the bundled sample with the default model (the bundled small-cs-en)."""
    monkeypatch.chdir(REPO_ROOT)
    output, summary_path = tmp_path / "runs" / "sample" / "en.tsv", tmp_path / "runs" / "sample" / "summary.json"
    code = main(["--config", "sample", "--input", "configs/sample/sample.cs", "--out", str(output),
                 "--summary", str(summary_path), "--quiet",
                 "--set", SUITE_KERNEL])
    assert code == 0
    err = capsys.readouterr().err
    assert f"wrote {output} and {summary_path}" in err
    header, rows = read_tsv(output)
    assert header == COLUMNS
    assert [int(r[0]) for r in rows] == list(range(1, 401))
    statuses = [r[2] for r in rows]
    assert set(statuses) <= {"ok", "too_long", "failed"}
    summary = json.loads(summary_path.read_text(encoding="utf-8"))
    assert summary["lines"] == 400
    for status in ("ok", "too_long", "failed"):
        assert summary[status] == statuses.count(status)
    assert summary["ok"] + summary["too_long"] + summary["failed"] == 400
    assert summary["empty"] == 0 and summary["invalid_utf8"] == 0
    assert summary["ok"] >= 390
    assert all(r[4] for r in rows if r[2] == "ok")
    assert summary["model_id"] == "small-cs-en" and summary["config"]["translate"]["model"] is None
    assert summary["config"]["translate"]["beam_size"] == 12 and summary["device"] == "cpu"
