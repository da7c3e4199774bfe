import type { CodegenConfig } from '@graphql-codegen/cli';

// Documents live beside each feature as graphql(`...`) calls; the typed output goes to
// src/generated/ and is committed so `npm run build` needs no running codegen.
const config: CodegenConfig = {
  schema: 'schema.graphql',
  documents: ['src/**/*.{ts,tsx}', '!src/generated/**', '!src/**/*.test.{ts,tsx}', '!src/test/**'],
  ignoreNoDocuments: false,
  generates: {
    'src/generated/': {
      preset: 'client',
      presetConfig: { fragmentMasking: false },
      config: {
        enumsAsTypes: true,
        useTypeImports: true,
        scalars: { JSON: { input: 'unknown', output: 'Record<string, unknown>' } },
      },
    },
  },
};

export default config;
