"""The gateway: the only path from workload processes to the emulator, enforced and recorded.

server    the HTTP proxy (Gateway): refuse the admin API, admit, forward, record SQS ops
guard     authenticate (sigv4) and authorize (authz) each request; authn/authz history ops
sigv4     verify a request's SigV4 signature with botocore's signer
actions   request -> IAM actions and resource ARNs (SQS, STS, IAM, S3, Secrets Manager, RDS)
authz     one IAM decision with kit.iam: identity, boundary, session and resource policies
policies  the emulator's policies and tags, read with admin calls, parsed once, cached
sessions  the credentials the kit registered and whose they are
replies   AWS error replies in each client's protocol
sqs       SQS wire formats (JSON and query) for recording receives and deletes
limits    AWS's size limits, checked from the headers before a body is read
"""
