"""translate.vmap: the vocabulary shortlist ranked by local mutual information, checked against counting pairs by
hand on real Tatoeba sentences; the always-on tokens, the file format, and unequal sides refused."""

from __future__ import annotations

import math
from collections import Counter

import pytest

from tests.support.taste_data import TASTE_DATA
from tests.support.text_files import read_lines
from translate.ct2_backend import read_vmap
from translate.vmap import SPECIAL_TARGETS, build_vmap, concatenated_lines, write_vmap


def test_build_vmap_ranks_co_occurring_targets(tmp_path):
    source = [["pes", "běží"], ["pes", "spí"], ["kočka", "spí"], ["kočka", "běží"], ["pes"], ["pes"]]
    target = [["dog", "runs"], ["dog", "sleeps"], ["cat", "sleeps"], ["cat", "runs"], ["dog"], ["dog"]]
    always, mapping = build_vmap(source, target, ["pes", "kočka", "spí", "běží"],
                                 ["</s>", "<unk>", "dog", "cat", "runs", "sleeps"], per_source=1, always=0,
                                 min_joint=2)
    assert always == ["</s>", "<unk>"]
    assert mapping == {"pes": ["dog"], "kočka": ["cat"], "spí": ["sleeps"], "běží": ["runs"]}
    path = tmp_path / "v.txt"
    write_vmap(path, always, mapping)
    assert read_vmap(path).decode().splitlines()[0] == "\t</s> <unk>"


def _reference(source, target, source_vocab, target_vocab, always, min_joint):
    """The always-on tokens, and every candidate's LMI per source token, by counting pair by pair:
    LMI = joint * log(n * joint / (count_s * count_t)), candidates with a positive one only."""
    n = len(source)
    count_s = Counter(t for side in source for t in set(side) if t in source_vocab)
    count_t = Counter(t for side in target for t in set(side) if t in target_vocab)
    joint = Counter((s, t) for src, tgt in zip(source, target, strict=True)
                    for s in set(src) if s in source_vocab for t in set(tgt) if t in target_vocab)
    order = {t: i for i, t in enumerate(target_vocab)}
    frequent = sorted(count_t, key=lambda t: (-count_t[t], order[t]))[:always]
    always_tokens = list(dict.fromkeys([*SPECIAL_TARGETS, *frequent]))
    scores: dict[str, dict[str, float]] = {}
    for (s, t), c in joint.items():
        lmi = c * math.log(n * c / (count_s[s] * count_t[t]))
        if c >= min_joint and lmi > 0 and t not in always_tokens:
            scores.setdefault(s, {})[t] = lmi
    return always_tokens, scores


def test_the_shortlist_equals_counting_by_hand_on_real_sentences():
    """1,000 real Tatoeba pairs split on spaces, vocabularies of the words seen at least twice: the same always-on
    tokens and, per source word, candidates of the best LMI values, best first (among equal values either may come)."""
    cs = [line.split() for line in read_lines(TASTE_DATA / "bitext" / "tatoeba.cs")[:1000]]
    en = [line.split() for line in read_lines(TASTE_DATA / "bitext" / "tatoeba.en")[:1000]]
    source_vocab = sorted(w for w, c in Counter(w for s in cs for w in s).items() if c >= 2)
    target_vocab = ["</s>", "<unk>", *sorted(w for w, c in Counter(w for s in en for w in s).items() if c >= 2)]
    always, mapping = build_vmap(cs, en, source_vocab, target_vocab, per_source=5, always=30, min_joint=2)
    expected_always, lmi = _reference(cs, en, set(source_vocab), target_vocab, 30, 2)
    assert always == expected_always and len(always) == 32 and "Tom" in always
    assert set(mapping) == set(lmi) and len(mapping) > 100
    for word, chosen in mapping.items():
        values = [round(lmi[word][t], 9) for t in chosen]  # KeyError: a candidate the counts do not give
        assert values == sorted(values, reverse=True), word
        assert values == sorted((round(v, 9) for v in lmi[word].values()), reverse=True)[:5], word


def test_the_map_file_lists_the_always_on_line_then_sources_in_order(tmp_path):
    path = tmp_path / "vmap.txt"
    write_vmap(path, ["</s>", "<unk>", "the"], {"pes": ["dog", "hound"], "kočka": ["cat"]})
    assert path.read_text(encoding="utf-8") == "\t</s> <unk> the\nkočka\tcat\npes\tdog hound\n"


def test_unequal_sides_are_refused_and_files_concatenate(tmp_path):
    with pytest.raises(ValueError, match="3 source sides but 2 target sides"):
        build_vmap([["a"]] * 3, [["b"]] * 2, ["a"], ["b"])
    (tmp_path / "a.cs").write_text("jedna\ndvě\n", encoding="utf-8")
    (tmp_path / "b.cs").write_text("tři", encoding="utf-8")
    assert concatenated_lines([tmp_path / "a.cs", tmp_path / "b.cs"]) == ["jedna", "dvě", "tři"]
