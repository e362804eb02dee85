// description: Kinds of a method (by canonical name): what the abstracts say it is a kind of, with
//   the number of papers stating it and the highest confidence.
// param: method str a canonical method name, e.g. randomized smoothing
MATCH (m:Method {canonical: $method})-[r:HYPONYM_OF]->(k)
RETURN k.label, r.confidence, r.papers
ORDER BY k.label
