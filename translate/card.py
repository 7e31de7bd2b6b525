"""The model card: a ``model_card.yaml`` next to the model that declares what the directory holds and the text
processing chain its model expects.

    name: opus-mt-cs-en                 # model id, recorded in every output
    source_lang: cs
    target_lang: en
    preprocess:
      normalize_punctuation: true       # Moses punctuation normaliser (source language)
      tokenize: none                    # moses | none
      subword: sentencepiece            # bpe | sentencepiece | none
      sentencepiece_model: source.spm   # or bpe_codes: bpe.codes
      prefix_tokens: []                 # e.g. [">>eng<<"] for multi-target OPUS-MT models
    postprocess:
      subword: sentencepiece            # how to undo subwords: bpe (@@ joins) | sentencepiece | none
      sentencepiece_model: target.spm
      detokenize: none                  # moses | none
    ctranslate2: ct2                    # sub-directory with model.bin (optional)
    fairseq:                            # optional
      checkpoint: fairseq/checkpoint_best.pt
      data: fairseq                     # directory with dict.cs.txt / dict.en.txt
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from paranmt.core.errors import ParanmtError

CARD_FILE = "model_card.yaml"
# translate.model: null means this real small Czech->English model, shipped inside the package (int8 CTranslate2,
# ~10 MB; its model_card.yaml says how it was made and what it scores). The small models the tests and the CPU
# benchmark train once are translate.cached_models.
DEFAULT_MODEL_DIR = Path(__file__).resolve().parent / "models" / "small-cs-en"


def model_or_default(model: str | Path | None) -> Path:
    """``model``, or the bundled default model when it is None."""
    return DEFAULT_MODEL_DIR if model is None else Path(model)


class ModelDirError(ParanmtError, ValueError):
    """A model directory is missing, incomplete or malformed; the message names what is missing."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class PreprocessSpec(_Strict):
    normalize_punctuation: bool = True
    tokenize: Literal["moses", "none"] = "moses"
    aggressive_dash_splits: bool = False
    subword: Literal["bpe", "sentencepiece", "none"] = "bpe"
    bpe_codes: str | None = None
    sentencepiece_model: str | None = None
    prefix_tokens: list[str] = Field(default_factory=list)

    @model_validator(mode="after")
    def _subword_file_given(self) -> PreprocessSpec:
        if self.subword == "bpe" and not self.bpe_codes:
            raise ValueError("preprocess.subword is bpe but preprocess.bpe_codes is not set")
        if self.subword == "sentencepiece" and not self.sentencepiece_model:
            raise ValueError("preprocess.subword is sentencepiece but preprocess.sentencepiece_model is not set")
        return self


class PostprocessSpec(_Strict):
    subword: Literal["bpe", "sentencepiece", "none"] = "bpe"
    sentencepiece_model: str | None = None
    detokenize: Literal["moses", "none"] = "moses"

    @model_validator(mode="after")
    def _spm_given(self) -> PostprocessSpec:
        if self.subword == "sentencepiece" and not self.sentencepiece_model:
            raise ValueError("postprocess.subword is sentencepiece but postprocess.sentencepiece_model is not set")
        return self


class FairseqSpec(_Strict):
    checkpoint: str
    data: str = "."


class ModelCard(_Strict):
    name: str
    source_lang: str = "cs"
    target_lang: str = "en"
    preprocess: PreprocessSpec = Field(default_factory=PreprocessSpec)
    postprocess: PostprocessSpec = Field(default_factory=PostprocessSpec)
    ctranslate2: str | None = None
    fairseq: FairseqSpec | None = None
    metrics: dict[str, float] = Field(default_factory=dict, description="e.g. valid_perplexity, set by training")
    provenance: dict[str, str] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _has_a_backend(self) -> ModelCard:
        if self.ctranslate2 is None and self.fairseq is None:
            raise ValueError("the card names no model: set ctranslate2 (a CTranslate2 model directory) "
                             "and/or fairseq (checkpoint + data)")
        return self


_BACKENDS = ("ctranslate2", "fairseq")


