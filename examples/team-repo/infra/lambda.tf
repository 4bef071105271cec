# order-notifier: the Lambda consumer of the order-notifications queue. It records each
# order event in DynamoDB and reports the records it could not process, so SQS retries
# only those (and moves them to the DLQ after max_receive_count receives).

data "aws_iam_policy_document" "notifier_trust" {
  statement {
    actions = ["sts:AssumeRole"]

    principals {
      type        = "Service"
      identifiers = ["lambda.amazonaws.com"]
    }
  }
}

resource "aws_iam_role" "notifier" {
  name               = "${local.name}-order-notifier"
  description        = "order-notifier Lambda: consumes order-notifications, writes DynamoDB."
  assume_role_policy = data.aws_iam_policy_document.notifier_trust.json
}

data "aws_iam_policy_document" "notifier" {
  statement {
    sid = "ConsumeNotificationsQueue"
    actions = [
      "sqs:ReceiveMessage",
      "sqs:DeleteMessage",
      "sqs:GetQueueAttributes",
      "sqs:ChangeMessageVisibility",
    ]
    resources = [module.notifications_queue.queue_arn]
  }

  statement {
    sid       = "RecordNotifications"
    actions   = ["dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:ConditionCheckItem"]
    resources = [aws_dynamodb_table.notifications.arn, aws_dynamodb_table.customer_totals.arn]
  }

  statement {
    sid       = "WriteOwnLogs"
    actions   = ["logs:CreateLogStream", "logs:PutLogEvents"]
    resources = ["${aws_cloudwatch_log_group.notifier.arn}:*"]
  }
}

resource "aws_iam_role_policy" "notifier" {
  name   = "order-notifier"
  role   = aws_iam_role.notifier.id
  policy = data.aws_iam_policy_document.notifier.json
}

resource "aws_cloudwatch_log_group" "notifier" {
  name              = "/aws/lambda/${local.name}-order-notifier"
  retention_in_days = var.log_retention_days
}

resource "aws_lambda_function" "notifier" {
  function_name = "${local.name}-order-notifier"
  description   = "Records order events from order-notifications in DynamoDB."
  role          = aws_iam_role.notifier.arn

  filename         = "${path.module}/${var.lambda_package}"
  source_code_hash = filebase64sha256("${path.module}/${var.lambda_package}")
  handler          = "handler.handler"
  runtime          = "python3.12"
  architectures    = ["arm64"]
  memory_size      = var.consumer_memory_mb
  timeout          = var.consumer_timeout_seconds

  reserved_concurrent_executions = var.consumer_reserved_concurrency

  environment {
    variables = {
      NOTIFICATIONS_TABLE   = aws_dynamodb_table.notifications.name
      CUSTOMER_TOTALS_TABLE = aws_dynamodb_table.customer_totals.name
      LOG_LEVEL             = "INFO"
    }
  }

  logging_config {
    log_format = "Text"
    log_group  = aws_cloudwatch_log_group.notifier.name
  }

  depends_on = [aws_iam_role_policy.notifier]
}

resource "aws_lambda_event_source_mapping" "notifier" {
  event_source_arn                   = module.notifications_queue.queue_arn
  function_name                      = aws_lambda_function.notifier.arn
  batch_size                         = var.consumer_batch_size
  maximum_batching_window_in_seconds = 1
  function_response_types            = ["ReportBatchItemFailures"]

  # Below the reserved concurrency, so the poller never gets throttled.
  scaling_config {
    maximum_concurrency = var.consumer_reserved_concurrency - 1
  }
}
