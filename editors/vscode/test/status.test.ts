import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { menuItems, ServerStatus } from '../src/status';

const server = { path: '/usr/bin/puppet-ls', source: 'PATH' };

function started(): ServerStatus {
  const status = new ServerStatus();
  status.starting(server);
  status.ready('0.1.0');
  return status;
}

describe('ServerStatus', () => {
  it('goes from starting to ready, with the server and its version in the tooltip', () => {
    const status = new ServerStatus();
    const seen: string[] = [];
    status.onChange(() => seen.push(status.view().text));
    status.starting(server);
    assert.equal(status.phase, 'starting');
    assert.deepEqual(status.view(), {
      text: '$(sync~spin) puppet-ls',
      tooltip: 'puppet-ls is starting\n\npuppet-ls: /usr/bin/puppet-ls (found via PATH)\n\nClick for the server actions.',
      severity: 'normal',
      busy: true,
    });
    status.ready('0.1.0');
    assert.equal(status.phase, 'ready');
    assert.equal(status.view().text, '$(check) puppet-ls');
    assert.match(status.view().tooltip, /^puppet-ls is ready\n\npuppet-ls 0\.1\.0: \/usr\/bin\/puppet-ls \(found via PATH\)/);
    assert.equal(status.view().busy, false);
    assert.deepEqual(seen, ['$(sync~spin) puppet-ls', '$(check) puppet-ls']);
  });

  it('shows the Puppet the server checks for once it says, until it starts again', () => {
    const status = started();
    status.checkingFor('Puppet 8 (strict = error, strict_variables = true; version the default)');
    assert.match(
      status.view().tooltip,
      /\(found via PATH\)\n\nChecking for Puppet 8 \(strict = error, strict_variables = true; version the default\)\n\nClick/,
    );
    status.starting(server);
    assert.doesNotMatch(status.view().tooltip, /Checking for/);
  });

  it('shows indexing with the percentage and message of the work-done reports, then ready again', () => {
    const status = started();
    status.report('puppet-ls/1', { kind: 'begin', title: 'Indexing Puppet code', percentage: 0 });
    assert.equal(status.view().text, '$(sync~spin) puppet-ls 0%');
    status.report('puppet-ls/1', { kind: 'report', percentage: 40, message: '12/30 files' });
    assert.equal(status.view().text, '$(sync~spin) puppet-ls 40%');
    assert.match(status.view().tooltip, /^Indexing Puppet code 40%: 12\/30 files\n/);
    assert.equal(status.view().busy, true);
    // A report without a percentage keeps the last one.
    status.report('puppet-ls/1', { kind: 'report', message: 'checking' });
    assert.match(status.view().tooltip, /^Indexing Puppet code 40%: checking\n/);
    status.report('puppet-ls/1', { kind: 'end', message: '30 files' });
    assert.equal(status.view().text, '$(check) puppet-ls');
    assert.deepEqual(status.activeProgress, []);
  });

  it('tracks several reports by token and shows the latest', () => {
    const status = started();
    status.report(1, { kind: 'begin', title: 'Indexing Puppet code', percentage: 10 });
    status.report('b', { kind: 'begin', title: 'Reloading', message: 'modules' });
    assert.equal(status.view().text, '$(sync~spin) puppet-ls');
    assert.equal(status.view().tooltip.split('\n').slice(0, 2).join('|'), 'Indexing Puppet code 10%|Reloading: modules');
    status.report('b', { kind: 'end' });
    assert.equal(status.view().text, '$(sync~spin) puppet-ls 10%');
    status.report('1', { kind: 'end' });
    assert.equal(status.view().text, '$(check) puppet-ls');
  });

  it('ignores reports and ends for tokens it never saw begin, without notifying', () => {
    const status = started();
    let changes = 0;
    status.onChange(() => changes++);
    status.report('x', { kind: 'report', percentage: 50 });
    status.report('x', { kind: 'end' });
    assert.equal(changes, 0);
    assert.equal(status.view().text, '$(check) puppet-ls');
  });

  it('keeps a report begun while starting, and drops reports of a server that stopped', () => {
    const status = new ServerStatus();
    status.starting(server);
    status.report('t', { kind: 'begin', title: 'Indexing Puppet code', percentage: 5 });
    status.ready();
    assert.equal(status.view().text, '$(sync~spin) puppet-ls 5%');
    status.stopped();
    assert.deepEqual(status.activeProgress, []);
    status.report('t', { kind: 'report', percentage: 90 });
    status.report('u', { kind: 'begin', title: 'late' });
    assert.deepEqual(status.activeProgress, []);
    assert.deepEqual(status.view(), {
      text: '$(circle-slash) puppet-ls',
      tooltip: 'puppet-ls is stopped\n\nClick for the server actions.',
      severity: 'warning',
      busy: false,
    });
  });

  it('shows a failure and a missing server as errors with their message', () => {
    const status = started();
    status.failed('puppet-ls (/usr/bin/puppet-ls) stopped: see its output');
    assert.equal(status.phase, 'error');
    assert.equal(status.view().text, '$(error) puppet-ls');
    assert.equal(status.view().severity, 'error');
    assert.match(status.view().tooltip, /^puppet-ls \(\/usr\/bin\/puppet-ls\) stopped: see its output\n\npuppet-ls 0\.1\.0: /);
    status.notFound('The puppet-ls language server was not found');
    assert.equal(status.phase, 'notFound');
    assert.equal(status.view().tooltip, 'The puppet-ls language server was not found\n\nClick for the server actions.');
    assert.equal(status.view().severity, 'error');
  });
});

describe('menuItems', () => {
  it('offers to set the server path first when the server is not found', () => {
    assert.deepEqual(
      menuItems('notFound').map((i) => i.action),
      ['openServerPathSetting', 'restart', 'showOutput'],
    );
  });

  it('offers the output first when the server failed, a start when it is stopped', () => {
    assert.equal(menuItems('error')[0].action, 'showOutput');
    assert.equal(menuItems('stopped')[0].label, '$(play) Start Server');
  });

  it('always offers the output and a (re)start', () => {
    for (const phase of ['notFound', 'starting', 'ready', 'stopped', 'error'] as const) {
      const actions = menuItems(phase).map((i) => i.action);
      assert.ok(actions.includes('showOutput') && actions.includes('restart'), phase);
    }
  });
});
