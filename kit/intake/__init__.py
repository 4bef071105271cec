"""The trust boundary: every entry point takes a solution's tree once, as a snapshot the kit
owns (snapshot.py, made by a confined walker, walk.py), and reads only that afterwards; its
primitives for what the kit, as root, reads or writes under a directory a solution controls
(files.py: no link followed), and its git repository read as data (git.py: no git run with
the repository's own config). The gate's judgement of a solution's tree (which links and
names it refuses) is kit/deploy/intake.py."""
