"""RDS (query protocol): calls act on every resource their parameters name.

AWS authorizes a call on each resource it names (CreateDBSnapshot: the instance and the
snapshot); the catalogue lists the resource types, a parameter names each one.
"""

from __future__ import annotations

from collections.abc import Mapping

from kit.gateway.actions.base import Call, Check, Scope, checks, known, unknown

# Resource type (as the catalogue names it) -> the parameter that names it.
_PARAMS = {"db": "DBInstanceIdentifier", "cluster": "DBClusterIdentifier",
           "snapshot": "DBSnapshotIdentifier", "cluster-snapshot": "DBClusterSnapshotIdentifier",
           "subgrp": "DBSubnetGroupName", "pg": "DBParameterGroupName",
           "cluster-pg": "DBClusterParameterGroupName", "og": "OptionGroupName"}


def describe(operation: str, params: Mapping[str, str], scope: Scope) -> Call:
    """The checks of one RDS call."""
    found = known("rds", operation)
    if found is None:
        return unknown("rds", operation, "query", params)
    action, types = found
    if params.get("ResourceName"):  # the tagging calls name an ARN
        return Call("rds", operation, "query", (Check(action, params["ResourceName"]),), params)
    prefix = f"arn:aws:rds:{scope.region}:{scope.account}"
    resources = [f"{prefix}:{kind}:{params[_PARAMS[kind]]}" for kind in types
                 if params.get(_PARAMS.get(kind, ""))]
    return Call("rds", operation, "query", checks(action, resources), params)
