"""Continuous integration: what a pull-request check needs beyond a run (the sticky PR
comment of action.yml, the static pre-commit check)."""
