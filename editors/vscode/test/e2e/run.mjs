// End-to-end test of the packaged extension in a real VS Code: the .vsix is
// installed into code-server (VS Code's server build, from npm), a fixture
// module is opened in a headless Chromium driven by Playwright, and the test
// checks what a person would see: the server's diagnostics in the Problems
// panel, a hover with an inferred type, F12 to a type alias's file, Format
// Document, the status bar item and the extension's commands. Every step
// leaves a screenshot in screenshots/.
//
// Usage: node run.mjs PUPPET_LS VSIX
// Environment: CHROMIUM (the browser binary; default: chromium on PATH),
// PUPPET_LS_E2E_KEEP=1 keeps the temporary directory.
import { execFile, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const [serverArg, vsixArg] = process.argv.slice(2);
if (serverArg === undefined || vsixArg === undefined) {
  console.error('usage: node run.mjs PUPPET_LS VSIX');
  process.exit(2);
}
const server = path.resolve(serverArg);
const vsix = path.resolve(vsixArg);
const codeServer = path.join(here, 'node_modules', '.bin', 'code-server');
const shots = path.join(here, 'screenshots');
const started = Date.now();

/** Milliseconds a step may wait for what it expects (a cold workbench on 2 cores is slow). */
const WAIT = 60_000;

function log(message) {
  console.log(`vscode e2e [${((Date.now() - started) / 1000).toFixed(1)} s] ${message}`);
}

function which(name) {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

const browserPath = process.env.CHROMIUM || which('chromium') || which('chromium-browser');
if (browserPath === undefined) {
  console.error('vscode e2e: no Chromium (apt-get install chromium, or set CHROMIUM)');
  process.exit(2);
}

async function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

// A scratch home for code-server: its data, extensions, configuration, logs,
// and a copy of the fixture (the test edits and saves a file).
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'puppet-ls-vscode-e2e-'));
const dataDir = path.join(work, 'data');
const extensionsDir = path.join(work, 'extensions');
const workspace = path.join(work, 'webapp');
fs.cpSync(path.join(here, 'fixture', 'webapp'), workspace, { recursive: true });
fs.rmSync(shots, { recursive: true, force: true });
fs.mkdirSync(shots, { recursive: true });

// The server path is set in the User settings, the case that failed in
// remote windows while the setting was `machine-overridable` (code-server is
// such a window: the extension runs on the server side). puppet-ls is not on
// the PATH code-server gets, so only the setting can find it.
const userSettings = path.join(dataDir, 'User', 'settings.json');
function writeUserSettings(serverPath) {
  fs.mkdirSync(path.dirname(userSettings), { recursive: true });
  fs.writeFileSync(
    userSettings,
    JSON.stringify(
    {
      ...(serverPath === undefined ? {} : { 'puppet-ls.server.path': serverPath }),
      'puppet-ls.trace.server': 'messages',
      'workbench.startupEditor': 'none',
      'workbench.tips.enabled': false,
      'workbench.welcomePage.walkthroughs.openOnInstall': false,
      'workbench.colorTheme': 'Default Dark Modern',
      'telemetry.telemetryLevel': 'off',
      'extensions.autoCheckUpdates': false,
      'extensions.autoUpdate': false,
      'extensions.ignoreRecommendations': true,
      'update.mode': 'none',
      'chat.commandCenter.enabled': false,
      'editor.minimap.enabled': false,
      'editor.hover.delay': 200,
      'files.autoSave': 'off',
      'window.menuBarVisibility': 'compact',
    },
    null,
    2,
    ),
  );
}
writeUserSettings(server);
const env = {
  ...process.env,
  PATH: (process.env.PATH ?? '')
    .split(path.delimiter)
    .filter((dir) => dir !== '' && !fs.existsSync(path.join(dir, 'puppet-ls')))
    .join(path.delimiter),
  XDG_CONFIG_HOME: path.join(work, 'config'),
  XDG_DATA_HOME: path.join(work, 'xdg-data'),
  XDG_CACHE_HOME: path.join(work, 'cache'),
  // Its sockets and the TypeScript server's files, removed with the rest.
  TMPDIR: path.join(work, 'tmp'),
};
fs.mkdirSync(env.TMPDIR);
const common = ['--config', path.join(work, 'config.yaml'), '--user-data-dir', dataDir, '--extensions-dir', extensionsDir];
fs.writeFileSync(path.join(work, 'config.yaml'), 'auth: none\n');

let codeServerProcess;
let codeServerLog = '';
let browser;
let failed = false;

