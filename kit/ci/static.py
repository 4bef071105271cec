"""`kit check --static`: what can be judged of Terraform in seconds, with no emulator run,
for a pre-commit hook: the directory intake and the static gate (exactly as a run's deploy
stage judges them: kit/deploy/intake.py, kit/deploy/gate.py), and a policy lint over the
policies written in the configuration: an identity policy granting every action of a
service (`*`, `sqs:*`) or everything but some (`NotAction` in an Allow), or a role that
trusts every principal (`*`) with no condition (iam.least_privilege, as a run judges it); a
resource policy open to every principal with no condition (iam.resource_exposure).

The lint reads policies as written (jsonencode objects, JSON strings, heredocs and
aws_iam_policy_document blocks); it is a fast early warning, not the verdict: a run judges
effective permissions (kit/checks/least_privilege.py, kit/checks/exposure.py), which a
lint of text cannot (a reference, a condition, a boundary)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kit.deploy import gate, hcl, intake
from kit.errors import SolutionError

JSONENCODE = re.compile(r"^\$\{jsonencode\((?P<body>.*)\)\}$", re.S)
HEREDOC = re.compile(r"^<<-?(?P<tag>\w+)\n(?P<body>.*)\n\s*(?P=tag)$", re.S)


@dataclass(frozen=True)
class Finding:
    """One static finding: where, which check, what."""

    where: str
    check: str
    what: str

    def __str__(self) -> str:
        return f"{self.where}: {self.check}: {self.what}"


def check(root: Path, allowed_providers: tuple[str, ...], modules_root: Path,
          team: bool = False, root_module: Path = Path(".")) -> list[Finding]:
    """Every static finding of the Terraform under `root` (the solution: a team's
    repository, whose root module is `root_module` inside it)."""
    refused = [Finding(str(v.where), "deploy.allowed_constructs", f"{v.construct}: {v.why}")
               for v in intake.refusals(root)]
    if refused:
        return refused  # nothing of the directory is read when its intake refuses it
    try:
        config = hcl.parse(root)
    except SolutionError as exc:
        return [Finding(str(root), "parse", str(exc))]
    found = [Finding(v.where, "deploy.allowed_constructs", f"{v.construct}: {v.why}")
             for v in gate.check(config, allowed_providers, modules_root, team=team,
                                   root_module=root_module)]
    for doc in config.documents:
        for where, policy in _policies(doc):
            found += [Finding(f"{doc.path}:{doc.line(*where)}", check_id, what)
                      for check_id, what in lint(policy)]
    return list(dict.fromkeys(found))


def _policies(doc: hcl.Document) -> Iterator[tuple[tuple[str, ...], dict[str, Any]]]:
    """(block header words, policy document) of every policy written in a document."""
    content = doc.content
    for kind, labels in (("resource", 2), ("data", 2), ("module", 1)):
        for names, body in hcl.blocks(content.get(kind), labels):
            if kind == "data" and names[0] == "aws_iam_policy_document":
                yield (kind, *names), _from_document_block(body)
                continue
            for policy in _in_value(body):
                yield (kind, *names), policy
    for _, body in hcl.blocks(content.get("locals"), 0):
        for name, value in body.items():
            for policy in _in_value(value):
                yield (name,), policy


def _in_value(value: Any) -> Iterator[dict[str, Any]]:
    """Policy documents (objects with a Statement) anywhere in an attribute value."""
    if isinstance(value, dict):
        if "Statement" in value:
            yield value
            return
        for inner in value.values():
            yield from _in_value(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from _in_value(inner)
    elif isinstance(value, str) and "Statement" in value:
        parsed = _decode(value)
        if parsed is not None:
            yield from _in_value(parsed)


def _decode(text: str) -> Any:
    """A policy string's object: jsonencode({...}) read as HCL, or JSON (a heredoc)."""
    text = text.strip()
    heredoc = HEREDOC.match(text)
    text = heredoc.group("body") if heredoc else text
    match = JSONENCODE.match(text)
    try:
        if match:
            return hcl.loads(f"policy = {match.group('body')}\n")["policy"]
        return json.loads(text)
    except Exception:  # noqa: BLE001 - an expression the lint cannot read: no finding
        return None


def _from_document_block(body: dict[str, Any]) -> dict[str, Any]:
    """An aws_iam_policy_document data block as the policy JSON it renders."""
    statements = []
    for _, st in hcl.blocks(body.get("statement"), 0):
        out: dict[str, Any] = {"Effect": st.get("effect", "Allow")}
        for key, name in (("actions", "Action"), ("not_actions", "NotAction"),
                          ("resources", "Resource")):
            if key in st:
                out[name] = st[key]
        principals = [p for _, p in hcl.blocks(st.get("principals"), 0)]
        if principals:
            out["Principal"] = {p.get("type", "AWS"): p.get("identifiers", []) for p in principals}
        if "condition" in st:
            out["Condition"] = st["condition"]
        statements.append(out)
    return {"Statement": statements}


def lint(policy: dict[str, Any]) -> list[tuple[str, str]]:
    """(invariant, what) for each over-broad statement of one policy document."""
    found = []
    for i, st in enumerate(hcl.listify(policy.get("Statement"))):
        if not isinstance(st, dict) or st.get("Effect", "Allow") != "Allow":
            continue
        sid = f"statement {st.get('Sid') or i}"
        if "Principal" in st or "NotPrincipal" in st:
            if _everyone(st.get("Principal")) and not st.get("Condition"):
                # A role's trust is judged with what its role may do (a run's verdict on
                # trust-any-principal is iam.least_privilege); any other resource policy
                # with who may reach the resource.
                trust = any(str(a).lower().startswith("sts:assumerole")
                            for a in hcl.listify(st.get("Action")))
                found.append(("iam.least_privilege" if trust else "iam.resource_exposure",
                              f"{sid} allows every principal (*) with no condition"
                              + (" to assume the role" if trust else "")))
            continue
        if "NotAction" in st:
            found.append(("iam.least_privilege", f"{sid} allows every action but "
                          f"{_words(st['NotAction'])} (NotAction in an Allow)"))
        broad = [a for a in hcl.listify(st.get("Action")) if isinstance(a, str)
                 and (a == "*" or a.endswith(":*"))]
        if broad:
            found.append(("iam.least_privilege", f"{sid} allows every action of "
                          f"{_words(broad)}"))
    return found


def _everyone(principal: Any) -> bool:
    if principal == "*":
        return True
    if isinstance(principal, dict):
        return any("*" in hcl.listify(v) for v in principal.values())
    return False


def _words(value: Any) -> str:
    return ", ".join(str(v) for v in hcl.listify(value))
