"""One run of the pipeline: (scenario, solution, fault, seed), all disposable.

A stage per module, in the order they run: `pipeline` (run_once: the sandbox, the stages in
order, teardown, check), `sandbox` (every service of a run, started and stopped together),
`deploy` (gate, init, apply), `bind` (outputs to the scenario's names), `lambdas` (a
Lambda consumer's service and invoker), `workload` (the workload stage, with its fault and
recovery, one shape for every kind: `queue` or `drill`), `fault` (the fault's context,
built once from the bound run), `observe` (the final state), `judge` (which invariants the
run can judge).
`context` is what the stages share; `result` the RunResult they produce.
"""
