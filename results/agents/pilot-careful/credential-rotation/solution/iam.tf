# ------------------------------------------------------------ application role
data "aws_iam_policy_document" "app_assume" {
  statement {
    sid     = "HarnessRunsTheApplication"
    effect  = "Allow"
    actions = ["sts:AssumeRole"]

    principals {
      type        = "AWS"
      identifiers = [var.harness_principal_arn]
    }
  }
}

resource "aws_iam_role" "app" {
  name_prefix        = "${var.name}-app-"
  description        = "The ${var.name} application: reads its database credentials, nothing else."
  assume_role_policy = data.aws_iam_policy_document.app_assume.json
}

data "aws_iam_policy_document" "app" {
  statement {
    sid       = "ReadAppSecret"
    effect    = "Allow"
    actions   = ["secretsmanager:GetSecretValue"]
    resources = [aws_secretsmanager_secret.app.arn]
  }
}

resource "aws_iam_role_policy" "app" {
  name   = "read-app-db-secret"
  role   = aws_iam_role.app.id
  policy = data.aws_iam_policy_document.app.json
}

# ------------------------------------------------------- rotation function role
data "aws_iam_policy_document" "rotation_assume" {
  statement {
    sid     = "LambdaExecution"
    effect  = "Allow"
    actions = ["sts:AssumeRole"]

    principals {
      type        = "Service"
      identifiers = ["lambda.amazonaws.com"]
    }
  }

  statement {
    sid     = "HarnessPlaysLambda"
    effect  = "Allow"
    actions = ["sts:AssumeRole"]

    principals {
      type        = "AWS"
      identifiers = [var.harness_principal_arn]
    }
  }
}

resource "aws_iam_role" "rotation" {
  name_prefix        = "${var.name}-rotation-"
  description        = "Execution role of the ${var.name} credential rotation function."
  assume_role_policy = data.aws_iam_policy_document.rotation_assume.json
}

data "aws_iam_policy_document" "rotation" {
  statement {
    sid    = "RotateAppSecretOnly"
    effect = "Allow"
    actions = [
      "secretsmanager:DescribeSecret",
      "secretsmanager:GetSecretValue",
      "secretsmanager:ListSecretVersionIds",
      "secretsmanager:PutSecretValue",
      "secretsmanager:UpdateSecretVersionStage",
    ]
    resources = [aws_secretsmanager_secret.app.arn]
  }

  statement {
    # GetRandomPassword has no resource type; "*" is the only valid resource.
    sid       = "GeneratePasswords"
    effect    = "Allow"
    actions   = ["secretsmanager:GetRandomPassword"]
    resources = ["*"]
  }

  statement {
    sid       = "DescribeLedgerInstance"
    effect    = "Allow"
    actions   = ["rds:DescribeDBInstances"]
    resources = [aws_db_instance.ledger.arn]
  }

  statement {
    # The log group is created by Terraform, so no logs:CreateLogGroup.
    sid       = "WriteOwnLogs"
    effect    = "Allow"
    actions   = ["logs:CreateLogStream", "logs:PutLogEvents"]
    resources = ["${aws_cloudwatch_log_group.rotation.arn}:*"]
  }
}

resource "aws_iam_role_policy" "rotation" {
  name   = "rotate-app-db-secret"
  role   = aws_iam_role.rotation.id
  policy = data.aws_iam_policy_document.rotation.json
}

# Only when the function is attached to a VPC: Lambda manages its network
# interfaces with the execution role. These EC2 actions support no resource
# scoping beyond "*" for Describe*, so they are granted only if needed.
data "aws_iam_policy_document" "rotation_vpc" {
  count = length(var.rotation_subnet_ids) > 0 ? 1 : 0

  statement {
    sid    = "LambdaVpcNetworkInterfaces"
    effect = "Allow"
    actions = [
      "ec2:CreateNetworkInterface",
      "ec2:DescribeNetworkInterfaces",
      "ec2:DescribeSubnets",
      "ec2:DeleteNetworkInterface",
      "ec2:AssignPrivateIpAddresses",
      "ec2:UnassignPrivateIpAddresses",
    ]
    resources = ["*"]
  }
}

resource "aws_iam_role_policy" "rotation_vpc" {
  count  = length(var.rotation_subnet_ids) > 0 ? 1 : 0
  name   = "lambda-vpc-access"
  role   = aws_iam_role.rotation.id
  policy = data.aws_iam_policy_document.rotation_vpc[0].json
}
