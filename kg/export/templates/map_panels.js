/* kg HTML export, map view: the selection panel (a paper, a share link, a concept, a region).
 *
 * Everything shown comes from the page data computed by kg/export/mapview.py and is put on screen
 * with textContent only. window.kgPanels(ctx) returns the panel functions map.js calls.
 */
(function () {
  "use strict";

  window.kgPanels = function (ctx) {
    var data = ctx.data, el = ctx.el, papers = ctx.papers, ents = data.entities;
    var panel = document.getElementById("kg-panel"), body = document.getElementById("kg-panel-body");
    var LEVELS = ["same concept", "common parent", "common ancestor (2 levels up)"];
    var PREDICATES = { sharesTechniqueWith: "shares technique with", sharesTaskWith: "shares task with",
                       sharesConceptWith: "shares concept with" };
    document.getElementById("kg-panel-close").addEventListener("click", hide);

    function levelWords(level) { return LEVELS[level] || "common ancestor (" + level + " levels up)"; }
    function show(kind, nodes) {
      body.replaceChildren.apply(body, nodes);
      panel.setAttribute("data-kind", kind);
    }
    var help = document.getElementById("kg-panel-help");
    function hide() { body.replaceChildren(help); panel.removeAttribute("data-kind"); }
    function section(title, items) {
      if (!items.length) return [];
      var ul = el("ul");
      items.forEach(function (item) { var li = el("li"); li.appendChild(item); ul.appendChild(li); });
      return [el("h4", "", title), ul];
    }
    function button(text, onClick, attr) {
      var b = el("button", "kg-link", text);
      b.type = "button";
      b.addEventListener("click", onClick);
      if (attr) b.setAttribute(attr[0], attr[1]);
      return b;
    }
    function entityButton(i) {
      return button(ents[i].label, function () { concept(i); }, ["data-entity", ents[i].id]);
    }
    function paperButton(i) {
      return button(papers[i].title, function () { ctx.showPaper(i); paper(i); }, ["data-paper", papers[i].id]);
    }
    function span(cls, text) { return el("span", cls, text); }
    function line(parts) {
      var s = el("span");
      parts.forEach(function (p) { s.appendChild(typeof p === "string" ? document.createTextNode(p) : p); });
      return s;
    }
    function shared(concepts) {
      // [[name, level], ...] → "X (same concept), Y (common parent)"
      return line(concepts.map(function (c, k) {
        var s = el("span");
        s.appendChild(document.createTextNode((k ? ", " : "") + ctx.conceptName(c[0]) + " "));
        s.appendChild(span("kg-level", "(" + levelWords(c[1]) + ")"));
        return s;
      }));
    }
    function entityList(p, key) {
      var items = (p.panel[key] || []).map(entityButton);
      if (p.panel[key + "_more"]) items.push(span("kg-meta", "and " + p.panel[key + "_more"] + " more"));
      return items;
    }

    function paper(i) {
      var p = papers[i], pp = p.panel, r = ctx.regionById[p.region];
      var out = [el("h3", "kg-panel-title", p.title)];
      var meta = [p.venue, p.year].filter(Boolean).join(" ");
      if (pp.authors) meta = meta ? meta + " · " + pp.authors : pp.authors;
      if (meta) out.push(el("div", "kg-meta", meta));
      if (pp.derived) out.push(el("div", "kg-meta", "Title derived from the abstract (the record has none)."));
      var region = el("div", "kg-meta");
      region.appendChild(document.createTextNode("Region: "));
      region.appendChild(button(r.label, function () { ctx.openRegion(r.id); regionPanel(r); }, ["data-region-link", String(r.id)]));
      out.push(region);
      if (pp.abstract) out.push(el("p", "kg-abstract", pp.abstract));
      out = out.concat(section("Methods proposed", entityList(p, "proposed")));
      out = out.concat(section("Methods used", entityList(p, "used")));
      out = out.concat(section("Tasks", entityList(p, "tasks")));
      out = out.concat(section("Datasets", entityList(p, "datasets")));
      out = out.concat(section("Metrics", entityList(p, "metrics")));
      out = out.concat(section("Bounds", (pp.bounds || []).map(function (b) {
        var s = line([span("kg-bound", b[0])]);
        var what = [b[2], b[1] ? b[1] + " bound" : "bound"].filter(Boolean).join(" ");
        s.appendChild(span("kg-meta", " — " + what));
        return s;
      })));
      out = out.concat(section("Related papers (kg related)", (pp.similar || []).map(function (rel) {
        var s = line([paperButton(rel[0])]);
        if (rel[1]) s.appendChild(el("div", "kg-why", rel[1]));
        return s;
      })));
      out = out.concat(section("Linked papers" + (pp.links > (pp.related || []).length ? " (strongest " + pp.related.length + " of " + pp.links + ")" : ""),
        (pp.related || []).map(function (rel) {
          var s = line([paperButton(rel[0])]);
          if (rel[1].length) {
            var why = el("div", "kg-why");
            why.appendChild(document.createTextNode("both: "));
            why.appendChild(shared(rel[1]));
            s.appendChild(why);
          }
          return s;
        })));
      out = out.concat(section("Concepts", entityList(p, "concepts")));
      out.push(el("div", "kg-meta", "Paper " + pp.pid));
      show("paper", out);
    }

    function link(i) {
      var l = data.links[i];
      var out = [el("h3", "kg-panel-title", l.l || "share link")];
      out.push(line([paperButton(l.a)]));
      out.push(el("div", "kg-meta", "and"));
      out.push(line([paperButton(l.b)]));
      out.push(el("div", "kg-meta", l.p.map(function (p) { return PREDICATES[p] || p; }).join(", ") + " · weight " + l.w));
      out = out.concat(section("Shared concepts, and the level where they meet", l.c.map(function (c) {
        var name = typeof c[0] === "number" ? entityButton(c[0]) : document.createTextNode(String(c[0]));
        return line([name, " ", span("kg-level", "(" + levelWords(c[1]) + ")")]);
      })));
      show("link", out);
    }

    function concept(i) {
      var e = ents[i];
      var out = [el("h3", "kg-panel-title", e.label)];
      out.push(el("div", "kg-meta", e.kind + (e.papers ? " · " + e.papers + " paper" + (e.papers === 1 ? "" : "s") + " in the graph" : "")));
      out = out.concat(section("Broader", (e.broader || []).map(entityButton)));
      var narrower = (e.narrower || []).map(entityButton);
      if (e.narrower_total > narrower.length) narrower.push(span("kg-meta", "and " + (e.narrower_total - narrower.length) + " more"));
      out = out.concat(section("Narrower", narrower));
      var holding = [];
      var keys = ["proposed", "used", "tasks", "datasets", "metrics", "concepts"];
      for (var k = 0; k < papers.length && holding.length < 30; k++) {
        var pp = papers[k].panel;
        for (var j = 0; j < keys.length; j++) {
          if (pp[keys[j]] && pp[keys[j]].indexOf(i) !== -1) { holding.push(k); break; }
        }
      }
      out = out.concat(section("Papers" + (holding.length >= 30 ? " (first 30)" : ""), holding.map(paperButton)));
      if (!e.broader && !e.narrower_total) out.push(el("div", "kg-meta", "No broader or narrower concept in the graph."));
      show("concept", out);
    }

    function regionPanel(r) {
      var out = [el("h3", "kg-panel-title", r.label)];
      out.push(el("div", "kg-meta", r.papers.toLocaleString("en") + " papers" + (r.pooled > 1 ? " pooled from " + r.pooled + " small regions and unlinked papers" : "")));
      if (r.concepts.length) out.push(el("div", "kg-meta", "Named by: " + r.concepts.join(", ")));
      if (data.level === "regions") {
        var open = ctx.isOpen(r.id);
        out.push(button(open ? "Close this region" : "Open this region", function () {
          if (ctx.isOpen(r.id)) ctx.closeRegion(r.id); else ctx.openRegion(r.id);
          regionPanel(r);
        }, ["data-region-toggle", String(r.id)]));
      }
      var links = data.region_links.filter(function (l) { return l.from === r.id || l.to === r.id; });
      out = out.concat(section("Linked regions", links.map(function (l) {
        var other = ctx.regionById[l.from === r.id ? l.to : l.from];
        var s = line([button(other.label, function () { regionPanel(other); })]);
        s.appendChild(el("div", "kg-why", l.count + " share links: " + l.concepts.map(function (c) { return c[0]; }).join(", ")));
        return s;
      })));
      var members = [];
      papers.forEach(function (p, k) { if (p.region === r.id) members.push(k); });
      members.sort(function (a, b) { return papers[b].size - papers[a].size; });
      out = out.concat(section("Most linked papers", members.slice(0, 12).map(paperButton)));
      show("region", out);
    }

    function regionLink(i) {
      var l = data.region_links[i];
      var a = ctx.regionById[l.from], b = ctx.regionById[l.to];
      var out = [el("h3", "kg-panel-title", l.label || "linked regions")];
      out.push(line([button(a.label, function () { regionPanel(a); })]));
      out.push(el("div", "kg-meta", "and"));
      out.push(line([button(b.label, function () { regionPanel(b); })]));
      out.push(el("div", "kg-meta", l.count + " share links between their papers"));
      out = out.concat(section("Concepts they share most", l.concepts.map(function (c) { return el("span", "", c[0] + " (" + c[1] + ")"); })));
      show("region-link", out);
    }

    return { paper: paper, link: link, concept: concept, region: regionPanel, regionLink: regionLink, hide: hide };
  };
})();
