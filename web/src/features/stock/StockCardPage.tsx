import { useQuery } from '@apollo/client';
import { useMemo, useState } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { LoadingScreen } from '../../components/dialogs/LoadingScreen';
import type { GroupDescriptor } from '../../components/fields/types';
import { primaryButton, secondaryButton } from '../../components/fields/styles';
import { FormView, fieldsOf } from '../../components/form/FormView';
import { useFormState } from '../../components/form/useFormState';
import { Pager } from '../../components/tables/Pager';
import type { Row } from '../../components/tables/types';
import { errorMessage } from '../../lib/apollo';
import { formatDate, formatMoney, formatQuantity, toApiDate } from '../../lib/format';
import { MSG } from '../../lib/messages';
import { usePageMeta } from '../../lib/pageMeta';
import { useSession } from '../../lib/session';
import { ResourceGetDocument, ResourceListDocument } from '../../lib/resources/documents';
import { decodeId } from '../../lib/resources/metaFields';
import { permissionsFor } from '../../lib/resources/permissions';
import { useCompanyId, useResourceMetas } from '../../lib/resources/useResourceData';

export const CARD_PAGE_SIZE = 50;

const n = (v: unknown) => (v == null || v === '' ? 0 : Number(v));

/** One movement of the stock card as the screen shows it. */
export function stockCardLine(r: Row) {
  const exit = r.MOVI_TIPO === 'S';
  const qty = exit ? n(r.QTDE_SAIDA) || n(r.MOVI_QTDE) : n(r.QTDE_ENTRADA) || n(r.MOVI_QTDE);
  // The document as a person reads it ('Compra 123, item 1', undo marked), else origin and id.
  const described = typeof r.MOVI_DOCUMENTO === 'string' && r.MOVI_DOCUMENTO !== '' ? r.MOVI_DOCUMENTO : null;
  const origin = described ?? [r.MOVI_ORIGEM, r.MOVI_ORIGEM_ID].filter((x) => x != null && x !== '').join(' ');
  return {
    date: formatDate(r.DATA == null ? '' : String(r.DATA)),
    type: exit ? 'Saída' : 'Entrada',
    quantity: formatQuantity(qty),
    unitCost: formatMoney(n(r.MOVI_CUSTO_UNIT)),
    value: formatMoney(n(r.VALOR_MOVIMENTO)),
    balance: formatQuantity(n(r.SALDO)),
    averageCost: formatMoney(n(r.CUSTO_MEDIO)),
    stockValue: formatMoney(n(r.SALDO_FINANCEIRO)),
    origin: r.MOVI_ESTORNO === true && !described ? `${origin} (estorno)` : origin,
  };
}

const screenDate = (d: Date) =>
  `${String(d.getDate()).padStart(2, '0')}/${String(d.getMonth() + 1).padStart(2, '0')}/${d.getFullYear()}`;

/** The default range: the last 30 days up to today. */
export function defaultRange(today = new Date()) {
  const from = new Date(today);
  from.setDate(from.getDate() - 30);
  return { DATA_INI: screenDate(from), DATA_FIM: screenDate(today) };
}

const RANGE: GroupDescriptor[] = [
  {
    fields: [
      { name: 'DATA_INI', type: 'DATE', text: 'Data inicial', required: true, width: 6 },
      {
        name: 'DATA_FIM',
        type: 'DATE',
        text: 'Data final',
        required: true,
        width: 6,
        compare: { field: 'DATA_INI', relation: 'gte', message: 'A data final deve ser igual ou posterior à inicial.' },
      },
    ],
  },
];

const th = 'whitespace-nowrap bg-primary px-2.5 py-2 text-xs font-semibold uppercase text-white';
const td = 'whitespace-nowrap px-2.5 py-1.5';

