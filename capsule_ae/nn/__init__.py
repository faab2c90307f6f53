"""Layers and likelihoods: set attention, mixtures, routing, the capsule layer, input checks, precision, ranks."""
