"""End-to-end runs of ``pipeline.run`` on local runners (named explicitly: Beam 2.77's default runner first tries
to download Prism). Accounting is checked against the input by reading ids back from the written files, never
from the pipeline's own counters."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from configs import load_config
from paranmt.core import pair_schema as S
from paranmt.core.run_definition import DifferentRun
from pipeline.inputs.plan import InputSpec
from pipeline.job import run_job
from pipeline.run import main
from tests.support.taste_data import taste_data
from tests.support.text_files import read_lines

TOY_TRANSLATE = ["translate.backend=ctranslate2", "translate.device=cpu", "translate.threads=1",
                 "translate.beam_size=4", "translate.max_source_tokens=30", "prefilter.max_source_tokens=100",
                 "pipeline.num_shards=3"]


def _config(*overrides: str, model: Path | None = None):
    values = {"translate.model": str(model)} if model is not None else {}
    return load_config(None, list(overrides), values)


def _table(out: Path, name: str) -> pa.Table:
    files = sorted((out / name).glob("*.parquet"))
    return pa.concat_tables([pq.read_table(f) for f in files]) if files else None


def _ids(out: Path, name: str) -> list[str]:
    table = _table(out, name)
    return [] if table is None else table.column("id").to_pylist()


def _assert_accounting(out: Path, expected_ids: list[str]) -> dict[str, list[str]]:
    """Every input id is in exactly one of pairs/, rejected/, deadletter/ (counted from the files)."""
    ids = {name: _ids(out, name) for name in ("pairs", "rejected", "deadletter")}
    everything = ids["pairs"] + ids["rejected"] + ids["deadletter"]
    assert len(everything) == len(set(everything)), "an id is written twice"
    assert sorted(everything) == sorted(expected_ids)
    summary = json.loads((out / "summary.json").read_text())
    assert summary["identity"]["holds"], summary["identity"]
    assert summary["read"] == len(expected_ids)
    assert (out / "_SUCCESS").exists() and not (out / "_staging").exists()
    return ids


def _reasons(out: Path, name: str = "rejected") -> dict[str, str]:
    table = _table(out, name)
    return dict(zip(table.column("id").to_pylist(), table.column("reason").to_pylist(), strict=True))


def _file_bytes(out: Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*"))
            if p.is_file() and "cache" not in p.parts}


def _toy_bitext(tmp_path: Path, toy_corpus) -> tuple[Path, Path, dict[int, str]]:
    """120 held-out toy pairs with injected bad lines; returns the files and {line: expected outcome}."""
    cs, en = (list(side[-200:-80]) for side in toy_corpus)  # held out from the toy model's training
    long_cs = " ".join(["pes vidí kočka"] * 14)  # 42 words: fine for Moses, too long for the model (30)
    long_en = " ".join(["dog sees cat"] * 14)
    injected = [  # (cs bytes, en bytes, expected)
        (b"Dobr\xfd den.", b"Good day.", "invalid_utf8"),
        (b"Pes.", b"x" * 100_000, "line_too_long"),  # over pipeline.max_line_bytes, not unparseable
        ("Pes vidí\x07 kočka.".encode(), b"Dog sees cat.", "garbage"),
        (cs[3].encode(), en[3].encode(), "duplicate"),
        (b"Pes vid\xc3\xad.", b"", "empty_side"),
        (b"Tom.", b"Tom.", "untranslated"),
        (long_cs.encode(), long_en.encode(), "translation_too_long"),
        (b"Pes.", b"Dog sees the cat and the cat sees a big old dog today.", "length_ratio"),
    ]
    cs_lines = [c.encode() for c in cs]
    en_lines = [e.encode() for e in en]
    expected: dict[int, str] = {}
    for k, (c, e, _) in enumerate(injected):
        at = 10 + 13 * k
        cs_lines.insert(at, c)
        en_lines.insert(at, e)
    for k, (_, _, outcome) in enumerate(injected):
        expected[10 + 13 * k + 1] = outcome  # 1-based line numbers after all insertions (each at its index)
    cs_path, en_path = tmp_path / "toy.cs", tmp_path / "toy.en"
    cs_path.write_bytes(b"\n".join(cs_lines) + b"\n")
    en_path.write_bytes(b"\n".join(en_lines) + b"\n")
    return cs_path, en_path, expected


@pytest.fixture(scope="module")
def toy_run(tmp_path_factory, toy_model, toy_corpus):
    """The toy bitext with bad lines, back-translated by the toy model on the in-process FnApiRunner."""
    tmp_path = tmp_path_factory.mktemp("toy")
    cs_path, en_path, expected = _toy_bitext(tmp_path, toy_corpus)
    config = _config(*TOY_TRANSLATE, model=toy_model)
    out = tmp_path / "out"
    summary = run_job(config, [InputSpec.pair(cs_path, en_path)], out)
    return cs_path, en_path, expected, config, out, summary


def test_toy_bitext_end_to_end_with_bad_lines_and_identical_rerun(toy_run):
    cs_path, en_path, expected, config, out, summary = toy_run
    n = cs_path.read_bytes().count(b"\n")
    all_ids = [f"toy:L{i:012d}" for i in range(1, n + 1)]

    ids = _assert_accounting(out, all_ids)
    dead = _reasons(out, "deadletter")
    rejected = _reasons(out)
    for line, outcome in expected.items():
        row_id = f"toy:L{line:012d}"
        assert (dead if outcome in ("invalid_utf8", "line_too_long") else rejected)[row_id] == outcome, row_id
    assert len(dead) == 2 and len(rejected) == 6 and len(ids["pairs"]) == n - 8
    assert summary["deadletter_by_reason"] == {"invalid_utf8": 1, "line_too_long": 1}
    assert summary["stages"][0] == {"stage": "ingest", "in": n, "dropped": 2, "out": n - 2,
                                    "reasons": {"invalid_utf8": 1, "line_too_long": 1}}
    dead_table = _table(out, "deadletter")
    long_row = dead_table.filter(pa.compute.equal(dead_table["reason"], "line_too_long")).to_pylist()[0]
    assert long_row["raw_bytes"] == 100_000 and long_row["raw_truncated"] and len(long_row["raw"]) == 4096

    # Schema contract and metadata.
    for name, schema in (("pairs", S.PAIRS_SCHEMA), ("rejected", S.REJECTED_SCHEMA),
                         ("deadletter", S.DEADLETTER_SCHEMA)):
        files = sorted((out / name).glob("*.parquet"))
        assert [f.name for f in files] == [f"{name}-{i:05d}-of-{len(files):05d}.parquet" for i in range(len(files))]
        for f in files:
            file_schema = pq.read_schema(f)
            assert file_schema.remove_metadata() == schema.remove_metadata()
            S.check_schema(file_schema, required=(S.ID, S.SOURCE, S.REASON))
            meta = pq.ParquetFile(f).metadata  # an empty shard holds no row group
            assert meta.num_row_groups == (meta.num_rows > 0)
            assert all(meta.row_group(i).column(0).compression == "ZSTD" for i in range(meta.num_row_groups))
    meta = S.read_metadata(pq.read_schema(sorted((out / "pairs").glob("*.parquet"))[0]))
    assert meta["schema_version"] == S.SCHEMA_VERSION and meta["nmt_model_id"] == "toy-cs-en"
    assert meta["config"]["translate"]["beam_size"] == 4 and meta["code_version"] and meta["mode"] == "translate"
    pairs = _table(out, "pairs")
    S.check_schema(pairs.schema)
    assert pairs.column("id").to_pylist() != sorted(pairs.column("id").to_pylist())  # sharded by hash...
    for f in sorted((out / "pairs").glob("*.parquet")):  # ...and sorted by id within each shard
        shard_ids = pq.read_table(f, columns=["id"]).column("id").to_pylist()
        assert shard_ids == sorted(shard_ids)
    rows = pairs.to_pylist()
    # The translations are joined to the right rows: the toy model translates held-out toy Czech well.
    assert sum(r["mt"] == r["en"] for r in rows) >= 0.8 * len(rows)
    assert all(r["nmt_model_id"] == "toy-cs-en" and r["translation_score"] < 0 and r["mt_tokens"] for r in rows)
    # The selection (default): every pair scored by the scorer fitted on this input, and decided by the rank rule.
    scorer_id = S.read_metadata(pq.read_schema(sorted((out / "pairs").glob("*.parquet"))[0]))["scorer_id"]
    assert (out / "scorer" / "scorer.npz").is_file() and scorer_id.startswith("paragram-")
    assert all(r["scorer_id"] == scorer_id and r["paraphrase_score"] is not None and r["trigram_overlap"] is not None
               and isinstance(r["keep"], bool) for r in rows)
    assert {r["reason"] for r in rows} <= {"kept", "not_in_selected_folds", "too_many_tokens", "no_known_words",
                                          "missing_score", "copy"}
    copies = [r for r in rows if r["reason"] == "copy"]  # the toy model often reproduces the reference exactly
    assert all(" ".join(r["mt_tokens"]).lower() == " ".join(r["en_tokens"]).lower() and r["fold"] == 0
               for r in copies)
    exact = [r for r in rows if r["mt"] == r["en"]]
    assert all(r["trigram_overlap"] == 1.0 or len(r["en_tokens"]) < 3 for r in exact)
    assert all(abs(r["paraphrase_score"] - 1.0) < 1e-5 for r in exact if not r["no_known_words"])
    kept = {r["id"] for r in rows if r["keep"]}
    assert set(_table(out, "train").column("id").to_pylist()) == kept
    ranked = [r for r in rows if r["fold"]]  # past the selection's rules (copies are not ranked)
    assert summary["train"] == len(kept) and abs(len(kept) - 0.2 * len(ranked)) <= 2  # the top two deciles

    # A killed run leaves a stale staging folder; the rerun (same arguments) gives byte-identical files and
    # reads finished translations from the cache.
    before = _file_bytes(out)
    (out / "_staging" / "pairs").mkdir(parents=True)
    (out / "_staging" / "pairs" / "pairs-00007-of-00009.parquet").write_bytes(b"torn")
    rerun = run_job(config, [InputSpec.pair(cs_path, en_path)], out)
    after = _file_bytes(out)
    assert after.keys() == before.keys()
    resumed = ("summary.json", "README.md")  # the counts that say it resumed: the summary's and the card's
    assert {k: v for k, v in after.items() if k not in resumed} == {k: v for k, v in before.items() if k not in resumed}
    first_card, second_card = (set(files["README.md"].decode().splitlines()) for files in (before, after))
    assert [sorted(first_card - second_card), sorted(second_card - first_card)] == [
        ["Translation cache: 0 rows reused, 121 translated in the run that finished."],
        ["Translation cache: 121 rows reused, 0 translated in the run that finished."]]
    first, second = (json.loads(files["summary.json"]) for files in (before, after))
    assert first.pop("metrics") != second.pop("metrics")  # cache hits instead of misses, and nothing else
    assert first == second
    assert rerun["metrics"]["translation_cache_hit_rows"] == n - 2 - 5  # all that reached translation
    assert "translation_cache_miss_rows" not in rerun["metrics"]


def test_real_text_translated_by_the_toy_model(tmp_path, toy_model):
    cs = read_lines(taste_data("bitext/tatoeba.cs", 300))[:300]
    en = read_lines(taste_data("bitext/tatoeba.en", 300))[:300]
    (tmp_path / "tatoeba.cs").write_text("\n".join(cs) + "\n")
    (tmp_path / "tatoeba.en").write_text("\n".join(en) + "\n")
    out = tmp_path / "out"
    summary = run_job(_config(*TOY_TRANSLATE, "translate.max_source_tokens=200", "pipeline.translation_cache=false",
                          model=toy_model),
                  [InputSpec.pair(tmp_path / "tatoeba.cs", tmp_path / "tatoeba.en")], out)
    ids = _assert_accounting(out, [f"tatoeba:L{i:012d}" for i in range(1, 301)])
    assert len(ids["pairs"]) > 250  # the toy model's output on real Czech is junk, but it is there
    pairs = _table(out, "pairs").to_pylist()
    by_id = {f"tatoeba:L{i + 1:012d}": (c, e) for i, (c, e) in enumerate(zip(cs, en, strict=True))}
    assert all((r["cs"], r["en"]) == by_id[r["id"]] for r in pairs)
    assert summary["mode"] == "translate" and not (out / "cache").exists()


def _mt_inputs(tmp_path: Path) -> tuple[list[InputSpec], list[str]]:
    """Real text in TSV, JSONL and Parquet with an MT column (the next line's English), plus bad lines."""
    cs = read_lines(taste_data("bitext/tatoeba.cs", 600))[300:600]
    en = read_lines(taste_data("bitext/tatoeba.en", 600))[300:600]
    mt = en[1:] + en[:1]
    ids = []
    tsv = bytearray(b"cs\ten\tmt\tscore\n")
    for i in range(100):
        ids.append(f"real:L{i + 1:012d}")
        tsv += f"{cs[i]}\t{en[i]}\t{mt[i]}\t-0.{i + 1}\n".encode()
    for bad in (b"Dobr\xfd den.\tGood day.\tHello.\t-1\n", b"only one field\n", b"Ahoj.\tHello.\t\t-1\n",
                b"Ahoj\x1b[31m.\tHello.\tHi.\t-1\n"):
        ids.append(f"real:L{len(ids) + 1:012d}")
        tsv += bad
    (tmp_path / "real.tsv").write_bytes(bytes(tsv))
    jsonl = bytearray()
    for i in range(100, 200):
        ids.append(f"real-jsonl:L{i - 99:012d}")
        jsonl += json.dumps({"cs": cs[i], "en": en[i], "mt": mt[i]}, ensure_ascii=False).encode() + b"\n"
    ids.append(f"real-jsonl:L{101:012d}")
    jsonl += b'{"cs": "broken"\n'
    (tmp_path / "real-jsonl.jsonl").write_bytes(bytes(jsonl))
    pq.write_table(pa.table({"cs": cs[200:], "en": en[200:], "mt": mt[200:]}), tmp_path / "real-parquet.parquet",
                   row_group_size=40)
    ids += [f"real-parquet:L{i:012d}" for i in range(1, 101)]
    specs = [InputSpec.tsv(tmp_path / "real.tsv", mt=2, translation_score=3),
             InputSpec.jsonl(tmp_path / "real-jsonl.jsonl", mt="mt"),
             InputSpec.parquet(tmp_path / "real-parquet.parquet", mt="mt")]
    return specs, ids


def test_mt_column_mode_on_tsv_jsonl_and_parquet(tmp_path):
    specs, ids = _mt_inputs(tmp_path)
    out = tmp_path / "out"
    summary = run_job(_config("pipeline.tsv_header=true", "pipeline.mt_model_id=given-mt"), specs, out)
    got = _assert_accounting(out, ids)
    dead, rejected = _reasons(out, "deadletter"), _reasons(out)
    assert sorted(dead.values()) == ["invalid_utf8", "unparseable", "unparseable"]
    assert rejected.get(ids[102]) == "translation_empty" and rejected.get(ids[103]) == "garbage"
    pairs = {r["id"]: r for r in _table(out, "pairs").to_pylist()}
    assert pairs[ids[0]]["translation_score"] == pytest.approx(-0.1) and pairs[ids[0]]["nmt_model_id"] == "given-mt"
    assert pairs[ids[150]]["translation_score"] is None and pairs[ids[150]]["hit_length_cap"] is None
    assert summary["mode"] == "mt_column" and len(got["pairs"]) >= 290


def test_multi_process_runner_with_back_translation(toy_run, tmp_path, capfd):
    """The whole pipeline, NMT included, on FnApiRunner with two worker processes (every DoFn crosses a process
    boundary pickled); it agrees with the in-process run, and the workers log only warnings, as the launcher does."""
    cs_path, en_path, _, config, single, _ = toy_run
    config = config.model_copy(update={"pipeline": config.pipeline.model_copy(update={"translation_cache": False})})
    multi = tmp_path / "multi"
    summary = run_job(config, [InputSpec.pair(cs_path, en_path)], multi,
                  ["--direct_running_mode=multi_processing", "--direct_num_workers=2"])
    n = cs_path.read_bytes().count(b"\n")
    _assert_accounting(multi, [f"toy:L{i:012d}" for i in range(1, n + 1)])
    assert summary["runner"] == "FnApiRunner" and summary["metrics"]["read"] == n
    assert "INFO:apache_beam.runners.worker" not in capfd.readouterr().err
    assert _reasons(multi) == _reasons(single) and _reasons(multi, "deadletter") == _reasons(single, "deadletter")
    one, two = (sorted(_table(o, "pairs").to_pylist(), key=lambda r: r["id"]) for o in (single, multi))
    assert [(r["id"], r["mt"], r["mt_tokens"]) for r in one] == [(r["id"], r["mt"], r["mt_tokens"]) for r in two]
    assert [r["translation_score"] for r in one] == pytest.approx([r["translation_score"] for r in two], abs=1e-3)


def test_a_different_run_needs_overwrite_and_then_replaces_train(tmp_path):
    specs, ids = _mt_inputs(tmp_path)
    out = tmp_path / "out"
    run_job(_config("pipeline.tsv_header=true"), specs, out)
    _assert_accounting(out, ids)
    assert (out / "train").exists()
    # A different run (no selection stage) is refused in a folder that holds this one, unless overwrite: then the
    # stale train/ goes with the rest.
    with pytest.raises(DifferentRun, match=r"holds a different run \(pipeline\.score true -> false\): pass "
                                           r"--overwrite"):
        run_job(_config("pipeline.tsv_header=true", "pipeline.score=false"), specs, out)
    assert (out / "train").exists()
    run_job(_config("pipeline.tsv_header=true", "pipeline.score=false"), specs, out, overwrite=True)
    assert not (out / "train").exists()


def test_cli_short_file_is_a_clear_error_before_any_work(tmp_path, capsys):
    (tmp_path / "a.cs").write_text("jedna\ndva\ntři\n")
    (tmp_path / "a.en").write_text("one\ntwo\n")
    out = tmp_path / "out"
    code = main(["--cs", str(tmp_path / "a.cs"), "--en", str(tmp_path / "a.en"), "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 2
    assert f"{tmp_path / 'a.cs'} has 3 lines" in err and f"{tmp_path / 'a.en'} has 2 lines" in err
    assert not out.exists()


def test_cli_limit_and_allow_misaligned(tmp_path, capsys):
    (tmp_path / "a.cs").write_text("Jedna kočka.\nDva psi.\nTři ptáci.\nČtyři.\n")
    (tmp_path / "a.en").write_text("One cat.\nTwo dogs.\nThree birds.\n")
    (tmp_path / "a.mt").write_text("A cat.\nTwo hounds.\nThree birds.\nFour.\n")
    out = tmp_path / "out"
    args = ["--cs", str(tmp_path / "a.cs"), "--en", str(tmp_path / "a.en"), "--mt", str(tmp_path / "a.mt"),
            "--out", str(out), "--allow-misaligned", "--runner", "BundleBasedDirectRunner"]
    assert main(args) == 0
    stdout = capsys.readouterr().out
    assert f"summary     {out / 'summary.json'}" in stdout and f"{out / 'pairs'}/ (4 shards)" in stdout
    assert _reasons(out, "deadletter") == {"a:L000000000004": "misaligned"}
    assert sorted(_ids(out, "pairs")) == ["a:L000000000001", "a:L000000000002", "a:L000000000003"]
    assert main([*args, "--limit", "2", "--num-shards", "1"]) == 2  # a different run: refused, folder untouched
    assert "holds a different run" in capsys.readouterr().err and len(_ids(out, "pairs")) == 3
    assert main([*args, "--limit", "2", "--num-shards", "1", "--overwrite"]) == 0
    assert sorted(_ids(out, "pairs")) == ["a:L000000000001", "a:L000000000002"]
    assert [p.name for p in (out / "pairs").iterdir()] == ["pairs-00000-of-00001.parquet"]
    summary = json.loads((out / "summary.json").read_text())
    assert summary["read"] == 2 and summary["expected_read"] == 2 and summary["runner"] == "BundleBasedDirectRunner"
    shutil.rmtree(out)


def test_readme_main_job_on_the_bundled_sample(sample_job):
    """The README's main job: the bundled 400-pair sample, back-translated by the bundled real model (small-cs-en,
    beam 12), and its train/ holds real paraphrases, not just files.

    Bands, from the measured run (75 train pairs; mean trigram overlap 0.43, mean paraphrase score 0.96, no train
    pair whose translation equals its reference once case and punctuation are ignored; 22 of 400 pairs copies on
    an AVX-512 machine, 24 on an AVX2 one) with wide margins, and far from the demo model's junk (its train/:
    trigram overlap 0.006, paraphrase score 0.52) and from a model that copies (overlap near 1): trigram overlap in
    [0.2, 0.7], paraphrase score >= 0.8, at most 10% of train/ and 20% of pairs/ copies."""
    import re
    import statistics

    out, stdout = sample_job.folder, sample_job.stdout
    assert "read = pairs + rejected + deadletter: 400 = " in stdout and "-- holds" in stdout
    assert "translation: 400 rows in " in stdout  # the translation's span, first call to last
    assert f"pairs/       {out / 'pairs'}/ (4 shards)" in stdout and f"summary     {out / 'summary.json'}" in stdout
    assert f"card        {out / 'README.md'} " in stdout and (out / "README.md").is_file()
    _assert_accounting(out, [f"sample:L{i:012d}" for i in range(1, 401)])
    meta = S.read_metadata(pq.read_schema(sorted((out / "pairs").glob("*.parquet"))[0]))
    assert meta["config"]["translate"]["beam_size"] == 12 and meta["nmt_model_id"] == "small-cs-en"

    def same(row: dict) -> bool:  # the translation is the reference, up to case, spacing and punctuation
        return re.sub(r"\W+", " ", row["mt"].lower()).strip() == re.sub(r"\W+", " ", row["en"].lower()).strip()

    train, pairs = _table(out, "train").to_pylist(), _table(out, "pairs").to_pylist()
    assert len(train) >= 40 and all(row["mt"].strip() for row in train)
    assert 0.2 <= statistics.mean(row["trigram_overlap"] for row in train) <= 0.7
    assert statistics.mean(row["paraphrase_score"] for row in train) >= 0.8
    assert sum(map(same, train)) <= 0.1 * len(train) and sum(map(same, pairs)) <= 0.2 * len(pairs)
    check = json.loads((out / "summary.json").read_text())["translator_check"]  # in its domain: no warning
    assert check["weak"] is False and check["hint"] is None and "the translator" not in sample_job.stderr


def test_scorer_fitted_in_the_job_equals_the_launchers_fit(tmp_path, monkeypatch):
    """The job fits the scorer on the pre-filter's tokens of the first score.fit_sample English sentences in input
    order, across inputs and worker processes; the launcher's fit (read and tokenise those rows itself, the reference,
    used where a remote worker cannot read the embeddings) gives the same scorer and byte-identical shards."""
    import hashlib

    import pipeline.stages.scorer_fit

    specs, ids = _mt_inputs(tmp_path)
    config = _config("score.fit_sample=150")  # spans the TSV input and the JSONL one
    in_job = run_job(config, specs, tmp_path / "job", ["--direct_running_mode=multi_processing",
                                                    "--direct_num_workers=2"])
    monkeypatch.setattr(pipeline.stages.scorer_fit, "_fits_in_job", lambda score, local: False)
    launcher = run_job(config, specs, tmp_path / "launcher")
    assert in_job["held"]["fit_sample_rows"] == {"max": 150, "sum": 150, "count": 1}
    assert "fit_sample_rows" not in launcher["held"]

    def digests(out: Path) -> dict[str, str]:
        files = [*sorted(out.glob("*/*.parquet")), out / "scorer" / "scorer.npz"]
        return {str(f.relative_to(out)): hashlib.sha256(f.read_bytes()).hexdigest() for f in files}

    assert digests(tmp_path / "job") == digests(tmp_path / "launcher")
    assert S.read_metadata(pq.read_schema(sorted((tmp_path / "job" / "train").glob("*.parquet"))[0]))[
        "scorer_id"].startswith("paragram-")
    # what one worker held in the global steps is on the summary: no bucket or shard is bigger than the input
    held = in_job["held"]
    assert 0 < held["dedup_bucket_rows"]["max"] <= held["dedup_bucket_rows"]["sum"] <= len(ids)
    assert held["shard_pairs_rows"]["sum"] == in_job["pairs"] and held["shard_pairs_bytes"]["max"] > 0


def test_the_launcher_sizes_dedup_buckets_and_lexicon_shards_and_warns_about_big_shards(caplog):
    """A CzEng-sized plan (51.4M counted rows) gets ~50,000-row dedup buckets, ~25,000-pair lexicon
    shards and a warning that names the shard count to use; a small one gets 16 buckets and no warning."""
    import logging

    from configs.schema import LexiconConfig
    from pipeline.analysis.lexicon.transforms import lexicon_shards
    from pipeline.graph import _check_sizes
    from pipeline.inputs.plan import ReadPlan
    from pipeline.stages.dedup import dedup_buckets

    def plan(rows: int) -> ReadPlan:
        return ReadPlan(tasks=[], sources=[], expected_rows=rows, sequential=False, has_mt=False)

    assert dedup_buckets(63_517) == 16 and dedup_buckets(51_400_000) == 1028
    assert lexicon_shards(400, LexiconConfig()) == 1
    assert lexicon_shards(63_517, LexiconConfig()) == 3
    assert lexicon_shards(51_400_000, LexiconConfig()) == 2056
    assert lexicon_shards(51_400_000, LexiconConfig(num_shards=7)) == 7
    with caplog.at_level(logging.WARNING, logger="pipeline.graph"):
        _check_sizes(plan(rows=63_517), num_shards=4)
        assert caplog.records == []
        _check_sizes(plan(rows=51_400_000), num_shards=4)
        _check_sizes(plan(rows=5), num_shards=100_000)  # a zero too many: 100,000 empty files per output
    messages = [r.getMessage() for r in caplog.records]
    assert any("pass --num-shards 26 or more" in m for m in messages), messages
    assert any("100000 shards for 5 input rows" in m and "--num-shards 5 or fewer" in m for m in messages), messages
