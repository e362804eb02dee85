/* kg HTML export, map view: papers coloured by region, placed where kg/export/regions.py put them.
 *
 * Physics is off: every position comes from the page data, so the same graph looks the same and the
 * page is still as soon as it is drawn. On a large graph each closed region is one node; opening it
 * draws its papers in its disc. Graph text is data: shown only through textContent (map_panels.js).
 * window.kg exposes the network, its DataSets and the page state to users and to the browser tests.
 */
(function () {
  "use strict";

  var started = performance.now();
  var data = JSON.parse(document.getElementById("kg-data").textContent);
  var papers = data.papers, regions = data.regions;
  var regionById = {}, regionIndex = {};
  regions.forEach(function (r, i) { regionById[r.id] = r; regionIndex[r.id] = i; });
  var paperIndex = {};
  papers.forEach(function (p, i) { paperIndex[p.id] = i; });
  // A concept of a link or of a related paper: an index into data.entities, or a name.
  function conceptName(c) { return typeof c === "number" ? data.entities[c].label : String(c); }
  // Search fields of each paper: title, methods, tasks, datasets and metrics, concepts.
  var FIELDS = { m: ["proposed", "used"], k: ["tasks"], d: ["datasets", "metrics"], c: ["concepts"] };
  papers.forEach(function (p) {
    p.label = p.title.length > 42 ? p.title.slice(0, 41).trim() + "…" : p.title;
    p.search = { t: p.title.toLowerCase() };
    Object.keys(FIELDS).forEach(function (f) {
      var words = [];
      FIELDS[f].forEach(function (key) {
        (p.panel[key] || []).forEach(function (e) { words.push(data.entities[e].label.toLowerCase()); });
      });
      p.search[f] = words.join(" | ");
    });
  });
  var neighbours = papers.map(function () { return []; });
  data.links.forEach(function (l, i) { neighbours[l.a].push(i); neighbours[l.b].push(i); });

  var state = { open: {}, hidden: {}, query: "", field: "", matches: null,
                yearFrom: null, yearTo: null, venue: "", bounds: false };
  if (data.level === "papers") regions.forEach(function (r) { state.open[r.id] = true; });

  var container = document.getElementById("kg-network");
  var nodes = new vis.DataSet(), edges = new vis.DataSet();
  var many = papers.length > 3000;
  var network = new vis.Network(container, { nodes: nodes, edges: edges }, {
    autoResize: true,
    physics: { enabled: false },
    layout: { randomSeed: 7, improvedLayout: false },
    nodes: { shape: "dot", borderWidth: 1, font: { size: 14, face: "system-ui, sans-serif", strokeWidth: 3, strokeColor: "#fff" },
             scaling: { label: { drawThreshold: 5 } } },
    edges: { smooth: false, selectionWidth: 2, font: { size: 10, color: "#555", strokeWidth: 3, align: "middle" } },
    interaction: { hover: true, tooltipDelay: 150, hideEdgesOnDrag: many, hideEdgesOnZoom: many, multiselect: true,
                   keyboard: false }
  });

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  function tip(lines) {
    var box = el("div", "kg-tip");
    lines.forEach(function (line, i) { if (line) box.appendChild(el("div", i === 0 ? "kg-tip-title" : "kg-tip-meta", line)); });
    return box;
  }
  function passes(p) {
    if (state.bounds && !p.bounds) return false;
    if (state.venue && p.venue !== state.venue) return false;
    if (state.yearFrom !== null && (p.year === null || p.year < state.yearFrom)) return false;
    if (state.yearTo !== null && (p.year === null || p.year > state.yearTo)) return false;
    return true;
  }
  function matchesQuery(p) {
    var q = state.query;
    if (!q) return false;
    if (state.field) return (p.search[state.field] || "").indexOf(q) !== -1;
    for (var k in p.search) if ((p.search[k] || "").indexOf(q) !== -1) return true;
    return false;
  }
  var DIM = "#e4e4e4";
  function paperNode(i) {
    var p = papers[i], r = regionById[p.region];
    var hit = state.matches && state.matches.papers[i], near = state.matches && state.matches.near[i];
    var color = !state.matches || hit || near ? r.color : DIM;
    return { id: p.id, label: p.label, x: p.x, y: p.y, size: hit ? p.size + 6 : p.size, kind: "Paper",
             region: p.region, borderWidth: hit ? 3 : 1,
             font: { color: !state.matches || hit || near ? "#222" : "#bbb" },
             color: { background: color, border: hit ? "#111" : color, highlight: { background: color, border: "#111" },
                      hover: { background: color, border: "#111" } },
             title: tip([p.title, [p.venue, p.year].filter(Boolean).join(" "), r.label]) };
  }
  function regionNode(r) {
    var hits = state.matches ? state.matches.regions[r.id] || 0 : 0;
    var dim = state.matches && !hits;
    var color = dim ? DIM : r.color;
    // The name is drawn by regionNames() below, at a size readable at any zoom and never over another.
    return { id: "region:" + r.id, label: "", x: r.x, y: r.y, size: r.size, kind: "Region", region: r.id,
             hits: hits, dim: dim, shape: "dot", borderWidth: hits ? 4 : 2,
             color: { background: color, border: hits ? "#111" : "#fff", highlight: { background: color, border: "#111" },
                      hover: { background: color, border: "#111" } },
             title: tip([r.label, r.papers.toLocaleString("en") + " papers · click to open"]) };
  }

  // What is on screen follows from the state: closed regions as nodes, open ones as their papers.
  function desired() {
    var ns = {}, es = {};
    var maxLink = 1;
    data.region_links.forEach(function (l) { maxLink = Math.max(maxLink, l.weight); });
    regions.forEach(function (r) {
      if (state.hidden[r.id]) return;
      if (!state.open[r.id]) { ns["region:" + r.id] = function () { return regionNode(r); }; }
    });
    papers.forEach(function (p, i) {
      if (state.hidden[p.region] || !state.open[p.region] || !passes(p)) return;
      ns[p.id] = function () { return paperNode(i); };
    });
    data.region_links.forEach(function (l, i) {
      var a = "region:" + l.from, b = "region:" + l.to;
      if (!ns[a] || !ns[b]) return;
      es["rl:" + i] = function () {
        return { id: "rl:" + i, from: a, to: b, kind: "RegionLink", link: i, label: l.label || undefined,
                 width: 1 + 5 * l.weight / maxLink, color: { color: "#9aa7b5", highlight: "#222", hover: "#222" },
                 title: tip([l.count + " share links", l.concepts.map(function (c) { return c[0]; }).join(", ")]) };
      };
    });
    var labelled = data.links.length <= 300;
    data.links.forEach(function (l, i) {
      var a = papers[l.a].id, b = papers[l.b].id;
      if (!ns[a] || !ns[b]) return;
      var lit = !state.matches || state.matches.papers[l.a] || state.matches.papers[l.b];
      es["l:" + i] = function () {
        return { id: "l:" + i, from: a, to: b, kind: "Link", link: i, label: labelled && l.l ? l.l : undefined,
                 width: l.width, color: { color: lit ? "#9aa7b5" : "#eeeeee", highlight: "#222", hover: "#222" },
                 font: { color: lit ? "#555" : "#ccc" },
                 title: tip([l.l, l.c.map(function (c) { return conceptName(c[0]); }).join(", ")]) };
      };
    });
    return { nodes: ns, edges: es };
  }
  function render() {
    var want = desired();
    var haveN = nodes.getIds(), haveE = edges.getIds();
    edges.remove(haveE.filter(function (id) { return !want.edges[id]; }));
    nodes.remove(haveN.filter(function (id) { return !want.nodes[id]; }));
    nodes.update(Object.keys(want.nodes).map(function (id) { return want.nodes[id](); }));
    edges.update(Object.keys(want.edges).map(function (id) { return want.edges[id](); }));
    var shown = 0;
    papers.forEach(function (p) { if (!state.hidden[p.region] && state.open[p.region] && passes(p)) shown++; });
    var passing = papers.filter(passes).length;
    document.getElementById("kg-filter-count").textContent = passing === papers.length ? "" :
      passing.toLocaleString("en") + " of " + papers.length.toLocaleString("en") + " papers pass the filters";
    status.textContent = shown.toLocaleString("en") + " of " + papers.length.toLocaleString("en") + " papers drawn, " +
      regions.filter(function (r) { return !state.open[r.id] && !state.hidden[r.id]; }).length + " closed regions";
    closeAll.hidden = !regions.some(function (r) { return state.open[r.id]; }) || data.level === "papers";
    regions.forEach(function (r, i) {
      var b = openButtons[i];
      if (b) b.textContent = state.open[r.id] ? "close" : "open";
    });
    document.body.setAttribute("data-open-regions", String(regions.filter(function (r) { return state.open[r.id]; }).length));
  }

  var status = document.getElementById("kg-status");
  var closeAll = document.getElementById("kg-close-all");
  var openButtons = [];

  function openRegion(id, focus) {
    state.open[id] = true;
    state.hidden[id] = false;
    var box = regionBoxes[regionIndex[id]];
    if (box) box.checked = true;
    render();
    if (focus) {
      var r = regionById[id];
      var ids = papers.filter(function (p) { return p.region === id && nodes.get(p.id); }).map(function (p) { return p.id; });
      if (ids.length) network.fit({ nodes: ids, maxZoomLevel: 1.2, animation: false });
      else network.moveTo({ position: { x: r.x, y: r.y }, animation: false });
    }
  }
  function closeRegion(id) {
    if (data.level === "papers") return;
    state.open[id] = false;
    render();
  }
  closeAll.addEventListener("click", function () {
    regions.forEach(function (r) { state.open[r.id] = false; });
    render();
    network.fit({ animation: false });
  });

  // The region legend: show/hide each region, open/close it on the map of regions.
  var regionList = document.getElementById("kg-regions");
  var regionBoxes = regions.map(function (r) {
    var li = el("li");
    var label = el("label");
    var box = el("input");
    box.type = "checkbox";
    box.checked = true;
    box.setAttribute("data-region", String(r.id));
    box.addEventListener("change", function () { state.hidden[r.id] = !box.checked; render(); });
    var swatch = el("span", "kg-swatch");
    swatch.style.background = r.color;
    var name = el("span", "kg-region-name", r.label);
    name.title = r.label;
    label.appendChild(box);
    label.appendChild(swatch);
    label.appendChild(name);
    li.appendChild(label);
    li.appendChild(el("span", "kg-count", r.papers.toLocaleString("en")));
    if (data.level === "regions") {
      var b = el("button", "kg-region-open", "open");
      b.type = "button";
      b.setAttribute("data-region-open", String(r.id));
      b.addEventListener("click", function () {
        if (state.open[r.id]) closeRegion(r.id); else openRegion(r.id, true);
        panels.region(r);
      });
      openButtons.push(b);
      li.appendChild(b);
    } else {
      openButtons.push(null);
    }
    regionList.appendChild(li);
    return box;
  });

  // Filters: year range, venue, has bounds.
  var yearFrom = document.getElementById("kg-year-from"), yearTo = document.getElementById("kg-year-to");
  [yearFrom, yearTo].forEach(function (sel, k) {
    sel.appendChild(el("option", "", k ? "any" : "any")).value = "";
    data.years.forEach(function (y) { sel.appendChild(el("option", "", y)).value = String(y); });
    sel.addEventListener("change", function () {
      state.yearFrom = yearFrom.value ? Number(yearFrom.value) : null;
      state.yearTo = yearTo.value ? Number(yearTo.value) : null;
      runSearch();
    });
  });
  var venue = document.getElementById("kg-venue");
  data.venues.forEach(function (v) { venue.appendChild(el("option", "", v)).value = v; });
  venue.addEventListener("change", function () { state.venue = venue.value; runSearch(); });
  var hasBounds = document.getElementById("kg-has-bounds");
  document.getElementById("kg-bounds-count").textContent = data.with_bounds.toLocaleString("en");
  hasBounds.addEventListener("change", function () { state.bounds = hasBounds.checked; runSearch(); });

  // Search: matches and their neighbours stay lit, the rest dims; closed regions count their matches.
  var search = document.getElementById("kg-search"), searchIn = document.getElementById("kg-search-in");
  var searchCount = document.getElementById("kg-search-count");
  function runSearch() {
    var q = search.value.trim().toLowerCase();
    state.query = q.length >= 2 ? q : "";
    state.field = searchIn.value;
    if (!state.query) {
      state.matches = null;
      searchCount.textContent = "";
      render();
      return;
    }
    var m = { papers: {}, near: {}, regions: {}, count: 0, ids: [] };
    papers.forEach(function (p, i) {
      if (!passes(p) || state.hidden[p.region] || !matchesQuery(p)) return;
      m.papers[i] = true;
      m.count++;
      m.regions[p.region] = (m.regions[p.region] || 0) + 1;
      m.ids.push(p.id);
      neighbours[i].forEach(function (li) { var l = data.links[li]; m.near[l.a === i ? l.b : l.a] = true; });
    });
    state.matches = m;
    searchCount.textContent = m.count + (m.count === 1 ? " match" : " matches") +
      (Object.keys(m.regions).length ? " in " + Object.keys(m.regions).length + " region" + (Object.keys(m.regions).length === 1 ? "" : "s") : "");
    render();
    var onScreen = m.ids.filter(function (id) { return nodes.get(id); });
    Object.keys(m.regions).forEach(function (rid) { if (nodes.get("region:" + rid)) onScreen.push("region:" + rid); });
    network.selectNodes(onScreen, true);
    if (onScreen.length === 1 && m.count === 1 && nodes.get(m.ids[0])) panels.paper(paperIndex[m.ids[0]]);
    if (onScreen.length) network.fit({ nodes: onScreen, maxZoomLevel: 1.0, animation: false });
  }
  search.addEventListener("input", runSearch);
  searchIn.addEventListener("change", runSearch);

  var panels = window.kgPanels({ data: data, el: el, papers: papers, regionById: regionById, conceptName: conceptName,
    showPaper: function (i) {
      var p = papers[i];
      if (!state.open[p.region] || state.hidden[p.region]) openRegion(p.region, false);
      if (nodes.get(p.id)) {
        network.selectNodes([p.id], true);
        network.focus(p.id, { scale: Math.max(network.getScale(), 1.0), animation: false });
      }
    },
    openRegion: function (id) { openRegion(id, true); },
    closeRegion: closeRegion,
    isOpen: function (id) { return !!state.open[id]; } });

  network.on("click", function (params) {
    if (params.nodes.length) {
      var n = nodes.get(params.nodes[0]);
      if (n.kind === "Region") {
        var r = regionById[n.region];
        openRegion(r.id, true);
        panels.region(r);
      } else {
        panels.paper(paperIndex[n.id]);
      }
    } else if (params.edges.length) {
      var e = edges.get(params.edges[0]);
      if (e.kind === "Link") panels.link(e.link); else panels.regionLink(e.link);
    } else {
      panels.hide();
    }
  });

  // The note: what is aggregated and how to open it (numbers only, from kg/export/mapview.py).
  if (data.note.length) {
    var note = document.getElementById("kg-note");
    data.note.forEach(function (part) {
      note.appendChild(part[0] === "option" ? el("code", "kg-option", part[1]) : document.createTextNode(part[1]));
    });
    note.hidden = false;
  }

  // Region names, drawn on the canvas at a fixed screen size: above an open region's disc, under a
  // closed region's node; largest regions first, and a name that would cover one already drawn is
  // left out (the legend lists every region; hovering a region shows its name).
  function regionNames(ctx) {
    var scale = network.getScale(), boxes = [];
    var order = regions.slice().sort(function (a, b) { return b.papers - a.papers; });
    order.forEach(function (r) {
      if (state.hidden[r.id]) return;
      var open = !!state.open[r.id];
      if (open && r.other) return;
      var hits = state.matches ? state.matches.regions[r.id] || 0 : 0;
      var px = (open ? 12 : r.papers >= order[0].papers / 4 ? 15 : 13) / scale;
      var name = r.label.length > 48 ? r.label.slice(0, 47) + "…" : r.label;
      var second = open ? "" : r.papers.toLocaleString("en") + " papers" + (hits ? " · " + hits + " match" + (hits === 1 ? "" : "es") : "");
      ctx.font = "600 " + px + "px system-ui, sans-serif";
      var width = Math.max(ctx.measureText(name).width, second ? ctx.measureText(second).width * 0.85 : 0);
      var top = open ? r.y - r.radius - 2.4 * px : r.y + r.size + 0.4 * px;
      var box = { x0: r.x - width / 2, x1: r.x + width / 2, y0: top, y1: top + (second ? 2.2 : 1.2) * px };
      for (var k = 0; k < boxes.length; k++) {
        var b = boxes[k];
        if (box.x0 < b.x1 && b.x0 < box.x1 && box.y0 < b.y1 && b.y0 < box.y1) return;
      }
      boxes.push(box);
      ctx.textAlign = "center";
      ctx.textBaseline = "top";
      ctx.lineWidth = px / 4;
      ctx.strokeStyle = "rgba(255,255,255,0.9)";
      ctx.fillStyle = open ? r.color : (state.matches && !hits ? "#bbb" : "#222");
      ctx.strokeText(name, r.x, top);
      ctx.fillText(name, r.x, top);
      if (second) {
        ctx.font = (0.85 * px) + "px system-ui, sans-serif";
        ctx.fillStyle = "#555";
        ctx.strokeText(second, r.x, top + 1.15 * px);
        ctx.fillText(second, r.x, top + 1.15 * px);
      }
    });
    document.body.setAttribute("data-region-names", String(boxes.length));
  }
  network.on("afterDrawing", regionNames);

  render();
  network.fit({ animation: false });
  // Room for the region names drawn above the discs.
  network.moveTo({ scale: network.getScale() * 0.92, animation: false });
  network.once("afterDrawing", function () {
    var ms = Math.round(performance.now() - started);
    document.body.setAttribute("data-settle-ms", String(ms));
    document.body.setAttribute("data-stabilized", "true");
  });
  network.redraw();

  window.kg = { network: network, nodes: nodes, edges: edges, data: data, state: state, panels: panels,
                regionBoxes: regionBoxes, openRegion: openRegion, closeRegion: closeRegion, render: render };
  window.kgNetwork = network;
})();
