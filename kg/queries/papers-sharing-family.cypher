// description: Papers sharing a technique family with a given paper (direct members of a
//   family only: grand-cypher has no variable-length paths; the SPARQL form follows every level).
// param: paper str a paper id, e.g. p-9898d1ffb550
MATCH (a:Paper {id: $paper})-->(e1)-[:BROADER]->(f)<-[:BROADER]-(e2)<--(b:Paper)
WHERE f.family = true
RETURN f.label, b.id, b.title, COUNT(e2) AS members
ORDER BY f.label, members DESC, b.id
