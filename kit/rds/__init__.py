"""The RDS data plane: every DB instance a drill's solution creates is a real PostgreSQL.

moto keeps the control plane's records (what DescribeDBInstances lists, snapshots, flags);
this package gives them a data plane and the behaviour AWS documents for the calls a
recovery drill makes. One module per concern:

config     the plane's clock: how long each status transition takes (scenario.yaml `rds`)
errors     the AWS errors the handlers answer with, named as the API reference names them
server     one PostgreSQL server: data directory, port, process, base backups
backups    an instance's automated backups: WAL archive, base backups, restorable window
snapshots  DB snapshots (manual, automated, final) and the data each one holds
instance   one DB instance: its servers (primary, Multi-AZ standby), endpoint, state machine
plane      every instance and snapshot of a run, the upload clock and the crash monitor
wire       the query protocol's XML: read moto's records, rewrite them, error replies
api        one handler per RDS action, each citing the API reference it follows
front      the HTTP server in front of moto for RDS (Terraform and the gateway both use it)
"""
