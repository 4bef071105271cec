"""The offline toolchain: Terraform/OpenTofu, the provider mirror, Toxiproxy and PostgreSQL.

Providers are built from the Go module proxy because `terraform init` cannot reach a
registry here. Builds run in a wrapper module (the provider's go.mod may carry `replace`
lines that `go install` refuses), write to a `.partial` file and are renamed into the
mirror only when complete, so an interrupted build never leaves a broken binary behind and
a rerun resumes from Go's build cache.

The package is the kit's foundation for what it runs rather than imports: this module
(where each tool is, `kit setup`), the provider's build-time edits (provider_patches,
provider_trim), LocalStack's install (localstack_install) and the workers' Python
(runtime). It imports only kit.settings and kit.errors, so the sandbox, the RDS data
plane, deploy and the workload all build on it (tests/unit/test_layers.py).
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
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from kit import settings
from kit.errors import ToolchainError
from kit.toolchain import emulators, provider_patches, runtime

Log = Callable[[str], None]
PATCHES = {"aws": provider_patches.AWS}
PLATFORM = "linux_amd64"


@dataclass(frozen=True)
class Piece:
    """One toolchain piece: what it is, where it was found, and how to fix it if missing."""

    name: str
    found: str | None
    fix: str

    @property
    def ok(self) -> bool:
        return self.found is not None


def provider_path(name: str, version: str, host: str = settings.REGISTRY_HOSTS[0]) -> Path:
    """Where a provider binary lives in the unpacked filesystem mirror."""
    return (
        settings.mirror_dir() / host / "hashicorp" / name / version / PLATFORM
        / f"terraform-provider-{name}_v{version}_x5"
    )


def postgres_bindir() -> Path | None:
    """Directory holding `initdb` and `postgres` (Debian layout first, then PATH)."""
    for candidate in sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True):
        if (candidate / "postgres").exists() and (candidate / "initdb").exists():
            return candidate
    found = shutil.which("postgres")
    if found and shutil.which("initdb"):
        return Path(found).parent
    return None


def toxiproxy_binary() -> Path | None:
    """The toxiproxy server binary: the kit's build, else `toxiproxy-server` on PATH."""
    built = settings.bin_dir() / "toxiproxy-server"
    if built.exists():
        return built
    found = shutil.which("toxiproxy-server")
    return Path(found) if found else None


def pieces() -> list[Piece]:
    """Every piece a run needs, each with the command that fixes it when missing."""
    setup = "make setup"
    aws = provider_path("aws", settings.AWS_PROVIDER["version"])
    rnd = provider_path("random", settings.RANDOM_PROVIDER["version"])
    pg = postgres_bindir()
    return [
        Piece("moto (the emulator, at the release the kit's fixes are written for)",
              emulators.found(), "; ".join(emulators.drift())),
        Piece("terraform or tofu", settings.terraform_binary(),
              f"{setup}  (builds OpenTofu from the Go module proxy)"),
        Piece("go (to build providers)", shutil.which("go"),
              "install Go >= 1.26, or on a machine with internet set KIT_PROVIDERS=registry"),
        Piece(f"hashicorp/aws {settings.AWS_PROVIDER['version']} in mirror",
              str(aws) if provider_current("aws", settings.AWS_PROVIDER) or registry_mode()
              else None,
              f"{setup}  (cold build: 30-60 min, resumable)"),
        Piece(f"hashicorp/random {settings.RANDOM_PROVIDER['version']} in mirror",
              str(rnd) if provider_current("random", settings.RANDOM_PROVIDER)
              or registry_mode() else None, setup),
        *(Piece(f"hashicorp/{name} {spec['version']} in mirror",
                str(provider_path(name, spec["version"])) if provider_current(name, spec)
                or registry_mode() else None, setup)
          for name, spec in settings.utility_specs().items()),
        Piece("toxiproxy-server", _str(toxiproxy_binary()), setup),
        Piece("postgresql server (initdb, postgres)", _str(pg),
              "apt-get update && apt-get install -y postgresql"),
        Piece("unprivileged user 'postgres' (initdb refuses root)",
              "postgres" if _user_exists("postgres") or os.geteuid() != 0 else None,
              "apt-get install -y postgresql  (creates the user)"),
        Piece("bubblewrap (bwrap: the sandboxes)", shutil.which("bwrap"),
              f"{setup}  (as root: apt-get install -y bubblewrap)"),
        Piece("worker runtime (python 3.11, boto3, psycopg)", _runtime_found(),
              f"{setup}  (a venv in {runtime.location()})"),
    ]


