"""The fort's planner in the bot (``/fort odds``, ``toride odds``): the runner that hands slices of plans to
worker processes (``runner``), what a worker runs (``worker``) and the command line (``cli``)."""
