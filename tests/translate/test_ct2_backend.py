"""CTranslate2 on CPU workers: the thread plan, asynchronous batches that translate a chunk the same way whatever
the threads do, failure isolation with asynchronous batches, and decoding under a vocabulary shortlist."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from configs.schema import TranslateConfig
from tests.support.shared_data import small_cs_en
from tests.support.taste_data import TASTE_DATA, taste_data
from tests.support.text_files import read_lines
from translate.card import ModelDirError
from translate.ct2_backend import ThreadPlan, plan_threads
from translate.loading import load_translator
from translate.translator import Status, Translator
from translate.vmap import write_vmap


def test_the_cpu_bucket_is_the_default_on_cpu(small_model):
    """translate.max_batch_tokens None: 512-token buckets on CPU (docs/translate-cpu.md), for the Translator's
    buckets and for CTranslate2's own batch limit alike."""
    translator = load_translator(small_config(small_model, max_batch_tokens=None))
    assert translator.batch_tokens == 512 == translator.backend._options["max_batch_size"]
    assert load_translator(small_config(small_model)).batch_tokens == 160, "a set budget wins"


def test_thread_plan_defaults_to_one_batch_per_core():
    auto = TranslateConfig()
    assert plan_threads(auto, "cpu", cores=1) == ThreadPlan(1, 1)
    assert plan_threads(auto, "cpu", cores=2) == ThreadPlan(2, 1)
    assert plan_threads(auto, "cpu", cores=16) == ThreadPlan(16, 1)
    assert plan_threads(TranslateConfig(threads=4), "cpu", cores=16) == ThreadPlan(4, 1)
    assert plan_threads(TranslateConfig(threads=8, intra_threads=2), "cpu", cores=16) == ThreadPlan(4, 2)
    assert plan_threads(TranslateConfig(threads=8, inter_threads=2), "cpu", cores=16) == ThreadPlan(2, 4)
    assert plan_threads(TranslateConfig(inter_threads=3, intra_threads=5), "cpu", cores=2) == ThreadPlan(3, 5)
    assert plan_threads(auto, "cuda", cores=16) == ThreadPlan(1, 0)
    assert plan_threads(TranslateConfig(inter_threads=2), "cuda", cores=16) == ThreadPlan(2, 0)


@pytest.fixture(scope="module")
def small_model() -> Path:
    return small_cs_en()


@pytest.fixture(scope="module")
def real_chunk() -> list[str]:
    """48 real Czech sentences of mixed lengths and sources (Tatoeba's everyday sentences, software help)."""
    lines = []
    for name, start in [("bitext/tatoeba.cs", 0), ("bitext/tatoeba.cs", 500),
                        ("bitext-software/libreoffice-help.cs", 40)]:
        lines += read_lines(taste_data(name, start + 16))[start : start + 16]
    return lines


def small_config(model: Path, **overrides) -> TranslateConfig:
    # Beam 4 and small buckets keep the test in seconds while the chunk still makes several batches.
    values = {"model": model, "backend": "ctranslate2", "device": "cpu", "compute_type": "int8", "beam_size": 4,
              "max_batch_tokens": 160, "threads": 2}
    return TranslateConfig(**{**values, **overrides})


def fingerprint(translations) -> list[tuple]:
    return [(t.status, t.hypothesis, t.tokens, t.score) for t in translations]


def test_asynchronous_batches_translate_a_chunk_like_todays_synchronous_path(small_model, real_chunk):
    """Two batches at once on one core each, submitted longest first, give the bytes that one batch at a time
    on two cores gives (today's path), and the same bytes on every repetition."""
    parallel = load_translator(small_config(small_model, inter_threads=2, intra_threads=1))
    assert parallel.backend.threads == ThreadPlan(2, 1)
    runs = [fingerprint(parallel.translate(real_chunk)) for _ in range(5)]
    assert all(run == runs[0] for run in runs[1:]), "a chunk must translate the same way every time"
    assert parallel.stats.batches >= 5 * 4, "the chunk must make several batches"
    today = load_translator(small_config(small_model, inter_threads=1, intra_threads=2))
    synchronous = Translator(today.model_dir, _WithoutSubmit(today.backend), today.config)
    assert fingerprint(synchronous.translate(real_chunk)) == runs[0]
    assert all(t.status is Status.OK and t.hypothesis for t in parallel.translate(real_chunk))


