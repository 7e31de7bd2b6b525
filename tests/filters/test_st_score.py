"""filters.st_score: the sentence-transformers cosine -- refused on the launcher when the extra or the model is
missing (one line saying how to fix it), and (slow: it loads torch and all-MiniLM-L6-v2) a paraphrase scoring above
an unrelated pair, a sentence 1 with itself, null sides null, the same cosine in any batch size."""

from __future__ import annotations

import importlib.util

import pyarrow as pa
import pytest
from pydantic import ValidationError

from filters import st_score
from filters.st_score import DEFAULT_MODEL, SentenceTransformerCosine
from tests.support.taste_data import taste_pairs


def test_a_folder_that_is_not_a_sentence_transformers_model_is_refused(tmp_path):
    if importlib.util.find_spec("sentence_transformers") is None:
        pytest.skip("the st extra is not installed")
    with pytest.raises(ValidationError, match=rf"model {tmp_path} is not a sentence-transformers model directory "
                                              r"\(no modules.json\)"):
        SentenceTransformerCosine(model=str(tmp_path))
    (tmp_path / "modules.json").write_text("[]", encoding="utf-8")
    assert SentenceTransformerCosine(model=str(tmp_path), column="mine").fields[0].name == "mine"


def test_a_missing_extra_says_how_to_install_it(monkeypatch):
    real = importlib.util.find_spec

    def without(name: str, *args):
        return None if name in ("sentence_transformers", st_score.MINILM_MODULE) else real(name, *args)

    monkeypatch.setattr(st_score.importlib.util, "find_spec", without)
    with pytest.raises(ValidationError, match=r"sentence-transformers is not installed: PIP_CONSTRAINT=constraints"
                                              r"\.txt pip install -e '\.\[st\]'"):
        SentenceTransformerCosine()


@pytest.mark.slow
def test_the_cosine_ranks_a_paraphrase_above_an_unrelated_pair():
    if importlib.util.find_spec(st_score.MINILM_MODULE) is None:
        pytest.skip(f"{DEFAULT_MODEL} is not installed (the st extra)")
    _, en, mt = taste_pairs(40)
    table = pa.table({"en": [*en, en[0], None], "mt": [*mt, en[0], "x"]})
    score = SentenceTransformerCosine(batch_size=7)
    cosine = score.score(table)["st_cosine"].to_pylist()
    assert cosine[-1] is None and cosine[-2] == pytest.approx(1.0, abs=1e-5)
    unrelated = score.cosines(en[:20], mt[20:40])
    assert sum(c > u for c, u in zip(cosine[:20], unrelated, strict=True)) >= 18
    one_by_one = SentenceTransformerCosine(batch_size=1).score(table)["st_cosine"].to_pylist()
    assert one_by_one[:-1] == pytest.approx(cosine[:-1], abs=1e-5)
