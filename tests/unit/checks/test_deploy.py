"""deploy.applies."""

from __future__ import annotations

from kit.checks.deploy import check_deploy_applies

from .builder import HistoryBuilder


def test_pass_when_every_stage_is_ok():
    b = HistoryBuilder(seed=1)
    b.deploy(ok=True, stage="init")
    b.deploy(ok=True, stage="apply")
    r = check_deploy_applies(b.build(), {})
    assert r.verdict == "pass" and "init, apply" in r.summary


def test_fail_names_the_stage_and_first_diagnostic():
    b = HistoryBuilder(seed=1)
    b.deploy(ok=True, stage="init")
    b.deploy(ok=False, stage="apply", diagnostics=[
        {"severity": "error", "summary": "creating RDS DB Instance: InvalidParameterValue"}])
    r = check_deploy_applies(b.build(), {})
    assert r.verdict == "fail"
    assert r.summary == ("deploy failed at stage apply: creating RDS DB Instance: "
                         "InvalidParameterValue")
    assert r.evidence["failed"]["count"] == 1


def test_fail_with_plain_string_diagnostics():
    b = HistoryBuilder(seed=1)
    b.deploy(ok=False, stage="plan", diagnostics=["Error: Unsupported argument"])
    assert check_deploy_applies(b.build(), {}).summary.endswith("Error: Unsupported argument")


def test_kit_caused_failure_is_an_error():
    b = HistoryBuilder(seed=1)
    b.deploy(ok=False, stage="init", kit_error="mirror has hashicorp/aws 6.48.0, solution "
             "asks ~> 5.0")
    r = check_deploy_applies(b.build(), {})
    assert r.verdict == "error" and "mirror has" in r.summary


def test_no_deploy_op_is_an_error():
    b = HistoryBuilder(seed=1)
    b.phase("deploy")
    assert check_deploy_applies(b.build(), {}).verdict == "error"
