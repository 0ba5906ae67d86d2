import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { freePort } from '../../local/dynamodb';
import { isAlive, startApi, stateOf, type RunningApi } from '../local/npm-start';

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
 * Waits until an expression is true in the page. Not page.waitForFunction (eslint refuses it in test/browser):
 * its polling evaluates the string with eval inside the page, which the console's CSP (script-src 'self', no
 * unsafe-eval) refuses.
 */
export async function until(page: Page, expression: string, timeoutMs = STEP_TIMEOUT_MS): Promise<void> {
  for (const end = Date.now() + timeoutMs; Date.now() < end; await sleep(100)) if (await page.evaluate(expression)) return;
  throw new Error(`Not true within ${timeoutMs} ms: ${expression}`);
}

/** Waits until a probe in the test (an HTTP call, a list a receiver fills) is true; fails naming what it waited for. */
export async function eventually(what: string, probe: () => boolean | Promise<boolean>, timeoutMs = 60_000, everyMs = 200): Promise<void> {
  for (const end = Date.now() + timeoutMs; Date.now() < end; await sleep(everyMs)) if (await probe()) return;
  throw new Error(`Not true within ${timeoutMs} ms: ${what}`);
}

/** Waits until the page has laid out and painted what the last change (a resize, a click) made: two frames. */
export const painted = (page: Page): Promise<unknown> => page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Debian's chromium (no browser download; .ci/run installs it with apt when missing; CHROMIUM_PATH overrides). */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`No browser at ${CHROMIUM}: install Debian's chromium (apt-get install -y chromium; .ci/run does) or set CHROMIUM_PATH`);
  // --no-sandbox: CI runs as root, where Chromium's sandbox cannot start.
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
}

/**
 * Ctrl-C to an npm start, and its end waited for. npm start stops its DynamoDB Local then; one still running
 * after it ended (its state file still names it: seen after loaded runs, left with PPID 1 for the rest of the
 * run) is killed here, with a warning, rather than left behind.
 */
async function stopNpmStart(api: RunningApi, dataDir: string): Promise<void> {
  api.child.kill('SIGINT');
  await api.exited;
  const left = stateOf(dataDir)?.dynamodb;
  let cmdline = '';
  try {
    cmdline = left ? readFileSync(`/proc/${left.pid}/cmdline`, 'utf8') : '';
  } catch {
    // gone
  }
  if (left && isAlive(left.pid) && cmdline.includes(dataDir)) {
    console.warn(`npm start (DATA_DIR ${dataDir}) ended and left its DynamoDB Local (pid ${left.pid}) running: killed\n${api.output().slice(-2000)}`);
    try {
      process.kill(left.pid, 'SIGKILL');
    } catch {
      // it ended meanwhile
    }
  }
}

interface SeededTemplate {
  /** the stopped template's DynamoDB Local folder (DATA_DIR/dynamodb), copied into each DATA_DIR */
  dynamoDir: string;
  /** the console's assets it built */
  assetsDir: string;
  /** what its first run printed */
  output: string;
}

/**
 * How long a file waits for another file's seeded start, and how long the seeding start may take to come up,
 * before the file seeds its own instead: both below the files' 180 s beforeAll bound, so a seeding that hangs
 * or dies costs time, not a failed file.
 */
const TEMPLATE_WAIT_MS = 100_000;
const TEMPLATE_START_MS = 90_000;

/**
 * The JVM of each npm start's DynamoDB Local compiles with C1 only and collects with the serial collector: a
 * short-lived JVM on 2 shared cores spends much of its CPU in the C2 compiler threads and the parallel
 * collector. Measured on a seeded start (load 8-10): 16.7 s of CPU by default, 9.8 s with these, the same
 * wall time. DynamoDB Local is the same program; only how the JVM compiles it differs.
 */
const LEAN_JVM = { JAVA_TOOL_OPTIONS: [process.env.JAVA_TOOL_OPTIONS, '-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC'].filter(Boolean).join(' ') };

/**
 * One seeded `npm start` DATA_DIR per jest run, copied by every file that starts the console. A first run of
 * `npm start` seeds the demo workspace through the API's own code, most of its cost (on a loaded 2-core run
 * about 12 of its 17 CPU seconds, nearly all of them DynamoDB Local's, and 40 s of wall time): the run's first
 * startConsole does that once, into a folder of the run (the one test/support/global-setup.ts makes for
 * CONTRACT_REPORT_FILE, which global-teardown.ts removes), stops it, and keeps what it printed (the demo key,
 * the owner's password, shown on the first run only) and the console assets it built (esbuild; then used as
 * CONSOLE_ASSETS_DIR by every later start, which only reads them). Each file then starts its own `npm start`,
 * its own DynamoDB Local, on a copy of that DynamoDB folder in a DATA_DIR of its own: the same demo data, which
 * no file sees another change. The first run of `npm start` itself is tested in test/local/start.test.ts.
 * Outside jest (no run folder), or when making it failed, a file seeds its own as before.
 */
async function seededTemplate(): Promise<SeededTemplate | undefined> {
  const report = process.env.CONTRACT_REPORT_FILE;
  if (!report) return undefined;
  const home = join(dirname(report), 'console-seeded');
  const lock = `${home}.lock`;
  const done = join(lock, 'done');
  const read = (): SeededTemplate | undefined =>
    existsSync(join(home, 'output.txt'))
      ? { dynamoDir: join(home, 'data', 'dynamodb'), assetsDir: join(home, 'data', 'console-assets'), output: readFileSync(join(home, 'output.txt'), 'utf8') }
      : undefined;
  try {
    mkdirSync(lock); // atomic: one file of the run makes it, the others wait for it
    writeFileSync(join(lock, 'pid'), String(process.pid));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    // another file makes it: wait for it, unless its process is gone or it takes too long (then seed our own)
    const owner = () => Number(existsSync(join(lock, 'pid')) ? readFileSync(join(lock, 'pid'), 'utf8') : 0);
    for (const end = Date.now() + TEMPLATE_WAIT_MS; Date.now() < end; await sleep(200)) {
      if (existsSync(done)) return read();
      if (owner() && !isAlive(owner())) break;
    }
    console.warn('The seeded npm start of this run did not come (its maker ended or took too long): this file seeds its own');
    return undefined;
  }
  try {
    const dataDir = join(home, 'data');
    mkdirSync(dataDir, { recursive: true });
    const api = startApi({ PORT: String(await freePort()), DYNAMODB_PORT: String(await freePort()), DATA_DIR: dataDir, ...LEAN_JVM });
    try {
      await Promise.race([
        api.ready,
        sleep(TEMPLATE_START_MS).then(() => {
          throw new Error(`the seeded npm start was not ready within ${TEMPLATE_START_MS} ms`);
        }),
      ]);
      await eventually('npm start printed its OpenID Provider', () => api.output().includes('OpenID Provider (issuer):'), 30_000, 50);
    } finally {
      await stopNpmStart(api, dataDir);
    }
    if (!/Password: +\S+/.test(api.output())) throw new Error(`the seeded npm start printed no owner password:\n${api.output()}`);
    writeFileSync(join(home, 'output.txt'), api.output());
    return read();
  } catch (e) {
    console.warn(`No seeded npm start for this run (each file seeds its own): ${(e as Error).message}`);
    return undefined;
  } finally {
    writeFileSync(done, '');
  }
}

/** A file's own `npm start` (free ports, a DATA_DIR of its own holding a copy of the run's seeded data). */
export interface SeededApi {
  api: RunningApi;
  /** the API and console origin, http://127.0.0.1:<port> */
  base: string;
  /** its DynamoDB Local, for the admin CLI */
  dynamo: string;
  dataDir: string;
  /** The first group of a pattern in what npm start printed (the demo owner's e-mail, the demo key...). */
  printed: (pattern: RegExp) => string;
  /** The demo owner npm start printed. */
  owner: () => { email: string; password: string };
  stop: () => Promise<void>;
}

export async function startSeededApi(name: string, env: Record<string, string> = {}): Promise<SeededApi> {
  const template = await seededTemplate();
  const dataDir = mkdtempSync(join(tmpdir(), `${name}-`));
  if (template) cpSync(template.dynamoDir, join(dataDir, 'dynamodb'), { recursive: true });
  const port = await freePort();
  const dynamoPort = await freePort();
  const api = startApi({
    PORT: String(port),
    DYNAMODB_PORT: String(dynamoPort),
    DATA_DIR: dataDir,
    ...LEAN_JVM,
    ...(template ? { CONSOLE_ASSETS_DIR: template.assetsDir } : {}),
    ...env,
  });
  const stop = async () => {
    await stopNpmStart(api, dataDir);
    rmSync(dataDir, { recursive: true, force: true });
  };
  const ready = (async () => {
    await api.ready;
    // the lines after "API listening" (the provider's issuer and endpoints) may come in a later chunk
    await eventually('npm start printed its OpenID Provider', () => api.output().includes('OpenID Provider (issuer):'), 30_000, 50);
  })();
  try {
    await ready;
  } catch (e) {
    await stop();
    throw e;
  }
  // this start's lines first (its ports, its provider), then the seeded first run's (the demo key, the owner)
  const printed = (pattern: RegExp) => {
    const m = pattern.exec(api.output()) ?? (template ? pattern.exec(template.output) : null);
    if (!m?.[1]) throw new Error(`npm start did not print ${pattern}:\n${api.output()}${template ? `\n(seeded first run:)\n${template.output}` : ''}`);
    return m[1];
  };
  return {
    api,
    base: `http://127.0.0.1:${port}`,
    dynamo: `http://127.0.0.1:${dynamoPort}`,
    dataDir,
    printed,
    owner: () => ({ email: printed(/Email: +(\S+)/), password: printed(/Password: +(\S+)/) }),
    stop,
  };
}

