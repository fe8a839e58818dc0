import * as os from 'os';
import * as vscode from 'vscode';
import {
  type FeatureState,
  LanguageClient,
  type LanguageClientOptions,
  type ServerOptions,
  State,
  type StaticFeature,
  TransportKind,
  WorkDoneProgress,
  WorkDoneProgressCreateRequest,
} from 'vscode-languageclient/node';
import {
  type FixAction,
  findServer,
  type FoundServer,
  SERVER_PATH_SETTING,
  ServerNotFoundError,
  serverPathSetting,
} from './discovery';
import { nodeFs } from './nodeFs';
import { documentSelector } from './selector';
import { RESTART_SETTINGS, serverArgs, serverConfig, type SettingGetter } from './settings';
import { type MenuAction, menuItems, ServerStatus } from './status';

const SECTION = 'puppet-ls';
const SYNTAX_TREE_SCHEME = 'puppet-ls-syntax-tree';
const SYNTAX_TREE_REQUEST = 'puppet-ls/syntaxTree';

let client: LanguageClient | undefined;
/** True while the extension itself stops the client (restart, deactivation). */
let stopping = false;
let output: vscode.OutputChannel;
let extensionPath: string;
let extensionId = 'puppet-ls.puppet-ls';
const status = new ServerStatus();

function settings(): SettingGetter {
  const config = vscode.workspace.getConfiguration(SECTION);
  return (key) => config.get(key);
}

function workspaceFolder(): string | undefined {
  const folder = vscode.workspace.workspaceFolders?.[0];
  return folder?.uri.scheme === 'file' ? folder.uri.fsPath : undefined;
}

function currentServerConfig() {
  return serverConfig(settings(), { homeDir: os.homedir(), workspaceFolder: workspaceFolder(), platform: process.platform });
}

/** The server path setting in force, with the scope it comes from. */
function currentServerPathSetting() {
  const inspection = vscode.workspace.getConfiguration(SECTION).inspect('server.path');
  return serverPathSetting(inspection, vscode.workspace.isTrusted);
}

/** Opens the place where `puppet-ls.server.path` is to be set. */
async function runFixAction(action: FixAction): Promise<void> {
  switch (action) {
    case 'userSettings':
      await vscode.commands.executeCommand('workbench.action.openSettings', SERVER_PATH_SETTING);
      break;
    case 'remoteSettings':
      await vscode.commands.executeCommand('workbench.action.openRemoteSettings', { query: SERVER_PATH_SETTING });
      break;
    case 'workspaceSettings':
      await vscode.commands.executeCommand('workbench.action.openWorkspaceSettings', { query: SERVER_PATH_SETTING });
      break;
    case 'manageTrust':
      await vscode.commands.executeCommand('workbench.trust.manage');
      break;
  }
}

const FIX_LABELS: Record<FixAction, string> = {
  userSettings: 'Open User Settings',
  remoteSettings: 'Open Remote Settings',
  workspaceSettings: 'Open Workspace Settings',
  manageTrust: 'Manage Workspace Trust',
};

async function showNotFound(err: ServerNotFoundError): Promise<void> {
  const labels = err.actions.map((a) => FIX_LABELS[a]);
  const choice = await vscode.window.showErrorMessage(err.message, ...labels, 'Show Output');
  const action = err.actions.find((a) => FIX_LABELS[a] === choice);
  if (action !== undefined) {
    await runFixAction(action);
  } else if (choice === 'Show Output') {
    output.show(true);
  }
}

/**
 * Shows the server's work-done progress (indexing) in the status bar item:
 * takes over `window/workDoneProgress/create` from the client's own
 * progress feature, which would show the same report a second time.
 */
class StatusProgressFeature implements StaticFeature {
  constructor(private readonly languageClient: LanguageClient) {}

  fillClientCapabilities(capabilities: { window?: { workDoneProgress?: boolean } }): void {
    capabilities.window = { ...capabilities.window, workDoneProgress: true };
  }

  initialize(): void {
    const languageClient = this.languageClient;
    languageClient.onRequest(WorkDoneProgressCreateRequest.type, ({ token }) => {
      const subscription = languageClient.onProgress(WorkDoneProgress.type, token, (value) => {
        if (languageClient !== client) {
          subscription.dispose();
          return;
        }
        status.report(token, value);
        if (value.kind === 'end') {
          subscription.dispose();
        }
      });
    });
  }

  getState(): FeatureState {
    return { kind: 'static' };
  }

  clear(): void {}
}

