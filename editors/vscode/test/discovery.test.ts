import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import {
  bundledServerPath,
  type DiscoveryInput,
  expandPath,
  findOnPath,
  findServer,
  hostDescription,
  notFoundActions,
  notFoundMessage,
  ServerNotFoundError,
  serverPathSetting,
} from '../src/discovery';
import { nodeFs } from '../src/nodeFs';

/** A fake file system holding exactly the given executables. */
function fakeFs(...executables: string[]) {
  const set = new Set(executables);
  return { isExecutableFile: (f: string) => set.has(f) };
}

function input(overrides: Partial<DiscoveryInput>): DiscoveryInput {
  return {
    configuredPath: '',
    envPath: '/usr/local/bin:/usr/bin',
    extensionPath: '/ext',
    workspaceFolder: '/work/site',
    homeDir: '/home/me',
    platform: 'linux',
    fs: fakeFs(),
    ...overrides,
  };
}

describe('findServer', () => {
  it('uses the configured path first, even when puppet-ls is on PATH and bundled', () => {
    const found = findServer(
      input({ configuredPath: '/opt/pls/puppet-ls', fs: fakeFs('/opt/pls/puppet-ls', '/usr/bin/puppet-ls', '/ext/server/puppet-ls') }),
    );
    assert.deepEqual(found, { path: '/opt/pls/puppet-ls', source: 'setting' });
  });

  it('expands ~ and resolves a relative configured path against the workspace folder', () => {
    assert.equal(findServer(input({ configuredPath: '~/bin/puppet-ls', fs: fakeFs('/home/me/bin/puppet-ls') })).path, '/home/me/bin/puppet-ls');
    assert.equal(
      findServer(input({ configuredPath: 'target/release/puppet-ls', fs: fakeFs('/work/site/target/release/puppet-ls') })).path,
      '/work/site/target/release/puppet-ls',
    );
  });

  it('reports a configured path that is not executable instead of falling back, naming the settings it is in', () => {
    assert.throws(
      () => findServer(input({ configuredPath: '/nope/puppet-ls', fs: fakeFs('/usr/bin/puppet-ls') })),
      (err: unknown) => {
        assert.ok(err instanceof ServerNotFoundError);
        assert.equal(
          err.message,
          '"puppet-ls.server.path" is "/nope/puppet-ls" in User settings, but /nope/puppet-ls is not an executable file on ' +
            'this computer. Fix the path there, or clear it to use puppet-ls from PATH.',
        );
        assert.deepEqual(err.actions, ['userSettings']);
        return true;
      },
    );
  });

  it('points to the Remote settings of the host in a remote window', () => {
    assert.throws(
      () => findServer(input({ configuredPath: '/nope/puppet-ls', remoteName: 'ssh-remote' })),
      (err: unknown) => {
        assert.ok(err instanceof ServerNotFoundError);
        assert.match(err.message, /in User or Remote settings, but \/nope\/puppet-ls is not an executable file on the remote host \(ssh-remote\)\./);
        assert.deepEqual(err.actions, ['remoteSettings', 'userSettings']);
        return true;
      },
    );
  });

  it('points to the Workspace settings when the wrong path is set there', () => {
    assert.throws(
      () => findServer(input({ configuredPath: 'bin/puppet-ls', configuredScope: 'workspace' })),
      (err: unknown) => {
        assert.ok(err instanceof ServerNotFoundError);
        assert.match(err.message, /"bin\/puppet-ls" in Workspace settings, but \/work\/site\/bin\/puppet-ls is not/);
        assert.deepEqual(err.actions, ['workspaceSettings']);
        return true;
      },
    );
  });

  it('treats a blank configured path as unset', () => {
    assert.deepEqual(findServer(input({ configuredPath: '   ', fs: fakeFs('/usr/bin/puppet-ls') })), {
      path: '/usr/bin/puppet-ls',
      source: 'PATH',
    });
  });

  it('takes the first PATH directory that has the binary', () => {
    const found = findServer(input({ envPath: '/a::/b:/c', fs: fakeFs('/c/puppet-ls', '/b/puppet-ls') }));
    assert.deepEqual(found, { path: '/b/puppet-ls', source: 'PATH' });
  });

  it('falls back to the bundled binary', () => {
    assert.deepEqual(findServer(input({ envPath: undefined, fs: fakeFs('/ext/server/puppet-ls') })), {
      path: '/ext/server/puppet-ls',
      source: 'bundled',
    });
  });

  it('fails with a message that tells the fix and where when nothing is found', () => {
    assert.throws(() => findServer(input({})), (err: unknown) => {
      assert.ok(err instanceof ServerNotFoundError);
      assert.equal(err.message, notFoundMessage({}));
      assert.match(err.message, /not found: there is no puppet-ls on the PATH of this computer, where the extension runs/);
      assert.match(err.message, /cargo install --path server/);
      assert.match(err.message, /set "puppet-ls\.server\.path" to the binary's full path in your User settings\.$/);
      assert.deepEqual(err.actions, ['userSettings']);
      return true;
    });
  });

  it('says the server was looked for on the remote host, to be set in its Remote settings', () => {
    assert.throws(() => findServer(input({ remoteName: 'wsl' })), (err: unknown) => {
      assert.ok(err instanceof ServerNotFoundError);
      assert.match(err.message, /no puppet-ls on the PATH of the remote host \(wsl\), where the extension runs/);
      assert.match(err.message, /in the Remote settings of this host \(or your User settings\)\.$/);
      assert.deepEqual(err.actions, ['remoteSettings', 'userSettings']);
      return true;
    });
  });

  it('mentions a workspace path ignored in an untrusted workspace, and offers to trust it', () => {
    const ctx = { ignoredUntrusted: './bin/puppet-ls' };
    assert.match(notFoundMessage(ctx), /This workspace sets "puppet-ls\.server\.path" to "\.\/bin\/puppet-ls", which is not used because the workspace is not trusted/);
    assert.deepEqual(notFoundActions(ctx), ['manageTrust', 'userSettings']);
    assert.throws(
      () => findServer(input(ctx)),
      (err: unknown) => err instanceof ServerNotFoundError && err.actions[0] === 'manageTrust',
    );
  });

  it('uses Windows separators, PATHEXT and the .exe bundled name on win32', () => {
    const win = { platform: 'win32' as const, extensionPath: 'C:\\ext', envPathExt: '.COM;.EXE' };
    assert.equal(bundledServerPath('C:\\ext', 'win32'), 'C:\\ext\\server\\puppet-ls.exe');
    assert.equal(
      findOnPath({ ...win, envPath: 'C:\\tools;D:\\bin', fs: fakeFs('D:\\bin\\puppet-ls.exe') }),
      'D:\\bin\\puppet-ls.exe',
    );
    assert.equal(findServer(input({ ...win, envPath: 'C:\\tools', fs: fakeFs('C:\\ext\\server\\puppet-ls.exe') })).source, 'bundled');
  });
});

describe('serverPathSetting', () => {
  it('takes the most specific non-blank scope', () => {
    assert.deepEqual(serverPathSetting({ globalValue: '/u', workspaceValue: '/w', workspaceFolderValue: '/f' }, true), {
      value: '/f',
      scope: 'workspaceFolder',
      ignoredUntrusted: undefined,
    });
    assert.deepEqual(serverPathSetting({ globalValue: '/u', workspaceValue: '/w', workspaceFolderValue: ' ' }, true), {
      value: '/w',
      scope: 'workspace',
      ignoredUntrusted: undefined,
    });
    assert.deepEqual(serverPathSetting({ globalValue: '/u', workspaceValue: '' }, true), {
      value: '/u',
      scope: 'user',
      ignoredUntrusted: undefined,
    });
  });

  it('is unset when no scope sets it, or sets something else than a string', () => {
    assert.deepEqual(serverPathSetting(undefined, true), { value: '', scope: undefined, ignoredUntrusted: undefined });
    assert.deepEqual(serverPathSetting({ globalValue: 42 }, true), { value: '', scope: undefined, ignoredUntrusted: undefined });
  });

  it('does not apply a workspace value in an untrusted workspace, and remembers it', () => {
    assert.deepEqual(serverPathSetting({ globalValue: '/u', workspaceValue: './evil' }, false), {
      value: '/u',
      scope: 'user',
      ignoredUntrusted: './evil',
    });
    assert.deepEqual(serverPathSetting({ workspaceFolderValue: './evil' }, false), {
      value: '',
      scope: undefined,
      ignoredUntrusted: './evil',
    });
  });
});

describe('hostDescription', () => {
  it('names this computer in a local window and the remote kind in a remote one', () => {
    assert.equal(hostDescription(undefined), 'this computer');
    assert.equal(hostDescription('dev-container'), 'the remote host (dev-container)');
  });
});

describe('expandPath', () => {
  it('leaves absolute paths alone and expands ~ alone', () => {
    assert.equal(expandPath('/abs/x', '/home/me', '/ws', 'linux'), '/abs/x');
    assert.equal(expandPath('~', '/home/me', '/ws', 'linux'), '/home/me');
    assert.equal(expandPath('mods', '/home/me', undefined, 'linux'), 'mods');
  });
});

describe('nodeFs.isExecutableFile', () => {
  it('accepts an executable file and rejects a plain file, a directory and a missing path', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'puppet-ls-discovery-'));
    try {
      const exe = path.join(dir, 'puppet-ls');
      const plain = path.join(dir, 'notes.txt');
      fs.writeFileSync(exe, '#!/bin/sh\n', { mode: 0o755 });
      fs.writeFileSync(plain, 'x', { mode: 0o644 });
      assert.equal(nodeFs.isExecutableFile(exe), true);
      assert.equal(nodeFs.isExecutableFile(dir), false);
      assert.equal(nodeFs.isExecutableFile(path.join(dir, 'missing')), false);
      if (process.platform !== 'win32' && process.getuid?.() !== 0) {
        assert.equal(nodeFs.isExecutableFile(plain), false);
      }
      // Found on a real PATH through the real file system.
      assert.equal(findServer({ ...input({}), envPath: dir, fs: nodeFs, platform: process.platform }).path, exe);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
