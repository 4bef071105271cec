"""The kit installed from a wheel, outside its checkout: `pip wheel` builds it from the
checkout's files (as `pip install <git URL or path>` does), the wheel carries the shipped
scenarios, goldens, variants and modules but no tests/ or corpus, and a fresh venv in tmp
runs `kit eval order-pipeline --fault none` from a directory outside the checkout through
action.yml's own Check step; `kit comment` then posts that run's summary to a fake GitHub
API, and the action's JUnit and artifact paths find the run's files."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
import yaml

from tests import fakegithub
from tests.conftest import ROOT
from tests.integration.conftest import traversable_tmp

tmp_path = traversable_tmp("kit-wheel-")
SHIPPED = ("scenarios", "golden", "variants", "modules")


def _checkout_copy(target: Path) -> Path:
    """The checkout's tracked and new files (what a clone of this tree holds), no build
    leftovers: the wheel is built from what a `pip install <git URL>` would see."""
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT,
                            capture_output=True, check=True).stdout.decode().split("\0")
    for rel in filter(None, listed):
        source = ROOT / rel
        if source.is_file() and not source.is_symlink():
            (target / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / rel)
    return target


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The kit's wheel, built with the kit's venv's setuptools (no index)."""
    base = tmp_path_factory.mktemp("wheel")
    source = _checkout_copy(base / "src")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                    "--quiet", "-w", str(base / "dist"), str(source)], check=True)
    (found,) = (base / "dist").glob("kit-*.whl")
    return found


def test_wheel_ships_the_scenarios_and_nothing_of_the_repository(wheel: Path):
    names = zipfile.ZipFile(wheel).namelist()
    tracked = subprocess.run(["git", "ls-files", *SHIPPED], cwd=ROOT, capture_output=True,
                             text=True, check=True).stdout.split()
    missing = [p for p in tracked if f"kit/_shipped/{p}" not in names]
    assert not missing, f"shipped files absent from the wheel: {missing[:5]}"
    assert "kit/_shipped/scenarios/order-pipeline/scenario.yaml" in names
    assert "kit/skeleton/scenario.yaml" in names and "kit/cli/parser.py" in names
    outside = [n for n in names if not n.startswith(("kit/", "kit-"))]
    assert not outside, f"the wheel holds files outside the package: {outside[:5]}"
    # The checkout's other trees (the kit's own kit/sandbox/fidelity/ package is code).
    for tree in ("tests", "fidelity", "bench", "examples", "docs"):
        held = [n for n in names if n.startswith((f"{tree}/", f"kit/_shipped/{tree}/"))]
        assert not held, f"the wheel holds the checkout's {tree}/: {held[:3]}"
    assert not [n for n in names if "corpus" in n or "__pycache__" in n]


def _fresh_venv(where: Path, wheel: Path) -> Path:
    """A venv in tmp with the wheel installed by pip (--no-deps) and the dependencies of the
    kit's own venv on its path (a .pth line: that directory's own .pth files, the kit's
    editable finder among them, are not run, so no module of the checkout is importable).
    An install from the index would take minutes on a shared machine and proves nothing
    more about the package; `pip check` proves the wheel's requirements are met."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(where)], check=True)
    python = where / "bin" / "python"
    site = subprocess.run([str(python), "-c", "import sysconfig; "
                           "print(sysconfig.get_path('purelib'))"], capture_output=True,
                          text=True, check=True).stdout.strip()
    deps = [p for p in sys.path if p.endswith("site-packages") and Path(p).is_dir()]
    Path(site, "kit-test-deps.pth").write_text("\n".join(deps) + "\n")
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--no-deps",
                    "--disable-pip-version-check", str(wheel)], check=True)
    subprocess.run([str(python), "-m", "pip", "check", "--disable-pip-version-check"],
                   check=True)
    return where / "bin"


def _check_step() -> str:
    """The bash of action.yml's Check step, as the runner would run it."""
    steps = yaml.safe_load((ROOT / "action.yml").read_text())["runs"]["steps"]
    (step,) = [s for s in steps if s.get("id") == "check"]
    return step["run"]


def test_installed_wheel_runs_the_action_check_outside_the_checkout(wheel: Path,
                                                                   tmp_path: Path):
    bin_dir = _fresh_venv(tmp_path / "venv", wheel)
    elsewhere = tmp_path / "team"
    elsewhere.mkdir()
    where = subprocess.run([str(bin_dir / "python"), "-c", "import kit, kit.scenario as s; "
                            "print(kit.__file__, s.ROOT)"], cwd=elsewhere, capture_output=True,
                           text=True, check=True).stdout.split()
    assert all(not Path(p).is_relative_to(ROOT) for p in where), where
    assert where[1].endswith("kit/_shipped"), where
    listed = subprocess.run([str(bin_dir / "kit"), "list", "--names"], cwd=elsewhere,
                            capture_output=True, text=True, check=True).stdout.split()
    assert {"order-pipeline", "fifo-ledger", "iam-boundary", "rds-recovery"} <= set(listed)
    outputs = tmp_path / "github_output"
    inputs = {"SCENARIO": "order-pipeline", "ROOT": ".kit", "SOLUTION": "", "BASELINE": "",
              "FAULT": "none", "ARGS": "", "OUT": "kit-reports"}
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
           "GITHUB_OUTPUT": str(outputs), **{f"KIT_ACTION_{k}": v for k, v in inputs.items()}}
    env.pop("VIRTUAL_ENV", None)
    # As the runner runs a step's `run` (shell: bash).
    done = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c",
                           _check_step()], cwd=elsewhere, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "exit-code=0" in outputs.read_text(), done.stderr[-3000:]
    # The action's artifact path and JUnit glob (inputs.out = kit-reports) find the run.
    (junit,) = elsewhere.glob("kit-reports/**/junit.xml")
    report = json.loads((junit.parent / "report.json").read_text())
    assert report["outcome"] == "pass" and [r["fault"] for r in report["runs"]] == ["none"]
    assert "order-pipeline" in junit.read_text()
    _comment_from_the_installed_kit(bin_dir, elsewhere, env)


def _comment_from_the_installed_kit(bin_dir: Path, cwd: Path, env: dict[str, str]) -> None:
    """`kit comment` of the installed kit posts the run's summary once."""
    event = cwd / "event.json"
    event.write_text(json.dumps({"number": 4, "pull_request": {"number": 4}}))
    with fakegithub.serve("acme/infra") as (api, state):
        github = {**env, "GITHUB_API_URL": api, "GITHUB_REPOSITORY": "acme/infra",
                  "GITHUB_EVENT_PATH": str(event), "GITHUB_TOKEN": "t"}
        for _ in range(2):
            subprocess.run([str(bin_dir / "kit"), "comment", "--report", "kit-reports"],
                           cwd=cwd, env=github, check=True, capture_output=True)
    (posted,) = state.on(4)
    assert "order-pipeline" in posted["body"] and "<!-- kit-pr-check:kit -->" in posted["body"]
