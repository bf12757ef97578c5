"""TensorFlow 1's MNIST tutorial loader, ``input_data.read_data_sets``, for TensorFlow 2.

``from tensorflow.examples.tutorials.mnist import input_data`` opened a great many TF1
tutorials and book chapters; TensorFlow 2.0 dropped the module from its package.  This is the
same contract on NumPy alone (TensorFlow 1.15's
``tensorflow/contrib/learn/python/learn/datasets/mnist.py``, which the tutorial module
re-exported): ``read_data_sets(train_dir, one_hot=True)`` reads the four IDX files of
``train_dir`` (``train-images-idx3-ubyte.gz``...), downloading the missing ones from
``source_url`` first, and returns ``train`` / ``validation`` / ``test`` :class:`DataSet` s whose
``next_batch(n)`` walks the examples in a new random order each epoch.  Images are rows of 784
floats in ``[0, 1]`` (``reshape=False``: 28x28x1; ``dtype=uint8``: the raw bytes), labels class
numbers or one-hot rows; the first ``validation_size`` training examples are the validation set.

``run`` serves it as ``tensorflow.examples.tutorials.mnist.input_data``; ``migrate`` imports it
from here.  One difference: TensorFlow 1 seeded NumPy's generator from the graph's seed when no
``seed`` was given; here NumPy's generator is left as the script set it.
"""

from __future__ import annotations

import gzip
import os
import tempfile
import urllib.request
from typing import Any, NamedTuple

import numpy as np

from tfcompat_gpu.errors import GPUConfigError

__all__ = [
    "DEFAULT_SOURCE_URL",
    "DataSet",
    "Datasets",
    "dense_to_one_hot",
    "extract_images",
    "extract_labels",
    "load_mnist",
    "read_data_sets",
]

DEFAULT_SOURCE_URL = "https://storage.googleapis.com/cvdf-datasets/mnist/"
"""Where TensorFlow 1 downloaded the files from (a mirror of Yann LeCun's site)."""

TRAIN_IMAGES = "train-images-idx3-ubyte.gz"
TRAIN_LABELS = "train-labels-idx1-ubyte.gz"
TEST_IMAGES = "t10k-images-idx3-ubyte.gz"
TEST_LABELS = "t10k-labels-idx1-ubyte.gz"

_IMAGES_MAGIC = 2051
_LABELS_MAGIC = 2049


class MnistDataError(GPUConfigError):
    """An MNIST file that cannot be read or fetched, or an argument the loader does not take."""


class Datasets(NamedTuple):
    train: DataSet
    validation: DataSet
    test: DataSet


def _header(stream: Any, count: int, name: str) -> list[int]:
    raw = stream.read(4 * count)
    if len(raw) != 4 * count:
        raise MnistDataError(f"MNIST file {name}: the file ends inside its header")
    return [int(v) for v in np.frombuffer(raw, dtype=">u4")]


def _open(f: Any) -> tuple[gzip.GzipFile, str]:
    name = str(getattr(f, "name", "<stream>"))
    return gzip.GzipFile(fileobj=f), name


def extract_images(f: Any) -> np.ndarray:
    """The images of an IDX image file (gzip), as uint8 ``[count, rows, cols, 1]``."""
    print("Extracting", getattr(f, "name", "<stream>"))
    stream, name = _open(f)
    with stream:
        try:
            magic, count, rows, cols = _header(stream, 4, name)
            if magic != _IMAGES_MAGIC:
                raise MnistDataError(
                    f"MNIST image file {name}: magic number {magic}, expected {_IMAGES_MAGIC}; "
                    "is it a label file, or not an MNIST file at all?"
                )
            data = stream.read(rows * cols * count)
        except (OSError, EOFError) as exc:
            raise MnistDataError(f"MNIST image file {name} cannot be read: {exc}") from None
    if len(data) != rows * cols * count:
        raise MnistDataError(
            f"MNIST image file {name} is truncated: {len(data)} bytes of image data, "
            f"{rows * cols * count} expected; delete it to download it again"
        )
    return np.frombuffer(data, dtype=np.uint8).reshape(count, rows, cols, 1)


