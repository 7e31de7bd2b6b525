"""A synthetic "toy Czech" -> English corpus for the tests' toy translation models (no tests here)."""

from __future__ import annotations

import random

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
