// description: Papers of a topic.
// param: topic int a topic number, e.g. 0
MATCH (p:Paper)
WHERE p.topic = $topic
RETURN p.id, p.title
ORDER BY p.id
