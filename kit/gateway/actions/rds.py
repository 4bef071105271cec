"""RDS (query protocol): calls act on every resource their parameters name.

AWS authorizes a call on each resource it names (CreateDBSnapshot: the instance and the
snapshot; RestoreDBInstanceToPointInTime: the source and the target instance); the
catalogue lists the resource types, parameters name each one.
"""

from __future__ import annotations

from collections.abc import Mapping

from kit.gateway.actions.base import Call, Check, Scope, checks, known, unknown

# Resource type (as the catalogue names it) -> the parameters that name one.
_PARAMS = {"db": ("DBInstanceIdentifier", "SourceDBInstanceIdentifier",
                  "TargetDBInstanceIdentifier"),
           "cluster": ("DBClusterIdentifier",), "snapshot": ("DBSnapshotIdentifier",),
           "cluster-snapshot": ("DBClusterSnapshotIdentifier",),
           "subgrp": ("DBSubnetGroupName",), "pg": ("DBParameterGroupName",),
           "cluster-pg": ("DBClusterParameterGroupName",), "og": ("OptionGroupName",)}


def describe(operation: str, params: Mapping[str, str], scope: Scope) -> Call:
    """The checks of one RDS call."""
    found = known("rds", operation)
    if found is None:
        return unknown("rds", operation, "query", params)
    action, types = found
    if params.get("ResourceName"):  # the tagging calls name an ARN
        return Call("rds", operation, "query", (Check(action, params["ResourceName"]),), params)
    prefix = f"arn:aws:rds:{scope.region}:{scope.account}"
    resources = [value if value.startswith("arn:") else f"{prefix}:{kind}:{value}"
                 for kind in types for param in _PARAMS.get(kind, ())
                 if (value := params.get(param))]
    return Call("rds", operation, "query", checks(action, resources), params)
