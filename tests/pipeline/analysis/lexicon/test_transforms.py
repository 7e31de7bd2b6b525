"""The lexicon as a Beam branch: ``pipeline.run`` with ``lexicon.enabled`` writes the same files as the stand-alone
command over the run's own ``pairs/`` shards (explicitly named local runners: Beam 2.77's default downloads Prism)."""

from __future__ import annotations

import json
from pathlib import Path

import apache_beam as beam
import pyarrow as pa
import pyarrow.parquet as pq

from configs import load_config
from configs.schema import LexiconConfig
from pipeline.analysis.lexicon.counting import build_from_parquet, build_from_tables
from pipeline.analysis.lexicon.pmi import compute_lexicon
from pipeline.analysis.lexicon.shards import lexicon_files, write_outputs
from pipeline.analysis.lexicon.transforms import BuildLexicon
from pipeline.inputs.plan import InputSpec
from pipeline.job import run_job
from pipeline.outputs.summary import format_table
from tests.support.taste_data import taste_pairs


def _pairs_tsv(tmp_path: Path, n: int = 400) -> Path:
    """Real text: Tatoeba Czech sentence i, its English sentence, and the default model's translation of the Czech
    as the given translation (mt-column mode: no NMT stage; bundled, support/taste_data.py:taste_pairs); a few bad lines
    the pipeline rejects or dead-letters."""
    cs, en, mt = taste_pairs(n)
    lines = ["cs\ten\tmt"] + [f"{c}\t{e}\t{m}" for c, e, m in zip(cs, en, mt, strict=True)]
    lines += ["Ahoj.\tHello.\t", "only one field"]
    path = tmp_path / "pairs.tsv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_pipeline_branch_equals_the_stand_alone_command(tmp_path):
    tsv = _pairs_tsv(tmp_path)
    overrides = ["pipeline.tsv_header=true", "pipeline.score=false", "pipeline.num_shards=3",
                 "lexicon.enabled=true", "lexicon.min_score=null", "lexicon.min_joint=3", "lexicon.batch_pairs=50",
                 "lexicon.chunk_keys=5000", "lexicon.num_shards=2"]
    config = load_config(None, overrides)
    out = tmp_path / "run"
    summary = run_job(config, [InputSpec.tsv(tsv, mt=2)], out)
    lexicon = summary["lexicon"]
    assert summary["identity"]["holds"] and lexicon["read"] == summary["pairs"] > 350
    assert lexicon["read"] == lexicon["used"] + sum(lexicon["skipped"].values())
    assert f"pairs counted of {lexicon['read']}" in format_table(summary)
    assert sorted(p.name for p in (out / "lexicon").iterdir()) == ["lexicon-00000-of-00002.parquet",
                                                                   "lexicon-00001-of-00002.parquet", "stats.json",
                                                                   "top_k.tsv", "vocabulary.parquet"]
    # The stand-alone path over the run's pairs/ shards gives the same shards, vocabulary and top-k list.
    counts, vocab, marginals = build_from_parquet([out / "pairs"], config.lexicon, progress=False)
    alone = tmp_path / "alone"
    stats = write_outputs(alone, counts, vocab, marginals, config.lexicon)
    assert stats == lexicon and stats["lexicon_shards"] == 2
    for name in ("lexicon-00000-of-00002.parquet", "lexicon-00001-of-00002.parquet", "vocabulary.parquet"):
        beam_table, alone_table = pq.read_table(out / "lexicon" / name), pq.read_table(alone / name)
        assert beam_table.num_rows > 0 and beam_table.equals(alone_table), name
    assert (out / "lexicon" / "top_k.tsv").read_text() == (alone / "top_k.tsv").read_text()
    meta = json.loads((out / "lexicon" / "stats.json").read_text())
    assert meta["config"]["lexicon"]["enabled"] is True and meta["lexicon_config"]["min_joint"] == 3
    assert meta["code_version"] and meta["mode"] == "mt_column"  # the run's metadata is echoed
    # Without the switch it is another run: replacing it (--overwrite) removes the stale lexicon/.
    run_job(load_config(None, overrides[:3]), [InputSpec.tsv(tsv, mt=2)], out, overwrite=True)
    assert not (out / "lexicon").exists()


def test_transform_on_many_bundles_and_two_worker_processes(tmp_path):
    """BuildLexicon alone, on the multi-process FnApiRunner (every accumulator crosses a process boundary
    pickled): same lexicon as the in-memory core."""
    _, en_lines, mt_lines = taste_pairs(600)
    en, mt = [line.split() for line in en_lines[300:]], [line.split() for line in mt_lines[300:]]
    config = LexiconConfig(min_score=None, batch_pairs=16, chunk_keys=2000)
    batches = [pa.table({"en_tokens": en[start:start + 16], "mt_tokens": mt[start:start + 16]})
               for start in range(0, len(en), 16)]
    options = beam.options.pipeline_options.PipelineOptions(
        ["--runner=FnApiRunner", "--direct_running_mode=multi_processing", "--direct_num_workers=2"])
    with beam.Pipeline(options=options) as p:
        _ = p | beam.Create(batches, reshuffle=True) | BuildLexicon(config, str(tmp_path / "beam"), num_shards=3)
    counts, vocab, _ = build_from_tables([pa.table({"en_tokens": en, "mt_tokens": mt})], config)
    expected = compute_lexicon(counts, vocab, config)
    shards = [pq.read_table(f) for f in lexicon_files(tmp_path / "beam")]
    assert len(shards) == 3 and all(s.num_rows for s in shards)
    assert pa.concat_tables(shards).replace_schema_metadata().equals(expected) and expected.num_rows > 1000


def test_cli_switch(tmp_path, capsys):
    from pipeline.run import main

    tsv = _pairs_tsv(tmp_path, 120)
    out = tmp_path / "cli"
    assert main(["--tsv", str(tsv), "--tsv-header", "--mt-column", "2", "--no-score", "--lexicon", "--out",
                 str(out), "--set", "lexicon.min_score=null", "--set", "pipeline.num_shards=2"]) == 0
    printed = capsys.readouterr().out
    assert "lexicon/" in printed and "pairs counted of" in printed
    summary = json.loads((out / "summary.json").read_text())
    assert summary["lexicon"]["read"] == summary["pairs"] and (out / "lexicon" / "top_k.tsv").exists()
