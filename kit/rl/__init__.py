"""The kit as an RL environment: tasks (kit/tasks) driven through reset and step.

`session.KitSession` is the plain in-process API (no OpenEnv needed); `env` wraps it in
OpenEnv's `Environment` interface and `server` serves it with OpenEnv's HTTP server
(`kit serve`; the optional extra `kit[rl]`)."""
