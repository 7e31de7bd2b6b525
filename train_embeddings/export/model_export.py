"""``paranmt export``: a trained model for sentence-transformers, or the corpus for the original ParaNMT tooling.

    paranmt export --format sentence-transformers --model runs/word --out exported/word
    paranmt export --format paranmt-tsv --input runs/x/train --out paranmt.tsv.gz [--tokenized]
    paranmt export --format model2vec --model runs/static --out exported/static-m2v

* ``sentence-transformers`` (needs the ``st`` extra):
  :func:`train_embeddings.export.st_export.export_sentence_transformers`;
  load it with ``SentenceTransformer(DIR, trust_remote_code=True)`` where paranmt is installed.
* ``model2vec`` (a ``--model static`` model; needs the ``static`` extra):
  :func:`train_embeddings.export.static_export.export_model2vec`; load it with ``StaticModel.from_pretrained(DIR)``.
* ``paranmt-tsv``: :func:`train_embeddings.training.data.parquet_to_tsv` — ``sentence<TAB>paraphrase<TAB>score`` lines
  like the released ParaNMT-50M files (``.gz`` when the name ends so).

Exit status 0 on success, 2 with a one-line ``error:`` for a bad argument or input.
"""

from __future__ import annotations

from pathlib import Path

from train_embeddings.export.static_export import export_model2vec
from train_embeddings.models.embedding_model import EmbeddingModel
from train_embeddings.models.model_io import load_model

FORMATS = ("sentence-transformers", "model2vec", "paranmt-tsv")


def export_model(model_path: Path, out: Path, format: str = "sentence-transformers",
                 evaluation: Path | None = None) -> str:
    """Export the model at ``model_path`` for sentence-transformers (or model2vec) with its card; returns what was
    written. ``evaluation``: the ``paranmt evaluate --json`` file whose STS figures the card gives."""
    model = load_model(model_path)
    if not isinstance(model, EmbeddingModel):
        raise ValueError(f"{model_path} is a {model!r}: only trained paranmt encoders export to sentence-transformers")
    if format == "model2vec":
        export_model2vec(model, out, model_path, evaluation)
        return f"wrote the {model.dim}-d static table as a model2vec model to {out}"
    # deferred: optional extra (sentence-transformers), and the TSV export must work without it
    from train_embeddings.export.st_export import export_sentence_transformers

    export_sentence_transformers(model, out, model_path, evaluation)
    return f"wrote {'+'.join(model.spec.components)} ({model.dim}-d) as a sentence-transformers model to {out}"

