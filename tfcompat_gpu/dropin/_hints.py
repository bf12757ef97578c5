"""One line after a failing script's traceback when the failure says which ``run`` flag it needs.

A missing tensorboard gets its install command, and a ``tf.contrib`` module imported (gone
since TensorFlow 2.0; ``run`` serves only ``tf.contrib.distribute`` and the names of
:mod:`._contrib` that have an exact TF2 form) its successor.  Three failures
have a flag for an answer: Keras 2 API on Keras 3 (``--legacy-keras``), TF1 graph API on TF2
without ``--tf1``, and an op pinned to a GPU the machine lacks (``--soft-placement``).
The hint is read off the exception after the script ended; it never changes what ran.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from dataclasses import dataclass
from types import ModuleType
from typing import Any

__all__ = ["Flags", "hint"]

_PROG = "tfcompat-gpu run"
KERAS2_METHODS = frozenset({"fit_generator", "evaluate_generator", "predict_generator"})
KERAS2_ARGUMENTS = ("lr",)  # Keras 3 rejects it (it only warns about decay=)
_NO_ATTRIBUTE = re.compile(r"^module '([\w.]+)' has no attribute '(\w+)'")
_NO_METHOD = re.compile(r"^'(\w+)' object has no attribute '(\w+)'")
_PRIVATE_KERAS = "tensorflow.python.keras"
_KERAS_NAMESPACES = ("keras", "tensorflow.keras", "tf_keras", "tensorflow.python.keras")
_CONTRIB = "tensorflow.contrib."
_CANNOT_IMPORT = re.compile(r"^cannot import name '(\w+)' from 'tensorflow\.contrib'")
_NOT_RECOGNIZED = re.compile(r"Argument\(s\) not recognized: \{(.*)\}")
_PINNED = re.compile(
    r"(Cannot assign a device for operation|Could not satisfy explicit device specification)"
    r".*?(/device:GPU:\d+|/job:[\w/:]*device:GPU:\d+)",
    re.DOTALL,
)


@dataclass(frozen=True)
class Flags:
    """The run's flags that a hint could suggest."""

    tf1: bool = False
    legacy_keras: bool = False
    soft_placement: bool | None = None


def hint(exc: BaseException, flags: Flags) -> str | None:
    """The line to print after ``exc``'s traceback, or None."""
    try:
        seen: set[int] = set()
        current: BaseException | None = exc
        while current is not None and id(current) not in seen:
            seen.add(id(current))
            text = _hint_for(current, flags)
            if text:
                return f"{_PROG}: hint: {text}"
            current = current.__cause__ or current.__context__
    except Exception:  # a hint must never hide the script's own error
        return None
    return None


_NDARRAY_METHODS = {
    "tostring": "a.tobytes()",
    "ptp": "np.ptp(a)",
    "itemset": "a[i] = v",
    "newbyteorder": "a.view(a.dtype.newbyteorder(order))",
}


def _ndarray_method(exc: BaseException) -> str | None:
    # NumPy 2.0 removed ndarray.ptp / itemset / newbyteorder, 2.3 ndarray.tostring
    if not isinstance(exc, AttributeError):
        return None
    match = _NO_METHOD.match(str(exc))
    if not match or match.group(1) not in ("numpy.ndarray", "ndarray"):
        return None
    written = _NDARRAY_METHODS.get(match.group(2))
    if written is None:
        return None
    return (
        f"NumPy 2 arrays have no {match.group(2)}() method: write {written} "
        "(tfcompat-gpu migrate rewrites it)."
    )


def _hint_for(exc: BaseException, flags: Flags) -> str | None:
    method = _ndarray_method(exc)
    if method:
        return method
    if type(exc).__name__ == "TBNotInstalledError":
        # tensorflow/python/summary/tb_summary.py raises it where tensorboard is missing
        # (TensorFlow 2.21's own requirements no longer list tensorboard).
        return (
            "tensorboard is not installed (TensorFlow no longer installs it): pip install "
            'tensorboard (or pip install "tfcompat-gpu[legacy-keras]").'
        )
    private = _private_keras(exc)
    if private:
        return (
            f"this script uses {private} from tensorflow.python.keras, TensorFlow's private "
            "copy of Keras 2, whose layers and models Keras 3 does not accept: "
            "import it from tensorflow.keras (or keras) instead."
        )
    contrib = _contrib_module(exc)
    if contrib:
        from tfcompat_gpu.dropin._contrib import removed_message

        return removed_message(contrib)
    if not flags.legacy_keras:
        what = _keras2_on_keras3(exc)
        if what:
            return (
                f"this is Keras 2 code ({what}), which Keras 3 removed: rerun with "
                f"--legacy-keras to run it on tf_keras{_tf_keras_note()}."
            )
    if not flags.tf1:
        what = _tf1_on_tf2(exc)
        if what:
            return (
                f"this is TensorFlow 1 graph code ({what}): rerun with --tf1 to give it "
                "tensorflow.compat.v1 with v2 behaviour off."
            )
    if flags.soft_placement is None:
        match = _PINNED.search(str(exc))
        if match and _tf_error(exc):
            return (
                f"an op is pinned to {match.group(2)}, which this machine does not have: rerun "
                "with --soft-placement to let TensorFlow put it on a device that exists."
            )
    return None


