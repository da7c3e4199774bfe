import { useState } from 'react';
import { Link } from 'react-router';
import { primaryButton } from '../../components/fields/styles';
import { errorMessage } from '../../lib/apollo';
import { pairNumber, readConnection, type Connection } from '../../lib/messaging';
import { useCallResult } from '../../lib/resources/registerCalls';
import { notify } from '../../lib/toast';
import { useVisibleInterval } from '../../lib/useVisibleInterval';

/** How often the state is asked again while a QR code waits to be read. */
export const PAIRING_REFRESH_MS = 5_000;

const STATE_TONE: Record<string, string> = {
  open: 'bg-emerald-100 text-emerald-800',
  connecting: 'bg-amber-100 text-amber-900',
};

export interface SettingsLink {
  href: string;
  text: string;
}

interface Props {
  /** The user may pair the number (the register's update permission). */
  canConnect: boolean;
  /** The provider settings registers (WhatsApp, e-mail). */
  settings: SettingsLink[];
}

/**
 * The company's WhatsApp number at its provider (GET /whatsapp/status/conexao): connected or
 * not, its number and name. 'Conectar' pairs it (POST /whatsapp/auth, Evolution API) and shows
 * the QR code to read with the phone; the state is asked again every 5 s until it connects. No
 * provider configured: the server says so, and the settings are a click away.
 */
export function ConnectionCard({ canConnect, settings }: Props) {
  const status = useCallResult(readConnection);
  const [qr, setQr] = useState<string | null>(null);
  const [pairing, setPairing] = useState(false);
  const connection: Connection | undefined = status.data;
  const connected = connection?.state === 'open';
  const waiting = !connected && (qr !== null || connection?.state === 'connecting');
  useVisibleInterval(() => waiting && status.reload(), PAIRING_REFRESH_MS);

  const connect = async () => {
    setPairing(true);
    try {
      const answer = await pairNumber();
      setQr(answer.qrcode);
      if (!answer.qrcode) notify.info(answer.msg);
      status.reload();
    } catch (e) {
      notify.error(errorMessage(e));
    } finally {
      setPairing(false);
    }
  };

  return (
    <section aria-label="Conexão do WhatsApp" className="space-y-3 rounded bg-white p-4 shadow-sm">
      <div className="flex flex-wrap items-center gap-2">
        <h2 className="text-base font-semibold text-primary">Conexão do WhatsApp</h2>
        {connection && (
          <span
            data-testid="whatsapp-conexao"
            className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${STATE_TONE[connection.state] ?? 'bg-red-100 text-red-800'}`}
          >
            {connection.msg}
          </span>
        )}
      </div>
      {status.error != null && !connection ? (
        <p role="alert" className="text-sm text-slate-700">
          {errorMessage(status.error)}
        </p>
      ) : status.loading && !connection ? (
        <p className="text-sm text-slate-500">Consultando a conexão...</p>
      ) : (
        connection &&
        (connection.number || connection.name || connection.quality) && (
          <dl className="flex flex-wrap gap-x-6 gap-y-1 text-sm">
            {connection.number && (
              <div>
                <dt className="inline text-slate-500">Número: </dt>
                <dd className="inline">{connection.number}</dd>
              </div>
            )}
            {connection.name && (
              <div>
                <dt className="inline text-slate-500">Nome: </dt>
                <dd className="inline">{connection.name}</dd>
              </div>
            )}
            {connection.quality && (
              <div>
                <dt className="inline text-slate-500">Qualidade: </dt>
                <dd className="inline">{connection.quality}</dd>
              </div>
            )}
          </dl>
        )
      )}
      {qr && !connected && (
        <figure className="flex flex-col items-start gap-2">
          <img src={qr} alt="QR code para conectar o WhatsApp" className="h-56 w-56 rounded border border-slate-200" />
          <figcaption className="text-xs text-slate-600">
            No celular, abra o WhatsApp, toque em Aparelhos conectados, depois em Conectar um aparelho, e leia o código.
          </figcaption>
        </figure>
      )}
      <div className="flex flex-wrap items-center gap-3">
        {canConnect && !connected && (
          <button type="button" className={primaryButton} disabled={pairing} onClick={() => void connect()}>
            {pairing ? 'Conectando...' : qr ? 'Gerar novo QR code' : 'Conectar'}
          </button>
        )}
        {settings.map((s) => (
          <Link key={s.href} to={s.href} className="text-sm text-primary underline">
            {s.text}
          </Link>
        ))}
      </div>
    </section>
  );
}
