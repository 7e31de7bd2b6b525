"""``paranmt lexicon``: each bad input to build and neighbours is one line naming the fix (the lexicon's counts,
shards and evaluation are tests/pipeline/analysis/lexicon/'s)."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.parquet as pq

from paranmt.cli.lexicon_command import main
from tests.support.lexicon_pairs import token_pairs


def test_clear_errors_for_bad_input(tmp_path, capsys):
    assert main(["build", "--input", str(tmp_path / "absent"), "--out", str(tmp_path / "o"), "--quiet"]) == 2
    assert "does not exist" in capsys.readouterr().err
    (tmp_path / "empty").mkdir()
    assert main(["build", "--input", str(tmp_path / "empty"), "--out", str(tmp_path / "o"), "--quiet"]) == 2
    assert "no Parquet file" in capsys.readouterr().err
    pq.write_table(pa.table({"en_tokens": [["a"]]}), tmp_path / "bad.parquet")
    assert main(["build", "--input", str(tmp_path / "bad.parquet"), "--out", str(tmp_path / "o"), "--quiet"]) == 2
    assert "missing columns ['mt_tokens', 'paraphrase_score']" in capsys.readouterr().err
    low = token_pairs([["a"]], [["b"]], paraphrase_score=pa.array([0.1], pa.float32()))
    pq.write_table(low, tmp_path / "low.parquet")
    assert main(["build", "--input", str(tmp_path / "low.parquet"), "--out", str(tmp_path / "o"), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "no pair passed the lexicon filter" in err and "--no-score" not in err  # scored, all below min_score
    unscored = token_pairs([["a"]], [["b"]], paraphrase_score=pa.array([None], pa.float32()))
    pq.write_table(unscored, tmp_path / "ns.parquet")
    assert main(["build", "--input", str(tmp_path / "ns.parquet"), "--out", str(tmp_path / "o"), "--quiet"]) == 2
    assert "(the pairs/ of a --no-score run?)" in capsys.readouterr().err
    assert main(["build", "--input", str(tmp_path / "low.parquet"), "--out", str(tmp_path / "o"), "--quiet",
                 "--set", "lexicon.top_k=0"]) == 2
    assert "lexicon.top_k" in capsys.readouterr().err
    assert main(["neighbours", "--lexicon", str(tmp_path), "x"]) == 2
    assert "holds no lexicon table" in capsys.readouterr().err
