"""Entry point of the sandbox's LocalStack, run by LocalStack's own interpreter (its venv:
kit/toolchain/localstack_install.py), so it imports nothing of the kit: apply the kit's
compatibility shims, then run LocalStack.

LocalStack 4.13.1 is the last release that installs on Python 3.11, but its KMS calls
`uuid.uuid5(namespace, <bytes>)`, which only Python 3.12 accepts ("name" may be bytes since
3.12): on 3.11 every CreateKey failed with InternalError ("encoding without a string
argument"). The shim gives 3.11's uuid5 the 3.12 behaviour: bytes are hashed as they are.
"""

from __future__ import annotations

import hashlib
import runpy
import uuid


def uuid5_accepts_bytes() -> None:
    """uuid.uuid5 as in Python 3.12: a bytes name is hashed as is."""
    original = uuid.uuid5

    def uuid5(namespace: uuid.UUID, name: str | bytes) -> uuid.UUID:
        if isinstance(name, str):
            return original(namespace, name)
        digest = hashlib.sha1(namespace.bytes + name, usedforsecurity=False).digest()
        return uuid.UUID(bytes=digest[:16], version=5)

    uuid.uuid5 = uuid5  # type: ignore[assignment]


if __name__ == "__main__":
    uuid5_accepts_bytes()
    runpy.run_module("localstack.runtime.main", run_name="__main__", alter_sys=True)
