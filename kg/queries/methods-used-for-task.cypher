// description: Methods used for a task (by canonical name), with the number of papers stating it
//   and the highest confidence.
// param: task str a canonical task name, e.g. question answering
MATCH (m:Method)-[r:USED_FOR]->(t:Task {canonical: $task})
RETURN m.label, r.confidence, r.papers
ORDER BY m.label
