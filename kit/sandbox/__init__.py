"""The pieces every local service of a run is built from: processes and their confinement
(bubblewrap, cgroups, limits, network namespaces), ports, the emulators (moto, LocalStack)
and the kit's fixes to them, Toxiproxy, PostgreSQL. kit/run/sandbox.py composes them into
one run's `Sandbox`."""
