"""paranmt's own shared pieces, under the distribution's name so no other package can claim their import names:
``paranmt.core`` (Beam-free, torch-free helpers every layer uses) and ``paranmt.cli`` (the ``paranmt`` command).
The design's packages (pipeline, translate, filters, train_embeddings, configs) stay top-level."""
