import { screen } from '@testing-library/react';
import type { ReactElement } from 'react';
import { Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetReportDefinitions } from '../features/reports/definitions';
import ReportRoute from '../features/reports/ReportRoute';
import { REPORT_ROUTES } from '../features/reports/routes';
import { ResourceMetasDocument } from '../lib/resources/documents';
import { clientesMeta } from '../test/fixtures';
import { renderWith, signIn } from '../test/utils';
import ResourceRoute from './ResourceRoute';
import { routes } from './router';

const LAZY = { timeout: 5000 };

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const metasMock = {
  request: { query: ResourceMetasDocument },
  result: { data: { resourceMetas: [{ __typename: 'ResourceMeta', ...clientesMeta }] } },
};

/** The shell's child routes: where a path goes. */
function shellRoutes() {
  const shell = routes[0].children.find((r) => 'children' in r && r.children);
  return (shell && 'children' in shell ? shell.children : []) as { path?: string; element?: ReactElement }[];
}

beforeEach(() => {
  window.innerWidth = 1920;
  signIn();
  resetReportDefinitions();
});

afterEach(() => vi.restoreAllMocks());

describe('report routes', () => {
  it('name every report route of spec §2.4, each falling back to the register routes', () => {
    expect(REPORT_ROUTES).toHaveLength(25);
    const byPath = new Map(shellRoutes().map((r) => [r.path, r.element]));
    // The register routes: the (lazy) ResourceRoute of the catch-all path.
    const registers = byPath.get('*')?.type;
    expect(registers).toBeDefined();
    for (const path of REPORT_ROUTES) {
      const element = byPath.get(path) as ReactElement<{ fallback: ReactElement }> | undefined;
      expect(element, path).toBeDefined();
      expect(element?.props.fallback.type, path).toBe(registers);
    }
  });

  it('open the report the server defines for the path', async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(
      json([
        {
          NOME: 'clientes',
          TITULO: 'Relatório de Clientes',
          ROTA: '/relatoriosclientes',
          CAMINHO: '/clientes/reports',
          FILTROS: [],
          COLUNAS: [{ CAMPO: 'CLI_DESCRICAO', ROTULO: 'Cliente', TIPO: 'texto' }],
        },
      ]),
    );
    renderWith(
      <Routes>
        <Route path="/relatoriosclientes" element={<ReportRoute fallback={<ResourceRoute />} />} />
        <Route path="/404" element={<p>Página não encontrada</p>} />
      </Routes>,
      { route: '/relatoriosclientes', mocks: [metasMock] as never },
    );
    expect(await screen.findByTestId('relatorio-gerar', {}, LAZY)).toBeInTheDocument();
    expect(screen.getByRole('form', { name: 'Filtros: Relatório de Clientes' })).toBeInTheDocument();
  });

  it('keep going where they went before when the server defines no report for the path', async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(json([]));
    renderWith(
      <Routes>
        <Route path="/relatoriosclientes" element={<ReportRoute fallback={<ResourceRoute />} />} />
        <Route path="/404" element={<p>Página não encontrada</p>} />
      </Routes>,
      { route: '/relatoriosclientes', mocks: [metasMock] as never },
    );
    expect(await screen.findByText('Página não encontrada', {}, LAZY)).toBeInTheDocument();
    expect(screen.queryByTestId('relatorio-gerar')).toBeNull();
  });
});
