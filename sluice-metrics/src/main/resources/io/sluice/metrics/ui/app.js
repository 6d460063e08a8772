// The Sluice web UI: reads only the REST API (/api/v1/) of the server that served it, once a second.
"use strict";
(function () {
  const API = "/api/v1/queries";
  const charts = {};      // chart id -> {key, plot}
  const ui = { charts: charts, polls: 0 };
  window.sluiceUi = ui;

  const $ = (id) => document.getElementById(id);
  const text = (tag, s, cls) => {
    const e = document.createElement(tag);
    e.textContent = s == null ? "" : String(s);
    if (cls) e.className = cls;
    return e;
  };

  async function get(path) {
    const r = await fetch(path, { cache: "no-store" });
    if (r.status === 404) return null;
    if (!r.ok) throw new Error(path + ": HTTP " + r.status);
    return r.json();
  }

  function selected() {
    return decodeURIComponent(location.hash.replace(/^#/, ""));
  }

  function renderList(queries) {
    const body = $("queries").tBodies[0];
    body.replaceChildren();
    $("none").hidden = queries.length > 0;
    for (const q of queries) {
      const tr = document.createElement("tr");
      tr.dataset.id = q.id;
      if (q.id === selected()) tr.className = "selected";
      tr.append(text("td", q.name), text("td", q.id), text("td", q.state, "state-" + q.state),
        text("td", q.numBatches), text("td", q.numInputRows), text("td", q.lastBatchId), text("td", q.startedAt));
      tr.addEventListener("click", () => { location.hash = q.id; });
      body.append(tr);
    }
  }

  // One uPlot chart per id, rebuilt only when its series change; otherwise its data are replaced.
  function chart(id, labels, data) {
    const el = $(id);
    const key = labels.join("\u0000");
    let c = charts[id];
    if (!c || c.key !== key) {
      if (c) c.plot.destroy();
      const series = [{ label: "batch" }].concat(labels.map((l, i) => ({
        label: l, stroke: COLORS[i % COLORS.length], width: 2, points: { show: true }
      })));
      const plot = new uPlot({ width: 560, height: 220, series: series, scales: { x: { time: false } },
        axes: [{ label: "batch id", incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 10000] }, { size: 70 }] }, data, el);
      c = charts[id] = { key: key, plot: plot };
    } else {
      c.plot.setData(data);
    }
    el.dataset.points = String(c.plot.data[0].length);
  }
  const COLORS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
    "#bcbd22", "#17becf"];

  function num(v) {
    return typeof v === "number" && isFinite(v) ? v : (typeof v === "string" && v !== "" && isFinite(+v) ? +v : null);
  }

  function renderCharts(recent) {
    const x = recent.map((p) => p.batchId);
    chart("chart-rates", ["input rows/s", "processed rows/s"],
      [x, recent.map((p) => num(p.inputRowsPerSecond)), recent.map((p) => num(p.processedRowsPerSecond))]);
    const phases = [];
    for (const p of recent) for (const k of Object.keys(p.durationMs || {})) if (!phases.includes(k)) phases.push(k);
    chart("chart-durations", phases,
      [x].concat(phases.map((k) => recent.map((p) => num((p.durationMs || {})[k])))));
    chart("chart-rows", ["rows"], [x, recent.map((p) => num(p.numInputRows))]);
    // Every numeric metric of every source (offsets behind latest, files or bytes outstanding...).
    const keys = [];
    recent.forEach((p) => (p.sources || []).forEach((s, i) => {
      for (const [k, v] of Object.entries(s.metrics || {})) {
        const label = "source " + i + " " + k;
        if (num(v) !== null && !keys.some((e) => e.label === label)) keys.push({ label: label, i: i, k: k });
      }
    }));
    $("sources-none").hidden = keys.length > 0;
    chart("chart-sources", keys.map((e) => e.label), [x].concat(keys.map((e) =>
      recent.map((p) => { const s = (p.sources || [])[e.i]; return s && s.metrics ? num(s.metrics[e.k]) : null; }))));
  }

  function renderCheckpoint(c) {
    const body = $("checkpoint").tBodies[0];
    body.replaceChildren();
    $("checkpoint-path").textContent = c ? c.path + (c.metadataProblem ? " (" + c.metadataProblem + ")" : "")
      : "This query has no checkpoint the server can read.";
    if (!c) return;
    for (const b of c.batches) {
      const tr = document.createElement("tr");
      tr.dataset.batch = b.batchId;
      tr.append(text("td", b.batchId), text("td", b.committed ? "yes" : "no"),
        text("td", b.batchTimestampMs == null ? "" : new Date(b.batchTimestampMs).toISOString()),
        text("td", b.batchWatermarkMs), text("td", (b.sources || []).map((s) => JSON.stringify(s)).join("\n"),
          "offsets"), text("td", b.problem));
      body.append(tr);
    }
  }

  async function renderDetail(queries) {
    let id = selected();
    if (!queries.some((q) => q.id === id)) {
      if (!queries.length) { $("detail").hidden = true; return; }
      id = queries[0].id;
    }
    const q = queries.find((e) => e.id === id);
    const [recent, last, chk] = await Promise.all([
      get(API + "/" + id + "/progress/recent"), get(API + "/" + id + "/progress/last"),
      q.checkpointLocation ? get(API + "/" + id + "/checkpoint") : Promise.resolve(null)]);
    $("detail").hidden = false;
    $("detail").dataset.id = id;
    $("title").textContent = (q.name || "(unnamed)") + " — " + q.state;
    $("status").textContent = q.status ? q.status.message : "";
    $("error").hidden = !q.exception;
    $("error").textContent = q.exception || "";
    renderCharts(recent || []);
    $("progress").textContent = last == null ? "No batch yet." : JSON.stringify(last, null, 2);
    renderCheckpoint(chk);
  }

  async function poll() {
    try {
      const list = await get(API);
      const queries = list ? list.queries : [];
      renderList(queries);
      await renderDetail(queries);
      ui.polls++;
      $("updated").textContent = "updated " + new Date().toLocaleTimeString();
      document.body.dataset.polls = String(ui.polls);
    } catch (e) {
      $("updated").textContent = "cannot reach the server: " + e.message;
    } finally {
      setTimeout(poll, 1000);
    }
  }

  window.addEventListener("hashchange", () => {
    for (const tr of $("queries").tBodies[0].rows) tr.className = tr.dataset.id === selected() ? "selected" : "";
  });
  poll();
})();
