// description: The most used methods: how many papers propose or use each canonical method.
MATCH (p:Paper)-[r:USES|PROPOSES]->(m:Method)
RETURN m.canonical, m.label, COUNT(p) AS papers
ORDER BY papers DESC
LIMIT 25
