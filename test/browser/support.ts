import type { Browser, BrowserContext, Page } from 'playwright-core';

/**
 * Pages and contexts that wait up to 60 s for an element or a navigation (Playwright's default is 30 s). The
 * console's browser files share the machine with the other test files (two jest workers on CI's 2 cores, each
 * file with its own npm start and chromium), and a loaded run must be slower, not red; a hung step still fails,
 * within the test's timeout. `browser` is a getter: the files launch chromium in their beforeAll.
 */
export const STEP_TIMEOUT_MS = 60_000;
type ContextOptions = Parameters<Browser['newContext']>[0];

export function patientPages(browser: () => Browser): { newContext: (o?: ContextOptions) => Promise<BrowserContext>; newPage: (o?: ContextOptions) => Promise<Page> } {
  const newContext = async (options?: ContextOptions) => {
    const context = await browser().newContext(options);
    context.setDefaultTimeout(STEP_TIMEOUT_MS);
    context.setDefaultNavigationTimeout(STEP_TIMEOUT_MS);
    return context;
  };
  // as Browser.newPage: a context of its own (closed with the browser in the files' afterAll)
  const newPage = async (options?: ContextOptions) => (await newContext(options)).newPage();
  return { newContext, newPage };
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Waits until an expression is true in the page. Not page.waitForFunction: its polling evaluates the string
 * with eval inside the page, which the console's CSP (script-src 'self', no unsafe-eval) refuses.
 */
export async function until(page: Page, expression: string, timeoutMs = 30_000): Promise<void> {
  for (const end = Date.now() + timeoutMs; Date.now() < end; await sleep(100)) if (await page.evaluate(expression)) return;
  throw new Error(`Not true within ${timeoutMs} ms: ${expression}`);
}
