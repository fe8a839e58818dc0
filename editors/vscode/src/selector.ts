// The documents the extension hands to puppet-ls: Puppet manifests and
// templates, and of YAML and JSON only Hiera's files (`hiera.yaml` and the
// files under a `data/` or `hieradata/` directory) and modules'
// `metadata.json`, never every YAML or JSON file. The server also checks
// that a YAML file belongs to a hierarchy, and a `metadata.json` to a
// module, before it reports on it.

export interface DocumentFilter {
  scheme: string;
  language: string;
  pattern?: string;
}

/** Glob patterns of Hiera's files. */
export const hieraPatterns = ['**/hiera.yaml', '**/{data,hieradata}/**/*.{yaml,yml,eyaml,json}'];

/** Glob pattern of modules' metadata. */
export const metadataPattern = '**/metadata.json';

export const documentSelector: DocumentFilter[] = [
  { scheme: 'file', language: 'puppet' },
  { scheme: 'file', language: 'puppet-epp' },
  { scheme: 'untitled', language: 'puppet' },
  { scheme: 'untitled', language: 'puppet-epp' },
  ...['yaml', 'json'].flatMap((language) =>
    hieraPatterns.map((pattern) => ({ scheme: 'file', language, pattern })),
  ),
  { scheme: 'file', language: 'json', pattern: metadataPattern },
];
