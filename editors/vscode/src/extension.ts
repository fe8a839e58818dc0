import * as os from 'os';
import * as vscode from 'vscode';
import {
  LanguageClient,
  type LanguageClientOptions,
  type ServerOptions,
  TransportKind,
} from 'vscode-languageclient/node';
import { findServer, ServerNotFoundError } from './discovery';
import { nodeFs } from './nodeFs';
import { documentSelector } from './selector';
import { RESTART_SETTINGS, serverArgs, serverConfig, type SettingGetter } from './settings';

const SECTION = 'puppet-ls';
const SYNTAX_TREE_SCHEME = 'puppet-ls-syntax-tree';
const SYNTAX_TREE_REQUEST = 'puppet-ls/syntaxTree';

let client: LanguageClient | undefined;
let output: vscode.OutputChannel;
let extensionPath: string;

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

async function startClient(): Promise<void> {
  const get = settings();
  let server;
  try {
    server = findServer({
      configuredPath: get('server.path') as string | undefined,
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
      const choice = await vscode.window.showErrorMessage(err.message, 'Open Settings', 'Show Output');
      if (choice === 'Open Settings') {
        await vscode.commands.executeCommand('workbench.action.openSettings', `${SECTION}.server.path`);
      } else if (choice === 'Show Output') {
        output.show(true);
      }
      return;
    }
    throw err;
  }
  output.appendLine(`Starting ${server.path} (found via ${server.source})`);

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
  client = new LanguageClient(SECTION, 'puppet-ls', serverOptions, clientOptions);
  try {
    await client.start();
  } catch (err) {
    output.appendLine(`puppet-ls failed to start: ${String(err)}`);
    void vscode.window.showErrorMessage(`puppet-ls failed to start (${server.path}): ${String(err)}`, 'Show Output').then(
      (choice) => choice === 'Show Output' && output.show(true),
    );
  }
}

async function stopClient(): Promise<void> {
  const old = client;
  client = undefined;
  if (old !== undefined) {
    try {
      await old.stop();
    } catch (err) {
      output.appendLine(`Stopping puppet-ls: ${String(err)}`);
    }
  }
}

async function restartClient(): Promise<void> {
  await stopClient();
  await startClient();
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
  output = vscode.window.createOutputChannel('puppet-ls');
  const trees = new SyntaxTreeProvider();
  let refreshTimer: NodeJS.Timeout | undefined;

  context.subscriptions.push(
    output,
    trees,
    vscode.workspace.registerTextDocumentContentProvider(SYNTAX_TREE_SCHEME, trees),
    vscode.commands.registerCommand('puppet-ls.restartServer', restartClient),
    vscode.commands.registerCommand('puppet-ls.showOutput', () => output.show(true)),
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
    { dispose: () => clearTimeout(refreshTimer) },
  );
  await startClient();
}

export async function deactivate(): Promise<void> {
  await stopClient();
}
