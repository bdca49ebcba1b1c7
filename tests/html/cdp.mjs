// Headless Chromium driven over the DevTools protocol, with nothing but Node 20
// (`node --experimental-websocket`): open a local page, record its console errors, uncaught
// exceptions and every network request, evaluate expressions in it, take a screenshot.
//
// Used by explain_html_test.mjs (the explain --html pages) and screenshot.mjs (the README's
// picture). One browser per openPage call, in a fresh profile, killed by close().
import { spawn } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

// The Chromium binary: $CHROMIUM, else Debian's; null when there is none.
export function findChromium() {
  for (const p of [process.env.CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser']) {
    if (!p) continue;
    try {
      accessSync(p, constants.X_OK);
      return p;
    } catch { /* the next one */ }
  }
  return null;
}

// Opens `file` (a local path) at `width` x `height`; resolves once the page set
// body[data-ready] (or the load event, for pages without it) or rejects after `timeoutMs`.
export async function openPage(chromium, file, { width = 1400, height = 1000, timeoutMs = 30000 } = {}) {
  const profile = mkdtempSync(join(tmpdir(), 'pqsift-chromium-'));
  const proc = spawn(chromium, [
    '--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--no-default-browser-check',
    '--disable-extensions', '--disable-background-networking', '--disable-component-update',
    '--disable-sync', '--disable-dev-shm-usage', '--hide-scrollbars', '--mute-audio',
    `--user-data-dir=${profile}`, '--remote-debugging-port=0', 'about:blank',
  ], { stdio: ['ignore', 'ignore', 'pipe'] });
  const wsUrl = await new Promise((resolve, reject) => {
    let err = '';
    const timer = setTimeout(() => reject(new Error('chromium did not start: ' + err)), timeoutMs);
    proc.stderr.on('data', (d) => {
      err += d;
      const m = /DevTools listening on (ws:\/\/\S+)/.exec(err);
      if (m) { clearTimeout(timer); resolve(m[1]); }
    });
    proc.on('exit', (code) => reject(new Error(`chromium exited (${code}): ${err}`)));
  });
  const ws = new WebSocket(wsUrl);
  await new Promise((resolve, reject) => { ws.onopen = resolve; ws.onerror = reject; });
  let nextId = 1;
  const pending = new Map();
  const listeners = [];
  ws.onmessage = (m) => {
    const msg = JSON.parse(m.data);
    if (msg.id && pending.has(msg.id)) {
      const { resolve, reject } = pending.get(msg.id);
      pending.delete(msg.id);
      if (msg.error) reject(new Error(JSON.stringify(msg.error))); else resolve(msg.result);
    } else if (msg.method) {
      for (const l of listeners) l(msg);
    }
  };
  const send = (method, params = {}, sessionId) => new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { resolve, reject });
    ws.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
  });
  const { targetId } = await send('Target.createTarget', { url: 'about:blank' });
  const { sessionId } = await send('Target.attachToTarget', { targetId, flatten: true });
  const page = (method, params) => send(method, params, sessionId);
  const errors = [];
  const requests = [];
  let loaded = false;
  listeners.push((msg) => {
    if (msg.sessionId !== sessionId) return;
    const p = msg.params;
    if (msg.method === 'Runtime.exceptionThrown') errors.push('exception: ' + JSON.stringify(p.exceptionDetails));
    if (msg.method === 'Runtime.consoleAPICalled' && (p.type === 'error' || p.type === 'warning' || p.type === 'assert')) {
      errors.push(`console.${p.type}: ` + p.args.map((a) => a.value ?? a.description).join(' '));
    }
    if (msg.method === 'Log.entryAdded' && (p.entry.level === 'error' || p.entry.level === 'warning')) {
      errors.push(`log ${p.entry.level}: ${p.entry.text} ${p.entry.url || ''}`);
    }
    if (msg.method === 'Network.requestWillBeSent') requests.push(p.request.url);
    if (msg.method === 'Page.loadEventFired') loaded = true;
  });
  await page('Runtime.enable');
  await page('Log.enable');
  await page('Network.enable');
  await page('Page.enable');
  await page('Emulation.setDeviceMetricsOverride', { width, height, deviceScaleFactor: 1, mobile: false });
  const url = pathToFileURL(file).href;
  await page('Page.navigate', { url });
  const evaluate = async (expression) => {
    const r = await page('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true });
    if (r.exceptionDetails) throw new Error('evaluate: ' + JSON.stringify(r.exceptionDetails));
    return r.result.value;
  };
  const start = Date.now();
  for (;;) {
    if (loaded) {
      const ready = await evaluate('document.body && (document.body.getAttribute("data-ready") || (document.querySelector("#plan-data") ? null : "none"))');
      if (ready) break;
    }
    if (Date.now() - start > timeoutMs) throw new Error('page did not get ready: ' + errors.join('; '));
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url, errors, requests, evaluate,
    // A PNG of the viewport, or of the whole page with `full`.
    async screenshot({ full = false } = {}) {
      const params = { format: 'png' };
      if (full) {
        const m = await page('Page.getLayoutMetrics');
        const size = m.cssContentSize || m.contentSize;
        params.clip = { x: 0, y: 0, width: size.width, height: size.height, scale: 1 };
        params.captureBeyondViewport = true;
      }
      const r = await page('Page.captureScreenshot', params);
      return Buffer.from(r.data, 'base64');
    },
    async close() {
      try { await send('Browser.close'); } catch { /* already gone */ }
      ws.close();
      await new Promise((r) => { if (proc.exitCode !== null) r(); else { proc.on('exit', r); setTimeout(() => { proc.kill('SIGKILL'); r(); }, 5000); } });
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
