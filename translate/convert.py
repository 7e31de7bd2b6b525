"""Turn the models real users have into paranmt model directories (a CTranslate2 model + a model card).

    paranmt convert fairseq --input ckpt.pt --dicts DIR --bpe-codes bpe.codes --out models/x
    paranmt convert marian  --input opus-mt-cs-en --out models/opus-mt-cs-en
    paranmt convert hf-marian --input Helsinki-NLP/opus-mt-cs-en --out models/opus-mt-cs-en
    paranmt convert argos   --input translate-cs_en-1_9.argosmodel --out models/argos-cs-en
    paranmt convert card    --input existing_ct2_dir --spm source.spm --out DIR   # card only

Conversions use CTranslate2's own converters; ``--quantization int8`` stores int8 weights (the compute type can
still be chosen at load time).
"""

from __future__ import annotations

import json
import shutil
import zipfile
from pathlib import Path
from types import ModuleType

from paranmt.core.hf_imports import hide_broken_torchaudio
from translate.card import FairseqSpec, ModelCard, PostprocessSpec, PreprocessSpec, write_card
from translate.cpu_kernel import import_ctranslate2

QUANTIZATIONS = ["int8", "int8_float16", "int8_float32", "float16", "bfloat16"]


def ct2_converters() -> ModuleType:
    """``ctranslate2.converters``, on first use: it loads torch (seconds), which only a conversion needs. A conversion
    translates nothing: any CPU kernel serves."""
    import_ctranslate2(None)  # the package first, as every import of it: where it finds cuBLAS, the kernel
    import ctranslate2.converters

    return ctranslate2.converters


def fairseq_to_ctranslate2(
    checkpoint: Path, data_dir: Path, out_dir: Path, source_lang: str, target_lang: str,
    quantization: str | None = None,
) -> Path:
    """Convert a fairseq translation checkpoint (+ its dict.*.txt) with ``ctranslate2.converters.FairseqConverter``."""
    # fairseq 0.12 checkpoints pickle argparse.Namespace, which torch >= 2.6 refuses under weights-only loading.
    converter = ct2_converters().FairseqConverter(str(checkpoint), str(data_dir), source_lang=source_lang,
                                                  target_lang=target_lang, unsafe_deserialization=True)
    return Path(converter.convert(str(out_dir), quantization=quantization, force=True))


def convert_fairseq(
    checkpoint: Path, dicts: Path, out: Path, *, bpe_codes: Path | None = None, spm: Path | None = None,
    moses: bool | None = None, quantization: str | None = None, keep_checkpoint: bool = True,
    name: str | None = None, source_lang: str = "cs", target_lang: str = "en",
) -> Path:
    """A fairseq checkpoint (+ ``dicts``' dict.*.txt and the subword model it was trained with: ``bpe_codes`` or
    ``spm``) -> a model directory; ``moses`` (default: with BPE) puts Moses (de)tokenisation around the subwords;
    ``keep_checkpoint`` copies the checkpoint in for the fairseq backend."""
    for needed in (checkpoint, dicts / f"dict.{source_lang}.txt", dicts / f"dict.{target_lang}.txt"):
        if not needed.exists():
            raise FileNotFoundError(f"{needed} not found")
    if not (bpe_codes or spm):
        raise ValueError("give the subword model the checkpoint was trained with: --bpe-codes or --spm")
    tokenize = detokenize = "moses" if (moses if moses is not None else bool(bpe_codes)) else "none"
    out.mkdir(parents=True, exist_ok=True)
    if keep_checkpoint:
        fairseq_dir = out / "fairseq"
        fairseq_dir.mkdir(exist_ok=True)
        shutil.copy(checkpoint, fairseq_dir / checkpoint.name)
        for lang in (source_lang, target_lang):
            shutil.copy(dicts / f"dict.{lang}.txt", fairseq_dir / f"dict.{lang}.txt")
    fairseq_to_ctranslate2(checkpoint, dicts, out / "ct2", source_lang, target_lang, quantization)
    if bpe_codes:
        shutil.copy(bpe_codes, out / "bpe.codes")
        pre = PreprocessSpec(tokenize=tokenize, subword="bpe", bpe_codes="bpe.codes")
        post = PostprocessSpec(subword="bpe", detokenize=detokenize)
    else:
        assert spm is not None
        shutil.copy(spm, out / "source.spm")
        pre = PreprocessSpec(tokenize=tokenize, subword="sentencepiece", sentencepiece_model="source.spm")
        post = PostprocessSpec(subword="sentencepiece", sentencepiece_model="source.spm", detokenize=detokenize)
    card = ModelCard(name=name or out.name, source_lang=source_lang, target_lang=target_lang,
                     preprocess=pre, postprocess=post, ctranslate2="ct2",
                     fairseq=FairseqSpec(checkpoint=f"fairseq/{checkpoint.name}", data="fairseq")
                     if keep_checkpoint else None,
                     provenance={"converted_from": f"fairseq:{checkpoint}"})
    write_card(out, card)
    return out


