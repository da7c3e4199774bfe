import { useMemo, useState } from 'react';
import { LoadingScreen } from '../../components/dialogs/LoadingScreen';
import { primaryButton, secondaryButton } from '../../components/fields/styles';
import type { FieldDescriptor, FormValues, GroupDescriptor } from '../../components/fields/types';
import { FormView, fieldsOf } from '../../components/form/FormView';
import { useFormState } from '../../components/form/useFormState';
import { valueOf } from '../../lib/api';
import { errorMessage } from '../../lib/apollo';
import { addDays, apiDateOf, formatDate, toApiDate } from '../../lib/format';
import { maskCpfCnpj } from '../../lib/masks';
import { usePageMeta } from '../../lib/pageMeta';
import { isNotice, saveFile } from '../../lib/restForms';
import { rowToValues, toDescriptor, valuesToRow, type ResourceMeta } from '../../lib/resources/metaFields';
import { screenPermissions } from '../../lib/resources/permissions';
import { useSession } from '../../lib/session';
import { notify } from '../../lib/toast';
import { monthStart, periodFields } from './bankFields';
import { NO_PERMISSION, SCREENS, screenRouteName } from './screens';
import { EXPORTS, useDominio, type DominioConfig, type ExportKind } from './useDominio';

const SCREEN = SCREENS.dominio;

/** The configuration's fields when the gateway does not describe the register. */
const CONFIG_FIELDS: FieldDescriptor[] = [
  {
    name: 'INTD_COD_EMPRESA',
    type: 'TEXT',
    text: 'Código da empresa na Domínio',
    required: true,
    length: 20,
    width: 4,
  },
  { name: 'INTD_CONTA_CLIENTES', type: 'TEXT', text: 'Conta de clientes', length: 20, width: 4 },
  { name: 'INTD_CONTA_FORNECEDORES', type: 'TEXT', text: 'Conta de fornecedores', length: 20, width: 4 },
  { name: 'INTD_CONTA_CAIXA', type: 'TEXT', text: 'Conta caixa', length: 20, width: 4 },
  { name: 'INTD_CONTA_JUROS', type: 'TEXT', text: 'Conta de juros', length: 20, width: 4 },
  { name: 'INTD_CONTA_DESCONTOS', type: 'TEXT', text: 'Conta de descontos', length: 20, width: 4 },
  { name: 'INTD_HISTORICO_RECEBIMENTO', type: 'TEXT', text: 'Histórico de recebimento', length: 20, width: 6 },
  { name: 'INTD_HISTORICO_PAGAMENTO', type: 'TEXT', text: 'Histórico de pagamento', length: 20, width: 6 },
];

/** What the user does not type: the row's key and company. */
const HIDDEN = ['INTD_ID', 'INTD_EMP_ID'];

/** The configuration's fields: the register's own (labels, lengths, rules) when described. */
function configFields(meta: ResourceMeta | undefined): FieldDescriptor[] {
  if (!meta) return CONFIG_FIELDS;
  const fields = meta.fields.filter((f) => !HIDDEN.includes(f.name)).map(toDescriptor);
  return fields.length ? fields : CONFIG_FIELDS;
}

/** A stored configuration as the form edits it. */
function configValues(
  meta: ResourceMeta | undefined,
  fields: FieldDescriptor[],
  row: DominioConfig | null,
): FormValues {
  if (meta) return rowToValues(meta, row);
  return Object.fromEntries(fields.map((f) => [f.name, String(valueOf(row, f.name) ?? '')]));
}

/** The form as the call takes it: the register's conversions, else the texts trimmed (empty: null). */
function configRow(meta: ResourceMeta | undefined, fields: FieldDescriptor[], values: FormValues): DominioConfig {
  if (meta) {
    const row = valuesToRow(meta, values);
    for (const h of HIDDEN) delete row[h];
    return row;
  }
  return Object.fromEntries(
    fields.map((f) => {
      const v = String(values[f.name] ?? '').trim();
      return [f.name, v === '' ? null : v];
    }),
  );
}

/** The last whole month: what an accountant usually exports. */
export function lastMonth(today: string = apiDateOf()) {
  const end = addDays(monthStart(today), -1);
  return { DATA_INI: formatDate(monthStart(end)), DATA_FIM: formatDate(end) };
}

const PERIOD_GROUPS: GroupDescriptor[] = [{ fields: periodFields(6).map((f) => ({ ...f, required: true })) }];

interface Props {
  /** The `integracaodominio` register's metadata, when the gateway describes it. */
  meta?: ResourceMeta;
  metas: ResourceMeta[];
}

/**
 * /integracaodominio: the company's configuration for the Domínio accounting system (its code
 * there, the accounts and histories the entries use), and the export of a period's invoices
 * ('Exportar notas') and settled instalments ('Exportar baixas') as files to import there.
 */
export default function DominioPage({ meta }: Props) {
  usePageMeta(meta?.title || SCREEN.title, screenRouteName(SCREEN.register));
  const session = useSession();
  const perms = screenPermissions(session, meta, SCREEN.path);
  if (!perms.canView) return <p className="p-6 text-center text-sm text-slate-600">{NO_PERMISSION}</p>;
  return <Dominio meta={meta} canSave={perms.canUpdate || perms.canCreate} />;
}

