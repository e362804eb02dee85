"""Shared pytest configuration. Fixture modules are plugins listed here, one per concern."""

pytest_plugins: list[str] = [
    "tests.fixtures.graph",  # seed graph built once per session
    "tests.fixtures.neo4j",  # real Neo4j 5.26 server over Bolt
    "tests.fixtures.jena",  # real Apache Jena 5.6 command-line tools (riot, arq, shacl)
    "tests.fixtures.browser",  # real headless Chromium
    "tests.fixtures.entities",  # entity extractor: real pipeline, and rules alone
    "tests.fixtures.bounds",  # bounds extractor through the real pipeline
]
