from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from kit import scenario
from kit.errors import InputError

GOOD = scenario.SCENARIOS / "order-pipeline" / "scenario.yaml"


def _write(tmp_path: Path, data: object) -> Path:
    path = tmp_path / "scenario.yaml"
    path.write_text(yaml.safe_dump(data) if not isinstance(data, str) else data)
    shutil.copy(GOOD.with_name("workload.py"), tmp_path)
    return path


def test_shipped_scenario_loads_with_every_invariant_parameterised() -> None:
    sc = scenario.load("order-pipeline")
    assert sc.params["recovery.within_rto"]["rto_seconds"] == 30
    assert "none" in sc.faults


@pytest.mark.parametrize("mutate, field", [
    (lambda d: d["faults"]["db_outage"].update(duration_seconds=-1),
     "faults.db_outage.duration_seconds"),
    (lambda d: d["faults"]["db_outage"].update(kind="meteor"),
     "faults.db_outage.kind: unknown fault kind 'meteor'; known: none, worker_crash"),
    (lambda d: d["workload"]["params"].pop("orders"), "workload.params.orders"),
    (lambda d: d["workers"]["env"].update(DATABASE_URL="database.mian.url"),
     "workers.env.DATABASE_URL: unknown binding 'database.mian.url'"),
    (lambda d: d["workers"]["env"].update(X="queue.orders.colour"),
     "workers.env.X: unknown binding 'queue.orders.colour': a queue has url, arn, name"),
    (lambda d: d["workers"]["env"].update(X="outputs.nope"),
     "workers.env.X: unknown binding 'outputs.nope'"),
    (lambda d: d["contract"]["variables"].update(x="outputs.queue_url"),
     "contract.variables.x: 'outputs.queue_url': outputs.* is not available here"),
    (lambda d: d["resources"].update({"queue": {"url": "outputs.queue_url"}}),
     "resources.queue: 'queue' is not `<kind>.<name>`"),
    (lambda d: d["workload"]["producer"].update(queue="queue.nope"),
     "workload.producer.queue: 'queue.nope' is not a declared queue"),
    (lambda d: d["faults"]["db_outage"].update(target="queue.orders"),
     "faults.db_outage.target: network_outage aims at a database or endpoint.aws"),
    (lambda d: d["faults"]["db_outage"].update(target="database.other"),
     "faults.db_outage.target"),
    (lambda d: d["faults"]["db_latency"]["params"].update(latency_ms="slow"),
     "faults.db_latency.params.latency_ms"),
    (lambda d: d["faults"]["worker_crash"]["params"].update(kill_signal=9),
     "faults.worker_crash.params.kill_signal"),
    (lambda d: d["faults"]["db_outage"].update(duration_seconds=0),
     "faults.db_outage.duration_seconds: network_outage holds for a window"),
    (lambda d: d["messages"].update(key="nope"), "messages"),
    (lambda d: d["invariants"].update({"delivery.no_typo": {}}), "delivery.no_typo"),
    (lambda d: d["invariants"].update({"recovery.within_rto": {"rto_secs": 3}}),
     "rto_secs"),
    (lambda d: d.update(surprise=1), "surprise"),
    (lambda d: d["faults"].update(deny={"kind": "resource_deny", "target": "queue.orders",
                                         "duration_seconds": 5,
                                         "params": {"actions": ["sqs:*"],
                                                    "principal": "role.nobody"}}),
     "faults.deny.params: 'role.nobody' is not a declared resource"),
    (lambda d: d["faults"].update(deny={"kind": "resource_deny", "target": "queue.orders",
                                         "duration_seconds": 5,
                                         "params": {"actions": ["sqs:*"],
                                                    "principal": "queue.dlq"}}),
     "faults.deny.params.principal"),
    (lambda d: d["faults"].update(rollback={"kind": "policy_rollback", "target": "queue.dlq",
                                             "duration_seconds": 5,
                                             "params": {"without": ["sqs:*"]}}),
     "faults.rollback.target: policy_rollback aims at a policy or role"),
    (lambda d: d["workload"]["effects"].update(bucket="bucket.results"),
     "workload.effects: Value error, give exactly one store: database and table, bucket"),
    (lambda d: d["workload"].update(effects={"bucket": "bucket.nope"}),
     "workload.effects.bucket: 'bucket.nope' is not a declared bucket"),
    (lambda d: d["workload"].update(events="queue.orders"),
     "workload.events: 'queue.orders' is not a declared topic"),
    (lambda d: d["faults"].update(narrow={"kind": "boundary_tightened",
                                           "target": "role.worker", "duration_seconds": 5}),
     "faults.narrow.params.revoke: Field required"),
    (lambda d: d["invariants"]["delivery.retention"].update(queues={"queue.nope": 60}),
     "invariants.delivery.retention.queues.queue.nope: 'queue.nope' is not a declared queue"),
    (lambda d: d["invariants"]["delivery.retention"].update(queues={"database.main": 60}),
     "invariants.delivery.retention.queues.database.main: 'database.main' is not a declared "
     "queue"),
    (lambda d: d["invariants"]["delivery.retention"].update(queues={"queue.orders": 59}),
     "invariants.delivery.retention.queues.queue.orders: 59 is not a retention SQS accepts: "
     "give whole seconds from 60 to 1209600"),
    (lambda d: d["invariants"]["delivery.retention"].update(queues={"queue.dlq": 1_209_601}),
     "from 60 to 1209600"),
    (lambda d: d["toolchain"].update(allowed_providers=["hashicorp/aws", "hashicorp/cloudinit"]),
     "toolchain: Value error, allowed_providers: hashicorp/cloudinit is not in the kit's "
     "provider mirror"),
])
def test_schema_errors_name_the_file_and_field(tmp_path: Path, mutate, field: str) -> None:  # noqa: ANN001
    data = yaml.safe_load(GOOD.read_text())
    mutate(data)
    with pytest.raises(InputError) as caught:
        scenario.load(_write(tmp_path, data))
    assert str(tmp_path / "scenario.yaml") in str(caught.value)
    assert field in str(caught.value)


