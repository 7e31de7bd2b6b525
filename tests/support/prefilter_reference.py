"""The slow obvious reference of the pre-filter, dedup and pair records, one row at a time (the column-wise
stages are checked against it): the pre-filter's checks as an if-chain, dedup's choice among copies, and the pair
record."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from typing import Any

from paranmt.core import pair_schema as S
from paranmt.core.pair_schema import Reason, Stage
from paranmt.core.text import TextProcessor
from pipeline.records import ROW, rejection

_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\ufffd\u2028\u2029\ufeff]")
_NOT_ALNUM = re.compile(r"[\W_]+")


def prefilter_row(row: dict[str, Any], text: TextProcessor, *, max_source_tokens: int = 200,
                  max_ratio: float = 3.0, ratio_min_tokens: int = 6, min_alnum_ratio: float = 0.3
                  ) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """``(kept row with en_tokens and dedup_key, None)`` or ``(None, rejection)`` under the default rules."""
    cs, en = row[S.CS], row[S.EN]
    for side, value in ((S.CS, cs), (S.EN, en)):
        bad = _CONTROL.search(value)
        if bad:
            return None, rejection(row, Stage.PREFILTER, Reason.GARBAGE,
                                   f"{side} has control character U+{ord(bad.group()):04X} at {bad.start()}")
    cs_tokens, en_tokens = text.tokenize(cs, "cs"), text.tokenize(en, "en")
    if not cs_tokens or not en_tokens:
        empty = " and ".join(side for side, toks in ((S.CS, cs_tokens), (S.EN, en_tokens)) if not toks)
        return None, rejection(row, Stage.PREFILTER, Reason.EMPTY_SIDE, f"{empty} empty after normalisation")
    for side, value in ((S.CS, cs), (S.EN, en)):
        nonspace, alnum = len("".join(value.split())), len(_NOT_ALNUM.sub("", value))
        if nonspace and alnum < min_alnum_ratio * nonspace:
            return None, rejection(row, Stage.PREFILTER, Reason.GARBAGE, f"{side} has {alnum} letters/digits in "
                                   f"{nonspace} non-space characters (< {min_alnum_ratio:g})")
    cs_joined, en_joined = " ".join(cs_tokens), " ".join(en_tokens)
    if cs_joined.casefold() == en_joined.casefold():
        return None, rejection(row, Stage.PREFILTER, Reason.UNTRANSLATED, "cs equals en after normalisation")
    n_cs, n_en = len(cs_tokens), len(en_tokens)
    if n_cs > max_source_tokens:
        return None, rejection(row, Stage.PREFILTER, Reason.SOURCE_TOO_LONG,
                               f"cs has {n_cs} Moses tokens > {max_source_tokens}")
    longer, shorter = max(n_cs, n_en), min(n_cs, n_en)
    if longer >= ratio_min_tokens and longer > max_ratio * shorter:
        return None, rejection(row, Stage.PREFILTER, Reason.LENGTH_RATIO,
                               f"{n_cs} cs vs {n_en} en tokens: ratio {longer / shorter:.2f} > {max_ratio:g}")
    key = hashlib.blake2b(f"{cs_joined}\x00{en_joined}".encode(), digest_size=16).digest()
    return {**row, S.EN_TOKENS: en_tokens, "dedup_key": key}, None


def pick_duplicates(rows: Iterable[dict[str, Any]]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The first row in input order (the smallest row number), and ``duplicate`` rejections for the others."""
    ordered = sorted(rows, key=lambda r: r[ROW])
    kept = ordered[0]
    return kept, [rejection(r, Stage.DEDUP, Reason.DUPLICATE, f"duplicate of {kept[S.ID]}") for r in ordered[1:]]


def pair_record(row: dict[str, Any], text: TextProcessor, nmt_model_id: str | None
                ) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """A translated row -> ``(pair record in PAIRS_SCHEMA layout, None)`` or ``(None, translation_empty)``."""
    mt = row[S.MT]
    mt_tokens = text.tokenize(mt, "en") if mt else []
    if not mt_tokens:
        return None, rejection(row, Stage.TRANSLATE, Reason.TRANSLATION_EMPTY,
                               "machine translation is empty after normalisation")
    record = dict.fromkeys(S.PAIRS_SCHEMA.names)
    record.update({S.ID: row[S.ID], S.SOURCE: row[S.SOURCE], S.CS: row[S.CS], S.EN: row[S.EN], S.MT: mt,
                   S.EN_TOKENS: row[S.EN_TOKENS], S.MT_TOKENS: mt_tokens,
                   S.TRANSLATION_SCORE: row.get(S.TRANSLATION_SCORE), S.HIT_LENGTH_CAP: row.get(S.HIT_LENGTH_CAP),
                   S.NMT_MODEL_ID: nmt_model_id})
    return record, None
