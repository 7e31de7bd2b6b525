"""A trained ``static`` model as a model2vec directory (``StaticModel.from_pretrained(dir)``; the ``static``
extra's model2vec): its trained table and its teacher's tokenizer, the same mean over pieces, so model2vec's
``encode(..., normalize=False)`` equals paranmt's ``encode`` (model2vec's default normalises the vectors, which
leaves every cosine unchanged)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from huggingface_hub import EvalResult

from paranmt.core.run_layout import CARD_FILE  # README.md: the card the library writes
from train_embeddings.export.model_card import ModelFacts, card_section, model_facts, sts_sets, with_section
from train_embeddings.models.embedding_model import EmbeddingModel
from train_embeddings.models.model_dir import staged_directory
from train_embeddings.static.teacher import STATIC, import_model2vec

__all__ = ["export_model2vec", "static_table"]


def static_table(model: EmbeddingModel) -> np.ndarray:
    """The trained table (float32, one row per teacher token) of a static-only model."""
    if not isinstance(model, EmbeddingModel) or model.spec.components != [STATIC] or model.static is None:
        raise ValueError(f"{model!r} is not a static-only model: only --model static exports as a static table")
    return model.encoder.parts[STATIC].embedding.weight.detach().float().cpu().numpy()


def _eval_results(facts: ModelFacts) -> list[EvalResult]:
    """The STS figures as the Hub's ``model-index`` entries (huggingface_hub's ``EvalResult``), as recorded."""
    results = []
    for sts_set in sts_sets(facts.sts) if facts.sts is not None else []:
        for metric, value in (("spearman_cosine", sts_set.spearman), ("pearson_cosine", sts_set.pearson)):
            if value is not None:
                results.append(EvalResult(task_type="sentence-similarity", dataset_type=sts_set.task.lower(),
                                          dataset_name=sts_set.label, metric_type=metric, metric_value=value,
                                          task_name="Semantic Similarity"))
    return results


def export_model2vec(model: EmbeddingModel, directory: str | Path, source: Path | None = None,
                     evaluation: Path | None = None) -> Path:
    """Write ``model`` (static only; loaded from ``source``) as a model2vec directory with its card (replacing one
    that exists); returns it. ``evaluation``: as :func:`~train_embeddings.export.model_card.model_facts`."""
    table = static_table(model)
    from tokenizers import Tokenizer  # with the static extra, like model2vec

    model2vec = import_model2vec()
    exported = model2vec.StaticModel(vectors=table, tokenizer=Tokenizer.from_str(model.static.tokenizer_json),  # type: ignore[union-attr]
                                     config={"model_type": "model2vec", "architectures": ["StaticModel"],
                                             "hidden_dim": int(table.shape[1]), "normalize": True,
                                             "pooling": "mean"},
                                     normalize=True, base_model_name=None)
    facts = model_facts(model, source, evaluation)
    load = ("from model2vec import StaticModel\n\n"
            "model = StaticModel.from_pretrained(\"path/to/this/folder\")  # or the Hub id it is uploaded as\n"
            "embeddings = model.encode([\"A man is playing a guitar.\"], normalize=False)  # = paranmt's encode")
    directory = Path(directory)
    with staged_directory(directory) as staging:
        exported.save_pretrained(staging)
        # model2vec's own card (its template, its ModelCardData keys), filled from the facts, then the section
        model2vec.modelcards.create_model_card(
            staging, base_model_name=None, license=facts.corpus.license if facts.corpus else None, language=["en"],
            model_name=f"paranmt static encoder ({facts.name})", eval_results=_eval_results(facts) or None,
            tags=["embeddings", "static-embeddings", "sentence-transformers", "paranmt"])
        card = staging / CARD_FILE
        card.write_text(with_section(card.read_text(encoding="utf-8"), card_section(facts, load)), encoding="utf-8")
    return directory
