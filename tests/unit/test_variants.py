from __future__ import annotations

from pathlib import Path

import pytest

from kit import scenario, variants
from kit.errors import InputError

PATCH = """--- a/versions.tf
+++ b/versions.tf
@@ -1 +1 @@
-old line
+new line
"""


def _variant(tmp_path: Path, yaml_text: str, patch: str | None = PATCH) -> Path:
    d = tmp_path / "v1"
    d.mkdir()
    (d / "variant.yaml").write_text(yaml_text)
    if patch is not None:
        (d / "change.patch").write_text(patch)
    return d


GOOD = """defect: the worker deletes before it commits
why: a crash in between loses the order
fault: worker_crash
must_fail: [delivery.no_loss]
"""


def test_unknown_invariant_names_the_file(tmp_path: Path) -> None:
    d = _variant(tmp_path, GOOD.replace("delivery.no_loss", "delivery.no_typo"))
    with pytest.raises(InputError, match=r"v1/variant.yaml: field must_fail .*no_typo"):
        variants.load(scenario.load("order-pipeline"), d)


def test_unknown_fault_and_missing_fields_name_the_file(tmp_path: Path) -> None:
    d = _variant(tmp_path, GOOD.replace("worker_crash", "meteor"))
    with pytest.raises(InputError, match="variant.yaml: field fault 'meteor'"):
        variants.load(scenario.load("order-pipeline"), d)
    d2 = tmp_path / "v2"
    d2.mkdir()
    (d2 / "variant.yaml").write_text("fault: none\n")
    with pytest.raises(InputError, match="v2/variant.yaml: .*missing field.*defect, why"):
        variants.load(scenario.load("order-pipeline"), d2)


def test_several_invariants_need_a_reason(tmp_path: Path) -> None:
    d = _variant(tmp_path, GOOD.replace("[delivery.no_loss]",
                                        "[delivery.no_loss, recovery.within_rto]"))
    with pytest.raises(InputError, match="field together is required"):
        variants.load(scenario.load("order-pipeline"), d)


def test_an_alternative_must_pass_and_says_how_it_differs(tmp_path: Path) -> None:
    sc = scenario.load("order-pipeline")
    ok = _variant(tmp_path, "alternative: managed policies\nmust_pass: true\n"
                  "faults: [none, db_outage]\n")
    assert variants.load(sc, ok).faults == ("none", "db_outage")
    (ok / "variant.yaml").write_text("must_pass: true\n")
    with pytest.raises(InputError, match="field alternative is required"):
        variants.load(sc, ok)
    (ok / "variant.yaml").write_text("alternative: x\nmust_pass: true\n"
                                     "must_fail: [delivery.no_loss]\n")
    with pytest.raises(InputError, match="has no must_fail"):
        variants.load(sc, ok)
    (ok / "variant.yaml").write_text("alternative: x\nmust_pass: true\nfaults: [meteor]\n")
    with pytest.raises(InputError, match="field faults 'meteor'"):
        variants.load(sc, ok)


def test_patch_that_no_longer_applies_names_the_patch(tmp_path: Path) -> None:
    sc = scenario.load("order-pipeline")
    d = _variant(tmp_path, GOOD)
    v = variants.load(sc, d)
    with pytest.raises(InputError, match=r"change.patch: does not apply"):
        variants.materialize(sc, v, tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_the_covering_sample_names_every_invariant_some_defect_names() -> None:
    from kit.evaluate.validate import covering_sample, plan_rows

    for name in ("order-pipeline", "fifo-ledger"):
        sc = scenario.load(name)
        found = variants.load_all(sc)
        chosen = covering_sample(found)
        assert chosen == covering_sample(list(reversed(found)))  # deterministic
        named = {i for v in found for i in v.must_fail}
        assert {i for v in found if v.name in chosen for i in v.must_fail} == named
        assert len(chosen) < len([v for v in found if not v.must_pass])
        rows = plan_rows(sc, found, sample=True)
        alternatives = [v.name for v in found if v.must_pass]
        assert sorted(r.subject for r in rows if r.subject in alternatives) == sorted(
            alternatives)  # each alternative once
