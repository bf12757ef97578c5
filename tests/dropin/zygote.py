"""One interpreter that imports TensorFlow once and forks a fresh child per script run.

Importing TensorFlow costs seconds; the legacy scripts the drop-in tests run take a fraction of
that.  The zygote imports TensorFlow (with ``TF_USE_LEGACY_KERAS=1`` for the tf_keras flavour,
as ``run --legacy-keras`` sets it) and nothing else of ours runs before the fork: each child
is a process of its own that calls ``tfcompat-gpu run``'s ``main`` with the script's arguments,
so process-wide state (the GPU configuration, v1 behaviour, the drop-in) never crosses cases.
Where a case asks for it, the child adds simulated GPUs first (:mod:`simgpu`), as a machine
with GPUs would have them before the script starts.
"""

from __future__ import annotations

import json
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests._child import start

_SERVE = r"""
import json, os, sys, traceback
import tensorflow
from tfcompat_gpu.commands import run as runner
print("ready", flush=True)
for line in sys.stdin:
    req = json.loads(line)
    sys.stdout.flush(); sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        status = 70
        try:
            for fd, path in ((1, req["out"]), (2, req["err"])):
                os.dup2(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644), fd)
            os.chdir(req["cwd"])
            os.environ.update(req["env"])
            if req["gpus"]:
                from simgpu import simulate_gpus
                simulate_gpus(req["gpus"])
            status = runner.main(["run", *req["argv"]])
        except SystemExit as exc:
            code = exc.code
            status = code if isinstance(code, int) else (0 if code is None else 1)
            if not isinstance(code, int) and code is not None:
                print(code, file=sys.stderr)
        except BaseException:
            traceback.print_exc()
            status = 71
        finally:
            sys.stdout.flush(); sys.stderr.flush()
            os._exit(status)
    _, raw = os.waitpid(pid, 0)
    code = os.WEXITSTATUS(raw) if os.WIFEXITED(raw) else 128 + os.WTERMSIG(raw)
    print(json.dumps({"rc": code}), flush=True)
"""


@dataclass
class Result:
    rc: int
    out: str
    err: str
    report: Any


class Zygote:
    def __init__(self, legacy_keras: bool) -> None:
        extra = {"PYTHONDONTWRITEBYTECODE": "1"}
        if legacy_keras:
            extra["TF_USE_LEGACY_KERAS"] = "1"
        self.proc = start(
            ["-c", _SERVE], stdin=subprocess.PIPE, stderr=subprocess.DEVNULL, env=extra
        )
        assert self.proc.stdout is not None
        ready = self.proc.stdout.readline()
        if ready.strip() != "ready":
            raise RuntimeError(f"the zygote did not start: {ready!r}")

    def run(
        self,
        tmp_path: Path,
        script: Path,
        *flags: str,
        gpus: int = 0,
        env: dict[str, str] | None = None,
    ) -> Result:
        assert self.proc.stdin is not None
        assert self.proc.stdout is not None
        report = tmp_path / "report.json"
        request = {
            "argv": ["--report", str(report), *flags, str(script)],
            "cwd": str(tmp_path),
            "out": str(tmp_path / "stdout.txt"),
            "err": str(tmp_path / "stderr.txt"),
            "gpus": gpus,
            "env": env or {},
        }
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        answer = json.loads(self.proc.stdout.readline())
        return Result(
            answer["rc"],
            (tmp_path / "stdout.txt").read_text(),
            (tmp_path / "stderr.txt").read_text(),
            json.loads(report.read_text()) if report.exists() else None,
        )

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait(timeout=60)
