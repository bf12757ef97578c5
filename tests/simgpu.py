"""Simulated physical GPUs for TensorFlow's own Python configuration path (see
:mod:`tfcompat_gpu._simgpu`, which ``tfcompat-gpu plan`` uses too)."""

from __future__ import annotations

from tfcompat_gpu._simgpu import simulate_gpus

__all__ = ["simulate_gpus"]
