// Mapping the extension's settings to the server's command line and
// configuration object. Free of `vscode` imports: settings are read through
// a getter, so the unit tests can feed plain values.
import { expandPath } from './discovery';

export const LOG_LEVELS = ['error', 'warn', 'info', 'debug', 'trace'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Reads one setting below `puppet-ls.` (e.g. `"diagnostics.ignore"`). */
export type SettingGetter = (key: string) => unknown;

/** The configuration object the server takes in initializationOptions and didChangeConfiguration. */
export interface ServerConfig {
  modulePaths: string[];
  diagnostics: { ignore: string[] };
  /** `auto`, `7` or `8`. */
  puppetVersion: string;
  /** `auto`, `off`, `warning` or `error`. */
  strict: string;
  /** `null`: the version's default. */
  strictVariables: boolean | null;
  codeLens: { references: boolean };
}

export interface PathContext {
  homeDir: string;
  /** The first workspace folder; relative module paths are resolved against it. */
  workspaceFolder: string | undefined;
  platform: NodeJS.Platform;
}

function stringList(value: unknown): string[] {
  if (!Array.isArray(value)) {
    return [];
  }
  return value.filter((v): v is string => typeof v === 'string' && v.trim() !== '').map((v) => v.trim());
}

/** `value` when it is one of `words`, else the first word (the default). */
function oneOf(value: unknown, words: string[]): string {
  return typeof value === 'string' && words.includes(value) ? value : words[0];
}

export function logLevel(get: SettingGetter): LogLevel {
  const value = get('logLevel');
  return typeof value === 'string' && (LOG_LEVELS as readonly string[]).includes(value) ? (value as LogLevel) : 'warn';
}

/** The arguments to start the server with: `lsp --log-level LEVEL`. */
export function serverArgs(get: SettingGetter): string[] {
  return ['lsp', '--log-level', logLevel(get)];
}

export function serverConfig(get: SettingGetter, ctx: PathContext): ServerConfig {
  const seenCodes = new Set<string>();
  const ignore = stringList(get('diagnostics.ignore')).filter((code) => {
    if (seenCodes.has(code)) {
      return false;
    }
    seenCodes.add(code);
    return true;
  });
  return {
    modulePaths: stringList(get('modulePaths')).map((p) =>
      expandPath(p, ctx.homeDir, ctx.workspaceFolder, ctx.platform),
    ),
    diagnostics: { ignore },
    puppetVersion: oneOf(get('puppetVersion'), ['auto', '7', '8']),
    strict: oneOf(get('strict'), ['auto', 'off', 'warning', 'error']),
    // Unset unless set to a boolean: the version decides, as in the server.
    strictVariables: typeof get('strictVariables') === 'boolean' ? (get('strictVariables') as boolean) : null,
    // Off unless turned on, as in the server.
    codeLens: { references: get('codeLens.references') === true },
  };
}

/** Settings whose change needs a new server process (they are on its command line). */
export const RESTART_SETTINGS = ['puppet-ls.server.path', 'puppet-ls.logLevel'];
