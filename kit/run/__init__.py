"""One run of the pipeline: (scenario, solution, fault, seed), all disposable."""
