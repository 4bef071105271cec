"""A team's own test of its order pipeline, with the kit's pytest plugin: deploy the
Terraform, let the kit's producer send the orders while the workers consume them, cut
the database off for a while, and check through the kit's checker that no order is lost.

Copy this file into your repository; `pip install` the kit and it is found (entry point
pytest11). Run it with `pytest`; the header prints the seed and the command that reruns
the session with it (--kit-seed N). --kit-solution DIR deploys another solution than the
scenario's golden, e.g. your branch's Terraform.
"""

from __future__ import annotations

SCENARIO = "order-pipeline"  # or the path of your own scenario directory


def test_no_order_is_lost_in_a_database_outage(deployed, inject) -> None:
    stack = deployed(SCENARIO)
    # The producer's role, as the Terraform created it: its calls go through the kit's
    # gateway, which records them in the history.
    who = stack.client("sts", role="role.producer").get_caller_identity()
    assert who["Arn"].split("/")[1] == stack.outputs["producer_role_arn"].split("/")[-1]

    stack.start()           # the observer, the solution's workers, the producer
    stack.wait_recorded(8)  # the pipeline works before the fault
    with inject("db_outage"):
        stack.wait_sent()   # the rest of the orders are sent while the database is away
    history = stack.settle()  # recovered, stopped, the final tables read

    assert history.of_kind("fault_start") and history.of_kind("fault_end")
    verdict = stack.check("delivery.no_loss")["delivery.no_loss"]
    assert verdict.verdict == "pass", verdict.summary
