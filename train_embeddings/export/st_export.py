"""Export a paranmt model as a sentence-transformers model directory (the ``st`` extra).

    from train_embeddings.export.st_export import export_sentence_transformers
    export_sentence_transformers(load_model("runs/word"), "exported/word")
    # then, anywhere paranmt is installed:
    SentenceTransformer("exported/word", trust_remote_code=True).encode(sentences)  # = load_model(...).encode

* WORD models become the library's own ``WordEmbeddings`` (the word table, ``<pad>`` row zero) + ``Pooling``
  (mean over the tokens) with :class:`~train_embeddings.st_modules.MosesWordTokenizer`, which reproduces this
  project's tokenisation exactly (Moses, punctuation normalisation, lower-cased lookup, ``<unk>`` kept in the mean).
* STATIC models become the library's own ``StaticEmbedding`` (the trained table over the teacher's tokenizer; no
  custom code, so no ``trust_remote_code``). It keeps ``[UNK]`` pieces in its mean, which paranmt and model2vec
  drop: the vectors agree on every sentence without an unknown piece.
* Every other model (TRIGRAM, LSTM/BLSTM, combinations, …) becomes one
  :class:`~train_embeddings.st_modules.ParanmtEncoder` module holding the paranmt model directory.

Both custom classes are imported from the installed ``train_embeddings`` package, not copied into the directory:
one implementation of the tokeniser and encoders, versioned with paranmt. sentence-transformers 6 asks for
``trust_remote_code=True`` before importing any class outside its namespace, local directories included.
"""

from __future__ import annotations

import json
from pathlib import Path

import torch

from train_embeddings.models.embedding_model import EmbeddingModel
from train_embeddings.models.model_dir import staged_directory
from train_embeddings.models.word_average import WordAverage
from train_embeddings.st_modules import MosesWordTokenizer, ParanmtEncoder
from train_embeddings.vocab import PAD

# isort: split
# sentence_transformers after st_modules, whose import hides a broken torchaudio first (see hf_imports)
from sentence_transformers import SentenceTransformer
from sentence_transformers.base.model_card import generate_model_card
from sentence_transformers.sentence_transformer.evaluation import SentenceEvaluator
from sentence_transformers.sentence_transformer.model_card import SentenceTransformerModelCardData
from sentence_transformers.sentence_transformer.modules import Pooling, StaticEmbedding, WordEmbeddings
from tokenizers import Tokenizer

from paranmt.core.corpus_card import CITATION
from paranmt.core.run_layout import CARD_FILE  # README.md: the card the library writes
from train_embeddings.export.model_card import ModelFacts, card_section, model_facts, sts_sets, with_section
from train_embeddings.export.static_export import static_table
from train_embeddings.losses.margin_loss import MarginLoss
from train_embeddings.static.teacher import STATIC

__all__ = ["RecordedStsEvaluation", "export_sentence_transformers"]


class RecordedStsEvaluation(SentenceEvaluator):
    """One STS set's correlations as ``paranmt evaluate --json`` recorded them, for the card's evaluation entry
    (sentence-transformers' card lists evaluators and their metrics); a record, not run again."""

    def __init__(self, name: str) -> None:
        super().__init__()
        self.name = name
        self.primary_metric = "spearman_cosine"

    @property
    def description(self) -> str:
        return "Semantic Similarity"

    def __call__(self, *args: object, **kwargs: object) -> dict[str, float]:
        raise NotImplementedError("a recorded evaluation: run paranmt evaluate to evaluate again")


