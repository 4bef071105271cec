"""The deploy stage: gate, baseline, init and apply of the solution's Terraform; what is
refused is recorded (gate and deploy ops) for the check stage to judge."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kit import aws
from kit.deploy import gate, hcl, intake, modules
from kit.deploy.evidence import Witness
from kit.deploy.override import SERVICES
from kit.deploy.terraform import DeployFailure, EnvironmentFailure, Terraform
from kit.errors import KitError, SolutionError
from kit.run.bind import kit_values
from kit.run.context import RunContext
from kit.run.sandbox import Sandbox


def witness(sandbox: Sandbox) -> Witness:
    """What watches the emulators around the solution's Terraform commands: moto's journal
    and probe (LocalStack keeps no journal: kit/deploy/evidence.py)."""
    return Witness([sandbox.moto.journal], [sandbox.moto.answering],
                   journaled=sandbox.localstack is None)


def deploy(ctx: RunContext) -> dict[str, Any] | None:
    """Gate, baseline, init and apply; the bindings known after apply, or None when the
    run stops here (refused by the gate, or the deploy failed)."""
    with ctx.stage("gate"):
        unparsed = _gate(ctx)
        if unparsed is False:
            return None
    values = kit_values(ctx.scenario)
    with ctx.stage("init"):
        ctx.recorder.record("kit", "phase", name="deploy")
        ctx.harness = aws.harness_credentials(ctx.sandbox.endpoint("iam"))
        values |= _baseline(ctx, values)
        if not _init(ctx, unparsed):
            return None
    with ctx.stage("apply"):
        outputs = _apply(ctx, values)
    return None if outputs is None else values | {
        f"outputs.{k}": v for k, v in outputs.items()}


def refused(ctx: RunContext, stage_name: str, diagnostics: str, kit_error: str | None = None,
            gaps: tuple[str, ...] = ()) -> None:
    """Record a deploy that stopped at `stage_name`, with why."""
    ctx.recorder.record("kit", "deploy", ok=False, stage=stage_name,
                        diagnostics=[diagnostics], kit_error=kit_error, gaps=list(gaps))


def _gate(ctx: RunContext) -> str | None | bool:
    """Parse the solution and look for forbidden constructs: False when refused, else
    the parse error Terraform must judge first (None when everything parsed)."""
    # The directory first, before any file of it is read (links out, override files).
    refusals = [str(v) for v in intake.refusals(ctx.solution)]
    if refusals:
        ctx.recorder.record("kit", "gate", violations=refusals)
        return False
    try:
        ctx.config = hcl.parse(ctx.solution)
    except SolutionError as exc:
        # Terraform judges syntax at init; if it accepts what the gate cannot read,
        # the gate still refuses.
        return str(exc)
    violations = [str(v) for v in gate.check(
        ctx.config, ctx.scenario.toolchain.allowed_providers, ctx.scenario.modules_dir,
        team=ctx.scenario.trust == "team", root_module=_root_module(ctx))]
    if violations:
        ctx.recorder.record("kit", "gate", violations=violations)
        return False
    return None


def _init(ctx: RunContext, unparsed: str | None) -> bool:
    """Copy, configure and init the solution; False when the run stops here."""
    tf = ctx.tf = Terraform(ctx.solution, ctx.work, module=_root_module(ctx), **_provider(ctx))
    tf.witness = witness(ctx.sandbox)
    ctx.recorder.record("kit", "confinement", **tf.axes())
    try:
        _configure(ctx, tf, ctx.config)
        if ctx.scenario.trust == "team" and ctx.config is not None:
            # Registry modules from the team's cache; only a team's gate lets them through.
            tf.seed_modules(ctx.scenario.module_cache,
                            modules.remote_calls(ctx.config, _root_module(ctx)))
        tf.init()
        if unparsed:
            tf.validate()  # Terraform's own diagnostic first, if it rejects it too
    except SolutionError as exc:
        ctx.recorder.record("kit", "gate", violations=[])
        refused(ctx, exc.stage if isinstance(exc, DeployFailure) else "configure",
                exc.diagnostics if isinstance(exc, DeployFailure) else str(exc))
        return False
    ctx.recorder.record("kit", "gate", violations=[] if not unparsed else [
        f"{unparsed} (Terraform accepts it, but the gate must read every file)"])
    return not unparsed


def _apply(ctx: RunContext, values: dict[str, Any]) -> dict[str, Any] | None:
    """Apply with the contract's variables; the outputs, or None when it failed."""
    assert ctx.tf is not None
    variables = {var: str(values[binding])
                 for var, binding in ctx.scenario.contract.variables.items()}
    try:
        ctx.tf.apply(variables)
        outputs = ctx.tf.outputs()
    except DeployFailure as failure:
        _plane_broken(ctx)
        refused(ctx, failure.stage, failure.diagnostics)
        return None
    except EnvironmentFailure as failure:
        refused(ctx, failure.stage, failure.diagnostics or failure.reason,
                kit_error=failure.reason, gaps=failure.gaps)
        return None
    problem = _output_problem(ctx, outputs)
    if problem:
        refused(ctx, "outputs", problem)
        return None
    ctx.recorder.record("kit", "deploy", ok=True, stage="apply", diagnostics=[])
    return outputs


