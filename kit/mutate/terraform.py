"""Mutation operators on Terraform text, guided by its structure: remove each IAM action and
statement (identity policies, resource policies, aws_iam_policy_document blocks), widen a
resource or a principal (trust and resource policies) to "*", drop or change each queue,
encryption, backup, deletion-protection and multi-AZ setting. Each operator proposes line
edits; generate.py keeps those that still parse and change the parse (python-hcl2, as
kit/deploy/hcl.py reads a solution)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from kit.mutate.mutant import Edit

ATTR = re.compile(r"^(?P<head>\s*(?P<key>\w+)\s*=\s*)(?P<value>.*?)\s*$")
BLOCK = re.compile(r'^(?P<kind>resource|data)\s+"(?P<type>[\w-]+)"\s+"(?P<name>[\w-]+)"')
STATEMENT_BLOCK = re.compile(r"^\s*statement\s*\{\s*$")
ACTION_KEYS = {"Action", "NotAction", "actions", "not_actions"}
RESOURCE_KEYS = {"Resource": '"*"', "resources": '["*"]'}
PRINCIPAL_KEYS = {"Principal": '"*"', "identifiers": '["*"]'}  # jsonencode, principals {}
RESOURCE_POLICIES = {"aws_sqs_queue_policy", "aws_sns_topic_policy", "aws_s3_bucket_policy",
                     "aws_lambda_permission", "aws_kms_key", "aws_sqs_queue"}
# Settings that protect data or delivery, by resource type: each is dropped (the
# provider's default then applies) and, where it is a literal, changed.
SETTINGS = {
    "aws_sqs_queue": {"visibility_timeout_seconds", "redrive_policy", "redrive_allow_policy",
                      "message_retention_seconds", "fifo_queue", "content_based_deduplication",
                      "deduplication_scope", "fifo_throughput_limit", "sqs_managed_sse_enabled",
                      "kms_master_key_id", "kms_data_key_reuse_period_seconds",
                      "receive_wait_time_seconds", "delay_seconds"},
    "aws_sqs_queue_redrive_policy": {"redrive_policy"},
    "aws_sns_topic": {"kms_master_key_id", "fifo_topic", "content_based_deduplication"},
    "aws_db_instance": {"storage_encrypted", "kms_key_id", "backup_retention_period",
                        "deletion_protection", "multi_az", "publicly_accessible",
                        "manage_master_user_password", "copy_tags_to_snapshot",
                        "iam_database_authentication_enabled", "backup_window"},
    "aws_s3_bucket_server_side_encryption_configuration": {"rule"},
    "aws_s3_bucket_versioning": {"versioning_configuration"},
}
# Numeric settings (also as locals or inside a jsonencode'd redrive policy): the bounds
# AWS allows; a change sets each bound the value is not already at.
BOUNDS = {"visibility_timeout_seconds": (0, 43200), "message_retention_seconds": (60, 1209600),
          "max_receive_count": (1, 1000), "maxReceiveCount": (1, 1000),
          "backup_retention_period": (0, 35), "receive_wait_time_seconds": (0, 20),
          "delay_seconds": (0, 900)}
CHOICES = {"deduplication_scope": ("messageGroup", "queue"),
           "fifo_throughput_limit": ("perQueue", "perMessageGroupId")}
OPEN, CLOSE = "([{", ")]}"


def edits(text: str) -> Iterator[Edit]:
    """Every edit the Terraform operators propose for one file's text."""
    lines = text.splitlines(keepends=True)
    for i, block in enumerate(_enclosing(lines)):
        if STATEMENT_BLOCK.match(lines[i]):
            end = span(lines, i)
            yield Edit("iam.remove-statement", i + 1, f"remove the statement block at line "
                       f"{i + 1} of {block or 'the file'}", i, end, ())
        m = ATTR.match(lines[i])
        if not m:
            continue
        key = m["key"]
        if key in ACTION_KEYS:
            yield from _actions(lines, i, m)
        elif key in RESOURCE_KEYS and m["value"] not in ('"*"', '["*"]'):
            yield Edit("iam.widen-resource", i + 1, f"{key} widened to \"*\" in "
                       f"{block or 'a policy'}", i, span(lines, i),
                       (m["head"] + RESOURCE_KEYS[key] + "\n",))
        elif key in PRINCIPAL_KEYS and m["value"] not in ('"*"', '["*"]'):
            yield Edit("iam.widen-principal", i + 1, f"{key} widened to every principal in "
                       f"{block or 'a policy'}", i, span(lines, i),
                       (m["head"] + PRINCIPAL_KEYS[key] + "\n",))
        elif key == "Statement":
            yield from _statements(lines, i, block)
        yield from _settings(lines, i, m, block)


def span(lines: list[str], start: int) -> int:
    """The end (exclusive) of the construct starting at line `start`: brackets balanced."""
    depth = 0
    for j in range(start, len(lines)):
        depth += _depth_change(lines[j])
        if depth <= 0:
            return j + 1
    return len(lines)


