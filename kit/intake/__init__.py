"""The trust boundary: what the kit, as root, takes from a directory a solution controls."""
