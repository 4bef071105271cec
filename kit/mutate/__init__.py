"""`kit mutate`: mutation analysis of the grader. Single mutants of a solution (generate.py,
over Terraform in terraform.py and worker code in python.py), each judged like a variant
(run.py), the survivors checked against the scenario's reviewed equivalents
(equivalents.py), and a report (report.py)."""
