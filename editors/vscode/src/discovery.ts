// Finding the puppet-ls executable, and saying where to fix it when it is
// not found. Kept free of `vscode` imports so the unit tests can run it under
// plain Node; the file system and the settings are injected.
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

/**
 * Where a value of `puppet-ls.server.path` comes from, as VS Code's
 * `inspect` tells: `user` covers the User settings and, in a remote window,
 * the Remote settings of the host (VS Code merges the two).
 */
export type SettingScope = 'user' | 'workspace' | 'workspaceFolder';

/** What VS Code's `WorkspaceConfiguration.inspect('server.path')` gives, reduced to strings. */
export interface ServerPathInspection {
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
}

export interface ServerPathSetting {
  /** The value in force (the most specific scope that sets a non-blank one), blank when unset. */
  value: string;
  /** The scope the value in force comes from; undefined when unset. */
  scope: SettingScope | undefined;
  /**
   * A workspace value VS Code does not apply because the workspace is not
   * trusted (`restrictedConfigurations` in package.json): an executable path
   * from a folder one just opened is not run until it is trusted.
   */
  ignoredUntrusted: string | undefined;
}

export interface DiscoveryInput {
  /** The `puppet-ls.server.path` setting; empty or blank means unset. */
  configuredPath: string | undefined;
  /** Where the configured path is set (for the message when it is wrong). */
  configuredScope?: SettingScope | undefined;
  /** A workspace value ignored in an untrusted workspace (mentioned when nothing is found). */
  ignoredUntrusted?: string | undefined;
  /** VS Code's `env.remoteName` (`ssh-remote`, `wsl`, `dev-container`, ...): undefined in a local window. */
  remoteName?: string | undefined;
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

/** A place the user can fix the server path: each becomes a button of the error message. */
export type FixAction = 'userSettings' | 'remoteSettings' | 'workspaceSettings' | 'manageTrust';

export class ServerNotFoundError extends Error {
  constructor(
    message: string,
    /** The places to fix it, most relevant first. */
    readonly actions: FixAction[],
  ) {
    super(message);
    this.name = 'ServerNotFoundError';
  }
}

export const SERVER_NAME = 'puppet-ls';
export const SERVER_PATH_SETTING = 'puppet-ls.server.path';

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

function nonBlank(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/**
 * The server path in force and where it is set, from VS Code's inspection of
 * the setting. In an untrusted workspace the workspace and folder values are
 * not applied (VS Code withholds them too, as the setting is restricted).
 */
export function serverPathSetting(inspection: ServerPathInspection | undefined, trusted: boolean): ServerPathSetting {
  const folder = nonBlank(inspection?.workspaceFolderValue);
  const workspace = nonBlank(inspection?.workspaceValue);
  const user = nonBlank(inspection?.globalValue);
  const fromWorkspace: [string, SettingScope] | undefined =
    folder !== undefined ? [folder, 'workspaceFolder'] : workspace !== undefined ? [workspace, 'workspace'] : undefined;
  if (fromWorkspace !== undefined && trusted) {
    return { value: fromWorkspace[0], scope: fromWorkspace[1], ignoredUntrusted: undefined };
  }
  const ignoredUntrusted = fromWorkspace?.[0];
  if (user !== undefined) {
    return { value: user, scope: 'user', ignoredUntrusted };
  }
  return { value: '', scope: undefined, ignoredUntrusted };
}

/** "this computer" or "the remote host (ssh-remote)": where PATH is searched and the path must exist. */
export function hostDescription(remoteName: string | undefined): string {
  return remoteName === undefined || remoteName === '' ? 'this computer' : `the remote host (${remoteName})`;
}

/** The settings where a user-level path goes: User settings, and in a remote window the host's Remote settings. */
function userLevelSettings(remoteName: string | undefined): string {
  return remoteName === undefined || remoteName === ''
    ? 'your User settings'
    : 'the Remote settings of this host (or your User settings)';
}

function userLevelActions(remoteName: string | undefined): FixAction[] {
  return remoteName === undefined || remoteName === '' ? ['userSettings'] : ['remoteSettings', 'userSettings'];
}

const SCOPE_NAMES: Record<SettingScope, (remoteName: string | undefined) => string> = {
  user: (remoteName) => (remoteName === undefined || remoteName === '' ? 'User settings' : 'User or Remote settings'),
  workspace: () => 'Workspace settings',
  workspaceFolder: () => 'Folder settings',
};

/** The message when neither the setting, nor PATH, nor the bundled binary gives a server. */
export function notFoundMessage(input: Pick<DiscoveryInput, 'remoteName' | 'ignoredUntrusted'>): string {
  const host = hostDescription(input.remoteName);
  let message =
    `The puppet-ls language server was not found: there is no puppet-ls on the PATH of ${host}, ` +
    'where the extension runs, and the extension has no bundled binary. ' +
    `Install it there (in a puppet-ls checkout, \`cargo install --path server\` puts it in ~/.cargo/bin), ` +
    `or set "${SERVER_PATH_SETTING}" to the binary's full path in ${userLevelSettings(input.remoteName)}.`;
  if (input.ignoredUntrusted !== undefined) {
    message +=
      ` This workspace sets "${SERVER_PATH_SETTING}" to "${input.ignoredUntrusted}", which is not used ` +
      'because the workspace is not trusted: trust it to use that binary.';
  }
  return message;
}

/** The actions offered with the not-found message. */
export function notFoundActions(input: Pick<DiscoveryInput, 'remoteName' | 'ignoredUntrusted'>): FixAction[] {
  return [...(input.ignoredUntrusted !== undefined ? (['manageTrust'] as FixAction[]) : []), ...userLevelActions(input.remoteName)];
}

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
    const scope = input.configuredScope ?? 'user';
    const where = SCOPE_NAMES[scope](input.remoteName);
    throw new ServerNotFoundError(
      `"${SERVER_PATH_SETTING}" is "${configured}" in ${where}, but ${resolved} is not an executable file on ` +
        `${hostDescription(input.remoteName)}. Fix the path there, or clear it to use puppet-ls from PATH.`,
      scope === 'user' ? userLevelActions(input.remoteName) : ['workspaceSettings'],
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
  throw new ServerNotFoundError(notFoundMessage(input), notFoundActions(input));
}
