"""Questions to a written lexicon (pipeline/analysis/lexicon/query.py): a word's paraphrases, in Python and from the
command line."""

from __future__ import annotations

from paranmt.cli.lexicon_command import main
from pipeline.analysis.lexicon.query import neighbours


def test_neighbours_of_a_built_lexicon(caption_lexicon, capsys):
    best = neighbours(caption_lexicon, "Bicycle", k=5, min_joint=5)
    assert "bike" in best.column("v").to_pylist()
    assert best.column("pmi_adj").to_pylist() == sorted(best.column("pmi_adj").to_pylist(), reverse=True)
    assert main(["neighbours", "--lexicon", str(caption_lexicon), "bicycle", "zzzz", "-k", "3"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("bicycle\t") and out[1] == "zzzz\t-"
