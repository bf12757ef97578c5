# Multi-worker Keras training: one script for TF_CONFIG and srun.
#
#   TF_CONFIG='{"cluster": {"worker": ["host1:12345", "host2:12345"]},
#               "task": {"type": "worker", "index": 0}}' python tf2_multi_worker_keras.py
#   TFCOMPAT_GPU_VISIBLE_DEVICES=local_rank srun --ntasks-per-node=4 --gpus-per-node=4 \
#       python tf2_multi_worker_keras.py
#
# GPU settings come from TFCOMPAT_GPU_* variables (TFCOMPAT_GPU_VISIBLE_DEVICES=local_rank: one
# GPU per process) plus the ones below; strategy() applies them before TensorFlow starts and
# returns MultiWorkerMirroredStrategy when TF_CONFIG or the SLURM step has several workers.
# Under mpirun / horovodrun alone tf.distribute forms no cluster (strategy() warns): there the
# gradients go through Horovod, see docs/distributed.md.
import json
import sys

import numpy as np

import tfcompat_gpu

tfcompat_gpu.configure(
    tfcompat_gpu.GPUConfig.from_env(), allow_growth=True, intra_op_parallelism_threads=1
)
strategy = tfcompat_gpu.strategy()

import tensorflow as tf  # noqa: E402  (after the configuration, as TensorFlow requires)

keras = tf.keras  # Keras 3 on TF >= 2.16, tf_keras with TF_USE_LEGACY_KERAS=1, Keras 2 on 2.15

GLOBAL_BATCH = 8
features = np.linspace(-1.0, 1.0, 64, dtype=np.float32).reshape(-1, 1)
labels = 3.0 * features + 1.0
dataset = tf.data.Dataset.from_tensor_slices((features, labels)).batch(GLOBAL_BATCH).repeat()

with strategy.scope():
    model = keras.Sequential(
        [keras.Input(shape=(1,)), keras.layers.Dense(1, kernel_initializer="zeros")]
    )
    model.compile(loss="mse", optimizer=keras.optimizers.SGD(learning_rate=0.1))
model.fit(dataset, epochs=3, steps_per_epoch=8, verbose=0)

kernel, bias = (w.tolist() for w in model.get_weights())
print(
    json.dumps(
        {
            "strategy": type(strategy).__name__,
            "replicas": strategy.num_replicas_in_sync,
            "applied": tfcompat_gpu.current_config().to_dict(),
            "tf_intra_op_threads": tf.config.threading.get_intra_op_parallelism_threads(),
            "kernel": kernel,
            "bias": bias,
        }
    )
)
sys.stdout.flush()
