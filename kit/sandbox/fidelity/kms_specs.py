"""KMS: the key specs AWS offers today.

moto internals touched: moto.kms.models.KmsBackend._KmsBackend__ensure_valid_key_spec (the
private __ensure_valid_key_spec), moto.kms.models.generate_private_key,
Key.signing_algorithms, Key.encryption_algorithms, Key.key_spec, Key.key_usage,
moto.kms.utils.AbstractPrivateKey (subclassed).
"""

from __future__ import annotations

from typing import Any

# KMS API reference, CreateKey, KeySpec: the specs moto 5.2 does not know. ML-DSA signs,
# ML-KEM establishes shared secrets, ECC_NIST_EDWARDS25519 (ed25519) signs only.
SIGNING = {"ML_DSA_44": ["ML_DSA_SHAKE_256"], "ML_DSA_65": ["ML_DSA_SHAKE_256"],
           "ML_DSA_87": ["ML_DSA_SHAKE_256"],
           "ECC_NIST_EDWARDS25519": ["ED25519_SHA_512", "ED25519_PH_SHA_512"]}
ENCAPSULATING = ("ML_KEM_512", "ML_KEM_768", "ML_KEM_1024")
NEW_SPECS = (*SIGNING, *ENCAPSULATING)


def _key_material_class() -> type:
    """Key material moto cannot make: the key exists, its cryptography is refused."""
    from moto.kms.utils import AbstractPrivateKey

    class NoKeyMaterial(AbstractPrivateKey):
        def __init__(self, spec: str) -> None:
            self.spec = spec

        def _refuse(self) -> Any:
            raise NotImplementedError(f"key spec {self.spec}: moto has no key material for it")

        def sign(self, message: bytes, signing_algorithm: str) -> bytes:
            return self._refuse()

        def verify(self, message: bytes, signature: bytes, signing_algorithm: str) -> bool:
            return self._refuse()

        def public_key(self) -> bytes:
            return self._refuse()

    return NoKeyMaterial


def current_key_specs_are_accepted() -> None:
    """CreateKey accepts the ML-DSA, ML-KEM and ed25519 key specs, and DescribeKey reports
    their signing algorithms.

    AWS (KMS API reference, CreateKey, KeySpec and KeyUsage: ML_DSA_44/65/87 and
    ECC_NIST_EDWARDS25519 with SIGN_VERIFY, ML_KEM_512/768/1024 with
    ENCAPSULATE_DECAPSULATE; KeyMetadata.SigningAlgorithms ML_DSA_SHAKE_256,
    ED25519_SHA_512, ED25519_PH_SHA_512). moto 5.2 refuses them ("failed to satisfy
    constraint: Member must satisfy enum value set"). Here such a key is created,
    described and deleted; signing or reading its public key is refused as an emulator
    gap (NotImplemented), since moto has no such key material.
    """
    from moto.kms import models
    from moto.kms.models import Key, KmsBackend

    check = KmsBackend._KmsBackend__ensure_valid_key_spec  # type: ignore[attr-defined]
    if getattr(check, "_kit_fix", False):
        return
    generate = models.generate_private_key
    material = _key_material_class()
    signing, encryption = Key.signing_algorithms, Key.encryption_algorithms

    def ensure_valid_key_spec(self: Any, key_spec: str) -> None:
        if key_spec not in NEW_SPECS:
            check(self, key_spec)

    def generate_private_key(key_spec: str) -> Any:
        return material(key_spec) if key_spec in NEW_SPECS else generate(key_spec)

    def signing_algorithms(self: Any) -> Any:
        if self.key_spec in NEW_SPECS:
            return SIGNING.get(self.key_spec) if self.key_usage == "SIGN_VERIFY" else None
        return signing.fget(self)

    def encryption_algorithms(self: Any) -> Any:
        return None if self.key_spec in NEW_SPECS else encryption.fget(self)

    ensure_valid_key_spec._kit_fix = True  # type: ignore[attr-defined]
    KmsBackend._KmsBackend__ensure_valid_key_spec = ensure_valid_key_spec  # type: ignore[attr-defined]
    models.generate_private_key = generate_private_key
    Key.signing_algorithms = property(signing_algorithms)  # type: ignore[method-assign,assignment]
    Key.encryption_algorithms = property(encryption_algorithms)  # type: ignore[method-assign,assignment]
