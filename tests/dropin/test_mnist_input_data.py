"""TensorFlow 1's MNIST tutorial loader (``dropin/mnist_input_data.py``).

The loader is checked on small IDX files written here in MNIST's format (the same header and
gzip layout as the real files), through ``read_data_sets`` as the TF1 tutorials call it
(``read_data_sets("MNIST_data/", one_hot=True)``, then ``mnist.train.next_batch(100)`` in a
loop, ``mnist.test.images``), and once under ``tfcompat-gpu run`` in a TF1 graph script that
imports it as ``from tensorflow.examples.tutorials.mnist import input_data``.
"""

from __future__ import annotations

import gzip
import importlib.util
from pathlib import Path

import numpy as np
import pytest

from tests._child import run_script
from tfcompat_gpu.dropin import mnist_input_data as input_data
from tfcompat_gpu.dropin.mnist_input_data import MnistDataError

FILES = {
    "images": ("train-images-idx3-ubyte.gz", "t10k-images-idx3-ubyte.gz"),
    "labels": ("train-labels-idx1-ubyte.gz", "t10k-labels-idx1-ubyte.gz"),
}


def write_mnist(folder: Path, train: int = 60, test: int = 20) -> dict[str, np.ndarray]:
    """IDX files of ``train`` / ``test`` examples: image ``k`` is filled with ``k % 256`` and
    labelled ``k % 10``, so that every example can be told apart after a shuffle."""
    folder.mkdir(parents=True, exist_ok=True)
    arrays = {}
    for split, count in (("train", train), ("t10k", test)):
        numbers = np.arange(count)
        images = np.repeat((numbers % 256).astype(np.uint8), 28 * 28).reshape(count, 28, 28)
        labels = (numbers % 10).astype(np.uint8)
        with gzip.open(folder / f"{split}-images-idx3-ubyte.gz", "wb") as f:
            f.write(np.array([2051, count, 28, 28], dtype=">u4").tobytes() + images.tobytes())
        with gzip.open(folder / f"{split}-labels-idx1-ubyte.gz", "wb") as f:
            f.write(np.array([2049, count], dtype=">u4").tobytes() + labels.tobytes())
        arrays[split] = labels
    return arrays


def test_read_data_sets_splits_scales_and_encodes(tmp_path: Path) -> None:
    write_mnist(tmp_path / "MNIST_data")
    mnist = input_data.read_data_sets(str(tmp_path / "MNIST_data"), one_hot=True, validation_size=10)
    assert (mnist.train.num_examples, mnist.validation.num_examples) == (50, 10)
    assert mnist.test.num_examples == 20
    assert mnist.train.images.shape == (50, 784)
    assert mnist.train.images.dtype == np.float32
    assert mnist.train.labels.shape == (50, 10)
    assert mnist.train.labels.dtype == np.float64
    # the validation set is the first examples of the training file
    assert np.allclose(mnist.validation.images[:, 0], np.arange(10) / 255.0)
    assert mnist.validation.labels.argmax(axis=1).tolist() == list(range(10))
    assert np.allclose(mnist.train.images[0], 10 / 255.0)
    raw = input_data.read_data_sets(
        str(tmp_path / "MNIST_data"), dtype="uint8", reshape=False, validation_size=0
    )
    assert raw.train.images.shape == (60, 28, 28, 1)
    assert raw.train.images.dtype == np.uint8
    assert raw.test.labels.tolist() == [k % 10 for k in range(20)]


def test_next_batch_walks_each_epoch_in_a_new_order(tmp_path: Path) -> None:
    write_mnist(tmp_path)
    np.random.seed(3)
    train = input_data.read_data_sets(str(tmp_path), validation_size=0).train
    seen = [train.next_batch(25)[1] for _ in range(2)]
    assert train.epochs_completed == 0
    # the third batch holds the epoch's last 10 examples, then 15 of the next epoch
    images, labels = train.next_batch(25)
    assert train.epochs_completed == 1
    assert len(images) == len(labels) == 25
    first_epoch = np.concatenate([*seen, labels[:10]])
    assert sorted(first_epoch.tolist()) == sorted(k % 10 for k in range(60))
    assert sorted(first_epoch.tolist()) != first_epoch.tolist()  # shuffled
    ordered = input_data.read_data_sets(str(tmp_path), validation_size=0).train
    in_order = [ordered.next_batch(40, shuffle=False)[1] for _ in range(2)]
    assert in_order[0].tolist() == [k % 10 for k in range(40)]
    assert in_order[1].tolist() == [k % 10 for k in range(40, 60)] + [k % 10 for k in range(20)]


def test_a_tensorflow_dtype_is_read_as_numpy_reads_it(tmp_path: Path) -> None:
    class FakeDType:  # what tf.uint8 offers the loader: its NumPy type
        as_numpy_dtype = np.uint8

    write_mnist(tmp_path)
    mnist = input_data.read_data_sets(str(tmp_path), dtype=FakeDType(), validation_size=0)
    assert mnist.train.images.dtype == np.uint8