def dense_to_one_hot(labels_dense: np.ndarray, num_classes: int) -> np.ndarray:
    """Class numbers as one-hot rows (float64, as TensorFlow 1 gave them)."""
    labels = np.asarray(labels_dense).ravel().astype(np.int64)
    one_hot = np.zeros((labels.shape[0], num_classes))
    one_hot[np.arange(labels.shape[0]), labels] = 1
    return one_hot


def extract_labels(f: Any, one_hot: bool = False, num_classes: int = 10) -> np.ndarray:
    """The labels of an IDX label file (gzip): uint8 class numbers, or one-hot rows."""
    print("Extracting", getattr(f, "name", "<stream>"))
    stream, name = _open(f)
    with stream:
        try:
            magic, count = _header(stream, 2, name)
            if magic != _LABELS_MAGIC:
                raise MnistDataError(
                    f"MNIST label file {name}: magic number {magic}, expected {_LABELS_MAGIC}; "
                    "is it an image file, or not an MNIST file at all?"
                )
            data = stream.read(count)
        except (OSError, EOFError) as exc:
            raise MnistDataError(f"MNIST label file {name} cannot be read: {exc}") from None
    if len(data) != count:
        raise MnistDataError(
            f"MNIST label file {name} is truncated: {len(data)} labels, {count} expected; "
            "delete it to download it again"
        )
    labels = np.frombuffer(data, dtype=np.uint8)
    return dense_to_one_hot(labels, num_classes) if one_hot else labels


def _numpy_dtype(dtype: Any) -> np.dtype[Any]:
    """``tf.float32``, ``np.uint8``, ``"float32"``... as a NumPy dtype (uint8 or float32)."""
    found: np.dtype[Any] | None
    try:
        found = np.dtype(getattr(dtype, "as_numpy_dtype", dtype))
    except TypeError:
        found = None
    if found is None or found not in (np.dtype(np.uint8), np.dtype(np.float32)):
        raise MnistDataError(
            f"read_data_sets(dtype={dtype!r}): expected float32 (images scaled to [0, 1]) or "
            "uint8 (the raw bytes)"
        )
    return found


class DataSet:
    """One split of MNIST: ``images``, ``labels``, ``num_examples``, ``next_batch(n)``."""

    def __init__(
        self,
        images: Any,
        labels: Any,
        fake_data: bool = False,
        one_hot: bool = False,
        dtype: Any = np.float32,
        reshape: bool = True,
        seed: int | None = None,
    ) -> None:
        if seed is not None:
            np.random.seed(seed)
        kind = _numpy_dtype(dtype)
        self.one_hot = one_hot
        if fake_data:
            self._num_examples = 10000
            images = labels = np.zeros((0,))
        else:
            images = np.asarray(images)
            labels = np.asarray(labels)
            if images.shape[0] != labels.shape[0]:
                raise MnistDataError(
                    f"DataSet: {images.shape[0]} images but {labels.shape[0]} labels; "
                    "give one label per image"
                )
            self._num_examples = images.shape[0]
            if reshape:
                if images.ndim != 4 or images.shape[3] != 1:
                    raise MnistDataError(
                        f"DataSet(reshape=True): images of shape {images.shape}, expected "
                        "[count, rows, cols, 1]; pass reshape=False to keep them as they are"
                    )
                images = images.reshape(images.shape[0], images.shape[1] * images.shape[2])
            if kind == np.float32:
                images = images.astype(np.float32) * np.float32(1.0 / 255.0)
        self._images: np.ndarray = images
        self._labels: np.ndarray = labels
        self._epochs_completed = 0
        self._index_in_epoch = 0

    @property
    def images(self) -> np.ndarray:
        return self._images

    @property
    def labels(self) -> np.ndarray:
        return self._labels

    @property
    def num_examples(self) -> int:
        return int(self._num_examples)

    @property
    def epochs_completed(self) -> int:
        return self._epochs_completed

    def _shuffle(self) -> None:
        order = np.arange(self._num_examples)
        np.random.shuffle(order)
        self._images = self._images[order]
        self._labels = self._labels[order]

    def next_batch(
        self, batch_size: int, fake_data: bool = False, shuffle: bool = True
    ) -> tuple[Any, Any]:
        """The next ``batch_size`` examples; an epoch's last batch is topped up from the next
        epoch, which starts in a new random order (``shuffle=False``: in the file's order)."""
        if fake_data:
            image = [1] * 784
            label: Any = [1] + [0] * 9 if self.one_hot else 0
            return [image] * batch_size, [label] * batch_size
        start = self._index_in_epoch
        if self._epochs_completed == 0 and start == 0 and shuffle:
            self._shuffle()
        if start + batch_size <= self._num_examples:
            self._index_in_epoch += batch_size
            return (
                self._images[start : self._index_in_epoch],
                self._labels[start : self._index_in_epoch],
            )
        self._epochs_completed += 1
        rest_images = self._images[start:]
        rest_labels = self._labels[start:]
        if shuffle:
            self._shuffle()
        self._index_in_epoch = batch_size - (self._num_examples - start)
        end = self._index_in_epoch
        return (
            np.concatenate((rest_images, self._images[:end]), axis=0),
            np.concatenate((rest_labels, self._labels[:end]), axis=0),
        )


