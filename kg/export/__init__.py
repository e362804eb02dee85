"""Exports of a built graph: Neo4j, the interactive HTML page, RDF and interchange files."""
