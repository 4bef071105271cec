"""`make fidelity`: how much real-world Terraform the kit's deploy stage applies to each
emulator, moto and LocalStack.

Every example of fidelity/corpus/ (terraform-aws-modules) and fidelity/vendored/
(the other sources, bench/fidelity_sources.py; see fidelity/README.md) that is in scope
(bench/fidelity_scope.py) goes through the deploy stage as a run does: one sandbox per
emulator with its provider process, the kit's provider override (keeping the example's
regions, each service aimed at the emulator that serves it), then init, apply, its outputs
(read from the state), a plan right after the apply (read-back: it must change nothing but
known divergences, bench/fidelity_readback.py), and destroy. The two emulators run in
parallel processes (FIDELITY_EMULATORS=moto runs one). A failure is classified as a run
classifies it (kit/deploy/terraform.py): `error` names an emulator gap, `fail` keeps
Terraform's diagnostic; `read-back` is an example that applied but did not read back.

Writes bench/fidelity.json, the generated `fidelity` blocks of docs/benchmarks.md and
docs/fidelity.md and the `divergences` block (kit/deploy/divergences.py as tables), and prints
the tables. `FIDELITY_ONLY=sqs,rds/complete-postgres` runs only the examples whose name
contains one of the words (and leaves the documents alone); `FIDELITY_LOGS=DIR` keeps each
failed example's Terraform output there.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import fidelity_readback as readback  # noqa: E402
from bench import fidelity_report as report  # noqa: E402
from bench import fidelity_sources  # noqa: E402
from bench.fidelity_scope import Scope  # noqa: E402
from bench.run import write_block  # noqa: E402
from kit import settings  # noqa: E402
from kit.deploy import terraform  # noqa: E402
from kit.deploy.override import SERVICES  # noqa: E402
from kit.deploy.terraform import DeployFailure, EnvironmentFailure, Terraform  # noqa: E402
from kit.errors import KitError, SolutionError  # noqa: E402
from kit.run.sandbox import Sandbox  # noqa: E402

CORPUS = ROOT / "fidelity" / "corpus"  # terraform-aws-modules (`make corpus`)
VENDORED = ROOT / "fidelity" / "vendored"  # the other sources (bench/fidelity_sources.py)
# Out of scope for a reason no static rule sees (bench/fidelity_scope.py has the rules).
BY_HAND = {
    "vpc/ipam": "needs a staged apply: its README applies aws_vpc_ipam_preview_next_cidr "
                "first (-target), and the deploy stage applies once",
    "serverless-patterns/rds-sns-event-notification-terraform":
        "needs what it does not create: an existing RDS instance, an email address and the "
        "account id, asked for as variables without defaults (its README)",
}
# A host outside the sandbox the deploy tried to reach: the example needs the internet.
# Terraform wraps a diagnostic's detail at its width, so any blank may be a line break.
_INTERNET = re.compile(r"dial tcp: lookup\s+(?P<host>[\w.-]+)(?:\s+on\s+[\d.:]+)?:\s+"
                       r"no\s+such\s+host")
# A provider's selection in a lock file (Terraform, "Dependency Lock File").
_LOCKED = re.compile(r'^provider "registry\.terraform\.io/hashicorp/([\w-]+)" \{\n'
                     r'\s+version\s+=\s+"([^"]+)"', re.M)
_REPOSITORY = re.compile(r"^repository: https://github\.com/(?P<owner>[\w.-]+)/", re.M)
# The bench's own limits: an example of the corpus applies in under two minutes even on a
# loaded machine; one that hangs (LocalStack's external KMS keys never leave Creating) is a
# timeout, the kit's `error`, after five minutes rather than a run's ten.
BENCH_TIMEOUTS = {"apply": 300.0, "destroy": 300.0}
RESULTS = ROOT / "bench" / "fidelity.json"
PAGE = ROOT / "docs" / "fidelity.md"
EMULATORS = ("moto", "localstack")


@dataclass
class Outcome:
    """What happened to one example on one emulator."""

    name: str
    status: str  # passed | failed | out of scope
    source: str = ""  # the publisher (the repository's owner)
    emulator: str = "moto"
    stage: str = ""  # where it failed (read-back: the plan after the apply changes things)
    blame: str = ""  # error (the kit's: an emulator gap) | fail (the example's) | read-back
    cause: str = ""
    pending_changes: list[str] = field(default_factory=list)
    read_back: list[str] = field(default_factory=list)  # known divergences it showed
    seconds: float = 0.0
    timings: dict[str, float] = field(default_factory=dict)


def examples() -> list[Path]:
    """Every vendored example (of the terraform-aws-modules corpus and the other sources)."""
    found = [p.parent for p in CORPUS.glob("*/examples/*/SOURCE")]
    found += [p.parent for p in VENDORED.rglob("SOURCE")] if VENDORED.is_dir() else []
    return sorted(found, key=name_of)


def name_of(example: Path) -> str:
    """'sqs/complete' for .../terraform-aws-sqs/examples/complete, 'learn-terraform-rds'
    for .../hashicorp+learn-terraform-rds, 'serverless-patterns/sns-sqs-terraform'."""
    root = next(p for p in (example, *example.parents) if p.parent.name in ("corpus", "c",
                                                                         "vendored"))
    repo = root.name.split("+", 1)[-1].removeprefix("terraform-aws-")
    rest = [part for part in example.relative_to(root).parts if part != "examples"]
    return "/".join([repo, *rest])


def source_of(example: Path) -> str:
    """The publisher of an example: the owner of the repository its SOURCE names."""
    found = _REPOSITORY.search((example / "SOURCE").read_text())
    return found["owner"] if found else "?"


def first_error(text: str) -> str:
    """The first `Error:` line of Terraform's diagnostics and the line after its summary."""
    lines = [line.strip(" │╷╵") for line in text.splitlines()]
    for i, line in enumerate(lines):
        if line.startswith("Error:"):
            detail = next((x for x in lines[i + 1:] if x and not x.startswith("with ")), "")
            return f"{line} {detail}".strip()[:300]
    return (lines[0] if lines else "")[:300]


