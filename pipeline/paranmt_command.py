"""``paranmt``: one command for every tool of the project (``paranmt SUBCOMMAND --help`` for each).

Each subcommand is the tool's own command line (``paranmt run`` is ``python -m pipeline.run``, ``paranmt train``
is ``python -m train_embeddings``, ...): the same flags, the same exit status (0 done, 1 failed accounting or a
run that went wrong, 2 a bad argument or input, with a one-line ``error:``). The modules are imported only for the
subcommand that runs, so ``paranmt --help`` is instant.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import sys
from collections.abc import Sequence

from configs.command_line import run_main, set_command_name

# subcommand -> (module with main(argv), what it does)
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "run": ("pipeline.run", "build the corpus: bitext -> back-translation -> scored Parquet shards"),
    "translate": ("translate.file_translator", "back-translate a text file with a model directory"),
    "train-nmt": ("translate.train", "train a cs->en back-translation model (presets cpu-small, base, big)"),
    "evaluate-nmt": ("translate.evaluate", "BLEU / chrF and speed of a model directory on a test set"),
    "convert": ("translate.convert", "make a model directory from OPUS-MT/Marian, Hugging Face, fairseq, Argos"),
    "score": ("filters.scores", "trigram overlap and paraphrase score of Parquet pairs"),
    "folds": ("filters.folds", "rank pairs by a criterion into folds (Table 5)"),
    "report": ("pipeline.analysis.corpus_report", "Table 1 / Table 3 corpus statistics and plots"),
    "lexicon": ("pipeline.analysis.pmi_lexicon", "PMI paraphrase lexicon: build, neighbours, evaluate"),
    "train": ("train_embeddings.trainer", "train paraphrastic sentence embeddings"),
    "evaluate": ("train_embeddings.evaluate_sts", "STS evaluation of models and baselines"),
    "sif": ("train_embeddings.sif", "build a SIF model"),
    "sick": ("train_embeddings.sick", "SICK relatedness / entailment heads"),
    "export-vectors": ("train_embeddings.model_io", "export a WORD model's vectors"),
    "export": ("train_embeddings.export", "a model as sentence-transformers, or train/ as ParaNMT TSV"),
}


def version() -> str:
    """The installed package's version (without importing any tool: ``paranmt --version`` stays instant)."""
    try:
        return importlib.metadata.version("paranmt")
    except importlib.metadata.PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown (not installed)"


def usage() -> str:
    width = max(map(len, SUBCOMMANDS))
    rows = "\n".join(f"  {name:<{width}}  {text}" for name, (_, text) in SUBCOMMANDS.items())
    return (f"usage: paranmt SUBCOMMAND [options]   (paranmt SUBCOMMAND --help; paranmt --version)\n\n"
            f"subcommands:\n{rows}\n")


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help"):
        print(usage(), end="")
        return 0 if args else 2
    if args[0] == "--version":
        print(f"paranmt {version()}")
        return 0
    name, rest = args[0], args[1:]
    if name not in SUBCOMMANDS:
        print(f"error: unknown subcommand {name!r}\n\n{usage()}", end="", file=sys.stderr)
        return 2
    module = importlib.import_module(SUBCOMMANDS[name][0])
    set_command_name(f"paranmt {name}")
    try:
        return run_main(module.main, rest)
    finally:
        set_command_name(None)


if __name__ == "__main__":
    sys.exit(main())
