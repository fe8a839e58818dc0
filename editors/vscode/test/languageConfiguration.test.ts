import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';

interface LanguageConfiguration {
  comments: { lineComment?: string; blockComment: [string, string] };
  autoClosingPairs: { open: string; close: string }[];
  wordPattern: string;
  indentationRules: { increaseIndentPattern: string; decreaseIndentPattern: string };
}

function load(name: string): LanguageConfiguration {
  return JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', name), 'utf8')) as LanguageConfiguration;
}

/** The word VS Code selects around `index` of `line` (as for double-click and hover ranges). */
function wordAt(pattern: RegExp, line: string, index: number): string | undefined {
  const global = new RegExp(pattern.source, 'g');
  for (const m of line.matchAll(global)) {
    if (m.index !== undefined && m.index <= index && index < m.index + m[0].length) {
      return m[0];
    }
  }
  return undefined;
}

describe('language-configuration.json (Puppet)', () => {
  const config = load('language-configuration.json');

  it('declares # and /* */ comments', () => {
    assert.equal(config.comments.lineComment, '#');
    assert.deepEqual(config.comments.blockComment, ['/*', '*/']);
  });

  it('auto-closes brackets and both quotes', () => {
    const opens = config.autoClosingPairs.map((p) => p.open);
    for (const open of ['{', '[', '(', "'", '"']) {
      assert.ok(opens.includes(open), `auto-closes ${open}`);
    }
  });

  it('takes $ and :: into words, so that variables and qualified names are whole', () => {
    const word = new RegExp(config.wordPattern);
    const line = "  $demo::params::port = Demo::Port + lookup('x')";
    assert.equal(wordAt(word, line, line.indexOf('params')), '$demo::params::port');
    assert.equal(wordAt(word, line, line.indexOf('Port')), 'Demo::Port');
    assert.equal(wordAt(word, line, line.indexOf('lookup')), 'lookup');
    assert.equal(wordAt(word, '$::fqdn', 3), '$::fqdn');
  });

  it('indents after an opening bracket or a heredoc header and dedents at a closing one', () => {
    const increase = new RegExp(config.indentationRules.increaseIndentPattern);
    const decrease = new RegExp(config.indentationRules.decreaseIndentPattern);
    for (const line of ['class demo {', "file { '/etc/x':", '  $list = [', '  content => @("END"),', 'if $x { # comment']) {
      assert.ok(increase.test(line), `indents after ${line}`);
    }
    for (const line of ['$x = foo(1)', '$h = { a => 1 }', '# a comment {', 'notify { "x": }']) {
      assert.ok(!increase.test(line), `does not indent after ${line}`);
    }
    assert.ok(decrease.test('  }'));
    assert.ok(decrease.test('  ],'));
    assert.ok(!decrease.test('  $x = 1'));
  });
});

describe('language-configuration-epp.json (EPP)', () => {
  const config = load('language-configuration-epp.json');

  it('comments with <%# %> and auto-closes tags', () => {
    assert.deepEqual(config.comments.blockComment, ['<%#', '%>']);
    assert.ok(config.autoClosingPairs.some((p) => p.open === '<%' && p.close.trim() === '%>'));
  });

  it('indents after a tag that opens a block and dedents at one that closes it', () => {
    const increase = new RegExp(config.indentationRules.increaseIndentPattern);
    const decrease = new RegExp(config.indentationRules.decreaseIndentPattern);
    assert.ok(increase.test('<% if $x { -%>'));
    assert.ok(increase.test('<% $list.each |$i| { %>'));
    assert.ok(!increase.test('<%= $x %>'));
    assert.ok(decrease.test('<% } -%>'));
    assert.ok(decrease.test('  <%- } %>'));
  });
});
