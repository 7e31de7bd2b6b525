"""pipeline.analysis.corpus_report: Table 1 statistics, Table 3 bins, plots and the CLI, by hand and on real
../shared/data slices."""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from paranmt.cli.report_command import main
from paranmt.core.pair_schema import (
    EN,
    EN_TOKENS,
    MT,
    MT_TOKENS,
    PARAPHRASE_SCORE,
    TRANSLATION_SCORE,
    TRIGRAM_OVERLAP,
    with_metadata,
)
from pipeline.analysis import corpus_report as report
from pipeline.analysis.corpus_report import (
    NA,
    Entropy,
    ParserUnavailable,
    Stat,
    build_report,
    decile_boundaries,
    idf_stats,
    idf_table,
    length_stats,
    score_bins,
    sentence_idf,
    side_stats,
    spacy_template_parser,
    table1,
    template_entropy,
    vocabulary_entropy,
)
from tests.support.taste_data import TASTE_DATA, taste_pairs
from tests.support.text_files import read_lines

TOKENS = pa.list_(pa.string())
REAL_LINES = 2000  # per corpus
REAL_PARSE = 150  # parsed rows per corpus: keeps spaCy to a few seconds
HELP_LINES = 300  # the bundled LibreOffice help excerpt's length


def tokens(rows: list[list[str] | None]) -> pa.Array:
    return pa.array(rows, TOKENS)


# ------------------------------------------------------------------------------------------- hand-computed


def test_length_stats_by_hand():
    stat = length_stats(tokens([["a", "b", "c"], [], None, ["d"]]))  # the null row is skipped, [] counts 0
    assert isinstance(stat, Stat)
    assert stat.n == 3
    assert stat.mean == pytest.approx(4 / 3)
    assert stat.sd == pytest.approx(np.std([3, 0, 1]))
    assert isinstance(length_stats(tokens([None])), NA)


def test_idf_by_hand_over_the_input_itself():
    # N = 4 documents (the empty one included); lower-cased: df(a) = 3, df(b) = 1, df(c) = 1.
    corpus = tokens([["a", "b", "a"], ["A", "c"], ["a"], [], None])
    table = idf_table(corpus)
    idf = dict(zip(table.words.to_pylist(), table.idf, strict=True))
    assert table.n_documents == 4
    assert idf == pytest.approx({"a": math.log(4 / 3), "b": math.log(4), "c": math.log(4)})
    # Per sentence: the mean over token occurrences ("a" counts twice in the first one).
    expected = [(2 * math.log(4 / 3) + math.log(4)) / 3, (math.log(4 / 3) + math.log(4)) / 2, math.log(4 / 3)]
    per_sentence = sentence_idf(corpus)
    assert per_sentence[:3] == pytest.approx(expected)
    assert np.isnan(per_sentence[3:]).all()  # empty and null sentences have no IDF
    stat = idf_stats(corpus)
    assert (stat.mean, stat.sd, stat.n) == pytest.approx((np.mean(expected), np.std(expected), 3))


def test_idf_from_an_external_collection_gives_unseen_words_df_one():
    collection = idf_table(tokens([["the", "cat"], ["the", "dog"], ["a", "bird"], ["the"]]))  # N = 4
    values = sentence_idf(tokens([["The", "cat"], ["zebra"]]), collection)
    assert values == pytest.approx([(math.log(4 / 3) + math.log(4)) / 2, math.log(4)])


def test_vocabulary_entropy_by_hand():
    corpus = tokens([["a", "A", "b"], ["c"], None])  # lower-cased: a 1/2, b 1/4, c 1/4
    nats = vocabulary_entropy(corpus)
    assert isinstance(nats, Entropy)
    assert (nats.unit, nats.n, nats.types) == ("nats", 4, 3)
    assert nats.value == pytest.approx(1.5 * math.log(2))
    bits = vocabulary_entropy(corpus, base=2)
    assert (bits.unit, bits.value) == ("bits", pytest.approx(1.5))
    assert vocabulary_entropy(corpus, lowercase=False).value == pytest.approx(-4 * 0.25 * math.log(0.25))
    assert isinstance(vocabulary_entropy(tokens([[], None])), NA)


