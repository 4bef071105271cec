# Two roles, both assumable by the harness principal and nobody else.
#   app      : read the endpoint secret. Nothing more.
#   operator : what the runbook needs to recover the ledger, and no more:
#              read RDS state; snapshot, reboot and restore the ledger
#              instance (and instances/snapshots named after it); read the
#              endpoint secret and put a new value into it.
# No managed policies, no wildcards on actions, no Modify*/Delete*.

data "aws_caller_identity" "current" {}
data "aws_partition" "current" {}
data "aws_region" "current" {}

locals {
  rds_arn = "arn:${data.aws_partition.current.partition}:rds:${data.aws_region.current.region}:${data.aws_caller_identity.current.account_id}"
  ledger  = var.db_instance_identifier
  ledger_db = [
    "${local.rds_arn}:db:${local.ledger}",   # the ledger instance
    "${local.rds_arn}:db:${local.ledger}-*", # instances restored from it (<id>-r<epoch>)
  ]
  ledger_snapshots = [
    "${local.rds_arn}:snapshot:${local.ledger}-*",     # manual and final snapshots
    "${local.rds_arn}:snapshot:rds:${local.ledger}-*", # its automated snapshots
  ]
  ledger_subnet_group = "${local.rds_arn}:subgrp:${aws_db_subnet_group.ledger.name}"
}

data "aws_iam_policy_document" "trust_harness" {
  statement {
    sid     = "HarnessOnly"
    effect  = "Allow"
    actions = ["sts:AssumeRole"]

    principals {
      type        = "AWS"
      identifiers = [var.harness_principal_arn]
    }
  }
}

# ---------------------------------------------------------------- application

resource "aws_iam_role" "app" {
  name                 = "${local.ledger}-app"
  description          = "Ledger application: reads where its database is"
  assume_role_policy   = data.aws_iam_policy_document.trust_harness.json
  max_session_duration = 3600
}

data "aws_iam_policy_document" "app" {
  statement {
    sid       = "ReadEndpointSecret"
    effect    = "Allow"
    actions   = ["secretsmanager:GetSecretValue"]
    resources = [aws_secretsmanager_secret.endpoint.arn]
  }
}

resource "aws_iam_role_policy" "app" {
  name   = "read-endpoint-secret"
  role   = aws_iam_role.app.id
  policy = data.aws_iam_policy_document.app.json
}

# ------------------------------------------------------------------- operator

resource "aws_iam_role" "operator" {
  name                 = "${local.ledger}-operator"
  description          = "Ledger on-call runbook: observe, snapshot, reboot, restore, repoint"
  assume_role_policy   = data.aws_iam_policy_document.trust_harness.json
  max_session_duration = 3600
}

data "aws_iam_policy_document" "operator" {
  # Describe* calls cannot be scoped to a resource in a useful way; they are
  # read-only.
  statement {
    sid    = "ReadRdsState"
    effect = "Allow"
    actions = [
      "rds:DescribeDBInstances",
      "rds:DescribeDBSnapshots",
      "rds:DescribeDBInstanceAutomatedBackups",
    ]
    resources = ["*"]
  }

  statement {
    sid       = "RebootLedger"
    effect    = "Allow"
    actions   = ["rds:RebootDBInstance"]
    resources = local.ledger_db
  }

  # Authorised against the instance and the snapshot being created.
  statement {
    sid       = "SnapshotLedger"
    effect    = "Allow"
    actions   = ["rds:CreateDBSnapshot"]
    resources = concat(local.ledger_db, local.ledger_snapshots)
  }

  # Authorised against the source (instance or snapshot), the target instance
  # and the subnet group the target is placed in.
  statement {
    sid    = "RestoreLedger"
    effect = "Allow"
    actions = [
      "rds:RestoreDBInstanceToPointInTime",
      "rds:RestoreDBInstanceFromDBSnapshot",
    ]
    resources = concat(local.ledger_db, local.ledger_snapshots, [local.ledger_subnet_group])
  }

  statement {
    sid    = "RepointEndpointSecret"
    effect = "Allow"
    actions = [
      "secretsmanager:GetSecretValue",
      "secretsmanager:PutSecretValue",
    ]
    resources = [aws_secretsmanager_secret.endpoint.arn]
  }
}

resource "aws_iam_role_policy" "operator" {
  name   = "ledger-recovery"
  role   = aws_iam_role.operator.id
  policy = data.aws_iam_policy_document.operator.json
}
