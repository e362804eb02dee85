// description: Papers sharing techniques with a given paper, strongest link first, with the shared
//   concepts that explain each link.
// param: paper str a paper id, e.g. p-6523ccd9390b
MATCH (a:Paper {id: $paper})-[r:SHARES_TECHNIQUE_WITH]->(b:Paper)
RETURN b.id, b.title, r.weight, r.shared
ORDER BY r.weight DESC
