"""Output formats of ``tfcompat-gpu check``: text, json, github (workflow commands), sarif."""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Callable
from pathlib import Path

from tfcompat_gpu.lint.registry import RULES, Rule
from tfcompat_gpu.lint.report import Finding, Report
from tfcompat_gpu.utils.shown import shown, uri_path
from tfcompat_gpu.utils.words import plural

__all__ = ["FORMATS", "render"]

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def _text(report: Report, statistics: bool) -> str:
    lines = [str(finding) for finding in report.findings]
    if statistics:
        lines += [f"{n:5d}\t{code}\t{name}" for code, name, n in report.statistics()]
    if report.findings:
        found = plural(len(report.findings), "problem")
        lines.append(f"Found {found} in {plural(report.files, 'file')}.")
    else:
        lines.append(f"All checks passed ({plural(report.files, 'file')}).")
    return "\n".join(lines)


def _json(report: Report, statistics: bool) -> str:
    data: object = [finding.as_dict() for finding in report.findings]
    if statistics:
        data = {
            "findings": data,
            "statistics": [
                {"code": c, "name": name, "count": n} for c, name, n in report.statistics()
            ],
        }
    return json.dumps(data, indent=2)


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _github(report: Report, statistics: bool) -> str:
    lines = []
    for f in report.findings:
        level = "error" if f.severity == "error" else "warning"
        # A notebook's line numbers count in a cell, not in the .ipynb file GitHub shows:
        # the annotation is on the file, and the message says the cell and the line.
        place = (f"line={f.line}", f"col={f.col}") if f.cell is None else ()
        props = ",".join(
            (
                f"file={_escape_property(f.path)}",
                *place,
                f"title={_escape_property(f'{f.code} {f.name}')}",
            )
        )
        lines.append(f"::{level} {props}::{_escape_data(f'{f.code} {_cell_prefix(f)}{f.message}')}")
    return "\n".join(lines)


def _cell_prefix(finding: Finding) -> str:
    if finding.cell is None:
        return ""
    return f"cell {finding.cell}, line {finding.line}: "


def _physical(finding: Finding) -> dict[str, object]:
    location: dict[str, object] = {"artifactLocation": _location(finding.path)}
    if finding.cell is None:
        location["region"] = {"startLine": finding.line, "startColumn": finding.col}
    return location


def _location(path: str) -> dict[str, str]:
    """SARIF artifactLocation: a percent-encoded URI, relative to the source root when inside."""
    if os.path.isabs(path):
        try:
            rel = os.path.relpath(path)
        except ValueError:  # another drive
            rel = ".."
        if rel.startswith(".."):
            return {"uri": "file://" + uri_path(Path(path).as_posix(), safe="/:")}
        path = rel
    rel = path.replace(os.sep, "/").removeprefix("./")
    return {"uri": uri_path(rel), "uriBaseId": "%SRCROOT%"}


def _sarif_rule(rule: Rule) -> dict[str, object]:
    return {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": f"{rule.what} {rule.why}"},
        "help": {
            "text": f"{rule.what}\n\n{rule.why}",
            "markdown": f"{rule.what}\n\n**Why is this bad?** {rule.why}\n\n"
            f"**Example**\n\n```python\n{rule.example}\n```\n\n"
            f"**Use instead**\n\n```python\n{rule.use_instead}\n```",
        },
        "defaultConfiguration": {"level": "error" if rule.severity == "error" else "warning"},
        "properties": {"enabledByDefault": rule.default, "tags": ["tensorflow", "gpu"]},
    }


def _sarif(report: Report, statistics: bool) -> str:
    from tfcompat_gpu import __version__

    index = {rule.code: i for i, rule in enumerate(RULES)}
    results = [
        {
            "ruleId": f.code,
            "ruleIndex": index[f.code],
            "level": "error" if f.severity == "error" else "warning",
            "message": {"text": f"{_cell_prefix(f)}{f.message}"},
            "locations": [{"physicalLocation": _physical(f)}],
            **(
                {"properties": {"cell": f.cell, "cellLine": f.line, "cellColumn": f.col}}
                if f.cell is not None
                else {}
            ),
        }
        for f in report.findings
    ]
    log = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "tfcompat-gpu",
                        "version": __version__,
                        "rules": [_sarif_rule(rule) for rule in RULES],
                    }
                },
                "results": results,
            }
        ],
    }
    return json.dumps(log, indent=2)


FORMATS: dict[str, Callable[[Report, bool], str]] = {
    "text": _text,
    "json": _json,
    "github": _github,
    "sarif": _sarif,
}


def render(report: Report, fmt: str = "text", statistics: bool = False) -> str:
    # Every format shows file names (and messages naming files) escaped the same way; SARIF's
    # URIs are encoded from the real bytes, from the original path.
    findings = [
        dataclasses.replace(f, message=shown(f.message), fix=shown(f.fix))
        if fmt == "sarif"
        else dataclasses.replace(f, path=shown(f.path), message=shown(f.message), fix=shown(f.fix))
        for f in report.findings
    ]
    return FORMATS[fmt](dataclasses.replace(report, findings=findings), statistics)