/** /consultaprodutos/alterar?id={PROD_ID}: the product's stock card (fichaestoque) for a date range. */
export default function StockCardPage() {
  usePageMeta('Ficha de Estoque', 'AlterConsultaprodutos');
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const emp = useCompanyId();
  const session = useSession();
  const { metas, loading: metasLoading } = useResourceMetas();
  const meta = metas.find((m) => m.name === 'consultaprodutos');
  const raw = decodeId(params.get('id'));
  const productId = typeof raw === 'object' && raw !== null ? (raw as Row).PROD_ID : raw;
  const fields = useMemo(() => fieldsOf(RANGE), []);
  const form = useFormState(fields, defaultRange());
  const [range, setRange] = useState(() => ({
    DATA_INI: toApiDate(String(form.values.DATA_INI)),
    DATA_FIM: toApiDate(String(form.values.DATA_FIM)),
  }));
  const [page, setPage] = useState(1);

  const product = useQuery(ResourceGetDocument, {
    skip: productId == null,
    variables: { name: 'consultaprodutos', emp, id: productId ?? null },
    fetchPolicy: 'network-only',
  });
  const card = useQuery(ResourceListDocument, {
    skip: productId == null,
    variables: {
      name: 'fichaestoque',
      emp,
      input: { page, limit: CARD_PAGE_SIZE, where: { PROD_ID: productId, ...range } },
    },
    fetchPolicy: 'network-only',
    notifyOnNetworkStatusChange: true,
  });

  if (metasLoading) return <LoadingScreen />;
  if (!meta) return <Navigate to="/404" replace />;
  if (!permissionsFor(session, meta).canView) {
    return <p className="p-6 text-center text-sm text-slate-600">Você não tem permissão para acessar esta tela.</p>;
  }
  if (productId == null) {
    return <p className="p-6 text-center text-sm text-slate-600">Nenhum registro selecionado.</p>;
  }

  const prod = (product.data?.resourceGet ?? null) as Row | null;
  const rows = (card.data?.resourceList.rows ?? []) as Row[];
  const total = card.data?.resourceList.total ?? 0;

  const apply = () => {
    if (!form.validateAll()) return;
    const next = {
      DATA_INI: toApiDate(String(form.values.DATA_INI)),
      DATA_FIM: toApiDate(String(form.values.DATA_FIM)),
    };
    setPage(1);
    if (JSON.stringify(next) === JSON.stringify(range)) void card.refetch();
    else setRange(next);
  };

  return (
    <div className="space-y-4">
      <section aria-label="Produto" className="rounded bg-white p-4 shadow-sm">
        <h2 className="text-lg font-semibold text-slate-800">
          {String(productId)}
          {prod?.PROD_DESCRICAO ? ` - ${String(prod.PROD_DESCRICAO)}` : ''}
        </h2>
        {prod && (
          <dl className="mt-2 grid grid-cols-2 gap-3 text-sm sm:grid-cols-4">
            <div>
              <dt className="text-xs text-slate-500">Saldo Físico</dt>
              <dd>
                {formatQuantity(n(prod.SALDO_FISICO))} {String(prod.UNID_ABREVIADA ?? '')}
              </dd>
            </div>
            <div>
              <dt className="text-xs text-slate-500">Custo Médio</dt>
              <dd>{formatMoney(n(prod.CUSTO_MEDIO))}</dd>
            </div>
            <div>
              <dt className="text-xs text-slate-500">Saldo Financeiro</dt>
              <dd>{formatMoney(n(prod.SALDO_FINANCEIRO))}</dd>
            </div>
            <div>
              <dt className="text-xs text-slate-500">Preço de Venda</dt>
              <dd>{formatMoney(n(prod.PROD_VALOR))}</dd>
            </div>
          </dl>
        )}
      </section>

      <form
        noValidate
        aria-label="Período"
        className="flex flex-wrap items-end gap-3 rounded bg-white p-4 shadow-sm"
        onSubmit={(e) => {
          e.preventDefault();
          apply();
        }}
      >
        <div className="min-w-64 flex-1">
          <FormView form={form} groups={RANGE} />
        </div>
        <button type="submit" className={primaryButton} disabled={card.loading}>
          Pesquisar
        </button>
        <button type="button" className={secondaryButton} onClick={() => navigate('/consultaprodutos')}>
          Voltar
        </button>
      </form>

      <section aria-label="Movimentos" className="space-y-2 rounded bg-white p-4 shadow-sm">
        {card.error && !card.data ? (
          <p role="alert" className="text-sm text-error">
            {errorMessage(card.error)}
          </p>
        ) : card.loading && !card.data ? (
          <LoadingScreen />
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full border-collapse text-sm">
              <thead>
                <tr>
                  <th className={`${th} text-left`}>Data</th>
                  <th className={`${th} text-left`}>Tipo</th>
                  <th className={`${th} text-right`}>Quantidade</th>
                  <th className={`${th} text-right`}>Custo Unitário</th>
                  <th className={`${th} text-right`}>Valor</th>
                  <th className={`${th} text-right`}>Saldo</th>
                  <th className={`${th} text-right`}>Custo Médio</th>
                  <th className={`${th} text-right`}>Saldo Financeiro</th>
                  <th className={`${th} text-left`}>Origem</th>
                </tr>
              </thead>
              <tbody>
                {rows.length === 0 && (
                  <tr>
                    <td colSpan={9} className="p-4 text-center text-slate-500">
                      {MSG.tableEmpty}
                    </td>
                  </tr>
                )}
                {rows.map((r, i) => {
                  const l = stockCardLine(r);
                  return (
                    <tr key={`${String(r.MOVI_ID)}-${i}`} className={i % 2 ? 'bg-slate-50' : ''}>
                      <td className={td}>{l.date}</td>
                      <td className={`${td} ${l.type === 'Saída' ? 'text-error' : 'text-emerald-700'}`}>{l.type}</td>
                      <td className={`${td} text-right`}>{l.quantity}</td>
                      <td className={`${td} text-right`}>{l.unitCost}</td>
                      <td className={`${td} text-right`}>{l.value}</td>
                      <td className={`${td} text-right`}>{l.balance}</td>
                      <td className={`${td} text-right`}>{l.averageCost}</td>
                      <td className={`${td} text-right`}>{l.stockValue}</td>
                      <td className={td}>{l.origin}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
        <Pager page={page} pageSize={CARD_PAGE_SIZE} total={total} onPage={setPage} />
      </section>
    </div>
  );
}
