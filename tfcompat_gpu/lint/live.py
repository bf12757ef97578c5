"""The runtime check: ``tfcompat_gpu.check()`` with no paths inspects the live process.

It reads the environment, the configuration in force and the sessions recorded so far.  It
never starts the TensorFlow runtime and never imports TensorFlow: device lists are only read
once the runtime has already started (then reading them changes nothing).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from typing import Any

from tfcompat_gpu.lint.registry import RULES_BY_CODE, Severity
from tfcompat_gpu.lint.report import Finding
from tfcompat_gpu.lint.values import (
    allow_growth_env_problem,
    cuda_visible_count,
    fraction_problem,
    suggest_env_var,
)
from tfcompat_gpu.settings.options import same_value

__all__ = ["ENVIRONMENT", "check_runtime"]

ENVIRONMENT = "<environment>"
"""Path of findings about environment variables."""
_CONFIG = "<config>"


def _finding(
    code: str,
    where: str,
    fix: str,
    severity: Severity | None = None,
    **fields: object,
) -> Finding:
    rule = RULES_BY_CODE[code]
    path, line = where, 1
    head, sep, tail = where.rpartition(":")
    if sep and tail.isdigit():
        path, line = head, int(tail)
    return Finding(
        code,
        rule.name,
        rule.message.format(**fields),
        path,
        line,
        1,
        severity or rule.severity,
        fix,
    )


def _env_findings(env: Mapping[str, str], config: Any, config_where: str) -> list[Finding]:
    found = []
    for name in sorted(env):
        known = suggest_env_var(name)
        if known is not None:
            found.append(
                _finding("TFG003", ENVIRONMENT, f"export {known}=...", value=name, known=known)
            )
    growth = env.get("TF_FORCE_GPU_ALLOW_GROWTH")
    if growth is not None:
        fixed = allow_growth_env_problem(growth)
        if fixed is not None:
            found.append(
                _finding(
                    "TFG016",
                    ENVIRONMENT,
                    f"TF_FORCE_GPU_ALLOW_GROWTH={fixed}",
                    value=growth,
                    fixed=fixed,
                )
            )
        else:
            wanted = getattr(config, "allow_growth", None)
            forced = growth == "true"
            if wanted is not None and bool(wanted) != forced:
                found.append(
                    _finding(
                        "TFG018",
                        config_where,
                        "unset TF_FORCE_GPU_ALLOW_GROWTH",
                        value=growth,
                        config=wanted,
                    )
                )
    cuda = env.get("CUDA_VISIBLE_DEVICES")
    visible = getattr(config, "visible_device_list", None)
    if cuda is not None and isinstance(visible, str) and visible:
        count = cuda_visible_count(cuda)
        if count is not None:
            for part in visible.split(","):
                if part.strip().isdigit() and int(part) >= count:
                    found.append(
                        _finding(
                            "TFG017",
                            config_where,
                            "visible_device_list='0'",
                            value=visible,
                            gpu_id=int(part),
                            count=count,
                            source=f"CUDA_VISIBLE_DEVICES={cuda!r}",
                        )
                    )
                    break
    return found


def _config_findings(config: Any, where: str) -> list[Finding]:
    found = []
    fraction = getattr(config, "per_process_gpu_memory_fraction", None)
    if isinstance(fraction, (int, float)):
        problem = fraction_problem(fraction)
        if problem is not None:
            reason, severity = problem
            found.append(
                _finding(
                    "TFG010",
                    where,
                    "per_process_gpu_memory_fraction=0.5",
                    severity,
                    value=fraction,
                    reason=reason,
                )
            )
    if getattr(config, "allow_growth", None) and getattr(config, "memory_limit_mb", None):
        found.append(
            _finding(
                "TFG007",
                where,
                "keep either allow_growth or memory_limit_mb",
                device="every GPU",
                other="(the configuration in force)",
            )
        )
    return found


def _process_wide(config: Any) -> dict[str, Any]:
    try:
        return dict(config.process_wide().items())
    except Exception:
        return {}


def _session_findings(sessions: list[Any]) -> list[Finding]:
    found: list[Finding] = []
    if len(sessions) < 2:
        return found
    first = sessions[0]
    theirs = _process_wide(first.config)
    for record in sessions[1:]:
        mine = _process_wide(record.config)
        diffs = [
            f"{name}={mine.get(name)!r} (first: {theirs.get(name)!r})"
            for name in sorted(set(mine) | set(theirs))
            if not same_value(name, mine.get(name), theirs.get(name))
        ]
        if diffs:
            found.append(
                _finding(
                    "TFG005",
                    record.where,
                    "pass the same config to every session",
                    fields=", ".join(diffs),
                    first=first.where,
                )
            )
    return found


def _late_cuda_findings(env: Mapping[str, str]) -> list[Finding]:
    # Only once the runtime has started: listing devices earlier would enumerate the GPUs
    # (and make CUDA read the variables) on the user's behalf.
    cuda = env.get("CUDA_VISIBLE_DEVICES")
    if cuda is None or "tensorflow" not in sys.modules:
        return []
    try:
        from tfcompat_gpu.tfapi import _tf

        if not _tf.runtime_started():
            return []
        gpus = len(_tf.physical_gpus())
    except Exception:
        return []
    count = cuda_visible_count(cuda)
    if count is None or gpus <= count:
        return []
    return [
        _finding(
            "TFG004",
            ENVIRONMENT,
            "set CUDA_VISIBLE_DEVICES before importing TensorFlow, or in the shell",
            var="CUDA_VISIBLE_DEVICES",
            event=f"TensorFlow sees {gpus} GPUs, the variable lists {count}",
            line="(unknown)",
        )
    ]


def check_runtime(env: Mapping[str, str] | None = None) -> list[Finding]:
    """Findings about the live process (all rules; the caller filters by selection)."""
    env = os.environ if env is None else env
    config: Any = None
    where = _CONFIG
    sessions: list[Any] = []
    try:
        from tfcompat_gpu.runtime.state import STATE

        sessions = list(STATE.sessions)
        where = STATE.applied_where or _CONFIG
        from tfcompat_gpu.runtime.configuring import current_config

        config = current_config()
    except ImportError:
        pass
    findings = _env_findings(env, config, where)
    if config is not None:
        findings += _config_findings(config, where)
    findings += _session_findings(sessions)
    findings += _late_cuda_findings(env)
    return findings