def test_template_entropy_by_hand():
    result = template_entropy(["VERB nsubj dobj punct", "VERB nsubj dobj punct", "NOUN det", ""])  # "" skipped
    assert isinstance(result, Entropy)
    assert (result.n, result.types) == (3, 2)
    assert result.value == pytest.approx(-(2 / 3 * math.log(2 / 3) + 1 / 3 * math.log(1 / 3)))
    assert result.top == [("VERB nsubj dobj punct", 2), ("NOUN det", 1)]
    assert isinstance(template_entropy(["", ""]), NA)


def test_parse_entropy_with_a_fake_parser_samples_the_same_rows_on_both_sides():
    en = [f"en sentence {i}" for i in range(50)]
    mt = [f"mt sentence {i}" for i in range(50)]
    table = pa.table({EN: en, MT: mt, EN_TOKENS: tokens([s.split() for s in en]),
                      MT_TOKENS: tokens([s.split() for s in mt])})
    seen: list[list[str]] = []

    def fake(texts):
        seen.append(list(texts))
        # Hand-made templates: even rows one template, odd rows another.
        return ["VERB nsubj" if int(t.split()[-1]) % 2 == 0 else "NOUN det" for t in texts]

    t1 = table1(table, parser=fake, max_parse=10, seed=3)
    assert [len(batch) for batch in seen] == [10, 10]
    rows = [[int(t.split()[-1]) for t in batch] for batch in seen]
    assert rows[0] == rows[1]  # the same pairs parsed on both sides
    even = sum(r % 2 == 0 for r in rows[0]) / 10
    for side in (EN, MT):
        parse = t1["sides"][side].parse_entropy
        assert isinstance(parse, Entropy) and parse.n == 10
        assert parse.value == pytest.approx(-sum(p * math.log(p) for p in (even, 1 - even) if p))
    # Seeded: the same seed parses the same rows.
    seen.clear()
    table1(table, parser=fake, max_parse=10, seed=3)
    assert [int(t.split()[-1]) for t in seen[0]] == rows[0]


def test_real_spacy_templates_on_three_sentences():
    try:
        parse = spacy_template_parser()
    except ParserUnavailable as error:
        pytest.skip(str(error))
    templates = parse(["The cat ate the fish.", "I love you.", "Hello world. How are you?"])
    assert templates[:2] == ["VERB nsubj dobj punct", "VERB nsubj dobj punct"]
    # Two sentences in one line: two templates joined; each is a POS tag then dependency labels.
    parts = templates[2].split(" | ")
    assert len(parts) == 2
    for part in parts:
        pos, *labels = part.split()
        assert pos.isupper() and labels and all(re.fullmatch(r"[a-z:]+", label) for label in labels)


def test_a_missing_parser_is_reported_not_raised(tmp_path, monkeypatch):
    with pytest.raises(ParserUnavailable, match="no_such_pipeline"):
        spacy_template_parser("no_such_pipeline")

    def unavailable(*args, **kwargs):
        raise ParserUnavailable("no English spaCy pipeline with a parser (test)")

    monkeypatch.setattr(report, "spacy_template_parser", unavailable)
    table = pa.table({EN_TOKENS: tokens([["a", "b"], ["c"]])})
    result = build_report(table, tmp_path, max_parse=10)
    parse = result["corpora"]["corpus"]["table1"]["sides"][EN]["parse_entropy"]
    assert parse == {"na": "no English spaCy pipeline with a parser (test)"}
    assert "no English spaCy pipeline with a parser (test)" in (tmp_path / "report.md").read_text()
    assert side_stats(table, EN, max_parse=0).parse_entropy == NA("parsing disabled (max_parse=0)")


# -------------------------------------------------------------------------------------------------- Table 3


