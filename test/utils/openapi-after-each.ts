import { appendFileSync } from 'node:fs';
import { takeViolations } from './openapi-validation';

// Every answer a test received was checked against the OpenAPI document (test-app.ts): one that does not match
// fails the test that made the request, with what to add. OPENAPI_RECORD=<file> lists them there instead, to
// survey a whole run at once.
afterEach(() => {
  const found = takeViolations();
  if (found.length === 0) return;
  if (process.env.OPENAPI_RECORD) {
    appendFileSync(
      process.env.OPENAPI_RECORD,
      found.map((v) => `${expect.getState().currentTestName}\t${v}\n`).join(''),
    );
    return;
  }
  throw new Error(`Answers that the OpenAPI document does not allow (docs/api.md):\n- ${found.join('\n- ')}`);
});
