"""Many runs: the kill matrix and its executors (threads, Ray), what a run costs (`--jobs
auto`), `kit validate`'s rows, the cross-check of two emulators, and a pull request's base
against its head (`--baseline`)."""