def _maybe_download(name: str, directory: str, url: str) -> str:
    """``directory/name``, downloaded from ``url`` first where it is missing (atomically: an
    interrupted download leaves no half file behind)."""
    path = os.path.join(directory, name)
    if os.path.isfile(path):
        return path
    try:
        os.makedirs(directory, exist_ok=True)
        handle, partial = tempfile.mkstemp(prefix=f".{name}.", dir=directory)
        os.close(handle)
    except OSError as exc:
        raise MnistDataError(
            f"read_data_sets({directory!r}): cannot write {name} there ({exc}); "
            "give a folder you can write to, or put the four MNIST files in it"
        ) from None
    try:
        print(f"Downloading {url}")
        urllib.request.urlretrieve(url, partial)
        os.replace(partial, path)
    except (OSError, ValueError) as exc:
        raise MnistDataError(
            f"read_data_sets({directory!r}): {name} is not there and cannot be downloaded from "
            f"{url} ({exc}); copy the four MNIST files ({TRAIN_IMAGES}, {TRAIN_LABELS}, "
            f"{TEST_IMAGES}, {TEST_LABELS}) into that folder"
        ) from None
    finally:
        if os.path.exists(partial):
            os.unlink(partial)
    return path


def read_data_sets(
    train_dir: str,
    fake_data: bool = False,
    one_hot: bool = False,
    dtype: Any = np.float32,
    reshape: bool = True,
    validation_size: int = 5000,
    seed: int | None = None,
    source_url: str = DEFAULT_SOURCE_URL,
) -> Datasets:
    """MNIST's ``train`` (55,000 examples), ``validation`` (5,000) and ``test`` (10,000)."""
    options: dict[str, Any] = {"dtype": dtype, "reshape": reshape, "seed": seed}
    if fake_data:
        fake = [DataSet([], [], fake_data=True, one_hot=one_hot, **options) for _ in range(3)]
        return Datasets(*fake)
    _numpy_dtype(dtype)  # a wrong dtype is said before anything is downloaded
    url = source_url or DEFAULT_SOURCE_URL
    directory = os.fspath(train_dir)

    def read(name: str, labels: bool) -> np.ndarray:
        path = _maybe_download(name, directory, url + name)
        with open(path, "rb") as f:
            return extract_labels(f, one_hot=one_hot) if labels else extract_images(f)

    train_images = read(TRAIN_IMAGES, False)
    train_labels = read(TRAIN_LABELS, True)
    test_images = read(TEST_IMAGES, False)
    test_labels = read(TEST_LABELS, True)
    if not 0 <= validation_size <= len(train_images):
        raise MnistDataError(
            f"read_data_sets(validation_size={validation_size}): expected between 0 and "
            f"{len(train_images)}, the number of training images"
        )
    return Datasets(
        train=DataSet(
            train_images[validation_size:], train_labels[validation_size:], **options
        ),
        validation=DataSet(
            train_images[:validation_size], train_labels[:validation_size], **options
        ),
        test=DataSet(test_images, test_labels, **options),
    )


def load_mnist(train_dir: str = "MNIST-data") -> Datasets:
    return read_data_sets(train_dir)