def _root_module(ctx: RunContext) -> Path:
    """The solution's root module, relative to it (terraform.dir)."""
    return Path(ctx.scenario.terraform.dir)


def _provider(ctx: RunContext) -> dict[str, Any]:
    """How a Terraform of this run attaches to the sandbox's provider, if it has one."""
    provider = ctx.sandbox.provider
    return {"reattach": provider.reattach, "provider_cwd": provider.cwd} if provider else {}


def _plane_broken(ctx: RunContext) -> None:
    """Raise the kit's error when the RDS data plane broke (then a failed apply, which
    waited for an instance that never came, is not the solution's doing)."""
    errors = ctx.sandbox.rds.plane.errors
    if errors:
        raise KitError("the RDS data plane failed: " + "; ".join(errors))


def _configure(ctx: RunContext, tf: Terraform, config: hcl.Configuration | None = None) -> None:
    """The kit's provider override, aimed at the emulator that serves each service."""
    routes = ctx.sandbox.routes
    tf.configure(routes.primary.url, config, routes.away_from_primary(SERVICES))


def _baseline(ctx: RunContext, values: dict[str, Any]) -> dict[str, Any]:
    """Apply the scenario's baseline (as the kit); its outputs as baseline.* bindings."""
    baseline = ctx.scenario.baseline
    if baseline is None:
        return {}
    (ctx.work / "baseline").mkdir()
    tf = Terraform(ctx.scenario.modules_dir / baseline.module, ctx.work / "baseline",
                   **_provider(ctx))
    try:
        _configure(ctx, tf)
        tf.init()
        tf.apply({var: str(values[b]) for var, b in baseline.variables.items()})
        return {f"baseline.{k}": v for k, v in tf.outputs().items()}
    except SolutionError as exc:  # the kit's own module: never the solution's fault
        raise KitError(f"the baseline module {baseline.module} did not deploy: {exc}") \
            from None


def _output_problem(ctx: RunContext, outputs: dict[str, Any]) -> str | None:
    """Why the outputs break the contract: missing, or naming what the solution did
    not create (a decoy, or a resource of the kit's); None when they are fine."""
    wanted = ctx.scenario.contract.outputs
    missing = [o for o in wanted if not outputs.get(o)]
    if missing:
        return f"missing outputs: {', '.join(missing)}"
    assert ctx.tf is not None
    created = ctx.tf.managed_values()
    foreign = [f"{o} = {outputs[o]!r}" for o in wanted if outputs[o] not in created]
    if foreign:
        return ("outputs must name resources this Terraform creates; these do not: "
                + "; ".join(foreign))
    return None
