import { expect, Page } from '@playwright/test';

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

/** Fails with the findings listed when the page has a serious or critical WCAG 2.1 AA violation. */
export async function expectAccessible(page: Page, what: string, selector?: string) {
  expect
    .soft(await axeFindings(page, selector), `${what}: serious or critical WCAG 2.1 AA violations (axe-core)`)
    .toEqual([]);
}
