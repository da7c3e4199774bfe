import { lazy, Suspense, type ComponentType } from 'react';
import { Navigate, useLocation } from 'react-router';
import { LoadingScreen } from '../components/dialogs/LoadingScreen';
import { isDocument, matchResource, type ResourceMeta } from '../lib/resources/metaFields';
import { useResourceMetas } from '../lib/resources/useResourceData';
import type { DocumentTool } from '../features/documents/DocumentFormPage';
import type { RecordPanel, RecordTab } from '../features/registers/RegisterFormPage';

// Each screen is its own chunk: a register's form and a document's screen load on demand.
const RegisterListPage = lazy(() => import('../components/registers/RegisterListPage'));
const RegisterFormPage = lazy(() => import('../features/registers/RegisterFormPage'));
const DocumentFormPage = lazy(() => import('../features/documents/DocumentFormPage'));
const PurchaseImport = lazy(() => import('../features/purchases/PurchaseImport'));
const PurchasePriceUpdate = lazy(() => import('../features/purchases/PurchasePriceUpdate'));
const TitlesListPage = lazy(() => import('../features/finance/TitlesListPage'));
const PayablesSettlementPage = lazy(() => import('../features/finance/PayablesSettlementPage'));
const CustomerCredit = lazy(() => import('../features/finance/CustomerCredit'));
const BankTools = lazy(() => import('../features/finance/BankTools'));
const MovementTools = lazy(() => import('../features/finance/BankTools').then((m) => ({ default: m.MovementTools })));
const ReconciliationPage = lazy(() => import('../features/finance/ReconciliationPage'));
const DailyCashPage = lazy(() => import('../features/finance/DailyCashPage'));
const DominioPage = lazy(() => import('../features/finance/DominioPage'));
const DocumentSend = lazy(() => import('../features/documents/DocumentSend'));
const OrderNfePanel = lazy(() => import('../features/fiscal/OrderNfePanel'));
const FiscalServicesTab = lazy(() => import('../features/fiscal/FiscalServicesTab'));
const ManifestTools = lazy(() => import('../features/fiscal/ManifestTools'));
const ManifestPurchase = lazy(() => import('../features/purchases/ManifestPurchase'));
const MessagesPage = lazy(() => import('../features/messaging/MessagesPage'));

type RegisterScreen = ComponentType<{ meta: ResourceMeta; metas: ResourceMeta[] }>;
/** A screen of its own over a register, which works whether or not the gateway describes it. */
type OwnScreen = ComponentType<{ meta?: ResourceMeta; metas: ResourceMeta[] }>;

/**
 * Single routes (spec §2.3) that are screens of their own over a register, by register name:
 * the bank reconciliation (/conciliacaobancaria), the day's cash (`movdiario`,
 * /movimentodiario), the Domínio accounting integration (/integracaodominio) and the messages
 * (`whatsapp`, /whatsapp: IndexWhatsapp). The router names their paths (RegisterScreenRoute); a
 * register path of the gateway reaches them too.
 */
const REGISTER_SCREENS: Record<string, OwnScreen> = {
  conciliacaobancaria: ReconciliationPage,
  movdiario: DailyCashPage,
  integracaodominio: DominioPage,
  whatsapp: MessagesPage,
};

/**
 * What a register's list shows beside its add button, by register name: calls the metadata
 * cannot declare as buttons (an upload). The purchases import an NF-e XML; the bank accounts
 * send and read the slips' bank files and, with the bank movements, show the balances of a
 * period and transfer between accounts; the NF-e manifest fetches the NF-e issued against the
 * company from the SEFAZ and takes one received as XML.
 */
const LIST_TOOLS: Record<string, RegisterScreen> = {
  compra: PurchaseImport,
  manifestonfe: ManifestTools,
  banco: BankTools,
  movimentacaobancaria: MovementTools,
};

/**
 * Registers whose list is a screen of its own, by register name (the form stays the generic
 * one): the receivables and payables (filters, totals, settlement) and the payables
 * settlement screen (choose many, settle at once).
 */