def convert_marian(
    model_dir: Path, out: Path, *, quantization: str | None = None, prefix: list[str] | None = None,
    name: str | None = None, source_lang: str = "cs", target_lang: str = "en",
) -> Path:
    """OPUS-MT / Marian (e.g. Helsinki-NLP opus-mt-cs-en): SentencePiece on both sides, punctuation normalised;
    ``prefix``: the target-language token of a multi-target model."""
    for needed in ("source.spm", "target.spm"):
        if not (model_dir / needed).exists():
            raise FileNotFoundError(f"{model_dir / needed} not found: is {model_dir} an OPUS-MT model directory?")
    out.mkdir(parents=True, exist_ok=True)
    ct2_converters().OpusMTConverter(str(model_dir)).convert(str(out / "ct2"), quantization=quantization, force=True)
    for spm in ("source.spm", "target.spm"):
        shutil.copy(model_dir / spm, out / "ct2" / spm)
    write_card(out, _marian_card(name or out.name, source_lang, target_lang, prefix, f"marian:{model_dir}"))
    return out


def import_transformers() -> ModuleType:
    """``transformers``, importable next to the fairseq extra's broken torchaudio (:mod:`paranmt.core.hf_imports`)."""
    hide_broken_torchaudio()
    try:
        import transformers
    except ImportError as error:
        raise ValueError("hf-marian needs the transformers package: pip install transformers "
                         "(or the test extra)") from error
    return transformers


def convert_hf_marian(
    model_dir: str, out: Path, *, quantization: str | None = None, prefix: list[str] | None = None,
    name: str | None = None, source_lang: str = "cs", target_lang: str = "en",
) -> Path:
    """A Hugging Face Marian model (e.g. Helsinki-NLP/opus-mt-cs-en, as a local folder); needs `transformers`."""
    import_transformers()

    out.mkdir(parents=True, exist_ok=True)
    ct2_converters().TransformersConverter(str(model_dir), copy_files=["source.spm", "target.spm"]).convert(
        str(out / "ct2"), quantization=quantization, force=True)
    # CTranslate2 leaves the source </s> to the Hugging Face tokenizer (add_source_eos: false); the pipeline encodes
    # with SentencePiece alone, so CTranslate2 appends it, as for a Marian release (without it, 18 of 100 best
    # hypotheses of a test model differed from Hugging Face's own decoding).
    config_file = out / "ct2" / "config.json"
    ct2_config = json.loads(config_file.read_text(encoding="utf-8"))
    config_file.write_text(json.dumps({**ct2_config, "add_source_eos": True}, indent=2), encoding="utf-8")
    write_card(out, _marian_card(name or out.name, source_lang, target_lang, prefix, f"hf-marian:{model_dir}"))
    return out


def _marian_card(name: str, source_lang: str, target_lang: str, prefix: list[str] | None,
                 provenance: str) -> ModelCard:
    """OPUS-MT's own chain: Moses punctuation normalisation, then SentencePiece (in ct2/); no Moses
    (de)tokenisation."""
    return ModelCard(
        name=name, source_lang=source_lang, target_lang=target_lang,
        preprocess=PreprocessSpec(normalize_punctuation=True, tokenize="none", subword="sentencepiece",
                                  sentencepiece_model="ct2/source.spm", prefix_tokens=prefix or []),
        postprocess=PostprocessSpec(subword="sentencepiece", sentencepiece_model="ct2/target.spm",
                                    detokenize="none"),
        ctranslate2="ct2", provenance={"converted_from": provenance},
    )