def _runtime_found() -> str | None:
    found = runtime.manifest()
    return (f"{found['python']} (python {found['version']}, "
            + ", ".join(f"{n} {v}" for n, v in found["packages"].items()) + ")") if found else None


def _str(path: Path | None) -> str | None:
    return str(path) if path else None


def _user_exists(name: str) -> bool:
    import pwd

    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True


def registry_mode() -> bool:
    # On a machine with internet and no Go: providers come from the registry into a cache.
    return os.environ.get("KIT_PROVIDERS") == "registry"


def write_cli_config() -> Path:
    """Write the kit's own Terraform CLI config (offline mirror, or registry + plugin cache)."""
    path = settings.cli_config_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    plugin_cache = settings.cache_dir() / "plugin-cache"
    plugin_cache.mkdir(parents=True, exist_ok=True)
    if registry_mode():
        body = f'plugin_cache_dir = "{plugin_cache}"\n'
    else:
        hosts = ", ".join(f'"{h}/hashicorp/*"' for h in settings.REGISTRY_HOSTS)
        body = (
            "provider_installation {\n"
            f'  filesystem_mirror {{\n    path = "{settings.mirror_dir()}"\n'
            f"    include = [{hosts}]\n  }}\n"
            f"  direct {{\n    exclude = [{hosts}]\n  }}\n"
            "}\n"
        )
    if path.exists() and path.read_text() == body:
        return path
    # A temp file of its own: parallel runs (validate --jobs) write this at the same time.
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".terraform-rc-")
    with os.fdopen(fd, "w") as out:
        out.write(body)
    os.chmod(tmp, 0o644)
    os.replace(tmp, path)
    return path


def _run(cmd: list[str], cwd: Path, log: Log, logfile: Path, env: dict[str, str]) -> None:
    log(f"$ {' '.join(cmd)}  (output: {logfile})")
    with logfile.open("a") as out:
        proc = subprocess.run(cmd, cwd=cwd, stdout=out, stderr=subprocess.STDOUT, env=env)
    if proc.returncode != 0:
        tail = "\n".join(logfile.read_text().splitlines()[-30:])
        raise ToolchainError(f"`{' '.join(cmd)}` failed (exit {proc.returncode}):\n{tail}")


def _replace_lines(gomod: str) -> list[str]:
    """The `replace` directives of a go.mod, single-line and block form."""
    lines: list[str] = []
    block = False
    for raw in gomod.splitlines():
        line = raw.split("//")[0].strip()
        if block:
            if line == ")":
                block = False
            elif line:
                lines.append(f"replace {line}")
        elif line.startswith("replace ("):
            block = True
        elif line.startswith("replace "):
            lines.append(line)
    return lines


def _point_at_source(gomod: Path, module: str, source: Path | None) -> None:
    """Replace `module` with a local patched copy in the wrapper's go.mod (or undo that)."""
    lines = [line for line in gomod.read_text().splitlines()
             if not line.startswith(f"replace {module} => ./src-")]
    if source is not None:
        lines.append(f"replace {module} => ./{source.name}")
    gomod.write_text("\n".join(lines) + "\n")


def _go() -> tuple[str, dict[str, str]]:
    """The go command and the environment every build runs it in."""
    go = shutil.which("go")
    if not go:
        raise ToolchainError("`go` is not on PATH: install Go >= 1.26 to build the toolchain")
    # The caller's GOFLAGS are kept (e.g. `-p=1` on a shared machine).
    flags = " ".join(dict.fromkeys(["-buildvcs=false", *os.environ.get("GOFLAGS", "").split()]))
    return go, {**os.environ, "GOFLAGS": flags, "GOTOOLCHAIN": "local"}


