"""Fidelity fixes for moto: each restores one documented AWS behaviour moto lacks.

A solution must never fail, or pass, because of an emulator gap. Every fix here is applied
in the moto server process (kit/sandbox/moto_main.py) before the service it fixes answers,
one module per service, and is proven by a test in tests/integration/test_fidelity.py that
cites the AWS documentation of the behaviour it restores. Gaps that are not fixed are
listed, with how a failed deploy names them, in kit/deploy/divergences.py.

moto internals touched: moto.moto_server.werkzeug_app.create_backend_app,
moto.server.create_backend_app.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kit.sandbox.fidelity import (
    cloudwatch,
    dynamodb,
    ec2,
    elasticache,
    errors,
    iam,
    kms,
    kms_specs,
    lambda_esm,
    lambda_roles,
    rds,
    rds_engines,
    rds_groups,
    rpcv2cbor,
    s3,
    secretsmanager,
    sns,
    sqs,
)

Fix = Callable[[], None]
# Before moto serves anything: every IAM backend must be made with the managed policies,
# every answer goes through the error handling, and a CBOR request is read before moto
# routes it.
EAGER: tuple[Fix, ...] = (errors.unimplemented_actions_fail_fast, iam.aws_managed_policies_exist,
                          rpcv2cbor.requests_in_rpc_v2_cbor_are_answered)
# The rest per service, keyed as moto names the backend app it makes on a service's first
# request ("awslambda" for Lambda): a sandbox then starts without importing every
# service's models (EC2's alone take seconds), and each fix is in place before its service
# answers.
BY_SERVICE: dict[str, tuple[Fix, ...]] = {
    "cloudwatch": (cloudwatch.composite_alarms_can_be_put,),
    "dynamodb": (dynamodb.item_operations_are_atomic,),
    "ec2": (ec2.subnets_filter_by_ipv6_association,
            ec2.ipv6_only_subnets_count_no_ipv4_addresses,
            ec2.subnet_attributes_are_stored,
            ec2.ipv6_association_state_reads_as_a_word,
            ec2.flow_logs_are_duplicates_only_with_the_same_configuration,
            ec2.customer_gateways_keep_their_settings,
            ec2.dhcp_options_keep_their_tags),
    "elasticache": (elasticache.cache_subnet_groups_can_be_deleted,),
    "iam": (iam.service_specific_credentials_are_listed,),
    "kms": (kms.replicate_key_takes_its_parameters, kms_specs.current_key_specs_are_accepted),
    "rds": (rds.touching_windows_are_accepted,
            rds.every_instance_has_its_own_resource_id,
            rds.cross_region_replicas_are_made_and_deleted,
            rds.automated_backups_replicate_to_another_region,
            rds.performance_insights_settings_read_back,
            rds.database_insights_mode_reads_back,
            rds.lifecycle_and_log_volume_settings_read_back,
            rds.nchar_character_set_reads_back,
            rds.cluster_insights_and_monitoring_read_back,
            rds.provisioned_clusters_report_no_serverless_scaling,
            rds.a_new_instance_needs_a_master_password,
            rds_groups.option_groups_for_current_engines,
            rds_groups.modified_parameters_read_back_as_the_users,
            rds_engines.current_engines_are_accepted,
            rds_engines.default_parameter_groups_name_the_family,
            rds_engines.catalogue_gaps_are_named),
    "s3": (s3.bucket_tags_given_at_creation_are_kept,
           s3.bucket_configurations_are_served,
           s3.object_lock_configures_a_bucket_with_objects,
           s3.lifecycle_rules_read_back_as_put,
           s3.bucket_policies_left_to_the_gateway,
           s3.bucket_policies_name_their_bucket,
           s3.inventory_configurations_read_back_as_put),
    # The function's rotation first: the schedule's fix wraps it.
    "secretsmanager": (secretsmanager.rotation_functions_are_left_to_the_kit,
                       secretsmanager.rotation_schedules_are_kept,
                       secretsmanager.moving_awscurrent_moves_the_current_value,
                       secretsmanager.managed_rotation_can_be_cancelled),
    "awslambda": (lambda_esm.mappings_need_the_visibility_timeout_to_cover_the_function,
                  lambda_roles.execution_roles_must_trust_lambda),
    "sns": (sns.data_protection_policies_are_stored, sns.topic_attributes_read_back),
    "sqs": (sqs.restore_redrive_allow_policy, sqs.released_messages_wait_their_turn,
            sqs.receives_are_atomic, sqs.deduplication_outlives_deletion,
            sqs.setting_other_attributes_keeps_the_policy, sqs.queue_policies_are_checked,
            sqs.fifo_receipt_handles_expire,
            sqs.redrive_policy_reads_back_compact,
            sqs.queue_changes_hold_the_lock,  # last: it wraps the fixes above
            lambda_esm.event_source_mappings_left_to_the_kit),
}
FIXES: tuple[Fix, ...] = EAGER + tuple(f for fixes in BY_SERVICE.values() for f in fixes)


def apply_all() -> None:
    """Apply every fidelity fix now (in-process moto, tests); idempotent."""
    for fix in FIXES:
        fix()


def install() -> None:
    """Apply the fixes every service needs now, and each service's own as moto first
    serves it; call before moto.server.main."""
    from moto import server
    from moto.moto_server import werkzeug_app

    for fix in EAGER:
        fix()
    create = werkzeug_app.create_backend_app

    def create_backend_app(service: Any) -> Any:
        for fix in BY_SERVICE.get(str(service), ()):
            fix()
        return create(service)

    # moto.server holds its own reference to the factory.
    werkzeug_app.create_backend_app = create_backend_app
    server.create_backend_app = create_backend_app  # type: ignore[attr-defined]
