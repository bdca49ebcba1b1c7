// explain --html and scan --stats-html in headless Chromium (ctest label "html"): each page
// loads with no console error, no exception and no network request but itself; every coloured
// cell (page, chunk, file square, bytes bar) has the colour of the legend entry of its fate;
// the totals equal explain --json's; a screenshot of each is kept in OUT.
//
//   node --experimental-websocket explain_html_test.mjs PQSIFT EVENTS.parquet OUT
// Exit 0: passed; 77: no Chromium (skipped); 1: failed, with the reasons on stderr.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { findChromium, openPage } from './cdp.mjs';

const [pqsift, events, outArg] = process.argv.slice(2);
const out = resolve(outArg);
const chromium = findChromium();
if (!chromium) {
  console.error('explain_html_test: no chromium (scripts/setup installs Debian\'s): skipped');
  process.exit(77);
}
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const failures = [];
const check = (ok, what) => { if (!ok) failures.push(what); };
const run = (args) => execFileSync(pqsift, args, { encoding: 'utf8', maxBuffer: 1 << 28 });

// The events file rewritten with a page index (pages of 512 rows), so the page index prunes
// pages and proves some fully matched; and a 20-file hive dataset of copies of it under
// day=... folders (more than a page draws one by one, so it is grouped).
const indexed = join(out, 'events_indexed.parquet');
run(['convert', events, indexed, '--page-rows', '512', '--row-group-rows', '4096']);
const hive = join(out, 'hive');
for (let d = 1; d <= 20; ++d) {
  const dir = join(hive, `day=2026-01-${String(d).padStart(2, '0')}`);
  mkdirSync(dir, { recursive: true });
  copyFileSync(indexed, join(dir, 'part-0.parquet'));
}

const cases = [
  // Row groups skipped by their statistics, pages by the page index, pages fully matched, read.
  { name: 'file', args: [indexed, '--where', 'id BETWEEN 5000 AND 9000'],
    fates: ['row-group statistics', 'page index', 'matched', 'read'] },
  { name: 'dataset', args: [hive, '--where', "day = DATE '2026-01-05' AND id BETWEEN 5000 AND 9000"],
    fates: ['partition values', 'row-group statistics', 'page index'] },
  { name: 'scan', scan: true, args: [indexed, '--where', 'id BETWEEN 5000 AND 9000'],
    fates: ['row-group statistics', 'page index'] },
];

// In the page: the colour of every element with a fate against its legend entry's swatch.
const COLOUR_CHECK = `(() => {
  const legend = new Map();
  for (const d of document.querySelectorAll('#legend > div[data-fate]')) {
    legend.set(d.dataset.fate, getComputedStyle(d.querySelector('.sw')).backgroundColor);
  }
  const bad = [];
  const seen = {};
  const cells = document.querySelectorAll('.bar span[data-fate], .sq[data-fate], #bytesbar span[data-fate]');
  for (const c of cells) {
    const fate = c.dataset.fate;
    seen[fate] = (seen[fate] || 0) + 1;
    const colour = getComputedStyle(c).backgroundColor;
    if (!legend.has(fate)) bad.push('no legend entry for ' + fate);
    else if (legend.get(fate) !== colour) bad.push(fate + ': cell ' + colour + ', legend ' + legend.get(fate));
  }
  const colours = new Set(legend.values());
  if (colours.size !== legend.size) bad.push('two fates share a colour');
  return { bad: bad.slice(0, 10), seen, cells: cells.length };
})()`;
const TOTALS = `Object.fromEntries([...document.querySelectorAll('[data-total]')].map((e) => [e.dataset.total, e.dataset.value]))`;

for (const c of cases) {
  const html = join(out, `${c.name}.html`);
  if (c.scan) {
    run(['scan', ...c.args, '--format', 'none', '--stats-html', html]);
  } else {
    run(['explain', ...c.args, '--html', html]);
  }
  const json = JSON.parse(run(['explain', ...c.args, '--json']));
  const bytes = statSync(html).size;
  check(bytes < 2 * 1024 * 1024, `${c.name}: ${bytes} bytes, over 2 MB`);
  const page = await openPage(chromium, html);
  try {
    check(page.errors.length === 0, `${c.name}: console errors: ${page.errors.join(' | ')}`);
    const foreign = page.requests.filter((u) => u !== page.url);
    check(foreign.length === 0, `${c.name}: network requests: ${foreign.join(' ')}`);
    const colours = await page.evaluate(COLOUR_CHECK);
    check(colours.bad.length === 0, `${c.name}: ${colours.bad.join('; ')}`);
    for (const fate of c.fates) check(colours.seen[fate] > 0, `${c.name}: no cell of fate '${fate}' (${JSON.stringify(colours.seen)})`);
    const totals = await page.evaluate(TOTALS);
    check(Object.keys(totals).length >= 10, `${c.name}: totals missing`);
    for (const [key, value] of Object.entries(totals)) {
      // scan --stats-html pictures the plan before the scan: the same plan explain prints.
      check(String(json.summary[key]) === value, `${c.name}: total ${key} = ${value}, explain --json says ${json.summary[key]}`);
    }
    if (c.scan) {
      const stat = await page.evaluate(`document.querySelector('[data-stat="rows_returned"]')?.dataset.value`);
      check(stat === '4001', `${c.name}: rows_returned ${stat}, expected 4001`);
    }
    // A click on a page pins its evidence in the side panel.
    const evidence = await page.evaluate(`(() => { const p = document.querySelector('.bar span[data-fate="page index"]');
      if (!p) return ''; p.click(); return document.getElementById('panel').textContent; })()`);
    if (c.fates.includes('page index')) {
      check(/pinned/.test(evidence) && /page index: narrowed/.test(evidence) && /max\(id\)/.test(evidence),
        `${c.name}: the panel does not show the page's evidence: ${evidence.slice(0, 300)}`);
    }
    writeFileSync(join(out, `${c.name}.png`), await page.screenshot());
    console.log(`${c.name}: ${bytes} bytes, ${colours.cells} coloured cells, ${JSON.stringify(colours.seen)}`);
  } finally {
    await page.close();
  }
}
if (failures.length) {
  for (const f of failures) console.error('FAIL ' + f);
  process.exit(1);
}
console.log(`explain_html_test: passed; screenshots in ${out}`);
