import { screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { ResourceActionDocument, ResourceListDocument, ResourceMetasDocument } from '../lib/resources/documents';
import { apiDateOf } from '../lib/format';
import type { ResourceMeta } from '../lib/resources/metaFields';
import { clientesMeta, field } from '../test/fixtures';
import { program, renderWith, signIn } from '../test/utils';
import ResourceRoute, { RegisterScreenRoute } from './ResourceRoute';
import { routes } from './router';

// The screens are lazy chunks: the first import of one in a test run takes a while.
const LAZY = { timeout: 5000 };

const register = (name: string, path: string, key: string, title: string): ResourceMeta => ({
  name,
  path,
  title,
  program: name,
  key: [key],
  companyColumn: null,
  labelField: key,
  labelLength: null,
  defaultOrder: key,
  fields: [field({ name: key, kind: 'NUMBER', label: 'Código', inList: true })],
  groups: [],
  document: null,
  actions: [],
});
const bancoMeta = register('banco', '/bancos', 'BCO_ID', 'Bancos');
const reconciliationMeta = register('conciliacaobancaria', '/conciliacaobancaria', 'CONB_ID', 'Conciliação Bancária');

const metasMock = (metas: ResourceMeta[]) => ({
  request: { query: ResourceMetasDocument },
  result: { data: { resourceMetas: metas.map((m) => ({ __typename: 'ResourceMeta', ...m })) } },
});
const emptyList = (name: string, input: object) => ({
  request: { query: ResourceListDocument, variables: { name, emp: 1, input } },
  result: { data: { resourceList: { __typename: 'ResourcePage', rows: [], total: 0 } } },
  maxUsageCount: 5,
});

const banks = emptyList('banco', { filter: null, limit: 20, page: 1 });

beforeEach(() => {
  window.innerWidth = 1920;
  signIn({
    programs: [
      program({ id: 20, name: 'bancos', webPath: '/bancos' }),
      program({ id: 30, name: 'conciliacaobancaria', webPath: '/conciliacaobancaria' }),
      program({ id: 40, name: 'movimentodiario', webPath: '/movimentodiario' }),
      program({ id: 41, name: 'integracaodominio', webPath: '/integracaodominio' }),
    ],
  });
});

/** The shell's child routes: where a path goes. */
function shellRoutes() {
  const shell = routes[0].children.find((r) => 'children' in r && r.children);
  return (shell && 'children' in shell ? shell.children : []) as { path?: string; element?: unknown }[];
}

describe('finance routes', () => {
  it('name the single routes of the reconciliation, the daily cash and the Domínio integration', () => {
    const byPath = new Map(shellRoutes().map((r) => [r.path, r.element as { props: { register?: string } }]));
    expect(byPath.get('conciliacaobancaria')?.props.register).toBe('conciliacaobancaria');
    expect(byPath.get('movimentodiario')?.props.register).toBe('movdiario');
    expect(byPath.get('integracaodominio')?.props.register).toBe('integracaodominio');
  });

  it('open the daily cash screen even when the gateway does not describe its register', async () => {
    renderWith(
      <Routes>
        <Route path="/movimentodiario" element={<RegisterScreenRoute register="movdiario" />} />
      </Routes>,
      {
        route: '/movimentodiario',
        mocks: [
          metasMock([clientesMeta]),
          banks,
          emptyList('movdiario', { filter: null, order: 'MOVD_DTA_MOV DESC', page: 1, limit: 20 }),
          {
            request: {
              query: ResourceActionDocument,
              variables: { name: 'movdiario', action: 'dia', params: { emp: 1 }, body: { DATA: apiDateOf() } },
            },
            result: { data: { resourceAction: { DATA: apiDateOf(), FECHADO: false, FORMAS: [], MOVIMENTOS: [] } } },
          },
        ] as never,
      },
    );
    expect(await screen.findByRole('form', { name: 'Dia' }, LAZY)).toBeInTheDocument();
    await waitFor(() => expect(document.title).toMatch(/^Movimento Diário/));
  });

  it("open the reconciliation screen on its register's path, with the register's title", async () => {
    renderWith(
      <Routes>
        <Route path="*" element={<ResourceRoute />} />
      </Routes>,
      { route: '/conciliacaobancaria', mocks: [metasMock([reconciliationMeta, bancoMeta]), banks] as never },
    );
    expect(await screen.findByRole('button', { name: 'Importar OFX' }, LAZY)).toBeDisabled();
    expect(screen.getByText('Selecione a conta bancária para ver os lançamentos do extrato.')).toBeInTheDocument();
    await waitFor(() => expect(document.title).toMatch(/^Conciliação Bancária/));
  });

  it('give the bank accounts list its bank files, balances and transfer buttons', async () => {
    renderWith(
      <Routes>
        <Route path="*" element={<ResourceRoute />} />
      </Routes>,
      {
        route: '/bancos',
        mocks: [
          metasMock([bancoMeta]),
          emptyList('banco', { filter: null, order: 'BCO_ID', page: 1, limit: 20 }),
        ] as never,
      },
    );
    expect(await screen.findByTestId('banco-gerar-remessa', {}, LAZY)).toHaveTextContent('Gerar remessa');
    expect(screen.getByTestId('banco-processar-retorno')).toHaveTextContent('Processar retorno');
    expect(screen.getByTestId('banco-saldos')).toHaveTextContent('Saldos por período');
    expect(screen.getByTestId('banco-transferencia')).toHaveTextContent('Transferência entre contas');
    // The generic list stays: its add button is there.
    expect(screen.getByRole('button', { name: 'Adicionar' })).toBeInTheDocument();
  });
});
