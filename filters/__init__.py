"""Pair scores, training rules and decile folds (ParaNMT-50M §3, §5.4, Table 5): Beam-free, vectorised over Arrow
tables in the :mod:`paranmt.core.pair_schema` layout, shared by the pipeline, the trainer and the tests.

:mod:`filters.trigram` and :mod:`filters.paragram` (the two pair scores), :mod:`filters.scores` (both over a
pairs table, and ``paranmt score``), :mod:`filters.rules` (threshold rules, each a keep-or-:class:`Reason`),
:mod:`filters.decontaminate` (evaluation sentences out of training), :mod:`filters.folds` (rank into folds and
select the training pairs). The Beam transforms that apply them at scale live in :mod:`pipeline`.
"""
