// The buttons of a document screen, read from the register metadata (ResourceMeta.actions):
// when each is enabled, what it asks first, the path parameters and body of its call
// (resourceAction), which screen its answer opens, and which of its refusals the user may
// override (asked, then the call made again with the override in its body).
import type { FormValues, GroupDescriptor } from '../../components/fields/types';
import { rowOf, valueOf, type AnyRow, type CallInput, type ColumnValues } from '../../lib/api';
import { parseBRNumber, toApiDate } from '../../lib/format';
import { editHref, isTrue, recordId, type DocumentRegister, type ResourceMeta } from '../../lib/resources/metaFields';
import { allows, type Permissions } from '../../lib/resources/permissions';
import { statusOf } from './documentMeta';

export type ActionMeta = ResourceMeta['actions'][number];
type ValueSource = ActionMeta['params'][number]['source'];

/** What a call's values are taken from: the record on screen, the company, the signed-in user. */
export interface ActionContext {
  record: AnyRow;
  emp: number;
  userId: number;
}

/** A value a button sends: a field of the record, the user's id or a constant. */
export function sourceValue(source: ValueSource, ctx: ActionContext): unknown {
  switch (source.from) {
    case 'field':
      return source.value == null ? null : (valueOf(ctx.record, source.value) ?? null);
    case 'user':
      return ctx.userId;
    case 'const':
      return source.value;
    default:
      throw new Error(`Origem de valor desconhecida: ${source.from}.`);
  }
}

/** The `{name}` parameters of a legacy path, in order. */
export const pathParams = (path: string): string[] => [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);

/**
 * The call's path parameters by name, the company always among them: a parameter the button
 * declares takes its source; else `emp` is the company, `user`/`userId` the signed-in user,
 * and any other name the record's field of that name.
 */
export function actionParams(action: ActionMeta, ctx: ActionContext): ColumnValues {
  const declared = new Map(action.params.map((p) => [p.name, p.source]));
  const value = (name: string): unknown => {
    const source = declared.get(name);
    if (source) return sourceValue(source, ctx);
    if (name === 'emp') return ctx.emp;
    if (name === 'user' || name === 'userId') return ctx.userId;
    return valueOf(ctx.record, name) ?? null;
  };
  return { emp: ctx.emp, ...Object.fromEntries(pathParams(action.path).map((name) => [name, value(name)])) };
}

/**
 * The call's legacy REST path with its parameters filled in (`/manifestonfe/download/doc`,
 * `/cte/dacte/{CTE_ID}` -> `/cte/dacte/12`): a download button calls it directly, since its
 * answer is a file, not a record GraphQL could carry.
 */
export function actionPath(action: ActionMeta, ctx: ActionContext): string {
  const params = actionParams(action, ctx);
  return action.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(params[name] ?? '')));
}

/** The call's body: the button's declared values and what its dialog asked; none when both are empty. */
export function actionBody(action: ActionMeta, ctx: ActionContext, asked?: ColumnValues): ColumnValues | undefined {
  const body = { ...Object.fromEntries(action.body.map((v) => [v.name, sourceValue(v.source, ctx)])), ...asked };
  return Object.keys(body).length > 0 ? body : undefined;
}

/** A confirmation text with each `{FIELD}` replaced by the record's value. */
export const fillText = (text: string, record: AnyRow): string =>
  text.replace(/\{(\w+)\}/g, (_, name: string) => String(valueOf(record, name) ?? ''));

/**
 * A dialog a button asks before its call (its title is the button's `dialogTitle`), and how its
 * values become the call's body.
 */
export interface ActionDialog {
  okText: string;
  groups: GroupDescriptor[];
  body: (values: FormValues) => ColumnValues;
}

/** The acréscimo dialog's values as the call's body: VALOR or PERCENTUAL. */
export function surchargeBody(values: FormValues): { PERCENTUAL: string } | { VALOR: string } {
  const n = String(parseBRNumber(String(values.VALOR ?? '')) ?? 0);
  return values.TIPO === 'P' ? { PERCENTUAL: n } : { VALOR: n };
}

