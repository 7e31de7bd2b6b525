"""The NMT back-translation worker: one :class:`~translate.translator.Translator` over CTranslate2 or fairseq, with
the model card's text chain, token-bucketed batching and per-sentence failure isolation.

Importing the package loads nothing: :func:`translate.loading.load_translator` builds a translator, and
:func:`translate.cpu_kernel.import_ctranslate2` is the one place CTranslate2 is imported.
"""
