"""Team mode's registry-module cache against links (issue 44, breach 4): the repository's
`.kit/modules` (in a PR check, the PR author's) is copied by root into the run. A package,
the cache, or its manifest that is a link, and a link out of a package, are InputErrors
naming the path; nothing of the host directory they name reaches the run's copy."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from kit.deploy import modules
from kit.deploy.hcl import parse
from kit.errors import InputError, SolutionError
from tests.unit.deploy.test_team_modules import _init_result, _repo

GOLDEN = "# the golden worker's code, root-only\n"


def _cache(tmp_path: Path) -> tuple[Path, Path, list[modules.Call], Path]:
    """(cache, host dir, the repository's calls, the run's copy of its root module)."""
    cache = tmp_path / "repo" / ".kit" / "modules"
    modules.vendor(_init_result(tmp_path), cache)
    repo = _repo(tmp_path)
    host = tmp_path / "host"
    host.mkdir()
    (host / "main.tf").write_text(GOLDEN)
    copy = tmp_path / "copy" / "infra"
    copy.mkdir(parents=True)
    return cache, host, modules.remote_calls(parse(repo), Path("infra")), copy


def _leaked(copy: Path) -> bool:
    return any(p.is_file() and GOLDEN in p.read_text() for p in copy.rglob("*"))


def test_a_package_linked_to_a_host_directory_is_refused(tmp_path: Path) -> None:
    cache, host, calls, copy = _cache(tmp_path)
    shutil.rmtree(cache / "orders")
    (cache / "orders").symlink_to(host)
    with pytest.raises(InputError, match=r"modules/orders: a package of the module cache is "
                                         "a symbolic link"):
        modules.seed(cache, calls, copy)
    assert not _leaked(copy)


def test_a_cache_or_manifest_that_is_a_link_is_refused(tmp_path: Path) -> None:
    cache, host, calls, copy = _cache(tmp_path)
    shutil.copy(cache / modules.MANIFEST, host / modules.MANIFEST)
    (cache / modules.MANIFEST).unlink()
    (cache / modules.MANIFEST).symlink_to(host / modules.MANIFEST)
    with pytest.raises(InputError, match="modules.json: the module cache's manifest is a "
                                         "symbolic link"):
        modules.served(cache, calls)
    moved = tmp_path / "elsewhere"
    cache.rename(moved)
    cache.symlink_to(moved)
    with pytest.raises(InputError, match="modules: the module cache is a symbolic link"):
        modules.seed(cache, calls, copy)
    assert not _leaked(copy)


def test_a_link_out_of_a_package_is_refused_and_one_inside_kept(tmp_path: Path) -> None:
    cache, host, calls, copy = _cache(tmp_path)
    (cache / "orders" / "inside.tf").symlink_to("main.tf")
    modules.seed(cache, calls, copy)
    assert (copy / modules.INSTALLED / "orders" / "inside.tf").is_symlink()
    shutil.rmtree(tmp_path / "copy")
    copy.mkdir(parents=True)
    (cache / "orders" / "leak.tf").symlink_to(host / "main.tf")
    with pytest.raises(InputError, match="orders/leak.tf: a link out of its module package"):
        modules.seed(cache, calls, copy)
    assert not _leaked(copy)


def test_a_link_at_dot_terraform_in_the_copy_is_the_solutions_fault(tmp_path: Path) -> None:
    cache, host, calls, copy = _cache(tmp_path)
    (copy / ".terraform").symlink_to(host)
    with pytest.raises(SolutionError, match=r"\.terraform: this name is reserved"):
        modules.seed(cache, calls, copy)
    assert sorted(p.name for p in host.iterdir()) == ["main.tf"]
