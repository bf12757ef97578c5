"""The TensorFlow side: applying a :class:`GPUConfig` to the live process (``configure()``,
sessions, conflicts, the after-start path), the process state, the mode and ``strategy()``."""
