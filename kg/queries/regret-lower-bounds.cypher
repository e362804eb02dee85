// description: All regret lower bounds, the paper claiming each and its attribution.
MATCH (p:Paper)-[:CLAIMS_BOUND]->(b:Bound)-[:BOUNDS_QUANTITY]->(q:Metric)
WHERE b.bound_kind = "lower" AND q.canonical CONTAINS "regret"
RETURN p.id, p.title, b.latex, b.expr, q.canonical, b.attribution
