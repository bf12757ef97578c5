"""tfcompat-gpu run: the script runs as ``python script.py`` would, with GPU settings applied."""

from __future__ import annotations

import sys

import pytest

from tests._child import cli, emitted, run_script

pytestmark = pytest.mark.tf

SAME_AS_PYTHON = """
    import os, sys
    from tests._child import emit
    emit({"argv": sys.argv, "name": __name__, "path0": sys.path[0] == os.path.dirname(os.path.abspath(__file__)),
          "file": os.path.basename(__file__), "main": sys.modules["__main__"].__dict__ is globals()})
    sys.exit(int(sys.argv[1]))
"""


@pytest.mark.parametrize("runner", [True, False], ids=["tfcompat-gpu run", "python"])
def test_script_sees_what_python_gives_it(tmp_path, runner):
    run = run_script(tmp_path, SAME_AS_PYTHON, args=("3", "--flag"), runner=runner)
    assert run.rc == 3
    assert run.result == {
        "argv": ["script.py", "3", "--flag"],
        "name": "__main__",
        "path0": True,
        "file": "script.py",
        "main": True,
    }


def test_traceback_points_at_the_script_and_exit_status_is_one(tmp_path):
    run = run_script(tmp_path, "x = 1\n\ndef f():\n    return 1 / 0\n\nf()\n")
    assert run.rc == 1
    lines = run.err.strip().splitlines()
    assert lines[0] == "Traceback (most recent call last):"
    assert f'File "{tmp_path / "script.py"}", line 6, in <module>' in lines[1]
    assert f'File "{tmp_path / "script.py"}", line 4, in f' in run.err
    assert "tfcompat_gpu" not in run.err  # none of the runner's frames
    assert lines[-1] == "ZeroDivisionError: division by zero"


@pytest.mark.parametrize(
    ("flags", "env", "message"),
    [
        (
            ["--memory-fraction", "lots"],
            {},
            "tfcompat-gpu run: error: --memory-fraction: expected a number in (0, 1] (ASCII digits, such as 0.5) for "
            "per_process_gpu_memory_fraction. Received: 'lots'.",
        ),
        (
            ["--intra-op-threads", "-2"],
            {},
            "tfcompat-gpu run: error: --intra-op-threads: expected an integer >= 0 for "
            "intra_op_parallelism_threads. Received: '-2'.",
        ),
        (
            [],
            {"TFCOMPAT_GPU_CONFLICT_POLICY": "loud"},
            "tfcompat-gpu run: error: environment variable TFCOMPAT_GPU_CONFLICT_POLICY: "
            "expected one of 'error', 'warn', 'ignore', 'remap'. Received: 'loud'.",
        ),
        (
            ["--config", "missing.ini"],
            {},
            "tfcompat-gpu run: error: Cannot read GPU settings from 'missing.ini'",
        ),
    ],
    ids=["fraction", "threads", "policy-env", "config-file"],
)
def test_invalid_values_exit_2_with_our_message(tmp_path, flags, env, message):
    run = run_script(tmp_path, "print('ran')\n", *flags, env=env)
    assert run.rc == 2
    assert run.err.startswith(message), run.err
    assert "Traceback" not in run.err
    assert "ran" not in run.out