class _WithoutSubmit:
    def __init__(self, inner):
        self.inner, self.name, self.device = inner, inner.name, inner.device

    def decode(self, batch):
        return self.inner.decode(batch)

    def recover(self):
        self.inner.recover()


class _FlakyAsync(_WithoutSubmit):
    """A real asynchronous backend whose batches holding ``poison`` fail, at submission or when read."""

    def __init__(self, inner, poison: str, at_submit: bool):
        super().__init__(inner)
        self.poison, self.at_submit = poison, at_submit

    def _poisoned(self, batch) -> bool:
        return any(" ".join(tokens) == self.poison for tokens in batch)

    def decode(self, batch):
        if self._poisoned(batch):
            raise ValueError("cannot decode this sentence")
        return self.inner.decode(batch)

    def submit(self, batch):
        if self._poisoned(batch):
            if self.at_submit:
                raise ValueError("cannot decode this sentence")
            return _Raises()
        return self.inner.submit(batch)


class _Raises:
    def result(self):
        raise ValueError("cannot decode this sentence")


@pytest.mark.parametrize("at_submit", [True, False])
def test_a_failing_asynchronous_batch_fails_only_its_bad_sentence(small_model, real_chunk, at_submit):
    good = load_translator(small_config(small_model, inter_threads=2, intra_threads=1))
    poison = " ".join(good.encoder.encode_batch([real_chunk[20]])[0])
    flaky = Translator(good.model_dir, _FlakyAsync(good.backend, poison, at_submit), good.config)
    out = flaky.translate(real_chunk)
    assert out[20].status is Status.FAILED and "cannot decode this sentence" in out[20].error
    reference = good.translate(real_chunk)
    others = [i for i in range(len(real_chunk)) if i != 20]
    assert all(out[i].status is Status.OK for i in others)
    # sentences whose batch did not fail keep their bytes; the failed batch's others were decoded in halves
    assert sum(out[i].hypothesis == reference[i].hypothesis for i in others) >= len(others) - 4


def test_vmap_with_every_target_token_changes_nothing(small_model, real_chunk, tmp_path):
    vocab = json.loads((small_model / "ct2" / "target_vocabulary.json").read_text(encoding="utf-8"))
    full = tmp_path / "full.vmap"
    write_vmap(full, vocab, {})
    plain = fingerprint(load_translator(small_config(small_model)).translate(real_chunk))
    assert fingerprint(load_translator(small_config(small_model, vmap=full)).translate(real_chunk)) == plain


def test_a_narrow_vmap_restricts_the_output_to_its_candidates(small_model, real_chunk, tmp_path):
    allowed = ["</s>", "<unk>", "a", "the", "man", "woman", "is", ".", ","]
    narrow = tmp_path / "narrow.vmap"
    write_vmap(narrow, allowed, {})
    out = load_translator(small_config(small_model, vmap=narrow)).translate(real_chunk)
    # CTranslate2 may also emit the start token <s> when the map leaves a long sentence almost no word
    assert all(set(t.tokens) <= {*allowed, "<s>"} for t in out)


@pytest.mark.parametrize(("content", "message"), [
    (b"", "it is empty"), (b"pes dog\n", "line 1 has no tab"), (b"\xff\xfe\t\n", "not UTF-8"),
])
def test_a_bad_vmap_file_is_a_one_line_error(small_model, tmp_path, content, message):
    path = tmp_path / "vmap.txt"
    path.write_bytes(content)
    with pytest.raises(ModelDirError, match=message):
        load_translator(small_config(small_model, vmap=path))
    with pytest.raises(ModelDirError, match="cannot read the vocabulary map"):
        load_translator(small_config(small_model, vmap=tmp_path / "absent.txt"))


