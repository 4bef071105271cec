"""`kit mutate` and the variants' copies as root against links (issue 44, breach 3): a link
to a host file, to a host directory and to a variant's patch is never read as a mutant's
source, and a patched copy keeps it a link (for the gate to refuse) instead of copying what
it points at into every mutant's tree; `git apply` runs confined to the copy, and a
variant's patch that is a link is refused unread."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from kit.errors import InputError
from kit.mutate.generate import mutants
from kit.variants import patched_copy

TF = 'resource "aws_sqs_queue" "q" {\n  visibility_timeout_seconds = 30\n}\n'
SECRET_TF = 'resource "aws_sqs_queue" "secret" {\n  message_retention_seconds = 1209600\n}\n'
SECRET_PY = "SECRET = 'host only'\nRETRIES = 3\n"


def _hostile(tmp_path: Path) -> Path:
    """A solution with one real file and links to the host's files and directory."""
    host = tmp_path / "host"
    (host / "pkg").mkdir(parents=True)
    (host / "secret.tf").write_text(SECRET_TF)
    (host / "pkg" / "worker.py").write_text(SECRET_PY)
    sol = tmp_path / "sol"
    sol.mkdir()
    (sol / "main.tf").write_text(TF)
    (sol / "leak.tf").symlink_to(host / "secret.tf")
    (sol / "relative.tf").symlink_to("../host/secret.tf")
    (sol / "worker").symlink_to(host / "pkg")
    return sol


def test_mutants_are_made_of_regular_files_only(tmp_path: Path) -> None:
    found = mutants(_hostile(tmp_path))
    assert found, "the solution's own main.tf has mutants"
    assert {m.file for m in found} == {"main.tf"}
    assert not any("1209600" in m.patch or "host only" in m.patch for m in found)


def test_a_patched_copy_keeps_links_as_links(tmp_path: Path) -> None:
    sol = _hostile(tmp_path)
    patch = ("--- a/main.tf\n+++ b/main.tf\n@@ -1,3 +1,3 @@\n"
             ' resource "aws_sqs_queue" "q" {\n-  visibility_timeout_seconds = 30\n'
             "+  visibility_timeout_seconds = 0\n }\n")
    target = tmp_path / "copy"
    assert patched_copy(sol, patch, target) is None
    assert "= 0" in (target / "main.tf").read_text()
    for name in ("leak.tf", "relative.tf", "worker"):
        assert os.path.islink(target / name), name
    assert os.readlink(target / "leak.tf") == str(tmp_path / "host" / "secret.tf")


def test_a_patch_through_a_link_in_the_copy_changes_nothing_outside_it(tmp_path: Path) -> None:
    sol = _hostile(tmp_path)
    patch = ("--- a/worker/worker.py\n+++ b/worker/worker.py\n@@ -1,2 +1,2 @@\n"
             " SECRET = 'host only'\n-RETRIES = 3\n+RETRIES = 0\n")
    refused = patched_copy(sol, patch, tmp_path / "copy")
    assert refused is not None and "worker" in refused
    assert (tmp_path / "host" / "pkg" / "worker.py").read_text() == SECRET_PY
    assert not (tmp_path / "copy").exists()


def test_a_variant_patch_that_is_a_link_is_refused_unread(tmp_path: Path) -> None:
    sol = _hostile(tmp_path)
    patch = tmp_path / "variant" / "change.patch"
    patch.parent.mkdir()
    patch.symlink_to(tmp_path / "host" / "secret.tf")
    with pytest.raises(InputError, match="change.patch: not a regular file") as raised:
        patched_copy(sol, patch, tmp_path / "copy")
    assert "1209600" not in str(raised.value)
    assert not (tmp_path / "copy").exists()
