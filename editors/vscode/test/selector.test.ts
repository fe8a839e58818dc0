import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { documentSelector, hieraPatterns, metadataPattern } from '../src/selector';

void test('Puppet files are selected by language', () => {
  for (const language of ['puppet', 'puppet-epp']) {
    assert.ok(documentSelector.some((f) => f.language === language && f.pattern === undefined));
  }
});

void test("YAML and JSON are selected only for Hiera's paths and metadata.json", () => {
  const data = documentSelector.filter((f) => f.language === 'yaml' || f.language === 'json');
  assert.ok(data.length > 0);
  for (const filter of data) {
    const known = filter.pattern !== undefined && (hieraPatterns.includes(filter.pattern) || filter.pattern === metadataPattern);
    assert.ok(known, JSON.stringify(filter));
  }
  assert.ok(data.some((f) => f.pattern === '**/hiera.yaml'));
  assert.ok(data.some((f) => f.language === 'json' && f.pattern === '**/metadata.json'));
});
