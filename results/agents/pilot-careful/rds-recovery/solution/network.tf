# Private network for the database: one subnet in each of three Availability
# Zones, so a Multi-AZ instance survives the loss of any one of them and RDS
# can place a replacement standby in a third zone.

locals {
  db_azs = var.db_availability_zones
}

resource "aws_vpc" "ledger" {
  cidr_block           = var.vpc_cidr
  enable_dns_support   = true
  enable_dns_hostnames = true

  tags = { Name = "ledger" }
}

resource "aws_subnet" "db" {
  count = length(local.db_azs)

  vpc_id                  = aws_vpc.ledger.id
  availability_zone       = local.db_azs[count.index]
  cidr_block              = cidrsubnet(var.vpc_cidr, 8, count.index)
  map_public_ip_on_launch = false

  tags = { Name = "${var.db_instance_identifier}-${local.db_azs[count.index]}" }
}

# Named after the instance so the operator policy can name it: restoring into
# a subnet group is authorised against the subnet group's ARN as well.
resource "aws_db_subnet_group" "ledger" {
  name        = "${var.db_instance_identifier}-subnets"
  description = "Subnets of the ledger database"
  subnet_ids  = aws_subnet.db[*].id
}

resource "aws_security_group" "db" {
  name        = "${var.db_instance_identifier}-sg"
  description = "Ledger PostgreSQL: reachable from inside the VPC only"
  vpc_id      = aws_vpc.ledger.id

  tags = { Name = "${var.db_instance_identifier}-sg" }
}

resource "aws_vpc_security_group_ingress_rule" "postgres" {
  security_group_id = aws_security_group.db.id
  description       = "PostgreSQL from the VPC"
  ip_protocol       = "tcp"
  from_port         = 5432
  to_port           = 5432
  cidr_ipv4         = aws_vpc.ledger.cidr_block
}
