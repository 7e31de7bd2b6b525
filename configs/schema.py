"""Typed, validated configuration for every paranmt stage.

One top-level :class:`ParaNMTConfig` with one section per stage. Every model forbids unknown keys, so a typo in
a YAML file is an error that names the key instead of a silently ignored setting. Paths written in a YAML file
are resolved relative to that file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator, model_validator


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True, frozen=False)


def resolve_path(value: Path | str | None, info: ValidationInfo) -> Path | None:
    """Resolve a relative path against the directory of the YAML file it came from (if any)."""
    if value is None:
        return None
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


class ParaNMTConfig(_Section):
    """Everything a run needs; echoed into the metadata of every output."""

    seed: int = 1234
    translate: TranslateConfig = Field(default_factory=TranslateConfig)
