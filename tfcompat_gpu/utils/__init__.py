"""Foundation helpers with no knowledge of GPUs or TensorFlow: file discovery, user frames,
number grammar, shown names, notebooks and post-import hooks.  Imports nothing else of ours
but :mod:`tfcompat_gpu.errors`."""
