"""The same pairs give the same corpus, whatever container holds them: real pairs (the bundled LibreOffice help
excerpt) as line-aligned pair files, TSV, JSONL and Parquet, plain or compressed, in one file or sharded,
back-translated by the package's real model (small-cs-en, which never saw this text), must give the same rows of
``pairs/`` and ``train/`` -- the same translations, scores, folds and selection.

Ids name the file a row came from (``<file>:L<row>``), so they are compared only between containers of the same
file name; everything else is compared for every container. The translation chunks themselves are compared too:
the cache holds one file per chunk, named by a hash of the chunk's Czech text, so equal file names mean that every
container cut the same chunks. The default suite runs three containers (pair files, three uneven gzip TSV shards,
Parquet in row groups); ``-m slow`` ten.
"""

from __future__ import annotations

import bz2
import gzip
import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from configs import load_config
from paranmt.core.run_definition import DEFINITION_FILE
from pipeline.inputs.plan import InputSpec
from pipeline.job import run_job
from tests.support.repo import REPO_ROOT
from tests.support.sample_run import SUITE_KERNEL
from tests.support.shared_data import small_cs_en
from tests.support.taste_data import TASTE_DATA
from tests.support.text_files import read_lines

N = 200  # real LibreOffice help pairs, in 4 chunks of 64 rows (the last one short)
SETTINGS = ["translate.backend=ctranslate2", "translate.device=cpu", "translate.threads=1", "translate.beam_size=12",
            "translate.max_source_tokens=60", "prefilter.max_source_tokens=100", "pipeline.cache_chunk_lines=64",
            "pipeline.num_shards=2", "pipeline.index_every=16", "pipeline.read_task_lines=48"]


def _tsv(cs: list[str], en: list[str]) -> bytes:
    return "".join(f"{c}\t{e}\n" for c, e in zip(cs, en, strict=True)).encode()


def _jsonl(cs: list[str], en: list[str]) -> bytes:
    return "".join(json.dumps({"cs": c, "en": e}, ensure_ascii=False) + "\n"
                   for c, e in zip(cs, en, strict=True)).encode()


