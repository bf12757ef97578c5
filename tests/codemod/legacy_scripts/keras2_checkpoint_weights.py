# Checkpoints of the weights each epoch, the final weights saved and read back (Keras 2 names).
import os
import tempfile

import numpy as np
from keras.callbacks import EarlyStopping, ModelCheckpoint
from keras.layers import Dense
from keras.models import Sequential

os.chdir(tempfile.mkdtemp())
x = np.random.rand(64, 4).astype("float32")
y = (x.sum(axis=1) > 2).astype("float32")

model = Sequential([Dense(4, activation="relu", input_dim=4), Dense(1, activation="sigmoid")])
model.compile(loss="binary_crossentropy", optimizer="adam", metrics=["accuracy"])
checkpoint = ModelCheckpoint("weights.{epoch:02d}.hdf5", monitor="loss", save_weights_only=True)
best = ModelCheckpoint("best_model.hdf5", monitor="loss", save_best_only=True)
model.fit(
    x,
    y,
    epochs=1,
    batch_size=16,
    verbose=0,
    callbacks=[checkpoint, best, EarlyStopping(monitor="loss", patience=2)],
)
model.save_weights("final_weights.h5")
model.load_weights("final_weights.h5")
print(sorted(os.listdir(".")))
