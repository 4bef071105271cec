"""RDS: instance settings as AWS accepts and reports them.

moto internals touched: moto.rds.models.valid_preferred_maintenance_window,
moto.rds.models.DBInstance.__init__, DBInstance.dbi_resource_id, DBInstance.remove_replica,
DBInstance.replicas, DBInstance.region, DBInstance.db_instance_identifier,
DBInstance.db_instance_arn, DBInstance.db_parameter_group_name,
DBInstance.db_instance_automated_backups_replications,
DBInstance.enable_performance_insights, DBInstance.performance_insights_enabled,
DBInstance.performance_insights_retention_period,
DBInstance.performance_insights_kms_key_id, DBInstance.__dict__,
DBInstance.database_insights_mode, DBInstance.engine_lifecycle_support,
DBInstance.dedicated_log_volume, DBInstance.nchar_character_set_name, DBInstance.engine,
DBInstanceClustered.database_insights_mode, DBInstanceClustered.cluster,
DBCluster.performance_insights_enabled, DBCluster.performance_insights_retention_period,
DBCluster.enable_performance_insights, DBCluster.performance_insights_kms_key_id,
DBCluster.monitoring_interval, DBCluster.monitoring_role_arn, DBCluster.__dict__,
DBCluster.database_insights_mode, DBCluster.engine_lifecycle_support,
DBCluster.scaling_configuration_info, DBCluster.scaling_configuration,
RDSBackend.create_db_instance, RDSBackend.create_db_instance_read_replica,
RDSBackend.create_db_cluster, RDSBackend.find_db_from_id, RDSBackend.__dict__,
RDSBackend._kit_insights_mode, RDSBackend._kit_lifecycle, RDSBackend._kit_nchar, the keyword
names of RDSBackend.create_db_instance and create_db_cluster (db_kwargs),
moto.rds.responses.RDSResponse.start_db_instance_automated_backups_replication,
RDSResponse.stop_db_instance_automated_backups_replication,
RDSResponse.describe_db_instance_automated_backups, RDSResponse.create_db_instance,
RDSResponse.backend, RDSResponse.region, RDSResponse.params, BaseResponse._get_param,
BaseResponse._get_int_param, moto.core.responses.ActionResult (its serializer reads
ReplicatedBackup attribute by attribute), moto.rds.exceptions.DBInstanceNotFoundError,
moto.rds.exceptions.InvalidParameterValue.
"""

from __future__ import annotations

import re
import secrets
import string
from typing import Any

OVERLAP = "The backup window and maintenance window must not overlap."
DAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
WEEK = 7 * 1440
_TIME = re.compile(r"^(\d{2}):(\d{2})$")
_ALPHABET = string.ascii_uppercase + string.digits


def _minutes(hh_mm: str) -> int:
    found = _TIME.match(hh_mm)
    if found is None:
        raise ValueError(hh_mm)
    return int(found.group(1)) * 60 + int(found.group(2))


def windows_overlap(maintenance: str, backup: str) -> bool:
    """Whether a weekly maintenance window (ddd:hh24:mi-ddd:hh24:mi) and a daily backup
    window (hh24:mi-hh24:mi) share any time; windows that only touch share none."""
    start_day, start, end_day, end = _split_maintenance(maintenance)
    m0 = DAYS.index(start_day) * 1440 + start
    m1 = DAYS.index(end_day) * 1440 + end
    if m1 <= m0:
        m1 += WEEK
    b0, b1 = (_minutes(t) for t in backup.split("-"))
    if b1 <= b0:
        b1 += 1440
    for day in range(-1, 15):  # every daily backup window the (wrapped) week can meet
        lo, hi = day * 1440 + b0, day * 1440 + b1
        if max(lo, m0) < min(hi, m1):
            return True
    return False


def _split_maintenance(window: str) -> tuple[str, int, str, int]:
    start, end = window.lower().split("-")
    start_day, start_time = start.split(":", 1)
    end_day, end_time = end.split(":", 1)
    return start_day, _minutes(start_time), end_day, _minutes(end_time)


