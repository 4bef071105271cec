"""JUnit XML: one testcase per invariant per fault; failures carry the evidence."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from kit.iam.usage import summary
from kit.report.escape import xml


def render(document: dict[str, Any]) -> str:
    """The report document as a JUnit XML string."""
    suites = ET.Element("testsuites", name=f"kit {document['scenario']}")
    for run in document["runs"]:
        suite = ET.SubElement(suites, "testsuite",
                              name=f"{document['scenario']}[{run['fault']}, seed {run['seed']}]")
        usage = run.get("used_vs_granted") or {}
        if usage:  # JUnit wants properties before the testcases
            properties = ET.SubElement(suite, "properties")
            for role, entry in usage.items():
                ET.SubElement(properties, "property", name=f"used_vs_granted.{role}",
                              value=summary(entry))
        cases = 0
        counts = {"failures": 0, "errors": 0}
        if run["error"]:
            case = ET.SubElement(suite, "testcase", classname=_classname(document, run),
                                 name="run")
            ET.SubElement(case, "error", message=run["error"][:500]).text = run["error"]
            cases += 1
            counts["errors"] += 1
        for inv_id, inv in run["invariants"].items():
            case = ET.SubElement(suite, "testcase", classname=_classname(document, run),
                                 name=inv_id)
            cases += 1
            if inv["verdict"] != "pass":
                tag = "failure" if inv["verdict"] == "fail" else "error"
                counts["failures" if tag == "failure" else "errors"] += 1
                # The message itself names the evidence, so a CI page explains the failure.
                node = ET.SubElement(case, tag, message=f"{inv['summary']}"[:1000],
                                     type=inv_id)
                node.text = json.dumps(inv["evidence"], indent=2)
        if usage:
            ET.SubElement(suite, "system-out").text = _needed_policies(usage)
        suite.set("tests", str(cases))
        suite.set("failures", str(counts["failures"]))
        suite.set("errors", str(counts["errors"]))
        suite.set("time", str(round(sum(run["timings"].values()), 3)))
    ET.indent(suites)
    # ElementTree escapes markup but writes control characters as they are (invalid XML).
    return xml('<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(suites, encoding="unicode"))


def _needed_policies(usage: dict[str, Any]) -> str:
    """Each role's least-privilege policy as the run used it, for CI logs."""
    return "\n".join(f"needed policy of role {role}:\n"
                     f"{json.dumps(entry['needed_policy'], indent=2)}"
                     for role, entry in usage.items())


def _classname(document: dict[str, Any], run: dict[str, Any]) -> str:
    return f"{document['scenario']}.{run['fault']}"


def write(document: dict[str, Any], path: Path) -> Path:
    """Write the JUnit XML file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render(document))
    return path
