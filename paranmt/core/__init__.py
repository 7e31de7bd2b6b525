"""The project's core: Beam-free and torch-free, imported by every other package.

``pair_schema`` (the Parquet contract and reason codes), ``text`` (Moses normalisation and the one cached
tokeniser), ``token_arrays`` (token-list columns as Arrow arrays), ``word_vectors`` and ``sif_weighting`` (word
vectors and SIF's component removal), ``correlation`` (Pearson and Spearman), ``chunking`` (fixed-size chunks of
an iterable), ``hf_imports`` (importing the optional Hugging Face stack beside the fairseq extra's broken
torchaudio).
"""
