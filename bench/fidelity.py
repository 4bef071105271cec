"""`make fidelity`: how much real-world Terraform the kit's deploy stage applies to moto.

Every example of fidelity/corpus/ (vendored terraform-aws-modules examples, see
fidelity/README.md) that is in scope (bench/fidelity_scope.py) goes through the deploy
stage as a run does: one sandbox with its provider process, moto reset before each
example, the kit's provider override (keeping the example's regions), then init, apply,
its outputs (read from the state), a plan whose pending changes are reported (a stack
that reads back as declared has none), and destroy. A failure is classified as a run classifies it
(kit/deploy/terraform.py): `error` names an emulator gap, `fail` keeps Terraform's
diagnostic.

Writes bench/fidelity.json, the generated `fidelity` blocks of docs/benchmarks.md and
README.md and the `divergences` block (kit/deploy/divergences.py as a table), and prints
the table. `FIDELITY_ONLY=sqs,rds/complete-postgres` runs only the examples whose name
contains one of the words (and leaves the documents alone); `FIDELITY_LOGS=DIR` keeps each
failed example's Terraform output there.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.fidelity_scope import Scope  # noqa: E402
from bench.run import write_block  # noqa: E402
from kit.deploy import divergences  # noqa: E402
from kit.deploy.terraform import DeployFailure, EnvironmentFailure, Terraform  # noqa: E402
from kit.errors import KitError, SolutionError  # noqa: E402
from kit.sandbox import Sandbox  # noqa: E402

CORPUS = ROOT / "fidelity" / "corpus"
# Out of scope for a reason no static rule sees (bench/fidelity_scope.py has the rules).
BY_HAND = {
    "vpc/ipam": "needs a staged apply: its README applies aws_vpc_ipam_preview_next_cidr "
                "first (-target), and the deploy stage applies once",
}
# A host outside the sandbox the deploy tried to reach: the example needs the internet.
_INTERNET = re.compile(r"dial tcp: lookup (?P<host>[\w.-]+)(?: on [\d.:]+)?: no such host")
RESULTS = ROOT / "bench" / "fidelity.json"
README = ROOT / "README.md"


@dataclass
class Outcome:
    """What happened to one example."""

    name: str
    status: str  # passed | failed | out of scope
    stage: str = ""  # where it failed
    blame: str = ""  # error (the kit's: an emulator gap) | fail (the example's)
    cause: str = ""
    pending_changes: list[str] = field(default_factory=list)
    seconds: float = 0.0
    timings: dict[str, float] = field(default_factory=dict)


def examples() -> list[Path]:
    """Every vendored example, sorted by name."""
    return sorted(p.parent for p in CORPUS.glob("*/examples/*/SOURCE"))


def name_of(example: Path) -> str:
    """'sqs/complete' for fidelity/corpus/terraform-aws-sqs/examples/complete."""
    return f"{example.parent.parent.name.removeprefix('terraform-aws-')}/{example.name}"


def first_error(text: str) -> str:
    """The first `Error:` line of Terraform's diagnostics and the line after its summary."""
    lines = [line.strip(" │╷╵") for line in text.splitlines()]
    for i, line in enumerate(lines):
        if line.startswith("Error:"):
            detail = next((x for x in lines[i + 1:] if x and not x.startswith("with ")), "")
            return f"{line} {detail}".strip()[:300]
    return (lines[0] if lines else "")[:300]


def deploy(example: Path, sandbox: Sandbox) -> Outcome:
    """Apply, read back and destroy one example in a reset sandbox."""
    outcome = Outcome(name_of(example), "passed")
    # Terraform copies the example to <workdir>/solution: placed at the depth of the
    # example, its relative module sources (../../) reach the same vendored directories.
    # The name is short: a provider's plugin socket lives under it, and a Unix socket path
    # must fit in 108 bytes (a longer one and the plugin dies before its handshake).
    workdir = example.parent.parent / ".run"
    workdir.mkdir()
    sandbox.moto.reset()
    started = time.perf_counter()
    stage = "configure"
    try:
        tf = Terraform(example, workdir, reattach=sandbox.provider.reattach,
                       provider_cwd=sandbox.provider.cwd,
                       # The corpus: an example's modules reach other vendored repositories.
                       readable=(example.parents[2],),
                       # No prompt named the kit's versions: a constraint or
                       # required_version the kit cannot meet is its own gap.
                       promised=False)
        tf.configure(sandbox.moto.url, region=None)
        for stage, action in (("init", tf.init), ("apply", tf.apply),
                              ("output", tf.outputs), ("plan", tf.pending_changes),
                              ("destroy", tf.destroy)):
            begun = time.perf_counter()
            result = action()
            outcome.timings[stage] = round(time.perf_counter() - begun, 2)
            if stage == "plan":
                outcome.pending_changes = list(result)
    except (KitError, SolutionError) as failure:
        outcome.status, outcome.stage = "failed", stage
        outcome.blame = failure.outcome
        if os.environ.get("FIDELITY_LOGS"):
            logs = Path(os.environ["FIDELITY_LOGS"])
            logs.mkdir(parents=True, exist_ok=True)
            (logs / f"{outcome.name.replace('/', '_')}.txt").write_text(str(failure))
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
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    outcome.seconds = round(time.perf_counter() - started, 1)
    return outcome