def _build_into(name: str, package: str, work: Path, output: Path, log: Log) -> None:
    """`go build` `package` in `work`, installed atomically as `output`."""
    go, env = _go()
    partial = work / (output.name + ".partial")
    started = time.monotonic()
    log(f"building {name} (rerun resumes from Go's build cache)")
    _run([go, "build", "-mod=mod", "-trimpath", "-ldflags=-s -w", "-o", str(partial), package],
         work, log, work / "build.log", env)
    output.parent.mkdir(parents=True, exist_ok=True)
    partial.replace(output)
    log(f"built {name} in {time.monotonic() - started:.0f} s -> {output}")


def go_build(name: str, module: str, revision: str, package: str, output: Path, log: Log,
             patch: provider_patches.Patch | None = None) -> Path | None:
    """Build `package` from `module@revision` in a wrapper module; install atomically.
    Returns the patched source tree it built from (None when unpatched)."""
    go, env = _go()
    work = settings.cache_dir() / "build" / name
    work.mkdir(parents=True, exist_ok=True)
    # Only the module itself is downloaded up front; `go build -mod=mod` then fetches just
    # the modules the (possibly trimmed) package graph imports.
    info = subprocess.run([go, "mod", "download", "-json", f"{module}@{revision}"], cwd=work,
                          capture_output=True, text=True, env=env, check=False)
    if info.returncode != 0:
        raise ToolchainError(f"`go mod download {module}@{revision}` failed: {info.stderr}")
    downloaded = json.loads(info.stdout)
    # The wrapper must repeat the dependency's replace lines: Go ignores them in dependencies.
    replaces = _replace_lines(Path(downloaded["GoMod"]).read_text())
    gomod = work / "go.mod"
    gomod.write_text(f"module kitbuild/{name}\n\ngo 1.26\n\nrequire {module} {revision}\n\n"
                     + "\n".join(replaces) + "\n")
    source = (provider_patches.patched_source(Path(downloaded["Dir"]), patch, work)
              if patch else None)
    _point_at_source(gomod, module, source)
    _build_into(name, package, work, output, log)
    return source


def build_stand_in(name: str, package: str, output: Path, log: Log) -> None:
    """Build one of the kit's stand-in providers from its Go source, in a copy under the
    build cache (`-mod=mod` may rewrite go.sum there, never in the checkout)."""
    work = settings.cache_dir() / "build" / f"provider-{name}" / "src"
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(settings.stand_in_source(), work)
    _build_into(name, package, work, output, log)


def _stamp(target: Path) -> Path:
    return target.with_name(target.name + ".kit-build")


def _build_id(name: str, spec: dict[str, str]) -> str:
    if "package" in spec:
        return f"stand-in {settings.stand_in_fingerprint()}"
    patch = PATCHES.get(name, provider_patches.Patch())
    return f"{spec['revision']} {provider_patches.fingerprint(patch)}"


def catalogue_path(name: str = "aws") -> Path:
    """Where the trimmed build's type catalogue lives, beside the binary."""
    target = provider_path(name, getattr(settings, f"{name.upper()}_PROVIDER")["version"])
    return target.with_name(target.name + "." + provider_patches.CATALOGUE)


def provider_current(name: str, spec: dict[str, str]) -> bool:
    """The provider in the mirror was built from the pinned revision with the current edits."""
    target = provider_path(name, spec["version"])
    stamp = _stamp(target)
    return target.exists() and stamp.exists() and stamp.read_text() == _build_id(name, spec)


def install_provider(name: str, spec: dict[str, str], log: Log) -> Path:
    """Build a hashicorp provider into the mirror for both registry hosts; idempotent."""
    target = provider_path(name, spec["version"])
    if not provider_current(name, spec):
        source = (build_stand_in(name, spec["package"], target, log) if "package" in spec
                  else go_build(f"provider-{name}", spec["module"], spec["revision"],
                                spec["module"], target, log, PATCHES.get(name)))
        target.chmod(0o755)
        if source is not None and (source / provider_patches.CATALOGUE).exists():
            shutil.copyfile(source / provider_patches.CATALOGUE, catalogue_path(name))
        _stamp(target).write_text(_build_id(name, spec))
    for host in settings.REGISTRY_HOSTS[1:]:
        # A hard link in a real directory: OpenTofu's mirror scan does not follow
        # symlinked directories.
        alias = provider_path(name, spec["version"], host)
        if alias.parent.is_symlink() or alias.parent.parent.parent.is_symlink():
            alias.parent.parent.parent.unlink()
        if not alias.exists() or not alias.samefile(target):
            alias.parent.mkdir(parents=True, exist_ok=True)
            alias.unlink(missing_ok=True)
            os.link(target, alias)
    return target