async function shutdown() {
  await browser?.close().catch(() => {});
  if (codeServerProcess !== undefined) {
    // code-server leads a process group of its own: its extension host,
    // file watcher and language servers (puppet-ls among them) end with it.
    const signalGroup = (signal) => {
      try {
        process.kill(-codeServerProcess.pid, signal);
      } catch {
        // the group is gone
      }
    };
    signalGroup('SIGTERM');
    if (codeServerProcess.exitCode === null) {
      await Promise.race([new Promise((resolve) => codeServerProcess.once('exit', resolve)), sleep(5000)]);
    }
    await sleep(500);
    signalGroup('SIGKILL');
  }
  if (failed || process.env.PUPPET_LS_E2E_KEEP) {
    fs.writeFileSync(path.join(work, 'code-server.log'), codeServerLog);
    console.error(`vscode e2e: kept ${work} (code-server.log, data/logs)`);
  } else {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** A step: logs it, and on failure says which step and takes a screenshot. */
let page;
let stepNumber = 0;
async function step(name, body) {
  stepNumber += 1;
  const label = `${String(stepNumber).padStart(2, '0')}-${name}`;
  log(`step ${label}`);
  try {
    await body();
  } catch (err) {
    if (page !== undefined) {
      await page.screenshot({ path: path.join(shots, `${label}-FAILED.png`) }).catch(() => {});
    }
    throw new Error(`step ${label} failed: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
  if (page !== undefined) {
    await page.screenshot({ path: path.join(shots, `${label}.png`) });
  }
}

/**
 * Moves the mouse to a blank part of the explorer: a pointer left on a tab
 * or the status bar shows a hover that can cover what the next step clicks.
 */
async function parkMouse() {
  await page.mouse.move(150, 450);
}

/** Runs a command from the command palette by its exact label. */
async function runCommand(label) {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.waitFor({ state: 'visible', timeout: WAIT });
  await input.fill(`>${label}`);
  const row = page.locator('.quick-input-widget .monaco-list-row', {
    has: page.locator('.monaco-highlighted-label', { hasText: new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) }),
  });
  await row.first().waitFor({ state: 'visible', timeout: WAIT });
  await row.first().click();
  await input.waitFor({ state: 'hidden', timeout: WAIT });
  await parkMouse();
}

/** Opens a workspace file with Quick Open (Ctrl+P), and waits for its tab. */
async function openFile(name, relative) {
  await page.keyboard.press('Control+P');
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.waitFor({ state: 'visible', timeout: WAIT });
  await input.fill(relative);
  const row = page.locator('.quick-input-widget .monaco-list-row', { hasText: name }).first();
  await row.waitFor({ state: 'visible', timeout: WAIT });
  await input.press('Enter');
  await activeTab(name);
}

async function activeTab(name) {
  await page
    .locator('.editor-group-container.active .tab.active', { has: page.locator('.label-name', { hasText: new RegExp(`^${name.replace('.', '\\.')}$`) }) })
    .waitFor({ state: 'visible', timeout: WAIT });
}

/** Moves the cursor with Go to Line/Column (Ctrl+G). */
async function goTo(line, column) {
  await page.keyboard.press('Control+G');
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.waitFor({ state: 'visible', timeout: WAIT });
  await input.fill(`:${line}:${column}`);
  await input.press('Enter');
  await input.waitFor({ state: 'hidden', timeout: WAIT });
}

/** The text of the active editor as shown (the whole file: the fixtures are short). */
async function editorText() {
  const lines = await page.locator('.editor-group-container.active .monaco-editor .view-lines .view-line').evaluateAll((nodes) =>
    nodes
      .map((node) => ({ top: parseFloat(node.style.top), text: node.textContent ?? '' }))
      .sort((a, b) => a.top - b.top)
      .map((line) => line.text.replace(/\u00a0/g, ' ')),
  );
  return lines.join('\n');
}

async function waitFor(what, predicate, timeout = WAIT) {
  const deadline = Date.now() + timeout;
  let last;
  while (Date.now() < deadline) {
    last = await predicate();
    if (last === true) {
      return;
    }
    await sleep(250);
  }
  throw new Error(`timed out after ${timeout / 1000} s waiting for ${what}${typeof last === 'string' ? `; last seen: ${last}` : ''}`);
}

/** The puppet-ls output channel, from the file VS Code writes it to (the view shows only what fits). */
function outputChannelText() {
  const found = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        walk(full);
      } else if (/^\d+-puppet-ls\.log$/.test(entry.name)) {
        found.push(full);
      }
    }
  };
  walk(path.join(dataDir, 'logs'));
  return found.map((file) => fs.readFileSync(file, 'utf8')).join('\n');
}

const statusItem = () => page.locator('.statusbar-item', { hasText: /^\s*puppet-ls/ }).first();
/** The status bar item showing a ready server. */
const readyItem = () => page.locator('.statusbar-item', { hasText: /^\s*puppet-ls\s*$/, has: page.locator('.codicon-check') }).first();

try {
  await step('install-vsix', async () => {
    const { stdout, stderr } = await promisify(execFile)(codeServer, [...common, '--install-extension', vsix], { env, timeout: WAIT * 2 });
    const said = `${stdout}${stderr}`;
    if (!/was successfully installed/.test(said)) {
      throw new Error(`code-server did not install the .vsix: ${said}`);
    }
    const installed = fs.readdirSync(extensionsDir).filter((d) => d.startsWith('puppet-ls.puppet-ls-'));
    if (installed.length !== 1) {
      throw new Error(`expected one installed puppet-ls extension in ${extensionsDir}, found ${JSON.stringify(fs.readdirSync(extensionsDir))}`);
    }
    const js = [];
    const walk = (dir) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) {
          walk(full);
        } else if (entry.name.endsWith('.js')) {
          js.push(path.relative(path.join(extensionsDir, installed[0]), full));
        }
      }
    };
    walk(path.join(extensionsDir, installed[0]));
    if (JSON.stringify(js) !== JSON.stringify([path.join('dist', 'extension.js')])) {
      throw new Error(`the installed extension should hold one bundled script, dist/extension.js; it holds ${JSON.stringify(js)}`);
    }
    log(`installed ${installed[0]}`);
  });

  const port = await freePort();
  codeServerProcess = spawn(
    codeServer,
    [
      ...common,
      '--bind-addr',
      `127.0.0.1:${port}`,
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--disable-getting-started-override',
      '--ignore-last-opened',
    ],
    { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  codeServerProcess.stdout.on('data', (d) => (codeServerLog += d));
  codeServerProcess.stderr.on('data', (d) => (codeServerLog += d));
  await waitFor('code-server to listen', async () => {
    if (codeServerProcess.exitCode !== null) {
      throw new Error(`code-server exited (${codeServerProcess.exitCode}): ${codeServerLog}`);
    }
    return /HTTP server listening on/.test(codeServerLog);
  });
  log(`code-server listens on 127.0.0.1:${port}`);

  browser = await chromium.launch({
    executablePath: browserPath,
    headless: true,
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'],
  });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  page = await context.newPage();
  const consoleErrors = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') {
      consoleErrors.push(msg.text());
    }
  });
  // Every text the status bar item shows, as it changes (indexing may be
  // too quick to be seen by polling).
  await page.addInitScript(() => {
    window.__puppetLsStatus = [];
    const record = () => {
      for (const item of document.querySelectorAll('.statusbar-item')) {
        const text = item.textContent?.trim() ?? '';
        if (text.startsWith('puppet-ls')) {
          const icon = item.querySelector('.codicon')?.className.match(/codicon-([\w-]+)/)?.[1] ?? '';
          const entry = `${icon} ${text}`;
          if (window.__puppetLsStatus.at(-1) !== entry) {
            window.__puppetLsStatus.push(entry);
          }
        }
      }
    };
    new MutationObserver(record).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
  });

  await step('workbench', async () => {
    await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}`, { timeout: WAIT });
    await page.locator('.monaco-workbench .part.statusbar').waitFor({ state: 'visible', timeout: WAIT });
    // The explorer shows the fixture once the remote file system answers.
    await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'manifests' }).waitFor({ timeout: WAIT });
  });

  await step('open-manifest', async () => {
    await page.locator('.part.editor').click();
    await openFile('init.pp', 'manifests/init.pp');
    // The extension activates on the Puppet language and starts the server.
    await statusItem().waitFor({ state: 'visible', timeout: WAIT });
    await readyItem().waitFor({ timeout: WAIT });
  });

  await step('problems', async () => {
    await runCommand('View: Focus Problems (Errors, Warnings, Infos)');
    const panel = page.locator('.markers-panel');
    await panel.waitFor({ state: 'visible', timeout: WAIT });
    for (const message of [
      "parameter '$listen' expects a value of type Webapp::Port (Integer[1, 65535]), got 70000",
      "unknown variable '$prot'",
    ]) {
      await panel.locator('.monaco-list-row', { hasText: message }).first().waitFor({ timeout: WAIT });
    }
    // The codes are shown with the problems.
    await panel.locator('.monaco-list-row', { hasText: 'unknown-variable' }).first().waitFor({ timeout: WAIT });
  });

  await step('hover', async () => {
    // `${port}` in the message: $port = 8000 + 80, a single value.
    await page.locator('.editor-group-container.active .monaco-editor .view-lines').click({ position: { x: 5, y: 5 } });
    const hover = page.locator('.monaco-hover:not(.hidden) .monaco-hover-content', { hasText: 'Integer[8080, 8080]' });
    for (let attempt = 1; ; attempt++) {
      await goTo(10, 45);
      await runCommand('Show or Focus Hover');
      try {
        await hover.first().waitFor({ state: 'visible', timeout: 10_000 });
        break;
      } catch (err) {
        if (attempt === 5) {
          throw err;
        }
        log(`hover not shown yet (attempt ${attempt}); again`);
        await page.keyboard.press('Escape');
      }
    }
  });

  await step('go-to-definition', async () => {
    await page.keyboard.press('Escape');
    await goTo(5, 5);
    await page.keyboard.press('F12');
    await activeTab('port.pp');
    await waitFor('the type alias in the editor', async () => {
      const text = await editorText();
      return text.includes('type Webapp::Port = Integer[1, 65535]') || text;
    });
    const title = await page.title();
    if (!title.includes('port.pp')) {
      throw new Error(`the window title does not name port.pp: ${title}`);
    }
  });

  await step('format-before', async () => {
    await openFile('messy.pp', 'manifests/messy.pp');
    await waitFor('the unformatted file', async () => {
      const text = await editorText();
      return text.startsWith("class webapp::messy(String $root='/srv/www',$mode=  '0644'){") || text;
    });
  });

  await step('format-after', async () => {
    const expected = fs.readFileSync(path.join(here, 'expected', 'messy.pp'), 'utf8');
    await runCommand('Format Document');
    await waitFor('the formatted text in the editor', async () => {
      const text = await editorText();
      return text.replace(/\n+$/, '') === expected.replace(/\n+$/, '') || text;
    });
    await page.keyboard.press('Control+S');
    const file = path.join(workspace, 'manifests', 'messy.pp');
    await waitFor('the formatted file on disk', async () => {
      const text = fs.readFileSync(file, 'utf8');
      return text === expected || JSON.stringify(text);
    });
  });

  await step('status-menu', async () => {
    const item = statusItem();
    const tooltip = (await item.getAttribute('aria-label')) ?? '';
    log(`status bar item: ${tooltip}`);
    await item.click();
    await parkMouse();
    const rows = page.locator('.quick-input-widget .monaco-list-row');
    for (const label of ['Show Server Output', 'Restart Server', 'Open puppet-ls Settings']) {
      await rows.filter({ hasText: label }).first().waitFor({ state: 'visible', timeout: WAIT });
    }
  });

  await step('show-output', async () => {
    await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Show Server Output' }).first().click();
    await parkMouse();
    await waitFor('the puppet-ls channel selected in the output panel', async () => {
      const channel = await page.locator('.part.panel select').evaluateAll((selects) =>
        selects.map((select) => select.selectedOptions[0]?.textContent ?? '').join(','),
      );
      return channel.split(',').includes('puppet-ls') || `selected: ${channel}`;
    });
    // The output panel shows the channel: with puppet-ls.trace.server on, its LSP trace.
    await waitFor('the puppet-ls channel in the output panel', async () => {
      const text = (await page.locator('.part.panel').innerText()).replace(/\u00a0/g, ' ');
      return /\[Trace - [^\]]+\] (Received|Sending) /.test(text) || text.slice(-300);
    });
    // What the channel holds, from the file VS Code keeps it in: the server
    // was found through the User setting.
    await waitFor('the server start in the output channel', async () => {
      const text = outputChannelText();
      return text.includes(`Starting ${server} (found via setting)`) || text.slice(0, 300);
    });
  });

  await step('restart', async () => {
    await runCommand('puppet-ls: Restart Server');
    await waitFor('a second server start in the output channel', async () => {
      const text = outputChannelText();
      return text.split(`Starting ${server} (found via setting)`).length === 3 || text.slice(-300);
    });
    await readyItem().waitFor({ timeout: WAIT });
    // The restarted server answers: the problems are published again.
    await runCommand('View: Focus Problems (Errors, Warnings, Infos)');
    await page.locator('.markers-panel .monaco-list-row', { hasText: "unknown variable '$prot'" }).first().waitFor({ timeout: WAIT });
    const seen = await page.evaluate(() => window.__puppetLsStatus);
    log(`status bar item went through: ${seen.join(' | ')}`);
    if (seen.filter((s) => s.startsWith('check ')).length < 2) {
      throw new Error(`expected the status to leave ready and come back on restart: ${seen.join(' | ')}`);
    }
  });

  await step('progress-reported', async () => {
    // The trace shows that the server created a work-done progress (it does
    // when the client advertises window.workDoneProgress), the client
    // accepted it, and the reports came; the status bar showed them and is
    // back to ready.
    const text = outputChannelText();
    for (const expected of ["Received request 'window/workDoneProgress/create", "Received notification '$/progress'"]) {
      if (!text.includes(expected)) {
        throw new Error(`the output channel has no "${expected}"`);
      }
    }
    await readyItem().waitFor({ timeout: WAIT });
  });

  /** The text box of puppet-ls.server.path in the settings editor. */
  const serverPathInput = () =>
    page.locator('.settings-editor .setting-item-contents', { hasText: 'Path to the puppet-ls executable' }).first().locator('input');

  let settingsFile = userSettings;
  await step('not-found', async () => {
    // The user clears the setting in the settings editor; puppet-ls is not
    // on code-server's PATH: the extension restarts, says where to set the
    // path, and the status bar item shows the error.
    await runCommand('Preferences: Open User Settings');
    const editor = page.locator('.settings-editor');
    await editor.waitFor({ state: 'visible', timeout: WAIT });
    await parkMouse();
    await editor.locator('.settings-header .suggest-input-container').click();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('puppet-ls.server.path');
    await serverPathInput().waitFor({ state: 'visible', timeout: WAIT });
    if ((await serverPathInput().inputValue()) !== server) {
      throw new Error(`the settings editor shows ${JSON.stringify(await serverPathInput().inputValue())} for the server path`);
    }
    await serverPathInput().fill('');
    const toast = page.locator('.notification-toast', { hasText: 'The puppet-ls language server was not found' });
    await toast.first().waitFor({ state: 'visible', timeout: WAIT });
    const message = (await toast.first().innerText()).replace(/\s+/g, ' ');
    log(`not-found message: ${message}`);
    for (const expected of ['where the extension runs', '"puppet-ls.server.path"', 'Show Output']) {
      if (!message.includes(expected)) {
        throw new Error(`the not-found message lacks ${JSON.stringify(expected)}: ${message}`);
      }
    }
    await page.locator('.statusbar-item', { hasText: /^\s*puppet-ls\s*$/, has: page.locator('.codicon-error') }).first().waitFor({ timeout: WAIT });
  });

  await step('open-setting', async () => {
    // The message's first button opens the settings editor on the setting.
    await page.locator('.editor-group-container.active .tab.active .tab-actions .codicon-close').click();
    await parkMouse();
    await page.locator('.settings-editor').waitFor({ state: 'hidden', timeout: WAIT });
    const toast = page.locator('.notification-toast', { hasText: 'The puppet-ls language server was not found' }).first();
    const button = toast.locator('.monaco-button', { hasText: /Open (User|Remote) Settings/ }).first();
    const label = await button.innerText();
    await button.click();
    await parkMouse();
    await serverPathInput().waitFor({ state: 'visible', timeout: WAIT });
    log(`"${label}" opened the settings editor on puppet-ls.server.path`);
    // code-server's window is a remote one: the Remote settings are the server's Machine settings.
    settingsFile = label.includes('Remote') ? path.join(dataDir, 'Machine', 'settings.json') : userSettings;
  });

  await step('found-again', async () => {
    // Setting the path again starts the server, without a reload.
    await serverPathInput().fill(server);
    await readyItem().waitFor({ timeout: WAIT });
    const settings = JSON.parse(fs.readFileSync(settingsFile, 'utf8'));
    if (settings['puppet-ls.server.path'] !== server) {
      throw new Error(`${settingsFile} holds ${JSON.stringify(settings['puppet-ls.server.path'])} for the server path`);
    }
    await waitFor('the third server start, found through the setting', async () => {
      const text = outputChannelText();
      return text.split(`Starting ${server} (found via setting)`).length === 4 || text.slice(-300);
    });
  });

  if (consoleErrors.length > 0) {
    log(`browser console errors (not failures): ${consoleErrors.slice(0, 5).join(' | ')}`);
  }
  log(`passed; screenshots in ${shots}`);
} catch (err) {
  failed = true;
  console.error(`vscode e2e: FAILED: ${err instanceof Error ? err.message : String(err)}`);
  const tail = codeServerLog.split('\n').slice(-30).join('\n');
  if (tail.trim() !== '') {
    console.error(`--- last lines of code-server's log:\n${tail}`);
  }
} finally {
  await shutdown();
}
process.exit(failed ? 1 : 0);