def _private_keras(exc: BaseException) -> str | None:
    """The class the script took from ``tensorflow.python.keras`` (TensorFlow's own frozen
    Keras 2 copy, still shipped) when Keras failed: a ``Layer`` subclassed or built from there is
    no ``keras.Layer`` to Keras 3 or tf_keras.  Helpers taken from there (``conv_utils``) work
    and say nothing."""
    if not (_raised_in(exc, "keras") or _raised_in(exc, "tf_keras")):
        return None
    main = sys.modules.get("__main__")
    for value in list(vars(main).values()) if main is not None else ():
        if isinstance(value, ModuleType):
            continue
        cls = value if isinstance(value, type) else type(value)
        for base in getattr(cls, "__mro__", ()):
            if str(getattr(base, "__module__", "")).startswith(_PRIVATE_KERAS):
                return str(base.__name__)
    return None


def _contrib_module(exc: BaseException) -> str | None:
    """``slim`` for ``import tensorflow.contrib.slim`` or ``from tensorflow.contrib import slim``
    failing (tf.contrib is gone; the drop-in serves only its ``distribute``)."""
    if not isinstance(exc, ImportError):
        return None
    name = getattr(exc, "name", None) or ""
    if name.startswith(_CONTRIB):
        return name[len(_CONTRIB) :].partition(".")[0]
    match = _CANNOT_IMPORT.match(str(exc))
    if name == "tensorflow.contrib" and match:
        return match.group(1)
    return None


def _tf_keras_note() -> str:
    if importlib.util.find_spec("tf_keras") is None:
        return ' (install it first: pip install "tfcompat-gpu[legacy-keras]")'
    return ""


def _keras3_loaded() -> bool:
    keras = sys.modules.get("keras")
    version = str(getattr(keras, "__version__", "0"))
    return keras is not None and version.split(".")[0].isdigit() and int(version.split(".")[0]) >= 3


def _keras2_on_keras3(exc: BaseException) -> str | None:
    if not _keras3_loaded():
        return None
    message = str(exc)
    if isinstance(exc, ModuleNotFoundError):
        name = exc.name or ""
        return f"import {name}" if name.startswith("keras.") else None
    if isinstance(exc, ImportError):
        name = exc.name or ""
        return f"an import from {name}" if name == "keras" or name.startswith("keras.") else None
    if isinstance(exc, (ValueError, TypeError)):
        match = _NOT_RECOGNIZED.search(message)
        if match and _raised_in(exc, "keras"):
            for argument in KERAS2_ARGUMENTS:
                if re.search(rf"'{argument}'\s*:", match.group(1)):
                    return f"the {argument}= argument"
        return None
    if isinstance(exc, AttributeError):
        owner, name = _attribute_error(exc, _NO_METHOD)
        if name in KERAS2_METHODS and _is_keras_object(getattr(exc, "obj", None), owner):
            return f"model.{name}()"
        owner, name = _attribute_error(exc, _NO_ATTRIBUTE)
        if owner and (owner == "keras" or owner.startswith("keras.")):
            return f"{owner}.{name}"
    return None


def _tf1_on_tf2(exc: BaseException) -> str | None:
    tf = sys.modules.get("tensorflow")
    if tf is None:
        return None
    if isinstance(exc, RuntimeError):
        if "is not compatible with eager execution" in str(exc):
            return str(exc).split(" is not", 1)[0]
        if str(exc).startswith("The Session graph is empty"):
            return "sess.run() on a graph built eagerly"
        return None
    if not isinstance(exc, AttributeError):
        return None
    owner, name = _attribute_error(exc, _NO_ATTRIBUTE)
    if not owner or not name or not (owner == "tensorflow" or owner.startswith("tensorflow.")):
        return None
    if ".compat.v1" in owner:
        return None
    rest = owner.split("._api.v2.", 1)[1] if "._api.v2." in owner else ""
    v1: Any = tf.compat.v1
    for part in rest.split(".") if rest else ():
        v1 = getattr(v1, part, None)
    if v1 is None or not hasattr(v1, name):
        return None
    public = "tf." + (f"{rest}." if rest else "") + name
    return public


def _attribute_error(exc: BaseException, pattern: re.Pattern[str]) -> tuple[str, str]:
    match = pattern.match(str(exc))
    if not match:
        return "", ""
    obj = getattr(exc, "obj", None)
    if isinstance(obj, ModuleType):
        return obj.__name__, match.group(2)
    return match.group(1), match.group(2)


def _is_keras_object(obj: Any, class_name: str) -> bool:
    if obj is not None:
        return any(getattr(cls, "__module__", "").startswith("keras") for cls in type(obj).__mro__)
    return class_name in ("Sequential", "Model", "Functional")  # Python 3.9: no exc.obj


def _raised_in(exc: BaseException, package: str) -> bool:
    tb = exc.__traceback__
    while tb is not None:
        module = tb.tb_frame.f_globals.get("__name__", "")
        if isinstance(module, str) and (module == package or module.startswith(package + ".")):
            return True
        tb = tb.tb_next
    return False


def _tf_error(exc: BaseException) -> bool:
    return any(getattr(cls, "__module__", "").startswith("tensorflow") for cls in type(exc).__mro__)
