"""KMS: encryption round trips, disabled keys, and SQS server-side encryption with a
customer managed key."""

from __future__ import annotations

import uuid

from botocore.exceptions import ClientError

from kit.probes import Behaviour, Clients, Observation


def round_trip(clients: Clients) -> Observation:
    kms = clients("kms")
    key = kms.create_key()["KeyMetadata"]["KeyId"]
    blob = kms.encrypt(KeyId=key, Plaintext=b"ledger")["CiphertextBlob"]
    plain = kms.decrypt(CiphertextBlob=blob)["Plaintext"]
    other = kms.create_key()["KeyMetadata"]["KeyId"]
    try:
        kms.decrypt(CiphertextBlob=blob, KeyId=other)
        wrong = "decrypted with another key too"
    except ClientError as exc:
        wrong = f"refused with another key ({exc.response['Error'].get('Code')})"
    return Observation(plain == b"ledger" and "IncorrectKeyException" in wrong,
                       f"encrypt then decrypt: {'same' if plain == b'ledger' else 'different'} "
                       f"plaintext; {wrong}")


def disabled_key(clients: Clients) -> Observation:
    kms = clients("kms")
    key = kms.create_key()["KeyMetadata"]["KeyId"]
    kms.disable_key(KeyId=key)
    try:
        kms.encrypt(KeyId=key, Plaintext=b"x")
    except ClientError as exc:
        return Observation(True, f"encrypt with a disabled key: "
                           f"{exc.response['Error'].get('Code')}")
    return Observation(False, "encrypt with a disabled key succeeded")


def queue_with_disabled_key(clients: Clients) -> Observation:
    kms, sqs = clients("kms"), clients("sqs")
    key = kms.create_key()["KeyMetadata"]["KeyId"]
    url = sqs.create_queue(QueueName=f"probe-{uuid.uuid4().hex[:12]}",
                           Attributes={"KmsMasterKeyId": key})["QueueUrl"]
    kms.disable_key(KeyId=key)
    try:
        sqs.send_message(QueueUrl=url, MessageBody="m")
    except ClientError as exc:
        return Observation(True, f"send to a queue whose key is disabled: "
                           f"{exc.response['Error'].get('Code')}")
    return Observation(False, "send to a queue whose key is disabled succeeded")


BEHAVIOURS = (
    Behaviour("kms.round_trip", "KMS: decrypt returns what was encrypted, with its key only",
              "KMS API, Decrypt: the KeyId must be the key that encrypted the ciphertext, "
              "else IncorrectKeyException", round_trip),
    Behaviour("kms.disabled_key", "KMS: a disabled key refuses to encrypt", "KMS Developer "
              "Guide, 'Enabling and disabling keys': a disabled key cannot be used in any "
              "cryptographic operation", disabled_key),
    Behaviour("sqs.kms_disabled_key", "SQS SSE-KMS: a queue whose key is disabled refuses "
              "sends", "SQS Developer Guide, 'Key management' / SendMessage errors: "
              "KMS.DisabledException when the queue's key is disabled",
              queue_with_disabled_key),
)
