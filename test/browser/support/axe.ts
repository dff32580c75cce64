import { expect, Page } from '@playwright/test';
import { appendFileSync } from 'node:fs';

/** axe-core, injected into the page under test (the page's CSP is bypassed for it: see a11y.browser.ts). */
const AXE_SOURCE = require.resolve('axe-core/axe.min.js');

/** WCAG 2.1 level A and AA. */
const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

export interface AxeFinding {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/** Waits until nothing is moving (dialogs and menus fade in; a half-faded text fails contrast). Spinners loop forever and are left alone. */
async function settle(page: Page) {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity),
  );
}

/** The serious and critical WCAG 2.1 AA violations axe-core finds on the page (or inside `selector`). */
export async function axeFindings(page: Page, selector?: string): Promise<AxeFinding[]> {
  await settle(page);
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE_SOURCE });
  return page.evaluate(
    async ({ tags, selector }) => {
      type Result = {
        id: string;
        impact: string | null;
        help: string;
        nodes: Array<{ target: string[]; failureSummary?: string }>;
      };
      const axe = (
        window as unknown as {
          axe: { run: (context: unknown, options: unknown) => Promise<{ violations: Result[]; passes: Result[] }> };
        }
      ).axe;
      const result = await axe.run(selector ? { include: [selector] } : document, {
        runOnly: { type: 'tag', values: tags },
        resultTypes: ['violations'],
      });
      // A check that checked nothing would pass: make sure the rules met the page.
      if (result.passes.length === 0) throw new Error('axe-core found nothing to check');
      return result.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => ({
          id: v.id,
          impact: v.impact,
          help: v.help,
          nodes: v.nodes
            .slice(0, 5)
            .map((n) => `${n.target.join(' ')} :: ${(n.failureSummary ?? '').replace(/\s+/g, ' ')}`),
        }));
    },
    { tags: WCAG_21_AA, selector },
  );
}

/** HTML_CodeSniffer, pa11y's engine, injected as axe-core is. */
const HTMLCS_SOURCE = require.resolve('html_codesniffer/build/HTMLCS.js');

/**
 * The errors HTML_CodeSniffer finds against WCAG 2 AA on the page (or inside `selector`), as pa11y reports them
 * by default (errors only: its warnings and notices ask a person to judge, see docs/decisions/accessibility-engines.md).
 */
export async function htmlcsFindings(page: Page, selector?: string): Promise<string[]> {
  await settle(page);
  if (!(await page.evaluate(() => 'HTMLCS' in window))) await page.addScriptTag({ path: HTMLCS_SOURCE });
  return page.evaluate(async (selector) => {
    type Message = { type: number; code: string; msg: string; element: Element };
    const htmlcs = (
      window as unknown as {
        HTMLCS: {
          process: (standard: string, el: Element | Document, done: () => void) => void;
          getMessages: () => Message[];
          getTranslation: (key: string) => string | undefined;
        };
      }
    ).HTMLCS;
    // HTML_CodeSniffer 2.5.1 lacks the English texts of some of its checks (H98, autocomplete tokens) and
    // throws where one is needed: the check's own key stands in for its text.
    const translate = htmlcs.getTranslation.bind(htmlcs);
    htmlcs.getTranslation = (key) => translate(key) ?? key;
    const root = selector ? document.querySelector(selector) : document;
    if (!root) throw new Error(`${selector} is not on the page`);
    await new Promise<void>((done) => htmlcs.process('WCAG2AA', root, done));
    const describe = (el: Element | undefined) =>
      String(el?.outerHTML ?? el?.nodeName ?? '')
        .replace(/\s+/g, ' ')
        .slice(0, 160);
    const messages = htmlcs.getMessages();
    // Its warnings, by check, for the list of accepted ones (HTMLCS_WARNINGS=<file> collects them).
    (window as unknown as { htmlcsWarnings?: string[] }).htmlcsWarnings = messages
      .filter((m) => m.type === 2)
      .map((m) => m.code);
    return messages.filter((m) => m.type === 1).map((m) => `${m.code} :: ${String(m.msg)} :: ${describe(m.element)}`);
  }, selector);
}

/**
 * Fails with the findings listed when the page has a serious or critical WCAG 2.1 AA violation (axe-core) or a
 * WCAG 2 AA error (HTML_CodeSniffer): two engines, each catches what the other misses.
 */
export async function expectAccessible(page: Page, what: string, selector?: string) {
  expect
    .soft(await axeFindings(page, selector), `${what}: serious or critical WCAG 2.1 AA violations (axe-core)`)
    .toEqual([]);
  expect.soft(await htmlcsFindings(page, selector), `${what}: WCAG 2 AA errors (HTML_CodeSniffer)`).toEqual([]);
  if (process.env.HTMLCS_WARNINGS) {
    const warnings = await page.evaluate(() => (window as unknown as { htmlcsWarnings: string[] }).htmlcsWarnings);
    appendFileSync(process.env.HTMLCS_WARNINGS, warnings.map((w) => `${what}\t${w}\n`).join(''));
  }
}