def convert_argos(
    package: Path, out: Path, *, name: str | None = None, source_lang: str = "cs", target_lang: str = "en",
) -> Path:
    """An Argos Translate package: a .argosmodel zip with metadata.json, model/ (CTranslate2), sentencepiece.model;
    the package's own languages win over ``source_lang``/``target_lang``."""
    try:
        with zipfile.ZipFile(package) as archive:
            if not any(Path(name).name == "metadata.json" for name in archive.namelist()):
                raise FileNotFoundError(f"{package}: no metadata.json inside; not an Argos Translate package")
            out.mkdir(parents=True, exist_ok=True)
            archive.extractall(out / "package")
    except zipfile.BadZipFile as error:
        raise ValueError(f"{package}: not a zip archive ({error}); expected an Argos Translate .argosmodel "
                         "package") from None
    metadata_files = list((out / "package").rglob("metadata.json"))
    if not metadata_files:
        raise FileNotFoundError(f"{package}: no metadata.json inside; not an Argos Translate package")
    root = metadata_files[0].parent
    metadata = json.loads(metadata_files[0].read_text(encoding="utf-8"))
    spm_model = next(iter(root.glob("sentencepiece.model")), None)
    if spm_model is None or not (root / "model" / "model.bin").exists():
        raise FileNotFoundError(f"{package}: expected sentencepiece.model and model/model.bin")
    rel = lambda p: str(p.relative_to(out))  # noqa: E731
    card = ModelCard(
        name=name or f"argos-{metadata.get('from_code', 'cs')}-{metadata.get('to_code', 'en')}"
                     f"-{metadata.get('package_version', '')}".rstrip("-"),
        source_lang=metadata.get("from_code", source_lang), target_lang=metadata.get("to_code", target_lang),
        preprocess=PreprocessSpec(normalize_punctuation=False, tokenize="none", subword="sentencepiece",
                                  sentencepiece_model=rel(spm_model)),
        postprocess=PostprocessSpec(subword="sentencepiece", sentencepiece_model=rel(spm_model), detokenize="none"),
        ctranslate2=rel(root / "model"), provenance={"converted_from": f"argos:{package}"},
    )
    write_card(out, card)
    return out


def write_card_only(
    ct2: Path, out: Path, *, spm: Path | None = None, target_spm: Path | None = None, bpe_codes: Path | None = None,
    name: str | None = None, source_lang: str = "cs", target_lang: str = "en",
) -> Path:
    """Write a card for an existing CTranslate2 model directory (referenced in place) with its subword model:
    ``spm`` (and ``target_spm``, default ``spm``) or ``bpe_codes``."""
    ct2 = ct2.resolve()
    if not (ct2 / "model.bin").exists():
        raise FileNotFoundError(f"{ct2 / 'model.bin'} not found")
    if not (spm or bpe_codes):
        raise ValueError("give the subword model: --spm (SentencePiece) or --bpe-codes (subword-nmt)")
    out.mkdir(parents=True, exist_ok=True)  # once the inputs are checked: a refusal leaves no folder behind
    if spm:
        shutil.copy(spm, out / "source.spm")
        shutil.copy(target_spm or spm, out / "target.spm")
        pre = PreprocessSpec(tokenize="none", subword="sentencepiece", sentencepiece_model="source.spm")
        post = PostprocessSpec(subword="sentencepiece", sentencepiece_model="target.spm", detokenize="none")
    else:
        assert bpe_codes is not None
        shutil.copy(bpe_codes, out / "bpe.codes")
        pre, post = PreprocessSpec(subword="bpe", bpe_codes="bpe.codes"), PostprocessSpec(subword="bpe")
    card = ModelCard(name=name or out.name, source_lang=source_lang, target_lang=target_lang,
                     preprocess=pre, postprocess=post, ctranslate2=str(ct2))
    write_card(out, card)
    return out

