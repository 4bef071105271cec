"""ElastiCache: subnet groups can be deleted.

moto internals touched:
moto.elasticache.responses.ElastiCacheResponse.delete_cache_subnet_group,
ElastiCacheResponse.elasticache_backend, ElastiCacheBackend.cache_subnet_groups,
ElastiCacheBackend.tagging_service, CacheSubnetGroup.arn,
moto.elasticache.exceptions.CacheSubnetGroupNotFound, moto.core.responses.EmptyResult,
BaseResponse._get_param.
"""

from __future__ import annotations

from typing import Any


def cache_subnet_groups_can_be_deleted() -> None:
    """DeleteCacheSubnetGroup deletes a cache subnet group.

    AWS (ElastiCache API reference, DeleteCacheSubnetGroup): "Deletes a cache subnet
    group"; CacheSubnetGroupNotFoundFault when there is none. moto 5.2 creates them but
    does not implement the delete, so a stack holding one cannot be destroyed
    (terraform-aws-modules/vpc creates one with `create_elasticache_subnet_group`).
    """
    from moto.core.responses import EmptyResult
    from moto.elasticache.exceptions import CacheSubnetGroupNotFound
    from moto.elasticache.responses import ElastiCacheResponse

    if hasattr(ElastiCacheResponse, "delete_cache_subnet_group"):
        return

    def delete_cache_subnet_group(self: Any) -> Any:
        backend = self.elasticache_backend
        name = self._get_param("CacheSubnetGroupName")
        group = backend.cache_subnet_groups.pop(name, None)
        if group is None:
            raise CacheSubnetGroupNotFound(name)
        backend.tagging_service.delete_all_tags_for_resource(group.arn)
        return EmptyResult()

    ElastiCacheResponse.delete_cache_subnet_group = delete_cache_subnet_group  # type: ignore[attr-defined]
