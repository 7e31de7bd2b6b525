"""Pair scores, training filters, decile folds and corpus reports (ParaNMT-50M §3, §5.4, Tables 1, 3 and 5).

Beam-free, vectorised cores over Arrow tables in the :mod:`core.pair_schema` layout, shared by the pipeline, the
trainer and the tests: :mod:`filters.trigram`, :mod:`filters.paragram`, :mod:`filters.scores`,
:mod:`filters.rules`, :mod:`filters.folds`, :mod:`pipeline.analysis.corpus_report`.
"""
