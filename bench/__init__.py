"""Benchmarks: `make bench` prints tables; nothing here asserts a time."""