def _write(path: Path, data: bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def _pair_files(d: Path, cs: list[str], en: list[str], compress: Callable[[bytes], bytes] | None = None,
                suffix: str = "", name: str = "news") -> list[InputSpec]:
    pack = compress or (lambda data: data)
    return [InputSpec.pair(_write(d / f"{name}.cs{suffix}", pack("".join(f"{c}\n" for c in cs).encode())),
                           _write(d / f"{name}.en{suffix}", pack("".join(f"{e}\n" for e in en).encode())))]


def _parquet(d: Path, cs: list[str], en: list[str], shards: int = 1) -> list[InputSpec]:
    d.mkdir(parents=True, exist_ok=True)
    bounds = [len(cs) * k // shards for k in range(shards + 1)]
    for k in range(shards):
        name = "news.parquet" if shards == 1 else f"news-{k}.parquet"
        pq.write_table(pa.table({"cs": cs[bounds[k]:bounds[k + 1]], "en": en[bounds[k]:bounds[k + 1]]}), d / name,
                       row_group_size=70)
    return [InputSpec.parquet(d / ("news.parquet" if shards == 1 else "news-*.parquet"))]


def _tsv_shards(d: Path, cs: list[str], en: list[str]) -> list[InputSpec]:
    lines = _tsv(cs, en).splitlines(keepends=True)
    for k, (start, end) in enumerate([(0, 1), (1, 90), (90, len(lines))]):  # uneven, cutting across chunks
        _write(d / f"news-{k}.tsv.gz", gzip.compress(b"".join(lines[start:end])))
    return [InputSpec.tsv(d / "news-*.tsv.gz")]


CONTAINERS: dict[str, Callable[[Path, list[str], list[str]], list[InputSpec]]] = {
    "pair files": lambda d, cs, en: _pair_files(d, cs, en),
    "3 tsv.gz shards": _tsv_shards,
    "parquet": _parquet,
}
MORE_CONTAINERS: dict[str, Callable[[Path, list[str], list[str]], list[InputSpec]]] = {
    "tsv.gz": lambda d, cs, en: [InputSpec.tsv(_write(d / "news.tsv.gz", gzip.compress(_tsv(cs, en))))],
    "jsonl": lambda d, cs, en: [InputSpec.jsonl(_write(d / "news.jsonl", _jsonl(cs, en)))],
    "pair files, gzip": lambda d, cs, en: _pair_files(d, cs, en, gzip.compress, ".gz"),
    "tsv": lambda d, cs, en: [InputSpec.tsv(_write(d / "news.tsv", _tsv(cs, en)))],
    "jsonl.bz2": lambda d, cs, en: [InputSpec.jsonl(_write(d / "news.jsonl.bz2", bz2.compress(_jsonl(cs, en))))],
    "4 parquet shards": lambda d, cs, en: _parquet(d, cs, en, shards=4),
    # two inputs need two source names (the same one twice would collide in the ids: the launcher refuses it)
    "pair files in 2 inputs": lambda d, cs, en: [*_pair_files(d / "a", cs[:100], en[:100], name="news-a"),
                                                 *_pair_files(d / "b", cs[100:], en[100:], name="news-b")],
}


def _rows(out: Path, name: str, with_ids: bool) -> list[dict]:
    table = pa.concat_tables([pq.read_table(f) for f in sorted((out / name).glob("*.parquet"))])
    if not with_ids:
        table = table.drop_columns(["id", "source"])
    return sorted(table.to_pylist(), key=lambda r: (r["cs"], r["en"]))


def _chunks(out: Path) -> set[str]:
    return {p.name for p in (out / "cache").rglob("*.parquet")}


def _check_containers(tmp_path: Path, model: Path, containers: dict) -> None:
    cs = read_lines(TASTE_DATA / "bitext-software" / "libreoffice-help.cs")[:N]
    en = read_lines(TASTE_DATA / "bitext-software" / "libreoffice-help.en")[:N]
    config = load_config(None, SETTINGS, {"translate.model": str(model)})
    results = {}
    for name, make in containers.items():
        out = tmp_path / f"out-{len(results)}"
        summary = run_job(config, make(tmp_path / f"in-{len(results)}", cs, en), out)
        assert summary["read"] == N, name
        results[name] = out
    reference_name, reference = next(iter(results.items()))
    same_file = {"news"}  # containers whose one file is called news.*: same ids too
    chunks = _chunks(reference)
    assert len(chunks) == 4  # 200 rows in chunks of 64 (a few rows are rejected before translation)
    for name, out in results.items():
        assert _chunks(out) == chunks, f"{name} cut other translation chunks than {reference_name}"
        with_ids = {s["source"] for s in json.loads((out / "summary.json").read_text())["sources"]} == same_file
        for part in ("pairs", "train"):
            assert _rows(out, part, with_ids) == _rows(reference, part, with_ids), f"{name}: {part}/ differs"
    assert len(_rows(reference, "train", False)) > 0


def test_the_same_pairs_give_the_same_corpus_in_every_container(tmp_path):
    _check_containers(tmp_path, small_cs_en(), CONTAINERS)


@pytest.mark.slow
def test_the_same_pairs_give_the_same_corpus_in_more_containers(tmp_path):
    _check_containers(tmp_path, small_cs_en(), {**CONTAINERS, **MORE_CONTAINERS})


def test_the_sample_typed_three_ways_gives_the_same_bytes_and_resumes_retyped(tmp_path, monkeypatch, capsys,
                                                                              sample_run):
    """The outputs' metadata and the run's definition name each input file by name, size and content digest, not
    by the path as typed: ``configs/sample/sample.cs``, ``./configs/sample/sample.cs`` and the absolute path (the
    session's sample run) give byte-identical shards, and a folder made with one spelling resumes with another.
    (The translations come from a copy of the sample run's cache.)"""
    from pipeline.run import main

    monkeypatch.chdir(REPO_ROOT)
    sample = Path("configs") / "sample"
    typings = {"relative": [str(sample / "sample.cs"), str(sample / "sample.en")],
               "dotted": [f"./{sample / 'sample.cs'}", f"./{sample / 'sample.en'}"],
               "absolute": [str(REPO_ROOT / sample / "sample.cs"), str(REPO_ROOT / sample / "sample.en")]}
    cache = tmp_path / "cache"
    shutil.copytree(sample_run / "cache", cache)

    def run(cs: str, en: str, out: Path) -> None:
        assert main(["--config", "sample", "--cs", cs, "--en", en, "--out", str(out), "--quiet",
                     "--set", f"pipeline.cache_dir={cache}", "--set", SUITE_KERNEL]) == 0, \
            capsys.readouterr().err

    def shards(out: Path) -> dict[str, bytes]:
        return {f"{folder}/{path.name}": path.read_bytes() for folder in ("pairs", "train", "rejected", "deadletter")
                for path in sorted((out / folder).glob("*.parquet"))}

    folders = {"relative": tmp_path / "relative", "dotted": tmp_path / "dotted", "absolute": sample_run}
    for name in ("relative", "dotted"):
        run(*typings[name], folders[name])
    first = shards(folders["relative"])
    assert any(name.startswith("train/") for name in first) and any(name.startswith("deadletter/") for name in first)
    for name in ("dotted", "absolute"):
        assert shards(folders[name]) == first, name
        assert (folders[name] / DEFINITION_FILE).read_bytes() == (folders["relative"] / DEFINITION_FILE).read_bytes()
    inputs = json.loads(pq.read_schema(tmp_path / "relative" / "pairs" / "pairs-00000-of-00004.parquet")
                        .metadata[b"paranmt.inputs"])
    assert [f["name"] for f in inputs[0]["files"]] == ["sample.cs", "sample.en"]  # still says which files were read
    assert inputs[0]["files"][0]["bytes"] == (REPO_ROOT / sample / "sample.cs").stat().st_size
    run(*typings["absolute"], tmp_path / "relative")  # retyped: the same run, resumed (no "holds a different run")
    assert shards(tmp_path / "relative") == first