def touching_windows_are_accepted() -> None:
    """A backup window that ends when the maintenance window starts (or the reverse) is
    accepted.

    AWS (CreateDBInstance API reference): the backup window "must not conflict with the
    preferred maintenance window"; windows that only touch share no time. AWS accepts
    terraform-aws-modules/rds's defaults, `03:00-06:00` with `Mon:00:00-Mon:03:00`; moto
    5.2 counts an overlap of zero seconds as an overlap and refuses them.
    """
    from moto.rds import models

    original = models.valid_preferred_maintenance_window
    if getattr(original, "_kit_fix", False):
        return

    def valid_preferred_maintenance_window(maintenance: Any, backup: Any) -> str | None:
        message = original(maintenance, backup)
        if message == OVERLAP:
            try:
                overlapping = windows_overlap(maintenance, backup)
            except ValueError:
                return message  # malformed: moto's own message stands
            if not overlapping:
                return original(maintenance, None)  # the maintenance window's own rules
        return message

    valid_preferred_maintenance_window._kit_fix = True  # type: ignore[attr-defined]
    models.valid_preferred_maintenance_window = valid_preferred_maintenance_window


def every_instance_has_its_own_resource_id() -> None:
    """Each DB instance, a read replica too, gets a DbiResourceId of its own.

    AWS (DBInstance data type, API reference): DbiResourceId is "the AWS Region-unique,
    immutable identifier for the DB instance". moto 5.2 gives every instance the same
    one, and a read replica is a copy of its primary; provider 6.x finds an instance by
    it, so in a stack with two instances one reads back as the other (a replica's
    apply waits for an instance it "couldn't find").
    """
    from moto.rds.models import DBInstance, RDSBackend

    if getattr(DBInstance.__init__, "_kit_fix", False):
        return
    original_init = DBInstance.__init__
    original_replica = RDSBackend.create_db_instance_read_replica

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        original_init(self, *args, **kwargs)
        self.dbi_resource_id = _resource_id()

    def create_db_instance_read_replica(self: Any, db_kwargs: dict[str, Any]) -> Any:
        replica = original_replica(self, db_kwargs)
        replica.dbi_resource_id = _resource_id()
        return replica

    __init__._kit_fix = True  # type: ignore[attr-defined]
    DBInstance.__init__ = __init__  # type: ignore[method-assign]
    RDSBackend.create_db_instance_read_replica = create_db_instance_read_replica  # type: ignore[method-assign]


def _resource_id() -> str:
    """A new DbiResourceId, shaped as AWS's: db- and 26 upper-case letters and digits."""
    return "db-" + "".join(secrets.choice(_ALPHABET) for _ in range(26))


def cross_region_replicas_are_made_and_deleted() -> None:
    """A read replica in another Region gets that Region's default parameter group unless
    it names one, and deleting it detaches it from its primary.

    AWS (RDS API reference, CreateDBInstanceReadReplica, DBParameterGroupName): without
    one, "Amazon RDS uses the DBParameterGroup of the source DB instance for a same Region
    read replica, or the default DBParameterGroup for the specified DB engine for a
    cross-Region read replica". moto 5.2 copies the source's group name, which does not
    exist in the replica's Region (KeyError on every read of the replica), and deletes a
    cross-Region replica from its primary's list by identifier where it stored the ARN.
    """
    from moto.rds.models import DBInstance, RDSBackend

    if getattr(DBInstance.remove_replica, "_kit_fix", False):
        return
    original_create = RDSBackend.create_db_instance_read_replica

    def create_db_instance_read_replica(self: Any, db_kwargs: dict[str, Any]) -> Any:
        primary = self.find_db_from_id(db_kwargs["source_db_instance_identifier"])
        replica = original_create(self, db_kwargs)
        if replica.region != primary.region and not db_kwargs.get("db_parameter_group_name"):
            replica.db_parameter_group_name = None  # the engine's default, in its Region
        return replica

    def remove_replica(self: Any, replica: Any) -> None:
        for name in (replica.db_instance_identifier, replica.db_instance_arn):
            if name in self.replicas:
                self.replicas.remove(name)

    remove_replica._kit_fix = True  # type: ignore[attr-defined]
    DBInstance.remove_replica = remove_replica  # type: ignore[method-assign]
    RDSBackend.create_db_instance_read_replica = create_db_instance_read_replica  # type: ignore[method-assign]


