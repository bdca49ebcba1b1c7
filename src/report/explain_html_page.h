// The page ExplainHtml (pqsift/plan.h) fills in: inline CSS and script, no external resource of
// any kind (no fonts, no images, no network), so the file opens anywhere, offline.
//
// The page is kExplainHtmlHead + title + kExplainHtmlBody + the plan as JSON +
// kExplainHtmlTail. The script reads the JSON (report/explain_html.cc documents its shape) and
// draws: totals (each number also in a data-value attribute, so tests compare it with explain
// --json), a bar of where the files' bytes went, a legend (one colour per fate, the same class
// the cells use), the stages, the scan's counters after a scan, and per file a grid of row
// groups by column chunks with the pages inside to scale by bytes. Many files are shown grouped
// by folder as one square each; a click opens a file's grid. Hover shows the evidence, click
// pins it. Everything user-supplied is put in as text (textContent), never as markup.
#pragma once

#include <string_view>

namespace pqsift::report {

inline constexpr std::string_view kExplainHtmlHead = R"html(<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>)html";

inline constexpr std::string_view kExplainHtmlBody = R"html(</title>
<style>
body{font:13px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;margin:0;color:#222;background:#fafafa}
main{margin-right:380px;padding:12px 20px}
h1{font-size:20px;margin:4px 0}h2{font-size:15px;margin:18px 0 6px}h3{font-size:13px;margin:12px 0 4px;word-break:break-all}
code{background:#eee;padding:1px 4px;border-radius:3px}
.help{color:#555;max-width:900px}
table{border-collapse:collapse}
td,th{padding:2px 8px;text-align:left;vertical-align:top}
.num{text-align:right;font-variant-numeric:tabular-nums}
.kv td{border-bottom:1px solid #e4e4e4}
.totals{display:grid;grid-template-columns:repeat(3,max-content max-content);gap:2px 10px;align-items:baseline}
.totals b{margin-right:22px}
.stages th,.stages td{border-bottom:1px solid #e4e4e4}
.bytesbar{display:flex;height:22px;width:100%;max-width:900px;border:1px solid #999;background:#fff}
.bytesbar span{height:100%}
.legend{display:flex;flex-wrap:wrap;gap:4px 18px;max-width:1000px}
.legend div{display:flex;align-items:center;gap:6px}
.sw{display:inline-block;width:16px;height:12px;border:1px solid #0003}
.grid{border-collapse:separate;border-spacing:2px;table-layout:fixed;width:100%;max-width:1600px}
.grid th{font-weight:600;overflow-wrap:anywhere;vertical-align:bottom}
.grid th.rglabel{white-space:nowrap;overflow:hidden;text-overflow:ellipsis;font-weight:normal}
.grid th.rgcol{width:230px}
.grid td{padding:0}
.rglabel{cursor:pointer;border-left:6px solid #ccc}
.bar{display:flex;height:18px;background:#fff;outline:1px solid #bbb}
.bar span{height:100%;min-width:0;box-shadow:inset -1px 0 #fff8}
.bar span.f0,.bar span.f1{min-width:2px}
.bar span:hover,.sq:hover{outline:2px solid #000;z-index:1}
.grp{display:flex;gap:8px;align-items:flex-start;margin:2px 0}
.glabel{width:300px;flex:none;word-break:break-all;color:#444}
.squares{display:flex;flex-wrap:wrap;gap:2px}
.sq{width:10px;height:10px;cursor:pointer;display:inline-block}
.sq.sel{outline:2px solid #000}
.filebtn{margin:2px;cursor:pointer;font:inherit}
aside{position:fixed;right:0;top:0;bottom:0;width:360px;overflow:auto;background:#fff;border-left:1px solid #ccc;padding:10px 12px;box-sizing:border-box}
aside h2{margin-top:0}
aside .pin{color:#a00}
aside .ev{margin:4px 0 8px 10px;color:#333}
aside dt{font-weight:600;margin-top:6px}aside dd{margin:0 0 0 10px;word-break:break-word}
.muted{color:#777}
</style>
</head><body>
<main id="main"><noscript>This report draws itself with an inline script; enable scripts to see it.</noscript></main>
<aside id="panel"><h2>Details</h2><p class="muted">Hover over a row group or a page for the evidence behind it; click to pin.</p></aside>
<script type="application/json" id="plan-data">)html";

inline constexpr std::string_view kExplainHtmlTail = R"html(</script>
<script>
"use strict";
(function () {
const D = JSON.parse(document.getElementById("plan-data").textContent);
// One colour per fate. A page or chunk skipped by a stage takes that stage's colour.
const CATS = [
  ["read", "read (filter evaluated per row)", "#d62728"],
  ["matched", "read, fully matched (no per-row filter)", "#ff9f1c"],
  ["partition values", "skipped by partition values", "#4b2991"],
  ["manifest", "skipped by the manifest", "#9e7cc1"],
  ["row-group statistics", "skipped by row-group statistics", "#1f4e9c"],
  ["page index", "skipped by the page index", "#2a9df4"],
  ["page headers", "skipped by page headers", "#8fd3fe"],
  ["dictionary", "skipped by the dictionary", "#2e8b57"],
  ["bloom filter", "skipped by a bloom filter", "#9be39f"],
  ["limit", "skipped: past the limit", "#b58b00"],
  ["split", "skipped: outside the split", "#c8b88a"],
  ["other", "skipped by another stage", "#8c8c8c"],
  ["counted", "counted from the manifest, not read", "#d9c8f0"],
  ["unneeded", "not needed: other columns, footer, indexes", "#e8e8e8"],
];
const CAT_INDEX = new Map(CATS.map((c, i) => [c[0], i]));
const style = document.createElement("style");
style.textContent = CATS.map((c, i) => ".f" + i + "{background:" + c[2] + "}").join("\n");
document.head.appendChild(style);

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  if (attrs) for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v; else if (k === "text") e.textContent = v; else e.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined) e.append(c);
  return e;
}
const fmtInt = (n) => Number(n).toLocaleString("en-US");
function fmtBytes(n) {
  n = Number(n);
  if (n < 1024) return n + " B";
  const u = ["KiB", "MiB", "GiB", "TiB"];
  let i = -1;
  do { n /= 1024; ++i; } while (n >= 1024 && i < u.length - 1);
  return n.toFixed(n < 10 ? 2 : 1) + " " + u[i];
}
const pct = (a, b) => (b > 0 ? (100 * a / b).toFixed(2) : "0.00") + "%";
function stageCat(stage) { return CAT_INDEX.has(stage) ? stage : "other"; }
function fileFateCat(f) {
  if (f.fate === "skipped by partition values") return "partition values";
  if (f.fate === "skipped by the manifest") return "manifest";
  if (f.fate === "counted from the manifest") return "counted";
  return null;
}
// The fate of a row group's chunk outside the pages the offset index places (or of the whole
// chunk when none does).
function groupCat(g) {
  if (g.d === "skip") return stageCat(g.by);
  return g.fm ? "matched" : "read";
}
function pageCat(p) { return p[3] === 2 ? stageCat(p[4]) : p[3] === 1 ? "matched" : "read"; }
// A chunk's parts: [category, bytes, page index or -1].
function chunkParts(g, c) {
  const parts = [];
  let rest = c.b;
  c.pages.forEach((p, k) => { parts.push([pageCat(p), p[2], k]); rest -= p[2]; });
  if (rest > 0 || parts.length === 0) parts.unshift([groupCat(g), Math.max(rest, 0), -1]);
  return parts;
}
// Bytes per category of one file: unopened files whole; opened ones by chunk parts, the rest of
// the file (columns the scan does not need, footer, indexes) as "unneeded".
function fileBytes(f) {
  const out = new Map();
  const add = (k, b) => out.set(k, (out.get(k) || 0) + b);
  const fate = fileFateCat(f);
  if (fate) { add(fate, f.s); return out; }
  let shown = 0;
  for (const g of f.g) for (const c of g.c) for (const [k, b] of chunkParts(g, c)) { add(k, b); shown += b; }
  if (f.s > shown) add("unneeded", f.s - shown);
  return out;
}
function dominant(m) {
  let best = "unneeded", most = -1;
  for (const [k, b] of m) if (k !== "unneeded" && b > most) { best = k; most = b; }
  return best;
}
function swatch(k) { return el("span", {class: "sw f" + CAT_INDEX.get(k), "data-fate": k}); }

const main = document.getElementById("main");
const panel = document.getElementById("panel");
const plan = D.plan, sum = plan.summary, stats = D.stats;
main.append(el("h1", {text: document.title}));
main.append(el("p", null, "filter: ", el("code", {text: plan.filter || "(none: every row)"})));
main.append(el("p", {class: "help", text:
  "Which bytes of these files the scan needs, and why. Each file shows a grid: one row per row group, " +
  "one column per column chunk the scan reads; bars are drawn to scale by compressed bytes (each column to its largest chunk), and each " +
  "segment is a page (from the offset index) coloured by its fate: skipped by the stage that proved " +
  "it holds no matching row, read with the per-row filter, or read without it (fully matched). Hover " +
  "for the evidence; click to pin it."}));

// Totals.
const totals = [
  ["files_total", "files", fmtInt], ["files_skipped", "files skipped before opening", fmtInt],
  ["footers_read", "footers read", fmtInt], ["row_groups_total", "row groups", fmtInt],
  ["row_groups_skipped", "row groups skipped", fmtInt],
  ["row_groups_fully_matched", "row groups fully matched", fmtInt],
  ["row_groups_to_read", "row groups to read", fmtInt], ["rows_total", "rows in the opened files", fmtInt],
  ["rows_to_read", "rows to read", fmtInt], ["file_bytes", "bytes of the opened files", fmtBytes],
  ["bytes_to_read", "column data to read", fmtBytes],
  ["ranges_to_read", "byte ranges to read", fmtInt],
  ["remote_requests_to_read", "remote requests to read them", fmtInt],
  ["remote_waves_to_read", "remote waves to read them", fmtInt],
  ["bytes_read_so_far", "bytes read to plan (footers, evidence)", fmtBytes],
];
const tt = el("div", {class: "totals", id: "totals"});
for (const [key, label, f] of totals) {
  const v = sum[key];
  const extra = key === "bytes_to_read" ? " (" + pct(v, sum.file_bytes) + ")" : "";
  tt.append(el("span", {text: label}), el("b", {class: "num", "data-total": key, "data-value": String(v), text: f(v) + extra}));
}
main.append(el("h2", {text: "Totals (the plan's forecast)"}), tt);

// Where the bytes went, over every file.
const all = new Map();
let allBytes = 0;
for (const f of D.files) for (const [k, b] of fileBytes(f)) { all.set(k, (all.get(k) || 0) + b); allBytes += b; }
const bar = el("div", {class: "bytesbar", id: "bytesbar"});
for (const [k] of CATS) {
  const b = all.get(k) || 0;
  if (b <= 0) continue;
  bar.append(el("span", {class: "f" + CAT_INDEX.get(k), "data-fate": k, style: "width:" + (100 * b / allBytes) + "%",
    title: CATS[CAT_INDEX.get(k)][1] + ": " + fmtBytes(b) + " (" + pct(b, allBytes) + ")"}));
}
main.append(el("h2", {text: "Where the files' bytes go (" + fmtBytes(allBytes) + " in " + fmtInt(D.files.length) + " files)"}), bar);
const legend = el("div", {class: "legend", id: "legend"});
for (const [k, label] of CATS) {
  const b = all.get(k) || 0;
  legend.append(el("div", {"data-fate": k, "data-bytes": String(b)}, swatch(k),
    el("span", {text: label + (b > 0 ? ": " + fmtBytes(b) + " (" + pct(b, allBytes) + ")" : "")})));
}
main.append(el("h2", {text: "Legend"}), legend);

// Details on hover / click.
let pinned = false;
function dl(pairs) {
  const d = el("dl");
  for (const [k, v] of pairs) if (v !== "" && v !== undefined && v !== null) d.append(el("dt", {text: k}), el("dd", {text: String(v)}));
  return d;
}
function verdictList(g) {
  const box = el("div");
  if (!g.v.length) box.append(el("p", {class: "muted", text: "No stage proved anything: every row is read and filtered."}));
  for (const v of g.v) {
    box.append(el("div", null, swatch(v[1] === "skipped" || v[1] === "narrowed" ? stageCat(v[0]) : "matched"),
      " " + v[0] + ": " + v[1] + ", " + fmtInt(v[2]) + " \u2192 " + fmtInt(v[3]) + " rows"),
      el("div", {class: "ev", text: v[4]}));
  }
  return box;
}
function showDetails(ref) {
  const [fi, gi, ci, pi] = ref.split(",").map(Number);
  const f = D.files[fi];
  panel.replaceChildren(el("h2", {text: "Details"}));
  if (pinned) panel.append(el("p", {class: "pin", text: "pinned (click again to release)"}));
  panel.append(dl([["file", f.p], ["size", fmtBytes(f.s)], ["fate", f.fate], ["evidence", f.e]]));
  if (gi < 0) return;
  const g = f.g[gi];
  panel.append(el("h3", {text: "row group " + g.i}),
    dl([["rows", fmtInt(g.n)], ["decision", g.d + (g.fm ? ", fully matched" : "")],
      ["rows selected", fmtInt(g.sel)], ["rows proven to match", fmtInt(g.m)], ["compressed bytes", fmtBytes(g.b)]]),
    el("h3", {text: "verdicts, in the order the stages ran"}), verdictList(g));
  if (ci < 0) return;
  const c = g.c[ci];
  panel.append(el("h3", {text: "column " + c.p + (c.f ? " (filter column)" : "")}),
    dl([["chunk bytes", fmtBytes(c.b) + " compressed, " + fmtBytes(c.u) + " uncompressed"], ["row-group bounds", c.bounds],
      ["pages", c.pages.length ? fmtInt(c.pages.length) : "no offset index: read whole or not at all"]]));
  if (pi < 0) return;
  const p = c.pages[pi];
  panel.append(el("h3", {text: "page " + pi}), dl([["rows", fmtInt(p[0]) + "\u2013" + fmtInt(p[0] + p[1] - 1) + " (" + fmtInt(p[1]) + ")"],
    ["bytes", fmtBytes(p[2])], ["fate", CATS[CAT_INDEX.get(pageCat(p))][1]], ["rows selected", fmtInt(p[5])],
    ["stage", p[4]], ["page bounds (column index)", p[6]]]));
}
document.addEventListener("mouseover", (e) => {
  const t = e.target.closest("[data-ref]");
  if (t && !pinned) showDetails(t.getAttribute("data-ref"));
});
document.addEventListener("click", (e) => {
  const t = e.target.closest("[data-ref]");
  if (!t || t.classList.contains("sq")) return;  // a square opens its file instead
  pinned = !pinned;
  showDetails(t.getAttribute("data-ref"));
});

// One file: its row groups by column chunks, pages inside to scale.
function fileBlock(fi) {
  const f = D.files[fi];
  const box = el("div", {class: "file", id: "file-" + fi});
  const bytes = fileBytes(f);
  box.append(el("h3", {"data-ref": fi + ",-1,-1,-1"}, swatch(dominant(bytes)), " " + f.p));
  const desc = fmtBytes(f.s) + (f.n >= 0 ? ", " + fmtInt(f.n) + " rows, " + f.g.length + " row groups" : "") + "; " + f.fate + (f.e ? ": " + f.e : "");
  box.append(el("p", {class: "muted", text: desc}));
  if (!f.g.length) return box;
  const paths = [];
  for (const g of f.g) for (const c of g.c) if (!paths.includes(c.p)) paths.push(c.p);
  // Each column's bars to the scale of its largest chunk (a string column's chunks may be ten
  // times an integer column's; one scale for all would leave the small ones unreadable).
  const maxb = new Map(), total = new Map();
  for (const g of f.g) for (const c of g.c) {
    maxb.set(c.p, Math.max(maxb.get(c.p) || 1, c.b));
    total.set(c.p, (total.get(c.p) || 0) + c.b);
  }
  const t = el("table", {class: "grid"});
  t.append(el("tr", null, el("th", {class: "rgcol", text: "row group"}), ...paths.map((p) => {
    const filter = f.g.some((g) => g.c.some((c) => c.p === p && c.f));
    return el("th", {title: p + ": " + fmtBytes(total.get(p)) + " in all row groups; bars to the scale of its largest chunk, " + fmtBytes(maxb.get(p)),
      text: p + (filter ? " (filter)" : "") + " \u00b7 " + fmtBytes(total.get(p))});
  })));
  f.g.forEach((g, gi) => {
    const label = el("th", {class: "rglabel", "data-ref": fi + "," + gi + ",-1,-1",
      style: "border-left-color:" + CATS[CAT_INDEX.get(groupCat(g))][2]},
      String(g.i), el("span", {class: "muted", text: " " + g.d + ", " + fmtInt(g.sel) + "/" + fmtInt(g.n)}));
    const row = el("tr", null, label);
    for (const p of paths) {
      const ci = g.c.findIndex((c) => c.p === p);
      const cell = el("td");
      if (ci >= 0) {
        const c = g.c[ci];
        const b = el("div", {class: "bar", style: "width:" + Math.max(1, 100 * c.b / maxb.get(c.p)) + "%"});
        for (const [k, n, pi] of chunkParts(g, c)) {
          b.append(el("span", {class: "f" + CAT_INDEX.get(k), "data-fate": k, "data-ref": fi + "," + gi + "," + ci + "," + pi,
            style: "width:" + (c.b > 0 ? 100 * n / c.b : 100) + "%"}));
        }
        cell.append(b);
      }
      row.append(cell);
    }
    t.append(row);
  });
  box.append(t);
  return box;
}

// Files: each drawn when few; grouped by folder, one square per file, when many.
const files = D.files;
const filesSection = el("section", {id: "files"});
main.append(el("h2", {text: "Files"}), filesSection);
if (files.length <= 12) {
  files.forEach((f, fi) => filesSection.append(fileBlock(fi)));
} else {
  filesSection.append(el("p", {class: "help", text: "One square per file, grouped by folder, coloured by where most of its bytes go. Click a square (or an opened file below) for its grid."}));
  // Folders relative to the one every file is under (shown once).
  let common = files[0].p.slice(0, files[0].p.lastIndexOf("/") + 1);
  for (const f of files) while (common && !f.p.startsWith(common)) common = common.slice(0, common.lastIndexOf("/", common.length - 2) + 1);
  if (common) filesSection.append(el("p", null, "under ", el("code", {text: common})));
  const groups = new Map();
  files.forEach((f, fi) => {
    const rel = f.p.slice(common.length);
    const cut = rel.lastIndexOf("/");
    const dir = cut >= 0 ? rel.slice(0, cut) : ".";
    if (!groups.has(dir)) groups.set(dir, []);
    groups.get(dir).push(fi);
  });
  // Thousands of folders (a hive dataset of one file per day): consecutive folders merged into
  // at most 60 rows, labelled by their first and last.
  let rows = [...groups.entries()];
  if (rows.length > 60) {
    const per = Math.ceil(rows.length / 60);
    const merged = [];
    for (let i = 0; i < rows.length; i += per) {
      const part = rows.slice(i, i + per);
      const last = part[part.length - 1][0];
      const label = part.length > 1 ? part[0][0] + " \u2026 " + last.slice(last.lastIndexOf("/") + 1) : part[0][0];
      merged.push([label, part.flatMap((r) => r[1])]);
    }
    rows = merged;
  }
  const detail = el("div", {id: "detail"});
  let selected = null;
  function openFile(fi) {
    if (selected) selected.classList.remove("sel");
    selected = document.getElementById("sq-" + fi);
    if (selected) selected.classList.add("sel");
    detail.replaceChildren(fileBlock(fi));
  }
  const overview = el("div", {id: "overview"});
  for (const [dir, list] of rows) {
    const squares = el("div", {class: "squares"});
    for (const fi of list) {
      const k = fileFateCat(files[fi]) || dominant(fileBytes(files[fi]));
      const sq = el("span", {class: "sq f" + CAT_INDEX.get(k), id: "sq-" + fi, "data-fate": k, "data-ref": fi + ",-1,-1,-1"});
      sq.addEventListener("click", () => openFile(fi));
      squares.append(sq);
    }
    overview.append(el("div", {class: "grp"}, el("span", {class: "glabel", text: dir + " (" + list.length + ")"}), squares));
  }
  const opened = files.map((f, fi) => fi).filter((fi) => files[fi].fate === "opened");
  const buttons = el("div", null, el("span", {text: "Opened files (" + opened.length + "): "}));
  for (const fi of opened.slice(0, 200)) {
    const b = el("button", {class: "filebtn", type: "button", text: files[fi].p.slice(files[fi].p.lastIndexOf("/", files[fi].p.lastIndexOf("/") - 1) + 1)});
    b.addEventListener("click", () => openFile(fi));
    buttons.append(b);
  }
  if (opened.length > 200) buttons.append(el("span", {class: "muted", text: " and " + (opened.length - 200) + " more (click their squares)"}));
  filesSection.append(overview, buttons, detail);
  if (opened.length) openFile(opened[0]);
}
// Stages.
const st = el("table", {class: "stages", id: "stages"});
st.append(el("tr", null, ...["stage", "row groups considered", "skipped", "fully matched", "rows pruned",
  "pages pruned", "evidence read", "requests", "time"].map((h) => el("th", {text: h}))));
for (const s of plan.stages) {
  st.append(el("tr", null, el("td", null, swatch(stageCat(s.stage)), " " + s.stage),
    ...[fmtInt(s.row_groups_considered), fmtInt(s.row_groups_skipped), fmtInt(s.row_groups_fully_matched),
      fmtInt(s.rows_pruned), s.pages_total > 0 ? fmtInt(s.pages_pruned) + " of " + fmtInt(s.pages_total) : "",
      fmtBytes(s.bytes_read), fmtInt(s.requests), (s.seconds * 1e3).toFixed(3) + " ms"].map((t) => el("td", {class: "num", text: t}))));
}
main.append(el("h2", {text: "Stages (cheapest evidence first)"}), plan.stages.length ? st : el("p", {class: "muted", text: "No pruning stage ran."}));

// After a scan: what it did.
if (stats) {
  const rows = [
    ["bytes_read", "bytes read (footers, evidence, data)", fmtBytes], ["file_bytes", "of the opened files", fmtBytes],
    ["requests", "requests", fmtInt], ["round_trips", "round trips", fmtInt],
    ["row_groups_read", "row groups read", fmtInt], ["pages_total", "pages in the opened chunks", fmtInt],
    ["pages_read", "pages read", fmtInt], ["pages_not_fetched", "pages not fetched", fmtInt],
    ["bytes_not_fetched", "bytes not fetched", fmtBytes], ["pages_decompressed", "pages decompressed", fmtInt],
    ["bytes_decompressed", "bytes decompressed", fmtBytes], ["rows_decoded", "rows decoded", fmtInt],
    ["rows_returned", "rows returned", fmtInt],
  ];
  const t = el("table", {class: "kv", id: "scanstats"});
  for (const [key, label, f] of rows) {
    t.append(el("tr", null, el("td", {text: label}), el("td", {class: "num", "data-stat": key, "data-value": String(stats[key]), text: f(stats[key])})));
  }
  for (const [key, label] of [["plan_seconds", "time: plan"], ["filter_seconds", "time: filter (all threads)"], ["decode_seconds", "time: decode (all threads)"], ["io_wait_seconds", "time waiting for I/O"]]) {
    t.append(el("tr", null, el("td", {text: label}), el("td", {class: "num", "data-stat": key, "data-value": String(stats[key]), text: (stats[key] * 1e3).toFixed(3) + " ms"})));
  }
  for (const s of stats.stages) {
    t.append(el("tr", null, el("td", {text: "stage " + s.stage}), el("td", {class: "num",
      text: fmtBytes(s.bytes_read) + ", " + fmtInt(s.requests) + " requests, " + (s.seconds * 1e3).toFixed(3) + " ms"})));
  }
  main.append(el("h2", {text: "What the scan did"}), t);
}

document.body.setAttribute("data-ready", "1");
})();
</script>
</body></html>
)html";

}  // namespace pqsift::report
