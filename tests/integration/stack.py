"""A Terraform stack applied as the kit's deploy stage applies a solution: for the
fidelity tests that apply, read back and destroy a stack on a sandbox of their own."""

from __future__ import annotations

from pathlib import Path

from kit.deploy.override import SERVICES
from kit.deploy.terraform import Terraform
from kit.run.deploy import witness
from kit.run.sandbox import Sandbox


def stack(sandbox: Sandbox, tmp_path: Path, main_tf: str, *, routed: bool = False,
          witnessed: bool = False) -> Terraform:
    """`main_tf` as a solution under `tmp_path`, initialised on the sandbox's attached
    provider and aimed at its moto; `routed`: each service at the emulator serving it (a
    LocalStack sandbox's split); `witnessed`: moto's journal decides blame, as in a run."""
    assert sandbox.provider is not None, "the sandbox has no attached provider"
    solution = tmp_path / "solution"
    solution.mkdir()
    (solution / "main.tf").write_text(main_tf)
    tf = Terraform(solution, tmp_path / "work", reattach=sandbox.provider.reattach,
                   provider_cwd=sandbox.provider.cwd)
    if routed:
        routes = sandbox.routes
        tf.configure(routes.primary.url, None, routes.away_from_primary(SERVICES))
    else:
        tf.configure(sandbox.moto.url)
    if witnessed:
        tf.witness = witness(sandbox)
    tf.init()
    return tf
