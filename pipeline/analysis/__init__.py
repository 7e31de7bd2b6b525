"""What the project derives from a finished corpus: the PMI paraphrase lexicon (:mod:`.lexicon`: counting, PMI,
shards, queries, evaluation, and the Beam branch that builds it inside a run) and the corpus statistics report of
ParaNMT-50M Tables 1 and 3 (:mod:`.corpus_report`). Both read a run's Parquet output; only the lexicon's shard
writer and Beam branch import Beam."""
