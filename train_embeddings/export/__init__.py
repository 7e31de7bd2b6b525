"""``paranmt export``: a trained model in other libraries' formats.

* :mod:`~train_embeddings.export.model_export` — the command's dispatch (``export_model``, ``FORMATS``);
* :mod:`~train_embeddings.export.st_export` — a sentence-transformers directory (the ``st`` extra);
* :mod:`~train_embeddings.export.static_export` — a ``static`` model as a model2vec directory.

The sentence-transformers modules an exported directory names stay at :mod:`train_embeddings.st_modules`: that
dotted path is written into every exported ``modules.json``, so moving them would break exported models.
"""
