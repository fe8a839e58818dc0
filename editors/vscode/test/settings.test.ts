import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { RESTART_SETTINGS, serverArgs, serverConfig, type SettingGetter } from '../src/settings';

const ctx = { homeDir: '/home/me', workspaceFolder: '/work/site', platform: 'linux' as const };

function getter(values: Record<string, unknown>): SettingGetter {
  return (key) => values[key];
}

describe('serverArgs', () => {
  it('starts the server in LSP mode with the configured log level', () => {
    assert.deepEqual(serverArgs(getter({ logLevel: 'debug' })), ['lsp', '--log-level', 'debug']);
  });

  it('defaults to warn, also for a value the server does not know', () => {
    assert.deepEqual(serverArgs(getter({})), ['lsp', '--log-level', 'warn']);
    assert.deepEqual(serverArgs(getter({ logLevel: 'verbose' })), ['lsp', '--log-level', 'warn']);
  });
});

describe('serverConfig', () => {
  it('maps the settings to the server configuration object', () => {
    const config = serverConfig(
      getter({
        modulePaths: ['/etc/puppetlabs/code/modules', '~/modules', 'site-modules'],
        'diagnostics.ignore': ['unused-variable', 'legacy-fact'],
        puppetVersion: '7',
        strict: 'error',
        strictVariables: true,
      }),
      ctx,
    );
    assert.deepEqual(config, {
      modulePaths: ['/etc/puppetlabs/code/modules', '/home/me/modules', '/work/site/site-modules'],
      diagnostics: { ignore: ['unused-variable', 'legacy-fact'] },
      puppetVersion: '7',
      strict: 'error',
      strictVariables: true,
      codeLens: { references: false },
    });
  });

  it('gives the defaults when nothing is set', () => {
    assert.deepEqual(serverConfig(getter({}), ctx), {
      modulePaths: [],
      diagnostics: { ignore: [] },
      puppetVersion: 'auto',
      strict: 'auto',
      strictVariables: null,
      codeLens: { references: false },
    });
  });

  it('drops blank and non-string entries and repeated codes', () => {
    const config = serverConfig(
      getter({
        modulePaths: ['', 42, ' /m '],
        'diagnostics.ignore': ['unknown-class', ' unknown-class', null],
        puppetVersion: 6,
        strict: 'eror',
        strictVariables: 0,
      }),
      ctx,
    );
    assert.deepEqual(config, {
      modulePaths: ['/m'],
      diagnostics: { ignore: ['unknown-class'] },
      puppetVersion: 'auto',
      strict: 'auto',
      strictVariables: null,
      codeLens: { references: false },
    });
    assert.equal(serverConfig(getter({ strictVariables: false }), ctx).strictVariables, false);
    assert.equal(serverConfig(getter({ 'codeLens.references': true }), ctx).codeLens.references, true);
    assert.equal(serverConfig(getter({ 'codeLens.references': 'yes' }), ctx).codeLens.references, false);
  });

  it('keeps relative module paths as given when there is no workspace folder', () => {
    assert.deepEqual(serverConfig(getter({ modulePaths: ['mods'] }), { ...ctx, workspaceFolder: undefined }).modulePaths, ['mods']);
  });
});

describe('package.json', () => {
  const root = path.join(__dirname, '..', '..');
  const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    main: string;
    icon: string;
    scripts: Record<string, string>;
    capabilities: { untrustedWorkspaces: { supported: boolean | 'limited'; restrictedConfigurations?: string[] } };
    contributes: {
      configuration: { properties: Record<string, { default: unknown; enum?: string[]; scope?: string }> };
      commands: { command: string }[];
      languages: { id: string; extensions: string[] }[];
    };
  };
  const props = manifest.contributes.configuration.properties;

  it('declares exactly the settings of the server contract', () => {
    assert.deepEqual(Object.keys(props).sort(), [
      'puppet-ls.codeLens.references',
      'puppet-ls.diagnostics.ignore',
      'puppet-ls.logLevel',
      'puppet-ls.modulePaths',
      'puppet-ls.puppetVersion',
      'puppet-ls.server.path',
      'puppet-ls.strict',
      'puppet-ls.strictVariables',
      'puppet-ls.trace.server',
    ]);
    assert.deepEqual(props['puppet-ls.logLevel'].enum, ['error', 'warn', 'info', 'debug', 'trace']);
    assert.equal(props['puppet-ls.logLevel'].default, 'warn');
    for (const key of RESTART_SETTINGS) {
      assert.ok(key in props, `${key} is declared`);
    }
  });

  it('maps the declared defaults to the server defaults', () => {
    const defaults = getter(
      Object.fromEntries(Object.entries(props).map(([k, v]) => [k.replace(/^puppet-ls\./, ''), v.default])),
    );
    assert.deepEqual(serverConfig(defaults, ctx), {
      modulePaths: [],
      diagnostics: { ignore: [] },
      puppetVersion: 'auto',
      strict: 'auto',
      strictVariables: null,
      codeLens: { references: false },
    });
    assert.deepEqual(serverArgs(defaults), ['lsp', '--log-level', 'warn']);
  });

  it('declares the commands the extension registers', () => {
    const source = fs.readFileSync(path.join(__dirname, '..', '..', 'src', 'extension.ts'), 'utf8');
    const registered = [...source.matchAll(/registerCommand\('([^']+)'/g)].map((m) => m[1]).sort();
    assert.deepEqual(manifest.contributes.commands.map((c) => c.command).sort(), registered);
    assert.deepEqual(registered, [
      'puppet-ls.restartServer',
      'puppet-ls.showOutput',
      'puppet-ls.showReferences',
      'puppet-ls.showStatusMenu',
      'puppet-ls.showSyntaxTree',
    ]);
  });

  it('takes the server path from User, Remote and Workspace settings, the Workspace one only when trusted', () => {
    // `machine` and `machine-overridable` settings are dropped from User
    // settings in a remote window; `window` applies from every level.
    assert.equal(props['puppet-ls.server.path'].scope, 'window');
    assert.deepEqual(manifest.capabilities.untrustedWorkspaces, {
      ...manifest.capabilities.untrustedWorkspaces,
      supported: 'limited',
      restrictedConfigurations: ['puppet-ls.server.path'],
    });
  });

  it('runs the bundled extension and ships the icon', () => {
    assert.equal(manifest.main, './dist/extension.js');
    assert.match(manifest.scripts['vscode:prepublish'], /npm run bundle/);
    assert.match(manifest.scripts.bundle, /--outfile=dist\/extension\.js/);
    const icon = fs.readFileSync(path.join(root, manifest.icon));
    // A PNG, 128 pixels square (the IHDR chunk's width and height).
    assert.deepEqual([...icon.subarray(1, 4)], [...Buffer.from('PNG')]);
    assert.equal(icon.readUInt32BE(16), 128);
    assert.equal(icon.readUInt32BE(20), 128);
  });

  it('associates .pp and .epp with the two languages', () => {
    const byId = Object.fromEntries(manifest.contributes.languages.map((l) => [l.id, l.extensions]));
    assert.deepEqual(byId, { puppet: ['.pp'], 'puppet-epp': ['.epp'] });
  });
});
