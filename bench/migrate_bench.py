"""Benchmark of ``tfcompat-gpu migrate`` against ``tf_upgrade_v2`` and against ``check``.

Three measurements in one run, on trees generated from the lint benchmark's templates
(``bench/lint_bench.py``: TF1 sessions and ConfigProto, Keras ``set_session``, ``tf.config``
code, graph-mode model code around them):

1. all-legacy tree (every file configures a GPU; each file's configs agree, so they are
   migrated, not only reported): ``tfcompat-gpu migrate TREE`` (diff to a file; one worker
   per CPU, and ``-j1``) against ``tf_upgrade_v2 --intree TREE --outtree OUT`` (median of
   ``--repeat`` runs, wall and CPU time of the whole process);
2. size series: one file at 1x, 2x and 4x its size, ``migrate_source`` in process (best of
   ``--repeat``): the time per line should stay flat (linear time);
3. mostly-clean tree (one file in ten configures a GPU, the others are model code):
   ``tfcompat-gpu migrate`` against ``tfcompat-gpu check`` on the same tree;
4. bytes series: one legacy configuration among model code, files of about 0.3, 0.6, 1.2,
   2.5 and 5 MB (the largest file migrate reads), ``migrate_source`` and ``check``'s
   ``check_bytes`` in process (best of ``--repeat``): the time per byte, and its ratio to the
   smallest file's, should stay flat or fall;
5. one huge line: a 7-line legacy file plus one 1.5 MB line of data, ``migrate_source``
   against ``check_bytes``.

Usage: python bench/migrate_bench.py [--files 200] [--repeat 3] [--keep DIR] [--sizes-only]
Targets: >= 2x faster than tf_upgrade_v2 (wall, one worker per CPU); 4x size within 1.5x of 4x
the 1x time; mostly-clean tree within 2x of check's time; in the bytes series, no size's time
per byte above 1.25x the smallest's; the huge line within 3x of check's time.
"""

from __future__ import annotations

import argparse
import compileall
import os
import random
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from lint_bench import (
    HEADERS,
    KERAS_SESSION,
    MAIN,
    MODEL,
    TF1_SESSION,
    TF2_CONFIG,
    time_process,
)


