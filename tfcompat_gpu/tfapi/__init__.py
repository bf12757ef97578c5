"""TensorFlow itself: ``_tf`` is the only module that imports it (lazily); the others are
tables of its API names, read without importing it."""
