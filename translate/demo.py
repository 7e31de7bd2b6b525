"""Small cs->en models trained here, on CPU, in seconds to a minute: the demo model of the README's main job and
the models the tests decode with (no model can be downloaded at run time).

The recipe is the real one at toy scale: Moses normalisation + tokenisation, BPE learned with subword-nmt,
``fairseq-preprocess``, ``fairseq-train`` of a 2+2-layer transformer, conversion to CTranslate2 with
``ctranslate2.converters.FairseqConverter``, and a model card. Its output is only as good as a tiny model on a
few thousand sentences can be: real corpora need a real model (README: "Bring a real model").
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import os
import random
import shutil
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from filelock import FileLock
from sacremoses import MosesPunctNormalizer, MosesTokenizer
from subword_nmt.learn_bpe import learn_bpe

from translate.card import FairseqSpec, ModelCard, PostprocessSpec, PreprocessSpec, write_card

log = logging.getLogger(__name__)

SAMPLE_DIR = Path(__file__).resolve().parent.parent / "configs" / "sample"
RECIPE_VERSION = "1"  # bump when the recipe changes, so cached models are rebuilt


@dataclass(frozen=True)
class TinyModelRecipe:
    bpe_merges: int = 2000
    layers: int = 2
    embed_dim: int = 64
    ffn_dim: int = 256
    heads: int = 4
    max_epoch: int = 20
    lr: float = 0.005
    warmup_updates: int = 200
    max_tokens: int = 4096
    valid_fraction: float = 0.05
    seed: int = 1
    threads: int = 0  # 0: all cores


# Models on real Czech (the first 12,000 Tatoeba pairs): they exercise the real text chain and serve the tests
# ("tiny", 2 layers of 64, ~1 min on 2 cores) and the CPU benchmark ("small", 3 layers of 256, ~5 min), where
# a model too small to keep the matrix units busy would measure only per-step overhead. Not useful translators.
TATOEBA_TRAIN_PAIRS = 12000
TATOEBA_RECIPES = {
    "tiny": TinyModelRecipe(bpe_merges=4000, max_epoch=8, max_tokens=2048, warmup_updates=200),
    "small": TinyModelRecipe(bpe_merges=4000, layers=3, embed_dim=256, ffn_dim=1024, heads=4, max_epoch=10,
                             max_tokens=4096, lr=0.002, warmup_updates=200),
}


def tatoeba_model(bitext_dir: Path, size: str = "tiny", cache_dir: Path | None = None) -> Path:
    """A Tatoeba model (``size`` in :data:`TATOEBA_RECIPES`), trained once from ``bitext_dir/tatoeba.{cs,en}``."""
    cs = (bitext_dir / "tatoeba.cs").read_text(encoding="utf-8").splitlines()[:TATOEBA_TRAIN_PAIRS]
    en = (bitext_dir / "tatoeba.en").read_text(encoding="utf-8").splitlines()[:TATOEBA_TRAIN_PAIRS]
    return cached_model(f"tatoeba-{size}-cs-en", cs, en, TATOEBA_RECIPES[size], cache_dir)


def default_cache_dir() -> Path:
    return Path(os.environ.get("PARANMT_CACHE", Path.home() / ".cache" / "paranmt")).expanduser()


def _moses_lines(lines: Sequence[str], lang: str) -> list[str]:
    normalizer, tokenizer = MosesPunctNormalizer(lang=lang), MosesTokenizer(lang=lang)
    return [tokenizer.tokenize(normalizer.normalize(" ".join(line.split())), escape=False, return_str=True)
            for line in lines]


def _apply_bpe(codes: Path, lines: list[str]) -> list[str]:
    from subword_nmt.apply_bpe import BPE

    with codes.open(encoding="utf-8") as handle:
        bpe = BPE(handle)
    return [bpe.process_line(line) for line in lines]


def _run(args: list[str], threads: int, log_file: Path) -> None:
    env = dict(os.environ, OMP_NUM_THREADS=str(threads), MKL_NUM_THREADS=str(threads),
               TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD="1")  # our own fresh checkpoints
    with log_file.open("a", encoding="utf-8") as out:
        done = subprocess.run([sys.executable, "-m", *args], stdout=out, stderr=subprocess.STDOUT, env=env)
    if done.returncode != 0:
        tail = log_file.read_text(encoding="utf-8", errors="replace")[-3000:]
        raise RuntimeError(f"`{' '.join(args[:2])}` failed (exit {done.returncode}); log {log_file}:\n{tail}")


def train_tiny_model(
    source_lines: Sequence[str],
    target_lines: Sequence[str],
    out_dir: Path,
    name: str,
    recipe: TinyModelRecipe = TinyModelRecipe(),
) -> Path:
    """Train a tiny fairseq transformer on the given pairs and write a complete model directory to ``out_dir``.

    The directory holds ``bpe.codes``, ``fairseq/`` (checkpoint + dictionaries), ``ct2/`` (CTranslate2) and a
    ``model_card.yaml`` whose ``metrics.valid_perplexity`` is measured on the held-out pairs.
    """
    if len(source_lines) != len(target_lines):
        raise ValueError(f"{len(source_lines)} source lines but {len(target_lines)} target lines")
    threads = recipe.threads or os.cpu_count() or 1
    out_dir = Path(out_dir)
    work = out_dir / "work"
    work.mkdir(parents=True, exist_ok=True)
    log_file = work / "train.log"
    src_tok, tgt_tok = _moses_lines(source_lines, "cs"), _moses_lines(target_lines, "en")
    keep = [i for i, (s, t) in enumerate(zip(src_tok, tgt_tok, strict=True)) if s.strip() and t.strip()]
    src_tok, tgt_tok = [src_tok[i] for i in keep], [tgt_tok[i] for i in keep]

    codes = out_dir / "bpe.codes"
    with codes.open("w", encoding="utf-8") as handle:
        learn_bpe(src_tok + tgt_tok, handle, recipe.bpe_merges, min_frequency=2)
    src_bpe, tgt_bpe = _apply_bpe(codes, src_tok), _apply_bpe(codes, tgt_tok)

    order = list(range(len(src_bpe)))
    random.Random(recipe.seed).shuffle(order)
    n_valid = max(1, int(len(order) * recipe.valid_fraction))
    splits = {"valid": order[:n_valid], "train": order[n_valid:]}
    for split, idx in splits.items():
        (work / f"{split}.cs").write_text("".join(src_bpe[i] + "\n" for i in idx), encoding="utf-8")
        (work / f"{split}.en").write_text("".join(tgt_bpe[i] + "\n" for i in idx), encoding="utf-8")

    data_bin = work / "data-bin"
    _run(["fairseq_cli.preprocess", "--source-lang", "cs", "--target-lang", "en",
          "--trainpref", str(work / "train"), "--validpref", str(work / "valid"),
          "--destdir", str(data_bin), "--workers", str(min(threads, 2)), "--seed", str(recipe.seed)],
         threads, log_file)
    ckpt_dir = work / "checkpoints"
    _run(["fairseq_cli.train", str(data_bin), "--task", "translation", "--source-lang", "cs", "--target-lang", "en",
          "--arch", "transformer",
          "--encoder-layers", str(recipe.layers), "--decoder-layers", str(recipe.layers),
          "--encoder-embed-dim", str(recipe.embed_dim), "--decoder-embed-dim", str(recipe.embed_dim),
          "--encoder-ffn-embed-dim", str(recipe.ffn_dim), "--decoder-ffn-embed-dim", str(recipe.ffn_dim),
          "--encoder-attention-heads", str(recipe.heads), "--decoder-attention-heads", str(recipe.heads),
          "--share-decoder-input-output-embed", "--dropout", "0.1",
          "--optimizer", "adam", "--adam-betas", "(0.9, 0.98)", "--lr", str(recipe.lr),
          "--lr-scheduler", "inverse_sqrt", "--warmup-updates", str(recipe.warmup_updates),
          "--criterion", "cross_entropy", "--max-tokens", str(recipe.max_tokens),
          "--max-epoch", str(recipe.max_epoch), "--save-dir", str(ckpt_dir),
          "--no-epoch-checkpoints", "--no-last-checkpoints", "--no-save-optimizer-state",
          "--seed", str(recipe.seed), "--cpu", "--num-workers", "0",
          "--log-format", "simple", "--log-interval", "100", "--no-progress-bar"],
         threads, log_file)

    fairseq_dir = out_dir / "fairseq"
    fairseq_dir.mkdir(exist_ok=True)
    shutil.copy(ckpt_dir / "checkpoint_best.pt", fairseq_dir / "checkpoint_best.pt")
    for lang in ("cs", "en"):
        shutil.copy(data_bin / f"dict.{lang}.txt", fairseq_dir / f"dict.{lang}.txt")

    from translate.convert import fairseq_to_ctranslate2

    fairseq_to_ctranslate2(fairseq_dir / "checkpoint_best.pt", fairseq_dir, out_dir / "ct2", "cs", "en")
    card = ModelCard(
        name=name,
        preprocess=PreprocessSpec(normalize_punctuation=True, tokenize="moses", subword="bpe", bpe_codes="bpe.codes"),
        postprocess=PostprocessSpec(subword="bpe", detokenize="moses"),
        ctranslate2="ct2",
        fairseq=FairseqSpec(checkpoint="fairseq/checkpoint_best.pt", data="fairseq"),
        provenance={"recipe": json.dumps(asdict(recipe)), "train_pairs": str(len(splits["train"])),
                    "valid_pairs": str(n_valid)},
    )
    card.metrics["valid_perplexity"] = ct2_perplexity(
        out_dir / "ct2", [src_bpe[i].split() for i in splits["valid"]], [tgt_bpe[i].split() for i in splits["valid"]]
    )
    write_card(out_dir, card)
    shutil.rmtree(work / "checkpoints")
    shutil.rmtree(data_bin)
    return out_dir


def ct2_perplexity(ct2_dir: Path, sources: list[list[str]], targets: list[list[str]]) -> float:
    """Per-token perplexity (EOS included) of reference targets under the model."""
    import ctranslate2

    translator = ctranslate2.Translator(str(ct2_dir), device="cpu")
    results = translator.score_batch(sources, targets, max_batch_size=64)
    total = sum(sum(r.log_probs) for r in results)
    count = sum(len(r.log_probs) for r in results)
    return math.exp(-total / max(count, 1))


def cached_model(
    name: str, source_lines: Sequence[str], target_lines: Sequence[str],
    recipe: TinyModelRecipe = TinyModelRecipe(), cache_dir: Path | None = None,
) -> Path:
    """Train once, then reuse: the model lives under the cache directory keyed by data + recipe, guarded by a
    file lock so parallel test workers or runs train it only once."""
    digest = hashlib.sha256()
    for part in (RECIPE_VERSION, name, json.dumps(asdict(recipe), sort_keys=True)):
        digest.update(part.encode())
    for line in (*source_lines, "\x00", *target_lines):
        digest.update(line.encode("utf-8", "surrogateescape") + b"\n")
    root = (cache_dir or default_cache_dir()) / "models"
    root.mkdir(parents=True, exist_ok=True)
    target = root / f"{name}-{digest.hexdigest()[:12]}"
    with FileLock(str(target) + ".lock"):
        if (target / "model_card.yaml").is_file():
            return target
        partial = target.with_name(target.name + ".partial")
        shutil.rmtree(partial, ignore_errors=True)
        log.warning("training the %s model once (cached in %s); this takes about a minute on 2 cores", name, target)
        train_tiny_model(source_lines, target_lines, partial, name, recipe)
        partial.rename(target)
    return target


def ensure_demo_model(cache_dir: Path | None = None) -> Path:
    """The demo model of the README's main job: trained on the bundled sample bitext on first use."""
    cs = (SAMPLE_DIR / "sample.cs").read_text(encoding="utf-8").splitlines()
    en = (SAMPLE_DIR / "sample.en").read_text(encoding="utf-8").splitlines()
    recipe = TinyModelRecipe(bpe_merges=1000, max_epoch=60, valid_fraction=0.05)
    return cached_model("demo-tiny-cs-en", cs, en, recipe, cache_dir)


