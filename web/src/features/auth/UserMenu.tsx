import { maskCpfCnpj } from '../../lib/masks';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { Icon } from '../../components/Icon';
import { useSession } from '../../lib/session';
import { CLIENT_VERSION } from '../../lib/version';
import { useLogout } from './useLogout';

/** Entries only internal operators see (spec §2.5, §6). */
export const PRIVILEGED_ITEMS = [
  { text: 'HELP DESK', path: '/solicitacoes' },
  { text: 'MONITORAMENTO', path: '/monitoramentobackupbancos' },
  { text: 'ATUALIZA BD', path: '/atualizabanco' },
  { text: 'EMPRESAS', path: '/gerenciadorempresas' },
  { text: 'Leads', path: '/empresaslead' },
];

export function UserMenu() {
  const session = useSession();
  const [open, setOpen] = useState(false);
  const navigate = useNavigate();
  const logout = useLogout();
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => !box.current?.contains(e.target as Node) && setOpen(false);
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open]);
  if (!session) return null;
  const item = 'block w-full px-4 py-2 text-left text-sm hover:bg-slate-100';
  const go = (path: string) => {
    setOpen(false);
    navigate(path);
  };
  return (
    <div ref={box} className="relative">
      <button
        type="button"
        aria-label="Menu do usuário"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
        className="rounded p-1 hover:bg-white/10"
      >
        <Icon name="user" />
      </button>
      {open && (
        <div
          role="menu"
          className="absolute right-0 z-40 mt-1 w-64 rounded border border-slate-200 bg-white py-1 text-slate-800 shadow-lg"
        >
          <div className="border-b border-slate-200 px-4 py-2">
            <p className="font-medium">{session.user.name || session.user.login}</p>
            <p className="text-xs text-slate-500">{maskCpfCnpj(session.company.taxId)}</p>
            <p className="text-xs text-slate-500">Versão: {CLIENT_VERSION}</p>
          </div>
          <button type="button" role="menuitem" className={item} onClick={() => go('/whatsapp')}>
            WHATSAPP
          </button>
          {session.privileged &&
            PRIVILEGED_ITEMS.map((p) => (
              <button key={p.text} type="button" role="menuitem" className={item} onClick={() => go(p.path)}>
                {p.text}
              </button>
            ))}
          <button type="button" role="menuitem" className={`${item} text-error`} onClick={() => void logout()}>
            Sair
          </button>
        </div>
      )}
    </div>
  );
}