/** A file's own `npm start` (startSeededApi) and chromium, started side by side. */
export interface ConsoleRun extends SeededApi {
  browser: Browser;
}

export async function startConsole(name: string, env: Record<string, string> = {}): Promise<ConsoleRun> {
  const launched = launchChromium();
  launched.catch(() => undefined); // handled below, once the npm start is up (or has failed)
  let seeded: SeededApi;
  try {
    seeded = await startSeededApi(name, env);
  } catch (e) {
    await (await launched.catch(() => undefined))?.close();
    throw e;
  }
  let browser: Browser;
  try {
    browser = await launched;
  } catch (e) {
    await seeded.stop();
    throw e;
  }
  return {
    ...seeded,
    browser,
    stop: async () => {
      await browser.close();
      await seeded.stop();
    },
  };
}

/**
 * Signs in through the local OpenID Provider's form from the console at `base` (`hash`: the section to land in,
 * e.g. '#/settings') and waits for the section's heading.
 */
export async function signIn(page: Page, base: string, email: string, password: string, hash = ''): Promise<void> {
  await page.goto(`${base}/console${hash}`);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.locator('#section-heading').waitFor();
}

/** An /v1 call with an API key. */
export const v1 = (base: string, path: string, key: string, init: RequestInit = {}): Promise<Response> =>
  fetch(`${base}${path}`, { ...init, headers: { 'X-API-Key': key, 'Content-Type': 'application/json', ...(init.headers ?? {}) } });

