// description: Datasets a method is evaluated on (by the method's canonical name), with the number
//   of papers stating it and the highest confidence.
// param: method str a canonical method name, e.g. attention dag
MATCH (d:Dataset)-[r:EVALUATED_FOR]->(m:Method {canonical: $method})
RETURN d.label, r.confidence, r.papers
ORDER BY d.label
