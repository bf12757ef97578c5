"""The machine: its GPUs (NVML, ``CUDA_VISIBLE_DEVICES``), the launchers that started the
process, and simulated GPUs for ``plan``.  Knows nothing of the settings model."""