def install_go_tool(name: str, binary: str, found: Path | None, pin: dict[str, str],
                    log: Log) -> Path:
    """Build a Go command pinned in settings (`pin`: module of its main package, version)
    from the Go module proxy into the kit's bin dir as `binary`, unless `found`."""
    if found:
        return found
    target = settings.bin_dir() / binary
    go_build(name, pin["module"].rsplit("/cmd/", 1)[0], pin["version"], pin["module"],
             target, log)
    return target


def install_toxiproxy(log: Log) -> Path:
    """Build toxiproxy-server from the Go module proxy into the kit's bin dir; idempotent."""
    return install_go_tool("toxiproxy", "toxiproxy-server", toxiproxy_binary(),
                           settings.TOXIPROXY, log)


def actionlint_binary() -> Path | None:
    """actionlint (a dev tool: the tests lint action.yml with it), if built into bin_dir."""
    found = settings.bin_dir() / "actionlint"
    return found if found.exists() else None


def install_actionlint(log: Log) -> Path:
    """Build actionlint from the Go module proxy into the kit's bin dir; idempotent. (Its
    PyPI package downloads the binary at build time, which an offline machine cannot.)"""
    return install_go_tool("actionlint", "actionlint", actionlint_binary(),
                           settings.ACTIONLINT, log)


def install_tofu(log: Log) -> Path:
    """Build OpenTofu from the Go module proxy when neither terraform nor tofu exists."""
    found = settings.terraform_binary()
    if found:
        return Path(found)
    target = settings.bin_dir() / "tofu"
    go_build("tofu", "github.com/opentofu/opentofu", settings.TOFU_VERSION,
             "github.com/opentofu/opentofu/cmd/tofu", target, log)
    return target


def install_debian(package: str, what: str, log: Log, also: tuple[str, ...] = ()) -> None:
    """Install a Debian package (and `also` these) when running as root; else say how."""
    fix = f"apt-get update && apt-get install -y {' '.join((package, *also))}"
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        raise ToolchainError(f"{what} is missing: run `{fix}`")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    logfile = settings.cache_dir() / "apt.log"
    logfile.parent.mkdir(parents=True, exist_ok=True)
    _run(["apt-get", "update"], Path("/"), log, logfile, env)
    _run(["apt-get", "install", "-y", "--no-install-recommends", package, *also], Path("/"),
         log, logfile, env)


def setup(log: Log = lambda m: print(m, file=sys.stderr, flush=True)) -> None:
    """Install every missing piece; a second call finds everything and returns in seconds."""
    if postgres_bindir() is None:
        install_debian("postgresql", "PostgreSQL server binaries", log)
    if shutil.which("bwrap") is None:
        install_debian("bubblewrap", "bubblewrap (bwrap)", log)
    runtime.install(log)
    install_tofu(log)
    install_toxiproxy(log)
    install_actionlint(log)
    from kit.toolchain import chromium  # it builds on this module

    chromium.install(log)
    if not registry_mode():
        install_provider("random", settings.RANDOM_PROVIDER, log)
        for name, spec in settings.utility_specs().items():
            install_provider(name, spec, log)
        install_provider("aws", settings.AWS_PROVIDER, log)
    write_cli_config()


def mirror_versions(name: str) -> list[str]:
    """Versions of hashicorp/<name> present in the mirror, for error messages."""
    base = settings.mirror_dir() / settings.REGISTRY_HOSTS[0] / "hashicorp" / name
    if not base.is_dir():
        return []
    return sorted((p.name for p in base.iterdir() if re.match(r"\d+\.\d+\.\d+", p.name)),
                  key=lambda v: tuple(int(x) for x in v.split(".")))
