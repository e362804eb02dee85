// description: Evidence of a paper's edges: property, entity, mention text, offsets and sentence.
// param: paper str a paper id, e.g. p-6523ccd9390b
MATCH (p:Paper {id: $paper})-[r:PROPOSES|USES|ADDRESSES|EVALUATES_ON|MEASURES|MENTIONS]->(e)
RETURN type(r) AS type, e.label, r.text, r.start, r.end, r.sentence, r.extractor, r.confidence
ORDER BY r.start
