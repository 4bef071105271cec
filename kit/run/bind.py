"""The bind stage: map what the solution deployed to real data planes, and resolve every
binding of scenario.yaml to its value for this run.

Each database resource gets an empty database in the sandbox's PostgreSQL behind a
Toxiproxy listener; the workers' AWS endpoint is a Toxiproxy listener in front of the
kit's gateway (which verifies, authorizes and records every call before the emulator that
serves it sees it).
Where the machine allows it, workers live in a network namespace whose only open ports
are these listeners, inside sandboxes (kit/sandbox/confine.py) whose every axis of
confinement the run records (`confinement`).
"""

from __future__ import annotations

import contextlib
import functools
import json
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from botocore.exceptions import ClientError

from kit import aws, bindings, interrupt
from kit.deploy import addresses
from kit.errors import KitError, SolutionError
from kit.gateway.server import Gateway
from kit.iam.service import LAMBDA, refusal, service_admits
from kit.recorder import Recorder
from kit.run.sandbox import Sandbox
from kit.sandbox.attempts import RefusedAttempts
from kit.sandbox.confine import Confinement
from kit.sandbox.limits import WORKLOAD
from kit.sandbox.netns import PER_WORKER, WorkerNetwork
from kit.sandbox.toxiproxy import Proxy
from kit.sandbox.view import View
from kit.scenario import Env, EnvLiteral, Scenario
from kit.toolchain import deps

AWS_ENDPOINT = "endpoint.aws"
WORKSPACE = "/workspace"  # the workers' cwd inside their sandbox: their copy of the solution


@dataclass
class Bound:
    """What the bind stage made for one run."""

    values: dict[str, Any]  # binding -> value (every binding the scenario may use)
    gateway: Gateway
    proxies: dict[str, Proxy]  # network target ("database.main", "endpoint.aws") -> proxy
    databases: dict[str, str]  # database resource -> the kit's direct (read-only) libpq URL
    network: WorkerNetwork | None
    harness: aws.Credentials
    confinement: Confinement  # how the workers (any process of the solution's) run
    roles: dict[str, str] = field(default_factory=dict)  # role resource -> ARN
    # team mode: role resource -> the service principal its sessions are for
    services: dict[str, str] = field(default_factory=dict)

    def session(self, role: str, process: str) -> aws.Credentials:
        """A fresh session of a role resource, registered with the gateway for `process`."""
        return self.session_of(self.roles[role], process)

    def session_of(self, arn: str, process: str) -> aws.Credentials:
        """A fresh session of the role `arn`, registered with the gateway for `process`."""
        creds = aws.assume(self.gateway.url_of("sts"), self.harness, arn, process)
        self.gateway.register(creds.access_key_id, process,
                              secret_access_key=creds.secret_access_key,
                              session_token=creds.token, role_arn=arn, principal_arn=creds.arn)
        return creds


def kit_values(scenario: Scenario) -> dict[str, Any]:
    """The bindings known before anything is deployed: kit.* and workload.*."""
    params = scenario.workload_params.model_dump()
    return {"kit.harness_arn": aws.HARNESS_ARN, "kit.region": aws.REGION,
            "kit.account": aws.ACCOUNT_ID, **{f"workload.{k}": v for k, v in params.items()}}


