"""Where a function handed on runs in another process: the launchers libraries document.

TensorFlow fixes its GPU options, visible devices and thread pools once per process, so two
sessions only conflict, and a setter only comes "after the runtime started", within one
process.  A function given to one of these launchers runs in a process of its own (a worker,
an executor, a Spark task): :class:`~tfcompat_gpu.lint.flow.Flow` analyses it apart from the
code that hands it on.

Each row comes from the library's documented entry point:

* ``multiprocessing``: ``Process(target=f)``; ``Pool.apply / apply_async / map / map_async /
  imap / imap_unordered / starmap / starmap_async`` (Python docs, "multiprocessing —
  Process-based parallelism"); ``torch.multiprocessing.spawn(fn, ...)``.
* ``concurrent.futures.ProcessPoolExecutor.submit / map`` (Python docs, "concurrent.futures").
* PySpark ``RDD.mapPartitions / mapPartitionsWithIndex / foreachPartition / flatMap``,
  ``DataFrame.mapInPandas / mapInArrow``, ``GroupedData.applyInPandas`` (PySpark API
  reference): the function is pickled and run by the executors.
* Horovod ``horovod.spark.run(fn, ...)``, ``horovod.run(fn, ...)`` (``horovod.runner.run``),
  ``horovod.ray.RayExecutor.run / execute``, Databricks ``sparkdl.HorovodRunner.run`` (Horovod
  docs, "Horovod on Spark", "Horovod on Ray").
* Ray ``@ray.remote`` / ``ray.remote(f)`` (Ray docs, "Tasks").
* TensorFlow ``tf.distribute.experimental.coordinator.ClusterCoordinator.schedule(fn)`` (the
  parameter-server workers), TensorFlowOnSpark ``TFCluster.run(sc, map_fun, ...)``.
* joblib ``Parallel(...)(delayed(f)(...))``: the default ``loky`` backend runs worker processes.

Same-process runners (``threading.Thread``, ``ThreadPoolExecutor``, ``strategy.run``,
``tf.data`` ``map``) are not here: their functions run in this process.
"""

from __future__ import annotations

__all__ = [
    "POOL_FACTORIES",
    "POOL_METHODS",
    "PROCESS_CALLS",
    "PROCESS_DECORATORS",
    "PROCESS_METHODS",
    "RUNNER_FACTORIES",
]

PROCESS_CALLS: dict[str, int | str] = {
    # qualified name -> the positional index or keyword of the function it runs elsewhere
    "horovod.spark.run": 0,
    "horovod.run": 0,
    "horovod.runner.run": 0,
    "torch.multiprocessing.spawn": 0,
    "multiprocessing.Process": "target",
    "ray.remote": 0,
    "joblib.delayed": 0,
    "tensorflowonspark.TFCluster.run": 1,
}
PROCESS_DECORATORS = frozenset({"ray.remote"})
PROCESS_METHODS = frozenset(
    {
        # PySpark: names no same-process API spells this way.
        "mapPartitions",
        "mapPartitionsWithIndex",
        "foreachPartition",
        "flatMap",
        "mapInPandas",
        "mapInArrow",
        "applyInPandas",
    }
)
POOL_FACTORIES = frozenset(
    {
        "multiprocessing.Pool",
        "multiprocessing.pool.Pool",
        "concurrent.futures.ProcessPoolExecutor",
        "ray.util.multiprocessing.Pool",
    }
)
"""Calls making a process pool; a ``ctx.Pool(...)`` of ``multiprocessing.get_context`` too."""
POOL_METHODS = frozenset(
    {
        "apply",
        "apply_async",
        "map",
        "map_async",
        "imap",
        "imap_unordered",
        "starmap",
        "starmap_async",
        "submit",
    }
)
RUNNER_FACTORIES: dict[str, frozenset[str]] = {
    # an object these make runs the function given to these methods elsewhere
    "sparkdl.HorovodRunner": frozenset({"run"}),
    "horovod.ray.RayExecutor": frozenset({"run", "execute", "run_remote"}),
    "tensorflow.distribute.experimental.coordinator.ClusterCoordinator": frozenset({"schedule"}),
}