class ReplicatedBackup:
    """Automated backups of a DB instance replicated to another Region (read by moto's
    serializer, attribute by attribute, as a DBInstanceAutomatedBackup)."""

    def __init__(self, source: Any, region: str, retention: int | None,
                 kms_key_id: str | None) -> None:
        self.db_instance_arn = source.db_instance_arn
        self.dbi_resource_id = source.dbi_resource_id
        self.db_instance_identifier = source.db_instance_identifier
        self.engine = source.engine
        self.engine_version = source.engine_version
        self.allocated_storage = source.allocated_storage
        self.region = source.region  # the source's, as AWS reports it
        self.status = "replicating"
        self.backup_retention_period = retention or source.backup_retention_period
        self.kms_key_id = kms_key_id
        self.encrypted = bool(kms_key_id)
        self.db_instance_automated_backups_arn = (
            f"arn:aws:rds:{region}:{source.account_id}:auto-backup:ab-"
            + "".join(secrets.choice(string.ascii_lowercase + string.digits)
                      for _ in range(26)))


def automated_backups_replicate_to_another_region() -> None:
    """StartDBInstanceAutomatedBackupsReplication / Stop... replicate a DB instance's
    automated backups to the Region the request is sent to.

    AWS (RDS API reference, StartDBInstanceAutomatedBackupsReplication): called in the
    destination Region with SourceDBInstanceArn; it returns a DBInstanceAutomatedBackup
    (Status "replicating") whose DBInstanceAutomatedBackupsArn the source instance lists
    in DBInstanceAutomatedBackupsReplications; StopDBInstanceAutomatedBackupsReplication
    ends it. moto 5.2 implements neither (terraform-aws-modules/rds replicates backups to
    a second Region in its complete examples).
    """
    from moto.core.responses import ActionResult
    from moto.rds.exceptions import DBInstanceNotFoundError
    from moto.rds.responses import RDSResponse

    if hasattr(RDSResponse, "start_db_instance_automated_backups_replication"):
        return
    describe = RDSResponse.describe_db_instance_automated_backups

    def replications(backend: Any) -> dict[str, ReplicatedBackup]:
        return backend.__dict__.setdefault("kit_replicated_backups", {})

    def start_db_instance_automated_backups_replication(self: Any) -> Any:
        source = self.backend.find_db_from_id(self._get_param("SourceDBInstanceArn"))
        backup = ReplicatedBackup(source, self.region, self._get_int_param(
            "BackupRetentionPeriod"), self._get_param("KmsKeyId"))
        replications(self.backend)[backup.db_instance_automated_backups_arn] = backup
        source.db_instance_automated_backups_replications = [
            *getattr(source, "db_instance_automated_backups_replications", []),
            {"DBInstanceAutomatedBackupsArn": backup.db_instance_automated_backups_arn}]
        return ActionResult({"DBInstanceAutomatedBackup": backup})

    def stop_db_instance_automated_backups_replication(self: Any) -> Any:
        source_arn = self._get_param("SourceDBInstanceArn")
        found = [b for b in replications(self.backend).values()
                 if b.db_instance_arn == source_arn]
        if not found:
            raise DBInstanceNotFoundError(source_arn)
        source = self.backend.find_db_from_id(source_arn)
        for backup in found:
            del replications(self.backend)[backup.db_instance_automated_backups_arn]
            source.db_instance_automated_backups_replications = [
                r for r in getattr(source, "db_instance_automated_backups_replications", [])
                if r["DBInstanceAutomatedBackupsArn"] != backup.db_instance_automated_backups_arn]
        return ActionResult({"DBInstanceAutomatedBackup": found[0]})

    def describe_db_instance_automated_backups(self: Any) -> Any:
        arn = self._get_param("DBInstanceAutomatedBackupsArn")
        if arn is None:
            return describe(self)
        found = [b for b in replications(self.backend).values()
                 if b.db_instance_automated_backups_arn == arn]
        return ActionResult({"DBInstanceAutomatedBackups": found})

    RDSResponse.start_db_instance_automated_backups_replication = (  # type: ignore[attr-defined]
        start_db_instance_automated_backups_replication)
    RDSResponse.stop_db_instance_automated_backups_replication = (  # type: ignore[attr-defined]
        stop_db_instance_automated_backups_replication)
    RDSResponse.describe_db_instance_automated_backups = (  # type: ignore[method-assign]
        describe_db_instance_automated_backups)


