"""The errors the RDS handlers answer with: a fixed set, named and coded as the API
reference's "Errors" sections name them (https://docs.aws.amazon.com/AmazonRDS/latest/
APIReference/CommonErrors.html and each action's page), each with its HTTP status. Errors
about records moto keeps (DBInstanceNotFound, DBInstanceAlreadyExists, deletion
protection) are moto's answers, passed through."""

from __future__ import annotations

from kit.errors import KitError


class RdsError(Exception):
    """An RDS API error reply: its wire code, message and HTTP status."""

    code = "InternalFailure"
    status = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class DBSnapshotNotFound(RdsError):
    """DBSnapshotIdentifier doesn't refer to an existing DB snapshot."""

    code, status = "DBSnapshotNotFound", 404


class InvalidDBInstanceState(RdsError):
    """The DB instance isn't in a valid state (e.g. not `available`)."""

    code = "InvalidDBInstanceState"


class InvalidDBSnapshotState(RdsError):
    """The state of the DB snapshot doesn't allow the operation (e.g. still `creating`)."""

    code = "InvalidDBSnapshotState"


class PointInTimeRestoreNotEnabled(RdsError):
    """SourceDBInstanceIdentifier refers to a DB instance with BackupRetentionPeriod 0."""

    code = "PointInTimeRestoreNotEnabled"


class InvalidParameterCombination(RdsError):
    """Two parameters that cannot go together, or a parameter this instance cannot take."""

    code = "InvalidParameterCombination"


class InvalidParameterValue(RdsError):
    """A parameter's value breaks the constraint the API reference states for it."""

    code = "InvalidParameterValue"


class DataPlaneError(KitError):
    """The data plane itself broke (a server did not start, a backup failed): the kit's
    error, never the solution's."""