def _card_data(facts: ModelFacts) -> SentenceTransformerModelCardData:
    """sentence-transformers' own card data from the facts: name, language, licence, training set and loss, the
    training settings and the STS figures (its ``model-index``), nothing looked up on the Hub."""
    metrics, corpus = facts.metrics, facts.corpus
    datasets = []
    if metrics is not None:
        loss = {key: metrics["config"][key] for key in ("margin", "negatives", "megabatch", "batch_size")}
        datasets.append({"name": corpus.name if corpus is not None else facts.training_data,
                         "size": metrics["n_pairs"], "columns": ["en", "mt"],
                         "loss": {"fullname": f"{MarginLoss.__module__}.{MarginLoss.__qualname__}",
                                  "config_code": "  ```json\n  " + json.dumps(loss) + "\n  ```"}})
    data = SentenceTransformerModelCardData(
        model_name=f"paranmt {'+'.join(facts.components)} encoder ({facts.name})", language=["en"],
        license=corpus.license if corpus is not None else None, train_datasets=datasets, local_files_only=True,
        tags=["sentence-transformers", "sentence-similarity", "feature-extraction", "dense", "paranmt"])
    data.citations = {"the method (ParaNMT-50M)": CITATION}
    if metrics is not None:
        data.all_hyperparameters = {key: value for key, value in metrics["config"].items() if key != "data"}
        data.non_default_hyperparameters = facts.non_default_settings()
    for sts_set in sts_sets(facts.sts) if facts.sts is not None else []:
        data.eval_results_dict[RecordedStsEvaluation(sts_set.task.lower())] = {
            "pearson_cosine": sts_set.pearson, "spearman_cosine": sts_set.spearman}
    return data


def _word_modules(model: EmbeddingModel) -> list[torch.nn.Module]:
    part = model.encoder.parts["word"]
    assert isinstance(part, WordAverage) and model.words is not None
    table = part.table.full_matrix().detach().float().cpu()
    assert model.words.words[0] == PAD and table.shape[0] == len(model.words)
    tokenizer = MosesWordTokenizer(model.words.words, model.spec.tokenizer,
                                   bool(model.spec.tokenizer.get("lowercase", True)))
    embeddings = WordEmbeddings(tokenizer, table, update_embeddings=False)
    return [embeddings, Pooling(int(table.shape[1]), pooling_mode="mean")]


def export_sentence_transformers(model: EmbeddingModel, directory: str | Path, source: Path | None = None,
                                 evaluation: Path | None = None) -> Path:
    """Write ``model`` (loaded from ``source``, a model directory or training run) as a sentence-transformers
    directory with its card (replacing one that exists); returns it. ``evaluation``: the ``paranmt evaluate
    --json`` file whose STS figures the card gives (:func:`~train_embeddings.export.model_card.model_facts`)."""
    if not isinstance(model, EmbeddingModel):
        raise ValueError(f"{model!r} is not a trained paranmt encoder: only EmbeddingModel directories export")
    facts = model_facts(model, source, evaluation)
    model.to("cpu")
    if model.spec.components == ["word"]:
        modules = _word_modules(model)
    elif model.spec.components == [STATIC]:
        assert model.static is not None
        tokenizer = Tokenizer.from_str(model.static.tokenizer_json)
        modules = [StaticEmbedding(tokenizer, embedding_weights=static_table(model))]
    else:
        modules = [ParanmtEncoder(model)]
    exported = SentenceTransformer(modules=modules, device="cpu", model_card_data=_card_data(facts))
    remote = ", trust_remote_code=True" if any(type(m).__module__.startswith("train_embeddings") or
                                              isinstance(getattr(m, "tokenizer", None), MosesWordTokenizer)
                                              for m in modules) else ""
    load = (f"from sentence_transformers import SentenceTransformer\n\n"
            f"model = SentenceTransformer(\"path/to/this/folder\"{remote})  # or the Hub id it is uploaded as\n"
            "embeddings = model.encode([\"A man is playing a guitar.\", \"A man plays the guitar.\"])")
    if remote:
        load += "\n# the encoder's code is paranmt's: pip install paranmt where it loads"
    directory = Path(directory)
    with staged_directory(directory) as staging:
        exported.save(str(staging), create_model_card=False)
        exported.model_card_data.save_dir = str(staging)
        card = with_section(generate_model_card(exported), card_section(facts, load))
        (staging / CARD_FILE).write_text(card, encoding="utf-8")
    return directory
