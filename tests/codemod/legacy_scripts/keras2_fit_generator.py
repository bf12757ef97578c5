# Training from a Python generator, Keras 2 style: fit_generator with worker arguments.
import numpy as np
from keras.layers import Dense
from keras.models import Sequential
from keras.optimizers import RMSprop


def batches(batch_size):
    while True:
        x = np.random.rand(batch_size, 6).astype("float32")
        yield x, x.sum(axis=1, keepdims=True)


model = Sequential([Dense(8, activation="relu", input_shape=(6,)), Dense(1)])
model.compile(optimizer=RMSprop(lr=0.001), loss="mse")
model.fit_generator(
    batches(16),
    steps_per_epoch=4,
    epochs=1,
    verbose=0,
    validation_data=batches(16),
    validation_steps=2,
    max_queue_size=10,
    workers=2,
    use_multiprocessing=False,
)
loss = model.evaluate_generator(batches(16), steps=2)
pred = model.predict_generator(batches(16), 2, verbose=0)
print("loss", loss, "predictions", pred.shape)
