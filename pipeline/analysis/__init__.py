"""What the project derives from a finished corpus: the PMI paraphrase lexicon (:mod:`.pmi_lexicon`, and the Beam
branch that builds it inside a run, :mod:`.lexicon_transforms`) and the corpus statistics report of ParaNMT-50M
Tables 1 and 3 (:mod:`.corpus_report`)."""
