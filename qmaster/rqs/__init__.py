"""Resource quota sets (sge_resource_quota(5)): the file format, rule matching and usage."""