def best(func: Callable[[], object], repeat: int) -> float:
    """The shortest of ``repeat`` timings of ``func()``, in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return min(times)


def legacy_file(n: int, blocks: int, rng: random.Random) -> str:
    """A training script with one TF1 GPU configuration and ``blocks`` of code around it.

    One session config per file (a TF1 session or Keras' ``set_session``, in turns): a file
    whose configs ask for different settings is left alone by design, and would measure less.
    """
    header = HEADERS[n % len(HEADERS)]
    setter = "set_session" if "set_session" in header else "K.set_session"
    parts = [f'"""Training script {n}: legacy TF1 GPU configuration."""\n', header]
    if "np" not in header:
        parts.append("import numpy as np\n")
    # one choice per file: a script that asks for two settings is left alone by design
    fixed = dict(
        fraction=rng.choice([0.3, 0.5, 0.8]),
        gpu=rng.choice(["0", "1", "0,1"]),
        threads=rng.choice([1, 2, 4, 8]),
        limit=rng.choice([1024, 2048, 4096]),
        setter=setter,
    )
    values: dict[str, object] = {}
    for i in range(n * 100, n * 100 + blocks):
        values = dict(
            fixed,
            i=i,
            n_in=rng.choice([32, 64, 128]),
            hidden=rng.choice([64, 256]),
            lr=rng.choice([0.001, 0.01]),
            epochs=rng.choice([5, 10, 20]),
            n=1000 + i,
        )
        if i == n * 100:
            session = TF1_SESSION if n % 2 == 0 else KERAS_SESSION
            parts.append(session.format(**values))
        parts += [TF2_CONFIG.format(**values), MODEL.format(**values)]
    main = MAIN if n % 2 == 0 else MAIN.replace("make_session_", "setup_keras_")
    parts.append(main.format(**dict(values, i=n * 100)))
    return "".join(parts)


def clean_file(n: int, blocks: int, rng: random.Random) -> str:
    """Model code that configures nothing (what most files of a real tree are)."""
    parts = [f'"""Model {n}."""\nimport numpy as np\nimport tensorflow as tf\n']
    for i in range(n * 100, n * 100 + blocks):
        parts.append(
            MODEL.format(
                i=i,
                gpu=rng.choice(["0", "1"]),
                n_in=rng.choice([32, 64, 128]),
                hidden=rng.choice([64, 256]),
                lr=rng.choice([0.001, 0.01]),
                epochs=rng.choice([5, 10, 20]),
            )
        )
    return "".join(parts)


def write_tree(root: Path, files: int, legacy_every: int) -> list[Path]:
    rng = random.Random(0)
    paths = []
    for n in range(files):
        legacy = n % legacy_every == 0
        code = legacy_file(n, 3, rng) if legacy else clean_file(n, 4, rng)
        path = root / f"pkg{n % 10}" / f"{'train' if legacy else 'model'}_{n:03d}.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(code)
        paths.append(path)
    return paths


def sized_file(target_bytes: int, small: bool = False) -> str:
    """A legacy configuration among model code (or among small functions, which make many
    statements per byte), about ``target_bytes`` long."""
    rng = random.Random(2)
    head = legacy_file(3, 1, rng)
    blocks = []
    size = len(head)
    i = 0
    while size < target_bytes:
        block = (
            f"def f{i}(x):\n    return x + {i}\n\n"
            if small
            else MODEL.format(
                i=i,
                gpu="0",
                n_in=rng.choice([32, 64, 128]),
                hidden=rng.choice([64, 256]),
                lr=rng.choice([0.001, 0.01]),
                epochs=rng.choice([5, 10, 20]),
            )
        )
        blocks.append(block)
        size += len(block)
        i += 1
    return head + "".join(blocks)


def bytes_series(repeat: int) -> bool:
    """Measurements 4 and 5; True when both meet their targets."""
    from tfcompat_gpu.codemod._io import MAX_BYTES
    from tfcompat_gpu.codemod.api import migrate_source
    from tfcompat_gpu.lint.engine import check_bytes

    print("4. bytes series: one legacy file among code, in process (best of runs)")
    flat = True
    for small in (False, True):
        print(f"   among {'small functions' if small else 'model code'}:")
        rates: list[float] = []
        for fraction in (1 / 16, 1 / 8, 1 / 4, 1 / 2, 1):
            code = sized_file(int(MAX_BYTES * fraction) - 20_000, small)
            data = code.encode()
            assert migrate_source(code).changed
            migrate = best(lambda code=code: migrate_source(code), repeat)
            check = best(lambda data=data: check_bytes(data, "big.py"), repeat)
            rate = migrate / len(data)
            rates.append(rate)
            print(
                f"   {len(data) / 1e6:5.2f} MB: migrate {migrate:7.2f} s "
                f"({rate * 1e9:7.1f} ns/byte, {rate / rates[0]:.2f}x the smallest's), "
                f"check {check:6.2f} s, migrate / check {migrate / check:.2f}x"
            )
        flat = flat and all(rate <= 1.25 * rates[0] for rate in rates)
    print(
        f"   time per byte flat or falling (each <= 1.25x the smallest's): "
        f"{'OK' if flat else 'MISSED'}"
    )
    print("5. one huge line: 7 lines of legacy code and one 1.5 MB line of data")
    code = (
        "import tensorflow as tf\n"
        "config = tf.ConfigProto()\n"
        "config.gpu_options.allow_growth = True\n"
        "config.gpu_options.visible_device_list = '0'\n"
        "sess = tf.Session(config=config)\n"
        "print(sess.run(tf.constant(1)))\n"
        "sess.close()\n"
        "DATA = [" + ", ".join(str(i) for i in range(220_000)) + "]\n"
    )
    data = code.encode()
    assert migrate_source(code).changed
    migrate = best(lambda: migrate_source(code), repeat)
    check = best(lambda: check_bytes(data, "huge.py"), repeat)
    close = migrate <= 3 * check
    print(
        f"   {len(data) / 1e6:.2f} MB: migrate {migrate:.2f} s, check {check:.2f} s, "
        f"migrate / check {migrate / check:.2f}x (target <= 3x) {'OK' if close else 'MISSED'}"
    )
    return flat and close


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--keep", help="generate the trees here and keep them")
    parser.add_argument(
        "--sizes-only", action="store_true", help="only the bytes series and the huge line (4, 5)"
    )
    parser.add_argument(
        "--tf-upgrade", default=str(Path(sys.executable).with_name("tf_upgrade_v2"))
    )
    args = parser.parse_args()
    n = args.repeat
    # this checkout's code, in the child processes too
    root = str(Path(__file__).resolve().parents[1])
    os.environ["PYTHONPATH"] = os.pathsep.join([root, os.environ.get("PYTHONPATH", "")])
    sys.path.insert(0, root)
    # byte-compiled as pip leaves an installed package (PYTHONDONTWRITEBYTECODE would
    # otherwise make every process compile the package's source)
    compileall.compile_dir(os.path.join(root, "tfcompat_gpu"), quiet=1)
    cli = [sys.executable, "-m", "tfcompat_gpu"]
    if args.sizes_only:
        return 0 if bytes_series(n) else 1

    work = Path(args.keep or tempfile.mkdtemp(prefix="migrate-bench-"))
    legacy, clean = work / "legacy", work / "clean"
    for tree in (legacy, clean):
        shutil.rmtree(tree, ignore_errors=True)
    legacy_paths = write_tree(legacy, args.files, legacy_every=1)
    write_tree(clean, args.files, legacy_every=10)
    size = sum(p.stat().st_size for p in legacy_paths)
    lines = sum(p.read_text().count("\n") for p in legacy_paths)
    print(f"all-legacy tree: {len(legacy_paths)} files, {size / 1e6:.1f} MB, {lines} lines")

    from tfcompat_gpu.codemod.api import migrate_source

    migrated = sum(migrate_source(p.read_text()).changed for p in legacy_paths)
    print(f"files the migration rewrites: {migrated} of {len(legacy_paths)}")

    diff = str(work / "migrate.diff")
    migrate = [*cli, "migrate", str(legacy)]
    # one worker per CPU, named: the default counts busy CPUs by the load average, which the
    # benchmark's own previous runs raise
    jobs = f"-j{os.cpu_count() or 1}"
    mig_wall, mig_cpu = time_process(["sh", "-c", f'"$@" {jobs} > {diff}', "sh", *migrate], n)
    one_wall, one_cpu = time_process(["sh", "-c", f'"$@" -j1 > {diff}', "sh", *migrate], n)
    upgrade_wall, upgrade_cpu = time_process(
        [
            args.tf_upgrade,
            "--intree",
            str(legacy),
            "--outtree",
            str(work / "out"),
            "--reportfile",
            str(work / "report.txt"),
        ],
        n,
        cleanup=work / "out",
    )

    series = []
    for factor in (1, 2, 4):
        code = legacy_file(7, 3 * factor, random.Random(1))
        seconds = best(lambda code=code: migrate_source(code), n)
        series.append((factor, code.count("\n"), seconds))

    clean_wall, clean_cpu = time_process(
        ["sh", "-c", f'"$@" {jobs} > {diff}', "sh", *cli, "migrate", str(clean)], n
    )
    check_wall, check_cpu = time_process([*cli, "check", jobs, "--isolated", str(clean)], n)

    print(
        f"load average at the end: {', '.join(f'{x:.2f}' for x in os.getloadavg())} "
        f"on {os.cpu_count()} CPUs (medians of {n} runs; CPU = user + system of the process "
        "and its workers)"
    )
    print("1. all-legacy tree, whole process")
    print(f"   tf_upgrade_v2:             {upgrade_wall:8.2f} s wall {upgrade_cpu:8.2f} s CPU")
    print(f"   migrate {jobs + ':':<18} {mig_wall:8.2f} s wall {mig_cpu:8.2f} s CPU")
    print(f"   migrate -j1:               {one_wall:8.2f} s wall {one_cpu:8.2f} s CPU")
    speedup = upgrade_wall / mig_wall
    print(
        f"   speed-up: {speedup:.2f}x wall (target >= 2x) {'OK' if speedup >= 2 else 'MISSED'}; "
        f"-j1: {upgrade_wall / one_wall:.2f}x wall, {upgrade_cpu / one_cpu:.2f}x CPU"
    )
    print("2. one file, migrate_source in process (best of runs)")
    first = series[0][2] / series[0][1]
    for factor, count, seconds in series:
        print(
            f"   {factor}x: {count:6d} lines {seconds:7.3f} s  "
            f"{seconds / count * 1000:6.3f} ms/line  ({seconds / count / first:.2f}x the 1x rate)"
        )
    linear = series[2][2] <= 1.5 * 4 * series[0][2]
    print(f"   4x size within 1.5x of 4x the 1x time: {'OK' if linear else 'MISSED'}")
    print("3. mostly-clean tree (1 file in 10 configures a GPU), whole process")
    print(f"   check {jobs}:   {check_wall:8.2f} s wall {check_cpu:8.2f} s CPU")
    print(f"   migrate {jobs}: {clean_wall:8.2f} s wall {clean_cpu:8.2f} s CPU")
    close = clean_wall <= 2 * check_wall
    print(
        f"   migrate / check: {clean_wall / check_wall:.2f}x wall (target <= 2x) "
        f"{'OK' if close else 'MISSED'}"
    )
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    sized = bytes_series(n)
    return 0 if speedup >= 2 and linear and close and sized else 1


if __name__ == "__main__":
    raise SystemExit(main())
