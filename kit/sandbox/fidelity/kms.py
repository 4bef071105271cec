"""KMS: multi-Region replica keys as AWS creates them.

moto internals touched: moto.kms.responses.KmsResponse.replicate_key,
KmsResponse.kms_backend, KmsResponse._validate_key_id, KmsResponse._get_param,
KmsResponse.current_account, moto.kms.models.kms_backends, KmsBackend.get_key_id,
KmsBackend.replicate_key, KmsBackend.tagger, Key.policy, Key.description, Key.id,
Key.generate_default_policy, Key.to_dict.
"""

from __future__ import annotations

import json
from typing import Any


def replicate_key_takes_its_parameters() -> None:
    """ReplicateKey accepts the primary key's ARN and applies Policy, Description and Tags.

    AWS (ReplicateKey API reference): KeyId is "the key ID or key ARN of the multi-Region
    primary key"; Policy is the replica's key policy (the default key policy when
    omitted); Description and Tags belong to the replica. moto 5.2 looks the ARN up as a
    key ID (KeyError, HTTP 500) and gives the replica a copy of the primary's policy, so
    `aws_kms_replica_key` waits ten minutes for its policy to read back.
    """
    from moto.kms.models import kms_backends
    from moto.kms.responses import KmsResponse

    if getattr(KmsResponse.replicate_key, "_kit_fix", False):
        return

    def replicate_key(self: Any) -> str:
        key_id = self.kms_backend.get_key_id(self._get_param("KeyId"))
        self._validate_key_id(key_id)
        region = self._get_param("ReplicaRegion")
        replica = self.kms_backend.replicate_key(key_id, region)
        replica.policy = self._get_param("Policy") or replica.generate_default_policy()
        description = self._get_param("Description")
        if description is not None:
            replica.description = description
        tags = self._get_param("Tags") or []
        if tags:
            kms_backends[self.current_account][region].tagger.tag_resource(replica.id, tags)
        return json.dumps({"ReplicaKeyMetadata": replica.to_dict()["KeyMetadata"],
                           "ReplicaPolicy": replica.policy, "ReplicaTags": tags})

    replicate_key._kit_fix = True  # type: ignore[attr-defined]
    KmsResponse.replicate_key = replicate_key  # type: ignore[method-assign]
