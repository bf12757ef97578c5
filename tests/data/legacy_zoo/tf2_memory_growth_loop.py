# TF2 boilerplate: memory growth on every GPU, guarded as the TensorFlow guide shows.
import tensorflow as tf

gpus = tf.config.experimental.list_physical_devices("GPU")
if gpus:
    try:
        for gpu in gpus:
            tf.config.experimental.set_memory_growth(gpu, True)
    except RuntimeError as e:
        print(e)
print("result: growth", [tf.config.experimental.get_memory_growth(g) for g in gpus])
