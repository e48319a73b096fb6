"""Proof data for source rewriting: where targets stand in Python, shell and text files, and what
TVM 0.27 makes of them (see tests/data/fix/SOURCES.md)."""
