// description: Papers that propose or use a method (by canonical name), with the role.
// param: method str a canonical method name, e.g. stochastic gradient descent
MATCH (p:Paper)-[r:USES|PROPOSES]->(m:Method {canonical: $method})
RETURN p.id, p.title, type(r) AS role
ORDER BY p.id