def test_table3_bins_are_left_exclusive_right_inclusive_and_count_every_pair():
    scores = [-0.5, -0.1, -0.09, 0.2, 0.2001, 0.4, 0.55, 0.6, 0.8, 0.81, 1.0, 1.2, None, math.nan]
    overlap = [0.0, 0.1, 0.2, 0.4, 0.3, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 0.0, 0.5, 0.5]
    table = pa.table({PARAPHRASE_SCORE: pa.array(scores, pa.float32()),  # float32 0.2 belongs to (-0.1, 0.2]
                      TRIGRAM_OVERLAP: pa.array(overlap, pa.float32())})
    bins = score_bins(table)
    by_label = {b.label: b for b in bins}
    assert list(by_label) == ["(-0.1, 0.2]", "(0.2, 0.4]", "(0.4, 0.6]", "(0.6, 0.8]", "(0.8, 1.0]",
                              "<= -0.1", "> 1.0", "missing"]
    assert {label: b.count for label, b in by_label.items()} == {
        "(-0.1, 0.2]": 2, "(0.2, 0.4]": 2, "(0.4, 0.6]": 2, "(0.6, 0.8]": 1, "(0.8, 1.0]": 2,
        "<= -0.1": 2, "> 1.0": 1, "missing": 2}
    assert sum(b.count for b in bins) == len(scores)
    assert sum(b.fraction for b in bins) == pytest.approx(1.0)
    first = by_label["(-0.1, 0.2]"].trigram_overlap  # overlaps 0.2 and 0.4
    assert (first.mean, first.sd, first.n) == pytest.approx((0.3, 0.1, 2))
    top = by_label["(0.8, 1.0]"].trigram_overlap  # 0.9 and 1.0
    assert (top.mean, top.sd) == pytest.approx((0.95, 0.05))
    assert by_label["(0.6, 0.8]"].trigram_overlap.sd == 0.0
    # float64 scores use float64 edges; every pair still counted once.
    as64 = score_bins(table.set_column(0, PARAPHRASE_SCORE, pa.array(scores, pa.float64())))
    assert sum(b.count for b in as64) == len(scores)


def test_table3_without_trigram_overlap_or_scores():
    table = pa.table({PARAPHRASE_SCORE: pa.array([0.5, 0.9], pa.float32())})
    bins = score_bins(table)
    assert bins[2].count == 1 and bins[2].trigram_overlap == NA(f"column {TRIGRAM_OVERLAP} absent")
    assert score_bins(pa.table({"x": [1]})) == NA(f"column {PARAPHRASE_SCORE} absent")
    with pytest.raises(ValueError, match="increase"):
        score_bins(table, edges=(0.0, 0.5, 0.5))


def test_decile_boundaries():
    table = pa.table({PARAPHRASE_SCORE: pa.array(np.arange(101) / 100, pa.float64())})
    assert decile_boundaries(table) == pytest.approx([0.1 * k for k in range(1, 10)])
    assert isinstance(decile_boundaries(pa.table({"x": [1]})), NA)


# ------------------------------------------------------------------------------------ missing columns, CLI


def test_missing_columns_are_reported_with_reasons(tmp_path):
    table = pa.table({EN_TOKENS: tokens([["a", "b"], ["c"]])})
    result = build_report(table, tmp_path, max_parse=0)
    corpus = result["corpora"]["corpus"]
    assert corpus["table1"]["paraphrase_score"] == {"na": f"column {PARAPHRASE_SCORE} absent"}
    assert corpus["table1"]["sides"][MT]["length"] == {"na": f"column {MT_TOKENS} absent"}
    assert corpus["table3"] == {"na": f"column {PARAPHRASE_SCORE} absent"}
    assert corpus["fold_boundaries"] == {"na": f"column {PARAPHRASE_SCORE} absent"}
    assert corpus["plots"] == {}
    markdown = (tmp_path / "report.md").read_text()
    assert "n/a [1]" in markdown and f"[1] column {PARAPHRASE_SCORE} absent" in markdown
    assert f"Sides not shown: corpus mt (column {MT_TOKENS} absent)" in markdown


def test_an_empty_table_reports_without_errors(tmp_path):
    empty = pa.table({EN_TOKENS: tokens([]), PARAPHRASE_SCORE: pa.array([], pa.float32()),
                      TRIGRAM_OVERLAP: pa.array([], pa.float32())})
    result = build_report(empty, tmp_path, max_parse=5)
    corpus = result["corpora"]["corpus"]
    assert corpus["table1"]["sides"][EN]["length"] == {"na": "no sentences"}
    assert corpus["table1"]["sides"][EN]["parse_entropy"] == {"na": "no non-empty sentences to parse"}
    assert sum(row["count"] for row in corpus["table3"]) == 0
    assert (tmp_path / "report.md").is_file()


def test_an_all_null_score_column_gets_no_plot(tmp_path):
    table = pa.table({EN_TOKENS: tokens([["a", "b", "c"]] * 4), TRANSLATION_SCORE: pa.nulls(4, pa.float32()),
                      PARAPHRASE_SCORE: pa.array([0.1, 0.5, 0.7, 0.9], pa.float32())})
    plots = build_report(table, tmp_path, max_parse=0)["corpora"]["corpus"]["plots"]
    assert "hist_paraphrase_score" in plots and "hist_translation_score" not in plots
    assert not list(tmp_path.glob("*translation_score*.png"))


