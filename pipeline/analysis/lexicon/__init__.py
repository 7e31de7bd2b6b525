"""PMI paraphrase lexicon from sentence pairs (ParaNMT-50M, Appendix A.1): counts on Arrow tables, outputs through
Beam's file systems (local or object stores).

    paranmt lexicon build --input runs/x/pairs --out runs/x/lexicon [--config NAME] [--set lexicon.k=v]
    paranmt lexicon neighbours --lexicon runs/x/lexicon laughed respectful [-k 20] [--min-joint 10]
    paranmt lexicon evaluate --lexicon runs/x/lexicon --wordsim ../shared/data/wordsim/EN-MEN-TR-3k.txt

**Counting units.** A pair is (reference ``en_tokens``, translation ``mt_tokens``); every sentence is reduced to
its set of word *types* (lower-cased, punctuation and stop words left out, in the vocabulary), so a word repeated
in a sentence counts once. With P the pairs used and N = 2P the sentences:

- ``#(u)``: sentences (of either side) containing u; ``#_ref(u)`` / ``#_mt(u)`` per side.
- ``#(u, v)`` (cross): ordered (sentence, its paraphrase) pairs -- each pair counted in both directions -- with u in
  the first and v in the second; symmetric, ``#(u, v) = sum over pairs [u in a][v in b] + [u in b][v in a]``.
- ``#(., .)``: the number of ordered (sentence, paraphrase) pairs, 2P = N. Then
  ``PMI_cross = log(#(u,v) #(.,.) / (#(u) #(v)))`` is exactly log P(u in s, v in s') / (P(u in s) P(v in s')).
- Within-sentence counts ``#_X(u, v)``: sentences of side X (X = ref or mt) containing both u and v (u != v);
  ``PMI_X = log((#_X(u,v) + b) / (#_X(u) #_X(v) / P + b))`` with b = ``within_prior`` (:func:`within_pmi`:
  paraphrases seldom share a sentence, so the plain estimate of the best pairs is -inf, and a pair of rare words
  has no evidence either way: the prior keeps it at 0); ``PMI = (PMI_ref + PMI_mt) / 2``, and
  ``PMI_adj = PMI_cross - PMI``.

Modules, in the order the data flows (each imports only those before it):

* :mod:`~pipeline.analysis.lexicon.counting` — which pairs count, pass 1 (word types per side, the vocabulary) and
  pass 2 (word-pair counts), and both passes over tables or Parquet shards (the stand-alone build);
* :mod:`~pipeline.analysis.lexicon.pmi` — the PMI table of the counted pairs and each word's top k;
* :mod:`~pipeline.analysis.lexicon.shards` — the written lexicon: shards, ``vocabulary.parquet``, ``top_k.tsv``,
  ``stats.json``, and finding the shards again;
* :mod:`~pipeline.analysis.lexicon.query` — a word's paraphrases, the scores of word pairs;
* :mod:`~pipeline.analysis.lexicon.evaluation` — Spearman's rho against word-similarity sets;
* :mod:`~pipeline.analysis.lexicon.transforms` — the Beam branch that builds it inside ``paranmt run --lexicon``.

Only ``shards`` (Beam's file systems) and ``transforms`` import Beam.
"""