/**
 * A dialog of one required multi-line text `name` ('{label}') of `min` to `max` characters
 * (the generic forms' messages: required, minimum length; the field takes no more than `max`),
 * sent trimmed as the body's `name`: the justification of a cancellation, a correction letter.
 */
function textDialog(name: string, label: string, min: number, max: number, okText: string): ActionDialog {
  return {
    okText,
    groups: [{ fields: [{ name, type: 'TEXTAREA', text: label, required: true, min, length: max, width: 12 }] }],
    body: (values) => ({ [name]: String(values[name] ?? '').trim() }),
  };
}

/** The MDF-e closing dialog's values as the call's body: the date (yyyy-MM-dd), UF and IBGE code. */
export function closingBody(values: FormValues): { DATA_ENCERRAMENTO?: string; UF: string; CODIGO_MUNICIPIO: string } {
  const raw = String(values.DATA_ENCERRAMENTO ?? '').trim();
  const date = /^\d{4}-\d{2}-\d{2}$/.test(raw) ? raw : toApiDate(raw);
  return {
    ...(date ? { DATA_ENCERRAMENTO: date } : {}),
    UF: String(values.UF ?? '')
      .trim()
      .toUpperCase(),
    CODIGO_MUNICIPIO: String(values.CODIGO_MUNICIPIO ?? '').replace(/\D/g, ''),
  };
}

/** The CT-e correction letter's values as the call's body: the group, field and right value. */
export function cteCorrectionBody(values: FormValues): { GRUPO: string; CAMPO: string; VALOR: string } {
  const text = (name: string) => String(values[name] ?? '').trim();
  return { GRUPO: text('GRUPO'), CAMPO: text('CAMPO'), VALOR: text('VALOR') };
}

/**
 * The dialogs the client knows by `ActionMeta.dialog`: `surcharge` (a value or percentage),
 * `justificativa` (JUSTIFICATIVA, 15 to 255 characters: an NF-e event, a CT-e or MDF-e
 * cancellation) and `correcao` (CORRECAO, 15 to 1000 characters: a correction letter).
 */
export const ACTION_DIALOGS: Record<string, ActionDialog> = {
  justificativa: textDialog('JUSTIFICATIVA', 'Justificativa', 15, 255, 'Confirmar'),
  correcao: textDialog('CORRECAO', 'Correção', 15, 1000, 'Enviar'),
  // An MDF-e's closing: where and when the trip ended.
  encerramento: {
    okText: 'Encerrar',
    groups: [
      {
        fields: [
          { name: 'DATA_ENCERRAMENTO', type: 'DATE', text: 'Data do encerramento', required: true, width: 4 },
          { name: 'UF', type: 'TEXT', text: 'UF', required: true, length: 2, width: 2 },
          {
            name: 'CODIGO_MUNICIPIO',
            type: 'TEXT',
            text: 'Município (código IBGE)',
            required: true,
            length: 7,
            width: 6,
          },
        ],
      },
    ],
    body: closingBody,
  },
  // A CT-e's correction letter names the group and field of the CT-e and the right value.
  'cte-correction': {
    okText: 'Enviar carta de correção',
    groups: [
      {
        fields: [
          { name: 'GRUPO', type: 'TEXT', text: 'Grupo (ex.: compl)', required: true, width: 4 },
          { name: 'CAMPO', type: 'TEXT', text: 'Campo (ex.: xObs)', required: true, width: 4 },
          { name: 'VALOR', type: 'TEXTAREA', text: 'Valor correto', required: true, width: 12 },
        ],
      },
    ],
    body: cteCorrectionBody,
  },
  surcharge: {
    okText: 'Aplicar',
    groups: [
      {
        fields: [
          {
            name: 'TIPO',
            type: 'COMBOBOX',
            text: 'Tipo',
            required: true,
            width: 6,
            options: [
              { value: 'V', text: 'Valor (R$)' },
              { value: 'P', text: 'Percentual (%)' },
            ],
          },
          { name: 'VALOR', type: 'MONEY', text: 'Acréscimo', required: true, width: 6 },
        ],
      },
    ],
    body: surchargeBody,
  },
};

