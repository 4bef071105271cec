# A private network for the database: two subnets in different AZs (required by a DB
# subnet group), no internet gateway, and a security group that only admits PostgreSQL
# from inside the VPC (where the workers run).

resource "aws_vpc" "main" {
  cidr_block           = "10.42.0.0/16"
  enable_dns_support   = true
  enable_dns_hostnames = true

  tags = {
    Name = "${var.name_prefix}-vpc"
  }
}

resource "aws_subnet" "db" {
  count = length(var.db_availability_zones)

  vpc_id                  = aws_vpc.main.id
  cidr_block              = cidrsubnet(aws_vpc.main.cidr_block, 8, 10 + count.index)
  availability_zone       = var.db_availability_zones[count.index]
  map_public_ip_on_launch = false

  tags = {
    Name = "${var.name_prefix}-db-${count.index}"
  }
}

resource "aws_db_subnet_group" "db" {
  name        = "${var.name_prefix}-db"
  description = "Private subnets for the order database"
  subnet_ids  = aws_subnet.db[*].id
}

resource "aws_security_group" "db" {
  name        = "${var.name_prefix}-db"
  description = "PostgreSQL from inside the VPC only"
  vpc_id      = aws_vpc.main.id
}

resource "aws_vpc_security_group_ingress_rule" "db_postgres" {
  security_group_id = aws_security_group.db.id
  description       = "PostgreSQL from the VPC"
  ip_protocol       = "tcp"
  from_port         = 5432
  to_port           = 5432
  cidr_ipv4         = aws_vpc.main.cidr_block
}
