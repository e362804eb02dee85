// description: Papers claiming bounds, with their number of bounds.
MATCH (p:Paper)-[:CLAIMS_BOUND]->(b:Bound)
RETURN p.id, p.title, COUNT(b) AS bounds
ORDER BY bounds DESC
