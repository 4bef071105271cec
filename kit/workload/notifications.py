"""SNS notification envelopes as a queue holds them: the published message inside one."""

from __future__ import annotations

import json


def unwrap(body: str) -> str:
    """The published message inside an SNS notification envelope (a queue's message from a
    subscription without raw delivery); any other body as it is."""
    if not body.startswith("{") or '"Notification"' not in body:
        return body
    try:
        doc = json.loads(body)
    except ValueError:
        return body
    if isinstance(doc, dict) and doc.get("Type") == "Notification" and \
            isinstance(doc.get("Message"), str) and "TopicArn" in doc:
        return doc["Message"]
    return body
