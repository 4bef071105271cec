"""RDS: option groups and parameter groups for the engine versions AWS offers today.

moto internals touched: moto.utilities.utils.load_resource (moto's
rds/resources/option_group_options/*.json), moto.rds.models.OptionGroup (its constructor's
keywords), OptionGroup.vpc_and_non_vpc_instance_memberships, OptionGroup.engine_name,
OptionGroup.major_engine_version, RDSBackend.option_groups, RDSBackend.create_option_group,
RDSBackend.describe_option_groups, RDSBackend.create_db_instance, DBInstance.engine_version,
DBParameterGroup.update_parameters, DBClusterParameterGroup.update_cluster_parameters,
moto.rds.responses.RDSResponse.describe_db_parameters,
RDSResponse.describe_db_cluster_parameters, RDSResponse.params, ActionResult.result,
moto.rds.exceptions.RDSClientError.
"""

from __future__ import annotations

import functools
import json
from typing import Any

# PostgreSQL has no options, so AWS's DescribeOptionGroupOptions answers (the data moto
# ships) name none of its versions: the major versions RDS for PostgreSQL supports, from
# the RDS User Guide ("Supported PostgreSQL major versions on Amazon RDS": 11 to 13 in
# RDS Extended Support, 14 to 18 in standard support).
POSTGRES_MAJORS = ("11", "12", "13", "14", "15", "16", "17", "18")


@functools.cache
def option_group_majors() -> dict[str, frozenset[str]]:
    """The major versions CreateOptionGroup accepts, by engine: moto's own list, every
    major version in the DescribeOptionGroupOptions answers moto ships (AWS's, recorded),
    and PostgreSQL's from the RDS User Guide."""
    from moto.utilities.utils import load_resource

    known: dict[str, set[str]] = {
        "mariadb": {"10.0", "10.1", "10.2", "10.3", "10.4", "10.5", "10.6"},
        "mysql": {"5.5", "5.6", "5.7", "8.0"},
        "oracle-ee": {"19"}, "oracle-ee-cdb": {"19", "21"}, "oracle-se": set(),
        "oracle-se1": set(), "oracle-se2": {"19"}, "oracle-se2-cdb": {"19", "21"},
        "postgres": {"10", *POSTGRES_MAJORS},
        **{f"sqlserver-{e}": {"11.00", "12.00", "13.00", "14.00", "15.00"}
           for e in ("ee", "ex", "se", "web")},
        "db2-ae": set(), "db2-se": set(),
    }
    for engine, majors in known.items():
        try:
            options = load_resource(f"rds/resources/option_group_options/{engine}.json")
        except (FileNotFoundError, TypeError, json.JSONDecodeError):
            continue
        majors.update(str(o["MajorEngineVersion"]) for o in options)
    return {engine: frozenset(majors) for engine, majors in known.items()}


def default_option_group_name(engine: str, major: str) -> str:
    """The name of AWS's default option group of an engine's major version
    (`default:mysql-8-0`, `default:postgres-16`)."""
    return f"default:{engine}-{major.replace('.', '-')}"


def _major_of(engine: str, version: str) -> str | None:
    """The major version (as option groups name it) of an engine version, if known."""
    parts = version.split(".")
    for major in (".".join(parts[:2]), parts[0]):
        if major in option_group_majors().get(engine, ()):
            return major
    return None


def _major_named(engine: str, name: str) -> str | None:
    """The major version whose default option group of `engine` is called `name`."""
    return next((major for major in option_group_majors().get(engine, ())
                 if default_option_group_name(engine, major) == name.lower()), None)


def ensure_default_option_group(backend: Any, engine: str, major: str | None) -> None:
    """Create the default option group of an engine's major version in `backend` unless
    it exists (AWS has one for every engine major version)."""
    from moto.rds.models import OptionGroup

    if major is None:
        return
    name = default_option_group_name(engine, major)
    if name in backend.option_groups:
        return
    group = OptionGroup(backend, option_group_name=name, engine_name=engine,
                        major_engine_version=major,
                        option_group_description=f"Default option group for {engine} {major}")
    group.vpc_and_non_vpc_instance_memberships = True
    backend.option_groups[name] = group


def _refuse_option_group(backend: Any, kwargs: dict[str, Any]) -> None:
    """CreateOptionGroup's refusals, as RDS answers them."""
    from moto.rds.exceptions import RDSClientError

    name, engine = kwargs["option_group_name"], kwargs["engine_name"]
    if name in backend.option_groups:
        raise RDSClientError("OptionGroupAlreadyExistsFault",
                             f"An option group named {name} already exists.")
    if not kwargs.get("option_group_description"):
        raise RDSClientError("InvalidParameterValue", "The parameter OptionGroupDescription "
                             "must be provided and must not be blank.")
    if engine not in option_group_majors():
        raise RDSClientError("InvalidParameterValue", f"Invalid DB engine: {engine}")
    major = kwargs["major_engine_version"]
    if major not in option_group_majors()[engine]:
        raise RDSClientError("InvalidParameterCombination",
                             f"Cannot find major version {major} for {engine}")


