"""EC2: subnets as AWS describes them."""

from __future__ import annotations

from typing import Any

IPV6_FILTERS = {
    "ipv6-cidr-block-association.association-id": "associationId",
    "ipv6-cidr-block-association.ipv6-cidr-block": "ipv6CidrBlock",
}


def subnets_filter_by_ipv6_association() -> None:
    """DescribeSubnets filters on ipv6-cidr-block-association.* .

    AWS (EC2 API reference, DescribeSubnets): the filters
    ipv6-cidr-block-association.association-id, .ipv6-cidr-block and .state. The provider
    waits for a subnet's IPv6 block to be associated with the first of them; moto 5.2
    does not implement it, so no dual-stack subnet could be created.
    """
    from moto.ec2.models.subnets import Subnet

    original = Subnet.get_filter_value
    if getattr(original, "_kit_fix", False):
        return

    def get_filter_value(self: Any, filter_name: str, method_name: str | None = None) -> Any:
        associations = self.ipv6_cidr_block_associations.values()
        if filter_name in IPV6_FILTERS:
            return [a[IPV6_FILTERS[filter_name]] for a in associations]
        if filter_name == "ipv6-cidr-block-association.state":
            return [a["ipv6CidrBlockState"]["State"] for a in associations]
        return original(self, filter_name, method_name)

    get_filter_value._kit_fix = True  # type: ignore[attr-defined]
    Subnet.get_filter_value = get_filter_value  # type: ignore[method-assign]


def ipv6_only_subnets_count_no_ipv4_addresses() -> None:
    """An IPv6-only subnet has 0 available IP addresses.

    AWS (EC2 API reference, Subnet): AvailableIpAddressCount is "the number of unused
    private IPv4 addresses in the subnet", a 32-bit integer. moto 5.2 counts the
    addresses of the IPv6 /64 (2^64 - 5), which no AWS SDK can parse, so creating an
    IPv6-only subnet failed.
    """
    from moto.ec2.models.subnets import Subnet

    original = Subnet.available_ip_address_count
    if getattr(original.fget, "_kit_fix", False):
        return

    def available_ip_address_count(self: Any) -> int:
        return original.fget(self) if self.cidr_block else 0

    available_ip_address_count._kit_fix = True  # type: ignore[attr-defined]
    Subnet.available_ip_address_count = property(available_ip_address_count)  # type: ignore[method-assign]


def subnet_attributes_are_stored() -> None:
    """ModifySubnetAttribute stores EnableDns64, EnableResourceNameDnsAAAARecordOnLaunch
    and PrivateDnsHostnameTypeOnLaunch, and DescribeSubnets returns them.

    AWS (EC2 API reference, ModifySubnetAttribute; Subnet): EnableDns64 is false until
    set. moto 5.2 ignores the three, so the provider waits five minutes for EnableDns64
    to read back `true` (terraform-aws-modules/vpc sets it on IPv6 subnets) and fails.
    """
    from moto.ec2.models.subnets import Subnet
    from moto.ec2.responses.subnets import Subnets

    original = Subnets.modify_subnet_attribute
    if getattr(original, "_kit_fix", False):
        return

    def modify_subnet_attribute(self: Any) -> Any:
        result = original(self)
        subnet = self.ec2_backend.get_subnet(self._get_param("SubnetId"))
        options = subnet.private_dns_name_options_on_launch
        dns64 = self._get_param("EnableDns64.Value")
        if dns64 is not None:
            subnet.enable_dns64 = str(dns64).lower() == "true"
        aaaa = self._get_param("EnableResourceNameDnsAAAARecordOnLaunch.Value")
        if aaaa is not None:
            options["EnableResourceNameDnsAAAARecord"] = str(aaaa).lower() == "true"
        hostname = self._get_param("PrivateDnsHostnameTypeOnLaunch")
        if hostname:
            options["HostnameType"] = hostname
        return result

    modify_subnet_attribute._kit_fix = True  # type: ignore[attr-defined]
    Subnets.modify_subnet_attribute = modify_subnet_attribute  # type: ignore[method-assign]
    Subnet.enable_dns64 = False  # the default of every subnet, until set
