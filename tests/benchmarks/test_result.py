"""benchmarks.result writes every result JSON one way (the command as ``python -m``, paths in the repository or
../shared relative, the machine, then the figures) and makes every command line one way; benchmarks.timing runs
interleaved rounds in order."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks.paths import REPO, SHARED
from benchmarks.result import argument_parser, command, write_result
from benchmarks.timing import interleaved, median_ratio, spread


def test_the_command_is_the_module_form_with_shown_paths(tmp_path: Path) -> None:
    script = str(REPO / "benchmarks" / "gpu" / "gpu_suite.py")
    argv = ["--json", str(REPO / "benchmarks" / "results" / "x.json"), "--work", str(tmp_path),
            f"A B={SHARED / 'models' / 'm'}"]
    assert command(script, argv) == (f"python -m benchmarks.gpu.gpu_suite --json benchmarks/results/x.json "
                                     f"--work {tmp_path} 'A B=../shared/models/m'")


def test_a_result_holds_its_command_and_machine_first(tmp_path: Path) -> None:
    path = tmp_path / "out" / "r.json"
    record = write_result(path, {"rate": 1.5}, str(REPO / "benchmarks" / "scores" / "score_bench.py"), ["--pairs", "3"])
    written = json.loads(path.read_text(encoding="utf-8"))
    assert written == record and list(written) == ["command", "machine", "rate"]
    assert written["command"] == "python -m benchmarks.scores.score_bench --pairs 3" and written["machine"]["cpu_cores"]
    assert [p.name for p in path.parent.iterdir()] == ["r.json"]  # no temporary file left beside it


def test_a_command_line_is_named_as_its_command_and_takes_the_result_file_as_asked(capsys) -> None:
    script = str(REPO / "benchmarks" / "studies" / "batch_composition.py")
    default = REPO / "benchmarks" / "results" / "x.json"
    assert argument_parser(script, "doc").prog == "python -m benchmarks.studies.batch_composition"
    assert "--json" not in argument_parser(script, "doc").format_help()
    assert argument_parser(script, "doc", result=True).parse_args([]).json is None
    assert argument_parser(script, "doc", result=default).parse_args([]).json == default
    assert argument_parser(script, "doc", result=True).parse_args(["--json", "r.json"]).json == Path("r.json")
    with pytest.raises(SystemExit):
        argument_parser(script, "doc", required=True).parse_args([])
    assert capsys.readouterr().err == ("error: the following arguments are required: --json (see python -m "
                                       "benchmarks.studies.batch_composition --help)\n")
    # the docstring keeps its line breaks, and loses its markup
    assert "first line\n  indented" in argument_parser(script, "first ``line``\n  indented").format_help()


def test_rounds_run_every_case_once_in_order() -> None:
    calls: list[str] = []
    times = interleaved({"a": lambda: calls.append("a"), "b": lambda: calls.append("b")}, rounds=3)
    assert calls == ["a", "b"] * 3 and all(len(t.wall) == len(t.cpu) == 3 for t in times.values())
    assert median_ratio([2.0, 4.0, 9.0], [1.0, 2.0, 3.0]) == 2.0 and spread([1.0, 2.0, 3.0]) == 1.0
