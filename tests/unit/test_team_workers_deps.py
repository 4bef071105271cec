"""Team mode: the workers' declared Python dependencies (kit/toolchain/deps.py): what is
read, what is refused (file and line or field named), and the cache that makes a build
reused with no network."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from kit import scenario
from kit.errors import InputError
from kit.run import bind
from kit.toolchain import deps

GOOD = scenario.SCENARIOS / "order-pipeline" / "scenario.yaml"


def test_requirements_txt_lines_are_read_without_comments(tmp_path: Path) -> None:
    (tmp_path / "requirements.txt").write_text(
        "# the consumer's own\nattrs>=23  # dataclasses\n\n  structlog==24.1.0\n")
    found = deps.declared(tmp_path)
    assert found is not None
    assert found.source == tmp_path / "requirements.txt"
    assert found.items == ("attrs>=23", "structlog==24.1.0")


def test_pyproject_project_dependencies_are_read(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "consumer"\ndependencies = ["attrs", "idna<4"]\n')
    found = deps.declared(tmp_path)
    assert found is not None and found.items == ("attrs", "idna<4")


def test_requirements_txt_wins_and_nothing_declared_is_none(tmp_path: Path) -> None:
    assert deps.declared(tmp_path) is None
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n')
    assert deps.declared(tmp_path) is None  # a project without dependencies
    (tmp_path / "requirements.txt").write_text("attrs\n")
    found = deps.declared(tmp_path)
    assert found is not None and found.source.name == "requirements.txt"


@pytest.mark.parametrize("line, said", [
    ("-r other.txt", "requirements.txt:2: '-r other.txt': pip options are not taken"),
    ("--index-url http://evil.example/simple", "requirements.txt:2: '--index-url"),
    ("-e .", "pip options are not taken"),
    ("attrs @ https://example.com/attrs.whl", "names a URL or path"),
    ("attrs >>> 3", "requirements.txt:2: 'attrs >>> 3' is not a requirement"),
    # pip reads these as local files (in its cwd), not as names on the index
    ("evil.whl", "names a URL or path"),
    ("evil.tar.gz", "names a URL or path"),
    ("Evil.ZIP", "names a URL or path"),
])
def test_what_is_not_a_name_from_the_index_is_refused(tmp_path: Path, line: str,
                                                      said: str) -> None:
    (tmp_path / "requirements.txt").write_text(f"attrs\n{line}\n")
    with pytest.raises(InputError) as caught:
        deps.declared(tmp_path)
    assert said in str(caught.value)
    assert str(tmp_path) in str(caught.value)


def test_a_bad_pyproject_names_the_field(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[project]\ndependencies = "attrs"\n')
    with pytest.raises(InputError, match="field project.dependencies: expected a list"):
        deps.declared(tmp_path)
    (tmp_path / "pyproject.toml").write_text("[project\n")
    with pytest.raises(InputError, match="pyproject.toml: not valid TOML"):
        deps.declared(tmp_path)


def test_the_key_is_the_requirement_set() -> None:
    one = deps.Requirements(Path("a"), ("attrs", "idna"))
    assert one.key == deps.Requirements(Path("b"), ("idna", "attrs")).key
    assert one.key != deps.Requirements(Path("a"), ("attrs",)).key


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "deps-cache"
    monkeypatch.setattr(deps, "root", lambda: root)
    return root


def test_a_built_set_is_reused_without_pip(cache: Path, monkeypatch: pytest.MonkeyPatch
                                           ) -> None:
    wanted = deps.Requirements(Path("requirements.txt"), ("attrs",))
    made = cache / wanted.key
    made.mkdir(parents=True)
    (made / deps.MANIFEST).write_text(json.dumps({"requirements": ["attrs"]}))

    def no_pip(*_: Any, **__: Any) -> None:
        raise AssertionError("pip ran for a cached set")

    monkeypatch.setattr(subprocess, "run", no_pip)
    assert deps.ensure(wanted) == made


def test_an_unfinished_build_does_not_count(cache: Path) -> None:
    wanted = deps.Requirements(Path("requirements.txt"), ("attrs",))
    (cache / wanted.key).mkdir(parents=True)  # no manifest: never completed
    assert deps.built(wanted) is None


def test_pips_refusal_names_the_file_and_the_requirement(cache: Path,
                                                         monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    said = ("ERROR: Could not find a version that satisfies the requirement nosuchpkg "
            "(from versions: none)\nERROR: No matching distribution found for nosuchpkg")
    monkeypatch.setattr(deps.runtime, "python", lambda: "/opt/kit-worker/bin/python")
    ran: list[list[str]] = []

    def pip(argv: list[str], **_: Any) -> subprocess.CompletedProcess[str]:
        ran.append(argv)
        return subprocess.CompletedProcess(argv, 1, "", said)

    monkeypatch.setattr(subprocess, "run", pip)
    wanted = deps.Requirements(Path("app/requirements.txt"), ("attrs", "nosuchpkg"))
    with pytest.raises(InputError) as caught:
        deps.ensure(wanted)
    text = str(caught.value)
    assert text.startswith("app/requirements.txt: cannot install the workers' dependency "
                           "nosuchpkg from the package index: pip says: ")
    assert "No matching distribution found for nosuchpkg" in text
    assert deps.built(wanted) is None
    assert not any(cache.iterdir())  # the staging directory is gone
    # Wheels only (no package code runs on the host), into the staging directory.
    (argv,) = ran
    assert argv[argv.index("--only-binary") + 1] == ":all:" and "--target" in argv


def test_an_untrusted_solutions_requirements_are_not_installed(tmp_path: Path) -> None:
    (tmp_path / "requirements.txt").write_text("nosuchpkg\n")
    untrusted = scenario.load(GOOD)
    assert bind.worker_deps(untrusted, tmp_path) is None


def test_team_dependencies_come_from_the_workers_directory(
        tmp_path: Path, cache: Path) -> None:
    data = yaml.safe_load(GOOD.read_text())
    data["trust"] = "team"
    data["workers"]["cwd"] = "app"
    folder = tmp_path / "scenario"
    folder.mkdir()
    (folder / "scenario.yaml").write_text(yaml.safe_dump(data))
    (folder / "workload.py").write_text(GOOD.with_name("workload.py").read_text())
    team = scenario.load(folder / "scenario.yaml")
    repo = tmp_path / "repo"
    (repo / "app").mkdir(parents=True)
    (repo / "requirements.txt").write_text("nosuchpkg\n")  # not the workers' directory
    assert bind.worker_deps(team, repo) is None
    (repo / "app" / "requirements.txt").write_text("attrs\n")
    wanted = deps.declared(repo / "app")
    assert wanted is not None
    (cache / wanted.key).mkdir(parents=True)
    (cache / wanted.key / deps.MANIFEST).write_text("{}")
    assert bind.worker_deps(team, repo) == cache / wanted.key
    with pytest.raises(InputError, match="field workers.cwd: 'app' is not a directory"):
        team.workers_dir(tmp_path / "elsewhere")


def test_the_build_s_pip_keeps_only_the_host_s_index_settings() -> None:
    env = deps.pip_environment({"PATH": "/bin", "PIP_INDEX_URL": "https://mirror/simple",
                                "PIP_NO_BINARY": ":all:", "PIP_CONSTRAINT": "/tmp/c.txt",
                                "PIP_CONFIG_FILE": "./pip.conf", "PIP_TARGET": "/"})
    assert env == {"PATH": "/bin", "PIP_INDEX_URL": "https://mirror/simple",
                   "PIP_NO_INPUT": "1"}


def test_a_declaration_that_is_a_link_is_refused_unread(tmp_path: Path) -> None:
    secret = tmp_path / "host-secret"
    secret.write_text("root-only-canary\n")
    workers = tmp_path / "app"
    workers.mkdir()
    (workers / "requirements.txt").symlink_to(secret)
    with pytest.raises(InputError) as caught:
        deps.declared(workers)
    assert "is not followed" in str(caught.value)
    assert "root-only-canary" not in str(caught.value)
