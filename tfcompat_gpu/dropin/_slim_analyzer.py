"""``tf.contrib.slim.model_analyzer`` under ``run``: ``analyze_vars`` and ``analyze_ops``.

GAN and image-model repositories of the TF1 era print their variables with a
``show_all_variables()`` helper, ``slim.model_analyzer.analyze_vars(tf.trainable_variables(),
print_info=True)``.  TF 1.15's module (tensorflow/contrib/slim/python/slim/model_analyzer.py)
only read shapes and dtypes: each variable as ``name (dtype AxB) [size, bytes: n]`` and the
totals, each op as ``name -> (dtype shape), ... [size]``; the same lines and return values are
made here from the graph objects TensorFlow 2 still has.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

__all__ = ["MODEL_ANALYZER", "analyze_ops", "analyze_vars", "tensor_description"]


def tensor_description(var: Any) -> str:
    """``(float32 3x3x64)``: the dtype and the dimensions of a tensor or variable."""
    sizes = "x".join(str(size) for size in var.get_shape())
    return f"({var.dtype.name} {sizes})"


def analyze_ops(graph: Any, print_info: bool = False) -> int:
    """The number of elements of all op outputs of ``graph``, each op printed when asked."""
    if print_info:
        print("---------")
        print("Operations: name -> (type shapes) [size]")
        print("---------")
    total_size = 0
    for op in graph.get_operations():
        op_size = 0
        shapes = []
        for output in op.outputs:
            shape = output.get_shape()
            if shape:
                shapes.append(tensor_description(output))
            op_size += shape.num_elements() or 0
        if print_info:
            print(op.name, "\t->", ", ".join(shapes), f"[{op_size}]")
        total_size += op_size
    return total_size


def analyze_vars(variables: Any, print_info: bool = False) -> tuple[int, int]:
    """The total elements and bytes of ``variables``, each printed when asked."""
    if print_info:
        print("---------")
        print("Variables: name (type shape) [size]")
        print("---------")
    total_size = 0
    total_bytes = 0
    for var in variables:
        var_size = var.get_shape().num_elements() or 0
        var_bytes = var_size * var.dtype.size
        total_size += var_size
        total_bytes += var_bytes
        if print_info:
            print(var.name, tensor_description(var), f"[{var_size}, bytes: {var_bytes}]")
    if print_info:
        print(f"Total size of variables: {total_size}")
        print(f"Total bytes of variables: {total_bytes}")
    return total_size, total_bytes


MODEL_ANALYZER = ModuleType(
    "tensorflow.contrib.slim.model_analyzer",
    "tf.contrib.slim.model_analyzer of TF 1.x: analyze_vars and analyze_ops.",
)
MODEL_ANALYZER.analyze_vars = analyze_vars  # type: ignore[attr-defined]
MODEL_ANALYZER.analyze_ops = analyze_ops  # type: ignore[attr-defined]
MODEL_ANALYZER.tensor_description = tensor_description  # type: ignore[attr-defined]
