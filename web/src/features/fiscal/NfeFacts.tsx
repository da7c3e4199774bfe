import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { formatMoney, formatTimestamp } from '../../lib/format';
import { resourceHref, type ResourceMeta } from '../../lib/resources/metaFields';
import { formatKey, type Nfe } from './nfe';

function Fact({ label, children, wide }: { label: string; children: ReactNode; wide?: boolean }) {
  return (
    <div className={wide ? 'col-span-2 sm:col-span-3 lg:col-span-4' : ''}>
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd className="text-sm break-words">{children}</dd>
    </div>
  );
}

const when = (v: string | null) => (v ? formatTimestamp(v) : '');

/** Number, series, access key, protocol, dates and value of the NF-e; its cancel and last correction. */
export function NfeFacts({ nfe }: { nfe: Nfe }) {
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4">
      <Fact label="Número">{nfe.number ?? ''}</Fact>
      <Fact label="Série">{nfe.series ?? ''}</Fact>
      <Fact label="Emissão">{when(nfe.issuedAt)}</Fact>
      <Fact label="Valor">
        {nfe.value == null || nfe.value === '' ? '' : formatMoney(nfe.value as string | number)}
      </Fact>
      {nfe.key && (
        <Fact label="Chave de acesso" wide>
          <span data-testid="nfe-chave" className="font-mono">
            {formatKey(nfe.key)}
          </span>
        </Fact>
      )}
      {nfe.protocol && <Fact label="Protocolo">{nfe.protocol}</Fact>}
      {nfe.authorisedAt && <Fact label="Autorização">{when(nfe.authorisedAt)}</Fact>}
      {nfe.status === 'cancelado' && (
        <>
          <Fact label="Cancelamento">{when(nfe.cancelledAt)}</Fact>
          {nfe.cancelProtocol && <Fact label="Protocolo do cancelamento">{nfe.cancelProtocol}</Fact>}
        </>
      )}
      {nfe.corrections > 0 && (
        <Fact label={`Carta de correção (${nfe.corrections})`} wide>
          {nfe.lastCorrection ?? ''}
        </Fact>
      )}
    </dl>
  );
}

/** The register screen of `path` by the metadata's title ('/clientes' -> 'Clientes'), else the path. */
function screenTitle(path: string, metas: ResourceMeta[]): string {
  const found = metas.find((m) => resourceHref(m) === path);
  return found?.title ?? path.replace(/^\//, '');
}

/** The SEFAZ's text without the 'Rejeição:' it starts with (the heading says it). */
const plainMotive = (text: string) => text.replace(/^Rejei[cç][aã]o:\s*/i, '');

/** The SEFAZ's refusal: its code and text, what it means, the field to fix and where it is. */
export function RejectionBox({ nfe, metas }: { nfe: Nfe; metas: ResourceMeta[] }) {
  const r = nfe.rejection;
  if (!r) return null;
  return (
    <div
      role="alert"
      aria-label="Rejeição da SEFAZ"
      className="space-y-1 rounded border border-red-200 bg-red-50 p-3 text-sm text-red-900"
    >
      <p className="font-semibold">
        Rejeição {r.cStat}
        {r.xMotivo ? `: ${plainMotive(r.xMotivo)}` : ''}
      </p>
      {r.explanation && <p>{r.explanation}</p>}
      {r.field && (
        <p>
          <span className="font-medium">Campo a corrigir:</span> {r.field}
        </p>
      )}
      {r.screen && (
        <p>
          <Link className="font-medium text-primary underline" to={r.screen}>
            Abrir {screenTitle(r.screen, metas)} para corrigir
          </Link>
        </p>
      )}
    </div>
  );
}
