import { screen, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { valueOf, type AnyRow } from '../../lib/api';
import { ResourceGetDocument, ResourceListDocument } from '../../lib/resources/documents';
import { purchaseMeta } from '../../test/fixtures';
import { program, renderWith, signIn } from '../../test/utils';
import DocumentFormPage from './DocumentFormPage';

const page = (rows: object[]) => ({ data: { resourceList: { __typename: 'ResourcePage', rows, total: rows.length } } });
const header = { COMP_ID: 12, COMP_EMP_ID: 1, COMP_FORN_ID: 3, COMP_NUMERO: 4471, COMP_SERIE: '1', COMP_SITUACAO: 'F' };

/** A section a register gives its saved documents (ResourceRoute's DOCUMENT_PANELS: the order's NF-e). */
function Panel({ record }: { record: AnyRow }) {
  return (
    <section aria-label="Painel">
      <p>Documento {String(valueOf(record, 'COMP_NUMERO'))}</p>
    </section>
  );
}

beforeEach(() => {
  window.innerWidth = 1920;
  signIn({ programs: [program({ id: 4, name: 'IndexCompra', webPath: '/compras' })] });
});

describe('a document panel', () => {
  it('shows under the totals of a saved document, with its record', async () => {
    renderWith(
      <Routes>
        <Route
          path="/compras/*"
          element={<DocumentFormPage meta={purchaseMeta} metas={[purchaseMeta]} action="alterar" panel={Panel} />}
        />
      </Routes>,
      {
        mocks: [
          {
            request: { query: ResourceGetDocument, variables: { name: 'fornecedor', emp: 1, id: 3 } },
            result: { data: { resourceGet: { id: 3, text: 'METALURGICA FIXA FORTE LTDA' } } },
          },
          {
            request: { query: ResourceGetDocument, variables: { name: 'compra', emp: 1, id: 12 } },
            result: { data: { resourceGet: header } },
          },
          {
            request: {
              query: ResourceListDocument,
              variables: { name: 'condicaopagamento', emp: 1, input: { filter: null, limit: 20, page: 1 } },
            },
            result: page([]),
          },
          {
            request: {
              query: ResourceListDocument,
              variables: { name: 'compraproduto', emp: 1, input: { page: 1, limit: 500, where: { CMPP_COMP_ID: 12 } } },
            },
            result: page([]),
          },
        ] as never,
        route: '/compras/alterar?id=12',
      },
    );
    const panel = await screen.findByRole('region', { name: 'Painel' });
    expect(within(panel).getByText('Documento 4471')).toBeInTheDocument();
    // After the totals.
    const totals = screen.getByRole('region', { name: 'Totais' });
    expect(totals.compareDocumentPosition(panel) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });
});
