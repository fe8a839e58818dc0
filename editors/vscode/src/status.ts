// The server's state as the status bar shows it: starting, ready, indexing
// (from the server's `$/progress` work-done reports), stopped, or failed.
// Free of `vscode` imports: the extension feeds it events and renders its
// view, the unit tests check the transitions.

export type Phase = 'notFound' | 'starting' | 'ready' | 'stopped' | 'error';

/** The server that runs, for the tooltip. */
export interface ServerInfo {
  path: string;
  /** How it was found: `setting`, `PATH` or `bundled`. */
  source: string;
  /** From the server's `serverInfo` in its initialize result. */
  version?: string | undefined;
}

/** One `$/progress` work-done report in flight. */
export interface ProgressItem {
  title: string;
  message?: string | undefined;
  percentage?: number | undefined;
}

/** The LSP work-done progress values (`WorkDoneProgressBegin`/`Report`/`End`). */
export type WorkDoneValue =
  | { kind: 'begin'; title: string; message?: string; percentage?: number }
  | { kind: 'report'; message?: string; percentage?: number }
  | { kind: 'end'; message?: string };

export type Severity = 'normal' | 'warning' | 'error';

/** What the status bar item shows. */
export interface StatusView {
  /** With VS Code's `$(icon)` syntax. */
  text: string;
  tooltip: string;
  severity: Severity;
  busy: boolean;
}

export class ServerStatus {
  private phaseValue: Phase = 'starting';
  private detail: string | undefined;
  private server: ServerInfo | undefined;
  /** The Puppet the server checks for (its `puppet-ls/target` description). */
  private target: string | undefined;
  private readonly progress = new Map<string, ProgressItem>();
  private readonly listeners: (() => void)[] = [];

  get phase(): Phase {
    return this.phaseValue;
  }

  /** The reports in flight, oldest first. */
  get activeProgress(): ProgressItem[] {
    return [...this.progress.values()];
  }

  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  private set(phase: Phase, detail?: string): void {
    this.phaseValue = phase;
    this.detail = detail;
    if (phase !== 'ready') {
      // Reports belong to a running server; a new one starts afresh.
      // (Reports that arrive while starting are kept by report().)
      this.progress.clear();
    }
    this.changed();
  }

  private changed(): void {
    for (const listener of this.listeners) {
      listener();
    }
  }

  /** Looking for the binary and launching it. */
  starting(server?: ServerInfo): void {
    this.server = server;
    this.target = undefined;
    this.set('starting');
  }

  notFound(message: string): void {
    this.server = undefined;
    this.set('notFound', message);
  }

  /** The server answered `initialize`. */
  ready(version?: string): void {
    if (this.server !== undefined && version !== undefined) {
      this.server = { ...this.server, version };
    }
    this.set('ready');
  }

  /**
   * The server's `puppet-ls/target` notification: the Puppet it checks for
   * and where the version came from, shown in the tooltip.
   */
  checkingFor(description: string): void {
    this.target = description;
    this.changed();
  }

  /** Stopped on purpose (restart, deactivation). */
  stopped(): void {
    this.set('stopped');
  }

  /** Failed to start, or exited and was not restarted. */
  failed(message: string): void {
    this.set('error', message);
  }

  /**
   * A `$/progress` notification for `token`. Ignored unless the server is
   * starting or ready: reports of a server that is gone are stale.
   */
  report(token: string | number, value: WorkDoneValue): void {
    if (this.phaseValue !== 'ready' && this.phaseValue !== 'starting') {
      return;
    }
    const key = String(token);
    switch (value.kind) {
      case 'begin':
        this.progress.set(key, { title: value.title, message: value.message, percentage: value.percentage });
        break;
      case 'report': {
        const item = this.progress.get(key);
        if (item === undefined) {
          return;
        }
        this.progress.set(key, {
          title: item.title,
          message: value.message ?? item.message,
          percentage: value.percentage ?? item.percentage,
        });
        break;
      }
      case 'end':
        if (!this.progress.delete(key)) {
          return;
        }
        break;
    }
    this.changed();
  }

  private serverLine(): string {
    if (this.server === undefined) {
      return '';
    }
    const version = this.server.version !== undefined ? ` ${this.server.version}` : '';
    const target = this.target !== undefined && this.phaseValue === 'ready' ? `\n\nChecking for ${this.target}` : '';
    return `\n\npuppet-ls${version}: ${this.server.path} (found via ${this.server.source})${target}`;
  }

  view(): StatusView {
    const click = '\n\nClick for the server actions.';
    switch (this.phaseValue) {
      case 'starting':
        return { text: '$(sync~spin) puppet-ls', tooltip: `puppet-ls is starting${this.serverLine()}${click}`, severity: 'normal', busy: true };
      case 'ready': {
        const items = this.activeProgress;
        if (items.length === 0) {
          return { text: '$(check) puppet-ls', tooltip: `puppet-ls is ready${this.serverLine()}${click}`, severity: 'normal', busy: false };
        }
        // The most recent report is shown; the tooltip lists them all.
        const latest = items[items.length - 1];
        const percent = latest.percentage !== undefined ? ` ${Math.round(latest.percentage)}%` : '';
        const lines = items.map((item) => {
          const pct = item.percentage !== undefined ? ` ${Math.round(item.percentage)}%` : '';
          const message = item.message !== undefined && item.message !== '' ? `: ${item.message}` : '';
          return `${item.title}${pct}${message}`;
        });
        return {
          text: `$(sync~spin) puppet-ls${percent}`,
          tooltip: `${lines.join('\n')}${this.serverLine()}${click}`,
          severity: 'normal',
          busy: true,
        };
      }
      case 'stopped':
        return { text: '$(circle-slash) puppet-ls', tooltip: `puppet-ls is stopped${click}`, severity: 'warning', busy: false };
      case 'notFound':
        return { text: '$(error) puppet-ls', tooltip: `${this.detail ?? 'puppet-ls was not found'}${click}`, severity: 'error', busy: false };
      case 'error':
        return {
          text: '$(error) puppet-ls',
          tooltip: `${this.detail ?? 'puppet-ls failed'}${this.serverLine()}${click}`,
          severity: 'error',
          busy: false,
        };
    }
  }
}

/** What an entry of the status menu does. */
export type MenuAction = 'showOutput' | 'restart' | 'openServerPathSetting' | 'openSettings';

export interface MenuItem {
  /** With VS Code's `$(icon)` syntax. */
  label: string;
  description?: string;
  action: MenuAction;
}

/** The entries of the menu the status bar item opens, the likeliest first. */
export function menuItems(phase: Phase): MenuItem[] {
  const output: MenuItem = { label: '$(output) Show Server Output', description: 'the server log and LSP traces', action: 'showOutput' };
  const restart: MenuItem = { label: '$(debug-restart) Restart Server', action: 'restart' };
  const start: MenuItem = { label: '$(play) Start Server', description: 'looks for the binary anew', action: 'restart' };
  const serverPath: MenuItem = { label: '$(file-binary) Set the Server Path', description: 'puppet-ls.server.path', action: 'openServerPathSetting' };
  const settings: MenuItem = { label: '$(settings-gear) Open puppet-ls Settings', action: 'openSettings' };
  switch (phase) {
    case 'notFound':
      return [serverPath, start, output];
    case 'error':
      return [output, restart, serverPath, settings];
    case 'stopped':
      return [start, output, settings];
    case 'starting':
    case 'ready':
      return [output, restart, settings];
  }
}