const LIST_SCREENS: Record<string, RegisterScreen> = {
  contasreceber: TitlesListPage,
  contaspagar: TitlesListPage,
  baixacontaspagar: PayablesSettlementPage,
  ...REGISTER_SCREENS,
};

/**
 * What a saved document's screen shows beside its buttons, by register name: calls the metadata
 * cannot declare as the document's buttons. A purchase updates its products' costs and prices
 * (a call of its line register); an NF-e of the manifest becomes a purchase ('Gerar Compra':
 * calls of two registers); a quote and a billing order go to the customer by e-mail or WhatsApp
 * (the server produces the file).
 */
const DOCUMENT_TOOLS: Record<string, DocumentTool> = {
  compra: PurchasePriceUpdate,
  manifestonfe: ManifestPurchase,
  orcamento: DocumentSend,
  pedido: DocumentSend,
};

/**
 * What a saved document's screen shows under its totals, by register name: a section the
 * metadata cannot declare. An invoiced billing order's NF-e (register `pedidofatxml`).
 */
const DOCUMENT_PANELS: Record<string, DocumentTool> = {
  pedido: OrderNfePanel,
};

/** Tabs of a register's edit screen beside its fields, by register name: a company's fiscal services. */
const FORM_TABS: Record<string, RecordTab[]> = {
  empresas: [{ label: 'Serviços fiscais', Screen: FiscalServicesTab }],
};

/** What a register's edit screen shows above its fields, by register name: a customer's credit. */
const FORM_PANELS: Record<string, RecordPanel> = {
  clientes: CustomerCredit,
};

/**
 * /{path}, /{path}/inserir and /{path}/alterar for every register the gateway describes. A
 * register whose metadata carries `document` is a document header: its inserir/alterar
 * screens are the document screen (header, lines, totals, buttons), its list the generic one.
 */
export default function ResourceRoute() {
  const { pathname, search } = useLocation();
  const { metas, loading, error } = useResourceMetas();
  if (loading) return <LoadingScreen />;
  if (error && metas.length === 0) {
    return <p className="p-6 text-center text-sm text-slate-600">Não foi possível carregar as telas de cadastro.</p>;
  }
  const match = matchResource(metas, pathname);
  if (!match) return <Navigate to="/404" replace />;
  const { meta, action } = match;
  const Tools = LIST_TOOLS[meta.name];
  const List = LIST_SCREENS[meta.name];
  return (
    <Suspense fallback={<LoadingScreen />}>
      {action === 'list' && List ? (
        <List key={meta.name} meta={meta} metas={metas} />
      ) : action === 'list' ? (
        <RegisterListPage
          key={meta.name}
          meta={meta}
          metas={metas}
          tools={Tools ? <Tools meta={meta} metas={metas} /> : undefined}
        />
      ) : isDocument(meta) ? (
        // A conversion or a copy opens another document on the same route: the id remounts it.
        <DocumentFormPage
          key={`${meta.name}-${action}-${search}`}
          meta={meta}
          metas={metas}
          action={action}
          tool={DOCUMENT_TOOLS[meta.name]}
          panel={DOCUMENT_PANELS[meta.name]}
        />
      ) : (
        <RegisterFormPage
          key={`${meta.name}-${action}`}
          meta={meta}
          metas={metas}
          action={action}
          panel={FORM_PANELS[meta.name]}
          tabs={FORM_TABS[meta.name]}
        />
      )}
    </Suspense>
  );
}

/**
 * A single route whose screen is its own over register `register` (REGISTER_SCREENS): the
 * screen gets the register's metadata when the gateway describes it to the user, and works
 * without it (its title and permissions then come from the route's program).
 */
export function RegisterScreenRoute({ register }: { register: string }) {
  const { metas, loading } = useResourceMetas();
  if (loading) return <LoadingScreen />;
  const Screen = REGISTER_SCREENS[register];
  if (!Screen) return <Navigate to="/404" replace />;
  return (
    <Suspense fallback={<LoadingScreen />}>
      <Screen key={register} meta={metas.find((m) => m.name === register)} metas={metas} />
    </Suspense>
  );
}
