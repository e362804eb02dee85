// description: The direct members of a technique family, each with its papers (grand-cypher has
//   no variable-length paths; the SPARQL form follows every level).
// param: family str a family label, e.g. bandit algorithms
MATCH (e)-[:BROADER]->(f)
WHERE f.family = true AND f.label = $family
RETURN e.label, e.papers
ORDER BY e.papers DESC, e.label