def run(only: list[str]) -> list[Outcome]:
    """Every example, in scope or not, with its outcome."""
    outcomes: list[Outcome] = []
    chosen = [e for e in examples() if not only or any(word in name_of(e) for word in only)]
    with Sandbox(postgres=False, provider=True) as sandbox:
        # In the sandbox's runs directory, which its confined provider may read (a file an
        # example uploads), with a short name (plugin socket paths must fit in 108 bytes).
        corpus = sandbox.runs_dir / "c"
        shutil.copytree(CORPUS, corpus)
        scope = Scope(corpus)
        for original in chosen:
            example = corpus / original.relative_to(CORPUS)
            reason = BY_HAND.get(name_of(example)) or scope.reason_out_of_scope(example)
            if reason:
                outcomes.append(Outcome(name_of(example), "out of scope", cause=reason))
                continue
            outcomes.append(deploy(example, sandbox))
            print(_row(outcomes[-1]), flush=True)
    return outcomes


def _row(o: Outcome) -> str:
    cause = f"{o.blame} at {o.stage}: {o.cause}" if o.status == "failed" else o.cause
    if o.pending_changes:
        cause = (cause + "; " if cause else "") + "plan after apply: " + \
            ", ".join(o.pending_changes[:3]) + (" …" if len(o.pending_changes) > 3 else "")
    cause = cause.replace("|", "\\|").replace("\n", " ")
    seconds = f"{o.seconds:.1f}" if o.status != "out of scope" else "–"
    return f"| {o.name} | {o.status} | {cause} | {seconds} |"


def score(outcomes: list[Outcome]) -> tuple[int, int]:
    """(applied and destroyed, in scope)."""
    in_scope = [o for o in outcomes if o.status != "out of scope"]
    return sum(o.status == "passed" for o in in_scope), len(in_scope)


def markdown(outcomes: list[Outcome], wall: float) -> str:
    """The generated table of docs/benchmarks.md."""
    passed, in_scope = score(outcomes)
    failed = [o for o in outcomes if o.status == "failed"]
    errors = sum(o.blame == "error" for o in failed)
    drift = sum(bool(o.pending_changes) for o in outcomes if o.status == "passed")
    lines = [f"Measured {time.strftime('%Y-%m-%d')} with `make fidelity` ({wall:.0f} s wall "
             f"time, {os.cpu_count()} cores). **Score: {passed}/{in_scope}** in-scope examples "
             f"applied and destroyed; {len(outcomes) - in_scope} out of scope. Of the "
             f"{len(failed)} that failed, {errors} are the kit's `error` (an emulator gap, "
             f"named) and {len(failed) - errors} `fail` (Terraform's own diagnostic: a gap "
             f"the kit does not know yet, or an example AWS would reject too). {drift} "
             "applied and destroyed but planned changes right after the apply (the emulator "
             "reads something back differently).", "",
             "| example | result | cause | seconds |", "| --- | --- | --- | --- |"]
    lines += [_row(o) for o in outcomes]
    return "\n".join(lines) + "\n"


def remaining(outcomes: list[Outcome]) -> str:
    """One line per in-scope example that did not pass: its blame and cause."""
    lines = [f"- `{o.name}`: `{o.blame}` at {o.stage}: {o.cause.replace('|', '/')[:200]}"
             for o in outcomes if o.status == "failed"]
    return "\n".join(lines or ["- none"]) + "\n"


def divergences_markdown() -> str:
    """The table of known divergences (kit/deploy/divergences.py) for docs/benchmarks.md."""
    lines = ["| gap | what moto does, and AWS | AWS accepts it | seen in |",
             "| --- | --- | --- | --- |"]
    lines += [f"| `{d.name}` | {d.gap} | {'yes' if d.aws_accepts else 'no'} | {d.seen_in} |"
              for d in divergences.KNOWN]
    return "\n".join(lines) + "\n"


def main() -> None:
    """Run the corpus; write the results and the generated blocks."""
    only = [w for w in os.environ.get("FIDELITY_ONLY", "").split(",") if w]
    started = time.perf_counter()
    outcomes = run(only)
    wall = time.perf_counter() - started
    text = markdown(outcomes, wall)
    print(text)
    if only:
        return
    RESULTS.write_text(json.dumps({"when": time.strftime("%Y-%m-%d"), "wall_seconds":
                                   round(wall, 1), "score": score(outcomes),
                                   "examples": [asdict(o) for o in outcomes]}, indent=2) + "\n")
    write_block("fidelity", text)
    write_block("divergences", divergences_markdown())
    passed, in_scope = score(outcomes)
    write_block("fidelity", f"Fidelity score: **{passed}/{in_scope}** in-scope examples of "
                "real-world Terraform applied and destroyed (`make fidelity`; table in "
                "[docs/benchmarks.md](docs/benchmarks.md#fidelity)). Each remaining gap, as "
                "a run classifies it:\n\n" + remaining(outcomes), README)
    print(f"written: {RESULTS}, docs/benchmarks.md, README.md")


if __name__ == "__main__":
    main()
