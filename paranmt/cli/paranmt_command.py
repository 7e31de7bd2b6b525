"""``paranmt``: one command for every tool of the project (``paranmt SUBCOMMAND --help`` for each).

Each subcommand is one command module with ``main(argv)``: one of paranmt/cli/ (``paranmt translate`` is
:mod:`paranmt.cli.translate_command`, ...), or, for the two that also run as ``python -m``, the one in its package
(``paranmt run`` is :mod:`pipeline.run`, ``paranmt train`` is :mod:`train_embeddings.train_command`). All follow
the same conventions (:mod:`paranmt.core.command_line`): one spelling per flag, the same exit status (0 done, 1 failed
accounting or a run that went wrong, 2 a bad argument or input, with a one-line ``error:``). The modules are
imported only for the subcommand that runs, so ``paranmt --help`` is instant.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import sys
from collections.abc import Sequence
from typing import NoReturn

from paranmt.core.command_line import exit_process, install_warning, run_main, shadowing_line

# subcommand -> (command module with main(argv), what it does)
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "run": ("pipeline.run", "build the corpus: bitext -> back-translation -> scored Parquet shards"),
    "translate": ("paranmt.cli.translate_command", "back-translate a text file with a model directory"),
    "train-nmt": ("paranmt.cli.train_nmt_command",
                  "train a cs->en back-translation model (presets cpu-small, base, big)"),
    "evaluate-nmt": ("paranmt.cli.evaluate_nmt_command", "BLEU / chrF and speed of a model directory on a test set"),
    "convert": ("paranmt.cli.convert_command",
                "make a model directory from OPUS-MT/Marian, Hugging Face, fairseq, Argos"),
    "vmap": ("paranmt.cli.vmap_command", "a vocabulary shortlist for CTranslate2 from a model's training bitext"),
    "score": ("paranmt.cli.score_command", "trigram overlap and paraphrase score of Parquet pairs"),
    "folds": ("paranmt.cli.folds_command", "rank pairs by a criterion into folds (Table 5)"),
    "report": ("paranmt.cli.report_command", "Table 1 / Table 3 corpus statistics and plots"),
    "lexicon": ("paranmt.cli.lexicon_command", "PMI paraphrase lexicon: build, neighbours, evaluate"),
    "train": ("train_embeddings.train_command", "train paraphrastic sentence embeddings"),
    "evaluate": ("paranmt.cli.evaluate_command", "STS evaluation of models and baselines"),
    "sif": ("paranmt.cli.sif_command", "build a SIF model"),
    "sick": ("paranmt.cli.sick_command", "SICK relatedness / entailment heads"),
    "export-vectors": ("paranmt.cli.export_vectors_command", "export a WORD model's vectors"),
    "export": ("paranmt.cli.export_command", "a model as sentence-transformers, or train/ as ParaNMT TSV"),
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
    try:
        module = importlib.import_module(SUBCOMMANDS[name][0])
    except ModuleNotFoundError as error:
        line = shadowing_line(error)
        if line is None:
            raise
        print(f"error: {line}", file=sys.stderr)
        return 2
    install_warning()
    return run_main(module.main, rest)


def console() -> NoReturn:
    """The process's entry (the ``paranmt`` console script, ``python -m paranmt``): :func:`main`, then
    :func:`~paranmt.core.command_line.exit_process` with its status."""
    exit_process(main())


if __name__ == "__main__":
    console()
