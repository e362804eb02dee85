// description: Upper bounds whose expression contains sqrt(T).
MATCH (p:Paper)-[:CLAIMS_BOUND]->(b:Bound)
WHERE b.bound_kind = "upper" AND b.expr CONTAINS "sqrt(T)"
RETURN p.id, p.title, b.latex, b.expr, b.quantity, b.soft