let axeSource: string | undefined;
/** axe-core's serious and critical findings in the page, each as "rule target, target". */
export async function axeFindings(page: Page): Promise<string[]> {
  axeSource ??= readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  await page.evaluate(axeSource);
  return page.evaluate(
    "axe.run({ resultTypes: ['violations'] }).then((r) => r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id + ' ' + v.nodes.map((n) => n.target.join(' ')).join(', ')))",
  );
}

export const scrollsSideways = (page: Page): Promise<boolean> => page.evaluate<boolean>('document.documentElement.scrollWidth > document.documentElement.clientWidth');

/**
 * No serious or critical axe-core finding where the page is (`where` names it in a failure) and, unless
 * `sideways: false`, the page itself does not scroll sideways (a wide table scrolls in its own box).
 */
export async function audit(page: Page, where: string, { sideways = true } = {}): Promise<void> {
  expect({ where, found: await axeFindings(page) }).toEqual({ where, found: [] });
  if (sideways) expect({ where, sideways: await scrollsSideways(page) }).toEqual({ where, sideways: false });
}

/**
 * Reloads a signed-in page and waits for `landed`: the console may first show its Sign in button (a click
 * then goes through the provider's live session, no form) or come back signed in. Waits for either before
 * looking, never reads the button's visibility before the page has rendered.
 */
export async function reloadSignedIn(page: Page, landed: Locator): Promise<void> {
  await page.reload();
  const signInButton = page.getByRole('button', { name: 'Sign in' });
  await signInButton.or(landed).first().waitFor();
  if (await signInButton.isVisible()) await signInButton.click();
  await landed.first().waitFor();
}
