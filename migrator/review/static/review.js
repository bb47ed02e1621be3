/* The unit table of a review site: filters, text search, sorting and paging over window.REVIEW_DATA
 * (written by migrator into data.js). Every value is untrusted text: it reaches the page through
 * textContent and attribute setters only, never as HTML. The state lives in the URL hash, so a
 * filtered view is a link (the failure-reason groups link to one). */
(function () {
  "use strict";
  var data = window.REVIEW_DATA;
  var table = document.getElementById("unit-table");
  if (!data || !table) { return; }
  var PAGE = 100;
  var F = {};
  data.fields.forEach(function (name, i) { F[name] = i; });
  var rows = data.rows;
  var listFields = {};
  rows.slice(0, 1).forEach(function (r) { data.fields.forEach(function (f) { if (Array.isArray(r[F[f]])) { listFields[f] = true; } }); });
  // Lower-cased text searched by the box, built once: a keystroke then scans plain strings.
  var hay = rows.map(function (r) {
    return data.search.map(function (f) { return String(r[F[f]] == null ? "" : r[F[f]]); }).join("\u0001").toLowerCase();
  });
  var state = { q: "", page: 0, sort: "", dir: 1 };
  var selects = {};
  var q = document.getElementById("q");
  var body = document.getElementById("unit-rows");
  var count = document.getElementById("count");
  var pageLabel = document.getElementById("page");
  var filtered = [];

  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined && text !== null) { e.textContent = String(text); }
    if (cls) { e.className = cls; }
    return e;
  }
  function safeClass(prefix, value) {
    return prefix + String(value).toLowerCase().replace(/[^a-z0-9]+/g, "-");
  }

  function fillSelects() {
    data.filters.forEach(function (pair) {
      var key = pair[0], select = document.getElementById("f-" + key);
      if (!select) { return; }
      selects[key] = select;
      var counts = new Map();
      rows.forEach(function (r) {
        var v = r[F[key]];
        (Array.isArray(v) ? v : [v]).forEach(function (x) { if (x !== "" && x != null) { counts.set(x, (counts.get(x) || 0) + 1); } });
      });
      Array.from(counts.keys()).sort().forEach(function (value) {
        var option = el("option", value + " (" + counts.get(value) + ")");
        option.value = value;
        if (key === "constructs" && data.rules && data.rules[value]) { option.title = data.rules[value]; }
        select.appendChild(option);
      });
      select.addEventListener("change", function () { state.page = 0; update(); });
    });
  }

  function header() {
    var tr = document.getElementById("unit-head");
    data.columns.forEach(function (pair) {
      var th = el("th", pair[1]);
      th.setAttribute("data-sort", pair[0]);
      th.addEventListener("click", function () {
        state.dir = state.sort === pair[0] ? -state.dir : 1;
        state.sort = pair[0];
        update();
      });
      tr.appendChild(th);
    });
    tr.appendChild(el("th", "problem"));
  }

  function matches(i) {
    var r = rows[i];
    for (var key in selects) {
      var want = selects[key].value;
      if (!want) { continue; }
      var v = r[F[key]];
      if (listFields[key] ? v.indexOf(want) < 0 : v !== want) { return false; }
    }
    return !state.q || hay[i].indexOf(state.q) >= 0;
  }

  function compute() {
    filtered = [];
    for (var i = 0; i < rows.length; i++) { if (matches(i)) { filtered.push(i); } }
    if (state.sort) {
      var k = F[state.sort], dir = state.dir;
      filtered.sort(function (a, b) {
        var x = rows[a][k], y = rows[b][k];
        if (typeof x === "number" && typeof y === "number") { return (x - y) * dir; }
        return String(x).localeCompare(String(y), undefined, { numeric: true }) * dir;
      });
    }
  }

  function cell(key, r) {
    var v = r[F[key]];
    var td = el("td");
    if (key === "id") {
      var a = el("a", v);
      a.setAttribute("href", r[F.href]);
      td.appendChild(a);
    } else if (key === "category" || key === "tier") {
      if (v) { td.appendChild(el("span", v, "badge " + safeClass(key === "tier" ? "tier-" : "cat-", v))); }
    } else {
      td.textContent = Array.isArray(v) ? v.join(", ") : String(v == null ? "" : v);
    }
    return td;
  }

  function render() {
    var pages = Math.max(1, Math.ceil(filtered.length / PAGE));
    state.page = Math.min(state.page, pages - 1);
    var frag = document.createDocumentFragment();
    filtered.slice(state.page * PAGE, (state.page + 1) * PAGE).forEach(function (i) {
      var r = rows[i], tr = el("tr");
      tr.className = safeClass("unit-", r[F.category]);
      data.columns.forEach(function (pair) { tr.appendChild(cell(pair[0], r)); });
      tr.appendChild(el("td", r[F.problem], "problem"));
      frag.appendChild(tr);
    });
    body.replaceChildren(frag);
    count.textContent = filtered.length + " of " + rows.length + " units";
    pageLabel.textContent = "page " + (state.page + 1) + " of " + pages;
    document.getElementById("prev").disabled = state.page === 0;
    document.getElementById("next").disabled = state.page >= pages - 1;
    Array.prototype.forEach.call(document.querySelectorAll("#unit-head th[data-sort]"), function (th) {
      var sorted = th.getAttribute("data-sort") === state.sort;
      if (sorted) { th.setAttribute("aria-sort", state.dir > 0 ? "ascending" : "descending"); } else { th.removeAttribute("aria-sort"); }
    });
  }

  function writeHash() {
    var params = new URLSearchParams();
    for (var key in selects) { if (selects[key].value) { params.set(key, selects[key].value); } }
    if (state.q) { params.set("q", q.value); }
    if (state.page) { params.set("page", String(state.page + 1)); }
    var text = params.toString().replace(/\+/g, "%20");
    history.replaceState(null, "", text ? "#" + text : location.pathname + location.search);
  }

  // A hash with "=" is a table state (#category=wrong&q=nvl); any other is a plain anchor (#legend).
  function isState() { return location.hash.indexOf("=") >= 0; }

  function readHash() {
    var params = new URLSearchParams(isState() ? location.hash.slice(1) : "");
    for (var key in selects) {
      var want = params.get(key) || "";
      if (want && !Array.prototype.some.call(selects[key].options, function (o) { return o.value === want; })) {
        var option = el("option", want + " (0)");  // a link to a value this run does not have: show 0 units
        option.value = want;
        selects[key].appendChild(option);
      }
      selects[key].value = want;
    }
    q.value = params.get("q") || "";
    state.q = q.value.trim().toLowerCase();
    state.page = Math.max(0, (parseInt(params.get("page") || "1", 10) || 1) - 1);
  }

  function update(keepHash) {
    var t0 = performance.now();
    state.q = q.value.trim().toLowerCase();
    compute();
    render();
    if (!keepHash) { writeHash(); }
    table.setAttribute("data-filter-ms", (performance.now() - t0).toFixed(1));
  }

  fillSelects();
  header();
  q.addEventListener("input", function () { state.page = 0; update(); });
  document.getElementById("reset").addEventListener("click", function () {
    for (var key in selects) { selects[key].value = ""; }
    q.value = ""; state.page = 0; state.sort = ""; update();
  });
  document.getElementById("prev").addEventListener("click", function () { state.page -= 1; update(); });
  document.getElementById("next").addEventListener("click", function () { state.page += 1; update(); });
  window.addEventListener("hashchange", function () {
    if (!isState()) { return; }
    readHash(); update(true);
    document.getElementById("units").scrollIntoView();
  });
  readHash();
  update(true);
  if (isState()) { document.getElementById("units").scrollIntoView(); }
  window.reviewTable = { update: update, shown: function () { return filtered.length; } };
})();