def _failed(outcome: Outcome, stage: str, failure: KitError | SolutionError) -> None:
    """Record a failed stage as a run would classify it."""
    outcome.status, outcome.stage = "failed", stage
    outcome.blame = failure.outcome
    if os.environ.get("FIDELITY_LOGS"):
        logs = Path(os.environ["FIDELITY_LOGS"])
        logs.mkdir(parents=True, exist_ok=True)
        name = f"{outcome.emulator}_{outcome.name.replace('/', '_')}.txt"
        (logs / name).write_text(str(failure))
    if isinstance(failure, EnvironmentFailure):
        outcome.cause = failure.reason
    elif isinstance(failure, DeployFailure):
        outcome.cause = first_error(failure.diagnostics)
        reached = _INTERNET.search(failure.diagnostics)
        if reached and not reached["host"].endswith(("127.0.0.1", "localhost")):
            outcome.status, outcome.blame = "out of scope", ""
            outcome.cause = f"needs the internet: reached for {reached['host']} at {stage}"
    else:
        outcome.cause = str(failure)[:300]


def locked_elsewhere(example: Path) -> list[str]:
    """The providers the example's own lock file selects at another version than the
    kit's mirror has, as 'hashicorp/aws 3.32.0 (the mirror: 6.48.0)'."""
    lock = example / ".terraform.lock.hcl"
    text = lock.read_text() if lock.is_file() else ""
    specs = settings.provider_specs()
    return [f"hashicorp/{name} {version} (the mirror: {specs[name]['version']})"
            for name, version in _LOCKED.findall(text)
            if name in specs and specs[name]["version"] != version]


def _blame_the_lock(outcome: Outcome, example: Path) -> None:
    """A stack whose lock file selects other provider versions than the mirror's, blamed
    for a failure on the mirror's: the kit's `error`. `terraform init` installs what the
    lock selects (Terraform, "Dependency Lock File"), so on AWS it runs on those; the kit
    can only run it on its own (a run never reads a lock file, kit/deploy/intake.py)."""
    elsewhere = locked_elsewhere(example)
    if outcome.blame == "fail" and elsewhere:
        outcome.blame = "error"
        outcome.cause = (f"provider versions: its .terraform.lock.hcl selects "
                         f"{', '.join(elsewhere)}; on the mirror's: {outcome.cause}")[:300]


def _read_back(outcome: Outcome, tf: Terraform) -> None:
    """The plan after the apply: known divergences are noted, any other change fails it."""
    logs = os.environ.get("FIDELITY_LOGS")
    keep = Path(logs) / f"{outcome.emulator}_{outcome.name.replace('/', '_')}.plan.json" \
        if logs else None
    if keep is not None:
        keep.parent.mkdir(parents=True, exist_ok=True)
    changes = readback.pending(tf, keep)
    outcome.pending_changes = [str(c) for c in changes]
    outcome.read_back = sorted({c.divergence for c in changes if c.divergence})
    left = readback.unexplained(changes)
    if left:
        outcome.status, outcome.stage, outcome.blame = "failed", "read-back", "read-back"
        outcome.cause = (f"{len(left)} change(s) no known divergence explains: "
                         + "; ".join(str(c) for c in left[:3]))[:300]


