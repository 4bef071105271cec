"""The trust boundary's primitives: what the kit, as root, reads or writes under a directory
a solution controls (files.py: no link followed), and its git repository read as data
(git.py: no git run with the repository's own config). The gate's judgement of a
solution's tree (which links and names it refuses) is kit/deploy/intake.py."""