def _depth_change(line: str) -> int:
    """Brackets opened minus closed on a line, outside strings and comments."""
    depth, quoted, k = 0, False, 0
    while k < len(line):
        c = line[k]
        if quoted:
            if c == "\\":
                k += 1
            elif c == '"':
                quoted = False
        elif c == '"':
            quoted = True
        elif c == "#" or line.startswith("//", k):
            break
        elif c in OPEN:
            depth += 1
        elif c in CLOSE:
            depth -= 1
        k += 1
    return depth


def _enclosing(lines: list[str]) -> Iterator[str]:
    """For each line, the top-level block it is in ("aws_sqs_queue.orders", "locals", "")."""
    current = ""
    for line in lines:
        m = BLOCK.match(line)
        if m:
            current = f"{m['type']}.{m['name']}"
        elif line.startswith("locals"):
            current = "locals"
        yield current
        if line.rstrip() == "}":
            current = ""


def _actions(lines: list[str], i: int, m: re.Match[str]) -> Iterator[Edit]:
    """Remove each action of an Action list (a single action: the statement operator's)."""
    end = span(lines, i)
    if end == i + 1:
        items = _split_items(m["value"])
        for k, item in enumerate(items if len(items) > 1 else []):
            rest = ", ".join(x for n, x in enumerate(items) if n != k)
            yield Edit("iam.remove-action", i + 1, f"remove action {item} of {m['key']}",
                       i, i + 1, (f"{m['head']}[{rest}]\n",), tag=_word(item))
        return
    for j in range(i + 1, end - 1):
        item = lines[j].strip().rstrip(",")
        if item.startswith('"'):
            yield Edit("iam.remove-action", j + 1, f"remove action {item} of {m['key']}",
                       j, j + 1, ())


def _split_items(value: str) -> list[str]:
    """The items of a one-line list of strings `["a", "b"]` ([] for anything else)."""
    if not (value.startswith("[") and value.endswith("]")):
        return []
    inner = value[1:-1].strip().rstrip(",")
    items = [x.strip() for x in inner.split(",")] if inner else []
    return items if all(x.startswith('"') and x.endswith('"') for x in items) else []


def _word(item: str) -> str:
    return item.strip('"').split(":")[-1]


def _statements(lines: list[str], i: int, block: str) -> Iterator[Edit]:
    """Remove each element of a `Statement = [...]` list."""
    end = span(lines, i)
    text = "".join(lines[i:end])
    opened = text.index("[")
    elements = _elements(text, opened)
    kind = ("resource-policy" if block.split(".")[0] in RESOURCE_POLICIES else "iam")
    for k, (a, b) in enumerate(elements):
        # The element and the comma after it (or before it, for the last of several).
        tail = re.match(r"\s*,?", text[b:])
        cut_b = b + (tail.end() if tail else 0)
        new = text[:a] + text[cut_b:]
        if len(elements) == 1:
            new = text[:opened + 1] + text[text.rindex("]"):]
        line = i + text[:a].count("\n") + 1
        yield Edit(f"{kind}.remove-statement", line, f"remove statement {k + 1} of "
                   f"{len(elements)} in {block or 'a policy'}", i, end,
                   tuple(new.splitlines(keepends=True)), tag=str(k + 1))


def _elements(text: str, opened: int) -> list[tuple[int, int]]:
    """(start, end) of each `{...}` element directly inside the list opened at `opened`."""
    found, depth, start, quoted = [], 0, 0, False
    for k in range(opened + 1, len(text)):
        c = text[k]
        if quoted:
            quoted = c != '"' or text[k - 1] == "\\"
            continue
        if c == '"':
            quoted = True
        elif c in OPEN:
            if depth == 0 and c == "{":
                start = k
            depth += 1
        elif c in CLOSE:
            depth -= 1
            if depth == 0 and c == "}":
                found.append((start, k + 1))
            if depth < 0:
                break
    return found


def _settings(lines: list[str], i: int, m: re.Match[str], block: str) -> Iterator[Edit]:
    """Drop a protecting setting of its resource; change a literal one to another value."""
    key, value = m["key"], m["value"]
    kind = block.split(".")[0]
    if key in SETTINGS.get(kind, set()):
        yield Edit("setting.drop", i + 1, f"drop {key} of {block}", i, span(lines, i), ())
    if kind not in SETTINGS and kind != "locals" and key not in ("maxReceiveCount",):
        return
    for new in _changes(key, value):
        yield Edit("setting.change", i + 1, f"{key} = {value} changed to {new} in {block}",
                   i, i + 1, (f"{m['head']}{new}{_trail(value)}\n",), tag=new.strip('"'))


def _changes(key: str, value: str) -> list[str]:
    """The other values a literal setting is changed to."""
    bare = value.rstrip(",")
    if bare in ("true", "false"):
        return ["false" if bare == "true" else "true"]
    if key in BOUNDS and bare.isdigit():
        return [str(b) for b in BOUNDS[key] if str(b) != bare]
    if key in CHOICES and bare.strip('"') in CHOICES[key]:
        return [f'"{c}"' for c in CHOICES[key] if c != bare.strip('"')]
    return []


def _trail(value: str) -> str:
    return "," if value.endswith(",") else ""
