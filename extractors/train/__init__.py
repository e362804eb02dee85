"""Reproducible training of the models the extractors ship (run as scripts, never at extraction time)."""
