# imdb_lstm-style text model with the Keras 2 recurrent and embeddings modules.
import numpy as np
from keras.layers.core import Dense
from keras.layers.embeddings import Embedding
from keras.layers.recurrent import LSTM
from keras.models import Sequential
from keras.optimizers import Adagrad

max_features, maxlen = 50, 12
x = np.random.randint(1, max_features, size=(32, maxlen))
y = np.random.randint(2, size=32)
model = Sequential()
model.add(Embedding(max_features, 8))
model.add(LSTM(8, dropout=0.2))
model.add(Dense(1, activation="sigmoid"))
model.compile(
    loss="binary_crossentropy", optimizer=Adagrad(lr=0.01, decay=1e-4), metrics=["accuracy"]
)
model.fit(x, y, batch_size=8, epochs=1, verbose=0)
print("trained")