def test_missing_files_are_fetched_from_the_source_url(tmp_path: Path) -> None:
    write_mnist(tmp_path / "mirror")
    target = tmp_path / "MNIST_data"
    mnist = input_data.read_data_sets(
        str(target), validation_size=5, source_url=(tmp_path / "mirror").as_uri() + "/"
    )
    assert mnist.train.num_examples == 55
    assert sorted(p.name for p in target.iterdir()) == sorted(
        [*FILES["images"], *FILES["labels"]]
    )


@pytest.mark.parametrize(
    ("break_it", "words"),
    [
        ("labels-as-images", "magic number 2049, expected 2051"),
        ("truncated", "is truncated"),
        ("not-gzip", "cannot be read"),
    ],
)
def test_a_broken_file_is_named(tmp_path: Path, break_it: str, words: str) -> None:
    write_mnist(tmp_path)
    images = tmp_path / "train-images-idx3-ubyte.gz"
    if break_it == "labels-as-images":
        images.write_bytes((tmp_path / "train-labels-idx1-ubyte.gz").read_bytes())
    elif break_it == "truncated":
        with gzip.open(images, "wb") as f:
            f.write(np.array([2051, 60, 28, 28], dtype=">u4").tobytes() + b"\0" * 100)
    else:
        images.write_bytes(b"not a gzip file at all")
    with pytest.raises(MnistDataError, match=words) as caught:
        input_data.read_data_sets(str(tmp_path))
    assert "train-images-idx3-ubyte.gz" in str(caught.value)


def test_bad_arguments_are_named_before_anything_is_read(tmp_path: Path) -> None:
    with pytest.raises(MnistDataError, match=r"dtype='int32'.*float32.*uint8"):
        input_data.read_data_sets(str(tmp_path / "nowhere"), dtype="int32")
    assert not (tmp_path / "nowhere").exists()
    write_mnist(tmp_path)
    with pytest.raises(MnistDataError, match=r"validation_size=5000.*between 0 and 60"):
        input_data.read_data_sets(str(tmp_path))


def test_a_failed_download_names_the_folder_and_leaves_no_part_file(tmp_path: Path) -> None:
    missing = (tmp_path / "no-mirror").as_uri() + "/"
    with pytest.raises(MnistDataError, match="cannot be downloaded from") as caught:
        input_data.read_data_sets(str(tmp_path / "data"), source_url=missing)
    assert "copy the four MNIST files" in str(caught.value)
    assert list((tmp_path / "data").iterdir()) == []


TF1_TUTORIAL = """
import tensorflow as tf
from tensorflow.examples.tutorials.mnist import input_data
from tests._child import emit

mnist = input_data.read_data_sets("MNIST_data/", one_hot=True, validation_size=10)
x = tf.placeholder(tf.float32, [None, 784])
y = tf.placeholder(tf.float32, [None, 10])
W = tf.Variable(tf.zeros([784, 10]))
b = tf.Variable(tf.zeros([10]))
logits = tf.matmul(x, W) + b
loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(labels=y, logits=logits))
step = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
correct = tf.equal(tf.argmax(logits, 1), tf.argmax(y, 1))
accuracy = tf.reduce_mean(tf.cast(correct, tf.float32))
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for _ in range(3):
        batch_xs, batch_ys = mnist.train.next_batch(20)
        sess.run(step, feed_dict={x: batch_xs, y: batch_ys})
    acc = sess.run(accuracy, feed_dict={x: mnist.test.images, y: mnist.test.labels})
emit({"train": mnist.train.num_examples, "accuracy": 0.0 <= float(acc) <= 1.0})
"""


@pytest.mark.tf
def test_a_tf1_mnist_tutorial_runs_under_run(tmp_path: Path) -> None:
    if importlib.util.find_spec("tensorflow") is None:
        pytest.skip("needs TensorFlow")
    write_mnist(tmp_path / "MNIST_data")
    run = run_script(tmp_path, TF1_TUTORIAL)
    assert run.rc == 0, run.err
    assert run.result == {"train": 50, "accuracy": True}
    assert "tensorflow.examples" not in run.err  # no note: the module is served


@pytest.mark.tf
def test_the_migrated_tutorial_runs_with_plain_python(tmp_path: Path) -> None:
    if importlib.util.find_spec("tensorflow") is None or importlib.util.find_spec("libcst") is None:
        pytest.skip("needs TensorFlow and LibCST")
    from tfcompat_gpu.codemod.api import migrate_source

    write_mnist(tmp_path / "MNIST_data")
    migrated = migrate_source(TF1_TUTORIAL, upgrade=True).code
    assert "from tfcompat_gpu.dropin import mnist_input_data as input_data" in migrated
    run = run_script(tmp_path, migrated, runner=False)
    assert run.rc == 0, run.err
    assert run.result == {"train": 50, "accuracy": True}
