// A PNG of a local HTML page in headless Chromium (the README's picture of explain --html):
//   node --experimental-websocket tests/html/screenshot.mjs PAGE.html OUT.png [WIDTH HEIGHT]
// Fails (exit 1) if the page logs an error or makes a network request.
import { writeFileSync } from 'node:fs';
import { findChromium, openPage } from './cdp.mjs';

const [html, png, width = '1400', height = '900'] = process.argv.slice(2);
const chromium = findChromium();
if (!chromium) {
  console.error('screenshot: no chromium (scripts/setup installs it)');
  process.exit(1);
}
const page = await openPage(chromium, html, { width: Number(width), height: Number(height) });
try {
  const foreign = page.requests.filter((u) => u !== page.url);
  if (page.errors.length || foreign.length) {
    console.error(`screenshot: ${page.errors.join(' | ')} ${foreign.join(' ')}`);
    process.exitCode = 1;
  }
  writeFileSync(png, await page.screenshot());
} finally {
  await page.close();
}
