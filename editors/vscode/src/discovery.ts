// Finding the puppet-ls executable. Kept free of `vscode` imports so the
// unit tests can run it under plain Node; the file system is injected.
import * as path from 'path';

export type ServerSource = 'setting' | 'PATH' | 'bundled';

export interface FoundServer {
  path: string;
  source: ServerSource;
}

export interface DiscoveryFs {
  /** True when `file` exists, is a regular file and (off Windows) executable. */
  isExecutableFile(file: string): boolean;
}

export interface DiscoveryInput {
  /** The `puppet-ls.server.path` setting; empty or blank means unset. */
  configuredPath: string | undefined;
  /** The PATH environment variable. */
  envPath: string | undefined;
  /** PATHEXT on Windows, e.g. ".COM;.EXE;.BAT". */
  envPathExt?: string | undefined;
  /** Where the extension is installed (the bundled binary is `server/puppet-ls` below it). */
  extensionPath: string;
  /** The first workspace folder, for a relative configured path. */
  workspaceFolder?: string | undefined;
  homeDir: string;
  platform: NodeJS.Platform;
  fs: DiscoveryFs;
}

export class ServerNotFoundError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ServerNotFoundError';
  }
}

export const SERVER_NAME = 'puppet-ls';

function pathApi(platform: NodeJS.Platform): path.PlatformPath {
  return platform === 'win32' ? path.win32 : path.posix;
}

/** Expands a leading `~` and resolves a relative path against `base`. */
export function expandPath(p: string, homeDir: string, base: string | undefined, platform: NodeJS.Platform): string {
  const api = pathApi(platform);
  let out = p.trim();
  if (out === '~') {
    out = homeDir;
  } else if (out.startsWith('~/') || (platform === 'win32' && out.startsWith('~\\'))) {
    out = api.join(homeDir, out.slice(2));
  }
  if (!api.isAbsolute(out) && base !== undefined) {
    out = api.resolve(base, out);
  }
  return out;
}

function executableNames(platform: NodeJS.Platform, envPathExt: string | undefined): string[] {
  if (platform !== 'win32') {
    return [SERVER_NAME];
  }
  const exts = (envPathExt ?? '.EXE').split(';').filter((e) => e.length > 0);
  return exts.map((e) => SERVER_NAME + e.toLowerCase());
}

/** Looks `puppet-ls` up in the directories of PATH, in order. */
export function findOnPath(input: Pick<DiscoveryInput, 'envPath' | 'envPathExt' | 'platform' | 'fs'>): string | undefined {
  const api = pathApi(input.platform);
  const delimiter = input.platform === 'win32' ? ';' : ':';
  const dirs = (input.envPath ?? '').split(delimiter).filter((d) => d.length > 0);
  for (const dir of dirs) {
    for (const name of executableNames(input.platform, input.envPathExt)) {
      const candidate = api.join(dir, name);
      if (input.fs.isExecutableFile(candidate)) {
        return candidate;
      }
    }
  }
  return undefined;
}

/** The path of the binary shipped inside the extension, whether or not it exists. */
export function bundledServerPath(extensionPath: string, platform: NodeJS.Platform): string {
  const api = pathApi(platform);
  return api.join(extensionPath, 'server', platform === 'win32' ? `${SERVER_NAME}.exe` : SERVER_NAME);
}

export const NOT_FOUND_MESSAGE =
  'The puppet-ls language server was not found: it is not on PATH and this extension has no bundled binary. ' +
  'Build it from the puppet-ls repository with `cargo install --path server` (puts `puppet-ls` in ~/.cargo/bin, ' +
  'which should be on PATH), or set `puppet-ls.server.path` to the binary, then run "puppet-ls: Restart Server".';

/**
 * The configured path if set (an error if it is not an executable file: a
 * wrong setting should not be hidden by a fallback), else `puppet-ls` on
 * PATH, else the bundled binary.
 */
export function findServer(input: DiscoveryInput): FoundServer {
  const configured = input.configuredPath?.trim() ?? '';
  if (configured !== '') {
    const resolved = expandPath(configured, input.homeDir, input.workspaceFolder, input.platform);
    if (input.fs.isExecutableFile(resolved)) {
      return { path: resolved, source: 'setting' };
    }
    throw new ServerNotFoundError(
      `The setting puppet-ls.server.path is "${configured}", but ${resolved} is not an executable file. ` +
        'Fix the path, or clear the setting to use `puppet-ls` from PATH.',
    );
  }
  const onPath = findOnPath(input);
  if (onPath !== undefined) {
    return { path: onPath, source: 'PATH' };
  }
  const bundled = bundledServerPath(input.extensionPath, input.platform);
  if (input.fs.isExecutableFile(bundled)) {
    return { path: bundled, source: 'bundled' };
  }
  throw new ServerNotFoundError(NOT_FOUND_MESSAGE);
}