def _insights_enabled_alias(cls: Any) -> None:
    """`enable_performance_insights`, the name ModifyDB* sets, as an alias of the
    `performance_insights_enabled` that moto's create sets and its describe reads."""

    def enabled(self: Any) -> bool:
        return bool(self.__dict__.get("performance_insights_enabled", False))

    def enable(self: Any, value: bool) -> None:
        self.__dict__["performance_insights_enabled"] = bool(value)
        if value and self.__dict__.get("performance_insights_retention_period") is None:
            self.__dict__["performance_insights_retention_period"] = 7

    cls.enable_performance_insights = property(enabled, enable)


def _restores_keep_insights(create: Any) -> Any:
    """`create` (RDSBackend.create_db_instance / create_db_cluster) taking a restore's
    attributes: moto's restores pass the source's `__dict__` as the create's arguments,
    where Performance Insights reads `performance_insights_enabled`, not the create's
    `enable_performance_insights`."""

    def created(self: Any, kwargs: dict[str, Any]) -> Any:
        if "performance_insights_enabled" in kwargs:
            kwargs = dict(kwargs)
            enabled = kwargs.pop("performance_insights_enabled")
            kwargs.setdefault("enable_performance_insights", enabled)
            if not kwargs["enable_performance_insights"]:  # moto refuses stray settings
                kwargs.pop("performance_insights_retention_period", None)
                kwargs.pop("performance_insights_kms_key_id", None)
        return create(self, kwargs)

    return created


def performance_insights_settings_read_back() -> None:
    """A DB instance reports the Performance Insights settings it was modified with, and
    a restore of one that has them succeeds.

    AWS (RDS API reference, ModifyDBInstance: EnablePerformanceInsights,
    PerformanceInsightsRetentionPeriod, 7 days unless given; DBInstance reports them as
    PerformanceInsightsEnabled and PerformanceInsightsRetentionPeriod;
    RestoreDBInstanceFromDBSnapshot / RestoreDBInstanceToPointInTime restore any
    instance's snapshot). moto 5.2.6 reads them on create only: ModifyDBInstance stores
    `enable_performance_insights` beside the `performance_insights_enabled` describe
    reads, and a restore of a Performance Insights instance is refused with
    InvalidParameterCombination ("EnablePerformanceInsights must be set").

    moto internals touched: DBInstance.__dict__ (performance_insights_enabled,
    performance_insights_retention_period), RDSBackend.create_db_instance.
    """
    from moto.rds.models import DBInstance, RDSBackend

    if isinstance(vars(DBInstance).get("enable_performance_insights"), property):
        return
    _insights_enabled_alias(DBInstance)
    RDSBackend.create_db_instance = _restores_keep_insights(  # type: ignore[method-assign]
        RDSBackend.create_db_instance)


def database_insights_mode_reads_back() -> None:
    """A DB instance or cluster reports the Database Insights mode it was created with.

    AWS (RDS API reference, CreateDBInstance / CreateDBCluster, DatabaseInsightsMode,
    "standard" or "advanced"; DBInstance / DBCluster report it as DatabaseInsightsMode;
    an Aurora instance inherits its cluster's). moto 5.2 stores it on ModifyDBInstance
    but ignores it on create, so `database_insights_mode = "advanced"` plans a change
    right after the apply.
    """
    from moto.rds.models import DBInstanceClustered, RDSBackend

    if getattr(RDSBackend, "_kit_insights_mode", False):  # later fixes wrap the methods
        return
    create_instance = RDSBackend.create_db_instance
    create_cluster = RDSBackend.create_db_cluster

    def create_db_instance(self: Any, db_kwargs: dict[str, Any]) -> Any:
        database = create_instance(self, db_kwargs)
        if db_kwargs.get("database_insights_mode") and not db_kwargs.get(
                "db_cluster_identifier"):
            database.database_insights_mode = db_kwargs["database_insights_mode"]
        return database

    def create_db_cluster(self: Any, kwargs: dict[str, Any]) -> Any:
        cluster = create_cluster(self, kwargs)
        if kwargs.get("database_insights_mode"):
            cluster.database_insights_mode = kwargs["database_insights_mode"]
        return cluster

    def inherited(self: Any) -> str | None:
        return getattr(self.cluster, "database_insights_mode", None)

    def set_inherited(self: Any, value: str | None) -> None:
        self.cluster.database_insights_mode = value

    RDSBackend._kit_insights_mode = True  # type: ignore[attr-defined]
    RDSBackend.create_db_instance = create_db_instance  # type: ignore[method-assign]
    RDSBackend.create_db_cluster = create_db_cluster  # type: ignore[method-assign]
    DBInstanceClustered.database_insights_mode = property(  # type: ignore[attr-defined]
        inherited, set_inherited)