def test_malformed_yaml_names_the_file(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="not valid YAML"):
        scenario.load(_write(tmp_path, "name: [unclosed\n"))
    with pytest.raises(InputError, match="expected a mapping"):
        scenario.load(_write(tmp_path, "- a list\n"))


DRILL = scenario.SCENARIOS / "rds-recovery" / "scenario.yaml"


@pytest.mark.parametrize("mutate, field", [
    (lambda d: d.pop("rds"), "a drill needs `rds`"),
    (lambda d: d["workload"].pop("drill"), "a drill workload needs drill"),
    (lambda d: d["workload"].update(producer={"role": "role.app", "queue": "queue.x"}),
     "producer belong to another workload kind than 'drill'"),
    (lambda d: d["workload"]["drill"]["app"].update(endpoint="role.app"),
     "workload.drill.app.endpoint: 'role.app' is not a declared secret"),
    (lambda d: d["workload"]["drill"]["app"].update(standby_endpoint="secret.other"),
     "workload.drill.app.standby_endpoint: 'secret.other' is not a declared secret"),
    (lambda d: d["workload"]["drill"]["runbook"]["env"].update(X="database.main.colour"),
     "workload.drill.runbook.env.X: unknown binding 'database.main.colour'"),
    (lambda d: d["rds"].update(failover_seconds=-1), "rds.failover_seconds"),
    (lambda d: d["faults"]["bad_migration"]["params"].update(statement=""),
     "faults.bad_migration.params.statement"),
    (lambda d: d["faults"]["az_loss"].update(target="role.app"),
     "faults.az_loss.target: az_loss aims at a database"),
    (lambda d: d["workload"]["drill"]["app"].update(alternate_user="_clone"),
     "alternate_user is created beside the provisioned user"),
    (lambda d: d["workload"]["drill"]["app"].update(
        alternate_user="_b; drop", credentials="secret", provision_user=True),
     "workload.drill.app.alternate_user"),
])
def test_a_bad_drill_field_is_named(tmp_path: Path, mutate, field: str) -> None:
    data = yaml.safe_load(DRILL.read_text())
    mutate(data)
    path = tmp_path / "scenario.yaml"
    path.write_text(yaml.safe_dump(data))
    shutil.copy(DRILL.with_name("workload.py"), tmp_path)
    with pytest.raises(InputError) as err:
        scenario.load(path)
    assert field in str(err.value)


def test_services_are_derived_from_resources_faults_and_the_field() -> None:
    sc = scenario.load("order-pipeline")
    assert sc.aws_services == ("iam", "kms", "rds", "sqs", "sts")


def test_an_unknown_extra_service_names_the_field(tmp_path: Path) -> None:
    source = (scenario.SCENARIOS / "order-pipeline" / "scenario.yaml").read_text()
    folder = tmp_path / "scenarios" / "order-pipeline"
    folder.mkdir(parents=True)
    (folder / "scenario.yaml").write_text(source.replace("services: [kms]",
                                                         "services: [kms, nosuch]"))
    for name in ("workload.py", "prompt.md"):
        (folder / name).write_text((scenario.SCENARIOS / "order-pipeline" / name).read_text())
    with pytest.raises(InputError, match="field services: unknown AWS service 'nosuch'"):
        scenario.load(folder / "scenario.yaml")
