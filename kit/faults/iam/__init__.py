"""IAM faults: one change to IAM as a team could make it, held for a window, then undone.

deny            iam_deny: an explicit deny attached to a role
rollback        policy_rollback: a managed policy defaults to an older version
boundary        boundary_tightened: a role's permissions boundary tightened (or attached)
statement       statement_removed: statements deleted from a role's inline policies
resource_deny   resource_deny: a deny added to a queue, bucket or key policy
trust           trust_narrowed: a role's trust policy narrowed to another principal

Each change is made with the emulator's admin API, then the gateway's policy cache is
invalidated, so the next call through the gateway is decided on the changed policies.
documents holds the pure edits of policy documents they share.
"""

from kit.faults.iam.boundary import BoundaryTightened
from kit.faults.iam.deny import IamDeny
from kit.faults.iam.resource_deny import ResourceDeny
from kit.faults.iam.rollback import PolicyRollback
from kit.faults.iam.statement import StatementRemoved
from kit.faults.iam.trust import TrustNarrowed

__all__ = ["BoundaryTightened", "IamDeny", "PolicyRollback", "ResourceDeny",
           "StatementRemoved", "TrustNarrowed"]
