"""Training: the loop, run directories, distributed runs, stacked seeds, selection, optimisers, the harness."""
