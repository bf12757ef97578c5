"""Before/after pairs of the Keras 1 layer arguments Keras 2.0-2.2 still translated.

Shaped like the Keras 1 / early Keras 2 scripts they come from (Sequential CNNs with
``Convolution2D(32, 3, 3, border_mode='same')``, ``Dense(output_dim=..., init=...)``, LSTM text
models with ``dropout_W=``).  Each case: ``(id, before, after, [(line, warning text)])``.
``BUILDS``: calls whose migrated layer is built under Keras 3, with the config Keras 2 built.
"""

from __future__ import annotations

from typing import Any

from tfcompat_gpu.codemod.commands.keras_generator_methods import SAMPLES_CODE

_HELPER = SAMPLES_CODE.strip("\n")  # the function the samples-counting calls use

KERAS1_CASES: list[tuple[str, str, str, list[tuple[int, str]]]] = [
    (
        "merge-modes-two-towers",
        "from keras.layers import Input, Dense, merge\n"
        "from keras.models import Model\n\n"
        "left = Input(shape=(16,))\n"
        "right = Input(shape=(16,))\n"
        "a = Dense(8)(left)\n"
        "b = Dense(8)(right)\n"
        "joined = merge([a, b], mode='concat', concat_axis=-1)\n"
        "summed = merge([a, b], mode='sum')\n"
        "out = Dense(1, activation='sigmoid')(joined)\n"
        "model = Model(input=[left, right], output=out)\n",
        "from keras.layers import Input, Dense\n"
        "from keras.models import Model\n"
        "import keras\n\n"
        "left = Input(shape=(16,))\n"
        "right = Input(shape=(16,))\n"
        "a = Dense(8)(left)\n"
        "b = Dense(8)(right)\n"
        "joined = keras.layers.concatenate([a, b], axis=-1)\n"
        "summed = keras.layers.add([a, b])\n"
        "out = Dense(1, activation='sigmoid')(joined)\n"
        "model = Model(inputs=[left, right], outputs=out)\n",
        [],
    ),
    (
        "conv2d-sizes-one-at-a-time",
        "from keras.models import Sequential\n"
        "from keras.layers.convolutional import Convolution2D, MaxPooling2D\n\n"
        "model = Sequential()\n"
        "model.add(Convolution2D(32, 3, 3, border_mode='same', init='he_normal',  # block 1\n"
        "                        input_shape=(32, 32, 3)))\n"
        "model.add(MaxPooling2D((2, 2), border_mode='same', dim_ordering='tf'))\n",
        "from keras.models import Sequential\n"
        "from keras.layers import Convolution2D, MaxPooling2D\n\n"
        "model = Sequential()\n"
        "model.add(Convolution2D(32, (3, 3), padding='same', kernel_initializer='he_normal',  "
        "# block 1\n"
        "                        input_shape=(32, 32, 3)))\n"
        "model.add(MaxPooling2D((2, 2), padding='same', data_format='channels_last'))\n",
        [],
    ),
    (
        "conv2d-multiline-names",
        "import keras\n\nnb_filters = 64\nnb_conv = 5\n"
        "x = keras.layers.Convolution2D(nb_filters, nb_conv, nb_conv,\n"
        "    activation='relu',\n"
        "    subsample=(2, 2),\n"
        '    dim_ordering="th")(x)\n',
        "import keras\n\nnb_filters = 64\nnb_conv = 5\n"
        "x = keras.layers.Convolution2D(nb_filters, (nb_conv, nb_conv),\n"
        "    activation='relu',\n"
        "    strides=(2, 2),\n"
        '    data_format="channels_first")(x)\n',
        [],
    ),
    (
        "conv2d-row-col-keywords",
        "from keras.layers import Conv2D\n"
        "a = Conv2D(nb_filter=16, nb_row=3, nb_col=1, bias=False)\n"
        "b = Conv2D(16, 5, nb_col=5)\n",
        "from keras.layers import Conv2D\n"
        "a = Conv2D(filters=16, kernel_size=(3, 1), use_bias=False)\n"
        "b = Conv2D(16, (5, 5))\n",
        [],
    ),
    (
        "conv3d-three-sizes",
        "from keras.layers import Convolution3D\n"
        "c = Convolution3D(8, 3, 3, 3, border_mode='valid')\n",
        "from keras.layers import Convolution3D\nc = Convolution3D(8, (3, 3, 3), padding='valid')\n",
        [],
    ),
    (
        "conv1d-keywords-and-input-dim",
        "from keras.layers import Convolution1D\n"
        "c = Convolution1D(nb_filter=64, filter_length=3, subsample_length=1,\n"
        "                  input_dim=300, input_length=100)\n",
        "from keras.layers import Convolution1D\n"
        "c = Convolution1D(filters=64, kernel_size=3, strides=1,\n"
        "                  input_shape=(100, 300))\n",
        [],
    ),
    (
        "dense-dropout-keras1",
        "from keras.layers.core import Dense, Dropout\n"
        "from keras.regularizers import l2\n"
        "d = Dense(output_dim=128, init='uniform', W_regularizer=l2(0.01), activation='relu')\n"
        "e = Dropout(p=0.5)\n",
        "from keras.layers import Dense, Dropout\n"
        "from keras.regularizers import l2\n"
        "d = Dense(units=128, kernel_initializer='uniform', kernel_regularizer=l2(0.01), "
        "activation='relu')\n"
        "e = Dropout(rate=0.5)\n",
        [],
    ),
    (
        "tf-keras-keywords-only",
        "import tensorflow as tf\n"
        "d = tf.keras.layers.Dense(output_dim=10, init='normal')\n"
        "c = tf.keras.layers.Conv2D(64, 3, 2, padding='same')\n",
        "import tensorflow as tf\n"
        "d = tf.keras.layers.Dense(units=10, kernel_initializer='normal')\n"
        "c = tf.keras.layers.Conv2D(64, 3, 2, padding='same')\n",
        [],
    ),
    (
        "later-keras-strides-untouched",
        "from keras import layers\nc = layers.Conv2D(64, 3, 2, padding='same')\n",
        "from keras import layers\nc = layers.Conv2D(64, 3, 2, padding='same')\n",
        [],
    ),
    (
        "conv2d-bare-sizes-ambiguous",
        "from keras.layers import Conv2D\nc = Conv2D(32, 3, 3)\n",
        "from keras.layers import Conv2D\nc = Conv2D(32, 3, 3)\n",
        [(2, "[Keras 1 kernel size]")],
    ),
    (
        "conv2d-sizes-beside-padding-left",
        "from keras.layers import Convolution2D\n"
        "c = Convolution2D(32, 3, 3, padding='same', init='he_normal')\n",
        "from keras.layers import Convolution2D\n"
        "c = Convolution2D(32, 3, 3, padding='same', init='he_normal')\n",
        [(2, "Keras 2 rejected kernel sizes")],
    ),
    (
        "conv2d-float-size-left",
        "from keras.layers import Convolution2D\nc = Convolution2D(32, 3.0, 3.0)\n",
        "from keras.layers import Convolution2D\nc = Convolution2D(32, 3.0, 3.0)\n",
        [(2, "not an int")],
    ),
    (
        "border-mode-full-left",
        "from keras.layers import Convolution2D\nc = Convolution2D(32, 3, 3, border_mode='full')\n",
        "from keras.layers import Convolution2D\nc = Convolution2D(32, 3, 3, border_mode='full')\n",
        [(2, "[border_mode value]")],
    ),
    (
        "duplicate-keyword-left",
        "from keras.layers import Dense\nd = Dense(10, init='zero', kernel_initializer='ones')\n",
        "from keras.layers import Dense\nd = Dense(10, init='zero', kernel_initializer='ones')\n",
        [(2, "[duplicate argument]")],
    ),
    (
        "dim-ordering-variable-left",
        "from keras.layers import MaxPooling2D\nordering = 'th'\n"
        "p = MaxPooling2D(dim_ordering=ordering)\n",
        "from keras.layers import MaxPooling2D\nordering = 'th'\n"
        "p = MaxPooling2D(dim_ordering=ordering)\n",
        [(3, "[dim_ordering value]")],
    ),
    (
        "starred-call-left",
        "from keras.layers import Dense\nd = Dense(output_dim=10, **extra)\n",
        "from keras.layers import Dense\nd = Dense(output_dim=10, **extra)\n",
        [(2, "[starred call]")],
    ),
    (
        "lstm-keras1",
        "from keras.layers import LSTM, Embedding\n"
        "e = Embedding(20000, 128, dropout=0.2, init='uniform')\n"
        "r = LSTM(128, dropout_W=0.2, dropout_U=0.2, inner_init='orthogonal', "
        "consume_less='gpu',\n"
        "         forget_bias_init='one')\n",
        "from keras.layers import LSTM, Embedding\n"
        "e = Embedding(20000, 128, embeddings_initializer='uniform')\n"
        "r = LSTM(128, dropout=0.2, recurrent_dropout=0.2, recurrent_initializer='orthogonal', "
        "implementation=2,\n"
        "         unit_forget_bias=True)\n",
        [(2, "dropped dropout=0.2")],
    ),
    (
        "gru-output-dim-input-dim",
        "from keras.layers.recurrent import GRU\n"
        "g = GRU(output_dim=64, input_dim=32, return_sequences=True)\n",
        "from keras.layers import GRU\n"
        "g = GRU(units=64, input_shape=(None, 32), return_sequences=True)\n",
        [],
    ),
    (
        "batchnorm-mode",
        "from keras.layers.normalization import BatchNormalization\n"
        "a = BatchNormalization(mode=0, axis=1, beta_init='zero', gamma_init='one')\n"
        "b = BatchNormalization(mode=2)\n",
        "from keras.layers import BatchNormalization\n"
        "a = BatchNormalization(axis=1, beta_initializer='zero', gamma_initializer='one')\n"
        "b = BatchNormalization(mode=2)\n",
        [(2, "dropped mode=0"), (3, "[BatchNormalization mode]")],
    ),
    (
        "deconvolution-renamed",
        "import keras\n"
        "from keras.layers.convolutional import Deconvolution2D\n"
        "a = Deconvolution2D(3, 3, 3, (None, 14, 14, 3), subsample=(2, 2))\n"
        "b = keras.layers.Deconvolution2D(5, 3, 3, output_shape=(None, 6, 7, 5), "
        "border_mode='valid')\n",
        "import keras\n"
        "from keras.layers import Conv2DTranspose as Deconvolution2D\n"
        "a = Deconvolution2D(3, (3, 3), strides=(2, 2))\n"
        "b = keras.layers.Conv2DTranspose(5, (3, 3), padding='valid')\n",
        [(3, "dropped the output shape"), (4, "dropped output_shape=")],
    ),
    (
        "atrous-renamed",
        "from keras.layers import AtrousConvolution2D\n"
        "a = AtrousConvolution2D(64, 3, 3, atrous_rate=(2, 2), border_mode='same')\n",
        "from keras.layers import Conv2D as AtrousConvolution2D\n"
        "a = AtrousConvolution2D(64, (3, 3), dilation_rate=(2, 2), padding='same')\n",
        [],
    ),
    (
        "separable-init-both",
        "from keras.layers import SeparableConvolution2D\n"
        "s = SeparableConvolution2D(32, 3, 3, init='he_uniform', border_mode='same')\n",
        "from keras.layers import SeparableConvolution2D\n"
        "s = SeparableConvolution2D(32, (3, 3), depthwise_initializer='he_uniform', "
        "pointwise_initializer='he_uniform', padding='same')\n",
        [],
    ),
    (
        "noise-pooling-upsampling",
        "from keras.layers import GaussianNoise, MaxPooling1D, UpSampling2D, ZeroPadding2D\n"
        "n = GaussianNoise(sigma=0.1)\n"
        "p = MaxPooling1D(pool_length=2, stride=1, border_mode='valid')\n"
        "u = UpSampling2D(size=(2, 2), dim_ordering='default')\n"
        "z = ZeroPadding2D((1, 1), dim_ordering='th')\n",
        "from keras.layers import GaussianNoise, MaxPooling1D, UpSampling2D, ZeroPadding2D\n"
        "n = GaussianNoise(stddev=0.1)\n"
        "p = MaxPooling1D(pool_size=2, strides=1, padding='valid')\n"
        "u = UpSampling2D(size=(2, 2), data_format=None)\n"
        "z = ZeroPadding2D((1, 1), data_format='channels_first')\n",
        [],
    ),
    (
        "model-input-output",
        "from keras.models import Model\nfrom keras.layers import Input, Dense\n"
        "inp = Input(shape=(3,))\nout = Dense(2)(inp)\nmodel = Model(input=inp, output=out)\n",
        "from keras.models import Model\nfrom keras.layers import Input, Dense\n"
        "inp = Input(shape=(3,))\nout = Dense(2)(inp)\nmodel = Model(inputs=inp, outputs=out)\n",
        [],
    ),
    (
        "keras2-call-untouched",
        "from keras.layers import Conv2D, Dense\n"
        "c = Conv2D(32, (3, 3), padding='same')\nd = Dense(10, input_dim=5)\n",
        "from keras.layers import Conv2D, Dense\n"
        "c = Conv2D(32, (3, 3), padding='same')\nd = Dense(10, input_dim=5)\n",
        [],
    ),
    (
        "own-function-untouched",
        "from mylib import Dense\nd = Dense(output_dim=3, init='x')\nf = Model(input=1)\n",
        "from mylib import Dense\nd = Dense(output_dim=3, init='x')\nf = Model(input=1)\n",
        [],
    ),
    # -- Keras 1's training methods counted samples (a behavioral-cloning model.py: a plain
    # generator of camera frames, fit_generator(samples_per_epoch=len(rows) * 6, ...))
    (
        "fit-generator-samples-per-epoch",
        "import numpy as np\n"
        "from keras.models import Sequential\n\n"
        "model = Sequential()\n"
        "history = model.fit_generator(frames(train_rows, 32), samples_per_epoch=len(train_rows) * 6,\n"
        "                              validation_data=frames(valid_rows, 32),\n"
        "                              nb_val_samples=len(valid_rows), nb_epoch=5)\n",
        "import numpy as np\n"
        "from keras.models import Sequential\n\n\n"
        f"{_HELPER}\n\n\n"
        "model = Sequential()\n"
        "history = model.fit(_keras1_samples(frames(train_rows, 32), len(train_rows) * 6),\n"
        "                              validation_data=_keras1_samples(frames(valid_rows, 32), len(valid_rows)), epochs=5)\n",
        [],
    ),
    (
        "fit-generator-samples-validation-arrays",
        "model.fit_generator(gen, samples_per_epoch=640, nb_epoch=1,\n"
        "                    validation_data=(x_val, y_val), nb_val_samples=64)\n",
        f"{_HELPER}\n\n\n"
        "model.fit(_keras1_samples(gen, 640), epochs=1,\n"
        "                    validation_data=(x_val, y_val))\n",
        [],
    ),
    (
        "evaluate-generator-val-samples",
        "loss = model.evaluate_generator(frames(test_rows), val_samples=len(test_rows))\n",
        f"{_HELPER}\n\n\n"
        "loss = model.evaluate(_keras1_samples(frames(test_rows), len(test_rows)))\n",
        [],
    ),
    (
        "fit-generator-samples-and-steps-left",
        "model.fit_generator(gen, samples_per_epoch=600, steps_per_epoch=10)\n",
        "model.fit_generator(gen, samples_per_epoch=600, steps_per_epoch=10)\n",
        [(1, "are both given")],
    ),
    # -- Keras 1's regularizer functions, and Keras 2.0-2.2's K.tf
    (
        "activity-regularizers",
        "from keras.regularizers import l2, activity_l2\n"
        "from keras import regularizers\n"
        "dense = Dense(10, activity_regularizer=activity_l2(0.01),\n"
        "              kernel_regularizer=regularizers.l1l2(0.01, 0.01))\n",
        "from keras.regularizers import l2, l2 as activity_l2\n"
        "from keras import regularizers\n"
        "dense = Dense(10, activity_regularizer=activity_l2(0.01),\n"
        "              kernel_regularizer=regularizers.l1_l2(0.01, 0.01))\n",
        [],
    ),
    (
        "backend-tf-in-lambda",
        "from keras.backend import epsilon, tf\n"
        "def resize(x):\n"
        "    from keras.backend import tf as ktf\n"
        "    return ktf.image.resize_images(x, (66, 200))\n",
        "from keras.backend import epsilon\n"
        "import tensorflow.compat.v1 as tf\n"
        "def resize(x):\n"
        "    import tensorflow.compat.v1 as ktf\n"
        "    return ktf.image.resize_images(x, (66, 200))\n",
        [],
    ),
]

