"""Reporting: headline results against the published numbers, and the benchmark tables."""
