/* kg HTML export: draws the graph embedded as JSON in #kg-data with vis-network.
 *
 * Graph text is data, never markup: it is read with JSON.parse and shown only through
 * textContent (tooltips are DOM elements, not HTML strings), and no event handler is built
 * from it. window.kg exposes the network and its DataSets to users and to the browser tests.
 */
(function () {
  "use strict";

  var started = performance.now();
  var data = JSON.parse(document.getElementById("kg-data").textContent);
  var container = document.getElementById("kg-network");

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  // rows: [[cssClass, text], ...] made by kg/export/html.py; the class is one of a fixed set.
  var ROW_CLASSES = { title: 1, meta: 1, body: 1, list: 1 };
  function tipElement(rows) {
    var box = el("div", "kg-tip");
    rows.forEach(function (row) {
      box.appendChild(el("div", "kg-tip-" + (ROW_CLASSES[row[0]] ? row[0] : "body"), row[1]));
    });
    return box;
  }

  var nodes = new vis.DataSet(data.nodes.map(function (n) {
    return {
      id: n.id, label: n.label, kind: n.kind, shape: n.shape, size: n.size, hidden: false,
      color: { background: n.color, border: n.color, highlight: { background: n.color, border: "#222" },
               hover: { background: n.color, border: "#222" } },
      title: tipElement(n.tip), tip: n.tip, search: n.search
    };
  }));
  var edges = new vis.DataSet(data.edges.map(function (e) {
    return {
      id: e.id, from: e.from, to: e.to, predicate: e.predicate, hidden: false, width: e.width,
      label: data.options.edge_labels && e.label ? e.label : undefined,
      color: { color: e.color, highlight: "#222", hover: "#222", opacity: 0.8 },
      arrows: e.arrows ? { to: { enabled: true, scaleFactor: 0.5 } } : undefined,
      smooth: e.parallel > 0 ? { enabled: true, type: "curvedCW", roundness: 0.25 * e.parallel } : undefined,
      title: tipElement(e.tip), tip: e.tip
    };
  }));

  var small = data.nodes.length <= 300;
  var network = new vis.Network(container, { nodes: nodes, edges: edges }, {
    autoResize: true,
    layout: { randomSeed: 7, improvedLayout: data.nodes.length <= 150 },
    nodes: { font: { size: 13, face: "system-ui, sans-serif" }, borderWidth: 1,
             scaling: { label: { drawThreshold: small ? 5 : 8 } } },
    edges: { width: 1, selectionWidth: 2, font: { size: 10, color: "#555", strokeWidth: 3, align: "middle" },
             smooth: data.options.smooth ? { enabled: true, type: "continuous", roundness: 0.3 } : false },
    physics: {
      enabled: true,
      solver: "barnesHut",
      // Small graphs: strong central gravity keeps unlinked nodes near the rest, so the fitted view
      // is not zoomed out so far that labels vanish. Large ones: more room, labels on zooming in.
      barnesHut: small
        ? { gravitationalConstant: -4000, centralGravity: 0.6, springLength: 110, springConstant: 0.04,
            damping: 0.3, avoidOverlap: 0.1 }
        : { theta: 0.8, gravitationalConstant: -6000, centralGravity: 0.25, springLength: 140,
            springConstant: 0.03, damping: 0.25, avoidOverlap: 0.1 },
      stabilization: { enabled: true, iterations: data.options.iterations, updateInterval: 10, fit: true }
    },
    interaction: { hover: true, tooltipDelay: 120, hideEdgesOnDrag: data.edges.length > 3000,
                   hideEdgesOnZoom: data.edges.length > 3000, multiselect: true, navigationButtons: false,
                   keyboard: false }
  });

  var status = document.getElementById("kg-status");
  var iterationsDone = 0;
  var layoutEnd = "stable";  // or "budget": the time budget cut the layout short
  function settled() {
    // The layout has done its iterations: stop physics so the page stays still and cheap.
    network.setOptions({ physics: { enabled: false } });
    status.textContent = data.nodes.length + " nodes, " + data.edges.length + " edges";
    document.body.setAttribute("data-layout-iterations", String(iterationsDone));
    document.body.setAttribute("data-layout-end", layoutEnd);
    document.body.setAttribute("data-stabilized", "true");
  }
  if (data.nodes.length === 0) {
    settled();
  } else {
    network.on("stabilizationProgress", function (p) {
      iterationsDone = p.iterations;
      status.textContent = "Laying out… " + Math.round(100 * p.iterations / p.total) + "%";
      // The layout's time budget: on a slow or busy machine stop after this batch of iterations
      // instead of making the page wait (vis-network 9.1.2 checks targetIterations between batches).
      // At least 20 iterations, though: random starting positions are no picture at all.
      if (performance.now() - started > data.options.layout_ms && p.iterations >= 20 &&
          p.iterations < p.total) {
        network.physics.targetIterations = p.iterations;
        layoutEnd = "budget";
      }
    });
    network.once("stabilizationIterationsDone", settled);
  }

  // Say what folding left out: parts made by fold_note() in kg/export/html.py (numbers only).
  if (data.note.length) {
    var note = document.getElementById("kg-note");
    data.note.forEach(function (part) {
      note.appendChild(part[0] === "option" ? el("code", "kg-option", part[1]) : document.createTextNode(part[1]));
    });
    note.hidden = false;
  }

  // Filters: one checkbox per node kind and per edge predicate.
  function filterItem(list, swatchClass, color, glyph, text, count, onChange) {
    var li = el("li");
    var label = el("label");
    var box = el("input");
    box.type = "checkbox";
    box.checked = true;
    box.addEventListener("change", function () { onChange(box.checked); });
    var swatch = el("span", "kg-swatch " + swatchClass, glyph);
    if (glyph) swatch.style.color = color; else swatch.style.background = color;
    label.appendChild(box);
    label.appendChild(swatch);
    label.appendChild(el("span", "kg-filter-name", text));
    label.appendChild(el("span", "kg-count", count));
    li.appendChild(label);
    list.appendChild(li);
    return box;
  }
  var kindBoxes = {};
  data.legend.forEach(function (item) {
    kindBoxes[item.kind] = filterItem(document.getElementById("kg-legend"), "kg-glyph", item.color, item.glyph,
      item.kind, item.count,
      function (on) {
        nodes.update(nodes.get({ filter: function (n) { return n.kind === item.kind; } })
          .map(function (n) { return { id: n.id, hidden: !on }; }));
      });
    kindBoxes[item.kind].setAttribute("data-kind", item.kind);
  });
  data.predicates.forEach(function (item) {
    var box = filterItem(document.getElementById("kg-edge-legend"), "kg-swatch-line", item.color, "",
      item.words, item.count,
      function (on) {
        edges.update(edges.get({ filter: function (e) { return e.predicate === item.predicate; } })
          .map(function (e) { return { id: e.id, hidden: !on }; }));
      });
    box.setAttribute("data-predicate", item.predicate);
  });

  // Details panel: what was selected, pinned (the same rows as the tooltip).
  var details = document.getElementById("kg-details");
  var detailsBody = document.getElementById("kg-details-body");
  function showDetails(rows) {
    detailsBody.replaceChildren(tipElement(rows));
    details.hidden = false;
  }
  network.on("click", function (params) {
    if (params.nodes.length) {
      showDetails(nodes.get(params.nodes[0]).tip);
    } else if (params.edges.length) {
      showDetails(edges.get(params.edges[0]).tip);
    } else {
      details.hidden = true;
    }
  });

  // Search: select the visible nodes whose label, title, name or aliases contain the query.
  var search = document.getElementById("kg-search");
  var searchCount = document.getElementById("kg-search-count");
  search.addEventListener("input", function () {
    var q = search.value.trim().toLowerCase();
    if (q.length < 2) {
      network.unselectAll();
      searchCount.textContent = "";
      return;
    }
    var ids = nodes.getIds({ filter: function (n) { return !n.hidden && n.search.indexOf(q) !== -1; } });
    network.selectNodes(ids, false);
    searchCount.textContent = ids.length + (ids.length === 1 ? " match" : " matches");
    if (ids.length === 1) {
      network.focus(ids[0], { scale: Math.max(network.getScale(), 1.0), animation: false });
      showDetails(nodes.get(ids[0]).tip);
    } else if (ids.length > 1) {
      network.fit({ nodes: ids, maxZoomLevel: 1.0, animation: false });
    }
  });

  window.kg = { network: network, nodes: nodes, edges: edges, data: data, kindBoxes: kindBoxes };
  window.kgNetwork = network;  // the name bench/run.py reads the drawn node count from
})();
