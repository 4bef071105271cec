# fulfilment-worker: an ECS service that consumes order-fulfilment and records each order
# for the warehouse in PostgreSQL. (The cluster's service and networking live in the
# platform team's ecs-cluster stack; this stack owns the task, its role and its data.)

data "aws_iam_policy_document" "fulfilment_trust" {
  statement {
    actions = ["sts:AssumeRole"]

    principals {
      type        = "Service"
      identifiers = ["ecs-tasks.amazonaws.com"]
    }

    # ECS developer guide: scope the task role's trust to our own account.
    condition {
      test     = "StringEquals"
      variable = "aws:SourceAccount"
      values   = [data.aws_caller_identity.current.account_id]
    }
  }
}

resource "aws_iam_role" "fulfilment_task" {
  name               = "${local.name}-fulfilment-task"
  description        = "fulfilment-worker task role: consumes order-fulfilment."
  assume_role_policy = data.aws_iam_policy_document.fulfilment_trust.json
}

data "aws_iam_policy_document" "fulfilment_task" {
  statement {
    sid = "ConsumeFulfilmentQueue"
    actions = [
      "sqs:ReceiveMessage",
      "sqs:DeleteMessage",
      "sqs:ChangeMessageVisibility",
      "sqs:GetQueueAttributes",
    ]
    resources = [module.fulfilment_queue.queue_arn]
  }
}

resource "aws_iam_role_policy" "fulfilment_task" {
  name   = "fulfilment-worker"
  role   = aws_iam_role.fulfilment_task.id
  policy = data.aws_iam_policy_document.fulfilment_task.json
}

resource "aws_cloudwatch_log_group" "fulfilment" {
  name              = "/ecs/${local.name}-fulfilment-worker"
  retention_in_days = var.log_retention_days
}

resource "aws_ecs_task_definition" "fulfilment" {
  family                   = "${local.name}-fulfilment-worker"
  requires_compatibilities = ["FARGATE"]
  network_mode             = "awsvpc"
  cpu                      = "256"
  memory                   = "512"
  task_role_arn            = aws_iam_role.fulfilment_task.arn

  container_definitions = jsonencode([{
    name      = "worker"
    image     = var.fulfilment_image
    essential = true
    command   = ["python", "-m", "worker"]
    environment = [
      { name = "QUEUE_URL", value = module.fulfilment_queue.queue_url },
      { name = "LOG_LEVEL", value = "INFO" },
    ]
    # DATABASE_URL comes from the platform's secret for this database (see README).
    logConfiguration = {
      logDriver = "awslogs"
      options = {
        awslogs-group         = aws_cloudwatch_log_group.fulfilment.name
        awslogs-region        = data.aws_region.current.region
        awslogs-stream-prefix = "worker"
      }
    }
  }])
}

resource "random_password" "fulfilment_db" {
  length  = 32
  special = false
}

resource "aws_db_instance" "fulfilment" {
  identifier     = "${local.name}-fulfilment"
  engine         = "postgres"
  engine_version = "16"
  instance_class = var.db_instance_class

  allocated_storage     = 20
  max_allocated_storage = 100
  storage_type          = "gp3"
  storage_encrypted     = true

  db_name  = "fulfilment"
  username = "fulfilment_admin"
  password = random_password.fulfilment_db.result

  backup_retention_period   = 7
  multi_az                  = true
  deletion_protection       = true
  skip_final_snapshot       = false
  final_snapshot_identifier = "${local.name}-fulfilment-final"
  copy_tags_to_snapshot     = true
}