async function startClient(): Promise<void> {
  const get = settings();
  const setting = currentServerPathSetting();
  status.starting();
  let server: FoundServer;
  try {
    server = findServer({
      configuredPath: setting.value,
      configuredScope: setting.scope,
      ignoredUntrusted: setting.ignoredUntrusted,
      remoteName: vscode.env.remoteName,
      envPath: process.env.PATH,
      envPathExt: process.env.PATHEXT,
      extensionPath,
      workspaceFolder: workspaceFolder(),
      homeDir: os.homedir(),
      platform: process.platform,
      fs: nodeFs,
    });
  } catch (err) {
    if (err instanceof ServerNotFoundError) {
      output.appendLine(err.message);
      status.notFound(err.message);
      // Not awaited: activation does not wait for the user to answer.
      void showNotFound(err);
      return;
    }
    throw err;
  }
  output.appendLine(`Starting ${server.path} (found via ${server.source})`);
  status.starting({ path: server.path, source: server.source });

  const run = { command: server.path, args: serverArgs(get), transport: TransportKind.stdio };
  const serverOptions: ServerOptions = { run, debug: run };
  const clientOptions: LanguageClientOptions = {
    documentSelector,
    initializationOptions: currentServerConfig(),
    outputChannel: output,
    traceOutputChannel: output,
    middleware: {
      workspace: {
        // Answer the server's workspace/configuration requests with the
        // mapped configuration object, not VS Code's raw settings tree.
        configuration: (params, token, next) => {
          if (params.items.some((item) => item.section === undefined || item.section === SECTION)) {
            return params.items.map((item) =>
              item.section === undefined || item.section === SECTION ? currentServerConfig() : null,
            );
          }
          return next(params, token);
        },
      },
    },
  };
  const started = new LanguageClient(SECTION, 'puppet-ls', serverOptions, clientOptions);
  started.registerFeature(new StatusProgressFeature(started));
  // The Puppet the server checks for, in the status bar's tooltip.
  started.onNotification('puppet-ls/target', (params: { description?: unknown }) => {
    if (started === client && typeof params?.description === 'string') {
      status.checkingFor(params.description);
    }
  });
  started.onDidChangeState((e) => {
    if (started !== client) {
      return;
    }
    if (e.newState === State.Running) {
      status.ready(started.initializeResult?.serverInfo?.version);
    } else if (e.newState === State.Starting) {
      status.starting({ path: server.path, source: server.source });
    } else if (stopping) {
      status.stopped();
    } else {
      status.failed(`puppet-ls (${server.path}) stopped: see its output ("puppet-ls: Show Server Output").`);
    }
  });
  client = started;
  try {
    await started.start();
  } catch (err) {
    output.appendLine(`puppet-ls failed to start: ${String(err)}`);
    status.failed(`puppet-ls failed to start (${server.path}): ${String(err)}`);
    void vscode.window.showErrorMessage(`puppet-ls failed to start (${server.path}): ${String(err)}`, 'Show Output').then(
      (choice) => choice === 'Show Output' && output.show(true),
    );
  }
}

async function stopClient(): Promise<void> {
  const old = client;
  if (old !== undefined) {
    stopping = true;
    try {
      await old.stop();
    } catch (err) {
      output.appendLine(`Stopping puppet-ls: ${String(err)}`);
    } finally {
      stopping = false;
    }
  }
  client = undefined;
  status.stopped();
}

async function restartClient(): Promise<void> {
  await stopClient();
  await startClient();
}

async function runMenuAction(action: MenuAction): Promise<void> {
  switch (action) {
    case 'showOutput':
      output.show(true);
      break;
    case 'restart':
      await restartClient();
      break;
    case 'openServerPathSetting':
      await vscode.commands.executeCommand('workbench.action.openSettings', SERVER_PATH_SETTING);
      break;
    case 'openSettings':
      await vscode.commands.executeCommand('workbench.action.openSettings', `@ext:${extensionId}`);
      break;
  }
}

/** Read-only documents showing the server's syntax tree of a file. */
class SyntaxTreeProvider implements vscode.TextDocumentContentProvider {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  static uriFor(source: vscode.Uri): vscode.Uri {
    const name = source.path.split('/').pop() ?? 'file';
    return vscode.Uri.from({ scheme: SYNTAX_TREE_SCHEME, path: `/${name}.tree`, query: source.toString() });
  }

  refresh(source: vscode.Uri): void {
    const uri = SyntaxTreeProvider.uriFor(source);
    if (vscode.workspace.textDocuments.some((d) => d.uri.toString() === uri.toString())) {
      this.changed.fire(uri);
    }
  }