def test_cli_on_a_directory_of_shards(tmp_path, capsys):
    rng = np.random.default_rng(0)
    shards = tmp_path / "pairs"
    shards.mkdir()
    for k in range(2):
        n = 40
        en = [f"the cat number {i} sat on the mat ." for i in range(n)]
        mt = [f"a cat {i} was sitting on a mat ." for i in range(n)]
        table = pa.table({EN: en, MT: mt, EN_TOKENS: tokens([s.split() for s in en]),
                          MT_TOKENS: tokens([s.split() for s in mt]),
                          TRANSLATION_SCORE: pa.array(rng.normal(-0.8, 0.3, n), pa.float32()),
                          TRIGRAM_OVERLAP: pa.array(rng.uniform(0, 0.5, n), pa.float32()),
                          PARAPHRASE_SCORE: pa.array(rng.uniform(-0.2, 1.0, n), pa.float32())})
        table = table.replace_schema_metadata(with_metadata(table.schema, nmt_model_id="demo").metadata)
        pq.write_table(table, shards / f"part-{k}.parquet")
    out = tmp_path / "report"
    assert main(["--input", str(shards), "--out", str(out), "--max-parse", "0", "--seed", "1"]) == 0
    printed = capsys.readouterr().out
    assert "| Dataset | Side | Avg. Length" in printed and "| Para. Score Range |" in printed
    assert str(out / "report.json") in printed
    saved = json.loads((out / "report.json").read_text())
    assert saved["corpora"]["pairs"]["table1"]["size"] == 80
    assert saved["corpora"]["pairs"]["metadata"]["nmt_model_id"] == "demo"
    assert sum(row["count"] for row in saved["corpora"]["pairs"]["table3"]) == 80
    assert len(saved["corpora"]["pairs"]["fold_boundaries"]) == 9
    assert set(saved["corpora"]["pairs"]["plots"]) == {"hist_translation_score", "hist_trigram_overlap",
                                                       "hist_paraphrase_score", "scatter_paraphrase_vs_trigram"}
    check_pngs(out, saved["files"]["plots"])


def test_fold_boundaries_can_be_given(tmp_path):
    table = pa.table({PARAPHRASE_SCORE: pa.array([0.1, 0.5, 0.9], pa.float32())})
    result = build_report(table, tmp_path, max_parse=0, fold_boundaries=[0.3, 0.7])
    assert result["corpora"]["corpus"]["fold_boundaries"] == [0.3, 0.7]
    assert (tmp_path / "corpus.hist_paraphrase_score.png").is_file()


# -------------------------------------------------------------------------------------------- real slices


@pytest.fixture(scope="module")
def moses():
    from sacremoses import MosesTokenizer

    tokenizer = MosesTokenizer(lang="en")
    return lambda line: tokenizer.tokenize(line, escape=False)


def tokenised(lines: list[str], tokenize) -> pa.Array:
    return tokens([tokenize(line) for line in lines])


def trigram_overlap(a: list[str], b: list[str]) -> float:
    """The paper's footnote 6: shared trigrams / trigrams of the side with fewer."""
    ta = Counter(zip(a, a[1:], a[2:], strict=False))
    tb = Counter(zip(b, b[1:], b[2:], strict=False))
    fewer = min(sum(ta.values()), sum(tb.values()))
    return sum((ta & tb).values()) / fewer if fewer else 0.0


def bag_cosine(a: list[str], b: list[str]) -> float:
    ca, cb = Counter(a), Counter(b)
    dot = sum(ca[w] * cb[w] for w in ca)
    norm = math.sqrt(sum(v * v for v in ca.values()) * sum(v * v for v in cb.values()))
    return dot / norm if norm else 0.0


def check_pngs(out: Path, files: list[str]) -> None:
    from PIL import Image

    assert files
    for name in files:
        path = out / name
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        with Image.open(path) as image:
            image.verify()
        with Image.open(path) as image:
            assert image.size[0] > 300 and image.size[1] > 200


