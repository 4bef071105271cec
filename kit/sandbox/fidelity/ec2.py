"""EC2: subnets as AWS describes them.

moto internals touched: moto.ec2.models.subnets.Subnet.get_filter_value,
Subnet.ipv6_cidr_block_associations, Subnet.available_ip_address_count, Subnet.cidr_block,
Subnet.ipv6_cidr_block_association_set, Subnet.enable_dns64,
Subnet.private_dns_name_options_on_launch,
moto.ec2.responses.subnets.Subnets.modify_subnet_attribute, EC2Backend.get_subnet,
moto.ec2.models.flow_logs.FlowLogsBackend.describe_flow_logs, FlowLogsBackend.flow_logs,
moto.ec2.models.flow_logs.FlowLogs.traffic_type, FlowLogs.log_destination_type,
FlowLogs.log_format, FlowLogs.max_aggregation_interval, FlowLogs.destination_options,
moto.ec2.responses.flow_logs.FlowLogs.create_flow_logs,
moto.ec2.responses.customer_gateways.CustomerGateways.create_customer_gateway,
CustomerGatewayBackend.customer_gateways, CustomerGateway.device_name,
CustomerGateway.bgp_asn_extended, CustomerGateway.certificate_arn,
moto.ec2.responses.dhcp_options.DHCPOptions.create_dhcp_options,
DHCPOptionsSetBackend.dhcp_options_sets, DHCPOptionsSet.add_tags,
EC2BaseResponse.ec2_backend, EC2BaseResponse._parse_tag_specification,
BaseResponse._get_param, BaseResponse._get_int_param.
"""

from __future__ import annotations

import threading
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


_CREATING = threading.local()  # the configuration of the flow logs being created
DEFAULT_LOG_FORMAT = (
    "${version} ${account-id} ${interface-id} ${srcaddr} ${dstaddr} ${srcport} ${dstport} "
    "${protocol} ${packets} ${bytes} ${start} ${end} ${action} ${log-status}")


def _flow_log_configuration(log: Any) -> tuple[Any, ...]:
    return (log.traffic_type, log.log_destination_type, log.log_format,
            int(log.max_aggregation_interval), getattr(log, "destination_options", None))


def flow_logs_are_duplicates_only_with_the_same_configuration() -> None:
    """Two flow logs of one resource to one destination may differ in configuration; a
    flow log keeps its DestinationOptions.

    AWS (EC2 API reference, CreateFlowLogs): FlowLogAlreadyExists means "there is an
    existing flow log with the same configuration and log destination"; the
    configuration includes the traffic type, log format, aggregation interval and the
    destination options (e.g. Parquet files). moto 5.2 compares only resource and
    destination, and drops DestinationOptions (terraform-aws-modules/vpc's flow-log
    example writes one VPC's logs to one bucket as text and as Parquet).
    """
    from moto.ec2.models.flow_logs import FlowLogsBackend
    from moto.ec2.responses.flow_logs import FlowLogs as FlowLogsResponse

    if getattr(FlowLogsResponse.create_flow_logs, "_kit_fix", False):
        return
    create = FlowLogsResponse.create_flow_logs
    describe = FlowLogsBackend.describe_flow_logs

    def create_flow_logs(self: Any) -> Any:
        options = self._get_param("DestinationOptions") or None
        backend = self.ec2_backend
        before = set(backend.flow_logs)
        interval = self._get_int_param("MaxAggregationInterval")
        _CREATING.configuration = (
            self._get_param("TrafficType"),
            self._get_param("LogDestinationType") or "cloud-watch-logs",
            self._get_param("LogFormat") or DEFAULT_LOG_FORMAT,
            600 if interval is None else interval, options)
        try:
            result = create(self)
        finally:
            _CREATING.configuration = None
        for flow_log_id in set(backend.flow_logs) - before:
            backend.flow_logs[flow_log_id].destination_options = options
        return result

    def describe_flow_logs(self: Any, flow_log_ids: Any = None, filters: Any = None) -> Any:
        found = describe(self, flow_log_ids, filters)
        creating = getattr(_CREATING, "configuration", None)
        # moto's duplicate check lists every flow log while one is created: show it those
        # with the same configuration only.
        if creating is None:
            return found
        return [log for log in found if _flow_log_configuration(log) == creating]

    create_flow_logs._kit_fix = True  # type: ignore[attr-defined]
    FlowLogsResponse.create_flow_logs = create_flow_logs  # type: ignore[method-assign]
    FlowLogsBackend.describe_flow_logs = describe_flow_logs  # type: ignore[method-assign]