def deploy(example: Path, sandbox: Sandbox, outcome: Outcome) -> Outcome:
    """Apply, read back and destroy one example in a reset sandbox."""
    # Terraform copies the example to <workdir>/solution: placed at the depth of the
    # example, its relative module sources (../../) reach the same vendored directories.
    # The name is short: a provider's plugin socket lives under it, and a Unix socket path
    # must fit in 108 bytes (a longer one and the plugin dies before its handshake).
    # A tutorial at a repository's root reaches the vendored module beside it (../<tree>):
    # its copy is made beside it too, in the corpus copy's root (removed after).
    top = example.parent == sandbox.runs_dir / "c"
    workdir = example.parent if top else example.parent.parent / ".run"
    workdir.mkdir(exist_ok=top)
    started = time.perf_counter()
    stage = "configure"
    try:
        tf = Terraform(example, workdir, reattach=sandbox.provider.reattach,
                       provider_cwd=sandbox.provider.cwd,
                       # The corpus: an example's modules reach other vendored repositories.
                       readable=(sandbox.runs_dir / "c",),
                       # No prompt named the kit's versions: a constraint or
                       # required_version the kit cannot meet is its own gap.
                       promised=False)
        routes = sandbox.routes  # as a run aims it: each service at the emulator serving it
        tf.configure(routes.primary.url, endpoints=routes.away_from_primary(SERVICES),
                     region=None)
        for stage, action in (("init", tf.init), ("apply", tf.apply),
                              ("output", tf.outputs), ("plan", lambda: _read_back(outcome, tf)),
                              ("destroy", tf.destroy)):
            begun = time.perf_counter()
            action()
            outcome.timings[stage] = round(time.perf_counter() - begun, 2)
    except (KitError, SolutionError) as failure:
        _failed(outcome, stage, failure)
        _blame_the_lock(outcome, example)
    finally:
        for made in ((workdir / "solution", workdir / "home") if top else (workdir,)):
            shutil.rmtree(made, ignore_errors=True)
    outcome.seconds = round(time.perf_counter() - started, 1)
    return outcome


def run(emulator: str, only: list[str]) -> list[Outcome]:
    """Every example, in scope or not, with its outcome on `emulator`."""
    outcomes: list[Outcome] = []
    chosen = [e for e in examples() if not only or any(word in name_of(e) for word in only)]
    with Sandbox(postgres=False, provider=True, emulator=emulator) as sandbox:
        # In the sandbox's runs directory, which its confined provider may read (a file an
        # example uploads), with a short name (plugin socket paths must fit in 108 bytes).
        corpus = sandbox.runs_dir / "c"
        shutil.copytree(CORPUS, corpus)
        if VENDORED.is_dir():
            shutil.copytree(VENDORED, corpus, dirs_exist_ok=True)
        scope = Scope(corpus)
        clean = True  # the emulators hold nothing of an earlier example
        for original in chosen:
            root = CORPUS if original.is_relative_to(CORPUS) else VENDORED
            example = corpus / original.relative_to(root)
            outcome = Outcome(name_of(example), "passed", source_of(example), emulator)
            try:
                reason = BY_HAND.get(outcome.name) or scope.reason_out_of_scope(example)
            except (KitError, SolutionError) as failure:  # the gate's own reading failed
                outcome.status, outcome.stage = "failed", "gate"
                outcome.blame, outcome.cause = failure.outcome, str(failure)[:300]
                outcomes.append(outcome)
                _kept([outcome])
                print(f"[{emulator}] {report.row(outcome)}", flush=True)
                continue
            if reason:
                outcome.status, outcome.cause = "out of scope", reason
                outcomes.append(outcome)
                _kept([outcome])
                continue
            # moto resets at once. LocalStack restarts to reset (seconds), so only after an
            # example that may have left something: one that did not destroy what it made.
            _reset(sandbox)
            if not clean and sandbox.localstack is not None:
                sandbox.localstack.reset()
            outcomes.append(deploy(example, sandbox, outcome))
            clean = outcome.status == "passed" or outcome.stage == "init"
            _kept([outcome])
            print(f"[{emulator}] {report.row(outcome)}", flush=True)
    return outcomes


def _reset(sandbox: Sandbox, tries: int = 3) -> None:
    """moto reset for the next example; on a loaded machine its answer can take longer
    than the reset's own limit (seen at a load of 50 after an RDS example), which is no
    reason to lose the whole run: tried again, each try with that limit."""
    for attempt in range(tries):
        try:
            sandbox.moto.reset()
            return
        except requests.RequestException:
            if attempt == tries - 1:
                raise


def _kept(outcomes: list[Outcome]) -> None:
    """Append the outcomes to FIDELITY_OUT as they come (one JSON line each): a run cut
    short still leaves what it measured, for FIDELITY_MERGE."""
    if os.environ.get("FIDELITY_OUT"):
        with open(os.environ["FIDELITY_OUT"], "a") as out:
            out.writelines(json.dumps(asdict(o)) + "\n" for o in outcomes)