/**
 * A refusal the user may override: the server refuses the call with HTTP `status` and a
 * message starting with `prefix`; the user sees that message with `question` and, confirming,
 * the same call is made again with `body` added to its body (the server records who did it).
 */
export interface RefusalOverride {
  status: number;
  prefix: string;
  title: string;
  question: string;
  okText: string;
  body: ColumnValues;
}

/** Invoicing past the credit limit, released by the user (the call's typed input, InvoiceIn). */
const RELEASE_CREDIT_LIMIT: Partial<CallInput<'pedido', 'faturar'>> = { LIBERAR_LIMITE: true };

/**
 * The refusals a button's call may override, by `{register}.{action}`. Invoicing an order past
 * the customer's credit limit: the gateway reads LIBERAR_LIMITE from the call's body, and
 * refuses (403, naming the permission) a user who may not release it.
 */
export const REFUSAL_OVERRIDES: Record<string, RefusalOverride[]> = {
  'pedido.faturar': [
    {
      status: 409,
      prefix: 'Limite de crédito excedido',
      title: 'Limite de crédito excedido',
      question: 'Faturar mesmo assim? A liberação fica registrada no pedido com o seu usuário.',
      okText: 'Liberar e faturar',
      body: RELEASE_CREDIT_LIMIT,
    },
  ],
};

/** The HTTP status and message of a refused call (a GraphQL error carries the status in its extensions). */
function refusalOf(error: unknown): { status: number | null; message: string } | null {
  const first = (error as { graphQLErrors?: ReadonlyArray<{ message: string; extensions?: { status?: unknown } }> })
    ?.graphQLErrors?.[0];
  if (!first) return null;
  const status = first.extensions?.status;
  return { status: typeof status === 'number' ? status : null, message: first.message };
}

/**
 * The override a refused call of `register` offers, with the server's message; null when the
 * refusal is not one the button declares, or when what the call added to its declared body
 * (`asked`) carried the override already (the server refused it again: that refusal is final).
 */
export function overridableRefusal(
  register: string,
  action: ActionMeta,
  error: unknown,
  asked: ColumnValues | undefined,
): { override: RefusalOverride; message: string } | null {
  const refusal = refusalOf(error);
  if (!refusal) return null;
  const override = (REFUSAL_OVERRIDES[`${register}.${action.name}`] ?? []).find(
    (o) => o.status === refusal.status && refusal.message.startsWith(o.prefix),
  );
  if (!override || Object.keys(override.body).every((k) => asked != null && k in asked)) return null;
  return { override, message: refusal.message };
}

/**
 * A button is enabled when the document's status is one of its `openWhen` (any, when empty),
 * its `unless` field is not true, the user holds the program permission its call needs
 * (ActionMeta.permission), and the client knows the dialog it asks.
 */
export function actionEnabled(action: ActionMeta, meta: DocumentRegister, record: AnyRow, perms: Permissions): boolean {
  if (action.openWhen.length > 0 && !action.openWhen.includes(statusOf(meta, record))) return false;
  if (action.unless && isTrue(valueOf(record, action.unless))) return false;
  if (action.dialog && !ACTION_DIALOGS[action.dialog]) return false;
  return allows(perms, action.permission);
}

/**
 * The edit screen the answer opens (the register `opens`, by the key fields of the answered
 * row: the call answers that register's row); null: stay.
 */
export function openedHref(action: ActionMeta, metas: ResourceMeta[], answer: unknown): string | null {
  const target = action.opens ? metas.find((m) => m.name === action.opens) : undefined;
  const row = target ? rowOf(target.name, answer) : null;
  return target && row ? editHref(target, recordId(target, row)) : null;
}
