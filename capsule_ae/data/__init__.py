"""Data sets: constellations, MNIST, MultiMNIST."""
