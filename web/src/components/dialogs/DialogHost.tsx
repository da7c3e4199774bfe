import {
  createContext,
  lazy,
  Suspense,
  useCallback,
  useContext,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import type { ConfirmSettings } from './ConfirmDialog';
import type { EmailSettings } from './EmailDialog';
import type { GenericDialogSettings } from './GenericDialog';
import type { WhatsAppSettings } from './WhatsAppDialog';

// Loaded on first use: the forms inside them are not needed to start the app.
const ConfirmDialog = lazy(() => import('./ConfirmDialog').then((m) => ({ default: m.ConfirmDialog })));
const EmailDialog = lazy(() => import('./EmailDialog').then((m) => ({ default: m.EmailDialog })));
const GenericDialog = lazy(() => import('./GenericDialog').then((m) => ({ default: m.GenericDialog })));
const WhatsAppDialog = lazy(() => import('./WhatsAppDialog').then((m) => ({ default: m.WhatsAppDialog })));

export interface Dialogs {
  confirm: (s: ConfirmSettings) => void;
  whatsapp: (s: WhatsAppSettings) => void;
  email: (s: EmailSettings) => void;
  open: (s: GenericDialogSettings) => void;
}

const DialogContext = createContext<Dialogs | null>(null);

/** A dialog on screen: its settings, and a serial that mounts each one afresh (its own form). */
interface Shown<T> {
  settings: T;
  serial: number;
}

interface State {
  confirm: Shown<ConfirmSettings> | null;
  whatsapp: Shown<WhatsAppSettings> | null;
  email: Shown<EmailSettings> | null;
  generic: Shown<GenericDialogSettings> | null;
}

const empty: State = { confirm: null, whatsapp: null, email: null, generic: null };

/**
 * The shell's dialogs: each opens when its settings are set and closes when they are cleared.
 * A dialog closes only itself: one whose action opens another of the same kind (a refusal the
 * user may override, asked from a confirmation's OK) leaves the new one open.
 */
export function DialogHost({ children }: { children: ReactNode }) {
  const [state, setState] = useState<State>(empty);
  const serial = useRef(0);
  const show = useCallback(<K extends keyof State>(key: K, settings: NonNullable<State[K]>['settings']) => {
    serial.current += 1;
    const shown = { settings, serial: serial.current };
    setState((s) => ({ ...s, [key]: shown }));
  }, []);
  const close = useCallback(
    <K extends keyof State>(key: K, shown: State[K]) => setState((s) => (s[key] === shown ? { ...s, [key]: null } : s)),
    [],
  );
  const api = useMemo<Dialogs>(
    () => ({
      confirm: (s) => show('confirm', s),
      whatsapp: (s) => show('whatsapp', s),
      email: (s) => show('email', s),
      open: (s) => show('generic', s),
    }),
    [show],
  );
  const { generic, confirm, whatsapp, email } = state;
  return (
    <DialogContext.Provider value={api}>
      {children}
      <Suspense fallback={null}>
        {generic && (
          <GenericDialog key={generic.serial} settings={generic.settings} onClose={() => close('generic', generic)} />
        )}
        {confirm && (
          <ConfirmDialog key={confirm.serial} settings={confirm.settings} onClose={() => close('confirm', confirm)} />
        )}
        {whatsapp && (
          <WhatsAppDialog
            key={whatsapp.serial}
            settings={whatsapp.settings}
            onClose={() => close('whatsapp', whatsapp)}
          />
        )}
        {email && <EmailDialog key={email.serial} settings={email.settings} onClose={() => close('email', email)} />}
      </Suspense>
    </DialogContext.Provider>
  );
}

export function useDialogs(): Dialogs {
  const ctx = useContext(DialogContext);
  if (!ctx) throw new Error('useDialogs outside DialogHost');
  return ctx;
}
