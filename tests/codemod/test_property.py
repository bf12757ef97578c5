"""Over generated legacy programs: the output compiles, and a second run changes nothing."""

from __future__ import annotations

import pytest

pytest.importorskip("libcst")
pytest.importorskip("hypothesis")

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tfcompat_gpu.codemod.api import migrate_source

IMPORTS = [
    ("import tensorflow as tf\n", "tf."),
    ("import tensorflow.compat.v1 as tf\n", "tf."),
    ("import tensorflow as tf\n", "tf.compat.v1."),
    ("from tensorflow.compat import v1\n", "v1."),
]
PROTO_FIELDS = {
    "allow_soft_placement": st.sampled_from(["True", "False"]),
    "log_device_placement": st.sampled_from(["True", "False"]),
    "intra_op_parallelism_threads": st.sampled_from(["0", "2", "n_threads"]),
    "inter_op_parallelism_threads": st.sampled_from(["1", "4"]),
    "device_count": st.sampled_from(['{"CPU": 2}', '{"GPU": 1}', '{"CPU": 1, "GPU": 0}']),
}
GRAPH_SETTINGS = [
    "config.graph_options.optimizer_options.global_jit_level = tf.OptimizerOptions.ON_1",
    "config.graph_options.optimizer_options.global_jit_level = tf.OptimizerOptions.ON_2",
    "config.graph_options.rewrite_options.auto_mixed_precision = RewriterConfig.ON",
    "config.graph_options.place_pruned_graph = True",
    'config.gpu_options.allocator_type = "BFC"',
]
GPU_FIELDS = {
    "allow_growth": st.sampled_from(["True", "False", "args.growth"]),
    "per_process_gpu_memory_fraction": st.sampled_from(["0.3", "0.5"]),
    "visible_device_list": st.sampled_from(['"0"', '"0,1"', '"1,0"', "gpu_ids"]),
}


def _subset(fields: dict[str, st.SearchStrategy[str]]) -> st.SearchStrategy[dict[str, str]]:
    return st.fixed_dictionaries({}, optional=fields)


@st.composite
def programs(draw: st.DrawFn) -> str:
    header, tf = draw(st.sampled_from(IMPORTS))
    proto = draw(_subset(PROTO_FIELDS))
    gpu = draw(_subset(GPU_FIELDS))
    style = draw(st.sampled_from(["kwargs", "attributes", "gpu_options_variable"]))
    sink = draw(
        st.sampled_from(["assigned", "used", "with", "set_session", "interactive", "global"])
    )
    in_function = draw(st.booleans()) or sink == "global"
    comment = draw(st.sampled_from(["", "  # tuned for the shared GPU"]))
    lines: list[str] = []
    if style == "kwargs":
        args = [f"{k}={v}" for k, v in proto.items()]
        if gpu:
            inner = ", ".join(f"{k}={v}" for k, v in gpu.items())
            args.append(f"gpu_options={tf}GPUOptions({inner})")
        if len(args) > 2:
            lines.append(f"config = {tf}ConfigProto(")
            lines += [f"    {arg},{comment if i == 0 else ''}" for i, arg in enumerate(args)]
            lines.append(")")
        else:
            lines.append(f"config = {tf}ConfigProto({', '.join(args)}){comment}")
    elif style == "attributes":
        lines.append(f"config = {tf}ConfigProto()")
        settings = [f"config.{k} = {v}" for k, v in proto.items()]
        settings += [f"config.gpu_options.{k} = {v}{comment}" for k, v in gpu.items()]
        settings += draw(st.lists(st.sampled_from(GRAPH_SETTINGS), max_size=2, unique=True))
        for setting in settings:
            # settings made under a flag, as training scripts do (some leave the if early)
            guard = draw(st.sampled_from(["", "", "if args.flag:", "elif_chain", "return"]))
            if guard == "":
                lines.append(setting)
            elif guard == "elif_chain":
                lines += [
                    "if args.a:",
                    f"    {setting}",
                    "elif args.b:",
                    "    pass",
                    "else:",
                    f"    {setting}",
                ]
            elif guard == "return" and in_function:
                lines += ["if args.dry_run:", f"    {setting}", "    return None"]
            else:
                lines += ["if args.flag:", f"    {setting}"]
    else:
        inner = ", ".join(f"{k}={v}" for k, v in gpu.items())
        lines.append(f"gpu_options = {tf}GPUOptions({inner}){comment}")
        args = [f"{k}={v}" for k, v in proto.items()] + ["gpu_options=gpu_options"]
        lines.append(f"config = {tf}ConfigProto({', '.join(args)})")
    if sink == "assigned":
        lines.append(f"sess = {tf}Session(config=config)")
    elif sink == "used":
        lines += [f"sess = {tf}Session(config=config)", "print(sess.run(x))"]
    elif sink == "with":
        lines += [f"with {tf}Session(config=config) as sess:", "    sess.run(x)"]
    elif sink == "set_session":
        header += "from keras.backend.tensorflow_backend import set_session\n"
        lines.append(f"set_session({tf}Session(config=config))")
    elif sink == "interactive":
        lines.append(f"sess = {tf}InteractiveSession(config=config)")
    else:
        lines = ["global sess", *lines, f"sess = {tf}Session(config=config)"]
    body = "\n".join(lines) + "\n"
    if in_function:
        body = "def main(args, x, n_threads, gpu_ids):\n" + "".join(
            f"    {line}\n" if line else "\n" for line in body.splitlines()
        )
        if sink == "global":
            body = "sess = None\n" + body + "def run(x):\n    return sess.run(x)\n"
    else:
        body = "args = x = n_threads = gpu_ids = None\n" + body
    code = header + body
    if draw(st.booleans()):
        code = code.replace("\n", "\r\n")
    if draw(st.booleans()):
        code = code.rstrip("\r\n")
    return code


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(programs(), st.sampled_from(["facade", "tf2"]))
def test_output_compiles_and_a_second_run_changes_nothing(code: str, target: str) -> None:
    compile(code, "<legacy>", "exec")
    once = migrate_source(code, target=target)  # type: ignore[arg-type]
    compile(once.code, "<migrated>", "exec")
    twice = migrate_source(once.code, target=target)  # type: ignore[arg-type]
    assert twice.code == once.code
    # every warning about a config names the construct that stopped it
    for warning in once.warnings:
        if "ConfigProto" in warning or "no TF2 successor" in warning:
            assert warning.endswith("]"), warning
    # a config left as it was is reported
    if "ConfigProto(" in once.code and "compat.v1.ConfigProto()" not in once.code:
        assert any("ConfigProto" in w or "config" in w for w in once.warnings), once.warnings
    if "\r\n" in code:
        assert "\n" not in once.code.replace("\r\n", "")
