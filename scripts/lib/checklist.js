/**
 * The checks of a script-run test suite (the image tests): each check printed as it is made, and at the end the
 * closing line `N passed, N failed`, the exit code, and the JSON report scripts/test-all.js reads
 * (`--json-report <file>`).
 */
const fs = require('node:fs');

function checklist(argv = process.argv) {
  const reportIndex = argv.indexOf('--json-report');
  const reportFile = reportIndex > 0 ? argv[reportIndex + 1] : undefined;
  const results = [];
  const check = (name, ok, detail = '') => {
    results.push({ name, ok });
    console.log(`${ok ? '  ✓' : '  ✗'} ${name}${detail ? ` (${detail})` : ''}`);
  };
  /** Runs the suite; a throw counts as one failed check named `whole`. */
  const run = (main, whole) =>
    main()
      .catch((e) => {
        console.error(e);
        results.push({ name: whole, ok: false });
      })
      .finally(() => {
        const passed = results.filter((r) => r.ok).length;
        const failed = results.length - passed;
        if (reportFile)
          fs.writeFileSync(reportFile, JSON.stringify({ numPassedTests: passed, numFailedTests: failed }));
        console.log(`${passed} passed, ${failed} failed`);
        process.exitCode = failed > 0 ? 1 : 0;
      });
  return { check, run };
}

module.exports = { checklist };