def ipv6_association_state_reads_as_a_word() -> None:
    """A subnet's IPv6 association reads back with Ipv6CidrBlockState.State "associated".

    AWS (EC2 API reference, SubnetIpv6CidrBlockAssociation / SubnetCidrBlockState): State
    is one of associating | associated | disassociating | ... . moto 5.2's DescribeSubnets
    puts the whole state structure there ("{'State': 'associated'}"), so the provider's
    wait for an IPv6 block to become associated fails on an unexpected state.
    """
    from moto.ec2.models.subnets import Subnet

    if getattr(Subnet.ipv6_cidr_block_association_set.fget, "_kit_fix", False):
        return

    def ipv6_cidr_block_association_set(self: Any) -> list[dict[str, Any]]:
        return [{"ipv6CidrBlock": a["ipv6CidrBlock"], "associationId": a["associationId"],
                 "ipv6CidrBlockState": {"state": a["ipv6CidrBlockState"]["State"]}}
                for a in self.ipv6_cidr_block_associations.values()
                if a["ipv6CidrBlockState"]["State"] == "associated"]

    ipv6_cidr_block_association_set._kit_fix = True  # type: ignore[attr-defined]
    Subnet.ipv6_cidr_block_association_set = property(ipv6_cidr_block_association_set)  # type: ignore[method-assign]


# CreateCustomerGateway parameters moto 5.2 drops, by request name and moto's attribute.
CUSTOMER_GATEWAY = (("DeviceName", "device_name"), ("BgpAsnExtended", "bgp_asn_extended"),
                    ("CertificateArn", "certificate_arn"))


def customer_gateways_keep_their_settings() -> None:
    """A customer gateway reports the device name, extended BGP ASN and certificate it was
    created with.

    AWS (EC2 API reference, CreateCustomerGateway: DeviceName, BgpAsnExtended (ASNs from
    2,147,483,648 to 4,294,967,295), CertificateArn; the CustomerGateway data type that
    DescribeCustomerGateways returns has all three). moto 5.2 drops them, so
    terraform-aws-modules/vpc's complete example (`device_name`, `bgp_asn_extended`)
    replaces its gateways in the plan right after the apply.
    """
    from moto.ec2.responses.customer_gateways import CustomerGateways

    if getattr(CustomerGateways.create_customer_gateway, "_kit_fix", False):
        return
    create = CustomerGateways.create_customer_gateway

    def create_customer_gateway(self: Any) -> Any:
        backend = self.ec2_backend
        before = set(backend.customer_gateways)
        result = create(self)
        for gateway_id in set(backend.customer_gateways) - before:
            for param, attribute in CUSTOMER_GATEWAY:
                if self._get_param(param) is not None:
                    setattr(backend.customer_gateways[gateway_id], attribute,
                            str(self._get_param(param)))
        return result

    create_customer_gateway._kit_fix = True  # type: ignore[attr-defined]
    CustomerGateways.create_customer_gateway = create_customer_gateway  # type: ignore[method-assign]


def dhcp_options_keep_their_tags() -> None:
    """A DHCP options set keeps the tags its CreateDhcpOptions gave (TagSpecification).

    AWS (EC2 API reference, CreateDhcpOptions, TagSpecification.N: "The tags to assign to
    the DHCP option"; DescribeDhcpOptions returns them as Tags). moto 5.2 drops them, so
    terraform-aws-modules/vpc's complete example plans its DHCP options' tags again right
    after the apply.
    """
    from moto.ec2.responses.dhcp_options import DHCPOptions

    if getattr(DHCPOptions.create_dhcp_options, "_kit_fix", False):
        return
    create = DHCPOptions.create_dhcp_options

    def create_dhcp_options(self: Any) -> Any:
        backend = self.ec2_backend
        before = set(backend.dhcp_options_sets)
        result = create(self)
        tags = self._parse_tag_specification().get("dhcp-options", {})
        for options_id in set(backend.dhcp_options_sets) - before:
            backend.dhcp_options_sets[options_id].add_tags(tags)
        return result

    create_dhcp_options._kit_fix = True  # type: ignore[attr-defined]
    DHCPOptions.create_dhcp_options = create_dhcp_options  # type: ignore[method-assign]
