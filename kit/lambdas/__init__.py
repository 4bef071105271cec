"""The kit plays the Lambda service for a function behind an SQS event source mapping.

`config` reads what was deployed (the function and its mapping), `event` builds the SQS
event and reads the partial batch response, `bootstrap` is the runtime inside each
execution environment's sandbox, `invoke` runs an environment confined and each of its
invocations under the function's timeout,
`service` polls the queue as the mapping does and invokes at the allowed concurrency.
"""
