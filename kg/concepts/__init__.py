"""The concept layer: canonical concepts, their hierarchy, their specificity, and the paper links
they justify (issue 27).

Entity nodes ``<Type>:<slug>`` are the concepts. On top of :mod:`kg.resolve` (which merges case,
lemma, hyphen and acronym variants within a type) this package

- merges near-variants of one name (:mod:`kg.concepts.merge`): every word singular, spacing
  and hyphen variants ("pre-training" / "pretraining"), and a generic head dropped when the
  shorter name is itself a concept ("phased elimination algorithm" ≡ "phased elimination");
- knows how specific a concept is (:mod:`kg.concepts.stats`): its document frequency in a
  reference corpus (``data/concept_df.tsv.gz``, rebuilt by ``tools/build_concept_df.py``), its
  IDF, and a reviewed stop-list of generic terms (``data/generic.txt``);
- builds a broader/narrower hierarchy (:mod:`kg.concepts.hierarchy`) from the structure of the
  terms, lexico-syntactic patterns in the abstracts, a curated taxonomy of technique families
  (``data/taxonomy.jsonl``) and ``hyponymOf`` relations;
- links papers that share specific concepts, directly or through a common broader concept
  (:mod:`kg.concepts.links`), and names the regions of the link graph.

Data files are under ``kg/concepts/data/``; each says where its entries come from.
"""