def resource_values(scenario: Scenario, values: Mapping[str, Any], admin_sqs: Any,
                    state: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Each declared resource's attributes, from the outputs or, bound by `address`, from
    the `state` after apply (and the emulator for ARNs); Unlocated when a resource is not
    where its binding says."""
    out: dict[str, Any] = {}
    for name, attrs in scenario.resources.items():
        kind = name.split(".", 1)[0]
        declared = bindings.declared_attribute(kind)
        source = attrs.get(declared) or f"address {attrs.get('address')}"
        value = values[attrs[declared]] if declared in attrs else _addressed(
            state or {}, name, kind, attrs["address"])
        out[f"{name}.{declared}"] = value
        if kind == "queue":
            arn = _queue_arn(admin_sqs, name, source, value)
            out[f"{name}.arn"], out[f"{name}.name"] = arn, arn.rsplit(":", 1)[-1]
        elif kind == "role":
            out[f"{name}.name"] = value.rsplit("/", 1)[-1]
        elif kind == "function":  # arn:aws:lambda:<region>:<account>:function:<name>
            out[f"{name}.name"] = value.split(":")[6] if value.count(":") >= 6 else value
        elif kind == "bucket":
            out[f"{name}.arn"] = f"arn:aws:s3:::{value}"
        elif kind == "database":  # an identifier (the kit's Region), or an ARN (any)
            out[f"{name}.arn"] = value if str(value).startswith("arn:") else \
                f"arn:aws:rds:{aws.REGION}:{aws.ACCOUNT_ID}:db:{value}"
        elif kind == "table":
            out[f"{name}.arn"] = table_arn(str(value))
    return out


def table_arn(name: str) -> str:
    """The ARN of DynamoDB table `name` in the contract's account and region."""
    return f"arn:aws:dynamodb:{aws.REGION}:{aws.ACCOUNT_ID}:table/{name}"


class Unlocated(SolutionError):
    """An output names a resource the kit cannot find where the contract says it is (the
    kit's account and region): the solution's, e.g. an override moving its provider; or an
    address names no resource of the state."""


def _addressed(state: Mapping[str, Any], name: str, kind: str, address: str) -> Any:
    """A resource's declared attribute from the state (kit/deploy/addresses.py)."""
    try:
        return addresses.lookup(state, name, kind, address)
    except addresses.Unaddressed as exc:
        raise Unlocated(str(exc)) from None


def _queue_arn(admin_sqs: Any, name: str, output: str, url: str) -> str:
    """The ARN of the queue at `url`; Unlocated when AWS answers that there is none."""
    try:
        return admin_sqs.get_queue_attributes(
            QueueUrl=url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
    except ClientError as exc:
        status = exc.response.get("ResponseMetadata", {}).get("HTTPStatusCode", 0)
        if not 400 <= status < 500:
            raise  # the emulator broke: the kit's
        found = exc.response.get("Error", {})
        raise Unlocated(
            f"{name}: {output} = {url!r} names no queue in the contract's account "
            f"{aws.ACCOUNT_ID} and region {aws.REGION}, where the workers, the producer and "
            f"the faults look for it (AWS answered {found.get('Code')}: "
            f"{found.get('Message')})") from None


def arns(scenario: Scenario, values: Mapping[str, Any]) -> dict[str, str]:
    """resource name -> ARN, for the resources that have one (IAM judges these)."""
    return {name: values[f"{name}.arn"] for name in scenario.resources
            if f"{name}.arn" in values}


def _namespace(reachable: list[Proxy], replicas: int, recorder: Recorder,
               stack: contextlib.ExitStack) -> WorkerNetwork | None:
    """The workers' network namespace relaying `reachable`, each proxy's outages mirrored
    in it and the connections they refuse counted (None where the machine allows none)."""
    network = WorkerNetwork.create([p.port for p in reachable],
                                   limit=PER_WORKER * max(1, replicas))
    if network is None:
        return None
    stack.callback(network.close)
    network.on_refused = lambda worker, port, refused, limit: recorder.record(
        worker, "connection_refused", port=port, refused=refused, limit=limit)
    attempts = RefusedAttempts(network, lambda port, refused: recorder.record(
        "network", "connects_refused", port=port, refused=refused))
    stack.callback(attempts.stop)
    for proxy in reachable:
        proxy.mirrors.append(functools.partial(network.set_enabled, proxy.port))
        proxy.mirrors.append(functools.partial(attempts.set_enabled, proxy.port))
    return network


def bind(scenario: Scenario, values: dict[str, Any], sandbox: Sandbox, recorder: Recorder,
         stack: contextlib.ExitStack, run_label: str, harness: aws.Credentials,
         workspace: Path) -> Bound:
    """Make the data planes, the gateway and the workers' confinement (their workspace is a
    copy of `workspace`); register their teardown on `stack`."""
    proxies: dict[str, Proxy] = {}
    databases: dict[str, str] = {}
    stamp = f"{run_label}_{int(time.time() * 1000)}"
    describe = scenario.workload_module.describe
    # Each of these is registered for teardown in the same breath as it is made.
    with interrupt.deferred():
        gateway = stack.enter_context(Gateway(sandbox.routes, recorder,
                                              key_of=lambda body: describe(body).key))
    for name in (r for r in scenario.resources if r.startswith("database.")):
        if sandbox.rds.plane.enabled:
            _bind_instance(name, values, sandbox, proxies, databases)
            continue
        # A database and a role of its own (random names, not the seed's): the workers log
        # in as that role through the proxy, the kit reads as its own reader.
        database = sandbox.postgres.workload_database()
        databases[name] = sandbox.postgres.reader_dsn(database.name)
        with interrupt.deferred():
            proxies[name] = sandbox.toxiproxy.proxy(f"{name}-{stamp}",
                                                    f"127.0.0.1:{sandbox.postgres.port}")
            stack.callback(proxies[name].delete)
        values[f"{name}.url"] = database.url(proxies[name].port)
    with interrupt.deferred():
        proxies[AWS_ENDPOINT] = sandbox.toxiproxy.proxy(f"aws-{stamp}",
                                                        f"127.0.0.1:{gateway.port}")
        stack.callback(proxies[AWS_ENDPOINT].delete)
        # Workers see only these ports (where the machine allows a namespace); a drill's
        # runbook only the AWS endpoint (the instances are the application's, not its),
        # unless the solution keeps the application's credentials (it rotates them there).
        drill = scenario.workload.drill
        own_users = drill is not None and drill.app.credentials == "secret"
        reachable = {name: proxy for name, proxy in proxies.items()
                     if own_users or not (sandbox.rds.plane.enabled
                                          and name.startswith("database."))}
        replicas = scenario.workers.replicas if scenario.workers is not None else 1
        network = _namespace(list(reachable.values()), replicas, recorder, stack)
        view, imports = _dependencies(scenario, workspace)
        confinement = stack.enter_context(Confinement(
            "workload", view, WORKLOAD, identity=sandbox.workload_identity,
            network=network or "host", workspace=(workspace, WORKSPACE),
            env={"HOME": "/tmp", "TMPDIR": "/tmp", **imports}))
    recorder.record("kit", "confinement", **confinement.axes())
    values[AWS_ENDPOINT] = f"http://127.0.0.1:{proxies[AWS_ENDPOINT].port}"
    roles = {name: values[f"{name}.arn"] for name in scenario.resources
             if name.startswith("role.")}
    return Bound(values, gateway, proxies, databases, network, harness, confinement, roles,
                 services(scenario))


def worker_deps(scenario: Scenario, solution: Path) -> Path | None:
    """Team mode: the directory of the workers' declared Python dependencies, installed for
    the worker runtime (cached; built from the package index the first time)."""
    if scenario.trust != "team" or scenario.workers is None:
        return None  # an untrusted solution's requirements are not installed
    found = deps.declared(scenario.workers_dir(solution))
    return deps.ensure(found) if found is not None else None


def _dependencies(scenario: Scenario, workspace: Path) -> tuple[View, dict[str, str]]:
    """What the workers' sandbox shows and sets for their dependencies (read-only, first on
    PYTHONPATH), if they declare any."""
    found = worker_deps(scenario, workspace)
    if found is None:
        return View(), {}
    return View().show(found), {"PYTHONPATH": str(found)}


def services(scenario: Scenario) -> dict[str, str]:
    """Team mode: role resource -> the service principal that assumes it (workers.service;
    a Lambda consumer's execution role is assumed by lambda.amazonaws.com)."""
    workers = scenario.workers
    if workers is None or scenario.trust != "team":
        return {}
    service = LAMBDA if workers.kind == "lambda" else workers.service
    return {} if service is None else {workers.role: service}


def service_refusal(bound: Bound, role: str) -> Mapping[str, Any] | None:
    """Team mode: why `role`'s service may not assume it (the evidence, trust policy
    included), as AWS would decide now; None when it may, or no service assumes it."""
    service = bound.services.get(role)
    if service is None:
        return None
    arn = bound.roles[role]
    try:
        found = bound.gateway.admin_client("iam").get_role(RoleName=arn.rsplit("/", 1)[-1])
    except ClientError as exc:
        status = exc.response.get("ResponseMetadata", {}).get("HTTPStatusCode", 0)
        if not 400 <= status < 500:
            raise  # the emulator broke: the kit's
        # The outputs name a role that is not there: the solution's, like any refusal.
        error = exc.response.get("Error", {})
        return {"role": role, "role_arn": arn, "principal": service, "trust": None,
                "reason": f"IAM has no such role ({error.get('Code')}: "
                          f"{error.get('Message')})"}
    trust = found["Role"]["AssumeRolePolicyDocument"]
    if isinstance(trust, str):  # boto3 decodes it; some paths give URL-encoded JSON
        trust = json.loads(unquote(trust))
    now = time.time()
    decision = service_admits(trust, service, arn, aws.ACCOUNT_ID, (now, now))
    return None if decision.allowed else refusal(role, arn, trust, service, decision)


def _bind_instance(name: str, values: dict[str, Any], sandbox: Sandbox,
                   proxies: dict[str, Proxy], databases: dict[str, str]) -> None:
    """A database resource backed by the RDS data plane: its own server, behind its own
    endpoint (the instance the solution's Terraform created)."""
    identifier = values[f"{name}.instance"]
    instance = sandbox.rds.plane.get(identifier)
    if instance is None or instance.primary is None:
        raise KitError(f"{name}: DB instance {identifier!r} has no server in the data plane "
                       "after apply (the front did not see it created)")
    spec = instance.spec
    proxies[name] = instance.proxy
    databases[name] = instance.primary.dsn(spec.db_name or "postgres", spec.master_username)
    values[f"{name}.url"] = (f"postgresql://{spec.master_username}@127.0.0.1:"
                             f"{instance.proxy.port}/{spec.db_name or 'postgres'}")


def worker_cwd(scenario: Scenario) -> str:
    """The workers' cwd inside their sandbox: the workspace, or its workers.cwd (team)."""
    cwd = scenario.workers.cwd if scenario.workers is not None else None
    return WORKSPACE if cwd is None else f"{WORKSPACE}/{Path(cwd).as_posix()}"


def env_values(env: Env, values: Mapping[str, Any]) -> dict[str, str]:
    """Each variable's value: a literal as written, a binding resolved for this run."""
    return {var: value.value if isinstance(value, EnvLiteral) else str(values[value])
            for var, value in env.items()}


def worker_env(scenario: Scenario, bound: Bound, home: str,
               bindings_env: Env | None = None) -> dict[str, str]:
    """The environment of the solution's processes (workers; a runbook with its
    `bindings_env`): the scenario's bindings and what AWS compute provides.

    AWS compute (Lambda, ECS, EC2 with a role) sets both AWS_REGION and AWS_DEFAULT_REGION;
    botocore reads only the second, so both are given, as the prompt says.
    """
    if bindings_env is None:
        assert scenario.workers is not None
        bindings_env = scenario.workers.env
    env = env_values(bindings_env, bound.values)
    return {**env,
            "AWS_ENDPOINT_URL": bound.values[AWS_ENDPOINT],
            "AWS_REGION": aws.REGION, "AWS_DEFAULT_REGION": aws.REGION,
            "PATH": "/usr/bin:/bin", "HOME": home, "PYTHONUNBUFFERED": "1",
            "LANG": "C.UTF-8"}