def test_the_translation_cache_key_follows_the_vmap_bytes_the_bucket_and_the_cores_per_batch(tmp_path):
    from configs.schema import TranslateConfig
    from pipeline.stages.backtranslate import TranslationCache

    first, second = tmp_path / "a.txt", tmp_path / "b.txt"
    first.write_text("\t</s> a\n", encoding="utf-8")
    second.write_text("\t</s> the\n", encoding="utf-8")

    def key(device: str = "cpu", **translate) -> tuple:
        return TranslationCache.for_run(TranslateConfig.model_validate(translate), str(tmp_path), "m",
                                        device).settings

    assert key() != key(vmap=first) != key(vmap=second)
    assert key(vmap=first) == key(vmap=first)
    assert key(max_batch_tokens=1024) != key()
    assert key(inter_threads=2) == key(), "how many batches run at once changes no translation"
    assert key(intra_threads=2) != key(), "the cores sharing a batch can change a float32 score's last digits"
    # the budgets the device decodes with, defaults resolved: the CPU's default is its 512 tokens, a GPU's is not
    assert key(max_batch_tokens=512, max_batch_sentences=512) == key()
    assert key("cuda") != key() and key("cuda", max_batch_tokens=512, max_batch_sentences=512) != key()


def test_auto_compute_type_on_cuda_is_float16_in_the_backend_and_the_cache_key(tmp_path, monkeypatch):
    """compute_type auto on a CUDA card that has float16 means float16 (faster than CTranslate2's own int8_float16
    there at the same hypotheses: docs/scaling.md), resolved before the cache key is made; the CPU's auto, an
    explicit type and a card without float16 are left as they are."""
    from configs.schema import TranslateConfig
    from pipeline.stages.backtranslate import TranslationCache
    from translate.cpu_kernel import FASTEST, import_ctranslate2
    from translate.ct2_backend import compute_type_for

    ctranslate2 = import_ctranslate2(FASTEST)

    monkeypatch.setattr(ctranslate2, "get_supported_compute_types",
                        lambda device: {"float32", "int8_float16", "float16", "int8"})
    assert compute_type_for("auto", "cuda", FASTEST) == "float16"
    assert compute_type_for("auto", "cpu", FASTEST) == "auto"
    assert compute_type_for("int8_float16", "cuda", FASTEST) == "int8_float16"

    def key(**translate) -> dict:
        return dict(TranslationCache.for_run(TranslateConfig.model_validate(translate), str(tmp_path), "m",
                                             "cuda").settings)

    assert key()["compute_type"] == "float16" and key() == key(compute_type="float16")
    assert key(backend="fairseq")["compute_type"] == "auto", "fairseq's auto is float32, not CTranslate2's"
    monkeypatch.setattr(ctranslate2, "get_supported_compute_types", lambda device: {"float32", "int8"})
    assert compute_type_for("auto", "cuda", FASTEST) == "auto"


def test_translate_cpu_bench_smoke(small_model, tmp_path):
    """The side-by-side benchmark end to end in seconds (the measured run is in docs/translate-cpu.md)."""
    from tests.support.repo import load_benchmark

    out = tmp_path / "bench.json"
    bitext = tmp_path / "bitext"  # the bundled real Czech, two domains, as a bitext folder (the bench reads *.cs)
    bitext.mkdir()
    for name in ("bitext/tatoeba.cs", "bitext-software/libreoffice-help.cs"):
        (bitext / Path(name).name).write_bytes((TASTE_DATA / name).read_bytes())
    bench = load_benchmark("translate/translate_cpu_bench")
    assert bench.main(["--model", str(small_model), "--bitext", str(bitext), "--parts", "speed",
                       "identity", "--sentences", "6", "--identity-sentences", "6", "--repeats", "2",
                       "--no-fairseq", "--compute-types", "int8", "--beam", "2", "--extra", "today@512",
                       "--json", str(out)]) == 0
    report = json.loads(out.read_text())
    cases = {row["name"]: row for row in report["speed"]}
    assert set(cases) == {"today int8", "new int8", "percore int8", "today int8 @512"}
    assert all(row["repeatable"] and len(row["seconds"]) == 2 for row in cases.values())
    assert cases["today int8"]["vs_today"]["seconds"] == pytest.approx(1.0)
    identity = report["identity"]
    assert identity["int8: percore vs today"]["identical_bytes"] is True, "the thread split changes nothing"
    assert identity["int8: new vs today @512"]["identical_bytes"] is True
    macs = bench.Architecture.of(small_model).macs(22, 22, 12)
    assert 1.2e9 < macs < 1.3e9, "1.25 GMAC for a 22-token sentence at beam 12 (docs/translate-cpu.md)"
