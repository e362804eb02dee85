// description: Methods used together (each pair appears in both orders: grand-cypher cannot
//   compare two variables).
MATCH (a:Method)<-[:USES]-(p:Paper)-[:USES]->(b:Method)
RETURN a.canonical, b.canonical, COUNT(p) AS papers
ORDER BY papers DESC
LIMIT 50
