# A GAN in the shape of the Keras 2 GAN collections: one optimizer compiled into the
# discriminator, the generator and the combined model, the discriminator frozen after its own
# compile, an auxiliary class output with a flat metrics list, layer sizes from np.prod.
import numpy as np
from keras.layers import Dense, Flatten, Input, Reshape
from keras.layers.advanced_activations import LeakyReLU
from keras.models import Model, Sequential
from keras.optimizers import Adam

SHAPE = (4, 4, 1)
LATENT = 8


class TinyGAN:
    def __init__(self):
        optimizer = Adam(0.0002, 0.5)
        losses = ["binary_crossentropy", "sparse_categorical_crossentropy"]
        self.discriminator = self.build_discriminator()
        self.discriminator.compile(loss=losses, optimizer=optimizer, metrics=["accuracy"])
        self.generator = self.build_generator()
        self.generator.compile(loss="binary_crossentropy", optimizer=optimizer)
        z = Input(shape=(LATENT,))
        self.discriminator.trainable = False
        valid, label = self.discriminator(self.generator(z))
        self.combined = Model(z, [valid, label])
        self.combined.compile(loss=losses, optimizer=optimizer)

    def build_generator(self):
        model = Sequential()
        model.add(Dense(16, input_dim=LATENT))
        model.add(LeakyReLU(alpha=0.2))
        model.add(Dense(np.prod(SHAPE), activation="tanh"))
        model.add(Reshape(SHAPE))
        return model

    def build_discriminator(self):
        image = Input(shape=SHAPE)
        features = LeakyReLU(alpha=0.2)(Dense(16)(Flatten()(image)))
        valid = Dense(1, activation="sigmoid")(features)
        label = Dense(3, activation="softmax")(features)
        return Model(image, [valid, label])

    def train(self, steps, batch=8):
        images = np.random.uniform(-1, 1, (32,) + SHAPE).astype("float32")
        labels = np.random.randint(0, 3, (32, 1))
        for step in range(steps):
            noise = np.random.normal(0, 1, (batch, LATENT))
            fake = self.generator.predict(noise, verbose=0)
            before = self.discriminator.get_weights()[0].copy()
            d_real = self.discriminator.train_on_batch(
                images[:batch], [np.ones((batch, 1)), labels[:batch]]
            )
            d_fake = self.discriminator.train_on_batch(fake, [np.zeros((batch, 1)), labels[:batch]])
            d_loss = 0.5 * np.add(d_real, d_fake)
            assert not np.allclose(before, self.discriminator.get_weights()[0]), "D did not train"
            frozen = self.discriminator.get_weights()[0].copy()
            moving = self.generator.get_weights()[0].copy()
            g_loss = self.combined.train_on_batch(noise, [np.ones((batch, 1)), labels[:batch]])
            assert np.allclose(frozen, self.discriminator.get_weights()[0]), "D trained in combined"
            assert not np.allclose(moving, self.generator.get_weights()[0]), "G did not train"
            # Keras 2's list: loss, one loss per output, one accuracy per output
            print(
                "%d [D loss: %f, acc: %.2f%%, class acc: %.2f%%] [G loss: %f]"
                % (step, d_loss[0], 100 * d_loss[3], 100 * d_loss[4], g_loss[0])
            )


if __name__ == "__main__":
    TinyGAN().train(steps=2)
