// description: Datasets and who evaluates on them.
MATCH (p:Paper)-[:EVALUATES_ON]->(d:Dataset)
RETURN d.label, p.id, p.title
ORDER BY d.label
