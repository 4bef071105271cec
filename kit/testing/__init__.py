"""The kit as a pytest plugin (kit/testing/plugin.py, entry point `pytest11`): a sandbox,
a deployed stack (kit/testing/stack.py), a fault as a context manager (kit/testing/
fault.py) and the history, for a team's own tests. Nothing is imported here: the plugin
loads in every pytest session of a venv with the kit, and must stay light until used."""
