// description: The concepts a paper's technique links go through, most specific first (`shared`;
//   `via`: each one's concept and level, as JSON), one row per linked paper: find `other` among
//   them (grand-cypher can match neither the second paper by id nor several relationship types;
//   the SPARQL form answers for the pair, over the task and concept links too).
// param: paper str a paper id, e.g. p-5a02604ffd02
// param: other str another paper id, e.g. p-9898d1ffb550
MATCH (a:Paper {id: $paper})-[r:SHARES_TECHNIQUE_WITH]->(b:Paper)
RETURN b.id, r.label, r.shared, r.via
ORDER BY b.id