# A synthetic "toy Czech" -> English language: word-for-word over a fixed lexicon with an adjective-noun order
# swap and sentence-type punctuation. Learnable to near-perfect output by a tiny model in well under a minute,
# so the two backends can be compared on confident, non-degenerate output.
_TOY_NOUNS = {"pes": "dog", "kočka": "cat", "muž": "man", "žena": "woman", "dítě": "child", "auto": "car",
              "dům": "house", "řeka": "river", "strom": "tree", "město": "town", "kniha": "book",
              "loď": "ship", "pták": "bird", "učitel": "teacher", "sestra": "sister", "chléb": "bread"}
_TOY_ADJS = {"velký": "big", "malý": "small", "starý": "old", "nový": "new", "červený": "red",
             "zelený": "green", "rychlý": "fast", "tichý": "quiet", "šťastný": "happy", "bílý": "white"}
_TOY_VERBS = {"vidí": "sees", "má": "has", "hledá": "seeks", "miluje": "loves", "nese": "carries",
              "kreslí": "draws", "potká": "meets", "slyší": "hears"}
_TOY_ADVS = {"dnes": "today", "večer": "tonight", "často": "often", "znovu": "again", "tady": "here"}


def make_toy_corpus(n: int, seed: int = 0) -> tuple[list[str], list[str]]:
    """``n`` distinct toy pairs, e.g. ``Velký pes vidí červený dům dnes.`` -> ``Dog big sees house red today.``"""
    rng = random.Random(seed)
    nouns, adjs, verbs, advs = (list(d.items()) for d in (_TOY_NOUNS, _TOY_ADJS, _TOY_VERBS, _TOY_ADVS))

    def noun_phrase() -> tuple[list[str], list[str]]:
        noun = rng.choice(nouns)
        if rng.random() < 0.5:
            adj = rng.choice(adjs)
            return [adj[0], noun[0]], [noun[1], adj[1]]  # adjective-noun order swaps
        return [noun[0]], [noun[1]]

    seen: set[str] = set()
    cs_lines: list[str] = []
    en_lines: list[str] = []
    while len(cs_lines) < n:
        cs, en = noun_phrase()
        verb = rng.choice(verbs)
        obj_cs, obj_en = noun_phrase()
        cs, en = [*cs, verb[0], *obj_cs], [*en, verb[1], *obj_en]
        if rng.random() < 0.4:
            adv = rng.choice(advs)
            cs, en = [*cs, adv[0]], [*en, adv[1]]
        if rng.random() < 0.3:
            conj_cs, conj_en = noun_phrase()
            cs, en = [*cs, "a", *conj_cs], [*en, "and", *conj_en]
        mark = "?" if rng.random() < 0.25 else "."
        cs_text = " ".join(cs).capitalize() + mark
        if cs_text in seen:
            continue
        seen.add(cs_text)
        cs_lines.append(cs_text)
        en_lines.append(" ".join(en).capitalize() + mark)
    return cs_lines, en_lines