def test_report_on_tatoeba_vs_software_help(tmp_path, moses):
    """Two real corpora of other domains (the bundled excerpts, 300 lines each): Tatoeba's short everyday sentences
    and LibreOffice help paragraphs."""
    corpora = {}
    for name, path in (("tatoeba", "bitext/tatoeba.en"), ("help", "bitext-software/libreoffice-help.en")):
        lines = read_lines(TASTE_DATA / path)[:HELP_LINES]
        corpora[name] = pa.table({EN: lines, EN_TOKENS: tokenised(lines, moses)})
    result = build_report(corpora, tmp_path, max_parse=REAL_PARSE, seed=0)
    assert (tmp_path / "report.json").is_file() and (tmp_path / "report.md").is_file()
    saved = json.loads((tmp_path / "report.json").read_text())
    assert set(saved) >= {"report_version", "definitions", "settings", "corpora", "files", "markdown"}
    assert set(saved["corpora"]) == {"tatoeba", "help"}
    tat, soft = (saved["corpora"][n]["table1"]["sides"][EN] for n in ("tatoeba", "help"))
    for side in (tat, soft):
        assert set(side) == {"side", "size", "length", "idf", "vocabulary_entropy", "parse_entropy"}
        assert side["size"] == HELP_LINES
        if "na" in side["parse_entropy"]:
            pytest.skip(side["parse_entropy"]["na"])
        assert side["parse_entropy"]["n"] == REAL_PARSE and side["parse_entropy"]["unit"] == "nats"
    # In the spirit of Table 1: help paragraphs are longer, use rarer words and a larger vocabulary than Tatoeba's
    # short everyday sentences, and their parses are more varied.
    assert soft["length"]["mean"] > 1.5 * tat["length"]["mean"]
    assert soft["idf"]["mean"] > tat["idf"]["mean"]
    assert soft["vocabulary_entropy"]["value"] > tat["vocabulary_entropy"]["value"]
    assert soft["parse_entropy"]["value"] > tat["parse_entropy"]["value"]
    # Monolingual slices: the translation side and the scores are missing, with reasons, not errors.
    assert saved["corpora"]["tatoeba"]["table1"]["sides"][MT]["idf"] == {"na": f"column {MT_TOKENS} absent"}
    assert saved["corpora"]["tatoeba"]["table3"] == {"na": f"column {PARAPHRASE_SCORE} absent"}
    assert "| tatoeba | en |" in result["markdown"]["table1"]
    assert "| help | en |" in result["markdown"]["table1"]


def test_report_on_real_pairs(tmp_path, moses):
    _, first, second = taste_pairs(REAL_LINES)  # the bundled back-translation pairs, every clone
    en, mt = tokenised(first, moses), tokenised(second, moses)
    lower = [([w.lower() for w in a], [w.lower() for w in b]) for a, b in zip(en.to_pylist(), mt.to_pylist(),
                                                                             strict=True)]
    table = pa.table({EN: first, MT: second, EN_TOKENS: en, MT_TOKENS: mt,
                      TRIGRAM_OVERLAP: pa.array([trigram_overlap(a, b) for a, b in lower], pa.float32()),
                      PARAPHRASE_SCORE: pa.array([bag_cosine(a, b) for a, b in lower], pa.float32())})
    result = build_report(table, tmp_path, name="tatoeba pairs", max_parse=REAL_PARSE, seed=0,
                          scatter_points=1000)
    corpus = result["corpora"]["tatoeba pairs"]
    assert set(corpus["plots"]) == {"hist_trigram_overlap", "hist_paraphrase_score", "scatter_paraphrase_vs_trigram"}
    check_pngs(tmp_path, result["files"]["plots"])
    assert result["files"]["plots"] == [f"tatoeba_pairs.{key}.png" for key in corpus["plots"]]
    sides = corpus["table1"]["sides"]
    assert sides[EN]["size"] == sides[MT]["size"] == REAL_LINES
    para = corpus["table1"]["paraphrase_score"]
    assert para["n"] == REAL_LINES and 0 < para["mean"] < 1
    # Table 3: every pair counted once, and pairs with higher scores overlap more (as in the paper).
    rows = corpus["table3"]
    assert sum(row["count"] for row in rows) == REAL_LINES
    means = [row["trigram_overlap"]["mean"] for row in rows[:5] if row["count"] >= 20]
    assert len(means) >= 3 and means == sorted(means)
    assert len(corpus["fold_boundaries"]) == 9 and corpus["fold_boundaries"] == sorted(corpus["fold_boundaries"])
    markdown = (tmp_path / "report.md").read_text()
    assert "| tatoeba pairs | en |" in markdown and "| (0.8, 1.0] |" in markdown
