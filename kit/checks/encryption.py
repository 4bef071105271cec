"""encryption.at_rest: each named resource is encrypted with the key the scenario names.

An organisation that shares a customer managed key wants its teams' data under it: key
use is then granted, audited and revoked in one place (AWS KMS, "Customer managed keys").
A queue under SSE-SQS or a bucket under SSE-S3 is encrypted, but not with that key, and
no key policy or grant of the organisation reaches it. Judged from final.iam: the reader
records `<resource>.kms_key` for a resource encrypted with a customer managed key
(kit/workload/resource_policies.py).
"""

from __future__ import annotations

from typing import Any

from kit.checks.result import CheckResult, Params, anomaly, error, judged
from kit.history import History
from kit.iam.effective import KEY_SUFFIX

AT_REST = "encryption.at_rest"
DEFAULTS: dict[str, Any] = {"resources": {}}


def check_at_rest(history: History, p: Params) -> CheckResult:
    """encryption.at_rest: each resource of `resources` uses its named key."""
    iam = history.final.iam if history.final else None
    if not iam or "resources" not in iam:
        return error(AT_REST, "no IAM state in the history: the run did not read the "
                     "resources' encryption", p)
    if not p["resources"]:
        return error(AT_REST, "no resources named in the params: nothing to judge", p)
    known = iam["resources"]
    # Elsewhere: a resource not encrypted with its key (another key, or none of the
    # customer's: SSE-SQS, SSE-S3, an AWS managed key).
    elsewhere = []
    for name, key in p["resources"].items():
        used, wanted = known.get(f"{name}{KEY_SUFFIX}"), known.get(key)
        if wanted is None or used != wanted:
            elsewhere.append({"resource": name, "key": used or "no customer managed key",
                              "wanted": wanted or f"{key} (unknown)"})
    # Pass rule: every named resource uses its key.
    summary = (f"{len(elsewhere)} resource(s) not under their key: {elsewhere[0]['resource']}"
               f" uses {elsewhere[0]['key']}" if elsewhere else
               f"{', '.join(p['resources'])} are encrypted with their keys")
    return judged(AT_REST, not elsewhere, summary, {"elsewhere": anomaly(elsewhere)}, p)
