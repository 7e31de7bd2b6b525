"""The sentence-transformers round trip of trained models: each model directory is exported
(``train_embeddings.export.st_export``), loaded back with ``SentenceTransformer(path, trust_remote_code=True)`` and
both encode the same real sentences (the 5,385 distinct sentences of STS-B dev + test); the table gives the
largest absolute difference of any embedding coordinate, and both encoders' sentences/s on one CPU thread.

Needs the ``st`` extra and ../shared/data/sts (or ``--sts-dir``).
"""

from __future__ import annotations

import json
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from benchmarks.doc_sections import table
from benchmarks.result import argument_parser, write_result
from paranmt.core.hf_imports import import_sentence_transformers
from train_embeddings.evaluation import sts
from train_embeddings.export.st_export import export_sentence_transformers
from train_embeddings.models.embedding_model import EmbeddingModel
from train_embeddings.models.model_io import load_model


def round_trip(model_dir: Path, sentences: list[str], work: Path) -> dict:
    """Export, reload with sentence-transformers, compare embeddings and speeds."""
    model = load_model(model_dir)
    if not isinstance(model, EmbeddingModel):
        raise ValueError(f"{model_dir}: not a trained paranmt encoder")
    exported = export_sentence_transformers(model, work / model_dir.name)
    load = import_sentence_transformers().SentenceTransformer
    loaded = load(str(exported), device="cpu", trust_remote_code=True)
    modules = [entry["type"].rsplit(".", 1)[1] for entry in json.loads((exported / "modules.json").read_text())]
    ours = load_model(model_dir).encode(sentences)  # a fresh model: its tokeniser cache is cold
    theirs = loaded.encode(sentences, batch_size=256, convert_to_numpy=True, show_progress_bar=False)
    label = ("+" if model.spec.combine == "sum" else ",").join(model.spec.components)  # the --model syntax
    return {"model": label, "dim": model.dim, "modules": modules,
            "max_abs_diff": float(np.abs(ours - theirs).max()), "sentences": len(sentences),
            "paranmt_sentences_per_s": sts.sentences_per_second(load_model(model_dir).encode, sentences),
            "st_sentences_per_s": sts.sentences_per_second(  # a fresh load: its tokeniser cache is cold too
                _st_encoder(load(str(exported), device="cpu", trust_remote_code=True)), sentences)}


def _st_encoder(model):
    return lambda batch: model.encode(batch, batch_size=256, show_progress_bar=False)


def markdown(rows: Sequence[dict]) -> str:
    return "\n".join(table(["model", "exported as", "loaded by sentence-transformers", "max abs difference",
                             "sentences/s paranmt / sentence-transformers (1 thread)"], "lllr",
                            [[f"{row['model']} ({row['dim']}-d)", " + ".join(row["modules"]), "yes (trust_remote_code)",
                              f"{row['max_abs_diff']:.1e}",
                              f"{row['paranmt_sentences_per_s']:,.0f} / {row['st_sentences_per_s']:,.0f}"]
                             for row in rows])) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argument_parser(__file__, __doc__, result=True)
    parser.add_argument("--model", action="append", required=True, type=Path, help="a saved model (repeatable)")
    parser.add_argument("--sts-dir", type=Path, help="STS data root (default ../shared/data/sts)")
    parser.add_argument("--sentences", type=int, default=0, help="use only the first N sentences (0: all)")
    args = parser.parse_args(argv)
    try:
        data = sts.load_benchmarks(args.sts_dir, years=(), stsb=True)
        sentences = list(dict.fromkeys(s for key in ("stsb_dev", "stsb_test") for d in [data.stsb[key]]
                                       for s in d.sentences1 + d.sentences2))
        if args.sentences:
            sentences = sentences[:args.sentences]
        with tempfile.TemporaryDirectory() as work:
            rows = [round_trip(directory, sentences, Path(work)) for directory in args.model]
    except (ValueError, FileNotFoundError, ImportError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(markdown(rows))
    write_result(args.json, {"rows": rows}, __file__, argv)
    return 0


if __name__ == "__main__":
    sys.exit(main())