  async provideTextDocumentContent(uri: vscode.Uri, token: vscode.CancellationToken): Promise<string> {
    if (client === undefined || !client.isRunning()) {
      return 'puppet-ls is not running: see the output channel ("puppet-ls: Show Server Output").';
    }
    try {
      const tree = await client.sendRequest<string>(SYNTAX_TREE_REQUEST, { textDocument: { uri: uri.query } }, token);
      return typeof tree === 'string' ? tree : JSON.stringify(tree, null, 2);
    } catch (err) {
      return `The server could not give the syntax tree of ${uri.query}: ${String(err)}`;
    }
  }

  dispose(): void {
    this.changed.dispose();
  }
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  extensionPath = context.extensionPath;
  extensionId = context.extension.id;
  output = vscode.window.createOutputChannel('puppet-ls');
  const statusItem = vscode.window.createStatusBarItem('puppet-ls.status', vscode.StatusBarAlignment.Right, 100);
  statusItem.name = 'puppet-ls';
  statusItem.command = 'puppet-ls.showStatusMenu';
  const render = () => {
    const view = status.view();
    statusItem.text = view.text;
    statusItem.tooltip = view.tooltip;
    statusItem.backgroundColor =
      view.severity === 'error'
        ? new vscode.ThemeColor('statusBarItem.errorBackground')
        : view.severity === 'warning'
          ? new vscode.ThemeColor('statusBarItem.warningBackground')
          : undefined;
  };
  status.onChange(render);
  render();
  statusItem.show();
  const trees = new SyntaxTreeProvider();
  let refreshTimer: NodeJS.Timeout | undefined;

  context.subscriptions.push(
    output,
    statusItem,
    trees,
    vscode.workspace.registerTextDocumentContentProvider(SYNTAX_TREE_SCHEME, trees),
    vscode.commands.registerCommand('puppet-ls.restartServer', restartClient),
    vscode.commands.registerCommand('puppet-ls.showOutput', () => output.show(true)),
    // The server's code lenses run this with (uri, position, locations) as
    // LSP values: shown in VS Code's references view.
    vscode.commands.registerCommand('puppet-ls.showReferences', async (uri: string, position: unknown, locations: unknown[]) => {
      const converter = client?.protocol2CodeConverter;
      if (converter === undefined) {
        return;
      }
      await vscode.commands.executeCommand(
        'editor.action.showReferences',
        vscode.Uri.parse(uri),
        converter.asPosition(position as Parameters<typeof converter.asPosition>[0]),
        locations.map((l) => converter.asLocation(l as Parameters<typeof converter.asLocation>[0])),
      );
    }),
    vscode.commands.registerCommand('puppet-ls.showStatusMenu', async () => {
      const view = status.view();
      const picked = await vscode.window.showQuickPick(
        menuItems(status.phase).map((item) => ({ ...item })),
        { title: view.tooltip.split('\n')[0], placeHolder: 'puppet-ls' },
      );
      if (picked !== undefined) {
        await runMenuAction(picked.action);
      }
    }),
    vscode.commands.registerCommand('puppet-ls.showSyntaxTree', async () => {
      const editor = vscode.window.activeTextEditor;
      if (editor === undefined || !['puppet', 'puppet-epp'].includes(editor.document.languageId)) {
        void vscode.window.showInformationMessage('Open a Puppet manifest or EPP template first.');
        return;
      }
      const doc = await vscode.workspace.openTextDocument(SyntaxTreeProvider.uriFor(editor.document.uri));
      await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: true, preserveFocus: true });
    }),
    vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.document.uri.scheme === SYNTAX_TREE_SCHEME) {
        return;
      }
      clearTimeout(refreshTimer);
      refreshTimer = setTimeout(() => trees.refresh(e.document.uri), 300);
    }),
    vscode.workspace.onDidChangeConfiguration(async (e) => {
      if (!e.affectsConfiguration(SECTION)) {
        return;
      }
      if (RESTART_SETTINGS.some((s) => e.affectsConfiguration(s)) || client === undefined) {
        await restartClient();
      } else if (client.isRunning()) {
        await client.sendNotification('workspace/didChangeConfiguration', { settings: currentServerConfig() });
      }
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(async () => {
      // A server path from the workspace settings applies from now on.
      const scope = currentServerPathSetting().scope;
      if (scope === 'workspace' || scope === 'workspaceFolder') {
        await restartClient();
      }
    }),
    { dispose: () => clearTimeout(refreshTimer) },
  );
  await startClient();
}

export async function deactivate(): Promise<void> {
  await stopClient();
}
