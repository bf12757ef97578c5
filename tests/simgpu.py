"""Simulated physical GPUs for TensorFlow's own Python configuration path (see
:mod:`tfcompat_gpu.machine.simgpu`, which ``tfcompat-gpu plan`` uses too)."""

from __future__ import annotations

from tfcompat_gpu.machine.simgpu import simulate_gpus

__all__ = ["simulate_gpus"]
