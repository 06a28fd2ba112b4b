"""studylib: the study runner behind `simt study` (scripts/study.py).

One concept per module: model (the study file and its grid), keys (what
decides a result), cache (records stored atomically), point (one simt run),
progress (the progress line), local (parallel runs here), slurm (job
arrays), metrics (expressions over statistics), report (tables and charts),
repro (what the papers' reproduction scripts, scripts/repro_NNN.py, share).
docs/experiments.md is the user's guide.
"""