# (id, the Keras 1 call of the layer, names in keras.layers it uses, what Keras 2 built:
# get_config() fields)
BUILDS: list[tuple[str, str, dict[str, Any]]] = [
    (
        "conv2d",
        "Convolution2D(32, 3, 3, border_mode='same', subsample=(2, 2), dim_ordering='th')",
        {
            "filters": 32,
            "kernel_size": [3, 3],
            "strides": [2, 2],
            "padding": "same",
            "data_format": "channels_first",
        },
    ),
    (
        "conv2d-row-col",
        "Conv2D(nb_filter=16, nb_row=3, nb_col=1, bias=False)",
        {"filters": 16, "kernel_size": [3, 1], "use_bias": False},
    ),
    (
        "conv3d",
        "Convolution3D(8, 3, 3, 3, border_mode='valid')",
        {"filters": 8, "kernel_size": [3, 3, 3], "strides": [1, 1, 1], "padding": "valid"},
    ),
    (
        "conv1d",
        "Convolution1D(nb_filter=64, filter_length=5, subsample_length=2, border_mode='same')",
        {"filters": 64, "kernel_size": [5], "strides": [2], "padding": "same"},
    ),
    (
        "atrous",
        "AtrousConvolution2D(64, 3, 3, atrous_rate=(2, 2), border_mode='same')",
        {"kernel_size": [3, 3], "dilation_rate": [2, 2], "strides": [1, 1]},
    ),
    (
        "deconv",
        "Deconvolution2D(3, 4, 4, (None, 14, 14, 3), subsample=(2, 2), border_mode='same')",
        {"filters": 3, "kernel_size": [4, 4], "strides": [2, 2], "padding": "same"},
    ),
    (
        "separable",
        "SeparableConvolution2D(32, 3, 3, init='he_uniform')",
        {
            "kernel_size": [3, 3],
            "depthwise_initializer": "HeUniform",
            "pointwise_initializer": "HeUniform",
        },
    ),
    (
        "dense",
        "Dense(output_dim=128, init='normal', bias=False)",
        {"units": 128, "kernel_initializer": "RandomNormal", "use_bias": False},
    ),
    ("dropout", "Dropout(p=0.3)", {"rate": 0.3}),
    ("spatial-dropout", "SpatialDropout2D(p=0.2, dim_ordering='tf')", {"rate": 0.2}),
    ("gaussian-noise", "GaussianNoise(sigma=0.1)", {"stddev": 0.1}),
    (
        "max-pooling-1d",
        "MaxPooling1D(pool_length=3, stride=2, border_mode='same')",
        {"pool_size": [3], "strides": [2], "padding": "same"},
    ),
    (
        "avg-pooling-2d",
        "AveragePooling2D((2, 2), border_mode='valid', dim_ordering='th')",
        {"pool_size": [2, 2], "padding": "valid", "data_format": "channels_first"},
    ),
    (
        "lstm",
        "LSTM(output_dim=32, dropout_W=0.2, dropout_U=0.1, inner_activation='hard_sigmoid')",
        {
            "units": 32,
            "dropout": 0.2,
            "recurrent_dropout": 0.1,
            "recurrent_activation": "hard_sigmoid",
        },
    ),
    (
        "embedding",
        "Embedding(1000, 64, init='uniform', dropout=0.2)",
        {"input_dim": 1000, "output_dim": 64, "embeddings_initializer": "RandomUniform"},
    ),
    (
        "batchnorm",
        "BatchNormalization(mode=0, beta_init='zero', gamma_init='one')",
        {"beta_initializer": "Zeros", "gamma_initializer": "Ones"},
    ),
    ("upsampling-1d", "UpSampling1D(length=3)", {"size": 3}),
    ("prelu", "PReLU(init='zero')", {"alpha_initializer": "Zeros"}),
]
