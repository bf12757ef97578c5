"""``tf.contrib.factorization.KMeans`` under ``run``.

TF1 clustering tutorials build a k-means graph with ``from tensorflow.contrib.factorization
import KMeans``: ``KMeans(inputs=X, num_clusters=k, distance_metric='cosine',
use_mini_batch=True).training_graph()``, unpacked into seven parts (six before TF 1.4), then
``init_op`` and ``train_op`` run with the data fed.  TF 1.15's contrib name was TensorFlow's own
``clustering_ops.KMeans``, which TensorFlow 2 still ships: the drop-in serves that class.
"""

from __future__ import annotations

import pytest

from tests._child import run_script

pytest.importorskip("tensorflow")

SCRIPT = r"""
    import numpy as np
    import tensorflow as tf
    from tensorflow.contrib.factorization import KMeans
    from tests._child import emit

    rng = np.random.RandomState(0)
    # two tight groups of points, far apart
    data = np.concatenate([rng.normal(0.0, 0.01, (20, 2)) + [5.0, 5.0],
                           rng.normal(0.0, 0.01, (20, 2)) - [5.0, 5.0]]).astype(np.float32)
    X = tf.placeholder(tf.float32, shape=[None, 2])
    kmeans = KMeans(inputs=X, num_clusters=2, distance_metric='squared_euclidean',
                    initial_clusters=tf.contrib.factorization.KMEANS_PLUS_PLUS_INIT,
                    use_mini_batch=True)
    training_graph = kmeans.training_graph()
    if len(training_graph) > 6:  # TensorFlow 1.4-1.8's contrib copy
        (all_scores, cluster_idx, scores, cluster_centers_initialized,
         cluster_centers_var, init_op, train_op) = training_graph
    else:
        (all_scores, cluster_idx, scores, cluster_centers_initialized,
         init_op, train_op) = training_graph
    avg_distance = tf.reduce_mean(scores)
    sess = tf.Session()
    sess.run(tf.global_variables_initializer(), feed_dict={X: data})
    sess.run(init_op, feed_dict={X: data})
    for _ in range(3):
        _, d, idx = sess.run([train_op, avg_distance, cluster_idx[0]], feed_dict={X: data})
    out = {"parts": len(training_graph), "distance": float(d),
           "groups": sorted({int(i) for i in idx[:20]} | {int(i) for i in idx[20:]}),
           "split": bool(len(set(idx[:20])) == 1 and len(set(idx[20:])) == 1 and idx[0] != idx[-1])}
    try:
        tf.contrib.factorization.WALSModel
    except AttributeError as error:
        out["wals"] = str(error)
    emit(out)
"""


def test_kmeans_clusters_as_tf1s(tmp_path):
    run = run_script(tmp_path, SCRIPT)
    assert run.rc == 0, run.err
    out = run.result
    assert out["parts"] == 6
    assert out["groups"] == [0, 1]
    assert out["split"] is True
    assert out["distance"] < 0.01
    # a name the drop-in does not serve says so, and what it serves
    assert "tf.contrib.factorization.WALSModel" in out["wals"]
    assert "Of tf.contrib.factorization the drop-in provides" in out["wals"]
    assert "KMeans" in out["wals"]
