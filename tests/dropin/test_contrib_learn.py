"""``tf.contrib.learn.preprocessing.VocabularyProcessor`` under ``run``.

The cookbook's spam RNN and bag-of-words scripts (and CNN text classifiers after them) number
their words with ``tf.contrib.learn.preprocessing.VocabularyProcessor(max_len,
min_frequency=...)``, reached as ``tf.contrib.learn`` or ``from tensorflow.contrib import learn``
and sometimes subclassed; the drop-in's does what TF 1.15's did
(tensorflow/contrib/learn/python/learn/preprocessing/text.py).
"""

from __future__ import annotations

import pytest

from tests._child import run_script

pytest.importorskip("tensorflow")

SCRIPT = r"""
    import numpy as np
    import tensorflow as tf
    from tensorflow.contrib import learn
    from tests._child import emit

    texts = ["Free entry now", "free CALL now now", "ok see you", "HTTPServer isn't up"]
    vocab_processor = tf.contrib.learn.preprocessing.VocabularyProcessor(4, min_frequency=1)
    ids = np.array(list(vocab_processor.fit_transform(texts)))
    out = {"ids": ids.tolist(), "dtype": str(ids.dtype), "size": len(vocab_processor.vocabulary_),
           "mapping": vocab_processor.vocabulary_._mapping,
           "unseen": [x.tolist() for x in vocab_processor.transform(["now free again"])]}

    def characters(docs):
        for doc in docs:
            yield list(doc)

    class CharProcessor(learn.preprocessing.VocabularyProcessor):
        def __init__(self, length):
            super().__init__(length, tokenizer_fn=characters)

    chars = CharProcessor(6)
    out["chars"] = [x.tolist() for x in chars.fit_transform(["abca", "HTTPServer"])]
    out["words"] = list(learn.preprocessing.tokenizer(["HTTPServer isn't up-to-date"]))
    out["reverse"] = list(chars.reverse([[1, 2, 3, 0]]))
    chars.save("vocab.pkl")
    again = learn.preprocessing.VocabularyProcessor.restore("vocab.pkl")
    out["restored"] = [x.tolist() for x in again.transform(["cab"])]
    try:
        tf.contrib.learn.Estimator
    except AttributeError as error:
        out["estimator"] = str(error)
    emit(out)
"""


def test_the_vocabulary_processor_numbers_words_as_tf1s(tmp_path):
    run = run_script(tmp_path, SCRIPT)
    assert run.rc == 0, run.err
    out = run.result
    # min_frequency=1 keeps the words seen twice or more: "now" (3 times), then "free" is
    # not one ("Free" and "free" differ), so only "now"; the rest is 0 (unknown, padding)
    assert out["mapping"] == {"<UNK>": 0, "now": 1}
    assert out["ids"] == [[0, 0, 1, 0], [0, 0, 1, 1], [0, 0, 0, 0], [0, 0, 0, 0]]
    assert out["dtype"] == "int64"
    assert out["size"] == 2
    assert out["unseen"] == [[1, 0, 0, 0]]
    # without min_frequency: ids in order of first sight, cut to the length
    assert out["chars"] == [[1, 2, 3, 1, 0, 0], [4, 5, 5, 6, 7, 8]]
    assert out["words"] == [["HTTP", "Server", "isn't", "up-to-date"]]
    assert out["reverse"] == ["a b c <UNK>"]
    assert out["restored"] == [[3, 1, 2, 0, 0, 0]]
    assert "tf.contrib.learn.Estimator: tf.contrib was removed" in out["estimator"]
    assert "(Of tf.contrib.learn the drop-in provides preprocessing.)" in out["estimator"]