# CreateDBInstance / CreateDBCluster settings moto 5.2 ignores on create (it stores them on
# modify, which sets every given attribute), by moto's snake-case name.
ON_CREATE = ("engine_lifecycle_support", "dedicated_log_volume")
# CreateDBInstance, EngineLifecycleSupport: "Valid for Engine: RDS for MySQL and RDS for
# PostgreSQL ... Default: open-source-rds-extended-support".
LIFECYCLE_ENGINES = ("mysql", "postgres")
LIFECYCLE_DEFAULT = "open-source-rds-extended-support"


def lifecycle_and_log_volume_settings_read_back() -> None:
    """A DB instance or cluster reports the EngineLifecycleSupport and (an instance) the
    DedicatedLogVolume it was created with.

    AWS (RDS API reference, CreateDBInstance / CreateDBCluster: EngineLifecycleSupport,
    `open-source-rds-extended-support` or `open-source-rds-extended-support-disabled`;
    DedicatedLogVolume, a boolean; DBInstance and DBCluster report both). moto 5.2
    ignores them, so `engine_lifecycle_support = "open-source-rds-extended-support-
    disabled"` or `dedicated_log_volume = true` plans a change right after the apply.
    """
    from moto.rds.models import RDSBackend

    if getattr(RDSBackend, "_kit_lifecycle", False):  # later fixes wrap the methods
        return
    create_instance = RDSBackend.create_db_instance
    create_cluster = RDSBackend.create_db_cluster

    def kept(create: Any) -> Any:
        def create_with_settings(self: Any, kwargs: dict[str, Any]) -> Any:
            made = create(self, kwargs)
            if not kwargs.get("db_cluster_identifier") or create is create_cluster:
                for key in ON_CREATE:
                    if kwargs.get(key) is not None:
                        setattr(made, key, kwargs[key])
                if create is create_instance and kwargs.get("engine_lifecycle_support") is None \
                        and made.engine in LIFECYCLE_ENGINES:
                    made.engine_lifecycle_support = LIFECYCLE_DEFAULT
            return made

        return create_with_settings

    RDSBackend.create_db_instance = kept(create_instance)  # type: ignore[method-assign]
    RDSBackend.create_db_cluster = kept(create_cluster)  # type: ignore[method-assign]
    RDSBackend._kit_lifecycle = True  # type: ignore[attr-defined]


def cluster_insights_and_monitoring_read_back() -> None:
    """A DB cluster reports the Performance Insights settings it was modified with and
    the Enhanced Monitoring settings it was created with, and a restore of one with
    Performance Insights succeeds.

    AWS (RDS API reference, CreateDBCluster / ModifyDBCluster: EnablePerformanceInsights,
    PerformanceInsightsRetentionPeriod (7 days unless given), MonitoringInterval,
    MonitoringRoleArn; DBCluster reports them as PerformanceInsightsEnabled and the
    others). moto 5.2.6 reads Performance Insights on create only and ignores the
    monitoring settings, so an Aurora cluster with `monitoring_interval = 60` plans a
    change right after the apply.

    moto internals touched: DBCluster.__dict__ (performance_insights_enabled,
    performance_insights_retention_period, monitoring_interval, monitoring_role_arn),
    RDSBackend.create_db_cluster.
    """
    from moto.rds.models import DBCluster, RDSBackend

    if isinstance(vars(DBCluster).get("enable_performance_insights"), property):
        return
    create = _restores_keep_insights(RDSBackend.create_db_cluster)
    kept = ("monitoring_interval", "monitoring_role_arn")

    def create_db_cluster(self: Any, kwargs: dict[str, Any]) -> Any:
        cluster = create(self, kwargs)
        for key in kept:
            if kwargs.get(key) is not None:
                setattr(cluster, key, kwargs[key])
        return cluster

    _insights_enabled_alias(DBCluster)
    RDSBackend.create_db_cluster = create_db_cluster  # type: ignore[method-assign]