def _child(emulator: str, only: list[str], out: Path) -> subprocess.Popen[bytes]:
    """This bench on one emulator, in a process of its own (its own sandbox)."""
    env = {**os.environ, "FIDELITY_EMULATOR": emulator, "FIDELITY_OUT": str(out),
           "FIDELITY_ONLY": ",".join(only)}
    return subprocess.Popen([sys.executable, str(Path(__file__).resolve())], env=env)


def run_all(emulators: list[str], only: list[str]) -> list[dict[str, Any]]:
    """Each emulator's run in parallel: their outcomes, moto's first."""
    with tempfile.TemporaryDirectory(prefix="kit-fidelity-") as tmp:
        children = {e: (_child(e, only, Path(tmp) / f"{e}.jsonl"), Path(tmp) / f"{e}.jsonl")
                    for e in emulators}
        # Every child is waited for: one that failed must not end the others' runs (their
        # outcomes went with the temporary directory: LocalStack's 55 of 77 examples).
        failed = [f"{e} (exit {child.returncode})" for e, (child, _) in children.items()
                  if child.wait() != 0]
        if failed:
            kept = Path(tempfile.mkdtemp(prefix="kit-fidelity-kept-"))
            for _, out in children.values():
                if out.exists():
                    shutil.copy(out, kept / out.name)
            raise SystemExit(f"the fidelity bench's run failed on {', '.join(failed)}; what "
                             f"each run measured is kept in {kept} (FIDELITY_MERGE=...)")
        return merged([out for _, out in children.values()])


def merged(paths: list[Path]) -> list[dict[str, Any]]:
    """The outcomes kept in these files (a JSON list or JSON lines each); an example run
    again in a later file replaces its earlier outcome on that emulator."""
    found: dict[tuple[str, str], dict[str, Any]] = {}
    for path in paths:
        text = path.read_text() if path.exists() else ""
        rows = json.loads(text) if text.startswith("[") else \
            [json.loads(line) for line in text.splitlines() if line.strip()]
        found |= {(row["emulator"], row["name"]): row for row in rows}
    return sorted(found.values(), key=lambda row: row["name"])


def missing_sources() -> list[str]:
    """The other sources (bench/fidelity_sources.py) this checkout has not vendored."""
    return [s.repo for s in fidelity_sources.SOURCES
            if not (VENDORED / s.repo.replace("/", "+")).is_dir()]


def write(outcomes: list[dict[str, Any]], wall: float) -> None:
    """bench/fidelity.json and the generated blocks of docs/benchmarks.md and docs/fidelity.md."""
    runs = report.by_emulator(outcomes)
    RESULTS.write_text(json.dumps({
        "when": time.strftime("%Y-%m-%d"), "wall_seconds": round(wall, 1),
        "score": {e: report.score(mine) for e, mine in runs.items()},
        "missing_sources": missing_sources(), "examples": outcomes}, indent=2) + "\n")
    scores = report.scores(outcomes, missing_sources())
    write_block("fidelity", report.summary(outcomes, wall) + "\n" + scores + "\n"
                + report.examples_table(outcomes))
    write_block("divergences", report.divergences_markdown())
    write_block("fidelity", "Fidelity score per source and emulator: in-scope examples of "
                "real-world Terraform applied, read back and destroyed (`make fidelity`; "
                "table in [docs/benchmarks.md](benchmarks.md#fidelity)).\n\n" + scores
                + "\nEach remaining failure, as a run classifies it (`read-back`: applied, "
                "but a plan right after the apply still changes what no known divergence "
                "explains):\n\n" + report.remaining(outcomes), PAGE)
    print(f"written: {RESULTS}, docs/benchmarks.md, docs/fidelity.md")


def main() -> None:
    """Run the corpus on both emulators in parallel; write the results and the blocks."""
    only = [w for w in os.environ.get("FIDELITY_ONLY", "").split(",") if w]
    if os.environ.get("FIDELITY_EMULATOR"):  # one emulator's run (a child of the below)
        terraform.TIMEOUTS.update(BENCH_TIMEOUTS)
        run(os.environ["FIDELITY_EMULATOR"], only)
        return
    if os.environ.get("FIDELITY_MERGE"):  # runs made apart: FIDELITY_OUT files, in order
        outcomes = merged([Path(p) for p in os.environ["FIDELITY_MERGE"].split(",")])
        write(outcomes, float(os.environ.get("FIDELITY_WALL", "0")))
        return
    emulators = [e for e in os.environ.get("FIDELITY_EMULATORS", ",".join(EMULATORS))
                 .split(",") if e]
    started = time.perf_counter()
    outcomes = run_all(emulators, only)
    wall = time.perf_counter() - started
    print(report.summary(outcomes, wall), report.scores(outcomes, missing_sources()),
          report.examples_table(outcomes), sep="\n")
    if not only and emulators == list(EMULATORS):
        write(outcomes, wall)


if __name__ == "__main__":
    main()
