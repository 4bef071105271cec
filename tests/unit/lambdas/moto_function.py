"""A Lambda function in moto in process (CreateFunction needs no docker; nothing here
invokes it): what the kit reads of a deployed function, and what its faults change."""

from __future__ import annotations

import io
import json
import zipfile
from typing import Any

import boto3

REGION = "us-east-1"
TRUST = {"Version": "2012-10-17", "Statement": [{
    "Effect": "Allow", "Principal": {"Service": "lambda.amazonaws.com"},
    "Action": "sts:AssumeRole"}]}


def package(files: dict[str, str]) -> bytes:
    """A zip deployment package of `files` (name -> source)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as zf:
        for name, text in files.items():
            zf.writestr(name, text)
    return out.getvalue()


def function(name: str = "consumer", **extra: Any) -> str:
    """Create a Python function (and its role) in moto; its ARN."""
    role = boto3.client("iam", region_name=REGION).create_role(
        RoleName=f"{name}-role", AssumeRolePolicyDocument=json.dumps(TRUST))["Role"]["Arn"]
    return boto3.client("lambda", region_name=REGION).create_function(
        FunctionName=name, Runtime=extra.pop("Runtime", "python3.11"), Role=role,
        Handler=extra.pop("Handler", "handler.handle"),
        Code={"ZipFile": package({"handler.py": "def handle(e, c):\n    return None\n"})},
        **extra)["FunctionArn"]
