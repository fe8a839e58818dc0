// The documents the extension hands to puppet-ls: Puppet manifests and
// templates, and of YAML and JSON only Hiera's files (`hiera.yaml` and the
// files under a `data/` or `hieradata/` directory), never every YAML file.
// The server also checks that a YAML file belongs to a hierarchy before it
// reports on it.

export interface DocumentFilter {
  scheme: string;
  language: string;
  pattern?: string;
}

/** Glob patterns of Hiera's files. */
export const hieraPatterns = ['**/hiera.yaml', '**/{data,hieradata}/**/*.{yaml,yml,eyaml,json}'];

export const documentSelector: DocumentFilter[] = [
  { scheme: 'file', language: 'puppet' },
  { scheme: 'file', language: 'puppet-epp' },
  { scheme: 'untitled', language: 'puppet' },
  { scheme: 'untitled', language: 'puppet-epp' },
  ...['yaml', 'json'].flatMap((language) =>
    hieraPatterns.map((pattern) => ({ scheme: 'file', language, pattern })),
  ),
];
