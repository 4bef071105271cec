"""CloudWatch: composite alarms can be made.

moto internals touched: moto.cloudwatch.responses.CloudWatchResponse.put_composite_alarm,
CloudWatchResponse.put_metric_alarm.
"""

from __future__ import annotations


def composite_alarms_can_be_put() -> None:
    """PutCompositeAlarm creates or updates a composite alarm.

    AWS (CloudWatch API reference, PutCompositeAlarm): creates or updates a composite alarm,
    whose AlarmRule combines other alarms' states; DescribeAlarms lists it under
    CompositeAlarms and DeleteAlarms deletes it. moto stores composite alarms (an alarm with
    a rule, listed under CompositeAlarms) and its PutMetricAlarm reads AlarmRule "to re-use
    this method for composite alarms", but it routes no PutCompositeAlarm to it: every
    aws_cloudwatch_composite_alarm was refused as not implemented.
    """
    from moto.cloudwatch.responses import CloudWatchResponse

    if hasattr(CloudWatchResponse, "put_composite_alarm"):
        return
    CloudWatchResponse.put_composite_alarm = (  # type: ignore[attr-defined]
        CloudWatchResponse.put_metric_alarm)
