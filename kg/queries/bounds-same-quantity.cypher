// description: Bounds by quantity (grand-cypher cannot compare two variables, so this lists every
//   bound with its quantity and paper, ordered by quantity; the SPARQL form pairs them).
MATCH (p:Paper)-[:CLAIMS_BOUND]->(b:Bound)-[:BOUNDS_QUANTITY]->(q:Metric)
RETURN q.canonical, p.id, b.bound_kind, b.expr, b.latex
ORDER BY q.canonical
