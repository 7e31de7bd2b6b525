"""A small folder in the STS layout the evaluation reads, made of the bundled pairs."""

from __future__ import annotations

from pathlib import Path

from tests.support.taste_data import TASTE_PAIRS, taste_pairs


def write_sts_dir(root: Path) -> Path:
    """A small folder in the STS layout the evaluation reads (``STS13/STS.input|gs.tatoeba.txt``, ``STSB/sts-{train,
    dev,test}.csv``, the first 125 rows of dev and test marked ``track5.en-en``: the STS2017 selection), made of
    the bundled pairs (:func:`taste_pairs`), for tests that exercise reading and scoring, not published numbers.
    Every other pair is a real pair, the rest an English sentence with another pair's translation; the gold score
    is 5 x the Jaccard overlap of the two sentences' lower-cased word sets (made here, not human judgements).
    Pairs whose translation equals the sentence are left out: their cosine 1 ties, as STS pairs' do not."""
    _, en, mt = taste_pairs(TASTE_PAIRS)
    usable = [i for i in range(TASTE_PAIRS) if en[i] != mt[i]]

    def rows(start: int, stop: int) -> list[tuple[str, str, float]]:
        out = []
        for k in range(start, stop):
            i, j = usable[k], usable[(k + 7) % len(usable)]
            first, second = en[i], mt[i] if k % 2 == 0 else mt[j]
            a, b = set(first.lower().split()), set(second.lower().split())
            out.append((first, second, round(5 * len(a & b) / len(a | b), 3)))
        return out

    (root / "STS13").mkdir(parents=True)
    sts13 = rows(750, 1050)
    (root / "STS13" / "STS.input.tatoeba.txt").write_text("".join(f"{a}\t{b}\n" for a, b, _ in sts13), "utf-8")
    (root / "STS13" / "STS.gs.tatoeba.txt").write_text("".join(f"{g}\n" for _, _, g in sts13), "utf-8")
    (root / "STSB").mkdir()
    for split, start in (("train", 0), ("dev", 250), ("test", 500)):
        lines = [f"tatoeba\t{'track5.en-en' if split != 'train' and k < 125 else 'tatoeba'}\t2017\t{k:04d}\t{g}\t{a}"
                 f"\t{b}\n" for k, (a, b, g) in enumerate(rows(start, start + 250))]
        (root / "STSB" / f"sts-{split}.csv").write_text("".join(lines), "utf-8")
    return root
