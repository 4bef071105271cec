"""The pytest plugin in a pytest session of its own (pytester, in process): its options,
the header, the usage error for a bad seed, and that it starts nothing unasked
(kit/testing/plugin.py)."""

from __future__ import annotations

import pytest

from kit.testing import plugin

pytest_plugins = ["pytester"]

# The plugin as an object: the inner session (no autoload) registers it before it parses
# the options, whether or not the entry point is installed.
PLUGINS = [plugin]


@pytest.fixture
def session(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    monkeypatch.delenv("KIT_SEED", raising=False)
    pytester.makepyfile(test_seeded="""
        def test_seed(kit_seed, pytestconfig):
            print("SEED", kit_seed)
    """)
    return pytester


def test_the_header_prints_the_given_seed_and_the_rerun_command(session: pytest.Pytester
                                                                 ) -> None:
    result = session.runpytest("--kit-seed", "4242", "-s", plugins=PLUGINS)
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines([
        "kit: seed 4242 (from --kit-seed); rerun with: pytest -s --basetemp=* --kit-seed=4242",
        "*SEED 4242*"])


def test_the_environment_seed_reaches_the_fixture(session: pytest.Pytester,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KIT_SEED", "77")
    result = session.runpytest("-s", plugins=PLUGINS)
    result.stdout.fnmatch_lines(["kit: seed 77 (from KIT_SEED); rerun with: *--kit-seed=77",
                                 "*SEED 77*"])


def test_a_drawn_seed_is_printed_as_the_fixture_has_it(session: pytest.Pytester) -> None:
    result = session.runpytest("-s", plugins=PLUGINS)
    header = next(line for line in result.outlines if line.startswith("kit: seed "))
    seed = header.split()[2]
    assert "(from the clock)" in header and header.endswith(f"--kit-seed={seed}")
    result.stdout.fnmatch_lines([f"*SEED {seed}*"])


def test_a_bad_seed_is_a_usage_error_that_says_the_fix(session: pytest.Pytester) -> None:
    result = session.runpytest("--kit-seed", "soon", plugins=PLUGINS)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--kit-seed 'soon': not a whole number; give e.g. "
                                 "--kit-seed 1234*"])


def test_the_options_are_grouped_in_help(session: pytest.Pytester) -> None:
    result = session.runpytest("--help", plugins=PLUGINS)
    result.stdout.fnmatch_lines(["kit: infrastructure tested under an injected fault:",
                                 "*--kit-seed=N*", "*--kit-solution=DIR*"])


def test_inject_without_a_stack_says_so_without_a_traceback(session: pytest.Pytester,
                                                            monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    # A sandbox that starts nothing: this test is about the message, not the services.
    session.makeconftest("""
        import pytest
        @pytest.fixture(scope="session")
        def kit_sandbox():
            return None
    """)
    session.makepyfile(test_inject="""
        def test_fault(inject):
            with inject("db_outage"):
                pass
    """)
    result = session.runpytest("test_inject.py", plugins=PLUGINS)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["InputError: inject('db_outage'): nothing deployed in this "
                                 "test; call deployed(scenario) first"])
    assert "Traceback" not in result.stdout.str() and "plugin.py" not in result.stdout.str()


def test_xdist_workers_share_the_controllers_drawn_seed(pytester: pytest.Pytester,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    # The installed entry point, as a team's session loads it; two workers.
    monkeypatch.delenv("KIT_SEED", raising=False)
    monkeypatch.delenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", raising=False)
    pytester.makepyfile(test_workers="""
        import os, pytest

        @pytest.mark.parametrize("n", range(4))
        def test_seed(kit_seed, n, pytestconfig):
            worker = os.environ.get("PYTEST_XDIST_WORKER", "none")
            (pytestconfig.rootpath / f"seed-{worker}-{n}").write_text(str(kit_seed))
    """)
    result = pytester.runpytest_subprocess("-n", "2", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=4)
    header = next(line for line in result.outlines if line.startswith("kit: seed "))
    seeds_seen = {p.read_text() for p in pytester.path.glob("seed-*")}
    workers = {p.name.split("-")[1] for p in pytester.path.glob("seed-*")}
    assert seeds_seen == {header.split()[2]} and workers <= {"gw0", "gw1"} and workers
