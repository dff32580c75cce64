#!/usr/bin/env node
/**
 * Lighthouse (the pinned `lighthouse` package, its default mobile profile: a mid-range phone on slow 4G with
 * simulated throttling) over the built server's /logIn, three runs in Debian's Chromium; the median run's
 * performance score, LCP and total blocking time, the best-practices score, the JavaScript transferred and any
 * console error of the anonymous visit. `LIGHTHOUSE_RUNS=5` for more runs, `LIGHTHOUSE_FORM=desktop` for the
 * desktop profile.
 */
const { startServer, fmt, report } = require('./lib');

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
const DESKTOP = process.env.LIGHTHOUSE_FORM === 'desktop';

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main() {
  const { default: lighthouse } = await import('lighthouse');
  const desktopConfig = DESKTOP ? (await import('lighthouse/core/config/desktop-config.js')).default : undefined;
  const chromeLauncher = await import('chrome-launcher');
  const server = await startServer();
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM,
    chromeFlags: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  try {
    const runs = [];
    for (let attempt = 0; runs.length < RUNS && attempt < RUNS * 2; attempt++) {
      const result = await lighthouse(
        `${server.base}/logIn`,
        { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'best-practices'] },
        desktopConfig,
      );
      const { audits, categories, runtimeError } = result.lhr;
      if (runtimeError) {
        // Lighthouse could not measure this run (a trace without a paint on a loaded machine): say so, run again.
        console.log(`  attempt ${attempt + 1}: not measured (${runtimeError.code})`);
        continue;
      }
      const scripts = audits['network-requests'].details.items.filter((r) => r.resourceType === 'Script');
      const errors = audits['errors-in-console'].details.items ?? [];
      const run = {
        performance: Math.round(categories.performance.score * 100),
        bestPractices: Math.round(categories['best-practices'].score * 100),
        lcp: audits['largest-contentful-paint'].numericValue,
        tbt: audits['total-blocking-time'].numericValue,
        fcp: audits['first-contentful-paint'].numericValue,
        js: scripts.reduce((sum, r) => sum + r.transferSize, 0),
        errors: errors.map((e) => e.description ?? e.source).filter(Boolean),
      };
      runs.push(run);
      console.log(
        `  run ${runs.length}: performance ${run.performance}, LCP ${fmt(run.lcp)} ms, TBT ${fmt(run.tbt)} ms, ` +
          `FCP ${fmt(run.fcp)} ms, JS ${fmt(run.js / 1024)} KB in ${scripts.length} files, best practices ` +
          `${run.bestPractices}${run.errors.length ? `, console: ${run.errors.join(' | ')}` : ''}`,
      );
    }
    if (runs.length < RUNS) throw new Error(`only ${runs.length} of ${RUNS} runs measured`);
    const mid = runs.find((r) => r.performance === median(runs.map((x) => x.performance)));
    const profile = DESKTOP ? 'desktop' : 'mobile';
    const errors = new Set(runs.flatMap((r) => r.errors));
    report(
      `Lighthouse ${profile}, /logIn`,
      `performance ${mid.performance} (median of ${RUNS}: ${runs.map((r) => r.performance).join(', ')}), ` +
        `LCP ${fmt(mid.lcp / 1000)} s, TBT ${fmt(mid.tbt)} ms, JavaScript ${fmt(mid.js / 1024)} KB transferred, ` +
        `best practices ${mid.bestPractices}, ${errors.size ? `console errors: ${[...errors].join(' | ')}` : 'no console error'}`,
    );
  } finally {
    await chrome.kill();
    await server.stop();
  }
}

main().catch((e) => {
  console.error(`lighthouse bench failed: ${e.stack ?? e}`);
  process.exitCode = 1;
});