def test_unknown_flag_and_missing_script_exit_2(tmp_path):
    bad_flag = run_script(tmp_path, "print('ran')\n", "--allow-grwth")
    assert bad_flag.rc == 2
    assert "tfcompat-gpu run: error: unrecognized arguments" in bad_flag.err or (
        "tfcompat-gpu run: error:" in bad_flag.err
    )
    proc = cli("run", "nowhere.py", cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr == "tfcompat-gpu run: error: can't open file 'nowhere.py': no such file\n"


SETTINGS = """
    import tensorflow as tf
    from tests._child import emit
    tf.compat.v1.disable_eager_execution()
    sess = tf.Session(config=tf.ConfigProto(
        allow_soft_placement=False,
        gpu_options=tf.GPUOptions(per_process_gpu_memory_fraction=0.9)))
    plain = tf.Session()
    c = sess._config
    emit({"fraction": round(c.gpu_options.per_process_gpu_memory_fraction, 3),
          "growth": c.gpu_options.allow_growth, "soft": c.allow_soft_placement,
          "intra": c.intra_op_parallelism_threads, "inter": c.inter_op_parallelism_threads,
          "visible": c.gpu_options.visible_device_list,
          "limits": [list(v.memory_limit_mb) for v in c.gpu_options.experimental.virtual_devices],
          "plain_fraction": round(plain._config.gpu_options.per_process_gpu_memory_fraction, 3)})
"""


def test_flags_override_the_script_and_win_over_environment_and_file(tmp_path):
    (tmp_path / "gpu.ini").write_text("[gpu]\nrate = 0.25\ninter_op_threads = 5\n")
    env = {
        "TFCOMPAT_GPU_MEMORY_FRACTION": "0.1",
        "TFCOMPAT_GPU_INTRA_OP_THREADS": "3",
        "TFCOMPAT_GPU_VISIBLE_DEVICES": "0",
    }
    run = run_script(
        tmp_path,
        SETTINGS,
        "--config",
        "gpu.ini",
        "--memory-fraction",
        "0.5",
        "--soft-placement",
        "--allow-growth",
        env=env,
    )
    assert run.rc == 0, run.err
    assert run.result == {
        "fraction": 0.5,  # flag > file > env > the script's 0.9
        "growth": True,
        "soft": True,  # the flag wins over the script's allow_soft_placement=False
        "intra": 3,  # env
        "inter": 5,  # file
        "visible": "0",
        "limits": [],
        "plain_fraction": 0.5,
    }
    assert run.report["where"] == "tfcompat-gpu run options"
    assert run.report["config"]["per_process_gpu_memory_fraction"] == 0.5


def test_memory_limit_list_makes_virtual_devices(tmp_path):
    run = run_script(tmp_path, SETTINGS, "--memory-limit-mb", "1024,1024", "--no-soft-placement")
    assert run.rc == 0, run.err
    assert run.report["config"]["memory_limit_mb"] == [1024, 1024]
    # the memory limit replaces the script's fraction instead of conflicting with it
    assert "per_process_gpu_memory_fraction" not in run.report["config"]
    assert run.result["fraction"] == 0.0
    assert run.result["soft"] is False


TF1_MAIN = """
    import tensorflow as tf
    import tensorflow
    from tensorflow import placeholder
    import helper_beside
    import outside_lib
    from tests._child import emit
    x = tf.placeholder(tf.float32, shape=[2])
    y = x * 2.0
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        value = sess.run(y, feed_dict={x: [1.0, 2.0]}).tolist()
    emit({"main": tf.__name__, "bare": tensorflow.__name__, "from": placeholder.__name__,
          "beside": helper_beside.NAME, "library": outside_lib.NAME,
          "eager": tf.executing_eagerly(), "value": value})
"""


def test_tf1_hands_the_v1_api_to_the_script_and_modules_beside_it_only(tmp_path):
    (tmp_path / "helper_beside.py").write_text("import tensorflow as tf\nNAME = tf.__name__\n")
    lib = tmp_path / "lib"
    lib.mkdir()
    (lib / "outside_lib.py").write_text("import tensorflow as tf\nNAME = tf.__name__\n")
    run = run_script(tmp_path, TF1_MAIN, "--tf1", env={"PYTHONPATH": str(lib)})
    assert run.rc == 0, run.err
    v1 = run.result["main"]
    assert v1.endswith("compat.v1")
    assert run.result["bare"] == v1
    assert run.result["from"] == "placeholder"
    assert run.result["beside"] == v1
    assert run.result["library"] == "tensorflow"
    assert run.result["eager"] is False
    assert run.result["value"] == [2.0, 4.0]


POOL = """
    import multiprocessing, sys
    import tensorflow as tf
    from tests._child import emit

    def tf1_worker(x):
        ph = tf.placeholder(tf.float32, shape=[1])
        with tf.Session() as sess:
            value = sess.run(ph * 2.0, feed_dict={ph: [x]}).tolist()
            c = sess._config
        return {"api": tf.__name__, "eager": tf.executing_eagerly(), "value": value,
                "intra": c.intra_op_parallelism_threads,
                "fraction": round(c.gpu_options.per_process_gpu_memory_fraction, 3)}

    def tf2_worker(x):
        return {"api": tf.__name__, "eager": tf.executing_eagerly(),
                "intra": tf.config.threading.get_intra_op_parallelism_threads()}

    if __name__ == "__main__":
        worker = tf1_worker if sys.argv[1] == "tf1" else tf2_worker
        out = {}
        for method in sys.argv[2:]:
            with multiprocessing.get_context(method).Pool(2) as pool:
                out[method] = pool.map(worker, [1.0, 2.0])
        emit(out)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="forkserver is POSIX-only")
def test_spawned_and_forkserver_children_get_the_settings_and_tf1(tmp_path):
    flags = ("--tf1", "--intra-op-threads", "3", "--memory-fraction", "0.4")
    run = run_script(tmp_path, POOL, *flags, args=("tf1", "spawn", "forkserver"), timeout=300)
    assert run.rc == 0, run.err
    for method in ("spawn", "forkserver"):
        for x, child in zip((1.0, 2.0), run.result[method]):
            assert child["api"].endswith("compat.v1"), (method, child)
            assert child == {
                "api": child["api"],
                "eager": False,
                "value": [2 * x],
                "intra": 3,
                "fraction": 0.4,
            }, method


def test_spawned_children_of_a_tf2_script_get_the_settings(tmp_path):
    # One script holds a TF1 and a TF2 worker: auto mode reads the TF1 one, so the TF2 run says
    # --no-auto, the documented override of a wrong guess.
    run = run_script(tmp_path, POOL, "--no-auto", "--intra-op-threads", "3", args=("tf2", "spawn"))
    assert run.rc == 0, run.err
    assert run.result["spawn"] == [{"api": "tensorflow", "eager": True, "intra": 3}] * 2


def test_symlinked_tf1_script_hands_v1_to_modules_beside_its_target(tmp_path):
    real = tmp_path / "project"
    real.mkdir()
    (real / "helper_beside.py").write_text("import tensorflow as tf\nNAME = tf.__name__\n")
    (real / "train.py").write_text(
        "import tensorflow as tf\nimport helper_beside\nfrom tests._child import emit\n"
        "emit({'main': tf.__name__, 'beside': helper_beside.NAME})\n"
    )
    (tmp_path / "train-link.py").symlink_to(real / "train.py")
    proc = cli("run", "--tf1", "train-link.py", cwd=tmp_path, timeout=240)
    assert proc.returncode == 0, proc.stderr
    result = emitted(proc.stdout)
    assert result["main"].endswith("compat.v1")
    assert result["beside"] == result["main"]


def test_tf1_hands_the_v1_api_to_the_packages_beside_the_script(tmp_path):
    # a research repository's layout: train.py beside model/ (and model/layers/), whose modules
    # import tensorflow themselves; a package on PYTHONPATH is a library and keeps TF2
    model = tmp_path / "model"
    (model / "layers").mkdir(parents=True)
    (model / "__init__.py").write_text("")
    (model / "ner_model.py").write_text(
        "import tensorflow as tf\nfrom .layers.dense import project\n"
        "def build():\n"
        "    x = tf.placeholder(tf.float32, [None, 2])\n"
        "    return x, project(x)\n"
    )
    (model / "layers" / "__init__.py").write_text("")
    (model / "layers" / "dense.py").write_text(
        "import tensorflow as tf\n"
        "def project(x):\n"
        "    w = tf.get_variable('w', [2, 1], initializer=tf.ones_initializer())\n"
        "    return tf.matmul(x, w)\n"
    )
    lib = tmp_path / "lib" / "outside_pkg"
    lib.mkdir(parents=True)
    (lib / "__init__.py").write_text("import tensorflow as tf\nNAME = tf.__name__\n")
    run = run_script(
        tmp_path,
        """
        import tensorflow as tf
        import outside_pkg
        from model.ner_model import build
        from model.layers import dense
        from tests._child import emit
        x, y = build()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            value = sess.run(y, feed_dict={x: [[1.0, 2.0]]}).tolist()
        emit({"inner": dense.tf.__name__, "library": outside_pkg.NAME, "value": value})
        """,
        "--tf1",
        env={"PYTHONPATH": str(tmp_path / "lib")},
    )
    assert run.rc == 0, run.err
    assert run.result["inner"].endswith("compat.v1")
    assert run.result["library"] == "tensorflow"
    assert run.result["value"] == [[3.0]]
def test_tf1_hands_the_v1_api_to_the_modules_of_a_package_beside_the_script(tmp_path):
    # keras-frcnn: train_frcnn.py imports keras_frcnn.resnet, which imports the package's
    # RoiPoolingConv module, which calls tf.image.resize_images
    package = tmp_path / "detector"
    (package / "layers").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "layers" / "__init__.py").write_text("")
    (package / "layers" / "roi.py").write_text("import tensorflow as tf\nNAME = tf.__name__\n")
    (package / "net.py").write_text(
        "import tensorflow as tf\nfrom detector.layers import roi\nNAME = tf.__name__\n"
    )
    lib = tmp_path / "lib"
    lib.mkdir()
    (lib / "outside_lib.py").write_text("import tensorflow as tf\nNAME = tf.__name__\n")
    code = (
        "import tensorflow as tf\nfrom detector import net\nfrom detector.layers import roi\n"
        "import outside_lib\nfrom tests._child import emit\n"
        "emit({'main': tf.__name__, 'net': net.NAME, 'roi': roi.NAME,"
        " 'library': outside_lib.NAME})\n"
    )
    run = run_script(tmp_path, code, "--tf1", env={"PYTHONPATH": str(lib)})
    assert run.rc == 0, run.err
    v1 = run.result["main"]
    assert v1.endswith("compat.v1")
    assert run.result["net"] == v1
    assert run.result["roi"] == v1
    assert run.result["library"] == "tensorflow"