def option_groups_for_current_engines() -> None:
    """CreateOptionGroup accepts every engine major version RDS offers, and each engine
    version's default option group exists.

    AWS (RDS API reference, CreateOptionGroup; RDS User Guide, "Working with option
    groups"): an option group is made for an engine and a major version; "each DB
    instance is associated with the default option group for its engine" unless it
    names one (`default:postgres-16`, `default:mysql-8-0`). moto 5.2's list stops at
    postgres 13, mysql 8.0 and mariadb 10.6 ("Cannot find major version 16 for
    postgres"), it has no default option groups, so naming one fails
    (OptionGroupNotFoundFault), and DescribeOptionGroups without a name fails (HTTP 500)
    where AWS lists every option group (DescribeOptionGroups API reference).
    """
    from moto.rds.models import OptionGroup, RDSBackend

    if getattr(RDSBackend.create_option_group, "_kit_fix", False):
        return
    create_instance = RDSBackend.create_db_instance
    describe_groups = RDSBackend.describe_option_groups

    def create_option_group(self: Any, kwargs: dict[str, Any]) -> Any:
        _refuse_option_group(self, kwargs)
        group = OptionGroup(self, **kwargs)
        self.option_groups[kwargs["option_group_name"]] = group
        return group

    def create_db_instance(self: Any, db_kwargs: dict[str, Any]) -> Any:
        engine = db_kwargs.get("engine")
        if engine and db_kwargs.get("option_group_name"):
            # A default group named before any instance used it: AWS has it already.
            ensure_default_option_group(self, engine,
                                        _major_named(engine, db_kwargs["option_group_name"]))
        database = create_instance(self, db_kwargs)
        if engine and not db_kwargs.get("db_cluster_identifier"):
            ensure_default_option_group(self, engine,
                                        _major_of(engine, database.engine_version or ""))
        return database

    def describe_option_groups(self: Any, kwargs: dict[str, Any]) -> list[Any]:
        if kwargs.get("option_group_name"):
            return describe_groups(self, kwargs)
        # No name: every group that matches the filters, none being no error (moto
        # 5.2 fails with KeyError, HTTP 500).
        return [g for g in self.option_groups.values()
                if kwargs.get("engine_name") in (None, g.engine_name)
                and kwargs.get("major_engine_version") in (None, g.major_engine_version)]

    create_option_group._kit_fix = True  # type: ignore[attr-defined]
    RDSBackend.describe_option_groups = describe_option_groups  # type: ignore[method-assign]
    RDSBackend.create_option_group = create_option_group  # type: ignore[method-assign]
    RDSBackend.create_db_instance = create_db_instance  # type: ignore[method-assign]


def modified_parameters_read_back_as_the_users() -> None:
    """Parameters set with ModifyDB(Cluster)ParameterGroup are described with Source
    "user", and DescribeDB(Cluster)Parameters filters by Source.

    AWS (RDS API reference, DescribeDBParameters / Parameter): Source is "the source of
    the parameter value" (`user`, `engine-default`, `system`); the Source request
    parameter returns "only parameters from this source". moto 5.2 stores a parameter as
    sent, without Source, and the provider keeps only parameters whose Source it can
    read, so every `aws_db_parameter_group` with parameters plans to set them again.
    """
    from moto.rds.models import DBClusterParameterGroup, DBParameterGroup
    from moto.rds.responses import RDSResponse

    if getattr(DBParameterGroup.update_parameters, "_kit_fix", False):
        return

    def sourced(update: Any) -> Any:
        def update_parameters(self: Any, new_parameters: Any) -> None:
            new_parameters = [{**p, "Source": "user"} for p in new_parameters]
            update(self, new_parameters)

        update_parameters._kit_fix = True  # type: ignore[attr-defined]
        return update_parameters

    def filtered(describe: Any) -> Any:
        def describe_parameters(self: Any) -> Any:
            result = describe(self)
            source = self.params.get("Source")
            if source:
                kept = [p for p in result.result["Parameters"] if p.get("Source") == source]
                result.result["Parameters"] = kept
            return result

        return describe_parameters

    DBParameterGroup.update_parameters = sourced(  # type: ignore[method-assign]
        DBParameterGroup.update_parameters)
    DBClusterParameterGroup.update_cluster_parameters = sourced(  # type: ignore[method-assign]
        DBClusterParameterGroup.update_cluster_parameters)
    RDSResponse.describe_db_parameters = filtered(  # type: ignore[method-assign]
        RDSResponse.describe_db_parameters)
    RDSResponse.describe_db_cluster_parameters = filtered(  # type: ignore[method-assign]
        RDSResponse.describe_db_cluster_parameters)