def provisioned_clusters_report_no_serverless_scaling() -> None:
    """A DB cluster without a serverless (v1) scaling configuration reports none.

    AWS (RDS API reference, DBCluster, ScalingConfigurationInfo: "the scaling
    configuration for an Aurora DB cluster in `serverless` DB engine mode"). moto 5.2
    reports an empty one for every cluster, which the provider reads as a
    `scaling_configuration` block, so every provisioned `aws_rds_cluster` plans to set
    its defaults right after the apply.
    """
    from moto.rds.models import DBCluster

    info = DBCluster.scaling_configuration_info
    if getattr(info.fget, "_kit_fix", False):
        return

    def scaling_configuration_info(self: Any) -> dict[str, Any] | None:
        return info.fget(self) if self.scaling_configuration else None

    scaling_configuration_info._kit_fix = True  # type: ignore[attr-defined]
    DBCluster.scaling_configuration_info = property(  # type: ignore[method-assign,assignment]
        scaling_configuration_info)


def nchar_character_set_reads_back() -> None:
    """A DB instance reports the NCHAR character set it was created with.

    AWS (RDS API reference, CreateDBInstance, NcharCharacterSetName: "The name of the NCHAR
    character set for the Oracle DB instance"; DBInstance reports it as
    NcharCharacterSetName). moto 5.2 drops it, so an Oracle instance that names one (as
    terraform-aws-modules/rds's complete-oracle does, AL16UTF16) is replaced by the plan
    right after its apply: the attribute forces a new instance.
    """
    from moto.rds.models import RDSBackend

    if getattr(RDSBackend, "_kit_nchar", False):  # later fixes wrap the method
        return
    create = RDSBackend.create_db_instance

    def create_db_instance(self: Any, db_kwargs: dict[str, Any]) -> Any:
        database = create(self, db_kwargs)
        if db_kwargs.get("nchar_character_set_name"):
            database.nchar_character_set_name = db_kwargs["nchar_character_set_name"]
        return database

    RDSBackend.create_db_instance = create_db_instance  # type: ignore[method-assign]
    RDSBackend._kit_nchar = True  # type: ignore[attr-defined]


# Engines whose instances are members of a DB cluster, which holds the master password.
CLUSTER_ENGINES = ("aurora", "neptune", "docdb")
NO_PASSWORD = "The parameter MasterUserPassword must be provided and must not be blank."


def a_new_instance_needs_a_master_password() -> None:
    """CreateDBInstance refuses an instance with neither MasterUserPassword nor
    ManageMasterUserPassword, unless it is a member of a DB cluster.

    AWS (RDS API reference, CreateDBInstance): MasterUsername "is required for RDS DB
    instances"; MasterUserPassword "Can't be specified if ManageMasterUserPassword is
    turned on" and "doesn't apply to Amazon Aurora DB instances. The password for the
    master user is managed by the DB cluster"; without either AWS answers
    InvalidParameterValue (the message moto itself gives CreateDBCluster). moto 5.2 makes
    the instance with no password at all, so `manage_master_user_password` dropped from
    a solution applies. Restores (from a snapshot, to a point in time) and read replicas
    take the source's password: they are other actions, left alone.
    """
    from moto.rds.exceptions import InvalidParameterValue
    from moto.rds.responses import RDSResponse

    original = RDSResponse.create_db_instance
    if getattr(original, "_kit_fix", False):
        return

    def create_db_instance(self: Any) -> Any:
        params = self.params
        member = params.get("db_cluster_identifier") or str(
            params.get("engine", "")).lower().startswith(CLUSTER_ENGINES)
        if not (member or params.get("master_user_password")
                or params.get("manage_master_user_password")):
            raise InvalidParameterValue(NO_PASSWORD)
        return original(self)

    create_db_instance._kit_fix = True  # type: ignore[attr-defined]
    RDSResponse.create_db_instance = create_db_instance  # type: ignore[method-assign]