class ModelDir:
    """A validated model directory: every file its card names exists."""

    def __init__(self, root: str | Path):
        self.root = Path(root).expanduser().resolve()
        if not self.root.is_dir():
            raise ModelDirError(f"model directory {self.root} does not exist")
        card_path = self.root / CARD_FILE
        if not card_path.is_file():
            hint = ""
            if (self.root / "model.bin").is_file():
                hint = (" It looks like a bare CTranslate2 model: write a model card for it, e.g. with "
                        "`paranmt convert card`.")
            elif any(self.root.glob("*.npz")) and any(self.root.glob("*.spm")):
                hint = " It looks like an OPUS-MT/Marian model: convert it with `paranmt convert marian`."
            raise ModelDirError(f"model directory {self.root} has no {CARD_FILE}.{hint}")
        try:
            raw = yaml.safe_load(card_path.read_text(encoding="utf-8")) or {}
            self.card = ModelCard.model_validate(raw)
        except (yaml.YAMLError, ValidationError) as exc:
            raise ModelDirError(f"{card_path} is malformed: {exc}") from None
        self._missing: dict[str, list[str]] = {
            part: [f"{role} ({path})" for role, path in files if not path.exists()]
            for part, files in self._named_files().items()}
        # A directory serves when its shared files and at least one backend's are there: a model folder without
        # ct2/ still decodes with fairseq (its backend is then chosen by backend_problem / auto_backend).
        broken = [part for part in (*_BACKENDS, "") if self._missing.get(part)]
        if self._missing[""] or (broken and not any(self.complete(b) for b in _BACKENDS)):
            missing = [item for part in broken for item in self._missing[part]]
            raise ModelDirError(f"model directory {self.root} is incomplete; missing: {', '.join(missing)}: restore "
                                f"{'it' if len(missing) == 1 else 'them'}, or give --model a complete model directory")

    def path(self, relative: str) -> Path:
        return self.root / relative

    def _named_files(self) -> dict[str, list[tuple[str, Path]]]:
        """The files the card names, by the backend that needs them ("" for the text chain's, which every backend
        needs)."""
        card, files = self.card, {"": [], "ctranslate2": [], "fairseq": []}
        if card.preprocess.subword == "bpe":
            files[""].append(("preprocess.bpe_codes", self.path(card.preprocess.bpe_codes or "")))
        if card.preprocess.subword == "sentencepiece":
            files[""].append(("preprocess.sentencepiece_model", self.path(card.preprocess.sentencepiece_model or "")))
        if card.postprocess.subword == "sentencepiece":
            files[""].append(("postprocess.sentencepiece_model",
                              self.path(card.postprocess.sentencepiece_model or "")))
        if card.ctranslate2 is not None:
            files["ctranslate2"].append(("ctranslate2 model.bin", self.path(card.ctranslate2) / "model.bin"))
        if card.fairseq is not None:
            data = self.path(card.fairseq.data)
            files["fairseq"] += [
                ("fairseq.checkpoint", self.path(card.fairseq.checkpoint)),
                ("fairseq source dictionary", data / f"dict.{card.source_lang}.txt"),
                ("fairseq target dictionary", data / f"dict.{card.target_lang}.txt"),
            ]
        return files

    def complete(self, backend: str) -> bool:
        """The card names a model for the built-in ``backend`` ("ctranslate2", "fairseq") and its files are here."""
        named = self.card.ctranslate2 if backend == "ctranslate2" else self.card.fairseq
        return named is not None and not self._missing[backend]

    @property
    def auto_backend(self) -> str:
        """The built-in backend ``auto`` starts with: CTranslate2 where its model is here, else fairseq."""
        return "ctranslate2" if self.complete("ctranslate2") else "fairseq"

    def backend_problem(self, backend: str) -> str | None:
        """Why the built-in ``backend`` cannot decode from this directory, as one line naming the fix (None: it
        can)."""
        if self.complete(backend):
            return None
        other = "fairseq" if backend == "ctranslate2" else "ctranslate2"
        instead = f"use --backend {other} (its files are here)" if self.complete(other) else ""
        if backend == "ctranslate2" and self.card.ctranslate2 is None:
            fix = "convert one with paranmt convert" + (f", or {instead}" if instead else "")
            return f"--backend ctranslate2: the card of {self.root} names no CTranslate2 model: {fix}"
        if backend == "fairseq" and self.card.fairseq is None:
            fix = instead or "name one in its model card (fairseq: checkpoint, data)"
            return f"--backend fairseq: the card of {self.root} names no fairseq checkpoint: {fix}"
        missing = self._missing[backend]
        fix = f"restore {'it' if len(missing) == 1 else 'them'}" + (f", or {instead}" if instead else "")
        return f"--backend {backend}: model directory {self.root} lacks {', '.join(missing)}: {fix}"

    @property
    def ct2_dir(self) -> Path | None:
        return None if self.card.ctranslate2 is None else self.path(self.card.ctranslate2)

    @property
    def model_id(self) -> str:
        return self.card.name


def write_card(root: str | Path, card: ModelCard) -> Path:
    path = Path(root) / CARD_FILE
    path.write_text(yaml.safe_dump(card.model_dump(mode="json", exclude_none=True), sort_keys=False),
                    encoding="utf-8")
    return path
