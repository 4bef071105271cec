"""The solution's parse is the same from any number of threads at once (kit validate --jobs
parses solutions in a thread pool; python-hcl2 8.1 shares one serialization context between
calls, so unguarded parallel parses turned `password = var.x` into the literal "var.x")."""

from concurrent.futures import ThreadPoolExecutor

from kit.deploy.hcl import loads

TEXT = '''
resource "aws_db_instance" "orders" {
  password = var.password
  username = "${local.prefix}-admin"
  tags     = { Name = format("%s-%s", var.env, "db"), Plain = "x" }
  count    = length([for s in var.subnets : "${s}-a"])
}
''' * 4


def test_parallel_parses_equal_a_parse_alone() -> None:
    alone = loads(TEXT)
    assert alone["resource"][0]["aws_db_instance"]["orders"]["password"] == "${var.password}"
    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(lambda _: loads(TEXT), range(100)))
    assert all(result == alone for result in results)
