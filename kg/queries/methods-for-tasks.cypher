// description: Papers proposing a method for a task.
MATCH (m:Method)<-[:PROPOSES]-(p:Paper)-[:ADDRESSES]->(t:Task)
RETURN t.label, p.id, p.title, m.label
ORDER BY t.label
