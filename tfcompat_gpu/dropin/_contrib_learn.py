"""``tf.contrib.learn.preprocessing``'s vocabulary under ``run``: ``VocabularyProcessor``.

TF1 text tutorials (spam and sentiment RNNs, bag-of-words, CNN text classifiers) turn sentences
into word ids with ``tf.contrib.learn.preprocessing.VocabularyProcessor`` (also ``from
tensorflow.contrib import learn``, and subclassed); it was plain Python and NumPy
(tensorflow/contrib/learn/python/learn/preprocessing/text.py and categorical_vocabulary.py,
TF 1.15), gone with ``tf.contrib``, and ``tf.keras.layers.TextVectorization`` splits and numbers
words otherwise.  The classes here do what TF 1.15's did: the same tokenizer, ids given in order of
first sight (0 for unknown words and padding), ``min_frequency`` trimming that renumbers by
descending count then by word, ``save`` / ``restore`` by pickle.  The rest of ``tf.contrib.learn``
(its Estimators, ``datasets``, ``ModeKeys``) is not provided.
"""

from __future__ import annotations

import pickle
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from typing import Any

__all__ = ["PREPROCESSING", "CategoricalVocabulary", "VocabularyProcessor", "tokenizer"]

TOKENIZER_RE = re.compile(r"[A-Z]{2,}(?![a-z])|[A-Z][a-z]+(?=[A-Z])|[\'\w\-]+", re.UNICODE)


def tokenizer(iterator: Iterable[str]) -> Iterator[list[str]]:
    """The words of each string: TF1's ``TOKENIZER_RE`` matches (acronyms, camel-case parts,
    runs of word characters, apostrophes and hyphens)."""
    for value in iterator:
        yield TOKENIZER_RE.findall(value)


class CategoricalVocabulary:
    """Categories to ids: ``unknown_token`` is 0, the others numbered as first seen."""

    def __init__(self, unknown_token: str = "<UNK>", support_reverse: bool = True) -> None:
        self._unknown_token = unknown_token
        self._mapping: dict[Any, int] = {unknown_token: 0}
        self._support_reverse = support_reverse
        if support_reverse:
            self._reverse_mapping: list[Any] = [unknown_token]
        self._freq: Any = defaultdict(int)
        self._freeze = False

    def __len__(self) -> int:
        return len(self._mapping)

    def freeze(self, freeze: bool = True) -> None:
        """A frozen vocabulary answers 0 for a category it does not have."""
        self._freeze = freeze

    def get(self, category: Any) -> int:
        """The id of ``category``, added unless the vocabulary is frozen (then 0)."""
        if category not in self._mapping:
            if self._freeze:
                return 0
            self._mapping[category] = len(self._mapping)
            if self._support_reverse:
                self._reverse_mapping.append(category)
        return self._mapping[category]

    def add(self, category: Any, count: int = 1) -> None:
        """Counts ``category`` (added first) ``count`` more times."""
        category_id = self.get(category)
        if category_id <= 0:
            return
        self._freq[category] += count

    def trim(self, min_frequency: int, max_frequency: int = -1) -> None:
        """Keeps the categories seen more than ``min_frequency`` times (and, with
        ``max_frequency`` > 0, fewer than it), renumbered by descending count then category."""
        ranked = sorted(
            sorted(self._freq.items(), key=lambda item: (isinstance(item[0], str), item[0])),
            key=lambda item: item[1],
            reverse=True,
        )
        self._mapping = {self._unknown_token: 0}
        if self._support_reverse:
            self._reverse_mapping = [self._unknown_token]
        idx = 1
        for category, count in ranked:
            if 0 < max_frequency <= count:
                continue
            if count <= min_frequency:
                break
            self._mapping[category] = idx
            idx += 1
            if self._support_reverse:
                self._reverse_mapping.append(category)
        self._freq = dict(ranked[: idx - 1])

    def reverse(self, class_id: int) -> Any:
        """The category of ``class_id``."""
        if not self._support_reverse:
            raise ValueError(
                "This vocabulary wasn't initialized with support_reverse to support reverse() function."
            )
        return self._reverse_mapping[class_id]


class VocabularyProcessor:
    """Documents to arrays of ``max_document_length`` word ids (cut or padded with 0)."""

    def __init__(
        self,
        max_document_length: int,
        min_frequency: int = 0,
        vocabulary: CategoricalVocabulary | None = None,
        tokenizer_fn: Callable[[Iterable[str]], Iterable[Iterable[Any]]] | None = None,
    ) -> None:
        self.max_document_length = max_document_length
        self.min_frequency = min_frequency
        self.vocabulary_ = vocabulary if vocabulary else CategoricalVocabulary()
        self._tokenizer = tokenizer_fn if tokenizer_fn else tokenizer

    def fit(self, raw_documents: Iterable[str], unused_y: Any = None) -> VocabularyProcessor:
        """Learns the vocabulary of ``raw_documents`` (then trimmed and frozen)."""
        for tokens in self._tokenizer(raw_documents):
            for token in tokens:
                self.vocabulary_.add(token)
        if self.min_frequency > 0:
            self.vocabulary_.trim(self.min_frequency)
        self.vocabulary_.freeze()
        return self

    def fit_transform(self, raw_documents: Iterable[str], unused_y: Any = None) -> Iterator[Any]:
        """:meth:`fit`, then :meth:`transform` (the documents are read twice: not a generator)."""
        self.fit(raw_documents)
        return self.transform(raw_documents)

    def transform(self, raw_documents: Iterable[str]) -> Iterator[Any]:
        """Yields each document's word ids, an int64 array of ``max_document_length``."""
        import numpy as np

        for tokens in self._tokenizer(raw_documents):
            word_ids = np.zeros(self.max_document_length, np.int64)
            for idx, token in enumerate(tokens):
                if idx >= self.max_document_length:
                    break
                word_ids[idx] = self.vocabulary_.get(token)
            yield word_ids

    def reverse(self, documents: Iterable[Iterable[int]]) -> Iterator[str]:
        """Yields each array of ids as its words joined by spaces."""
        for item in documents:
            yield " ".join(str(self.vocabulary_.reverse(class_id)) for class_id in item)

    def save(self, filename: str) -> None:
        """Pickles the processor to ``filename``."""
        with open(filename, "wb") as f:
            f.write(pickle.dumps(self))

    @classmethod
    def restore(cls, filename: str) -> Any:
        """The processor :meth:`save` wrote."""
        with open(filename, "rb") as f:
            return pickle.loads(f.read())


PREPROCESSING: dict[str, Any] = {
    "VocabularyProcessor": VocabularyProcessor,
    "CategoricalVocabulary": CategoricalVocabulary,
    "tokenizer": tokenizer,
}
"""The ``tf.contrib.learn.preprocessing`` names served."""
