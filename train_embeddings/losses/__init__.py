"""Negative mining over a mega-batch and the margin loss of ParaNMT-50M §4 (Wieting et al. 2016b, §3.1).

Two modules in the style of sentence-transformers losses (one ``nn.Module`` per objective, documented inputs):

* :mod:`~train_embeddings.losses.negative_mining` — :class:`~train_embeddings.losses.negative_mining.MegaBatchMiner`:
  given the no-grad embeddings of the ``N = M x batch`` pairs of a mega-batch, picks a negative for each of the
  ``2N`` sentences: the most similar other sentence (MAX), or with MIX a uniformly random one with probability 0.5.
  One masked ``2N x 2N`` similarity product, no Python loop.
* :mod:`~train_embeddings.losses.margin_loss` — :class:`~train_embeddings.losses.margin_loss.MarginLoss`:
  ``max(0, δ − cos(s, s′) + cos(s, t)) + max(0, δ − cos(s, s′) + cos(s′, t′))``, averaged over pairs; and the
  training statistics of its terms.
"""