function Dominio({ meta, canSave }: { meta: ResourceMeta | undefined; canSave: boolean }) {
  const { data, loading, error, save, exportFile } = useDominio();
  const fields = useMemo(() => configFields(meta), [meta]);
  const groups = useMemo<GroupDescriptor[]>(() => [{ title: 'Configuração', framed: true, fields }], [fields]);
  const form = useFormState(fields, configValues(meta, fields, null));
  const period = useFormState(fieldsOf(PERIOD_GROUPS), lastMonth());
  const [saving, setSaving] = useState(false);
  const [exporting, setExporting] = useState<ExportKind | null>(null);
  const [exported, setExported] = useState<string | null>(null);
  // A newly read configuration fills the form once (adjusted while rendering, no effect).
  const [shown, setShown] = useState<typeof data>(undefined);
  if (data !== shown) {
    setShown(data);
    if (data) form.reset(configValues(meta, fields, data.config));
  }

  const submit = async () => {
    if (!form.validateAll()) return;
    setSaving(true);
    try {
      const id = data?.config?.INTD_ID;
      await save({ ...configRow(meta, fields, form.values), ...(id != null ? { INTD_ID: id } : {}) });
      notify.success('Configuração salva com sucesso!');
    } catch (e) {
      notify.error(errorMessage(e));
    } finally {
      setSaving(false);
    }
  };

  const runExport = async (kind: ExportKind) => {
    if (!period.validateAll()) return;
    const from = toApiDate(String(period.values.DATA_INI ?? ''));
    const to = toApiDate(String(period.values.DATA_FIM ?? ''));
    if (!from || !to) return;
    setExporting(kind);
    setExported(null);
    try {
      const file = await exportFile(kind, { DATA_INI: from, DATA_FIM: to });
      saveFile(file);
      setExported(file.name);
      notify.success(`Arquivo ${file.name} gerado.`);
    } catch (e) {
      if (isNotice(e)) notify.warning(e.message);
      else notify.error(errorMessage(e));
    } finally {
      setExporting(null);
    }
  };

  if (loading && !data) return <LoadingScreen />;

  const company = data?.company ?? {};
  const companyName = String(company.EMP_DESCRICAO ?? company.EMP_FANTASIA ?? '');
  const taxId = company.EMP_CGC == null ? '' : maskCpfCnpj(String(company.EMP_CGC));

  return (
    <div className="grid gap-4 xl:grid-cols-3">
      <form
        noValidate
        aria-label="Configuração da integração"
        className="space-y-3 rounded bg-white p-4 shadow-sm xl:col-span-2"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        {(companyName || taxId) && (
          <p className="text-sm text-slate-700" data-testid="dominio-empresa">
            {companyName}
            {taxId ? ` · CNPJ ${taxId}` : ''}
          </p>
        )}
        {error != null && !data && (
          <p role="alert" className="text-sm text-error">
            {errorMessage(error)}
          </p>
        )}
        {data && !data.config && (
          <p role="status" className="rounded bg-amber-50 p-2 text-sm text-amber-900">
            Integração ainda não configurada para esta empresa.
          </p>
        )}
        <FormView form={form} groups={groups} editable={canSave && !saving} />
        {canSave && (
          <div className="flex justify-end border-t border-slate-200 pt-3">
            <button type="submit" className={primaryButton} disabled={saving} data-testid="dominio-salvar">
              {saving ? 'Salvando...' : 'Salvar configuração'}
            </button>
          </div>
        )}
      </form>
      <section aria-label="Exportação" className="space-y-3 self-start rounded bg-white p-4 shadow-sm">
        <h2 className="text-sm font-semibold text-primary">Exportação para a Domínio</h2>
        <form noValidate aria-label="Período da exportação" onSubmit={(e) => e.preventDefault()}>
          <FormView form={period} groups={PERIOD_GROUPS} editable={exporting == null} />
        </form>
        <div className="flex flex-wrap gap-2">
          {(Object.keys(EXPORTS) as ExportKind[]).map((kind) => (
            <button
              key={kind}
              type="button"
              className={kind === 'notas' ? primaryButton : secondaryButton}
              disabled={exporting != null}
              data-testid={`dominio-exportar-${kind}`}
              onClick={() => void runExport(kind)}
            >
              {EXPORTS[kind].label}
            </button>
          ))}
        </div>
        {exporting && (
          <p role="status" className="flex items-center gap-2 text-sm text-primary" data-testid="dominio-exportando">
            <span
              aria-hidden="true"
              className="inline-block h-4 w-4 animate-spin rounded-full border-2 border-primary border-t-transparent"
            />
            Gerando o arquivo de {EXPORTS[exporting].file}... isso pode levar alguns minutos.
          </p>
        )}
        {exported && !exporting && (
          <p role="status" className="text-sm text-tertiary">
            Arquivo {exported} baixado.
          </p>
        )}
      </section>
    </div>
  );
}
