"""Sentence encoders of ParaNMT-50M §4 (and Appendix A.2), the user-facing model, SIF models and saved models.

Components (``TrainConfig.model``; all take a :class:`~train_embeddings.vocab.SentenceBatch`):

* ``word`` — WORD: the mean of the word embeddings of the sentence (PARAGRAM-PHRASE, Wieting et al. 2016b).
* ``trigram`` — TRIGRAM: the mean of the character-trigram embeddings (CHARAGRAM, Wieting et al. 2016a).
* ``sp`` — SP: the mean of SentencePiece piece embeddings (ParaGram-SP, Wieting et al., "Paraphrastic
  Representations at Scale"); the SentencePiece model is trained on the training pairs (``sp_vocab_size``).
* ``static`` — STATIC: the mean of the table rows of a teacher tokenizer's pieces of the raw sentence, the table
  starting from the teacher's model2vec distillation (:mod:`train_embeddings.static`; ``teacher``,
  ``static_pca_dims``).
* ``lstm`` — LSTM: the mean of the hidden states (``lstm_dim``, e.g. 300 or 900).
* ``blstm`` — BLSTM: forward and backward states averaged (no concatenation), then the mean over time.
* ``blstm-cat`` / ``blstm-max`` — Appendix A.2: forward and backward states concatenated (``2 x lstm_dim``; with
  ``lstm_dim`` 2048 the 4096-d models), then mean- or max-pooled over time.

The other encoders of Wieting et al. (ICLR 2016, "Towards universal paraphrastic sentence embeddings", §3) and of
CSE (a convolutional sentence encoder trained with the same margin loss):

* ``proj`` — projection, eq. 2: ``W_p · mean(words) + b`` (output ``hidden_dim``; 0 = the word size).
* ``dan`` — deep averaging network (Iyyer et al. 2015): the word mean through ``dan_layers`` affine layers, each
  followed by ``dan_activation`` (tanh or ReLU).
* ``rnn`` — Elman RNN, eqs. 3–4: ``h_t = f(W_x x_t + W_h h_{t-1} + b)``, ``f`` = ``rnn_activation``; the last
  hidden state.
* ``irnn`` — identity-RNN: the same recurrence with identity activation, ``W_x = W_h = I`` and ``b = 0`` at
  initialisation, output ``h_n / n``; before training it *is* word averaging. Its ``λ_c`` term pulls it back toward
  that initialisation (:meth:`~train_embeddings.models.iclr16.IdentityRNN.composition_penalty`).
* ``lstm-peep`` / ``lstm-peep-nog`` — the LSTM of eqs. 5–10 (Gers et al. 2003 peephole connections: the input and
  forget gates see ``c_{t-1}``, the output gate sees ``c_t``; diagonal peephole weights as in Gers et al. and the
  paper's Lasagne code), with and without the output gate (``h_t = tanh(c_t)``: the paper's "LSTM (no o.g.)").
  ``peep_pool``: ``last`` hidden state (ICLR'16) or ``mean`` over the words (as ParaNMT-50M pools its LSTM).
* ``cse`` — CSE: convolutions of widths ``cse_widths`` (1, 2, 3) with ``cse_maps`` (100) feature maps each over the
  word embeddings, linear activation (``w · x_{i:i+h-1} + b``), **sum** pooling over the ``n - h + 1`` windows of
  the sentence (none for a shorter sentence), the widths' features concatenated (300).

Combinations (trained jointly, all parameters from scratch): ``word,trigram`` concatenates the component
embeddings, ``word+trigram`` adds them (the components must then have one size).

Padding and masking: WORD and TRIGRAM use ``embedding_bag`` over flat ids with offsets — there is no padding at
all, so an embedding never depends on the other sentences of its batch. The recurrent models pack their padded
input (``pack_padded_sequence``), so padding never enters a state, and pooling masks the padded positions. An
empty sentence embeds to the zero vector (``proj`` / ``dan``: their affine layers applied to it). Unknown
tokens map to ``<unk>``, whose word vector starts at zero when pretrained vectors are used (so an untrained WORD
model ranks pairs exactly as averaging the known words does).

Word scrambling (Wieting & Gimpel 2017; rate 0.3 in ParaNMT-50M §5.2) is applied by the recurrent components to
the sentences the trainer marks: their words are shuffled (one random permutation per sentence, drawn with the
trainer's generator, vectorised with an argsort of random keys). Order-free components ignore it.

The ICLR'16 recurrences (``irnn``, ``lstm-peep*``) are explicit loops over time steps, vectorised over the batch:
the input projections of all steps are one matrix product, each step one recurrent product, and a sentence's state
only advances on its own words (``torch.where`` on the step mask), so padding never enters a state. ``rnn`` uses
``nn.RNN`` on packed sequences. ``cse`` masks every window that reaches past the sentence's end.

Modules, one encoder family each, as sentence-transformers keeps its ``models/`` (no re-exports: import from the
module, so that ``sif`` and ``pairing`` stay torch-free):

* :mod:`~train_embeddings.models.spec` — the component names and :class:`~train_embeddings.models.spec.ModelSpec`;
* :mod:`~train_embeddings.models.word_table` — the word table of every word component;
  :mod:`~train_embeddings.models.word_sequences` — padded word sequences and scrambling;
* :mod:`~train_embeddings.models.word_average` (WORD), :mod:`~train_embeddings.models.bag_average` (TRIGRAM, SP),
  :mod:`~train_embeddings.models.lstm` (LSTM, BLSTM), :mod:`~train_embeddings.models.iclr16` (proj, dan, rnn,
  irnn, lstm-peep), :mod:`~train_embeddings.models.cse` (CSE), :mod:`~train_embeddings.models.static_average`
  (STATIC);
* :mod:`~train_embeddings.models.encoder` — :class:`~train_embeddings.models.encoder.SentenceEncoder` (the
  components of a spec, combined) and ``build_encoder``;
* :mod:`~train_embeddings.models.embedding_model` — :class:`~train_embeddings.models.embedding_model.EmbeddingModel`:
  raw sentences in, vectors out;
* :mod:`~train_embeddings.models.sif` — SIF models (NumPy); :mod:`~train_embeddings.models.pairing` — the two
  sides of ``similarity(a, b)``;
* saved models — :mod:`~train_embeddings.models.model_io` (save, the generic ``load_model`` and its loader
  registry, export word vectors) over :mod:`~train_embeddings.models.model_dir` (what every kind of model
  directory shares, torch-free for SIF: ``model.json``, finding the model in a run, atomic directory writes). A
  saved model names no module path (``model.json`` holds a spec, ``weights.pt`` plain tensors), so modules can move
  without breaking one.
"""
